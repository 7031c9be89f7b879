"""``tf.keras.constraints``: projections an optimizer applies to a weight after each update.

A layer's ``kernel_constraint=``/``bias_constraint=`` (or ``add_weight(constraint=)``) puts
the constraint on the variable; the optimizer then assigns ``constraint(variable)`` to
every variable it updated that has one, after the update, as Keras 3's optimizers do.
The formulas are Keras 3's (epsilon 1e-7).
"""
from __future__ import annotations

from runtime.ops import math_ops as M

EPSILON = 1e-7


def _norms(w, axis):
    return M.sqrt(M.reduce_sum(M.square(w), axis=axis, keepdims=True))


class Constraint:
    """Base class: ``__call__(w)`` returns the projected weight."""

    def __call__(self, w):
        return w

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class MaxNorm(Constraint):
    """Scales each slice along ``axis`` down to norm at most ``max_value``."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        desired = M.minimum(M.maximum(norms, 0.0), float(self.max_value))
        return M.multiply(w, M.divide(desired, M.add(norms, EPSILON)))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


class MinMaxNorm(Constraint):
    """Moves each slice's norm into [min_value, max_value], by ``rate`` of the way."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        norms = _norms(w, self.axis)
        clipped = M.minimum(M.maximum(norms, float(self.min_value)), float(self.max_value))
        desired = M.add(M.multiply(float(self.rate), clipped),
                        M.multiply(1.0 - float(self.rate), norms))
        return M.multiply(w, M.divide(desired, M.add(norms, EPSILON)))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


class NonNeg(Constraint):
    """Zeroes the negative entries."""

    def __call__(self, w):
        return M.maximum(w, 0.0)


class UnitNorm(Constraint):
    """Scales each slice along ``axis`` to norm 1."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        return M.divide(w, M.add(_norms(w, self.axis), EPSILON))

    def get_config(self):
        return {"axis": self.axis}


max_norm, min_max_norm, non_neg, unit_norm = MaxNorm, MinMaxNorm, NonNeg, UnitNorm
_BY_NAME = {"max_norm": MaxNorm, "min_max_norm": MinMaxNorm, "non_neg": NonNeg,
            "unit_norm": UnitNorm, "MaxNorm": MaxNorm, "MinMaxNorm": MinMaxNorm,
            "NonNeg": NonNeg, "UnitNorm": UnitNorm}


def serialize(constraint) -> dict | None:
    if constraint is None:
        return None
    return {"module": "keras.constraints", "class_name": type(constraint).__name__,
            "config": constraint.get_config(), "registered_name": None}


def deserialize(config):
    cls = _BY_NAME.get(config["class_name"])
    if cls is None:
        raise ValueError(f"Unknown constraint: {config['class_name']!r}")
    return cls.from_config(config.get("config", {}))


def get(identifier):
    """A constraint from None, a name, a config dict or a callable."""
    if identifier is None or callable(identifier):
        return identifier
    if isinstance(identifier, str):
        if identifier not in _BY_NAME:
            raise ValueError(f"Could not interpret constraint identifier: {identifier}")
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict):
        return deserialize(identifier)
    raise ValueError(f"Could not interpret constraint identifier: {identifier!r}")
