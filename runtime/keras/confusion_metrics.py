"""Keras's confusion-matrix metrics: counts of true/false positives/negatives at thresholds,
and Precision, Recall, AUC and the rate-at-rate metrics (SensitivityAtSpecificity...)
computed from them.

Predictions and labels are flattened; a prediction counts as positive when it is strictly
above a threshold. Counts live in float Variables of one value per threshold, updated with
tensor ops, so the metrics work eagerly and inside a tf.function. As in Keras 3, a metric
with one threshold reports a scalar.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.keras.metrics import Metric
from runtime.ops import array_ops, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import divide_no_nan

_KINDS = ("tp", "fp", "tn", "fn")
_VARIABLE_NAMES = {"tp": "true_positives", "fp": "false_positives", "tn": "true_negatives",
                   "fn": "false_negatives"}  # (Keras's; a lone count is its "accumulator")
_EPSILON = 1e-7
_NEG_INF = -1e10  # with top_k, the default threshold: every kept prediction is positive


def _thresholds(thresholds, default):
    values = [default] if thresholds is None else (
        list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds])
    for t in values:
        if not 0.0 <= t <= 1.0:
            raise ValueError(f"Threshold values must be in [0, 1]. Received: {values}")
    return values


def _default_thresholds(thresholds, top_k):
    return [_NEG_INF] if thresholds is None and top_k is not None else \
        _thresholds(thresholds, 0.5)


def _filter_top_k(y_pred, k):
    """Keeps the ``k`` largest predictions of each row; the others become -inf (negative)."""
    _, indices = nn_ops.top_k(y_pred, k)
    depth = array_ops.shape(y_pred)[-1]
    keep = M.reduce_sum(array_ops.one_hot(indices, depth, dtype=y_pred.dtype), axis=-2)
    return M.where(M.greater(keep, 0.0), y_pred, M.cast(-np.inf, y_pred.dtype))


class _ConfusionCounts(Metric):
    """Accumulates the counts named in ``kinds`` at each of ``thresholds``."""

    def __init__(self, kinds, thresholds, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.thresholds = list(thresholds)
        self.top_k, self.class_id = top_k, class_id
        self._counts = {kind: self.add_variable(
            shape=(len(self.thresholds),),
            name="accumulator" if len(kinds) == 1 else _VARIABLE_NAMES[kind]) for kind in kinds}

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = M.cast(convert_to_tensor(y_pred), self.dtype)
        y_true = M.cast(convert_to_tensor(y_true), dtypes.bool_)
        if self.top_k is not None:
            y_pred = _filter_top_k(y_pred, self.top_k)
        if self.class_id is not None:
            y_true, y_pred = y_true[..., self.class_id], y_pred[..., self.class_id]
        weights = array_ops.ones_like(y_pred)
        if sample_weight is not None:  # per-sample weights cover the trailing axes
            sample_weight = M.cast(convert_to_tensor(sample_weight), self.dtype)
            for _ in range((y_pred.shape.rank or 0) - (sample_weight.shape.rank or 0)):
                sample_weight = array_ops.expand_dims(sample_weight, -1)
            weights = M.multiply(weights, sample_weight)
        y_pred, y_true = array_ops.reshape(y_pred, [1, -1]), array_ops.reshape(y_true, [1, -1])
        weights = array_ops.reshape(weights, [1, -1])
        thresholds = array_ops.reshape(convert_to_tensor(
            np.asarray(self.thresholds, self.dtype.numpy_dtype)), [-1, 1])
        predicted = M.greater(y_pred, thresholds)  # [thresholds, values]
        cases = {"tp": (y_true, predicted), "fp": (M.logical_not(y_true), predicted),
                 "tn": (M.logical_not(y_true), M.logical_not(predicted)),
                 "fn": (y_true, M.logical_not(predicted))}
        for kind, variable in self._counts.items():
            hit = M.cast(M.logical_and(*cases[kind]), self.dtype)
            variable.assign_add(M.reduce_sum(M.multiply(hit, weights), axis=1))

    def _scalar_if_single(self, value):
        return value[0] if len(self.thresholds) == 1 else value

    def get_config(self):
        return {**super().get_config(), "thresholds": self.thresholds}


def _count_class(class_name, kind):
    def __init__(self, thresholds=None, name=None, dtype=None):
        _ConfusionCounts.__init__(self, (kind,), _thresholds(thresholds, 0.5), name=name,
                                  dtype=dtype)

    def result(self):
        return self._scalar_if_single(array_ops.identity(self._counts[kind]))
    return type(class_name, (_ConfusionCounts,), {
        "__init__": __init__, "result": result, "__module__": __name__,
        "__doc__": f"The weighted number of {class_name[:-1].lower()} at each threshold."})


TruePositives = _count_class("TruePositives", "tp")
FalsePositives = _count_class("FalsePositives", "fp")
TrueNegatives = _count_class("TrueNegatives", "tn")
FalseNegatives = _count_class("FalseNegatives", "fn")


class Precision(_ConfusionCounts):
    """``tp / (tp + fp)``: how many predicted positives are positive."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(("tp", "fp"), _default_thresholds(thresholds, top_k), top_k, class_id,
                         name, dtype)

    def result(self):
        tp, fp = self._counts["tp"], self._counts["fp"]
        return self._scalar_if_single(divide_no_nan(tp, M.add(tp, fp)))


class Recall(_ConfusionCounts):
    """``tp / (tp + fn)``: how many positives are predicted positive."""

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(("tp", "fn"), _default_thresholds(thresholds, top_k), top_k, class_id,
                         name, dtype)

    def result(self):
        tp, fn = self._counts["tp"], self._counts["fn"]
        return self._scalar_if_single(divide_no_nan(tp, M.add(tp, fn)))


class AUC(_ConfusionCounts):
    """The area under the ROC or precision-recall curve, a Riemann sum over thresholds."""

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        if multi_label or label_weights is not None:
            raise NotImplementedError("AUC(multi_label=True / label_weights) is not supported")
        curve, summation_method = curve.upper(), summation_method.lower()
        if curve not in ("ROC", "PR"):
            raise ValueError(f'Invalid curve: "{curve}". Valid options are: "ROC", "PR"')
        if summation_method not in ("interpolation", "minoring", "majoring"):
            raise ValueError(f'Invalid summation method: "{summation_method}". Valid options '
                             f'are: "interpolation", "majoring", "minoring"')
        if thresholds is not None:
            inner = sorted(_thresholds(thresholds, 0.5))
            num_thresholds = len(inner) + 2
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            inner = [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)]
        super().__init__(_KINDS, [0.0 - _EPSILON] + inner + [1.0 + _EPSILON], name=name,
                         dtype=dtype)
        self.num_thresholds, self.curve = num_thresholds, curve
        self.summation_method, self.from_logits = summation_method, from_logits

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self.from_logits:
            y_pred = M.sigmoid(convert_to_tensor(y_pred))
        super().update_state(y_true, y_pred, sample_weight)

    def _interpolated_pr_auc(self):
        """Davis & Goadrich's interpolation of precision between thresholds (Keras's)."""
        tp, fp, fn = self._counts["tp"], self._counts["fp"], self._counts["fn"]
        n = self.num_thresholds
        d_tp = M.subtract(tp[:n - 1], tp[1:])
        p = M.add(tp, fp)
        d_p = M.subtract(p[:n - 1], p[1:])
        slope = divide_no_nan(d_tp, M.maximum(d_p, 0.0))
        intercept = M.subtract(tp[1:], M.multiply(slope, p[1:]))
        ratio = M.where(M.logical_and(M.greater(p[:n - 1], 0.0), M.greater(p[1:], 0.0)),
                        divide_no_nan(p[:n - 1], M.maximum(p[1:], 0.0)),
                        array_ops.ones_like(p[1:]))
        increments = divide_no_nan(
            M.multiply(slope, M.add(d_tp, M.multiply(intercept, M.log(ratio)))),
            M.maximum(M.add(tp[1:], fn[1:]), 0.0))
        return M.reduce_sum(increments)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self._interpolated_pr_auc()
        tp, fp, tn, fn = (self._counts[k] for k in _KINDS)
        recall = divide_no_nan(tp, M.add(tp, fn))
        if self.curve == "ROC":
            x, y = divide_no_nan(fp, M.add(fp, tn)), recall
        else:
            x, y = recall, divide_no_nan(tp, M.add(tp, fp))
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = M.multiply(M.add(y[:n - 1], y[1:]), 0.5)
        elif self.summation_method == "minoring":
            heights = M.minimum(y[:n - 1], y[1:])
        else:
            heights = M.maximum(y[:n - 1], y[1:])
        return M.reduce_sum(M.multiply(M.subtract(x[:n - 1], x[1:]), heights))

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype.name,
                "num_thresholds": self.num_thresholds, "curve": self.curve,
                "summation_method": self.summation_method, "multi_label": False,
                "from_logits": self.from_logits, "thresholds": self.thresholds[1:-1]}


class _RateAtRate(_ConfusionCounts):
    """Keras's SensitivitySpecificityBase: over ``num_thresholds`` thresholds spread evenly on
    [0, 1], the best ``dependent`` rate among the thresholds whose ``constrained`` rate is at
    least ``value`` (0 when there is none)."""

    constrained = dependent = None  # (names of the rates, in _rates)
    value_name = None  # (the argument giving ``value``)

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        thresholds = [0.5] if num_thresholds == 1 else \
            [0.0] + [(i + 1) / (num_thresholds - 1) for i in range(num_thresholds - 2)] + [1.0]
        super().__init__(_KINDS, thresholds, class_id=class_id, name=name, dtype=dtype)
        self.value, self.num_thresholds = value, num_thresholds

    def _rates(self):
        tp, fp, tn, fn = (self._counts[k] for k in _KINDS)
        return {"sensitivity": divide_no_nan(tp, M.add(tp, fn)),  # (= recall)
                "specificity": divide_no_nan(tn, M.add(tn, fp)),
                "precision": divide_no_nan(tp, M.add(tp, fp))}

    def result(self):
        rates = self._rates()
        feasible = M.greater_equal(rates[self.constrained], self.value)
        dependent = rates[self.dependent]
        return M.reduce_max(M.where(feasible, dependent, array_ops.zeros_like(dependent)))

    def get_config(self):
        config = {k: v for k, v in super().get_config().items() if k != "thresholds"}
        return {**config, self.value_name: self.value, "num_thresholds": self.num_thresholds,
                "class_id": self.class_id}


def _checked_rate(name: str, value):
    if value < 0 or value > 1:
        raise ValueError(f"Argument `{name}` must be in the range [0, 1]. "
                         f"Received: {name}={value}")
    return value


class SensitivityAtSpecificity(_RateAtRate):
    """The best sensitivity (recall) at a threshold whose specificity is at least
    ``specificity``."""
    dependent, constrained, value_name = "sensitivity", "specificity", "specificity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(_checked_rate("specificity", specificity), num_thresholds, class_id,
                         name, dtype)
        self.specificity = specificity


class SpecificityAtSensitivity(_RateAtRate):
    """The best specificity at a threshold whose sensitivity is at least ``sensitivity``."""
    dependent, constrained, value_name = "specificity", "sensitivity", "sensitivity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(_checked_rate("sensitivity", sensitivity), num_thresholds, class_id,
                         name, dtype)
        self.sensitivity = sensitivity


class PrecisionAtRecall(_RateAtRate):
    """The best precision at a threshold whose recall is at least ``recall``."""
    dependent, constrained, value_name = "precision", "sensitivity", "recall"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(_checked_rate("recall", recall), num_thresholds, class_id, name, dtype)
        self.recall = recall


class RecallAtPrecision(_RateAtRate):
    """The best recall at a threshold whose precision is at least ``precision``."""
    dependent, constrained, value_name = "sensitivity", "precision", "precision"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(_checked_rate("precision", precision), num_thresholds, class_id, name,
                         dtype)
        self.precision = precision
