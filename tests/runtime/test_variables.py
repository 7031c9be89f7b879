"""tf.Variable: eager state, stateful reads/assigns in graphs in program order, errors."""
import numpy as np
import pytest

import runtime as rt
from graph import compile_graph
from graph.errors import InvalidArgumentError
from runtime import context
from tests.staging import trace


def run_both(fn, var, initial, *args):
    """Traces ``fn`` once, runs it with each back end from ``initial``; returns both results."""
    graph, _, feeds = trace(fn, *args)
    results = []
    for backend in ("codegen", "interpret"):
        var.assign(initial)
        out = compile_graph(graph, backend=backend)(*feeds)
        results.append(([np.asarray(o) for o in out], var.numpy()))
    (a, va), (b, vb) = results
    for x, y in zip(a, b):
        np.testing.assert_array_equal(x, y)
        assert x.dtype == y.dtype
    np.testing.assert_array_equal(va, vb)
    return a, va, graph


def test_repr_and_properties():
    v = rt.Variable(1)
    assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32, numpy=1>"
    w = rt.Variable([1.0, 2.0], name="w", trainable=False)
    assert repr(w) == ("<tf.Variable 'w:0' shape=(2,) dtype=float32, "
                       "numpy=array([1., 2.], dtype=float32)>")
    assert w.name == "w:0" and w.dtype == rt.float32 and w.shape == rt.TensorShape([2])
    assert not w.trainable and v.trainable
    assert isinstance(v._unique_id, int) and v._unique_id != w._unique_id
    assert rt.Variable(1.0, dtype=rt.float64).dtype == rt.float64
    assert rt.Variable(lambda: rt.zeros([2])).shape == rt.TensorShape([2])


def test_eager_assign_updates_at_once_and_returns_the_variable():
    # TensorFlow returns an ``UnreadVariable`` view sharing the variable's state
    v = rt.Variable(1)
    u = v.assign(5)
    assert u.name == "UnreadVariable" and v.numpy() == 5 and u.numpy() == 5
    assert v.assign_add(3).numpy() == 8 and v.numpy() == 8
    assert v.assign_sub(10).numpy() == -2 and v.numpy() == -2
    u.assign(7)
    assert v.numpy() == 7 and v.assign(-2, read_value=False) is None
    assert v.numpy().dtype == np.int32
    assert v.value().numpy() == -2 and v.read_value().numpy() == -2


def test_reads_are_snapshots():
    v = rt.Variable([1, 2])
    before = v.read_value()
    v.assign_add([10, 10])
    np.testing.assert_array_equal(before, [1, 2])
    v.numpy()[0] = 99  # mutating a returned array must not change the variable
    np.testing.assert_array_equal(v.numpy(), [11, 12])


def test_operators_getitem_and_array():
    v = rt.Variable([1.0, 2.0, 3.0])
    np.testing.assert_array_equal((v + 1).numpy(), [2, 3, 4])
    np.testing.assert_array_equal((2.0 * v).numpy(), [2, 4, 6])
    np.testing.assert_array_equal((v - v).numpy(), [0, 0, 0])
    np.testing.assert_array_equal(np.asarray(v), [1, 2, 3])
    assert v[1].numpy() == 2.0
    assert bool(rt.Variable(True)) and int(rt.Variable(3)) == 3
    assert rt.convert_to_tensor(v).dtype == rt.float32
    np.testing.assert_array_equal((v > 1.5).numpy(), [False, True, True])
    np.testing.assert_array_equal((v == 2.0).numpy(), [False, True, False])
    np.testing.assert_array_equal((-v).numpy(), [-1, -2, -3])


def test_two_assigns_and_reads_in_one_graph_run_in_program_order():
    v = rt.Variable(1)

    def f():
        a = v.read_value()
        b = v.assign(10)
        c = v.assign_add(5)
        d = v + 0
        e = v.assign_sub(3)
        return a, b, c, d, e, v.value()
    out, final, _ = run_both(f, v, 1)
    assert [int(o) for o in out] == [1, 10, 15, 15, 12, 12]
    assert final == 12


def test_graph_assign_depending_on_input_and_repeated_runs():
    v = rt.Variable(0.0)
    graph, _, feeds = trace(lambda x: v.assign_add(x * 2.0), np.float32(1.5))
    plan = compile_graph(graph)
    plan(np.float32(1.5))
    plan(np.float32(1.0))
    assert v.numpy() == np.float32(5.0)


def test_unreturned_assign_runs_but_an_unused_failing_gather_does_not():
    v = rt.Variable(3)

    def f(i):
        v.assign(4)
        rt.gather(rt.constant([1, 2]), i)  # unused: pruned, so its bad index never matters
        return rt.constant(0)
    graph, _, feeds = trace(f, np.int32(7))
    v.assign(0)
    compile_graph(graph)(*feeds)
    assert v.numpy() == 4


def test_every_read_is_a_new_stateful_node():
    v = rt.Variable(1)
    graph, _, _ = trace(lambda: (v.read_value(), v.read_value(), v + 1))
    reads = [n for n in graph.nodes if n.op == "ReadVariableOp"]
    assert len(reads) == 3
    assert reads[0].attrs["resource"] == v._unique_id
    assert reads[0].name == "ReadVariableOp" and reads[1].name == "ReadVariableOp_1"


def test_variable_in_while_loop_body():
    v = rt.Variable(0)

    def f(n):
        def body(i):
            v.assign_add(i)
            return i + 1
        rt.while_loop(lambda i: i < n, body, [0])
        return v.read_value()
    out, final, graph = run_both(f, v, 0, np.int32(5))
    assert int(out[0]) == 10 and final == 10
    assert any(n.op == "While" for n in graph.nodes)  # stateful body: While, not Stateless


def test_variable_created_while_building_is_initialized_eagerly():
    made = []

    def f(x):
        if not made:
            made.append(rt.Variable(rt.zeros([2]) + 1.0))  # folded: depends on constants only
            assert made[0].numpy().tolist() == [1.0, 1.0] if context.executing_eagerly() \
                else True
        return made[0].assign_add(x)
    graph, _, feeds = trace(f, np.ones(2, np.float32))
    np.testing.assert_array_equal(made[0].numpy(), [1.0, 1.0])
    compile_graph(graph)(*feeds)
    np.testing.assert_array_equal(made[0].numpy(), [2.0, 2.0])
    lazy = rt.Variable(lambda: rt.ones([3], rt.int32))
    np.testing.assert_array_equal(lazy.numpy(), [1, 1, 1])


def test_symbolic_initial_value_is_rejected():
    with pytest.raises(ValueError, match="depends on 'arg0' .Placeholder.: outside a "
                                         "tf.function's first trace, a variable's initial "
                                         "value must be computable outside"):
        trace(lambda x: rt.Variable(x * 2.0), np.float32(1))
    v = rt.Variable(1)
    with pytest.raises(ValueError, match=r"depends on 'ReadVariableOp' \(ReadVariableOp\)"):
        trace(lambda: rt.Variable(v + 1))


def test_assign_wrong_dtype_or_shape():
    v = rt.Variable([1.0, 2.0])
    with pytest.raises(TypeError, match=r"Cannot assign a tensor of dtype int32 to Variable:0 "
                                        r"of dtype float32.*tf.cast"):
        v.assign(rt.constant([1, 2]))
    with pytest.raises(ValueError, match=r"Cannot assign value to variable ' Variable:0': Shape "
                                         r"mismatch.The variable shape \(2,\), and the assigned "
                                         r"value shape \(3,\) are incompatible."):  # TF's words
        v.assign([1.0, 2.0, 3.0])
    with pytest.raises(TypeError, match="Cannot assign_add 1.5 to Variable:0 of dtype int32"):
        rt.Variable(1).assign_add(1.5)
    with pytest.raises(ValueError, match="Shape mismatch"):
        trace(lambda: v.assign([1.0]))


def test_assign_of_unknown_shape_is_checked_at_run_time():
    v = rt.Variable([1.0, 2.0])
    graph, _, _ = trace(lambda n: v.assign(rt.zeros(rt.stack([n]))), np.int32(3))
    with pytest.raises(InvalidArgumentError, match=r"cannot assign a value of shape \(3,\) to a "
                                                   r"variable of shape \(2,\).*AssignVariableOp"):
        compile_graph(graph)(np.int32(3))
    np.testing.assert_array_equal(v.numpy(), [1.0, 2.0])


def test_relaxed_shape_variable_accepts_any_shape():
    v = rt.Variable([1, 2], shape=rt.TensorShape(None))
    v.assign([1, 2, 3])
    np.testing.assert_array_equal(v.numpy(), [1, 2, 3])
    assert v.shape.rank is None


def test_graph_repr_and_numpy_inside_a_graph():
    v = rt.Variable(1)

    def f():
        assert repr(v) == "<tf.Variable 'Variable:0' shape=() dtype=int32>"
        with pytest.raises(NotImplementedError, match="only available when eager"):
            v.numpy()
        return v.read_value()
    trace(f)


def test_unhashable_but_ref_works():
    v = rt.Variable(1)
    with pytest.raises(TypeError, match="unhashable"):
        hash(v)
    assert {v.ref(): 1}[v.ref()] == 1 and v.ref().deref() is v


def test_state_op_inference_errors():
    from graph import Graph
    from graph.shapes import TensorShape
    g = Graph("g")
    c = g.add_node("Const", attrs={"dtype": rt.int32, "value": np.array([1, 2], np.int32)})
    attrs = {"resource": 1, "dtype": rt.float32, "shape": TensorShape([2])}
    with pytest.raises(InvalidArgumentError, match="cannot assign a int32 value to a variable "
                                                   "of dtype float32"):
        g.add_node("AssignVariableOp", [c.output(0)], attrs=attrs)
    attrs = {"resource": 1, "dtype": rt.int32, "shape": TensorShape([3])}
    with pytest.raises(InvalidArgumentError, match="shapes are incompatible"):
        g.add_node("AssignAddVariableOp", [c.output(0)], attrs=attrs)


def test_variable_takes_tensorflow_keyword_arguments():
    # TensorFlow 2.21: ON_READ variables are not trainable by default, and cannot be made so.
    import autograph as tf
    w = tf.Variable(1.0, synchronization=tf.VariableSynchronization.ON_READ,
                    aggregation=tf.VariableAggregation.SUM)
    assert not w.trainable and w.aggregation is tf.VariableAggregation.SUM
    assert w.synchronization is tf.VariableSynchronization.ON_READ
    with pytest.raises(ValueError, match="ON_READ only for non-trainable"):
        tf.Variable(1.0, trainable=True, synchronization=tf.VariableSynchronization.ON_READ)
    v = tf.Variable([1.0], validate_shape=False, constraint=lambda x: x)
    assert v.trainable and v.shape == [1] and callable(v.constraint)
    assert v.aggregation is tf.VariableAggregation.NONE
    with pytest.raises(ValueError, match="must be a callable"):
        tf.Variable(1.0, constraint=3)


def test_variable_names_take_the_enclosing_name_scope():
    # TensorFlow 2.21: scope/w:0, scope/Variable:0, mod/v:0 (before: w:0, Variable:0, v:0);
    # a Keras 3 weight is named "kernel", its path made of layers alone.
    import autograph as tf
    with tf.name_scope("scope"):
        w, u = tf.Variable(1.0, name="w"), tf.Variable(1.0)
        layer = tf.keras.layers.Dense(1, name="dense")
        layer(tf.ones([1, 2]))
    assert (w.name, u.name) == ("scope/w:0", "scope/Variable:0")
    assert (layer.kernel.name, layer.kernel.path) == ("kernel", "dense/kernel")

    class Scoped(tf.Module):
        def __init__(self):
            super().__init__(name="mod")
            with self.name_scope:
                self.v = tf.Variable(1.0, name="v")
    assert Scoped().v.name == "mod/v:0"
