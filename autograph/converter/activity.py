"""Activity analysis: which names a piece of code reads and which it modifies.

Nested functions, lambdas and comprehensions are their own scopes: what
they assign stays inside, and the names they read from outside count as
reads where they are defined. Besides plain names, an assignment to
``a.b`` or ``a[0]`` modifies the composite symbol ``"a.b"`` / ``"a[0]"``,
which control flow carries as state like a variable.
"""
from __future__ import annotations

import gast

from autograph.converter.naming import BLOCKS, push_children

_SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
           gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def symbol_of(target) -> str | None:
    """``"x"``, ``"a.b"`` or ``"a[0]"`` for a target control flow can carry, else None."""
    if isinstance(target, gast.Name):
        return target.id
    if isinstance(target, gast.Attribute):
        base = symbol_of(target.value)
        return None if base is None or "[" in base else f"{base}.{target.attr}"
    if isinstance(target, gast.Subscript):
        index = _constant_index(target.slice)
        base = symbol_of(target.value)
        return None if base is None or index is None else f"{base}[{index!r}]"
    return None


def _constant_index(node):
    """The value of a literal subscript (``0``, ``'a'``, ``-1``), else None."""
    if isinstance(node, gast.Constant) and node.value is not None:
        return node.value
    if (isinstance(node, gast.UnaryOp) and isinstance(node.op, gast.USub)
            and isinstance(node.operand, gast.Constant)
            and type(node.operand.value) in (int, float)):
        return -node.operand.value
    return None


def changed_in_place(target) -> str | None:
    """The symbol whose value an assignment to ``target`` changes in place when ``target``
    itself is no symbol: ``lst`` for ``lst[i] = x`` or ``lst[i][j] += 1``, ``a.b`` for
    ``a.b[k] = x``. Control flow carries that container as state."""
    node = target
    while isinstance(node, (gast.Subscript, gast.Attribute)):
        node = node.value
        s = symbol_of(node)
        if s is not None:
            return s
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
        if s is None:
            s = changed_in_place(target)
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


_SCOPE_NODES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
                gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)


def reads(node) -> set[str]:
    """Free names read by ``node`` (statements or expressions; a list of them)."""
    names: set[str] = set()
    stack = list(node) if isinstance(node, list) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Name):
            if not isinstance(n.ctx, (gast.Store, gast.Param)):
                names.add(n.id)
            continue
        if isinstance(n, _SCOPE_NODES):
            r = _Reads()
            r.visit(n)
            names |= r.names
            continue
        if isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name):
            names.add(n.target.id)
        push_children(n, stack)
    return names


def loads_name(node, name: str) -> bool:
    """Whether ``node`` (or a list of nodes) loads ``name`` anywhere, nested scopes included.

    For the converter's own flags: their names are fresh, so any load is a read of the flag,
    and the walk can stop at the first one (``name in reads(node)`` computes every name).
    """
    stack = list(node) if isinstance(node, list) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, gast.Name):
            if n.id == name and not isinstance(n.ctx, (gast.Store, gast.Param)):
                return True
            continue
        if isinstance(n, gast.AugAssign) and isinstance(n.target, gast.Name) \
                and n.target.id == name:
            return True
        if isinstance(n, gast.Constant):
            continue
        push_children(n, stack)
    return False


_NO_ENTER = (gast.Lambda, gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp)
_DEFS = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)


_CAPTURES = (gast.MatchAs, gast.MatchStar, gast.MatchMapping)
_SIMPLE_NO_TARGETS = frozenset({gast.Expr, gast.Return, gast.Assert, gast.Raise, gast.Pass,
                                gast.Global, gast.Nonlocal, gast.Break, gast.Continue})


def _assigned(node, composite: bool, walrus: bool = True) -> list[str]:
    """Symbols assigned in ``node``, in source order, not entering nested scopes.

    A hand-written walk (this runs for every statement the converter looks at).
    ``walrus=False`` promises there is no ``:=`` in the code: expressions are skipped.
    """
    if not walrus:  # a simple statement assigns its targets only
        cls = node.__class__
        if cls in _SIMPLE_NO_TARGETS:
            return []
        targets = None
        if cls is gast.Assign or cls is gast.Delete:
            targets = node.targets
        elif cls is gast.AugAssign or (cls is gast.AnnAssign and node.value is not None):
            targets = [node.target]
        elif cls is gast.AnnAssign:
            return []
        if targets is not None:
            out: list[str] = []
            for t in targets:
                for s in (_target_symbols if composite else target_names)(t, []):
                    if s not in out:
                        out.append(s)
            return out
    out: list[str] = []
    collect = _target_symbols if composite else target_names

    def add(target):
        for s in collect(target, []):
            if s not in out:
                out.append(s)

    stack = list(reversed(node)) if isinstance(node, list) else [node]
    while stack:
        n = stack.pop()
        if isinstance(n, (gast.Assign, gast.Delete)):
            for t in n.targets:
                add(t)
            if isinstance(n, gast.Delete):
                continue
        elif isinstance(n, (gast.AugAssign, gast.For, gast.NamedExpr)):
            add(n.target)
        elif isinstance(n, gast.AnnAssign):
            if n.value is not None:
                add(n.target)
        elif isinstance(n, gast.withitem):
            if n.optional_vars is not None:
                add(n.optional_vars)
        elif isinstance(n, gast.ExceptHandler):
            if n.name is not None:
                add(n.name)
        elif isinstance(n, _CAPTURES):  # `case [x, *rest]`, `case {**rest}`: names bound
            name = n.rest if n.__class__ is gast.MatchMapping else n.name
            if name is not None and name not in out:
                out.append(name)
        elif isinstance(n, (gast.Import, gast.ImportFrom)):
            for alias in n.names:
                name = alias.asname or alias.name.split(".")[0]
                if name not in out:
                    out.append(name)
            continue
        elif isinstance(n, _DEFS):
            if n.name not in out:
                out.append(n.name)
            args = getattr(n, "args", None)
            stack.extend(reversed(n.decorator_list + (args.defaults if args is not None else [])))
            continue
        elif isinstance(n, _NO_ENTER) or isinstance(n, (gast.Name, gast.Constant)):
            continue
        children: list = []
        push_children(n, children)
        stack.extend(reversed(children))
    return out


def modified_names(node, walrus: bool = True) -> list[str]:
    """Plain names bound in ``node`` (a statement or list), outside nested scopes."""
    return _assigned(node, False, walrus)


def modified_symbols(node, walrus: bool = True) -> list[str]:
    """Names and composite symbols (``a.b``, ``a[0]``) assigned in ``node``."""
    return _assigned(node, True, walrus)


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
        d = node.__dict__
        for f in BLOCKS.get(node.__class__, ()):
            stack.extend(d.get(f) or ())
    return globals_, nonlocals


def nested_scopes(fn) -> list:
    """(def/lambda/class node, the names it reads from ``fn``'s scope) for each scope nested
    directly or deeper in ``fn``'s statements (not inside those scopes)."""
    out = []
    stack = list(fn.body)
    while stack:
        node = stack.pop()
        if isinstance(node, (gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef)):
            out.append((node, reads(node)))
            continue
        if isinstance(node, (gast.Name, gast.Constant)):
            continue
        push_children(node, stack)
    return out
