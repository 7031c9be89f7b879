"""A return inside a staged loop, or in one branch of a staged ``if``, is traced once.

The return value has no value before the loop (or in the other branch) and
its type is known only once the code that sets it has been traced. It is a
``Deferred`` slot that the staged while_loop / cond types from that trace,
so Python side effects in the statement run once per trace, as everywhere
else, and no discarded sub-graph is left in the library.
"""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as tf
import runtime as rt
from autograph.impl.api import convert
from runtime.errors import StagingError, StructureMismatchError
from autograph.operators.control_flow import _placeholder_like as _zeros_like
from runtime.ops.control_flow import Deferred
from tests.staging import assert_same, staged, trace

CALLS: list = []


def loop_with_return(k):
    x = k * 0
    while k > 0:
        print("tracing the loop body")
        CALLS.append("loop")
        x = x + k
        if x > 5:
            return x
        k = k - 1
    return -x


def return_in_true_branch(x):
    for i in tf.range(2):  # the `if` inside has the return in one branch only
        if x > i:
            print("tracing the true branch")
            CALLS.append("true")
            return x * 2
    return -x


def return_in_else_branch(x):
    i = tf.constant(0)
    while i < 2:  # the true branch (traced first) leaves the return value unset
        if x > i:
            x = x + 1
        else:
            print("tracing the else branch")
            CALLS.append("else")
            return x * 3
        i += 1
    return x


def nested_return(x):
    if x > 0:
        if x > 5:
            print("tracing the inner branch")
            CALLS.append("inner")
            return x
        x = x + 1
    return x - 1


def range_loop_with_return(n):
    for i in tf.range(n):
        print("tracing the range body")
        CALLS.append("range")
        if i > 3:
            return i * 2
    return -1


def nested_loops(n):
    i = tf.constant(0)
    while i < n:
        j = tf.constant(0)
        while j < n:
            print("tracing the inner loop")
            CALLS.append("inner loop")
            if i * j > 6:
                return i * 100 + j
            j = j + 1
        i = i + 1
    return -1


SIDE_EFFECTS = [
    (loop_with_return, "tracing the loop body", [np.int32(7), np.int32(2), np.int32(0)]),
    (return_in_true_branch, "tracing the true branch", [np.int32(1), np.int32(-3)]),
    (return_in_else_branch, "tracing the else branch", [np.int32(2), np.int32(-2)]),
    (nested_return, "tracing the inner branch", [np.int32(9), np.int32(3), np.int32(-1)]),
    (range_loop_with_return, "tracing the range body", [np.int32(9), np.int32(2)]),
    (nested_loops, "tracing the inner loop", [np.int32(5), np.int32(2)]),
]


@pytest.mark.parametrize("fn, message, _", SIDE_EFFECTS, ids=lambda v: getattr(v, "__name__", ""))
def test_print_and_append_run_once_per_trace(fn, message, _, capsys):
    f = tf.function(fn)
    CALLS.clear()
    f(tf.constant(3))
    out = capsys.readouterr().out
    count = 1
    assert out.count(message) == count, out
    assert len(CALLS) == count, CALLS
    f(tf.constant(4))  # same signature: no trace, no Python side effect
    assert capsys.readouterr().out == "" and len(CALLS) == count
    tf.function(fn)(tf.constant(3))  # a new trace: the side effects once more
    assert capsys.readouterr().out.count(message) == count
    assert len(CALLS) == 2 * count


@pytest.mark.parametrize("fn, _, args", SIDE_EFFECTS, ids=lambda v: getattr(v, "__name__", ""))
def test_results_equal_eager(fn, _, args, capsys):
    for a in args:
        assert_same(convert(fn), a)


def _referenced(graph) -> list:
    found, stack = [], [graph]
    while stack:
        for node in stack.pop().nodes:
            for value in node.attrs.values():
                if hasattr(value, "nodes") and value not in found:
                    found.append(value)
                    stack.append(value)
    return found


@pytest.mark.parametrize("fn, _, args", SIDE_EFFECTS, ids=lambda v: getattr(v, "__name__", ""))
def test_first_trace_leaves_no_discarded_sub_graph(fn, _, args, capsys):
    graph = tf.function(fn).get_concrete_function(tf.constant(3)).graph
    assert graph.library, "the function stages control flow"
    assert sorted(g.name for g in _referenced(graph)) == sorted(graph.library)


def test_loop_node_keeps_its_first_name_and_needs_no_retrace_for_the_return_value(capsys):
    graph = tf.function(loop_with_return).get_concrete_function(tf.constant(3)).graph
    loops = [n for n in graph.nodes if n.op in ("While", "StatelessWhile")]
    assert [n.name for n in loops] == ["while"]  # not while_1: no earlier attempt
    # the return value is carried from zeros of its type, built once in the outer graph, and
    # no constant is left over from an earlier attempt or a check
    used = {i.node for n in graph.nodes for i in n.inputs} | {o.node for o in graph.outputs}
    consts = [n for n in graph.nodes if n.op == "Const"]
    assert consts and all(n in used for n in consts), [n for n in consts if n not in used]


def test_return_value_with_unknown_dimension_is_traced_once(capsys):
    def grow(n):
        v = tf.zeros([1])
        while n > 0:
            print("tracing grow")
            v = tf.concat([v, v + 1.0], 0)
            if tf.reduce_sum(v) > 20.0:
                return v
            n = n - 1
        return v * 2.0

    f = tf.function(grow)
    f(tf.constant(9))
    # v's shape changes, so the loop is traced once more with a relaxed shape (as before);
    # the return value takes its type from that last trace ([None]) and adds no trace
    assert capsys.readouterr().out.count("tracing grow") == 2
    graph = f.get_concrete_function(tf.constant(9)).graph
    (loop,) = [n for n in graph.nodes if n.op == "StatelessWhile"]
    assert sorted(str(t.shape) for t in loop.outputs[:4]) == ["()", "()", "(None,)", "(None,)"]
    for n in (0, 2, 3, 9):
        assert_same(convert(grow), np.int32(n))


def tuple_return(k):
    x = tf.constant(0)
    while k > 0:
        x = x + k
        if x > 5:
            return x, k
        k = k - 1
    return x, -k


def string_return(n):
    while n > 0:
        if n == 3:
            return tf.constant("three")
        n = n - 1
    return tf.constant("none")


def python_value_return(n):
    while n > 0:
        if n == 3:
            return 7
        n = n - 1
    return n


def list_return(n):
    out = []
    i = 0
    while i < n:
        out.append(i)
        if i > 5:
            return tf.stack(out)
        i += 1
    return tf.stack(out)


def python_condition_return(k, flag):
    x = k
    while x > 0:
        if flag:
            return x
        x = x - 1
    return x + 100


@pytest.mark.parametrize("fn", [tuple_return, python_value_return, list_return])
@pytest.mark.parametrize("n", [1, 2, 3, 5, 9])
def test_return_values_of_other_kinds(fn, n):
    lists = tf.autograph.experimental.Feature.LISTS
    assert_same(convert(fn, experimental_optional_features=lists), np.int32(n))


@pytest.mark.parametrize("n, expected", [(0, b"none"), (2, b"none"), (5, b"three")])
def test_string_return_value(n, expected):
    assert staged(convert(string_return), np.int32(n)) == expected


@pytest.mark.parametrize("flag", [False, True])
def test_return_under_a_python_condition(flag):
    for k in (0, 3):
        assert_same(convert(python_condition_return), np.int32(k), flag)


@settings(max_examples=25, deadline=None)
@given(k=st.integers(-2, 12), limit=st.integers(-1, 40))
def test_early_return_differential(k, limit):
    def fn(k, limit):
        total = k * 0
        while k > 0:
            total = total + k
            if total > limit:
                return total * 10
            k = k - 1
        if total > 3:
            return total
        return -total
    assert_same(convert(fn), np.int32(k), np.int32(limit))


def test_return_of_another_dtype_in_the_loop_is_an_error():
    def mixed(k):
        while k > 0:
            if k == 3:
                return 1.5
            k -= 1
        return k

    with pytest.raises(StructureMismatchError, match="retval_ has dtype int32 in the true "
                                                     "branch but float32"):
        tf.function(mixed)(tf.constant(5))


def test_return_inside_the_loop_only_is_an_error():
    def falls_through(k):
        while k > 0:  # the-loop
            if k == 3:
                return k
            k -= 1

    with pytest.raises(StagingError, match=r"returns from inside the while loop at .*"
                                           r"falls_through.*may also return None"):
        tf.function(falls_through)(tf.constant(5))


# -- the runtime's Deferred slots, directly ------------------------------------------------

def test_while_loop_types_a_deferred_variable_from_the_body():
    traced = []

    def fn(n):
        def body(i, pair):
            traced.append(i)
            return i + 1, (i * 2, rt.cast(i, "float32"))
        return rt.while_loop(lambda i, pair: i < n, body, [rt.constant(0), Deferred(_zeros_like)],
                             loop_var_names=["i", "pair"])

    graph, result, _ = trace(fn, np.int32(4))
    assert len(traced) == 1
    (loop,) = [n for n in graph.nodes if n.op == "StatelessWhile"]
    assert [t.dtype.name for t in loop.outputs[:3]] == ["int32", "int32", "float32"]
    for sub in (loop.attrs["cond"], loop.attrs["body"]):  # both got inputs for the pair
        assert [p.dtype.name for p in sub.inputs] == ["int32", "int32", "float32", "int32"]
        names = [p.node.name for p in sub.inputs[:3]]
        assert names[0].startswith("while/i") and names[1].startswith("while/pair_0") and \
            names[2].startswith("while/pair_1"), names
    i, (doubled, as_float) = staged(fn, np.int32(4))
    assert (int(i), int(doubled), float(as_float)) == (4, 6, 3.0)
    i, (doubled, as_float) = staged(fn, np.int32(0))  # never ran: the zeros
    assert (int(i), int(doubled), float(as_float)) == (0, 0, 0.0)


def test_while_loop_leaves_a_still_deferred_variable_uncarried():
    slot = Deferred(_zeros_like)

    def fn(n):
        out = rt.while_loop(lambda i, d: i < n, lambda i, d: (i + 1, d), [rt.constant(0), slot],
                            maximum_iterations=10)
        assert out[1] is slot
        return out[0]

    graph, _, _ = trace(fn, np.int32(3))
    (loop,) = [n for n in graph.nodes if n.op == "StatelessWhile"]
    assert len(loop.inputs) == 4  # i, maximum_iterations' two counters and the captured n
    assert int(staged(fn, np.int32(30))) == 10


def test_cond_fills_a_deferred_branch_result_from_the_other_branch():
    def fn(x):
        return rt.cond(x > 0, lambda: (x + 1, Deferred(_zeros_like)),
                       lambda: (x - 1, (x * 2, rt.constant("s"))))

    assert staged(fn, np.int32(3))[1][0] == 0 and staged(fn, np.int32(3))[1][1] == b""
    first, (second, text) = staged(fn, np.int32(-3))
    assert (int(first), int(second), text) == (-4, -6, b"s")



def test_cond_keeps_a_result_deferred_in_both_branches():
    both = Deferred(_zeros_like)
    seen = []

    def fn(x):
        first, second = rt.cond(x > 0, lambda: (x + 1, both), lambda: (x - 1, both))
        seen.append(second)
        return first

    graph, _, _ = trace(fn, np.int32(2))
    assert seen == [both]
    (node,) = [n for n in graph.nodes if n.op == "StatelessIf"]
    assert len(node.outputs) == 1
    assert int(staged(fn, np.int32(2))) == 3
