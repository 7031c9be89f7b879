"""A jit_compile Function called from another tf.function: one call node compiled by XLA."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError

jax = pytest.importorskip("jax")
# The runtime side (Function._call_compiled and the call node's gradient) lands with the lead.
pytestmark = pytest.mark.skipif(not hasattr(tf.function(lambda: 0), "_call_compiled"),
                                reason="runtime/function.py does not record compiled calls yet")


def _call_nodes(fn, *args):
    graph = fn.get_concrete_function(*args).optimized_graph
    return [n for n in graph.nodes if n.op.endswith("PartitionedCall")]


def _inner():
    @tf.function(jit_compile=True)
    def inner(x, y):
        s = tf.zeros_like(x)
        for i in tf.range(3):
            s += tf.tanh(x * tf.cast(i, tf.float32)) + y
        return {"sum": s, "max": tf.reduce_max(s)}
    return inner


def test_call_from_a_numpy_function_is_one_compiled_node():
    inner = _inner()

    @tf.function
    def outer(x):
        r = inner(x * 2, 1.0)
        return r["sum"] + 1, r["max"]
    x = tf.constant([0.5, -1.0, 2.0])
    got = outer(x)
    want = tf.function(lambda x: (lambda r: (r["sum"] + 1, r["max"]))(
        inner.python_function(x * 2, 1.0)))(x)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-6)
    nodes = _call_nodes(outer, x)
    assert [n.op for n in nodes] == ["PartitionedCall"]
    assert nodes[0].attrs["_XlaMustCompile"] is True
    assert not any(n.op == "While" or n.op == "StatelessWhile" for n in
                   outer.get_concrete_function(x).optimized_graph.nodes)


def test_callee_must_compile_even_in_a_numpy_caller():
    @tf.function(jit_compile=True)
    def inner(x):
        return tf.strings.length(tf.strings.as_string(x))

    @tf.function
    def outer(x):
        return inner(x) + 1
    with pytest.raises(InvalidArgumentError, match="Detected unsupported operations"):
        outer(tf.constant(3))


def test_compiled_caller_lowers_the_callee_into_its_program():
    inner = _inner()

    @tf.function(jit_compile=True)
    def outer(x):
        return inner(x, 2.0)["max"] * 3
    x = tf.constant([0.1, 0.2])
    want = tf.function(lambda x: inner.python_function(x, 2.0)["max"] * 3)(x)
    np.testing.assert_allclose(outer(x).numpy(), want.numpy(), rtol=1e-6)
    assert _call_nodes(outer, x)[0].op == "PartitionedCall"


def test_state_in_the_callee():
    v = tf.Variable(1.0)

    @tf.function(jit_compile=True)
    def bump(x):
        v.assign_add(x)
        return v.read_value() * 2

    @tf.function
    def outer(x):
        return bump(x) + bump(x)
    assert outer(tf.constant(1.0)).numpy() == 4.0 + 6.0
    assert v.numpy() == 3.0
    assert _call_nodes(outer, tf.constant(1.0))[0].op == "StatefulPartitionedCall"


def test_call_in_a_branch_and_with_an_input_signature():
    @tf.function(jit_compile=True, input_signature=[tf.TensorSpec([None], tf.float32)])
    def inner(x):
        return tf.reduce_sum(x * x)

    @tf.function
    def outer(x, flag):
        if flag > 0:
            y = inner(x)
        else:
            y = -inner(x + 1)
        return y
    x = tf.constant([1.0, 2.0])
    assert outer(x, tf.constant(1)).numpy() == 5.0
    assert outer(x, tf.constant(0)).numpy() == -13.0
    assert outer(tf.constant([3.0]), tf.constant(1)).numpy() == 9.0


def test_gradient_through_the_call():
    inner = _inner()
    w = tf.Variable([1.0, 2.0, 3.0])

    @tf.function
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = inner(x * w, 0.5)
            loss = tf.reduce_sum(r["sum"])
        return tape.gradient(loss, [x, w])

    def reference(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            r = inner.python_function(x * w, 0.5)
            loss = tf.reduce_sum(r["sum"])
        return tape.gradient(loss, [x, w])
    x = tf.constant([0.3, -0.2, 0.1])
    for g, want in zip(grads(x), tf.function(reference)(x)):
        np.testing.assert_allclose(g.numpy(), want.numpy(), rtol=1e-5)


def test_outer_tape_over_a_caller():
    inner = _inner()
    outer = tf.function(lambda x: inner(x, 0.0)["max"])
    x = tf.constant([0.3, 0.9])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = outer(x)
    # d/dx max_i sum_k tanh(k x_i) at the arg max (x = 0.9): 1/cosh^2(0.9) + 2/cosh^2(1.8)
    want = 1 / np.cosh(0.9) ** 2 + 2 / np.cosh(1.8) ** 2
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, want], rtol=1e-5)


def test_gradient_is_a_compiled_call_too_and_matches_finite_differences():
    @tf.function(jit_compile=True)
    def inner(x):
        return tf.reduce_sum(tf.sin(x) * x)

    @tf.function
    def grad(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = inner(x)
        return tape.gradient(y, x)
    x0 = np.array([0.3, -1.2], np.float32)
    got = grad(tf.constant(x0)).numpy()
    np.testing.assert_allclose(got, np.sin(x0) + x0 * np.cos(x0), rtol=1e-5)
    ops = [n.op for n in _call_nodes(grad, tf.constant(x0))]
    assert ops == ["PartitionedCall", "PartitionedCall"]  # the call and its gradient's call
    eps = 1e-3
    fd = [(inner(tf.constant(x0 + d)).numpy() - inner(tf.constant(x0 - d)).numpy()) / (2 * eps)
          for d in np.eye(2, dtype=np.float32) * eps]
    np.testing.assert_allclose(got, fd, rtol=1e-2)


def test_second_derivative_through_the_call():
    @tf.function(jit_compile=True)
    def inner(x):
        return x * x * x

    @tf.function
    def second(x):
        with tf.GradientTape() as outer_tape:
            outer_tape.watch(x)
            with tf.GradientTape() as tape:
                tape.watch(x)
                y = inner(x)
            dy = tape.gradient(y, x)
        return dy, outer_tape.gradient(dy, x)
    dy, d2y = second(tf.constant(2.0))
    assert dy.numpy() == 12.0 and d2y.numpy() == 12.0


def test_a_caller_saves_and_loads_with_its_compiled_call(tmp_path):
    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(2.0)
            self.scale = tf.function(lambda x: x * self.v, jit_compile=True)

        @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
        def __call__(self, x):
            return self.scale(x) + 1
    model = Model()
    tf.saved_model.save(model, str(tmp_path))
    loaded = tf.saved_model.load(str(tmp_path))
    assert loaded(tf.constant(3.0)).numpy() == model(tf.constant(3.0)).numpy() == 7.0
    assert "StatefulPartitionedCall" in [n.op for n in model.__call__.get_concrete_function()
                                         .graph.nodes]


def test_call_in_a_loop_body():
    @tf.function(jit_compile=True)
    def step(h, x):
        return tf.tanh(h * 0.5 + x)

    @tf.function
    def outer(xs):
        h = tf.zeros([2])
        for x in xs:
            h = step(h, x)
        return h
    xs = np.arange(6, dtype=np.float32).reshape(3, 2) / 4
    h = np.zeros(2, np.float32)
    for x in xs:
        h = np.tanh(h * 0.5 + x)
    np.testing.assert_allclose(outer(tf.constant(xs)).numpy(), h, rtol=1e-6)


def test_a_callee_reading_the_callers_tensors_runs_inlined():
    @tf.function
    def outer(x):
        y = x * 2
        inner = tf.function(lambda z: z + y, jit_compile=True)
        return inner(x)
    assert outer(tf.constant(1.0)).numpy() == 3.0
