"""Reductions (Sum, Mean, Max, Min, Prod, Any, All) and ArgMax/ArgMin.

The axes are a node attr, ``axis``: a tuple of ints (possibly negative) or
None for "all axes"; ``keep_dims`` keeps reduced axes as size 1. TensorFlow
keeps the input dtype: a Sum of int32 is int32 (numpy would give int64) and
an int Mean truncates toward zero.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import as_dtype, int32, int64
from graph.errors import InvalidArgumentError
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
            "f" if x.dtype.is_floating else "i"
        if kind not in allowed:
            wanted = "bool" if allowed == "b" else "numeric"
            fix = ("tf.cast(x, tf.bool) or compare first (x > 0)" if allowed == "b"
                   else "tf.cast(x, tf.int32) / tf.cast(x, tf.float32)")
            raise InvalidArgumentError(
                message=f"{op} takes {wanted} tensors, got {x.dtype.name}; use {fix}")
        shape = _reduced_shape(op, x.shape, attrs.get("axis"), attrs.get("keep_dims", False))
        return [TensorType(x.dtype, shape)]
    return infer


def _axis(axis):
    return None if axis is None else tuple(axis)


def _sum(x, axis=None, keep_dims=False):
    x = np.asarray(x)
    return np.sum(x, axis=_axis(axis), dtype=x.dtype, keepdims=keep_dims)


def _prod(x, axis=None, keep_dims=False):
    x = np.asarray(x)
    return np.prod(x, axis=_axis(axis), dtype=x.dtype, keepdims=keep_dims)


def _mean(x, axis=None, keep_dims=False):
    x = np.asarray(x)
    axis = _axis(axis)
    count = x.size if axis is None else int(np.prod([x.shape[a] for a in axis]))
    if x.dtype.kind in "iu":
        total = np.sum(x, axis=axis, dtype=x.dtype, keepdims=keep_dims)
        if count == 0:
            return np.zeros_like(total)
        # TensorFlow divides the integer sum, truncating toward zero.
        return (np.sign(total) * (np.abs(total) // x.dtype.type(count))).astype(x.dtype)
    acc = np.float32 if x.dtype == np.float16 else x.dtype
    with np.errstate(invalid="ignore", divide="ignore"):
        return np.mean(x, axis=axis, dtype=acc, keepdims=keep_dims).astype(x.dtype)


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
    "Sum": (_sum, "fi"),
    "Prod": (_prod, "fi"),
    "Mean": (_mean, "fi"),
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
        if not x.dtype.is_numeric:
            raise InvalidArgumentError(message=f"{op} takes numeric tensors, got {x.dtype.name}")
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


def _arg(fn):
    def kernel(x, axis, output_type=int64):
        x = np.asarray(x)
        if x.shape[axis] == 0:
            raise InvalidArgumentError(message="Reduction axis is empty in ArgMax/ArgMin")
        return fn(x, axis=axis).astype(as_dtype(output_type).numpy_dtype)
    return kernel


register_op("ArgMax", _arg_rule("ArgMax"), _arg(np.argmax), kernel_attrs=("axis", "output_type"))
register_op("ArgMin", _arg_rule("ArgMin"), _arg(np.argmin), kernel_attrs=("axis", "output_type"))
