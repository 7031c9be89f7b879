"""Arithmetic, comparisons and elementwise math under TensorFlow's names."""
from __future__ import annotations

from runtime.ops.core import apply_op, binary_operands, convert_to_tensor


def _binary(op: str, default_name: str):
    def fn(x, y, name=None):
        x, y = binary_operands(x, y, name or default_name)
        return apply_op(op, [x, y], name=name or default_name)
    fn.__name__ = default_name
    fn.__doc__ = f"Elementwise ``{op}`` with broadcasting (``tf.{default_name}``)."
    return fn


def _unary(op: str, default_name: str):
    def fn(x, name=None):
        return apply_op(op, [convert_to_tensor(x)], name=name or default_name)
    fn.__name__ = default_name
    fn.__doc__ = f"Elementwise ``{op}`` (``tf.{default_name}``)."
    return fn


add = _binary("AddV2", "add")
subtract = _binary("Sub", "sub")
multiply = _binary("Mul", "mul")
maximum = _binary("Maximum", "Maximum")
minimum = _binary("Minimum", "Minimum")
greater = _binary("Greater", "Greater")
greater_equal = _binary("GreaterEqual", "GreaterEqual")
less = _binary("Less", "Less")
less_equal = _binary("LessEqual", "LessEqual")

negative = _unary("Neg", "Neg")
tanh = _unary("Tanh", "Tanh")
