"""``tf.keras.optimizers.schedules``: learning rates as functions of the step.

A schedule is called with the optimizer's ``iterations`` (a tensor) and returns a
float32 tensor, so it works eagerly and inside a tf.function. The formulas are
Keras 3's.
"""
from __future__ import annotations

import math

from graph import dtypes
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor


def _f32(x):
    x = convert_to_tensor(x)
    return x if x.dtype == dtypes.float32 else M.cast(x, dtypes.float32)


class LearningRateSchedule:
    """Base class: ``schedule(step)`` is the learning rate at ``step``."""

    def __call__(self, step):
        raise NotImplementedError(f"{type(self).__name__} must define __call__")

    def get_config(self) -> dict:
        raise NotImplementedError(f"{type(self).__name__} must define get_config")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


class ExponentialDecay(LearningRateSchedule):
    """``initial_learning_rate * decay_rate ** (step / decay_steps)`` (floored if staircase)."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: "
                             f"decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = M.divide(_f32(step), _f32(self.decay_steps))
        if self.staircase:
            p = M.floor(p)
        return M.multiply(_f32(self.initial_learning_rate), M.pow(_f32(self.decay_rate), p))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class InverseTimeDecay(LearningRateSchedule):
    """``initial_learning_rate / (1 + decay_rate * step / decay_steps)``."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.decay_rate, self.staircase, self.name = decay_rate, staircase, name

    def __call__(self, step):
        p = M.divide(_f32(step), _f32(self.decay_steps))
        if self.staircase:
            p = M.floor(p)
        return M.divide(_f32(self.initial_learning_rate),
                        M.add(1.0, M.multiply(_f32(self.decay_rate), p)))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class PiecewiseConstantDecay(LearningRateSchedule):
    """``values[i]`` while ``boundaries[i-1] < step <= boundaries[i]``."""

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(f"The length of boundaries should be 1 less than the length of "
                             f"values. Received: boundaries={boundaries} of length "
                             f"{len(boundaries)}, and values={values} of length {len(values)}.")
        self.boundaries, self.values, self.name = list(boundaries), list(values), name

    def __call__(self, step):
        step = convert_to_tensor(step)
        out = _f32(self.values[-1])
        for boundary, value in reversed(list(zip(self.boundaries, self.values))):
            out = M.where(M.less_equal(step, M.cast(boundary, step.dtype)), _f32(value), out)
        return out

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From ``initial_learning_rate`` to ``end_learning_rate`` along ``(1 - t) ** power``."""

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.end_learning_rate, self.power, self.cycle = end_learning_rate, power, cycle
        self.name = name

    def __call__(self, step):
        step, decay_steps = _f32(step), _f32(self.decay_steps)
        if self.cycle:  # restart every decay_steps (the first period also covers step 0)
            multiplier = M.where(M.equal(step, 0.0), 1.0, M.ceil(M.divide(step, decay_steps)))
            decay_steps = M.multiply(decay_steps, multiplier)
        else:
            step = M.minimum(step, decay_steps)
        start, end = _f32(self.initial_learning_rate), _f32(self.end_learning_rate)
        left = M.pow(M.subtract(1.0, M.divide(step, decay_steps)), _f32(self.power))
        return M.add(M.multiply(M.subtract(start, end), left), end)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class CosineDecay(LearningRateSchedule):
    """Half a cosine from the (warmed-up) rate down to ``alpha`` times it, after an optional
    linear warmup of ``warmup_steps`` from ``initial_learning_rate`` to ``warmup_target``."""

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        if decay_steps <= 0:
            raise ValueError(f"Argument `decay_steps` must be > 0. Received: "
                             f"decay_steps={decay_steps}")
        self.initial_learning_rate, self.decay_steps = initial_learning_rate, decay_steps
        self.alpha, self.name = alpha, name
        self.warmup_target, self.warmup_steps = warmup_target, warmup_steps

    def _decay(self, step, rate):
        fraction = M.divide(step, _f32(self.decay_steps))
        cosine = M.multiply(0.5, M.add(1.0, M.cos(M.multiply(math.pi, fraction))))
        alpha = _f32(self.alpha)
        return M.multiply(rate, M.add(M.multiply(M.subtract(1.0, alpha), cosine), alpha))

    def __call__(self, step):
        step = _f32(step)
        initial = _f32(self.initial_learning_rate)
        if self.warmup_target is None:
            return self._decay(M.minimum(step, _f32(self.decay_steps)), initial)
        warmup_steps, target = _f32(self.warmup_steps), _f32(self.warmup_target)
        decayed = self._decay(M.minimum(M.subtract(step, warmup_steps),
                                        _f32(self.decay_steps)), target)
        warming = M.add(initial, M.multiply(M.subtract(target, initial),
                                            M.divide(step, warmup_steps)))
        return M.where(M.less(step, warmup_steps), warming, decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): the ``i``-th period lasts
    ``first_decay_steps * t_mul ** i`` steps and starts from ``m_mul ** i`` times the rate."""

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        if first_decay_steps <= 0:
            raise ValueError(f"Argument `first_decay_steps` must be > 0. Received: "
                             f"first_decay_steps={first_decay_steps}")
        self.initial_learning_rate, self.first_decay_steps = initial_learning_rate, \
            first_decay_steps
        self._t_mul, self._m_mul, self.alpha, self.name = t_mul, m_mul, alpha, name

    def __call__(self, step):
        fraction = M.divide(_f32(step), _f32(self.first_decay_steps))
        t_mul = _f32(self._t_mul)
        if self._t_mul == 1.0:  # restarts of equal length
            restart = M.floor(fraction)
            fraction = M.subtract(fraction, restart)
        else:  # the restart whose geometric sum of lengths the fraction has passed
            restart = M.floor(M.divide(M.log(M.subtract(1.0, M.multiply(
                fraction, M.subtract(1.0, t_mul)))), M.log(t_mul)))
            done = M.divide(M.subtract(1.0, M.pow(t_mul, restart)), M.subtract(1.0, t_mul))
            fraction = M.divide(M.subtract(fraction, done), M.pow(t_mul, restart))
        cosine = M.multiply(M.multiply(0.5, M.pow(_f32(self._m_mul), restart)),
                            M.add(1.0, M.cos(M.multiply(_f32(math.pi), fraction))))
        alpha = _f32(self.alpha)
        decayed = M.add(M.multiply(M.subtract(1.0, alpha), cosine), alpha)
        return M.multiply(_f32(self.initial_learning_rate), decayed)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}
