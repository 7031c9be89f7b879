"""Random ops under XLA (graph/ops/random.py): a key threaded through the program.

Each call gets a key from the plan's call count and each stateful random op
splits it, so successive calls and loop iterations draw new numbers. An op
with a seed folds its seeds into its key, so the same seeds give the same
sequence in every program run (TensorFlow's op-seed rule); an unseeded op
folds in the plan's entropy instead. (TensorFlow's own XLA bridge ignores seeds.)

Stateless ops (``StatelessRandom*``) and a ``tf.random.Generator``'s draws
of uniforms, normals, truncated normals, integers and categorical samples are
TensorFlow's XLA values (philox.py), whether the seed is known at compile time
or not (they are never folded: the numpy kernels give TensorFlow's CPU values,
which differ). The other stateless ops (gamma, Poisson, binomial)
draw with JAX's generator, keyed by the seed: deterministic, but other values
(TensorFlow's XLA has no kernel for gamma, Poisson and binomial).
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from graph.xla import philox
from graph.xla.lowering import lowering, static_value


def _shape(node, shape):
    return tuple(int(d) for d in static_value(shape, node, "the shape").reshape(-1))


def _dtype(node):
    return node.outputs[0].dtype.numpy_dtype


def _uniform(node, key, shape):
    return jax.random.uniform(key, _shape(node, shape), _dtype(node))


def _normal(node, key, shape):
    return jax.random.normal(key, _shape(node, shape), _dtype(node))


def _truncated_normal(node, key, shape):
    return jax.random.truncated_normal(key, -2.0, 2.0, _shape(node, shape), _dtype(node))


def _uniform_int(node, key, shape, minval, maxval):
    dtype = _dtype(node)
    return jax.random.randint(key, _shape(node, shape), jnp.asarray(minval, dtype),
                              jnp.asarray(maxval, dtype), dtype)


def _uniform_full_int(node, key, shape):
    dtype = np.dtype(_dtype(node))
    unsigned = np.dtype(f"uint{dtype.itemsize * 8}")
    return jax.random.bits(key, _shape(node, shape), unsigned).view(dtype)


def _multinomial(node, key, logits, num_samples):
    n = int(static_value(num_samples, node, "num_samples"))
    return jax.random.categorical(key, logits, axis=-1, shape=(n, logits.shape[0])).T


def _shuffle(node, key, value):
    return value if jnp.ndim(value) == 0 else jax.random.permutation(key, value, axis=0)


def _gamma(node, key, shape, alpha):
    return jax.random.gamma(key, alpha, _shape(node, shape) + jnp.shape(alpha))


def _poisson(node, key, shape, rate):
    size = _shape(node, shape) + jnp.shape(rate)
    return jax.random.poisson(key, jnp.broadcast_to(rate, size), size)


def _stateless_gamma(node, key, shape, alpha):  # (the stateless ops draw `shape` itself)
    size = _shape(node, shape)
    return jax.random.gamma(key, jnp.broadcast_to(alpha, size), size)


def _stateless_poisson(node, key, shape, rate):
    size = _shape(node, shape)
    return jax.random.poisson(key, jnp.broadcast_to(rate, size), size)


def _binomial(node, key, shape, counts, probs):
    size = _shape(node, shape)
    return jax.random.binomial(key, jnp.broadcast_to(counts, size).astype(jnp.float32),
                               jnp.broadcast_to(probs, size).astype(jnp.float32), size)


_STATEFUL = {"RandomUniform": _uniform, "RandomStandardNormal": _normal,
             "TruncatedNormal": _truncated_normal, "RandomUniformInt": _uniform_int,
             "Multinomial": _multinomial, "RandomShuffle": _shuffle, "RandomGamma": _gamma,
             "RandomPoissonV2": _poisson}
_STATELESS = {"StatelessRandomUniformV2": _uniform, "StatelessRandomNormalV2": _normal,
              "StatelessTruncatedNormalV2": _truncated_normal,
              "StatelessRandomUniformIntV2": _uniform_int,
              "StatelessRandomUniformFullIntV2": _uniform_full_int,
              "StatelessMultinomial": _multinomial, "StatelessRandomGammaV2": _stateless_gamma,
              "StatelessRandomPoisson": _stateless_poisson, "StatelessRandomBinomial": _binomial}
RANDOM_OPS = frozenset(_STATEFUL)  # what the plan passes a key for


@lowering(*_STATEFUL)
def _stateful(ctx, node, *inputs):
    seed, seed2 = node.attrs.get("seed", 0), node.attrs.get("seed2", 0)
    key = ctx.next_key()
    if seed == 0 and seed2 == 0:
        key = jax.random.fold_in(key, ctx.plan.salt)
    else:
        key = jax.random.fold_in(jax.random.fold_in(key, int(seed) & 0x7FFFFFFF),
                                 int(seed2) & 0x7FFFFFFF)
    return _STATEFUL[node.op](node, key, *inputs)


# Stateless ops drawn as TensorFlow's XLA draws them: op -> (sampler, dtypes it covers)
_FLOATS = (np.float16, np.float32, np.float64)
_INTS = (np.int32, np.int64, np.uint32, np.uint64)
_PHILOX = {"StatelessRandomUniformV2": (philox.uniform, _FLOATS),
           "StatelessRandomNormalV2": (philox.normal, _FLOATS),
           "StatelessTruncatedNormalV2": (philox.truncated_normal, _FLOATS),
           "StatelessRandomUniformIntV2": (philox.uniform_int, _INTS),
           "StatelessRandomUniformFullIntV2": (philox.full_int, _INTS)}


def _tensorflows_xla_draw(node, seed, inputs):
    """TensorFlow's XLA values for ``node`` (philox.py), or None where it has none here."""
    key_counter = lambda: philox.key_counter(  # noqa: E731
        jnp.asarray(seed), node.attrs.get("philox_state", False))
    if node.op == "StatelessMultinomial":
        logits, num_samples = inputs
        if logits.dtype not in _FLOATS[1:]:  # (TensorFlow's XLA refuses float16 logits)
            return None
        n = int(static_value(num_samples, node, "num_samples"))
        return philox.multinomial(*key_counter(), logits, n, _dtype(node))
    sampler, dtypes = _PHILOX.get(node.op, (None, ()))
    if _dtype(node) not in dtypes:
        return None
    shape, *bounds = inputs  # (minval, maxval for integers)
    return sampler(*key_counter(), _shape(node, shape), *(bounds or [_dtype(node)]))


@lowering(*_STATELESS, fold=False)
def _stateless(ctx, node, *inputs):
    *inputs, seed = inputs  # a [2] seed, or a Generator's [3] Philox state
    drawn = _tensorflows_xla_draw(node, seed, inputs)
    if drawn is not None:
        return drawn
    key = jax.random.PRNGKey(0)
    for word in jnp.asarray(seed).astype(jnp.uint32):
        key = jax.random.fold_in(key, word)
    return _STATELESS[node.op](node, key, *inputs)
