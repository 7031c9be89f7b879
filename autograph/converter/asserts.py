"""``assert test, msg`` → ``ag__.assert_stmt(test, lambda: msg)`` (an Assert op for a tensor).

Only with ``Feature.ASSERT_STATEMENTS``, as in TensorFlow.
"""
from __future__ import annotations

from autograph.converter import templates
from autograph.converter.options import Feature
from autograph.converter.transformer import Transformer


class AssertTransformer(Transformer):
    def visit_Assert(self, node):
        self.generic_visit(node)
        if not self.ctx.options.uses(Feature.ASSERT_STATEMENTS):
            return node
        if node.msg is None:
            new = templates.replace("ag__.assert_stmt(test)", test=node.test)
        else:
            new = templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test,
                                    msg=node.msg)
            self.ctx.namer.has_scopes = True  # (the dataflow analysis looks for scopes)
        return templates.located(new, node)


def transform(tree, ctx):
    return AssertTransformer(ctx).visit(tree)
