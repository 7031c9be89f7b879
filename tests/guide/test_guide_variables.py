"""TensorFlow's "Introduction to Variables" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_setup_and_devices(out):
    x = tf.Variable(1.0)
    print(x.device, tf.constant(1.0).device)
    print(tf.Variable(1, dtype=tf.uint32), tf.constant([1, 2], tf.uint16))
    print(tf.cast(tf.constant([-1]), tf.uint64), tf.uint32.max, tf.uint16.is_unsigned)
    assert out() == expect(r'''
/job:localhost/replica:0/task:0/device:CPU:0 /job:localhost/replica:0/task:0/device:CPU:0
<tf.Variable 'Variable:0' shape=() dtype=uint32, numpy=1> tf.Tensor([1 2], shape=(2,), dtype=uint16)
tf.Tensor([18446744073709551615], shape=(1,), dtype=uint64) 4294967295 True
''')


def test_create_a_variable(out):
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    my_variable = tf.Variable(my_tensor)
    bool_variable = tf.Variable([False, False, False, True])
    complex_variable = tf.Variable([5 + 4j, 6 + 1j])
    print(my_variable)
    print(bool_variable)
    print(complex_variable)
    print("Shape: ", my_variable.shape)
    print("DType: ", my_variable.dtype)
    print("As NumPy: ", my_variable.numpy())
    print("A variable:", my_variable)
    print("\nViewed as a tensor:", tf.convert_to_tensor(my_variable))
    print("\nIndex of highest value:", tf.math.argmax(my_variable))
    print("\nCopying and reshaping: ", tf.reshape(my_variable, [1,4]))
    assert out() == expect(r'''
<tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=
array([[1., 2.],
       [3., 4.]], dtype=float32)>
<tf.Variable 'Variable:0' shape=(4,) dtype=bool, numpy=array([False, False, False,  True])>
<tf.Variable 'Variable:0' shape=(2,) dtype=complex128, numpy=array([5.+4.j, 6.+1.j])>
Shape:  (2, 2)
DType:  <dtype: 'float32'>
As NumPy:  [[1. 2.]
 [3. 4.]]
A variable: <tf.Variable 'Variable:0' shape=(2, 2) dtype=float32, numpy=
array([[1., 2.],
       [3., 4.]], dtype=float32)>

Viewed as a tensor: tf.Tensor(
[[1. 2.]
 [3. 4.]], shape=(2, 2), dtype=float32)

Index of highest value: tf.Tensor([1 1], shape=(2,), dtype=int64)

Copying and reshaping:  tf.Tensor([[1. 2. 3. 4.]], shape=(1, 4), dtype=float32)
''')


def test_assign(out):
    a = tf.Variable([2.0, 3.0])
    a.assign([1, 2])
    try:
      a.assign([1.0, 2.0, 3.0])
    except Exception as e:
      print(f"{type(e).__name__}: {e}")
    a = tf.Variable([2.0, 3.0])
    b = tf.Variable(a)
    a.assign([5, 6])
    print(a.numpy())
    print(b.numpy())
    print(a.assign_add([2,3]).numpy())
    print(a.assign_sub([7,9]).numpy())
    v = tf.Variable(1.0)
    print(repr(v.assign(3.0)))
    print(type(v).__name__, v.assign(2.0, read_value=False))
    assert out() == expect(r'''
ValueError: Cannot assign value to variable ' Variable:0': Shape mismatch.The variable shape (2,), and the assigned value shape (3,) are incompatible.
[5. 6.]
[2. 3.]
[7. 9.]
[0. 0.]
<tf.Variable 'UnreadVariable' shape=() dtype=float32, numpy=3.0>
ResourceVariable None
''')


def test_lifecycles_naming_and_watching(out):
    my_tensor = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    a = tf.Variable(my_tensor, name="Mark")
    b = tf.Variable(my_tensor + 1, name="Mark")
    print(a == b)
    step_counter = tf.Variable(1, trainable=False)
    print(step_counter)
    print(a.name, b.name, step_counter.name, a.trainable, step_counter.trainable)
    assert out() == expect(r'''
tf.Tensor(
[[False False]
 [False False]], shape=(2, 2), dtype=bool)
<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>
Mark:0 Mark:0 Variable:0 True False
''')


def test_placing_variables_and_tensors(out):
    with tf.device('CPU:0'):
      a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
      b = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
      c = tf.matmul(a, b)
    print(c)
    with tf.device('CPU:0'):
      a = tf.Variable([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
      b = tf.Variable([[1.0, 2.0, 3.0]])
    with tf.device('CPU:0'):
      k = a * b
    print(k)
    assert out() == expect(r'''
tf.Tensor(
[[22. 28.]
 [49. 64.]], shape=(2, 2), dtype=float32)
tf.Tensor(
[[ 1.  4.  9.]
 [ 4. 10. 18.]], shape=(2, 3), dtype=float32)
''')


def test_log_device_placement(capsys):
    """The guide's first line: each op run eagerly then logs its device on stderr."""
    tf.debugging.set_log_device_placement(True)
    try:
        tf.constant([1.0]) + 1
    finally:
        tf.debugging.set_log_device_placement(False)
    tf.constant([1.0]) + 1
    assert capsys.readouterr().err == (
        "AddV2: (AddV2): /job:localhost/replica:0/task:0/device:CPU:0\n")
