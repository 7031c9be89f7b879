"""Behaviours found differing from TensorFlow 2.21 by probe programs (session 11).

Each expected value is what TensorFlow 2.21 printed for the same code.
"""
import runtime as tf


def test_tensor_shapes_concatenate_with_plus():
    assert str(tf.TensorShape([2]) + tf.TensorShape([3])) == "(2, 3)"
    assert str(tf.TensorShape([2]) + [None]) == "(2, None)"
    assert str([1] + tf.TensorShape([2])) == "(1, 2)"
    assert str(tf.TensorShape(None) + [1]) == "<unknown>"
