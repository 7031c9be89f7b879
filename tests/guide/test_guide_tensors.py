"""TensorFlow's "Introduction to Tensors" guide, run with ``import autograph as tf``.

Each test is a part of the guide's code as the guide writes it (prints included); the
expected text is what TensorFlow 2.21 prints for it, recorded as a literal.
Where the last float digit differs (Eigen's exp is not numpy's), the guide's print
is replaced by a close comparison.
"""
import os  # noqa: F401
import shutil  # noqa: F401
import tempfile  # noqa: F401

import numpy as np  # noqa: F401

import autograph as tf


def expect(text: str) -> str:
    return text[1:]


def test_basics(out):
    rank_0_tensor = tf.constant(4)
    print(rank_0_tensor)
    rank_1_tensor = tf.constant([2.0, 3.0, 4.0])
    print(rank_1_tensor)
    rank_2_tensor = tf.constant([[1, 2],
                                 [3, 4],
                                 [5, 6]], dtype=tf.float16)
    print(rank_2_tensor)
    rank_3_tensor = tf.constant([
      [[0, 1, 2, 3, 4],
       [5, 6, 7, 8, 9]],
      [[10, 11, 12, 13, 14],
       [15, 16, 17, 18, 19]],
      [[20, 21, 22, 23, 24],
       [25, 26, 27, 28, 29]],])
    print(rank_3_tensor)
    print(np.array(rank_2_tensor))
    print(rank_2_tensor.numpy())
    assert out() == expect(r'''
tf.Tensor(4, shape=(), dtype=int32)
tf.Tensor([2. 3. 4.], shape=(3,), dtype=float32)
tf.Tensor(
[[1. 2.]
 [3. 4.]
 [5. 6.]], shape=(3, 2), dtype=float16)
tf.Tensor(
[[[ 0  1  2  3  4]
  [ 5  6  7  8  9]]

 [[10 11 12 13 14]
  [15 16 17 18 19]]

 [[20 21 22 23 24]
  [25 26 27 28 29]]], shape=(3, 2, 5), dtype=int32)
[[1. 2.]
 [3. 4.]
 [5. 6.]]
[[1. 2.]
 [3. 4.]
 [5. 6.]]
''')


def test_math(out):
    a = tf.constant([[1, 2],
                     [3, 4]])
    b = tf.constant([[1, 1],
                     [1, 1]])
    print(tf.add(a, b), "\n")
    print(tf.multiply(a, b), "\n")
    print(tf.matmul(a, b), "\n")
    print(a + b, "\n")
    print(a * b, "\n")
    print(a @ b, "\n")
    c = tf.constant([[4.0, 5.0], [10.0, 1.0]])
    print(tf.reduce_max(c))
    print(tf.math.argmax(c))
    np.testing.assert_allclose(tf.nn.softmax(c).numpy(), [[2.6894143e-01, 7.3105854e-01],
                                                          [9.9987662e-01, 1.2339458e-04]], rtol=1e-6)
    print(tf.convert_to_tensor([1,2,3]))
    print(tf.reduce_max([1,2,3]))
    print(tf.reduce_max(np.array([1,2,3])))
    assert out() == expect(r'''
tf.Tensor(
[[2 3]
 [4 5]], shape=(2, 2), dtype=int32) 

tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32) 

tf.Tensor(
[[3 3]
 [7 7]], shape=(2, 2), dtype=int32) 

tf.Tensor(
[[2 3]
 [4 5]], shape=(2, 2), dtype=int32) 

tf.Tensor(
[[1 2]
 [3 4]], shape=(2, 2), dtype=int32) 

tf.Tensor(
[[3 3]
 [7 7]], shape=(2, 2), dtype=int32) 

tf.Tensor(10.0, shape=(), dtype=float32)
tf.Tensor([1 0], shape=(2,), dtype=int64)
tf.Tensor([1 2 3], shape=(3,), dtype=int32)
tf.Tensor(3, shape=(), dtype=int32)
tf.Tensor(3, shape=(), dtype=int64)
''')


def test_shapes(out):
    rank_4_tensor = tf.zeros([3, 2, 4, 5])
    print("Type of every element:", rank_4_tensor.dtype)
    print("Number of axes:", rank_4_tensor.ndim)
    print("Shape of tensor:", rank_4_tensor.shape)
    print("Elements along axis 0 of tensor:", rank_4_tensor.shape[0])
    print("Elements along the last axis of tensor:", rank_4_tensor.shape[-1])
    print("Total number of elements (3*2*4*5): ", tf.size(rank_4_tensor).numpy())
    print(tf.rank(rank_4_tensor))
    print(tf.shape(rank_4_tensor))
    assert out() == expect(r'''
Type of every element: <dtype: 'float32'>
Number of axes: 4
Shape of tensor: (3, 2, 4, 5)
Elements along axis 0 of tensor: 3
Elements along the last axis of tensor: 5
Total number of elements (3*2*4*5):  120
tf.Tensor(4, shape=(), dtype=int32)
tf.Tensor([3 2 4 5], shape=(4,), dtype=int32)
''')


def test_indexing(out):
    rank_1_tensor = tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])
    print(rank_1_tensor.numpy())
    print("First:", rank_1_tensor[0].numpy())
    print("Second:", rank_1_tensor[1].numpy())
    print("Last:", rank_1_tensor[-1].numpy())
    print("Everything:", rank_1_tensor[:].numpy())
    print("Before 4:", rank_1_tensor[:4].numpy())
    print("From 4 to the end:", rank_1_tensor[4:].numpy())
    print("From 2, before 7:", rank_1_tensor[2:7].numpy())
    print("Every other item:", rank_1_tensor[::2].numpy())
    print("Reversed:", rank_1_tensor[::-1].numpy())
    rank_2_tensor = tf.constant([[1, 2], [3, 4], [5, 6]], dtype=tf.float16)
    print(rank_2_tensor.numpy())
    print(rank_2_tensor[1, 1].numpy())
    print("Second row:", rank_2_tensor[1, :].numpy())
    print("Second column:", rank_2_tensor[:, 1].numpy())
    print("Last row:", rank_2_tensor[-1, :].numpy())
    print("First item in last column:", rank_2_tensor[0, -1].numpy())
    print("Skip the first row:")
    print(rank_2_tensor[1:, :].numpy(), "\n")
    rank_3_tensor = tf.reshape(tf.range(30), [3, 2, 5])
    print(rank_3_tensor[:, :, 4])
    assert out() == expect(r'''
[ 0  1  1  2  3  5  8 13 21 34]
First: 0
Second: 1
Last: 34
Everything: [ 0  1  1  2  3  5  8 13 21 34]
Before 4: [0 1 1 2]
From 4 to the end: [ 3  5  8 13 21 34]
From 2, before 7: [1 2 3 5 8]
Every other item: [ 0  1  3  8 21]
Reversed: [34 21 13  8  5  3  2  1  1  0]
[[1. 2.]
 [3. 4.]
 [5. 6.]]
4.0
Second row: [3. 4.]
Second column: [2. 4. 6.]
Last row: [5. 6.]
First item in last column: 2.0
Skip the first row:
[[3. 4.]
 [5. 6.]] 

tf.Tensor(
[[ 4  9]
 [14 19]
 [24 29]], shape=(3, 2), dtype=int32)
''')


def test_manipulating_shapes(out):
    x = tf.constant([[1], [2], [3]])
    print(x.shape)
    print(x.shape.as_list())
    reshaped = tf.reshape(x, [1, 3])
    print(x.shape)
    print(reshaped.shape)
    rank_3_tensor = tf.reshape(tf.range(30), [3, 2, 5])
    print(rank_3_tensor)
    print(tf.reshape(rank_3_tensor, [-1]))
    print(tf.reshape(rank_3_tensor, [3*2, 5]), "\n")
    print(tf.reshape(rank_3_tensor, [3, -1]))
    print(tf.reshape(tf.transpose(rank_3_tensor), [-1, 5]), "\n")
    try:
      tf.reshape(rank_3_tensor, [7, -1])
    except Exception as e:
      print(f"{type(e).__name__}: {'requires a multiple of 7' in str(e)}")
    assert out() == expect(r'''
(3, 1)
[3, 1]
(3, 1)
(1, 3)
tf.Tensor(
[[[ 0  1  2  3  4]
  [ 5  6  7  8  9]]

 [[10 11 12 13 14]
  [15 16 17 18 19]]

 [[20 21 22 23 24]
  [25 26 27 28 29]]], shape=(3, 2, 5), dtype=int32)
tf.Tensor(
[ 0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21 22 23
 24 25 26 27 28 29], shape=(30,), dtype=int32)
tf.Tensor(
[[ 0  1  2  3  4]
 [ 5  6  7  8  9]
 [10 11 12 13 14]
 [15 16 17 18 19]
 [20 21 22 23 24]
 [25 26 27 28 29]], shape=(6, 5), dtype=int32) 

tf.Tensor(
[[ 0  1  2  3  4  5  6  7  8  9]
 [10 11 12 13 14 15 16 17 18 19]
 [20 21 22 23 24 25 26 27 28 29]], shape=(3, 10), dtype=int32)
tf.Tensor(
[[ 0 10 20  5 15]
 [25  1 11 21  6]
 [16 26  2 12 22]
 [ 7 17 27  3 13]
 [23  8 18 28  4]
 [14 24  9 19 29]], shape=(6, 5), dtype=int32) 

InvalidArgumentError: True
''')


def test_dtypes_and_broadcasting(out):
    the_f64_tensor = tf.constant([2.2, 3.3, 4.4], dtype=tf.float64)
    the_f16_tensor = tf.cast(the_f64_tensor, dtype=tf.float16)
    the_u8_tensor = tf.cast(the_f16_tensor, dtype=tf.uint8)
    print(the_u8_tensor)
    x = tf.constant([1, 2, 3])
    y = tf.constant(2)
    z = tf.constant([2, 2, 2])
    print(tf.multiply(x, 2))
    print(x * y)
    print(x * z)
    x = tf.reshape(x,[3,1])
    y = tf.range(1, 5)
    print(x, "\n")
    print(y, "\n")
    print(tf.multiply(x, y))
    x_stretch = tf.constant([[1, 1, 1, 1],
                             [2, 2, 2, 2],
                             [3, 3, 3, 3]])
    y_stretch = tf.constant([[1, 2, 3, 4],
                             [1, 2, 3, 4],
                             [1, 2, 3, 4]])
    print(x_stretch * y_stretch)
    print(tf.broadcast_to(tf.constant([1, 2, 3]), [3, 3]))
    assert out() == expect(r'''
tf.Tensor([2 3 4], shape=(3,), dtype=uint8)
tf.Tensor([2 4 6], shape=(3,), dtype=int32)
tf.Tensor([2 4 6], shape=(3,), dtype=int32)
tf.Tensor([2 4 6], shape=(3,), dtype=int32)
tf.Tensor(
[[1]
 [2]
 [3]], shape=(3, 1), dtype=int32) 

tf.Tensor([1 2 3 4], shape=(4,), dtype=int32) 

tf.Tensor(
[[ 1  2  3  4]
 [ 2  4  6  8]
 [ 3  6  9 12]], shape=(3, 4), dtype=int32)
tf.Tensor(
[[ 1  2  3  4]
 [ 2  4  6  8]
 [ 3  6  9 12]], shape=(3, 4), dtype=int32)
tf.Tensor(
[[1 2 3]
 [1 2 3]
 [1 2 3]], shape=(3, 3), dtype=int32)
''')


def test_ragged(out):
    ragged_list = [
        [0, 1, 2, 3],
        [4, 5],
        [6, 7, 8],
        [9]]
    try:
      tensor = tf.constant(ragged_list)
    except Exception as e:
      print(f"{type(e).__name__}: {e}")
    ragged_tensor = tf.ragged.constant(ragged_list)
    print(ragged_tensor)
    print(ragged_tensor.shape)
    assert out() == expect(r'''
ValueError: Can't convert non-rectangular Python sequence to Tensor.
<tf.RaggedTensor [[0, 1, 2, 3], [4, 5], [6, 7, 8], [9]]>
(4, None)
''')


def test_strings(out):
    scalar_string_tensor = tf.constant("Gray wolf")
    print(scalar_string_tensor)
    tensor_of_strings = tf.constant(["Gray wolf",
                                     "Quick brown fox",
                                     "Lazy dog"])
    print(tensor_of_strings)
    print(tf.constant("🥳👍"))
    print(tf.strings.split(scalar_string_tensor, sep=" "))
    print(tf.strings.split(tensor_of_strings))
    text = tf.constant("1 10 100")
    print(tf.strings.to_number(tf.strings.split(text, " ")))
    byte_strings = tf.strings.bytes_split(tf.constant("Duck"))
    byte_ints = tf.io.decode_raw(tf.constant("Duck"), tf.uint8)
    print("Byte strings:", byte_strings)
    print("Bytes:", byte_ints)
    unicode_bytes = tf.constant("アヒル 🦆")
    unicode_char_bytes = tf.strings.unicode_split(unicode_bytes, "UTF-8")
    unicode_values = tf.strings.unicode_decode(unicode_bytes, "UTF-8")
    print("\nUnicode bytes:", unicode_bytes)
    print("\nUnicode chars:", unicode_char_bytes)
    print("\nUnicode values:", unicode_values)
    assert out() == expect(r'''
tf.Tensor(b'Gray wolf', shape=(), dtype=string)
tf.Tensor([b'Gray wolf' b'Quick brown fox' b'Lazy dog'], shape=(3,), dtype=string)
tf.Tensor(b'\xf0\x9f\xa5\xb3\xf0\x9f\x91\x8d', shape=(), dtype=string)
tf.Tensor([b'Gray' b'wolf'], shape=(2,), dtype=string)
<tf.RaggedTensor [[b'Gray', b'wolf'], [b'Quick', b'brown', b'fox'], [b'Lazy', b'dog']]>
tf.Tensor([  1.  10. 100.], shape=(3,), dtype=float32)
Byte strings: tf.Tensor([b'D' b'u' b'c' b'k'], shape=(4,), dtype=string)
Bytes: tf.Tensor([ 68 117  99 107], shape=(4,), dtype=uint8)

Unicode bytes: tf.Tensor(b'\xe3\x82\xa2\xe3\x83\x92\xe3\x83\xab \xf0\x9f\xa6\x86', shape=(), dtype=string)

Unicode chars: tf.Tensor([b'\xe3\x82\xa2' b'\xe3\x83\x92' b'\xe3\x83\xab' b' ' b'\xf0\x9f\xa6\x86'], shape=(5,), dtype=string)

Unicode values: tf.Tensor([ 12450  12498  12523     32 129414], shape=(5,), dtype=int32)
''')


def test_sparse(out):
    sparse_tensor = tf.sparse.SparseTensor(indices=[[0, 0], [1, 2]],
                                           values=[1, 2],
                                           dense_shape=[3, 4])
    print(sparse_tensor, "\n")
    print(tf.sparse.to_dense(sparse_tensor))
    assert out() == expect(r'''
SparseTensor(indices=tf.Tensor(
[[0 0]
 [1 2]], shape=(2, 2), dtype=int64), values=tf.Tensor([1 2], shape=(2,), dtype=int32), dense_shape=tf.Tensor([3 4], shape=(2,), dtype=int64)) 

tf.Tensor(
[[1 0 0 0]
 [0 0 2 0]
 [0 0 0 0]], shape=(3, 4), dtype=int32)
''')
