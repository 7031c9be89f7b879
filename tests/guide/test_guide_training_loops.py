"""TensorFlow's "Basic training loops" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
The guide's random noise is left out (zeros), so the printed numbers are exact.
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401
import pytest

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_data_and_model(out):
    TRUE_W = 3.0
    TRUE_B = 2.0
    NUM_EXAMPLES = 201
    x = tf.linspace(-2,2, NUM_EXAMPLES)
    x = tf.cast(x, tf.float32)
    def f(x):
      return x * TRUE_W + TRUE_B
    noise = tf.zeros([NUM_EXAMPLES])
    y = f(x) + noise
    class MyModel(tf.Module):
      def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)
      def __call__(self, x):
        return self.w * x + self.b
    def loss(target_y, predicted_y):
      return tf.reduce_mean(tf.square(target_y - predicted_y))

    print(x.dtype, x.shape, x[:3])
    model = MyModel()
    print("Variables:", model.variables)
    assert model(3.0).numpy() == 15.0
    print("Current loss: %1.6f" % loss(y, model(x)).numpy())
    assert out() == expect(r'''
<dtype: 'float32'> (201,) tf.Tensor([-2.   -1.98 -1.96], shape=(3,), dtype=float32)
Variables: (<tf.Variable 'Variable:0' shape=() dtype=float32, numpy=0.0>, <tf.Variable 'Variable:0' shape=() dtype=float32, numpy=5.0>)
Current loss: 9.386666
''')


def test_training_loop(out):
    TRUE_W = 3.0
    TRUE_B = 2.0
    NUM_EXAMPLES = 201
    x = tf.linspace(-2,2, NUM_EXAMPLES)
    x = tf.cast(x, tf.float32)
    def f(x):
      return x * TRUE_W + TRUE_B
    noise = tf.zeros([NUM_EXAMPLES])
    y = f(x) + noise
    class MyModel(tf.Module):
      def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.w = tf.Variable(5.0)
        self.b = tf.Variable(0.0)
      def __call__(self, x):
        return self.w * x + self.b
    def loss(target_y, predicted_y):
      return tf.reduce_mean(tf.square(target_y - predicted_y))

    def train(model, x, y, learning_rate):
      with tf.GradientTape() as t:
        current_loss = loss(y, model(x))
      dw, db = t.gradient(current_loss, [model.w, model.b])
      model.w.assign_sub(learning_rate * dw)
      model.b.assign_sub(learning_rate * db)
    model = MyModel()
    weights = []
    biases = []
    epochs = range(10)
    def report(model, loss):
      return f"W = {model.w.numpy():1.2f}, b = {model.b.numpy():1.2f}, loss={loss:2.5f}"
    def training_loop(model, x, y):
      for epoch in epochs:
        train(model, x, y, learning_rate=0.1)
        weights.append(model.w.numpy())
        biases.append(model.b.numpy())
        current_loss = loss(y, model(x))
        print(f"Epoch {epoch:2d}:")
        print("    ", report(model, current_loss))
    current_loss = loss(y, model(x))
    print(f"Starting:")
    print("    ", report(model, current_loss))
    training_loop(model, x, y)
    print(weights[-1], biases[-1])
    assert out() == expect(r'''
Starting:
     W = 5.00, b = 0.00, loss=9.38667
Epoch  0:
     W = 4.46, b = 0.40, loss=5.43580
Epoch  1:
     W = 4.07, b = 0.72, loss=3.17371
Epoch  2:
     W = 3.78, b = 0.98, loss=1.86824
Epoch  3:
     W = 3.57, b = 1.18, loss=1.10869
Epoch  4:
     W = 3.42, b = 1.34, loss=0.66312
Epoch  5:
     W = 3.30, b = 1.48, loss=0.39960
Epoch  6:
     W = 3.22, b = 1.58, loss=0.24251
Epoch  7:
     W = 3.16, b = 1.66, loss=0.14814
Epoch  8:
     W = 3.12, b = 1.73, loss=0.09104
Epoch  9:
     W = 3.09, b = 1.79, loss=0.05625
3.0867405 1.7852516
''')
