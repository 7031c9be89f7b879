"""Edge values where numpy's answer is not TensorFlow's (values recorded from TensorFlow 2.21).

Found by running every elementwise op and reduction on 0, -0, inf, nan, 1e±30 and the
integer limits in TensorFlow and here, eagerly and in tf.function.
"""
import numpy as np
import pytest

import autograph as tf

INF, NAN = float("inf"), float("nan")


def both(fn):
    """``fn()`` eagerly and traced."""
    return [fn().numpy(), tf.function(fn)().numpy()]


def test_float_floordiv_is_floor_of_the_quotient():
    x = tf.constant([-4.0, 3.0, INF, -1e-30, 5.5])
    y = tf.constant([2.0, -INF, 2.0, INF, INF])
    for got in both(lambda: tf.math.floordiv(x, y)) + both(lambda: x // y):
        np.testing.assert_array_equal(got, [-2.0, -1.0 * 0, INF, -0.0, 0.0])
        assert np.signbit(got[1]) and np.signbit(got[3])  # -0.0, where numpy says -1.0 / -1.0


def test_float_floormod_zero_keeps_the_sign_of_the_dividend():
    x = tf.constant([-4.0, 4.0, -3.0, 3.0, -0.0, 5.5, INF, -1e-30])
    y = tf.constant([2.0, -2.0, 3.0, -3.0, -2.0, INF, 2.0, INF])
    for got in both(lambda: tf.math.floormod(x, y)) + both(lambda: x % y):
        np.testing.assert_array_equal(got, [-0.0, 0.0, -0.0, 0.0, -0.0, 5.5, NAN, INF])
        assert list(np.signbit(got[:5])) == [True, False, True, False, True]


@pytest.mark.parametrize("values, axis, argmax, argmin", [
    ([NAN, 5.0, 1.0], 0, 1, 2),
    ([1.0, NAN, 5.0], 0, 2, 0),
    ([NAN, NAN], 0, 0, 0),
    ([-INF, NAN], 0, 0, 0),
    ([[NAN, 5.0], [1.0, NAN]], 1, [1, 0], [1, 0]),
    ([[NAN, 5.0], [1.0, NAN]], 0, [1, 0], [1, 0]),
])
def test_argmax_and_argmin_skip_nans(values, axis, argmax, argmin):
    x = tf.constant(values)
    for got in both(lambda: tf.math.argmax(x, axis=axis)):
        np.testing.assert_array_equal(got, argmax)
    for got in both(lambda: tf.math.argmin(x, axis=axis)):
        np.testing.assert_array_equal(got, argmin)


def test_leaky_relu_alpha_is_a_32_bit_float():
    x = tf.constant([-2.5, -7.0, 1.0], tf.float64)
    for got in both(lambda: tf.nn.leaky_relu(x)):
        np.testing.assert_array_equal(got, [-0.5000000074505806, -1.4000000208616257, 1.0])


def test_gelu_is_tensorflows_formula():
    x = tf.constant([-3.0, -1.0, 0.0, 1.0, 3.0])
    np.testing.assert_allclose(tf.nn.gelu(x).numpy(),
                               [-0.0040497, -0.15865526, 0.0, 0.8413447, 2.9959502], rtol=2e-6)
    # (1 + tanh(-3.36) cancels: TensorFlow's own float32 tanh differs in the last place)
    np.testing.assert_allclose(tf.nn.gelu(x, approximate=True).numpy(),
                               [-0.00363743, -0.158808, 0.0, 0.841192, 2.9963627], rtol=5e-5)


@pytest.mark.parametrize("fn", [lambda: tf.math.logical_not(tf.constant(1.0)),
                                lambda: tf.sqrt(tf.constant(1)),
                                lambda: tf.bitwise.bitwise_and(tf.constant(1.0), tf.constant(2.0))])
def test_a_dtype_an_op_does_not_take_is_tensorflows_error_in_both_modes(fn):
    # InvalidArgumentError when run eagerly, TypeError while a graph is built (as TensorFlow)
    with pytest.raises(tf.errors.InvalidArgumentError):
        fn()
    with pytest.raises(TypeError):
        tf.function(fn)()


def test_argmax_and_argmin_take_bool():
    for got in both(lambda: tf.math.argmax(tf.constant([False, True, True]))):
        assert got == 1
    for got in both(lambda: tf.math.argmin(tf.constant([[True, False], [True, True]]), axis=1)):
        np.testing.assert_array_equal(got, [1, 0])


@pytest.mark.parametrize("fn, shape, dtype", [
    (lambda: tf.nn.softmax(tf.zeros([0])), (0,), np.float32),
    (lambda: tf.nn.softmax(tf.zeros([2, 0])), (2, 0), np.float32),
    (lambda: tf.nn.log_softmax(tf.zeros([2, 0])), (2, 0), np.float32),
    (lambda: tf.sort(tf.zeros([0])), (0,), np.float32),
    (lambda: tf.sort(tf.zeros([2, 0])), (2, 0), np.float32),
    (lambda: tf.argsort(tf.zeros([0])), (0,), np.int32),
    (lambda: tf.strings.reduce_join(tf.strings.as_string(tf.zeros([2, 0])), axis=0), (0,), object),
    (lambda: tf.math.in_top_k(tf.zeros([0], tf.int32), tf.zeros([0, 3]), 1), (0,), bool),
])
def test_empty_inputs_give_empty_results(fn, shape, dtype):
    for got in both(fn):
        assert got.shape == shape and got.dtype == dtype


def test_in_top_k_with_no_classes_is_false_and_reduce_join_of_nothing_is_empty_strings():
    for got in both(lambda: tf.math.in_top_k(tf.constant([0]), tf.zeros([1, 0]), 1)):
        np.testing.assert_array_equal(got, [False])
    for got in both(lambda: tf.strings.reduce_join(tf.strings.as_string(tf.zeros([2, 0])),
                                                   axis=1)):
        np.testing.assert_array_equal(got, [b"", b""])


def test_unsorted_segment_mean_of_integers_is_float64():
    for got in both(lambda: tf.math.unsorted_segment_mean(tf.constant([1, 2, 4]),
                                                          tf.constant([0, 0, 1]), 3)):
        assert got.dtype == np.float64
        np.testing.assert_array_equal(got, [1.5, 4.0, 0.0])


def test_a_reduction_of_a_dtype_it_does_not_take_is_a_type_error_while_tracing():
    with pytest.raises(TypeError):
        tf.function(lambda: tf.reduce_sum(tf.constant([True])))()
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.math.cumsum(tf.constant([True]))


def test_shifts_clamp_the_shift_to_the_width():
    for got in both(lambda: tf.bitwise.left_shift(tf.constant([1, 1, -3]), tf.constant([-1, 40, 2]))):
        np.testing.assert_array_equal(got, [1, -2147483648, -12])
    for got in both(lambda: tf.bitwise.right_shift(tf.constant([-8, 8], tf.int8),
                                                   tf.constant([40, -1], tf.int8))):
        np.testing.assert_array_equal(got, [-1, 8])


def test_stack_of_python_numbers_is_one_constant():
    for got in both(lambda: tf.stack([1, 2.0])):
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, [1.0, 2.0])


def test_an_int_tensor_and_a_python_float_is_tensorflows_error_in_both_modes():
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.constant(1) + 1.5
    with pytest.raises(TypeError):
        tf.function(lambda: tf.constant(1) + 2.0)()


def test_dataset_range_ignores_keywords_tensorflow_ignores():
    ds = tf.data.Dataset.range(3, dtype=tf.int32)  # (runs in TensorFlow, giving int64)
    assert ds.element_spec.dtype == tf.int64
    assert [int(x) for x in ds] == [0, 1, 2]
