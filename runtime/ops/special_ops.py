"""The rest of ``tf.math``: special functions, safe divisions, statistics reductions,
scans, segment reductions and counting, under TensorFlow's names.

Where TensorFlow composes an op in Python (reduce_variance, reduce_logsumexp,
polyval, log_sigmoid, confusion_matrix...), so does this module, so gradients
come from the ops it is made of.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.math_ops import _binary, _static_axis, _unary, operands
from runtime.origin import current_origin
from runtime.tensor import Tensor

__all__ = ["acos", "acosh", "asin", "asinh", "atan", "atan2", "atanh", "cosh", "cumsum",
           "reduce_logsumexp", "sinh", "tan", "truncatediv", "truncatemod"]

# -- elementwise -------------------------------------------------------------------------

tan = _unary("Tan", "Tan", "tan")
asin = _unary("Asin", "Asin", "asin")
acos = _unary("Acos", "Acos", "acos")
atan = _unary("Atan", "Atan", "atan")
sinh = _unary("Sinh", "Sinh", "sinh")
cosh = _unary("Cosh", "Cosh", "cosh")
asinh = _unary("Asinh", "Asinh", "asinh")
acosh = _unary("Acosh", "Acosh", "acosh")
atanh = _unary("Atanh", "Atanh", "atanh")
log1p = _unary("Log1p", "Log1p", "log1p")
expm1 = _unary("Expm1", "Expm1", "expm1")
erf = _unary("Erf", "Erf", "erf")
erfc = _unary("Erfc", "Erfc", "erfc")
erfinv = _unary("Erfinv", "Erfinv", "erfinv")
lgamma = _unary("Lgamma", "Lgamma", "lgamma")
digamma = _unary("Digamma", "Digamma", "digamma")
reciprocal = _unary("Reciprocal", "Reciprocal", "reciprocal")
rint = _unary("Rint", "Rint", "rint")
is_nan = _unary("IsNan", "IsNan", "is_nan")
is_inf = _unary("IsInf", "IsInf", "is_inf")
is_finite = _unary("IsFinite", "IsFinite", "is_finite")

atan2 = _binary("Atan2", "Atan2", "atan2")
xlogy = _binary("Xlogy", "Xlogy", "xlogy")
xlog1py = _binary("Xlog1py", "Xlog1py", "xlog1py")
xdivy = _binary("Xdivy", "Xdivy", "xdivy")
igamma = _binary("Igamma", "Igamma", "igamma")
igammac = _binary("Igammac", "Igammac", "igammac")
truncatediv = _binary("TruncateDiv", "truncatediv", "truncatediv")
truncatemod = _binary("TruncateMod", "truncatemod", "truncatemod")
multiply_no_nan = _binary("MulNoNan", "MulNoNan", "multiply_no_nan")
nextafter = _binary("NextAfter", "NextAfter", "nextafter")
left_shift = _binary("LeftShift", "LeftShift", "left_shift")
right_shift = _binary("RightShift", "RightShift", "right_shift")


def divide_no_nan(x, y, name=None) -> Tensor:
    """``tf.math.divide_no_nan``: x / y, 0 where y is 0; integers divide as ``/`` does
    (int32 and int64 as float64)."""
    name = name or "div_no_nan"
    x, y = operands(x, y, name)
    target = M._TRUEDIV_TYPES.get(x.dtype.name) if x.dtype == y.dtype else None
    if target is not None:
        x, y = M.cast(x, target), M.cast(y, target)
    return apply_op("DivNoNan", [x, y], name=name)


def log_sigmoid(x, name=None) -> Tensor:
    """``tf.math.log_sigmoid``: -softplus(-x), written so that no exp overflows."""
    x = convert_to_tensor(x)
    # -softplus(-x) = min(x, 0) - log1p(exp(-|x|))
    return M.subtract(M.minimum(x, 0), log1p(M.exp(M.negative(M.abs(x)))),
                      name=name or "LogSigmoid")


def polyval(coeffs, x, name=None) -> Tensor:
    """``tf.math.polyval``: coeffs[0] * x**(n-1) + ... + coeffs[n-1], by Horner's rule."""
    if not isinstance(coeffs, (list, tuple)):
        raise ValueError(f"Argument coeffs must be list type found {type(coeffs)}.")
    x = convert_to_tensor(x)
    if not coeffs:
        return A.zeros_like(x, name=name)
    result = convert_to_tensor(coeffs[0])
    for c in coeffs[1:]:
        result = M.add(convert_to_tensor(c), M.multiply(result, x))
    return result


# -- statistics reductions ----------------------------------------------------------------

def _float_input(input_tensor, fn_name: str) -> Tensor:
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_floating:
        raise TypeError(f"Input must be either real or complex. Received integer type "
                        f"{x.dtype!r}. ({fn_name} at {current_origin()}; tf.cast it to a "
                        "float dtype first)")
    return x


def reduce_variance(input_tensor, axis=None, keepdims: bool = False, name=None) -> Tensor:
    """``tf.math.reduce_variance``: mean of squared deviations (float inputs only)."""
    x = _float_input(input_tensor, "reduce_variance")
    axis = _static_axis(axis)
    mean = M.reduce_mean(x, axis=axis, keepdims=True)
    return M.reduce_mean(M.squared_difference(x, mean), axis=axis, keepdims=keepdims,
                         name=name or "reduce_variance")


def reduce_std(input_tensor, axis=None, keepdims: bool = False, name=None) -> Tensor:
    """``tf.math.reduce_std``: the square root of ``reduce_variance``."""
    return M.sqrt(reduce_variance(input_tensor, axis, keepdims), name=name or "reduce_std")


def reduce_logsumexp(input_tensor, axis=None, keepdims: bool = False, name=None) -> Tensor:
    """``tf.reduce_logsumexp``: log(sum(exp(x))) shifted by the max so nothing overflows;
    an all -inf slice gives -inf (the shift is taken as 0 where the max is not finite)."""
    x = convert_to_tensor(input_tensor)
    axis = _static_axis(axis)
    raw_max = M.reduce_max(x, axis=axis, keepdims=True)
    my_max = apply_op("StopGradient",
                      [M.where(is_finite(raw_max), raw_max, A.zeros_like(raw_max))])
    result = M.log(M.reduce_sum(M.exp(M.subtract(x, my_max)), axis=axis, keepdims=keepdims))
    if not keepdims:
        my_max = A.reshape(my_max, A.shape(result))
    return M.add(result, my_max, name=name or "reduce_logsumexp")


def reduce_euclidean_norm(input_tensor, axis=None, keepdims: bool = False, name=None) -> Tensor:
    """``tf.math.reduce_euclidean_norm``: sqrt(sum(x**2)); integers stay integers (the
    square root truncated), as TensorFlow's EuclideanNorm kernel does."""
    x = convert_to_tensor(input_tensor)
    axis = _static_axis(axis)
    squares = (M.multiply(x, apply_op("Conj", [x], name="Conj")) if x.dtype.is_complex
               else M.square(x))  # |x|^2
    total = M.reduce_sum(squares, axis=axis, keepdims=keepdims)
    if x.dtype.is_floating or x.dtype.is_complex:
        return M.sqrt(total, name=name or "reduce_euclidean_norm")
    return M.cast(M.sqrt(M.cast(total, dtypes.float64)), x.dtype,
                  name=name or "reduce_euclidean_norm")


def count_nonzero(input, axis=None, keepdims: bool = False, dtype=dtypes.int64,
                  name=None) -> Tensor:
    """``tf.math.count_nonzero``: how many elements are not zero (not "" for strings)."""
    x = convert_to_tensor(input)
    zero = "" if x.dtype.is_string else False if x.dtype.is_bool else 0
    nonzero = M.cast(M.not_equal(x, zero), dtypes.int64)
    return M.cast(M.reduce_sum(nonzero, axis=_static_axis(axis), keepdims=keepdims),
                  as_dtype(dtype), name=name or "count_nonzero")


# -- scans ---------------------------------------------------------------------------------

def _scan_axis(axis) -> int:
    axes = _static_axis(axis)
    if axes is None or len(axes) != 1:
        raise ValueError(f"axis must be a scalar, got {axis!r} (at {current_origin()})")
    return axes[0]


def _scan(op: str, tf_name: str, doc: str):
    def fn(x, axis=0, exclusive: bool = False, reverse: bool = False, name=None):
        x = convert_to_tensor(x)
        return apply_op(op, [x], {"axis": _scan_axis(axis), "exclusive": bool(exclusive),
                                  "reverse": bool(reverse)}, name=name or op)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = doc
    return fn


cumsum = _scan("Cumsum", "cumsum", "``tf.cumsum``: running sums along ``axis``; ``exclusive`` "
               "leaves each element out of its own sum, ``reverse`` runs from the end.")
cumprod = _scan("Cumprod", "cumprod", "``tf.math.cumprod``: running products along ``axis``.")
cumulative_logsumexp = _scan(
    "CumulativeLogsumexp", "cumulative_logsumexp",
    "``tf.math.cumulative_logsumexp``: running log(sum(exp(x))) along ``axis``.")


# -- segment reductions -----------------------------------------------------------------------

def _segment(kind: str):
    op = f"Segment{kind}"

    def fn(data, segment_ids, name=None):
        data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        return apply_op(op, [data, ids], name=name or op)
    fn.__name__ = fn.__qualname__ = f"segment_{kind.lower()}"
    fn.__doc__ = (f"``tf.math.segment_{kind.lower()}``: the {kind.lower()} of the rows of "
                  "``data`` that share a segment id (ids sorted, output size max(id) + 1).")
    return fn


def _num_segments(num_segments) -> Tensor:
    n = convert_to_tensor(num_segments, dtype_hint=dtypes.int32)
    if n.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"num_segments must be an int32 or int64 tensor, got {n.dtype!r}")
    return n


def _unsorted_segment(kind: str):
    op = f"UnsortedSegment{kind}"

    def fn(data, segment_ids, num_segments, name=None):
        data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
        return apply_op(op, [data, ids, _num_segments(num_segments)], name=name or op)
    fn.__name__ = fn.__qualname__ = f"unsorted_segment_{kind.lower()}"
    fn.__doc__ = (f"``tf.math.unsorted_segment_{kind.lower()}``: the {kind.lower()} per "
                  "segment id, ids in any order; negative ids are dropped.")
    return fn


segment_sum = _segment("Sum")
segment_mean = _segment("Mean")
segment_max = _segment("Max")
segment_min = _segment("Min")
segment_prod = _segment("Prod")
unsorted_segment_sum = _unsorted_segment("Sum")
unsorted_segment_max = _unsorted_segment("Max")
unsorted_segment_min = _unsorted_segment("Min")
unsorted_segment_prod = _unsorted_segment("Prod")


def unsorted_segment_mean(data, segment_ids, num_segments, name=None) -> Tensor:
    """``tf.math.unsorted_segment_mean``: sum per segment over its size (at least 1), as
    TensorFlow composes it (``/``: integer data gives float64, as there)."""
    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    n = _num_segments(num_segments)
    ones = A.ones_like(data)
    counts = M.maximum(unsorted_segment_sum(ones, ids, n), M.cast(1, data.dtype))
    return M.truediv(unsorted_segment_sum(data, ids, n), counts,
                     name=name or "unsorted_segment_mean")


# -- counting -------------------------------------------------------------------------------------

def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32,
             name=None, axis=None, binary_output: bool = False) -> Tensor:
    """``tf.math.bincount``: how often each value of ``arr`` occurs (or the sum of its
    ``weights``, or 1 if it occurs with ``binary_output``), over max(arr) + 1 bins at
    least ``minlength``, at most ``maxlength``; ``axis=-1`` counts each row of a 2-D
    ``arr``."""
    arr = convert_to_tensor(arr, dtype_hint=dtypes.int32)
    if weights is not None:
        weights = convert_to_tensor(weights)
        if binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually "
                             "exclusive. Please specify only one.")
    if not arr.dtype.is_integer:
        arr = M.cast(arr, dtypes.int32)
    if axis not in (None, 0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and"
                         " -1 are currently supported.")
    size = M.cast(M.greater(A.size(arr), 0), arr.dtype)
    size = M.multiply(size, M.add(M.reduce_max(arr), 1))
    if minlength is not None:
        size = M.maximum(convert_to_tensor(minlength, dtype=arr.dtype), size)
    if maxlength is not None:
        size = M.minimum(convert_to_tensor(maxlength, dtype=arr.dtype), size)
    if axis != -1:
        arr = A.reshape(arr, [-1])
        if weights is not None:
            weights = A.reshape(weights, [-1])
    if weights is None:
        weights = A.zeros([0], dtype=as_dtype(dtype))
    return apply_op("DenseBincount", [arr, size, weights], {"binary_output": binary_output},
                    name=name or "bincount")


def confusion_matrix(labels, predictions, num_classes=None, weights=None,
                     dtype=dtypes.int32, name=None) -> Tensor:
    """``tf.math.confusion_matrix``: entry [i, j] counts (or sums the weights of) the
    examples with label i and prediction j."""
    labels = M.cast(convert_to_tensor(labels), dtypes.int64)
    predictions = M.cast(convert_to_tensor(predictions), dtypes.int64)
    _check_labels(labels, predictions, num_classes)
    if num_classes is None:
        n = M.add(M.maximum(M.reduce_max(labels), M.reduce_max(predictions)), 1)
    else:
        n = M.cast(convert_to_tensor(num_classes), dtypes.int64)
    values = A.ones_like(labels, dtype=as_dtype(dtype)) if weights is None else \
        M.cast(convert_to_tensor(weights), as_dtype(dtype))
    flat = unsorted_segment_sum(values, M.add(M.multiply(labels, n), predictions),
                                M.multiply(n, n))
    return A.reshape(flat, A.stack([n, n]), name=name or "confusion_matrix")


def _check_labels(labels, predictions, num_classes) -> None:
    """TensorFlow's asserts: labels and predictions in [0, num_classes)."""
    from runtime.ops.logging_ops import Assert
    for t, what in ((labels, "labels"), (predictions, "predictions")):
        Assert(M.reduce_all(M.greater_equal(t, 0)), [f"`{what}` contains negative values"])
        if num_classes is not None:
            Assert(M.reduce_all(M.less(t, M.cast(num_classes, dtypes.int64))),
                   [f"`{what}` out of bound"])

