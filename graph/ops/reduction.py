"""Reductions (Sum, Mean, Max, Min, Prod, Any, All), ArgMax/ArgMin, scans (Cumsum,
Cumprod, CumulativeLogsumexp), segment reductions and Bincount.

The axes are a node attr, ``axis``: a tuple of ints (possibly negative) or
None for "all axes"; ``keep_dims`` keeps reduced axes as size 1. TensorFlow
keeps the input dtype: a Sum of int32 is int32 (numpy would give int64) and
an int Mean truncates toward zero.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import as_dtype, int32, int64
from graph.errors import DTypeNotSupportedError, InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape


def normalize_axes(op: str, axis, rank: int | None):
    """``axis`` as a tuple of non-negative ints (None: every axis); checks range."""
    if axis is None:
        return None if rank is None else tuple(range(rank))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    if rank is None:
        return axes
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise InvalidArgumentError(
                message=f"{op}: invalid reduction dimension {a} for input with {rank} "
                        f"dimensions; use an axis in [-{rank}, {rank})")
        a = a % rank
        if a in out:
            raise InvalidArgumentError(message=f"{op}: axis {a} is listed twice in {list(axes)}")
        out.append(a)
    return tuple(out)


def _reduced_shape(op: str, shape: TensorShape, axis, keep_dims: bool) -> TensorShape:
    if shape.rank is None:
        if axis is None and not keep_dims:
            return TensorShape([])
        return TensorShape(None)
    axes = normalize_axes(op, axis, shape.rank)
    dims = shape.as_tuple()
    if keep_dims:
        return TensorShape([1 if i in axes else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axes])


def _reduction_rule(op: str, allowed: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        kind = "b" if x.dtype.is_bool else "s" if x.dtype.is_string else \
            "f" if x.dtype.is_floating else "c" if x.dtype.is_complex else "i"
        if kind not in allowed:
            wanted = "bool" if allowed == "b" else "real numeric" if "c" not in allowed \
                else "numeric"
            fix = ("tf.cast(x, tf.bool) or compare first (x > 0)" if allowed == "b"
                   else "tf.cast(x, tf.int32) / tf.cast(x, tf.float32)")
            raise DTypeNotSupportedError(
                message=f"{op} takes {wanted} tensors, got {x.dtype.name}; use {fix}")
        shape = _reduced_shape(op, x.shape, attrs.get("axis"), attrs.get("keep_dims", False))
        return [TensorType(x.dtype, shape)]
    return infer


def _axis(axis):
    return None if axis is None else tuple(axis)


def _sum(x, axis=None, keep_dims=False):
    x = np.asarray(x)  # (the ufunc's reduce is np.sum without its ~1.5 µs of wrapping)
    return np.add.reduce(x, axis=_axis(axis), dtype=x.dtype, keepdims=keep_dims)


def _prod(x, axis=None, keep_dims=False):
    x = np.asarray(x)
    return np.multiply.reduce(x, axis=_axis(axis), dtype=x.dtype, keepdims=keep_dims)


def _mean(x, axis=None, keep_dims=False):
    x = np.asarray(x)
    axis = _axis(axis)
    count = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
    if x.dtype.kind in "iu":
        # TensorFlow sums integers narrower than 64 bits in 64 bits (a mean of int8
        # [100, 100, 90] is 96, not a wrapped sum's quotient; int64 wraps) and
        # divides the sum, truncating toward zero.
        wide = x.dtype if x.dtype.itemsize == 8 else np.int64 if x.dtype.kind == "i" \
            else np.uint64
        total = np.sum(x, axis=axis, dtype=wide, keepdims=keep_dims)
        if count == 0:
            return np.zeros_like(total, dtype=x.dtype)
        return (np.sign(total) * (np.abs(total) // total.dtype.type(count))).astype(x.dtype)
    with np.errstate(invalid="ignore", divide="ignore", over="ignore"):
        if x.dtype == np.float16:  # TensorFlow rounds the sum to float16 before dividing:
            total = np.sum(x, axis=axis, dtype=np.float32, keepdims=keep_dims)  # 2 x 60000 is inf
            return (total.astype(np.float16).astype(np.float32)
                    / np.float32(np.float16(count))).astype(np.float16)
        return np.mean(x, axis=axis, dtype=x.dtype, keepdims=keep_dims).astype(x.dtype)


def _extreme(fn, pick):
    def kernel(x, axis=None, keep_dims=False):
        x = np.asarray(x)
        info = np.finfo(x.dtype) if x.dtype.kind == "f" else np.iinfo(x.dtype)
        initial = (-np.inf if pick == "max" else np.inf) if x.dtype.kind == "f" else \
            (info.min if pick == "max" else info.max)
        return fn(x, axis=_axis(axis), keepdims=keep_dims, initial=initial)
    return kernel


def _any(x, axis=None, keep_dims=False):
    return np.any(x, axis=_axis(axis), keepdims=keep_dims)


def _all(x, axis=None, keep_dims=False):
    return np.all(x, axis=_axis(axis), keepdims=keep_dims)


_REDUCTIONS = {
    "Sum": (_sum, "fic"),
    "Prod": (_prod, "fic"),
    "Mean": (_mean, "fic"),
    "Max": (_extreme(np.max, "max"), "fi"),
    "Min": (_extreme(np.min, "min"), "fi"),
    "Any": (_any, "b"),
    "All": (_all, "b"),
}
for _name, (_kernel, _allowed) in _REDUCTIONS.items():
    register_op(_name, _reduction_rule(_name, _allowed), _kernel,
                kernel_attrs=("axis", "keep_dims"))


# -- ArgMax / ArgMin ------------------------------------------------------------------

def _arg_rule(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        if not (x.dtype.is_real or x.dtype.is_bool):  # (bool too: False < True)
            raise DTypeNotSupportedError(message=f"{op} takes real numeric or bool tensors, "
                                                 f"got {x.dtype.name}")
        out = as_dtype(attrs.get("output_type", int64))
        if out not in (int32, int64):
            raise InvalidArgumentError(message=f"{op}: output_type must be int32 or int64")
        rank = x.shape.rank
        if rank == 0:
            raise InvalidArgumentError(message=f"{op} needs a tensor of rank >= 1, got a scalar")
        axis = normalize_axes(op, attrs["axis"], rank)[0] if rank is not None else None
        if rank is None:
            return [TensorType(out, TensorShape(None))]
        dims = x.shape.as_tuple()
        return [TensorType(out, TensorShape([d for i, d in enumerate(dims) if i != axis]))]
    return infer


def _arg(fn, nan_fn):
    """TensorFlow's CPU kernels skip NaNs (a slice of NaNs only gives 0), where numpy's
    first NaN wins."""
    def kernel(x, axis, output_type=int64):
        x = np.asarray(x)
        if x.shape[axis] == 0:
            raise InvalidArgumentError(message="Reduction axis is empty in ArgMax/ArgMin")
        if x.dtype.kind == "f":
            nans = np.isnan(x)
            if nans.any():
                x = np.where(np.all(nans, axis=axis, keepdims=True), 0, x)
                return nan_fn(x, axis=axis).astype(as_dtype(output_type).numpy_dtype)
        return fn(x, axis=axis).astype(as_dtype(output_type).numpy_dtype)
    return kernel


register_op("ArgMax", _arg_rule("ArgMax"), _arg(np.argmax, np.nanargmax),
            kernel_attrs=("axis", "output_type"))
register_op("ArgMin", _arg_rule("ArgMin"), _arg(np.argmin, np.nanargmin),
            kernel_attrs=("axis", "output_type"))


# -- scans: Cumsum, Cumprod, CumulativeLogsumexp ---------------------------------------
# TensorFlow takes the axis as a tensor input; here it is an attr, like the reductions'
# axes: it must be known while tracing (it always is in practice).

def _scan_rule(op: str, allowed: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        kind = "f" if x.dtype.is_floating else "i" if x.dtype.is_integer else \
            "c" if x.dtype.is_complex else "x"
        if kind not in allowed:
            takes = "float" if allowed == "f" else "numeric"
            raise DTypeNotSupportedError(
                message=f"{op} takes {takes} tensors, got {x.dtype.name}")
        rank = x.shape.rank
        if rank is not None:
            axis = attrs["axis"]
            if not -rank <= axis < rank:
                raise InvalidArgumentError(
                    message=f"{op}: Expected scan axis in the range [{-rank}, {rank}), but got "
                            f"{axis} (a scan needs a tensor of rank >= 1)")
        return [TensorType(x.dtype, x.shape)]
    return infer


def _scan(accumulate, identity):
    """``accumulate(x, axis)`` made exclusive (shifted by one, ``identity`` first) and
    reversed on request."""
    def kernel(x, axis, exclusive=False, reverse=False):
        x = np.asarray(x)
        if reverse:
            x = np.flip(x, axis)
        out = accumulate(x, axis)
        if exclusive:
            out = np.roll(out, 1, axis)
            first = [slice(None)] * x.ndim
            first[axis] = slice(0, 1)
            out[tuple(first)] = identity
        return np.flip(out, axis) if reverse else out
    return kernel


def _logaddexp_accumulate(x, axis):
    return np.logaddexp.accumulate(x, axis=axis)


_SCANS = {
    "Cumsum": (_scan(lambda x, a: np.cumsum(x, axis=a, dtype=x.dtype), 0), "fic"),
    "Cumprod": (_scan(lambda x, a: np.cumprod(x, axis=a, dtype=x.dtype), 1), "fic"),
    "CumulativeLogsumexp": (_scan(_logaddexp_accumulate, -np.inf), "f"),
}
for _name, (_kernel, _allowed) in _SCANS.items():
    register_op(_name, _scan_rule(_name, _allowed), _kernel,
                kernel_attrs=("axis", "exclusive", "reverse"))


# -- segment reductions -------------------------------------------------------------------
# Segment*: sorted 1-D ids, output size max(id) + 1. UnsortedSegment*: ids of any shape
# prefixing data's, a num_segments input, negative ids dropped. Empty segments hold the
# reduction's identity, except SegmentMax/Min (0) and Mean (0), as in TensorFlow.

def _segment_rule(op: str, sorted_ids: bool):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2 if sorted_ids else 3)
        data, ids = inputs[0], inputs[1]
        ordered = "Max" in op or "Min" in op
        if not (data.dtype.is_real if ordered else data.dtype.is_numeric):
            raise InvalidArgumentError(message=f"{op} takes {'real ' if ordered else ''}numeric "
                                               f"data, got {data.dtype.name}")
        if ids.dtype not in (int32, int64):
            raise InvalidArgumentError(
                message=f"{op}: segment_ids must be int32 or int64, got {ids.dtype.name}")
        if sorted_ids:
            if ids.shape.rank not in (None, 1):
                raise InvalidArgumentError(message=f"{op}: segment_ids should be a vector, "
                                                   f"got shape {ids.shape}")
            count = None
            if ids.value is not None:
                v = np.asarray(ids.value)
                count = int(v.max()) + 1 if v.size else 0
            prefix_rank = 1
        else:
            n = inputs[2]
            if n.dtype not in (int32, int64) or n.shape.rank not in (None, 0):
                raise InvalidArgumentError(
                    message=f"{op}: num_segments must be an int32 or int64 scalar")
            count = None if n.value is None else int(n.value)
            prefix_rank = ids.shape.rank
        if data.shape.rank is None or prefix_rank is None:
            return [TensorType(data.dtype, TensorShape(None))]
        dims, id_dims = data.shape.as_tuple(), ids.shape.as_tuple()
        if sorted_ids and None not in (dims[:1] + id_dims) and dims[:1] != id_dims:
            raise InvalidArgumentError(
                message=f"{op}: segment_ids should be the same size as dimension 0 of input "
                        f"({id_dims[0]} != {dims[0] if dims else 'a scalar'})")
        if len(id_dims) > len(dims) or any(
                a is not None and b is not None and a != b for a, b in zip(dims, id_dims)):
            raise InvalidArgumentError(
                message=f"{op}: segment_ids.shape = {ids.shape} does not prefix "
                        f"data.shape = {data.shape}")
        return [TensorType(data.dtype, TensorShape([count] + list(dims[prefix_rank:])))]
    return infer


_SEGMENT_UFUNCS = {"Sum": np.add, "Prod": np.multiply, "Max": np.maximum, "Min": np.minimum,
                   "Mean": np.add}


def _segment_identity(kind: str, dtype: np.dtype):
    if kind in ("Sum", "Mean"):
        return 0
    if kind == "Prod":
        return 1
    info = np.finfo(dtype) if dtype.kind == "f" else np.iinfo(dtype)
    return info.min if kind == "Max" else info.max  # TensorFlow's lowest()/highest()


def _segment_reduce(kind: str, data, ids, count: int, empty_fill=None):
    data, ids = np.asarray(data), np.asarray(ids)
    out = np.full((count,) + data.shape[ids.ndim:], _segment_identity(kind, data.dtype),
                  dtype=data.dtype)
    keep = ids >= 0
    ids_kept, rows = ids[keep], data[keep]
    _SEGMENT_UFUNCS[kind].at(out, ids_kept, rows)
    if kind == "Mean" or empty_fill is not None:
        sizes = np.bincount(ids_kept.reshape(-1), minlength=count)[:count]
        sizes = sizes.reshape((count,) + (1,) * (out.ndim - 1))
        if kind == "Mean":
            if out.dtype.kind in "fc":
                out = (out / np.maximum(sizes, 1)).astype(data.dtype)
            else:  # integer mean truncates toward zero, as TensorFlow's
                out = (np.sign(out) * (np.abs(out) // np.maximum(sizes, 1))).astype(data.dtype)
        if empty_fill is not None:
            out = np.where(sizes == 0, data.dtype.type(empty_fill), out)
    return out


def _sorted_segment(kind: str, op: str):
    def kernel(data, ids):
        ids = np.asarray(ids)
        if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
            raise InvalidArgumentError(
                message=f"{op}: segment ids are not increasing and non-negative: "
                        f"{ids.tolist()[:20]}")
        if ids.shape[0] != np.shape(data)[0]:
            raise InvalidArgumentError(
                message=f"{op}: segment_ids should be the same size as dimension 0 of input: "
                        f"{ids.shape[0]} != {np.shape(data)[0]}")
        count = int(ids[-1]) + 1 if ids.size else 0
        return _segment_reduce(kind, data, ids, count,
                               empty_fill=0 if kind in ("Max", "Min") else None)
    return kernel


def _unsorted_segment(kind: str, op: str):
    def kernel(data, ids, num_segments):
        ids, count = np.asarray(ids), int(num_segments)
        if np.shape(data)[:ids.ndim] != ids.shape:
            raise InvalidArgumentError(
                message=f"{op}: segment_ids.shape = {list(ids.shape)} does not prefix "
                        f"data.shape = {list(np.shape(data))}")
        bad = ids >= count
        if np.any(bad):
            raise InvalidArgumentError(
                message=f"{op}: segment_ids[{np.argwhere(bad)[0].tolist()}] = "
                        f"{int(ids[bad][0])} is out of range [0, {count})")
        return _segment_reduce(kind, data, ids, count)
    return kernel


for _kind in ("Sum", "Mean", "Max", "Min", "Prod"):
    register_op(f"Segment{_kind}", _segment_rule(f"Segment{_kind}", True),
                _sorted_segment(_kind, f"Segment{_kind}"))
    # UnsortedSegmentSum is registered in gradient_ops (gradients of gather need it);
    # tf.math.unsorted_segment_mean is composed (sum / count), as in TensorFlow.
    if _kind not in ("Sum", "Mean"):
        register_op(f"UnsortedSegment{_kind}", _segment_rule(f"UnsortedSegment{_kind}", False),
                    _unsorted_segment(_kind, f"UnsortedSegment{_kind}"))


# -- Bincount, DenseBincount ---------------------------------------------------------------

def _bincount_infer(inputs, attrs):
    expect_arity("Bincount", inputs, 3)
    arr, size, weights = inputs
    if arr.dtype != int32:
        raise InvalidArgumentError(message=f"Bincount: arr must be int32, got {arr.dtype.name}")
    if not weights.dtype.is_real:
        raise InvalidArgumentError(message="Bincount: weights must be real numbers")
    n = None if size.value is None else int(size.value)
    return [TensorType(weights.dtype, TensorShape([n]))]


def _bincount(arr, size, weights):
    arr, weights, size = np.asarray(arr).reshape(-1), np.asarray(weights), int(size)
    if size < 0:
        raise InvalidArgumentError(message=f"Bincount: size ({size}) must be non-negative")
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError(message="Bincount: input arr must be non-negative!")
    keep = arr < size
    w = weights.reshape(-1)[keep] if weights.size else None
    counts = np.bincount(arr[keep], weights=w, minlength=size)[:size]
    return counts.astype(weights.dtype)


register_op("Bincount", _bincount_infer, _bincount)


def _dense_bincount_infer(inputs, attrs):
    """What ``tf.math.bincount`` builds: counts of a 1-D ``input``, or of each row of
    a 2-D one (``axis=-1``); ``binary_output`` marks presence instead of counting."""
    expect_arity("DenseBincount", inputs, 3)
    arr, size, weights = inputs
    if not arr.dtype.is_integer:
        raise InvalidArgumentError(
            message=f"DenseBincount: input must be int32 or int64, got {arr.dtype.name}")
    if not weights.dtype.is_real:
        raise InvalidArgumentError(message="DenseBincount: weights must be real numbers")
    if arr.shape.rank is not None and arr.shape.rank not in (1, 2):
        raise InvalidArgumentError(
            message=f"DenseBincount: input must be 1-D or 2-D, got shape {arr.shape}")
    n = None if size.value is None else int(size.value)
    rows = [] if arr.shape.rank == 1 else [arr.shape.as_tuple()[0]] if arr.shape.rank else None
    return [TensorType(weights.dtype, TensorShape(None if rows is None else rows + [n]))]


def _dense_bincount(arr, size, weights, binary_output=False):
    arr, weights, size = np.asarray(arr), np.asarray(weights), int(size)
    if size < 0:
        raise InvalidArgumentError(message=f"DenseBincount: size ({size}) must be non-negative")
    if arr.size and arr.min() < 0:
        raise InvalidArgumentError(message="DenseBincount: input arr must be non-negative!")
    if weights.size and weights.shape != arr.shape:
        raise InvalidArgumentError(
            message=f"DenseBincount: weights {weights.shape} must have the shape of "
                    f"input {arr.shape}")
    rows = arr.reshape(arr.shape if arr.ndim == 2 else (1, arr.size))
    keep = rows < size
    flat = (np.arange(rows.shape[0])[:, None] * size + rows)[keep]
    w = weights.reshape(rows.shape)[keep] if weights.size else None
    counts = np.bincount(flat, weights=w, minlength=rows.shape[0] * size)
    if binary_output:
        counts = counts > 0
    return counts.reshape(arr.shape[:-1] + (size,)).astype(weights.dtype)


register_op("DenseBincount", _dense_bincount_infer, _dense_bincount,
            kernel_attrs=("binary_output",))
