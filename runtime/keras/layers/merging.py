"""Merging layers: Add, Subtract, Multiply, Average, Maximum, Minimum, Concatenate and
their function forms (``tf.keras.layers.add([a, b])``), with Keras 3's output masks."""
from __future__ import annotations

import functools

from graph import dtypes
from runtime.keras.layers.base import Layer, _set_keras_mask, get_keras_mask
from runtime.ops import array_ops as A, math_ops as M


class _Merge(Layer):
    """Combines a list of same-shaped (broadcastable) tensors elementwise."""

    _combine = None
    _min_inputs = 2
    supports_masking = True

    def call(self, inputs):
        if not isinstance(inputs, (list, tuple)) or len(inputs) < self._min_inputs:
            raise ValueError(f"A merge layer should be called on a list of at least "
                             f"{self._min_inputs} inputs. Received: inputs={inputs}")
        return self._merge(list(inputs))

    def _merge(self, inputs):
        return functools.reduce(self._combine, inputs)

    def compute_mask(self, inputs, mask=None):
        """A step is kept when any input keeps it; no mask unless every input has one."""
        masks = _checked_masks(inputs, mask)
        if masks is None or any(m is None for m in masks):
            return None
        return functools.reduce(M.logical_or, masks)


def _checked_masks(inputs, mask):
    if mask is None:
        return None
    if not isinstance(mask, (list, tuple)):
        raise ValueError(f"`mask` should be a list. Received: mask={mask}")
    if not isinstance(inputs, (list, tuple)):
        raise ValueError(f"`inputs` should be a list. Received: inputs={inputs}")
    if len(mask) != len(inputs):
        raise ValueError(f"The lists `inputs` and `mask` should have the same length. "
                         f"Received: inputs={inputs} of length {len(inputs)}, and "
                         f"mask={mask} of length {len(mask)}")
    return list(mask)


def _merge_class(name, combine, doc, base=_Merge):
    return type(name, (base,), {"_combine": staticmethod(combine), "__doc__": doc,
                                "__module__": __name__})


def _step_mask(x):
    """The Keras mask of ``x`` widened to its shape (None without one)."""
    mask = get_keras_mask(x)
    return None if mask is None else \
        A.broadcast_to(A.expand_dims(M.cast(mask, dtypes.bool_), -1), A.shape(x))


class _MaskedExtremum(_Merge):
    """Maximum and Minimum, as Keras 3 merges masked inputs: a masked value takes the other
    operand's, so only kept values compete; the output's mask is the or of all masks."""

    def _merge(self, inputs):
        output, output_mask = inputs[0], _step_mask(inputs[0])
        for x in inputs[1:]:
            mask = _step_mask(x)
            if mask is not None:
                x = M.where(mask, x, output)
            if output_mask is not None:
                output = M.where(output_mask, output, x)
            output_mask = None if mask is None or output_mask is None else \
                M.logical_or(output_mask, mask)
            output = self._combine(output, x)
        if output_mask is not None:
            _set_keras_mask(output, M.reduce_any(output_mask, axis=-1))
        return output


class Multiply(_Merge):
    """The product of the inputs; masked values count as 1, and when every input is masked
    the steps no input keeps are 0 (Keras 3)."""

    def _merge(self, inputs):
        masks = [_step_mask(x) for x in inputs]
        output = output_mask = None
        for x, mask in zip(inputs, masks):
            if mask is not None:
                x = M.where(mask, x, A.ones([], x.dtype))
                output_mask = mask if output_mask is None else M.logical_or(output_mask, mask)
            output = x if output is None else M.multiply(output, x)
        if all(m is not None for m in masks):
            output = M.where(output_mask, output, A.zeros([], output.dtype))
            _set_keras_mask(output, M.reduce_any(output_mask, axis=-1))
        return output


Add = _merge_class("Add", M.add, "The sum of the inputs.")
Maximum = _merge_class("Maximum", M.maximum, "The elementwise maximum of the inputs (of "
                       "their kept values).", _MaskedExtremum)
Minimum = _merge_class("Minimum", M.minimum, "The elementwise minimum of the inputs (of "
                       "their kept values).", _MaskedExtremum)


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

    def compute_mask(self, inputs, mask=None):
        """The masks, widened to their inputs' shapes (an unmasked input keeps all), joined
        along ``axis`` and reduced over the last axis, as Keras 3 computes it."""
        masks = _checked_masks(inputs, mask)
        if masks is None or all(m is None for m in masks):
            return None
        full = []
        for x, m in zip(inputs, masks):
            if m is None:
                m = A.ones_like(x, dtype=dtypes.bool_)
            elif m.shape.rank is not None and x.shape.rank is not None and \
                    m.shape.rank < x.shape.rank:
                m = M.logical_or(A.expand_dims(m, -1), A.zeros_like(x, dtype=dtypes.bool_))
            full.append(m)
        return M.reduce_any(A.concat(full, axis=self.axis), axis=-1)

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
