"""``tf.bitwise``: bitwise ops on integer tensors."""
from runtime.ops.math_ops import bitwise_and, bitwise_or, bitwise_xor, invert  # noqa: F401
from runtime.ops.special_ops import left_shift, right_shift  # noqa: F401
