"""Ragged ops: the kernels behind ``tf.RaggedTensor`` that plain array ops cannot express.

A ragged tensor is ``flat_values`` plus one ``row_splits`` vector per ragged
dimension (runtime/ragged/). Selecting rows is StridedSlice arithmetic on the
splits; these ops do the rest:

- ``RaggedRowSplitsFromLengths(row_lengths)``: ``[0, cumsum(row_lengths)]``;
- ``RaggedRowSplitsFromRowIds(value_rowids, nrows)``: splits of sorted row ids (``nrows``
  negative: one past the last id);
- ``RaggedSplitsToRowIds(row_splits)``: the row of each value;
- ``RaggedToDense(flat_values, default_value, *nested_splits)``: padded dense tensor,
  attr ``shape`` (the requested shape, None entries for the bounding size);
- ``RaggedFromDense(tensor[, lengths | padding])``: ``(flat_values, *nested_splits)``,
  attrs ``ragged_rank`` and ``mode`` ("uniform", "lengths", "padding");
- ``RaggedReduce(data, row_splits)``: reduces each row (``axis`` "rows") or each
  column position across rows (``axis`` "columns"), attr ``reducer``
  (sum, prod, max, min); ``RaggedReduceJoin`` joins strings so, attr ``separator``;
- ``RaggedTensorToString(flat_values, *nested_splits)``: the scalar string ``tf.print``
  shows (``[[1, 2], [3]]``), attr ``summarize``;
- ``RaggedRange(starts, limits, deltas)``: ``(row_splits, values)``, one ``range`` per
  row (``tf.ragged.range``; the indices that strided slicing of ragged rows gathers);
- ``RaggedDenseValues(dense, *nested_splits)``: the flat values a ``RaggedToDense`` of
  those splits put in ``dense`` (zero where ``dense`` was cut shorter): its gradient;
- ``RaggedToSparse(flat_values, *nested_splits)``: ``(indices, values, dense_shape)`` of
  the SparseTensor holding the same values (int64 indices in row-major order);
- ``RaggedToVariant(flat_values, *nested_splits)`` (attr ``rows``: one item per row) and
  ``RaggedFromVariants(variant)``: a ragged dataset element as one ``variant`` item, so
  batching stacks items and unbatching splits them like any component (as SparseTensors
  are carried, graph/ops/sparse.py);
- ``RaggedCross(values_0, splits_0, ...)``: ``(values, row_splits)`` of
  ``tf.ragged.cross``/``cross_hashed`` (TensorFlow's FarmHash values, graph/farmhash.py).

Splits are int64 or int32 (the dtype of their input); kernels return arrays of
exactly the inferred dtypes.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from graph.farmhash import fingerprint64, fingerprint_cat64
from graph.ir import TensorType
from graph.ops.array import _check_int_input, _ints
from graph.registry import register_op
from graph.shapes import TensorShape, as_shape


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _dim0(inp):
    return None if inp.shape.rank is None else inp.shape.as_tuple()[0]


def _plus(d, k):
    return None if d is None else d + k


def _check_splits(op: str, splits: np.ndarray, n_values: int | None = None) -> None:
    if splits.ndim != 1 or splits.size == 0 or splits[0] != 0:
        raise _error(f"{op}: row_splits must be a non-empty vector starting with 0, got {splits}")
    if np.any(np.diff(splits) < 0):
        raise _error(f"{op}: row_splits must be sorted in ascending order, got {splits}")
    if n_values is not None and splits[-1] != n_values:
        raise _error(f"{op}: the last row split ({splits[-1]}) must equal the number of values "
                     f"({n_values})")


# -- splits from lengths / row ids ----------------------------------------------------------

def _from_lengths_infer(inputs, attrs):
    if len(inputs) != 1:
        raise _error(f"RaggedRowSplitsFromLengths takes 1 input, got {len(inputs)}")
    (lengths,) = inputs
    _check_int_input("RaggedRowSplitsFromLengths", lengths, "row_lengths", rank=1)
    return [TensorType(lengths.dtype, TensorShape([_plus(_dim0(lengths), 1)]))]


def _from_lengths(row_lengths):
    lengths = np.asarray(row_lengths)
    if np.any(lengths < 0):
        raise _error(f"RaggedRowSplitsFromLengths: row_lengths must be non-negative, got "
                     f"{lengths}")
    out = np.zeros(lengths.shape[0] + 1, dtype=lengths.dtype)
    np.cumsum(lengths, out=out[1:])
    return out


register_op("RaggedRowSplitsFromLengths", _from_lengths_infer, _from_lengths)


def _from_rowids_infer(inputs, attrs):
    if len(inputs) != 2:
        raise _error(f"RaggedRowSplitsFromRowIds takes 2 inputs, got {len(inputs)}")
    rowids, nrows = inputs
    _check_int_input("RaggedRowSplitsFromRowIds", rowids, "value_rowids", rank=1)
    _check_int_input("RaggedRowSplitsFromRowIds", nrows, "nrows", rank=0)
    n = _ints(nrows)
    return [TensorType(rowids.dtype, TensorShape([n[0] + 1 if n and n[0] >= 0 else None]))]


def _from_rowids(value_rowids, nrows):
    ids = np.asarray(value_rowids)
    n = int(nrows)
    if n < 0:
        n = int(ids[-1]) + 1 if ids.size else 0
    if ids.size and (np.any(np.diff(ids) < 0) or ids[0] < 0):
        raise _error(f"RaggedRowSplitsFromRowIds: value_rowids must be sorted and non-negative, "
                     f"got {ids}")
    if ids.size and ids[-1] >= n:
        raise _error(f"RaggedRowSplitsFromRowIds: value_rowids ({ids[-1]}) must be less than "
                     f"nrows ({n})")
    counts = np.bincount(ids.astype(np.int64), minlength=n) if ids.size else np.zeros(n, np.int64)
    out = np.zeros(n + 1, dtype=ids.dtype)
    np.cumsum(counts, out=out[1:])
    return out


register_op("RaggedRowSplitsFromRowIds", _from_rowids_infer, _from_rowids)


def _to_rowids_infer(inputs, attrs):
    if len(inputs) != 1:
        raise _error(f"RaggedSplitsToRowIds takes 1 input, got {len(inputs)}")
    _check_int_input("RaggedSplitsToRowIds", inputs[0], "row_splits", rank=1)
    return [TensorType(inputs[0].dtype, TensorShape([None]))]


def _to_rowids(row_splits):
    splits = np.asarray(row_splits)
    return np.repeat(np.arange(len(splits) - 1, dtype=splits.dtype), np.diff(splits))


register_op("RaggedSplitsToRowIds", _to_rowids_infer, _to_rowids)


# -- to a dense tensor ------------------------------------------------------------------------

def _to_dense_infer(inputs, attrs):
    if len(inputs) < 3:
        raise _error(f"RaggedToDense takes flat_values, default_value and row splits, got "
                     f"{len(inputs)} inputs")
    values, default, splits = inputs[0], inputs[1], inputs[2:]
    if default.dtype != values.dtype:
        raise _error(f"RaggedToDense: default_value must be {values.dtype.name}, got "
                     f"{default.dtype.name}")
    for s in splits:
        _check_int_input("RaggedToDense", s, "row_splits", rank=1)
    inner = None if values.shape.rank is None else list(values.shape.as_tuple()[1:])
    dims = [_plus(_dim0(splits[0]), -1)] + [None] * (len(splits) - 1)
    shape = TensorShape(None if inner is None else dims + [None] + inner)
    requested = as_shape(attrs.get("shape"))
    if requested.rank is not None and shape.rank is not None:
        if requested.rank != shape.rank:
            raise _error(f"RaggedToDense: shape {requested} must have rank {shape.rank}")
        shape = TensorShape([r if r is not None else s for r, s in
                             zip(requested.as_tuple(), shape.as_tuple())])
    return [TensorType(values.dtype, shape)]


def _bounding(values: np.ndarray, splits: list) -> list[int]:
    """The bounding shape: nrows, then the longest row of each ragged dimension."""
    dims = [len(splits[0]) - 1]
    for s in splits:
        lengths = np.diff(s)
        dims.append(int(lengths.max()) if lengths.size else 0)
    return dims + list(values.shape[1:])


def _to_dense(values, default_value, *splits, shape=None):
    values = np.asarray(values)
    splits = [np.asarray(s) for s in splits]
    bounding = _bounding(values, splits)
    requested = as_shape(shape)
    target = list(bounding)
    if requested.rank is not None:
        target = [b if r is None else int(r) for r, b in zip(requested.as_tuple(), bounding)]
    k = len(splits)
    out = np.empty(target, dtype=values.dtype)
    out[...] = np.asarray(default_value, dtype=values.dtype)
    inner_target = tuple(target[k + 1:])
    inner_values = tuple(values.shape[1:])
    inner = tuple(slice(0, min(a, b)) for a, b in zip(inner_target, inner_values))

    def fill(level: int, lo: int, hi: int, index: tuple) -> None:
        # rows lo..hi of ragged level ``level`` go to out[index + (j,)] for j < the target size
        if level == k:
            n = min(hi - lo, target[k])
            if n > 0:
                out[index + (slice(0, n),) + inner] = values[(slice(lo, lo + n),) + inner]
            return
        s = splits[level]
        for j, row in enumerate(range(lo, hi)):
            if j >= target[level]:
                break
            fill(level + 1, int(s[row]), int(s[row + 1]), index + (j,))

    fill(0, 0, len(splits[0]) - 1, ())
    return out


register_op("RaggedToDense", _to_dense_infer, _to_dense, kernel_attrs=("shape",))


# -- from a dense tensor ------------------------------------------------------------------------

def _from_dense_infer(inputs, attrs):
    k = int(attrs["ragged_rank"])
    mode = attrs.get("mode", "uniform")
    tensor = inputs[0]
    if len(inputs) != (1 if mode == "uniform" else 2):
        raise _error(f"RaggedFromDense ({mode}) got {len(inputs)} inputs")
    splits_dtype = attrs.get("splits_dtype", dtypes.int64)
    if tensor.shape.rank is not None and tensor.shape.rank <= k:
        raise _error(f"RaggedFromDense: ragged_rank {k} needs a tensor of rank > {k}, got shape "
                     f"{tensor.shape}")
    if mode == "lengths":
        _check_int_input("RaggedFromDense", inputs[1], "lengths", rank=1)
    if tensor.shape.rank is None:
        values_shape = TensorShape(None)
        splits_types = [TensorType(splits_dtype, TensorShape([None])) for _ in range(k)]
        return [TensorType(tensor.dtype, values_shape)] + splits_types
    dims = list(tensor.shape.as_tuple())
    n = dims[0]  # rows at the level being split: d0, then d0*d1...
    splits_types = []
    for j in range(k):
        splits_types.append(TensorType(splits_dtype, TensorShape([_plus(n, 1)])))
        n = None if n is None or dims[j + 1] is None else n * dims[j + 1]
    total = n if mode == "uniform" else None
    return [TensorType(tensor.dtype, TensorShape([total] + dims[k + 1:]))] + splits_types


def _from_dense(tensor, extra=None, ragged_rank=1, mode="uniform", splits_dtype=dtypes.int64):
    tensor = np.asarray(tensor)
    k = int(ragged_rank)
    sdt = splits_dtype.numpy_dtype
    dims = tensor.shape
    splits = []
    n = dims[0]  # rows at the level being split: d0, then d0*d1...
    for j in range(k):
        step = dims[j + 1]
        splits.append(np.arange(0, n * step + 1, step, dtype=sdt) if step else
                      np.zeros(n + 1, dtype=sdt))
        n *= step
    n = int(np.prod(dims[:k], dtype=np.int64))  # the innermost ragged rows
    rows = tensor.reshape((n, dims[k]) + dims[k + 1:])
    if mode == "uniform":
        return (rows.reshape((n * dims[k],) + dims[k + 1:]), *splits)
    if mode == "lengths":
        lengths = np.asarray(extra).astype(np.int64)
        if lengths.shape != (n,):
            raise _error(f"RaggedFromDense: lengths must have {n} entries, got {lengths.shape}")
        if np.any(lengths < 0) or np.any(lengths > dims[k]):
            raise _error(f"RaggedFromDense: lengths must be in [0, {dims[k]}], got {lengths}")
    else:  # padding: drop each row's suffix made only of padding
        pad = np.asarray(extra, dtype=tensor.dtype)
        is_pad = rows == pad
        if is_pad.ndim > 2:
            is_pad = is_pad.reshape(n, dims[k], -1).all(axis=2)
        keep = ~is_pad
        has = keep.any(axis=1)
        last = dims[k] - 1 - np.argmax(keep[:, ::-1], axis=1)
        lengths = np.where(has, last + 1, 0).astype(np.int64)
    inner = np.zeros(n + 1, dtype=sdt)
    np.cumsum(lengths, out=inner[1:])
    mask = np.arange(dims[k])[None, :] < lengths[:, None]
    values = rows[mask]
    return (values, *splits[:-1], inner)


register_op("RaggedFromDense", _from_dense_infer, _from_dense,
            kernel_attrs=("ragged_rank", "mode", "splits_dtype"))


# -- reductions ------------------------------------------------------------------------------------

_REDUCERS = ("sum", "prod", "max", "min")


def _reduce_infer(inputs, attrs):
    if len(inputs) != 2:
        raise _error(f"RaggedReduce takes 2 inputs, got {len(inputs)}")
    data, splits = inputs
    reducer = attrs["reducer"]
    if reducer not in _REDUCERS:
        raise _error(f"RaggedReduce: unknown reducer {reducer!r}")
    _check_int_input("RaggedReduce", splits, "row_splits", rank=1)
    if data.dtype.is_string or data.dtype.is_bool:
        raise _error(f"RaggedReduce: reduce_{reducer} does not support {data.dtype.name}")
    return [_reduced_type(data, splits, attrs["axis"])]


def _reduced_type(data, splits, axis: str) -> TensorType:
    """One item per row (``axis`` "rows") or per position across rows ("columns")."""
    if data.shape.rank is None:
        return TensorType(data.dtype, TensorShape(None))
    n = _plus(_dim0(splits), -1) if axis == "rows" else None
    return TensorType(data.dtype, TensorShape([n] + list(data.shape.as_tuple()[1:])))


def _identity(reducer: str, dtype: np.dtype):
    """The value of an empty row: TensorFlow's (max/min: the lowest/highest finite value)."""
    if reducer == "sum":
        return 0
    if reducer == "prod":
        return 1
    info = np.finfo(dtype) if np.issubdtype(dtype, np.floating) else np.iinfo(dtype)
    return info.min if reducer == "max" else info.max


_UFUNCS = {"sum": np.add, "prod": np.multiply, "max": np.maximum,
           "min": np.minimum}


def _group_ids(data: np.ndarray, row_splits, op: str) -> tuple:
    """``(row of each item, its position in the row, number of rows, longest row)``."""
    splits = np.asarray(row_splits).astype(np.int64)
    _check_splits(op, splits, data.shape[0])
    lengths = np.diff(splits)
    rowids = np.repeat(np.arange(len(lengths)), lengths)
    return (rowids, np.arange(data.shape[0]) - splits[rowids], len(lengths),
            int(lengths.max()) if lengths.size else 0)


def _reduce(data, row_splits, reducer="sum", axis="rows"):
    data = np.asarray(data)
    rowids, positions, nrows, longest = _group_ids(data, row_splits, "RaggedReduce")
    ids, n = (rowids, nrows) if axis == "rows" else (positions, longest)
    out = np.full((n,) + data.shape[1:], _identity(reducer, data.dtype), dtype=data.dtype)
    _UFUNCS[reducer].at(out, ids, data)
    return out


register_op("RaggedReduce", _reduce_infer, _reduce, kernel_attrs=("reducer", "axis"))


def _reduce_join_infer(inputs, attrs):
    if len(inputs) != 2 or not inputs[0].dtype.is_string:
        raise _error("RaggedReduceJoin takes string data and row_splits")
    _check_int_input("RaggedReduceJoin", inputs[1], "row_splits", rank=1)
    return [_reduced_type(inputs[0], inputs[1], attrs["axis"])]


def _reduce_join(data, row_splits, axis="rows", separator=""):
    """The strings of each row (or each position across rows) joined in order
    (``tf.strings.reduce_join``), elementwise over inner dimensions; none gives b''."""
    data = np.asarray(data, dtype=object)
    rowids, positions, nrows, longest = _group_ids(data, row_splits, "RaggedReduceJoin")
    ids, n = (rowids, nrows) if axis == "rows" else (positions, longest)
    order = np.argsort(ids, kind="stable")
    bounds = np.searchsorted(ids[order], np.arange(n + 1))
    grouped = data[order]
    sep = separator.encode()
    out = np.empty((n,) + data.shape[1:], dtype=object)
    for i in range(n):
        group = grouped[bounds[i]:bounds[i + 1]]
        for idx in np.ndindex(data.shape[1:]):
            out[(i,) + idx] = sep.join(group[(slice(None),) + idx].tolist())
    return out


register_op("RaggedReduceJoin", _reduce_join_infer, _reduce_join,
            kernel_attrs=("axis", "separator"))


# -- to a string (tf.print) ------------------------------------------------------------------------

def _to_string_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error(f"RaggedTensorToString takes flat_values and row splits, got {len(inputs)} "
                     "inputs")
    for s in inputs[1:]:
        _check_int_input("RaggedTensorToString", s, "row_splits", rank=1)
    return [TensorType(dtypes.string, TensorShape([]))]


def _element_text(v, kind: str) -> str:
    if kind == "O":
        text = v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)
        return "'" + text.replace("\\", "\\\\").replace("'", "\\'") + "'"
    if kind == "b":
        return "true" if v else "false"
    if kind == "f":
        return "%f" % v
    return str(int(v))


def _to_string(flat_values, *splits, summarize=3):
    """TensorFlow's ``ragged_tensor_to_string``: ``[[1, 2], [3]]``, each level elided to its
    first and last ``summarize`` items ("...") when longer than twice that."""
    values = np.asarray(flat_values)
    kind = values.dtype.kind if values.dtype.kind in "Obf" else "i"

    def join(items: list) -> str:
        if summarize is not None and summarize >= 0 and len(items) > 2 * summarize:
            items = items[:summarize] + ["..."] + items[len(items) - summarize:]
        return "[" + ", ".join(items) + "]"

    def dense(v) -> str:
        if np.ndim(v) == 0:
            return _element_text(v, kind)
        return join([dense(x) for x in v])

    pieces = [dense(v) for v in values]
    for s in reversed([np.asarray(s) for s in splits]):
        pieces = [join(pieces[int(s[i]):int(s[i + 1])]) for i in range(len(s) - 1)]
    return np.asarray(join(pieces).encode(), dtype=object)


register_op("RaggedTensorToString", _to_string_infer, _to_string, kernel_attrs=("summarize",))


# -- ranges ----------------------------------------------------------------------------------------

def _range_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"RaggedRange takes 3 inputs, got {len(inputs)}")
    dtype = inputs[0].dtype
    if dtype not in (dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64):
        raise _error(f"RaggedRange: starts must be int32, int64, float32 or float64, got "
                     f"{dtype.name}")
    sizes = set()
    for name, inp in zip(("starts", "limits", "deltas"), inputs):
        if inp.dtype != dtype:
            raise _error(f"RaggedRange: {name} must be {dtype.name}, got {inp.dtype.name}")
        if inp.shape.rank not in (None, 0, 1):
            raise _error(f"RaggedRange: {name} must be a scalar or vector, got shape {inp.shape}")
        if inp.shape.rank != 0:
            sizes.add(None if inp.shape.rank is None else inp.shape.as_tuple()[0])
    if len(sizes - {None}) > 1:
        raise _error("starts, limits, and deltas must have the same shape")
    n = 1 if not sizes else None if None in sizes else sizes.pop()
    splits_dtype = attrs.get("Tsplits", dtypes.int64)
    return [TensorType(splits_dtype, TensorShape([_plus(n, 1)])),
            TensorType(dtype, TensorShape([None]))]


def _range(starts, limits, deltas, Tsplits=dtypes.int64):
    starts, limits, deltas = (np.asarray(a) for a in (starts, limits, deltas))
    if any(a.ndim == 1 for a in (starts, limits, deltas)):
        sizes = {a.shape[0] for a in (starts, limits, deltas) if a.ndim == 1}
        if len(sizes) > 1:
            raise _error("starts, limits, and deltas must have the same shape")
        n = sizes.pop()
    else:
        n = 1
    starts, limits, deltas = (np.broadcast_to(a, (n,)) for a in (starts, limits, deltas))
    if np.any(deltas == 0):
        raise _error("Requires delta != 0")
    if np.issubdtype(starts.dtype, np.integer):
        span, step = np.abs(limits - starts), np.abs(deltas)
        sizes = np.where((limits > starts) == (deltas > 0), (span + step - 1) // step, 0)
        sizes = np.where(limits == starts, 0, sizes)
    else:
        sizes = np.maximum(np.ceil((limits - starts) / deltas), 0)
    sizes = sizes.astype(np.int64)
    splits = np.zeros(n + 1, dtype=Tsplits.numpy_dtype)
    np.cumsum(sizes, out=splits[1:])
    rowids = np.repeat(np.arange(n), sizes)
    position = np.arange(int(splits[-1])) - splits[rowids]
    values = (starts[rowids] + position * deltas[rowids]).astype(starts.dtype)
    return splits, values


register_op("RaggedRange", _range_infer, _range, kernel_attrs=("Tsplits",))


# -- the values back from a dense tensor (RaggedToDense's gradient) --------------------------------

def _dense_values_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error(f"RaggedDenseValues takes a dense tensor and row splits, got {len(inputs)} "
                     "inputs")
    dense, splits = inputs[0], inputs[1:]
    for s in splits:
        _check_int_input("RaggedDenseValues", s, "row_splits", rank=1)
    k = len(splits)
    if dense.shape.rank is None:
        return [TensorType(dense.dtype, TensorShape(None))]
    if dense.shape.rank <= k:
        raise _error(f"RaggedDenseValues: a dense tensor of rank > {k} is needed, got shape "
                     f"{dense.shape}")
    return [TensorType(dense.dtype, TensorShape([None] + list(dense.shape.as_tuple()[k + 1:])))]


def _value_index(splits: list) -> list:
    """Per flat value: its index along dimension 0 and each ragged dimension."""
    index = [np.arange(len(splits[0]) - 1)]  # per row of the current level: its dense index
    for s in splits:
        lengths = np.diff(s)
        rowids = np.repeat(np.arange(len(lengths)), lengths)
        position = np.arange(int(s[-1])) - s[rowids]
        index = [i[rowids] for i in index] + [position]
    return index


def _dense_values(dense, *splits):
    dense = np.asarray(dense)
    splits = [np.asarray(s).astype(np.int64) for s in splits]
    k = len(splits)
    index = _value_index(splits)
    inner = dense.shape[k + 1:]
    out = np.zeros((len(index[-1]),) + tuple(inner), dtype=dense.dtype)
    inside = np.ones(len(index[-1]), dtype=bool)
    for axis, i in enumerate(index):
        inside &= i < dense.shape[axis]
    out[inside] = dense[tuple(i[inside] for i in index)]
    return out


register_op("RaggedDenseValues", _dense_values_infer, _dense_values)


# -- to a SparseTensor -----------------------------------------------------------------------------

def _to_sparse_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error(f"RaggedToSparse takes flat_values and row splits, got {len(inputs)} inputs")
    values, splits = inputs[0], inputs[1:]
    for s in splits:
        _check_int_input("RaggedToSparse", s, "row_splits", rank=1)
    rank = None if values.shape.rank is None else values.shape.rank + len(splits)
    n = None
    if values.shape.rank is not None and values.shape.is_fully_defined():
        n = int(np.prod(values.shape.as_tuple()))
    return [TensorType(dtypes.int64, TensorShape([n, rank])),
            TensorType(values.dtype, TensorShape([n])),
            TensorType(dtypes.int64, TensorShape([rank]))]


def _to_sparse(flat_values, *splits):
    values = np.asarray(flat_values)
    splits = [np.asarray(s).astype(np.int64) for s in splits]
    index = _value_index(splits)
    inner = values.shape[1:]
    cells = int(np.prod(inner, dtype=np.int64))
    columns = [np.repeat(i, cells) for i in index]
    columns += [np.tile(c.reshape(-1), len(index[0])) for c in np.indices(inner)]
    indices = np.stack(columns, axis=1).astype(np.int64) if columns else \
        np.zeros((0, len(splits) + values.ndim), np.int64)
    shape = np.asarray(_bounding(values, splits), dtype=np.int64)
    return indices.reshape(-1, len(splits) + values.ndim), values.reshape(-1), shape


register_op("RaggedToSparse", _to_sparse_infer, _to_sparse)


# -- ragged tensors as dataset elements: RaggedToVariant, RaggedFromVariants ---------------------

class RaggedValue:
    """One ragged (or, with no splits, dense) value as a variant item."""
    __slots__ = ("values", "splits")

    def __init__(self, values, splits):
        self.values = np.asarray(values)
        self.splits = [np.asarray(sp) for sp in splits]


def _to_variant_infer(inputs, attrs):
    if not inputs:
        raise _error("RaggedToVariant takes flat_values and row splits")
    for sp in inputs[1:]:
        _check_int_input("RaggedToVariant", sp, "row_splits", rank=1)
    if attrs.get("rows") and len(inputs) > 1:
        return [TensorType(dtypes.variant, TensorShape([_plus(_dim0(inputs[1]), -1)]))]
    if attrs.get("rows"):
        return [TensorType(dtypes.variant, TensorShape([_dim0(inputs[0])]))]
    return [TensorType(dtypes.variant, TensorShape([]))]


def _to_variant(flat_values, *splits, rows=False):
    values, splits = np.asarray(flat_values), [np.asarray(sp) for sp in splits]
    if not rows:
        out = np.empty((), dtype=object)
        out[()] = RaggedValue(values, splits)
        return out
    if not splits:  # a dense tensor's rows
        out = np.empty(len(values), dtype=object)
        for i in range(len(values)):
            out[i] = RaggedValue(values[i], [])
        return out
    out = np.empty(len(splits[0]) - 1, dtype=object)
    for i in range(out.size):
        lo, hi, inner = int(splits[0][i]), int(splits[0][i + 1]), []
        for sp in splits[1:]:  # the row's slice of each deeper partition, rebased at 0
            part = sp[lo:hi + 1]
            inner.append(part - part[0])
            lo, hi = int(part[0]), int(part[-1])
        out[i] = RaggedValue(values[lo:hi], inner)
    return out


def _from_variants_infer(inputs, attrs):
    if len(inputs) != 1 or inputs[0].dtype != dtypes.variant:
        raise _error("RaggedFromVariants takes one variant tensor")
    k, splits_dtype = int(attrs["ragged_rank"]), attrs["splits_dtype"]
    flat = as_shape(attrs["flat_shape"])
    if inputs[0].shape.rank not in (None, 0, 1):
        raise _error(f"RaggedFromVariants: a variant of rank 0 or 1 is needed, got shape "
                     f"{inputs[0].shape}")
    return [TensorType(attrs["dtype"], flat)] + [TensorType(splits_dtype, TensorShape([None]))
                                                  for _ in range(k)]


def _from_variants(variants, dtype, ragged_rank, splits_dtype, flat_shape):
    variants = np.asarray(variants, dtype=object)
    sdt, npdt = splits_dtype.numpy_dtype, dtype.numpy_dtype
    if variants.ndim == 0:
        item = variants[()]
        if len(item.splits) != ragged_rank:
            raise _error(f"RaggedFromVariants: an item of ragged_rank {len(item.splits)}, "
                         f"expected {ragged_rank}")
        return _outputs(item.values.astype(npdt, copy=False),
                        [sp.astype(sdt, copy=False) for sp in item.splits])
    items = list(variants)
    if any(len(it.splits) != ragged_rank - 1 for it in items):
        raise _error(f"RaggedFromVariants: items of ragged_rank {ragged_rank - 1} are needed")
    # the batch's rows: each item's rows; deeper partitions concatenated with offsets
    nrows = [len(it.splits[0]) - 1 if it.splits else len(it.values) for it in items]
    outer = np.zeros(len(items) + 1, dtype=sdt)
    np.cumsum(nrows, out=outer[1:])
    nested = [outer]
    for level in range(ragged_rank - 1):
        parts, offset = [np.zeros(1, dtype=sdt)], 0
        for it in items:
            sp = it.splits[level]
            parts.append(sp[1:] + offset)
            offset += int(sp[-1])
        nested.append(np.concatenate(parts).astype(sdt))
    inner = tuple(d for d in as_shape(flat_shape).as_tuple()[1:]) if \
        as_shape(flat_shape).rank is not None else ()
    values = np.concatenate([it.values for it in items]) if items else \
        np.zeros((0,) + tuple(0 if d is None else d for d in inner), dtype=npdt)
    return _outputs(values.astype(npdt, copy=False), nested)


def _outputs(values, splits: list):
    """A kernel's result: the values alone when there are no splits (one output)."""
    return (values, *splits) if splits else values


register_op("RaggedToVariant", _to_variant_infer, _to_variant, kernel_attrs=("rows",))
register_op("RaggedFromVariants", _from_variants_infer, _from_variants,
            kernel_attrs=("dtype", "ragged_rank", "splits_dtype", "flat_shape"))


# -- feature crosses ------------------------------------------------------------------------------
# ``RaggedCross(values_0, splits_0, values_1, splits_1, ...)``: for each row, every
# combination of one value per input (the first input varying slowest), as TensorFlow's
# RaggedCross kernel makes them; attrs ``hashed_output`` (strings joined with ``separator``, or
# FarmHash fingerprints chained by FingerprintCat64 from ``hash_key``), ``num_buckets``.

def _cross_infer(inputs, attrs):
    if len(inputs) % 2:
        raise _error(f"RaggedCross takes (values, row_splits) pairs, got {len(inputs)} inputs")
    if attrs.get("num_buckets", 0) < 0:
        raise _error(f"Value for attr 'num_buckets' of {attrs['num_buckets']} must be at least "
                     "minimum 0")
    nrows = set()
    for values, splits in zip(inputs[0::2], inputs[1::2]):
        if values.dtype not in (dtypes.int64, dtypes.string):
            raise _error(f"RaggedCross: values must be int64 or string, got {values.dtype.name}")
        if values.shape.rank not in (None, 1):
            raise _error("tf.ragged.cross only supports inputs with rank=2.")
        _check_int_input("RaggedCross", splits, "row_splits", rank=1)
        nrows.add(_dim0(splits))
    if len(nrows - {None}) > 1:
        raise _error("inputs must all have the same batch dimension size.")
    splits_dtype = inputs[1].dtype if inputs else dtypes.int64
    n = next(iter(nrows - {None}), None) if inputs else 1
    out = dtypes.int64 if attrs.get("hashed_output") else dtypes.string
    return [TensorType(out, TensorShape([None])), TensorType(splits_dtype, TensorShape([n]))]


def _feature_hashes(values: np.ndarray) -> np.ndarray:
    """What RaggedCross chains for each value: an int64's bits, a string's Fingerprint64."""
    if values.dtype != object:
        return values.astype(np.int64).view(np.uint64)
    items = values.tolist()
    prints = {v: fingerprint64(v) for v in set(items)}
    return np.array([prints[v] for v in items], dtype=np.uint64)


def _cross(*pairs, hashed_output=False, num_buckets=0, hash_key=0, separator="_X_"):
    values, splits = [np.asarray(v) for v in pairs[0::2]], list(pairs[1::2])
    splits_dtype = splits[0].dtype if splits else np.int64
    for v, s in zip(values, splits):
        _check_splits("RaggedCross", s, v.shape[0])
    if len({s.size for s in splits}) > 1:
        raise _error("inputs must all have the same batch dimension size.")
    lengths = [np.diff(s) for s in splits]
    counts = np.prod(lengths, axis=0) if lengths else np.zeros(0, np.int64)
    out_splits = np.concatenate([[0], np.cumsum(counts)]).astype(splits_dtype)
    rowids = np.repeat(np.arange(counts.size), counts)
    position = np.arange(rowids.size) - out_splits[rowids]
    stride = np.ones_like(position)
    index = [None] * len(values)
    for j in reversed(range(len(values))):
        length = lengths[j][rowids]
        index[j] = splits[j][rowids] + (position // stride) % np.maximum(length, 1)
        stride = stride * length
    if hashed_output:
        out = np.full(rowids.size, hash_key % (1 << 64), dtype=np.uint64)
        for v, i in zip(values, index):
            out = fingerprint_cat64(out, _feature_hashes(v)[i])
        out %= np.uint64(num_buckets if num_buckets > 0 else np.iinfo(np.int64).max)
        return out.astype(np.int64), out_splits
    texts = [[x if isinstance(x, bytes) else str(x).encode() for x in v[i].tolist()]
             for v, i in zip(values, index)]
    out = np.empty(rowids.size, dtype=object)
    out[:] = [separator.encode().join(parts) for parts in zip(*texts)]
    return out, out_splits


register_op("RaggedCross", _cross_infer, _cross,
            kernel_attrs=("hashed_output", "num_buckets", "hash_key", "separator"))
