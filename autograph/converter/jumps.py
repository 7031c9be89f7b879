"""Lowers a jump (``break``, ``continue``, ``return``) to a flag variable.

Staged control flow has no jumps, so a jump becomes an assignment to a
flag (``break_ = True``) and the statements after a statement that may
jump run under ``if not flag:``. When one branch of an ``if`` always jumps,
the statements after the ``if`` move into the other branch instead: the
code stays closer to the user's and no flag needs to be carried.
"""
from __future__ import annotations

from typing import Callable

import gast

from autograph.converter import templates
from autograph.converter.activity import loads_name
from autograph.converter.naming import BLOCKS, CLAUSES, TRY
from autograph.converter.transformer import StatementTransformer

NONE, MAYBE, ALWAYS = 0, 1, 2
_LOOPS = (gast.While, gast.For)
SCOPES = (gast.FunctionDef, gast.AsyncFunctionDef, gast.ClassDef, gast.Lambda)


class BlockLowering:
    """Rewrites the jumps of one kind in a block; ``is_jump`` picks them, ``replacement(jump,
    in_finally)`` gives the statements each becomes.

    ``into_loops``: whether jumps inside nested loops belong to this lowering
    (true for ``return``; a ``break`` belongs to its innermost loop).
    """

    def __init__(self, is_jump: Callable, replacement: Callable, flag: str, into_loops: bool,
                 namer=None):
        self.namer = namer  # (fresh names for flags pending across a `finally`)
        self.is_jump = is_jump
        self.replacement = replacement
        self.flag = flag
        self.into_loops = into_loops
        self.guarded = False  # whether a guard reads the flag
        self.loops_with_jumps: list = []
        self.in_finally = 0  # inside `finally` blocks: a jump there discards pending ones

    # -- how a statement or block may jump -------------------------------------------------

    def status(self, stmts) -> int:
        result = NONE
        for s in stmts:
            st = self._stmt_status(s)
            if st == ALWAYS:
                return ALWAYS
            result = max(result, st)
        return result

    def _stmt_status(self, s) -> int:
        if self.is_jump(s):
            return ALWAYS
        if isinstance(s, gast.If):
            b, o = self.status(s.body), self.status(s.orelse)
            if b == ALWAYS and o == ALWAYS:
                return ALWAYS
            return MAYBE if (b or o) else NONE
        if isinstance(s, _LOOPS):
            if not self.into_loops:
                return NONE
            return MAYBE if self.status(s.body) or self.status(s.orelse) else NONE
        if isinstance(s, gast.With):  # (its manager may swallow an error before the jump)
            return MAYBE if self.status(s.body) else NONE
        if isinstance(s, TRY):
            parts = [s.body, s.orelse, s.finalbody] + [h.body for h in s.handlers]
            return MAYBE if any(self.status(p) for p in parts) else NONE
        if isinstance(s, gast.Match):
            cases = [self.status(c.body) for c in s.cases]
            if all(c == ALWAYS for c in cases) and irrefutable(s.cases[-1]):
                return ALWAYS
            return MAYBE if any(cases) else NONE
        return NONE

    # -- rewriting ----------------------------------------------------------------------------

    def block(self, stmts: list) -> list:
        out = []
        for i, s in enumerate(stmts):
            st = self._stmt_status(s)
            rest = stmts[i + 1:]
            moved = False
            if st == MAYBE and rest and isinstance(s, gast.If):
                b, o = self.status(s.body), self.status(s.orelse)
                if b == ALWAYS:
                    s.orelse, moved = s.orelse + rest, True
                elif o == ALWAYS:
                    s.body, moved = s.body + rest, True
            out.extend(self._rewrite(s))
            if st == ALWAYS or moved:
                return out  # what follows is unreachable, or moved into a branch
            if st == MAYBE and rest:
                self.guarded = True
                guard = templates.replace("if not flag:\n    rest", flag=self.flag,
                                          rest=self.known_false(self.block(rest)))
                out.extend(templates.located(guard, rest[0]))
                return out
        return out

    def known_false(self, stmts: list) -> list:
        """``stmts``, which run only while the flag is false, told so: ``flag = False`` first
        when they hold a ``for`` or a ``try``. A flag that a staged ``if`` or loop made a
        tensor is then a Python value again, so a ``for`` over a Python iterable in ``stmts``
        stays a Python loop (TensorFlow refuses a tensor flag there), and a guard inside a
        ``try`` is no staged ``if`` (which a ``try`` cannot hold). A ``while`` alone keeps
        the tensor flag, as in TensorFlow: its test, which reads the flag, is then a tensor
        from the start and the loop is staged, so a return inside it may depend on a tensor."""
        if not contains(stmts, (gast.For,) + TRY, into_loops=True):
            return stmts
        reset = templates.replace("flag = False", flag=self.flag)
        return templates.located(reset, stmts[0]) + stmts

    def _rewrite(self, s) -> list:
        if self.is_jump(s):
            new = self.replacement(s, self.in_finally > 0)
            if self.in_finally:
                for stmt in new:
                    stmt.ag_finally_jump = self.flag  # (return_statements drops a pending return)
            return templates.located(new, s)
        if isinstance(s, gast.If):
            s.body = self.block(s.body) or [gast.Pass()]
            s.orelse = self.block(s.orelse)
            templates.located(s.body, s)
        elif isinstance(s, _LOOPS):
            if self.into_loops and (self.status(s.body) or self.status(s.orelse)):
                s.body = self.block(s.body) or [gast.Pass()]
                s.orelse = self.block(s.orelse)
                templates.located(s.body, s)
                self.loops_with_jumps.append(s)
        elif isinstance(s, gast.With):
            s.body = self.block(s.body) or [gast.Pass()]
            templates.located(s.body, s)
        elif isinstance(s, TRY):
            jumps_in_body = self.status(s.body)
            s.body = self.block(s.body) or [gast.Pass()]
            s.orelse = self.block(s.orelse)
            if s.orelse and jumps_in_body == ALWAYS:
                s.orelse = []  # `else` runs only when the body ends without a jump
            elif s.orelse and jumps_in_body:
                self.guarded = True
                s.orelse = templates.replace("if not flag:\n    orelse", flag=self.flag,
                                             orelse=s.orelse)
            jumps_in_final = self.status(s.finalbody)
            self.in_finally += 1
            try:
                s.finalbody = self.block(s.finalbody)
            finally:
                self.in_finally -= 1
            if jumps_in_final and self.namer is not None:
                # `finally` runs whatever jump is pending: its own guards and loops see the
                # flag false, and the pending jump goes on unless `finally` jumps itself
                pending = self.namer.new(self.flag + "_pending")
                s.finalbody = (
                    templates.replace("pending = flag\nflag = False", pending=pending,
                                      flag=self.flag)
                    + s.finalbody
                    + templates.replace("if not flag:\n    flag = pending", pending=pending,
                                        flag=self.flag))
                self.guarded = True
            for h in s.handlers:
                h.body = self.block(h.body) or [gast.Pass()]
            templates.located(s.body + s.orelse, s)
        elif isinstance(s, gast.Match):
            for case in s.cases:
                case.body = templates.located(self.block(case.body) or [gast.Pass()], s)
        return [s]


class LoopJumpTransformer(StatementTransformer):
    """The base of the ``break`` and ``continue`` lowerings: as it visits a loop's body, it
    notes whether the body holds a jump of the kind the subclass marks with ``_jump`` (one
    of the loop's own: not in a nested loop or function), which would otherwise take a
    second walk of the body (``contains(body, kind, into_loops=False)``)."""

    def __init__(self, ctx):
        super().__init__(ctx)
        self._open: list = []  # per loop whose body is being visited: whether it jumps

    def visit_loop_body(self, loop) -> bool:
        """Visits ``loop.body``; returns whether it holds a jump of the loop's own."""
        self._open.append(False)
        try:
            loop.body = self.visit_block(loop.body)
        finally:
            jumps = self._open.pop()
        return jumps

    def _jump(self, node):
        if self._open:
            self._open[-1] = True
        return node


def irrefutable(case) -> bool:
    """Whether the ``match`` case always matches (``case _:``, ``case name:``, no guard)."""
    return (case.guard is None and isinstance(case.pattern, gast.MatchAs)
            and case.pattern.pattern is None)


def contains(stmts, kinds, into_loops: bool) -> bool:
    """Whether ``stmts`` hold a statement of ``kinds`` (not inside nested functions)."""
    stack = list(stmts)
    while stack:
        s = stack.pop()
        if isinstance(s, kinds):
            return True
        if isinstance(s, SCOPES) or (isinstance(s, _LOOPS) and not into_loops):
            continue
        d = s.__dict__
        for f in BLOCKS.get(s.__class__, ()):
            stack.extend(d.get(f) or ())
    return False


def add_loop_condition(loop, flag: str) -> None:
    """Makes ``loop`` stop once ``flag`` is set: ``while not flag and test``."""
    if isinstance(loop, gast.While):
        loop.test = templates.located(
            templates.replace_as_expression("not flag and test", flag=flag, test=loop.test),
            loop.test)
    else:
        test = templates.replace_as_expression("not flag", flag=flag)
        extra = getattr(loop, "ag_extra_test", None)
        if extra is not None:
            test = templates.replace_as_expression("extra and test", extra=extra, test=test)
        loop.ag_extra_test = templates.located(test, loop)


def remove_unread_flag(fn, flag: str, maybe_read: bool = True) -> None:
    """Deletes the assignments to ``flag`` when nothing reads it (``maybe_read=False``: the
    caller knows nothing does)."""
    body = fn.body if isinstance(fn, (gast.FunctionDef, gast.Lambda)) else [fn]
    if maybe_read and loads_name(body, flag):  # (the walk also sees for loops' extra tests)
        return
    blocks = [fn]
    for node in blocks:  # (one walk of the statements: BLOCKS names the fields holding them)
        d = node.__dict__
        for f in BLOCKS.get(node.__class__, ()):
            block = d.get(f)
            if not block:
                continue
            blocks.extend(block)
            if f in CLAUSES:  # (handlers, cases: their bodies are blocks of their own)
                continue
            kept = [s for s in block if not _assigns_flag(s, flag)]
            if len(kept) != len(block):
                needed = f == "body" or (f == "finalbody" and not node.handlers)
                d[f] = kept or ([gast.Pass()] if needed else [])


def _assigns_flag(s, flag: str) -> bool:
    return (isinstance(s, gast.Assign) and len(s.targets) == 1
            and isinstance(s.targets[0], gast.Name) and s.targets[0].id == flag)
