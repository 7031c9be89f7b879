"""``tf.concat``, ``tf.stack``, ``tf.gather``, ``tf.zeros_like``... on RaggedTensors.

Joining along axis 0 appends the rows (the splits of the later inputs shifted
by the values before them); along the ragged axis 1 each output row is the
same row of every input, in order: one ``RaggedRange`` lists, for each
(row, input), the positions of its values in the concatenated values, and a
gather puts them in that order (so gradients reach every input through the
gather). Deeper axes join the values of inputs with the same row partition.
``stack`` is ``concat`` of the inputs with a new dimension of size 1.
The handlers reach ``tf.concat``... through the composite dispatch
(runtime/composite.py).
"""
from __future__ import annotations

from graph import dtypes
from graph.errors import InvalidArgumentError
from runtime import composite
from runtime.ops import array_ops
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.ragged.ragged_ops import _check_same_partition
from runtime.ragged.ragged_tensor import (RaggedTensor, _gather_rows, _getitem, _static_value,
                                          _where)
from runtime.tensor import Tensor


def _as_ragged(values: list, ragged_rank: int) -> list:
    """The inputs as RaggedTensors of one ragged rank and splits dtype (dense ones converted)."""
    out = []
    for v in values:
        if not isinstance(v, RaggedTensor):
            v = convert_to_tensor(v)
            if v.shape.rank is not None and v.shape.rank <= ragged_rank:
                raise ValueError(f"Cannot join a tensor of shape {v.shape} with RaggedTensors of "
                                 f"ragged_rank {ragged_rank}{_where()}")
            v = RaggedTensor.from_tensor(v, ragged_rank=ragged_rank)
        elif v.ragged_rank != ragged_rank:
            raise ValueError(f"Cannot join RaggedTensors of ragged_rank {ragged_rank} and "
                             f"{v.ragged_rank}{_where()}")
        out.append(v)
    if any(v.row_splits_dtype != out[0].row_splits_dtype for v in out):
        raise ValueError("Input RaggedTensors have mismatched row_splits dtypes; use "
                         "RaggedTensor.with_row_splits_dtype() to convert them to compatible "
                         "dtypes.")
    return out


def _axis(axis, rank) -> int:
    if isinstance(axis, Tensor):
        value = _static_value(axis)
        if value is None:
            raise ValueError(f"The axis of a ragged concat or stack must be static{_where()}")
        axis = int(value)
    axis = int(axis)
    if axis < 0:
        if rank is None:
            raise ValueError(f"A negative axis needs RaggedTensors of known rank{_where()}")
        axis += rank
    if rank is not None and not 0 <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return axis


def concat(values, axis, name="concat"):
    """``tf.concat`` of RaggedTensors (and tensors) along ``axis``."""
    values = list(values)
    rank = next((v.shape.rank for v in values if isinstance(v, RaggedTensor)), None)
    k = max(v.ragged_rank for v in values if isinstance(v, RaggedTensor))
    rts = _as_ragged(values, k)
    return _concat(rts, _axis(axis, rank))


def _concat(rts: list, axis: int):
    if len(rts) == 1:
        return rts[0]
    if axis == 0:
        offsets, splits, values = None, [], []
        for rt in rts:
            s = rt.row_splits
            splits.append(s if offsets is None else s[1:] + offsets)
            offsets = s[-1] if offsets is None else s[-1] + offsets
            values.append(rt.values)
        joined = _concat(values, 0) if isinstance(values[0], RaggedTensor) else \
            array_ops.concat(values, 0)
        return RaggedTensor(joined, array_ops.concat(splits, 0), internal=True)
    if axis == 1:
        return _concat_rows(rts)
    for other in rts[1:]:
        _check_same_partition(rts[0], other)
    inner = [rt.values for rt in rts]
    joined = _concat(inner, axis - 1) if isinstance(inner[0], RaggedTensor) else \
        array_ops.concat(inner, axis - 1)
    return rts[0].with_values(joined)


def _concat_rows(rts: list) -> RaggedTensor:
    """Row ``i`` of the result: row ``i`` of each input, one after the other."""
    dtype = rts[0].row_splits_dtype
    n = rts[0]._static_nrows()
    for i, rt in enumerate(rts[1:], 1):
        if None not in (n, rt._static_nrows()) and rt._static_nrows() != n:
            raise InvalidArgumentError(message=f"Input tensors at index 0 (=x) and {i} (=y) "
                                               f"have incompatible shapes{_where()}: {n} and "
                                               f"{rt._static_nrows()} rows.")
    values = [rt.values for rt in rts]
    joined = _concat(values, 0) if isinstance(values[0], RaggedTensor) else \
        array_ops.concat(values, 0)
    starts, limits, offset = [], [], constant(0, dtype=dtype)
    for rt in rts:
        starts.append(rt.row_starts() + offset)
        limits.append(rt.row_limits() + offset)
        offset = offset + rt.row_splits[-1]
    # (row, input) order: the inputs' starts side by side, read row by row
    starts = array_ops.reshape(array_ops.stack(starts, axis=1), [-1])
    limits = array_ops.reshape(array_ops.stack(limits, axis=1), [-1])
    _, index = apply_op("RaggedRange", [starts, limits, constant(1, dtype=dtype)],
                        {"Tsplits": dtype}, name="RaggedRange")
    lengths = rts[0].row_lengths()
    for rt in rts[1:]:
        lengths = lengths + rt.row_lengths()
    splits = apply_op("RaggedRowSplitsFromLengths", [lengths], name="RowPartitionFromLengths")
    return RaggedTensor(_gather_rows(joined, index), splits, internal=True)


def _expand_dims(x, axis: int):
    if isinstance(x, RaggedTensor):
        return _getitem(x, [slice(None)] * axis + [None])
    return array_ops.expand_dims(x, axis)


def stack(values, axis=0, name="stack"):
    """``tf.stack`` of RaggedTensors (and tensors): ``concat`` with a new axis of size 1."""
    values = list(values)
    rank = next((v.shape.rank for v in values if isinstance(v, RaggedTensor)), None)
    axis = _axis(axis, None if rank is None else rank + 1)
    if axis == 0:
        rows = [_one_row(v) for v in values]
    else:
        rows = [_expand_dims(v, axis) for v in values]
    k = max(v.ragged_rank for v in rows if isinstance(v, RaggedTensor))
    return _concat(_as_ragged(rows, k), axis)


def _one_row(x) -> RaggedTensor:
    """``x`` as a RaggedTensor of one row (a dense tensor's dimension 0 becomes ragged)."""
    if not isinstance(x, RaggedTensor):
        x = convert_to_tensor(x)
        n = array_ops.shape(x, out_type=dtypes.int64)[0]
        return RaggedTensor(x, array_ops.stack([constant(0, dtype=n.dtype), n]), internal=True)
    dtype = x.row_splits_dtype
    return RaggedTensor(x, array_ops.stack([constant(0, dtype=dtype), x.nrows()]),
                        internal=True)


def ragged_stack(values, axis=0, name=None):
    """``tf.ragged.stack``: ``tf.stack`` whose result is ragged even for dense inputs (of
    different lengths along axis 0, they become ragged rows)."""
    values = [v if isinstance(v, RaggedTensor) else convert_to_tensor(v) for v in values]
    if axis != 0 and not any(isinstance(v, RaggedTensor) for v in values):
        values = [RaggedTensor.from_tensor(v) for v in values]
    return stack(values, axis)


def _gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    if isinstance(indices, RaggedTensor):  # one gathered row per index, in the same rows
        return indices.with_flat_values(_gather(params, indices.flat_values, axis=axis,
                                                batch_dims=batch_dims))
    if not isinstance(params, RaggedTensor):
        return array_ops.gather(params, indices, axis=axis, batch_dims=batch_dims)
    if (axis not in (None, 0)) or batch_dims:
        raise NotImplementedError(f"tf.gather of a RaggedTensor supports axis=0 and "
                                  f"batch_dims=0 only{_where()}")
    indices = convert_to_tensor(indices)
    if indices.shape.rank == 0:
        return params._row(indices)
    if indices.shape.rank != 1:
        raise NotImplementedError(f"tf.gather of a RaggedTensor with indices of rank "
                                  f"{indices.shape.rank} is not supported{_where()}")
    return _gather_rows(params, indices)


def _zeros_like(input, dtype=None, name=None):  # noqa: A002  (TensorFlow's parameter name)
    return input.with_flat_values(array_ops.zeros_like(input.flat_values, dtype=dtype))


def _ones_like(input, dtype=None, name=None):  # noqa: A002
    return input.with_flat_values(array_ops.ones_like(input.flat_values, dtype=dtype))


def _size(input, out_type=None, name=None):  # noqa: A002
    kwargs = {} if out_type is None else {"out_type": out_type}
    return array_ops.size(input.flat_values, **kwargs)


composite.register_dispatch("concat", RaggedTensor, concat)
composite.register_dispatch("stack", RaggedTensor, stack)
composite.register_dispatch("gather", RaggedTensor, _gather)
composite.register_dispatch("zeros_like", RaggedTensor, _zeros_like)
composite.register_dispatch("ones_like", RaggedTensor, _ones_like)
composite.register_dispatch("size", RaggedTensor, _size)
