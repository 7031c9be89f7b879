"""``break`` → ``break_ = True``; the loop stops when the flag is set.

A ``while`` loop's test becomes ``not break_ and test``; a ``for`` loop gets
the extra test ``not break_`` that ``for_stmt`` checks before each
iteration. The loop's ``else`` clause becomes ``if not break_:`` after it
(or plain statements when the loop has no ``break``). TensorFlow cannot
convert a loop with ``else`` and runs such a function unconverted (so it
works on Python values only; its strict mode refuses it, as here); here the
clause is lowered, so it works on Python values as Python runs it, and
staged on tensors.
"""
from __future__ import annotations

import gast

from autograph.converter import jumps, templates
from autograph.converter.transformer import user_functions


class BreakTransformer(jumps.LoopJumpTransformer):
    def visit_FunctionDef(self, node):
        return node  # each function is handled on its own

    visit_AsyncFunctionDef = visit_FunctionDef  # (coroutines stay as written)
    visit_Break = jumps.LoopJumpTransformer._jump

    def _loop(self, node):
        if node.orelse and self.ctx.options.strict:
            kind = "for" if isinstance(node, gast.For) else "while"
            raise self.ctx.error(node, f"{kind}/else statement not yet supported (TensorFlow's "
                                       "strict conversion mode, AUTOGRAPH_STRICT_CONVERSION, "
                                       "is on): set a flag where the loop breaks and test it "
                                       "after the loop instead.")
        breaks = self.visit_loop_body(node)
        node.orelse = self.visit_block(node.orelse)  # (a break there is the outer loop's)
        if not breaks:
            if node.orelse:
                orelse, node.orelse = node.orelse, []
                return [node] + orelse
            return node
        flag = self.ctx.namer.new("break_")
        self.ctx.flags.add(flag)
        node.ag_break_flag = flag  # (a `continue` in `finally` drops a pending break)
        lowering = jumps.BlockLowering(lambda s: isinstance(s, gast.Break),
                                       lambda s, _: templates.replace("flag = True", flag=flag),
                                       flag, into_loops=False, namer=self.ctx.namer)
        node.body = lowering.known_false(lowering.block(node.body)) or [gast.Pass()]
        jumps.add_loop_condition(node, flag)
        init = templates.located(templates.replace("flag = False", flag=flag), node)
        after = []
        if node.orelse:
            after = templates.located(
                templates.replace("if not flag:\n    orelse", flag=flag, orelse=node.orelse), node)
            node.orelse = []
        return init + [node] + after

    visit_While = visit_For = _loop


def transform(tree, ctx):
    for fn in user_functions(tree, ctx):
        fn.body = BreakTransformer(ctx).visit_block(fn.body)
    return tree
