"""``function(..., optimize=True)``: the traced graph is optimized before it is compiled.

``concrete.graph`` (= ``concrete.traced_graph``) stays the graph as traced,
as TensorFlow shows it; ``concrete.optimized_graph`` is what runs. Checked
here: values agree with ``optimize=False`` and with plain Python, the traced
graph is left untouched, errors raised by the optimized graph still name the
user's line, and the flag reaches bound methods and the public decorator.
"""
from __future__ import annotations

import inspect

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from graph.passes import optimize as optimize_graph
from graph.printing import format_graph


def _line(marker: str) -> int:
    """The line of this file holding ``marker`` (so tests don't hard-code numbers)."""
    lines = inspect.getsource(inspect.getmodule(_line)).splitlines()
    return next(i + 1 for i, text in enumerate(lines) if marker in text and "_line(" not in text)


def simplifiable(x, n):
    y = x * 1.0                       # algebraic: x * 1 is x
    a = tf.tanh(y)
    b = tf.tanh(y)                    # CSE: same as a
    c = tf.constant(2.0) * 3.0        # folded to 6.0
    s = tf.zeros_like(x)
    i = 0
    while i < n:
        w = x * c                     # loop invariant: hoisted
        s = s + w + a - b
        i += 1
    return s


def counter(n):
    total = 0
    for i in tf.range(n):
        if i % 3 == 0:
            total += i
        elif i % 5 == 0:
            total -= 1
    return total


@pytest.mark.parametrize("fn, args", [
    (simplifiable, (np.array([0.5, -1.0, 2.0], np.float32), 4)),
    (simplifiable, (np.array([0.25], np.float32), 0)),
    (counter, (17,)),
    (counter, (0,)),
])
def test_optimized_equals_unoptimized_and_python(fn, args):
    tensors = [tf.constant(a) for a in args]
    fast = tf.function(fn)(*tensors)
    plain = tf.function(fn, optimize=False)(*tensors)
    expected = fn(*args) if fn is counter else _simplifiable_numpy(*args)
    np.testing.assert_array_equal(fast.numpy(), plain.numpy())
    np.testing.assert_allclose(fast.numpy(), expected, rtol=1e-6)
    assert fast.dtype == plain.dtype


def _simplifiable_numpy(x, n):
    s = np.zeros_like(x)
    for _ in range(n):
        s = s + x * np.float32(6.0)
    return s


def test_graph_is_the_traced_graph_and_optimized_graph_is_what_runs():
    f = tf.function(simplifiable)
    concrete = f.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant(3))
    traced = concrete.graph
    assert concrete.traced_graph is traced
    assert concrete.optimized_graph is not traced
    assert concrete._plan.graph is concrete.optimized_graph   # the plan runs the optimized copy
    before = format_graph(traced)
    assert "Mul" in [n.op for n in traced.nodes]               # x * 1.0 as traced
    after = format_graph(concrete.optimized_graph)
    assert after.count("\n") < before.count("\n")
    assert "Tanh" in after and after.count("= Tanh(") == 1     # CSE merged the two tanh
    assert "hoisted" in after                                  # x * c left the loop body
    # the optimizer works on a copy: the traced graph is exactly what tracing made
    assert format_graph(traced) == before
    assert format_graph(optimize_graph(traced)) == after


def test_optimize_false_runs_the_traced_graph():
    f = tf.function(simplifiable, optimize=False)
    concrete = f.get_concrete_function(tf.constant([1.0, 2.0]), tf.constant(3))
    assert concrete.optimized_graph is concrete.graph is concrete.traced_graph
    assert concrete._plan.graph is concrete.graph


def test_runtime_error_in_optimized_graph_names_the_users_line():
    @tf.function
    def pick(x, i):
        y = x * 1.0 + 0.0
        return tf.gather(y, i)  # MARK-gather
    assert float(pick(tf.constant([1.0, 2.0]), tf.constant(1))) == 2.0
    with pytest.raises(InvalidArgumentError) as info:
        pick(tf.constant([1.0, 2.0]), tf.constant(5))
    message = str(info.value)
    assert f"test_function_optimize.py:{_line('MARK-gather')}" in message, message
    assert "GatherV2" in message


def test_error_inside_a_loop_after_hoisting_names_the_users_line():
    @tf.function
    def accumulate(x, n):
        s = tf.zeros([2])
        i = 0
        while i < n:
            w = x * 3.0                    # invariant: hoisted out of the loop
            s += tf.gather(w, i)  # MARK-loop-gather
            i += 1
        return s
    x = tf.constant([1.0, 2.0])
    np.testing.assert_array_equal(accumulate(x, tf.constant(2)).numpy(), [9.0, 9.0])
    concrete = accumulate.get_concrete_function(x, tf.constant(2))
    assert "hoisted" in format_graph(concrete.optimized_graph)
    with pytest.raises(InvalidArgumentError) as info:
        accumulate(x, tf.constant(3))
    assert f"test_function_optimize.py:{_line('MARK-loop-gather')}" in str(info.value)


def test_optimized_nodes_keep_their_origins():
    f = tf.function(simplifiable)
    concrete = f.get_concrete_function(tf.constant([1.0]), tf.constant(1))
    from graph.passes.rewrite import all_graphs
    for g in all_graphs(concrete.optimized_graph):
        for node in g.nodes:
            if node.op not in ("Placeholder",):
                assert node.origin is not None, node
                assert "test_function_optimize.py" in str(node.origin)


def test_stateful_ops_keep_order_and_count_when_optimized():
    v = tf.Variable(1.0)

    @tf.function
    def step(x):
        v.assign(x * 1.0)
        a = v.read_value()
        v.assign_add(2.0)
        b = v.read_value()
        v.assign_add(2.0)             # the same op again: must not be merged
        return a, b, v.read_value()
    a, b, c = step(tf.constant(5.0))
    assert (float(a), float(b), float(c)) == (5.0, 7.0, 9.0)


def test_methods_and_decorator_pass_the_flag_on():
    class Model:
        @tf.function(optimize=False)
        def plain(self, x):
            return x * 1.0

        @tf.function
        def fast(self, x):
            return x * 1.0
    m = Model()
    x = tf.constant([1.0, 2.0])
    plain = m.plain.get_concrete_function(x)
    fast = m.fast.get_concrete_function(x)
    assert plain.optimized_graph is plain.graph
    assert "Mul" not in [n.op for n in fast.optimized_graph.nodes]
    assert "Mul" in [n.op for n in fast.graph.nodes]
    np.testing.assert_array_equal(m.plain(x).numpy(), m.fast(x).numpy())


def test_input_signature_functions_are_optimized_too():
    f = tf.function(lambda x: x * 1.0 + tf.constant(1.0) * 2.0,
                    input_signature=[tf.TensorSpec([None], tf.float32)])
    np.testing.assert_array_equal(f(tf.constant([1.0, 3.0])).numpy(), [3.0, 5.0])
    concrete = f.get_concrete_function()
    assert "Mul" not in [n.op for n in concrete.optimized_graph.nodes]
