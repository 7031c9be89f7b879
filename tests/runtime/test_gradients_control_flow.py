"""Gradients through staged cond and while_loop (nested, data-dependent trip counts).

The numeric reference runs the same function eagerly (cond and while_loop are
plain Python there); the analytic gradient is built into the traced graph and
run by both executor back ends.
"""
from __future__ import annotations

import numpy as np
import pytest

import runtime as tf
from runtime.gradients import GradientTape
from runtime.ops import math_ops as M
from tests.runtime.test_gradients import check_gradients, numeric_grads
from tests.staging import staged, trace


def test_cond_gradient_is_the_taken_branch():
    def fn(x):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: x * x * 3.0, lambda: M.sin(x))
    check_gradients(fn, np.array([1.0, 2.0]), mode="staged")
    check_gradients(fn, np.array([-1.0, -2.5]), mode="staged")


def test_cond_with_captured_tensors_and_an_unused_input():
    def fn(x, y):
        z = y * 2.0
        return tf.cond(x[0] > 0, lambda: x * z, lambda: x + 1.0)
    check_gradients(fn, np.array([1.0, 2.0]), np.array([0.5, -1.0]), mode="staged")
    check_gradients(fn, np.array([-1.0, 2.0]), np.array([0.5, -1.0]), mode="staged")


def test_while_with_data_dependent_trip_count():
    def fn(x):
        def body(i, y):
            return i + 1, tf.tanh(y) * x + y
        _, y = tf.while_loop(lambda i, y: tf.reduce_sum(tf.abs(y)) < 20.0, body, [0, x])
        return y
    for x in (np.array([0.3, -0.2]), np.array([1.0, 0.8])):
        check_gradients(fn, x, mode="staged", rtol=1e-5, atol=1e-6)


def test_while_trip_count_differs_between_runs_of_one_graph():
    def grad(x):
        with GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda y: tf.reduce_sum(y) < 50.0, lambda y: y * x, [x])[0]
            total = tf.reduce_sum(y)
        return tape.gradient(total, x)
    from graph import compile_graph
    graph, _, _ = trace(grad, np.array([2.0, 3.0]))
    run = compile_graph(graph)
    for x in (np.array([2.0, 3.0]), np.array([1.5, 1.2]), np.array([60.0, 1.0])):
        k, y = 1, x.copy()
        while y.sum() < 50.0:
            y, k = y * x, k + 1
        np.testing.assert_allclose(run(x)[0], k * x ** (k - 1))


def test_nested_while_loops():
    def fn(x):
        def outer(i, y):
            inner = tf.while_loop(lambda j, z: j < i, lambda j, z: (j + 1, z * 0.9 + M.sin(z)),
                                  [0, y])[1]
            return i + 1, inner * x
        return tf.while_loop(lambda i, y: i < 3, outer, [0, x])[1]
    check_gradients(fn, np.array([0.4, -0.7]), mode="staged", rtol=1e-5, atol=1e-6)


def test_cond_inside_while_and_while_inside_cond():
    def fn(x):
        def body(i, y):
            return i + 1, tf.cond(tf.reduce_sum(y) > 1.0, lambda: y * 0.5, lambda: y * x + 0.3)
        y = tf.while_loop(lambda i, y: i < 5, body, [0, x])[1]
        return tf.cond(y[0] > 0, lambda: tf.while_loop(lambda z: tf.reduce_sum(z) < 3.0,
                                                       lambda z: z * 1.5 + x, [y])[0],
                       lambda: y * y)
    check_gradients(fn, np.array([0.7, 0.2]), mode="staged", rtol=1e-5, atol=1e-6)
    check_gradients(fn, np.array([-0.9, 0.4]), mode="staged", rtol=1e-5, atol=1e-6)


def test_while_with_maximum_iterations():
    def fn(x):
        return tf.while_loop(lambda y: True, lambda y: y * x + 1.0, [x], maximum_iterations=4)[0]
    check_gradients(fn, np.array([0.5, -1.2]), mode="staged")


def test_variables_read_inside_a_loop_get_gradients():
    w = tf.Variable(np.array([[0.5, -0.3], [0.2, 0.8]]))
    b = tf.Variable(np.array([0.1, -0.1]))

    def rnn(h):
        def body(i, h):
            return i + 1, tf.tanh(tf.matmul(h, w) + b)
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 4, body, [0, h])[1] ** 2.0)

    def grads(h):
        with GradientTape() as tape:
            loss = rnn(h)
        return tape.gradient(loss, [w, b])

    h0 = np.array([[1.0, -0.5]])
    got = staged(grads, h0)

    def loss_of(arrays):
        w.assign(arrays[0])
        b.assign(arrays[1])
        return float(rnn(tf.constant(h0)))
    w0, b0 = w.numpy().copy(), b.numpy().copy()
    expected = numeric_grads(loss_of, [w0, b0])
    w.assign(w0), b.assign(b0)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-8)
    eager = grads(tf.constant(h0))  # the eager tape agrees with the staged gradient
    for g, s in zip(eager, got):
        np.testing.assert_allclose(g.numpy(), s, rtol=1e-10)


def test_random_op_in_a_loop_uses_the_values_of_the_forward_pass():
    """The loop's intermediates are accumulated while it runs, never recomputed: a random
    op in the body is differentiated with the numbers the forward pass drew."""
    from runtime import random as tf_random

    def fn(x):
        def body(i, y, ta):
            r = tf_random.uniform([2], dtype=tf.float64)
            return i + 1, y * x + r, ta.write(i, r)
        with GradientTape() as tape:
            tape.watch(x)
            _, y, ta = tf.while_loop(lambda i, y, ta: i < 4, body,
                                     [0, x, tf.TensorArray(tf.float64, size=4)])
        return y, ta.stack(), tape.gradient(y, x)
    x = np.array([0.7, -1.3])
    from graph import compile_graph
    graph, _, _ = trace(fn, x)
    for backend in ("codegen", "interpret"):  # each run draws new numbers
        y, rs, got = compile_graph(graph, backend=backend)(x)
        ys, ds = [x], [np.ones(2)]
        for r in rs:
            ds.append(ds[-1] * x + ys[-1])
            ys.append(ys[-1] * x + r)
        np.testing.assert_allclose(y, ys[-1])
        np.testing.assert_allclose(got, ds[-1])


def test_random_op_in_a_cond_branch_is_refused_with_its_name():
    from runtime import random as tf_random

    def grad(x):
        with GradientTape() as tape:
            tape.watch(x)
            y = tf.cond(tf.reduce_sum(x) > 0,
                        lambda: x * 2.0 + tf_random.uniform([2], dtype=tf.float64), lambda: x)
        return tape.gradient(y, x)
    with pytest.raises(NotImplementedError, match="stateful op .*Random"):
        trace(grad, np.array([1.0, 2.0]))


def test_second_derivative_through_a_staged_loop():
    """The backward loop pops the forward loop's accumulators (TensorLists), so an outer tape
    differentiates it like any loop that carries TensorArrays."""
    def second(x):
        with GradientTape() as outer:
            outer.watch(x)
            with GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])[1]
                total = tf.reduce_sum(y)
            g = inner.gradient(total, x)
            g_total = tf.reduce_sum(g)
        return outer.gradient(g_total, x)
    x = np.array([1.5, -0.5])
    np.testing.assert_allclose(staged(second, x), 12 * x ** 2)


def test_persistent_tape_asks_one_loop_for_different_gradients():
    """Each gradient adds the accumulators it needs to the loop; the second one must still
    see every node the tape recorded (the first inserted nodes before the loop)."""
    def grads(x, w):
        with GradientTape(persistent=True) as tape:
            tape.watch([x, w])
            y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, M.sin(y) * w), [0, x])[1]
            total = tf.reduce_sum(y * y)
        return tape.gradient(total, x), tape.gradient(total, w), tape.gradient(total, [x, w])
    x, w = np.array([0.3, -0.6]), np.array([1.2, 0.7])

    def loss(arrays):
        y = arrays[0]
        for _ in range(3):
            y = np.sin(y) * arrays[1]
        return float(np.sum(y * y))
    gx, gw = numeric_grads(loss, [x, w])
    got_x, got_w, (both_x, both_w) = staged(grads, x, w)
    for g, e in ((got_x, gx), (got_w, gw), (both_x, gx), (both_w, gw)):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-8)


def test_second_derivatives_of_nested_loops_with_a_data_dependent_trip_count():
    """Hessian-vector products (staged, and with eager tapes) against central differences
    of the analytic gradient."""
    def loss(x):
        def outer(i, y):
            inner = tf.while_loop(lambda j, z: tf.reduce_sum(z * z) < 4.0 + tf.cast(i, tf.float64),
                                  lambda j, z: (j + 1, z * 1.3 + M.sin(z) * x), [0, y])[1]
            return i + 1, tf.tanh(inner) * x
        return tf.reduce_sum(tf.while_loop(lambda i, y: i < 3, outer, [0, x])[1] ** 2.0)

    def first(x):
        with GradientTape() as tape:
            tape.watch(x)
            total = loss(x)
        return tape.gradient(total, x)

    v = np.array([0.6, -0.8])

    def hvp(x):
        with GradientTape() as outer:
            outer.watch(x)
            gv = tf.reduce_sum(first(x) * tf.constant(v))
        return outer.gradient(gv, x)

    x = np.array([0.5, 0.9])
    eps = 1e-6
    expected = (first(tf.constant(x + eps * v)).numpy() -
                first(tf.constant(x - eps * v)).numpy()) / (2 * eps)
    np.testing.assert_allclose(staged(hvp, x), expected, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(hvp(tf.constant(x)).numpy(), expected, rtol=1e-5, atol=1e-6)
