"""``tf.keras.metrics``: running means over batches, kept in non-trainable Variables.

A metric is a ``tf.Module`` whose state (``total``, ``count``) lives in
Variables, so ``update_state`` works eagerly and inside a tf.function (it
records assignments) and checkpoints find the state. The accuracy metrics are
the mean of a per-sample value, as in Keras 3 (``MeanMetricWrapper``), and so are the
losses' metric forms; the confusion-matrix metrics live in ``confusion_metrics``.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.keras import losses
from runtime.keras.losses import (binary_crossentropy,  # noqa: F401
                                  binary_focal_crossentropy, categorical_crossentropy,
                                  categorical_focal_crossentropy, categorical_hinge, hinge,
                                  huber, poisson, sparse_categorical_crossentropy,
                                  squared_hinge)
from runtime.keras.layers.base import unique_name
from runtime.module import Module, _camel_to_snake
from runtime.ops import array_ops, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import divide_no_nan
from runtime.variables import Variable


class Metric(Module):
    """Base class: ``update_state`` accumulates, ``result`` reads, ``reset_state`` clears."""

    def __init__(self, name=None, dtype=None):
        # Unnamed metrics are named as Keras does: ``auc``, ``auc_1``...
        super().__init__(name=name or unique_name(_camel_to_snake(type(self).__name__)))
        self.dtype = as_dtype(dtype or dtypes.float32)
        self._state: list[Variable] = []

    def add_variable(self, shape=(), initializer="zeros", dtype=None, name=None):
        from runtime.keras.layers.base import KerasVariable, keras_name_scope
        dtype = as_dtype(dtype or self.dtype)
        with keras_name_scope(self.name):  # (Keras 3: `total`, with path `mean/total`)
            v = KerasVariable(np.zeros(shape, dtype.numpy_dtype), name=name, trainable=False)
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
        """Adds the per-sample means of ``values`` (over axes past the first), as Keras 3:
        weights of a lower rank first average the values down to their own rank."""
        values = convert_to_tensor(values)
        values = values if values.dtype == self.dtype else M.cast(values, self.dtype)
        weights = None
        if sample_weight is not None:
            weights = convert_to_tensor(sample_weight)
            weights = weights if weights.dtype == self.dtype else M.cast(weights, self.dtype)
            v_rank, w_rank = values.shape.rank, weights.shape.rank
            if w_rank == v_rank + 1 and weights.shape[-1] == 1:
                weights, w_rank = array_ops.squeeze(weights, axis=[-1]), v_rank
            if v_rank > w_rank:
                values = M.reduce_mean(values, axis=list(range(w_rank, v_rank)))
            weights = array_ops.broadcast_to(weights, array_ops.shape(values))
            values = M.multiply(values, weights)
            if w_rank > 1:
                weights = M.reduce_mean(weights, axis=list(range(1, w_rank)))
        rank = values.shape.rank
        if rank > 1:
            values = M.reduce_mean(values, axis=list(range(1, rank)))
        self.total.assign_add(M.reduce_sum(values))
        if weights is not None:
            count = M.reduce_sum(weights)
        else:
            count = M.cast(array_ops.shape(values)[0], self.dtype) if rank >= 1 else 1.0
        self.count.assign_add(count)

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
    """1 where the prediction equals the label, else 0, elementwise as Keras 3 gives it (``Mean``
    averages each sample's values, so a batch of labels counts every label)."""
    y_true, y_pred = _matching(y_true, y_pred)
    return _float(M.equal(y_true, y_pred))


def binary_accuracy(y_true, y_pred, threshold=0.5):
    """Whether ``y_pred > threshold`` is the label; bool or integer predictions compare as
    float32, as Keras promotes them with its float32 threshold."""
    y_pred = convert_to_tensor(y_pred)
    dtype = y_pred.dtype if y_pred.dtype in (dtypes.float32, dtypes.float64) else dtypes.float32
    y_pred = M.cast(M.greater(M.cast(y_pred, dtype), M.cast(threshold, dtype)), dtype)
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


# -- top-k accuracies ------------------------------------------------------------------

def _in_top_k(labels, y_pred, k):
    y_pred = convert_to_tensor(y_pred)
    if y_pred.dtype != dtypes.float32:
        y_pred = M.cast(y_pred, dtypes.float32)
    return _float(nn_ops.in_top_k(M.cast(labels, dtypes.int32), y_pred, k))


def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Whether the one-hot label's class is among the ``k`` highest predictions."""
    return _in_top_k(M.argmax(convert_to_tensor(y_true), axis=-1), y_pred, k)


def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5):
    """Whether the integer label is among the ``k`` highest predictions."""
    y_true, y_pred = convert_to_tensor(y_true), convert_to_tensor(y_pred)
    if y_true.shape.rank is not None and y_true.shape.rank == y_pred.shape.rank:
        y_true = array_ops.squeeze(y_true, axis=[-1])
    return _in_top_k(y_true, y_pred, k)


class TopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="top_k_categorical_accuracy", dtype=None):
        super().__init__(top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


class SparseTopKCategoricalAccuracy(MeanMetricWrapper):
    def __init__(self, k=5, name="sparse_top_k_categorical_accuracy", dtype=None):
        super().__init__(sparse_top_k_categorical_accuracy, name=name, dtype=dtype, k=k)


# -- the losses as running means ----------------------------------------------------------

def _mean_of(class_name, fn, default_name, **defaults):
    """A MeanMetricWrapper class averaging ``fn`` (its keyword arguments: ``defaults``)."""
    def __init__(self, name=default_name, dtype=None, **kwargs):
        unknown = set(kwargs) - set(defaults)
        if unknown:
            raise TypeError(f"{class_name}.__init__() got an unexpected keyword argument "
                            f"'{sorted(unknown)[0]}'")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **{**defaults, **kwargs})
    return type(class_name, (MeanMetricWrapper,), {
        "__init__": __init__, "__module__": __name__,
        "__doc__": f"The mean of ``{fn.__name__}`` over every sample seen."})


MeanSquaredError = _mean_of("MeanSquaredError", losses.mean_squared_error, "mean_squared_error")
MeanAbsoluteError = _mean_of("MeanAbsoluteError", losses.mean_absolute_error,
                             "mean_absolute_error")
MeanSquaredLogarithmicError = _mean_of("MeanSquaredLogarithmicError",
                                       losses.mean_squared_logarithmic_error,
                                       "mean_squared_logarithmic_error")
MeanAbsolutePercentageError = _mean_of("MeanAbsolutePercentageError",
                                       losses.mean_absolute_percentage_error,
                                       "mean_absolute_percentage_error")
BinaryCrossentropy = _mean_of("BinaryCrossentropy", losses.binary_crossentropy,
                              "binary_crossentropy", from_logits=False, label_smoothing=0.0)
CategoricalCrossentropy = _mean_of("CategoricalCrossentropy", losses.categorical_crossentropy,
                                   "categorical_crossentropy", from_logits=False,
                                   label_smoothing=0.0, axis=-1)
SparseCategoricalCrossentropy = _mean_of(
    "SparseCategoricalCrossentropy", losses.sparse_categorical_crossentropy,
    "sparse_categorical_crossentropy", from_logits=False, axis=-1)
Hinge = _mean_of("Hinge", losses.hinge, "hinge")
SquaredHinge = _mean_of("SquaredHinge", losses.squared_hinge, "squared_hinge")
CategoricalHinge = _mean_of("CategoricalHinge", losses.categorical_hinge, "categorical_hinge")
KLDivergence = _mean_of("KLDivergence", losses.kl_divergence, "kl_divergence")
LogCoshError = _mean_of("LogCoshError", losses.log_cosh, "logcosh")
Poisson = _mean_of("Poisson", losses.poisson, "poisson")


def cosine_similarity(y_true, y_pred, axis=-1):
    """The cosine of the angle between the two (the loss is its negation)."""
    return M.negative(losses.cosine_similarity(y_true, y_pred, axis=axis))


CosineSimilarity = _mean_of("CosineSimilarity", cosine_similarity, "cosine_similarity",
                            axis=-1)


class RootMeanSquaredError(Mean):
    """The root of the (weighted) mean squared error over every value seen."""

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name=name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = losses._pair(y_true, y_pred)
        super().update_state(M.square(M.subtract(y_pred, y_true)), sample_weight=sample_weight)

    def result(self):
        return M.sqrt(super().result())


class Sum(Metric):
    """The (weighted) sum of every value given to ``update_state``."""

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(name="total")

    def update_state(self, values, sample_weight=None):
        values = convert_to_tensor(values)
        values = values if values.dtype == self.dtype else M.cast(values, self.dtype)
        if sample_weight is not None:
            values = M.multiply(values, M.cast(sample_weight, self.dtype))
        self.total.assign_add(M.reduce_sum(values))

    def result(self):
        return array_ops.identity(self.total)


mse = MSE = losses.mean_squared_error
mae = MAE = losses.mean_absolute_error
msle = MSLE = losses.mean_squared_logarithmic_error
mape = MAPE = losses.mean_absolute_percentage_error
kld = KLD = kullback_leibler_divergence = losses.kl_divergence
logcosh = losses.log_cosh

from runtime.keras.confusion_metrics import (AUC, FalseNegatives, FalsePositives,  # noqa: E402,F401
                                             Precision, PrecisionAtRecall, Recall,
                                             RecallAtPrecision, SensitivityAtSpecificity,
                                             SpecificityAtSensitivity, TrueNegatives,
                                             TruePositives)
from runtime.keras.score_metrics import F1Score, FBetaScore, R2Score  # noqa: E402,F401
from runtime.keras.iou_metrics import (BinaryIoU, IoU, MeanIoU, OneHotIoU,  # noqa: E402,F401
                                        OneHotMeanIoU)
