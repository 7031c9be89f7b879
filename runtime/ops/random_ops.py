"""``tf.random``: stateful and stateless samples with TensorFlow's seed rules.

Seeds follow ``tf.random.set_seed``'s documentation:

* neither a global nor an op seed: new random numbers every time;
* a global seed only: each op gets an op seed from a counter, so a program
  produces the same sequence on every run (eagerly the counter restarts at
  ``set_seed``; in a graph it counts the random ops of the graph being
  built, so two functions built alike produce the same numbers);
* an op seed only: the default global seed is used with it;
* both: fully determined.

The op keeps generator state: calling it again eagerly, or running its
graph again, continues the sequence instead of repeating it; ``set_seed``
restarts the sequences of ops already built, as TensorFlow's does.

The ``stateless_*`` functions take the seed as a [2] int tensor instead:
the same seed gives the same values on every call, eagerly and staged.
"""
from __future__ import annotations

import random as _py_random
import weakref
from contextlib import contextmanager

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.ops.random import reset_eager_generators
from runtime import context
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import Tensor

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


class _SeedState:
    global_seed: int | None = None
    eager_rng = _py_random.Random()
    graph_counters: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
    seed_owners: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


_state = _SeedState()


def set_seed(seed) -> None:
    """``tf.random.set_seed``: makes the random sequences of the program repeatable."""
    _state.global_seed = None if seed is None else int(seed)
    _state.eager_rng = _py_random.Random(_state.global_seed)
    _state.graph_counters = weakref.WeakKeyDictionary()
    reset_eager_generators()


def _root(graph):
    while graph.outer is not None:
        graph = graph.outer
    return graph


def _next_graph_op_seed(graph) -> int:
    """0, 1, 2... for the random ops of a function without op seeds (TensorFlow's numbering)."""
    root = _root(graph)
    root = _state.seed_owners.get(root, root)
    count = _state.graph_counters.get(root, -1) + 1
    _state.graph_counters[root] = count
    return count


def count_op_seeds_with(graph, owner) -> None:
    """Unseeded random ops built in ``graph`` take their op seeds from ``owner``'s count: a
    variable's initializer built aside for the function being traced numbers its random ops
    as if it were built in that function, as TensorFlow builds it."""
    _state.seed_owners[_root(graph)] = _root(owner)


def get_seed(op_seed) -> tuple[int, int]:
    """The (seed, seed2) attrs of a random op; (0, 0) means "not seeded"."""
    global_seed = _state.global_seed
    if global_seed is not None:
        if op_seed is None:
            graph = context.current_graph()
            op_seed = (_state.eager_rng.randint(0, _MAXINT32) if graph is None
                       else _next_graph_op_seed(graph))
        seeds = (global_seed, int(op_seed))
    elif op_seed is not None:
        seeds = (DEFAULT_GRAPH_SEED, int(op_seed))
    else:
        return 0, 0
    if seeds == (0, 0):  # (0, 0) would mean "unseeded" to the kernel
        return 0, _MAXINT32
    return seeds


@contextmanager
def _name_scope(name: str):
    graph = context.current_graph()
    if graph is None:
        yield
        return
    graph.push_scope(name)
    try:
        yield
    finally:
        graph.pop_scope()


def _shape_tensor(shape) -> Tensor:
    if isinstance(shape, Tensor) or hasattr(shape, "_as_tensor"):
        t = convert_to_tensor(shape)
    else:
        if hasattr(shape, "as_list"):
            shape = shape.as_list()
        if isinstance(shape, int):
            shape = [shape]
        t = convert_to_tensor(list(shape), dtype_hint=dtypes.int32, name="shape")
    if not t.dtype.is_integer:
        raise TypeError(f"A random shape must hold integers, got {t.dtype.name} "
                        f"(at {current_origin()})")
    return t


_FLOAT_DTYPES = ("float16", "bfloat16", "float32", "float64")
_UNIFORM_DTYPES = _FLOAT_DTYPES + ("int32", "int64")


def _check_dtype(dtype, allowed):
    """TensorFlow's ``Argument `dtype` got invalid value`` ValueError."""
    dtype = as_dtype(dtype)
    if dtype.name not in allowed:
        names = ", ".join(f"tf.{n}" for n in allowed)
        kind = "float" if all(n.startswith(("float", "bfloat")) for n in allowed) else "int or float"
        raise ValueError(f"Argument `dtype` got invalid value {dtype!r}. Accepted dtypes are "
                         f"({names}): this op makes {kind} tensors, not {dtype.name}")
    return dtype


def _is_python_number(value, target) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == target


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """``tf.random.uniform``: samples in [minval, maxval) (maxval defaults to 1 for floats)."""
    dtype = as_dtype(dtype)
    if dtype.is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtype.name} "
                         f"(at {current_origin()})")
    _check_dtype(dtype, _UNIFORM_DTYPES)
    if maxval is None:
        maxval = 1
    with _name_scope(name or "random_uniform"):
        shape_t = _shape_tensor(shape)
        seed1, seed2 = get_seed(seed)
        if dtype.is_integer:
            lo = convert_to_tensor(minval, dtype=dtype, name="min")
            hi = convert_to_tensor(maxval, dtype=dtype, name="max")
            return apply_op("RandomUniformInt", [shape_t, lo, hi],
                            {"seed": seed1, "seed2": seed2}, name="RandomUniformInt")
        result = apply_op("RandomUniform", [shape_t],
                          {"dtype": dtype, "seed": seed1, "seed2": seed2}, name="RandomUniform")
        lo_zero, hi_one = _is_python_number(minval, 0), _is_python_number(maxval, 1)
        if lo_zero and hi_one:
            return result
        lo = convert_to_tensor(minval, dtype=dtype, name="min")
        hi = convert_to_tensor(maxval, dtype=dtype, name="max")
        if lo_zero:
            return math_ops.multiply(result, hi, name="mul")
        return math_ops.add(math_ops.multiply(result, math_ops.subtract(hi, lo, name="sub"),
                                              name="mul"), lo, name="add")


def normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """``tf.random.normal``: samples from N(mean, stddev**2)."""
    dtype = _check_dtype(dtype, _FLOAT_DTYPES)
    with _name_scope(name or "random_normal"):
        shape_t = _shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        std_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op("RandomStandardNormal", [shape_t],
                       {"dtype": dtype, "seed": seed1, "seed2": seed2},
                       name="RandomStandardNormal")
        return math_ops.add(math_ops.multiply(rnd, std_t, name="mul"), mean_t, name="add")


def _scale_shift(rnd, mean, stddev, dtype):
    mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
    std_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
    return math_ops.add(math_ops.multiply(rnd, std_t, name="mul"), mean_t, name="add")


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=dtypes.float32, seed=None,
                     name=None) -> Tensor:
    """``tf.random.truncated_normal``: normal samples redrawn beyond two standard deviations."""
    dtype = _check_dtype(dtype, _FLOAT_DTYPES)
    with _name_scope(name or "truncated_normal"):
        shape_t = _shape_tensor(shape)
        seed1, seed2 = get_seed(seed)
        rnd = apply_op("TruncatedNormal", [shape_t],
                       {"dtype": dtype, "seed": seed1, "seed2": seed2}, name="TruncatedNormal")
        return _scale_shift(rnd, mean, stddev, dtype)


def _categorical_args(logits, num_samples, dtype):
    dtype = _check_dtype(dtypes.int64 if dtype is None else dtype, ("int32", "int64"))
    logits = convert_to_tensor(logits, name="logits")
    num = convert_to_tensor(num_samples, dtype=dtypes.int32, name="num_samples")
    return logits, num, dtype


def categorical(logits, num_samples, dtype=None, seed=None, name=None) -> Tensor:
    """``tf.random.categorical``: ``num_samples`` class indices per row of ``logits`` [batch, classes]."""
    with _name_scope(name or "categorical"):
        logits, num, dtype = _categorical_args(logits, num_samples, dtype)
        seed1, seed2 = get_seed(seed)
        return apply_op("Multinomial", [logits, num],
                        {"output_dtype": dtype, "seed": seed1, "seed2": seed2}, name="Multinomial")


def shuffle(value, seed=None, name=None) -> Tensor:
    """``tf.random.shuffle``: permutes ``value`` along its first dimension."""
    value = convert_to_tensor(value, name="value")
    seed1, seed2 = get_seed(seed)
    return apply_op("RandomShuffle", [value], {"seed": seed1, "seed2": seed2},
                    name=name or "RandomShuffle")


def _gamma_alpha(alpha, beta, dtype):
    alpha = convert_to_tensor(alpha, dtype=dtype, name="alpha")
    beta_t = None if beta is None else convert_to_tensor(beta, dtype=dtype, name="beta")
    if beta_t is not None:  # alpha is broadcast against beta before sampling, as TF does
        alpha = math_ops.add(alpha, array_ops.zeros_like(beta_t), name="broadcast_alpha")
    return alpha, beta_t


def _gamma_scale(sample, beta_t, dtype):
    if beta_t is not None:
        sample = math_ops.divide(sample, beta_t, name="scale")
    tiny = convert_to_tensor(np.finfo(dtype.numpy_dtype).tiny, dtype=dtype, name="tiny")
    return math_ops.maximum(tiny, sample, name="gamma")


def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """``tf.random.gamma``: shape ``shape + broadcast(alpha, beta).shape``; beta is a rate."""
    dtype = _check_dtype(dtype, ("float16", "float32", "float64"))
    with _name_scope(name or "random_gamma"):
        shape_t = _shape_tensor(shape)
        alpha, beta_t = _gamma_alpha(alpha, beta, dtype)
        seed1, seed2 = get_seed(seed)
        sample = apply_op("RandomGamma", [shape_t, alpha], {"seed": seed1, "seed2": seed2},
                          name="RandomGamma")
        return _gamma_scale(sample, beta_t, dtype)


def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """``tf.random.poisson``: shape ``shape + lam.shape``."""
    dtype = _check_dtype(dtype, ("float16", "float32", "float64", "int32", "int64"))
    with _name_scope(name or "random_poisson"):
        shape_t = _shape_tensor(shape)
        lam = convert_to_tensor(lam, name="lam")
        seed1, seed2 = get_seed(seed)
        return apply_op("RandomPoissonV2", [shape_t, lam],
                        {"dtype": dtype, "seed": seed1, "seed2": seed2}, name="RandomPoissonV2")


# -- stateless ------------------------------------------------------------------------------

def _seed_tensor(seed) -> Tensor:
    return convert_to_tensor(seed, name="seed")


class PhiloxState:
    """A ``tf.random.Generator``'s state ([counter_lo, counter_hi, key], int64) given where a
    stateless op takes a seed: the op samples at that key and counter, as TF's V2 ops do."""

    def __init__(self, state: Tensor):
        self.state = state


def _seed_input(seed) -> tuple:
    """The seed input of a stateless op, and the attrs saying what kind it is."""
    if isinstance(seed, PhiloxState):
        return seed.state, {"philox_state": True}
    return _seed_tensor(seed), {"philox_state": False}


def stateless_uniform(shape, seed, minval=0, maxval=None, dtype=dtypes.float32, name=None,
                      alg="auto_select") -> Tensor:
    """``tf.random.stateless_uniform``: integers need both bounds, or neither (the full range)."""
    dtype = as_dtype(dtype)
    with _name_scope(name or "stateless_random_uniform"):
        shape_t, (seed_t, kind) = _shape_tensor(shape), _seed_input(seed)
        if dtype.is_integer:
            if (minval is None) != (maxval is None):
                raise ValueError(
                    f"For integer `dtype` argument {dtype!r}, argument `minval` and `maxval` "
                    f"must be both None or not None. Got `minval`={minval} and `maxval`={maxval}.")
            if minval is None:
                return apply_op("StatelessRandomUniformFullIntV2", [shape_t, seed_t],
                                {"dtype": dtype, **kind}, name="StatelessRandomUniformFullIntV2")
            lo = convert_to_tensor(minval, dtype=dtype, name="min")
            hi = convert_to_tensor(maxval, dtype=dtype, name="max")
            return apply_op("StatelessRandomUniformIntV2", [shape_t, lo, hi, seed_t], kind,
                            name="StatelessRandomUniformIntV2")
        _check_dtype(dtype, _FLOAT_DTYPES)
        rnd = apply_op("StatelessRandomUniformV2", [shape_t, seed_t], {"dtype": dtype, **kind},
                       name="StatelessRandomUniformV2")
        lo = convert_to_tensor(minval, dtype=dtype, name="min")
        hi = convert_to_tensor(1 if maxval is None else maxval, dtype=dtype, name="max")
        return math_ops.add(math_ops.multiply(rnd, math_ops.subtract(hi, lo, name="sub"),
                                              name="mul"), lo, name="add")


def _stateless_normal(op: str, default_name: str):
    def sample(shape, seed, mean=0.0, stddev=1.0, dtype=dtypes.float32, name=None,
               alg="auto_select") -> Tensor:
        dtype = _check_dtype(dtype, _FLOAT_DTYPES)
        with _name_scope(name or default_name):
            seed_t, kind = _seed_input(seed)
            rnd = apply_op(op, [_shape_tensor(shape), seed_t], {"dtype": dtype, **kind}, name=op)
            return _scale_shift(rnd, mean, stddev, dtype)
    sample.__name__ = default_name
    return sample


stateless_normal = _stateless_normal("StatelessRandomNormalV2", "stateless_random_normal")
stateless_truncated_normal = _stateless_normal("StatelessTruncatedNormalV2",
                                               "stateless_truncated_normal")


def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None) -> Tensor:
    with _name_scope(name or "stateless_categorical"):
        logits, num, dtype = _categorical_args(logits, num_samples, dtype)
        seed_t, kind = _seed_input(seed)
        return apply_op("StatelessMultinomial", [logits, num, seed_t],
                        {"output_dtype": dtype, **kind}, name="StatelessMultinomial")


def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None) -> Tensor:
    """``tf.random.stateless_random_binomial``: counts and probs broadcast to ``shape``."""
    with _name_scope(name or "stateless_random_binomial"):
        probs = convert_to_tensor(probs, dtype_hint=dtypes.float32, name="probs")
        counts = convert_to_tensor(counts, dtype_hint=probs.dtype, name="counts")
        return apply_op("StatelessRandomBinomial",
                        [_shape_tensor(shape), counts, probs, _seed_tensor(seed)],
                        {"dtype": as_dtype(output_dtype)}, name="StatelessRandomBinomial")


def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None) -> Tensor:
    dtype = _check_dtype(dtype, ("float16", "float32", "float64"))
    with _name_scope(name or "stateless_random_gamma"):
        alpha, beta_t = _gamma_alpha(alpha, beta, dtype)
        sample = apply_op("StatelessRandomGammaV2", [_shape_tensor(shape), alpha,
                                                     _seed_tensor(seed)],
                          {"philox_state": False}, name="StatelessRandomGammaV2")
        return _gamma_scale(sample, beta_t, dtype)


def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None) -> Tensor:
    dtype = _check_dtype(dtype, ("float16", "float32", "float64", "int32", "int64"))
    with _name_scope(name or "stateless_random_poisson"):
        return apply_op("StatelessRandomPoisson",
                        [_shape_tensor(shape), convert_to_tensor(lam, name="lam"),
                         _seed_tensor(seed)], {"dtype": dtype, "philox_state": False},
                        name="StatelessRandomPoisson")
