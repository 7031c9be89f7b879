"""custom_gradient, recompute_grad, ForwardAccumulator, batch_jacobian, numpy_function:
the gradient tools of TensorFlow's autodiff guides (values as TensorFlow gives them)."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf


@tf.custom_gradient
def log1pexp(x):
    e = tf.exp(x)

    def grad(upstream):
        return upstream * (1 - 1 / (1 + e))
    return tf.math.log(1 + e), grad


def test_custom_gradient_replaces_the_ops_gradient_eagerly_and_staged():
    x = tf.constant(100.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = log1pexp(x)
    assert tape.gradient(y, x).numpy() == 1.0  # the ops' own gradient would be nan

    @tf.function
    def staged(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = log1pexp(x)
        return tape.gradient(y, x)
    assert staged(tf.constant(100.0)).numpy() == 1.0
    assert staged(tf.constant(0.0)).numpy() == 0.5


def test_custom_gradient_with_variables_and_second_order():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * v * 10, [dy * x * 10]
        return x * v, grad

    x = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = scale(x)
    gx, gv = tape.gradient(y, [x, v])
    assert (gx.numpy(), gv.numpy()) == (20.0, 30.0)

    @tf.custom_gradient
    def square(x):
        return x * x, lambda dy: dy * 2 * x

    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = square(x)
        g = t1.gradient(y, x)
    assert (g.numpy(), t2.gradient(g, x).numpy()) == (6.0, 2.0)


def test_custom_gradient_reading_variables_needs_a_variables_argument():
    v = tf.Variable(2.0)

    @tf.custom_gradient
    def f(x):
        return x * v, lambda dy: dy

    with pytest.raises(TypeError, match="must accept a keyword argument 'variables'"):
        f(tf.constant(1.0))


def test_recompute_grad_gives_the_same_gradients():
    w = tf.Variable(3.0)

    def block(x):
        return tf.exp(x) * w

    x = tf.constant(1.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.recompute_grad(block)(x)
    gx, gw = tape.gradient(y, [x, w])
    np.testing.assert_allclose([gx.numpy(), gw.numpy()], [3 * np.e, np.e], rtol=1e-6)


def test_forward_accumulator_jvp_and_hessian_vector_product():
    x = tf.constant([1.0, 2.0])
    v = tf.constant([1.0, 0.5])
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        y = tf.reduce_sum(x * x * x)
    assert acc.jvp(y).numpy() == pytest.approx(9.0)  # sum(3 x^2 v)
    with tf.autodiff.ForwardAccumulator(x, v) as acc:
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(x * x * x)
        g = tape.gradient(y, x)
    np.testing.assert_allclose(acc.jvp(g).numpy(), [6.0, 6.0])  # H v = 6 x v
    w = tf.Variable([1.0, 2.0])
    with tf.autodiff.ForwardAccumulator(w, tf.constant([1.0, 1.0])) as acc:
        y = w * w
        unrelated = tf.constant(1.0) * 2.0
    np.testing.assert_allclose(acc.jvp(y).numpy(), [2.0, 4.0])
    assert acc.jvp(unrelated) is None
    assert acc.jvp(unrelated, unconnected_gradients="zero").numpy() == 0.0
    with pytest.raises(ValueError, match="tangent must match"):
        tf.autodiff.ForwardAccumulator(x, tf.constant([1.0, 2.0, 3.0]))


def test_batch_jacobian_shape_and_values():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * x
    j = tape.batch_jacobian(y, x)
    assert j.shape == (2, 3, 3)
    np.testing.assert_allclose(j.numpy()[1], np.diag([6.0, 8.0, 10.0]))


def test_numpy_function_and_py_function_as_decorator():
    @tf.function
    def f(x):
        return tf.numpy_function(lambda a: np.sin(a).astype(np.float32), [x], tf.float32)
    np.testing.assert_allclose(f(tf.constant([1.0, 2.0])).numpy(), np.sin([1.0, 2.0]),
                               rtol=1e-6)

    @tf.py_function(Tout=tf.float32)
    def double(x):
        return x * 2
    assert double(tf.constant(3.0)).numpy() == 6.0


def test_igamma_gradient_with_respect_to_a_is_tensorflow_s():
    # TensorFlow 2.21's IgammaGradA (float64); the gradient with respect to `a` was None,
    # which silently dropped igamma's term from gradients of sums.
    a = tf.constant([0.5, 1.0, 2.5, 3.0, 10.0, 0.1, 50.0, 2.0], tf.float64)
    x = tf.constant([0.3, 2.0, 1.0, 8.0, 12.0, 0.01, 45.0, 0.0], tf.float64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, x])
        p, q = tf.math.igamma(a, x), tf.math.igammac(a, x)
        y = tf.reduce_sum(p * a)
    expected = [-0.7705703513753518, -0.22082542621185938, -0.18009960695404154,
                -0.017791335986496452, -0.09717797203717947, -2.776160812425423,
                -0.04554329214012429, 0.0]
    np.testing.assert_allclose(tape.gradient(p, a).numpy(), expected, rtol=1e-12)
    np.testing.assert_allclose(tape.gradient(q, a).numpy(), -np.array(expected), rtol=1e-12)
    np.testing.assert_allclose(
        tape.gradient(y, a).numpy(),
        [0.17613679823132417, 0.6438392905515279, -0.2993940534697135, 0.9328720242965077,
         -0.21417188204230675, 0.3850051787119377, -2.030362572606042, 0.0], rtol=1e-12)
