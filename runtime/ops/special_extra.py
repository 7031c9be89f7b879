"""More of ``tf.math``: Bessel functions, the incomplete beta, the normal quantile, zeta and
polygamma (graph ops with numpy kernels, graph/ops/special.py), and the functions
TensorFlow composes in Python (lbeta, erfcinv, reciprocal_no_nan, accumulate_n, the
monotonicity tests, unsorted_segment_sqrt_n), composed the same way here.

Gradients are TensorFlow's (math_grad.py): for betainc only with respect to x, for
zeta only with respect to q, for polygamma only with respect to x.
"""
from __future__ import annotations

import math

from graph import dtypes
from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import reduce_to
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.ops.math_ops import _binary, _unary
from runtime.ops.special_ops import (_num_segments, lgamma, reciprocal, unsorted_segment_sum,
                                     xlog1py, xlogy)
from runtime.tensor import Tensor

__all__ = []  # tf.math names only (runtime/math.py), none at top level

bessel_i0 = _unary("BesselI0", "BesselI0", "bessel_i0")
bessel_i1 = _unary("BesselI1", "BesselI1", "bessel_i1")
bessel_i0e = _unary("BesselI0e", "BesselI0e", "bessel_i0e")
bessel_i1e = _unary("BesselI1e", "BesselI1e", "bessel_i1e")
ndtri = _unary("Ndtri", "Ndtri", "ndtri")
zeta = _binary("Zeta", "Zeta", "zeta")
polygamma = _binary("Polygamma", "Polygamma", "polygamma")


def betainc(a, b, x, name=None) -> Tensor:
    """``tf.math.betainc``: the regularized incomplete beta function I_x(a, b); each
    argument is a scalar or of the one shape the others have."""
    x = convert_to_tensor(x)
    a = convert_to_tensor(a, dtype_hint=x.dtype)
    b = convert_to_tensor(b, dtype_hint=x.dtype)
    return apply_op("Betainc", [a, b, x], name=name or "Betainc")


def erfcinv(x, name=None) -> Tensor:
    """``tf.math.erfcinv``: the y with erfc(y) = x, as -ndtri(x / 2) / sqrt(2)."""
    x = convert_to_tensor(x)
    return M.multiply(M.negative(ndtri(M.multiply(x, 0.5))), math.sqrt(0.5),
                      name=name or "erfcinv")


def lbeta(x, name=None) -> Tensor:
    """``tf.math.lbeta``: log |B(x)| over the last axis, sum(lgamma(x)) - lgamma(sum(x))."""
    x = convert_to_tensor(x)
    log_prod_gamma = M.reduce_sum(lgamma(x), axis=[-1])
    return M.subtract(log_prod_gamma, lgamma(M.reduce_sum(x, axis=[-1])), name=name or "lbeta")


def reciprocal_no_nan(x, name=None) -> Tensor:
    """``tf.math.reciprocal_no_nan``: 1 / x, 0 where x is 0 (floats and complex only)."""
    x = convert_to_tensor(x)
    return apply_op("DivNoNan", [convert_to_tensor(1, dtype=x.dtype), x],
                    name=name or "reciprocal_no_nan")


def invert_permutation(x, name=None) -> Tensor:
    """``tf.math.invert_permutation``: y with y[x[i]] = i, for a permutation x of 0..n-1."""
    x = convert_to_tensor(x, dtype_hint=dtypes.int32)
    return apply_op("InvertPermutation", [x], name=name or "InvertPermutation")


def _monotone(x, strict: bool, name: str) -> Tensor:
    x = convert_to_tensor(x)
    if not (x.dtype.is_integer or x.dtype.is_floating):
        raise TypeError(f"Expected x to be numeric, got {x.dtype.name}")
    flat = A.reshape(x, [-1])
    diff = M.subtract(flat[1:], flat[:-1])
    test = M.greater if strict else M.greater_equal
    return M.reduce_all(test(diff, M.cast(0, diff.dtype)), name=name)


def is_non_decreasing(x, name=None) -> Tensor:
    """``tf.math.is_non_decreasing``: x[i] <= x[i+1] over the flattened x (True if
    it has fewer than two elements)."""
    return _monotone(x, False, name or "is_non_decreasing")


def is_strictly_increasing(x, name=None) -> Tensor:
    """``tf.math.is_strictly_increasing``: x[i] < x[i+1] over the flattened x."""
    return _monotone(x, True, name or "is_strictly_increasing")


def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None) -> Tensor:
    """``tf.math.accumulate_n``: the sum of same-dtype, same-shape tensors (add_n)."""
    err = "inputs must be a list of at least one Tensor with the same dtype and shape"
    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError(err)
    inputs = [convert_to_tensor(t) for t in inputs]
    if any(t.dtype != inputs[0].dtype for t in inputs):
        raise ValueError(err)
    static = inputs[0].shape
    for t in inputs:
        if not static.is_compatible_with(t.shape):
            raise ValueError(err)
        static = static.merge_with(t.shape)
    if shape is not None and not static.is_compatible_with(shape):
        raise ValueError(f"Shape of inputs {static} is not compatible with shape={shape}")
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(f"tensor_dtype is {dtypes.as_dtype(tensor_dtype).name}, but input is "
                        f"of type {inputs[0].dtype.name}")
    return M.add_n(inputs, name=name or "accumulate_n")


def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None) -> Tensor:
    """``tf.math.unsorted_segment_sqrt_n``: the sum per segment over sqrt(its size),
    an empty segment giving 0; float data only."""
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    n = _num_segments(num_segments)
    counts = unsorted_segment_sum(A.ones_like(data), ids, n)
    root = M.sqrt(M.maximum(counts, M.cast(1, data.dtype)))
    return M.realdiv(unsorted_segment_sum(data, ids, n), root,
                     name=name or "unsorted_segment_sqrt_n")


# -- gradients (TensorFlow's math_grad.py) --------------------------------------------------

NotDifferentiable("InvertPermutation")


@RegisterGradient("Ndtri")
def _ndtri_grad(op, g):
    y = op.outputs[0]
    return [M.multiply(g, M.multiply(math.sqrt(2 * math.pi), M.exp(M.multiply(M.square(y),
                                                                               0.5))))]


@RegisterGradient("BesselI0")
def _bessel_i0_grad(op, g):
    return [M.multiply(g, bessel_i1(op.inputs[0]))]


@RegisterGradient("BesselI0e")
def _bessel_i0e_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    return [M.multiply(g, M.subtract(bessel_i1e(x), M.multiply(M.sign(x), y)))]


def _safe_x(x):
    """x with its zeros replaced by ones (the x == 0 branch is taken elsewhere)."""
    zero = M.equal(x, M.cast(0, x.dtype))
    return zero, M.where(zero, A.ones_like(x), x)


@RegisterGradient("BesselI1")
def _bessel_i1_grad(op, g):
    # d/dx I1(x) = I0(x) - I1(x) / x, 1/2 at x = 0
    x, y = op.inputs[0], op.outputs[0]
    zero, safe = _safe_x(x)
    d = M.where(zero, M.add(A.zeros_like(x), 0.5),
                M.subtract(bessel_i0(x), M.realdiv(y, safe)))
    return [M.multiply(g, d)]


@RegisterGradient("BesselI1e")
def _bessel_i1e_grad(op, g):
    # d/dx i1e(x) = i0e(x) - i1e(x) (sign(x) + 1/x), 1/2 at x = 0
    x, y = op.inputs[0], op.outputs[0]
    zero, safe = _safe_x(x)
    d = M.where(zero, M.add(A.zeros_like(x), 0.5),
                M.subtract(bessel_i0e(x), M.multiply(y, M.add(M.sign(x),
                                                               reciprocal(safe)))))
    return [M.multiply(g, d)]


@RegisterGradient("Betainc")
def _betainc_grad(op, g):
    a, b, x = op.inputs
    log_beta = M.subtract(M.add(lgamma(a), lgamma(b)), lgamma(M.add(a, b)))
    partial_x = M.exp(M.subtract(M.add(xlog1py(M.subtract(b, 1.0), M.negative(x)),
                                       xlogy(M.subtract(a, 1.0), x)), log_beta))
    return [None, None, reduce_to(M.multiply(partial_x, g), x)]


@RegisterGradient("Zeta")
def _zeta_grad(op, g):
    x, q = op.inputs
    partial_q = M.multiply(M.negative(x), zeta(M.add(x, 1.0), q))
    return [None, reduce_to(M.multiply(partial_q, g), q)]


@RegisterGradient("Polygamma")
def _polygamma_grad(op, g):
    n, x = op.inputs
    return [None, reduce_to(M.multiply(polygamma(M.add(n, 1.0), x), g), x)]



# -- Sobol sequences ----------------------------------------------------------------------------

# Joe & Kuo's direction numbers (new-joe-kuo-6.21201), dimensions 2..40: degree s, polynomial
# a, initial numbers m_1..m_s. Dimension 1 is the van der Corput sequence.
_JOE_KUO = """\
1 0 1|2 1 1 3|3 1 1 3 1|3 2 1 1 1|4 1 1 1 3 3|4 4 1 3 5 13|5 2 1 1 5 5 17|5 4 1 1 5 5 5|
5 7 1 1 7 11 19|5 11 1 1 5 1 1|5 13 1 1 1 3 11|5 14 1 3 5 5 31|6 1 1 3 3 9 7 49|
6 13 1 1 1 15 21 21|6 16 1 3 1 13 27 49|6 19 1 1 1 15 7 5|6 22 1 3 1 15 13 25|
6 25 1 1 5 5 19 61|7 1 1 3 7 11 23 15 103|7 4 1 3 7 13 13 15 69|7 7 1 1 3 13 7 35 63|
7 8 1 3 5 9 1 25 53|7 14 1 3 1 13 9 35 107|7 19 1 3 1 5 27 61 31|7 21 1 1 5 11 19 41 61|
7 28 1 3 5 3 3 13 69|7 31 1 1 7 13 1 19 1|7 32 1 3 7 5 13 19 59|7 37 1 1 3 9 25 29 41|
7 41 1 3 5 13 23 1 55|7 42 1 3 7 3 13 59 17|7 50 1 3 1 3 5 53 69|7 55 1 1 5 5 23 33 13|
7 56 1 1 7 7 1 61 123|7 59 1 1 7 9 13 61 49|7 62 1 3 3 5 3 55 33|
8 14 1 3 1 15 31 13 49 245|8 21 1 3 5 15 31 59 63 97|8 22 1 3 1 11 11 11 77 249"""
_SOBOL_BITS = 32


def _direction_numbers(s: int, a: int, m: list) -> list:
    """The 32 direction numbers v_k (as 32-bit integers) of one dimension."""
    v = []
    for k in range(_SOBOL_BITS):
        if k < s:
            v.append(m[k] << (_SOBOL_BITS - 1 - k))
            continue
        x = v[k - s] ^ (v[k - s] >> s)
        for i in range(1, s):
            if (a >> (s - 1 - i)) & 1:
                x ^= v[k - i]
        v.append(x)
    return v


def _sobol_direction_bits(dim: int):
    """[32 (k), dim * 32 (d, bit from the top)] 0/1 matrix of the direction numbers."""
    import numpy as np
    rows = [[int(t) for t in r.split()] for r in _JOE_KUO.replace("\n", "").split("|")]
    dirs = [[1 << (_SOBOL_BITS - 1 - k) for k in range(_SOBOL_BITS)]]
    dirs += [_direction_numbers(r[0], r[1], r[2:]) for r in rows[:dim - 1]]
    v = np.array(dirs, dtype=np.int64).T  # [k, d]
    shifts = np.arange(_SOBOL_BITS - 1, -1, -1)
    return ((v[:, :, None] >> shifts) & 1).reshape(_SOBOL_BITS, -1).astype(np.float64)


def sobol_sample(dim, num_results, skip=0, dtype=dtypes.float32, name=None) -> Tensor:
    """``tf.math.sobol_sample``: points ``skip + 1 ...`` of the ``dim``-dimensional Sobol
    sequence in Gray-code order, as TensorFlow's (Joe-Kuo direction numbers; dim <= 40 here).

    Point n is the XOR of the direction numbers at the set bits of gray(n), written as a
    0/1 matrix product taken mod 2, so it runs eagerly and staged on existing ops."""
    dim = int(dim)
    if not 1 <= dim <= 40:
        raise ValueError(f"sobol_sample supports 1 <= dim <= 40 here, got {dim}")
    dtype = dtypes.as_dtype(dtype)
    if dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"sobol_sample dtype must be float32 or float64, got {dtype.name}")
    from runtime.name_scope import name_scope
    with name_scope(name or "sobol_sample"):
        skip = M.cast(convert_to_tensor(skip, dtype_hint=dtypes.int32), dtypes.int64)
        count = M.cast(convert_to_tensor(num_results, dtype_hint=dtypes.int32), dtypes.int64)
        n = A.range(M.add(skip, 1), M.add(M.add(skip, count), 1), dtype=dtypes.int64)
        powers = constant([2 ** k for k in range(_SOBOL_BITS + 1)], dtype=dtypes.int64)
        bits = M.floormod(M.floordiv(A.expand_dims(n, 1), powers), 2)
        gray = M.cast(M.floormod(M.add(bits[:, :-1], bits[:, 1:]), 2), dtypes.float64)
        parity = M.floormod(M.matmul(gray, constant(_sobol_direction_bits(dim))), 2.0)
        weights = constant([[2.0 ** -(b + 1)] for b in range(_SOBOL_BITS)], dtype=dtypes.float64)
        points = M.matmul(A.reshape(parity, [-1, _SOBOL_BITS]), weights)
        return M.cast(A.reshape(points, [-1, dim]), dtype)
