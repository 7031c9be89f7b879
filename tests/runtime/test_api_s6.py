"""TensorShape, DType, Variable and Function members programs use, as TensorFlow 2.21 has them
(values and messages recorded from TensorFlow)."""
import numpy as np
import pytest

import autograph as tf

S = tf.TensorShape


def test_shape_rank_checks():
    assert S([1, None]).with_rank(2) == S([1, None])
    assert S(None).with_rank(3).as_list() == [None, None, None]
    assert S([1, None]).with_rank_at_least(1) == S([1, None])
    assert S([1, None]).with_rank_at_most(2) == S([1, None])
    for call, message in [
            (lambda: S([1, None]).with_rank(3), "Shape (1, None) must have rank 3"),
            (lambda: S([1, None]).with_rank_at_least(3),
             "Shape (1, None) must have rank at least 3"),
            (lambda: S([1, None]).with_rank_at_most(1), "Shape (1, None) must have rank at most 1"),
            (lambda: S([1, 2]).assert_has_rank(1), "Shape (1, 2) must have rank 1"),
            (lambda: S([1, 2]).assert_same_rank(S([3])),
             "Shapes (1, 2) and (3,) must have the same rank"),
            (lambda: S([1, None]).assert_is_fully_defined(),
             "Shape (1, None) is not fully defined")]:
        with pytest.raises(ValueError) as raised:
            call()
        assert str(raised.value) == message
    S([1, 2]).assert_has_rank(2)
    S([1, 2]).assert_same_rank(S([3, 4]))


def test_shape_concatenate_and_supertype():
    assert S([1, None]).concatenate([3]) == S([1, None, 3])
    assert S([1]).concatenate(S(None)).rank is None
    assert S([1, 2]).most_specific_common_supertype([S([1, 3])]).as_list() == [1, None]
    assert S([1, 2]).most_specific_common_supertype([S([1])]).rank is None


def test_dtype_members():
    assert tf.float32.base_dtype == tf.float32
    assert [tf.int8.limits, tf.uint8.limits, tf.bool.limits, tf.float32.limits] == \
        [(0, 127), (0, 255), (0, True), (0, 1)]
    with pytest.raises(ValueError, match="<dtype: 'float16'> does not have defined limits."):
        _ = tf.float16.limits
    assert tf.float32.is_compatible_with(tf.float32)
    assert not tf.float32.is_compatible_with(tf.int32)
    assert not tf.float32.is_quantized and tf.float32.is_numpy_compatible


def test_function_name():
    def g(x):
        return x
    assert tf.function(g).name == "g"


def test_variable_scatter_mul_div_and_shape():
    v = tf.Variable([1., 2.])
    v.assign([3., 4.])
    mul = v.scatter_mul(tf.IndexedSlices(tf.constant([2.]), tf.constant([1])))
    np.testing.assert_array_equal(mul.numpy(), [3., 8.])
    div = v.scatter_div(tf.IndexedSlices(tf.constant([2.]), tf.constant([0])))
    np.testing.assert_array_equal(div.numpy(), [1.5, 8.])
    twice = tf.Variable([1., 1., 1.])
    twice.scatter_mul(tf.IndexedSlices(tf.constant([2., 3.]), tf.constant([2, 2])))
    np.testing.assert_array_equal(twice.numpy(), [1., 1., 6.])
    assert v.experimental_ref() == v.ref()
    v.set_shape([2])
    with pytest.raises(ValueError):
        v.set_shape([3])
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        _ = v.initial_value

    @tf.function
    def scaled():
        return v.scatter_mul(tf.IndexedSlices(tf.constant([10.]), tf.constant([0])))
    np.testing.assert_array_equal(scaled().numpy(), [15., 8.])


def test_python_ints_wrap_into_narrow_integer_dtypes_as_in_tensorflow():
    assert int(tf.constant(2**40, tf.int32)) == 0
    assert int(tf.constant(2**31, tf.int32)) == -2**31
    assert int(tf.constant(-1, tf.uint8)) == 255 and int(tf.constant(300, tf.int8) + 1) == 45
    assert tf.constant([1, 2**40, -3], tf.int16).numpy().tolist() == [1, 0, -3]
    assert int(tf.constant(2**32 + 5, tf.uint32)) == 5
    assert int(tf.Variable(2**40, dtype=tf.int32)) == 0
    assert (tf.ones([2], tf.int32) * 2**40).numpy().tolist() == [0, 0]
    assert int(tf.function(lambda: tf.constant(2**40, tf.int32))()) == 0
    assert int(tf.constant(2**63, tf.uint64)) == 2**63
    for value, dtype in [(2**70, tf.int32), (2**63, tf.int64), (2**64, tf.uint64)]:
        with pytest.raises(ValueError, match="Can't convert Python sequence with out-of-range "
                                             "integer to Tensor."):
            tf.constant(value, dtype)
    with pytest.raises(TypeError):
        tf.constant(-1, tf.uint64)


def test_dtypes_unpickle_to_the_same_object():
    import pickle
    for dtype in (tf.string, tf.float32, tf.int64):
        assert pickle.loads(pickle.dumps(dtype)) is dtype
