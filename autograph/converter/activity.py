"""Activity analysis: which names a piece of code reads and which it modifies.

Nested functions, lambdas and comprehensions are their own scopes: what
they assign stays inside, and the names they read from outside count as
reads where they are defined. Besides plain names, an assignment to
``a.b`` or ``a[0]`` modifies the composite symbol ``"a.b"`` / ``"a[0]"``,
which control flow carries as state like a variable.
"""
from __future__ import annotations

import gast

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def symbol_of(target) -> str | None:
    """``"x"``, ``"a.b"`` or ``"a[0]"`` for a target control flow can carry, else None."""
    if isinstance(target, gast.Name):
        return target.id
    if isinstance(target, gast.Attribute):
        base = symbol_of(target.value)
        return None if base is None or "[" in base else f"{base}.{target.attr}"
    if isinstance(target, gast.Subscript) and isinstance(target.slice, gast.Constant):
        base = symbol_of(target.value)
        return None if base is None else f"{base}[{target.slice.value!r}]"
    return None


def target_names(target, out: list) -> list:
    """Plain names bound by an assignment target (tuple unpacking included)."""
    if isinstance(target, gast.Name):
        out.append(target.id)
    elif isinstance(target, (gast.Tuple, gast.List)):
        for e in target.elts:
            target_names(e, out)
    elif isinstance(target, gast.Starred):
        target_names(target.value, out)
    return out


def _target_symbols(target, out: list) -> list:
    if isinstance(target, (gast.Tuple, gast.List)):
        for e in target.elts:
            _target_symbols(e, out)
    elif isinstance(target, gast.Starred):
        _target_symbols(target.value, out)
    else:
        s = symbol_of(target)
        if s is not None:
            out.append(s)
    return out


class _Reads(gast.NodeVisitor):
    """Free names read by an expression or statement (nested scopes: their free names)."""

    def __init__(self):
        self.names: set[str] = set()

    def visit_Name(self, node):
        if not isinstance(node.ctx, (gast.Store, gast.Param)):
            self.names.add(node.id)

    def _scope(self, node, params, body_nodes, outer_nodes=()):
        for n in outer_nodes:
            self.visit(n)
        inner = _Reads()
        for n in body_nodes:
            inner.visit(n)
        local = set(params)
        for n in body_nodes:
            if isinstance(n, gast.stmt):
                local.update(modified_names(n))
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef)):
            globals_, nonlocals = scope_declarations(node)
            local -= globals_ | nonlocals
            inner.names |= nonlocals
        self.names |= inner.names - local

    def visit_FunctionDef(self, node):
        args = node.args
        params = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
        params += [a.id for a in (args.vararg, args.kwarg) if a is not None]
        outer = list(node.decorator_list) + [d for d in args.defaults + args.kw_defaults if d]
        self._scope(node, params, node.body, outer)

    visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Lambda(self, node):
        args = node.args
        params = [a.id for a in args.posonlyargs + args.args + args.kwonlyargs]
        params += [a.id for a in (args.vararg, args.kwarg) if a is not None]
        outer = [d for d in args.defaults + args.kw_defaults if d]
        self._scope(node, params, [node.body], outer)

    def visit_ClassDef(self, node):
        for n in node.bases + node.decorator_list + [k.value for k in node.keywords]:
            self.visit(n)
        self._scope(node, [], node.body)

    def _comprehension(self, node, elts):
        targets = []
        for gen in node.generators:
            target_names(gen.target, targets)
        self.visit(node.generators[0].iter)
        inner = _Reads()
        for gen in node.generators:
            inner.visit(gen.target)
            for c in gen.ifs:
                inner.visit(c)
        for gen in node.generators[1:]:
            inner.visit(gen.iter)
        for e in elts:
            inner.visit(e)
        self.names |= inner.names - set(targets)

    def visit_ListComp(self, node):
        self._comprehension(node, [node.elt])

    visit_SetComp = visit_GeneratorExp = visit_ListComp

    def visit_DictComp(self, node):
        self._comprehension(node, [node.key, node.value])

    def visit_AugAssign(self, node):
        if isinstance(node.target, gast.Name):
            self.names.add(node.target.id)
        self.generic_visit(node)


def reads(node) -> set[str]:
    r = _Reads()
    if isinstance(node, list):
        for n in node:
            r.visit(n)
    else:
        r.visit(node)
    return r.names


class _Modified(gast.NodeVisitor):
    """Symbols a statement assigns, in order of first assignment, not entering nested scopes."""

    def __init__(self, composite: bool):
        self.out: list[str] = []
        self.composite = composite

    def _add(self, targets):
        for t in targets:
            found = _target_symbols(t, []) if self.composite else target_names(t, [])
            for s in found:
                if s not in self.out:
                    self.out.append(s)

    def visit_Assign(self, node):
        self._add(node.targets)
        self.generic_visit(node)

    def visit_AugAssign(self, node):
        self._add([node.target])
        self.generic_visit(node)

    def visit_AnnAssign(self, node):
        if node.value is not None:
            self._add([node.target])
        self.generic_visit(node)

    def visit_NamedExpr(self, node):
        self._add([node.target])
        self.generic_visit(node)

    def visit_For(self, node):
        self._add([node.target])
        self.generic_visit(node)

    def visit_withitem(self, node):
        if node.optional_vars is not None:
            self._add([node.optional_vars])
        self.generic_visit(node)

    def visit_ExceptHandler(self, node):
        if node.name is not None:
            self._add([node.name])
        self.generic_visit(node)

    def visit_Import(self, node):
        for alias in node.names:
            n = alias.asname or alias.name.split(".")[0]
            if n not in self.out:
                self.out.append(n)

    visit_ImportFrom = visit_Import

    def visit_Delete(self, node):
        self._add(node.targets)

    def visit_FunctionDef(self, node):
        if node.name not in self.out:
            self.out.append(node.name)
        args = getattr(node, "args", None)
        for d in node.decorator_list + (args.defaults if args is not None else []):
            self.visit(d)

    visit_AsyncFunctionDef = visit_ClassDef = visit_FunctionDef

    def _skip(self, node):
        pass

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _skip


def modified_names(node) -> list[str]:
    """Plain names bound in ``node`` (a statement or list), outside nested scopes."""
    v = _Modified(composite=False)
    for n in node if isinstance(node, list) else [node]:
        v.visit(n)
    return v.out


def modified_symbols(node) -> list[str]:
    """Names and composite symbols (``a.b``, ``a[0]``) assigned in ``node``."""
    v = _Modified(composite=True)
    for n in node if isinstance(node, list) else [node]:
        v.visit(n)
    return v.out


def scope_declarations(fn) -> tuple[set[str], set[str]]:
    """(global names, nonlocal names) declared directly in function ``fn``."""
    globals_, nonlocals = set(), set()
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, gast.Global):
            globals_.update(node.names)
        elif isinstance(node, gast.Nonlocal):
            nonlocals.update(node.names)
        elif isinstance(node, _SCOPES):
            continue
        for f in ("body", "orelse", "finalbody", "handlers"):
            stack.extend(getattr(node, f, None) or [])
    return globals_, nonlocals


def nested_scope_reads(fn) -> set[str]:
    """Names that nested functions/lambdas/classes in ``fn`` read from ``fn``'s scope."""
    out: set[str] = set()
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            out |= reads(node)
            continue
        for child in gast.iter_child_nodes(node):
            stack.append(child)
    return out
