"""Gradients of every differentiable op: analytic (tape) == numeric (central differences).

Each case runs twice: with an eager tape, and staged (the tape inside a traced
graph, its gradient nodes run by both executor back ends). Inputs are float64.
"""
from __future__ import annotations

import re

import numpy as np
import pytest

import runtime as tf
from runtime.ops import math_ops as M
from runtime.gradients import GradientTape
from tests.staging import staged

RNG = np.random.default_rng(7)


def numeric_grads(loss, arrays, eps=1e-6):
    """Central differences of the scalar ``loss(list of arrays)``."""
    grads = []
    for k, a in enumerate(arrays):
        g = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            plus = [x.copy() for x in arrays]
            minus = [x.copy() for x in arrays]
            plus[k][idx] += eps
            minus[k][idx] -= eps
            g[idx] = (loss(plus) - loss(minus)) / (2 * eps)
        grads.append(g)
    return grads


def weights_for(fn, arrays):
    """A fixed random weighting of fn's output, so every output element matters."""
    out = np.asarray(fn(*[tf.constant(a) for a in arrays]))
    return np.random.default_rng(out.size).uniform(0.5, 1.5, out.shape)


def taped(fn, weights):
    """fn's weighted-sum gradient with respect to all its inputs, computed by a tape."""
    def run(*xs):
        with GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            loss = tf.reduce_sum(fn(*xs) * tf.constant(weights))
        return tape.gradient(loss, list(xs))
    return run


def check_gradients(fn, *arrays, mode="eager", eps=1e-6, rtol=1e-6, atol=1e-7):
    arrays = [np.asarray(a, dtype=np.float64) for a in arrays]
    w = weights_for(fn, arrays)

    def loss(arrs):
        return float(np.sum(np.asarray(fn(*[tf.constant(a) for a in arrs])) * w))

    expected = numeric_grads(loss, arrays, eps)
    if mode == "eager":
        got = [tf.convert_to_tensor(g).numpy()
               for g in taped(fn, w)(*[tf.constant(a) for a in arrays])]
    else:
        got = staged(taped(fn, w), *arrays)
    for g, e, a in zip(got, expected, arrays):
        assert np.shape(g) == a.shape
        np.testing.assert_allclose(g, e, rtol=rtol, atol=atol)
    return got


MODES = ["eager", "staged"]


def rand(*shape, low=-2.0, high=2.0):
    return RNG.uniform(low, high, shape)


def positive(*shape):
    return RNG.uniform(0.5, 2.0, shape)


BINARY = {
    "add": tf.add, "subtract": tf.subtract, "multiply": tf.multiply, "divide": tf.divide,
    "maximum": tf.maximum, "minimum": tf.minimum,
    "squared_difference": M.squared_difference,
}
SHAPES = [((3, 4), (3, 4)), ((3, 4), (4,)), ((3, 1), (1, 4)), ((2, 3, 4), (3, 1)), ((), (2, 3))]


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
@pytest.mark.parametrize("name", sorted(BINARY))
def test_binary_ops_reduce_back_to_the_input_shapes(name, shapes, mode):
    a, b = rand(*shapes[0]), rand(*shapes[1])
    if name == "divide":
        b = positive(*shapes[1])
    if name in ("maximum", "minimum"):  # keep ties (where the gradient jumps) away
        b = a.mean() + np.sign(rand(*shapes[1])) * positive(*shapes[1])
    check_gradients(BINARY[name], a, b, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_pow_with_respect_to_base_and_exponent(mode):
    check_gradients(tf.pow, positive(2, 3), rand(3), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_floormod_away_from_its_jumps(mode):
    check_gradients(M.floormod, np.array([2.3, -1.4, 5.6]), np.array([1.0, 1.5, 2.0]),
                    mode=mode)


UNARY = {
    "negative": (tf.negative, rand), "abs": (tf.abs, rand), "square": (tf.square, rand),
    "tanh": (tf.tanh, rand), "sigmoid": (tf.sigmoid, rand), "exp": (tf.exp, rand),
    "log": (M.log, positive), "sqrt": (tf.sqrt, positive),
    "rsqrt": (M.rsqrt, positive), "sin": (M.sin, rand), "cos": (M.cos, rand),
    "relu": (M.relu, rand),
    "identity": (tf.identity, rand),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(UNARY))
def test_unary_ops(name, mode):
    fn, make = UNARY[name]
    x = make(3, 4)
    if name in ("abs", "relu"):
        x = np.where(np.abs(x) < 0.1, 0.5, x)
    check_gradients(fn, x, mode=mode)


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_with_transposes(ta, tb, mode):
    a = rand(4, 3) if ta else rand(3, 4)
    b = rand(5, 4) if tb else rand(4, 5)
    check_gradients(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b,
                    mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_batch_matmul_broadcasting_its_batch_dims(mode):
    check_gradients(tf.matmul, rand(2, 3, 4), rand(4, 2), mode=mode)
    check_gradients(lambda x, y: tf.matmul(x, y, adjoint_b=True), rand(2, 3, 4), rand(1, 5, 4),
                    mode=mode)


REDUCTIONS = {"sum": tf.reduce_sum, "mean": tf.reduce_mean, "max": tf.reduce_max,
              "min": tf.reduce_min, "prod": tf.reduce_prod}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, False), (1, True), ((0, 2), False),
                                           (-1, True)])
@pytest.mark.parametrize("name", sorted(REDUCTIONS))
def test_reductions(name, axis, keepdims, mode):
    x = rand(2, 3, 4) if name != "prod" else RNG.uniform(0.5, 1.5, (2, 3, 4))
    check_gradients(lambda t: REDUCTIONS[name](t, axis=axis, keepdims=keepdims), x, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_prod_with_a_zero_element(mode):
    x = RNG.uniform(0.5, 1.5, (3, 4))
    x[1, 2] = 0.0
    check_gradients(lambda t: tf.reduce_prod(t, axis=1), x, mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_where_selects_gradients(mode):
    cond = rand(3, 4) > 0
    check_gradients(lambda a, b: tf.where(tf.constant(cond), a, b), rand(3, 4), rand(4),
                    mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_cast_between_floats(mode):
    check_gradients(lambda x: tf.cast(tf.cast(x, tf.float32), tf.float64) * 3.0, rand(3),
                    mode=mode, eps=1e-3, rtol=1e-4, atol=1e-4)


ARRAY = {
    "reshape": (lambda x: tf.reshape(x, [4, 6]), (2, 3, 4)),
    "reshape_minus_one": (lambda x: tf.reshape(x, [-1]), (2, 3, 4)),
    "transpose": (lambda x: tf.transpose(x, [2, 0, 1]), (2, 3, 4)),
    "transpose_default": (tf.transpose, (2, 3)),
    "expand_dims": (lambda x: tf.expand_dims(x, 1), (2, 3)),
    "squeeze": (tf.squeeze, (2, 1, 3)),
    "tile": (lambda x: tf.tile(x, [2, 3]), (2, 3)),
    "concat": (lambda x: tf.concat([x, x * 2.0, x[:1]], axis=0), (2, 3)),
    "concat_last_axis": (lambda x: tf.concat([x, tf.square(x)], axis=-1), (2, 3)),
    "stack": (lambda x: tf.stack([x, x * x], axis=1), (2, 3)),
    "unstack": (lambda x: tf.unstack(x, axis=1)[0] * 2.0 + tf.unstack(x, axis=1)[2], (2, 3)),
    "unstack_one_used": (lambda x: tf.unstack(x)[1], (3, 2)),
    "gather_rows_repeated": (lambda x: tf.gather(x, [0, 2, 0, 0]), (3, 4)),
    "gather_axis1": (lambda x: tf.gather(x, [[1, 0], [2, 2]], axis=1), (2, 3, 2)),
    "slice_rows": (lambda x: x[1:3], (4, 3)),
    "slice_index": (lambda x: x[2], (4, 3)),
    "slice_reverse_step": (lambda x: x[::-2, 1:], (5, 3)),
    "slice_ellipsis_newaxis": (lambda x: x[..., None, 1], (2, 3, 4)),
    "slice_negative_index": (lambda x: x[:, -1], (4, 3)),
}


@pytest.mark.parametrize("mode", MODES)
@pytest.mark.parametrize("name", sorted(ARRAY))
def test_array_ops(name, mode):
    fn, shape = ARRAY[name]
    check_gradients(fn, rand(*shape), mode=mode)


@pytest.mark.parametrize("mode", MODES)
def test_slice_with_a_tensor_bound(mode):
    def fn(x):
        i = tf.constant(1) + tf.constant(1) if mode == "eager" else tf.constant(2)
        return x[i - 1:i + 1] * 2.0
    check_gradients(fn, rand(4, 2), mode=mode)


# -- the tape's behaviour -----------------------------------------------------------------

def test_trainable_variables_are_watched_automatically():
    w = tf.Variable([[1.0], [2.0]])
    frozen = tf.Variable([3.0], trainable=False)
    x = tf.constant([[1.0, 2.0]])
    with GradientTape() as tape:
        y = tf.matmul(x, w) + frozen
    gw, gf = tape.gradient(y, [w, frozen])
    np.testing.assert_allclose(gw.numpy(), [[1.0], [2.0]])
    assert gf is None
    assert [v.name for v in tape.watched_variables()] == [w.name]


def test_watch_accessed_variables_false_needs_watch():
    w = tf.Variable(2.0)
    v = tf.Variable(3.0)
    with GradientTape(watch_accessed_variables=False) as tape:
        tape.watch(v)
        y = w * v
    gw, gv = tape.gradient(y, [w, v])
    assert gw is None and float(gv) == 2.0


def test_integer_sources_and_unwatched_tensors_get_none():
    i = tf.constant(3)
    x = tf.constant(2.0)
    with GradientTape() as tape:
        tape.watch(i)
        y = tf.cast(i, tf.float32) * x
    assert tape.gradient(y, [i, x]) == [None, None]


def test_unconnected_gradients_zero():
    x, z = tf.constant([1.0, 2.0]), tf.constant([[5.0]])
    with GradientTape() as tape:
        tape.watch([x, z])
        y = tf.reduce_sum(x * x)
    gx, gz = tape.gradient(y, [x, z], unconnected_gradients="zero")
    np.testing.assert_allclose(gx.numpy(), [2.0, 4.0])
    np.testing.assert_allclose(gz.numpy(), [[0.0]])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    with pytest.raises(ValueError, match="unconnected_gradients"):
        tape.gradient(y, x, unconnected_gradients="bogus")


def test_non_persistent_tape_computes_once():
    x = tf.constant(3.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x
    assert float(tape.gradient(y, x)) == 6.0
    with pytest.raises(RuntimeError, match="non-persistent GradientTape can only be used to "
                                           "compute one set of gradients"):
        tape.gradient(y, x)


def test_persistent_tape_computes_many_times():
    x = tf.constant(3.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * x
        z = y * y
    assert float(tape.gradient(y, x)) == 6.0
    assert float(tape.gradient(z, x)) == 108.0
    assert float(tape.gradient(z, y)) == 18.0  # an intermediate as the source


def test_stop_gradient_and_stop_recording():
    x = tf.constant(2.0)
    with GradientTape(persistent=True) as tape:
        tape.watch(x)
        y = x * tf.stop_gradient(x * x)
        with tape.stop_recording():
            z = x * x
        w = z * x
    assert float(tape.gradient(y, x)) == 4.0
    assert float(tape.gradient(w, x)) == 4.0


def test_nested_tapes_give_second_and_third_derivatives():
    x = tf.constant(1.5)
    with GradientTape() as t3:
        t3.watch(x)
        with GradientTape() as t2:
            t2.watch(x)
            with GradientTape() as t1:
                t1.watch(x)
                y = M.sin(x) * x
            dy = t1.gradient(y, x)
        d2y = t2.gradient(dy, x)
    d3y = t3.gradient(d2y, x)
    x0 = 1.5
    assert np.isclose(float(dy), np.cos(x0) * x0 + np.sin(x0), rtol=1e-6)
    assert np.isclose(float(d2y), -np.sin(x0) * x0 + 2 * np.cos(x0), rtol=1e-6)
    assert np.isclose(float(d3y), -np.cos(x0) * x0 - 3 * np.sin(x0), rtol=1e-5)


def test_output_gradients_and_structured_sources():
    x = tf.constant([1.0, 2.0])
    v = tf.Variable(3.0)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * v
    grads = tape.gradient(y, {"x": x, "v": v}, output_gradients=tf.constant([10.0, 1.0]))
    np.testing.assert_allclose(grads["x"].numpy(), [30.0, 3.0])
    assert float(grads["v"]) == 12.0


def test_jacobian():
    x = tf.constant([1.0, 2.0, 3.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = x * x * tf.reduce_sum(x)
    j = tape.jacobian(y, x).numpy()
    x0 = np.array([1.0, 2.0, 3.0])
    expected = np.diag(2 * x0 * x0.sum()) + (x0 * x0)[:, None]
    np.testing.assert_allclose(j, expected, rtol=1e-6)
    with GradientTape() as tape:
        tape.watch(x)
        y = x * 2.0
    assert tape.jacobian(y, tf.constant(1.0)) is None


def test_missing_gradient_names_the_op_and_line():
    x = tf.constant([1.0, 2.0])
    with GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(tf.reshape(x, [1, 2, 1, 1]), [3, 1], method="area")  # MARK-no-grad
    line = [n for n, text in enumerate(open(__file__).read().splitlines(), 1)
            if "MARK-no-grad" in text and "line = " not in text][0]
    # eagerly, TensorFlow's message; the line is in a note (shown with the traceback)
    with pytest.raises(LookupError, match=r"^gradient registry has no entry for: ResizeArea\n") \
            as info:
        tape.gradient(y, x)
    assert re.search(rf"ResizeArea ran at .*test_gradients.py:{line}", info.value.__notes__[0])


def test_sources_must_be_tensors_or_variables():
    with GradientTape() as tape:
        pass
    with pytest.raises(ValueError, match="sources must be tensors or variables"):
        tape.gradient(tf.constant(1.0), [1.0])


def test_no_tape_no_recording_cost():
    from runtime.ops import core
    assert core.RECORDERS == []
    with GradientTape():
        assert len(core.RECORDERS) == 1
    assert core.RECORDERS == []


# -- the eager tape's numpy fast path (runtime/gradients/eager_grads.py) ------------------

FAST_CASES = {
    "AddV2": (tf.add, [(3, 4), (4,)]),
    "Sub": (tf.subtract, [(3, 1), (1, 4)]),
    "Mul": (tf.multiply, [(2, 3, 4), (3, 1)]),
    "RealDiv": (lambda x, y: x / (y * y + 1.0), [(3, 4), (3, 4)]),
    "MatMul": (tf.matmul, [(3, 4), (4, 2)]),
    "MatMul-ta": (lambda a, b: tf.matmul(a, b, transpose_a=True), [(4, 3), (4, 2)]),
    "MatMul-tb": (lambda a, b: tf.matmul(a, b, transpose_b=True), [(3, 4), (2, 4)]),
    "MatMul-tab": (lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                   [(4, 3), (2, 4)]),
    "Neg": (tf.negative, [(3,)]),
    "Identity": (tf.identity, [(3,)]),
    "Tanh": (tf.tanh, [(3, 2)]),
    "Sigmoid": (tf.sigmoid, [(3, 2)]),
    "Exp": (tf.exp, [(3, 2)]),
    "Log": (lambda x: M.log(x * x + 1.0), [(3, 2)]),
    "Square": (tf.square, [(3, 2)]),
    "Relu": (M.relu, [(3, 2)]),
    "Sum": (lambda x: tf.reduce_sum(x, axis=1), [(3, 4)]),
    "Sum-keep": (lambda x: tf.reduce_sum(x, axis=[0, 2], keepdims=True), [(2, 3, 4)]),
    "Mean": (lambda x: tf.reduce_mean(x, axis=-1), [(3, 4)]),
}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("name", sorted(FAST_CASES))
def test_eager_fast_path_matches_the_op_by_op_gradients(name, dtype, monkeypatch):
    """Without an outer tape, an eager gradient runs numpy gradient functions; with one
    recording, it runs ops (so that they can be differentiated again). Both agree exactly
    in dtype and closely in value."""
    from runtime.gradients import eager_grads
    fn, shapes = FAST_CASES[name]
    op = name.split("-")[0]
    calls = []
    real = eager_grads.NUMPY_GRADIENTS[op]
    monkeypatch.setitem(eager_grads.NUMPY_GRADIENTS, op,
                        lambda *a: calls.append(op) or real(*a))
    arrays = [rand(*s).astype(dtype) for s in shapes]
    weights = weights_for(fn, arrays).astype(dtype)

    def grads(outer_tape: bool):
        xs = [tf.constant(a) for a in arrays]
        outer = GradientTape()
        if outer_tape:
            outer.__enter__()
        try:
            with GradientTape() as tape:
                tape.watch(xs)
                loss = tf.reduce_sum(fn(*xs) * tf.constant(weights))
            return tape.gradient(loss, xs)
        finally:
            if outer_tape:
                outer.__exit__(None, None, None)
    slow = grads(True)
    assert not calls
    fast = grads(False)
    assert calls
    for f, s in zip(fast, slow):
        assert f.dtype == s.dtype and f.numpy().dtype == s.numpy().dtype == dtype
        assert f.shape == s.shape
        np.testing.assert_allclose(f.numpy(), s.numpy(), rtol=1e-5 if dtype == np.float32
                                   else 1e-12)
