"""Staged loops written as users write them: ``@tf.function`` + the converter, per iteration.

``bench_executor`` builds the same loops by hand with runtime ops and times
the plan alone; these rows go through the whole public path — autograph
conversion, tracing, optimization, the cache-hit call and the EagerTensor
results — and compare a call against the same algorithm written by hand
with numpy. The ratio is per loop iteration, so the call overhead (a few µs)
is spread over the iterations as it is in real use. Targets (issue 17): tanh
while <= 1.1x, fizzbuzz <= 1.05x, dynamic_rnn <= 1.2x hand-written numpy.
"""
from __future__ import annotations


import numpy as np

from benchmarks.harness import compare


def _tf():
    import autograph as tf
    return tf


# -- tanh while: `while reduce_sum(x) > 1: x = tanh(x)` -----------------------------------
def tanh_while(x):
    tf = _tf()
    while tf.reduce_sum(x) > 1:
        x = tf.tanh(x)
    return x


def bench_tanh_while() -> None:
    tf = _tf()
    f = tf.function(tanh_while)
    one = np.float32(1.0)

    def hand(x):
        while np.sum(x) > one:
            x = np.tanh(x)
        return x
    x_np = np.full(5, 2.0, dtype=np.float32)
    x = tf.constant(x_np)
    iters, y = 0, x_np
    while np.sum(y) > one:
        y, iters = np.tanh(y), iters + 1
    np.testing.assert_array_equal(f(x).numpy(), hand(x_np))
    compare(f"tf.function tanh while, float32[5] ({iters} iterations)", lambda: f(x),
            lambda: hand(x_np), units=iters, unit="iter", target=1.1)


# -- fizzbuzz count: `for i in tf.range(1, n + 1)` with an if/elif chain -------------------
def fizzbuzz(n):
    tf = _tf()
    fizz = 0
    buzz = 0
    fizzbuzz = 0
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            fizzbuzz += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, fizzbuzz


def bench_fizzbuzz(n: int = 1000) -> None:
    tf = _tf()
    f = tf.function(fizzbuzz)

    def hand(n):  # as a person writes it: numpy int32 scalars and operators
        fizz = buzz = fizzbuzz = np.int32(0)
        one = np.int32(1)
        for i in np.arange(1, n + 1, dtype=np.int32):
            if i % 15 == 0:
                fizzbuzz = fizzbuzz + one
            elif i % 3 == 0:
                fizz = fizz + one
            elif i % 5 == 0:
                buzz = buzz + one
        return fizz, buzz, fizzbuzz
    n_t = tf.constant(n)
    assert [int(v) for v in f(n_t)] == [int(v) for v in hand(n)] == [267, 134, 66]
    compare(f"tf.function fizzbuzz count, n={n}", lambda: f(n_t), lambda: hand(n),
            units=n, unit="iter", target=1.05, repeats=11)


# -- dynamic_rnn: the tf.function guide's TensorArray accumulation --------------------------
def rnn_step(inp, state):
    return inp + state


def dynamic_rnn(rnn_step, input_data, initial_state):
    tf = _tf()
    # [batch, time, features] -> [time, batch, features]
    input_data = tf.transpose(input_data, [1, 0, 2])
    max_seq_len = input_data.shape[0]

    states = tf.TensorArray(tf.float32, size=max_seq_len)
    state = initial_state
    for i in tf.range(max_seq_len):
        state = rnn_step(input_data[i], state)
        states = states.write(i, state)
    return tf.transpose(states.stack(), [1, 0, 2])


def bench_dynamic_rnn(batch: int = 2, steps: int = 100, features: int = 4) -> None:
    tf = _tf()
    f = tf.function(dynamic_rnn)

    def hand(input_data, initial_state):  # a list of states, stacked at the end
        input_data = np.transpose(input_data, (1, 0, 2))
        states = []
        state = initial_state
        for i in range(input_data.shape[0]):
            state = input_data[i] + state
            states.append(state)
        return np.transpose(np.stack(states), (1, 0, 2))
    rng = np.random.default_rng(0)
    data_np = rng.uniform(size=(batch, steps, features)).astype(np.float32)
    init_np = np.zeros((batch, features), np.float32)
    data, init = tf.constant(data_np), tf.constant(init_np)
    np.testing.assert_allclose(f(rnn_step, data, init).numpy(), hand(data_np, init_np),
                               rtol=1e-6)
    compare(f"tf.function dynamic_rnn (TensorArray), {batch}x{steps}x{features}",
            lambda: f(rnn_step, data, init), lambda: hand(data_np, init_np),
            units=steps, unit="iter", target=1.2)


def main() -> None:
    import logging
    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # (retracing is measured here)
    for bench in (bench_tanh_while, bench_fizzbuzz, bench_dynamic_rnn):
        bench()


if __name__ == "__main__":
    main()
    from benchmarks.harness import table
    print(table())
