"""SGD and Adam against numpy references; eager == tf.function step by step; the guide's
two-optimizer ValueError and its workaround."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from runtime import optimizers


def _problem():
    w = tf.Variable(np.array([[0.5, -1.0], [2.0, 0.3]], dtype=np.float32))
    b = tf.Variable(np.array([0.1, -0.2], dtype=np.float32))
    x = tf.constant(np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.3]], dtype=np.float32))
    y = tf.constant(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]], dtype=np.float32))
    return w, b, x, y


def _step(w, b, x, y, opt):
    with tf.GradientTape() as tape:
        pred = tf.tanh(tf.matmul(x, w) + b)
        loss = tf.reduce_mean(tf.square(pred - y))
    grads = tape.gradient(loss, [w, b])
    opt.apply_gradients(zip(grads, [w, b]))
    return loss


def _numpy_grads(w, b, x, y):
    z = x @ w + b
    p = np.tanh(z)
    dz = 2 * (p - y) / p.size * (1 - p * p)
    return x.T @ dz, dz.sum(0)


def _reference(kind, steps, **kw):
    w, b, x, y = (np.asarray(t.numpy(), np.float64) for t in _problem())
    params = [w, b]
    state = [dict(m=np.zeros_like(p), v=np.zeros_like(p)) for p in params]
    lr = kw.get("learning_rate", 0.01)
    for t in range(1, steps + 1):
        grads = _numpy_grads(params[0], params[1], x, y)
        for p, g, s in zip(params, grads, state):
            if kind == "sgd":
                mom = kw.get("momentum", 0.0)
                if mom:
                    s["m"] = mom * s["m"] - lr * g
                    p += (mom * s["m"] - lr * g) if kw.get("nesterov") else s["m"]
                else:
                    p -= lr * g
            else:
                b1, b2, eps = 0.9, 0.999, 1e-7
                s["m"] = b1 * s["m"] + (1 - b1) * g
                s["v"] = b2 * s["v"] + (1 - b2) * g * g
                lr_t = lr * np.sqrt(1 - b2 ** t) / (1 - b1 ** t)
                p -= lr_t * s["m"] / (np.sqrt(s["v"]) + eps)
    return params


CASES = [("sgd", {"learning_rate": 0.1}), ("sgd", {"learning_rate": 0.1, "momentum": 0.9}),
         ("sgd", {"learning_rate": 0.1, "momentum": 0.5, "nesterov": True}),
         ("adam", {"learning_rate": 0.05})]


def _make(kind, kw):
    return optimizers.SGD(**kw) if kind == "sgd" else optimizers.Adam(**kw)


@pytest.mark.parametrize("kind,kw", CASES, ids=str)
def test_optimizer_matches_numpy_reference(kind, kw):
    w, b, x, y = _problem()
    opt = _make(kind, kw)
    for _ in range(5):
        _step(w, b, x, y, opt)
    ref = _reference(kind, 5, **kw)
    # (Keras 3's float32 arithmetic, which TensorFlow's values follow, is further from the
    # float64 reference than 1e-6: TensorFlow's b[1] is 0.04327971 for 0.04328148 with Adam)
    np.testing.assert_allclose(w.numpy(), ref[0], rtol=1e-5, atol=5e-6)
    np.testing.assert_allclose(b.numpy(), ref[1], rtol=1e-5, atol=5e-6)
    assert int(opt.iterations.numpy()) == 5


@pytest.mark.parametrize("kind,kw", CASES, ids=str)
def test_tf_function_training_step_matches_eager_step_by_step(kind, kw):
    we, be, x, y = _problem()
    ws, bs, _, _ = _problem()
    opt_e, opt_s = _make(kind, kw), _make(kind, kw)
    staged_step = tf.function(_step)
    for _ in range(6):
        le = _step(we, be, x, y, opt_e)
        ls = staged_step(ws, bs, x, y, opt_s)
        np.testing.assert_allclose(ls.numpy(), le.numpy(), rtol=1e-6)
        np.testing.assert_allclose(ws.numpy(), we.numpy(), rtol=1e-6, atol=1e-7)
        np.testing.assert_allclose(bs.numpy(), be.numpy(), rtol=1e-6, atol=1e-7)


def test_slots_are_created_on_first_use():
    w = tf.Variable([1.0, 2.0])
    opt = optimizers.Adam()
    assert len(opt.variables) == 2  # iterations, learning rate: Keras 3 makes them with it
    opt.apply_gradients([(tf.constant([0.1, 0.1]), w)])
    assert len(opt.variables) == 4  # iterations, learning rate, m, v
    np.testing.assert_allclose(opt.get_slot(w, "m").numpy(), [0.01, 0.01], rtol=1e-6)


def test_guide_two_optimizers_raise_and_the_workaround_works():
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)

    @tf.function
    def train_step(w, x, y, optimizer):
        with tf.GradientTape() as tape:
            L = tf.reduce_sum(tf.square(w * x - y))
        gradients = tape.gradient(L, [w])
        optimizer.apply_gradients(zip(gradients, [w]))

    w = tf.Variable(2.)
    x = tf.constant([-1.])
    y = tf.constant([2.])
    train_step(w, x, y, opt1)
    assert np.isclose(w.numpy(), 1.99)
    with pytest.raises(ValueError, match="tf.function only supports singleton tf.Variables "
                                         "created on the first call"):
        train_step(w, x, y, opt2)

    def plain_step(w, x, y, optimizer):
        with tf.GradientTape() as tape:
            L = tf.reduce_sum(tf.square(w * x - y))
        gradients = tape.gradient(L, [w])
        optimizer.apply_gradients(zip(gradients, [w]))

    w = tf.Variable(2.)
    opt1 = tf.keras.optimizers.Adam(learning_rate=1e-2)
    opt2 = tf.keras.optimizers.Adam(learning_rate=1e-3)
    step_1 = tf.function(plain_step).get_concrete_function(w, x, y, opt1)
    step_2 = tf.function(plain_step).get_concrete_function(w, x, y, opt2)
    we = tf.Variable(2.)
    e1, e2 = tf.keras.optimizers.Adam(learning_rate=1e-2), tf.keras.optimizers.Adam(
        learning_rate=1e-3)
    for i in range(10):
        if i % 2 == 0:
            step_1(w, x, y)
            plain_step(we, x, y, e1)
        else:
            step_2(w, x, y)
            plain_step(we, x, y, e2)
        np.testing.assert_allclose(w.numpy(), we.numpy(), rtol=1e-6)
    assert w.numpy() < 1.99


def test_apply_gradients_errors():
    w = tf.Variable(1.0)
    opt = optimizers.SGD()
    with pytest.raises(ValueError, match="No gradients provided for any variable"):
        opt.apply_gradients([(None, w)])
    with pytest.raises(TypeError, match=r"\(gradient, tf.Variable\) pairs"):
        opt.apply_gradients([(tf.constant(1.0), tf.constant(2.0))])
    with pytest.raises(ValueError, match="momentum"):
        optimizers.SGD(momentum=2.0)


def test_minimize_with_a_callable_loss():
    w = tf.Variable(3.0)
    opt = optimizers.SGD(learning_rate=0.25)
    opt.minimize(lambda: w * w, [w])
    assert float(w.numpy()) == 1.5
