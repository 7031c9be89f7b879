"""``a if c else b`` → ``ag__.if_exp(c, lambda: a, lambda: b)`` (a cond when ``c`` is a tensor)."""
from __future__ import annotations

from autograph.converter import templates
from autograph.converter.transformer import Transformer


def replacement(node):
    """The call that replaces the ``IfExp`` ``node`` (whose operands are already converted)."""
    return templates.replace_as_expression("ag__.if_exp(test, lambda: body, lambda: orelse)",
                                           test=node.test, body=node.body, orelse=node.orelse)


class ConditionalExpressionTransformer(Transformer):
    def visit_IfExp(self, node):
        self.generic_visit(node)
        return replacement(node)


def transform(tree, ctx):
    return ConditionalExpressionTransformer(ctx).visit(tree)
