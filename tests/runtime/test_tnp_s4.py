"""tf.experimental.numpy: staged == eager, gradients, numpy behaviour on and off, numpy
interop and the "NumPy API on TensorFlow" guide's cells. Literal values marked "TensorFlow"
were recorded from TensorFlow 2.21 (/tmp/tfcheck_tnp/)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime.tf_numpy.behavior import _disable_numpy_behavior
from tests.staging import assert_same

tnp = tf.experimental.numpy


@pytest.fixture
def numpy_behavior():
    tnp.experimental_enable_numpy_behavior()
    yield
    _disable_numpy_behavior()


# -- staged == eager -----------------------------------------------------------------------

M = np.arange(12, dtype=np.int32).reshape(3, 4)
F = np.linspace(-1.5, 2.0, 12).reshape(3, 4).astype(np.float32)


@pytest.mark.parametrize("fn", [
    lambda x, y: tnp.add(x, y),
    lambda x, y: tnp.add(tnp.true_divide(x, 2), tnp.sqrt(tnp.abs(y))),
    lambda x, y: tnp.where(x > 5, x, y),
    lambda x, y: (tnp.sum(x), tnp.mean(x, axis=0), tnp.std(y, axis=1, keepdims=True)),
    lambda x, y: (tnp.argmax(y), tnp.argmin(y, axis=1), tnp.cumsum(x), tnp.cumprod(y, 0)),
    lambda x, y: (tnp.count_nonzero(x, axis=1), tnp.all(x), tnp.any(y > 1, axis=0)),
    lambda x, y: tnp.concatenate([x, y], axis=1),
    lambda x, y: (tnp.hstack([x, y]), tnp.vstack([x, y]), tnp.dstack([x, x])),
    lambda x, y: tnp.split(x, [1, 3], axis=1) + tnp.array_split(y, 2),
    lambda x, y: (tnp.moveaxis(x, 0, 1), tnp.swapaxes(y, 0, 1), tnp.rot90(x), tnp.flip(y)),
    lambda x, y: (tnp.roll(x, 3), tnp.roll(y, -1, axis=1), tnp.tile(x, (2, 1)),
                  tnp.repeat(y, 2, axis=0)),
    lambda x, y: (tnp.take(x, [0, 5, 11]), tnp.take_along_axis(x, tnp.argsort(y, 1), 1)),
    lambda x, y: (tnp.sort(y, axis=0), tnp.argsort(y), tnp.expand_dims(x, (0, 2))),
    lambda x, y: (tnp.dot(x, tnp.transpose(y)), tnp.matmul(y, tnp.ones([4])),
                  tnp.tensordot(x, y, 2), tnp.einsum("ij,ij->i", x, y)),
    lambda x, y: (tnp.inner(x, y), tnp.outer(x[0], y[0]), tnp.kron(x[:2, :2], y[:2, :2]),
                  tnp.trace(x), tnp.vdot(x, y)),
    lambda x, y: (tnp.tril(x), tnp.triu(y, 1), tnp.diag(x), tnp.diagonal(y, 1)),
    lambda x, y: (tnp.broadcast_to(x[0], [2, 4]), tnp.broadcast_arrays(x[:1], y)),
    lambda x, y: (tnp.clip(x, 2, 7.5), tnp.around(y, 1), tnp.logaddexp(y, x)),
    lambda x, y: (tnp.isclose(x, y), tnp.nansum(y), tnp.diff(x, 2), tnp.var(y, ddof=1)),
    lambda x, y: (tnp.linspace(y[0], y[1], 4), tnp.zeros_like(x), tnp.full_like(y, 2)),
])
def test_eager_equals_staged(fn):
    assert_same(fn, M, F)


def test_tnp_in_a_tf_function_with_numpy_behavior(numpy_behavior):
    @tf.function
    def f(x, y):
        z = x + y                      # int32 + float32: float64, as numpy promotes
        if tnp.sum(z) > 0:
            z = z.T.reshape(-1) * 2.5
        else:
            z = z.ravel()
        return z, x[:, (True, False, True)], x[(0, 0, 1), tnp.asarray([0, 1, 1])]
    z, masked, picked = f(tf.constant(M[:, :3]), tf.constant(F[:, :3]))
    expected = (M[:, :3] + F[:, :3].astype(np.float64)).T.reshape(-1) * 2.5
    assert z.dtype == tf.float64
    np.testing.assert_allclose(z.numpy(), expected)
    np.testing.assert_array_equal(masked.numpy(), M[:, :3][:, [True, False, True]])
    np.testing.assert_array_equal(picked.numpy(), M[:, :3][(0, 0, 1), [0, 1, 1]])


# -- gradients (numerically checked) ----------------------------------------------------------

def _numeric_gradient(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    grad = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        grad[i] = (float(f(tf.constant(up))) - float(f(tf.constant(down)))) / (2 * eps)
    return grad


@pytest.mark.parametrize("f", [
    lambda x: tnp.sum(tnp.sqrt(x) * tnp.exp(x)),
    lambda x: tnp.std(x, axis=0)[1] + tnp.var(x),
    lambda x: tnp.sum(tnp.dot(x, tnp.transpose(x)) ** 2),
    lambda x: tnp.sum(tnp.take_along_axis(x, tnp.asarray([[1, 0], [0, 0]]), 1) * [2., 3.]),
    lambda x: tnp.sum(tnp.logaddexp(x, 1.0)) + tnp.sum(tnp.cumsum(x) * tnp.arange(4.)),
    lambda x: tnp.sum(tnp.hypot(x, 2.0) * tnp.kron(x, tnp.eye(1))),
    lambda x: tnp.max(tnp.clip(x, 0.3, 0.8)) + tnp.mean(tnp.rot90(x)[0]),
])
def test_gradients_match_finite_differences(f):
    x = np.array([[0.5, 0.7], [0.9, 0.2]])
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = f(t)
    np.testing.assert_allclose(tape.gradient(y, t).numpy(), _numeric_gradient(f, x),
                               rtol=1e-5, atol=1e-7)


def test_gradient_through_numpy_indexing(numpy_behavior):
    x = tf.constant(np.arange(6.0).reshape(2, 3))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tnp.sum(x[:, (True, False, True)] * 2.0) + tnp.sum(x[1, [0, 0, 2]])
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [[2, 0, 2], [4, 0, 3]])


# -- numpy behaviour: off by default, on when asked ------------------------------------------

def test_strict_dtypes_and_no_numpy_methods_by_default():
    with pytest.raises(InvalidArgumentError):
        tf.constant(1) + tf.constant(1.0)
    with pytest.raises(TypeError):
        tf.constant(1) + 1.5
    for name in ("T", "astype", "reshape", "ravel", "clip", "tolist", "size", "flatten"):
        assert not hasattr(tf.constant([1]), name)
    with pytest.raises(TypeError):
        tf.constant([[1, 2]])[:, (True, False)]


def test_enable_numpy_behavior_promotes_and_adds_methods(numpy_behavior):
    v = tf.Variable(1)
    assert (v + 1.5).dtype == tf.float64 and float(v + 1.5) == 2.5  # TensorFlow: float64 2.5
    assert (tf.constant([1, 2]) + [1.5, 2]).numpy().tolist() == [2.5, 4.0]
    assert (tf.constant([1, 2]) + [1, 2]).dtype == tf.int32
    assert (tf.constant(3, tf.int8) / tf.constant(2, tf.int8)).dtype == tf.float32
    assert (tf.constant(1.0, tf.float16) + 1.5).dtype == tf.float16
    assert (tf.constant(1) == None) is False  # noqa: E711
    assert tf.constant([[1, 2, 3], [4, 5, 6]]).size == 6
    assert tf.constant([[1, 2], [3, 4]]).tolist() == [[1, 2], [3, 4]]
    with pytest.raises(TypeError):  # TensorFlow: transpose(self, axes=None)
        tf.constant([[1, 2]]).transpose(1, 0)
    with pytest.raises(TypeError, match="does not support item assignment"):
        tnp.arange(6)[1] = -1


def test_numpy_behavior_modes():
    with pytest.raises(ValueError, match="The provided promotion mode bogus does not exist"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="bogus")
    with pytest.raises(NotImplementedError, match="safe"):
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="safe")
    try:
        tnp.experimental_enable_numpy_behavior(dtype_conversion_mode="off")
        assert tf.constant([[1, 2]]).T.shape == (2, 1)
        with pytest.raises(InvalidArgumentError):
            tf.constant(1) + tf.constant(1.0)
    finally:
        _disable_numpy_behavior()


def test_size_is_static_or_none_in_a_function(numpy_behavior):
    sizes = []

    @tf.function
    def f(x):
        sizes.append(x.size)
        return x

    f(tf.constant([[1, 2, 3]]))
    f.get_concrete_function(tf.TensorSpec([None, 3]))
    assert sizes == [3, None]  # TensorFlow: 6 / None for known / unknown shapes


# -- numpy interop, printing, random ---------------------------------------------------------

def test_numpy_interop_and_printing():
    np_sum = np.sum(tnp.ones([2, 3]))
    assert float(np_sum) == 6.0 and isinstance(np_sum, np.float64)
    assert isinstance(np.add(tnp.ones(2), 1), np.ndarray)
    mixed = np.ones(2) + tnp.ones(2)
    assert isinstance(mixed, tf.Tensor) and mixed.dtype == tf.float64
    assert isinstance(tnp.sum(np.ones([2, 3])), tf.Tensor)
    x = tf.constant([1, 2])
    assert tnp.asarray(x) is x
    assert isinstance(tnp.ones([2]), tnp.ndarray) and tnp.ndarray is tf.Tensor
    # TensorFlow's text for the guide's cells
    assert repr(tnp.ones([2, 2])) == ("<tf.Tensor: shape=(2, 2), dtype=float64, numpy=\n"
                                      "array([[1., 1.],\n       [1., 1.]])>")
    assert str(tnp.add(tnp.ones([2]), tf.ones([2]))) == (
        "tf.Tensor([2. 2.], shape=(2,), dtype=float64)")
    assert (tnp.newaxis, tnp.pi, tnp.e, tnp.inf) == (None, np.pi, np.e, np.inf)
    assert np.isnan(tnp.nan) and tnp.float32 is np.float32


def test_random_draws_tensorflows_values():
    tnp.random.seed(3)
    assert tnp.random.randn(2, 2).numpy().tolist() == [
        [-0.42362075848568365, 2.271344179087035], [0.6824860950771089, 2.482783016005248]]
    assert tnp.random.rand(3).numpy().tolist() == [
        0.55657569167443, 0.9920956886989487, 0.5744274720375191]
    assert tnp.random.randint(0, 10, size=4).numpy().tolist() == [4, 6, 3, 2]
    assert tnp.random.uniform(1., 2., size=(2,)).numpy().tolist() == [
        1.1141591674261972, 1.890720512140985]
    assert tnp.random.standard_normal(size=2).numpy().tolist() == [
        -0.45998337591307326, 0.03937278179156522]
    assert tnp.random.randint(5, dtype=np.int32).dtype == tf.int32
    with pytest.raises(ValueError, match="Only those convertible to"):
        tnp.random.randint(5, dtype=np.int16)


def test_guide_model_predicts_tensorflows_values(numpy_behavior):
    tf.random.set_seed(7)
    size = 32
    stddev = tnp.sqrt(size).astype(tnp.float32)
    w1 = tnp.random.randn(size, 64).astype(tnp.float32) / stddev
    bias = tnp.random.randn(64).astype(tnp.float32)
    w2 = tnp.random.randn(64, 2).astype(tnp.float32) / 8
    y = tnp.maximum(tnp.matmul(tnp.ones([2, 32], dtype=tnp.float32), w1) + bias, 0)
    out = tnp.matmul(y, w2)
    assert out.dtype == tf.float32
    np.testing.assert_allclose(out.numpy(), [[-0.35208666, 1.3427403]] * 2, rtol=1e-5)
    ones = tnp.ones([5, 3], dtype=tnp.float32)
    assert (ones.T.shape, ones.reshape(-1).shape, ones.ndim) == ((3, 5), (15,), 2)


def test_errors():
    with pytest.raises(ValueError):
        tnp.diag(tnp.ones([2, 2, 2]))
    with pytest.raises(ValueError, match="equal division"):
        tnp.split(tnp.arange(5), 2)
    with pytest.raises(ValueError, match="One of max or min"):
        tnp.clip([1], None, None)
    with pytest.raises(np.exceptions.AxisError):
        tnp.swapaxes(tnp.ones([2]), 0, 1)
    with pytest.raises(ValueError, match="dimension must be 3"):
        tnp.cross([1, 2], [3, 4])
