"""``tf.keras.losses``: loss functions and the Loss classes that weight and reduce them.

A loss function maps ``(y_true, y_pred)`` to one value per sample (the mean
or sum over the last axis); a ``Loss`` object multiplies those by
``sample_weight`` and reduces them (Keras 3's reductions: ``"sum_over_batch_size"``
(the default, as ``"mean"``: sum / number of values), ``"sum"``,
``"mean_with_sample_weight"`` (sum / sum of weights), ``"none"``/None).
As in Keras 3, a Loss object computes in its dtype (float32 unless given)
whatever the input dtypes; the functions keep a float ``y_pred``'s dtype.
Cross-entropies on logits use the tf.nn ops (their gradients are exact); on
probabilities they clip to [1e-7, 1 - 1e-7] first, as Keras does.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import divide_no_nan

EPSILON = 1e-7
REDUCTIONS = ("none", None, "mean", "sum", "sum_over_batch_size", "mean_with_sample_weight")


def _as_float(x, dtype=dtypes.float32):
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else M.cast(x, dtype)


def _pair(y_true, y_pred):
    """y_pred as a float tensor (float32 unless already floating), y_true in its dtype."""
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = M.cast(y_pred, dtypes.float32)
    return _as_float(y_true, y_pred.dtype), y_pred


def mean_squared_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return M.reduce_mean(M.square(M.subtract(y_pred, y_true)), axis=-1)


def mean_absolute_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return M.reduce_mean(M.abs(M.subtract(y_pred, y_true)), axis=-1)


def _smooth_binary(y_true, label_smoothing):
    if not label_smoothing:
        return y_true
    return M.add(M.multiply(y_true, 1.0 - label_smoothing), 0.5 * label_smoothing)


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth_binary(y_true, label_smoothing)
    if from_logits:
        per_value = nn_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        p = array_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        per_value = M.negative(M.add(M.multiply(y_true, M.log(p)),
                                     M.multiply(M.subtract(1.0, y_true),
                                                M.log(M.subtract(1.0, p)))))
    return M.reduce_mean(per_value, axis=axis)


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        classes = M.cast(array_ops.shape(y_true)[axis], y_true.dtype)
        y_true = M.add(M.multiply(y_true, 1.0 - label_smoothing),
                       M.divide(label_smoothing, classes))
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = M.divide(y_pred, M.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = array_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return M.negative(M.reduce_sum(M.multiply(y_true, M.log(p)), axis=axis))


def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, axis=-1):
    """Cross-entropy against integer class ids (``y_true`` may keep a trailing axis of 1)."""
    if axis != -1:
        raise NotImplementedError("sparse_categorical_crossentropy supports axis=-1 only")
    y_pred = convert_to_tensor(y_pred)
    if not y_pred.dtype.is_floating:
        y_pred = M.cast(y_pred, dtypes.float32)
    y_true = convert_to_tensor(y_true)
    if (y_true.shape.rank is not None and y_pred.shape.rank is not None
            and y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1):
        y_true = array_ops.squeeze(y_true, axis=[-1])
    if y_true.dtype not in (dtypes.int32, dtypes.int64):
        y_true = M.cast(y_true, dtypes.int64)
    if not from_logits:  # the log of clipped, normalized probabilities are logits
        p = M.divide(y_pred, M.reduce_sum(y_pred, axis=-1, keepdims=True))
        y_pred = M.log(array_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON))
    return nn_ops.sparse_softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred)


def reduce_weighted_values(values, sample_weight=None, reduction="sum_over_batch_size"):
    """Weights per-sample loss values and reduces them as ``reduction`` says."""
    if sample_weight is not None:
        sample_weight = _as_float(sample_weight, values.dtype)
        w_rank, v_rank = sample_weight.shape.rank, values.shape.rank
        if w_rank is not None and v_rank is not None and w_rank > v_rank \
                and sample_weight.shape[-1] == 1:
            sample_weight = array_ops.squeeze(sample_weight, axis=[-1])
        values = M.multiply(values, sample_weight)
    if reduction in (None, "none"):
        return values
    total = M.reduce_sum(values)
    if reduction == "sum":
        return total
    if reduction == "mean_with_sample_weight" and sample_weight is not None:
        denom = M.reduce_sum(M.multiply(array_ops.ones_like(values), sample_weight))
    else:
        denom = M.cast(array_ops.size(values), values.dtype)
    return divide_no_nan(total, denom)


class Loss:
    """Base class: ``loss(y_true, y_pred, sample_weight=None)`` is ``call`` weighted and reduced."""

    def __init__(self, name=None, reduction="sum_over_batch_size", dtype=None):
        if reduction not in REDUCTIONS:
            raise ValueError(f"Invalid value for argument `reduction`. Expected one of "
                             f"{set(REDUCTIONS)}. Received: reduction={reduction}")
        self.name = name or type(self).__name__
        self.reduction = reduction
        self.dtype = as_dtype(dtype or dtypes.float32)

    def call(self, y_true, y_pred):
        raise NotImplementedError(f"{type(self).__name__} must define call")

    def __call__(self, y_true, y_pred, sample_weight=None):
        values = self.call(_as_float(y_true, self.dtype), _as_float(y_pred, self.dtype))
        return reduce_weighted_values(_as_float(values, self.dtype), sample_weight,
                                      self.reduction)

    def get_config(self) -> dict:
        return {"name": self.name, "reduction": self.reduction}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class LossFunctionWrapper(Loss):
    """A Loss whose ``call`` is a loss function with fixed keyword arguments."""

    def __init__(self, fn, reduction="sum_over_batch_size", name=None, dtype=None, **kwargs):
        super().__init__(name=name, reduction=reduction, dtype=dtype)
        self.fn, self._fn_kwargs = fn, kwargs

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)

    def get_config(self):
        return {**super().get_config(), **self._fn_kwargs}


class MeanSquaredError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_squared_error", dtype=None):
        super().__init__(mean_squared_error, reduction=reduction, name=name, dtype=dtype)


class MeanAbsoluteError(LossFunctionWrapper):
    def __init__(self, reduction="sum_over_batch_size", name="mean_absolute_error", dtype=None):
        super().__init__(mean_absolute_error, reduction=reduction, name=name, dtype=dtype)


class BinaryCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="binary_crossentropy", dtype=None):
        super().__init__(binary_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class CategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, label_smoothing=0.0, axis=-1,
                 reduction="sum_over_batch_size", name="categorical_crossentropy", dtype=None):
        super().__init__(categorical_crossentropy, reduction=reduction, name=name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)


class SparseCategoricalCrossentropy(LossFunctionWrapper):
    def __init__(self, from_logits=False, ignore_class=None, reduction="sum_over_batch_size",
                 name="sparse_categorical_crossentropy", dtype=None):
        if ignore_class is not None:
            raise NotImplementedError("SparseCategoricalCrossentropy(ignore_class=...) is not "
                                      "supported")
        super().__init__(sparse_categorical_crossentropy, reduction=reduction, name=name,
                         dtype=dtype, from_logits=from_logits)

    def get_config(self):
        return {**super().get_config(), "ignore_class": None}


mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error

_BY_NAME = {f.__name__: f for f in (mean_squared_error, mean_absolute_error, binary_crossentropy,
                                     categorical_crossentropy, sparse_categorical_crossentropy)}
_BY_NAME.update({"mse": mean_squared_error, "mae": mean_absolute_error})
_BY_NAME.update({c.__name__: c for c in (MeanSquaredError, MeanAbsoluteError,
                                         BinaryCrossentropy, CategoricalCrossentropy,
                                         SparseCategoricalCrossentropy)})


def get(identifier):
    """A loss from a name (``"mse"``, ``"MeanSquaredError"``) or a callable."""
    if isinstance(identifier, str) and identifier in _BY_NAME:
        found = _BY_NAME[identifier]
        return found() if isinstance(found, type) else found
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")
