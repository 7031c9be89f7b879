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
