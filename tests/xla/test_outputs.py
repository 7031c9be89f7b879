"""Results of a compiled call: small results of one dtype share a buffer (graph/xla/outputs.py)."""
import numpy as np
import pytest

import autograph as tf
from graph.dtypes import as_dtype
from graph.ir import TensorType
from graph.shapes import TensorShape

jax = pytest.importorskip("jax")
from graph.xla.outputs import PACK_LIMIT, Layout  # noqa: E402


def _t(dtype, shape):
    return TensorType(as_dtype(dtype), TensorShape(shape))


def test_layout_groups_small_known_results_by_dtype():
    layout = Layout([_t("int32", ()), _t("float32", [2]), _t("int32", [3]),
                     _t("float32", [None]), _t("bool", ()), _t("float32", [PACK_LIMIT]),
                     _t("int32", [2, 2]), _t("string", ())])
    assert layout.groups == [[0, 2, 6]]
    assert layout.loose == [1, 3, 4, 5, 7]
    assert layout.n_buffers == 6


def test_layout_splits_a_group_at_the_limit():
    half = PACK_LIMIT // 2
    layout = Layout([_t("float32", [half])] * 3 + [_t("float32", ())])
    assert layout.groups == [[0, 1], [2, 3]] and layout.loose == []


def test_unpack_gives_views_and_numpy_scalars():
    layout = Layout([_t("int32", ()), _t("int32", [2, 2]), _t("float32", [3])])
    buffer = np.arange(5, dtype=np.int32)
    scalar, matrix, loose = layout.unpack((buffer, np.ones(3, np.float32)))
    assert type(scalar) is np.int32 and scalar == 0
    np.testing.assert_array_equal(matrix, [[1, 2], [3, 4]])
    assert matrix.dtype == np.int32 and loose.dtype == np.float32


def test_no_results():
    assert Layout([]).unpack(()) == ()


def test_compiled_results_equal_the_numpy_backend():
    def f(x, n):
        total = tf.reduce_sum(x)
        return (total, tf.cast(n, tf.int64) * 2, n + 1, x > 0, tf.reshape(x[:4], [2, 2]),
                tf.zeros([PACK_LIMIT + 1]), tf.argmax(x), tf.constant(3), x * 2)
    signature = [tf.TensorSpec([None], tf.float32), tf.TensorSpec([], tf.int32)]
    args = (tf.constant([1.5, -2.0, 3.0, 0.5]), tf.constant(2))
    got = tf.function(f, jit_compile=True, input_signature=signature)(*args)
    want = tf.function(f, input_signature=signature)(*args)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        assert g.dtype == w.dtype and g.shape == w.shape
        np.testing.assert_array_equal(g.numpy(), w.numpy())
    assert type(got[0].numpy()) is np.float32 and type(got[1].numpy()) is np.int64


def test_written_variables_and_random_results_unpack():
    v = tf.Variable([1.0, 2.0])

    @tf.function(jit_compile=True)
    def f(x):
        v.assign_add(x)
        return v.read_value(), tf.reduce_sum(v), tf.random.stateless_uniform([2], seed=[1, 2])
    a, s, r = f(tf.constant([1.0, 1.0]))
    np.testing.assert_array_equal(a.numpy(), [2.0, 3.0])
    assert s.numpy() == 5.0 and r.shape == [2]
    np.testing.assert_array_equal(v.numpy(), [2.0, 3.0])
