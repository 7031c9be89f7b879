"""Gradient of a 100-step RNN: staged graph vs eager tape vs hand-written numpy backprop.

h_{t+1} = tanh(h_t W + x_t U), loss = sum(h_T^2); gradients of W and U.
The staged version is a tf.function holding a tf.while_loop and a tape: the
forward loop pushes what the gradient reads (h_t, x_t, tanh's output) onto
accumulators and a reverse While pops them. The eager version is a Python
loop under a tape, whose gradient runs numpy gradient functions
(runtime/gradients/eager_grads.py). The floor is the same backprop written
with numpy.

Measured on the 2-core dev machine (ratios to numpy): graph 4.5x -> 1.6x
(the forward loop used to be replayed, then recomputed in the backward loop);
eager tape 30x -> 13x -> ~6.5x (the last step: eager ops cache their
inference per op, dtypes, shapes and attrs in runtime/ops/eager.py).
"""
from __future__ import annotations

import numpy as np

from benchmarks import harness

STEPS, BATCH, HIDDEN = 100, 8, 32


def _data():
    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.2, (HIDDEN, HIDDEN)).astype(np.float32)
    u = rng.normal(0, 0.2, (HIDDEN, HIDDEN)).astype(np.float32)
    xs = rng.normal(0, 1, (STEPS, BATCH, HIDDEN)).astype(np.float32)
    h0 = np.zeros((BATCH, HIDDEN), np.float32)
    return w, u, xs, h0


def numpy_backprop(w, u, xs, h0):
    hs = [h0]
    for t in range(STEPS):
        hs.append(np.tanh(hs[-1] @ w + xs[t] @ u))
    gh = 2 * hs[-1]
    gw, gu = np.zeros_like(w), np.zeros_like(u)
    for t in range(STEPS - 1, -1, -1):
        gz = gh * (1 - hs[t + 1] * hs[t + 1])
        gw += hs[t].T @ gz
        gu += xs[t].T @ gz
        gh = gz @ w.T
    return gw, gu


def main() -> None:
    import runtime as tf
    from runtime.gradients import GradientTape

    w_np, u_np, xs_np, h0_np = _data()
    w, u, xs, h0 = (tf.constant(a) for a in (w_np, u_np, xs_np, h0_np))

    def eager_grad(w, u, xs, h0):
        with GradientTape() as tape:
            tape.watch([w, u])
            h = h0
            for t in range(STEPS):
                h = tf.tanh(tf.matmul(h, w) + tf.matmul(xs[t], u))
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, [w, u])

    def staged_grad(w, u, xs, h0):
        with GradientTape() as tape:
            tape.watch([w, u])
            body = lambda i, h: (i + 1, tf.tanh(tf.matmul(h, w) + tf.matmul(xs[i], u)))
            h = tf.while_loop(lambda i, h: i < STEPS, body, [0, h0])[1]
            loss = tf.reduce_sum(h * h)
        return tape.gradient(loss, [w, u])

    graph_fn = tf.Function(staged_grad)
    expected = numpy_backprop(w_np, u_np, xs_np, h0_np)
    for got in (graph_fn(w, u, xs, h0), eager_grad(w, u, xs, h0)):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g.numpy(), e, rtol=2e-3, atol=2e-4)

    floor = lambda: numpy_backprop(w_np, u_np, xs_np, h0_np)
    graph = harness.compare("rnn100 gradient, graph", lambda: graph_fn(w, u, xs, h0), floor,
                            target=3.0, repeats=7)
    eager = harness.compare("rnn100 gradient, eager tape", lambda: eager_grad(w, u, xs, h0),
                            floor, target=10.0, repeats=7)
    print(f"rnn100 gradient: numpy {graph.floor * 1e3:.2f} ms, graph {graph.ours * 1e3:.2f} ms "
          f"({graph.ratio:.2f}x numpy), eager tape {eager.ours * 1e3:.2f} ms "
          f"({eager.ratio:.2f}x numpy); graph is {eager.ours / graph.ours:.2f}x faster than eager")


if __name__ == "__main__":
    main()
