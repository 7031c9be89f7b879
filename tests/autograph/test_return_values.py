"""Returns inside staged control flow follow TensorFlow's rules.

A ``return`` inside a staged loop is refused (NotImplementedError, as in TensorFlow); a
staged ``if`` must return in both branches or in neither (ValueError). On Python values
the same functions keep Python's semantics. The runtime's ``Deferred`` slots, which type a
loop variable created inside a loop from the traced body, are tested at the end.
"""
import numpy as np
import pytest

import autograph as tf
import runtime as rt
from autograph.impl.api import convert
from autograph.operators.control_flow import _placeholder_like as _zeros_like
from runtime.ops.control_flow import Deferred
from tests.autograph.helpers import assert_python_same
from tests.staging import staged, trace


def loop_with_return(k):
    x = k * 0
    while k > 0:
        x = x + k
        if x > 5:
            return x
        k = k - 1
    return -x


def range_loop_with_return(n):
    for i in tf.range(n):
        if i > 3:
            return i * 2
    return -1


def nested_loops(n):
    i = tf.constant(0)
    while i < n:
        j = tf.constant(0)
        while j < n:
            if i * j > 6:
                return i * 100 + j
            j = j + 1
        i = i + 1
    return -1


def dataset_loop_with_return(n):
    for x in tf.data.Dataset.range(10):
        if x > tf.cast(n, tf.int64):
            return x
    return tf.constant(-1, tf.int64)


@pytest.mark.parametrize("fn", [loop_with_return, range_loop_with_return, nested_loops,
                                dataset_loop_with_return])
def test_return_inside_a_staged_loop_is_refused(fn):
    with pytest.raises(NotImplementedError, match="return statement cannot be placed inside "
                                                  "this TensorFlow loop"):
        tf.function(fn)(tf.constant(3))


@pytest.mark.parametrize("n", [0, 2, 5])
def test_return_inside_a_python_loop_keeps_python_semantics(n):
    assert_python_same(loop_with_return, n)
    assert int(tf.function(loop_with_return)(n)) == loop_with_return(n)  # a Python loop


def nested_return(c1, c2):
    if c1:
        if c2:
            return 1
    return 2


def returns_in_both(x):
    if x > 0:
        if x > 5:
            return x
        return -x
    return x * 2


def test_return_in_one_branch_of_a_staged_if_is_refused():
    with pytest.raises(ValueError, match="else branch must also have a return statement"):
        tf.function(nested_return)(tf.constant(True), tf.constant(False))
    assert tf.function(nested_return)(True, False) == 2  # Python conditions: Python's result


@pytest.mark.parametrize("x", [-3, 2, 9])
def test_returns_in_both_branches_are_staged(x):
    assert int(tf.function(returns_in_both)(tf.constant(x))) == returns_in_both(x)


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
        assert names[0].startswith("while/Placeholder") and len(set(names)) == 3, names
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
