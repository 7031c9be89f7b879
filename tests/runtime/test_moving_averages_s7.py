"""tf.train.ExponentialMovingAverage (values and names recorded from TensorFlow 2.21)."""
import numpy as np
import pytest

import autograph as tf


def test_shadows_trail_their_variables():
    v = tf.Variable(1.0, name="v")
    w = tf.Variable([1.0, 2.0], name="w")
    ema = tf.train.ExponentialMovingAverage(0.9)
    assert ema.apply([v, w]) is None
    got = []
    for _ in range(3):
        v.assign_add(1.0)
        w.assign(w * 2)
        ema.apply([v, w])
        got.append(float(ema.average(v)))
    np.testing.assert_allclose(got, [1.1, 1.29, 1.561], rtol=1e-6)
    np.testing.assert_allclose(ema.average(w).numpy(), [2.051, 4.102], rtol=1e-6)
    shadow = ema.average(v)
    assert ema.average_name(v) == "v/ExponentialMovingAverage"
    assert shadow.name == "v/ExponentialMovingAverage:0" and not shadow.trainable
    assert sorted(ema.variables_to_restore()) == ["v/ExponentialMovingAverage",
                                                  "w/ExponentialMovingAverage"]


def test_num_updates_in_a_tf_function_starts_from_the_value_before_the_call():
    step = tf.Variable(0, dtype=tf.int64)
    ema = tf.train.ExponentialMovingAverage(0.99, num_updates=step, name="E")
    x = tf.Variable(0.0)

    @tf.function
    def train():
        x.assign_add(1.0)
        step.assign_add(1)
        ema.apply([x])
    for _ in range(3):
        train()
    assert float(ema.average(x)) == pytest.approx(2.6013987064361572, rel=1e-6)


def test_only_float_variables_are_averaged():
    with pytest.raises(TypeError, match="half, float, or double"):
        tf.train.ExponentialMovingAverage(0.9).apply([tf.Variable(1)])
