"""The per-API tables of the eager fast paths and the Function hit table (issue 17).

Eager tensors carry an interned ValueSpec (dtype name and shape, hashed by identity); the
elementwise APIs and tf.matmul key their tables on it (or on a Python number's class and
value), integer kernels that cannot warn skip the silenced error state, small BLAS products
run np.dot, and a Function finds the trace of an all-eager positional call by the same
specs. Each is compared with the path it short-cuts, or with TensorFlow's values recorded
as literals.
"""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime import function as function_module
from runtime.ops import eager, math_ops
from runtime.tensor import EagerTensor, value_spec
from tests.staging import assert_same


@pytest.fixture(autouse=True)
def fresh_cache():
    eager.clear_cache()
    yield
    eager.clear_cache()


def _spec_is_exact(t):
    """A tensor's spec says what its value is (dtype name and numpy shape)."""
    assert t._spec is None or t._spec is value_spec(t.dtype.name, np.shape(t.numpy()))
    assert t.shape.as_tuple() == np.shape(t.numpy())


# -- ValueSpec -----------------------------------------------------------------------------

def test_value_specs_are_interned_and_give_the_shape():
    assert value_spec("float32", (2, 3)) is value_spec("float32", (2, 3))
    assert value_spec("float32", (2, 3)) is not value_spec("float64", (2, 3))
    for value in (np.ones((2, 3), np.float32), np.float32(1.5), np.array(3, np.int32)):
        t = EagerTensor(value, tf.as_dtype(value.dtype))
        assert t.shape.as_tuple() == np.shape(value)
        assert t._value_spec() is value_spec(t.dtype.name, np.shape(value))
    flow = tf.TensorArray(tf.float32, size=2).write(0, 1.0).flow  # a variant (not numpy) value
    assert flow.shape.as_tuple() == ()
    assert tf.constant(["a", "bc"]).shape.as_tuple() == (2,)


def test_fast_path_results_carry_their_exact_spec():
    x = tf.constant(np.arange(6, dtype=np.float32).reshape(2, 3))
    row, col = tf.constant([1.0, 2.0, 3.0]), tf.constant([[1.0], [2.0]])
    s = tf.constant(np.float32(2.0))
    m = tf.constant(np.ones((3, 2), np.float32))
    for _ in range(3):  # miss, then hits from the tables
        for t in (x + row, col * row, tf.maximum(s, x), s - s, tf.tanh(x), -s, x * 2.0,
                  tf.matmul(x, m), tf.matmul(col, tf.constant([[1.0, 2.0]])), x[1]):
            _spec_is_exact(t)
    assert (col * row).shape.as_tuple() == (2, 3)


# -- the API tables ------------------------------------------------------------------------

def test_number_operands_are_keyed_by_class():
    i = tf.constant([7, -7])
    for _ in range(3):
        assert (i + 1).numpy().tolist() == [8, -6]
    reference = math_ops.add._dispatch_target
    try:
        expected = reference(i, 1.0)
    except Exception as e:  # noqa: BLE001 (whatever the reference path does, the table does)
        with pytest.raises(type(e)):
            tf.add(i, 1.0)
    else:
        assert tf.add(i, 1.0).dtype == expected.dtype
    f = tf.constant([1.5])
    for _ in range(2):
        assert (f * 2).numpy().tolist() == [3.0] and (f * 2).dtype == tf.float32


def test_clear_cache_drops_the_tables_and_tables_are_bounded():
    x = tf.constant([1.0, 2.0])
    for v in range(1, eager._TABLE_LIMIT + 50):
        for _ in range(2):
            assert tf.add(x, v).numpy().tolist() == [1.0 + v, 2.0 + v]
    assert all(len(t) <= eager._TABLE_LIMIT for t in eager._TABLES)
    assert any(eager._TABLES)
    eager.clear_cache()
    assert not any(eager._TABLES)
    assert tf.add(x, 3).numpy().tolist() == [4.0, 5.0]


def test_integer_kernels_wrap_silently_with_tensorflow_values():
    i = tf.constant([2147483647, -5])
    m = tf.constant([[65536, 1], [0, 1]], tf.int32)
    s = tf.constant(np.int32(2147483647))
    with np.errstate(all="raise"):
        before = np.geterr()
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            for _ in range(3):  # TensorFlow's values, recorded as literals
                assert (i + 1).numpy().tolist() == [-2147483648, -4]
                assert (i * tf.constant(np.int32(2))).numpy().tolist() == [-2, -10]
                assert tf.matmul(m, m).numpy().tolist() == [[0, 65537], [0, 1]]
                assert (tf.constant([65536]) * tf.constant([65536])).numpy().tolist() == [0]
                assert tf.negative(tf.constant([-128], tf.int8)).numpy().tolist() == [-128]
                assert (s + tf.constant(np.int32(1))).numpy() == -2147483648  # 0-d: quiet
                assert np.isinf(tf.exp(tf.constant([100.0])).numpy()[0])
        assert np.geterr() == before
    with pytest.raises(InvalidArgumentError):
        tf.math.floordiv(tf.constant([1, 2]), tf.constant([1, 0]))


def test_only_integer_arrays_of_known_silent_kernels_skip_the_error_state():
    assert eager._silent(np.matmul, [tf.constant([[1]])])
    assert not eager._silent(np.matmul, [tf.constant([[1.0]])])
    assert eager._silent(np.add, [tf.constant(1), tf.constant([1])])  # an array loop runs
    assert not eager._silent(np.add, [tf.constant(1), tf.constant(1)])  # maybe numpy scalars
    assert not eager._silent(np.floor_divide, [tf.constant([1])])
    assert not eager._silent(lambda a: a, [tf.constant([1])])


# -- matmul ---------------------------------------------------------------------------------

def test_matmul_transposes_equal_tensorflow():
    a = tf.constant([[1.5, 2.0], [3.0, -1.0]])
    b = tf.constant([[0.5, 1.0], [2.0, 4.0]])
    for _ in range(2):  # TensorFlow's values, recorded as literals
        assert tf.matmul(a, b, transpose_a=True).numpy().tolist() == [[6.75, 13.5], [-1.0, -2.0]]
        assert tf.matmul(a, b, transpose_b=True).numpy().tolist() == [[2.75, 11.0], [0.5, 2.0]]
        assert tf.matmul(a, b, transpose_a=True, transpose_b=True).numpy().tolist() == \
            [[3.75, 15.0], [0.0, 0.0]]


def test_small_products_run_np_dot_and_large_ones_np_matmul():
    small = tf.constant(np.ones((4, 4), np.float32))
    big = tf.constant(np.ones((100, 100), np.float32))
    ints = tf.constant(np.ones((4, 4), np.int32))
    for x in (small, big, ints):
        tf.matmul(x, x)
    kernels = {k[1:3]: v.kernel for k, v in eager._CACHE.items() if k[0] == "MatMul"}
    assert kernels[("float32", (4, 4))] is np.dot
    assert kernels[("float32", (100, 100))] is np.matmul  # (a ufunc: its buffer is reusable)
    assert kernels[("int32", (4, 4))] is np.matmul  # (no BLAS for integers)
    np.testing.assert_array_equal(tf.matmul(small, small).numpy(), np.full((4, 4), 4.0))


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_staged_equals_eager_and_its_gradient(ta, tb):
    rng = np.random.default_rng(0)
    a_np = rng.normal(size=(3, 4) if not ta else (4, 3)).astype(np.float32)
    b_np = rng.normal(size=(4, 2) if not tb else (2, 4)).astype(np.float32)
    assert_same(lambda a, b: tf.matmul(a, b, transpose_a=ta, transpose_b=tb), a_np, b_np)
    a, b = tf.constant(a_np), tf.constant(b_np)
    with tf.GradientTape() as tape:
        tape.watch(a)
        loss = tf.reduce_sum(tf.matmul(a, b, transpose_a=ta, transpose_b=tb) ** 2)
    grad = tape.gradient(loss, a).numpy()
    eps, numeric = 1e-2, np.zeros_like(a_np)
    am, bm = (a_np.T if ta else a_np), (b_np.T if tb else b_np)
    for idx in np.ndindex(*a_np.shape):
        d = np.zeros_like(a_np)
        d[idx] = eps
        dm = d.T if ta else d
        numeric[idx] = (np.sum(((am + dm) @ bm) ** 2) - np.sum(((am - dm) @ bm) ** 2)) / (2 * eps)
    np.testing.assert_allclose(grad, numeric, rtol=2e-2, atol=2e-2)


# -- the Function hit table -----------------------------------------------------------------

def test_function_hits_find_the_same_trace_and_retrace_on_new_specs():
    traces = []

    @tf.function(autograph=False)
    def f(x, y):
        traces.append(1)
        return tf.tanh(x * y + 1.0)
    x, y = tf.constant(np.ones(4, np.float32)), tf.constant(np.full(4, 2.0, np.float32))
    for _ in range(3):
        np.testing.assert_allclose(f(x, y).numpy(), np.tanh(np.full(4, 3.0)), rtol=1e-6)
    assert len(traces) == 1 and len(f._hits) == 1
    assert f(x * 1.0, y + 0.0).shape == (4,)  # other tensors of the same specs: a hit
    assert f(tf.constant(np.ones(5, np.float32)), tf.constant(np.ones(5, np.float32))).shape == (5,)
    assert f(tf.constant(np.ones(4)), tf.constant(np.ones(4))).dtype == tf.float64
    assert len(traces) == 3 == f.experimental_get_tracing_count()
    assert f(x, y=y).shape == (4,) and f(x, 2.0).shape == (4,)  # keyword and Python values
    assert f.experimental_get_tracing_count() == 4  # (2.0 is a Python value: its own trace)


def test_function_hits_record_under_a_tape_and_respect_run_eagerly():
    calls = []

    @tf.function(autograph=False)
    def f(x, y):
        calls.append(1)
        return x * y
    x, y = tf.constant([3.0]), tf.constant([4.0])
    f(x, y), f(x, y)
    with tf.GradientTape() as tape:
        tape.watch(x)
        z = f(x, y)
    assert tape.gradient(z, x).numpy().tolist() == [4.0]
    tf.config.run_functions_eagerly(True)
    try:
        n = len(calls)
        assert f(x, y).numpy().tolist() == [12.0]
        assert len(calls) == n + 1  # ran the Python function, not the hit
    finally:
        tf.config.run_functions_eagerly(False)


def test_function_hit_table_is_bounded(monkeypatch):
    monkeypatch.setattr(function_module, "_HITS_LIMIT", 3)

    @tf.function(reduce_retracing=True, autograph=False)
    def f(x):
        return x + 1.0
    for n in range(1, 8):
        assert f(tf.constant(np.zeros(n, np.float32))).numpy().tolist() == [1.0] * n
    assert len(f._hits) <= 3


# -- conversion of Python numbers (shapes, axes, perms) --------------------------------------

def test_python_number_lists_convert_as_tensorflow_converts_them():
    from runtime.ops.core import convert_to_tensor

    def conv(value, **kw):
        t = convert_to_tensor(value, **kw)
        return t.dtype.name, t.numpy().tolist()
    for _ in range(2):  # TensorFlow's dtypes and values, recorded as literals
        assert conv([32, 8], dtype_hint=tf.int32) == ("int32", [32, 8])
        assert conv((32, 8), dtype_hint=tf.int32) == ("int32", [32, 8])
        assert conv([1.5, 2], dtype_hint=tf.int32) == ("float32", [1.5, 2.0])
        assert conv([True, False], dtype_hint=tf.int32) == ("int32", [1, 0])
        assert conv([[1, 2], [3, 4]], dtype_hint=tf.float32) == \
            ("float32", [[1.0, 2.0], [3.0, 4.0]])
        assert conv((), dtype_hint=tf.int32) == ("int32", [])
        assert conv([1, 2**31]) == ("int64", [1, 2147483648])
        assert conv(["a", "b"], dtype_hint=tf.int32) == ("string", [b"a", b"b"])
        assert conv([np.int64(3), 4], dtype_hint=tf.int32) == ("int32", [3, 4])
        with pytest.raises(TypeError, match="dtype bool"):
            tf.constant([1, 2], tf.bool)
        with pytest.raises(TypeError):
            tf.constant([1.0, 2.5], tf.int32)
        x = tf.constant(3)
        assert conv([x, 1]) == ("int32", [3, 1])  # (a list holding a tensor is packed)
    assert tf.reshape(tf.ones([8, 4]), (2, -1)).shape == (2, 16)
    assert tf.transpose(tf.reshape(tf.range(6), [2, 3]), [1, 0]).numpy().tolist() == \
        [[0, 3], [1, 4], [2, 5]]
