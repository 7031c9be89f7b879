"""``a if c else b`` → ``ag__.if_exp(c, lambda: a, lambda: b)`` (a cond when ``c`` is a tensor)."""
from __future__ import annotations

from autograph.converter import templates
from autograph.converter.transformer import Transformer


class ConditionalExpressionTransformer(Transformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        new = templates.replace_as_expression(
            "ag__.if_exp(test, lambda: body, lambda: orelse)",
            test=node.test, body=node.body, orelse=node.orelse)
        return templates.located(new, node)


def transform(tree, ctx):
    return ConditionalExpressionTransformer(ctx).visit(tree)
