"""``tf.experimental.Optional``: a value that may be absent (``get_next_as_optional``).

An Optional is a composite tensor (runtime/composite.py): a boolean scalar
``has_value`` and the components of its value (an empty Optional holds
zeros of its element spec), so it crosses ``tf.function``, ``cond`` and
``while_loop`` like any composite. ``get_value`` of an empty Optional is
TensorFlow's InvalidArgumentError: at once eagerly, when the graph runs if
staged (a stateful Assert, kept in program order).
"""
from __future__ import annotations

from graph import dtypes
from graph.errors import InvalidArgumentError
from runtime import context, nest
from runtime.composite import CompositeTensor, type_spec_of
from runtime.ops.core import constant, convert_to_tensor
from runtime.tensor import Tensor
from runtime.tensor_spec import TensorSpec, TypeSpec

_NO_VALUE = "The given optional does not have a value."


def _spec_of(value):
    spec = type_spec_of(value)
    if spec is not None:
        return spec
    return TensorSpec(value.shape, value.dtype)


def _zeros(spec: TensorSpec) -> Tensor:
    from runtime.ops import array_ops
    shape = [] if spec.shape.rank is None else [d or 0 for d in spec.shape.as_tuple()]
    return array_ops.zeros(shape, dtype=spec.dtype)


class Optional(CompositeTensor):
    """``tf.experimental.Optional``: made by ``from_value``, ``empty`` or an iterator."""

    __slots__ = ("_has_value", "_value", "_element_spec")

    def __init__(self, has_value: Tensor, value, element_spec):
        self._has_value = has_value
        self._value = value
        self._element_spec = element_spec

    @staticmethod
    def from_value(value) -> "Optional":
        """An Optional holding ``value`` (a structure of tensors and composites)."""
        value = nest.map_structure(
            lambda v: v if type_spec_of(v) is not None else convert_to_tensor(v), value)
        return Optional(constant(True), value, nest.map_structure(_spec_of, value))

    @staticmethod
    def empty(element_spec) -> "Optional":
        """An Optional with no value, whose value would be of ``element_spec``."""
        zeros = [_zeros(s) for s in nest.flatten(element_spec, expand_composites=True)]
        value = nest.pack_sequence_as(element_spec, zeros, expand_composites=True)
        return Optional(constant(False), value, element_spec)

    @property
    def element_spec(self):
        return self._element_spec

    def has_value(self, name=None) -> Tensor:
        return self._has_value

    def get_value(self, name=None):
        """The value; InvalidArgumentError when there is none."""
        if context.current_graph() is None:
            if not bool(self._has_value.numpy()):
                raise InvalidArgumentError(message=_NO_VALUE)
        else:
            from runtime.ops.logging_ops import Assert
            Assert(self._has_value, [constant(_NO_VALUE)], name="OptionalGetValue")
        return self._value

    @property
    def _type_spec(self) -> "OptionalSpec":
        return OptionalSpec(self._element_spec)

    def __repr__(self) -> str:
        return f"<tf.experimental.Optional element_spec={self._element_spec!r}>"


class OptionalSpec(TypeSpec):
    """``tf.OptionalSpec(element_spec)``: the type of an Optional."""

    __slots__ = ("_element_spec",)

    value_type = Optional

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def _serialize(self) -> tuple:
        return (self._element_spec,)

    def __hash__(self) -> int:  # (the element spec may hold dicts)
        return hash((OptionalSpec, tuple(nest.flatten(self._element_spec))))

    @property
    def _component_specs(self) -> list:
        return [TensorSpec([], dtypes.bool_)] + nest.flatten(self._element_spec,
                                                             expand_composites=True)

    def _from_components(self, tensors) -> Optional:
        has_value, *parts = tensors
        value = nest.pack_sequence_as(self._element_spec, parts, expand_composites=True)
        return Optional(has_value, value, self._element_spec)

    def _to_components(self, value: Optional) -> list:
        return [value._has_value] + nest.flatten(value._value, expand_composites=True)

    @classmethod
    def from_value(cls, value: Optional) -> "OptionalSpec":
        return value._type_spec
