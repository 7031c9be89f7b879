"""End-to-end: converted functions agree with Python, in Python and staged."""
import numpy as np
import pytest

import runtime as rt
from autograph.impl.api import convert, to_code
from tests.autograph.helpers import assert_python_same, assert_staged_same


def relu(x):
    if x > 0:
        return x
    else:
        return 0


def tanh_loop(x):
    while x > 1:
        x = rt.tanh(x)
    return x


def early_return_in_loop(n):
    s = 0
    i = 0
    while i < n:
        i += 1
        if i > 5:
            return s * 100
        s += i
    return s


def break_continue(xs, n):
    s = 0
    for x in xs:
        if x > n:
            break
        if x % 2 == 0:
            continue
        s += x
    else:
        s = -1
    return s


def range_loop(n):
    s = 0
    for i in range(n):
        if i % 3 == 0:
            continue
        s = s + i * i
    return s


def logical(a, b):
    if a > 0 and b > 0 or a < -10:
        return a - b
    return a + b if not a > b else b


@pytest.mark.parametrize("x", [-3, 0, 4])
def test_relu(x):
    assert_python_same(relu, x)
    assert_staged_same(relu, np.int32(x))


def test_tanh_loop_staged():
    assert_staged_same(tanh_loop, np.float32(5.0))


@pytest.mark.parametrize("n", [0, 3, 10])
def test_early_return_in_loop(n):
    assert_python_same(early_return_in_loop, n)
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside"):
        assert_staged_same(early_return_in_loop, np.int32(n))  # (TensorFlow refuses it too)


@pytest.mark.parametrize("n", [0, 2, 4, 100])
def test_break_continue(n):
    assert_python_same(break_continue, [1, 2, 3, 5, 7], n)
    assert_staged_same(break_continue, np.array([1, 2, 3, 5, 7], np.int32), np.int32(n))
    # a Python loop cannot break on a tensor condition (TensorFlow refuses it too)
    with pytest.raises(NotImplementedError, match="not supported in Python for loops"):
        assert_staged_same(break_continue, [1, 2, 3, 5, 7], np.int32(n))


@pytest.mark.parametrize("n", [0, 1, 7])
def test_range_over_tensor(n):
    assert_python_same(range_loop, n)
    assert_staged_same(range_loop, np.int32(n))


@pytest.mark.parametrize("a,b", [(1, 2), (3, -1), (-20, 4), (0, 0)])
def test_logical(a, b):
    assert_python_same(logical, a, b)
    assert_staged_same(logical, np.int32(a), np.int32(b))


def test_to_code_reexecutes():
    import autograph.operators as ag__
    ns = {"ag__": ag__, "rt": rt}
    exec(to_code(early_return_in_loop), ns)
    assert ns["tf__early_return_in_loop"](10) == early_return_in_loop(10)
