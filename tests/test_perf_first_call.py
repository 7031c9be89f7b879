"""The shortcuts that make a first call and a retrace cheaper change nothing observable.

Plans whose generated text is the same share one compiled code object (a retrace for a
new shape usually writes the same text), yet each reports a failing op of its own graph;
the unparser counts lines once at the end and still pairs every statement with its line
(multi-line strings included); the optimizer reuses the graph family its copy found.
Speed itself is measured by ``python -m benchmarks function conversion``, not here.
"""
import numpy as np
import pytest

import autograph as tf
from autograph.converter import conversion, loader
from autograph.converter.unparse import unparse, unparse_with_lines
from graph import executor
from graph.ir import Graph
from graph.passes import all_graphs, copy_graph, optimize
from tests.autograph.test_conversion_internals import _reparse_map


def test_a_retrace_with_the_same_text_shares_the_code_and_keeps_its_own_nodes():
    @tf.function
    def pick(x, i):
        return tf.gather(x * 2.0, i)

    four = tf.constant(np.arange(4, dtype=np.float32))
    five = tf.constant(np.arange(5, dtype=np.float32))
    assert float(pick(four, tf.constant(1))) == 2.0
    assert float(pick(five, tf.constant(4))) == 8.0
    c4 = pick.get_concrete_function(four, tf.constant(1))
    c5 = pick.get_concrete_function(five, tf.constant(4))
    assert c4 is not c5
    assert c4._plan.source == c5._plan.source
    assert c4._plan.fn.__code__ is c5._plan.fn.__code__
    for concrete, x in ((c4, four), (c5, five)):
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            pick(x, tf.constant(7))
        err = info.value
        assert any(err.op is node for node in concrete.optimized_graph.nodes)
        assert "GatherV2" in str(err) and "test_perf_first_call.py" in str(err)


def test_the_code_cache_stays_bounded():
    before = dict(executor._CODE_CACHE)
    try:
        for i in range(executor._CODE_CACHE_SIZE + 3):
            executor._compiled("bounded", f"x = {i}\n")
        assert len(executor._CODE_CACHE) <= executor._CODE_CACHE_SIZE
        code = executor._compiled("bounded", "x = 1000\n")
        assert executor._compiled("bounded", "x = 1000\n") is code
        assert executor._compiled("other", "x = 1000\n") is not code  # names its graph
    finally:
        executor._CODE_CACHE.clear()
        executor._CODE_CACHE.update(before)


def _multiline(x):
    """A docstring
    over two lines."""
    text = """one
two
three"""
    if x > 0:
        y = len(text) + x
    else:
        y = f"""{x}
        """
    return y


def test_lines_counted_at_the_end_equal_reparsing():
    converted = conversion.convert_function(_multiline)
    text, lines = unparse_with_lines(converted.tree)
    assert text == unparse(converted.tree)
    got = {line: origin.line for line, origin in loader.source_map(converted, lines, 1).items()}
    assert got == _reparse_map(converted)
    numbers = [line for line, _ in lines]
    assert numbers == sorted(numbers) and numbers[-1] <= text.count("\n") + 1


def _nested_loops():
    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                for j in tf.range(i):
                    total += j * 1 + 0
            else:
                total -= 1
        return total
    return f


def test_copy_reports_the_family_all_graphs_would_find():
    graph = _nested_loops().get_concrete_function(tf.constant(5)).graph
    family: list = []
    copy = copy_graph(graph, library=False, family=family)
    assert [g.name for g in family] == [g.name for g in all_graphs(copy)]
    assert all(a is b for a, b in zip(family, all_graphs(copy)))


def test_optimize_keeps_exactly_the_reachable_library():
    f = _nested_loops()
    concrete = f.get_concrete_function(tf.constant(5))
    optimized = optimize(concrete.graph)
    reachable = {id(g) for g in all_graphs(optimized)}
    assert all(id(g) in reachable for g in optimized.library.values())
    assert int(f(tf.constant(6))) == (0 + (0 + 1) + (0 + 1 + 2 + 3)) - 3
    dead = Graph("dead")
    concrete.graph.library["dead"] = dead
    try:
        assert "dead" not in optimize(concrete.graph).library
    finally:
        del concrete.graph.library["dead"]
