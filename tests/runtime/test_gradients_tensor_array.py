"""Gradients through TensorArray (TensorList ops) and loops that carry one.

Every case is checked against central differences in float64, with an eager
tape and staged (the tape inside a traced graph, both executor back ends).
"""
from __future__ import annotations

import numpy as np
import pytest

import runtime as tf
from graph.errors import InvalidArgumentError
from runtime.gradients import GradientTape
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op
from runtime.tensor_array import StagedList
from tests.runtime.test_gradients import check_gradients, numeric_grads
from tests.staging import staged, trace

MODES = ["eager", "staged"]
RNG = np.random.default_rng(11)


def ta(size=None, **kw):
    return tf.TensorArray(tf.float64, size=size, **kw)


# -- one op at a time ----------------------------------------------------------------

@pytest.mark.parametrize("mode", MODES)
def test_write_then_read(mode):
    def fn(x):
        a = ta(3).write(0, x * 2.0).write(1, M.sin(x)).write(2, x)
        return a.read(1) * a.read(0) + a.read(2)
    check_gradients(fn, RNG.uniform(-1, 1, (2, 3)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_unstack_then_stack_and_read(mode):
    def fn(x):
        a = ta(4).unstack(x * x)
        return a.stack() * 3.0
    check_gradients(fn, RNG.uniform(-1, 1, (4, 2)), mode=mode)

    def reads(x):  # each read clears its element eagerly: the list stays on the tape
        a = ta(3).unstack(x)
        return a.read(2) * a.read(0) - a.read(1)
    check_gradients(reads, RNG.uniform(-1, 1, (3, 2)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_one_element_read_twice_sums_both_gradients(mode):
    def fn(x):
        a = ta(2, clear_after_read=False).unstack(x)
        return a.read(0) * a.read(0) + a.read(1) * a.read(0)
    check_gradients(fn, RNG.uniform(-1, 1, (2, 3)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_gather_with_repeated_indices_adds_their_gradients(mode):
    def fn(x):
        return ta(3).unstack(x).gather([2, 0, 2]) * tf.constant([[1.0], [2.0], [3.0]],
                                                              dtype=tf.float64)
    check_gradients(fn, RNG.uniform(-1, 1, (3, 2)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_scatter_into_an_array_with_unwritten_elements(mode):
    def fn(x, y):
        a = ta(4, element_shape=[2]).write(0, y)
        a = a.scatter([1, 3], x)
        return a.stack() * M.sin(a.stack())
    check_gradients(fn, RNG.uniform(-1, 1, (2, 2)), RNG.uniform(-1, 1, (2,)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_split_and_concat(mode):
    def fn(x):
        pieces = ta(3).split(x, [1, 3, 2])
        return pieces.concat() * M.cos(x)
    check_gradients(fn, RNG.uniform(-1, 1, (6, 2)), mode=mode)

    def written(x, y):  # elements of different lengths, concatenated
        return ta(2, infer_shape=False).write(0, x * 2.0).write(1, y).concat()
    check_gradients(written, RNG.uniform(-1, 1, (1, 2)), RNG.uniform(-1, 1, (3, 2)), mode=mode)

    def partly(x):  # only some pieces get a gradient back
        return ta(3).split(x, [2, 2, 2]).read(1)
    check_gradients(partly, RNG.uniform(-1, 1, (6,)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_size_writes_past_the_end(mode):
    def fn(x):
        a = ta(1, dynamic_size=True).write(0, x)
        a = a.write(3, x * x)  # grows the list to 4 (elements 1 and 2 read as zeros)
        return a.stack()
    check_gradients(fn, RNG.uniform(-1, 1, (2,)), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_pop_from_a_staged_list(mode):
    def fn(x):
        lst = StagedList.from_list([x * 1.0, x * 2.0, M.sin(x)], "acc")
        last = lst.pop()
        return last * lst.stack()
    check_gradients(fn, RNG.uniform(-1, 1, (3,)), mode=mode)


# -- TensorArrays carried by staged loops: the guide's dynamic_rnn --------------------

T, B, D, H = 5, 2, 3, 4


def dynamic_rnn(x, h0, w, u):
    """The tf.function guide's dynamic_rnn: inputs read from one TensorArray, states
    written to another that the loop carries, stacked after the loop."""
    inputs = ta(T).unstack(x)
    outputs = ta(T)

    def body(t, h, outputs):
        h = tf.tanh(tf.matmul(inputs.read(t), w) + tf.matmul(h, u))
        return t + 1, h, outputs.write(t, h)
    _, h, outputs = tf.while_loop(lambda t, h, o: t < T, body, [0, h0, outputs])
    return outputs.stack() * 1.5 + h


def rnn_args():
    return (RNG.uniform(-1, 1, (T, B, D)), RNG.uniform(-1, 1, (B, H)),
            RNG.uniform(-0.8, 0.8, (D, H)), RNG.uniform(-0.8, 0.8, (H, H)))


@pytest.mark.parametrize("mode", MODES)
def test_dynamic_rnn_gradients(mode):
    check_gradients(dynamic_rnn, *rnn_args(), mode=mode, rtol=1e-6, atol=1e-8)


def test_dynamic_rnn_through_a_tf_function_eagerly_taped():
    """A Function called under an eager tape: one record, differentiated by its own graph."""
    args = rnn_args()
    w = np.random.default_rng(1).uniform(0.5, 1.5, (T, B, H))
    f = tf.Function(dynamic_rnn)

    def loss(arrays):
        return float(np.sum(f(*[tf.constant(a) for a in arrays]).numpy() * w))
    expected = numeric_grads(loss, list(args))
    xs = [tf.constant(a) for a in args]
    with GradientTape() as tape:
        tape.watch(xs)
        total = tf.reduce_sum(f(*xs) * tf.constant(w))
    got = tape.gradient(total, xs)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6, atol=1e-8)


def test_dynamic_rnn_converted_by_autograph_with_a_tensor_for_loop():
    import autograph as ag

    @ag.function
    def grads(x, h0, w, u):
        with ag.GradientTape() as tape:
            tape.watch([x, w, u])
            inputs = ag.TensorArray(ag.float64, size=T).unstack(x)
            outputs = ag.TensorArray(ag.float64, size=T)
            h = h0
            for t in ag.range(T):
                h = ag.tanh(ag.matmul(inputs.read(t), w) + ag.matmul(h, u))
                outputs = outputs.write(t, h)
            loss = ag.reduce_sum(outputs.stack() ** 2.0)
        return tape.gradient(loss, [x, w, u])

    args = rnn_args()

    def loss(arrays):
        x, w, u = arrays
        return float(np.sum(dynamic_rnn_np(x, args[1], w, u) ** 2))
    expected = numeric_grads(loss, [args[0], args[2], args[3]])
    got = grads(*[tf.constant(a) for a in args])
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6, atol=1e-8)
    assert "While" in {n.op.replace("Stateless", "") for n in
                       grads.get_concrete_function(*[tf.constant(a) for a in args]).graph.nodes}


def dynamic_rnn_np(x, h0, w, u):
    h, out = h0, []
    for t in range(T):
        h = np.tanh(x[t] @ w + h @ u)
        out.append(h)
    return np.stack(out)


def test_loop_with_variables_and_a_tensor_array_of_losses():
    w = tf.Variable(np.array([[0.5, -0.3], [0.2, 0.8]]))

    def loss_fn(x):
        def body(i, h, losses):
            h = tf.tanh(tf.matmul(h, w))
            return i + 1, h, losses.write(i, tf.reduce_sum(h * x))
        _, _, losses = tf.while_loop(lambda i, h, l: i < 3, body,
                                     [0, tf.constant([[1.0, -0.5]], dtype=tf.float64), ta(3)])
        return tf.reduce_sum(losses.stack())

    x0 = np.array([[0.3, 0.9]])
    got = staged(lambda x: _watched_grads(loss_fn, w, x), x0)
    w0 = w.numpy().copy()

    def as_loss(arrays):
        w.assign(arrays[0])
        return float(loss_fn(tf.constant(arrays[1])))
    expected = numeric_grads(as_loss, [w0, x0])
    w.assign(w0)
    for g, e in zip(got, expected):
        np.testing.assert_allclose(g, e, rtol=1e-6, atol=1e-8)
    eager = _watched_grads(loss_fn, w, tf.constant(x0))
    for g, e in zip(eager, expected):
        np.testing.assert_allclose(g.numpy(), e, rtol=1e-6, atol=1e-8)


def _watched_grads(loss_fn, w, x):
    with GradientTape() as tape:
        tape.watch(x)
        loss = loss_fn(x)
    return tape.gradient(loss, [w, x])


@pytest.mark.parametrize("mode", MODES)
def test_nested_loops_writing_a_tensor_array(mode):
    def fn(x):
        def outer(i, y, acc):
            z = tf.while_loop(lambda j, z: j < i, lambda j, z: (j + 1, M.sin(z) * x), [0, y])[1]
            return i + 1, z + y * 0.5, acc.write(i, z * z)
        _, y, acc = tf.while_loop(lambda i, y, a: i < 3, outer, [0, x, ta(3)])
        return acc.stack() + y
    check_gradients(fn, np.array([0.4, -0.7]), mode=mode, rtol=1e-5, atol=1e-7)


def test_a_carried_array_nobody_differentiates_costs_no_backward_state():
    def grad(x):
        with GradientTape() as tape:
            tape.watch(x)
            _, y, log = tf.while_loop(lambda i, y, log: i < 4,
                                      lambda i, y, log: (i + 1, y * x, log.write(i, y)),
                                      [0, x, ta(4)])
        return tape.gradient(y, x), log.stack()
    x = np.array([1.5, -0.5])
    g, log = staged(grad, x)
    np.testing.assert_allclose(g, 5 * x ** 4)
    np.testing.assert_allclose(log, [x, x ** 2, x ** 3, x ** 4])
    graph, _, _ = trace(grad, x)
    backward = [n for n in graph.nodes if n.name.startswith("gradients/while")]
    assert len(backward) == 1
    carried = [t.dtype.name for t in backward[0].outputs]
    assert carried.count("variant") == 1  # the accumulator of y, not the log's gradient


def test_second_derivative_of_a_dynamic_rnn():
    """Hessian-vector product through a loop carrying a TensorArray, against differences
    of the analytic first derivative."""
    x0, h0, w0, u0 = rnn_args()

    def first(w):
        with GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(dynamic_rnn(tf.constant(x0), tf.constant(h0), w,
                                             tf.constant(u0)) ** 2.0)
        return tape.gradient(loss, w)

    v = RNG.uniform(-1, 1, w0.shape)

    def hvp(w):
        with GradientTape() as outer:
            outer.watch(w)
            g = first(w)
            gv = tf.reduce_sum(g * tf.constant(v))
        return outer.gradient(gv, w)

    eps = 1e-5
    expected = (first(tf.constant(w0 + eps * v)).numpy() -
                first(tf.constant(w0 - eps * v)).numpy()) / (2 * eps)
    np.testing.assert_allclose(staged(hvp, w0), expected, rtol=1e-5, atol=1e-7)
    np.testing.assert_allclose(hvp(tf.constant(w0)).numpy(), expected, rtol=1e-5, atol=1e-7)


def test_third_derivative_through_a_staged_loop():
    def third(x):
        with GradientTape() as t3:
            t3.watch(x)
            with GradientTape() as t2:
                t2.watch(x)
                with GradientTape() as t1:
                    t1.watch(x)
                    y = tf.while_loop(lambda i, y: i < 3, lambda i, y: (i + 1, y * x), [0, x])[1]
                    y_total = tf.reduce_sum(y)
                g1_total = tf.reduce_sum(t1.gradient(y_total, x))
            g2_total = tf.reduce_sum(t2.gradient(g1_total, x))
        return t3.gradient(g2_total, x)
    x = np.array([1.5, -0.5])
    np.testing.assert_allclose(staged(third, x), 24 * x)


# -- the gradient ops themselves -------------------------------------------------------

def _list(values):
    return ta(len(values), element_shape=[2]).unstack(np.array(values, dtype=np.float64)).flow


def test_binary_add_treats_unset_elements_as_zeros():
    a = ta(3, element_shape=[2]).write(1, np.array([1.0, 2.0])).flow
    b = _list([[1.0, 1.0], [1.0, 1.0], [3.0, 4.0]])
    total = apply_op("TensorListBinaryAdd", [a, b])
    stacked = tf.TensorArray(tf.float64, flow=total, element_shape=[2]).stack()
    np.testing.assert_array_equal(stacked.numpy(), [[1, 1], [2, 3], [3, 4]])
    zeros = apply_op("TensorListZerosLike", [b])
    np.testing.assert_array_equal(
        tf.TensorArray(tf.float64, flow=zeros).stack().numpy(), np.zeros((3, 2)))


def test_gradient_op_errors_say_what_is_wrong():
    a = _list([[1.0, 2.0]])
    b = ta(1).write(0, np.array([1.0, 2.0, 3.0])).flow
    with pytest.raises(InvalidArgumentError, match="shapes \\(2,\\) and \\(3,\\) cannot be added"):
        apply_op("TensorListBinaryAdd", [a, b])
    with pytest.raises(InvalidArgumentError, match="holds float64 elements but the pushed "
                                                   "value is a int32 tensor"):
        apply_op("TensorListPushBack", [a, tf.constant(1)], attrs={"element_dtype": tf.float64})
    with pytest.raises(InvalidArgumentError, match="element shape \\(2,\\)"):
        apply_op("TensorListPushBack", [a, tf.constant([1.0], dtype=tf.float64)])
    with pytest.raises(InvalidArgumentError, match="size must be >= 0"):
        apply_op("TensorListResize", [a, tf.constant(-1)])
    with pytest.raises(InvalidArgumentError, match="expected a TensorList"):
        apply_op("TensorListZerosLike", [tf.constant(1.0)])
    with pytest.raises(InvalidArgumentError, match="needs an element_dtype"):
        apply_op("EmptyTensorList", [], attrs={"element_dtype": None})


def test_accumulator_push_and_pop():
    empty = apply_op("EmptyTensorList", [], attrs={"element_dtype": tf.float64,
                                                   "element_shape": tf.TensorShape([2])})
    lst = empty
    for k in range(3):
        lst = apply_op("TensorListPushBack", [lst, tf.constant([k, k + 0.5], dtype=tf.float64)])
    stacked = tf.TensorArray(tf.float64, flow=lst).stack()  # read as an ordinary list
    np.testing.assert_array_equal(stacked.numpy(), [[0, 0.5], [1, 1.5], [2, 2.5]])
    attrs = {"element_dtype": tf.float64, "element_shape": tf.TensorShape([2])}
    rest, last = apply_op("TensorListPopBack", [lst], attrs=attrs)
    np.testing.assert_array_equal(last.numpy(), [2, 2.5])
    assert int(tf.TensorArray(tf.float64, flow=rest).size()) == 2
    with pytest.raises(InvalidArgumentError, match="pop from an empty list"):
        apply_op("TensorListPopBack", [empty], attrs=attrs)
