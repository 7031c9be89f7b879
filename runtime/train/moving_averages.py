"""``tf.train.ExponentialMovingAverage``: shadow variables that trail the variables they follow.

``apply(vars)`` makes a shadow for each new variable (non-trainable, named
``<var>/ExponentialMovingAverage``, holding the variable's value when it is made: read
eagerly, so inside a tf.function that is its value before the function runs, as in
TensorFlow), then moves every shadow toward its variable:
``shadow -= (1 - decay) * (shadow - var)``. With ``num_updates`` the decay is
``min(decay, (1 + n) / (10 + n))``, computed in float32 as TensorFlow does.
"""
from __future__ import annotations

from graph import dtypes
from runtime import context
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.variables import Variable


class ExponentialMovingAverage:
    """Maintains moving averages of variables (``apply``), read back with ``average``."""

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias  # (TensorFlow debiases tensors only, not Variables)
        self._name = name
        self._averages: dict = {}

    @property
    def name(self) -> str:
        return self._name

    def _var_name(self, var) -> str:
        return var.name[:-2] if var.name.endswith(":0") else var.name

    def average_name(self, var) -> str:
        """The name the shadow of ``var`` has (and restores under)."""
        return f"{self._var_name(var)}/{self._name}"

    def average(self, var):
        """The shadow variable of ``var``, or None when ``apply`` has not seen it."""
        return self._averages.get(var.ref())

    def apply(self, var_list=None):
        """Creates the missing shadows, then updates all of ``var_list``'s. Returns None."""
        var_list = list(var_list or [])
        for var in var_list:
            if not var.dtype.is_floating:
                raise TypeError(f"The variables must be half, float, or double: {var.name}")
            if var.ref() not in self._averages:
                with context.init_scope():
                    self._averages[var.ref()] = Variable(
                        var.read_value(), trainable=False, name=self.average_name(var))
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32, name="decay")
        if self._num_updates is not None:
            n = M.cast(self._num_updates, dtypes.float32)
            decay = M.minimum(decay, M.divide(M.add(1.0, n), M.add(10.0, n)))
        for var in var_list:
            shadow = self._averages[var.ref()]
            rate = M.subtract(1.0, M.cast(decay, var.dtype))
            shadow.assign_sub(M.multiply(M.subtract(shadow, var), rate))
        return None

    def variables_to_restore(self, moving_avg_variables=None) -> dict:
        """{shadow name: variable}: restoring a checkpoint's averages into the variables."""
        return {self.average_name(var_ref.deref()): var_ref.deref()
                for var_ref in self._averages}
