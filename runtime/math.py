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
from runtime.ops.special_ops import (acos, acosh, asin, asinh, atan, atan2,  # noqa: F401
                                     atanh, bincount, confusion_matrix, cosh, count_nonzero,
                                     cumprod, cumsum, cumulative_logsumexp, digamma,
                                     divide_no_nan, erf, erfc, erfinv, expm1, igamma, igammac,
                                     is_finite, is_inf, is_nan, lgamma, log1p, log_sigmoid,
                                     multiply_no_nan, nextafter, polyval, reciprocal,
                                     reduce_euclidean_norm, reduce_logsumexp, reduce_std,
                                     reduce_variance, rint, segment_max, segment_mean,
                                     segment_min, segment_prod, segment_sum, sinh, tan,
                                     unsorted_segment_max, unsorted_segment_mean,
                                     unsorted_segment_min, unsorted_segment_prod,
                                     unsorted_segment_sum, xdivy, xlog1py, xlogy)
from runtime.ops.complex_ops import angle, conj, imag, real  # noqa: F401
from runtime.ops.special_extra import (accumulate_n, bessel_i0, bessel_i0e,  # noqa: F401
                                       bessel_i1, bessel_i1e, betainc, erfcinv,
                                       invert_permutation, is_non_decreasing,
                                       is_strictly_increasing, lbeta, ndtri, polygamma,
                                       reciprocal_no_nan, sobol_sample,
                                       unsorted_segment_sqrt_n, zeta)
from runtime.ops.extra_ops import scalar_mul  # noqa: F401
from runtime.ops.nn_extra import approx_max_k, approx_min_k  # noqa: F401
# tf.math.softplus and friends are TensorFlow's tf.nn functions under a second name.
from runtime.ops.nn_ops import (in_top_k, l2_normalize, log_softmax, softmax,  # noqa: F401
                                softplus, softsign, top_k, zero_fraction)
from runtime.composite import dispatch_api as _dispatch_api  # noqa: E402
_dispatch_api(globals())  # tf.math.* on RaggedTensor / SparseTensor arguments
