"""``tf.TensorSpec``: the type of a tensor (dtype and a possibly partial shape).

Input signatures, concrete-function signatures and dataset element specs
describe tensors with it. A spec is a plain immutable record: two specs are
equal when dtype, shape and name are.
"""
from __future__ import annotations

from graph.dtypes import DType, as_dtype, float32
from graph.shapes import TensorShape, as_shape


class TensorSpec:
    """Describes a tensor: ``TensorSpec(shape=(None,), dtype=tf.int32, name=None)``."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape=None, dtype=float32, name: str | None = None):
        self._shape = as_shape(shape)
        self._dtype = as_dtype(dtype)
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name: str | None = None) -> "TensorSpec":
        return cls(tensor.shape, tensor.dtype, name if name is not None else None)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    def is_compatible_with(self, other) -> bool:
        """True when a tensor (or spec) ``other`` fits this spec: same dtype, compatible shape."""
        dtype = getattr(other, "dtype", None)
        shape = getattr(other, "shape", None)
        if dtype is None or shape is None:
            return False
        return as_dtype(dtype) == self._dtype and self._shape.is_compatible_with(shape)

    def is_subtype_of(self, other: "TensorSpec") -> bool:
        return (isinstance(other, TensorSpec) and self._dtype == other._dtype
                and self._shape.is_subtype_of(other._shape))

    def most_specific_common_supertype(self, others) -> "TensorSpec | None":
        shape = self._shape
        for o in others:
            if not isinstance(o, TensorSpec) or o._dtype != self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(o._shape)
        return TensorSpec(shape, self._dtype, self._name)

    def __eq__(self, other) -> bool:
        return (isinstance(other, TensorSpec) and self._dtype == other._dtype
                and self._shape == other._shape and self._name == other._name)

    def __hash__(self) -> int:
        return hash((self._dtype, self._shape, self._name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"
