"""TensorFlow 2's top-level initializers (``tf.constant_initializer``, ``tf.ones_initializer``,
``tf.random_normal_initializer``...): callables ``init(shape, dtype)`` returning a tensor.

Unlike Keras's, an unseeded random initializer draws new values on every call (it is
``tf.random.normal`` / ``tf.random.uniform`` with the initializer's seed), and every
initializer works in a graph as well.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops as A
from runtime.ops import random_ops
from runtime.ops.core import constant

__all__ = ["constant_initializer", "ones_initializer", "random_normal_initializer",
           "random_uniform_initializer", "zeros_initializer"]


class _Initializer:
    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


def _numeric_or_bool(dtype):
    dtype = as_dtype(dtype)
    if not (dtype.is_numeric or dtype.is_bool) or dtype.is_string:
        raise ValueError(f"Argument `dtype` expected to be numeric or boolean. Received "
                         f"{dtype!r}.")
    return dtype


class zeros_initializer(_Initializer):  # noqa: N801  (TensorFlow's name)
    """``tf.zeros_initializer``: a tensor of zeros."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return A.zeros(shape, _numeric_or_bool(dtype))


class ones_initializer(_Initializer):  # noqa: N801
    """``tf.ones_initializer``: a tensor of ones."""

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return A.ones(shape, _numeric_or_bool(dtype))


class constant_initializer(_Initializer):  # noqa: N801
    """``tf.constant_initializer(value)``: ``value`` (a scalar filled in, or a list with
    as many elements as the shape) as a tensor of the requested shape and dtype."""

    def __init__(self, value=0, support_partition: bool = False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray))):
            raise TypeError(f"Invalid type for initial value={value} of type: "
                            f"{type(value).__name__}. Expected Python scalar, list or tuple "
                            "of values, or numpy.ndarray.")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        dtype = None if dtype is None else as_dtype(dtype)
        dims = tuple(int(d) for d in shape)
        arr = np.asarray(self.value)
        if arr.size != 1 and arr.size != int(np.prod(dims, dtype=np.int64)):
            raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor "
                            f"{arr} (converted from {self.value}) has {arr.size} elements, "
                            f"but got `shape` {dims} with {int(np.prod(dims))} elements).")
        return constant(self.value, dtype=dtype, shape=dims)

    def get_config(self) -> dict:
        return {"value": self.value}


def _floating(dtype):
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"Argument `dtype` is expected to be floating point. Received: "
                         f"{dtype!r}.")
    return dtype


class random_normal_initializer(_Initializer):  # noqa: N801
    """``tf.random_normal_initializer(mean=0.0, stddev=0.05, seed=None)``."""

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return random_ops.normal(shape, self.mean, self.stddev, _floating(dtype), seed=self.seed)

    def get_config(self) -> dict:
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class random_uniform_initializer(_Initializer):  # noqa: N801
    """``tf.random_uniform_initializer(minval=-0.05, maxval=0.05, seed=None)``: floats or
    integers (integer bounds then) uniformly in [minval, maxval)."""

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        dtype = as_dtype(dtype)
        if not (dtype.is_floating or dtype.is_integer):
            raise ValueError(f"Argument `dtype` is expected to be floating point or integer. "
                             f"Received: {dtype!r}.")
        return random_ops.uniform(shape, self.minval, self.maxval, dtype, seed=self.seed)

    def get_config(self) -> dict:
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
