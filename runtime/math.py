"""``tf.math``: the math op API under TensorFlow's ``tf.math.*`` names."""
from runtime.ops.math_ops import (abs, add, add_n, argmax, argmin, bitwise_and,  # noqa: F401
                                  bitwise_or, bitwise_xor, ceil, cos, divide, equal, exp,
                                  floor, floordiv, floormod, greater, greater_equal, invert, less,
                                  less_equal, log, logical_and, logical_not, logical_or,
                                  logical_xor, maximum, minimum, mod, multiply, negative,
                                  not_equal, pow, realdiv, reduce_all, reduce_any, reduce_max,
                                  reduce_mean, reduce_min, reduce_prod, reduce_sum, round, rsqrt,
                                  sigmoid, sign, sin, sqrt, square, squared_difference, subtract,
                                  tanh, truediv)
from runtime.composite import dispatch_api as _dispatch_api  # noqa: E402
_dispatch_api(globals())  # tf.math.* on RaggedTensor / SparseTensor arguments
