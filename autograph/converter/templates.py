"""Code generation from quoted templates.

A template is Python source whose placeholder names are replaced by real
nodes: ``replace("ag__.while_stmt(test, body)", test=..., body=...)``.
Generated code then reads like the code it produces, and every generated
node inherits the location of the user's node it replaces (``located``).
"""
from __future__ import annotations

import textwrap

import gast

_PARSED: dict[str, list] = {}
_LOCATION = ("lineno", "col_offset", "end_lineno", "end_col_offset")


def clone(node):
    """A deep copy of a gast tree (much faster than copy.deepcopy)."""
    if isinstance(node, list):
        return [clone(n) for n in node]
    if isinstance(node, gast.AST):
        cls = node.__class__
        new = cls.__new__(cls)
        d = new.__dict__
        for k, v in node.__dict__.items():
            d[k] = clone(v) if isinstance(v, (list, gast.AST)) else v
        return new
    return node


def _set_store(node):
    if isinstance(node, (gast.Name, gast.Attribute, gast.Subscript, gast.Starred)):
        node.ctx = gast.Store()
        if isinstance(node, gast.Starred):
            _set_store(node.value)
    elif isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = gast.Store()
        for e in node.elts:
            _set_store(e)
    return node


def name(id_: str, store: bool = False) -> gast.Name:
    return gast.Name(id=id_, ctx=gast.Store() if store else gast.Load(), annotation=None,
                     type_comment=None)


def _as_expr(value, ctx):
    if isinstance(value, str):
        return gast.Name(id=value, ctx=ctx, annotation=None, type_comment=None)
    if isinstance(value, (list, tuple)):
        return gast.Tuple(elts=[_as_expr(v, gast.Load()) for v in value], ctx=ctx)
    if isinstance(ctx, gast.Store):
        _set_store(value)
    return value


def _names(names: list, r: dict) -> list:
    out = []
    for n in names:
        v = r.get(n, n)
        out.extend(v if isinstance(v, (list, tuple)) else [v])
    return out


def _substitute(node, r: dict):
    """``node`` with placeholders replaced; a list result is spliced into its block."""
    if isinstance(node, gast.Name):
        return _as_expr(r[node.id], node.ctx) if node.id in r else node
    if isinstance(node, gast.Expr) and isinstance(node.value, gast.Name) \
            and node.value.id in r:
        value = r[node.value.id]
        if isinstance(value, (list, gast.stmt)):
            return value  # a block (or a statement) spliced in
    if isinstance(node, (gast.Nonlocal, gast.Global)):
        node.names = _names(node.names, r)
        return node if node.names else []
    if isinstance(node, gast.FunctionDef) and node.name in r:
        node.name = r[node.name]
    d = node.__dict__
    for k, v in d.items():
        if isinstance(v, list):
            new = []
            for item in v:
                if isinstance(item, gast.AST):
                    item = _substitute(item, r)
                    if isinstance(item, list):
                        new.extend(item)
                        continue
                new.append(item)
            d[k] = new
        elif isinstance(v, gast.AST):
            d[k] = _substitute(v, r)
    return node


def _parse(template: str) -> list:
    tree = _PARSED.get(template)
    if tree is None:
        tree = gast.parse(textwrap.dedent(template)).body
        for node in gast.walk(gast.Module(body=tree, type_ignores=[])):
            for a in _LOCATION:
                if hasattr(node, a):
                    delattr(node, a)
        _PARSED[template] = tree
    return tree


def replace(template: str, **replacements) -> list:
    """The template's statements with placeholders replaced."""
    out = []
    for stmt in clone(_parse(template)):
        new = _substitute(stmt, replacements)
        out.extend(new if isinstance(new, list) else [new])
    return out


def replace_as_expression(template: str, **replacements) -> gast.expr:
    stmts = replace(template, **replacements)
    assert len(stmts) == 1 and isinstance(stmts[0], gast.Expr), template
    return stmts[0].value


_LOCATED = (gast.expr, gast.stmt, gast.keyword, gast.excepthandler)


def located(nodes, origin):
    """Gives the generated nodes in ``nodes`` (those without a location) the location of their
    nearest located ancestor, starting from ``origin`` (the user node they replace).

    Nodes that have a location are the user's (or were located when generated): the walk
    does not enter them, so locating costs only the generated nodes.
    """
    loc = tuple(getattr(origin, a, None) for a in _LOCATION)
    if loc[0] is None:
        return nodes
    stack = [nodes]
    while stack:
        node = stack.pop()
        if isinstance(node, list):
            stack.extend(node)
            continue
        if not isinstance(node, gast.AST):
            continue
        d = node.__dict__
        if isinstance(node, _LOCATED):
            if d.get("lineno") is not None:
                continue
            d["lineno"], d["col_offset"], d["end_lineno"], d["end_col_offset"] = loc
        for v in d.values():
            if isinstance(v, (list, gast.AST)):
                stack.append(v)
    return nodes


def fill_locations(tree) -> None:
    """Gives every statement still without a location its parent's (once, at the end).

    Statements need one (the source map pairs them); expressions never matter.
    """
    stack = [(tree, (tree.lineno, tree.col_offset, tree.end_lineno, tree.end_col_offset))]
    while stack:
        node, loc = stack.pop()
        d = node.__dict__
        if d.get("lineno") is None:
            d["lineno"], d["col_offset"], d["end_lineno"], d["end_col_offset"] = loc
        else:
            loc = (d["lineno"], d.get("col_offset", 0), d.get("end_lineno", d["lineno"]),
                   d.get("end_col_offset", 0))
        for f in ("body", "orelse", "finalbody", "handlers"):
            for child in d.get(f) or ():
                stack.append((child, loc))
