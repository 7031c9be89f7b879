"""Lowerings of reductions, ArgMax/ArgMin, scans and segment ops (graph/ops/reduction.py)."""
from __future__ import annotations

import math

import jax
import jax.numpy as jnp
from jax import lax

from graph.xla.lowering import Unsupported, lowering, static_value


def _axis(node):
    axis = node.attrs.get("axis")
    return None if axis is None else tuple(axis)


def _accumulator(dtype):
    """The dtype sums and products run in: float32 for float16, as TensorFlow's XLA kernels
    accumulate (XlaHelpers::SumAccumulationType); the result is cast back."""
    return jnp.float32 if dtype == jnp.float16 else dtype


@lowering("Sum", "Prod", "Max", "Min", "Any", "All")
def _reduce(ctx, node, x):
    fn = {"Sum": jnp.sum, "Prod": jnp.prod, "Max": jnp.max, "Min": jnp.min,
          "Any": jnp.any, "All": jnp.all}[node.op]
    kwargs = {"dtype": _accumulator(x.dtype)} if node.op in ("Sum", "Prod") else {}
    if node.op in ("Max", "Min") and x.size == 0:  # TensorFlow's identity: -inf / +inf
        dtype = x.dtype
        big = jnp.inf if jnp.issubdtype(dtype, jnp.floating) else jnp.iinfo(dtype).max
        kwargs["initial"] = -big if node.op == "Max" else big
    return fn(x, axis=_axis(node), keepdims=bool(node.attrs.get("keep_dims")), **kwargs)


@lowering("Mean")
def _mean(ctx, node, x):
    axis = _axis(node)
    keep = bool(node.attrs.get("keep_dims"))
    if jnp.issubdtype(x.dtype, jnp.integer):  # TensorFlow truncates the integer quotient
        total = jnp.sum(x, axis=axis, dtype=x.dtype, keepdims=keep)
        count = x.size if axis is None else math.prod(x.shape[a] for a in axis)
        return lax.div(total, jnp.asarray(max(count, 1), x.dtype)) if count else total * 0
    return jnp.mean(x, axis=axis, dtype=_accumulator(x.dtype), keepdims=keep)


@lowering("ArgMax", "ArgMin")
def _arg(ctx, node, x):
    fn = jnp.argmax if node.op == "ArgMax" else jnp.argmin
    return fn(x, axis=node.attrs["axis"])


@lowering("Cumsum", "Cumprod", "CumulativeLogsumexp")
def _scan(ctx, node, x):
    axis = node.attrs["axis"]
    fn = {"Cumsum": lambda v: jnp.cumsum(v, axis=axis, dtype=_accumulator(v.dtype)),
          "Cumprod": lambda v: jnp.cumprod(v, axis=axis, dtype=_accumulator(v.dtype)),
          "CumulativeLogsumexp": lambda v: lax.cumlogsumexp(v, axis=axis)}[node.op]
    identity = {"Cumsum": 0, "Cumprod": 1, "CumulativeLogsumexp": -jnp.inf}[node.op]
    if node.attrs.get("reverse"):
        x = jnp.flip(x, axis)
    out = fn(x)
    if node.attrs.get("exclusive"):
        first = jnp.full_like(lax.slice_in_dim(out, 0, 1, axis=axis), identity)
        out = jnp.concatenate([first, lax.slice_in_dim(out, 0, out.shape[axis] - 1, axis=axis)],
                              axis=axis)
    return jnp.flip(out, axis) if node.attrs.get("reverse") else out


# -- segment reductions and Bincount: the number of segments must be a compile-time constant --

_SEGMENT = {"Sum": jax.ops.segment_sum, "Mean": jax.ops.segment_sum,
            "Prod": jax.ops.segment_prod, "Max": jax.ops.segment_max,
            "Min": jax.ops.segment_min}


def _segments(node, data, ids, count: int):
    """The numpy kernel's ``_segment_reduce``: negative ids dropped; empty segments hold
    TensorFlow's values (lowest/highest for Unsorted Max/Min, 0 for sorted Max/Min and Mean)."""
    kind = node.op.replace("Unsorted", "").replace("Segment", "")
    ids = jnp.where(ids < 0, count, ids)  # out of range: dropped
    rows = jnp.reshape(data, (-1,) + data.shape[ids.ndim:])
    ids = jnp.reshape(ids, (-1,))
    out = _SEGMENT[kind](rows, ids, num_segments=count)
    sizes = jax.ops.segment_sum(jnp.ones(ids.shape, jnp.int32), ids, num_segments=count)
    sizes = jnp.reshape(sizes, (count,) + (1,) * (out.ndim - 1))
    if kind == "Mean":
        if jnp.issubdtype(data.dtype, jnp.integer):  # truncates toward zero, as TensorFlow
            return lax.div(out, jnp.maximum(sizes, 1).astype(data.dtype))
        return out / jnp.maximum(sizes, 1).astype(data.dtype)
    if kind in ("Max", "Min"):
        if node.op.startswith("Unsorted"):
            info = jnp.finfo(data.dtype) if jnp.issubdtype(data.dtype, jnp.floating) \
                else jnp.iinfo(data.dtype)
            empty = info.min if kind == "Max" else info.max
        else:
            empty = 0
        return jnp.where(sizes == 0, jnp.asarray(empty, data.dtype), out)
    return out


@lowering(*(f"Segment{kind}" for kind in _SEGMENT))
def _sorted_segment(ctx, node, data, ids):
    count = node.outputs[0].shape.as_tuple()[0] if node.outputs[0].shape.rank else None
    if count is None:
        raise Unsupported(node, "its number of segments (the last segment id + 1) is known "
                                "only at run time; XLA needs it at compile time (use "
                                "tf.math.unsorted_segment_* with a constant num_segments)")
    return _segments(node, data, ids, count)


@lowering("UnsortedSegmentMax", "UnsortedSegmentMin", "UnsortedSegmentProd")
def _unsorted_segment(ctx, node, data, ids, num_segments):
    return _segments(node, data, ids, int(static_value(num_segments, node, "num_segments")))


@lowering("Bincount")
def _bincount(ctx, node, arr, size, weights):
    n = int(static_value(size, node, "the size"))
    arr = jnp.reshape(arr, (-1,))
    w = jnp.reshape(weights, (-1,)) if weights.size else jnp.ones(arr.shape, weights.dtype)
    return jax.ops.segment_sum(w, jnp.where(arr < 0, n, arr), num_segments=n)


@lowering("DenseBincount")
def _dense_bincount(ctx, node, arr, size, weights):
    n = int(static_value(size, node, "the size"))
    rows = jnp.reshape(arr, (-1, arr.shape[-1]))
    w = jnp.reshape(weights, rows.shape) if weights.size else jnp.ones(rows.shape, weights.dtype)
    ids = jnp.where((rows < 0) | (rows >= n), rows.shape[0] * n,
                    jnp.arange(rows.shape[0])[:, None] * n + rows)
    counts = jax.ops.segment_sum(w.reshape(-1), ids.reshape(-1), num_segments=rows.shape[0] * n)
    if node.attrs.get("binary_output"):
        counts = (counts > 0).astype(weights.dtype)
    return jnp.reshape(counts, arr.shape[:-1] + (n,))
