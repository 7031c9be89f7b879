"""``tf.keras.random``: Keras 3's random draws, value for value.

Keras 3 draws every random number with a stateless op and a [2] seed:

* an int ``seed`` is ``[seed, 0]``: the same values on every call;
* a ``SeedGenerator`` gives its state ``[seed, n]`` and counts ``n`` up, so
  successive draws differ, eagerly and in a ``tf.function`` alike (the state
  is an int64 Variable);
* ``seed=None`` uses one global generator (made on first use, dropped by
  ``tf.keras.utils.set_random_seed``) stepped through ``(s + 1) * 5387 % 933199``.

A generator made without a seed takes one from Python's ``random`` module when
it is constructed (``random.randint(1, 10**9)``), which is why seeding Python's
``random`` makes a Keras program reproducible. The int64 seed reaches the
stateless op as ``floormod(seed, 2**31 - 2)`` cast to int32, as Keras's
TensorFlow backend does.
"""
from __future__ import annotations

import random as _py_random

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.keras.backend import floatx
from runtime.ops import array_ops, math_ops, nn_ops, random_ops
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor

_SEED_MODULUS = 2**31 - 2  # Keras's floormod(seed, int32.max - 1)


def make_default_seed() -> int:
    """The seed of an unseeded generator or initializer, from Python's ``random``."""
    return _py_random.randint(1, int(1e9))


class SeedGenerator:
    """A seed state ``[seed, n]`` (an int64 Variable) whose ``next()`` returns it and steps it."""

    def __init__(self, seed=None, name=None, **kwargs):
        from runtime.keras.layers.base import KerasVariable, keras_name_scope, unique_name
        kwargs.pop("backend", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name or unique_name("seed_generator")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, int) or isinstance(seed, bool):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        with keras_name_scope(self.name, caller=self):
            self.state = KerasVariable(np.array([seed, 0], np.int64), name="seed_generator_state",
                                       trainable=False)

    def next(self, ordered=True) -> Tensor:
        """The current state; then ``[s, n + 1]`` (or a scrambled state when not ``ordered``)."""
        value = math_ops.multiply(self.state.value(), np.int64(1))
        if ordered:
            self.state.assign_add(np.array([0, 1], np.int64))
        else:
            self.state.assign(math_ops.floormod(
                math_ops.multiply(math_ops.add(self.state.value(), np.int64(1)),
                                  np.int64(5387)), np.int64(933199)))
        return value

    def get_config(self) -> dict:
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


_global = {"generator": None}


def global_seed_generator() -> SeedGenerator:
    """The generator behind ``seed=None`` draws (made on first use)."""
    if _global["generator"] is None:
        _global["generator"] = SeedGenerator()
    return _global["generator"]


def reset_global_seed_generator() -> None:
    _global["generator"] = None


def draw_seed(seed) -> Tensor:
    """The int32 [2] seed of a stateless op for an int, a SeedGenerator or None."""
    if isinstance(seed, SeedGenerator):
        state = seed.next()
    elif seed is None:
        state = global_seed_generator().next(ordered=False)
    elif isinstance(seed, int) and not isinstance(seed, bool):
        return convert_to_tensor(np.array([seed % _SEED_MODULUS, 0], np.int32))
    else:
        raise ValueError("Argument `seed` must be either an integer or an instance of "
                         f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})")
    return math_ops.cast(math_ops.floormod(state, np.int64(_SEED_MODULUS)), dtypes.int32)


def _float_dtype(dtype):
    return as_dtype(dtype or floatx())


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None) -> Tensor:
    return random_ops.stateless_normal(shape, draw_seed(seed), mean=mean, stddev=stddev,
                                       dtype=_float_dtype(dtype))


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None) -> Tensor:
    """Normal values redrawn until within two standard deviations of the mean."""
    return random_ops.stateless_truncated_normal(shape, draw_seed(seed), mean=mean,
                                                 stddev=stddev, dtype=_float_dtype(dtype))


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None) -> Tensor:
    dtype = _float_dtype(dtype)
    return random_ops.stateless_uniform(shape, draw_seed(seed),
                                        minval=math_ops.cast(minval, dtype),
                                        maxval=math_ops.cast(maxval, dtype), dtype=dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None) -> Tensor:
    """Integers in ``[minval, maxval)`` (drawn as int64 for other integer dtypes)."""
    dtype = as_dtype(dtype)
    draw = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    out = random_ops.stateless_uniform(shape, draw_seed(seed), minval=minval, maxval=maxval,
                                       dtype=draw)
    return math_ops.cast(out, dtype)


def categorical(logits, num_samples, dtype="int64", seed=None) -> Tensor:
    out = random_ops.stateless_categorical(logits, num_samples, draw_seed(seed))
    return math_ops.cast(out, as_dtype(dtype))


def shuffle(x, axis=0, seed=None) -> Tensor:
    """``x`` permuted along ``axis`` by the argsort of uniform keys."""
    x = convert_to_tensor(x)
    keys = random_ops.stateless_uniform(array_ops.shape(x)[axis:axis + 1], draw_seed(seed))
    return array_ops.gather(x, array_ops.argsort(keys), axis=axis)


def concrete_noise_shape(inputs: Tensor, noise_shape):
    """``noise_shape`` with its None entries (or all of it, when None) from ``inputs``."""
    if noise_shape is None:
        return array_ops.shape(inputs)
    dynamic = array_ops.shape(inputs)
    return [dynamic[i] if d is None else d for i, d in enumerate(noise_shape)]


def dropout(inputs, rate, noise_shape=None, seed=None) -> Tensor:
    """``tf.nn.experimental.stateless_dropout`` at the drawn seed: kept values scaled by
    ``1 / (1 - rate)``; ``rate`` 1 gives zeros and 0 the inputs."""
    inputs = convert_to_tensor(inputs)
    if rate == 1.0:
        return array_ops.zeros_like(inputs)
    if rate == 0.0:
        return inputs
    if not inputs.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={inputs.dtype!r}")
    if not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    return nn_ops.stateless_dropout(inputs, rate, draw_seed(seed),
                                    noise_shape=concrete_noise_shape(inputs, noise_shape))
