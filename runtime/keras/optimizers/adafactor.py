"""Keras 3's Adafactor: the second moment of a matrix (its last two axes) is kept factored,
as a row mean ``r`` and a column mean ``c``, and the step is scaled by the variable's RMS.

Slots follow Keras 3: ``r`` and ``c`` named after the variable (int32 scalar placeholders
for a variable of rank < 2, which keeps a full ``velocity``), then ``velocity``; so their
order in ``variables`` (what a checkpoint's ``_variables/<i>`` keys count) is Keras 3's.
"""
from __future__ import annotations

import numpy as np

from runtime.gradients.util import dense
from runtime.keras.optimizers.rules import KerasOptimizer, _const
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M


def _rms(x):
    return M.sqrt(M.reduce_mean(M.square(x)))


class Adafactor(KerasOptimizer):
    """Adafactor with Keras 3's defaults (relative step: the rate is capped by 1/sqrt(t))."""

    def __init__(self, learning_rate=0.001, beta_2_decay=-0.8, epsilon_1=1e-30,
                 epsilon_2=1e-3, clip_threshold=1.0, relative_step=True, weight_decay=None,
                 name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.beta_2_decay, self.epsilon_1, self.epsilon_2 = beta_2_decay, epsilon_1, epsilon_2
        self.clip_threshold, self.relative_step = clip_threshold, relative_step
        self._slot_names = ("r", "c", "velocity")

    def _make_slot(self, v, slot, base):
        shape = v.shape.as_list()
        if slot == "velocity":
            return super()._make_slot(v, slot, base)
        name = str(v.name).split(":")[0]
        if len(shape) < 2:
            return self._state_variable(np.int32(0), name)
        shape = shape[:-1] if slot == "r" else shape[:-2] + shape[-1:]
        return self._state_variable(np.zeros(shape, v.dtype.numpy_dtype), name)

    def _update(self, grad, var, lr):
        g, dtype = dense(grad), var.dtype
        one = _const(1.0, dtype)
        step = self._step(dtype)
        inv_sqrt_step = M.divide(one, M.sqrt(step))
        if self._schedule is None and self.relative_step:
            lr = M.minimum(lr, inv_sqrt_step)
        rho = M.minimum(lr, inv_sqrt_step)
        alpha = M.multiply(M.maximum(_const(self.epsilon_2, dtype), _rms(var)), rho)
        grad_square = M.add(M.square(g), _const(self.epsilon_1, dtype))
        beta_2 = M.subtract(one, M.pow(step, _const(self.beta_2_decay, dtype)))
        v = self.get_slot(var, "velocity")

        def average(old, new):
            return M.add(M.multiply(beta_2, old), M.multiply(M.subtract(one, beta_2), new))

        if var.shape.rank >= 2:
            r, c = self.get_slot(var, "r"), self.get_slot(var, "c")
            r.assign(average(r, M.reduce_mean(grad_square, axis=-1)))
            c.assign(average(c, M.reduce_mean(grad_square, axis=-2)))
            v.assign(M.multiply(
                A.expand_dims(M.divide(r, M.reduce_mean(r, axis=-1, keepdims=True)), -1),
                A.expand_dims(c, -2)))
        else:
            v.assign(average(v, grad_square))
        u = M.divide(g, M.sqrt(v))
        u_hat = M.divide(u, M.maximum(one, M.divide(_rms(u), _const(self.clip_threshold,
                                                                      dtype))))
        var.assign_sub(M.multiply(alpha, u_hat))
