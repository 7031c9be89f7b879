"""``tf.experimental.numpy`` (tnp): numpy's API on TensorFlow's tensors.

Every function is a composition of the runtime's ops, so it runs eagerly or in a
tf.function and has gradients; numpy's dtype rules apply inside (``dtype_rules``).
``tnp.ndarray`` is ``tf.Tensor``.
"""

import numpy as _np

from runtime.tensor import Tensor as ndarray  # noqa: F401
from runtime.tf_numpy import random  # noqa: F401
from runtime.tf_numpy.behavior import experimental_enable_numpy_behavior  # noqa: F401
from runtime.tf_numpy.creation import (arange, array, asanyarray, asarray,  # noqa: F401
                                       ascontiguousarray, diag, diag_indices, diagflat,
                                       diagonal, empty, empty_like, eye, full, full_like,
                                       geomspace, identity, ix_, linspace, logspace, meshgrid,
                                       ones, ones_like, tri, tril, triu, vander, zeros,
                                       zeros_like)
from runtime.tf_numpy.dtype_rules import (bool_, complex64, complex128, complex_,  # noqa: F401
                                          finfo, float16, float32, float64, float_, iinfo,
                                          inexact, int8, int16, int32, int64, int_,
                                          issubdtype, object_, promote_types, result_type,
                                          string_, uint8, uint16, uint32, uint64, unicode_)
from runtime.tf_numpy.elementwise import *  # noqa: F401,F403
from runtime.tf_numpy.linear import (cross, dot, einsum, inner, kron, matmul,  # noqa: F401
                                     outer, tensordot, trace, vdot)
from runtime.tf_numpy.reductions import (all, allclose, amax, amin, any,  # noqa: F401
                                         argmax, argmin, array_equal, average, count_nonzero,
                                         cumprod, cumsum, max, mean, min, nanmean, nanprod,
                                         nansum, prod, ptp, std, sum, var)
from runtime.tf_numpy.shaping import (append, argsort, array_split, atleast_1d,  # noqa: F401
                                      atleast_2d, atleast_3d, broadcast_arrays, broadcast_to,
                                      compress, concatenate, diff, dsplit, dstack,
                                      expand_dims, flatten, flip, fliplr, flipud, hsplit,
                                      hstack, moveaxis, ndim, nonzero, pad, ravel, repeat,
                                      reshape, roll, rot90, select, shape, size, sort, split,
                                      squeeze, stack, swapaxes, take, take_along_axis, tile,
                                      transpose, unique, vsplit, vstack, where)

pi = _np.pi
e = _np.e
inf = _np.inf
nan = _np.nan
newaxis = None


def copy(a):
    """A new tensor with ``a``'s value (an Identity)."""
    return array(a, copy=True)


def isscalar(num) -> bool:
    return ndim(num) == 0


round = around  # noqa: A001,F405

# the package's modules are not tnp names
del behavior, creation, dtype_rules, elementwise, indexing, linear, reductions, shaping  # noqa
