"""Merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate and
their function forms (``tf.keras.layers.add([a, b])``)."""
from __future__ import annotations

import functools

from runtime.keras.layers.base import Layer
from runtime.ops import array_ops as A, math_ops as M


class _Merge(Layer):
    """Combines a list of same-shaped (broadcastable) tensors elementwise."""

    _combine = None
    _min_inputs = 2

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < self._min_inputs:
            raise ValueError(f"A merge layer should be called on a list of at least "
                             f"{self._min_inputs} inputs. Received: inputs={inputs}")
        return self._merge(list(inputs))

    def _merge(self, inputs):
        return functools.reduce(self._combine, inputs)


def _merge_class(name, combine, doc):
    return type(name, (_Merge,), {"_combine": staticmethod(combine), "__doc__": doc,
                                  "__module__": __name__})


Add = _merge_class("Add", M.add, "The sum of the inputs.")
Multiply = _merge_class("Multiply", M.multiply, "The product of the inputs.")
Maximum = _merge_class("Maximum", M.maximum, "The elementwise maximum of the inputs.")
Minimum = _merge_class("Minimum", M.minimum, "The elementwise minimum of the inputs.")


class Subtract(_Merge):
    """``inputs[0] - inputs[1]`` (exactly two inputs)."""

    def _merge(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Subtract` layer should be called on exactly 2 inputs. "
                             f"Received: inputs={inputs}")
        return M.subtract(inputs[0], inputs[1])


class Average(_Merge):
    """The mean of the inputs."""

    def _merge(self, inputs):
        return M.divide(functools.reduce(M.add, inputs), float(len(inputs)))


class Concatenate(_Merge):
    """The inputs joined along ``axis``."""

    _min_inputs = 1

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def _merge(self, inputs):
        return A.concat(inputs, axis=self.axis)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}


def add(inputs, **kwargs):
    return Add(**kwargs)(inputs)


def subtract(inputs, **kwargs):
    return Subtract(**kwargs)(inputs)


def multiply(inputs, **kwargs):
    return Multiply(**kwargs)(inputs)


def average(inputs, **kwargs):
    return Average(**kwargs)(inputs)


def maximum(inputs, **kwargs):
    return Maximum(**kwargs)(inputs)


def minimum(inputs, **kwargs):
    return Minimum(**kwargs)(inputs)


def concatenate(inputs, axis=-1, **kwargs):
    return Concatenate(axis=axis, **kwargs)(inputs)
