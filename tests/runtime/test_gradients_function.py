"""A tf.function called eagerly under a GradientTape: one recorded op whose gradient is a
generated graph, cached per concrete function."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from runtime.gradients import function_grads


def test_guide_example_gradient_through_a_function():
    @tf.function
    def add(a, b):
        return a + b

    v = tf.Variable(1.0)
    with tf.GradientTape() as tape:
        result = add(v, 1.0)
    assert repr(tape.gradient(result, v)) == "<tf.Tensor: shape=(), dtype=float32, numpy=1.0>"


def _model(x, w, v):
    def body(i, h):
        return i + 1, tf.tanh(tf.matmul(h, w)) * v + h
    h = tf.while_loop(lambda i, h: i < 3, body, [0, x])[1]
    return tf.reduce_sum(h * h)


def test_function_gradient_matches_the_eager_tape_and_is_built_once():
    v = tf.Variable(np.array([0.5, -0.25]))
    staged = tf.function(lambda x, w: _model(x, w, v))
    x = tf.constant(np.array([[1.0, 2.0]]))
    for scale in (1.0, 0.5):
        w = tf.constant(np.array([[0.3, -0.2], [0.1, 0.4]]) * scale)
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = staged(x, w) * 3.0
        got = tape.gradient(y, [x, w, v])
        with tf.GradientTape() as tape:
            tape.watch([x, w])
            y = _model(x, w, v) * 3.0
        want = tape.gradient(y, [x, w, v])
        for g, e in zip(got, want):
            np.testing.assert_allclose(g.numpy(), e.numpy(), rtol=1e-10)
    concrete = staged.get_concrete_function(x, w)
    assert concrete in function_grads._BACKWARD


def test_function_that_assigns_is_refused_under_a_tape():
    v = tf.Variable(1.0)

    @tf.function
    def step(x):
        v.assign_add(1.0)
        return x * v

    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = step(x)
    with pytest.raises(NotImplementedError, match="AssignAddVariableOp"):
        tape.gradient(y, x)


def test_gradient_of_gradient_of_a_function_call_under_nested_tapes():
    """The issue's reproducer: the outer tape saw nothing of the inner gradient (None)."""
    @tf.function
    def f(a):
        return tf.reduce_sum(tf.exp(a))

    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = f(x)
        g = t1.gradient(y, x)
    np.testing.assert_allclose(t2.gradient(g, x).numpy(), np.exp([1.0, 2.0, 3.0]), rtol=1e-6)


def test_third_derivative_through_a_function_reading_a_captured_variable():
    w = tf.Variable([0.5, -1.0, 2.0])

    @tf.function
    def f(a):
        return tf.reduce_sum(tf.math.sin(a) * w)

    x = tf.Variable([1.0, 2.0, 3.0])
    with tf.GradientTape() as t3:
        with tf.GradientTape() as t2:
            with tf.GradientTape() as t1:
                y = f(x)
            g, gw = t1.gradient(y, [x, w])
        h = t2.gradient(g, x)
    k = t3.gradient(h, x)
    a, wv = np.array([1.0, 2.0, 3.0]), np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(gw.numpy(), np.sin(a), rtol=1e-6)
    np.testing.assert_allclose(h.numpy(), -np.sin(a) * wv, rtol=1e-6)
    np.testing.assert_allclose(k.numpy(), -np.cos(a) * wv, rtol=1e-6)


def test_a_target_that_is_a_source_has_gradient_one():
    """TensorFlow: tape.gradient(v0, [v0, v1]) is [1.0, None], watched or not."""
    v0, v1 = tf.Variable(2.0), tf.Variable(3.0)
    with tf.GradientTape() as tape:
        v0 * 1.0
    g0, g1 = tape.gradient(v0, [v0, v1])
    assert g0.numpy() == 1.0 and g1 is None
    with tf.GradientTape():
        pass
    c = tf.constant(3.0)
    with tf.GradientTape() as tape:
        y = v0 * 2.0
    assert tape.gradient([y, v0], v0).numpy() == 3.0
    with tf.GradientTape() as tape:
        pass
    assert tape.gradient(c, c).numpy() == 1.0
