"""API rules found by diffing small programs against TensorFlow 2.21."""
import pytest

import autograph as tf


def test_tf_cond_refuses_a_python_bool_while_tracing_and_takes_it_eagerly():
    assert int(tf.cond(True, lambda: 1, lambda: 2)) == 1

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: -x) + tf.cond(x > 1, lambda: 1, lambda: 0)
    assert int(f(tf.constant(-3))) == 3

    with pytest.raises(TypeError, match="pred must not be a Python bool"):
        tf.function(lambda: tf.cond(True, lambda: 1, lambda: 2))()
