"""Top-level types of TensorFlow 2 that real programs name: ``IndexedSlices``,
``TensorArraySpec``, ``type_spec_from_value`` (and, from runtime.variable_enums, the
variable enums ``VariableAggregation`` / ``VariableSynchronization``)."""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from graph.shapes import TensorShape, as_shape
from runtime.ops import array_ops as A
from runtime.ops.control_ops import get_static_value
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import unsorted_segment_sum
from runtime.tensor import Tensor
from runtime.tensor_array import TensorArray
from runtime.tensor_spec import TensorSpec, TypeSpec
from runtime.variable_enums import VariableAggregation, VariableSynchronization  # noqa: F401

__all__ = ["IndexedSlices", "IndexedSlicesSpec", "TensorArraySpec", "VariableAggregation",
           "VariableSynchronization", "type_spec_from_value"]


class IndexedSlices:
    """``tf.IndexedSlices``: rows ``values[i]`` at ``indices[i]`` of a tensor of shape
    ``dense_shape`` (a sparse gradient). Converting it to a tensor sums the rows into
    zeros, repeated indices adding up, as TensorFlow densifies it."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    values = property(lambda self: self._values)
    indices = property(lambda self: self._indices)
    dense_shape = property(lambda self: self._dense_shape)
    dtype = property(lambda self: self._values.dtype)
    name = property(lambda self: self._values.name)
    device = property(lambda self: self._values.device)

    @property
    def shape(self) -> TensorShape:
        """The dense shape when known while building, else unknown."""
        if self._dense_shape is None:
            return TensorShape(None)
        value = get_static_value(self._dense_shape)
        if value is not None:
            return TensorShape([int(d) for d in value])
        n = self._dense_shape.shape[0] if self._dense_shape.shape.rank == 1 else None
        return TensorShape(None if n is None else [None] * n)

    # -- a composite tensor: returned from a tf.function or carried by a loop as its parts
    @property
    def _type_spec(self) -> "IndexedSlicesSpec":
        values = self._values.shape
        rows = TensorShape(None if values.rank is None else values.as_list()[:1])
        indices = self._indices.shape
        indices = indices.merge_with(rows) if indices.is_compatible_with(rows) and \
            rows.rank is not None else indices
        dense = TensorShape(None if values.rank is None else [None] + values.as_list()[1:])
        if self._dense_shape is not None and self.shape.is_compatible_with(dense):
            dense = dense.merge_with(self.shape)
        return IndexedSlicesSpec(dense, self.dtype, self._indices.dtype,
                                 None if self._dense_shape is None else self._dense_shape.dtype,
                                 indices)

    def _components(self) -> list:
        parts = [self._values, self._indices]
        return parts if self._dense_shape is None else parts + [self._dense_shape]

    def _with_components(self, tensors) -> "IndexedSlices":
        return IndexedSlices(*tensors)

    def _as_tensor(self) -> Tensor:
        if self._dense_shape is None:
            raise ValueError(f"Tensor conversion requested for IndexedSlices for argument "
                             f"`value` without dense_shape: {self!r}")
        dense = unsorted_segment_sum(self._values, self._indices, self._dense_shape[0])
        return A.reshape(dense, self._dense_shape)

    def __neg__(self) -> "IndexedSlices":
        from runtime.ops.math_ops import negative
        return IndexedSlices(negative(self._values), self._indices, self._dense_shape)

    def __str__(self) -> str:  # (TensorFlow's repr is the default object one)
        shape = "" if self._dense_shape is None else f", dense_shape={str(self._dense_shape)}"
        return f"IndexedSlices(indices={str(self._indices)}, values={str(self._values)}{shape})"


class IndexedSlicesSpec(TypeSpec):
    """``tf.IndexedSlicesSpec(shape, dtype, indices_dtype, dense_shape_dtype, indices_shape)``:
    the type of an ``IndexedSlices`` (``shape`` is the dense shape; no ``dense_shape_dtype``:
    a value without ``dense_shape``)."""

    __slots__ = ("_shape", "_dtype", "_indices_dtype", "_dense_shape_dtype", "_indices_shape")
    value_type = IndexedSlices
    _component_names = ("values", "indices", "dense_shape")

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = as_shape(shape)
        self._dtype = as_dtype(dtype)
        self._indices_dtype = as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else as_dtype(dense_shape_dtype)
        self._indices_shape = as_shape([None] if indices_shape is None else indices_shape)
        if self._indices_shape.rank != 1:
            raise ValueError(f"Shape {self._indices_shape} must have rank 1")

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)

    @property
    def _component_specs(self) -> list:
        rest = None if self._shape.rank is None else self._shape.as_list()[1:]
        values = None if rest is None else self._indices_shape.as_list() + rest
        specs = [TensorSpec(values, self._dtype),
                 TensorSpec(self._indices_shape, self._indices_dtype)]
        if self._dense_shape_dtype is not None:
            specs.append(TensorSpec([self._shape.rank], self._dense_shape_dtype))
        return specs

    def _from_components(self, tensors) -> IndexedSlices:
        return IndexedSlices(*tensors)

    def _with_shape(self, shape) -> "IndexedSlicesSpec":
        return IndexedSlicesSpec(shape, self._dtype, self._indices_dtype,
                                 self._dense_shape_dtype, self._indices_shape)

    def __repr__(self) -> str:
        return (f"IndexedSlicesSpec({self._shape!r}, {self._dtype!r}, {self._indices_dtype!r}, "
                f"{self._dense_shape_dtype!r}, {self._indices_shape!r})")


class TensorArraySpec(TypeSpec):
    """``tf.TensorArraySpec``: the type of a ``tf.TensorArray`` (element shape and dtype,
    whether it grows, whether it infers the element shape from its first write)."""

    __slots__ = ("_element_shape", "_dtype", "_dynamic_size", "_infer_shape")
    value_type = TensorArray

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size: bool = False,
                 infer_shape: bool = True):
        self._element_shape = as_shape(element_shape)
        self._dtype = as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    element_shape = property(lambda self: self._element_shape)
    dtype = property(lambda self: self._dtype)
    dynamic_size = property(lambda self: self._dynamic_size)
    infer_shape = property(lambda self: self._infer_shape)

    def _serialize(self) -> tuple:
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    @staticmethod
    def from_value(value: TensorArray) -> "TensorArraySpec":
        if not isinstance(value, TensorArray):
            raise ValueError(f"Expected value to be a TensorArray, but saw: {type(value)}")
        return TensorArraySpec(value.element_shape, value.dtype, value.dynamic_size,
                               value._spec.infer_shape)


def type_spec_from_value(value) -> TypeSpec:
    """``tf.type_spec_from_value``: the TypeSpec of a tensor, composite tensor,
    TensorArray, or of a Python / numpy value converted to a tensor."""
    if isinstance(value, Tensor):
        return TensorSpec.from_tensor(value)
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    spec = getattr(value, "_type_spec", None)
    if isinstance(spec, TypeSpec):
        return spec
    try:
        return TensorSpec.from_tensor(convert_to_tensor(value))
    except (TypeError, ValueError):
        raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                        f"{type(value)}.") from None
