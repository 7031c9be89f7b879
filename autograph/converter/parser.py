"""Finds a function's source and parses it into a gast tree.

The tree's line numbers are relative to the source snippet; ``Source``
records where the snippet starts in the user's file, so that every node can
be mapped back to the user's file:line.
"""
from __future__ import annotations

import ast
import inspect
import linecache
import textwrap
import threading
from dataclasses import dataclass

import gast

from autograph.converter.gast_convert import ast_to_gast
from autograph.converter.gast_convert import parse as _parse
from autograph.errors import ConversionError, SourceUnavailableError


@dataclass(frozen=True, slots=True)
class Source:
    """A function's parsed source: its node, file and the file line of the snippet's line 1."""

    node: gast.AST  # gast.FunctionDef, or gast.Lambda for a lambda
    filename: str
    line_offset: int  # file line = node line + line_offset
    function_name: str
    # ``_Class`` when the function is written inside a class: Python mangles its private
    # names (``self.__x`` is ``self._Class__x``), and the converted code, compiled outside
    # the class, must spell them so
    private_prefix: str | None = None

    def file_line(self, lineno: int) -> int:
        return lineno + self.line_offset

    def line_text(self, lineno: int) -> str:
        return linecache.getline(self.filename, self.file_line(lineno)).strip()


def private_prefix(code) -> str | None:
    """``_C`` for code written inside ``class C`` (the innermost class around it, from its
    qualified name: ``C.m``, ``C.m.<locals>.g``), as Python mangles ``__x`` there; or None."""
    parts = code.co_qualname.split(".")[:-1]
    while parts:
        name = parts.pop()
        if name != "<locals>":
            stripped = name.lstrip("_")
            return "_" + stripped if stripped else None
        if parts:
            parts.pop()  # the function whose locals these are
    return None


def _describe(fn) -> str:
    name = getattr(fn, "__qualname__", None) or getattr(fn, "__name__", None) or repr(fn)
    code = getattr(fn, "__code__", None)
    where = f" (defined at {code.co_filename}:{code.co_firstlineno})" if code else ""
    return f"{name}{where}"


def _source_lines(fn):
    try:
        # (of its code: for a function, inspect follows ``__wrapped__`` to another one)
        lines, start = inspect.getsourcelines(fn.__code__)
    except (OSError, TypeError) as e:
        raise SourceUnavailableError(
            f"Cannot convert {_describe(fn)}: its source code is not available ({e}). Functions "
            "defined with exec() or in an interactive prompt have no source file. Define it in "
            "a module, or mark it with @tf.autograph.experimental.do_not_convert to run it "
            "unconverted.") from None
    return lines, max(start, 1)


_modules: dict[str, tuple[list, dict]] = {}
_modules_lock = threading.Lock()


def _definitions(filename: str) -> dict | None:
    """first line -> function/lambda nodes defined there, from the module's cached tree."""
    linecache.checkcache(filename)
    lines = linecache.getlines(filename)
    if not lines:
        return None
    cached = _modules.get(filename)
    if cached is not None and cached[0] is lines:
        return cached[1]
    try:
        tree = ast.parse("".join(lines))
    except (SyntaxError, ValueError):
        return None
    index: dict[int, list] = {}
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            firsts = {node.lineno} | ({node.decorator_list[0].lineno} if node.decorator_list
                                      else set())
            for line in firsts:
                index.setdefault(line, []).append(node)
        elif isinstance(node, ast.Lambda):
            index.setdefault(node.lineno, []).append(node)
    with _modules_lock:
        _modules[filename] = (lines, index)
    return index


def _from_module(fn) -> Source | None:
    """The function's node from its module's (cached) tree, when it can be found there."""
    code = fn.__code__
    index = _definitions(code.co_filename)
    if not index:
        return None
    candidates = index.get(code.co_firstlineno, [])
    if fn.__name__ == "<lambda>":
        params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
        found = [n for n in candidates if isinstance(n, ast.Lambda)
                 and [a.arg for a in n.args.args + n.args.kwonlyargs] == params]
        if len(found) > 1:
            found = _by_position(found, code, 1)
    else:
        found = [n for n in candidates if not isinstance(n, ast.Lambda)
                 and n.name == code.co_name]
    if len(found) != 1:
        return None
    if isinstance(found[0], ast.AsyncFunctionDef):
        raise ConversionError(f"Cannot convert {_describe(fn)}: async functions are not "
                              "supported; call it outside tf.function.")
    return Source(ast_to_gast(found[0]), code.co_filename, 0, fn.__name__,
                  private_prefix(code))


def parse_function(fn) -> Source:
    """Parses the source of ``fn`` (a plain function or a lambda)."""
    found = _from_module(fn)
    if found is not None:
        return found
    lines, start = _source_lines(fn)
    code = fn.__code__
    if fn.__name__ == "<lambda>":
        return _parse_lambda(fn, "".join(lines), start)
    text = textwrap.dedent("".join(lines))
    try:
        module = _parse(text)
    except SyntaxError as e:
        raise ConversionError(f"Cannot parse the source of {_describe(fn)}: {e}") from None
    for node in module.body:
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            if isinstance(node, gast.AsyncFunctionDef):
                raise ConversionError(f"Cannot convert {_describe(fn)}: async functions are not "
                                      "supported; call it outside tf.function.")
            if node.name != code.co_name:
                continue
            return Source(node, code.co_filename, start - 1, fn.__name__,
                          private_prefix(code))
    raise ConversionError(f"Cannot find the definition of {_describe(fn)} in its source.")


def _parse_lambda(fn, text: str, start: int) -> Source:
    """Parses the lines holding a lambda, keeping their columns (to tell lambdas apart)."""
    code = fn.__code__
    first_line = start
    if text[:1].isspace():
        text, first_line = "if 1:\n" + text, start - 1
    try:
        module = _parse(text)
    except SyntaxError:
        module = None
    if module is None:
        raise SourceUnavailableError(
            f"Cannot parse the source of the lambda {_describe(fn)}: write it as a def, or mark "
            "it with do_not_convert.")
    params = list(code.co_varnames[:code.co_argcount + code.co_kwonlyargcount])
    found = [n for n in gast.walk(module) if isinstance(n, gast.Lambda)
             and [a.id for a in n.args.args + n.args.kwonlyargs] == params]
    if len(found) > 1:
        found = _by_position(found, code, first_line)
    if len(found) != 1:
        raise SourceUnavailableError(  # (tf.function runs it as written, with a warning)
            f"Cannot tell which lambda on line {start} of {code.co_filename} is {_describe(fn)}: "
            "write it as a def, or put each lambda on its own line.")
    return Source(found[0], code.co_filename, first_line - 1, "<lambda>",
                  private_prefix(code))


def _by_position(candidates, code, start):
    """Narrows same-signature lambdas on one line by the column of the lambda's code."""
    positions = [p for p in code.co_positions()  # (the entry instruction has an empty span)
                 if None not in p and (p[1], p[3]) > (p[0], p[2])]
    if not positions:
        return candidates
    line, _, col, _ = positions[0]
    rel = line - start + 1
    out = []
    for node in candidates:
        body = node.body
        if (node.lineno, node.col_offset) <= (rel, col) and \
                (rel, col) <= (body.end_lineno, body.end_col_offset):
            out.append(node)
    return out or candidates
