"""Counted While loops (``for i in tf.range(...)``) run as a ``for`` over the counter's values.

The generated code iterates an ``arange`` instead of comparing and
incrementing the counter (graph/executor.py ``_counted_loop``); these tests
check it against eager execution and the interpreter, including the edges:
no iterations, a step that is not positive, a counter read after the loop,
chunked long ranges, 64-bit and wrapping counters.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
import runtime as rt
from graph import compile_graph
from graph.errors import InvalidArgumentError
from graph.executor import CountedRange
from tests.staging import assert_same, trace


def _counted():
    def fn(s, n, d):
        def body(i, acc):
            return i + d, acc * 3 + i
        return rt.while_loop(lambda i, acc: i < n, body, [s, s * 0])
    return fn


@pytest.mark.parametrize("start, limit, step", [
    (0, 10, 1), (3, 3, 1), (5, 2, 1), (-7, 20, 3), (0, 10, 4), (2, 4100, 1), (0, 9001, 7),
])
def test_counted_loops_equal_eager_and_the_interpreter(start, limit, step):
    for dtype in (np.int32, np.int64):
        args = [dtype(start), dtype(limit), dtype(step)]
        assert_same(_counted(), *args)


def test_the_generated_loop_is_a_for_statement_without_the_counter_arithmetic():
    graph, _, _ = trace(_counted(), np.int32(0), np.int32(10), np.int32(1))
    source = compile_graph(graph).source
    assert "for " in source and "while True" not in source
    assert source.count(" < ") == 0


def test_a_step_that_is_not_positive_runs_the_loops_own_arithmetic():
    values = CountedRange(np.int32(5), np.int32(3), np.int32(-1), np.dtype(np.int32))
    assert list(values.values) == [] and values.end == 5
    values = CountedRange(np.int8(-127), np.int8(-126), np.int8(-1), np.dtype(np.int8))
    with np.errstate(over="ignore"):
        seen = list(values.values)  # wraps from -128 to 127 and stops, as the loop does
    assert seen == [-127, -128] and values.end == 127 and values.end.dtype == np.int8


def test_the_counter_ends_where_the_loop_would_leave_it():
    for start, limit, step in [(0, 10, 3), (0, 9, 3), (4, 4, 1), (9, 1, 2), (0, 10000, 1)]:
        r = CountedRange(np.int32(start), np.int32(limit), np.int32(step), np.dtype(np.int32))
        values = [int(v) for v in r.values]
        assert values == list(range(start, limit, step))
        i = start
        while i < limit:
            i += step
        assert int(r.end) == i and type(r.end) in (np.int32, type(np.int32(start)))
    top = np.iinfo(np.int32).max  # the last increment wraps, as the int32 counter's would
    r = CountedRange(np.int32(top - 2), np.int32(top), np.int32(5), np.dtype(np.int32))
    assert [int(v) for v in r.values] == [top - 2]
    with np.errstate(over="ignore"):
        assert r.end == np.int32(top - 2) + np.int32(5)


def test_a_function_reading_the_counter_after_the_loop():
    @tf.function
    def f(n):
        i = tf.constant(0)
        total = tf.constant(0)
        while i < n:
            total += i
            i += 2
        return i, total

    for n in (0, 1, 7, 8):
        i, total = f(tf.constant(n))
        expected_i = 0
        expected_total = 0
        while expected_i < n:
            expected_total += expected_i
            expected_i += 2
        assert (int(i), int(total)) == (expected_i, expected_total)
        assert i.dtype == tf.int32


def test_a_float_counter_is_left_a_while_loop():
    def fn(n):
        return rt.while_loop(lambda x: x < n, lambda x: x + 0.1, [rt.constant(0.0)])
    graph, _, _ = trace(fn, np.float32(1.0))
    assert "while True" in compile_graph(graph).source
    assert_same(fn, np.float32(1.0))


# -- results written straight into the slots they end in ---------------------------------

def _fizzbuzz(n):
    fizz = 0
    buzz = 0
    fizzbuzz = 0
    for i in tf.range(1, n + 1):
        if i % 15 == 0:
            fizzbuzz += 1
        elif i % 3 == 0:
            fizz += 1
        elif i % 5 == 0:
            buzz += 1
    return fizz, buzz, fizzbuzz


def test_fizzbuzz_compiles_to_the_hand_written_loop_without_moves():
    f = tf.function(_fizzbuzz)
    n = tf.constant(100)
    assert [int(v) for v in f(n)] == [27, 14, 6]
    source = f.get_concrete_function(n)._plan.source
    loop = source[source.index("for "):source.index(".end")].splitlines()[:-1]  # (not `i = r.end`)
    moves = [line for line in loop
             if " = " in line and line.split(" = ")[1].strip().isidentifier()]
    assert moves == [], source


def _swapping(x, y, n):
    def body(i, a, b):
        a, b = rt.cond(a > b, lambda: (b, a + 1), lambda: (a * 2, b))
        return i + 1, b, a  # the loop also swaps
    return rt.while_loop(lambda i, a, b: i < n, body, [rt.constant(0), x, y])


def _same_value_twice(x, n):
    def body(i, a):
        p, q = rt.cond(i % 2 == 0, lambda: (a + 1, a), lambda: (a, a - 1))
        return i + 1, p * 3 + q
    return rt.while_loop(lambda i, a: i < n, body, [rt.constant(0), x])


def _predicate_as_data(x, n):
    def body(i, a):
        c = a > 4
        r, d = rt.cond(c, lambda: (a - 3, rt.logical_not(c)), lambda: (a + 2, c))
        return i + 1, r + rt.cast(d, a.dtype)
    return rt.while_loop(lambda i, a: i < n, body, [rt.constant(0), x])


def _nested_passes(x, y, n):
    def body(i, a, b):
        def outer_true():
            return rt.cond(b > 3, lambda: (b, a), lambda: (a + b, b - 1))
        a, b = rt.cond(a < 10, outer_true, lambda: (a - 7, b + a))
        return i + 1, a, b
    out = rt.while_loop(lambda i, a, b: i < n, body, [rt.constant(0), x, y])
    return out, x + y  # the inputs stay readable after the loop


@pytest.mark.parametrize("fn, args", [
    (_swapping, (np.int32(3), np.int32(5), np.int32(9))),
    (_same_value_twice, (np.int32(2), np.int32(7))),
    (_predicate_as_data, (np.int32(1), np.int32(8))),
    (_nested_passes, (np.int32(1), np.int32(2), np.int32(12))),
])
def test_results_written_into_dying_slots_equal_eager_and_the_interpreter(fn, args):
    assert_same(fn, *args)


# -- x[i] of a counted loop's counter: one range test before the loop ------------------

def _gather_rows(x, start, n):
    def body(i, acc):
        return i + 1, acc + x[i] * rt.cast(i, x.dtype)
    return rt.while_loop(lambda i, acc: i < n, body, [start, x[0] * 0])


@pytest.mark.parametrize("start, n", [(0, 5), (-5, 5), (2, 4), (3, 3)])
def test_rows_indexed_by_the_counter_equal_eager_and_the_interpreter(start, n):
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    assert_same(_gather_rows, x, np.int32(start), np.int32(n))
    graph, _, _ = trace(_gather_rows, x, np.int32(start), np.int32(n))
    source = compile_graph(graph).source
    assert ".within(5)" in source and "<= v" not in source, source


@pytest.mark.parametrize("start, n", [(0, 6), (-6, 2)])
def test_a_counter_leaving_the_dimension_raises_tensorflows_error(start, n):
    x = np.arange(15, dtype=np.float32).reshape(5, 3)
    graph, _, feeds = trace(_gather_rows, x, np.int32(start), np.int32(n))
    for backend in ("codegen", "interpret"):
        with pytest.raises(InvalidArgumentError, match="out of bounds|out of range"):
            compile_graph(graph, backend=backend)(*feeds)


def test_within_is_false_when_the_range_is_not_known():
    assert CountedRange(np.int32(0), np.int32(4), np.int32(1), np.dtype(np.int32)).within(4)
    assert not CountedRange(np.int32(0), np.int32(5), np.int32(1), np.dtype(np.int32)).within(4)
    assert not CountedRange(np.int32(-5), np.int32(0), np.int32(1), np.dtype(np.int32)).within(4)
    assert CountedRange(np.int32(-4), np.int32(0), np.int32(1), np.dtype(np.int32)).within(4)
    assert CountedRange(np.int32(9), np.int32(0), np.int32(1), np.dtype(np.int32)).within(4)
    assert not CountedRange(np.int32(0), np.int32(1), np.int32(0), np.dtype(np.int32)).within(4)
