"""map_fn, scan, foldl, foldr, vectorized_map: values recorded from TensorFlow 2.21 as
literals, eager == staged, one While loop when staged, gradients through the loop."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.runtime.test_gradients import check_gradients
from tests.staging import assert_same, trace

X = np.array([[1., 2.], [3., 4.], [5., 6.]], np.float32)


def same(fn, expected, *args):
    got = assert_same(fn, *args)
    flat_got, flat_exp = tf.nest.flatten(got), tf.nest.flatten(expected)
    assert len(flat_got) == len(flat_exp)
    for g, e in zip(flat_got, flat_exp):
        e = np.asarray(e)
        assert np.asarray(g).dtype == e.dtype, (np.asarray(g).dtype, e.dtype)
        np.testing.assert_allclose(g, e, rtol=1e-6)


def test_map_fn_values():
    same(lambda x: tf.map_fn(lambda r: r * 2.0, x), X * 2, X)
    same(lambda x: tf.map_fn(lambda r: tf.reduce_sum(r), x, fn_output_signature=tf.float32),
         np.float32([3., 7., 11.]), X)
    same(lambda a, b: tf.map_fn(lambda t: (t[0] + 1, t[1] * 2), (a, b)),
         (np.int32([2, 3]), np.float32([2., 4.])), np.int32([1, 2]), np.float32([1., 2.]))
    same(lambda a, b: tf.map_fn(lambda t: t["a"] + t["b"], {"a": a, "b": b},
                                fn_output_signature=tf.int32),
         np.int32([11, 22]), np.int32([1, 2]), np.int32([10, 20]))
    same(lambda x: tf.map_fn(lambda r: tf.cast(r, tf.int64), x,
                             fn_output_signature=tf.TensorSpec([2], tf.int64)),
         X.astype(np.int64), X)
    same(lambda x: tf.map_fn(lambda r: tf.map_fn(lambda v: v + 1.0, r), x), X + 1, X)  # nested


def test_scan_and_folds_values():
    same(lambda x: tf.scan(lambda a, v: a + v, x), np.int32([1, 3, 6, 10]), np.int32([1, 2, 3, 4]))
    same(lambda x: tf.scan(lambda a, v: a * v, x, initializer=tf.constant(2.), reverse=True),
         np.float32([48., 48., 24., 8.]), np.float32([1., 2., 3., 4.]))
    same(lambda x: tf.scan(lambda a, v: (a[0] + v, a[1] * v), x,
                           initializer=(tf.constant(0), tf.constant(1))),
         (np.int32([1, 3, 6]), np.int32([1, 2, 6])), np.int32([1, 2, 3]))
    same(lambda x: tf.foldl(lambda a, v: a - v, x), np.int32(-8), np.int32([1, 2, 3, 4]))
    same(lambda x: tf.foldr(lambda a, v: a - v, x), np.int32(-2), np.int32([1, 2, 3, 4]))
    same(lambda a, b: tf.foldl(lambda acc, v: acc + v[0] * v[1], (a, b),
                               initializer=tf.constant(0.5)),
         np.float32(11.5), np.float32([1., 2.]), np.float32([3., 4.]))
    same(lambda x: tf.foldr(lambda a, v: a * v, x), np.float32([15., 48.]), X)


def test_vectorized_map():
    same(lambda x: tf.vectorized_map(lambda r: (r * 2, tf.reduce_sum(r)), x),
         (X * 2, np.float32([3., 7., 11.])), X)
    same(lambda x: tf.vectorized_map(lambda r: tf.cast(tf.reduce_sum(r), tf.int32), x),
         np.int32([3, 7, 11]), X)


def test_staged_as_one_while_loop_inside_function():
    graph, _, _ = trace(lambda x: tf.map_fn(lambda r: r * r, x), X)
    assert [n.op for n in graph.nodes].count("While") + \
        [n.op for n in graph.nodes].count("StatelessWhile") == 1
    assert not any(n.op == "Mul" for n in graph.nodes)  # the body is in the loop, not unrolled

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def f(x):
        return (tf.map_fn(lambda r: r * r, x), tf.scan(lambda a, b: a + b, x),
                tf.foldr(lambda a, b: a * b, x))
    m, s, r = f(X)
    np.testing.assert_array_equal(m.numpy(), X * X)
    np.testing.assert_array_equal(s.numpy(), np.cumsum(X, axis=0))
    np.testing.assert_array_equal(r.numpy(), np.float32([15., 48.]))

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)])
    def g(x):
        return tf.map_fn(lambda r: r * r, x)
    assert g(X[:0]).shape == (0, 2)  # an empty input runs zero iterations


def test_errors():
    x = tf.constant(X)
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.map_fn(lambda r: (r, r), x)
    with pytest.raises(InvalidArgumentError, match="TensorArray dtype is float32 but Op is "
                                                   "trying to write dtype int32"):
        tf.map_fn(lambda r: tf.cast(r, tf.int32), x)
    with pytest.raises(ValueError, match="must be 1\\+ dimensional Tensors, not scalars"):
        tf.map_fn(lambda r: r, tf.constant(1.))
    with pytest.raises(ValueError, match="does not contain any Tensors"):
        tf.map_fn(lambda r: r, ())
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.scan(lambda a, v: (a, a), tf.constant([1, 2]))


def test_gradient_through_loops_recorded_from_tensorflow():
    v = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as t:
        y = (tf.reduce_sum(tf.map_fn(lambda r: r * r * v[0], v))
             + tf.reduce_sum(tf.scan(lambda a, b: a * b, v))
             + tf.foldl(lambda a, b: a + tf.exp(b), v))
    np.testing.assert_allclose(t.gradient(y, v).numpy(), [26., 15.389056, 28.085537], rtol=1e-6)


@pytest.mark.parametrize("mode", ["eager", "staged"])
@pytest.mark.parametrize("name", ["map_fn", "scan", "scan_reverse", "foldl", "foldr"])
def test_gradients_numeric(name, mode):
    fns = {
        "map_fn": lambda x: tf.map_fn(lambda r: r * tf.reduce_sum(r), x),
        "scan": lambda x: tf.scan(lambda a, r: a * r + 1.0, x),
        "scan_reverse": lambda x: tf.scan(lambda a, r: a * r, x,
                                          initializer=tf.ones([3], tf.float64), reverse=True),
        "foldl": lambda x: tf.foldl(lambda a, r: a * r - r, x),
        "foldr": lambda x: tf.foldr(lambda a, r: tf.tanh(a) + r * r, x),
    }
    check_gradients(fns[name], np.random.default_rng(5).uniform(-1, 1, (4, 3)), mode=mode)
