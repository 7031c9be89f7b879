"""``tf.experimental.RowPartition``: how one ragged dimension splits values into rows.

A partition is its ``row_splits`` vector, plus what it was built from when that says
more than the splits do: a uniform row length (a ragged dimension of known size), the
number of values, the row ids. ``tf.shape(rt).row_partitions`` holds one per ragged
dimension, in the shape's dtype. It is a composite tensor (its component is the row
splits; its spec keeps the static row count, value count and uniform length), so it
crosses function boundaries like a RaggedTensor.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from graph.shapes import TensorShape
from runtime.composite import CompositeTensor
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.ragged.ragged_tensor import (_SPLITS_DTYPES, _convert_partition, _static_value,
                                          _validate_splits)
from runtime.tensor import EagerTensor
from runtime.tensor_spec import TensorSpec, TypeSpec


def _static_int(t):
    v = None if t is None else _static_value(t)
    return None if v is None else int(v)


def _partition_input(t, what: str, dtype, dtype_hint):
    """A partition tensor; Python values take ``dtype_hint`` (int64 by default), as in TF."""
    if dtype is None and dtype_hint is not None and not hasattr(t, "dtype"):
        t = convert_to_tensor(t, dtype_hint=dtype_hint)
    return _convert_partition(t, what, dtype)


class RowPartition(CompositeTensor):
    """``tf.experimental.RowPartition``: build it with the ``from_*`` factories."""

    __slots__ = ("_row_splits", "_uniform_row_length", "_nvals", "_value_rowids")

    def __init__(self, row_splits, uniform_row_length=None, nvals=None, value_rowids=None,
                 internal: bool = False):
        if not internal:
            raise ValueError("RowPartition constructor is private; please use one of the "
                             "factory methods instead (e.g., RowPartition.from_row_lengths())")
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length
        self._nvals = nvals
        self._value_rowids = value_rowids

    # -- factories ----------------------------------------------------------------------------
    @classmethod
    def from_row_splits(cls, row_splits, validate=True, dtype=None, dtype_hint=None):
        splits = _partition_input(row_splits, "row_splits", dtype, dtype_hint)
        if validate:
            _validate_splits(splits, None)
        return cls(splits, internal=True)

    @classmethod
    def from_row_lengths(cls, row_lengths, validate=True, dtype=None, dtype_hint=None):
        lengths = _partition_input(row_lengths, "row_lengths", dtype, dtype_hint)
        return cls(apply_op("RaggedRowSplitsFromLengths", [lengths],
                            name="RowPartitionFromLengths"), internal=True)

    @classmethod
    def from_value_rowids(cls, value_rowids, nrows=None, validate=True, dtype=None,
                          dtype_hint=None):
        rowids = _partition_input(value_rowids, "value_rowids", dtype, dtype_hint)
        n = convert_to_tensor(-1 if nrows is None else nrows, dtype=rowids.dtype)
        splits = apply_op("RaggedRowSplitsFromRowIds", [rowids, n],
                          name="RowPartitionFromRowIds")
        return cls(splits, value_rowids=rowids, internal=True)

    @classmethod
    def from_row_starts(cls, row_starts, nvals, validate=True, dtype=None, dtype_hint=None):
        starts = _partition_input(row_starts, "row_starts", dtype, dtype_hint)
        n = convert_to_tensor(nvals, dtype=starts.dtype)
        out = cls.from_row_splits(array_ops.concat([starts, n[None]], 0), validate)
        return cls(out._row_splits, nvals=n, internal=True)

    @classmethod
    def from_row_limits(cls, row_limits, validate=True, dtype=None, dtype_hint=None):
        limits = _partition_input(row_limits, "row_limits", dtype, dtype_hint)
        zero = constant([0], dtype=limits.dtype)
        return cls.from_row_splits(array_ops.concat([zero, limits], 0), validate)

    @classmethod
    def from_uniform_row_length(cls, uniform_row_length, nvals=None, nrows=None, validate=True,
                                dtype=None, dtype_hint=None):
        if nvals is None and nrows is None:
            raise ValueError("Either nvals or nrows must be specified")
        length = convert_to_tensor(uniform_row_length,
                                   dtype=dtype, dtype_hint=dtype_hint or dtypes.int64)
        if length.dtype not in _SPLITS_DTYPES:
            raise ValueError("dtype must be int32 or int64")
        if length.shape.rank not in (None, 0):
            raise ValueError(f"uniform_row_length must be a scalar, got shape {length.shape}")
        dt = length.dtype
        zero = constant(0, dtype=dt)
        if nrows is None:
            n = math_ops.floordiv(convert_to_tensor(nvals, dtype=dt),
                                  math_ops.maximum(length, constant(1, dtype=dt)))
            n = math_ops.where(math_ops.equal(length, zero), zero, n)
        else:
            n = convert_to_tensor(nrows, dtype=dt)
        nv = length * n if nvals is None else convert_to_tensor(nvals, dtype=dt)
        lv, rv, vv = _static_int(length), _static_int(n), _static_int(nv)
        if validate and None not in (lv, rv, vv) and lv * rv != vv:
            raise ValueError(f"uniform_row_length={lv} times nrows={rv} must equal nvals={vv}")
        splits = array_ops.range(zero, n + constant(1, dtype=dt)) * length
        return cls(splits, uniform_row_length=length, nvals=nv, internal=True)

    # -- reading ------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._row_splits.dtype

    def row_splits(self):
        return self._row_splits

    def row_starts(self):
        return self._row_splits[:-1]

    def row_limits(self):
        return self._row_splits[1:]

    def row_lengths(self):
        if self._uniform_row_length is not None:
            return array_ops.fill([self.nrows()], self._uniform_row_length)
        return self._row_splits[1:] - self._row_splits[:-1]

    def value_rowids(self):
        if self._value_rowids is not None:
            return self._value_rowids
        return apply_op("RaggedSplitsToRowIds", [self._row_splits], name="RaggedValueRowIds")

    def nrows(self):
        n = self.static_nrows
        if n is not None:
            return constant(n, dtype=self.dtype)
        return array_ops.shape(self._row_splits, out_type=self.dtype)[0] - \
            constant(1, dtype=self.dtype)

    def nvals(self):
        if self._nvals is not None:
            return self._nvals
        return self._row_splits[-1]

    def uniform_row_length(self):
        """The length of every row when the partition was built uniform, else None."""
        return self._uniform_row_length

    def is_uniform(self) -> bool:
        return self._uniform_row_length is not None

    def offsets_in_rows(self):
        """The position of each value within its row."""
        rowids = self.value_rowids()
        return array_ops.range(constant(0, dtype=self.dtype), self.nvals()) - \
            array_ops.gather(self._row_splits, rowids)

    @property
    def static_nrows(self):
        dims = self._row_splits.shape.as_tuple()
        return None if dims is None or dims[0] is None else dims[0] - 1

    @property
    def static_nvals(self):
        n = _static_int(self._nvals)
        if n is None and self._value_rowids is not None:
            dims = self._value_rowids.shape.as_tuple()
            n = None if dims is None else dims[0]
        return n

    @property
    def static_uniform_row_length(self):
        return _static_int(self._uniform_row_length)

    def with_dtype(self, dtype) -> "RowPartition":
        dtype = as_dtype(dtype)
        if dtype not in _SPLITS_DTYPES:
            raise ValueError(f"dtype must be int32 or int64, got {dtype.name}")
        if dtype == self.dtype:
            return self
        cast = [None if t is None else math_ops.cast(t, dtype) for t in
                (self._row_splits, self._uniform_row_length, self._nvals, self._value_rowids)]
        return RowPartition(*cast, internal=True)

    # -- the composite protocol ---------------------------------------------------------------
    @property
    def _type_spec(self) -> "RowPartitionSpec":
        return RowPartitionSpec(self.static_nrows, self.static_nvals,
                                self.static_uniform_row_length, self.dtype)

    def _components(self) -> list:
        return [self._row_splits]

    def __repr__(self) -> str:
        if self._uniform_row_length is not None and self.static_nrows is not None and \
                self.static_uniform_row_length is not None:
            return (f"tf.RowPartition(nrows={self.static_nrows}, "
                    f"uniform_row_length={self.static_uniform_row_length})")
        splits = self._row_splits
        text = str(splits.numpy()) if isinstance(splits, EagerTensor) else str(splits)
        return f"tf.RowPartition(row_splits={text})"


class RowPartitionSpec(TypeSpec):
    """The type of a RowPartition: static row count, value count, uniform length, dtype.

    The three sizes are kept as one-dimension TensorShapes, so None (unknown) is a
    supertype of every size, as in TensorFlow."""

    __slots__ = ("_nrows", "_nvals", "_uniform_row_length", "_dtype")

    value_type = RowPartition
    _component_names = ("row_splits",)

    def __init__(self, nrows=None, nvals=None, uniform_row_length=None, dtype=dtypes.int64):
        self._nrows, self._nvals, self._uniform_row_length = (
            v if isinstance(v, TensorShape) else TensorShape([v])
            for v in (nrows, nvals, uniform_row_length))
        self._dtype = as_dtype(dtype)
        if self._dtype not in _SPLITS_DTYPES:
            raise ValueError(f"dtype must be int32 or int64, got {self._dtype.name}")

    @property
    def dtype(self):
        return self._dtype

    def _serialize(self) -> tuple:
        return (self._nrows, self._nvals, self._uniform_row_length, self._dtype)

    @property
    def _component_specs(self) -> list:
        n = self._nrows.as_tuple()[0]
        return [TensorSpec(TensorShape([None if n is None else n + 1]), self._dtype)]

    def _from_components(self, tensors) -> RowPartition:
        (splits,) = tensors
        u, nvals = self._uniform_row_length.as_tuple()[0], self._nvals.as_tuple()[0]
        return RowPartition(splits, None if u is None else constant(u, dtype=self._dtype),
                            None if nvals is None else constant(nvals, self._dtype),
                            internal=True)

    def __repr__(self) -> str:
        n, v, u = (d.as_tuple()[0] for d in self._serialize()[:3])
        return (f"RowPartitionSpec(nrows={n}, nvals={v}, uniform_row_length={u}, "
                f"dtype=tf.{self._dtype.name})")
