"""``tf.TensorSpec``: the type of a tensor (dtype and a possibly partial shape).

Input signatures, concrete-function signatures and dataset element specs
describe tensors with it. A spec is a plain immutable record: two specs are
equal (and hash alike) when dtype, shape and name are, so specs serve as
trace-cache keys.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.shapes import TensorShape, as_shape


class TensorSpec:
    """Describes a tensor: ``TensorSpec(shape=(None,), dtype=tf.float32, name=None)``."""

    __slots__ = ("_shape", "_dtype", "_name")

    def __init__(self, shape=None, dtype=dtypes.float32, name: str | None = None):
        try:
            self._shape = as_shape(shape)
        except (TypeError, ValueError):
            raise TypeError(f"TensorSpec: shape must be a list of ints/None, a TensorShape or "
                            f"None, got {shape!r}") from None
        self._dtype = as_dtype(dtype)
        if name is not None and not isinstance(name, str):
            raise TypeError(f"TensorSpec: name must be a string or None, got {name!r}")
        self._name = name

    @classmethod
    def from_tensor(cls, tensor, name: str | None = None) -> "TensorSpec":
        """The spec of ``tensor``; a symbolic tensor lends its op name when none is given."""
        if name is None:
            op = getattr(tensor, "op", None)
            name = getattr(op, "name", None) if op is not None else None
        return cls(tensor.shape, tensor.dtype, name)

    @classmethod
    def from_spec(cls, spec, name: str | None = None) -> "TensorSpec":
        return cls(spec.shape, spec.dtype, name if name is not None else spec.name)

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def name(self) -> str | None:
        return self._name

    def is_compatible_with(self, spec_or_tensor) -> bool:
        """True when the dtypes are equal and the shapes could be the same."""
        other = _as_typed(spec_or_tensor)
        if other is None:
            return False
        dtype, shape = other
        return dtype == self._dtype and self._shape.is_compatible_with(shape)

    def is_subtype_of(self, other: "TensorSpec") -> bool:
        """True when every tensor fitting this spec also fits ``other``."""
        return (isinstance(other, TensorSpec) and self._dtype == other._dtype
                and self._shape.is_subtype_of(other._shape))

    def most_specific_common_supertype(self, others) -> "TensorSpec | None":
        """The most specific spec every one of ``self`` and ``others`` fits, or None."""
        shape = self._shape
        for o in others:
            if not isinstance(o, TensorSpec) or o._dtype != self._dtype:
                return None
            shape = shape.most_specific_compatible_shape(o._shape)
        return TensorSpec(shape, self._dtype, self._name)

    def most_specific_compatible_type(self, other: "TensorSpec") -> "TensorSpec":
        if not isinstance(other, TensorSpec) or other._dtype != self._dtype:
            raise ValueError(f"No TensorSpec is compatible with both {self} and {other}")
        name = self._name if self._name == other._name else None
        return TensorSpec(self._shape.most_specific_compatible_shape(other._shape),
                          self._dtype, name)

    def __eq__(self, other) -> bool:
        return (type(other) is type(self) and self._dtype == other._dtype
                and self._shape == other._shape and self._name == other._name)

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((self._shape, self._dtype, self._name))

    def __repr__(self) -> str:
        return f"TensorSpec(shape={self._shape}, dtype={self._dtype!r}, name={self._name!r})"

    __str__ = __repr__


def _as_typed(value):
    """(dtype, shape) of a spec, tensor, variable or numpy value; None if it has none."""
    if isinstance(value, TensorSpec):
        return value.dtype, value.shape
    dtype, shape = getattr(value, "dtype", None), getattr(value, "shape", None)
    if isinstance(dtype, DType) and shape is not None:
        return dtype, as_shape(shape)
    if isinstance(value, (np.ndarray, np.generic)):
        try:
            return as_dtype(value.dtype), TensorShape(value.shape)
        except TypeError:
            return None
    try:
        return dtypes.infer_dtype(value), TensorShape(np.shape(value))
    except (TypeError, ValueError):
        return None
