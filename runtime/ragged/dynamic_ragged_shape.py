"""``tf.shape(rt)``: a ``DynamicRaggedShape``, TensorFlow's shape of a RaggedTensor.

It holds one ``RowPartition`` per ragged dimension (uniform when the rows were built
uniform) and the shape of the flat values (``inner_shape``), all as tensors of ``dtype``.
A dimension with one size (the rows, a uniform ragged dimension, the inner dimensions)
can be read as a scalar; a ragged one cannot.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime import composite
from runtime.ops import array_ops, math_ops
from runtime.ops.core import convert_to_tensor
from runtime.ragged.ragged_tensor import RaggedTensor, _static_value
from runtime.ragged.row_partition import RowPartition
from runtime.tensor import Tensor


class DynamicRaggedShape:
    """``tf.experimental.DynamicRaggedShape(row_partitions, inner_shape, dtype)``."""

    __slots__ = ("_partitions", "_inner_shape", "_dtype")

    def __init__(self, row_partitions, inner_shape, dtype=None, validate=True,
                 static_inner_shape=None):
        partitions = tuple(row_partitions)
        if not all(isinstance(p, RowPartition) for p in partitions):
            raise TypeError("row_partitions should be a list of RowPartition objects")
        if dtype is None:
            dtype = partitions[0].dtype if partitions else (
                inner_shape.dtype if isinstance(inner_shape, Tensor) else dtypes.int64)
        self._dtype = as_dtype(dtype)
        self._partitions = tuple(p.with_dtype(self._dtype) for p in partitions)
        inner = convert_to_tensor(inner_shape, dtype_hint=self._dtype)
        self._inner_shape = inner if inner.dtype == self._dtype else \
            math_ops.cast(inner, self._dtype)
        if self._inner_shape.shape.rank != 1:
            raise ValueError(f"inner_shape must be a vector, got shape {self._inner_shape.shape}")

    # -- factories ----------------------------------------------------------------------------
    @classmethod
    def from_tensor(cls, t, dtype=None) -> "DynamicRaggedShape":
        """The shape of a Tensor or RaggedTensor (int32 unless ``dtype`` says otherwise)."""
        dtype = dtypes.int32 if dtype is None else as_dtype(dtype)
        partitions, level = [], t
        while isinstance(level, RaggedTensor):
            u = level.uniform_row_length
            partitions.append(RowPartition(
                math_ops.cast(level.row_splits, dtype),
                None if u is None else math_ops.cast(u, dtype), internal=True))
            level = level.values
        return cls(partitions, array_ops.shape(level, out_type=dtype), dtype)

    @classmethod
    def from_row_partitions(cls, row_partitions, dtype=None) -> "DynamicRaggedShape":
        """The shape of a ragged tensor with these partitions and scalar flat values."""
        partitions = tuple(row_partitions)
        if not partitions:
            raise ValueError("row_partitions cannot be empty")
        return cls(partitions, array_ops.reshape(partitions[-1].nvals(), [1]), dtype)

    @classmethod
    def from_lengths(cls, lengths, num_row_partitions=None, dtype=dtypes.int64):
        """A shape from its sizes: ints for uniform dimensions, tuples of row lengths for
        ragged ones (``[2, (2, 1), 3]``); the partitions end at the last ragged dimension."""
        lengths = list(lengths)
        if not lengths or isinstance(lengths[0], (tuple, list)):
            raise ValueError("lengths should start with the number of rows (an int)")
        ragged = [i for i, d in enumerate(lengths) if isinstance(d, (tuple, list))]
        k = (ragged[-1] if ragged else 0) if num_row_partitions is None else num_row_partitions
        partitions, nvals = [], int(lengths[0])
        for d in lengths[1:k + 1]:
            if isinstance(d, (tuple, list)):
                if len(d) != nvals:
                    raise ValueError(f"lengths {tuple(d)} should have {nvals} entries")
                partitions.append(RowPartition.from_row_lengths(list(d), dtype=dtype))
                nvals = sum(int(x) for x in d)
            else:
                partitions.append(RowPartition.from_uniform_row_length(int(d), nrows=nvals,
                                                                       dtype=dtype))
                nvals *= int(d)
        if any(isinstance(d, (tuple, list)) for d in lengths[k + 1:]):
            raise ValueError("a ragged dimension must be one of the row partitions")
        return cls(partitions, [nvals] + [int(d) for d in lengths[k + 1:]], dtype)

    # -- reading ------------------------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def row_partitions(self) -> tuple:
        """One ``RowPartition`` per ragged dimension, outermost first."""
        return self._partitions

    @property
    def num_row_partitions(self) -> int:
        return len(self._partitions)

    @property
    def inner_shape(self):
        """The shape of the flat values."""
        return self._inner_shape

    @property
    def inner_rank(self):
        dims = self._inner_shape.shape.as_tuple()
        return None if dims is None else dims[0]

    @property
    def rank(self):
        inner = self.inner_rank
        return None if inner is None else len(self._partitions) + inner

    def is_uniform(self, axis: int) -> bool:
        """Whether every row has the same size in dimension ``axis``."""
        rank = self.rank
        i = axis + rank if axis < 0 and rank is not None else axis
        if 1 <= i <= len(self._partitions):
            return self._partitions[i - 1].is_uniform()
        return True

    def with_dtype(self, dtype) -> "DynamicRaggedShape":
        return DynamicRaggedShape(self._partitions, self._inner_shape, dtype)

    def _nrows(self):
        return self._partitions[0].nrows() if self._partitions else self._inner_shape[0]

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError(f"DynamicRaggedShape indices must be integers, got {index!r}")
        rank, k = self.rank, self.num_row_partitions
        i = index + rank if index < 0 and rank is not None else index
        if i == 0:
            return self._nrows()
        if 1 <= i <= k:
            uniform = self._partitions[i - 1].uniform_row_length()
            if uniform is None:
                raise ValueError(f"Index {index} is not uniform")
            return uniform
        if rank is not None and not 0 <= i < rank:
            raise IndexError(f"Index {index} is out of range for a shape of rank {rank}")
        return self._inner_shape[i - k]

    def static_lengths(self) -> list:
        """The sizes known now: an int per uniform dimension, a tuple of row lengths per
        ragged one, None where unknown."""
        def value(t):
            v = _static_value(t)
            return None if v is None else int(v)

        out = [value(self._nrows())]
        for partition in self._partitions:
            uniform = partition.uniform_row_length()
            if uniform is not None and value(uniform) is not None:
                out.append(value(uniform))
            else:
                v = _static_value(partition.row_lengths())
                out.append(None if v is None else tuple(int(x) for x in v))
        inner = _static_value(self._inner_shape)
        if inner is None:
            return out + [None] * ((self.rank or 0) - len(out))
        return out + [int(d) for d in inner[1:]]

    def __repr__(self) -> str:
        return (f"<DynamicRaggedShape lengths={self.static_lengths()} "
                f"num_row_partitions={self.num_row_partitions}>")


def _shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return DynamicRaggedShape.from_tensor(input, out_type)


def _with_partitions(flat_values, shape: DynamicRaggedShape):
    """A RaggedTensor of ``shape`` on ``flat_values`` (a Tensor when it has no partitions)."""
    result = flat_values
    for p in reversed(shape.row_partitions):  # (in the shape's dtype, as TensorFlow's)
        result = RaggedTensor(result, p.row_splits(), internal=True,
                              uniform_row_length=p.uniform_row_length())
    return result


def _filled(fill):
    def filled(shape, dtype=dtypes.float32, name=None):
        flat = fill(shape.inner_shape, dtype)
        return _with_partitions(flat, shape)
    return filled


def _broadcast_to(input, shape, name=None):  # noqa: A002
    """A Tensor broadcast to a DynamicRaggedShape: size-1 (or missing) dimensions spread
    over the rows as ``rt + dense`` spreads them."""
    from runtime.ragged.ragged_ops import _dense_operand
    dense = convert_to_tensor(input)
    template = _with_partitions(array_ops.zeros(shape.inner_shape, dense.dtype), shape)
    if not isinstance(template, RaggedTensor):
        return array_ops.broadcast_to(dense, shape.inner_shape)
    flat = array_ops.broadcast_to(_dense_operand(template, dense),
                                  array_ops.shape(template.flat_values))
    return template.with_flat_values(flat)


composite.register_dispatch("shape", RaggedTensor, _shape)
composite.register_dispatch("zeros", DynamicRaggedShape, _filled(array_ops.zeros))
composite.register_dispatch("ones", DynamicRaggedShape, _filled(array_ops.ones))
composite.register_dispatch("broadcast_to", DynamicRaggedShape, _broadcast_to)
