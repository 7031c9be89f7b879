"""``ConcreteFunction.function_type``: the traced parameters with their types, as TensorFlow's.

An ``inspect.Signature`` whose annotations are the trace types: a tensor
parameter's ``TensorSpec`` (unnamed, as TensorFlow shows it), a Python
value's ``Literal[value]``; the return annotation is the output's type.
``str`` is the one-line signature, ``repr`` TensorFlow's block listing.
"""
from __future__ import annotations

import inspect

from runtime import nest
from runtime.tensor import Tensor
from runtime.tensor_spec import TensorSpec, TypeSpec


class Literal:
    """The type of a Python value a trace was specialized on (``Literal[2]``)."""

    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value

    def __eq__(self, other):
        return isinstance(other, Literal) and type(other.value) is type(self.value) \
            and other.value == self.value

    def __hash__(self):
        return hash((type(self.value), repr(self.value)))

    def __repr__(self) -> str:
        return f"Literal[{self.value!r}]"


class Parameter(inspect.Parameter):
    """A parameter and its trace type (``type_constraint``), as TensorFlow names it."""

    __slots__ = ("_optional",)

    def __init__(self, name, kind, optional: bool, type_constraint):
        super().__init__(name, kind, annotation=type_constraint)
        self._optional = optional

    @property
    def optional(self) -> bool:
        return self._optional

    @property
    def type_constraint(self):
        return self.annotation


class FunctionType(inspect.Signature):
    """The parameters of one trace, its output type, its flat inputs and outputs."""

    __slots__ = ("_flat_inputs", "_flat_outputs")

    def __init__(self, parameters, output, flat_inputs, flat_outputs):
        super().__init__(parameters, return_annotation=output)
        self._flat_inputs = list(flat_inputs)
        self._flat_outputs = list(flat_outputs)

    @property
    def output(self):
        return self.return_annotation

    @property
    def flat_inputs(self) -> list:
        return list(self._flat_inputs)

    @property
    def flat_outputs(self) -> list:
        return list(self._flat_outputs)

    def __eq__(self, other):
        return isinstance(other, FunctionType) and super().__eq__(other)

    __hash__ = inspect.Signature.__hash__

    def __repr__(self) -> str:
        lines = ["Input Parameters:"]
        lines += [f"  {p.name} ({p.kind.name}): {p.annotation!r}" for p in self.parameters.values()]
        lines += ["Output Type:", f"  {self.output!r}", "Captures:", "  None"]
        return "\n".join(lines)


def trace_type(value):
    """The type a trace gives ``value`` (a signature entry): specs of tensors and composites,
    literals of Python values, containers of those."""
    if isinstance(value, tuple) and hasattr(value, "_fields"):  # a namedtuple
        return type(value)(*[trace_type(v) for v in value])
    if isinstance(value, (list, tuple)):
        return type(value)(trace_type(v) for v in value)
    if isinstance(value, dict):
        return {k: trace_type(v) for k, v in value.items()}
    if isinstance(value, (Tensor, TensorSpec)):
        return TensorSpec(value.shape, value.dtype)  # unnamed, as TensorFlow shows it
    if isinstance(value, TypeSpec):
        return value
    spec = getattr(value, "_type_spec", None)
    return spec if isinstance(spec, TypeSpec) else Literal(value)


def function_type(spec, arg_names, arg_specs, kwarg_specs, structured_outputs) -> FunctionType:
    """The FunctionType of one trace, from what the ConcreteFunction keeps of it."""
    params = []
    for name, value in zip(arg_names, arg_specs):
        kind = (inspect.Parameter.POSITIONAL_OR_KEYWORD if name in spec.positional
                else inspect.Parameter.POSITIONAL_ONLY)
        params.append(Parameter(name, kind, False, trace_type(value)))
    for name, value in kwarg_specs.items():
        params.append(Parameter(name, inspect.Parameter.KEYWORD_ONLY, False, trace_type(value)))
    output = trace_type(structured_outputs) if structured_outputs is not None else None
    flat_in = [t for t in nest.flatten([p.annotation for p in params]) if isinstance(t, TypeSpec)]
    flat_out = [t for t in nest.flatten(output) if isinstance(t, TypeSpec)] if output is not None else []
    return FunctionType(params, output, flat_in, flat_out)
