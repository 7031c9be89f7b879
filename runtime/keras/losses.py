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

import math

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import divide_no_nan
from runtime.keras.legacy_losses import Reduction  # noqa: F401

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


def _binary_ce_of_probabilities(y_true, y_pred):
    """Elementwise binary cross-entropy of probabilities clipped to [1e-7, 1 - 1e-7]."""
    p = array_ops.clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
    return M.negative(M.add(M.multiply(y_true, M.log(p)),
                            M.multiply(M.subtract(1.0, y_true), M.log(M.subtract(1.0, p)))))


def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth_binary(y_true, label_smoothing)
    if from_logits:
        per_value = nn_ops.sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        per_value = _binary_ce_of_probabilities(y_true, y_pred)
    return M.reduce_mean(per_value, axis=axis)


def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """Binary cross-entropy scaled by ``(1 - p_t) ** gamma`` (and optionally by ``alpha``
    for positives, ``1 - alpha`` for negatives), so confident predictions count less."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth_binary(y_true, label_smoothing)
    if from_logits:
        y_pred = M.sigmoid(y_pred)
    bce = _binary_ce_of_probabilities(y_true, y_pred)
    p_t = M.add(M.multiply(y_true, y_pred),
                M.multiply(M.subtract(1.0, y_true), M.subtract(1.0, y_pred)))
    focal = M.multiply(M.pow(M.subtract(1.0, p_t), M.cast(gamma, y_pred.dtype)), bce)
    if apply_class_balancing:
        focal = M.multiply(M.add(M.multiply(y_true, alpha),
                                 M.multiply(M.subtract(1.0, y_true), 1.0 - alpha)), focal)
    return M.reduce_mean(focal, axis=axis)


def _smooth_categorical(y_true, label_smoothing, axis):
    if not label_smoothing:
        return y_true
    classes = M.cast(array_ops.shape(y_true)[axis], y_true.dtype)
    return M.add(M.multiply(y_true, 1.0 - label_smoothing), M.divide(label_smoothing, classes))


def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth_categorical(y_true, label_smoothing, axis)
    if from_logits:
        return nn_ops.softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    p = M.divide(y_pred, M.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = array_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    return M.negative(M.reduce_sum(M.multiply(y_true, M.log(p)), axis=axis))


def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """Categorical cross-entropy with each class's term scaled by ``alpha * (1 - p) **
    gamma``."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = _smooth_categorical(y_true, label_smoothing, axis)
    if from_logits:
        y_pred = nn_ops.softmax(y_pred, axis=axis)
    p = M.divide(y_pred, M.reduce_sum(y_pred, axis=axis, keepdims=True))
    p = array_ops.clip_by_value(p, EPSILON, 1.0 - EPSILON)
    ce = M.negative(M.multiply(y_true, M.log(p)))
    weight = M.multiply(M.pow(M.subtract(1.0, p), M.cast(gamma, p.dtype)), alpha)
    return M.reduce_sum(M.multiply(weight, ce), axis=axis)


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


def _hinge_labels(y_true):
    """0/1 labels become -1/1 (as Keras does when every label is 0 or 1); others stay."""
    is_binary = M.reduce_all(M.logical_or(M.equal(y_true, 0.0), M.equal(y_true, 1.0)))
    return M.where(is_binary, M.subtract(M.multiply(y_true, 2.0), 1.0), y_true)


def hinge(y_true, y_pred):
    """``mean(max(1 - y_true * y_pred, 0))`` over the last axis, labels -1/1 (or 0/1)."""
    y_true, y_pred = _pair(y_true, y_pred)
    margin = M.subtract(1.0, M.multiply(_hinge_labels(y_true), y_pred))
    return M.reduce_mean(M.maximum(margin, 0.0), axis=-1)


def squared_hinge(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    margin = M.subtract(1.0, M.multiply(_hinge_labels(y_true), y_pred))
    return M.reduce_mean(M.square(M.maximum(margin, 0.0)), axis=-1)


def categorical_hinge(y_true, y_pred):
    """``max(max((1 - y_true) * y_pred) - sum(y_true * y_pred) + 1, 0)`` (one-hot labels)."""
    y_true, y_pred = _pair(y_true, y_pred)
    positive = M.reduce_sum(M.multiply(y_true, y_pred), axis=-1)
    negative = M.reduce_max(M.multiply(M.subtract(1.0, y_true), y_pred), axis=-1)
    return M.maximum(M.add(M.subtract(negative, positive), 1.0), 0.0)


def huber(y_true, y_pred, delta=1.0):
    """Quadratic for errors up to ``delta``, linear beyond (mean over the last axis)."""
    y_true, y_pred = _pair(y_true, y_pred)
    delta = M.cast(delta, y_pred.dtype)
    error = M.abs(M.subtract(y_pred, y_true))
    per_value = M.where(M.less_equal(error, delta), M.multiply(0.5, M.square(error)),
                        M.subtract(M.multiply(delta, error), M.multiply(0.5, M.square(delta))))
    return M.reduce_mean(per_value, axis=-1)


def kl_divergence(y_true, y_pred):
    """``sum(y_true * log(y_true / y_pred))``, both clipped to [1e-7, 1]."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = array_ops.clip_by_value(y_true, EPSILON, 1.0)
    y_pred = array_ops.clip_by_value(y_pred, EPSILON, 1.0)
    return M.reduce_sum(M.multiply(y_true, M.log(M.divide(y_true, y_pred))), axis=-1)


def log_cosh(y_true, y_pred):
    """``mean(log(cosh(y_pred - y_true)))``, written as ``x + softplus(-2x) - log 2``."""
    y_true, y_pred = _pair(y_true, y_pred)
    x = M.subtract(y_pred, y_true)
    return M.reduce_mean(M.subtract(M.add(x, nn_ops.softplus(M.multiply(-2.0, x))),
                                    M.cast(math.log(2.0), x.dtype)), axis=-1)


def poisson(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return M.reduce_mean(M.subtract(y_pred, M.multiply(y_true, M.log(M.add(y_pred, EPSILON)))),
                         axis=-1)


def mean_squared_logarithmic_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    first = M.log(M.add(M.maximum(y_pred, EPSILON), 1.0))
    second = M.log(M.add(M.maximum(y_true, EPSILON), 1.0))
    return M.reduce_mean(M.square(M.subtract(first, second)), axis=-1)


def mean_absolute_percentage_error(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    diff = M.abs(M.divide(M.subtract(y_true, y_pred), M.maximum(M.abs(y_true), EPSILON)))
    return M.multiply(100.0, M.reduce_mean(diff, axis=-1))


def cosine_similarity(y_true, y_pred, axis=-1):
    """The negated cosine of the angle between the two (so that minimizing aligns them)."""
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = nn_ops.l2_normalize(y_true, axis=axis)
    y_pred = nn_ops.l2_normalize(y_pred, axis=axis)
    return M.negative(M.reduce_sum(M.multiply(y_true, y_pred), axis=axis))


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



def _loss_class(class_name, fn, default_name, doc, **defaults):
    """A LossFunctionWrapper subclass for ``fn``, whose keyword arguments are ``defaults``."""
    def __init__(self, reduction="sum_over_batch_size", name=default_name, dtype=None,
                 **kwargs):
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'")
        LossFunctionWrapper.__init__(self, fn, reduction=reduction, name=name, dtype=dtype,
                                     **{**defaults, **kwargs})
    return type(class_name, (LossFunctionWrapper,), {"__init__": __init__, "__doc__": doc,
                                                     "__module__": __name__})


BinaryFocalCrossentropy = _loss_class(
    "BinaryFocalCrossentropy", binary_focal_crossentropy, "binary_focal_crossentropy",
    "The focal binary cross-entropy.", apply_class_balancing=False, alpha=0.25, gamma=2.0,
    from_logits=False, label_smoothing=0.0, axis=-1)
CategoricalFocalCrossentropy = _loss_class(
    "CategoricalFocalCrossentropy", categorical_focal_crossentropy,
    "categorical_focal_crossentropy", "The focal categorical cross-entropy.", alpha=0.25,
    gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1)
Hinge = _loss_class("Hinge", hinge, "hinge", "The hinge loss of -1/1 (or 0/1) labels.")
SquaredHinge = _loss_class("SquaredHinge", squared_hinge, "squared_hinge",
                           "The squared hinge loss.")
CategoricalHinge = _loss_class("CategoricalHinge", categorical_hinge, "categorical_hinge",
                               "The hinge loss of one-hot labels.")
Huber = _loss_class("Huber", huber, "huber_loss", "The Huber loss.", delta=1.0)
KLDivergence = _loss_class("KLDivergence", kl_divergence, "kl_divergence",
                           "The Kullback-Leibler divergence of y_pred from y_true.")
LogCosh = _loss_class("LogCosh", log_cosh, "log_cosh", "The log of the hyperbolic cosine "
                      "of the error.")
Poisson = _loss_class("Poisson", poisson, "poisson", "The Poisson loss.")
MeanSquaredLogarithmicError = _loss_class(
    "MeanSquaredLogarithmicError", mean_squared_logarithmic_error,
    "mean_squared_logarithmic_error", "The mean squared error of log(1 + x).")
MeanAbsolutePercentageError = _loss_class(
    "MeanAbsolutePercentageError", mean_absolute_percentage_error,
    "mean_absolute_percentage_error", "The mean absolute error in percent of y_true.")
CosineSimilarity = _loss_class("CosineSimilarity", cosine_similarity, "cosine_similarity",
                               "The negated cosine similarity.", axis=-1)

mse = MSE = mean_squared_error
mae = MAE = mean_absolute_error
msle = MSLE = mean_squared_logarithmic_error
mape = MAPE = mean_absolute_percentage_error
kld = KLD = kullback_leibler_divergence = kl_divergence
logcosh = log_cosh

_FUNCTIONS = (mean_squared_error, mean_absolute_error, binary_crossentropy,
              categorical_crossentropy, sparse_categorical_crossentropy, hinge, squared_hinge,
              categorical_hinge, huber, kl_divergence, log_cosh, poisson,
              mean_squared_logarithmic_error, mean_absolute_percentage_error, cosine_similarity,
              binary_focal_crossentropy, categorical_focal_crossentropy)
_CLASSES = (MeanSquaredError, MeanAbsoluteError, BinaryCrossentropy, CategoricalCrossentropy,
            SparseCategoricalCrossentropy, Hinge, SquaredHinge, CategoricalHinge, Huber,
            KLDivergence, LogCosh, Poisson, MeanSquaredLogarithmicError,
            MeanAbsolutePercentageError, CosineSimilarity, BinaryFocalCrossentropy,
            CategoricalFocalCrossentropy)

_BY_NAME = {f.__name__: f for f in _FUNCTIONS}
_BY_NAME.update({"mse": mean_squared_error, "mae": mean_absolute_error,
                 "msle": mean_squared_logarithmic_error, "mape": mean_absolute_percentage_error,
                 "kld": kl_divergence, "logcosh": log_cosh})
_BY_NAME.update({c.__name__: c for c in _CLASSES})

def get(identifier):
    """A loss from a name (``"mse"``, ``"MeanSquaredError"``) or a callable."""
    if isinstance(identifier, str) and identifier in _BY_NAME:
        found = _BY_NAME[identifier]
        return found() if isinstance(found, type) else found
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret loss identifier: {identifier}")
