"""``tf.keras.regularizers``: weight penalties a layer adds to its ``losses`` (Keras 3's)."""
from __future__ import annotations

import inspect
import math

import numpy as np

from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor


def _factor(value, name: str) -> float:
    if (not isinstance(value, (float, int)) or math.isinf(value) or math.isnan(value)
            or value < 0):
        raise ValueError(f"Invalid value for argument {name}: expected a non-negative float."
                         f"Received: {name}={value}")
    return float(value)


class Regularizer:
    """Base class: ``regularizer(weights)`` is a scalar penalty."""

    def __call__(self, x):
        return convert_to_tensor(0.0, dtype=x.dtype)

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


class L1(Regularizer):
    """``l1 * reduce_sum(abs(x))``."""

    def __init__(self, l1=0.01):
        # Keras 3 keeps this factor (only this one) as a float32 tensor: 0.1 reads 0.100000001.
        self.l1 = float(np.float32(_factor(0.01 if l1 is None else l1, "l1")))

    def __call__(self, x):
        return M.cast(self.l1, x.dtype) * M.reduce_sum(M.abs(x))

    def get_config(self):
        return {"l1": self.l1}


class L2(Regularizer):
    """``l2 * reduce_sum(square(x))``."""

    def __init__(self, l2=0.01):
        self.l2 = _factor(0.01 if l2 is None else l2, "l2")

    def __call__(self, x):
        return M.cast(self.l2, x.dtype) * M.reduce_sum(M.square(x))

    def get_config(self):
        return {"l2": self.l2}


class L1L2(Regularizer):
    """``l1 * reduce_sum(abs(x)) + l2 * reduce_sum(square(x))`` (both factors default to 0)."""

    def __init__(self, l1=0.0, l2=0.0):
        self.l1 = _factor(0.0 if l1 is None else l1, "l1")
        self.l2 = _factor(0.0 if l2 is None else l2, "l2")

    def __call__(self, x):
        out = convert_to_tensor(0.0, dtype=x.dtype)
        if self.l1 != 0.0:
            out = out + M.cast(self.l1, x.dtype) * M.reduce_sum(M.abs(x))
        if self.l2 != 0.0:
            out = out + M.cast(self.l2, x.dtype) * M.reduce_sum(M.square(x))
        return out

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


l1, l2, l1_l2 = L1, L2, L1L2

_BY_NAME = {"Regularizer": Regularizer, "L1": L1, "L2": L2, "L1L2": L1L2,
            "regularizer": Regularizer, "l1": L1, "l2": L2, "l1l2": L1L2}


def get(identifier):
    """A regularizer from None, a name (``"l2"``: default factor), a config dict or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls = _BY_NAME.get(identifier.get("class_name"))
        obj = None if cls is None else cls.from_config(identifier.get("config", {}))
    elif isinstance(identifier, str):
        obj = _BY_NAME.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


def serialize(regularizer) -> dict | None:
    """The config dict of a regularizer, as ``get_config`` of a layer shows it."""
    if regularizer is None:
        return None
    return {"module": "keras.regularizers", "class_name": type(regularizer).__name__,
            "config": regularizer.get_config(), "registered_name": None}
