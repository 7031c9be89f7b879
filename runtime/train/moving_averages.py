"""``tf.train.ExponentialMovingAverage``: shadow Variables tracking ``decay``-weighted
averages of Variables, updated by ``apply`` as TensorFlow's ``assign_moving_average``:
``avg -= (avg - var) * (1 - decay)``, with ``decay`` a float32 tensor (capped by
``(1 + n) / (10 + n)`` when ``num_updates`` is given) cast to the variable's dtype."""
from __future__ import annotations

from graph import dtypes
from runtime import context
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.variables import Variable

_FLOATS = ("float16", "bfloat16", "float32", "float64")


def _shared_name(var) -> str:
    return str(var.name).rsplit(":", 1)[0]


class ExponentialMovingAverage:
    """Moving averages of Variables; ``average(var)`` is the shadow Variable."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay, self._num_updates = decay, num_updates
        self._zero_debias, self._name = zero_debias, name
        self._averages: dict = {}  # id(var) -> (var, shadow)

    name = property(lambda self: self._name)

    def apply(self, var_list=None):
        """Creates missing shadows (starting at each variable's value), then updates them all.
        Returns None (TensorFlow's grouped update op is None eagerly)."""
        var_list = list(var_list or [])
        for var in var_list:
            if not isinstance(var, Variable):
                raise TypeError("tf.train.ExponentialMovingAverage does not support "
                                "non-Variable tensors when eager execution is enabled.")
            if var.dtype.name not in _FLOATS:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if id(var) not in self._averages:
                with context.init_scope():
                    shadow = Variable(var.read_value(), trainable=False,
                                      name=self.average_name(var))
                self._averages[id(var)] = (var, shadow)
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32)
        if self._num_updates is not None:
            n = M.cast(self._num_updates, dtypes.float32)
            decay = M.minimum(decay, M.divide(M.add(1.0, n), M.add(10.0, n)))
        for var in var_list:
            shadow = self._averages[id(var)][1]
            complement = M.cast(M.subtract(1.0, decay), var.dtype)
            shadow.assign_sub(M.multiply(M.subtract(shadow, var), complement))
        return None

    def average(self, var):
        """The shadow Variable of ``var``, or None when ``var`` is not averaged."""
        entry = self._averages.get(id(var))
        return entry[1] if entry is not None and entry[0] is var else None

    def average_name(self, var) -> str:
        """``<var's name>/<this object's name>``: the shadow's name (without ``:0``)."""
        return f"{_shared_name(var)}/{self._name}"

    def variables_to_restore(self, moving_avg_variables=None) -> dict:
        """``{average_name(v): v}`` for the averaged variables (or those given), to restore
        averages into the variables themselves."""
        if moving_avg_variables is None:
            moving_avg_variables = [var for var, _ in self._averages.values()]
        return {self.average_name(v): v for v in moving_avg_variables}
