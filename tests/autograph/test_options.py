"""Conversion options: TensorFlow's optional features, and what tf.function refuses."""
import numpy as np
import pytest

import autograph as tf
from autograph.impl.api import convert, to_code
from graph.errors import InvalidArgumentError
from runtime.errors import OperatorNotAllowedInGraphError

Feature = tf.autograph.experimental.Feature


def prints(x):
    print("x is", x, {"k": 1})
    return x + 1


def test_print_runs_at_trace_time_by_default(capfd):
    f = tf.function(prints)
    f(tf.constant(3))
    f(tf.constant(4))
    out = capfd.readouterr().out
    assert out.count("x is") == 1 and "Tensor(" in out


def test_builtin_functions_print_tensor_values_when_the_graph_runs(capfd):
    f = tf.function(prints, experimental_autograph_options=Feature.BUILTIN_FUNCTIONS)
    f(tf.constant(3))
    f(tf.constant(4))
    assert capfd.readouterr().out == "x is 3 {'k': 1}\nx is 4 {'k': 1}\n"
    f2 = tf.function(prints, experimental_autograph_options=(Feature.BUILTIN_FUNCTIONS,))
    f2(7)  # no tensor: Python's print, once, while tracing
    f2(7)
    assert capfd.readouterr().out == "x is 7 {'k': 1}\n"


def positive(x):
    assert x > 0, "x must be positive"
    return x


def test_assert_statements_feature():
    f = tf.function(positive, experimental_autograph_options=Feature.ASSERT_STATEMENTS)
    assert int(f(tf.constant(2))) == 2
    with pytest.raises(tf.errors.InvalidArgumentError, match="x must be positive"):
        f(tf.constant(-2))
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):
        tf.function(positive)(tf.constant(2))


def test_to_code_shows_the_features_asked_for():
    assert "assert x > 0" in to_code(positive)
    assert "ag__.assert_stmt" in to_code(positive, experimental_optional_features=Feature.ALL)


def test_options_must_be_features():
    with pytest.raises(TypeError, match="Feature"):
        tf.function(positive, experimental_autograph_options="LISTS")


def for_else(xs, stop):
    s = 0
    for x in xs:
        if x == stop:
            break
        s += x
    else:
        s = -1
    return s


def while_else(n):
    i = 0
    while i < n:
        i += 1
    else:
        i = -i
    return i


def test_loop_else_runs_in_tf_function():
    # TensorFlow runs such a function unconverted (right on Python loops, an error on staged
    # ones); here the clause is lowered: Python's results on Python loops, staged on tensors.
    assert int(tf.function(for_else)([1, 2], 2)) == for_else([1, 2], 2)
    assert int(tf.function(for_else)([1, 2], 5)) == for_else([1, 2], 5)
    assert int(tf.function(while_else)(tf.constant(2))) == while_else(2)
    assert int(tf.function(while_else)(tf.constant(0))) == while_else(0)


def callee_with_else(n):
    for i in range(n):
        pass
    else:
        return -1
    return i


def calls_callee_with_else(x):
    return callee_with_else(3) + x


def test_strict_mode_refuses_loop_else_as_tensorflow(monkeypatch):
    # TensorFlow's AUTOGRAPH_STRICT_CONVERSION (set by its own AutoGraph tests): what it
    # cannot convert is an error, also in a callee, which otherwise would run unconverted
    assert int(tf.function(calls_callee_with_else)(tf.constant(1))) == 0
    monkeypatch.setenv("AUTOGRAPH_STRICT_CONVERSION", "1")
    with pytest.raises(NotImplementedError, match="for/else"):
        tf.function(for_else)([1, 2], 2)
    with pytest.raises(NotImplementedError, match="while/else"):
        tf.function(while_else)(tf.constant(2))
    with pytest.raises(NotImplementedError, match="for/else"):
        tf.function(calls_callee_with_else)(tf.constant(1))
    assert convert(for_else)([1, 2], 2) == 1  # (the converter's own entry points: Python's)


@pytest.mark.parametrize("args", [([1, 2, 3], 2), ([1, 2, 3], 9), ([], 0)])
def test_loop_else_keeps_python_semantics_in_convert(args):
    assert convert(for_else)(*args) == for_else(*args)
    assert convert(while_else)(3) == while_else(3)


def callee_with_assert(x):
    assert x > 0, "must be positive"
    return x * 2


def calls_a_callee(x):
    return callee_with_assert(x) + 1


def test_callees_are_converted_with_the_callers_options():
    # the caller's ASSERT_STATEMENTS reaches the callee: its assert on a tensor is staged
    checked = tf.function(calls_a_callee, experimental_autograph_options=(
        tf.autograph.experimental.Feature.ASSERT_STATEMENTS))
    assert int(checked(tf.constant(2))) == 5
    with pytest.raises(InvalidArgumentError, match="must be positive"):
        checked(tf.constant(-2))
    with pytest.raises(OperatorNotAllowedInGraphError):  # without it, the assert is Python's
        tf.function(calls_a_callee)(tf.constant(2))
    assert convert(calls_a_callee)(np.int32(1)) == 3
