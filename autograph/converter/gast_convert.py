"""Fast conversions between stdlib ``ast`` and gast trees for the running Python.

gast's own ``ast_to_gast``/``gast_to_ast`` are generic visitors that handle
every Python version; converting a function both ways with them costs more
than the rest of the conversion together. These walk ``__dict__`` directly
and only special-case what differs on Python 3.10+: parameters (``ast.arg``
vs gast ``Name`` with ``Param`` context), ``ExceptHandler.name`` (a str vs a
``Name``), and fields one side lacks (``type_params``, ``annotation``...).
ast → gast (every conversion parses) runs one function per class, generated
from the signature the class documents (``BinOp(expr left, operator op, expr
right)``), so that each field is read as what it holds, without a test.
``tests/autograph/test_gast_convert.py`` checks they agree with gast's.
"""
from __future__ import annotations

import ast

import gast

_AST_CLASSES = {name: getattr(ast, name) for name in dir(ast)
                if isinstance(getattr(ast, name), type) and issubclass(getattr(ast, name), ast.AST)}
_GAST_CLASSES = {name: getattr(gast, name) for name in dir(gast)
                 if isinstance(getattr(gast, name), type)
                 and issubclass(getattr(gast, name), gast.AST)}
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")
_LIST_FIELDS = frozenset(["type_params", "type_ignores", "decorator_list", "keywords"])


def _copy_location(src: dict, dst: dict) -> None:
    for a in _LOCATION:
        if a in src:
            dst[a] = src[a]


def _convert_value(v, convert):
    if isinstance(v, list):
        return [convert(x) if isinstance(x, (ast.AST, gast.AST)) else x for x in v]
    if isinstance(v, (ast.AST, gast.AST)):
        return convert(v)
    return v


def ast_to_gast(node):
    """A gast tree equal to ``gast.ast_to_gast(node)``."""
    return _TO_GAST[node.__class__](node)


class _Converters(dict):
    """ast class -> the function converting one of its nodes, made on first use. (Generated
    converters look their children's up here directly: one subscript, no call between.)"""

    def __missing__(self, ast_cls):
        return _to_gast_converter(ast_cls)


_TO_GAST = _Converters()
_MARKERS: dict = {}  # ast marker class (Load, Add...) -> its gast instance, shared
_PRIMITIVES = frozenset(["identifier", "string", "int", "constant", "object"])
_MARKER_KINDS = frozenset(["expr_context", "operator", "unaryop", "cmpop", "boolop"])


def _to_gast_converter(ast_cls):
    """The converter of ``ast_cls``'s nodes. Markers (field-less, location-less: Load, Add)
    are shared, as ``ast.parse`` shares them; ``arg`` and ``ExceptHandler`` are converted by
    hand; the others by a function generated from the class's signature (``BinOp(expr left,
    operator op, expr right)``), which reads each field as what it holds."""
    name = ast_cls.__name__
    cls = _GAST_CLASSES.get(name)
    if name in ("arg", "ExceptHandler"):
        convert = _special_to_gast
    elif not cls._fields and not ast_cls._attributes:
        marker = _MARKERS[ast_cls] = cls()

        def convert(node, marker=marker):
            return marker
    else:
        convert = _generated_converter(ast_cls, cls)
    _TO_GAST[ast_cls] = convert
    return convert


def _generated_converter(ast_cls, cls):
    kinds = dict((f.split()[1], f.split()[0]) for f in
                 (ast_cls.__doc__ or "").partition("(")[2].rstrip(")").split(", ") if " " in f)
    fields = []
    for f in cls._fields:
        kind = kinds.get(f)
        if kind is None or f not in ast_cls._fields:  # a field only gast has
            fields.append(f"{f!r}: {'[]' if f in _LIST_FIELDS else 'None'}")
            continue
        base = kind.rstrip("*?")
        if base in _PRIMITIVES:
            value = "list(s[{f!r}])" if kind.endswith("*") else "s[{f!r}]"
        elif base in _MARKER_KINDS:
            value = "[M[x.__class__] for x in s[{f!r}]]" if kind.endswith("*") else \
                "M[s[{f!r}].__class__]"
        elif kind.endswith("*"):  # (a dict display's keys hold None for `**mapping`)
            value = "[x if x is None else C[x.__class__](x) for x in s[{f!r}]]"
        elif kind.endswith("?"):
            value = "(None if s[{f!r}] is None else C[s[{f!r}].__class__](s[{f!r}]))"
        else:
            value = "C[s[{f!r}].__class__](s[{f!r}])"
        fields.append(f"{f!r}: " + value.format(f=f))
    fields += [f"{a!r}: s[{a!r}]" for a in _LOCATION if a in ast_cls._attributes]
    source = (f"def convert(node):\n"
              f"    s = node.__dict__\n"
              f"    try:\n"
              f"        d = {{{', '.join(fields)}}}\n"
              "    except KeyError:  # (a node built by hand, lacking a field or location)\n"
              f"        return _generic(node)\n"
              f"    new = NEW(G)\n"
              f"    new.__dict__ = d\n"
              f"    return new\n")
    scope = {"C": _TO_GAST, "M": _MARKERS, "NEW": cls.__new__, "G": cls,
             "_generic": _generic_to_gast}
    exec(compile(source, f"<ast_to_gast {ast_cls.__name__}>", "exec"), scope)  # noqa: S102
    return scope["convert"]


def _generic_to_gast(node):
    """The conversion of any node, field by field (what generated converters fall back on)."""
    cls = _GAST_CLASSES[node.__class__.__name__]
    new = cls.__new__(cls)
    d = new.__dict__
    src = node.__dict__
    for f in cls._fields:
        if f in src:
            d[f] = _convert_value(src[f], ast_to_gast)
        else:
            d[f] = [] if f in _LIST_FIELDS else None
    _copy_location(src, d)
    return new


def _special_to_gast(node):
    """``arg`` (a gast ``Name`` with ``Param`` context) and ``ExceptHandler`` (its name a
    ``Name``)."""
    src = node.__dict__
    if node.__class__.__name__ == "arg":
        new = gast.Name(id=node.arg, ctx=gast.Param(),
                        annotation=_convert_value(node.annotation, ast_to_gast),
                        type_comment=getattr(node, "type_comment", None))
        _copy_location(src, new.__dict__)
        return new
    cls = gast.ExceptHandler
    new = cls.__new__(cls)
    d = new.__dict__
    for f in cls._fields:
        d[f] = _convert_value(src[f], ast_to_gast) if f in src else None
    if isinstance(node.name, str):
        d["name"] = gast.Name(id=node.name, ctx=gast.Store(), annotation=None,
                              type_comment=None)
    _copy_location(src, d)
    return new


def gast_to_ast(node):
    """A stdlib ast tree equal to ``gast.gast_to_ast(node)``."""
    src = node.__dict__
    name = node.__class__.__name__
    if name == "Name" and isinstance(node.ctx, gast.Param):
        new = ast.arg(arg=node.id, annotation=_convert_value(node.annotation, gast_to_ast),
                      type_comment=node.type_comment)
        _copy_location(src, new.__dict__)
        return new
    if name == "ExceptHandler":
        new = ast.ExceptHandler(type=_convert_value(node.type, gast_to_ast),
                                name=node.name.id if node.name is not None else None,
                                body=_convert_value(node.body, gast_to_ast))
        _copy_location(src, new.__dict__)
        return new
    cls = _AST_CLASSES[name]
    new = cls.__new__(cls)
    d = new.__dict__
    for f in cls._fields:
        if f in src:
            d[f] = _convert_value(src[f], gast_to_ast)
        else:
            d[f] = [] if f in _LIST_FIELDS else None
    _copy_location(src, d)
    return new


def parse(source: str) -> gast.Module:
    return ast_to_gast(ast.parse(source))
