"""``tf.random``: uniform and normal samples with TensorFlow's seed rules.

Seeds follow ``tf.random.set_seed``'s documentation:

* neither a global nor an op seed: new random numbers every time;
* a global seed only: each op gets an op seed from a counter, so a program
  produces the same sequence on every run (eagerly the counter restarts at
  ``set_seed``; in a graph it counts the random ops of the graph being
  built, so two functions built alike produce the same numbers);
* an op seed only: the default global seed is used with it;
* both: fully determined.

The op keeps generator state: calling it again eagerly, or running its
graph again, continues the sequence instead of repeating it.
"""
from __future__ import annotations

import random as _py_random
import weakref
from contextlib import contextmanager

from graph import dtypes
from graph.dtypes import as_dtype
from graph.ops.random import reset_eager_generators
from runtime import context
from runtime.ops import math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import Tensor

DEFAULT_GRAPH_SEED = 87654321
_MAXINT32 = 2**31 - 1


class _SeedState:
    global_seed: int | None = None
    eager_rng = _py_random.Random()
    graph_counters: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


_state = _SeedState()


def set_seed(seed) -> None:
    """``tf.random.set_seed``: makes the random sequences of the program repeatable."""
    _state.global_seed = None if seed is None else int(seed)
    _state.eager_rng = _py_random.Random(_state.global_seed)
    _state.graph_counters = weakref.WeakKeyDictionary()
    reset_eager_generators()


def _next_graph_op_seed(graph) -> int:
    root = graph
    while root.outer is not None:
        root = root.outer
    count = _state.graph_counters.get(root, 0) + 1
    _state.graph_counters[root] = count
    return count


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


def _is_python_number(value, target) -> bool:
    return isinstance(value, (int, float)) and not isinstance(value, bool) and value == target


def uniform(shape, minval=0, maxval=None, dtype=dtypes.float32, seed=None, name=None) -> Tensor:
    """``tf.random.uniform``: samples in [minval, maxval) (maxval defaults to 1 for floats)."""
    dtype = as_dtype(dtype)
    if dtype.is_integer and maxval is None:
        raise ValueError(f"Must specify maxval for integer dtype {dtype.name} "
                         f"(at {current_origin()})")
    if not (dtype.is_integer or dtype.is_floating):
        raise ValueError(f"tf.random.uniform makes int or float tensors, not {dtype.name}")
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
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"tf.random.normal makes float tensors, not {dtype.name} "
                         f"(at {current_origin()})")
    with _name_scope(name or "random_normal"):
        shape_t = _shape_tensor(shape)
        mean_t = convert_to_tensor(mean, dtype=dtype, name="mean")
        std_t = convert_to_tensor(stddev, dtype=dtype, name="stddev")
        seed1, seed2 = get_seed(seed)
        rnd = apply_op("RandomStandardNormal", [shape_t],
                       {"dtype": dtype, "seed": seed1, "seed2": seed2},
                       name="RandomStandardNormal")
        return math_ops.add(math_ops.multiply(rnd, std_t, name="mul"), mean_t, name="add")
