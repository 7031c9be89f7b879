"""tf.debugging: check_numerics, the check-numerics hook, static and value assertions."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime import debugging


def test_check_numerics():
    x = tf.constant([1.0, 2.0])
    assert tf.debugging.check_numerics(x, "ok") is x
    with pytest.raises(InvalidArgumentError, match="bad : Tensor had NaN values"):
        tf.debugging.check_numerics(tf.constant([1.0, np.nan]), "bad")
    with pytest.raises(InvalidArgumentError, match="inf! : Tensor had Inf values"):
        tf.debugging.assert_all_finite(tf.constant([np.inf]), "inf!")

    @tf.function
    def f(v):
        return tf.debugging.check_numerics(v * 2.0, "in f")
    assert f(tf.constant([1.0])).numpy() == 2.0
    with pytest.raises(InvalidArgumentError, match="in f"):
        f(tf.constant([np.nan]))


def test_numeric_check_hook_names_op_and_line():
    tf.debugging.enable_check_numerics()
    try:
        check = debugging.NUMERIC_CHECKS[0]
        check("Log", tf.constant([0.0, 1.0]))
        with pytest.raises(InvalidArgumentError, match='op "Log".*\n.*\n.*\n.*test_debugging.py'):
            check("Log", tf.constant([-np.inf, 1.0]))
    finally:
        tf.debugging.disable_check_numerics()
    assert debugging.NUMERIC_CHECKS == []


def test_static_assertions():
    with pytest.raises(ValueError, match="must have rank 2.  Received rank 1"):
        tf.debugging.assert_rank(tf.constant([1.0]), 2)
    tf.debugging.assert_rank(tf.zeros([2, 3]), 2)
    with pytest.raises(TypeError, match="must be of type"):
        tf.debugging.assert_type(tf.constant([1.0]), tf.int32)
    tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "M")), (tf.zeros([2]), ("N",))])
    with pytest.raises(ValueError, match="dimension 0 must have size 2. Received size 3"):
        tf.debugging.assert_shapes([(tf.zeros([2, 3]), ("N", "M")), (tf.zeros([3]), ("N",))])


def test_assert_near_and_friends():
    tf.debugging.assert_near(tf.constant([1.0]), [1.0000001])
    with pytest.raises(InvalidArgumentError, match="not equal to tolerance"):
        tf.debugging.assert_near(tf.constant([1.0]), [1.1])
    with pytest.raises(InvalidArgumentError):
        tf.debugging.assert_not_equal(tf.constant(1), 1)

    @tf.function
    def f(x, y):
        tf.debugging.assert_near(x, y, atol=0.5)
        return x
    f(tf.constant([1.0]), tf.constant([1.2]))
    with pytest.raises(InvalidArgumentError, match="not equal to tolerance"):
        f(tf.constant([1.0]), tf.constant([3.0]))
