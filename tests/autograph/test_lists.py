"""Python lists appended to in converted code: plain lists in Python, TensorArrays when staged.

Differential: the converted function staged into a graph (loop bounds and
conditions are placeholders) gives what the plain Python function gives on
Python values; run on Python values it is the plain function, list
identity included. Uses a TensorArray cannot stand for raise errors naming
the list and the user's file:line.
"""
import collections
import inspect
import os
import re

import numpy as np
import pytest

import autograph as tf
from autograph.impl import api
from graph.errors import InvalidArgumentError
from tests.autograph import helpers

LISTS = tf.autograph.experimental.Feature.LISTS  # (TensorFlow converts lists only when asked)


def convert(fn):
    return api.convert(fn, experimental_optional_features=LISTS)


def to_code(fn):
    return api.to_code(fn, experimental_optional_features=LISTS)


def function(fn):
    return tf.function(fn, experimental_autograph_options=LISTS)


def assert_python_same(fn, *args):
    return helpers.assert_python_same(fn, *args, features=LISTS)


def assert_staged_same(fn, *args):
    return helpers.assert_staged_same(fn, *args, features=LISTS)
from tests.staging import staged, trace

HERE = os.path.abspath(__file__)
D = tf.data.Dataset


def where(fn, marker: str) -> str:
    lines, start = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if marker in text:
            return re.escape(f"{HERE}:{start + i}")
    raise AssertionError(marker)


# -- accumulate patterns -----------------------------------------------------------------------

def while_accumulate(n):
    acc = []
    i = 0
    while i < n:
        acc.append(i * 2)
        i += 1
    return tf.stack(acc)


def for_accumulate_floats(n):
    acc = [0.5]
    for i in range(n):
        acc.append(float(i) / 4)
    return tf.reduce_sum(acc), tf.stack(acc)


def tf_range_accumulate_vectors(n):
    rows = []
    for i in tf.range(n):
        rows.append(tf.cast(i, tf.float32) * tf.ones([3]))
    return tf.stack(rows)


def returns_the_list(n):
    acc = [1, 2]
    for i in range(n):
        acc.append(i + 10)
    return acc


def nested_rows(n):
    rows = []
    for i in range(n):
        row = []
        for j in range(3):
            row.append(i * 10 + j)
        rows.append(tf.stack(row))
    return tf.stack(rows)


def nested_both_staged(n):
    acc = [0]
    for i in range(n):
        j = 0
        while j < i:
            acc.append(i * 100 + j)
            j += 1
    return tf.reduce_sum(acc), tf.size(tf.stack(acc))


def python_outer_staged_inner(n):
    acc = []
    for i in range(3):
        for j in range(n):
            acc.append(i + j)
    return tf.stack(acc)


def append_under_staged_if(n):
    evens = []
    for i in range(n):
        if i % 2 == 0:
            evens.append(i)
    return tf.stack(evens)


def append_in_both_branches(n):
    acc = []
    for i in range(n):
        if i % 3 == 0:
            acc.append(i * 10)
        else:
            acc.append(-i)
    return tf.stack(acc)


def append_with_break(n):
    acc = []
    for i in range(n):
        if i * i > 10:
            break
        acc.append(i)
    return tf.stack(acc)


def len_inside_the_loop(n):
    acc = []
    i = 0
    while i < n:
        acc.append(i)
        if len(acc) >= 3:
            break
        i += 1
    return tf.stack(acc), len(acc)


@pytest.mark.parametrize("fn", [while_accumulate, for_accumulate_floats, nested_rows, nested_both_staged, python_outer_staged_inner,
                                append_under_staged_if, append_in_both_branches,
                                append_with_break, len_inside_the_loop])
@pytest.mark.parametrize("n", [1, 4, 6])
def test_staged_equals_python(fn, n):
    assert_staged_same(fn, np.int32(n))


@pytest.mark.parametrize("n", [0, 3])
def test_a_returned_list_is_stacked(n):
    np.testing.assert_array_equal(staged(convert(returns_the_list), np.int32(n)),
                                  np.asarray(returns_the_list(n)))


def test_tf_range_loop_of_vectors():
    got = staged(convert(tf_range_accumulate_vectors), np.int32(3))
    np.testing.assert_array_equal(got, [[0, 0, 0], [1, 1, 1], [2, 2, 2]])
    assert got.dtype == np.float32


def test_loop_that_runs_zero_times_gives_an_empty_tensor():
    got = staged(convert(tf_range_accumulate_vectors), np.int32(0))
    assert got.shape == (0, 3) and got.dtype == np.float32


def test_the_staged_loop_is_one_while_whose_graph_does_not_grow():
    graph, _, _ = trace(convert(while_accumulate), np.int32(5))
    whiles = [n for n in graph.nodes if "While" in n.op]
    assert len(whiles) == 1
    body = [g for g in graph.library.values() if any(n.op == "TensorListSetItem"
                                                     for n in g.nodes)]
    assert body, "the append is a TensorList write inside the loop body"


def test_in_tf_function():
    f = function(while_accumulate)
    np.testing.assert_array_equal(f(tf.constant(4)).numpy(), [0, 2, 4, 6])
    np.testing.assert_array_equal(f(tf.constant(2)).numpy(), [0, 2])
    g = function(returns_the_list)
    np.testing.assert_array_equal(np.asarray(g(tf.constant(2))), [1, 2, 10, 11])


# -- datasets ------------------------------------------------------------------------------------

def dataset_accumulate(n):
    acc = []
    for x in D.range(n):
        acc.append(x * 10)
    return tf.stack(acc)


def dataset_filter_into_list(n):
    kept = []
    for x in D.from_tensor_slices([3, 8, 1, 9, 4]):
        if x > n:
            kept.append(x)
    return tf.stack(kept)


def test_dataset_loop_staged_equals_eager():
    np.testing.assert_array_equal(staged(convert(dataset_accumulate), 4), [0, 10, 20, 30])
    np.testing.assert_array_equal(dataset_accumulate(4).numpy(), [0, 10, 20, 30])
    np.testing.assert_array_equal(staged(convert(dataset_filter_into_list), np.int32(3)),
                                  dataset_filter_into_list(3).numpy())
    np.testing.assert_array_equal(staged(convert(dataset_filter_into_list), np.int32(3)),
                                  [8, 9, 4])


# -- a staged `if` outside loops ------------------------------------------------------------------

def if_appends_on_both_sides(x):
    acc = [x]
    if x > 0:
        acc.append(x + 1)
    else:
        acc.append(x - 1)
    return acc[0] + acc[1] + len(acc)


def if_appends_on_one_side(x):
    acc = []
    if x > 0:
        acc.append(x + 1)
    acc.append(x)
    return tf.reduce_sum(acc)


@pytest.mark.parametrize("x", [-2, 3])
def test_staged_if(x):
    # Same length on both sides: the list stays a Python list of tensors (len, indexing work).
    assert_staged_same(if_appends_on_both_sides, np.int32(x))
    # Lengths differ: staged as a TensorArray.
    assert_staged_same(if_appends_on_one_side, np.int32(x))


def if_branches_do_not_see_each_other(x):
    acc = [0]
    if x > 0:
        acc.append(1)
        n = len(acc)
    else:
        acc.append(2)
        n = len(acc) * 10
    return n, acc[-1]


@pytest.mark.parametrize("x", [-1, 1])
def test_each_branch_appends_to_its_own_copy(x):
    assert_staged_same(if_branches_do_not_see_each_other, np.int32(x))


# -- Python loops keep Python semantics exactly ----------------------------------------------------

def appends_to_argument(items, n):
    for i in range(n):
        items.append(i)
    return len(items)


def alias_sees_appends(n):
    acc = []
    alias = acc
    for i in range(n):
        acc.append(i)
    return alias, alias is acc


GLOBAL_LOG = []


def appends_to_global(n):
    for i in range(n):
        GLOBAL_LOG.append(i)
    return len(GLOBAL_LOG)


def appends_in_closure(n):
    acc = []

    def add(v):
        acc.append(v)
    for i in range(n):
        add(i)
    return acc


def mixed_python_values(n):
    acc = []
    for i in range(n):
        acc.append(i)
        acc.append("s" * i)
        acc.append([i])
    return acc


def appends_to_deque(n):
    d = collections.deque(maxlen=2)
    for i in range(n):
        d.append(i)
    return list(d)


class Recorder:
    def __init__(self):
        self.seen = []

    def append(self, v):
        if v > 1:
            self.seen.append(v)


def appends_to_user_object(n):
    r = Recorder()
    for i in range(n):
        r.append(i)
    return r.seen


def test_python_semantics_unchanged():
    items = [7]
    assert convert(appends_to_argument)(items, 3) == 4
    assert items == [7, 0, 1, 2]  # the caller's list, appended in place
    for fn in (alias_sees_appends, appends_in_closure, mixed_python_values, appends_to_deque,
               appends_to_user_object):
        assert_python_same(fn, 4)
    GLOBAL_LOG.clear()
    assert convert(appends_to_global)(3) == 3 and GLOBAL_LOG == [0, 1, 2]


def test_to_code_shows_the_list_as_state():
    code = to_code(while_accumulate)
    assert "acc = ag__.list_append(acc, i * 2)" in code
    assert "lists=('acc',)" in code
    # Only locals are rebound: a global list keeps its method call.
    assert "list_append" not in to_code(appends_to_global)
    assert "list_append" not in to_code(appends_in_closure).split("def add")[0]


# -- uses a TensorArray cannot stand for: errors naming the list and the line ---------------------

def index_in_loop(n):
    acc = [0]
    for i in range(n):
        acc.append(acc[-1] + i)  # the-index
    return tf.stack(acc)


def iterate_in_loop(n):
    acc = []
    total = 0
    for i in range(n):
        acc.append(i)
        for v in acc:  # the-iteration
            total += v
    return total


def mixed_dtypes(n):
    acc = []
    for i in range(n):
        acc.append(i)
        acc.append(1.5)  # the-float
    return tf.stack(acc)


def mixed_shapes(n):
    acc = [tf.zeros([2])]
    for i in range(n):
        acc.append(tf.zeros([3]))  # the-shape
    return tf.stack(acc)


def truth_after_loop(n):
    acc = []
    for i in range(n):
        acc.append(i)
    if acc:  # the-truth
        return 1
    return 0


def pop_in_loop(n):
    acc = [1]
    for i in range(n):
        acc.append(i)
        acc.pop()  # the-pop
    return tf.stack(acc)


def unstageable_start(n):
    acc = [1, "two"]
    for i in range(n):  # the-loop
        acc.append(i)
    return acc


@pytest.mark.parametrize("fn, marker, error, words", [
    (index_in_loop, "the-index", TypeError, "Indexing list 'acc'"),
    (iterate_in_loop, "the-iteration", TypeError, "Iterating over list 'acc'"),
    (mixed_dtypes, "the-float", InvalidArgumentError, "append 1.5 to list 'acc'"),
    (mixed_shapes, "the-shape", ValueError, "to list 'acc'"),
    (truth_after_loop, "the-truth", TypeError, "truth of list 'acc'"),
    (pop_in_loop, "the-pop", TypeError, "pop() on list 'acc'"),
    (unstageable_start, "the-loop", TypeError, "List 'acc'"),
])
def test_unsupported_uses_name_the_list_and_line(fn, marker, error, words):
    with pytest.raises(error) as info:
        staged(convert(fn), np.int32(3))
    msg = str(info.value)
    assert words in msg
    assert "TensorArray" in msg
    assert re.search(where(fn, marker), msg), msg
    # the same function on Python values is plain Python
    try:
        expected = fn(3)
    except Exception as e:  # noqa: BLE001
        expected = type(e)
    try:
        got = convert(fn)(3)
    except Exception as e:  # noqa: BLE001
        got = type(e)
    if isinstance(expected, type):
        assert isinstance(got, type) and issubclass(got, expected)
    else:
        np.testing.assert_array_equal(np.asarray(got), np.asarray(expected))


# -- a staged `if` whose branches append different numbers of items is traced once ------------

TRACED = []


def if_appends_unevenly(x):
    acc = [x]
    if x > 0:
        print("tracing the true branch")
        TRACED.append("true")
        acc.append(x + 1)
        acc.append(x + 2)
    else:
        print("tracing the false branch")
        TRACED.append("false")
        acc.append(x - 1)
    return tf.reduce_sum(acc) * 10 + tf.size(tf.stack(acc))


def if_appends_evenly(x):
    acc = []
    if x > 0:
        print("tracing the true branch")
        TRACED.append("true")
        acc.append(x + 1)
    else:
        print("tracing the false branch")
        TRACED.append("false")
        acc.append(x - 1)
    return acc[0] * len(acc)


def if_false_branch_appends_more(x):
    acc = []
    if x > 0:
        print("tracing the true branch")
        TRACED.append("true")
    else:
        print("tracing the false branch")
        TRACED.append("false")
        acc.append(x - 1)
        acc.append(x - 2)
    acc.append(x)
    return tf.reduce_sum(acc)


def if_nested_staged_if(x):
    acc = [x]
    if x > 0:
        print("tracing the true branch")
        TRACED.append("true")
        if x > 5:  # stages acc inside the true branch
            acc.append(x * 2)
    else:
        print("tracing the false branch")
        TRACED.append("false")
        acc.append(x - 1)
        acc.append(x - 1)
    return tf.reduce_sum(acc)


def _sub_graphs(graph) -> list:
    found, stack = [], [graph]
    while stack:
        for node in stack.pop().nodes:
            for value in node.attrs.values():
                if hasattr(value, "nodes") and value not in found:
                    found.append(value)
                    stack.append(value)
    return found


@pytest.mark.parametrize("fn", [if_appends_unevenly, if_appends_evenly,
                                if_false_branch_appends_more, if_nested_staged_if])
def test_staged_if_appending_to_a_list_is_traced_once(fn, capsys):
    TRACED.clear()
    f = function(fn)
    f(tf.constant(3))
    out = capsys.readouterr().out
    assert out.count("tracing the true branch") == 1 and out.count("tracing the false branch") \
        == 1, out
    assert TRACED == ["true", "false"]
    f(tf.constant(-3))  # same signature: no trace
    assert capsys.readouterr().out == "" and TRACED == ["true", "false"]
    graph = f.get_concrete_function(tf.constant(3)).graph
    (node,) = [n for n in graph.nodes if n.op in ("If", "StatelessIf")]
    assert node.name == "cond"  # not cond_1: no earlier attempt
    assert sorted(g.name for g in _sub_graphs(graph)) == sorted(graph.library)
    for x in (-3, 0, 3, 7):
        assert_staged_same(fn, np.int32(x))
