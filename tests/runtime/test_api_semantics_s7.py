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


def test_nest_structures_of_other_sequence_types_are_a_type_error():
    with pytest.raises(TypeError, match="same nested structure"):
        tf.nest.assert_same_structure([1, 2], (1, 2))
    with pytest.raises(ValueError, match="same nested structure"):
        tf.nest.assert_same_structure([1, 2], [1, [2]])
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)


def test_writing_past_a_fixed_tensor_array_is_out_of_range_eagerly():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(tf.errors.OutOfRangeError, match="not resizeable"):
        ta.write(5, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        tf.function(lambda: tf.TensorArray(tf.float32, size=2).write(5, 1.0).stack())()
