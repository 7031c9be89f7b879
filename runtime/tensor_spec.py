"""``tf.TypeSpec`` and ``tf.TensorSpec``: static types of values.

``TensorSpec`` is the type of a tensor (dtype and a possibly partial shape).
Input signatures, concrete-function signatures and dataset element specs
describe tensors with it. A spec is a plain immutable record: two specs are
equal (and hash alike) when dtype, shape and name are, so specs serve as
trace-cache keys.

``TypeSpec`` is the base of every spec: the type of a composite value (a
RaggedTensor, a SparseTensor; see ``runtime.composite``) is a TypeSpec
subclass that lists the specs of the value's component tensors and rebuilds
the value from them. Its order (``is_subtype_of``, the common supertype) is
derived from ``_serialize()``: shapes compare by TensorShape's order (an
unknown dimension is a supertype of a known one), every other field by
equality.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.shapes import TensorShape, as_shape
from runtime.tensor import Tensor


class TypeSpec:
    """The static type of a value that stands on tensors (``tf.TypeSpec``).

    A subclass gives:

    - ``_serialize()``: its fields as a tuple (shapes as TensorShape, dtypes as
      DType, the rest plain hashable values); ``type(spec)(*fields)`` rebuilds it;
    - ``_component_specs``: the TensorSpecs of the value's component tensors;
    - ``_from_components(tensors)``: a value of this type standing on ``tensors``;
    - ``_to_components(value)``: the component tensors of ``value``;
    - ``value_type``: the class of its values;
    - optionally ``_component_names`` (for placeholder and loop-variable names) and
      ``_with_shape(shape)`` (this type with another shape: shape invariants).
    """

    __slots__ = ()

    value_type = None
    _component_names: tuple = ()

    # -- what subclasses give -------------------------------------------------------
    def _serialize(self) -> tuple:
        raise NotImplementedError

    @property
    def _component_specs(self) -> list:
        raise NotImplementedError

    def _from_components(self, tensors):
        raise NotImplementedError

    def _to_components(self, value) -> list:
        return list(value._components())

    def _with_shape(self, shape) -> "TypeSpec":
        raise ValueError(f"{type(self).__name__} has no shape to relax")

    # -- derived --------------------------------------------------------------------
    def component_names(self, base: str) -> list[str]:
        """Names of the component tensors of a value called ``base``."""
        names = self._component_names
        n = len(self._component_specs)
        return [f"{base}.{names[i]}" if i < len(names) else f"{base}.{i}" for i in range(n)]

    def is_subtype_of(self, other) -> bool:
        """True when every value of this type is also of type ``other``."""
        return type(other) is type(self) and _fields_subtype(self._serialize(), other._serialize())

    def most_specific_common_supertype(self, others):
        """The most specific type that this and every one of ``others`` are subtypes of."""
        fields = self._serialize()
        for o in others:
            if type(o) is not type(self):
                return None
            fields = _fields_supertype(fields, o._serialize())
            if fields is None:
                return None
        return type(self)(*fields)

    def most_specific_compatible_type(self, other):
        sup = self.most_specific_common_supertype([other])
        if sup is None:
            raise ValueError(f"No TypeSpec is compatible with both {self} and {other}")
        return sup

    def is_compatible_with(self, spec_or_value) -> bool:
        """True when a value could be of both this type and ``spec_or_value``'s."""
        other = spec_or_value
        if not isinstance(other, TypeSpec):
            other = getattr(other, "_type_spec", None)
        return type(other) is type(self) and _fields_compatible(self._serialize(),
                                                                other._serialize())

    def __eq__(self, other) -> bool:
        return type(other) is type(self) and self._serialize() == other._serialize()

    def __ne__(self, other) -> bool:
        return not self == other

    def __hash__(self) -> int:
        return hash((type(self), self._serialize()))

    def __repr__(self) -> str:  # TensorFlow's: the class name and the serialized fields
        return f"{type(self).__name__}{self._serialize()!r}"


def _fields_subtype(a, b) -> bool:
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and a.is_subtype_of(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_fields_subtype(x, y) for x, y in zip(a, b))
    if isinstance(a, TypeSpec):
        return a.is_subtype_of(b)
    return a == b


def _fields_compatible(a, b) -> bool:
    if isinstance(a, TensorShape):
        return isinstance(b, TensorShape) and a.is_compatible_with(b)
    if isinstance(a, tuple) and isinstance(b, tuple):
        return len(a) == len(b) and all(_fields_compatible(x, y) for x, y in zip(a, b))
    if isinstance(a, TypeSpec):
        return a.is_compatible_with(b)
    return a == b


_NO_SUPERTYPE = object()


def _fields_supertype(a, b):
    def sup(x, y):
        if isinstance(x, TensorShape):
            if not isinstance(y, TensorShape):
                return _NO_SUPERTYPE
            return x.most_specific_compatible_shape(y)
        if isinstance(x, tuple) and isinstance(y, tuple):
            if len(x) != len(y):
                return _NO_SUPERTYPE
            parts = tuple(sup(p, q) for p, q in zip(x, y))
            return _NO_SUPERTYPE if any(p is _NO_SUPERTYPE for p in parts) else parts
        if isinstance(x, TypeSpec):
            s = x.most_specific_common_supertype([y])
            return _NO_SUPERTYPE if s is None else s
        return x if x == y else _NO_SUPERTYPE
    out = sup(a, b)
    return None if out is _NO_SUPERTYPE else out


class TensorSpec(TypeSpec):
    """Describes a tensor: ``TensorSpec(shape=(None,), dtype=tf.float32, name=None)``."""

    __slots__ = ("_shape", "_dtype", "_name")

    value_type = Tensor

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

    # -- as a TypeSpec: a tensor is its own single component ------------------------------
    def _serialize(self) -> tuple:
        return (self._shape, self._dtype, self._name)

    @property
    def _component_specs(self) -> list:
        return [self]

    def _from_components(self, tensors):
        (t,) = tensors
        return t

    def _to_components(self, value) -> list:
        return [value]

    def _with_shape(self, shape) -> "TensorSpec":
        return TensorSpec(shape, self._dtype, self._name)

    __str__ = __repr__


def _as_typed(value):
    """(dtype, shape) of a spec, tensor, variable or numpy value; None if it has none."""
    if isinstance(value, TensorSpec):
        return value.dtype, value.shape
    if isinstance(value, TypeSpec) or isinstance(getattr(value, "_type_spec", None), TypeSpec):
        return None  # a composite (RaggedTensor, SparseTensor) is not a tensor
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
