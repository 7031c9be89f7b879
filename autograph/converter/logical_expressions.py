"""``and``/``or``/``not`` → lazy ``ag__.and_``/``ag__.or_``/``ag__.not_``; chained
comparisons → ``ag__.compare_chain``.

The operands after the first become thunks, so that they are evaluated only when
Python would evaluate them (or traced into a cond branch when the one before is a
tensor). ``a < b <= c`` becomes ``ag__.compare_chain(a, '<', b, '<=', lambda: c)``.
An operand that assigns with ``:=`` cannot become a thunk (it would assign in the
lambda): such an expression is left as it is.
"""
from __future__ import annotations

import gast

from autograph.converter import templates
from autograph.converter.transformer import Transformer


def replacement(node):
    """The call replacing a ``BoolOp``, ``not`` or chained ``Compare`` ``node`` (operands
    already converted)."""
    if isinstance(node, gast.UnaryOp):
        return templates.replace_as_expression("ag__.not_(a)", a=node.operand)
    if isinstance(node, gast.Compare):
        args = [node.left, templates.constant(_OPERATORS[type(node.ops[0])]),
                node.comparators[0]]
        for op, operand in zip(node.ops[1:], node.comparators[1:]):
            args += [templates.constant(_OPERATORS[type(op)]),
                     templates.replace_as_expression("lambda: x", x=operand)]
        call = templates.replace_as_expression("ag__.compare_chain()")
        call.args = args
        return call
    op = "ag__.and_" if isinstance(node.op, gast.And) else "ag__.or_"
    result = node.values[-1]
    for value in reversed(node.values[:-1]):
        result = templates.replace_as_expression(f"{op}(a, lambda: b)", a=value, b=result)
    return result


_OPERATORS = {gast.Lt: "<", gast.LtE: "<=", gast.Gt: ">", gast.GtE: ">=", gast.Eq: "==",
              gast.NotEq: "!=", gast.Is: "is", gast.IsNot: "is not", gast.In: "in",
              gast.NotIn: "not in"}


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
