"""Keras 3's intersection-over-union metrics: ``IoU``, ``MeanIoU``, ``BinaryIoU``,
``OneHotIoU`` and ``OneHotMeanIoU``.

The state is a ``num_classes × num_classes`` confusion matrix (rows: true class, columns:
predicted) in the metric's dtype — int64 unless given, as in Keras, so labels, predictions
and weights are truncated to integers. Pairs with a class outside ``[0, num_classes)`` (or
the ``ignore_class`` label) count for nothing. The result is the mean IoU of the target
classes that occur, as a float32.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.keras.backend import epsilon
from runtime.keras.metrics import Metric
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor


def _as(x, dtype):
    x = convert_to_tensor(x)
    return x if x.dtype == dtype else M.cast(x, dtype)


class _IoUBase(Metric):
    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype or dtypes.int64)
        self.num_classes, self.ignore_class = num_classes, ignore_class
        self.sparse_y_true, self.sparse_y_pred, self.axis = sparse_y_true, sparse_y_pred, axis
        self.total_cm = self.add_variable(name="total_confusion_matrix",
                                          shape=(num_classes, num_classes))

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Adds the (weighted) counts of each (true, predicted) class pair."""
        if not self.sparse_y_true:
            y_true = M.argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = M.argmax(y_pred, axis=self.axis)
        y_true = A.reshape(_as(y_true, self.dtype), [-1])
        y_pred = A.reshape(_as(y_pred, self.dtype), [-1])
        weight = _as(1 if sample_weight is None else sample_weight, self.dtype)
        if weight.shape.rank and weight.shape.rank > 1:
            weight = A.reshape(weight, [-1])
        weight = A.broadcast_to(weight, A.shape(y_true))
        n = _as(self.num_classes, self.dtype)
        valid = M.logical_and(
            M.logical_and(M.greater_equal(y_true, _as(0, self.dtype)), M.less(y_true, n)),
            M.logical_and(M.greater_equal(y_pred, _as(0, self.dtype)), M.less(y_pred, n)))
        if self.ignore_class is not None:
            valid = M.logical_and(valid, M.not_equal(y_true, _as(self.ignore_class,
                                                                  self.dtype)))
        zero = A.zeros_like(y_true)
        pairs = A.stack([M.cast(M.where(valid, y_true, zero), dtypes.int64),
                         M.cast(M.where(valid, y_pred, zero), dtypes.int64)], axis=1)
        counts = A.scatter_nd(pairs, M.where(valid, weight, A.zeros_like(weight)),
                              np.array([self.num_classes] * 2, np.int64))
        return self.total_cm.assign_add(counts)

    def reset_state(self):
        self.total_cm.assign(np.zeros(self.total_cm.shape.as_list(),
                                      self.total_cm.dtype.numpy_dtype))


class IoU(_IoUBase):
    """The mean intersection-over-union of the classes in ``target_class_ids``."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, which "
                             f"is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        cm = self.total_cm
        true_positives = A.gather(_diagonal(cm), self.target_class_ids)
        union = M.subtract(M.add(M.reduce_sum(cm, axis=0), M.reduce_sum(cm, axis=1)),
                           _diagonal(cm))
        union = M.cast(A.gather(union, self.target_class_ids), dtypes.float32)
        true_positives = M.cast(true_positives, dtypes.float32)
        valid = M.greater(union, 1e-9)
        iou = M.where(valid, M.divide(true_positives, M.add(union, epsilon())), 0.0)
        count = M.reduce_sum(M.cast(valid, dtypes.float32))
        return M.divide(M.reduce_sum(iou, axis=self.axis), M.add(count, epsilon()))

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


def _diagonal(matrix):
    n = matrix.shape.as_list()[0]
    return A.gather_nd(matrix, np.stack([np.arange(n), np.arange(n)], axis=1))


class BinaryIoU(IoU):
    """IoU of 0/1 labels against predictions thresholded at ``threshold`` (``>=`` is 1)."""

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(num_classes=2, target_class_ids=target_class_ids, name=name,
                         dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = M.cast(M.greater_equal(_as(y_pred, dtypes.float32), self.threshold),
                        self.dtype)
        return super().update_state(_as(y_true, self.dtype), y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype.name}


class MeanIoU(IoU):
    """The mean IoU over all ``num_classes`` classes."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_true": self.sparse_y_true,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotIoU(IoU):
    """``IoU`` of one-hot labels and class scores (both reduced by ``argmax``)."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "target_class_ids": self.target_class_ids,
                "name": self.name, "dtype": self.dtype.name, "ignore_class": self.ignore_class,
                "sparse_y_pred": self.sparse_y_pred, "axis": self.axis}


class OneHotMeanIoU(MeanIoU):
    """``MeanIoU`` of one-hot labels and class scores (both reduced by ``argmax``)."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        return {"num_classes": self.num_classes, "name": self.name, "dtype": self.dtype.name,
                "ignore_class": self.ignore_class, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}
