"""Functions used inside other functions' traces: a ConcreteFunction called there (copied into
the caller's graph; it raised NotImplementedError), and a tf.function called only there, whose
traces a SavedModel still holds (they were "untraced" and not saved)."""
import numpy as np
import pytest

import autograph as tf


def test_a_concrete_function_called_inside_another_function():
    @tf.function
    def scale(x, factor=2.0):
        return {"scaled": x * factor, "sum": tf.reduce_sum(x)}
    concrete = scale.get_concrete_function(tf.TensorSpec([None], tf.float32))

    @tf.function
    def outer(x):
        out = concrete(x)
        return out["scaled"] + out["sum"]
    assert outer(tf.constant([1.0, 2.0])).numpy().tolist() == [5.0, 7.0]
    assert concrete(tf.constant([1.0])) ["scaled"].numpy().tolist() == [2.0]

    @tf.function
    def wrong(x):
        return concrete(tf.cast(x, tf.int32))
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float tensor"):
        wrong(tf.constant([1.0]))


def test_gradients_flow_through_a_concrete_function_in_a_trace():
    w = tf.Variable(3.0)

    @tf.function
    def model(x):
        return w * x * x
    concrete = model.get_concrete_function(tf.TensorSpec([], tf.float32))

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = concrete(x)
        return tape.gradient(y, [x, w])
    dx, dw = step(tf.constant(2.0))
    assert (float(dx), float(dw)) == (12.0, 4.0)


class _Model(tf.Module):
    def __init__(self):
        self.w = tf.Variable([[2.0], [1.0]])

    @tf.function
    def __call__(self, x):
        return tf.matmul(x, self.w)


def test_a_function_called_only_inside_other_traces_is_saved(tmp_path):
    model = _Model()

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def predict(x):
        return model(x) + 1.0
    predict(np.ones((3, 2), np.float32))
    tf.saved_model.save(model, str(tmp_path))  # (before: "untraced function", not saved)
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded(tf.constant([[1.0, 1.0], [0.0, 1.0]])).numpy().tolist() == [[3.0], [1.0]]
