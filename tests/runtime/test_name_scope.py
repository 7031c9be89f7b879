"""``tf.name_scope``: eager scope strings, node names in traced graphs and control flow bodies."""
import threading

import numpy as np
import pytest

import autograph as tf
from graph import Graph
from runtime import context
from runtime.name_scope import current_eager_scope, name_scope_v1
from tests.staging import trace


def names(graph):
    return [n.name for n in graph.nodes]


def f32(*shape):
    return np.ones(shape, np.float32)


# -- eagerly: a nested string, nothing made unique ----------------------------------------

def test_eager_scope_strings_nest_and_are_not_made_unique():
    with tf.name_scope("a") as a:
        assert a == "a/"
        with tf.name_scope("b") as b:
            assert b == "a/b/"
            assert current_eager_scope() == "a/b/"
        with tf.name_scope("b") as b2:
            assert b2 == "a/b/"  # eagerly nothing is made unique
        with tf.name_scope("") as top:
            assert top == ""
        with tf.name_scope("x/y/") as absolute:
            assert absolute == "x/y/"
            with tf.name_scope("z") as z:
                assert z == "x/y/z/"
    assert current_eager_scope() == ""
    with tf.name_scope("a") as again:
        assert again == "a/"


def test_eager_scope_is_restored_after_an_error_and_ops_still_run():
    with pytest.raises(RuntimeError):
        with tf.name_scope("a"):
            assert (tf.constant(1) + 1).numpy() == 2
            raise RuntimeError("boom")
    assert current_eager_scope() == ""


def test_eager_scope_is_per_thread():
    seen = []

    def other():
        seen.append(current_eager_scope())

    with tf.name_scope("main"):
        t = threading.Thread(target=other)
        t.start()
        t.join()
    assert seen == [""]


@pytest.mark.parametrize("bad", [None, 1, b"a", ["a"]])
def test_a_name_that_is_not_a_string_is_a_value_error(bad):
    with pytest.raises(ValueError, match="name for name_scope must be a string"):
        tf.name_scope(bad)


def test_eager_names_are_not_checked_as_tensorflow_does_not():
    with tf.name_scope("-odd name") as s:
        assert s == "-odd name/"


def test_name_property_and_one_object_entered_twice():
    scope = tf.name_scope("s")
    assert scope.name == "s"
    g = Graph("g")
    with context.building(g):
        with scope as first:
            with scope as second:  # re-entrant: each entry restores its own state
                pass
        assert (first, second) == ("s/", "s/s/")
        assert g.name_stack == ""


# -- in a graph: TensorFlow's names ------------------------------------------------------------

def test_nested_scopes_prefix_node_names():
    def f(x):
        with tf.name_scope("outer") as outer:
            with tf.name_scope("inner") as inner:
                y = tf.add(x, x)
                z = tf.identity(y, name="result")
        return outer, inner, z
    g, (outer, inner, _), _ = trace(f, f32(2))
    assert (outer, inner) == ("outer/", "outer/inner/")
    assert "outer/inner/Add" in names(g) and "outer/inner/result" in names(g)


def test_a_scope_entered_again_is_made_unique_and_a_trailing_slash_reenters_it():
    def f(x):
        with tf.name_scope("a") as first:
            y = tf.add(x, x)
        with tf.name_scope("a") as second:
            y = tf.add(y, x)
        with tf.name_scope(first) as again:  # "a/": the same scope, names made unique
            y = tf.add(y, x)
        with tf.name_scope("a/b/") as absolute:
            y = tf.add(y, x)
        return first, second, again, absolute, y
    g, (first, second, again, absolute, _), _ = trace(f, f32(2))
    assert (first, second, again, absolute) == ("a/", "a_1/", "a/", "a/b/")
    n = names(g)
    assert ["a/Add", "a_1/Add", "a/Add_1", "a/b/Add"] == [m for m in n if m.endswith(("Add", "Add_1"))]


def test_empty_name_resets_to_the_top_level():
    def f(x):
        with tf.name_scope("a"):
            with tf.name_scope("") as top:
                y = tf.add(x, x)
        return top, y
    g, (top, _), _ = trace(f, f32(2))
    assert top == "" and "Add" in names(g)


def test_scope_and_node_names_share_one_namespace():
    def f(x):
        y = tf.identity(x, name="a")
        with tf.name_scope("a") as s:
            y = tf.identity(y, name="b")
        z = tf.identity(y, name="a")
        return s, z
    g, (s, _), _ = trace(f, f32(2))
    assert s == "a_1/"
    assert names(g)[1:4] == ["a", "a_1/b", "a_2"]


def test_names_are_unique_regardless_of_case_as_in_tensorflow():
    def f(x):
        y = x + x  # "add"
        with tf.name_scope("ADD") as s:
            pass
        return s, tf.add(y, x)  # "Add"
    g, (s, _), _ = trace(f, f32(2))
    assert s == "ADD_1/"
    assert "add" in names(g) and "Add_2" in names(g)


def test_constants_made_for_an_op_are_named_under_its_scope():
    def f(x):
        with tf.name_scope("s"):
            return x > 0
    g, _, _ = trace(f, f32(2))
    assert names(g)[1:] == ["s/Greater/y", "s/Greater"]


@pytest.mark.parametrize("bad", ["-a", "_a", "a b", "/a", "a:b"])
def test_invalid_names_at_the_top_level_raise_value_error(bad):
    def f(x):
        with tf.name_scope(bad):
            return x
    with pytest.raises(ValueError, match="is not a valid scope name"):
        trace(f, f32(1))


def test_a_nested_scope_may_start_with_an_underscore_or_dash():
    def f(x):
        with tf.name_scope("a"):
            with tf.name_scope("_b") as b, tf.name_scope("-c") as c:
                return b, c
    _, (b, c), _ = trace(f, f32(1))
    assert (b, c) == ("a/_b/", "a/_b/-c/")

    def spaced(x):
        with tf.name_scope("a"):
            with tf.name_scope("b c"):
                return x
    with pytest.raises(ValueError, match="is not a valid scope name"):
        trace(spaced, f32(1))


def test_graph_scope_is_restored_after_an_error():
    g = Graph("g")
    with context.building(g):
        with pytest.raises(KeyError):
            with tf.name_scope("a"):
                raise KeyError
        assert g.name_stack == ""
        assert tf.identity(tf.constant(1.0)).name.startswith("Identity")


# -- control flow bodies share the root's names ---------------------------------------------------

def test_scopes_inside_cond_branches_and_around_a_cond():
    def f(x):
        with tf.name_scope("outer"):
            def true_fn():
                with tf.name_scope("t") as s:
                    assert s == "outer/cond/t/"
                    return tf.add(x, x)
            return tf.cond(tf.reduce_sum(x) > 0, true_fn, lambda: tf.identity(x))
    g, _, _ = trace(f, f32(2))
    assert "outer/cond" in names(g)
    node = g.get_node("outer/cond")
    assert "outer/cond/t/Add" in names(node.attrs["then_branch"])
    assert any(n.startswith("outer/cond/Identity") for n in names(node.attrs["else_branch"]))


def test_scopes_inside_a_while_body():
    def f(x):
        def body(i, v):
            with tf.name_scope("step") as s:
                assert s.startswith("while/step")
                return i + 1, tf.add(v, v)
        return tf.while_loop(lambda i, v: i < 3, body, [tf.constant(0), x])
    g, _, _ = trace(f, f32(2))
    body = g.get_node("while").attrs["body"]
    assert {"while/step/add", "while/step/Add_1"} <= set(names(body))


def test_a_scope_in_a_tf_function_names_its_nodes_and_runs():
    @tf.function
    def f(x):
        with tf.name_scope("block") as s:
            y = tf.multiply(x, 2.0, name="double")
        return y, tf.constant(s)
    y, s = f(tf.constant(3.0))
    assert y.numpy() == 6.0 and s.numpy() == b"block/"
    graph = f.get_concrete_function(tf.constant(3.0)).graph
    assert "block/double" in names(graph)


def test_a_function_traced_inside_an_eager_scope_starts_at_the_top_level():
    @tf.function
    def f(x):
        with tf.name_scope("inner") as s:
            return tf.identity(x), tf.constant(s)
    with tf.name_scope("eager_outer"):
        _, s = f(tf.constant(1.0))
    assert s.numpy() == b"inner/"


def test_staged_control_flow_and_returns_inside_name_scopes():
    @tf.function
    def f(x):
        with tf.name_scope(""):
            if x > 0:
                with tf.name_scope("pos"):
                    if x < 5:
                        return x
                    return x * x
            else:
                return x * x * x

    assert f(tf.constant(2)).numpy() == 2
    assert f(tf.constant(7)).numpy() == 49
    assert f(tf.constant(-2)).numpy() == -8


def test_loop_inside_a_name_scope_in_a_tf_function():
    @tf.function
    def f(n):
        total = tf.constant(0)
        with tf.name_scope("loop"):
            for i in tf.range(n):
                total += i
        return total
    assert f(tf.constant(5)).numpy() == 10


# -- tf.compat.v1.name_scope ---------------------------------------------------------------------

def test_v1_name_scope_is_a_no_op_eagerly():
    with name_scope_v1("a") as s:
        assert s is None
    assert name_scope_v1(None, "d").name == "d"


def test_v1_name_scope_in_a_graph_uses_the_default_name():
    def f(x):
        with name_scope_v1(None, "default", [x]) as d:
            with name_scope_v1("given", "ignored") as g_:
                return d, g_
    _, (d, given), _ = trace(f, f32(1))
    assert (d, given) == ("default/", "default/given/")


def test_v1_name_scope_needs_a_name_in_a_graph():
    def f(x):
        with name_scope_v1(None):
            return x
    with pytest.raises(ValueError, match="At least one of name"):
        trace(f, f32(1))
    with pytest.raises(TypeError):
        name_scope_v1("a", default_name=[1])
