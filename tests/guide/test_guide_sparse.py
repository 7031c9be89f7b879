"""The "Working with sparse tensors" guide, without Keras and tf.train.Example.

Each test runs the guide's code with ``import autograph as tf`` and compares what it prints
with what TensorFlow 2.21 printed (literals); other values were recorded from TensorFlow too.
"""
import textwrap

import numpy as np
import pytest

import autograph as tf


def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def pprint_sparse_tensor(st):
    s = "<SparseTensor shape=%s \n values={" % (st.dense_shape.numpy().tolist(),)
    for (index, value) in zip(st.indices, st.values):
        s += f"\n  %s: %s" % (index.numpy().tolist(), value.numpy().tolist())
    return s + "}>"


@pytest.fixture
def st2():
    return tf.sparse.from_dense([[1, 0, 0, 8], [0, 0, 0, 0], [0, 0, 3, 0]])


def test_add_and_matmul(capsys):
    st_a = tf.sparse.SparseTensor(indices=[[0, 2], [3, 4]], values=[31, 2], dense_shape=[4, 10])
    st_b = tf.sparse.SparseTensor(indices=[[0, 2], [3, 0]], values=[56, 38], dense_shape=[4, 10])
    st_sum = tf.sparse.add(st_a, st_b)
    print(pprint_sparse_tensor(st_sum))
    st_c = tf.sparse.SparseTensor(indices=([0, 1], [1, 0], [1, 1]), values=[13, 15, 17],
                                  dense_shape=(2, 2))
    mb = tf.constant([[4], [6]])
    product = tf.sparse.sparse_dense_matmul(st_c, mb)
    print(product)
    assert capsys.readouterr().out == expect("""
        <SparseTensor shape=[4, 10] 
         values={
          [0, 2]: 87
          [3, 0]: 38
          [3, 4]: 2}>
        tf.Tensor(
        [[ 78]
         [162]], shape=(2, 1), dtype=int32)
        """)  # noqa: W291
    np.testing.assert_array_equal(tf.sparse.add(st_a, tf.ones([4, 10], tf.int32))[3],
                                  [1, 1, 1, 1, 3, 1, 1, 1, 1, 1])


def test_add_threshold_compares_sums_only():
    st = tf.SparseTensor([[0, 1]], [-3], [3, 2])
    out = tf.sparse.add(st, tf.SparseTensor([[0, 1], [1, 1]], [3, 1], [3, 2]), threshold=2)
    assert out.indices.numpy().tolist() == [[1, 1]] and out.values.numpy().tolist() == [1]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Operands' shapes do not match: got 2 and 3 for dimension 1"):
        tf.sparse.add(st, tf.SparseTensor([[0, 1]], [3], [3, 3]))


def test_concat_and_slice():
    sparse_pattern_A = tf.sparse.SparseTensor(
        indices=[[2, 4], [3, 3], [3, 4], [4, 3], [4, 4], [5, 4]], values=[1] * 6,
        dense_shape=[8, 5])
    sparse_pattern_B = tf.sparse.SparseTensor(
        indices=[[0, 2], [1, 1], [1, 3], [2, 0], [2, 4], [2, 5], [3, 5], [4, 5], [5, 0],
                 [5, 4], [5, 5], [6, 1], [6, 3], [7, 2]],
        values=[1] * 14, dense_shape=[8, 6])
    sparse_pattern_C = tf.sparse.SparseTensor(indices=[[3, 0], [4, 0]], values=[1, 1],
                                              dense_shape=[8, 6])
    sparse_patterns_list = [sparse_pattern_A, sparse_pattern_B, sparse_pattern_C]
    sparse_pattern = tf.sparse.concat(axis=1, sp_inputs=sparse_patterns_list)
    assert str(tf.sparse.to_dense(sparse_pattern)) == expect("""
        tf.Tensor(
        [[0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0]
         [0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 0]
         [0 0 0 0 1 1 0 0 0 1 1 0 0 0 0 0 0]
         [0 0 0 1 1 0 0 0 0 0 1 1 0 0 0 0 0]
         [0 0 0 1 1 0 0 0 0 0 1 1 0 0 0 0 0]
         [0 0 0 0 1 1 0 0 0 1 1 0 0 0 0 0 0]
         [0 0 0 0 0 0 1 0 1 0 0 0 0 0 0 0 0]
         [0 0 0 0 0 0 0 1 0 0 0 0 0 0 0 0 0]], shape=(8, 17), dtype=int32)""")
    sparse_slice_B = tf.sparse.slice(sparse_pattern_B, start=[0, 5], size=[8, 6])
    sparse_slice_C = tf.sparse.slice(sparse_pattern_C, start=[0, 10], size=[8, 6])
    assert tf.sparse.to_dense(sparse_slice_B).numpy().ravel().tolist() == [0, 0, 1, 1, 1, 1, 0, 0]
    assert str(tf.sparse.to_dense(sparse_slice_C)) == (
        "tf.Tensor([], shape=(8, 0), dtype=int32)")


def test_map_values(st2):
    st2_plus_5 = tf.sparse.map_values(tf.add, st2, 5)
    assert str(tf.sparse.to_dense(st2_plus_5)) == expect("""
        tf.Tensor(
        [[ 6  0  0 13]
         [ 0  0  0  0]
         [ 0  0  8  0]], shape=(3, 4), dtype=int32)""")


def test_datasets_of_sparse_tensors(st2, capsys):
    dataset = tf.data.Dataset.from_tensor_slices(st2)
    for element in dataset:
        print(pprint_sparse_tensor(element))
    batched_dataset = dataset.batch(2)
    for element in batched_dataset:
        print(pprint_sparse_tensor(element))
    unbatched_dataset = batched_dataset.unbatch()
    for element in unbatched_dataset:
        print(pprint_sparse_tensor(element))
    rows = expect("""
        <SparseTensor shape=[4] 
         values={
          [0]: 1
          [3]: 8}>
        <SparseTensor shape=[4] 
         values={}>
        <SparseTensor shape=[4] 
         values={
          [2]: 3}>
        """)  # noqa: W291
    assert capsys.readouterr().out == rows + expect("""
        <SparseTensor shape=[2, 4] 
         values={
          [0, 0]: 1
          [0, 3]: 8}>
        <SparseTensor shape=[1, 4] 
         values={
          [0, 2]: 3}>
        """) + rows  # noqa: W291
    assert repr(dataset.element_spec) == "SparseTensorSpec(TensorShape([4]), tf.int32)"


def test_sparse_elements_through_map_and_staged_loops(st2):
    doubled = tf.data.Dataset.from_tensor_slices(st2).map(lambda s: s * 2).batch(3)
    (only,) = list(doubled)
    np.testing.assert_array_equal(tf.sparse.to_dense(only), [[2, 0, 0, 16], [0] * 4,
                                                             [0, 0, 6, 0]])
    whole = tf.data.Dataset.from_tensors(st2).map(lambda s: s).unbatch()
    assert [tf.sparse.to_dense(r).numpy().tolist() for r in whole] == [[1, 0, 0, 8], [0] * 4,
                                                                       [0, 0, 3, 0]]

    @tf.function
    def total(ds):
        out = tf.constant(0)
        for s in ds:
            out += tf.sparse.reduce_sum(s)
        return out
    assert total(tf.data.Dataset.from_tensor_slices(st2).batch(2)).numpy() == 12


def test_sparse_dense_matmul_in_a_function():
    @tf.function
    def f(x, y):
        return tf.sparse.sparse_dense_matmul(x, y)
    a = tf.sparse.SparseTensor(indices=[[0, 3], [2, 4]], values=[15, 25], dense_shape=[3, 10])
    b = tf.sparse.to_dense(tf.sparse.transpose(a))
    assert str(f(a, b)) == expect("""
        tf.Tensor(
        [[225   0   0]
         [  0   0   0]
         [  0   0 625]], shape=(3, 3), dtype=int32)""")


def test_reductions_see_only_the_entries_present():
    st1 = tf.SparseTensor(indices=[[0, 0], [0, 1], [1, 1]], values=[-5, 0, -3],
                          dense_shape=[2, 2])
    assert tf.sparse.reduce_max(st1).numpy() == 0
    assert tf.sparse.reduce_max(st1, axis=1).numpy().tolist() == [0, -3]
    assert tf.sparse.reduce_sum(st1, axis=0).numpy().tolist() == [-5, -3]
    assert tf.sparse.reduce_sum(st1, axis=1, keepdims=True).numpy().tolist() == [[-5], [-3]]
    empty_rows = tf.SparseTensor([[0, 1]], [-3], [3, 2])
    assert tf.sparse.reduce_max(empty_rows, axis=1).numpy().tolist() == [-3, 0, 0]


def test_structure_ops():
    st = tf.sparse.reorder(tf.SparseTensor(indices=[[1, 0], [0, 1]], values=[1., 2.],
                                           dense_shape=[2, 2]))
    assert tf.sparse.retain(st, [True, False]).indices.numpy().tolist() == [[0, 1]]
    reshaped = tf.sparse.reshape(st, [-1, 1])
    assert reshaped.indices.numpy().tolist() == [[1, 0], [2, 0]]
    assert reshaped.dense_shape.numpy().tolist() == [4, 1]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="only one output dimension may be -1, not both 0 and 1"):
        tf.sparse.reshape(st, [-1, -1])
    filled, empty = tf.sparse.fill_empty_rows(
        tf.SparseTensor([[1, 1], [3, 0], [3, 1]], [7, 8, 9], [5, 2]), -1)
    assert filled.indices.numpy().tolist() == [[0, 0], [1, 1], [2, 0], [3, 0], [3, 1], [4, 0]]
    assert filled.values.numpy().tolist() == [-1, 7, -1, 8, 9, -1]
    assert empty.numpy().tolist() == [True, False, True, False, True]
    parts = tf.sparse.split(sp_input=tf.SparseTensor([[0, 0], [1, 4], [0, 2]], [1, 2, 3], [2, 5]),
                            num_split=2, axis=1)
    assert [p.dense_shape.numpy().tolist() for p in parts] == [[2, 3], [2, 2]]
    assert [p.indices.numpy().tolist() for p in parts] == [[[0, 0], [0, 2]], [[1, 1]]]
    a = tf.SparseTensor([[0, 0], [1, 1]], [-1, 5], [2, 2])
    b = tf.SparseTensor([[0, 0], [0, 1]], [-3, -2], [2, 2])
    assert tf.sparse.maximum(a, b).values.numpy().tolist() == [-1, 0, 5]
    assert tf.sparse.minimum(a, b).values.numpy().tolist() == [-3, -2, 0]
    eye = tf.sparse.eye(2, 3, dtype=tf.int32)
    assert eye.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert eye.dense_shape.numpy().tolist() == [2, 3]
    assert (st * tf.constant([10., 100.])).values.numpy().tolist() == [200., 10.]
    assert (st / tf.constant(2.)).values.numpy().tolist() == [1., 0.5]
    transposed = tf.sparse.transpose(tf.SparseTensor([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 3, 4]),
                                     [2, 0, 1])
    assert transposed.indices.numpy().tolist() == [[0, 1, 0], [2, 0, 1]]
    assert transposed.values.numpy().tolist() == [2, 1]


def test_staged_sparse_ops():
    st = tf.SparseTensor([[0, 1]], [-3], [3, 2])

    @tf.function
    def f(a, b):
        return tf.sparse.add(a, b), tf.sparse.concat(0, [a, b]), tf.sparse.slice(a, [0, 0], [2, 1])
    added, joined, sliced = f(st, st)
    assert added.values.numpy().tolist() == [-6]
    assert joined.indices.numpy().tolist() == [[0, 1], [3, 1]]
    assert joined.dense_shape.numpy().tolist() == [6, 2]
    assert sliced.dense_shape.numpy().tolist() == [2, 1] and sliced.values.shape == (0,)


def test_gradients_match_tensorflow():
    idx = [[0, 1], [1, 0], [2, 2]]
    vals = tf.constant([1., 2., 3.])
    b = tf.constant(np.arange(12.).reshape(3, 4), tf.float32)
    weights = tf.range(4, dtype=tf.float32)
    with tf.GradientTape() as t:
        t.watch([vals, b])
        sp = tf.SparseTensor(idx, vals, [3, 3])
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, b, adjoint_a=True) * weights)
    g_vals, g_b = t.gradient(y, [vals, b])
    assert g_vals.numpy().tolist() == [14.0, 38.0, 62.0]
    assert g_b.numpy().tolist() == [[0, 1, 2, 3], [0, 2, 4, 6], [0, 3, 6, 9]]
    with tf.GradientTape() as t:
        t.watch([vals, b])
        sp = tf.SparseTensor(idx, vals, [3, 4])
        y = (tf.reduce_sum(tf.sparse.to_dense(sp) * b) + tf.reduce_sum(tf.sparse.add(sp, b) * b)
             + tf.reduce_sum(tf.sparse.reduce_sum(sp, axis=1) * tf.constant([1., 2., 3.]))
             + tf.reduce_sum(tf.sparse.reduce_sum(sp, axis=[0, 1]))
             + tf.reduce_sum(tf.sparse.reduce_sum(sp, axis=-2, keepdims=True) * weights))
    g_vals, g_b = t.gradient(y, [vals, b])
    assert g_vals.numpy().tolist() == [5.0, 11.0, 26.0]
    assert g_b.numpy().tolist() == [[0, 4, 4, 6], [12, 10, 12, 14], [16, 18, 26, 22]]


def test_to_indicator_and_from_tensors():
    st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 3, 2], [3, 4])
    assert tf.sparse.to_indicator(st, 4).numpy().tolist() == [
        [False, True, False, True], [False] * 4, [False, False, True, False]]
    ds = tf.data.Dataset.from_tensors(st)
    assert repr(ds.element_spec) == "SparseTensorSpec(TensorShape([3, 4]), tf.int32)"
    (only,) = list(ds)
    assert tf.sparse.to_dense(only).numpy().tolist() == [[1, 3, 0, 0], [0] * 4, [2, 0, 0, 0]]
    pairs = tf.data.Dataset.from_tensor_slices((st, tf.constant([1, 2, 3])))
    assert repr(pairs.element_spec) == (
        "(SparseTensorSpec(TensorShape([4]), tf.int32), "
        "TensorSpec(shape=(), dtype=tf.int32, name=None))")
