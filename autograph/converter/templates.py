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
    """A deep copy of a gast tree (faster than copy.deepcopy)."""
    if isinstance(node, list):
        return [clone(n) for n in node]
    if isinstance(node, gast.AST):
        new = node.__class__()
        for f in node._fields:
            setattr(new, f, clone(getattr(node, f, None)))
        for a in _LOCATION:
            if hasattr(node, a):
                setattr(new, a, getattr(node, a))
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


class _Replacer(gast.NodeTransformer):
    def __init__(self, replacements: dict):
        self.r = replacements

    def visit_Name(self, node):
        if node.id in self.r:
            return _as_expr(self.r[node.id], node.ctx)
        return node

    def visit_Expr(self, node):
        if isinstance(node.value, gast.Name) and node.value.id in self.r:
            value = self.r[node.value.id]
            if isinstance(value, list):  # a block of statements spliced in
                return value
            if isinstance(value, gast.stmt):
                return value
        self.generic_visit(node)
        return node

    def visit_FunctionDef(self, node):
        if node.name in self.r:
            node.name = self.r[node.name]
        self.generic_visit(node)
        return node

    def visit_arg_names(self, names):
        out = []
        for n in names:
            v = self.r.get(n, n)
            out.extend(v if isinstance(v, (list, tuple)) else [v])
        return out

    def visit_Nonlocal(self, node):
        node.names = self.visit_arg_names(node.names)
        return node if node.names else None

    def visit_Global(self, node):
        node.names = self.visit_arg_names(node.names)
        return node if node.names else None


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
    body = clone(_parse(template))
    replacer = _Replacer(replacements)
    out = []
    for stmt in body:
        new = replacer.visit(stmt)
        if new is None:
            continue
        out.extend(new if isinstance(new, list) else [new])
    return out


def replace_as_expression(template: str, **replacements) -> gast.expr:
    stmts = replace(template, **replacements)
    assert len(stmts) == 1 and isinstance(stmts[0], gast.Expr), template
    return stmts[0].value


def located(nodes, origin):
    """Gives every node without a location the location of its nearest located ancestor,
    starting from ``origin`` (the user node the generated code replaces)."""
    loc = tuple(getattr(origin, a, None) for a in _LOCATION)
    if loc[0] is None:
        return nodes
    stack = [(nodes, loc)]
    while stack:
        node, loc = stack.pop()
        if isinstance(node, list):
            stack.extend((n, loc) for n in node)
            continue
        if not isinstance(node, gast.AST):
            continue
        if isinstance(node, (gast.expr, gast.stmt, gast.keyword, gast.excepthandler)):
            own = getattr(node, "lineno", None)
            if own is None:
                for a, v in zip(_LOCATION, loc):
                    setattr(node, a, v)
            else:
                loc = tuple(getattr(node, a, None) for a in _LOCATION)
        for f in node._fields:
            child = getattr(node, f, None)
            if isinstance(child, (list, gast.AST)):
                stack.append((child, loc))
    return nodes
