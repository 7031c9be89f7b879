"""Op lowerings against the numpy kernels: bundles of ops, one XLA compile per bundle."""
import numpy as np
import pytest

import autograph as tf

pytest.importorskip("jax")

X = np.array([[0.5, -1.5, 2.0], [3.0, 0.25, -0.75]], np.float32)
I = np.array([[3, -7, 0], [5, 2, -1]], np.int32)


def elementwise(x, i):
    m = tf.math
    return (m.abs(x), m.sign(x), m.square(x), m.exp(x), m.log(m.abs(x)), m.sqrt(m.abs(x)),
            m.rsqrt(m.abs(x)), m.sigmoid(x), m.tanh(x), m.sin(x), m.cos(x), m.floor(x),
            m.ceil(x), m.round(x), x / 3.0, x // 0.5, m.floormod(x, 0.7), m.pow(m.abs(x), 0.5),
            m.maximum(x, 0.1), m.minimum(x, 0.1), m.squared_difference(x, 1.0),
            i // 2, i % 3, -i, m.abs(i), i * i, tf.bitwise.bitwise_and(i, 6),
            tf.nn.relu(x), x > 0, m.logical_and(x > 0, x < 2), tf.cast(x, tf.int32),
            tf.cast(i, tf.float64), tf.where(x > 0, x, -x), m.equal(i, 2), m.not_equal(i, 2))


def special(x):
    m = tf.math
    a = m.abs(x) / 4.0
    return (m.asin(a), m.acos(a), m.atan(x), m.sinh(x), m.cosh(x), m.tan(a), m.erf(x),
            m.expm1(x), m.log1p(a), m.lgamma(m.abs(x)), m.reciprocal(x), m.is_nan(x),
            m.xlogy(a, a + 1.0), m.divide_no_nan(x, x - x), m.atan2(x, a + 1.0),
            tf.nn.softmax(x), tf.nn.log_softmax(x), tf.nn.elu(x), tf.nn.softplus(x),
            tf.nn.leaky_relu(x), tf.nn.relu6(x * 4), tf.nn.bias_add(x, [1.0, 2.0, 3.0]))


def shapes(x, i):
    r = tf.reshape(x, [3, 2])
    return (tf.transpose(x), tf.concat([x, x], axis=1), tf.stack([x, x]), tf.unstack(x)[1],
            tf.shape(x), tf.size(x), tf.rank(x), tf.fill([2, 2], 7), tf.zeros_like(i),
            tf.ones_like(x), tf.range(5), tf.expand_dims(x, 0), tf.squeeze(tf.expand_dims(x, 2)),
            tf.tile(x, [2, 1]), tf.pad(x, [[1, 0], [0, 2]]), tf.gather(x, [1, 0, 1], axis=1),
            x[1], x[:, ::-1], x[..., 1:], x[None, 0, 1:2], r, tf.reverse(x, [1]),
            tf.roll(x, 1, 1), tf.broadcast_to(x[0], [3, 3]), tf.split(x, 3, axis=1)[2],
            tf.slice(x, [0, 1], [2, 2]), tf.one_hot(i[0] % 3, 3), tf.gather_nd(x, [[1, 2], [0, 0]]),
            tf.linalg.matmul(x, r), tf.einsum("ij,jk->ik", x, r), tf.linalg.band_part(r, 0, 0))


def reductions(x, i):
    return (tf.reduce_sum(x), tf.reduce_sum(x, axis=1), tf.reduce_mean(x, axis=0, keepdims=True),
            tf.reduce_max(x), tf.reduce_min(i, axis=1), tf.reduce_prod(i), tf.reduce_mean(i),
            tf.reduce_any(x > 2), tf.reduce_all(x > -2), tf.argmax(x, axis=1),
            tf.argmin(i, axis=0), tf.math.cumsum(x, axis=1), tf.math.cumprod(i, axis=1,
                                                                            exclusive=True),
            tf.math.cumsum(x, axis=0, reverse=True))


@pytest.mark.parametrize("fn,args", [(elementwise, (X, I)), (special, (X,)), (shapes, (X, I)),
                                     (reductions, (X, I))], ids=lambda v: getattr(v, "__name__", ""))
def test_bundle_equals_numpy_backend(fn, args):
    tensors = [tf.constant(a) for a in args]
    got = tf.nest.flatten(tf.function(fn, jit_compile=True, autograph=False)(*tensors))
    want = tf.nest.flatten(tf.function(fn, autograph=False)(*tensors))
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = g.numpy(), w.numpy()
        assert g.dtype == w.dtype and g.shape == w.shape, (k, g, w)
        np.testing.assert_allclose(g, w, rtol=2e-6, atol=1e-6, err_msg=f"output {k}")


def convolutions(img, w, dw):
    with tf.GradientTape() as tape:
        tape.watch([img, w])
        y = tf.nn.conv2d(img, w, strides=1, padding="SAME")
        p = tf.nn.max_pool2d(y, 2, 2, "VALID") + tf.nn.avg_pool2d(y, 3, 2, "SAME")
        d = tf.nn.depthwise_conv2d(img, dw, [1, 1, 1, 1], "VALID")
        loss = tf.reduce_sum(p * p) + tf.reduce_sum(d)
    g_img, g_w = tape.gradient(loss, [img, w])
    values, indices = tf.math.top_k(tf.reshape(y, [2, -1]), 3)
    return y, p, d, g_img, g_w, values, indices


def test_convolution_pooling_and_their_gradients():
    rng = np.random.default_rng(0)
    args = [rng.normal(size=s).astype(np.float32) for s in ([2, 6, 6, 3], [3, 3, 3, 4],
                                                          [2, 2, 3, 2])]
    tensors = [tf.constant(a) for a in args]
    got = tf.function(convolutions, jit_compile=True, autograph=False)(*tensors)
    want = tf.function(convolutions, autograph=False)(*tensors)
    for k, (g, w) in enumerate(zip(got, want)):
        assert g.dtype == w.dtype and g.shape == w.shape, k
        np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-4, atol=1e-4,
                                   err_msg=f"output {k}")


A = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.25], [0.5, 0.25, 2.0]], np.float32)
B = np.array([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], np.float32)


def linalg(a, b):
    la = tf.linalg
    q, r = la.qr(a)
    s = la.svd(a, compute_uv=False)
    e = la.eigh(a)[0]
    sign, logdet = la.slogdet(a)
    return (la.inv(a), la.det(a), sign, logdet, la.cholesky(a), la.expm(a / 4.0),
            la.solve(a, b), la.triangular_solve(la.band_part(a, -1, 0), b),
            la.triangular_solve(a, b, lower=False, adjoint=True), la.lstsq(a, b),
            tf.abs(q), tf.abs(r), s, e, tf.linalg.cross(a, b[:, ::-1][:, :1] + a),
            la.diag_part(a), la.diag_part(a, k=(-1, 1)), la.set_diag(a, [9.0, 8.0, 7.0]),
            la.diag([1.0, 2.0]), la.diag(b[:2], k=(0, 1)), tf.abs(la.svd(b)[1]),
            tf.abs(la.svd(b, full_matrices=True)[2]), la.eigvals(a + tf.matmul(b, b[:, ::-1], transpose_b=True)),
            tf.abs(la.eigh(a)[1]))


def indexing(x, ids, m):
    i3 = tf.constant([[1, 0], [0, 1], [1, 0]])
    upd = tf.constant([10.0, 20.0, 30.0])
    return (tf.math.segment_sum(x, [0, 0, 2]), tf.math.segment_mean(x, [0, 0, 2]),
            tf.math.segment_max(x, [0, 0, 2]), tf.math.segment_min(m, [0, 1, 1]),
            tf.math.segment_prod(x, [0, 1, 1]),
            tf.math.unsorted_segment_max(x, ids, 4), tf.math.unsorted_segment_min(m, ids, 3),
            tf.math.unsorted_segment_prod(x, ids, 3), tf.math.unsorted_segment_sum(x, ids, 3),
            tf.tensor_scatter_nd_update(x, i3[:2], upd[:2]), tf.tensor_scatter_nd_add(x, i3, upd),
            tf.tensor_scatter_nd_sub(x, i3, upd), tf.tensor_scatter_nd_max(x, i3, upd),
            tf.tensor_scatter_nd_min(x, i3, upd), tf.scatter_nd(i3, upd, [2, 3]),
            tf.sort(m), tf.sort(m, direction="DESCENDING"), tf.argsort(m[0]),
            tf.argsort(tf.constant([2, 1, 2, 1]), direction="DESCENDING", stable=True),
            tf.searchsorted(tf.sort(x), x), tf.searchsorted(tf.sort(x), x, side="right"),
            tf.math.top_k(m, 2)[1], tf.pad(x, [[1, 1], [1, 1]], mode="REFLECT"),
            tf.pad(x, [[1, 1], [2, 2]], mode="SYMMETRIC"))


def complex_and_nn(x, img):
    c = tf.complex(x, x * 2.0)
    return (tf.math.real(c * c), tf.math.imag(c), tf.math.angle(c), tf.abs(c),
            tf.math.real(tf.math.conj(c)), tf.math.imag(tf.math.conj(c)),
            tf.nn.depth_to_space(img, 2), tf.nn.space_to_depth(tf.nn.depth_to_space(img, 2), 2),
            tf.image.adjust_contrast(img, 2.0), tf.math.erfinv(x / 4.0), tf.math.digamma(x + 3.0),
            tf.math.igamma(x + 3.0, x + 2.0), tf.math.igammac(x + 3.0, x + 2.0))


M = np.array([[3, 1, 2], [0, -1, 5], [4, 4, 1]], np.int32)
IMG = np.arange(32, dtype=np.float32).reshape(1, 2, 2, 8) / 7.0


@pytest.mark.parametrize("fn,args,tol", [
    (linalg, (A, B), 2e-5), (indexing, (B, np.array([0, 2, 0], np.int32), M),
                             1e-6), (complex_and_nn, (X, IMG), 2e-5)],
    ids=lambda v: getattr(v, "__name__", ""))
def test_more_bundles_equal_numpy_backend(fn, args, tol):
    tensors = [tf.constant(a) for a in args]
    got = tf.nest.flatten(tf.function(fn, jit_compile=True, autograph=False)(*tensors))
    want = tf.nest.flatten(tf.function(fn, autograph=False)(*tensors))
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = g.numpy(), w.numpy()
        assert g.dtype == w.dtype and g.shape == w.shape, (k, g, w)
        np.testing.assert_allclose(g, w, rtol=tol, atol=tol, err_msg=f"output {k}")


def test_random_ops():
    def draws(seed):
        s = tf.random.stateless_uniform([3], seed=[1, 2])  # constant seed: still XLA's values
        return (s, tf.random.stateless_uniform([2, 2], seed=seed),
                tf.random.stateless_normal([4], seed=seed, dtype=tf.float64),
                tf.random.stateless_uniform([5], seed=seed, minval=0, maxval=7, dtype=tf.int32),
                tf.random.truncated_normal([50], seed=1), tf.random.shuffle(tf.range(6), seed=2),
                tf.random.categorical(tf.math.log([[0.5, 0.5, 0.0]]), 20, seed=3),
                tf.random.poisson([3], 3.0, seed=5))
    f = tf.function(draws, jit_compile=True)
    seed = tf.constant([7, 9])
    a, b = f(seed), f(seed)
    ref = tf.function(draws)(seed)
    # TensorFlow's XLA values (its jit draws differ from its CPU kernels' Philox values)
    np.testing.assert_allclose(a[0].numpy(), [0.25750792, 0.4046719, 0.9218676], rtol=1e-6)
    for x, y, r in zip(a, b, ref):
        assert x.dtype == r.dtype and x.shape == r.shape
    for k in (1, 2, 3):  # stateless: the same seed gives the same values on every call
        np.testing.assert_array_equal(a[k].numpy(), b[k].numpy())
    assert not np.array_equal(a[1].numpy(), f(tf.constant([7, 10]))[1].numpy())
    assert np.all(np.abs(a[4].numpy()) <= 2) and sorted(a[5].numpy()) == list(range(6))
    assert set(a[6].numpy().ravel()) <= {0, 1} and np.all(a[7].numpy() >= 0)
    assert ((0 <= a[3].numpy()) & (a[3].numpy() < 7)).all()


@pytest.mark.parametrize("body,reason", [
    (lambda x: tf.unique(x)[0], r"Unique \(its output's shape depends on the input's values"),
    (lambda x: tf.boolean_mask(x, x > 1), r"Where \(its output's shape depends"),
    (lambda x: tf.math.segment_sum(x, x), r"SegmentSum \(its number of segments"),
    (lambda x: tf.sparse.to_dense(tf.sparse.from_dense(x)), r"Sparse\w+ \(sparse tensors"),
    (lambda x: tf.RaggedTensor.from_row_lengths(x, [1, 2]).to_tensor(), r"Ragged\w+ \(ragged"),
    (lambda x: tf.io.serialize_tensor(x), r"string tensors"),
])
def test_what_xla_cannot_compile_says_why(body, reason):
    from graph.errors import InvalidArgumentError
    with pytest.raises(InvalidArgumentError, match="Detected unsupported operations") as info:
        tf.function(body, jit_compile=True, autograph=False)(tf.constant([1, 2, 2]))
    assert __import__("re").search(reason, str(info.value)), str(info.value)
    assert "test_ops.py" in str(info.value)
