"""``tf.reduce_sum(rt, axis=1)`` and the other reductions of a RaggedTensor, as TensorFlow's
ragged_math_ops writes them.

``sum``/``prod``/``max``/``min`` over a ragged axis of dense items (the innermost ragged axis,
or the rows of a ragged_rank-1 value) are one ``RaggedReduce`` (graph/ops/ragged.py); over a
ragged axis of ragged items, the items combine elementwise aligned at their starts (unsorted
segment ops, recursively). An empty row gives the reducer's identity (0, 1, the dtype's
lowest/highest finite value). The others are built from
them, so their dtypes and empty rows follow: ``mean`` is ``sum / count`` with ``/`` (ints give
float64, an empty row nan), ``any``/``all`` are ``sum``/``prod`` of the values cast to int32,
then cast to bool, ``variance`` is ``mean(x²) - mean(x)²`` (clipped at 0), ``std`` its root;
``tf.strings.reduce_join`` is the ``join`` reducer (strings in order, an empty row b'').
"""
from __future__ import annotations

import functools

import numpy as np

from graph import dtypes
from runtime import composite
from runtime.ops import array_ops, math_ops, special_ops, string_ops
from runtime.ops.core import apply_op, constant
from runtime.ragged.ragged_tensor import RaggedTensor, _static_value, _where
from runtime.tensor import Tensor

_DENSE = {"sum": math_ops.reduce_sum, "prod": math_ops.reduce_prod,
          "max": math_ops.reduce_max, "min": math_ops.reduce_min}
_SEGMENT = {"sum": special_ops.unsorted_segment_sum, "prod": special_ops.unsorted_segment_prod,
            "max": special_ops.unsorted_segment_max, "min": special_ops.unsorted_segment_min}


def _unsorted_segment_join(separator: str):
    """``tf.strings.unsorted_segment_join``: the strings of each segment, in order, joined (a
    stable sort by segment id makes the segments rows of one ``RaggedReduce``)."""
    def join(data, segment_ids, num_segments):
        order = array_ops.argsort(segment_ids, stable=True)
        ids = array_ops.gather(segment_ids, order)
        splits = apply_op("RaggedRowSplitsFromRowIds",
                          [ids, math_ops.cast(num_segments, ids.dtype)],
                          name="RowPartitionFromRowIds")
        return apply_op("RaggedReduceJoin", [array_ops.gather(data, order), splits],
                        {"axis": "rows", "separator": separator}, name="UnsortedSegmentJoin")
    return join


def _axes(rt: RaggedTensor, axis, api: str) -> list[int]:
    """``axis`` as non-negative ints, largest first (reducing them in that order keeps the
    smaller ones valid)."""
    if isinstance(axis, Tensor):
        value = _static_value(axis)
        if value is None:
            raise ValueError(f"{api} of a RaggedTensor needs a static axis{_where()}")
        axis = np.asarray(value).reshape(-1).tolist()
    axes = list(axis) if isinstance(axis, (list, tuple)) else [axis]
    rank, out = rt.shape.rank, set()
    for a in axes:
        a = int(a)
        if rank is not None:
            if not -rank <= a < rank:
                raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
            a = a + rank if a < 0 else a
        elif a < 0:
            raise ValueError(f"{api} of a RaggedTensor of unknown rank needs axis >= 0")
        out.add(a)
    return sorted(out, reverse=True)


def _dense_reducer(reducer: str, separator: str):
    if reducer == "join":
        return functools.partial(string_ops.reduce_join, separator=separator)
    return _DENSE[reducer]


def _reduce(reducer: str, rt, axis, keepdims: bool, api: str, separator: str = ""):
    """``reducer`` (sum, prod, max, min; join with ``separator``) of ``rt`` over ``axis``
    (None: everything)."""
    dense = _dense_reducer(reducer, separator)
    if not isinstance(rt, RaggedTensor):
        return dense(rt, axis=axis, keepdims=keepdims)
    if axis is None:
        out = dense(rt.flat_values)
        return array_ops.reshape(out, [1] * rt.shape.rank) if keepdims else out
    result = rt
    for a in _axes(rt, axis, api):
        result = _reduce_axis(reducer, result, a, keepdims, api, separator)
    return result


def _reduce_axis(reducer: str, rt, axis: int, keepdims: bool, api: str, separator: str):
    dense = _dense_reducer(reducer, separator)
    if not isinstance(rt, RaggedTensor):
        return dense(rt, axis=axis, keepdims=keepdims)
    k = rt.ragged_rank
    if axis > k:  # a uniform inner dimension: reduce the flat values
        return rt.with_flat_values(dense(rt.flat_values, axis=axis - k, keepdims=keepdims))
    if axis >= 2:  # inside every row
        return rt.with_values(_reduce_axis(reducer, rt.values, axis - 1, keepdims, api,
                                           separator))
    values = rt.values
    if axis == 1:  # the items of each row combine
        if isinstance(values, RaggedTensor):
            out = _segment_reduce(reducer, values, rt.value_rowids(), rt.nrows(), separator)
        else:
            out = _ragged_reduce(reducer, values, rt.row_splits, "rows", separator, api)
    elif isinstance(values, RaggedTensor):  # axis 0: the items at one position in their rows
        longest = math_ops.reduce_max(array_ops.concat(
            [constant([0], dtype=rt.row_splits_dtype), rt.row_lengths()], 0))
        out = _segment_reduce(reducer, values, _positions(rt), longest, separator)
    else:
        out = _ragged_reduce(reducer, values, rt.row_splits, "columns", separator, api)
    return out[(slice(None),) * axis + (None,)] if keepdims else out


def _ragged_reduce(reducer: str, values, splits, axis: str, separator: str, api: str):
    if reducer == "join":
        return apply_op("RaggedReduceJoin", [values, splits],
                        {"axis": axis, "separator": separator}, name=f"Ragged{api}")
    return apply_op("RaggedReduce", [values, splits], {"reducer": reducer, "axis": axis},
                    name=f"Ragged{api}")


def _segment_reduce(reducer: str, data, segment_ids, num_segments, separator: str):
    """Row ``s`` of the result combines, elementwise, the rows of ``data`` whose segment id is
    ``s`` (rows of different lengths align at their starts, as TensorFlow's ragged
    segment ops do)."""
    if not isinstance(data, RaggedTensor):
        if reducer == "join":
            return _unsorted_segment_join(separator)(data, segment_ids, num_segments)
        return _SEGMENT[reducer](data, segment_ids, num_segments)
    lengths = special_ops.unsorted_segment_max(data.row_lengths(), segment_ids, num_segments)
    lengths = math_ops.maximum(lengths, constant(0, dtype=lengths.dtype))
    splits = apply_op("RaggedRowSplitsFromLengths", [lengths], name="RowPartitionFromLengths")
    item_ids = array_ops.gather(splits, array_ops.gather(segment_ids, data.value_rowids())) \
        + _positions(data)
    values = _segment_reduce(reducer, data.values, item_ids, splits[-1], separator)
    return RaggedTensor(values, splits, internal=True)


def _positions(rt: RaggedTensor):
    """The position of every item of ``rt.values`` in its row."""
    rowids = rt.value_rowids()
    n = array_ops.shape(rowids, out_type=rowids.dtype)[0]
    return array_ops.range(constant(0, dtype=rowids.dtype), n) \
        - array_ops.gather(rt.row_splits, rowids)


def _elementwise(fn, *values):
    """``fn`` on reduction results that share one partition (ragged) or are dense."""
    ragged = next((v for v in values if isinstance(v, RaggedTensor)), None)
    if ragged is None:
        return fn(*values)
    return ragged.with_flat_values(fn(*(v.flat_values for v in values)))


def _numeric(reducer: str, api: str):
    def handler(input_tensor, axis=None, keepdims: bool = False, name=None):
        return _reduce(reducer, input_tensor, axis, keepdims, api)
    return handler


def _cast_values(rt: RaggedTensor, dtype) -> RaggedTensor:
    return rt.with_flat_values(math_ops.cast(rt.flat_values, dtype))


def _logical(reducer: str, api: str):
    def handler(input_tensor, axis=None, keepdims: bool = False, name=None):
        counts = _reduce(reducer, _cast_values(input_tensor, dtypes.int32), axis, keepdims, api)
        return _elementwise(lambda v: math_ops.cast(v, dtypes.bool_), counts)
    return handler


def reduce_mean(input_tensor, axis=None, keepdims: bool = False, name=None):
    rt = input_tensor
    total = _reduce("sum", rt, axis, keepdims, "reduce_mean")
    ones = rt.with_flat_values(array_ops.ones_like(rt.flat_values))
    count = _reduce("sum", ones, axis, keepdims, "reduce_mean")
    return _elementwise(math_ops.truediv, total, count)


def reduce_variance(input_tensor, axis=None, keepdims: bool = False, name=None):
    rt = input_tensor
    if rt.dtype.is_complex:
        raise ValueError("reduce_variance is not supported for RaggedTensors with complex "
                         "dtypes.")
    mean_of_square = reduce_mean(rt.with_flat_values(math_ops.square(rt.flat_values)), axis,
                                 keepdims)
    mean = reduce_mean(rt, axis, keepdims)
    return _elementwise(
        lambda ms, m: math_ops.maximum(ms - math_ops.square(m), math_ops.cast(0, ms.dtype)),
        mean_of_square, mean)


def reduce_std(input_tensor, axis=None, keepdims: bool = False, name=None):
    return _elementwise(math_ops.sqrt, reduce_variance(input_tensor, axis, keepdims))


for _api, _reducer in (("reduce_sum", "sum"), ("reduce_prod", "prod"), ("reduce_max", "max"),
                       ("reduce_min", "min")):
    composite.register_dispatch(_api, RaggedTensor, _numeric(_reducer, _api))
composite.register_dispatch("reduce_any", RaggedTensor, _logical("sum", "reduce_any"))
composite.register_dispatch("reduce_all", RaggedTensor, _logical("prod", "reduce_all"))
composite.register_dispatch("reduce_mean", RaggedTensor, reduce_mean)


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None):
    """``tf.strings.reduce_join`` of a RaggedTensor: the strings along ``axis``, in order."""
    return _reduce("join", inputs, axis, keepdims, "reduce_join", separator)


composite.register_dispatch("reduce_join", RaggedTensor, reduce_join)
composite.register_dispatch("reduce_variance", RaggedTensor, reduce_variance)
composite.register_dispatch("reduce_std", RaggedTensor, reduce_std)
