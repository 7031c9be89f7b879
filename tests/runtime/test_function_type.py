"""ConcreteFunction.function_type prints and compares as TensorFlow 2.21's does."""
from __future__ import annotations

import inspect

import autograph as tf


@tf.function
def f(x, y=2, *, z=tf.constant(1.0)):
    return x * 2.0 + z


def test_function_type_as_tensorflow_shows_it():
    ft = f.get_concrete_function(tf.constant([1.0, 2.0])).function_type
    assert isinstance(ft, inspect.Signature)
    assert str(ft) == ("(x: TensorSpec(shape=(2,), dtype=tf.float32, name=None), y: Literal[2], "
                       "*, z: TensorSpec(shape=(), dtype=tf.float32, name=None)) -> "
                       "TensorSpec(shape=(2,), dtype=tf.float32, name=None)")
    assert repr(ft) == """Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(2,), dtype=tf.float32, name=None)
  y (POSITIONAL_OR_KEYWORD): Literal[2]
  z (KEYWORD_ONLY): TensorSpec(shape=(), dtype=tf.float32, name=None)
Output Type:
  TensorSpec(shape=(2,), dtype=tf.float32, name=None)
Captures:
  None"""
    assert [p.optional for p in ft.parameters.values()] == [False, False, False]
    assert repr(ft.parameters["y"].type_constraint) == "Literal[2]"
    assert ft.flat_inputs == [tf.TensorSpec([2], tf.float32), tf.TensorSpec([], tf.float32)]
    assert ft.flat_outputs == [tf.TensorSpec([2], tf.float32)]
    assert ft == f.get_concrete_function(tf.constant([3.0, 4.0])).function_type
    assert ft != f.get_concrete_function(tf.constant([3.0, 4.0]), 3).function_type
