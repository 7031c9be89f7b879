"""Single eager ops against the same numpy call: the per-op overhead of eager execution.

Each row runs one op on small tensors (where the overhead, not the
arithmetic, is what a user pays): ``x + y`` through the Python operator,
``tf.matmul``, ``tf.tanh``, ``x * 2.0`` (a Python number converted to the
tensor's dtype) and ``xs[t]`` (a strided slice), then a 100-step RNN forward
pass without a tape, ``bench_executor``'s 200-op elementwise chain (through
the public ``tf.*`` functions) and its matmul power loop (target 1.5x numpy). The floor is the numpy expression alone. What remains
above it is ``runtime/ops/core.apply_op``: the inference (cached per op,
input dtypes and shapes and attrs), the kernel call under silenced
floating-point warnings and the wrapping into an ``EagerTensor``.

Measured on the 2-core dev machine (time per op, ratio to numpy), before ->
after the inference cache, the direct error-state context variable and the
operand fast paths: ``x + y`` 7.7 us (24x) -> 2.2 us (6.6x); ``tf.matmul``
12.2 us (15x) -> 4.1 us (4.8x); ``tf.tanh`` 3.9 us (10x) -> 1.7 us (4.3x);
``x * 2.0`` 10.4 us (16x) -> 4.3 us (6.3x); ``xs[t]`` 8.4 us -> 5.2 us (the
rest is StridedSlice's spec building and its kernel's index decoding, against
numpy's 90 ns view); the 100-step forward pass 6.2 ms (25x) -> 1.9 ms (7.6x).
Then (issue 17: per-API tables keyed on interned ValueSpecs, integer kernels that cannot
warn run without the error-state switch, np.dot for small BLAS products; medians of thread
CPU time, the machine being shared): the 200-op chain 1.33 us (4.4x) -> 1.07 us (3.6x) per
op, the int32 matmul power 1.89x -> 1.40x, ``tf.matmul`` 8x32 @ 32x32 2.1x -> 1.4x, the
forward pass 2.1x numpy.
"""
from __future__ import annotations

import numpy as np

from benchmarks import harness

STEPS, BATCH, HIDDEN = 100, 8, 32
# Issue 17's targets are absolute on its machine: 1.8 us per op of the chain (numpy: 443 ns,
# so 4x) and 1.5 us for ``xs[t]`` (numpy's view: ~108 ns, so 14x); as ratios here.
CHAIN_TARGET = 4.0


def _chain(tf, n_ops: int = 200, size: int = 16) -> None:
    """The 200-op elementwise chain of ``bench_executor``, run eagerly: per-op dispatch."""
    from benchmarks.bench_executor import _CHAIN
    steps = [_CHAIN[i % len(_CHAIN)] for i in range(n_ops)]
    calls = [(getattr(tf, op), c) for op, _, c in steps]
    hand_calls = [(f, None if c is None else np.asarray(c, dtype=np.float32)) for _, f, c in steps]
    x_np = np.linspace(-1, 1, size, dtype=np.float32)
    x0 = tf.constant(x_np)

    def ours():
        x = x0
        for fn, c in calls:
            x = fn(x) if c is None else fn(x, c)
        return x

    def hand():
        x = x_np
        for fn, c in hand_calls:
            x = fn(x) if c is None else fn(x, c)
        return x
    np.testing.assert_allclose(ours().numpy(), hand(), rtol=1e-6)
    harness.compare(f"eager {n_ops} elementwise ops, float32[{size}]", ours, hand, units=n_ops,
                    unit="op", target=CHAIN_TARGET)


def _matmul_power(tf, k: int = 100) -> None:
    """``bench_executor``'s matmul power (100 int32[10,10] matmuls), run eagerly."""
    x_np = (np.arange(100, dtype=np.int32).reshape(10, 10) % 3 - 1).astype(np.int32)
    eye_np = np.eye(10, dtype=np.int32)
    x, eye = tf.constant(x_np), tf.constant(eye_np)

    def ours():
        result = eye
        for _ in range(k):
            result = tf.matmul(x, result)
        return result

    def hand():
        result = eye_np
        for _ in range(k):
            result = np.matmul(x_np, result)
        return result
    np.testing.assert_array_equal(ours().numpy(), hand())
    harness.compare(f"eager matmul power int32[10,10] x{k}", ours, hand, target=1.5)


def main() -> None:
    import runtime as tf

    rng = np.random.default_rng(0)
    a_np = rng.normal(size=(BATCH, HIDDEN)).astype(np.float32)
    b_np = rng.normal(size=(BATCH, HIDDEN)).astype(np.float32)
    w_np = rng.normal(0, 0.2, (HIDDEN, HIDDEN)).astype(np.float32)
    xs_np = rng.normal(size=(STEPS, BATCH, HIDDEN)).astype(np.float32)
    a, b, w, xs = (tf.constant(v) for v in (a_np, b_np, w_np, xs_np))

    rows = [
        ("x + y (8x32 float32)", lambda: a + b, lambda: a_np + b_np, 8.0),
        ("tf.add(x, y)", lambda: tf.add(a, b), lambda: np.add(a_np, b_np), 8.0),
        ("x * 2.0 (Python number)", lambda: a * 2.0, lambda: a_np * np.float32(2.0), 8.0),
        ("tf.matmul (8x32 @ 32x32)", lambda: tf.matmul(a, w), lambda: a_np @ w_np, 6.0),
        ("tf.tanh (8x32)", lambda: tf.tanh(a), lambda: np.tanh(a_np), 6.0),
        ("xs[t] (strided slice)", lambda: xs[3], lambda: xs_np[3], 14.0),
    ]
    for name, ours, floor, target in rows:
        harness.compare(f"eager {name}", ours, floor, unit="op", target=target)
    _chain(tf)
    _matmul_power(tf)

    def eager_rnn():
        h = tf.constant(np.zeros((BATCH, HIDDEN), np.float32))
        for t in range(STEPS):
            h = tf.tanh(tf.matmul(h, w) + tf.matmul(xs[t], w))
        return h

    def numpy_rnn():
        h = np.zeros((BATCH, HIDDEN), np.float32)
        for t in range(STEPS):
            h = np.tanh(h @ w_np + xs_np[t] @ w_np)
        return h

    np.testing.assert_allclose(eager_rnn().numpy(), numpy_rnn(), rtol=1e-5, atol=1e-6)
    rnn = harness.compare("eager rnn100 forward (no tape)", eager_rnn, numpy_rnn,
                          target=10.0, repeats=11)
    print(f"eager rnn100 forward: numpy {rnn.floor * 1e3:.2f} ms, eager {rnn.ours * 1e3:.2f} ms "
          f"({rnn.ratio:.2f}x numpy)")


if __name__ == "__main__":
    main()
