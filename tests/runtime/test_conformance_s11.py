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


def test_a_list_index_is_a_tuple_and_a_boolean_index_is_a_mask():
    import numpy as np
    import pytest
    x = tf.reshape(tf.range(12), [3, 4])
    assert int(x[[0, 1]]) == 1                       # TensorFlow: x[0, 1], not numpy's rows
    assert x[[slice(None), 1]].numpy().tolist() == [1, 5, 9]
    assert x[[tf.constant(1), 2]].numpy().tolist() == 6
    assert x[np.array(1)].numpy().tolist() == [4, 5, 6, 7]
    rows = [[0, 1, 2, 3], [8, 9, 10, 11]]
    assert x[tf.constant([True, False, True])].numpy().tolist() == rows
    assert x[np.array([True, False, True])].numpy().tolist() == rows
    assert x[x > 5].numpy().tolist() == [6, 7, 8, 9, 10, 11]
    assert tf.Variable(x)[tf.constant([True, False, True])].numpy().tolist() == rows

    @tf.function
    def masked(t, m):
        return t[m]
    assert masked(x, tf.constant([True, False, True])).numpy().tolist() == rows
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        x[True]


def test_from_generator_takes_empty_lists_for_any_declared_dtype():
    ds = tf.data.Dataset.from_generator(
        lambda: ((i, [i] * i, ["s"] * i) for i in range(3)),
        output_signature=(tf.TensorSpec([], tf.int32), tf.TensorSpec([None], tf.int32),
                          tf.TensorSpec([None], tf.string)))
    got = [(int(a), b.tolist(), c.tolist()) for a, b, c in ds.as_numpy_iterator()]
    assert got == [(0, [], []), (1, [1], [b"s"]), (2, [2, 2], [b"s", b"s"])]
    first = next(iter(ds))
    assert first[1].dtype == tf.int32 and first[2].dtype == tf.string


def test_python_numbers_that_compare_equal_share_a_trace():
    @tf.function
    def g(x):
        return x
    # TensorFlow 2.21: the traces of 1 serve 1.0 and True (its Literal type compares values)
    assert [g(1).numpy(), g(2).numpy(), g(1.0).numpy(), g(True).numpy()] == [1, 2, 1, 1]
    assert g(1.0).dtype == tf.int32 and g(1.5).dtype == tf.float32
    assert g.experimental_get_tracing_count() == 3


def test_assert_type_and_assert_rank_messages_are_tensorflows():
    import pytest
    with pytest.raises(TypeError) as e:
        tf.debugging.assert_type(tf.constant(1), tf.float32, message="m")
    assert str(e.value) == "m.  tensor must be of type tf.float32; got tf.int32"
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_rank(tf.ones([2]), 2, message="m")
    assert str(e.value) == "m.  Tensor  must have rank 2.  Received rank 1, shape (2,)"


def test_module_names_must_be_python_identifiers():
    import pytest
    for bad in ("bad name", "1abc", "a.b", "a/b", "a-b"):
        with pytest.raises(ValueError, match=r"is not a valid module name\. Module names must be "
                                             r"valid Python identifiers \(e\.g\. a valid class name\)\."):
            tf.Module(name=bad)
    assert tf.Module(name="_x").name == "_x" and tf.Module(name="a_1").name == "a_1"


def test_sgd_applies_a_sparse_gradient_row_by_row():
    import numpy as np

    def train(staged):
        emb = tf.Variable([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
        opt = tf.keras.optimizers.SGD(0.1)

        def step():
            with tf.GradientTape() as t:
                y = tf.reduce_sum(tf.gather(emb, [0, 2, 0]))
            g = t.gradient(y, emb)
            opt.apply_gradients([(g, emb)])
        (tf.function(step) if staged else step)()
        return emb.numpy()
    want = np.float32([[0.79999995, 1.8], [3.0, 4.0], [4.9, 5.9]])  # TensorFlow 2.21
    np.testing.assert_array_equal(train(False), want)
    np.testing.assert_array_equal(train(True), want)
