"""What the command line points at: ``PATH_OR_MODULE:FUNC`` targets and ``--spec`` strings.

Kept apart from ``cli.py`` so that the parsing rules (and their error
messages, which users read) sit in one small place. Every problem raises
``UsageError`` with one line saying what is wrong and what to write instead;
the CLI prints it and exits with status 2.

Resolving a module name never imports it (importing runs user code, and
``show``/``convert`` must be safe on untrusted code): the file is found by
walking ``sys.path`` the way the import system would for plain source
modules and packages.
"""
from __future__ import annotations

import ast
import os
import re
import sys
from dataclasses import dataclass

from graph.dtypes import as_dtype
from graph.shapes import TensorShape


class UsageError(Exception):
    """A command-line mistake: bad path, bad target, bad spec. Exit status 2."""


@dataclass(frozen=True)
class Target:
    """A function named on the command line: the file holding it and its dotted qualname."""

    path: str
    qualname: str
    module: str | None  # the dotted module name when given as one (``pkg.mod:f``)


def parse_target(text: str) -> Target:
    """``file.py:func``, ``file.py:Class.method`` or ``package.module:func``."""
    if ":" not in text:
        raise UsageError(f"expected PATH:FUNC or MODULE:FUNC, got {text!r} "
                         "(for example examples/userpkg/core.py:squash)")
    where, qualname = text.rsplit(":", 1)
    if not where or not qualname:
        raise UsageError(f"expected PATH:FUNC or MODULE:FUNC, got {text!r}")
    if not all(part.isidentifier() for part in qualname.split(".")):
        raise UsageError(f"{qualname!r} is not a function name (write FUNC or Class.method)")
    if where.endswith(".py") or os.sep in where or "/" in where or os.path.exists(where):
        if not os.path.isfile(where):
            raise UsageError(f"no such file: {where}")
        return Target(where, qualname, None)
    if not all(part.isidentifier() for part in where.split(".")):
        raise UsageError(f"{where!r} is neither a Python file nor a module name")
    return Target(find_module_file(where), qualname, where)


def find_module_file(name: str, search_path: list[str] | None = None) -> str:
    """The source file of module ``name`` (``a.b.c``), found without importing anything."""
    roots = [os.getcwd()] + [p or os.getcwd() for p in (search_path or sys.path)]
    parts = name.split(".")
    for root in roots:
        base = os.path.join(root, *parts)
        for candidate in (base + ".py", os.path.join(base, "__init__.py")):
            if os.path.isfile(candidate):
                return candidate
    raise UsageError(f"cannot find module {name!r} (looked for {'/'.join(parts)}.py and "
                     f"{'/'.join(parts)}/__init__.py on sys.path); give a file path instead")


# -- input specs ---------------------------------------------------------------------------------

_SPEC = re.compile(r"^\s*([A-Za-z_][A-Za-z0-9_]*)\s*(?:\[(.*)\])?\s*$", re.S)
_DTYPES = ("bool", "float16", "float32", "float64", "int8", "int16", "int32", "int64",
           "uint8", "string")


def parse_spec(text: str):
    """A ``TensorSpec`` from ``float32[None, 3]`` (``float32`` or ``float32[]`` is a scalar,
    ``float32[...]`` has unknown rank), or a Python value from a literal (``3``, ``True``,
    ``'relu'``) for arguments that are not tensors."""
    from runtime.tensor_spec import TensorSpec

    match = _SPEC.match(text)
    if match is None or match.group(1) in ("True", "False", "None"):
        return _python_value(text)
    name, dims = match.group(1), match.group(2)
    if name not in _DTYPES:
        raise UsageError(f"bad --spec {text!r}: unknown dtype {name!r} "
                         f"(one of {', '.join(_DTYPES)})")
    dtype = as_dtype(name)
    if dims is None or not dims.strip():
        return TensorSpec(TensorShape([]), dtype)
    if dims.strip() == "...":
        return TensorSpec(TensorShape(None), dtype)
    shape = []
    for dim in dims.split(","):
        dim = dim.strip()
        if dim in ("None", "?"):
            shape.append(None)
        elif dim.isdigit():
            shape.append(int(dim))
        else:
            raise UsageError(f"bad --spec {text!r}: dimension {dim!r} is not a size, None or ? "
                             "(for example float32[None, 3])")
    return TensorSpec(TensorShape(shape), dtype)


def _python_value(text: str):
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError):
        raise UsageError(f"bad --spec {text!r}: write DTYPE[DIMS] such as float32[None] or "
                         "int32[2, 3], or a Python literal such as 3") from None
