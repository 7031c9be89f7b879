"""Gradients through While loops inside compiled functions: accumulators sized by a trip bound."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError

pytest.importorskip("jax")


def bounded_by_maximum_iterations(x, n):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.tanh(y * x)), (0, x),
                          maximum_iterations=5)[1]
        s = tf.reduce_sum(y)
    return tape.gradient(s, x)


def nested_constant_ranges(x, n):
    w = tf.ones([2, 2]) * 0.5
    with tf.GradientTape() as tape:
        tape.watch(x)
        h = tf.reshape(x, [1, 2])
        for i in tf.range(3):
            for j in tf.range(2):
                h = tf.tanh(tf.matmul(h, w) + x * tf.cast(j, tf.float32))
            h = tf.sin(h) * x
        s = tf.reduce_sum(h)
    return tape.gradient(s, x)


@pytest.mark.parametrize("fn,n", [(bounded_by_maximum_iterations, 3),
                                  (bounded_by_maximum_iterations, 9),
                                  (nested_constant_ranges, 0)], ids=["n<max", "n>max", "nested"])
def test_loop_gradient_compiled_equals_numpy(fn, n):
    x, n = tf.constant([0.5, 1.0]), tf.constant(n)
    want = tf.function(fn)(x, n).numpy()
    got = tf.function(fn, jit_compile=True)(x, n).numpy()
    assert got.dtype == want.dtype
    np.testing.assert_allclose(got, want, rtol=1e-5)


def test_unbounded_loop_gradient_says_how_to_bound_it():
    @tf.function(jit_compile=True)
    def f(x, n):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x
            for i in tf.range(n):
                y = y * x
            s = tf.reduce_sum(y)
        return tape.gradient(s, x)
    with pytest.raises(InvalidArgumentError, match="maximum_iterations") as info:
        f(tf.constant([2.0]), tf.constant(3))
    assert "test_loop_gradients.py" in str(info.value)


def test_outer_tape_through_a_compiled_loop():
    f = tf.function(lambda x: tf.reduce_sum(tf.while_loop(
        lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (0, x))[1]), jit_compile=True)
    v = tf.Variable([0.5, 2.0])
    with tf.GradientTape() as tape:
        y = f(v)
    np.testing.assert_allclose(tape.gradient(y, v).numpy(), [4 * 0.5 ** 3, 4 * 2.0 ** 3])


def second_derivative_bounded(x, n):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, tf.sin(y) * x), (0, x),
                              maximum_iterations=4)[1]
            s = tf.reduce_sum(y)
        g = inner.gradient(s, x)
        gs = tf.reduce_sum(g * g)
    return g, outer.gradient(gs, x)


def second_derivative_nested_ranges(x, n):
    with tf.GradientTape() as outer:
        outer.watch(x)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = x
            for i in tf.range(3):
                for j in tf.range(2):
                    y = tf.tanh(y * x + tf.cast(j, tf.float32))
            s = tf.reduce_sum(y)
        g = inner.gradient(s, x)
    return g, outer.gradient(g, x)


def third_derivative(x, n):
    with tf.GradientTape() as t3:
        t3.watch(x)
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), (0, x))[1]
            g1 = t1.gradient(y, x)
        g2 = t2.gradient(g1, x)
    return g1, g2, t3.gradient(g2, x)


@pytest.mark.parametrize("fn,n", [(second_derivative_bounded, 2),
                                  (second_derivative_bounded, 7),
                                  (second_derivative_nested_ranges, 0)],
                         ids=["n<max", "n>max", "nested"])
def test_higher_derivatives_through_compiled_loops(fn, n):
    x, n = tf.constant([0.5, 1.5]), tf.constant(n)
    want = tf.function(fn)(x, n)
    got = tf.function(fn, jit_compile=True)(x, n)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5)


def test_third_derivative_matches_the_closed_form():
    # y = x^4 after three multiplications: 4 x^3, then 12 x^2, then 24 x
    x = np.array([0.5, 2.0], np.float32)
    got = tf.function(third_derivative, jit_compile=True)(tf.constant(x), 0)
    for g, want in zip(got, (4 * x ** 3, 12 * x ** 2, 24 * x)):
        np.testing.assert_allclose(g.numpy(), want, rtol=1e-6)


def test_unbounded_loop_second_derivative_says_how_to_bound_it():
    def f(x, n):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, y: i < n, lambda i, y: (i + 1, y * x), (0, x))[1]
            g = inner.gradient(y, x)
        return outer.gradient(g, x)
    with pytest.raises(InvalidArgumentError, match="maximum_iterations"):
        tf.function(f, jit_compile=True)(tf.constant([2.0]), tf.constant(3))
