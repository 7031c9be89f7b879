"""jit_compile=True (graph/xla) against hand-written ``jax.jit`` code for the same computation.

The staged programs are bench_staged's, written as users write them, run through
``tf.function(jit_compile=True)``; the floor is what a person writes with
``jax.lax`` control flow. Both are compiled before timing; rows report time per
iteration/op of a cache-hit call. The last rows time compilation itself: a
first call (trace + optimize + lower + XLA compile + run) and a retrace (new
input shape). Skipped when JAX is not installed.
"""
from __future__ import annotations

import numpy as np

from benchmarks.bench_executor import _CHAIN
from benchmarks.bench_staged import dynamic_rnn, fizzbuzz, rnn_step, tanh_while
from benchmarks.harness import compare, once


def _tf():
    import autograph as tf
    return tf


def bench_tanh_while(jax, jnp, lax) -> None:
    tf = _tf()
    f = tf.function(tanh_while, jit_compile=True)
    hand = jax.jit(lambda x: lax.while_loop(lambda x: jnp.sum(x) > 1, jnp.tanh, x))
    x_np = np.full(5, 2.0, dtype=np.float32)
    iters, y = 0, x_np
    while np.sum(y) > 1:
        y, iters = np.tanh(y), iters + 1
    x = tf.constant(x_np)
    np.testing.assert_allclose(f(x).numpy(), np.asarray(hand(x_np)), rtol=1e-6)
    compare(f"jit_compile tanh while vs jax.jit, float32[5] ({iters} iterations)",
            lambda: f(x), lambda: hand(x_np).block_until_ready(), units=iters, unit="iter",
            target=1.5)


def bench_fizzbuzz(jax, jnp, lax, n: int = 1000) -> None:
    tf = _tf()
    f = tf.function(fizzbuzz, jit_compile=True)

    def body(i, counts):
        fizz, buzz, both = counts
        return lax.cond(i % 15 == 0, lambda: (fizz, buzz, both + 1),
                        lambda: lax.cond(i % 3 == 0, lambda: (fizz + 1, buzz, both),
                                         lambda: lax.cond(i % 5 == 0,
                                                          lambda: (fizz, buzz + 1, both),
                                                          lambda: (fizz, buzz, both))))
    zero = jnp.int32(0)
    hand = jax.jit(lambda n: lax.fori_loop(1, n + 1, body, (zero, zero, zero)))
    n_t = tf.constant(n)
    assert [int(v) for v in f(n_t)] == [int(v) for v in hand(n)]
    compare(f"jit_compile fizzbuzz count vs jax.jit, n={n}", lambda: f(n_t),
            lambda: jax.block_until_ready(hand(n)), units=n, unit="iter", target=1.5)


def bench_dynamic_rnn(jax, jnp, lax, batch: int = 2, steps: int = 100, features: int = 4):
    tf = _tf()
    f = tf.function(dynamic_rnn, jit_compile=True)

    def hand_fn(input_data, initial_state):  # a preallocated buffer written in a fori_loop
        input_data = jnp.transpose(input_data, (1, 0, 2))
        buf = jnp.zeros(input_data.shape, input_data.dtype)

        def step(i, carry):
            state, buf = carry
            state = input_data[i] + state
            return state, buf.at[i].set(state)
        _, buf = lax.fori_loop(0, input_data.shape[0], step, (initial_state, buf))
        return jnp.transpose(buf, (1, 0, 2))
    hand = jax.jit(hand_fn)
    rng = np.random.default_rng(0)
    data_np = rng.uniform(size=(batch, steps, features)).astype(np.float32)
    init_np = np.zeros((batch, features), np.float32)
    data, init = tf.constant(data_np), tf.constant(init_np)
    np.testing.assert_allclose(f(rnn_step, data, init).numpy(), np.asarray(hand(data_np, init_np)),
                               rtol=1e-6)
    compare(f"jit_compile dynamic_rnn (TensorArray) vs jax.jit, {batch}x{steps}x{features}",
            lambda: f(rnn_step, data, init), lambda: hand(data_np, init_np).block_until_ready(),
            units=steps, unit="iter", target=1.5)


def _chain_steps(n_ops: int):
    return [_CHAIN[i % len(_CHAIN)] for i in range(n_ops)]


def _chain_function(tf, n_ops: int):
    steps = _chain_steps(n_ops)

    def chain(x):
        for op, _, c in steps:
            fn = getattr(tf.math, op)
            x = fn(x) if c is None else fn(x, c)
        return x
    return tf.function(chain, jit_compile=True, autograph=False)


def bench_chain(jax, jnp, lax, n_ops: int = 200, size: int = 16) -> None:
    tf = _tf()
    f = _chain_function(tf, n_ops)
    steps = _chain_steps(n_ops)

    def hand_fn(x):
        for _, np_fn, c in steps:
            fn = getattr(jnp, np_fn.__name__)
            x = fn(x) if c is None else fn(x, jnp.float32(c))
        return x
    hand = jax.jit(hand_fn)
    x_np = np.linspace(-1, 1, size, dtype=np.float32)
    x = tf.constant(x_np)
    np.testing.assert_allclose(f(x).numpy(), np.asarray(hand(x_np)), rtol=1e-6)
    compare(f"jit_compile {n_ops} elementwise ops vs jax.jit, float32[{size}]", lambda: f(x),
            lambda: hand(x_np).block_until_ready(), units=n_ops, unit="op", target=1.5)


def bench_compile_times() -> None:
    tf = _tf()
    state = {}

    def fresh():
        state["f"] = tf.function(tanh_while, jit_compile=True)
        state["x"] = tf.constant(np.full(5, 2.0, np.float32))

    once("jit_compile first call (trace + lower + XLA compile), tanh while",
         lambda _: state["f"](state["x"]), budget=0.5, setup=fresh, repeats=7)

    def traced_before():  # traced and compiled for float32[5]; the timed call has float32[6]
        fresh()
        state["f"](state["x"])
        state["x"] = tf.constant(np.full(6, 2.0, np.float32))

    once("jit_compile retrace (new input shape), tanh while", lambda _: state["f"](state["x"]),
         budget=0.5, setup=traced_before, repeats=7)


def main() -> None:
    import logging
    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # (retracing is measured here)
    try:
        import jax
        import jax.numpy as jnp
        from jax import lax
    except ImportError:
        print("bench_xla: JAX is not installed (pip install autograph-staging[xla]); skipped")
        return
    for bench in (bench_tanh_while, bench_fizzbuzz, bench_dynamic_rnn, bench_chain):
        bench(jax, jnp, lax)
    bench_compile_times()


if __name__ == "__main__":
    main()
