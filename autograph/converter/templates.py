"""Code generation from quoted templates.

A template is Python source whose placeholder names are replaced by real
nodes: ``replace("ag__.while_stmt(test, body)", test=..., body=...)``.
Generated code then reads like the code it produces, and every generated
node inherits the location of the user's node it replaces (``located``).
"""
from __future__ import annotations

import textwrap

import gast

from autograph.converter.naming import BLOCKS, CLAUSES

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
        node.ctx = STORE
        if isinstance(node, gast.Starred):
            _set_store(node.value)
    elif isinstance(node, (gast.Tuple, gast.List)):
        node.ctx = STORE
        for e in node.elts:
            _set_store(e)
    return node


LOAD, STORE, PARAM = gast.Load(), gast.Store(), gast.Param()  # stateless: shared


def make(cls, **fields):
    """``cls(**fields)`` without gast's generic constructor (several times slower); every
    field must be given."""
    n = cls.__new__(cls)
    n.__dict__ = fields  # (the keyword dict is fresh: adopted, not copied)
    return n


def name(id_: str, store: bool = False) -> gast.Name:
    return make(gast.Name, id=id_, ctx=STORE if store else LOAD, annotation=None,
                type_comment=None)


def constant(value) -> gast.Constant:
    return make(gast.Constant, value=value, kind=None)


def _as_expr(value, ctx):
    if isinstance(value, str):
        return make(gast.Name, id=value, ctx=ctx, annotation=None, type_comment=None)
    if isinstance(value, (list, tuple)):
        return make(gast.Tuple, elts=[_as_expr(v, LOAD) for v in value], ctx=ctx)
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
    """``node`` with placeholders replaced; a list result is spliced into its block.

    The reference semantics of templates; ``replace`` runs the same rules compiled (below).
    """
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
                node.__dict__.pop(a, None)
        _PARSED[template] = tree
    return tree


# -- compiled templates ---------------------------------------------------------------------
# Cloning a parsed template and then walking the clone to substitute costs two walks per use;
# the converter uses ~80 templates per function. Each template is compiled once into a Python
# function that builds a fresh tree with the substitutions in place, in one go.

_BUILDERS: dict = {}
_MISSING = object()


def _node(cls, fields: dict):
    n = cls.__new__(cls)
    n.__dict__ = fields  # (a fresh dict display of the builder's)
    return n


def _name(r: dict, id_: str, ctx):
    v = r.get(id_, _MISSING)
    if v is _MISSING:
        n = gast.Name.__new__(gast.Name)
        n.__dict__ = {"id": id_, "ctx": ctx, "annotation": None, "type_comment": None}
        return n
    if v.__class__ is str:
        n = gast.Name.__new__(gast.Name)
        n.__dict__ = {"id": v, "ctx": ctx, "annotation": None, "type_comment": None}
        return n
    return _as_expr(v, ctx)


def _expr(r: dict, id_: str, ctx):
    """The statement ``id_`` alone: a block or statement spliced in, else an expression."""
    v = r.get(id_, _MISSING)
    if isinstance(v, (list, gast.stmt)):
        return v
    return _node(gast.Expr, {"value": _name(r, id_, ctx)})


def _decl(cls, names: list, r: dict):
    names = _names(names, r)
    return _node(cls, {"names": names}) if names else []


def _seq(item):
    """A block spliced in as it is; one node as a block of one."""
    return item if isinstance(item, list) else (item,)


def _compile(stmts: list):
    consts: list = []

    def const(v) -> str:
        consts.append(v)
        return f"K[{len(consts) - 1}]"

    def gen(node) -> str:
        if isinstance(node, gast.Name):
            return f"_name(r, {node.id!r}, {const(node.ctx)})"
        if isinstance(node, gast.Expr) and isinstance(node.value, gast.Name):
            return f"_expr(r, {node.value.id!r}, {const(node.value.ctx)})"
        if isinstance(node, (gast.Nonlocal, gast.Global)):
            return f"_decl({const(type(node))}, {node.names!r}, r)"
        if isinstance(node, (gast.expr_context, gast.operator, gast.unaryop, gast.cmpop,
                             gast.boolop)):
            return const(node)  # stateless markers: shared
        fields = []
        for k, v in node.__dict__.items():
            if isinstance(v, list):
                fields.append(f"{k!r}: [{block(v)}]")
            elif isinstance(v, gast.AST):
                fields.append(f"{k!r}: {gen(v)}")
            elif k == "name" and isinstance(node, gast.FunctionDef):
                fields.append(f"{k!r}: r.get({v!r}, {v!r})")
            else:
                fields.append(f"{k!r}: {const(v)}")
        return f"_node({const(type(node))}, {{{', '.join(fields)}}})"

    def block(items: list) -> str:
        """List items; the ones that may be a block spliced in are unpacked (``*``)."""
        out = []
        for i in items:
            if not isinstance(i, gast.AST):
                out.append(const(i))
            elif (isinstance(i, (gast.Nonlocal, gast.Global))
                  or (isinstance(i, gast.Expr) and isinstance(i.value, gast.Name))):
                out.append(f"*_seq({gen(i)})")
            else:
                out.append(gen(i))
        return ", ".join(out)

    source = f"def build(r):\n    return [{block(stmts)}]\n"
    scope = {"K": consts, "_node": _node, "_name": _name, "_expr": _expr, "_decl": _decl,
             "_seq": _seq}
    exec(compile(source, "<autograph template>", "exec"), scope)  # noqa: S102  (our own code)
    return scope["build"]


def replace(template: str, **replacements) -> list:
    """The template's statements with placeholders replaced (fresh nodes on every call)."""
    build = _BUILDERS.get(template)
    if build is None:
        build = _BUILDERS[template] = _compile(_parse(template))
    return build(replacements)


def replace_reference(template: str, **replacements) -> list:
    """``replace`` by cloning and substituting: what compiled templates are tested against."""
    out = []
    for stmt in clone(_parse(template)):
        new = _substitute(stmt, replacements)
        out.extend(new if isinstance(new, list) else [new])
    return out


def replace_as_expression(template: str, **replacements) -> gast.expr:
    stmts = replace(template, **replacements)
    assert len(stmts) == 1 and isinstance(stmts[0], gast.Expr), template
    return stmts[0].value


def located(nodes, origin, nested: bool = True):
    """Gives the generated statements in ``nodes`` (those without a location) the location of
    ``origin``, the user node they replace, and returns ``nodes``.

    ``nested=False`` locates ``nodes`` themselves only, for the last pass that moves
    statements: ``fill_locations`` then gives the nested ones their parent's, the same.

    Only statements: the source map pairs statements, and nothing reads the location of an
    expression. Statements that have a location are the user's (or were located when
    generated): the walk does not enter them, so locating costs only the generated ones.
    (Nested generated statements are located now, not left to ``fill_locations``: a later
    pass may move them under another parent, ``raise`` of a ``finally`` into a branch.)
    """
    o = origin.__dict__
    line = o.get("lineno")
    if line is None:
        return nodes
    loc = (line, o.get("col_offset"), o.get("end_lineno"), o.get("end_col_offset"))
    stack = list(nodes) if nodes.__class__ is list else [nodes]
    while stack:
        node = stack.pop()
        d = node.__dict__
        if d.get("lineno") is not None or not isinstance(node, gast.stmt):
            continue
        d["lineno"], d["col_offset"], d["end_lineno"], d["end_col_offset"] = loc
        if not nested:
            continue
        for f in BLOCKS.get(node.__class__, ()):
            block = d.get(f)
            if block:
                if f in CLAUSES:
                    for h in block:
                        stack.extend(h.body)
                else:
                    stack.extend(block)
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
        for f in BLOCKS.get(node.__class__, ()):
            for child in d.get(f) or ():
                stack.append((child, loc))
