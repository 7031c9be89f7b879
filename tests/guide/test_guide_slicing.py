"""The "Introduction to tensor slicing" guide, and ``tf.strided_slice`` with its masks.

The guide's outputs match TensorFlow's already (tests/runtime/test_slicing.py covers the
ops); what differed was ``tf.strided_slice``, which took a Python index instead of
TensorFlow's ``begin, end, strides`` and masks. Values recorded from TensorFlow 2.21.
"""
import textwrap

import autograph as tf


def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_guide_prints(capsys):
    t1 = tf.constant([0, 1, 2, 3, 4, 5, 6, 7])
    print(tf.slice(t1, begin=[1], size=[3]))
    t2 = tf.constant([[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [10, 11, 12, 13, 14],
                      [15, 16, 17, 18, 19]])
    print(t2[:-1, 1:3])
    t11 = tf.constant([[2, 7, 0], [9, 0, 1], [0, 3, 8]])
    t13 = tf.tensor_scatter_nd_sub(
        t11, indices=[[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [2, 1], [2, 2]],
        updates=[1, 7, 9, -1, 1, 3, 7])
    print(t13)
    assert capsys.readouterr().out == expect("""
        tf.Tensor([1 2 3], shape=(3,), dtype=int32)
        tf.Tensor(
        [[ 1  2]
         [ 6  7]
         [11 12]], shape=(3, 2), dtype=int32)
        tf.Tensor(
        [[1 0 0]
         [0 1 0]
         [0 0 1]], shape=(3, 3), dtype=int32)
        """)


def test_strided_slice_takes_begin_end_strides_and_masks():
    t = tf.reshape(tf.range(24), [2, 3, 4])
    t2 = tf.reshape(tf.range(20), [4, 5])
    assert str(tf.strided_slice(t2, [0, 1], [4, 5], [2, 2])) == expect("""
        tf.Tensor(
        [[ 1  3]
         [11 13]], shape=(2, 2), dtype=int32)""")
    assert tf.strided_slice(t, [1, 0, 0], [2, 2, 4], [1, 1, 2]).numpy().tolist() == [
        [[12, 14], [16, 18]]]
    assert tf.strided_slice(t, [1, 5, 1], [0, 0, 3], [1, 1, 1], begin_mask=2, end_mask=1,
                            shrink_axis_mask=1).numpy().tolist() == []
    assert tf.strided_slice(t, [0, 0, -1], [0, 0, 0], [1, 1, -1], ellipsis_mask=1,
                            new_axis_mask=2).numpy().tolist() == [
        [[[3, 2, 1]], [[7, 6, 5]], [[11, 10, 9]]], [[[15, 14, 13]], [[19, 18, 17]],
                                                     [[23, 22, 21]]]]
    assert tf.strided_slice(t, [0, 2], [2, 0], [1, -1], end_mask=2).numpy().tolist() == [
        [[8, 9, 10, 11], [4, 5, 6, 7], [0, 1, 2, 3]],
        [[20, 21, 22, 23], [16, 17, 18, 19], [12, 13, 14, 15]]]

    @tf.function
    def f(b):
        return tf.strided_slice(t, [0, b], [1, b + 2])
    assert f(tf.constant(1)).numpy().tolist() == [[[4, 5, 6, 7], [8, 9, 10, 11]]]
