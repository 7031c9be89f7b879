"""``l.append(x)`` → ``l = ag__.list_append(l, x)`` for a local list ``l``.

The rewrite makes the list an ordinary variable that the statement
modifies, so the control-flow converter sees it as state of the loops and
branches around the append, and staged control flow can carry it (as a
TensorArray, see ``operators/lists.py``). On a Python list ``list_append``
appends in place and returns the same list: Python semantics are unchanged.

Only a statement ``name.append(one_argument)`` is rewritten, and only when
``name`` is a local variable of the function being converted (a parameter
or assigned in it, not declared ``global``/``nonlocal``): rebinding any
other name would change what it refers to. Each ``if``/``while``/``for``
around a rewritten append records the list's name in ``ag_appends``, which
the control-flow converter passes on as ``lists=(...)``.

This runs in the same walk as calls and asserts (``conversion.py``), with
``Feature.LISTS`` (as in TensorFlow).
"""
from __future__ import annotations

import gast

from autograph.converter import templates
from autograph.converter.options import Feature
from autograph.converter.activity import modified_names, scope_declarations
from autograph.converter.transformer import Transformer


class _Scope:
    """The function whose statements are being visited, and the compound statements open."""

    __slots__ = ("fn", "open", "_locals")

    def __init__(self, fn):
        self.fn = fn
        self.open: list[set] = []  # per open if/while/for: the lists appended inside it
        self._locals = None

    def is_local(self, name: str) -> bool:
        if self._locals is None:  # computed only for functions that append to something
            a = self.fn.args
            params = {x.id for x in a.posonlyargs + a.args + a.kwonlyargs}
            params |= {x.id for x in (a.vararg, a.kwarg) if x is not None}
            globals_, nonlocals = scope_declarations(self.fn)
            self._locals = (set(modified_names(self.fn.body)) | params) - globals_ - nonlocals
        return name in self._locals


def _append_target(node) -> str | None:
    """``l`` for the statement ``l.append(x)``, else None."""
    call = node.value
    if not (isinstance(call, gast.Call) and isinstance(call.func, gast.Attribute)
            and call.func.attr == "append" and isinstance(call.func.value, gast.Name)
            and len(call.args) == 1 and not call.keywords
            and not isinstance(call.args[0], gast.Starred)):
        return None
    return call.func.value.id


class ListAppendTransformer(Transformer):
    """A mixin for the calls walk: rewrites ``l.append(x)`` statements of local lists."""

    _list_scope = None

    def visit_FunctionDef(self, node):
        saved = self._list_scope
        self._list_scope = _Scope(node)
        try:
            self.generic_visit(node)
        finally:
            self._list_scope = saved
        return node

    def visit_ClassDef(self, node):
        saved = self._list_scope
        self._list_scope = None  # class bodies bind class attributes, not locals
        try:
            self.generic_visit(node)
        finally:
            self._list_scope = saved
        return node

    def _compound(self, node, visit):
        scope = self._list_scope
        if scope is None:
            return visit(node)
        scope.open.append(set())
        try:
            new = visit(node)
        finally:
            appends = scope.open.pop()
        if appends:  # (set once the node's own walk is over: its __dict__ is being iterated)
            node.ag_appends = appends
        return new

    def visit_If(self, node):
        return self._compound(node, self.generic_visit)

    visit_While = visit_For = visit_If

    def visit_Expr(self, node):
        name = _append_target(node)
        scope = self._list_scope
        if (name is None or scope is None or not scope.is_local(name)
                or not self.ctx.options.uses(Feature.LISTS)):
            return self.generic_visit(node)
        value = self.visit(node.value.args[0])
        for appends in scope.open:
            appends.add(name)
        new = templates.replace("l = ag__.list_append(l, x)", l=name, x=value)
        return templates.located(new, node)
