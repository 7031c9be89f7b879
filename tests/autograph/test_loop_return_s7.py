"""A ``return`` inside a staged loop, as TensorFlow 2.21 takes it (values recorded from it).

A return the loop body reaches whatever the tensors are (under Python conditions only)
stages: the return value is typed from the body, and a loop that runs zero times fails
TensorFlow's assert. A return a tensor decides is TensorFlow's NotImplementedError.
"""
import pytest

import autograph as tf


def _always(x, n):
    k = 0
    while k < n:
        k += 1
        if 1 < 4:
            return x + k
    return x


def _tensor_decides(x, n):
    k = 0
    while k < n:
        k += 1
        if x > k:
            return x + k
    return x


def _for_always(x, n):
    for i in tf.range(n):
        return x + i
    return x


def _tuple_in_nested_python_loop(x, n):
    a, b = x, n
    k = 0
    while k < n:
        k += 1
        b += a
        for _ in range(2):
            if 2 > 1:
                return (a, b)
    return (a, b)


@pytest.mark.parametrize("fn, x, n, expected", [
    (_always, 3, 2, 4), (_always, 1, 5, 2),
    (_for_always, 3, 2, 3), (_for_always, 1, 5, 1),
    (_tuple_in_nested_python_loop, 3, 2, (3, 5)), (_tuple_in_nested_python_loop, 1, 5, (1, 6)),
])
def test_a_return_the_body_always_reaches_stages(fn, x, n, expected):
    got = tf.function(fn)(tf.constant(x), tf.constant(n))
    assert tf.nest.map_structure(int, got) == expected


@pytest.mark.parametrize("fn", [_always, _for_always, _tuple_in_nested_python_loop])
def test_such_a_loop_running_zero_times_fails_the_assert(fn):
    with pytest.raises(tf.errors.InvalidArgumentError, match="loop must iterate at least once"):
        tf.function(fn)(tf.constant(3), tf.constant(0))


def test_a_return_a_tensor_decides_is_refused_at_the_loop():
    with pytest.raises(NotImplementedError,
                       match=r"return statement cannot be placed inside this TensorFlow loop "
                             r"\(at .*test_loop_return_s7.py"):
        tf.function(_tensor_decides)(tf.constant(3), tf.constant(2))


def _kept_out_by_python(x, n):
    k = 0
    while k < n:
        k += 1
        for j in range(n):
            if (5 <= -2) and (n != j):
                return 1
    return 2


def test_a_return_a_python_condition_keeps_out_of_the_trace_is_refused_at_the_loop():
    # TensorFlow's case for its hint: "a return statement depends on a static Python
    # condition such as a hyperparameter" (before: a one-sided return at the last `if`)
    with pytest.raises(NotImplementedError, match="depends on a static Python condition"):
        tf.function(_kept_out_by_python)(tf.constant(3), tf.constant(2))


def _single_loop_kept_out(x, n):
    k = 0
    while k < n:
        k += 1
        if 1 > 4:
            return 1
    return 2


def test_a_return_never_traced_in_a_single_loop_is_tensorflows_value_error():
    with pytest.raises(ValueError, match="the return value from a TensorFlow loop may only be"):
        tf.function(_single_loop_kept_out)(tf.constant(3), tf.constant(2))


def _never_returns_in_if(x, n):
    k = 0
    while k < n:
        k += 1
        if x > 0:
            if 1 > 4:
                return 1
            n = n + 1
    return n


def test_a_staged_if_whose_return_never_ran_is_refused_as_tensorflow_does():
    # the `if` refuses (ValueError, as TensorFlow's); inside a loop that is the loop's refusal
    with pytest.raises(NotImplementedError, match="cannot be placed inside this TensorFlow loop"):
        tf.function(_never_returns_in_if)(tf.constant(3), tf.constant(2))

    def outside(x, n):
        if x > 0:
            if 1 > 4:
                return 1
            n = n + 1
        return n
    with pytest.raises(ValueError, match="the main branch must also have a return statement"):
        tf.function(outside)(tf.constant(3), tf.constant(2))


def _return_in_python_test_while(x, n):
    a, b, c = 0, x, 1
    k0 = 0
    while k0 < n:
        k0 += 1
        k1 = 0
        while k1 < x % 5:  # a Python test, but the return flag is a tensor here
            k1 += 1
            if a != 1 or a >= 1:
                return a + b * 2 + c * 3
            if (1 if x >= 1 else c) <= x:
                return a + b * 2 + c * 3
            a = b
        b = a * -2 * (b // 2)
        c = x
    return a + b * 2 + c * 3


def test_a_while_with_a_python_test_inside_a_staged_loop_with_a_return_stages_as_in_tf():
    # Inside the staged loop the return flag is a tensor, so the inner `while` (whose test
    # reads it) is staged from the start, as in TensorFlow 2.21 (17); it used to start as a
    # Python loop and fail once the return made its test a tensor.
    assert _return_in_python_test_while(7, 4) == 17
    assert int(tf.function(_return_in_python_test_while)(7, tf.constant(4))) == 17
    with pytest.raises(NotImplementedError, match=r"placed inside this TensorFlow loop \(at "
                                                  r".*test_loop_return_s7.py:\d+ in _return"):
        tf.function(_return_in_python_test_while)(tf.constant(7), tf.constant(4))
