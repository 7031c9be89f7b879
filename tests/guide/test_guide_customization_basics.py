"""TensorFlow's "Customization basics: tensors and operations" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
The guide's timing prints and its shuffled dataset (TensorFlow's shuffle order) are
left out.
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_tensors(out):
    print(tf.math.add(1, 2))
    print(tf.math.add([1, 2], [3, 4]))
    print(tf.math.square(5))
    print(tf.math.reduce_sum([1, 2, 3]))
    print(tf.math.square(2) + tf.math.square(3))
    x = tf.linalg.matmul([[1]], [[2, 3]])
    print(x)
    print(x.shape)
    print(x.dtype)
    assert out() == expect(r'''
tf.Tensor(3, shape=(), dtype=int32)
tf.Tensor([4 6], shape=(2,), dtype=int32)
tf.Tensor(25, shape=(), dtype=int32)
tf.Tensor(6, shape=(), dtype=int32)
tf.Tensor(13, shape=(), dtype=int32)
tf.Tensor([[2 3]], shape=(1, 2), dtype=int32)
(1, 2)
<dtype: 'int32'>
''')


def test_numpy_compatibility(out):
    ndarray = np.ones([3, 3])
    print("TensorFlow operations convert numpy arrays to Tensors automatically")
    tensor = tf.math.multiply(ndarray, 42)
    print(tensor)
    print("And NumPy operations convert Tensors to NumPy arrays automatically")
    print(np.add(tensor, 1))
    print("The .numpy() method explicitly converts a Tensor to a numpy array")
    print(tensor.numpy())
    assert out() == expect(r'''
TensorFlow operations convert numpy arrays to Tensors automatically
tf.Tensor(
[[42. 42. 42.]
 [42. 42. 42.]
 [42. 42. 42.]], shape=(3, 3), dtype=float64)
And NumPy operations convert Tensors to NumPy arrays automatically
[[43. 43. 43.]
 [43. 43. 43.]
 [43. 43. 43.]]
The .numpy() method explicitly converts a Tensor to a numpy array
[[42. 42. 42.]
 [42. 42. 42.]
 [42. 42. 42.]]
''')


def test_gpu_acceleration(out):
    x = tf.random.uniform([3, 3])
    print("Is there a GPU available: "),
    print(tf.config.list_physical_devices("GPU"))
    print("Is the Tensor on GPU #0:  "),
    print(x.device.endswith('GPU:0'))
    with tf.device("CPU:0"):
      x = tf.random.uniform([1000, 1000])
      assert x.device.endswith("CPU:0")
    assert out() == expect(r'''
Is there a GPU available: 
[]
Is the Tensor on GPU #0:  
False
''')


def test_datasets(out):
    ds_tensors = tf.data.Dataset.from_tensor_slices([1, 2, 3, 4, 5, 6])
    _, filename = tempfile.mkstemp()
    with open(filename, 'w') as f:
      f.write("Line 1\nLine 2\nLine 3\n  ")
    ds_file = tf.data.TextLineDataset(filename)
    ds_tensors = ds_tensors.map(tf.math.square).batch(2)
    ds_file = ds_file.batch(2)
    print('Elements of ds_tensors:')
    for x in ds_tensors:
      print(x)
    print('\nElements in ds_file:')
    for x in ds_file:
      print(x)
    os.remove(filename)
    assert out() == expect(r'''
Elements of ds_tensors:
tf.Tensor([1 4], shape=(2,), dtype=int32)
tf.Tensor([ 9 16], shape=(2,), dtype=int32)
tf.Tensor([25 36], shape=(2,), dtype=int32)

Elements in ds_file:
tf.Tensor([b'Line 1' b'Line 2'], shape=(2,), dtype=string)
tf.Tensor([b'Line 3' b'  '], shape=(2,), dtype=string)
''')
