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


def none_in_loop_var(n):
    x = (None, 1)
    while n > 0:  # the-loop
        x = (n, 2)
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
    # Python's UnboundLocalError on Python values; staged, the loop names the variable
    with pytest.raises(UnboundLocalError):
        deletes(2)
    with pytest.raises(UnboundLocalError):
        convert(deletes)(2)
    import autograph as tf
    with pytest.raises(ValueError, match="'x' has no value at the end of an iteration") as info:
        tf.function(deletes)(tf.constant(2))
    assert "test_errors.py" in str(info.value)


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


def test_none_before_staged_loop_is_typed_from_the_body():
    # TensorFlow 2.21: None before the loop is like undefined -- 1 here, and a loop that
    # does not run fails the "loop must iterate at least once to initialize x" assert
    assert staged(convert(none_loop_var), np.int32(3)) == 1
    with pytest.raises(InvalidArgumentError, match="at least once to initialize x"):
        staged(convert(none_loop_var), np.int32(0))


def test_none_inside_a_staged_loop_variable():
    # (TensorFlow: ValueError "None values not supported.")
    with pytest.raises(StagingError) as info:
        staged(convert(none_in_loop_var), np.int32(3))
    assert isinstance(info.value, ValueError)
    msg = str(info.value)
    assert "'x' is None before the while loop" in msg
    assert re.search(where(none_in_loop_var, "the-loop"), msg)


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


# -- Python iteration, numpy and escaped tensors: as TensorFlow 2.21 ------------------------

def sum_of(x):
    return sum(x)


def unpacked(x):
    a, b, c = x
    return a


def listed(x):
    return list(x)


def square_np(x):
    return np.square(x)


def loop_over(x):
    s = 0
    for v in x:  # converted: a staged loop, not Python iteration
        s += v
    return s


@pytest.mark.parametrize("fn", [sum_of, unpacked, listed])
def test_python_iteration_of_a_symbolic_tensor_is_refused(fn):
    # TensorFlow refuses it even when the length is known (shape (3,) here)
    from runtime.errors import OperatorNotAllowedInGraphError
    with pytest.raises(OperatorNotAllowedInGraphError, match="Iterating over a symbolic"):
        staged(convert(fn), np.array([1, 2, 3], np.int32))
    assert staged(convert(loop_over), np.array([1, 2, 3], np.int32)) == 6


def test_numpy_of_a_symbolic_tensor_is_not_implemented():
    with pytest.raises(NotImplementedError,
                       match=r"Cannot convert a symbolic tf.Tensor \(arg0:0\) to a numpy array"):
        staged(convert(square_np), np.array([1, 2, 3], np.int32))
    # numpy arrays still defer to the tensor's operators
    f = autograph.function(lambda x: np.array([1, 2], np.int32) + x)
    assert f(rt.constant([1, 2])).numpy().tolist() == [2, 4]


def test_sorted_of_a_symbolic_tensor_sorts_it():
    from autograph.operators.py_builtins import sorted_
    x = rt.constant([3, 1, 2])
    # TensorFlow: [1 2 3], [3 2 1], key=-v -> [3 2 1]; rank 2 -> ValueError
    assert autograph.function(lambda t: sorted_(t))(x).numpy().tolist() == [1, 2, 3]
    assert autograph.function(lambda t: sorted_(t, reverse=True))(x).numpy().tolist() == [3, 2, 1]
    by_key = autograph.function(lambda t: sorted_(t, key=lambda v: -v))
    assert by_key(x).numpy().tolist() == [3, 2, 1]
    with pytest.raises(ValueError, match="sort only supports only 1D tensors"):
        autograph.function(lambda t: sorted_(t))(rt.constant([[3, 1], [2, 0]]))
    unknown = autograph.function(lambda t: sorted_(t),
                                 input_signature=[autograph.TensorSpec(None, rt.int32)])
    assert unknown(x).numpy().tolist() == [1, 2, 3]
    with pytest.raises(InvalidArgumentError, match="sort only supports only 1D tensors"):
        unknown(rt.constant([[1]]))
    assert sorted_([3, 1, 2], reverse=True) == [3, 2, 1]


def _range_loop_target(start, iterate_names):
    """The converted form of ``for i in range(start, n): pass; return i`` (``i`` undefined
    before the loop), with the converter's opts."""
    from autograph.operators.control_flow import for_stmt
    from autograph.operators.py_builtins import range_
    from autograph.operators.variables import Undefined, ld

    def f(n):
        i = Undefined("i")

        def get_state():
            return (i,)

        def set_state(vals):
            nonlocal i
            i = vals[0]

        def body(itr):
            nonlocal i
            i = itr
        for_stmt(range_(start, n), None, body, get_state, set_state, ("i",),
                 opts={"iterate_names": iterate_names})
        return ld(i)
    return f


def test_range_loop_target_starts_at_the_range_start():
    # TensorFlow: range(5, 0) -> 5, range(5, 7) -> 6, range(0) -> 0 (no assert)
    assert staged(_range_loop_target(5, "i"), np.int32(0)) == 5
    assert staged(_range_loop_target(5, "i"), np.int32(7)) == 6
    assert staged(_range_loop_target(0, "i"), np.int32(0)) == 0
    with pytest.raises(InvalidArgumentError, match="at least once to initialize i"):
        staged(_range_loop_target(5, None), np.int32(0))  # not the target: as a variable


def test_inaccessible_tensor_error_is_a_value_error():
    from runtime.errors import InaccessibleTensorError
    assert issubclass(InaccessibleTensorError, ValueError)


def test_inaccessible_tensor_error_names_where_the_tensor_was_made():
    from runtime.errors import InaccessibleTensorError

    @autograph.function
    def f(n):
        total = [0]

        def add(v):
            total[0] += v  # a tensor of the loop body, stored outside it
        for i in rt.range(n):
            add(i)
        return total[0]
    with pytest.raises(InaccessibleTensorError, match=r"made inside a staged loop body or branch "
                       r"\(created at .*test_errors.py:\d+ in "):
        f(rt.constant(3))
