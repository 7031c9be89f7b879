"""TensorFlow's remaining top-level array helpers, written as TensorFlow's Python writes
them: compositions of existing ops (so gradients come from the ops they are made of).

``dynamic_partition`` is one ``boolean_mask`` per partition, ``dynamic_stitch`` a
scatter of the flattened pieces into zeros (a later index wins, as in TensorFlow),
``unravel_index`` divisions by the row-major strides, the histograms a bin index per
value and a segment sum of ones; ``hessians`` differentiates the graph being built twice,
one gradient per element of x.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime import context
from runtime.debugging import assert_equal, assert_greater, assert_less, assert_rank  # noqa: F401
from runtime.gradients import graph_builder
from runtime.gradients.backprop import backprop
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.math_ops import saturate_cast  # noqa: F401  (also tf.saturate_cast)
from runtime.ops.logging_ops import Assert
from runtime.ops.special_ops import cumprod, unsorted_segment_sum
from runtime.ops.string_ops import as_string  # noqa: F401
from runtime.tensor import Tensor

__all__ = ["as_string", "assert_equal", "assert_greater", "assert_less", "assert_rank",
           "dynamic_partition", "dynamic_stitch", "fingerprint", "histogram_fixed_width",
           "hessians", "histogram_fixed_width_bins", "saturate_cast", "scalar_mul", "shape_n",
           "unravel_index"]


def _int_tensor(value, what: str) -> Tensor:
    t = convert_to_tensor(value, dtype_hint=dtypes.int32)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"{what} must be an int32 or int64 tensor, got {t.dtype.name}")
    return t


def dynamic_partition(data, partitions, num_partitions: int, name=None) -> list:
    """``tf.dynamic_partition``: output ``i`` holds the slices of ``data`` whose
    partition is ``i``, in order."""
    data = convert_to_tensor(data)
    partitions = convert_to_tensor(partitions, dtype_hint=dtypes.int32)
    if partitions.dtype != dtypes.int32:
        raise TypeError(f"partitions must be an int32 tensor, got {partitions.dtype.name}")
    n = int(num_partitions)
    if n < 1:
        raise ValueError(f"num_partitions must be at least 1, got {n}")
    in_range = M.logical_and(M.greater_equal(partitions, 0), M.less(partitions, n))
    Assert(M.reduce_all(in_range), [f"partitions must be in [0, {n}):", partitions])
    return [A.boolean_mask(data, M.equal(partitions, i), name=name or "DynamicPartition")
            for i in range(n)]


def dynamic_stitch(indices, data, name=None) -> Tensor:
    """``tf.dynamic_stitch``: ``merged[indices[m][i]] = data[m][i]``; where an index
    repeats, the later piece wins."""
    if len(indices) != len(data) or not indices:
        raise ValueError("dynamic_stitch needs as many (and at least one) data tensors as "
                         f"index tensors, got {len(indices)} and {len(data)}")
    idx = [_int_tensor(i, "indices") for i in indices]
    vals = [convert_to_tensor(data[0])]
    vals += [convert_to_tensor(d, dtype_hint=vals[0].dtype) for d in data[1:]]
    first_rank = idx[0].shape.rank
    trailing = A.shape(vals[0])[first_rank:] if first_rank is not None else None
    if trailing is None:
        raise ValueError("dynamic_stitch needs indices of known rank")
    flat_idx = A.concat([A.reshape(M.cast(i, dtypes.int32), [-1]) for i in idx], 0)
    flat_vals = A.concat([A.reshape(v, A.concat([[-1], trailing], 0)) for v in vals], 0)
    size = M.add(M.reduce_max(A.concat([flat_idx, [-1]], 0)), 1)
    zeros = A.zeros(A.concat([[size], trailing], 0), dtype=flat_vals.dtype)
    return A.tensor_scatter_nd_update(zeros, A.expand_dims(flat_idx, -1), flat_vals,
                                      name=name or "DynamicStitch")


def scalar_mul(scalar, x, name=None) -> Tensor:
    """``tf.math.scalar_mul``: ``scalar * x``, the scalar converted to ``x``'s dtype."""
    x = convert_to_tensor(x)
    s = convert_to_tensor(scalar, dtype=x.dtype)
    if s.shape.rank is not None and s.shape.rank != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape "
                         f"{tuple(s.shape.as_list())}.")
    return M.multiply(s, x, name=name or "scalar_mul")


def shape_n(input, out_type=dtypes.int32, name=None) -> list:  # noqa: A002
    """``tf.shape_n``: the shape of each tensor of ``input``."""
    return [A.shape(t, out_type=out_type, name=name) for t in input]


def unravel_index(indices, dims, name=None) -> Tensor:
    """``tf.unravel_index``: the coordinates of flat ``indices`` in an array of shape
    ``dims``; shape [len(dims)] for a scalar index, [len(dims), n] for a vector."""
    indices = _int_tensor(indices, "indices")
    dims = convert_to_tensor(dims, dtype=indices.dtype) if not isinstance(dims, Tensor) \
        else dims
    if dims.dtype != indices.dtype:
        raise TypeError(f"dims must have the dtype of indices ({indices.dtype.name}), got "
                        f"{dims.dtype.name}")
    if indices.shape.rank not in (None, 0, 1):
        raise ValueError(f'The indices can only be scalar or vector, got "{indices.shape}"')
    total = M.reduce_prod(dims)
    in_range = M.logical_and(M.greater_equal(indices, 0), M.less(indices, total))
    Assert(M.reduce_all(in_range), ["index is out of bound as with dims"])
    # row-major strides: reverse exclusive cumprod of dims
    strides = A.reverse(cumprod(A.reverse(dims, [0]), exclusive=True), [0])
    column = [-1] + [1] * (indices.shape.rank or 0)
    coords = M.floormod(M.floordiv(A.expand_dims(indices, 0), A.reshape(strides, column)),
                        A.reshape(dims, column))
    return A.identity(coords, name=name or "UnravelIndex")


def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32,
                               name=None) -> Tensor:
    """``tf.histogram_fixed_width_bins``: the bin of each value among ``nbins`` equal
    bins over ``value_range``; values outside go to the first or last bin."""
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, dtype=values.dtype)
    nbins_t = convert_to_tensor(nbins, dtype=dtypes.int32)
    lo, hi = value_range[0], value_range[1]
    scaled = M.truediv(M.subtract(values, lo), M.subtract(hi, lo))
    index = M.floor(M.multiply(scaled, M.cast(nbins_t, scaled.dtype)))
    index = A.clip_by_value(M.cast(index, dtypes.int32), 0, M.subtract(nbins_t, 1))
    return M.cast(index, as_dtype(dtype), name=name or "histogram_fixed_width_bins")


def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32,
                          name=None) -> Tensor:
    """``tf.histogram_fixed_width``: how many values fall in each of ``nbins`` equal
    bins over ``value_range`` (values outside count in the first or last bin)."""
    values = A.reshape(convert_to_tensor(values), [-1])
    bins = histogram_fixed_width_bins(values, value_range, nbins)
    dtype = as_dtype(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"histogram_fixed_width: dtype must be int32 or int64, got {dtype.name}")
    return unsorted_segment_sum(A.ones_like(bins, dtype=dtype), bins,
                                convert_to_tensor(nbins, dtype=dtypes.int32),
                                name=name or "HistogramFixedWidth")


def _graph_gradients(ys: list, xs: list) -> list:
    """d(sum(ys))/d(xs) from the nodes of the graph being built (TensorFlow 1's
    ``tf.gradients``, which ``hessians`` is written with)."""
    graph = context.current_graph()
    records = graph_builder.records_in(graph, [(0, len(graph.nodes))])
    return backprop(records, ys, [A.ones_like(y) for y in ys], xs)


def hessians(ys, xs, gate_gradients: bool = False, aggregation_method=None,
             name: str = "hessians") -> list:
    """``tf.hessians``: for each x of ``xs``, d^2 sum(ys) / dx dx of shape x.shape + x.shape.
    As in TensorFlow 2 it works only while a graph is built (in a ``tf.function``), and a
    gradient that does not depend on x (a None) is TensorFlow's ValueError; each x needs
    a static size."""
    if context.current_graph() is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    ys = [convert_to_tensor(y) for y in (ys if isinstance(ys, (list, tuple)) else [ys])]
    xs = [convert_to_tensor(x) for x in (xs if isinstance(xs, (list, tuple)) else [xs])]
    result = []
    for x, grad in zip(xs, _graph_gradients(ys, xs)):
        if grad is None:
            raise ValueError("None values not supported.")
        n = x.shape.num_elements()
        if n is None:
            raise ValueError(f"tf.hessians needs a static shape for {x!r}")
        flat = A.reshape(grad, [-1])
        rows = []
        for j in range(n):
            (row,) = _graph_gradients([flat[j]], [x])
            if row is None:
                raise ValueError("None values not supported.")
            rows.append(row)
        shape = A.shape(x)
        result.append(A.reshape(A.stack(rows), A.concat([shape, shape], 0), name=name))
    return result


def fingerprint(data, method="farmhash64", name=None) -> Tensor:
    """``tf.fingerprint``: an 8-byte FarmHash fingerprint (uint8 ``[batch, 8]``) of each row
    of ``data``, stable across runs and machines: TensorFlow's bytes."""
    return apply_op("Fingerprint", [convert_to_tensor(data)], {"method": str(method)},
                    name=name or "Fingerprint")

