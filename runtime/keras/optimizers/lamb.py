"""Keras 3's Lamb: Adam's bias-corrected step, rescaled per variable by the trust ratio
``||w|| / ||step||`` (1 when either norm is zero), as Keras 3 writes it."""
from __future__ import annotations

from runtime.gradients.util import dense
from runtime.keras.optimizers.rules import KerasOptimizer, _const
from runtime.ops import math_ops as M


def _norm(x):
    return M.sqrt(M.reduce_sum(M.pow(x, _const(2.0, x.dtype))))


class Lamb(KerasOptimizer):
    """Layer-wise adaptive Adam (slots ``momentum`` and ``velocity``, as Keras 3 names them)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon
        self._slot_names = ("momentum", "velocity")

    def _update(self, grad, var, lr):
        g, dtype = dense(grad), var.dtype
        step = self._step(dtype)
        beta_1_power = M.pow(_const(self.beta_1, dtype), step)
        beta_2_power = M.pow(_const(self.beta_2, dtype), step)
        m, v = self.get_slot(var, "momentum"), self.get_slot(var, "velocity")
        m.assign_add(M.multiply(M.subtract(g, m), _const(1 - self.beta_1, dtype)))
        v.assign_add(M.multiply(M.subtract(M.square(g), v), _const(1 - self.beta_2, dtype)))
        m_hat = M.divide(m, M.subtract(_const(1.0, dtype), beta_1_power))
        v_sqrt = M.add(M.sqrt(M.divide(v, M.subtract(_const(1.0, dtype), beta_2_power))),
                       _const(self.epsilon, dtype))
        update = M.divide(m_hat, v_sqrt)
        w_norm, u_norm = _norm(var), _norm(update)
        one = _const(1.0, dtype)
        zero = _const(0.0, dtype)
        ratio = M.where(M.greater(w_norm, zero),
                        M.where(M.greater(u_norm, zero), M.divide(w_norm, u_norm), one), one)
        var.assign_sub(M.multiply(M.multiply(ratio, lr), update))
