"""The fast paths of issue 17 give what the general paths give.

Python-number operands shared per (type, value, dtype); eager ``x[i]`` as numpy's
view; the Function cache-hit key built in one loop; one-frame single-output runs;
``Sum``/``Prod`` generated as the ufunc's ``reduce``. Each is compared with the path
it short-cuts (or with TensorFlow's values, recorded as literals).
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from graph import compile_graph
from graph.errors import InvalidArgumentError
from runtime import trace_type as tt
from runtime.ops import array_ops, math_ops
from tests.staging import staged, trace


# -- Python-number operands ---------------------------------------------------------------

def test_number_operand_values_and_dtypes():
    x = tf.constant([1.5, -2.0], tf.float32)
    for _ in range(2):  # the second round runs from the table
        assert (x * 2.0).numpy().tolist() == [3.0, -4.0]
        assert (2.0 - x).numpy().tolist() == [0.5, 4.0]
        assert (x + 1).dtype == tf.float32
    i = tf.constant([7, -7])
    for _ in range(2):
        assert (i // 2).numpy().tolist() == [3, -4]  # TensorFlow: [3, -4]
        assert (i % 3).dtype == tf.int32


def test_signed_zero_is_not_shared():
    z = tf.constant([-0.0], tf.float32)
    assert np.signbit((z + 0.0).numpy()[0]) == np.False_  # -0 + 0 = +0
    assert np.signbit((z + -0.0).numpy()[0]) == np.True_  # -0 + -0 = -0
    assert np.signbit((z + 0.0).numpy()[0]) == np.False_


def test_nan_operand_and_bool_against_int():
    x = tf.constant([1.0], tf.float32)
    assert np.isnan((x * float("nan")).numpy()[0])
    b = tf.constant([True, False])
    assert (b == True).numpy().tolist() == [True, False]  # noqa: E712
    assert (tf.constant([1, 0]) == 1).numpy().tolist() == [True, False]


def test_lossy_number_raises_every_time():
    i = tf.constant([1, 2])
    for _ in range(2):
        with pytest.raises(TypeError):
            i + 1.5
        # an int beyond int32 but within int64 wraps around, as in TensorFlow (2**40 is 0)
        assert (i + 2**40).numpy().tolist() == [1, 2]


def test_shared_operand_is_read_only_and_gradients_unaffected():
    x = tf.constant([3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x * 3.0
        z = y * 3.0
    assert tape.gradient(z, x).numpy().tolist() == [9.0]
    shared = math_ops._NUMBER_OPERANDS[(float, 3.0, "float32")]
    assert not shared._value.flags.writeable


def test_tf_constant_tensors_stay_distinct():
    """Only operands are shared: two tf.constant calls are two tensors, as TensorFlow's."""
    a = tf.constant(2.0, dtype=tf.float32)
    b = tf.constant(2.0, dtype=tf.float32)
    assert a is not b
    with tf.GradientTape() as tape:
        tape.watch([a, b])
        z = a * b
    assert [g.numpy() for g in tape.gradient(z, [a, b])] == [2.0, 2.0]


def test_number_operand_staged_is_a_named_const():
    graph, _, _ = trace(lambda x: x * 2.0, np.ones(3, np.float32))
    assert "mul/y" in [n.name for n in graph.nodes]


# -- eager x[i] -----------------------------------------------------------------------------

@pytest.mark.parametrize("shape", [(5,), (4, 3), (3, 2, 2)])
def test_int_index_equals_strided_slice(shape):
    v = np.arange(np.prod(shape), dtype=np.float32).reshape(shape)
    x = tf.constant(v)
    for i in (0, 2, -1):
        fast = x[i]
        slow = array_ops.strided_slice(x, i)  # the general path: StridedSlice's kernel
        np.testing.assert_array_equal(fast.numpy(), slow.numpy())
        assert fast.dtype == tf.float32 and fast.shape == slow.shape


def test_int_index_errors_and_strings():
    x = tf.constant([1, 2, 3])
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        x[3]
    with pytest.raises(InvalidArgumentError):
        tf.constant(1)[0]
    s = tf.constant([b"a", b"bc"])
    assert s[1].numpy() == b"bc" and s[1].dtype == tf.string


def test_int_index_under_a_tape_and_staged():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[1] * 2.0
    assert tape.gradient(y, x).numpy().tolist() == [[0.0, 0.0], [2.0, 2.0]]
    out = staged(lambda t: t[1], np.arange(6, dtype=np.int32).reshape(3, 2))
    assert out.tolist() == [2, 3]


# -- Function cache hit ---------------------------------------------------------------------

def test_call_key_is_make_key_per_argument():
    args = (tf.constant([1.0]), tf.constant(3), [tf.constant([1, 2]), 2.0], "s", np.ones(2))
    feeds_a, feeds_b = [], []
    assert tt.call_key(args, feeds_a) == tuple(tt.make_key(a, feeds_b) for a in args)
    assert len(feeds_a) == len(feeds_b) == 4


def test_single_output_call_recorded_by_a_tape():
    f = tf.function(lambda x, y: tf.tanh(x * y))
    x, y = tf.constant([0.5]), tf.constant([2.0])
    assert f(x, y).numpy()[0] == pytest.approx(np.tanh(1.0))  # cache miss, then hit
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = f(x, y)
    assert tape.gradient(z, x).numpy()[0] == pytest.approx(2.0 * (1 - np.tanh(1.0) ** 2))


# -- Sum / Prod as ufunc.reduce in generated code ---------------------------------------------

@pytest.mark.parametrize("axis,keepdims", [(None, False), (0, True), (-1, False), ([0, 1], False)])
def test_reductions_codegen_equal_interpreter(axis, keepdims):
    v = np.arange(1, 13, dtype=np.float32).reshape(3, 4) / 7
    for fn in (tf.reduce_sum, tf.reduce_prod):
        out = staged(lambda t: fn(t, axis=axis, keepdims=keepdims), v)
        np.testing.assert_allclose(out, fn(tf.constant(v), axis=axis, keepdims=keepdims).numpy(),
                                   rtol=1e-6)


def test_reductions_codegen_int_wrap_and_empty():
    big = np.full(4, 2**30, np.int32)
    assert int(staged(tf.reduce_sum, big)) == 0  # TensorFlow wraps: 0
    assert int(staged(tf.reduce_prod, np.zeros((0,), np.int32))) == 1
    graph, _, _ = trace(tf.reduce_sum, np.ones((2, 3), np.float32))
    plan = compile_graph(graph)
    assert plan.fn.__globals__["k0"] == np.add.reduce and "k0(a0, None," in plan.source
