"""Keras 3's update rules: RMSprop, Adagrad, AdamW, Adadelta, Adamax, Nadam, Ftrl, Lion.

Each rule is written as Keras 3 writes it, down to where a constant is a Python float
(``1 - beta_1`` computed in double, then float32) and where a float32 tensor.

Each rule reads its slots, computes the new values with tensor ops and assigns them, so
it runs eagerly and records assignments inside a tf.function. Slots may start at a
value other than zero (Adagrad's and Ftrl's accumulators). ``learning_rate`` may be a
``LearningRateSchedule``, evaluated at ``iterations``; ``weight_decay`` shrinks each
variable by ``lr * weight_decay`` before its update, as in Keras 3.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.gradients.util import dense
from runtime.optimizers import Optimizer, rowwise


def _const(value, dtype):
    return M.cast(convert_to_tensor(float(value), dtype=dtypes.float64), dtype)


class KerasOptimizer(Optimizer):
    """An Optimizer whose rule is ``_update(g, v, lr)`` (weight decay and Keras 3's gradient
    clipping, ``clipnorm``, ``clipvalue``, ``global_clipnorm``, are the base class's)."""

    def _apply_dense(self, g, v) -> None:
        self._update(g, v, self._lr(v))

    def _step(self, dtype):
        """The 1-based number of this update, in ``dtype``."""
        return M.cast(M.add(self.iterations, np.int64(1)), dtype)

    def _update(self, g, v, lr) -> None:
        raise NotImplementedError


class RMSprop(KerasOptimizer):
    """Divides the gradient by a running root mean square of recent gradients."""

    def __init__(self, learning_rate=0.001, rho=0.9, momentum=0.0, epsilon=1e-7,
                 centered=False, weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.rho, self.momentum, self.epsilon, self.centered = rho, momentum, epsilon, centered
        self._slot_names = ("velocity",) + (("momentum",) if momentum > 0 else ()) \
            + (("average_gradient",) if centered else ())

    def _update(self, grad, var, lr):
        g = dense(grad)
        rho = _const(self.rho, var.dtype)
        velocity = self.get_slot(var, "velocity")
        new_velocity = M.add(M.multiply(rho, velocity),
                             M.multiply(_const(1 - self.rho, var.dtype), rowwise(M.square, grad)))
        velocity.assign(new_velocity)
        denominator = new_velocity
        if self.centered:
            average = self.get_slot(var, "average_gradient")
            new_average = M.add(M.multiply(rho, average),
                                M.multiply(_const(1 - self.rho, var.dtype), g))
            average.assign(new_average)
            denominator = M.subtract(denominator, M.square(new_average))
        increment = M.multiply(M.multiply(lr, g),
                               M.rsqrt(M.add(denominator, _const(self.epsilon, var.dtype))))
        if self.momentum > 0:
            momentum = self.get_slot(var, "momentum")
            new_momentum = M.add(M.multiply(_const(self.momentum, var.dtype), momentum),
                                 increment)
            momentum.assign(new_momentum)
            increment = new_momentum
        var.assign_sub(increment)


class Adagrad(KerasOptimizer):
    """Scales each coordinate by the root of its accumulated squared gradients."""

    def __init__(self, learning_rate=0.001, initial_accumulator_value=0.1, epsilon=1e-7,
                 weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.initial_accumulator_value, self.epsilon = initial_accumulator_value, epsilon
        self._slot_names = ("accumulator",)
        self._slot_initial = {"accumulator": initial_accumulator_value}

    def _update(self, grad, var, lr):
        g = dense(grad)
        accumulator = self.get_slot(var, "accumulator")
        new_accumulator = M.add(accumulator, rowwise(M.square, grad))
        accumulator.assign(new_accumulator)
        var.assign_sub(M.divide(M.multiply(lr, g), M.sqrt(
            M.add(new_accumulator, _const(self.epsilon, var.dtype)))))


class Adadelta(KerasOptimizer):
    """Steps by the ratio of running RMS of updates to running RMS of gradients."""

    def __init__(self, learning_rate=0.001, rho=0.95, epsilon=1e-7, weight_decay=None,
                 name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.rho, self.epsilon = rho, epsilon
        self._slot_names = ("accumulated_grad", "accumulated_delta_var")

    def _update(self, grad, var, lr):
        g = dense(grad)
        rho, eps = _const(self.rho, var.dtype), _const(self.epsilon, var.dtype)
        grad_acc = self.get_slot(var, "accumulated_grad")
        delta_acc = self.get_slot(var, "accumulated_delta_var")
        new_grad_acc = M.add(M.multiply(rho, grad_acc),
                             M.multiply(_const(1 - self.rho, var.dtype), rowwise(M.square, grad)))
        grad_acc.assign(new_grad_acc)
        delta = M.negative(M.divide(M.multiply(M.sqrt(M.add(delta_acc, eps)), g),
                                    M.sqrt(M.add(new_grad_acc, eps))))
        delta_acc.assign(M.add(M.multiply(rho, delta_acc),
                               M.multiply(_const(1 - self.rho, var.dtype), M.square(delta))))
        var.assign_add(M.multiply(lr, delta))


class _AdamFamily(KerasOptimizer):
    def __init__(self, learning_rate, beta_1, beta_2, epsilon, weight_decay, name, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        self.beta_1, self.beta_2, self.epsilon = beta_1, beta_2, epsilon


class AdamW(_AdamFamily):
    """Adam with decoupled weight decay (``weight_decay=0.004`` by default)."""

    def __init__(self, learning_rate=0.001, weight_decay=0.004, beta_1=0.9, beta_2=0.999,
                 epsilon=1e-7, amsgrad=False, name=None, **clipping):
        if weight_decay is None:
            raise ValueError("Argument `weight_decay` must be a float. Received: "
                             "weight_decay=None")
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, name,
                         **clipping)
        self.amsgrad = amsgrad
        self._slot_names = ("momentum", "velocity") + (("velocity_hat",) if amsgrad else ())

    def _update(self, grad, var, lr):
        g = dense(grad)
        dtype = var.dtype
        step = self._step(dtype)
        b1, b2 = _const(self.beta_1, dtype), _const(self.beta_2, dtype)
        alpha = M.divide(M.multiply(lr, M.sqrt(M.subtract(1.0, M.pow(b2, step)))),
                         M.subtract(1.0, M.pow(b1, step)))
        m, v = self.get_slot(var, "momentum"), self.get_slot(var, "velocity")
        new_m = M.add(m, M.multiply(M.subtract(g, m), _const(1 - self.beta_1, dtype)))
        new_v = M.add(v, M.multiply(M.subtract(rowwise(M.square, grad), v),
                                    _const(1 - self.beta_2, dtype)))
        m.assign(new_m)
        v.assign(new_v)
        if self.amsgrad:
            v_hat = self.get_slot(var, "velocity_hat")
            new_v = M.maximum(v_hat, new_v)
            v_hat.assign(new_v)
        var.assign_sub(M.divide(M.multiply(new_m, alpha),
                                M.add(M.sqrt(new_v), _const(self.epsilon, dtype))))


class Adamax(_AdamFamily):
    """Adam with the infinity norm: the second moment is a running maximum of ``|g|``."""

    _slot_labels = {"m": "momentum", "u": "norm"}

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, name,
                         **clipping)
        self._slot_names = ("m", "u")

    def _update(self, grad, var, lr):
        g = dense(grad)
        dtype = var.dtype
        b1, b2 = _const(self.beta_1, dtype), _const(self.beta_2, dtype)
        m, u = self.get_slot(var, "m"), self.get_slot(var, "u")
        new_m = M.add(m, M.multiply(M.subtract(g, m), _const(1 - self.beta_1, dtype)))
        new_u = M.maximum(M.multiply(b2, u), rowwise(M.abs, grad))
        m.assign(new_m)
        u.assign(new_u)
        correction = M.subtract(1.0, M.pow(b1, self._step(dtype)))
        var.assign_sub(M.divide(M.multiply(lr, new_m), M.multiply(
            correction, M.add(new_u, _const(self.epsilon, dtype)))))


class Nadam(_AdamFamily):
    """Adam with Nesterov momentum and Keras's momentum-decay schedule (0.96 per step)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.999, epsilon=1e-7,
                 weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, beta_1, beta_2, epsilon, weight_decay, name,
                         **clipping)
        self._slot_names = ("momentum", "velocity")
        self._u_product = None

    def _create_all_weights(self, var_list) -> None:
        if self._u_product is None:  # the running product of the momentum schedule
            dtype = var_list[0].dtype.numpy_dtype if var_list else np.float32
            self._u_product = self._state_variable(np.ones((), dtype), "variable")
        super()._create_all_weights(var_list)

    @property
    def variables(self) -> list:
        found = super().variables
        return found + ([] if self._u_product is None else [self._u_product])

    def _extra_state(self) -> dict:
        return {"_u_product": self._u_product}

    def _momentum_at(self, step, dtype):
        return M.multiply(_const(self.beta_1, dtype), M.subtract(
            1.0, M.multiply(0.5, M.pow(_const(0.96, dtype), step))))

    def apply_gradients(self, grads_and_vars, name=None):
        pairs = list(grads_and_vars)
        self._create_all_weights([v for g, v in pairs if g is not None and hasattr(v, "dtype")])
        dtype = self._u_product.dtype
        self._u_product.assign(M.multiply(self._u_product,
                                          self._momentum_at(self._step(dtype), dtype)))
        return super().apply_gradients(pairs, name)

    def _update(self, grad, var, lr):
        g = dense(grad)
        dtype = var.dtype
        step = self._step(dtype)
        u_t = self._momentum_at(step, dtype)
        u_t_1 = self._momentum_at(M.add(step, 1.0), dtype)
        u_product = M.cast(self._u_product, dtype)
        u_product_next = M.multiply(u_product, u_t_1)
        b1, b2 = _const(self.beta_1, dtype), _const(self.beta_2, dtype)
        m, v = self.get_slot(var, "momentum"), self.get_slot(var, "velocity")
        new_m = M.add(m, M.multiply(M.subtract(g, m), M.subtract(1.0, b1)))
        new_v = M.add(v, M.multiply(M.subtract(rowwise(M.square, grad), v), M.subtract(1.0, b2)))
        m.assign(new_m)
        v.assign(new_v)
        m_hat = M.add(M.divide(M.multiply(u_t_1, new_m), M.subtract(1.0, u_product_next)),
                      M.divide(M.multiply(M.subtract(1.0, u_t), g),
                               M.subtract(1.0, u_product)))
        v_hat = M.divide(new_v, M.subtract(1.0, M.pow(b2, step)))
        var.assign_sub(M.divide(M.multiply(m_hat, lr),
                                M.add(M.sqrt(v_hat), _const(self.epsilon, dtype))))


class Ftrl(KerasOptimizer):
    """Follow-the-regularized-leader, with L1, L2 and L2-shrinkage regularization."""

    def __init__(self, learning_rate=0.001, learning_rate_power=-0.5,
                 initial_accumulator_value=0.1, l1_regularization_strength=0.0,
                 l2_regularization_strength=0.0, l2_shrinkage_regularization_strength=0.0,
                 beta=0.0, weight_decay=None, name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        if initial_accumulator_value < 0.0:
            raise ValueError("`initial_accumulator_value` needs to be positive or zero. "
                             f"Received: initial_accumulator_value={initial_accumulator_value}.")
        if learning_rate_power > 0.0:
            raise ValueError("`learning_rate_power` needs to be negative or zero. Received: "
                             f"learning_rate_power={learning_rate_power}.")
        for arg, value in (("l1_regularization_strength", l1_regularization_strength),
                           ("l2_regularization_strength", l2_regularization_strength),
                           ("l2_shrinkage_regularization_strength",
                            l2_shrinkage_regularization_strength)):
            if value < 0.0:
                raise ValueError(f"`{arg}` needs to be positive or zero. Received: "
                                 f"{arg}={value}.")
        self.learning_rate_power = learning_rate_power
        self.initial_accumulator_value = initial_accumulator_value
        self.l1 = l1_regularization_strength
        self.l2 = l2_regularization_strength
        self.l2_shrinkage = l2_shrinkage_regularization_strength
        self.beta = beta
        self._slot_names = ("accumulator", "linear")
        self._slot_initial = {"accumulator": initial_accumulator_value}

    def _update(self, grad, var, lr):
        g = dense(grad)
        dtype = var.dtype
        power = _const(-self.learning_rate_power, dtype)
        l1 = _const(self.l1, dtype)
        l2 = M.add(_const(self.l2, dtype), M.divide(_const(self.beta, dtype),
                                                     M.multiply(2.0, lr)))
        shrunk_g = M.add(g, M.multiply(_const(2.0 * self.l2_shrinkage, dtype), var))
        accumulator, linear = self.get_slot(var, "accumulator"), self.get_slot(var, "linear")
        new_accumulator = M.add(accumulator, rowwise(M.square, grad))
        new_linear = M.add(linear, M.subtract(shrunk_g, M.multiply(M.divide(
            M.subtract(M.pow(new_accumulator, power), M.pow(accumulator, power)), lr), var)))
        quadratic = M.add(M.divide(M.pow(new_accumulator, power), lr), M.multiply(2.0, l2))
        clipped = M.minimum(M.maximum(new_linear, M.negative(l1)), l1)
        linear.assign(new_linear)
        accumulator.assign(new_accumulator)
        var.assign(M.divide(M.subtract(clipped, new_linear), quadratic))


class Lion(KerasOptimizer):
    """The sign of an interpolation of momentum and gradient is the step (Keras 3's Lion)."""

    def __init__(self, learning_rate=0.001, beta_1=0.9, beta_2=0.99, weight_decay=None,
                 name=None, **clipping):
        super().__init__(learning_rate, name, weight_decay, **clipping)
        if beta_1 <= 0 or beta_1 > 1:
            raise ValueError(f"Argument for `beta_1` must be in the interval (0, 1]. "
                             f"Received: beta_1={beta_1}.")
        self.beta_1, self.beta_2 = beta_1, beta_2
        self._slot_names = ("momentum",)

    def _update(self, grad, var, lr):
        g = dense(grad)
        b1, b2 = _const(self.beta_1, var.dtype), _const(self.beta_2, var.dtype)
        m = self.get_slot(var, "momentum")
        var.assign_sub(M.multiply(lr, M.sign(M.add(M.multiply(m, b1),
                                                   M.multiply(g, M.subtract(1.0, b1))))))
        m.assign(M.add(M.multiply(m, b2), M.multiply(g, M.subtract(1.0, b2))))
