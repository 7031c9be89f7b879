"""``continue`` → ``continue_ = True``; the rest of the iteration runs under a guard."""
from __future__ import annotations

import gast

from autograph.converter import jumps, templates
from autograph.converter.transformer import user_functions


class ContinueTransformer(jumps.LoopJumpTransformer):
    def visit_FunctionDef(self, node):
        return node

    visit_AsyncFunctionDef = visit_FunctionDef  # (coroutines stay as written)
    visit_Continue = jumps.LoopJumpTransformer._jump

    def _loop(self, node):
        if not self.visit_loop_body(node):
            return node
        flag = self.ctx.namer.new("continue_")
        self.ctx.flags.add(flag)
        pending_break = getattr(node, "ag_break_flag", None)

        def replacement(s, in_finally: bool):
            if in_finally and pending_break is not None:
                # a `continue` leaving a `finally` drops a `break` pending from its `try`
                return templates.replace("flag = True\nbreak_ = False", flag=flag,
                                         break_=pending_break)
            return templates.replace("flag = True", flag=flag)

        lowering = jumps.BlockLowering(lambda s: isinstance(s, gast.Continue), replacement,
                                       flag, into_loops=False, namer=self.ctx.namer)
        body = lowering.block(node.body)
        if lowering.guarded:
            body = templates.located(templates.replace("flag = False", flag=flag), node) + body
        node.body = body or [gast.Pass()]
        # (only a guard reads the fresh flag: with none, it is surely unread)
        self.ctx.continue_loops.append((node, flag, lowering.guarded))
        return node

    visit_While = visit_For = _loop


def transform(tree, ctx):
    for fn in user_functions(tree, ctx):
        fn.body = ContinueTransformer(ctx).visit_block(fn.body)
    return tree


def remove_unread_flags(ctx) -> None:
    """Deletes ``continue_`` flags nothing reads (after ``return_statements``, which places
    code after the flags set in ``finally`` blocks)."""
    for loop, flag, guarded in ctx.continue_loops:
        jumps.remove_unread_flag(loop, flag, maybe_read=guarded)
