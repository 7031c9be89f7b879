"""TensorFlow's XLA stateless random values: Philox4x32-10 bits and XLA's conversions.

Under ``jit_compile=True`` TensorFlow draws a seeded stateless op (and a
``tf.random.Generator``'s draws) from the same Philox stream as its CPU kernels
(graph/ops/random.py: the same key and counter, the same uint32 words, so the
integers agree), but turns the bits into floats as XLA's ``prng`` library does:
a float's mantissa from the *high* bits (``(bits >> 9) * 2**-23``; a double
from two words, the second one high; a half from the low 10 bits of a word),
normals by Box-Muller over pairs of neighbouring uniforms laid out as XLA
splits the shape in halves, truncated normals by the inverse CDF; an int64
seed counts by its low 32 bits. The same here, in JAX, for seeds and states
known only at run time.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

_M = (0xD2511F53, 0xCD9E8D57)
_W = (0x9E3779B9, 0xBB67AE85)
_SEED_KEY = 0x02461E293EC8F720  # StatelessRandomGetKeyCounter's Philox key
_U32 = jnp.uint32


def _mulhilo(a, m: int):
    """(high, low) words of the 64-bit product of uint32 ``a`` and the constant ``m``."""
    m_lo, m_hi = _U32(m & 0xFFFF), _U32(m >> 16)
    a_lo, a_hi = a & _U32(0xFFFF), a >> _U32(16)
    ll, lh, hl, hh = a_lo * m_lo, a_lo * m_hi, a_hi * m_lo, a_hi * m_hi
    mid = (ll >> _U32(16)) + (lh & _U32(0xFFFF)) + (hl & _U32(0xFFFF))
    return hh + (lh >> _U32(16)) + (hl >> _U32(16)) + (mid >> _U32(16)), a * _U32(m)


def _blocks(key, counter, n: int):
    """``[n, 4]`` uint32: Philox blocks at ``counter`` + 0 .. n-1 (``key``: 2 words,
    ``counter``: 4 words, low first)."""
    step = jnp.arange(n, dtype=_U32)
    c0 = counter[0] + step
    carry = (c0 < step).astype(_U32)
    c1 = counter[1] + carry
    carry = (c1 < carry).astype(_U32)
    c2 = counter[2] + carry
    c3 = counter[3] + (c2 < carry).astype(_U32)

    def round_(_, state):  # a rolled loop: a tenth of the program for XLA to compile
        (x0, x1, x2, x3), (k0, k1) = state
        hi0, lo0 = _mulhilo(x0, _M[0])
        hi1, lo1 = _mulhilo(x2, _M[1])
        return (hi1 ^ x1 ^ k0, lo1, hi0 ^ x3 ^ k1, lo0), (k0 + _U32(_W[0]), k1 + _U32(_W[1]))
    words = (c0, c1, c2, jnp.broadcast_to(c3, (n,)))
    x, _ = lax.fori_loop(0, 10, round_, (words, tuple(jnp.asarray(k, _U32) for k in key)))
    return jnp.stack(x, axis=1)


def _words64(value):
    """Two uint32 words (low, high) of int32/int64 ``value``; an int32 is zero-extended, as
    TensorFlow's XLA kernels read an int32 seed (its CPU kernels sign-extend it)."""
    value = jnp.asarray(value)
    if value.dtype.itemsize == 8:
        wide = value.astype(jnp.uint64)
        return wide.astype(_U32), (wide >> jnp.uint64(32)).astype(_U32)
    return value.astype(_U32), _U32(0)


def key_counter(seed, philox_state: bool):
    """(key words, counter words) of a [2] seed (scrambled by one Philox block, as
    StatelessRandomGetKeyCounter; an int64 seed by its low 32 bits, as TensorFlow's XLA
    kernel reads it) or of a Generator's [counter_lo, counter_hi, key] state."""
    if philox_state:
        c0, c1 = _words64(seed[0])
        c2, c3 = _words64(seed[1])
        return _words64(seed[2]), (c0, c1, c2, c3)
    low = jnp.asarray(seed).astype(_U32)
    key = (_U32(_SEED_KEY & 0xFFFFFFFF), _U32(_SEED_KEY >> 32))
    mix = _blocks(key, (low[0], _U32(0), low[1], _U32(0)), 1)[0]
    return (mix[0], mix[1]), (_U32(0), _U32(0), mix[2], mix[3])


def bits(key, counter, count: int):
    """The first ``count`` uint32 words of the stream."""
    return _blocks(key, counter, -(-count // 4)).reshape(-1)[:count]


def _unit(key, counter, n: int, dtype):
    """``n`` uniforms in [0, 1) of ``dtype``, XLA's way: a float32/float64 mantissa from the
    high bits, a float16 one from the low 10 bits of a word."""
    if np.dtype(dtype) == np.float16:
        return (bits(key, counter, n) & _U32(0x3FF)).astype(jnp.float16) * np.float16(2.0 ** -10)
    if np.dtype(dtype) == np.float64:
        w = bits(key, counter, 2 * n).reshape(n, 2).astype(jnp.uint64)
        wide = w[:, 0] | w[:, 1] << jnp.uint64(32)
        return (wide >> jnp.uint64(12)).astype(jnp.float64) * np.float64(2.0 ** -52)
    return (bits(key, counter, n) >> _U32(9)).astype(jnp.float32) * np.float32(2.0 ** -23)


def uniform(key, counter, shape, dtype):
    return _unit(key, counter, int(np.prod(shape)), dtype).reshape(shape)


def _halves(shape):
    """XLA's SplitShapeIntoHalves: the dim split in pairs (the first even one, else the
    largest) and the shape bits are drawn in: that dim as [ceil(d / 2), 2]."""
    if not shape:
        return None, (1, 2)
    even = [i for i, d in enumerate(shape) if d % 2 == 0]
    split = even[0] if even else int(np.argmax(shape))
    return split, shape[:split] + (-(-shape[split] // 2), 2) + shape[split + 1:]


def normal(key, counter, shape, dtype):
    """Box-Muller over neighbouring pairs of XLA's [0, 1) uniforms."""
    split, drawn = _halves(tuple(shape))
    u = _unit(key, counter, int(np.prod(drawn)), dtype).reshape(drawn)
    axis = len(drawn) - 1 if split is None else split + 1
    x0, x1 = jnp.take(u, 0, axis=axis), jnp.take(u, 1, axis=axis)
    u1 = jnp.maximum(x0, jnp.asarray(1e-7, np.float32).astype(dtype))
    v1 = jnp.asarray(2.0 * np.pi, np.float32).astype(dtype) * x1  # 2.0f * M_PI
    u2 = jnp.sqrt(jnp.asarray(-2.0, dtype) * jnp.log(u1))
    z = jnp.stack([jnp.sin(v1) * u2, jnp.cos(v1) * u2], axis=axis)
    if split is None:
        return z.reshape(-1)[:1].reshape(())
    whole = shape[:split] + (drawn[split] * 2,) + shape[split + 1:]
    return lax.slice_in_dim(z.reshape(whole), 0, shape[split], axis=split)


def truncated_normal(key, counter, shape, dtype):
    """XLA's inverse-CDF truncated normal on [-2, 2], from uniforms in [tiny, 1)."""
    dtype = np.dtype(dtype)
    tiny, one, two = (np.asarray(v, dtype) for v in (np.finfo(dtype).tiny, 1.0, 2.0))
    u = uniform(key, counter, tuple(shape), dtype) * (one - tiny) + tiny
    sqrt_2 = np.asarray(np.sqrt(2.0), dtype)
    cdf = lambda x: (one + lax.erf(jnp.asarray(x, dtype) / sqrt_2)) / two  # noqa: E731
    lo, hi = cdf(-2.0), cdf(2.0)
    v = two * (lo + (hi - lo) * u) - one
    eps = np.asarray(np.finfo(dtype).eps, dtype)
    v = jnp.clip(v, -one + eps, one - eps)
    return jnp.clip(sqrt_2 * lax.erf_inv(v), -two, two)


def multinomial(key, counter, logits, num_samples: int, dtype):
    """The Gumbel-max trick over [batch, num_samples, classes] uniforms in [tiny, 1), as
    TensorFlow's XLA categorical kernel."""
    kind = np.dtype(logits.dtype)
    tiny, one = np.asarray(np.finfo(kind).tiny, kind), np.asarray(1.0, kind)
    shape = (logits.shape[0], num_samples, logits.shape[1])
    u = uniform(key, counter, shape, kind) * (one - tiny) + tiny
    return jnp.argmax(logits[:, None, :] - jnp.log(-jnp.log(u)), axis=2).astype(dtype)


def _integers(key, counter, n: int, dtype):
    """``n`` unsigned words of ``dtype``'s width (a 64-bit one from two words, low first)."""
    if np.dtype(dtype).itemsize == 8:
        w = bits(key, counter, 2 * n).reshape(n, 2).astype(jnp.uint64)
        return w[:, 0] | w[:, 1] << jnp.uint64(32)
    return bits(key, counter, n)


def uniform_int(key, counter, shape, minval, maxval):
    """``minval + bits % (maxval - minval)`` in unsigned arithmetic, as XLA's and the CPU's."""
    dtype = np.dtype(jnp.asarray(minval).dtype)
    unsigned = np.dtype(f"uint{dtype.itemsize * 8}")
    span = jnp.asarray(maxval).astype(unsigned) - jnp.asarray(minval).astype(unsigned)
    drawn = _integers(key, counter, int(np.prod(shape)), dtype) % span
    return lax.bitcast_convert_type(jnp.asarray(minval).astype(unsigned) + drawn,
                                    dtype).reshape(shape)


def full_int(key, counter, shape, dtype):
    drawn = _integers(key, counter, int(np.prod(shape)), dtype)
    return lax.bitcast_convert_type(drawn, np.dtype(dtype)).reshape(shape)
