"""Fast conversions between stdlib ``ast`` and gast trees for the running Python.

gast's own ``ast_to_gast``/``gast_to_ast`` are generic visitors that handle
every Python version; converting a function both ways with them costs more
than the rest of the conversion together. These walk ``__dict__`` directly
and only special-case what differs on Python 3.10+: parameters (``ast.arg``
vs gast ``Name`` with ``Param`` context), ``ExceptHandler.name`` (a str vs a
``Name``), and fields one side lacks (``type_params``, ``annotation``...).
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
    src = node.__dict__
    name = node.__class__.__name__
    if name == "arg":
        new = gast.Name(id=node.arg, ctx=gast.Param(),
                        annotation=_convert_value(node.annotation, ast_to_gast),
                        type_comment=getattr(node, "type_comment", None))
        _copy_location(src, new.__dict__)
        return new
    cls = _GAST_CLASSES[name]
    new = cls.__new__(cls)
    d = new.__dict__
    for f in cls._fields:
        if f in src:
            d[f] = _convert_value(src[f], ast_to_gast)
        else:
            d[f] = [] if f in _LIST_FIELDS else None
    if name == "ExceptHandler" and isinstance(node.name, str):
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
