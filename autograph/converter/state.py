"""The state of a converted statement, and the code that reads and writes it.

A converted ``if`` or loop is a call whose branches/body are nested
functions; the variables they modify that matter outside (live after the
statement, or read inside it before being assigned) are its *state*:
declared ``nonlocal`` in the nested functions and passed through
``get_state``/``set_state`` so that staged control flow can carry them.
"""
from __future__ import annotations

import gast

from autograph.converter import templates
from autograph.converter.dataflow import FunctionAnalysis


def is_composite(symbol: str) -> bool:
    return "." in symbol or "[" in symbol


def _base(symbol: str) -> str:
    for i, ch in enumerate(symbol):
        if ch in ".[":
            return symbol[:i]
    return symbol


def select_state(node, relevant: set, fa: FunctionAnalysis) -> list[str]:
    """The symbols ``node`` modifies that are in ``relevant`` (composites always count).

    A container changed in place (``lst`` for ``lst[i] = x``) counts like a name the
    statement assigns, if the function can rebind it (staged, each branch changes a copy).
    """
    plain = set(fa.modified(node))
    escaping = fa.escaping_for(node)
    out = []
    for s in fa.modified(node, composite=True):
        if is_composite(s):
            if _base(s) not in plain:
                out.append(s)
        elif s in relevant or s in escaping:
            if s in plain or s in fa.locals or s in fa.globals or s in fa.nonlocals:
                out.append(s)
    return out


def declarations(names, fa: FunctionAnalysis) -> list:
    """``nonlocal``/``global`` statements for the plain names among ``names``."""
    nonlocal_, global_ = [], []
    for n in names:
        if not is_composite(n):
            (global_ if n in fa.globals else nonlocal_).append(n)
    out = []
    if nonlocal_:
        out.append(templates.make(gast.Nonlocal, names=nonlocal_))
    if global_:
        out.append(templates.make(gast.Global, names=global_))
    return out


def symbol_expr(symbol: str, store: bool = False):
    if not is_composite(symbol):
        return templates.name(symbol, store)
    expr = gast.parse(symbol).body[0].value
    for n in gast.walk(expr):
        for a in ("lineno", "col_offset", "end_lineno", "end_col_offset"):
            if hasattr(n, a):
                delattr(n, a)
    return templates._set_store(expr) if store else expr


def accessors(names, fa: FunctionAnalysis, namer) -> tuple[list, str, str]:
    """``def get_state(): ...`` and ``def set_state(vars_): ...`` for ``names``."""
    get_name, set_name = namer.new("get_state"), namer.new("set_state")
    values = templates.make(gast.Tuple, elts=[_load(n) for n in names], ctx=templates.LOAD)
    getter = templates.replace("def get_state():\n    return values",
                               get_state=get_name, values=values)
    if any(is_composite(n) for n in names):  # (one may not exist on every path)
        stores = []
        for k, n in enumerate(names):
            value = templates.replace_as_expression("vars_[k]", k=templates.constant(k))
            if not is_composite(n):
                stores += templates.replace("target = value", target=symbol_expr(n, store=True),
                                            value=value)
                continue
            # an undefined composite is removed again (the other branch, traced first, may
            # have created it in the shared object)
            gone = templates.make(gast.Delete, targets=[_as_del(symbol_expr(n))])
            stores += templates.replace(
                "if not ag__.is_undefined(value):\n    target = value\n"
                "else:\n    try:\n        gone\n"
                "    except (KeyError, IndexError, AttributeError):\n        pass",
                target=symbol_expr(n, store=True), value=value, gone=gone)
        setter = templates.replace("def set_state(vars_):\n    decls\n    stores",
                                   set_state=set_name, decls=declarations(names, fa),
                                   stores=stores)
    elif len(names) == 1:  # `x = vars_[0]` reads better than `x, = vars_`
        setter = templates.replace("def set_state(vars_):\n    decls\n    target = vars_[0]",
                                   set_state=set_name, decls=declarations(names, fa),
                                   target=symbol_expr(names[0], store=True))
    else:
        targets = templates.make(gast.Tuple, elts=[symbol_expr(n, store=True) for n in names],
                                 ctx=templates.STORE)
        setter = templates.replace("def set_state(vars_):\n    decls\n    targets = vars_",
                                   set_state=set_name, decls=declarations(names, fa),
                                   targets=targets)
    return mark_generated(getter + setter), get_name, set_name


def _as_del(expr):
    expr.ctx = gast.Del()
    return expr


def _load(symbol: str):
    """A read of ``symbol`` for ``get_state``: a composite one may not exist yet."""
    if not is_composite(symbol):
        return symbol_expr(symbol)
    return templates.replace_as_expression("ag__.ldu(lambda: value, name)",
                                           value=symbol_expr(symbol),
                                           name=templates.constant(symbol))


def undefined_inits(names, defined, fa: FunctionAnalysis) -> list:
    """``x = ag__.Undefined('x')`` for plain state names that no assignment reaches yet.

    (A name that may already hold a value keeps it; ``set_state`` just needs a binding.)
    """
    out = []
    for n in names:
        if is_composite(n) or n in defined or n in fa.globals or n in fa.nonlocals:
            continue
        out.extend(templates.replace("name = ag__.Undefined(label)", name=n,
                                     label=templates.constant(n)))
    return out


def function(name: str, params: list[str], decls: list, body: list) -> gast.FunctionDef:
    fn = templates.replace("def f():\n    decls\n    body", f=name, decls=decls, body=body)[0]
    fn.args.args = [templates.make(gast.Name, id=p, ctx=templates.PARAM, annotation=None,
                                   type_comment=None) for p in params]
    fn.ag_generated = True
    return fn


def mark_generated(stmts: list) -> list:
    for s in stmts:
        if isinstance(s, gast.FunctionDef):
            s.ag_generated = True
    return stmts


def names_tuple(names) -> gast.Tuple:
    return templates.make(gast.Tuple, elts=[templates.constant(n) for n in names],
                          ctx=templates.LOAD)
