"""Gradients of special functions, scans and segment ops, as TensorFlow's math_grad.py
defines them (including its choices at singular points, e.g. xlogy's 0 where x == 0)."""
from __future__ import annotations

import math

import numpy as np

from graph import dtypes
from runtime.gradients.math_grads import conj
from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import reduce_to
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import special_ops as S
from runtime.ops.core import apply_op

NotDifferentiable("IsNan", "IsInf", "IsFinite", "Rint", "TruncateDiv", "NextAfter",
                  "LeftShift", "RightShift", "Bincount",
                  "DenseBincount")


def _binary(op, gx, gy):
    x, y = op.inputs
    return [reduce_to(gx, x), reduce_to(gy, y)]


def _unary(name):
    """Registers ``d(op)/dx`` written in terms of (x, y): the gradient is g times it
    (times its conjugate on complex numbers)."""
    def register(derivative):
        @RegisterGradient(name)
        def grad(op, g):
            return [M.multiply(g, conj(derivative(op.inputs[0], op.outputs[0])))]
        return derivative
    return register


@_unary("Tan")
def _tan(x, y):
    return M.add(M.square(y), 1.0)


@_unary("Asin")
def _asin(x, y):
    return M.rsqrt(M.subtract(1.0, M.square(x)))


@_unary("Acos")
def _acos(x, y):
    return M.negative(M.rsqrt(M.subtract(1.0, M.square(x))))


@_unary("Atan")
def _atan(x, y):
    return S.reciprocal(M.add(M.square(x), 1.0))


@_unary("Sinh")
def _sinh(x, y):
    return S.cosh(x)


@_unary("Cosh")
def _cosh(x, y):
    return S.sinh(x)


@_unary("Asinh")
def _asinh(x, y):
    return S.reciprocal(S.cosh(y))


@_unary("Acosh")
def _acosh(x, y):
    return S.reciprocal(S.sinh(y))


@_unary("Atanh")
def _atanh(x, y):
    return S.reciprocal(M.subtract(1.0, M.square(x)))


@_unary("Log1p")
def _log1p(x, y):
    return S.reciprocal(M.add(x, 1.0))


@_unary("Expm1")
def _expm1(x, y):
    return M.exp(x)


@_unary("Erf")
def _erf(x, y):
    return M.multiply(M.exp(M.negative(M.square(x))), 2 / math.sqrt(math.pi))


@_unary("Erfc")
def _erfc(x, y):
    return M.multiply(M.exp(M.negative(M.square(x))), -2 / math.sqrt(math.pi))


@_unary("Erfinv")
def _erfinv(x, y):
    return M.multiply(M.exp(M.square(y)), math.sqrt(math.pi) / 2)


@_unary("Lgamma")
def _lgamma(x, y):
    return S.digamma(x)


@_unary("Digamma")
def _digamma(x, y):
    return _trigamma(x)  # TensorFlow's polygamma(1, x)


@RegisterGradient("Reciprocal")
def _reciprocal_grad(op, g):  # 0 where g is 0, as TensorFlow's ReciprocalGrad (math_grads.py)
    return [S.multiply_no_nan(conj(M.negative(M.square(op.outputs[0]))), g)]


def _trigamma(x):
    """trigamma(x) for x > 0: shift to x + 10, then 1/z + 1/(2z^2) + 1/(6z^3) - 1/(30z^5)
    + 1/(42z^7) - 1/(30z^9); reflection for x < 0 (pi^2 / sin^2(pi x) - trigamma(1 - x))."""
    negative = M.less(x, 0.0)
    z = M.where(negative, M.subtract(1.0, x), x)
    total = A.zeros_like(z)
    for k in range(10):
        total = M.add(total, S.reciprocal(M.square(M.add(z, float(k)))))
    z = M.add(z, 10.0)
    r = S.reciprocal(z)
    r2 = M.square(r)
    series = M.multiply(r, M.add(1.0, M.multiply(r, M.add(0.5, M.multiply(r, M.add(
        1 / 6, M.multiply(r2, M.add(-1 / 30, M.multiply(r2, M.add(1 / 42, M.multiply(
            r2, -1 / 30)))))))))))
    positive = M.add(total, series)
    s = M.sin(M.multiply(x, math.pi))
    reflected = M.subtract(M.realdiv(math.pi ** 2, M.square(s)), positive)
    return M.where(negative, reflected, positive)


# -- binary ---------------------------------------------------------------------------------

@RegisterGradient("Atan2")
def _atan2_grad(op, g):
    y, x = op.inputs
    scale = M.realdiv(g, M.add(M.square(x), M.square(y)))
    return _binary(op, M.multiply(x, scale), M.negative(M.multiply(y, scale)))


def _nonzero(x):
    return M.cast(M.not_equal(x, 0.0), x.dtype)


@RegisterGradient("Xlogy")
def _xlogy_grad(op, g):
    x, y = op.inputs
    return _binary(op, M.multiply(S.xlogy(_nonzero(x), y), g),
                   M.multiply(S.xdivy(x, y), g))


@RegisterGradient("Xlog1py")
def _xlog1py_grad(op, g):
    x, y = op.inputs
    return _binary(op, M.multiply(S.xlog1py(_nonzero(x), y), g),
                   M.multiply(S.xdivy(x, M.add(y, 1.0)), g))


@RegisterGradient("Xdivy")
def _xdivy_grad(op, g):
    x, y = op.inputs
    return _binary(op, M.multiply(S.xdivy(_nonzero(x), y), g),
                   M.multiply(S.xdivy(M.negative(x), M.square(y)), g))


@RegisterGradient("DivNoNan")
def _div_no_nan_grad(op, g):
    x, y = op.inputs
    return _binary(op, S.divide_no_nan(g, conj(y)),
                   M.multiply(g, conj(S.divide_no_nan(S.divide_no_nan(M.negative(x), y), y))))


@RegisterGradient("MulNoNan")
def _mul_no_nan_grad(op, g):
    x, y = op.inputs
    return _binary(op, S.multiply_no_nan(g, conj(y)), S.multiply_no_nan(conj(x), g))


@RegisterGradient("TruncateMod")
def _truncate_mod_grad(op, g):
    x, y = op.inputs
    return _binary(op, g, M.multiply(M.negative(g), S.truncatediv(x, y)))


@RegisterGradient("Igamma")
def _igamma_grad(op, g):
    a, x = op.inputs
    partial_a = apply_op("IgammaGradA", [a, x], name="IgammaGradA")
    partial_x = M.exp(M.subtract(M.subtract(M.multiply(M.subtract(a, 1.0), M.log(x)), x),
                                 S.lgamma(a)))
    return [reduce_to(M.multiply(partial_a, g), a), reduce_to(M.multiply(partial_x, g), x)]


@RegisterGradient("Igammac")
def _igammac_grad(op, g):
    return _igamma_grad(op, M.negative(g))


# -- scans ------------------------------------------------------------------------------------

def _scan_attrs(op):
    return op.attrs["axis"], bool(op.attrs.get("exclusive")), bool(op.attrs.get("reverse"))


@RegisterGradient("Cumsum")
def _cumsum_grad(op, g):
    axis, exclusive, reverse = _scan_attrs(op)
    return [S.cumsum(g, axis, exclusive=exclusive, reverse=not reverse)]


@RegisterGradient("Cumprod")
def _cumprod_grad(op, g):
    # TensorFlow's formula: exact unless some x is 0 (where it gives 0, as TF's div_no_nan).
    x = op.inputs[0]
    axis, exclusive, reverse = _scan_attrs(op)
    prod = S.cumprod(x, axis, exclusive=exclusive, reverse=reverse)
    out = S.cumsum(M.multiply(prod, g), axis, exclusive=exclusive, reverse=not reverse)
    return [S.divide_no_nan(out, x)]


@RegisterGradient("CumulativeLogsumexp")
def _cumulative_logsumexp_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    axis, exclusive, reverse = _scan_attrs(op)
    lowest = float(np.finfo(x.dtype.numpy_dtype).min)  # TensorFlow's log(0) stand-in
    parts = []
    for sign_mask, value in ((M.greater(g, 0), g), (M.less(g, 0), M.negative(g))):
        log_g = M.where(sign_mask, M.log(M.where(sign_mask, value, A.ones_like(value))),
                        M.add(A.zeros_like(value), lowest))
        parts.append(M.exp(M.add(S.cumulative_logsumexp(
            M.subtract(log_g, y), axis, exclusive=exclusive, reverse=not reverse), x)))
    return [M.subtract(parts[0], parts[1])]


# -- segment reductions ------------------------------------------------------------------------

def _gather_drop_negatives(params, ids):
    """params[ids] with rows of negative ids zero (unsorted ops drop those ids)."""
    safe = M.maximum(ids, 0)
    gathered = A.gather(params, safe)
    keep = M.greater_equal(ids, 0)
    extra = gathered.shape.rank - ids.shape.rank if gathered.shape.rank is not None \
        and ids.shape.rank is not None else 0
    for _ in range(extra):
        keep = A.expand_dims(keep, -1)
    return M.where(keep, gathered, A.zeros_like(gathered)), keep


@RegisterGradient("SegmentSum")
def _segment_sum_grad(op, g):
    return [A.gather(g, op.inputs[1]), None]


@RegisterGradient("SegmentMean")
def _segment_mean_grad(op, g):
    data, ids = op.inputs
    ones = A.ones_like(ids, dtype=data.dtype)
    counts = S.segment_sum(ones, ids)
    rank = g.shape.rank
    if rank is not None:
        counts = A.reshape(counts, A.concat([A.shape(counts), A.ones([rank - 1], dtypes.int32)],
                                            0))
    return [A.gather(M.realdiv(g, counts), ids), None]


@RegisterGradient("UnsortedSegmentSum")
def _unsorted_segment_sum_grad(op, g):
    return [_gather_drop_negatives(g, op.inputs[1])[0], None, None]


def _min_or_max_grad(op, g, sorted_ids: bool):
    data, ids = op.inputs[0], op.inputs[1]
    out = op.outputs[0]
    gathered_out, keep = _gather_drop_negatives(out, ids)
    selected = M.logical_and(M.equal(data, gathered_out), keep)
    hits = M.cast(selected, g.dtype)
    if sorted_ids:
        counts = S.segment_sum(hits, ids)
    else:
        counts = S.unsorted_segment_sum(hits, ids, op.inputs[2])
    share = _gather_drop_negatives(S.divide_no_nan(g, counts), ids)[0]
    grad = M.where(selected, share, A.zeros_like(share))
    return [grad, None] if sorted_ids else [grad, None, None]


RegisterGradient("SegmentMax")(lambda op, g: _min_or_max_grad(op, g, True))
RegisterGradient("SegmentMin")(lambda op, g: _min_or_max_grad(op, g, True))
RegisterGradient("UnsortedSegmentMax")(lambda op, g: _min_or_max_grad(op, g, False))
RegisterGradient("UnsortedSegmentMin")(lambda op, g: _min_or_max_grad(op, g, False))


def _prod_grad(op, g, sorted_ids: bool):
    """TensorFlow's: the product of the others, exact when a segment holds zeros (one
    zero: its entry gets the product of the rest; two or more: all zero)."""
    data, ids = op.inputs[0], op.inputs[1]
    segment_sum = S.segment_sum if sorted_ids else \
        (lambda v, i: S.unsorted_segment_sum(v, i, op.inputs[2]))
    segment_prod = S.segment_prod if sorted_ids else \
        (lambda v, i: S.unsorted_segment_prod(v, i, op.inputs[2]))
    is_zero = M.equal(data, 0.0)
    zeros = segment_sum(M.cast(is_zero, dtypes.int32), ids)
    g = M.where(M.greater(zeros, 1), A.zeros_like(g), g)  # zeros counts per output element
    non_zero_data = M.where(is_zero, A.ones_like(data), data)
    non_zero_prod = segment_prod(non_zero_data, ids)
    gathered_prod = _gather_drop_negatives(op.outputs[0], ids)[0]
    gathered_non_zero_prod = _gather_drop_negatives(non_zero_prod, ids)[0]
    partial = M.where(is_zero, gathered_non_zero_prod, M.realdiv(gathered_prod, non_zero_data))
    grad = M.multiply(_gather_drop_negatives(g, ids)[0], partial)
    return [grad, None] if sorted_ids else [grad, None, None]


RegisterGradient("SegmentProd")(lambda op, g: _prod_grad(op, g, True))
RegisterGradient("UnsortedSegmentProd")(lambda op, g: _prod_grad(op, g, False))
