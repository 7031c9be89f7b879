"""The one-frame eager paths of the elementwise APIs and tf.matmul (runtime/ops/eager.py
``unary_api``/``binary_api``) give what their reference paths give, and step aside for
everything they do not handle: tapes, numeric checks, graphs, init_scope, composites,
user dispatch targets, cache misses, keyed-on-value entries and kernel errors.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime.ops import array_ops, core, eager, math_ops


@pytest.fixture(autouse=True)
def fresh_cache():
    eager.clear_cache()
    yield
    eager.clear_cache()


_BINARY = ["add", "subtract", "multiply", "maximum", "minimum", "floormod", "squared_difference",
           "greater", "less_equal", "floordiv"]
_UNARY = ["negative", "square", "sign", "tanh", "exp", "sqrt", "floor", "sigmoid"]


def _same(a, b):
    assert a.dtype == b.dtype
    np.testing.assert_array_equal(np.asarray(a.numpy()), np.asarray(b.numpy()))


@pytest.mark.parametrize("dtype", [np.float32, np.int32, np.float64])
def test_binary_hits_equal_the_reference_path(dtype):
    x = tf.constant(np.array([[1, 2, 3], [4, 5, 6]], dtype))
    y = tf.constant(np.array([3, 2, 1], dtype))
    s = tf.constant(dtype(2))  # a 0-d tensor holds a numpy scalar, not an array
    for name in _BINARY:
        fn = getattr(math_ops, name)
        for a, b in ((x, y), (x, s), (s, s), (x, 2)):
            for _ in range(3):  # miss, then hits
                _same(fn(a, b), fn._dispatch_target(a, b))


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_hits_equal_the_reference_path(dtype):
    x = tf.constant(np.array([[0.5, -2.0], [4.0, 9.0]], dtype))
    for name in _UNARY:
        fn = getattr(math_ops, name)
        for a in (x, tf.constant(dtype(0.25))):
            for _ in range(3):
                _same(fn(a), fn._dispatch_target(a))


def test_python_number_operands_keep_tensorflow_dtype_rules():
    i = tf.constant([7, -7])
    for _ in range(3):
        assert tf.add(i, 1).dtype == tf.int32
        assert tf.multiply(tf.constant([1.5]), 2).numpy().tolist() == [3.0]
        with pytest.raises(TypeError):
            tf.add(i, 1.5)
        assert tf.add(i, True).numpy().tolist() == [8, -6]  # TensorFlow: [8, -6]
    b = tf.constant([True, False])
    for _ in range(2):
        assert tf.logical_and(b, True).numpy().tolist() == [True, False]


def test_errors_raise_on_every_call_with_the_reference_message():
    x, y = tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0, 3.0])
    messages = set()
    for _ in range(3):
        with pytest.raises(InvalidArgumentError) as e:
            tf.add(x, y)
        messages.add(str(e.value).split("\n")[0])
        with pytest.raises(InvalidArgumentError):
            tf.add(x, tf.constant([1]))  # float32 + int32
    assert len(messages) == 1
    i = tf.constant([7, 8])
    for _ in range(2):
        assert tf.math.floordiv(i, tf.constant([2, 3])).numpy().tolist() == [3, 2]
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        tf.math.floordiv(i, tf.constant([2, 0]))  # a keyed-on-value entry: the general path


def test_hits_keep_numpy_silent_and_restore_the_error_state():
    big = tf.constant(np.array([3e38], np.float32))
    with np.errstate(over="raise"):
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(3):
                assert np.isinf(tf.add(big, big).numpy()[0])
                assert np.isinf(tf.exp(tf.constant([100.0])).numpy()[0])
        assert np.geterr() == before


def test_a_tape_and_numeric_checks_see_every_op():
    x = tf.constant([0.5, 1.0])
    tf.tanh(x), tf.multiply(x, 3.0), tf.matmul(tf.constant([[1.0]]), tf.constant([[2.0]]))
    with tf.GradientTape() as tape:  # (the entries are cached: the fast path would hit)
        tape.watch(x)
        y = tf.multiply(tf.tanh(x), 3.0)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), 3 * (1 - np.tanh([0.5, 1.0]) ** 2),
                               rtol=1e-6)
    m = tf.constant([[1.0, 2.0]])
    with tf.GradientTape() as tape:
        tape.watch(m)
        z = tf.matmul(m, tf.constant([[3.0], [4.0]]))
    assert tape.gradient(z, m).numpy().tolist() == [[3.0, 4.0]]
    tf.math.log(tf.constant([1.0]))
    tf.debugging.enable_check_numerics()
    try:
        with pytest.raises(InvalidArgumentError):
            tf.math.log(tf.constant([0.0]))
    finally:
        tf.debugging.disable_check_numerics()


def test_graphs_and_init_scope_take_the_general_path():
    c = tf.constant([1.0, 2.0])
    tf.add(c, c), tf.tanh(c)

    @tf.function
    def f(x):
        with tf.init_scope():
            eager_sum = tf.add(c, c)
        assert eager_sum.numpy().tolist() == [2.0, 4.0]
        staged = tf.tanh(tf.add(x, 1.0))
        assert not hasattr(staged, "_value")  # recorded, not run
        return staged
    np.testing.assert_allclose(f(c).numpy(), np.tanh([2.0, 3.0]), rtol=1e-6)


def test_composites_and_user_targets_still_dispatch():
    rt_ = tf.ragged.constant([[1.0, 2.0], [3.0]])
    c = tf.constant([1.0])
    tf.add(c, c), tf.tanh(c)
    assert tf.add(rt_, 1.0).to_list() == [[2.0, 3.0], [4.0]]
    assert tf.math.negative(rt_).to_list() == [[-1.0, -2.0], [-3.0]]
    assert (c + rt_).to_list() == [[2.0, 3.0], [4.0]]

    class Box:
        pass

    @tf.experimental.dispatch_for_api(tf.math.add, {"y": Box})
    def add_box(x, y, name=None):
        return "boxed"
    try:
        assert tf.math.add(c, Box()) == "boxed"
        assert tf.add(c, 1.0).numpy().tolist() == [2.0]
    finally:
        tf.experimental.unregister_dispatch_for(add_box)


def test_matmul_fast_path_equals_numpy_and_the_general_forms():
    a_np = np.arange(6, dtype=np.int32).reshape(2, 3)
    b_np = np.arange(12, dtype=np.int32).reshape(3, 4)
    a, b = tf.constant(a_np), tf.constant(b_np)
    for _ in range(3):
        r = tf.matmul(a, b)
        assert r.dtype == tf.int32
        np.testing.assert_array_equal(r.numpy(), a_np @ b_np)
    np.testing.assert_array_equal(tf.matmul(a, a, transpose_b=True).numpy(), a_np @ a_np.T)
    batch = tf.constant(np.ones((2, 3, 3), np.float32))
    assert tf.matmul(batch, batch).shape == (2, 3, 3)
    for _ in range(2):
        with pytest.raises(InvalidArgumentError):
            tf.matmul(a, a)
        with pytest.raises(InvalidArgumentError):
            tf.matmul(a, tf.constant(np.ones((3, 4), np.float32)))


def test_conversion_has_one_home_below_the_ops():
    """tf.constant / convert_to_tensor pack nested lists of tensors in core (no import of
    array_ops), and array_ops keeps exporting the same function."""
    assert array_ops.stack_nested is core.stack_nested
    x = tf.constant(3)
    assert tf.constant([x, 1]).numpy().tolist() == [3, 1]
    assert core.convert_to_tensor([[x], [2]], dtype_hint=tf.float64).dtype == tf.float64
    assert core.convert_to_tensor([x, tf.constant(2, tf.int64)], dtype=tf.int64).dtype == tf.int64
    with pytest.raises(TypeError):
        core.convert_to_tensor([x, tf.constant(2, tf.int64)])
