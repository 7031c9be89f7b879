"""``tf.keras.metrics``: running means over batches, kept in non-trainable Variables.

A metric is a ``tf.Module`` whose state (``total``, ``count``) lives in
Variables, so ``update_state`` works eagerly and inside a tf.function (it
records assignments) and checkpoints find the state. The accuracy metrics are
the mean of a per-sample value, as in Keras 3 (``MeanMetricWrapper``).
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.module import Module
from runtime.ops import array_ops, math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import divide_no_nan
from runtime.variables import Variable


class Metric(Module):
    """Base class: ``update_state`` accumulates, ``result`` reads, ``reset_state`` clears."""

    def __init__(self, name=None, dtype=None):
        super().__init__(name=name)
        self.dtype = as_dtype(dtype or dtypes.float32)
        self._state: list[Variable] = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        dtype = as_dtype(dtype or self.dtype)
        v = Variable(np.zeros(shape, dtype.numpy_dtype), trainable=False, name=name)
        self._state.append(v)
        return v

    @property
    def variables(self) -> list[Variable]:
        return list(self._state)

    def reset_state(self) -> None:
        for v in self._state:
            v.assign(np.zeros(v.shape.as_list(), v.dtype.numpy_dtype))

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"{type(self).__name__} must define update_state")

    def result(self):
        raise NotImplementedError(f"{type(self).__name__} must define result")

    def __call__(self, *args, **kwargs):
        """Updates the state with this batch and returns the new result."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self) -> dict:
        return {"name": self.name, "dtype": self.dtype.name}

    def __repr__(self) -> str:
        return f"<{type(self).__name__} name={self.name}>"


class Mean(Metric):
    """The (weighted) mean of every value given to ``update_state``."""

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")
        self.count = self.add_variable(name="count")

    def update_state(self, values, sample_weight=None):
        values = convert_to_tensor(values)
        values = values if values.dtype == self.dtype else M.cast(values, self.dtype)
        if sample_weight is None:
            self.total.assign_add(M.reduce_sum(values))
            self.count.assign_add(M.cast(array_ops.size(values), self.dtype))
            return
        weights = convert_to_tensor(sample_weight)
        weights = weights if weights.dtype == self.dtype else M.cast(weights, self.dtype)
        v_rank, w_rank = values.shape.rank, weights.shape.rank
        if v_rank is not None and w_rank is not None:
            # Values with more axes than the weights are averaged down to the weights' rank.
            if v_rank > w_rank and w_rank > 0:
                values = M.reduce_mean(values, axis=list(range(w_rank, v_rank)))
            elif w_rank > v_rank and weights.shape[-1] == 1:
                weights = array_ops.squeeze(weights, axis=[-1])
        weights = M.multiply(weights, array_ops.ones_like(values))
        self.total.assign_add(M.reduce_sum(M.multiply(values, weights)))
        self.count.assign_add(M.reduce_sum(weights))

    def result(self):
        return divide_no_nan(self.total, self.count)


class MeanMetricWrapper(Mean):
    """The mean of ``fn(y_true, y_pred)`` over every sample seen."""

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)
        self._fn, self._fn_kwargs = fn, kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        super().update_state(self._fn(y_true, y_pred, **self._fn_kwargs),
                             sample_weight=sample_weight)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


def _float(t):
    return M.cast(t, dtypes.float32)


def _matching(y_true, y_pred):
    """y_true converted to y_pred's dtype, a trailing axis of 1 squeezed to match ranks."""
    y_pred, y_true = convert_to_tensor(y_pred), convert_to_tensor(y_true)
    if y_true.dtype != y_pred.dtype:
        y_true = M.cast(y_true, y_pred.dtype)
    return y_true, y_pred


def accuracy(y_true, y_pred):
    """1 where the prediction equals the label, else 0 (per sample, averaged over the last axis)."""
    y_true, y_pred = _matching(y_true, y_pred)
    return M.reduce_mean(_float(M.equal(y_true, y_pred)), axis=-1)


def binary_accuracy(y_true, y_pred, threshold=0.5):
    y_pred = convert_to_tensor(y_pred)
    y_pred = M.cast(M.greater(y_pred, M.cast(threshold, y_pred.dtype)), y_pred.dtype)
    return accuracy(y_true, y_pred)


def categorical_accuracy(y_true, y_pred):
    """Whether the arg-max of the prediction is the arg-max of the one-hot label."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    return _float(M.equal(M.argmax(y_true, axis=-1), M.argmax(y_pred, axis=-1)))


def sparse_categorical_accuracy(y_true, y_pred):
    """Whether the arg-max of the prediction is the integer label."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    t_rank, p_rank = y_true.shape.rank, y_pred.shape.rank
    if t_rank is not None and p_rank is not None and t_rank == p_rank and y_true.shape[-1] == 1:
        y_true = array_ops.squeeze(y_true, axis=[-1])
    predicted = M.argmax(y_pred, axis=-1)
    if not y_true.dtype.is_floating and y_true.dtype != predicted.dtype:
        y_true = M.cast(y_true, predicted.dtype)
    elif y_true.dtype.is_floating:
        predicted = M.cast(predicted, y_true.dtype)
    return _float(M.equal(y_true, predicted))


class Accuracy(MeanMetricWrapper):
    def __init__(self, name="accuracy", dtype=None):
        super().__init__(accuracy, name=name, dtype=dtype)


class BinaryAccuracy(MeanMetricWrapper):
    def __init__(self, name="binary_accuracy", dtype=None, threshold=0.5):
        super().__init__(binary_accuracy, name=name, dtype=dtype, threshold=threshold)


class CategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="categorical_accuracy", dtype=None):
        super().__init__(categorical_accuracy, name=name, dtype=dtype)


class SparseCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, name="sparse_categorical_accuracy", dtype=None):
        super().__init__(sparse_categorical_accuracy, name=name, dtype=dtype)
