"""``and``/``or``/``not`` → lazy ``ag__.and_``/``ag__.or_``/``ag__.not_``.

The operands of ``and``/``or`` become thunks, so that the right one is
evaluated only when Python would evaluate it (or traced into a cond branch
when the left one is a tensor).
"""
from __future__ import annotations

import gast

from autograph.converter import templates
from autograph.converter.transformer import Transformer


def replacement(node):
    """The call replacing a ``BoolOp`` or ``not`` ``node`` (operands already converted)."""
    if isinstance(node, gast.UnaryOp):
        return templates.replace_as_expression("ag__.not_(a)", a=node.operand)
    op = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
    result = node.values[-1]
    for value in reversed(node.values[:-1]):
        result = templates.replace_as_expression(f"{op}(lambda: a, lambda: b)", a=value, b=result)
    return result


class LogicalExpressionTransformer(Transformer):
    def visit_BoolOp(self, node):
        self.generic_visit(node)
        return replacement(node)

    def visit_UnaryOp(self, node):
        self.generic_visit(node)
        if not isinstance(node.op, gast.Not):
            return node
        return replacement(node)


def transform(tree, ctx):
    return LogicalExpressionTransformer(ctx).visit(tree)
