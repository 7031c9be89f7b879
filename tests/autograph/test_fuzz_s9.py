"""Differences found by differential fuzzing of generated programs (TensorFlow 2.21 vs this
project, and converted vs plain Python); expected values are what TensorFlow and Python give."""
import pytest

import autograph as tf
from autograph.impl.api import convert


def _loop_in_finally_feeds_outer_finally(x, n):
    try:
        try:
            if c:  # noqa: F821  (unbound here: the exception leaves through both `finally`s)
                pass
        finally:
            b = n
            for _ in range(x):
                c = 5
        c = b
    finally:
        return b, c  # noqa: B012


def test_a_loop_in_a_try_carries_what_an_outer_finally_reads():
    # the loop's `c` is dead on the normal path (`c = b` follows) but live on the exception's
    assert _loop_in_finally_feeds_outer_finally(2, 3) == (3, 5)
    assert convert(_loop_in_finally_feeds_outer_finally)(2, 3) == (3, 5)


class _Plain(Exception):
    pass


class _OwnValueError(ValueError):
    pass


def _raises(k):
    if k == 0:
        return [1][k + 4]
    if k == 1:
        return 1 // (k - 1)
    if k == 2:
        raise _OwnValueError("own")
    if k == 3:
        raise _Plain("plain")
    if k == 4:
        raise ValueError("v")
    return {}["missing"]


def test_tf_function_reraises_errors_as_tensorflow_rebuilds_them():
    # TensorFlow raises an error leaving converted code again as its type only when it can
    # build it from a message: else (IndexError, ZeroDivisionError, a subclass of ValueError)
    # it is a StagingError
    expected = [tf.errors.StagingError, tf.errors.StagingError, tf.errors.StagingError,
                _Plain, ValueError, KeyError]
    for k, cls in enumerate(expected):
        with pytest.raises(cls) as info:
            tf.function(_raises)(k)
        assert type(info.value) is cls or cls is KeyError
    with pytest.raises(IndexError):  # converted code run outside tf.function keeps the type
        convert(_raises)(0)


def _pairs(n):
    return [(p, q) for p in range(2) for q in range(n)]


def test_a_range_of_a_tensor_iterated_as_python_is_operator_not_allowed():
    # TensorFlow's range of a tensor is tf.range's tensor, and iterating it is refused
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(_pairs)(tf.constant(3))
    assert tf.function(_pairs)(2) == [(0, 0), (0, 1), (1, 0), (1, 1)]


def test_an_empty_eager_tensor_array_stacks_as_an_empty_list():
    for ta in (tf.TensorArray(tf.int32, size=0, dynamic_size=True),
               tf.TensorArray(tf.float32, size=0, element_shape=[None, 2])):
        stacked = ta.stack()
        assert stacked.shape == (0,) and stacked.dtype == ta.dtype
    assert tf.TensorArray(tf.int32, size=0, element_shape=[2]).stack().shape == (0, 2)


def test_an_eager_tensor_array_read_out_of_range_is_out_of_range():
    ta = tf.TensorArray(tf.int32, size=3)
    for i in (3, -1):
        with pytest.raises(tf.errors.OutOfRangeError, match=f"index {i} but array size is: 3"):
            ta.read(i)
