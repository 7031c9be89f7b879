"""A jump in ``finally`` discards the exception in flight: make that explicit before jumps
become flags.

In Python, a ``break``/``continue``/``return`` that leaves a ``finally`` block drops the
exception being raised through it. Once the jump is an assignment to a flag (the
passes after this one), the exception would go on. So a ``try`` whose ``finally`` may
jump catches the exception itself and raises it again at the end of the ``finally``,
where the lowered jump guards the statement as it guards any code after a jump::

    try:                                exc_ = None
        body                            try:
    except E:                               try:
        handler                                 body
    finally:                 →              except E:
        final                                   handler
                                        except BaseException as e:
                                            exc_ = ag__.in_flight(e)
                                        finally:
                                            final
                                            if exc_ is not None:
                                                raise exc_

What a jump in ``finally`` does to a jump pending from the ``try`` (a ``break``
overridden by a ``continue``, a ``return`` by a ``break``) is handled where the jumps
are lowered (``jumps.BlockLowering``, ``return_statements``).
"""
from __future__ import annotations

import gast

from autograph.converter import jumps, templates
from autograph.converter.transformer import StatementTransformer, user_functions


def jumps_out_of(final: list) -> bool:
    """Whether the ``finally`` block ``final`` may leave with a jump."""
    return (jumps.contains(final, (gast.Break, gast.Continue), into_loops=False)
            or jumps.contains(final, gast.Return, into_loops=True))


class FinallyJumpTransformer(StatementTransformer):
    def visit_FunctionDef(self, node):
        return node  # each function is handled on its own

    visit_ClassDef = visit_AsyncFunctionDef = visit_FunctionDef

    def visit_Try(self, node):
        self.generic_visit(node)
        if not node.finalbody or not jumps_out_of(node.finalbody):
            return node
        namer = self.ctx.namer
        pending, caught = namer.new("exc_"), namer.new("e")
        inner = node.body
        if node.handlers:
            inner = [templates.make(type(node), body=node.body, handlers=node.handlers,
                                    orelse=node.orelse, finalbody=[])]
        new = templates.replace(
            "pending = None\n"
            "try:\n    inner\nexcept BaseException as caught:\n"
            "    pending = ag__.in_flight(caught)\n"
            "finally:\n    final\n    if pending is not None:\n        raise pending",
            pending=pending, caught=caught, inner=inner, final=node.finalbody)
        return templates.located(new, node)

    visit_TryStar = visit_Try


def transform(tree, ctx):
    for fn in user_functions(tree, ctx):
        fn.body = FinallyJumpTransformer(ctx).visit_block(fn.body)
    return tree
