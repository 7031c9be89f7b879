"""tf.random: seed rules, new samplers, stateless ops and Generator (values: determinism rules,
not TensorFlow's bits; dtypes, shapes and errors as TensorFlow gives them)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import staged


def test_set_seed_makes_a_function_repeat_its_numbers():
    tf.random.set_seed(1234)

    @tf.function
    def f():
        return tf.random.uniform([3])
    a, b = f().numpy(), f().numpy()
    assert not np.array_equal(a, b)
    tf.random.set_seed(1234)
    np.testing.assert_array_equal(f().numpy(), a)


def test_stateful_samplers_dtypes_and_shapes():
    tf.random.set_seed(5)
    t = tf.random.truncated_normal([200], mean=1.0, stddev=2.0)
    assert t.dtype == tf.float32 and np.all(np.abs(t.numpy() - 1.0) <= 4.0)
    c = tf.random.categorical(tf.math.log([[0.5, 0.5], [1.0, 1e-30]]), 50)
    assert c.dtype == tf.int64 and c.shape == (2, 50) and np.all(c.numpy()[1] == 0)
    assert tf.random.categorical([[0.0, 1.0]], 3, dtype=tf.int32).dtype == tf.int32
    s = tf.random.shuffle(tf.reshape(tf.range(6), [3, 2])).numpy()
    assert sorted(map(tuple, s)) == [(0, 1), (2, 3), (4, 5)]
    assert tf.random.gamma([3, 2], [[1.0], [2.0]]).shape == (3, 2, 2, 1)
    assert tf.random.gamma([3], 2.0, dtype=tf.float64).dtype == tf.float64
    p = tf.random.poisson([3], [1.0, 2.0], dtype=tf.int32)
    assert p.shape == (3, 2) and p.dtype == tf.int32


def test_errors_match_tensorflow():
    with pytest.raises(ValueError, match="Must specify maxval"):
        tf.random.uniform([2], dtype=tf.int32)
    with pytest.raises(TypeError):
        tf.random.uniform([2], maxval=5.5, dtype=tf.int32)
    with pytest.raises(ValueError, match="Argument `dtype` got invalid value"):
        tf.random.categorical([[1.0, 2.0]], 3, dtype=tf.float32)
    with pytest.raises(InvalidArgumentError, match="logits should be a matrix"):
        tf.random.categorical([1.0, 2.0], 3)
    with pytest.raises(InvalidArgumentError, match=r"seed must have shape \[2\], not \[3\]"):
        tf.random.stateless_normal([2], [1, 2, 3])
    with pytest.raises(InvalidArgumentError):
        tf.random.stateless_normal([2], [1.0, 2.0])
    with pytest.raises(ValueError, match="must be both None or not None"):
        tf.random.stateless_uniform([2], [1, 2], dtype=tf.int32)
    g = tf.random.Generator.from_seed(1)
    with pytest.raises(ValueError, match="both `None` or both non-`None`"):
        g.uniform([2], dtype=tf.int64)


def _stateless(seed):
    return (tf.random.stateless_uniform([3], seed), tf.random.stateless_normal([2, 2], seed),
            tf.random.stateless_truncated_normal([4], seed),
            tf.random.stateless_uniform([3], seed, minval=0, maxval=10, dtype=tf.int32),
            tf.random.stateless_uniform([2], seed, minval=None, maxval=None, dtype=tf.int64),
            tf.random.stateless_categorical([[0.0, 1.0]], 5, seed),
            tf.random.stateless_binomial([3], seed, counts=[10, 20, 30], probs=0.5),
            tf.random.stateless_gamma([2], seed, alpha=[1.0, 2.0]),
            tf.random.stateless_poisson([2], seed, lam=3.0))


def test_stateless_same_seed_same_values_eager_and_staged():
    seed = np.array([7, 8], dtype=np.int32)
    first = [t.numpy() for t in _stateless(seed)]
    again = [t.numpy() for t in _stateless(seed)]
    graph = staged(_stateless, seed)
    for a, b, c in zip(first, again, graph):
        np.testing.assert_array_equal(a, b)
        np.testing.assert_array_equal(a, c)
        assert a.dtype == c.dtype
    other = tf.random.stateless_uniform([3], [7, 9]).numpy()
    assert not np.array_equal(first[0], other)
    dtypes = [t.dtype for t in _stateless(seed)]
    assert dtypes == [tf.float32, tf.float32, tf.float32, tf.int32, tf.int64, tf.int64,
                      tf.int32, tf.float32, tf.int32]


def test_generator_state_sequence_and_reset():
    g = tf.random.Generator.from_seed(3)
    assert g.state.dtype == tf.int64 and g.state.shape == (3,)
    a, b = g.normal([2]).numpy(), g.normal([2]).numpy()
    assert not np.array_equal(a, b)
    g.reset_from_seed(3)
    np.testing.assert_array_equal(g.normal([2]).numpy(), a)
    h = tf.random.Generator.from_seed(3)

    @tf.function
    def draw():
        return h.normal([2])
    np.testing.assert_array_equal(draw().numpy(), a)
    np.testing.assert_array_equal(draw().numpy(), b)
    u = g.uniform([50], minval=-3, maxval=4, dtype=tf.int32).numpy()
    assert u.dtype == np.int32 and u.min() >= -3 and u.max() < 4
    assert g.make_seeds(3).shape == (2, 3) and g.make_seeds().dtype == tf.int64
    s1, s2 = g.split(2)
    assert not np.array_equal(s1.normal([3]).numpy(), s2.normal([3]).numpy())
    assert g.truncated_normal([5]).shape == (5,)


def test_global_generator():
    g = tf.random.Generator.from_seed(11)
    tf.random.set_global_generator(g)
    assert tf.random.get_global_generator() is g
    nd = tf.random.Generator.from_non_deterministic_state()
    assert nd.normal([1]).shape == (1,)
