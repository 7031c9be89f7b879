"""Memory: peak bytes allocated during one call, measured with tracemalloc.

* A chain of large elementwise ops through ``tf.function`` against the same
  chain written by hand with numpy (target: within 1.2x). Generated code
  frees every intermediate after its last use and writes large elementwise
  results into dead buffers (``out=``), so it can beat the hand-written
  version, whose ``np.tanh(x) * 0.5 + 0.25`` holds two temporaries.
* A staged loop of 10^6 iterations must run in constant memory: its peak
  may exceed the peak of the same loop run for 10^3 iterations by at most
  4 KiB (and it must not hit Python's recursion limit).

numpy reports its array allocations to tracemalloc, so array buffers count.
"""
from __future__ import annotations

import sys

import numpy as np

from benchmarks import harness

CHAIN_ELEMENTS = 1 << 20   # 4 MiB of float32
CHAIN_STEPS = 8
SLACK = 4096               # bytes a long loop may add to a short loop's peak


def _tf():
    import autograph as tf
    return tf


def chain(x):
    tf = _tf()
    for _ in range(CHAIN_STEPS):  # a Python loop: unrolled while tracing
        x = tf.tanh(x) * 0.5 + 0.25
    return x


def count(n):
    i = 0
    s = 0.0
    while i < n:
        i += 1
        s += 0.5
    return i, s


def bench_chain_memory() -> None:
    tf = _tf()
    f = tf.function(chain)
    half, quarter = np.float32(0.5), np.float32(0.25)

    def hand(x):
        for _ in range(CHAIN_STEPS):
            x = np.tanh(x) * half + quarter
        return x
    x_np = np.linspace(-1, 1, CHAIN_ELEMENTS, dtype=np.float32)
    x = tf.constant(x_np)
    np.testing.assert_allclose(f(x).numpy(), hand(x_np), rtol=1e-6)
    harness.memory(f"peak memory, {CHAIN_STEPS * 3} elementwise ops on float32[{CHAIN_ELEMENTS}]",
                   lambda: f(x), lambda: hand(x_np), target=1.2)


def bench_loop_memory(n: int = 1_000_000, short: int = 1_000) -> None:
    tf = _tf()
    f = tf.function(count)
    limit = sys.getrecursionlimit()
    i, s = f(tf.constant(short))
    assert (int(i), float(s)) == (short, short / 2)
    small = harness.memory("staged loop, 10^3 iterations (reference for the next row)",
                           lambda: f(tf.constant(short)), None, target=float("inf"))
    harness.RESULTS.remove(small)  # only the budget of the next row, not a row of its own
    big = tf.constant(n)
    harness.memory(f"staged loop, 10^6 iterations: peak memory (10^3: {small.ours:.0f} B + 4 KiB)",
                   lambda: f(big), None, target=small.ours + SLACK)
    i, s = f(big)
    assert (int(i), float(s)) == (n, n / 2)
    assert sys.getrecursionlimit() == limit


def main() -> None:
    import logging
    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # (retracing is measured here)
    bench_chain_memory()
    bench_loop_memory()


if __name__ == "__main__":
    main()
    print(harness.table())
