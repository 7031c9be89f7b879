"""Every error names the user's file:line (and what to do); types are kept."""
import inspect
import logging
import os
import re

import numpy as np
import pytest

from graph.errors import InvalidArgumentError

import autograph
import runtime as rt
from autograph.errors import ConversionError, UndefinedVariableError
from autograph.impl.api import convert, to_code
from runtime.errors import StagingError, StructureMismatchError
from tests.staging import staged

HERE = os.path.abspath(__file__)


def line_of(fn, marker: str) -> int:
    lines, start = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if marker in text:
            return start + i
    raise AssertionError(marker)


def where(fn, marker):
    return re.escape(f"{HERE}:{line_of(fn, marker)}")


def one_branch(x):
    if x > 0:  # the-if
        y = x + 1
    return y  # the-use


def one_branch_unused(x):
    if x > 0:
        y = x + 1
        x = y * 2
    return x


def loop_defined(n):
    i = 0
    while i < n:  # the-loop
        last = i
        i += 1
    return last  # the-use


def dtype_change(n):
    x = 0
    i = 0
    while i < n:  # the-loop
        x = 1.5
        i += 1
    return x


def generator(n):
    for i in range(n):
        yield i  # the-yield


def deletes(n):
    x = 0
    while x < n:
        x += 1
        del x  # the-del
    return n


def bad_operand(x):
    y = x + 1
    z = y + "text"  # the-bad-line
    return z


def returns_in_one_branch(x):
    if x > 0:  # the-if
        return x
    x = x * 2


def none_loop_var(n):
    x = None
    while n > 0:  # the-loop
        x = n
        n = n - 1
    return x


def test_undefined_in_one_branch_names_variable_and_lines():
    # (TensorFlow's rule: a variable used after a staged `if` must be set in both branches)
    with pytest.raises(ValueError) as info:
        staged(convert(one_branch), np.int32(1))
    msg = str(info.value)
    assert "'y' must also be initialized in the else branch" in msg
    assert re.search(where(one_branch, "the-if"), msg)


def test_undefined_in_one_branch_in_python_is_unbound_local():
    with pytest.raises(UnboundLocalError):
        convert(one_branch)(-1)
    assert convert(one_branch)(2) == 3


def test_undefined_but_unused_just_works():
    assert staged(convert(one_branch_unused), np.int32(3)) == 8
    assert staged(convert(one_branch_unused), np.int32(-3)) == -3


def test_first_defined_in_staged_loop_used_after():
    # TensorFlow's rule: carried from zeros of the body's type; zero iterations is an error
    # when the graph runs
    assert int(staged(convert(loop_defined), np.int32(3))) == 2
    with pytest.raises(InvalidArgumentError, match="loop must iterate at least once to "
                                                   "initialize last"):
        staged(convert(loop_defined), np.int32(0))
    assert convert(loop_defined)(3) == 2
    with pytest.raises(UnboundLocalError, match="'last' is used before assignment"):
        convert(loop_defined)(0)


def test_loop_variable_dtype_change():
    with pytest.raises(StructureMismatchError) as info:
        staged(convert(dtype_change), np.int32(3))
    msg = str(info.value)
    assert "'x' has dtype int32 before the loop, but dtype float32" in msg
    assert re.search(where(dtype_change, "the-loop"), msg)


def test_generator_is_a_conversion_error():
    with pytest.raises(ConversionError) as info:
        convert(generator)
    assert isinstance(info.value, NotImplementedError)
    assert re.search(where(generator, "the-yield"), str(info.value))
    assert "yield" in str(info.value)


def test_generator_under_tf_function_is_not_implemented():
    import autograph as tf
    with pytest.raises(NotImplementedError) as info:
        tf.function(generator)(tf.constant(3))
    assert re.search(where(generator, "the-yield"), str(info.value))


def test_del_of_loop_state():
    with pytest.raises(ConversionError) as info:
        to_code(deletes)
    assert isinstance(info.value, NotImplementedError)
    assert re.search(where(deletes, "the-del"), str(info.value))
    assert "del x" in str(info.value)


def test_no_source_names_the_function():
    ns = {}
    exec("def made_by_exec(x):\n    return x\n", ns)
    with pytest.raises(ConversionError, match="made_by_exec.*source"):
        convert(ns["made_by_exec"])


def test_python_error_keeps_type_and_points_at_user_line():
    with pytest.raises(TypeError) as info:
        staged(convert(bad_operand), np.int32(1))
    msg = str(info.value)
    assert re.search(f'File "{re.escape(HERE)}", line {line_of(bad_operand, "the-bad-line")}, '
                     "in bad_operand", msg)
    assert 'z = y + "text"' in msg


def test_return_in_only_one_staged_branch():
    with pytest.raises(ValueError) as info:
        staged(convert(returns_in_one_branch), np.int32(1))
    msg = str(info.value)
    assert "else branch must also have a return statement" in msg
    assert re.search(where(returns_in_one_branch, "the-if"), msg)
    assert convert(returns_in_one_branch)(1) == 1
    assert convert(returns_in_one_branch)(-1) is None


def test_none_before_staged_loop():
    with pytest.raises(StagingError) as info:
        staged(convert(none_loop_var), np.int32(3))
    msg = str(info.value)
    assert "'x' is None before the while loop" in msg
    assert re.search(where(none_loop_var, "the-loop"), msg)


def test_graph_nodes_point_at_user_lines():
    def f(x):
        y = x * 2  # the-mul
        if y > 3:  # the-cond
            y = y - 1  # the-sub
        return y
    from tests.staging import trace
    graph, _, _ = trace(convert(f), np.int32(1))
    origins = {n.op: n.origin for n in graph.nodes if n.origin is not None}
    assert origins["Mul"].line == line_of(f, "the-mul")
    assert origins["Mul"].file == HERE
    assert origins["Mul"].function == "f"
    assert "y = x * 2" in origins["Mul"].source
    cond_nodes = [n for n in graph.nodes if n.op in ("If", "StatelessIf")]
    assert cond_nodes[0].origin.line == line_of(f, "the-cond")
    branch = cond_nodes[0].attrs["then_branch"]
    sub = [n for n in branch.nodes if n.op == "Sub"]
    assert sub[0].origin.line == line_of(f, "the-sub")


def staged_if_in_try(x):
    try:
        if x > 0:  # the-if
            x = x + 1
    except ValueError:
        x = 0
    return x


def python_if_in_try(x, flag):
    try:
        if flag:
            x = x + 1
    except ValueError:
        x = 0
    return x


def test_staged_control_flow_inside_try_except_is_staged_as_tensorflow_stages_it(caplog):
    """The handler catches errors of tracing only; a warning says so, once per place."""
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        assert staged(convert(staged_if_in_try), np.int32(1)) == 2
        assert staged(convert(staged_if_in_try), np.int32(-1)) == -1
    warned = [r.getMessage() for r in caplog.records if "inside a `try`" in r.getMessage()]
    assert len(warned) == 1 and re.search(where(staged_if_in_try, "the-if"), warned[0])
    assert "not errors raised when the graph runs" in warned[0]
    assert convert(staged_if_in_try)(1) == 2
    assert staged(convert(python_if_in_try), np.int32(1), True) == 2


def test_tf_function_of_a_function_without_source_runs_it_as_written():
    """TensorFlow warns and runs such a function unconverted (convert() still raises)."""
    fn = eval("lambda x: x + 1")  # noqa: S307  (no source file)
    with pytest.warns(UserWarning, match="could not transform"):
        assert int(autograph.function(fn)(rt.constant(1))) == 2
    with pytest.raises(ConversionError, match="source code is not available"):
        convert(fn)
