"""Turns a converted tree into a live function that shares the original's world.

The converted ``def`` is compiled inside a factory whose parameters are
``ag__`` and the original's free variables, so the new code object has the
same free variables; the function is then built on the original's globals,
defaults and very closure cells (``nonlocal`` writes reach the same cells).
The generated source goes to ``linecache`` (tracebacks can show it), and
its line → user origin map to ``runtime.origin`` (errors and graph nodes
point at the user's file:line).
"""
from __future__ import annotations

import __future__
import itertools
import linecache
import threading
import types
from dataclasses import dataclass


from autograph.converter.conversion import ConvertedSource
from autograph.converter.unparse import unparse_with_lines
from graph.ir import Origin
from runtime.origin import register_source_map

_counter = itertools.count()
_lock = threading.Lock()


@dataclass(frozen=True)
class LoadedCode:
    """A compiled converted function: its code object and generated file name."""

    code: types.CodeType
    filename: str
    text: str


# The `from __future__` features a code object can carry (compile() flags).
_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


_GENERATED_PREFIX = "<autograph generated "


def is_generated(code: types.CodeType) -> bool:
    """Whether ``code`` is converted code (or a def or lambda nested in it)."""
    return code.co_filename.startswith(_GENERATED_PREFIX)


def compile_converted(converted: ConvertedSource, freevars: tuple[str, ...],
                      co_flags: int = 0) -> LoadedCode:
    """Compiles the converted function with the ``from __future__`` features of the original
    (``co_flags``), and only those: not this module's."""
    params = ", ".join(["ag__"] + [v for v in freevars if v != "ag__"])
    body, lines = unparse_with_lines(converted.tree, indent=1)
    text = (f"def create_converted_entity({params}):\n{body}\n"
            f"    return {converted.name}\n")
    with _lock:
        filename = f"{_GENERATED_PREFIX}{converted.source.function_name} #{next(_counter)}>"
    register_source_map(filename, source_map(converted, lines, 1))
    linecache.cache[filename] = (len(text), None, text.splitlines(True), filename)
    code = compile(text, filename, "exec", flags=co_flags & _FUTURE_FLAGS, dont_inherit=True)
    factory_code = next(c for c in code.co_consts if isinstance(c, types.CodeType))
    inner = next(c for c in factory_code.co_consts
                 if isinstance(c, types.CodeType) and c.co_name == converted.name)
    # the original's name, as frames report it (`f_code.co_name`; click reads it)
    inner = inner.replace(co_name=converted.source.function_name)
    return LoadedCode(inner, filename, text)


def source_map(converted: ConvertedSource, lines: list, offset: int) -> dict[int, Origin]:
    """Generated line → user origin: ``lines`` are ``unparse_with_lines``'s (line, statement)
    pairs, ``offset`` the number of lines above the converted ``def`` in the compiled text."""
    src = converted.source
    mapping: dict[int, Origin] = {}
    origins: dict[int, Origin] = {}  # one Origin per user line (many statements share one)
    for generated, stmt in lines:
        line = getattr(stmt, "lineno", None)
        if line is None or generated + offset in mapping:
            continue
        origin = origins.get(line)
        if origin is None:
            origin = origins[line] = Origin(src.filename, src.file_line(line),
                                            src.function_name, src.line_text(line))
        mapping[generated + offset] = origin
    return mapping


def instantiate(loaded: LoadedCode, original, ag_module) -> types.FunctionType:
    """A function running ``loaded.code`` with ``original``'s globals, defaults and cells."""
    cells = []
    orig_code = getattr(original, "__code__", None)
    orig_free = orig_code.co_freevars if orig_code is not None else ()
    closure = getattr(original, "__closure__", None) or ()
    for name in loaded.code.co_freevars:
        if name == "ag__":
            cells.append(types.CellType(ag_module))
        elif name in orig_free:
            cells.append(closure[orig_free.index(name)])
        else:
            cells.append(types.CellType())
    fn = types.FunctionType(loaded.code, original.__globals__, loaded.code.co_name,
                            original.__defaults__, tuple(cells))
    fn.__kwdefaults__ = original.__kwdefaults__
    fn.__module__ = original.__module__
    fn.__doc__ = original.__doc__
    # the original's names: Python's call errors name the function by them
    # ("f() takes 2 positional arguments but 3 were given")
    fn.__name__, fn.__qualname__ = original.__name__, original.__qualname__
    fn.__ag_converted__ = True  # (no reference back to ``original``: it keys a weak cache)
    return fn
