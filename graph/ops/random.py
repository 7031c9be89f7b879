"""Stateful random ops: RandomUniform, RandomStandardNormal, RandomUniformInt.

Like TensorFlow's kernels, each op owns a generator seeded from its attrs
``seed``/``seed2``; every run of a compiled graph continues that generator's
sequence, so a graph gives new numbers on each run, and the same seeds give
the same sequence in every program run. ``seed == seed2 == 0`` means "not
seeded": the generator is seeded from fresh entropy.

In a graph, each node gets its own generator when the graph is compiled
(``build``). Eagerly there is no node, so generators live in a small cache
keyed by (op, dtype, seed, seed2) — TensorFlow's kernel cache — that
``reset_eager_generators`` empties when the global seed is set again.
"""
from __future__ import annotations

from collections import OrderedDict

import numpy as np

from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape

_EAGER_CACHE_SIZE = 1024
_eager_generators: "OrderedDict[tuple, np.random.Generator]" = OrderedDict()


def new_generator(seed: int, seed2: int) -> np.random.Generator:
    if seed == 0 and seed2 == 0:
        return np.random.default_rng()
    return np.random.Generator(np.random.PCG64([int(seed) & 0xFFFFFFFFFFFFFFFF,
                                                int(seed2) & 0xFFFFFFFFFFFFFFFF]))


def reset_eager_generators() -> None:
    """Forgets eager generator state (``tf.random.set_seed`` restarts sequences)."""
    _eager_generators.clear()


def _eager_generator(key) -> np.random.Generator:
    op, dtype, seed, seed2 = key
    if seed == 0 and seed2 == 0:
        return new_generator(0, 0)
    gen = _eager_generators.get(key)
    if gen is None:
        gen = _eager_generators[key] = new_generator(seed, seed2)
        if len(_eager_generators) > _EAGER_CACHE_SIZE:
            _eager_generators.popitem(last=False)
    else:
        _eager_generators.move_to_end(key)
    return gen


# -- inference ---------------------------------------------------------------------

def _output_shape(op: str, shape_input) -> TensorShape:
    if not shape_input.dtype.is_integer:
        raise InvalidArgumentError(
            message=f"{op}: shape must be an int32 or int64 tensor, got {shape_input.dtype.name}")
    rank = shape_input.shape.rank
    if rank is not None and rank != 1:
        raise InvalidArgumentError(
            message=f"{op}: shape must be a vector (rank 1), got rank {rank}")
    value = shape_input.value
    if value is not None:
        dims = [int(d) for d in np.asarray(value).reshape(-1)]
        if any(d < 0 for d in dims):
            raise InvalidArgumentError(message=f"{op}: shape {dims} has a negative dimension")
        return TensorShape(dims)
    n = shape_input.shape[0] if rank == 1 else None
    return TensorShape(None) if n is None else TensorShape([None] * n)


def _float_rule(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        dtype = as_dtype(attrs["dtype"])
        if not dtype.is_floating:
            raise InvalidArgumentError(
                message=f"{op} makes float tensors, not {dtype.name}; for integers use "
                        "tf.random.uniform(shape, minval, maxval, dtype=tf.int32)")
        return [TensorType(dtype, _output_shape(op, inputs[0]))]
    return infer


def _int_infer(inputs, attrs):
    op = "RandomUniformInt"
    expect_arity(op, inputs, 3)
    shape, lo, hi = inputs
    if lo.dtype != hi.dtype or not lo.dtype.is_integer:
        raise InvalidArgumentError(
            message=f"{op}: minval and maxval must be integers of one dtype, got "
                    f"{lo.dtype.name} and {hi.dtype.name}")
    for t, name in ((lo, "minval"), (hi, "maxval")):
        if t.shape.rank not in (None, 0):
            raise InvalidArgumentError(message=f"{op}: {name} must be a scalar, got shape {t.shape}")
    if lo.value is not None and hi.value is not None and not lo.value < hi.value:
        raise InvalidArgumentError(
            message=f"{op}: Need minval < maxval: {lo.value} >= {hi.value}. "
                    "For integer dtypes tf.random.uniform needs an explicit maxval.")
    return [TensorType(lo.dtype, _output_shape(op, shape))]


# -- sampling ----------------------------------------------------------------------

def _size(shape) -> tuple:
    size = tuple(int(d) for d in np.asarray(shape).reshape(-1))
    if any(d < 0 for d in size):
        raise InvalidArgumentError(message=f"Random shape {list(size)} has a negative dimension")
    return size


def _uniform(gen, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    if np_dtype == np.float16:  # sample in float32, keep the result below 1.0
        value = gen.random(_size(shape), dtype=np.float32).astype(np.float16)
        return np.minimum(value, np.float16(0.99951))
    return gen.random(_size(shape), dtype=np_dtype)


def _normal(gen, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    if np_dtype == np.float16:
        return gen.standard_normal(_size(shape), dtype=np.float32).astype(np.float16)
    return gen.standard_normal(_size(shape), dtype=np_dtype)


def _uniform_int(gen, shape, minval, maxval):
    lo, hi = np.asarray(minval), np.asarray(maxval)
    if not lo < hi:
        raise InvalidArgumentError(message=f"Need minval < maxval: {lo} >= {hi}")
    return gen.integers(lo, hi, size=_size(shape), dtype=lo.dtype)


def _register(op: str, infer, sample, dtype_of):
    def eager_kernel(*inputs, seed=0, seed2=0, dtype=None):
        key = (op, dtype_of(inputs, dtype), seed, seed2)
        return sample(_eager_generator(key), *inputs, **({} if dtype is None else {"dtype": dtype}))

    def build(node, compile_subgraph):
        gen = new_generator(node.attrs.get("seed", 0), node.attrs.get("seed2", 0))
        extra = {} if "dtype" not in node.attrs else {"dtype": node.attrs["dtype"]}
        return lambda *inputs: sample(gen, *inputs, **extra)

    attrs = ("seed", "seed2") + (("dtype",) if dtype_of is _attr_dtype else ())
    register_op(op, infer, eager_kernel, kernel_attrs=attrs, stateful=True, build=build)


def _attr_dtype(inputs, dtype):
    return as_dtype(dtype).name


def _input_dtype(inputs, dtype):
    return np.asarray(inputs[1]).dtype.name


_register("RandomUniform", _float_rule("RandomUniform"), _uniform, _attr_dtype)
_register("RandomStandardNormal", _float_rule("RandomStandardNormal"), _normal, _attr_dtype)
_register("RandomUniformInt", _int_infer, _uniform_int, _input_dtype)
