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
from runtime.ops.core import apply_op, convert_to_tensor
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

