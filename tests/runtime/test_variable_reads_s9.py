"""Repeated variable reads in an optimized trace (graph/passes/variable_reads.py): merged when
no op between them can write the variable, kept apart when one can; values always those of
the unoptimized trace (the program order of reads and assignments)."""
import numpy as np
import pytest

import runtime as rt
from runtime.function import Function


def _reads(concrete) -> int:
    return sum(n.op == "ReadVariableOp" for n in concrete.optimized_graph.nodes)


def _both(fn, *args):
    """``fn`` traced optimized and not (on fresh variables each): results and the optimized
    trace."""
    results = []
    for optimize in (True, False):
        f = Function(fn(), optimize=optimize)
        results.append([np.asarray(v).tolist() for v in rt.nest.flatten(f(*args))])
        if optimize:
            concrete = f.get_concrete_function(*args)
    assert results[0] == results[1]
    return results[0], concrete


def test_reads_with_no_write_between_are_one_read():
    def make():
        v = rt.Variable(2.0)
        return lambda x: (v * x + v * x, v.read_value() + 1.0)
    values, concrete = _both(make, rt.constant(3.0))
    assert values == [12.0, 3.0] and _reads(concrete) == 1


def test_a_write_between_keeps_the_reads_apart():
    def make():
        v, w = rt.Variable(2.0), rt.Variable(5.0)

        def f(x):
            a = v * x
            w.assign(1.0)            # another variable: the reads of v still merge
            b = v * x
            v.assign_add(x)          # v itself: the next read sees the new value
            return a + b, v * x, w + 0.0
        return f
    values, concrete = _both(make, rt.constant(3.0))
    assert values == [12.0, 15.0, 1.0]
    assert _reads(concrete) == 3  # v before and after its assignment, w


def test_an_op_that_may_write_any_variable_keeps_the_reads_apart():
    def make():
        v = rt.Variable(1.0)

        def bump(x):
            v.assign_add(10.0)
            return x

        def f(x):
            a = v + 0.0
            y = rt.py_function(bump, [x], rt.float32)  # writes v, unseen by the pass
            return a, v + y
        return f
    values, _ = _both(make, rt.constant(1.0))
    assert values == [1.0, 12.0]


def test_a_read_nobody_uses_is_not_run():
    def make():
        v = rt.Variable(1.0)

        def f(x):
            v.read_value()  # unused
            v.assign_add(x)  # (in a graph, an assignment also records a read it returns)
            return x * 2.0
        return f
    values, concrete = _both(make, rt.constant(3.0))
    assert values == [6.0]
    from graph.executor import schedule
    scheduled = schedule(concrete.optimized_graph, concrete.optimized_graph.outputs)
    assert not any(n.op == "ReadVariableOp" for n in scheduled)


@pytest.mark.parametrize("n", [0, 1, 4])
def test_reads_in_a_loop_body_around_assignments(n):
    def make():
        v = rt.Variable(1.0)

        def f(k):
            total = rt.constant(0.0)
            for _ in rt.range(k):
                total += v * 2.0 + v
                v.assign_add(1.0)
                total += v
            return total, v + 0.0
        return f
    from autograph.impl.api import convert
    values, _ = _both(lambda: convert(make()), rt.constant(n))
    expected, value = 0.0, 1.0
    for _ in range(n):
        expected += value * 3.0
        value += 1.0
        expected += value
    assert values == [expected, value]
