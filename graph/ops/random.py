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
their last input (or, with ``philox_state``, a ``tf.random.Generator``'s
state) and draw from it on every run: the same seed gives the same values,
eagerly, staged and after saving.

Uniform, normal, truncated normal, integer and categorical samples,
shuffles, and Poisson and gamma samples, stateful and stateless, are TensorFlow's
own values: Philox4x32-10 bits (the ``Philox`` section) converted as TensorFlow's
CPU kernels convert them, a stateful op's stream moving on as TensorFlow reserves
it. Binomial samples come from numpy's PCG64
instead, so their values are not TensorFlow's.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import math
from collections import OrderedDict

import numpy as np

from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity, static_value
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


def _eager_generator(key, seed: int, seed2: int, make=new_generator):
    if seed == 0 and seed2 == 0:
        return make(0, 0)
    gen = _eager_generators.get(key)
    if gen is None:
        gen = _eager_generators[key] = make(seed, seed2)
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
    value = static_value(shape_input)
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


# -- Gamma: TensorFlow's own samples (Marsaglia-Tsang, as its CPU kernel draws them) ---------
# Sample i reads the Philox stream from block 256 * i; normals (Box-Muller, two per block) and
# uniforms (two doubles per block) come from that one stream, each taken last one first.

class _SampleStream:
    """One sample's Philox blocks, read in order, as normals or as uniform doubles: the first
    ``_PREFETCH`` blocks' values come precomputed (for all samples at once), later ones are
    drawn one block at a time."""

    def __init__(self, key, counter, sample: int, normals, uniforms):
        self.key, self.counter, self.first, self.used = key, counter, 256 * sample, 0
        self.pre_normals, self.pre_uniforms = normals, uniforms
        self.normals: list = []
        self.uniforms: list = []

    def _next_pair(self, normal: bool) -> list:
        j, self.used = self.used, self.used + 1
        if j < len(self.pre_normals):
            pair = self.pre_normals[j] if normal else self.pre_uniforms[j]
        else:
            bits = philox_blocks(self.key, self.counter, 1,
                                 np.array([self.first + j], dtype=np.uint64)).reshape(-1)
            pair = _box_muller(bits, np.float64) if normal else _unit_float(bits, np.float64)
        return [float(pair[0]), float(pair[1])]

    def normal(self) -> float:
        if not self.normals:
            self.normals = self._next_pair(True)
        return self.normals.pop()

    def uniform(self) -> float:
        if not self.uniforms:
            self.uniforms = self._next_pair(False)
        return self.uniforms.pop()


_PREFETCH = 4  # blocks per sample computed up front (rejections rarely need more)


def _gamma_sample(stream: _SampleStream, alpha: float) -> float:
    if alpha == 1.0:
        return -math.log1p(-stream.uniform())
    d = alpha + (2.0 / 3 if alpha < 1 else -1.0 / 3)
    c = 1.0 / 3 / math.sqrt(d)
    while True:
        x = stream.normal()
        v = 1 + c * x
        if v <= 0:
            continue
        v = v * v * v
        u = stream.uniform()
        if u < 1 - 0.0331 * (x * x) * (x * x) or \
                math.log(u) < 0.5 * x * x + d * (1 - v + math.log(v)):
            res = d * v
            if alpha < 1:
                res *= stream.uniform() ** (1 / alpha)
            return res


def _philox_gamma(key, counter, shape, alpha):
    """Gamma samples of ``shape`` (ending with alpha's shape), TensorFlow's values."""
    alpha = np.asarray(alpha)
    size = _size(shape)
    if size[len(size) - alpha.ndim:] != alpha.shape:
        raise InvalidArgumentError(message=f"Shape passed in must end with broadcasted shape. "
                                           f"shape {list(size)}, alpha shape {list(alpha.shape)}")
    alphas = alpha.reshape(-1).astype(np.float64)
    n = int(np.prod(size, dtype=np.int64))
    per_alpha = n // max(alphas.size, 1)
    out = np.empty(n)
    if n:
        blocks = (np.arange(n, dtype=np.uint64)[:, None] * np.uint64(256)
                  + np.arange(_PREFETCH, dtype=np.uint64)).reshape(-1)
        bits = philox_blocks(key, counter, blocks.size, blocks).reshape(-1)
        normals = _box_muller(bits, np.float64).reshape(n, _PREFETCH, 2)
        uniforms = _unit_float(bits, np.float64).reshape(n, _PREFETCH, 2)
    for i in range(n):  # sample i: alpha i // per_alpha, at (i % per_alpha) * A + alpha index
        a = i // per_alpha
        stream = _SampleStream(key, counter, i, normals[i], uniforms[i])
        out[(i % per_alpha) * alphas.size + a] = _gamma_sample(stream, float(alphas[a]))
    return out.reshape(size).astype(alpha.dtype)


def _philox_stateful_gamma(key, counter, shape, alpha):
    """RandomGamma: ``shape + alpha.shape`` samples, from the stream's reserved blocks."""
    alpha = np.asarray(alpha)
    return _philox_gamma(key, counter, list(_size(shape)) + list(alpha.shape), alpha)


# -- Poisson: TensorFlow's own samples ----------------------------------------------------
# Sample i (of rate r = i // per_rate) reads the Philox stream from block 256 * i, taking the
# two doubles of each block last one first; rates below 10 use Knuth's product of uniforms,
# the others Hormann's transformed rejection (PTRS), as TensorFlow's CPU kernel does.

_POISSON_BLOCKS_PER_SAMPLE = 256
_POISSON_CHUNK = 8  # blocks drawn per sample at a time (16 uniforms)


def _sample_doubles(key, counter, samples, first_block: int) -> np.ndarray:
    """``[len(samples), 2 * _POISSON_CHUNK]`` uniform doubles of each sample's stream."""
    blocks = (samples.astype(np.uint64)[:, None] * np.uint64(_POISSON_BLOCKS_PER_SAMPLE)
              + np.uint64(first_block) + np.arange(_POISSON_CHUNK, dtype=np.uint64))
    bits = philox_blocks(key, counter, blocks.size, blocks.reshape(-1))
    pairs = _unit_float(bits.reshape(-1), np.float64).reshape(len(samples), _POISSON_CHUNK, 2)
    return pairs[:, :, ::-1].reshape(len(samples), -1)


def _poisson_knuth(key, counter, samples, rate) -> np.ndarray:
    """The first count x with u_0 * ... * u_x <= exp(-rate), multiplied in stream order."""
    out = np.zeros(len(samples))
    prod, done = np.ones(len(samples)), np.zeros(len(samples))
    todo, block = np.arange(len(samples)), 0
    while todo.size:
        u = _sample_doubles(key, counter, samples[todo], block)
        products = np.cumprod(np.concatenate([prod[todo, None], u], axis=1), axis=1)[:, 1:]
        hit = products <= np.exp(-rate[todo])[:, None]
        found = hit.any(axis=1)
        out[todo[found]] = done[todo[found]] + hit[found].argmax(axis=1)
        prod[todo], done[todo] = products[:, -1], done[todo] + u.shape[1]
        todo, block = todo[~found], block + _POISSON_CHUNK
    return out


# (candidates PTRS rejects anyway may be negative or infinite: no lgamma for them)
_lgamma = np.frompyfunc(lambda v: math.lgamma(v) if 0 < v < math.inf else math.nan, 1, 1)


def _poisson_ptrs(key, counter, samples, rate) -> np.ndarray:
    """Hormann's PTRS: pairs (U, V) of the stream until one is accepted."""
    out = np.zeros(len(samples))
    b = 0.931 + 2.53 * np.sqrt(rate)
    a = -0.059 + 0.02483 * b
    inv_alpha = 1.1239 + 1.1328 / (b - 3.4)
    v_r = 0.9277 - 3.6224 / (b - 2)
    todo, block = np.arange(len(samples)), 0
    while todo.size:
        u = _sample_doubles(key, counter, samples[todo], block)
        U, V = u[:, 0::2] - 0.5, u[:, 1::2]
        ta, tb, tr = a[todo, None], b[todo, None], rate[todo, None]
        us = 0.5 - np.abs(U)
        k = np.floor((2 * ta / us + tb) * U + tr + 0.43)
        quick = (us >= 0.07) & (V <= v_r[todo, None])
        rejected = (k < 0) | ((us < 0.013) & (V > us))
        with np.errstate(all="ignore"):
            s = np.log(V * inv_alpha[todo, None] / (ta / (us * us) + tb))
            t = -tr + k * np.log(tr) - _lgamma(k + 1).astype(np.float64)
        accept = quick | (~rejected & (s <= t))
        found = accept.any(axis=1)
        first = accept[found].argmax(axis=1)
        out[todo[found]] = k[found][np.arange(found.sum()), first]
        todo, block = todo[~found], block + _POISSON_CHUNK
    return out


def _philox_poisson(key, counter, shape, rate, dtype):
    """Poisson samples of ``shape`` (ending with the rates' shape), TensorFlow's values."""
    rate = np.asarray(rate, dtype=np.float64)
    size = _size(shape)
    if size[len(size) - rate.ndim:] != rate.shape:
        raise InvalidArgumentError(message=f"Shape passed in must end with broadcasted shape. "
                                           f"shape {list(size)}, rate shape {list(rate.shape)}")
    rates = rate.reshape(-1)
    n = int(np.prod(size, dtype=np.int64))
    per_rate = n // max(rates.size, 1)
    samples = np.arange(n, dtype=np.int64)  # sample i: rate i // per_rate, in the output at
    rate_of = rates[samples // max(per_rate, 1)] if n else rates[:0]  # (i % per_rate) * R + r
    values = np.zeros(n)
    small = rate_of < 10
    if small.any():
        values[small] = _poisson_knuth(key, counter, samples[small], rate_of[small])
    if (~small).any():
        values[~small] = _poisson_ptrs(key, counter, samples[~small], rate_of[~small])
    out = np.empty(n)
    if n:
        out[(samples % per_rate) * rates.size + samples // per_rate] = values
    return out.reshape(size).astype(as_dtype(dtype).numpy_dtype)


def _philox_stateful_poisson(key, counter, shape, rate, dtype):
    """RandomPoissonV2: ``shape + rate.shape`` samples, drawn as the stateless op draws them
    from the stream's reserved blocks (256 per sample)."""
    rate = np.asarray(rate)
    return _philox_poisson(key, counter, list(_size(shape)) + list(rate.shape), rate, dtype)


def _stateful_poisson_blocks(shape, rate, *rest) -> int:
    return 256 * int(np.prod(_size(shape))) * int(np.asarray(rate).size)


def _stateless_poisson_infer(inputs, attrs):
    expect_arity("StatelessRandomPoisson", inputs, 2)
    dtype = as_dtype(attrs["dtype"])
    if not (dtype.is_floating or dtype.name in ("int32", "int64")):
        raise InvalidArgumentError(
            message=f"StatelessRandomPoisson: dtype {dtype.name} is not allowed")
    return [TensorType(dtype, _output_shape("StatelessRandomPoisson", inputs[0]))]


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


def _stateless_gamma_infer(inputs, attrs):
    expect_arity("StatelessRandomGammaV2", inputs, 2)
    if not inputs[1].dtype.is_floating:
        raise InvalidArgumentError(message=f"StatelessRandomGammaV2: alpha must be floats, got "
                                           f"{inputs[1].dtype.name}")
    return [TensorType(inputs[1].dtype, _output_shape("StatelessRandomGammaV2", inputs[0]))]


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


class PhiloxStream:
    """A stateful op's Philox bits, as TensorFlow's GuardedPhiloxRandom: key ``seed``,
    counter ``[0, seed2]``; each run reserves 256 blocks per value it draws."""

    def __init__(self, seed: int, seed2: int):
        if seed == 0 and seed2 == 0:  # not seeded: fresh entropy
            seed, seed2 = (int(v) for v in np.random.default_rng().integers(
                0, 1 << 63, size=2, dtype=np.int64))
        self.key, self.counter = seed & _U64, (seed2 & _U64) << 64

    def reserve(self, blocks: int) -> tuple:
        """(key, counter) for a draw; the stream moves ``blocks`` blocks past it."""
        counter = self.counter
        self.counter = (counter + blocks) % (1 << 128)
        return self.key, (counter & _U64, counter >> 64)


def _register_stateful(op: str, infer, sample, attrs=(), philox_bits: bool = True):
    """``sample(key, counter, *inputs)`` draws TensorFlow's Philox bits; with
    ``philox_bits=False`` it is ``sample(numpy_generator, *inputs)`` (gamma, Poisson)."""
    philox = sample if philox_bits else None
    make = PhiloxStream if philox is not None else new_generator
    blocks = _stateful_blocks.get(sample, lambda shape, *rest: 256 * int(np.prod(_size(shape))))

    def draw(gen, *inputs, **kwargs):
        if philox is None:
            return sample(gen, *inputs, **kwargs)
        return philox(*gen.reserve(blocks(*inputs)), *inputs, **kwargs)

    def eager_kernel(*inputs, seed=0, seed2=0, **kwargs):
        gen = _eager_generator(_kernel_key(op, inputs, kwargs) + (seed, seed2), seed, seed2,
                               make)
        return draw(gen, *inputs, **kwargs)

    def build(node, compile_subgraph):
        seed, seed2 = node.attrs.get("seed", 0), node.attrs.get("seed2", 0)
        extra = {k: node.attrs[k] for k in attrs}
        state = [None, None]  # the generator, and the epoch it was made in

        def kernel(*inputs):
            if state[1] != _epoch[0]:
                state[0], state[1] = make(seed, seed2), _epoch[0]
            return draw(state[0], *inputs, **extra)
        return kernel

    register_op(op, infer, eager_kernel, kernel_attrs=("seed", "seed2") + tuple(attrs),
                stateful=True, build=build)


def _seed_generator(seed) -> np.random.Generator:
    s = np.asarray(seed).reshape(-1)
    return np.random.Generator(np.random.PCG64([int(s[0]) & 0xFFFFFFFFFFFFFFFF,
                                                int(s[1]) & 0xFFFFFFFFFFFFFFFF]))


# -- Philox: TensorFlow's stateless bits --------------------------------------------------
# Stateless samples (and ``tf.random.Generator``'s, which are stateless samples at the
# generator's key and counter) are TensorFlow's: Philox4x32-10 blocks of four uint32 from a
# 64-bit key and a 128-bit counter, turned into values exactly as TensorFlow's CPU kernels
# do (float math emulated in float32 where TF computes in float).

_PHILOX_M = (np.uint64(0xD2511F53), np.uint64(0xCD9E8D57))
_PHILOX_W = (0x9E3779B9, 0xBB67AE85)
_LOW32 = np.uint64(0xFFFFFFFF)
_U64 = 0xFFFFFFFFFFFFFFFF


def philox_blocks(key: int, counter: tuple, n, offsets=None) -> np.ndarray:
    """Philox4x32-10 blocks (``[n, 4]`` uint32) at counters ``counter`` + 0, 1, ... n-1
    (or + each of ``offsets``, a uint64 array)."""
    k0, k1 = key & 0xFFFFFFFF, (key >> 32) & 0xFFFFFFFF
    start = np.uint64(counter[0] & _U64)
    lo = start + (np.arange(n, dtype=np.uint64) if offsets is None else offsets)
    hi = np.uint64(counter[1] & _U64) + (lo < start).astype(np.uint64)
    x0, x1, x2, x3 = lo & _LOW32, lo >> np.uint64(32), hi & _LOW32, hi >> np.uint64(32)
    for _ in range(10):
        p0, p1 = _PHILOX_M[0] * x0, _PHILOX_M[1] * x2
        x0, x1, x2, x3 = ((p1 >> np.uint64(32)) ^ x1 ^ np.uint64(k0), p1 & _LOW32,
                          (p0 >> np.uint64(32)) ^ x3 ^ np.uint64(k1), p0 & _LOW32)
        k0, k1 = (k0 + _PHILOX_W[0]) & 0xFFFFFFFF, (k1 + _PHILOX_W[1]) & 0xFFFFFFFF
    return np.stack([x0, x1, x2, x3], axis=1).astype(np.uint32)


def key_counter_from_seed(seed) -> tuple:
    """TensorFlow's ``StatelessRandomGetKeyCounter``: the seed scrambled by one Philox block."""
    s0, s1 = (int(v) & _U64 for v in np.asarray(seed).reshape(-1))
    mix = philox_blocks(0x02461E293EC8F720, (s0, s1), 1)[0].astype(np.uint64)
    return int(mix[0] | mix[1] << np.uint64(32)), (0, int(mix[2] | mix[3] << np.uint64(32)))


def _bits(key, counter, count: int, skip_blocks: int = 0) -> np.ndarray:
    """The first ``count`` uint32 of the stream starting ``skip_blocks`` blocks in."""
    start = ((counter[0] & _U64) | (counter[1] & _U64) << 64) + skip_blocks
    blocks = philox_blocks(key, (start & _U64, (start >> 64) & _U64), -(-count // 4))
    return blocks.reshape(-1)[:count]


def _f32(x) -> np.ndarray:
    return np.asarray(x, dtype=np.float64).astype(np.float32)


def _unit_float(bits, dtype):
    """Uniform [0, 1) from the mantissa bits, as TF's Uint32ToFloat/Uint64ToDouble/ToHalf."""
    if dtype == np.float64:
        pairs = bits.reshape(-1, 2).astype(np.uint64)
        man = (pairs[:, 0] & np.uint64(0xFFFFF)) << np.uint64(32) | pairs[:, 1]
        return (np.uint64(1023 << 52) | man).view(np.float64) - 1.0
    if dtype == np.float16:
        return ((bits & np.uint32(0x3FF)).astype(np.uint16) | np.uint16(15 << 10)).view(
            np.float16) - np.float16(1)
    return ((bits & np.uint32(0x7FFFFF)) | np.uint32(0x3F800000)).view(np.float32) - \
        np.float32(1)


def _c_math():
    """The C library's float and double log/sin/cos, which TensorFlow's kernels call (None
    where the C math library cannot be loaded)."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
    except OSError:
        return None
    funcs = {}
    for name in ("log", "sin", "cos"):
        f = getattr(libm, name + "f")
        f.restype, f.argtypes = ctypes.c_float, [ctypes.c_float]
        funcs[name, np.float32] = np.frompyfunc(f, 1, 1)
        funcs[name, np.float64] = np.frompyfunc(getattr(math, name), 1, 1)
    return funcs


_C_MATH = _c_math()
_SLACK = {("log", np.float32): 0.35, ("sin", np.float32): 0.1, ("cos", np.float32): 0.1}


def _c_value(name: str, x: np.ndarray, dtype) -> np.ndarray:
    """``name(x)`` as the C library computes it in ``dtype``: the correctly rounded value
    (from a wider type) except within the C function's error of a rounding boundary, where
    the C function itself is called (its float results are up to ~0.8 ulp off)."""
    wide = np.float64 if dtype == np.float32 else np.longdouble
    exact = getattr(np, name)(x.astype(wide))
    out = exact.astype(dtype)
    if _C_MATH is None:
        return out
    ulp = np.spacing(np.abs(out)).astype(wide)
    near = 0.5 - np.abs(exact - out.astype(wide)) / ulp < _SLACK.get((name, dtype), 0.1)
    if near.any():
        out[near] = _C_MATH[name, dtype](x[near]).astype(dtype)
    return out


def _box_muller(bits, dtype) -> np.ndarray:
    """Pairs of normals from pairs of uniforms (TF's BoxMullerFloat/BoxMullerDouble, with the
    C library's log/sin/cos values)."""
    if dtype == np.float64:
        u = _unit_float(bits, np.float64).reshape(-1, 2)
        u1, v1 = np.maximum(u[:, 0], 1e-7), 2 * np.pi * u[:, 1]
        u2 = np.sqrt(-2.0 * _c_value("log", u1, np.float64))
        return np.stack([_c_value("sin", v1, np.float64) * u2,
                         _c_value("cos", v1, np.float64) * u2], axis=1).reshape(-1)
    u = _unit_float(bits, np.float32).reshape(-1, 2)
    u1 = np.maximum(u[:, 0], np.float32(1e-7))
    v1 = _f32(2 * np.pi * u[:, 1].astype(np.float64))  # 2.0f * M_PI is a double product
    u2 = np.sqrt(np.float32(-2) * _c_value("log", u1, np.float32))
    return np.stack([_c_value("sin", v1, np.float32) * u2,
                     _c_value("cos", v1, np.float32) * u2], axis=1).reshape(-1)


def _words(dtype) -> int:
    """uint32 words per output value."""
    return 2 if np.dtype(dtype).itemsize == 8 else 1


def _philox_uniform(key, counter, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    n = int(np.prod(_size(shape)))
    return _unit_float(_bits(key, counter, n * _words(np_dtype)), np_dtype).reshape(_size(shape))


def _philox_normal(key, counter, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    n = int(np.prod(_size(shape)))
    words = _words(np_dtype)
    count = -(-n * words // 4) * 4  # whole blocks: Box-Muller pairs never straddle outputs
    z = _box_muller(_bits(key, counter, count), np.float64 if words == 2 else np.float32)
    return z[:n].astype(np_dtype).reshape(_size(shape))


def _philox_truncated_normal(key, counter, shape, dtype):
    """Normals with |z| < 2: each group of outputs (4, or 2 for float64) reads its own
    stretch of the stream, 256 blocks per output apart, as TF's CPU kernel does."""
    np_dtype = as_dtype(dtype).numpy_dtype
    n = int(np.prod(_size(shape)))
    words = _words(np_dtype)
    group, chunk = 4 // words, 2 * words  # outputs per group; blocks read per round
    kind = np.float64 if words == 2 else np.float32
    groups = -(-n // group)
    stride = np.uint64(group * 256 // 4)

    def normals(first_blocks):  # ``chunk`` blocks' normals from each first block
        at = (first_blocks[:, None] + np.arange(chunk, dtype=np.uint64)).reshape(-1)
        z = _box_muller(philox_blocks(key, counter, at.size, at).reshape(-1), kind)
        return z.reshape(first_blocks.size, -1)
    z = normals(np.arange(groups, dtype=np.uint64) * stride)  # one round covers nearly all
    ok = np.abs(z) < 2.0
    pick = np.argsort(~ok, axis=1, kind="stable")[:, :group]
    out = np.take_along_axis(z, pick, axis=1)
    for g in np.flatnonzero(ok.sum(axis=1) < group):  # rare: read on until enough
        got, offset = list(z[g][ok[g]]), np.uint64(chunk)
        while len(got) < group:
            more = normals(np.array([g * stride + offset], dtype=np.uint64))[0]
            got.extend(more[np.abs(more) < 2.0].tolist())
            offset += np.uint64(chunk)
        out[g] = got[:group]
    return out.reshape(-1)[:n].astype(np_dtype).reshape(_size(shape))


def _philox_uniform_int(key, counter, shape, minval, maxval):
    lo, hi = np.asarray(minval), np.asarray(maxval)
    if not lo < hi:
        raise InvalidArgumentError(message=f"Need minval < maxval: {lo} >= {hi}")
    n = int(np.prod(_size(shape)))
    words = _words(lo.dtype)
    bits = _bits(key, counter, n * words).astype(np.uint64)
    if words == 2:
        bits = bits[0::2] | bits[1::2] << np.uint64(32)
    span = np.uint64((int(hi) - int(lo)) & (_U64 if words == 2 else 0xFFFFFFFF))
    values = (bits % span).astype(object) + int(lo)  # lo + (bits % range), without overflow
    return np.asarray(values, dtype=lo.dtype).reshape(_size(shape))


def _philox_uniform_full_int(key, counter, shape, dtype):
    np_dtype = as_dtype(dtype).numpy_dtype
    n = int(np.prod(_size(shape)))
    bits = _bits(key, counter, n * _words(np_dtype))
    if _words(np_dtype) == 2:
        wide = bits.astype(np.uint64)
        bits = wide[0::2] | wide[1::2] << np.uint64(32)
    return bits.view(np.dtype(np_dtype).newbyteorder("=")).astype(np_dtype).reshape(_size(shape))


def _philox_shuffle(key, counter, value):
    """TensorFlow's RandomShuffle: a forward Fisher-Yates, ``j = i + word % (n - i)``,
    permuting the first dimension."""
    value = np.asarray(value)
    n = value.shape[0] if value.ndim else 0
    if n <= 1:
        return value.copy()
    words = _bits(key, counter, n - 1)
    perm = np.arange(n)
    for i in range(n - 1):
        j = i + int(words[i]) % (n - i)
        perm[i], perm[j] = perm[j], perm[i]
    return value[perm]


def _philox_multinomial(key, counter, logits, num_samples, output_dtype):
    """TensorFlow's CPU Multinomial: per row, an unnormalized CDF of exp(logit - max) over
    the finite logits, searched (upper bound) at uniform doubles (two words each) scaled by
    its total; rows draw one after another from one stream."""
    logits = np.asarray(logits)
    n = int(num_samples)
    if n < 0:
        raise InvalidArgumentError(message=f"num_samples should be nonnegative, got {n}")
    batch, classes = logits.shape
    out = np.zeros((batch, n), dtype=as_dtype(output_dtype).numpy_dtype)
    if classes == 0 or n == 0:
        return out
    uniforms = _unit_float(_bits(key, counter, 2 * n * batch), np.float64).reshape(batch, n)
    for row in range(batch):
        finite = np.isfinite(logits[row])
        top = logits[row][finite].max() if finite.any() else 0.0
        weights = np.where(finite, np.exp(logits[row].astype(np.float64) - float(top)), 0.0)
        cdf = np.cumsum(weights)
        out[row] = np.searchsorted(cdf, uniforms[row] * cdf[-1], side="right")
    return out


def _multinomial_blocks(logits, num_samples) -> int:
    """TF reserves 256 blocks per (two-word) draw, samples rounded up to a multiple of 4."""
    return np.shape(logits)[0] * (-(-int(num_samples) // 4) * 4) * 2 * 256


def _shuffle_blocks(value) -> int:
    """A shuffle reserves a 32-bit word per swap (none for fewer than two rows)."""
    n = np.shape(value)[0] if np.ndim(value) else 0
    return -(-(n - 1) // 4) if n > 1 else 0


_stateful_blocks = {_philox_shuffle: _shuffle_blocks, _philox_multinomial: _multinomial_blocks,
                    _philox_stateful_poisson: _stateful_poisson_blocks,
                    _philox_stateful_gamma: _stateful_poisson_blocks}
# (others: 256 blocks per value drawn)


def _key_counter_of(state_or_seed, philox_state: bool) -> tuple:
    """(key, counter) from a seed, or from a Generator's [counter_lo, counter_hi, key] state."""
    v = np.asarray(state_or_seed).reshape(-1)
    if philox_state:
        return int(v[2]) & _U64, (int(v[0]) & _U64, int(v[1]) & _U64)
    return key_counter_from_seed(v)


def _register_stateless(op: str, infer, sample, attrs=(), philox_bits: bool = True):
    """``op`` takes the inputs of ``infer`` and then the seed: a [2] int32/int64 tensor.
    ``sample`` as for ``_register_stateful``."""
    def stateless_infer(inputs, node_attrs):
        seed = inputs[-1] if inputs else None
        if seed is None or not seed.dtype.name in ("int32", "int64"):
            raise InvalidArgumentError(
                message=f"{op}: the seed must be an int32 or int64 tensor, got "
                        f"{'nothing' if seed is None else seed.dtype.name}")
        want = (3,) if node_attrs.get("philox_state") else (2,)
        if seed.shape.rank is not None and seed.shape.as_tuple() not in (want, (None,)):
            raise InvalidArgumentError(
                message=f"seed must have shape [2], not {list(seed.shape.as_tuple())}")
        return infer(inputs[:-1], node_attrs)

    philox = sample if philox_bits else None

    def kernel(*inputs, philox_state=False, **kwargs):
        seed = np.asarray(inputs[-1])
        if seed.shape != ((3,) if philox_state else (2,)):
            raise InvalidArgumentError(message=f"seed must have shape [2], not {list(seed.shape)}")
        if philox is not None:
            return philox(*_key_counter_of(seed, philox_state), *inputs[:-1], **kwargs)
        return sample(_seed_generator(seed), *inputs[:-1], **kwargs)

    # ``philox_state``: the last input is a Generator's state instead of a seed
    register_op(op, stateless_infer, kernel,
                kernel_attrs=tuple(attrs) + (("philox_state",) if philox else ()))


_register_stateful("RandomUniform", _float_rule("RandomUniform"), _philox_uniform, ("dtype",))
_register_stateful("RandomStandardNormal", _float_rule("RandomStandardNormal"), _philox_normal,
                   ("dtype",))
_register_stateful("TruncatedNormal", _float_rule("TruncatedNormal"), _philox_truncated_normal,
                   ("dtype",))
_register_stateful("RandomUniformInt", _int_infer, _philox_uniform_int)
_register_stateful("Multinomial", _multinomial_infer, _philox_multinomial, ("output_dtype",))
_register_stateful("RandomShuffle", _shuffle_infer, _philox_shuffle)
_register_stateful("RandomGamma", _gamma_infer, _philox_stateful_gamma)
_register_stateful("RandomPoissonV2", _poisson_infer, _philox_stateful_poisson, ("dtype",))

_register_stateless("StatelessRandomUniformV2", _float_rule("StatelessRandomUniformV2"),
                    _philox_uniform,
                    ("dtype",))
_register_stateless("StatelessRandomNormalV2", _float_rule("StatelessRandomNormalV2"),
                    _philox_normal,
                    ("dtype",))
_register_stateless("StatelessTruncatedNormalV2", _float_rule("StatelessTruncatedNormalV2"),
                    _philox_truncated_normal, ("dtype",))
_register_stateless("StatelessRandomUniformIntV2", _int_infer, _philox_uniform_int)
_register_stateless("StatelessRandomUniformFullIntV2", _full_int_infer, _philox_uniform_full_int,
                    ("dtype",))
_register_stateless("StatelessMultinomial",
                    lambda i, a: _multinomial_infer(i, a, "StatelessMultinomial"),
                    _philox_multinomial,
                    ("output_dtype",))
_register_stateless("StatelessRandomBinomial", _binomial_infer, _binomial, ("dtype",),
                    philox_bits=False)
_register_stateless("StatelessRandomGammaV2", _stateless_gamma_infer, _philox_gamma)
_register_stateless("StatelessRandomPoisson", _stateless_poisson_infer, _philox_poisson,
                    ("dtype",))
