"""``tf.random``: samples, ``set_seed``, stateless samples and ``Generator``.

A ``Generator`` keeps its state in an int64 Variable of shape [3]: TensorFlow's
Philox state ``[counter_lo, counter_hi, key]`` (``from_seed(s)`` is ``[s, 0, 0]``).
As TensorFlow's ``Generator`` does, each draw reads the state, moves the counter on
by 256 per value drawn, and samples a stateless op at the key and counter read: the
values equal TensorFlow's, continue across calls and tf.function runs, and a state
written back repeats them.
"""
from __future__ import annotations

import secrets
from types import SimpleNamespace

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops, math_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.random_ops import (categorical, gamma, get_seed, normal, poisson,  # noqa: F401
                                    set_seed, shuffle, stateless_binomial, stateless_categorical,
                                    stateless_gamma, stateless_normal, stateless_poisson,
                                    stateless_truncated_normal, stateless_uniform,
                                    truncated_normal, uniform)
from runtime.ops.random_ops import PhiloxState
from runtime.tensor import Tensor
from runtime.variables import Variable

stateless_random_binomial = stateless_binomial
stateless_random_gamma = stateless_gamma
stateless_random_poisson = stateless_poisson
random_gamma = gamma
random_poisson = poisson

_SKIP_PER_VALUE = 256  # TensorFlow's counter increment per value drawn
_PHILOX = 1  # tf.random.Algorithm.PHILOX.value: the algorithm TF reports


class Generator:
    """``tf.random.Generator``: a random number generator whose state is a Variable."""

    def __init__(self, copy_from=None, state=None, alg=None):
        if copy_from is not None:
            state = copy_from.state.numpy()
        if state is None:
            raise ValueError("Generator needs `copy_from` or `state`; use Generator.from_seed "
                             "or Generator.from_non_deterministic_state")
        self._alg = _PHILOX if alg is None else alg
        if isinstance(state, Variable):  # used as it is: both generators then share it, as in TF
            if state.dtype != dtypes.int64 or tuple(state.shape) != (3,):
                raise ValueError(f"The state of a Generator must be an int64 Variable of shape "
                                 f"[3], got {state.dtype.name} {state.shape}")
            self._state_var = state
            return
        if isinstance(state, Tensor):
            state = convert_to_tensor(state, dtype=dtypes.int64).numpy()
        # a Python state stays numpy: a Generator made while tracing gets a concrete start state
        state = np.asarray(state, dtype=np.int64)
        if state.shape != (3,):
            raise ValueError(f"The state of a Generator must have shape [3], got {state.shape}")
        self._state_var = Variable(state, trainable=False, name="StateVar")

    @classmethod
    def from_seed(cls, seed, alg=None) -> "Generator":
        """A generator whose draws depend on ``seed`` only (state ``[seed, 0, 0]``, as TF's)."""
        return cls(state=_state_from_seed(seed), alg=alg)

    @classmethod
    def from_non_deterministic_state(cls, alg=None) -> "Generator":
        key = secrets.randbits(63)
        return cls(state=[secrets.randbits(63), 0, key], alg=alg)

    @classmethod
    def from_state(cls, state, alg) -> "Generator":
        return cls(state=state, alg=alg)

    @classmethod
    def from_key_counter(cls, key, counter, alg) -> "Generator":
        counter = list(np.asarray(counter).reshape(-1))
        return cls(state=[counter[0], counter[1] if len(counter) > 1 else 0, int(key)], alg=alg)

    @property
    def state(self) -> Variable:
        return self._state_var

    @property
    def algorithm(self) -> int:
        return self._alg

    @property
    def key(self):
        return self._state_var[2]

    def reset(self, state) -> None:
        self._state_var.assign(convert_to_tensor(state, dtype=dtypes.int64))

    def reset_from_seed(self, seed) -> None:
        self.reset(_state_from_seed(seed))

    def skip(self, delta) -> None:
        """Advances the counter as drawing ``delta`` values would."""
        self._skip(convert_to_tensor(delta, dtype=dtypes.int64))

    def _skip(self, count) -> Tensor:
        """The state before moving the counter on by ``count`` values (TF's RngReadAndSkip)."""
        before = self._state_var.value()
        step = math_ops.multiply(math_ops.cast(count, dtypes.int64), _SKIP_PER_VALUE)
        self._state_var.assign_add(array_ops.stack([step, array_ops.zeros_like(step),
                                                    array_ops.zeros_like(step)]))
        return before

    def _next_seed(self, shape):
        """Where a draw of ``shape`` samples: the state read as the counter moves past it."""
        count = math_ops.reduce_prod(convert_to_tensor(shape, dtype_hint=dtypes.int32))
        return PhiloxState(self._skip(count))

    def normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_normal(shape, self._next_seed(shape), mean, stddev, dtype,
                                name=name or "stateful_normal")

    def truncated_normal(self, shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None):
        return stateless_truncated_normal(shape, self._next_seed(shape), mean, stddev, dtype,
                                          name=name or "stateful_truncated_normal")

    def uniform(self, shape, minval=0, maxval=None, dtype=dtypes.float32, name=None):
        """Floats in [minval, maxval) (maxval defaults to 1); integers need both bounds, or
        neither for the whole range of ``dtype``."""
        dtype = as_dtype(dtype)
        if dtype.is_integer and (minval is None) != (maxval is None):
            raise ValueError(f"For integer dtype {dtype!r}, minval and maxval must be both "
                             f"`None` or both non-`None`; got minval={minval} and maxval={maxval}")
        return stateless_uniform(shape, self._next_seed(shape), minval, maxval, dtype,
                                 name=name or "stateful_uniform")

    def uniform_full_int(self, shape, dtype=dtypes.int64, name=None):
        """Integers over the whole range of ``dtype`` (TF defaults to uint64, absent here)."""
        return stateless_uniform(shape, self._next_seed(shape), None, None, dtype,
                                 name=name or "stateful_uniform_full_int")

    def binomial(self, shape, counts, probs, dtype=dtypes.int32, name=None):
        """Binomial samples (numpy's sampler at a seed this generator makes: the values are
        not TensorFlow's, whose stateful binomial kernel this does not reproduce)."""
        return stateless_binomial(shape, self.make_seeds(1)[:, 0], counts, probs, dtype,
                                  name=name or "stateful_binomial")

    def make_seeds(self, count: int = 1):
        """``count`` seeds for stateless ops: an int64 tensor of shape [2, count] (new keys
        over zeros: a stateless op scrambles both halves together)."""
        keys = self.uniform_full_int([count], dtype=dtypes.int64, name="make_seeds")
        return array_ops.stack([keys, array_ops.zeros_like(keys)])

    def split(self, count: int = 1) -> list:
        """``count`` new generators with new keys and zero counters; this one advances."""
        keys = np.asarray(self.uniform_full_int([count], dtype=dtypes.int64))
        return [Generator(state=[0, 0, keys[i]], alg=self._alg) for i in range(count)]

    def __repr__(self) -> str:
        return f"<tf.random.Generator state={np.asarray(self._state_var.numpy()).tolist()}>"


def _state_from_seed(seed) -> list:
    """TensorFlow's ``create_rng_state`` for Philox: the seed's 64-bit words, zero-padded."""
    seed = int(np.asarray(seed)) if not isinstance(seed, int) else seed
    words = [(seed >> (64 * i)) & 0xFFFFFFFFFFFFFFFF for i in range(3)]
    return [w - (1 << 64) if w >= 1 << 63 else w for w in words]


class _GlobalGenerator:
    generator: Generator | None = None


def get_global_generator() -> Generator:
    """The process's generator, made from non-deterministic state when first asked for."""
    if _GlobalGenerator.generator is None:
        _GlobalGenerator.generator = Generator.from_non_deterministic_state()
    return _GlobalGenerator.generator


def set_global_generator(generator: Generator) -> None:
    _GlobalGenerator.generator = generator


class Algorithm:
    """``tf.random.Algorithm``: the names TF gives its bit generators (PHILOX is used)."""
    PHILOX = 1
    THREEFRY = 2
    AUTO_SELECT = 3


def split(seed, num: int = 2, alg="auto_select"):
    """``tf.random.split``: ``num`` new seeds of shape [num, 2], same dtype as ``seed``."""
    seed = convert_to_tensor(seed, name="seed")
    return stateless_uniform([num, 2], seed, None, None, seed.dtype, name="split")


def fold_in(seed, data, alg="auto_select"):
    """``tf.random.fold_in``: ``[a new number from seed, data]`` (TensorFlow's construction)."""
    seed = convert_to_tensor(seed, name="seed")
    data = math_ops.cast(convert_to_tensor(data, name="data"), seed.dtype)
    fresh = stateless_uniform([], seed, None, None, seed.dtype, name="fold_in")
    return array_ops.stack([fresh, data])


experimental = SimpleNamespace(Generator=Generator, get_global_generator=get_global_generator,
                               set_global_generator=set_global_generator,
                               stateless_split=split, stateless_fold_in=fold_in)

from runtime.ops.nn_extra import (fixed_unigram_candidate_sampler,  # noqa: F401,E402
                                  log_uniform_candidate_sampler, uniform_candidate_sampler)
