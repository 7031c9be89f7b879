"""TensorArray: eager == staged, static shapes after loops, errors, cost of many writes."""
import time

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

import runtime as rt
from graph import Graph, compile_graph
from graph.errors import InvalidArgumentError
from graph.ops.tensor_array import PersistentVector
from runtime import context
from runtime.tensor_array import StagedList, TensorArray, list_append
from tests.staging import assert_same, staged, trace


# -- the persistent vector under the flow ---------------------------------------------

@settings(max_examples=60, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 2000), st.integers()), max_size=60),
       st.integers(0, 100))
def test_persistent_vector_matches_a_list_and_keeps_old_versions(writes, shrink):
    vec, model, versions = PersistentVector(), [], []
    for i, v in writes:
        vec = vec.set(i, v)
        model += [None] * (i + 1 - len(model))
        model[i] = v
        versions.append((vec, list(model)))
    for old, expected in versions:  # every old version still reads its own contents
        assert old.to_list() == expected
        assert [old.get(k) for k in range(len(expected))] == expected
    smaller = vec.resized(max(0, len(model) - shrink))
    assert smaller.to_list() == model[:smaller.size]
    grown = smaller.resized(len(model))
    assert grown.to_list() == model[:smaller.size] + [None] * (len(model) - smaller.size)
    assert PersistentVector.from_list(model).to_list() == model


# -- eager and staged agree --------------------------------------------------------------

def _accumulate(x, n):
    ta = TensorArray(rt.float32, size=n, clear_after_read=False)

    def body(i, ta, s):
        s = s * 0.5 + x
        return i + 1, ta.write(i, s), s
    _, ta, _ = rt.while_loop(lambda i, ta, s: i < n, body, [0, ta, x * 0.0])
    return ta.stack(), ta.size(), ta.read(n - 1), ta.gather([0, n - 1])


def test_loop_writes_eager_equals_staged_and_stack_has_static_shape():
    x = np.arange(6, dtype=np.float32).reshape(2, 3)
    assert_same(_accumulate, x, 7)
    graph, result, _ = trace(_accumulate, x, 7)
    assert result[0].shape == rt.TensorShape([7, 2, 3])  # learned inside the loop body
    assert result[2].shape == rt.TensorShape([2, 3])


def test_dynamic_size_grows_in_a_staged_loop():
    def f(n):
        ta = TensorArray(rt.int32, size=0, dynamic_size=True)
        _, ta = rt.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i * i)),
                              [0, ta])
        return ta.stack()
    assert_same(f, np.int32(5))
    np.testing.assert_array_equal(staged(f, np.int32(5)), [0, 1, 4, 9, 16])
    graph, result, _ = trace(f, np.int32(5))
    assert result.shape.as_list() == [None]


def test_tensor_array_through_cond_and_old_flows_keep_their_contents():
    def f(flag):
        ta = TensorArray(rt.float32, size=2)
        first = ta.write(0, 1.0)
        second = first.write(0, 2.0)
        chosen = rt.cond(flag, lambda: second.write(1, 5.0), lambda: first.write(1, 7.0))
        return chosen.stack(), first.read(0)
    for flag in (np.bool_(True), np.bool_(False)):
        s = staged(f, flag)
        np.testing.assert_array_equal(s[0], [2.0, 5.0] if flag else [1.0, 7.0])
        assert s[1] == 1.0


def test_unstack_scatter_concat_split_eager_equals_staged():
    def f(x):
        a = TensorArray(rt.float32, size=3, clear_after_read=False).unstack(x)
        b = TensorArray(rt.float32, size=4).scatter([3, 0], rt.stack([x[1], x[0]]))
        c = TensorArray(rt.float32, size=0, dynamic_size=True).split(
            rt.reshape(x, [6]), rt.constant([1, 2, 3], rt.int64))
        return a.stack(), a.read(2), b.stack(), c.concat(), a.concat(), c.size()
    x = np.arange(6, dtype=np.float32).reshape(3, 2)
    e = assert_same(f, x)
    np.testing.assert_array_equal(e[2], [x[0], [0, 0], [0, 0], x[1]])  # unwritten reads as 0
    np.testing.assert_array_equal(e[3], np.arange(6))
    assert e[5] == 3


def test_eager_write_updates_in_place_and_clear_after_read():
    ta = TensorArray(rt.int32, size=2)
    ta.write(0, 4)  # eagerly the TensorArray itself changes, as in TensorFlow
    assert ta.read(0).numpy() == 4
    with pytest.raises(InvalidArgumentError, match="read index 0 twice because it was cleared"):
        ta.read(0)
    with pytest.raises(InvalidArgumentError, match="read index 0 twice"):
        ta.stack()  # TensorFlow gives zeros here; an error is the honest answer
    keep = TensorArray(rt.int32, size=1, clear_after_read=False).write(0, 3)
    assert keep.read(0).numpy() == 3 and keep.read(0).numpy() == 3


def test_eager_tensor_array_captured_by_a_graph():
    ta = TensorArray(rt.float32, size=2, clear_after_read=False).write(0, 1.0).write(1, 2.0)
    assert_same(lambda y: ta.stack() * y, np.float32(3.0))


def test_ten_thousand_writes_in_a_staged_loop_are_cheap():
    def f(n):
        ta = TensorArray(rt.int32, size=n)
        _, ta = rt.while_loop(lambda i, ta: i < n, lambda i, ta: (i + 1, ta.write(i, i)), [0, ta])
        return rt.reduce_sum(ta.stack())
    graph, _, _ = trace(f, np.int32(10_000))
    plan = compile_graph(graph)
    start = time.perf_counter()
    (total,) = plan(np.int32(10_000))
    assert total == sum(range(10_000))
    assert time.perf_counter() - start < 2.0


def test_dynamic_rnn_over_100_steps_is_one_while_node():
    def dynamic_rnn(input_data, initial_state):
        input_data = rt.transpose(input_data, [1, 0, 2])
        n = input_data.shape[0]
        states = TensorArray(rt.float32, size=n)

        def body(i, state, states):
            state = input_data[i] + state
            return i + 1, state, states.write(i, state)
        _, _, states = rt.while_loop(lambda i, s, ta: i < n, body, [0, initial_state, states])
        return rt.transpose(states.stack(), [1, 0, 2])
    x = np.random.default_rng(0).random((2, 100, 4)).astype(np.float32)
    h = np.zeros((2, 4), np.float32)
    out = assert_same(dynamic_rnn, x, h, rtol=1e-5)
    np.testing.assert_allclose(out, np.cumsum(x, axis=1), rtol=1e-5)
    graph, result, _ = trace(dynamic_rnn, x, h)
    assert [n.op for n in graph.nodes].count("StatelessWhile") == 1
    assert not any(n.op.endswith("While") for g in graph.library.values() for n in g.nodes)
    assert result.shape == rt.TensorShape([2, 100, 4])


# -- StagedList: what a list appended to in a staged loop becomes ------------------------

def test_staged_list_learns_its_dtype_in_the_loop_body():
    def f(n):
        acc = StagedList.from_list([], "acc")

        def body(i, acc):
            return i + 1, list_append(acc, rt.cast(i, rt.float32) * 2.0)
        _, acc = rt.while_loop(lambda i, acc: i < n, body, [0, acc])
        return rt.convert_to_tensor(acc)
    np.testing.assert_array_equal(staged(f, np.int32(4)), [0.0, 2.0, 4.0, 6.0])
    graph, result, _ = trace(f, np.int32(4))
    assert result.dtype == rt.float32 and result.shape.as_list() == [None]


def test_staged_list_errors_name_the_list():
    graph = Graph("g")
    with context.building(graph):
        lst = StagedList.from_list([1, 2], "scores")
        with pytest.raises(TypeError, match="len\\(\\) of list 'scores'"):
            len(lst)
        with pytest.raises(InvalidArgumentError, match="Cannot append to list 'scores'.*"
                                                       "TensorArray dtype is int32"):
            lst.append(1.5)
        with pytest.raises(ValueError, match="list 'scores'.*incompatible"):
            lst.append([1, 2])


# -- errors ----------------------------------------------------------------------------------

def test_write_errors_say_what_is_wrong():
    ta = TensorArray(rt.float32, size=2)
    with pytest.raises(InvalidArgumentError, match="TensorArray dtype is float32 but Op is "
                                                   "trying to write dtype int32"):
        ta.write(0, rt.constant(1))
    ta.write(0, [1.0, 2.0])
    with pytest.raises(ValueError, match="incompatible with the TensorArray's inferred element "
                                         "shape: \\(2,\\)"):
        ta.write(1, [1.0, 2.0, 3.0])
    with pytest.raises(rt.errors.OutOfRangeError, match="not resizeable and size is: 2"):
        ta.write(5, [0.0, 0.0])  # (TensorFlow's error class when it runs eagerly)
    with pytest.raises(ValueError, match="Size must be provided"):
        TensorArray(rt.float32)


def test_runtime_errors_in_a_graph():
    def out_of_bounds(i):
        return TensorArray(rt.float32, size=2).write(i, 1.0).stack()
    graph, _, feeds = trace(out_of_bounds, np.int32(3))
    for backend in ("codegen", "interpret"):
        with pytest.raises(InvalidArgumentError, match="index 3 but array is not resizeable"):
            compile_graph(graph, backend=backend)(np.int32(3))

    def unknown_shape(n):
        return TensorArray(rt.float32, size=n).stack()
    graph, _, _ = trace(unknown_shape, np.int32(2))
    with pytest.raises(InvalidArgumentError, match="no written element.*not fully defined"):
        compile_graph(graph)(np.int32(2))
    # (eagerly, as in TensorFlow, an empty list stacks to shape [0] whatever its element shape)
    assert TensorArray(rt.float32, size=0).stack().shape == rt.TensorShape([0])
    assert TensorArray(rt.float32, size=0, element_shape=[3]).stack().shape == rt.TensorShape(
        [0, 3])


def test_guide_dynamic_rnn_with_tf_function():
    import autograph as tf

    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]
        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    x = tf.random.uniform([2, 100, 4])
    out = dynamic_rnn(rnn_step, x, tf.zeros([2, 4]))
    assert out.shape == rt.TensorShape([2, 100, 4])
    np.testing.assert_allclose(out.numpy(), np.cumsum(x.numpy(), axis=1), rtol=1e-5)
    graph = dynamic_rnn.get_concrete_function(rnn_step, x, tf.zeros([2, 4])).graph
    assert sum(n.op.endswith("While") for n in graph.nodes) == 1
    assert not any(n.op.endswith("While") for g in graph.library.values() for n in g.nodes)
