"""Keras's per-class scores: FBetaScore / F1Score and R2Score.

Their state has one value per class (or output), so it is made at the first update, when
the number of classes is known (inside a tf.function that is the first trace, which may
create Variables). Formulas and epsilons are Keras 3's.
"""
from __future__ import annotations

from runtime.keras.metrics import Metric
from runtime.ops import array_ops as A, math_ops as M
from runtime.ops.core import convert_to_tensor

_EPSILON = 1e-7


def _as(x, dtype):
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else M.cast(x, dtype)


class FBetaScore(Metric):
    """The F-beta score per class, or averaged: ``average`` None, "micro", "macro" or
    "weighted". Predictions are the row's maxima (``threshold`` None) or those above
    ``threshold``."""

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if average not in (None, "micro", "macro", "weighted"):
            raise ValueError(f"Invalid `average` argument value. Expected one of: {{None, "
                             f"'micro', 'macro', 'weighted'}}. Received: average={average}")
        if not isinstance(beta, float) or beta <= 0.0:
            raise ValueError(f"Invalid `beta` argument value. It should be a Python float > 0. "
                             f"Received: beta={beta}")
        if threshold is not None and (not isinstance(threshold, float)
                                      or not 0.0 < threshold <= 1.0):
            raise ValueError(f"Invalid `threshold` argument value. It should be a Python float "
                             f"in the range ]0, 1]. Received: threshold={threshold}")
        self.average, self.beta, self.threshold = average, beta, threshold
        self._axis = None if average == "micro" else 0
        self._counts = None

    def _build(self, classes):
        shape = () if self.average == "micro" else (classes,)
        self._counts = {k: self.add_variable(shape=shape, name=k) for k in
                        ("true_positives", "false_positives", "false_negatives",
                         "intermediate_weights")}

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _as(y_true, self.dtype), _as(y_pred, self.dtype)
        if self._counts is None:
            self._build(y_pred.shape[-1])
        if self.threshold is None:  # the row's maximum (an all-zero row predicts nothing)
            top = M.reduce_max(y_pred, axis=-1, keepdims=True)
            predicted = M.logical_and(M.greater_equal(y_pred, top),
                                      M.greater(M.abs(y_pred), 1e-9))
        else:
            predicted = M.greater(y_pred, self.threshold)
        predicted = M.cast(predicted, self.dtype)
        weights = None if sample_weight is None else \
            A.expand_dims(_as(sample_weight, self.dtype), 1)

        def total(values):
            values = values if weights is None else M.multiply(values, weights)
            return M.reduce_sum(values, axis=self._axis)
        missed = M.subtract(1.0, predicted)
        for name, values in (("true_positives", M.multiply(predicted, y_true)),
                             ("false_positives", M.multiply(predicted, M.subtract(1.0, y_true))),
                             ("false_negatives", M.multiply(missed, y_true)),
                             ("intermediate_weights", y_true)):
            self._counts[name].assign_add(total(values))

    def result(self):
        if self._counts is None:
            return convert_to_tensor(0.0, dtype=self.dtype)
        tp, fp, fn, support = (self._counts[k] for k in (
            "true_positives", "false_positives", "false_negatives", "intermediate_weights"))
        precision = M.divide(tp, M.add(M.add(tp, fp), _EPSILON))
        recall = M.divide(tp, M.add(M.add(tp, fn), _EPSILON))
        beta2 = self.beta ** 2
        score = M.multiply(M.divide(M.multiply(precision, recall),
                                    M.add(M.add(M.multiply(beta2, precision), recall),
                                          _EPSILON)), 1.0 + beta2)
        if self.average == "weighted":
            weights = M.divide(support, M.add(M.reduce_sum(support), _EPSILON))
            return M.reduce_sum(M.multiply(score, weights))
        if self.average is not None:
            return M.reduce_mean(score)
        return score

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


class F1Score(FBetaScore):
    """The F-beta score with beta = 1."""

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name,
                         dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config


class R2Score(Metric):
    """The coefficient of determination of ``[batch, outputs]`` predictions, per output or
    averaged ("uniform_average", "variance_weighted_average"); ``num_regressors`` adjusts
    it for the number of regressors."""

    def __init__(self, class_aggregation="uniform_average", num_regressors=0,
                 name="r2_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        if class_aggregation not in (None, "uniform_average", "variance_weighted_average"):
            raise ValueError(f"Invalid value for argument `class_aggregation`. Expected one of "
                             f"{{None, 'uniform_average', 'variance_weighted_average'}}. "
                             f"Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError(f"Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation, self.num_regressors = class_aggregation, num_regressors
        self._sums = None
        self.num_samples = self.add_variable(name="num_samples")

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true, y_pred = _as(y_true, self.dtype), _as(y_pred, self.dtype)
        if y_true.shape.rank == 1 and y_pred.shape.rank == 1:
            y_true, y_pred = A.expand_dims(y_true, 1), A.expand_dims(y_pred, 1)
        if y_true.shape.rank != 2 or y_pred.shape.rank != 2:
            raise ValueError(f"R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received input shapes: y_pred.shape={y_pred.shape} and "
                             f"y_true.shape={y_true.shape}.")
        if self._sums is None:
            self._sums = {k: self.add_variable(shape=(y_pred.shape[-1],), name=k)
                          for k in ("squared_sum", "sum", "total_mse", "count")}
        weight = convert_to_tensor(1.0, dtype=self.dtype) if sample_weight is None else \
            _as(sample_weight, self.dtype)
        if weight.shape.rank == 1:
            weight = A.expand_dims(weight, 1)
        weight = A.broadcast_to(weight, A.shape(y_true))
        weighted = M.multiply(y_true, weight)
        for name, values in (("sum", weighted), ("squared_sum", M.multiply(y_true, weighted)),
                             ("total_mse", M.multiply(M.square(M.subtract(y_true, y_pred)),
                                                      weight)),
                             ("count", weight)):
            self._sums[name].assign_add(M.reduce_sum(values, axis=0))
        self.num_samples.assign_add(M.cast(A.size(y_true), self.dtype))

    def result(self):
        if self._sums is None:
            return convert_to_tensor(0.0, dtype=self.dtype)
        s = self._sums
        mean = M.divide(s["sum"], s["count"])
        total = M.subtract(s["squared_sum"], M.multiply(s["sum"], mean))
        raw = M.subtract(1.0, M.divide(s["total_mse"], total))
        raw = M.where(M.equal(M.abs(raw), float("inf")), A.zeros_like(raw), raw)
        if self.class_aggregation == "uniform_average":
            score = M.reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = M.divide(M.reduce_sum(M.multiply(total, raw)), M.reduce_sum(total))
        else:
            score = raw
        if not self.num_regressors:
            return score
        n, p = self.num_samples, float(self.num_regressors)
        adjusted = M.subtract(1.0, M.divide(M.multiply(M.subtract(1.0, score),
                                                       M.subtract(n, 1.0)),
                                            M.subtract(M.subtract(n, p), 1.0)))
        return M.where(M.less(p, M.subtract(n, 1.0)), adjusted, score)  # Keras warns otherwise

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
