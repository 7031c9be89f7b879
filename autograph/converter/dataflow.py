"""Liveness and definedness over one function's structured statements.

The control-flow converter asks, for each ``if``/``while``/``for``: which of
the names it modifies are live after it or read inside it before being
assigned (its state), and which are surely defined on entry (the others get
an ``Undefined`` placeholder). Loads of names that may be unassigned are
marked so that ``ag__.ld`` checks them. The analyses walk the structured
tree directly (no CFG): by the time they run, ``break``/``continue``/
``return`` inside loops and branches are already lowered to flag variables.
Results are annotations on the nodes (``ag_live_out``, ``ag_defined_in``...).
"""
from __future__ import annotations

import gast

from autograph.converter.naming import BLOCKS, TRY, push_children

from autograph.converter.activity import (_target_symbols, modified_names, modified_symbols,
                                          nested_scopes, reads, scope_declarations,
                                          target_names)
from autograph.converter.jumps import irrefutable

_COMPOUND = (gast.If, gast.While, gast.For, gast.With) + TRY
# The statements the analyses have rules of their own for (blocks, exits, definitions); the
# others (most statements) are met first, by one test
_WITH_BLOCKS = _COMPOUND + (gast.Match,)
_OWN_RULES = _WITH_BLOCKS + (gast.Return, gast.Raise, gast.FunctionDef, gast.AsyncFunctionDef,
                             gast.ClassDef)
_ASSIGNING = (gast.Assign, gast.AnnAssign, gast.AugAssign, gast.Import, gast.ImportFrom,
              gast.Delete)
_NESTED = frozenset({gast.FunctionDef, gast.AsyncFunctionDef, gast.Lambda, gast.ClassDef,
                     gast.ListComp, gast.SetComp, gast.DictComp, gast.GeneratorExp})
_EMPTY = frozenset()


def _params(fn) -> list[str]:
    if isinstance(fn, gast.Lambda):
        return []
    a = fn.args
    names = [x.id for x in a.posonlyargs + a.args + a.kwonlyargs]
    return names + [x.id for x in (a.vararg, a.kwarg) if x is not None]


def _with_targets(node) -> list[str]:
    names: list[str] = []
    for item in node.items:
        if item.optional_vars is not None:
            target_names(item.optional_vars, names)
    return names


class FunctionAnalysis:
    """Annotates the statements of one function (not of functions nested in it)."""

    def __init__(self, fn, walrus: bool = True, scopes: bool = True, declarations: bool = True,
                 composites: bool = True):
        """``walrus``, ``scopes``, ``declarations``, ``composites``: whether the tree may hold
        a ``:=``, a nested def/lambda/class, a ``global``/``nonlocal``, an assignment to an
        attribute or item (False skips looking for them)."""
        self._walrus = walrus  # False: the code has no `:=`, expressions assign nothing
        self._composites = composites  # False: the symbols a statement modifies are its names
        self._modified: dict = {}
        self.flagged_loads: list = []  # loads of locals that may be unassigned (for ag__.ld)
        self.globals, self.nonlocals = scope_declarations(fn) if declarations else (set(), set())
        self.params = set(_params(fn))
        self._reads: dict = {}
        assigned = set()
        for stmt in fn.body:
            assigned.update(self.modified(stmt))  # memoized: the state selection reuses it
        self.locals = (assigned | self.params) - self.globals - self.nonlocals
        # Names whose value can be observed after the function returns, or by closures.
        # (scope node, names it reads from fn); scopes=False: the tree holds none
        self._scopes = nested_scopes(fn) if scopes else []
        self._escaping_for: dict = {}
        self._heads: dict = {}  # id(loop) -> its live head so far
        # (which statements are inside a loop matters only to closures made there)
        self._in_loops = _statements_in_loops(fn.body) if self._scopes else ()
        # (what closures read is not live everywhere: escaping_for() adds it per statement)
        self._exits = self.globals | self.nonlocals
        # names an exception escaping the statement being analysed may reach: the live-in of
        # the handlers and `finally` blocks around it (an exception can leave a `try` body
        # anywhere, so what they read is live throughout it)
        self._raise_live: set = set()
        self._live_block(fn.body, set(self._exits))
        self._defined_block(fn.body, set(self.params))
        self._may_block(fn.body, set(self.params))

    def modified(self, node, composite: bool = False) -> list[str]:
        """``modified_names``/``modified_symbols`` of a statement, memoized (bottom-up: a
        compound statement's are its own targets', then its blocks' in order, each once)."""
        composite = composite and self._composites  # (no `a.b =`: the same list, once)
        key = (id(node), composite)
        found = self._modified.get(key)
        if found is not None:
            return found
        if not isinstance(node, _COMPOUND):
            found = (modified_symbols if composite else modified_names)(node, self._walrus)
            self._modified[key] = found
            return found
        collect = _target_symbols if composite else target_names
        targets: list = []
        if node.__class__ is gast.For:
            collect(node.target, targets)
        for item in getattr(node, "items", ()):
            if item.optional_vars is not None:
                collect(item.optional_vars, targets)
        if self._walrus:
            exprs = [getattr(node, f, None) for f in ("test", "iter")]
            exprs += [i.context_expr for i in getattr(node, "items", ())]
            targets += (modified_symbols if composite else modified_names)(
                [e for e in exprs if e is not None])
        found = []
        for sym in targets:
            if sym not in found:
                found.append(sym)
        d = node.__dict__
        for f in BLOCKS[node.__class__]:
            for child in d[f]:
                if f == "handlers":  # (`except E as name` assigns name)
                    names = collect(child.name, []) if child.name is not None else []
                    for s in child.body:
                        names += self.modified(s, composite)
                else:
                    names = self.modified(child, composite)
                for sym in names:
                    if sym not in found:
                        found.append(sym)
        self._modified[key] = found
        return found

    def reads(self, node) -> set:
        """``activity.reads`` of a statement or expression, memoized (loop bodies are analysed
        until a fixpoint, nested loops many times). The result must not be changed."""
        return self._scan(node)[1]

    def _scan(self, node) -> tuple[list, set]:
        """(the ``Name`` loads in ``node`` outside nested scopes, every name ``node`` reads):
        one walk serves liveness (the names) and the definedness marks (the loads)."""
        found = self._reads.get(id(node))
        if found is not None:
            return found
        loads: list = []
        names: set = set()
        stack = [node]
        while stack:
            n = stack.pop()
            cls = n.__class__
            if cls is gast.Name:
                if n.ctx.__class__ is not gast.Store and n.ctx.__class__ is not gast.Param:
                    loads.append(n)
                    names.add(n.id)
                continue
            if cls is gast.Constant:
                continue
            if cls in _NESTED:
                names |= reads(n)
                continue
            if cls is gast.AugAssign and n.target.__class__ is gast.Name:
                names.add(n.target.id)
            elif cls is gast.Call and "ag_reads_locals" in n.__dict__:
                names |= self.locals  # locals(), eval(s): any local may be read here
            push_children(n, stack)
        found = self._reads[id(node)] = (loads, names)
        return found

    # -- liveness (backward) ----------------------------------------------------------------

    def _live_block(self, stmts, out: set) -> set:
        live = out
        for s in reversed(stmts):
            live = self._live_stmt(s, live | self._raise_live)
        return live

    def _live_stmt(self, s, out: set) -> set:
        if not isinstance(s, _OWN_RULES):
            if isinstance(s, _ASSIGNING):
                return (out - set(self.modified(s))) | self.reads(s)
            return out | self.reads(s)
        if isinstance(s, gast.If):
            s.ag_live_out = out
            s.ag_live_body_in = self._live_block(s.body, out)
            s.ag_live_orelse_in = self._live_block(s.orelse, out)
            return self.reads(s.test) | s.ag_live_body_in | s.ag_live_orelse_in
        if isinstance(s, (gast.While, gast.For)):
            s.ag_live_out = out
            if isinstance(s, gast.While):
                test, kills, entry = self.reads(s.test), set(), set()
            else:
                extra = getattr(s, "ag_extra_test", None)
                test = self.reads(extra) if extra is not None else set()
                kills, entry = set(target_names(s.target, [])), self.reads(s.iter)
            orelse = self._live_block(s.orelse, out)
            # Re-analysed for each iteration of an enclosing loop, with a larger ``out`` each
            # time: the head it had then is below the new fixpoint, so iterating starts there.
            head = test | out | orelse | self._heads.get(id(s), _EMPTY)
            for _ in range(len(s.body) + 8):
                body_in = self._live_block(s.body, head) - kills
                new = test | out | orelse | body_in
                if new == head:
                    break
                head = new
            s.ag_live_head = self._heads[id(s)] = head
            return head | entry
        if isinstance(s, gast.With):
            kills = set(_with_targets(s))
            body_in = self._live_block(s.body, out)
            return reads([i.context_expr for i in s.items]) | (body_in - kills)
        if isinstance(s, TRY):
            around = self._raise_live
            final = self._live_block(s.finalbody, out)
            self._raise_live = around | final  # (raising in a handler or `else` runs `finally`)
            handlers = set()
            for h in s.handlers:
                h_in = self._live_block(h.body, final)
                handlers |= (h_in - {h.name.id} if isinstance(h.name, gast.Name) else h_in)
                if h.type is not None:
                    handlers |= reads(h.type)
            orelse = self._live_block(s.orelse, final)
            self._raise_live = around | handlers | final
            body_in = self._live_block(s.body, orelse | handlers | final)
            self._raise_live = around
            return body_in | handlers | final
        if isinstance(s, gast.Match):  # (no case may match: `out` is live on entry too)
            live = out | self.reads(s.subject)
            for case in s.cases:
                inner = self._live_block(case.body, out)
                if case.guard is not None:
                    inner = inner | self.reads(case.guard)
                live |= (inner - set(modified_names(case.pattern))) | self.reads(case.pattern)
            return live
        if isinstance(s, (gast.Return, gast.Raise)):
            return self.reads(s) | self._exits
        return (out - {s.name}) | self.reads(s)  # (a def or class)

    # -- definedness (forward) --------------------------------------------------------------
    # A set of surely-defined names; None means "unreachable" (everything counts as defined).

    def _defined_block(self, stmts, defined):
        for s in stmts:
            defined = self._defined_stmt(s, defined)
        return defined

    @staticmethod
    def _meet(a, b):
        if a is None:
            return b
        if b is None:
            return a
        return a & b

    def _loop_body(self, loop, d, targets: set):
        """Walks ``loop``'s body; returns what is surely defined at its test. A ``del`` in the
        body can leave a name unbound for the next iteration (assignments only add names),
        so the body is walked again from the meet with where it ends."""
        if d is None:
            self._defined_block(loop.body, None)
            return None
        end = self._defined_block(loop.body, d | targets)
        if end is None or d <= end:
            return d
        d = d & end
        self._defined_block(loop.body, d | targets)
        return d

    def _defined_stmt(self, s, d):
        if not isinstance(s, _OWN_RULES):
            self._mark(s, d)
            if d is None:
                return None
            if isinstance(s, gast.Delete):
                return d - set(self.modified(s))
            return d | set(self.modified(s))
        if isinstance(s, gast.If):
            self._mark(s.test, d)
            s.ag_defined_in = d
            return self._meet(self._defined_block(s.body, d), self._defined_block(s.orelse, d))
        if isinstance(s, gast.While):
            self._mark(s.test, d)
            s.ag_defined_in = d
            after = self._loop_body(s, d, set())
            if after is not d:  # (a `del` in the body: the test runs again without it)
                self._mark(s.test, after)
            return self._defined_block(s.orelse, after)
        if isinstance(s, gast.For):
            self._mark(s.iter, d)
            s.ag_defined_in = d
            extra = getattr(s, "ag_extra_test", None)
            d = self._loop_body(s, d, set(target_names(s.target, [])))
            if extra is not None:
                self._mark(extra, d)
            return self._defined_block(s.orelse, d)
        if isinstance(s, gast.With):
            for item in s.items:
                self._mark(item.context_expr, d)
            inner = None if d is None else d | set(_with_targets(s))
            return self._defined_block(s.body, inner)
        if isinstance(s, TRY):
            after_body = self._defined_block(s.body, d)
            results = [self._defined_block(s.orelse, after_body)]
            for h in s.handlers:
                if h.type is not None:
                    self._mark(h.type, d)
                extra = {h.name.id} if isinstance(h.name, gast.Name) else set()
                results.append(self._defined_block(h.body, None if d is None else d | extra))
            merged = results[0]
            for r in results[1:]:
                merged = self._meet(merged, r)
            return self._defined_block(s.finalbody, merged)
        if isinstance(s, gast.Match):  # (a pattern's loads stay names: never marked)
            self._mark(s.subject, d)
            results = [] if irrefutable(s.cases[-1]) else [d]  # (no case matched)
            for case in s.cases:
                inner = None if d is None else d | set(modified_names(case.pattern))
                if case.guard is not None:
                    self._mark(case.guard, inner)
                results.append(self._defined_block(case.body, inner))
            merged = results[0]
            for r in results[1:]:
                merged = self._meet(merged, r)
            return merged
        if isinstance(s, (gast.Return, gast.Raise)):
            self._mark(s, d)
            return None
        return None if d is None else d | {s.name}  # (a def or class)

    # -- possibly bound (forward): names some assignment in the current scope reaches ------
    # The scope is the one of the *converted* code: the branches of an `if` and the body of a
    # loop become functions, where only the statement's state is nonlocal. A name the
    # statement assigns but does not carry is a fresh local of that function, unbound where
    # it starts and gone after it (`_inits` must then bind it inside the function).

    def escaping_for(self, s) -> set:
        """Names whose value closures can observe while the ``if``/loop ``s`` runs as
        generated functions: read by a nested def/lambda outside ``s``, or, in a loop,
        inside it (a closure made in one iteration sees the next); plus globals and
        nonlocals. A closure made in a branch of an ``if`` and reading what that branch
        assigns sees the branch function's own variable, as Python's would."""
        found = self._escaping_for.get(id(s))
        if found is None:
            in_a_loop = isinstance(s, (gast.While, gast.For)) or id(s) in self._in_loops
            inside = set() if in_a_loop or not self._scopes else {id(n) for n in gast.walk(s)}
            found = set(self.globals | self.nonlocals)
            for scope, names in self._scopes:
                if id(scope) not in inside:
                    found |= names
            if in_a_loop and self._scopes:  # (a function `def`ined in each iteration is not
                # late-bound state; with no nested scope at all there is none)
                found -= {n.name for n in _walk_statements([s]) if n is not s and isinstance(
                    n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef))}
            self._escaping_for[id(s)] = found
        return found

    def state_names(self, s) -> set:
        """The plain names the converted ``if``/loop ``s`` carries (``state.select_state``)."""
        if isinstance(s, gast.If):
            relevant = s.ag_live_out | s.ag_live_body_in | s.ag_live_orelse_in
        else:
            relevant = s.ag_live_head
        escaping = self.escaping_for(s)
        return {n for n in self.modified(s) if n in relevant or n in escaping}

    def _may_block(self, stmts, d: set) -> set:
        for s in stmts:
            d = self._may_stmt(s, d)
        return d

    def _may_stmt(self, s, d: set) -> set:
        if not isinstance(s, _WITH_BLOCKS):
            return d if isinstance(s, gast.Delete) else d | set(self.modified(s))
        if isinstance(s, (gast.If, gast.While, gast.For)):
            s.ag_maybe_defined_in = d
            carried = self.state_names(s)
            inner = (d - set(self.modified(s))) | carried
            if isinstance(s, gast.For):
                inner |= set(target_names(s.target, []))  # a parameter of the body
            assigned = self._may_block(s.body, inner) | self._may_block(s.orelse, inner)
            return d | (assigned & carried)
        if isinstance(s, gast.With):
            return self._may_block(s.body, d | set(_with_targets(s)))
        if isinstance(s, TRY):
            after = self._may_block(s.body, d)
            anywhere = after  # an exception may come at any point (may-sets only grow)
            after = self._may_block(s.orelse, after)
            for h in s.handlers:
                name = {h.name.id} if isinstance(h.name, gast.Name) else set()
                after |= self._may_block(h.body, anywhere | name)
            return self._may_block(s.finalbody, after | anywhere)
        after = d  # (a match)
        for case in s.cases:
            after = after | self._may_block(case.body, d | set(modified_names(case.pattern)))
        return after

    def _mark(self, node, defined):
        """Records loads in ``node`` (outside nested scopes) of locals that may be unassigned."""
        if defined is None:
            return
        local = self.locals
        for n in self._scan(node)[0]:
            if n.id in local and n.id not in defined and isinstance(n.ctx, gast.Load):
                self.flagged_loads.append(n)


def _statements_in_loops(stmts) -> set:
    """ids of the statements in ``stmts`` that are inside a loop (in one walk)."""
    out = set()
    stack = [(s, False) for s in stmts]
    while stack:
        n, in_loop = stack.pop()
        if in_loop:
            out.add(id(n))
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        inner = in_loop or isinstance(n, (gast.While, gast.For))
        d = n.__dict__
        for f in BLOCKS.get(n.__class__, ()):
            block = d.get(f)
            if block:
                for c in block:
                    stack.append((c, inner))
    return out


def _walk_statements(stmts):
    """Every statement in ``stmts``, nested blocks included (not nested scopes)."""
    stack = list(stmts)
    while stack:
        n = stack.pop()
        yield n
        if isinstance(n, (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef)):
            continue
        d = n.__dict__
        for f in BLOCKS.get(n.__class__, ()):
            stack.extend(d.get(f) or ())
