"""``assert test, msg`` → ``ag__.assert_stmt(test, lambda: msg)`` (an Assert op for a tensor)."""
from __future__ import annotations

from autograph.converter import templates
from autograph.converter.transformer import Transformer


class AssertTransformer(Transformer):
    def visit_Assert(self, node):
        self.generic_visit(node)
        if node.msg is None:
            new = templates.replace("ag__.assert_stmt(test)", test=node.test)
        else:
            new = templates.replace("ag__.assert_stmt(test, lambda: msg)", test=node.test,
                                    msg=node.msg)
        return templates.located(new, node)


def transform(tree, ctx):
    return AssertTransformer(ctx).visit(tree)
