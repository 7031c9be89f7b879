"""Random ops: stateful ones seeded by attrs, and stateless ones seeded by a tensor.

Like TensorFlow's kernels, each op owns a generator seeded from its attrs
``seed``/``seed2``; every run of a compiled graph continues that generator's
sequence, so a graph gives new numbers on each run, and the same seeds give
the same sequence in every program run. ``seed == seed2 == 0`` means "not
seeded": the generator is seeded from fresh entropy.

In a graph, each node gets its own generator when the graph is compiled
(``build``). Eagerly there is no node, so generators live in a small cache
keyed by (op, dtype, seed, seed2) — TensorFlow's kernel cache — that
``reset_eager_generators`` empties when the global seed is set again. Setting
it again also restarts the generators of compiled graphs (an epoch counter
each graph kernel compares on its next run), as TensorFlow's ``set_seed``
makes a ``tf.function`` repeat its numbers.

Stateless ops (``StatelessRandom*``) take a ``seed`` tensor of shape [2] as
their last input and draw from a generator made from it on every run: the
same seed gives the same values, eagerly, staged and after saving. Their
bits are numpy's PCG64 streams, not TensorFlow's Philox ones.
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


_epoch = [0]  # bumped by reset_eager_generators: graph kernels then restart their sequences


def reset_eager_generators() -> None:
    """Forgets generator state, eager and compiled (``tf.random.set_seed`` restarts sequences)."""
    _eager_generators.clear()
    _epoch[0] += 1


def _eager_generator(key, seed: int, seed2: int) -> np.random.Generator:
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


def _truncated_normal(gen, shape, dtype):
    """Normal samples redrawn until all lie within two standard deviations."""
    np_dtype = as_dtype(dtype).numpy_dtype
    out = gen.standard_normal(_size(shape))
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = gen.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2.0
    return out.astype(np_dtype)


def _uniform_full_int(gen, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    info = np.iinfo(np_dtype)
    return gen.integers(info.min, info.max, size=_size(shape), dtype=np_dtype, endpoint=True)


def _multinomial(gen, logits, num_samples, output_dtype):
    """Inverse-CDF sampling of each row of ``logits`` (unnormalized log-probabilities)."""
    logits = np.asarray(logits, dtype=np.float64)
    n = int(num_samples)
    if n < 0:
        raise InvalidArgumentError(message=f"num_samples should be nonnegative, got {n}")
    batch, classes = logits.shape
    out = np.zeros((batch, n), dtype=as_dtype(output_dtype).numpy_dtype)
    if classes == 0 or n == 0:
        return out
    top = np.max(logits, axis=1, keepdims=True)
    cdf = np.cumsum(np.exp(logits - np.where(np.isfinite(top), top, 0.0)), axis=1)
    draws = gen.random((batch, n)) * cdf[:, -1:]
    for row in range(batch):
        out[row] = np.minimum(np.searchsorted(cdf[row], draws[row], side="right"), classes - 1)
    return out


def _shuffle(gen, value):
    value = np.asarray(value)
    if value.ndim == 0:
        return value.copy()
    return value[gen.permutation(value.shape[0])]


def _gamma(gen, shape, alpha):
    alpha = np.asarray(alpha)
    size = _size(shape) + alpha.shape
    return gen.standard_gamma(np.broadcast_to(alpha.astype(np.float64), size)).astype(alpha.dtype)


def _poisson(gen, shape, rate, dtype):
    rate = np.asarray(rate, dtype=np.float64)
    size = _size(shape) + rate.shape
    return gen.poisson(np.broadcast_to(rate, size)).astype(as_dtype(dtype).numpy_dtype)


def _binomial(gen, shape, counts, probs, dtype):
    size = _size(shape)
    counts = np.broadcast_to(np.asarray(counts, dtype=np.float64), size)
    probs = np.broadcast_to(np.asarray(probs, dtype=np.float64), size)
    if np.any(counts < 0) or np.any((probs < 0) | (probs > 1)):
        raise InvalidArgumentError(message="Binomial needs counts >= 0 and 0 <= probs <= 1")
    return gen.binomial(counts.astype(np.int64), probs).astype(as_dtype(dtype).numpy_dtype)


# -- inference of the new ops -----------------------------------------------------------

def _multinomial_infer(inputs, attrs, op="Multinomial"):
    expect_arity(op, inputs, 2)
    logits, num = inputs
    if not logits.dtype.is_floating:
        raise InvalidArgumentError(message=f"{op}: logits must be floats, got {logits.dtype.name}")
    if logits.shape.rank is not None and logits.shape.rank != 2:
        raise InvalidArgumentError(
            message=f"logits should be a matrix, got shape {list(logits.shape.as_tuple())}")
    if num.dtype.name != "int32" or num.shape.rank not in (None, 0):
        raise InvalidArgumentError(message=f"{op}: num_samples must be an int32 scalar")
    n = None if num.value is None else int(num.value)
    if n is not None and n < 0:
        raise InvalidArgumentError(message=f"num_samples should be nonnegative, got {n}")
    batch = logits.shape[0] if logits.shape.rank is not None else None
    dtype = as_dtype(attrs["output_dtype"])
    if dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(message=f"{op}: output_dtype must be int32 or int64")
    return [TensorType(dtype, TensorShape([batch, n]))]


def _shuffle_infer(inputs, attrs):
    expect_arity("RandomShuffle", inputs, 1)
    return [TensorType(inputs[0].dtype, inputs[0].shape)]


def _param_shape(op: str, shape, param) -> TensorShape:
    out = _output_shape(op, shape)
    if out.rank is None or param.shape.rank is None:
        return TensorShape(None)
    return TensorShape(list(out.as_tuple()) + list(param.shape.as_tuple()))


def _gamma_infer(inputs, attrs):
    expect_arity("RandomGamma", inputs, 2)
    if not inputs[1].dtype.is_floating:
        raise InvalidArgumentError(message=f"RandomGamma: alpha must be floats, got "
                                           f"{inputs[1].dtype.name}")
    return [TensorType(inputs[1].dtype, _param_shape("RandomGamma", *inputs))]


def _poisson_infer(inputs, attrs):
    expect_arity("RandomPoissonV2", inputs, 2)
    dtype = as_dtype(attrs["dtype"])
    if not (dtype.is_floating or dtype.name in ("int32", "int64")):
        raise InvalidArgumentError(message=f"RandomPoissonV2: dtype {dtype.name} is not allowed")
    return [TensorType(dtype, _param_shape("RandomPoissonV2", *inputs))]


def _binomial_infer(inputs, attrs):
    op = "StatelessRandomBinomial"
    expect_arity(op, inputs, 3)
    shape, counts, probs = inputs
    if counts.dtype != probs.dtype or not counts.dtype.is_floating and not counts.dtype.is_integer:
        raise InvalidArgumentError(message=f"{op}: counts and probs must have one numeric dtype, "
                                           f"got {counts.dtype.name} and {probs.dtype.name}")
    return [TensorType(as_dtype(attrs["dtype"]), _output_shape(op, shape))]


def _full_int_infer(inputs, attrs):
    expect_arity("StatelessRandomUniformFullInt", inputs, 1)
    dtype = as_dtype(attrs["dtype"])
    if dtype.name not in ("int32", "int64", "uint32", "uint64"):
        raise InvalidArgumentError(message=f"StatelessRandomUniformFullInt: dtype {dtype.name} "
                                           "is not one of int32, int64, uint32, uint64")
    return [TensorType(dtype, _output_shape("StatelessRandomUniformFullInt", inputs[0]))]


# -- registration -------------------------------------------------------------------------

def _kernel_key(op: str, inputs, attrs: dict) -> tuple:
    """TensorFlow's kernel cache key: the op, its attrs and its input dtypes."""
    return (op, tuple(sorted((k, repr(v)) for k, v in attrs.items())),
            tuple(np.asarray(x).dtype.str for x in inputs))


def _register_stateful(op: str, infer, sample, attrs=()):
    def eager_kernel(*inputs, seed=0, seed2=0, **kwargs):
        gen = _eager_generator(_kernel_key(op, inputs, kwargs) + (seed, seed2), seed, seed2)
        return sample(gen, *inputs, **kwargs)

    def build(node, compile_subgraph):
        seed, seed2 = node.attrs.get("seed", 0), node.attrs.get("seed2", 0)
        extra = {k: node.attrs[k] for k in attrs}
        state = [None, None]  # the generator, and the epoch it was made in

        def kernel(*inputs):
            if state[1] != _epoch[0]:
                state[0], state[1] = new_generator(seed, seed2), _epoch[0]
            return sample(state[0], *inputs, **extra)
        return kernel

    register_op(op, infer, eager_kernel, kernel_attrs=("seed", "seed2") + tuple(attrs),
                stateful=True, build=build)


def _seed_generator(seed) -> np.random.Generator:
    s = np.asarray(seed).reshape(-1)
    return np.random.Generator(np.random.PCG64([int(s[0]) & 0xFFFFFFFFFFFFFFFF,
                                                int(s[1]) & 0xFFFFFFFFFFFFFFFF]))


def _register_stateless(op: str, infer, sample, attrs=()):
    """``op`` takes the inputs of ``infer`` and then the seed: a [2] int32/int64 tensor."""
    def stateless_infer(inputs, node_attrs):
        seed = inputs[-1] if inputs else None
        if seed is None or not seed.dtype.name in ("int32", "int64"):
            raise InvalidArgumentError(
                message=f"{op}: the seed must be an int32 or int64 tensor, got "
                        f"{'nothing' if seed is None else seed.dtype.name}")
        if seed.shape.rank is not None and seed.shape.as_tuple() not in ((2,), (None,)):
            raise InvalidArgumentError(
                message=f"seed must have shape [2], not {list(seed.shape.as_tuple())}")
        return infer(inputs[:-1], node_attrs)

    def kernel(*inputs, **kwargs):
        seed = np.asarray(inputs[-1])
        if seed.shape != (2,):
            raise InvalidArgumentError(message=f"seed must have shape [2], not {list(seed.shape)}")
        return sample(_seed_generator(seed), *inputs[:-1], **kwargs)

    register_op(op, stateless_infer, kernel, kernel_attrs=tuple(attrs))


_register_stateful("RandomUniform", _float_rule("RandomUniform"), _uniform, ("dtype",))
_register_stateful("RandomStandardNormal", _float_rule("RandomStandardNormal"), _normal, ("dtype",))
_register_stateful("TruncatedNormal", _float_rule("TruncatedNormal"), _truncated_normal, ("dtype",))
_register_stateful("RandomUniformInt", _int_infer, _uniform_int)
_register_stateful("Multinomial", _multinomial_infer, _multinomial, ("output_dtype",))
_register_stateful("RandomShuffle", _shuffle_infer, _shuffle)
_register_stateful("RandomGamma", _gamma_infer, _gamma)
_register_stateful("RandomPoissonV2", _poisson_infer, _poisson, ("dtype",))

_register_stateless("StatelessRandomUniformV2", _float_rule("StatelessRandomUniformV2"), _uniform,
                    ("dtype",))
_register_stateless("StatelessRandomNormalV2", _float_rule("StatelessRandomNormalV2"), _normal,
                    ("dtype",))
_register_stateless("StatelessTruncatedNormalV2", _float_rule("StatelessTruncatedNormalV2"),
                    _truncated_normal, ("dtype",))
_register_stateless("StatelessRandomUniformIntV2", _int_infer, _uniform_int)
_register_stateless("StatelessRandomUniformFullIntV2", _full_int_infer, _uniform_full_int,
                    ("dtype",))
_register_stateless("StatelessMultinomial",
                    lambda i, a: _multinomial_infer(i, a, "StatelessMultinomial"), _multinomial,
                    ("output_dtype",))
_register_stateless("StatelessRandomBinomial", _binomial_infer, _binomial, ("dtype",))
_register_stateless("StatelessRandomGammaV2", _gamma_infer, _gamma)
_register_stateless("StatelessRandomPoisson", _poisson_infer, _poisson, ("dtype",))
