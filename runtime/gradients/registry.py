"""Gradient functions per op type, and the record of one op they are given.

A gradient function is written with runtime ops, so one definition serves
the eager tape (the ops run now) and graph building (the ops record nodes
next to the forward ones). It receives an ``OpRecord`` (the op's inputs,
outputs and attrs as tensors) and the gradients of the op's outputs (None
for an output that got none, when the op has several) and returns one
gradient per input (None where there is none).
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable, NamedTuple

_GRADIENTS: dict[str, Callable] = {}
_NOT_DIFFERENTIABLE: set[str] = set()
# Per-node gradient functions (tf.custom_gradient), named by a node's ``_gradient_op_type``.
_OVERRIDES: dict[str, Callable] = {}


class OpRecord(NamedTuple):
    """One op as the gradient code sees it: type, tensors in and out, attrs.

    An immutable record like the frozen dataclasses elsewhere, but a named
    tuple: an eager tape makes one per op it records, and a tuple is made in
    a third of the time.

    ``inputs`` may hold ``VariableHandle``s: the variables an op reads
    (a ReadVariableOp, or an If/While/function whose body reads them).
    ``node`` is the graph node when the op was staged (for error messages).
    ``resolve`` maps an output of ``node`` that the record does not list (the
    accumulators a differentiated while loop adds to itself) to the tensor
    standing for it where the gradient is being built; None means the node's
    own graph (``SymbolicTensor(output)``).
    """

    op: str
    inputs: tuple
    outputs: tuple
    attrs: dict
    node: Any = None
    origin: Any = None  # the user's line, kept for ops without a gradient function
    resolve: Any = None


@dataclass(frozen=True, slots=True)
class VariableHandle:
    """A variable as an input of an op record, known by its resource id."""

    resource: int
    dtype: Any
    shape: Any


def RegisterGradient(op_type: str):  # noqa: N802  (TensorFlow's name)
    """Decorator: ``fn(record, *grads) -> list of input gradients`` for ``op_type``."""
    def register(fn: Callable) -> Callable:
        if op_type in _GRADIENTS:
            raise KeyError(f"A gradient for op type {op_type!r} is already registered")
        _GRADIENTS[op_type] = fn
        return fn
    return register


def NotDifferentiable(*op_types: str) -> None:  # noqa: N802
    """Declares ops whose outputs carry no gradient back (comparisons, shapes...)."""
    _NOT_DIFFERENTIABLE.update(op_types)


def register_override(key: str, fn: Callable) -> None:
    """``fn`` differentiates the nodes whose ``_gradient_op_type`` attr is ``key``."""
    _OVERRIDES[key] = fn


def override_of(attrs) -> Callable | None:
    """The gradient function an op's attrs name in place of its type's, if any: the
    callable itself (an eager record) or a key of ``register_override`` (a node)."""
    override = attrs.get("_gradient_op_type") if attrs else None
    if override is None or callable(override):
        return override
    try:
        return _OVERRIDES[override]
    except KeyError:
        raise LookupError(f"the custom gradient {override!r} is not defined in this "
                          "process (a graph loaded from disk keeps no Python gradient "
                          "functions)") from None


def get_gradient(op_type: str) -> Callable | None:
    """The gradient function of ``op_type``; None when it is not differentiable.

    Raises LookupError when the op type is unknown to the registry.
    """
    fn = _GRADIENTS.get(op_type)
    if fn is not None:
        return fn
    if op_type in _NOT_DIFFERENTIABLE:
        return None
    raise LookupError(op_type)
