"""``rt.merge_dims``, ``tf.ragged.boolean_mask``, ``tf.ragged.cross``/``cross_hashed`` and
the segment-id conversions ``tf.ragged.segment_ids_to_row_splits`` /
``row_splits_to_segment_ids``.

All but the crosses are compositions of the ragged ops (splits from lengths or row ids,
``RaggedReduce``) and gathers, so they run eagerly and staged alike and differentiate through
the gathers; the crosses (strings or hashes, never differentiable) are TensorFlow's one
``RaggedCross`` kernel.
"""
from __future__ import annotations

from graph import dtypes
from graph.errors import InvalidArgumentError
from runtime.ops import array_ops, math_ops, string_ops
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.ragged.ragged_ops import _check_same_partition
from runtime.ragged.ragged_tensor import RaggedTensor, _convert_partition, _gather_rows, _where
from runtime.sparse.sparse_tensor import SparseTensor
from runtime.tensor import Tensor


# -- segment ids <-> row splits -------------------------------------------------------------------

def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """The row splits of rows ``0..num_segments-1`` holding the (sorted) ``segment_ids``."""
    if out_type is None:
        out_type = segment_ids.dtype if isinstance(segment_ids, Tensor) else dtypes.int64
    ids = _convert_partition(segment_ids, "segment_ids", dtype=out_type)
    n = convert_to_tensor(-1 if num_segments is None else num_segments, dtype=ids.dtype)
    return apply_op("RaggedRowSplitsFromRowIds", [ids, n], name=name or "SegmentIdsToRowSplits")


def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row of every value of a partition given by ``splits``."""
    if out_type is None:
        out_type = splits.dtype if isinstance(splits, Tensor) else dtypes.int64
    splits = _convert_partition(splits, "splits", dtype=out_type)
    return apply_op("RaggedSplitsToRowIds", [splits], name=name or "RowSplitsToSegmentIds")


# -- merge_dims -----------------------------------------------------------------------------------

def _merge_dense(t: Tensor, outer: int, inner: int) -> Tensor:
    """Dimensions ``outer..inner`` of a dense tensor as one."""
    if outer == inner:
        return t
    dims = t.shape.as_list() if t.shape.rank is not None else None
    if dims is not None and None not in dims[outer:inner + 1] + dims[:outer] + dims[inner + 1:]:
        return array_ops.reshape(t, dims[:outer] + [-1] + dims[inner + 1:])
    shape = array_ops.shape(t)
    return array_ops.reshape(t, array_ops.concat(
        [shape[:outer], constant([-1]), shape[inner + 1:]], 0))


def merge_dims(rt, outer_axis: int, inner_axis: int):
    """``rt.merge_dims(outer, inner)``: dimensions ``outer..inner`` as one (merging the rows
    axis gives the values themselves: a dense tensor when no ragged dimension is left)."""
    rank = rt.shape.rank
    if rank is None:
        raise ValueError("merge_dims requires a RaggedTensor of known rank")
    outer = outer_axis + rank if outer_axis < 0 else outer_axis
    inner = inner_axis + rank if inner_axis < 0 else inner_axis
    if not 0 <= outer < rank or not 0 <= inner < rank:
        raise ValueError(f"axis out of bounds: outer_axis={outer_axis}, inner_axis={inner_axis}"
                         f" for a RaggedTensor of rank {rank}")
    if outer > inner:
        raise ValueError("Expected outer_axis (%d) to be less than or equal to inner_axis (%d)"
                         % (outer_axis, inner_axis))
    if outer == inner:
        return rt
    return _merge_top(rt, inner) if outer == 0 else _merge_within(rt, outer, inner)


def _merge_top(x, inner: int):
    """Dimensions ``0..inner`` of ``x`` as one: the items ``inner`` levels down, in order."""
    if inner == 0:
        return x
    if not isinstance(x, RaggedTensor):
        return _merge_dense(x, 0, inner)
    return _merge_top(x.values, inner - 1)


def _merge_within(x, outer: int, inner: int):
    """Dimensions ``outer..inner`` (``outer`` >= 1) of ``x`` as one, inside every row."""
    if not isinstance(x, RaggedTensor):
        return _merge_dense(x, outer, inner)
    if outer > 1:
        return x.with_values(_merge_within(x.values, outer - 1, inner - 1))
    return RaggedTensor._make(_merge_top(x.values, inner - 1), _merge_splits(x, inner - 1))


def _merge_splits(rt: RaggedTensor, depth: int):
    """The row splits of ``rt`` counted in items ``depth`` levels below its values."""
    splits, cur = rt.row_splits, rt.values
    for _ in range(depth):
        if isinstance(cur, RaggedTensor):
            splits = array_ops.gather(cur.row_splits, splits)
            cur = cur.values
        else:
            splits = splits * array_ops.shape(cur, out_type=splits.dtype)[1]
            cur = _merge_dense(cur, 0, 1)
    return splits


RaggedTensor.merge_dims = merge_dims


# -- boolean_mask ---------------------------------------------------------------------------------

def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """``tf.ragged.stack_dynamic_partitions``: row ``p`` holds the items of ``data`` whose
    partition is ``p``, in their order (a stable sort by partition, as TensorFlow writes it);
    ``partitions`` covers the outer dimensions of ``data``."""
    from runtime.ops.logging_ops import assert_less, assert_non_negative
    from runtime.ops.special_ops import bincount
    partitions = convert_to_tensor(partitions, dtype_hint=dtypes.int32)
    if not isinstance(data, RaggedTensor):
        data = convert_to_tensor(data)
    rank = partitions.shape.rank
    if rank is None:
        raise ValueError("partitions must have known rank.")
    if rank != 1:
        if rank > 1 and isinstance(data, RaggedTensor):
            data = merge_dims(data, 0, rank - 1)
        elif rank > 1:
            data = array_ops.reshape(data, array_ops.concat(
                [[-1], array_ops.shape(data)[rank:]], 0))
        partitions = array_ops.reshape(partitions, [-1])
    n = convert_to_tensor(num_partitions, dtype=partitions.dtype)
    assert_non_negative(partitions, message="partitions must be non-negative")
    assert_less(partitions, n, message="partitions must be less than num_partitions")
    order = array_ops.argsort(partitions, stable=True)
    counts = bincount(math_ops.cast(partitions, dtypes.int32), minlength=num_partitions,
                      maxlength=num_partitions, dtype=dtypes.int64)
    rows = _gather_rows(data, order) if isinstance(data, RaggedTensor) else \
        array_ops.gather(data, order)
    return RaggedTensor.from_row_lengths(rows, counts, validate=False)


def boolean_mask(data, mask, name=None):
    """``tf.ragged.boolean_mask``: the items of ``data`` where ``mask`` is true, along the
    mask's innermost dimension; the outer dimensions keep their rows (which get shorter)."""
    if not isinstance(mask, RaggedTensor):
        mask = convert_to_tensor(mask, dtype=dtypes.bool_)
        if mask.shape.rank is None:
            raise ValueError("mask.shape.ndims must be known statically.")
        if mask.shape.rank == 1:  # whole rows
            if isinstance(data, RaggedTensor):
                keep = array_ops.reshape(math_ops.where(mask), [-1])
                return _gather_rows(data, math_ops.cast(keep, data.row_splits_dtype))
            return array_ops.boolean_mask(data, mask)
        mask = RaggedTensor.from_tensor(mask, ragged_rank=mask.shape.rank - 1)
    if mask.dtype != dtypes.bool_:
        raise TypeError(f"mask must have dtype bool, got {mask.dtype.name}")
    k = mask.ragged_rank
    if not isinstance(data, RaggedTensor):
        data = RaggedTensor.from_tensor(convert_to_tensor(data), ragged_rank=k,
                                        row_splits_dtype=mask.row_splits_dtype)
    if data.ragged_rank < k or (mask.flat_values.shape.rank or 1) != 1:
        raise ValueError(f"boolean_mask: a mask of shape {mask.shape} does not fit data of "
                         f"shape {data.shape}{_where()}")
    mask_splits = mask.nested_row_splits
    data_splits = data.nested_row_splits[:k]
    _check_same_partition(  # (only the splits are compared)
        RaggedTensor._from_nested(mask.flat_values, mask_splits),
        RaggedTensor._from_nested(mask.flat_values, data_splits))
    items = data
    for _ in range(k):
        items = items.values
    flags = mask.flat_values
    keep = math_ops.cast(array_ops.reshape(math_ops.where(flags), [-1]),
                         data.row_splits_dtype)
    # a tensor as TensorFlow masks it (tf.boolean_mask: its gradient is a dense tensor)
    kept = _gather_rows(items, keep) if isinstance(items, RaggedTensor) else \
        array_ops.boolean_mask(items, flags)
    lengths = apply_op("RaggedReduce", [math_ops.cast(flags, data.row_splits_dtype),
                                        mask_splits[-1]],
                       {"reducer": "sum", "axis": "rows"}, name="RaggedMaskLengths")
    inner = apply_op("RaggedRowSplitsFromLengths", [lengths], name="RowPartitionFromLengths")
    return RaggedTensor._from_nested(kept, list(data_splits[:-1]) + [inner])


# -- cross ----------------------------------------------------------------------------------------

_DEFAULT_CROSS_HASH_KEY = 0xDECAFCAFFE  # TensorFlow's default ``hash_key``


def cross(inputs, name=None):
    """``tf.ragged.cross``: for every row, each combination of one item per input (the first
    input varying slowest), joined with ``"_X_"``; integers are written as decimal strings."""
    return _cross(inputs, False, 0, None, name)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """``tf.ragged.cross_hashed``: ``cross``'s combinations as TensorFlow's fingerprints
    (FarmHash of strings, chained by FingerprintCat64 from ``hash_key``), modulo
    ``num_buckets`` when it is not 0."""
    return _cross(inputs, True, num_buckets, hash_key, name)


def _cross(inputs, hashed_output: bool, num_buckets, hash_key, name, separator: str = "_X_"):
    """Ragged, sparse and dense 2-D inputs as (values, row_splits) pairs of one RaggedCross
    (also ``tf.sparse.cross``'s, runtime/sparse/sparse_math.py)."""
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    rts = []
    for i, t in enumerate(inputs):
        if isinstance(t, SparseTensor):
            t = RaggedTensor._rows_of_sparse(t, dtypes.int64)
        elif not isinstance(t, RaggedTensor):
            t = convert_to_tensor(t)
        if t.dtype.is_integer and isinstance(t, RaggedTensor):
            t = t.with_flat_values(math_ops.cast(t.flat_values, dtypes.int64))
        elif t.dtype.is_integer:
            t = math_ops.cast(t, dtypes.int64)
        elif t.dtype != dtypes.string:
            raise ValueError(f"Unexpected dtype for inputs[{i}]: {t.dtype}")
        if isinstance(t, RaggedTensor) and t.ragged_rank != 1:
            raise ValueError("tf.ragged.cross only supports inputs with rank=2")
        if not isinstance(t, RaggedTensor):
            if t.shape.rank != 2:
                raise InvalidArgumentError(
                    message="tf.ragged.cross only supports inputs with rank=2.")
            t = RaggedTensor.from_tensor(t)
        rts.append(t)
    ragged = [t for t in inputs if isinstance(t, RaggedTensor)]
    splits_dtype = dtypes.int32 if ragged and all(
        t.row_splits.dtype == dtypes.int32 for t in ragged) else dtypes.int64
    key = _DEFAULT_CROSS_HASH_KEY if hash_key is None else int(hash_key)
    flat = [x for t in rts for x in (t.values, t.with_row_splits_dtype(splits_dtype).row_splits)]
    values, splits = apply_op("RaggedCross", flat,
                              {"hashed_output": hashed_output, "num_buckets": int(num_buckets),
                               "hash_key": key % (1 << 64), "separator": separator},
                              name=name or "RaggedCross")
    return RaggedTensor._make(values, splits)
