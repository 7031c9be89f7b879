"""Behaviours found differing from TensorFlow 2.21 by probe programs (session 11).

Each expected value is what TensorFlow 2.21 printed for the same code.
"""
import autograph as tf


def test_tensor_shapes_concatenate_with_plus():
    assert str(tf.TensorShape([2]) + tf.TensorShape([3])) == "(2, 3)"
    assert str(tf.TensorShape([2]) + [None]) == "(2, None)"
    assert str([1] + tf.TensorShape([2])) == "(1, 2)"
    assert str(tf.TensorShape(None) + [1]) == "<unknown>"


def test_constant_with_a_shape_of_another_size_is_tensorflows_type_error():
    import pytest
    with pytest.raises(TypeError, match=r"Eager execution of tf.constant with unsupported shape\. "
                       r"Tensor \[1 2 3\] \(converted from \[1, 2, 3\]\) has 3 elements, but got "
                       r"`shape` \(2,\) with 2 elements\)\."):
        tf.constant([1, 2, 3], shape=[2])
    @tf.function
    def staged():
        return tf.constant([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match=r"Expected Tensor's shape: \(2,\), but got \(3,\)\."):
        staged()
    assert tf.constant([1, 2, 3, 4], shape=[4, 1]).shape == (4, 1)
    assert tf.constant(7, shape=[2, 2]).numpy().tolist() == [[7, 7], [7, 7]]
