"""``tf.shape(rt)``: a ``DynamicRaggedShape``, TensorFlow's shape of a RaggedTensor.

It holds the number of rows, one row partition per ragged dimension (its row lengths, or
the uniform row length when the rows were built uniform) and the shape of the flat values,
all as tensors of ``dtype``. A dimension with one size (the rows, a uniform ragged
dimension, the inner dimensions) can be read as a scalar; a ragged one cannot.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime import composite
from runtime.ops import array_ops, math_ops
from runtime.ragged.ragged_tensor import RaggedTensor, _static_value


class DynamicRaggedShape:
    """``tf.experimental.DynamicRaggedShape`` as ``tf.shape(rt)`` returns it."""

    __slots__ = ("_nrows", "_lengths", "_uniform", "_inner_shape", "_dtype")

    def __init__(self, rt: RaggedTensor, dtype=dtypes.int32):
        self._dtype = as_dtype(dtype)
        self._nrows = rt.nrows(out_type=self._dtype)
        self._lengths, self._uniform, level = [], [], rt
        while isinstance(level, RaggedTensor):
            self._lengths.append(math_ops.cast(level.row_lengths(), self._dtype))
            u = level.uniform_row_length
            self._uniform.append(None if u is None else math_ops.cast(u, self._dtype))
            level = level.values
        self._inner_shape = array_ops.shape(level, out_type=self._dtype)

    @property
    def dtype(self):
        return self._dtype

    @property
    def rank(self):
        inner = self._inner_shape.shape.as_tuple()
        return None if inner is None or inner[0] is None else \
            1 + len(self._lengths) + inner[0] - 1

    @property
    def num_row_partitions(self) -> int:
        return len(self._lengths)

    @property
    def inner_shape(self):
        """The shape of the flat values."""
        return self._inner_shape

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError(f"DynamicRaggedShape indices must be integers, got {index!r}")
        rank, k = self.rank, self.num_row_partitions
        i = index + rank if index < 0 and rank is not None else index
        if i == 0:
            return self._nrows
        if 1 <= i <= k:
            if self._uniform[i - 1] is None:
                raise ValueError(f"Index {index} is not uniform")
            return self._uniform[i - 1]
        if rank is not None and not 0 <= i < rank:
            raise IndexError(f"Index {index} is out of range for a shape of rank {rank}")
        return self._inner_shape[i - k]

    def static_lengths(self) -> list:
        """The sizes known now: an int per uniform dimension, a tuple of row lengths per
        ragged one, None where unknown."""
        def value(t):
            v = _static_value(t)
            return None if v is None else int(v)

        out = [value(self._nrows)]
        for lengths, uniform in zip(self._lengths, self._uniform):
            if uniform is not None and value(uniform) is not None:
                out.append(value(uniform))
            else:
                v = _static_value(lengths)
                out.append(None if v is None else tuple(int(x) for x in v))
        inner = _static_value(self._inner_shape)
        if inner is None:
            return out + [None] * ((self.rank or 0) - len(out))
        return out + [int(d) for d in inner[1:]]

    def __repr__(self) -> str:
        return (f"<DynamicRaggedShape lengths={self.static_lengths()} "
                f"num_row_partitions={self.num_row_partitions}>")


def _shape(input, out_type=dtypes.int32, name=None):  # noqa: A002
    return DynamicRaggedShape(input, out_type)


composite.register_dispatch("shape", RaggedTensor, _shape)
