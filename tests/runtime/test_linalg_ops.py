"""tf.linalg: values recorded from TensorFlow 2.21 as literals, eager == staged,
error cases, and gradients checked against finite differences (and TF's values)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import FailedPreconditionError, InvalidArgumentError, NotFoundError
from tests.staging import assert_same

RNG = np.random.default_rng(0)
SQ = [[4., 2, 1], [2, 3, 0.5], [1, 0.5, 5]]  # symmetric positive definite
TALL = [[1., 2], [3, 4], [5, 7]]
WIDE = [[1., 2, 0], [3, 4, 1]]


def _f64(x):
    return tf.constant(np.asarray(x, np.float64))


def _grad(f, x):
    x = _f64(x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x).numpy()


def _numeric_grad(f, x, eps=1e-6):
    x = np.asarray(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        d = np.zeros_like(x)
        d[i] = eps
        out[i] = (f(_f64(x + d)).numpy() - f(_f64(x - d)).numpy()) / (2 * eps)
    return out


def _check_grad(f, x, atol=1e-6):
    np.testing.assert_allclose(_grad(f, x), _numeric_grad(f, x), atol=atol, rtol=1e-5)


def _weighted(fn, shape):
    """A scalar loss reading every output element with a distinct weight."""
    w = tf.constant(np.arange(1.0, 1.0 + np.prod(shape)).reshape(shape))
    return lambda x: tf.reduce_sum(fn(x) * w)


# -- values equal to TensorFlow's --------------------------------------------------------

def test_inverse_determinants_match_tensorflow():
    a = tf.constant([[4., 2], [2, 3]])
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), [[0.375, -0.25], [-0.25, 0.5]])
    batch = tf.constant([[[4., 2], [2, 3]], [[1, 2], [3, 4]]])
    np.testing.assert_allclose(tf.linalg.det(batch).numpy(), [8.0, -2.0], rtol=1e-6)
    sign, logabs = tf.linalg.slogdet(batch)
    np.testing.assert_allclose(sign.numpy(), [1.0, -1.0])
    np.testing.assert_allclose(logabs.numpy(), [2.079441547393799, 0.6931471824645996], rtol=1e-6)
    assert tf.linalg.logdet(a).dtype == tf.float32
    np.testing.assert_allclose(tf.linalg.logdet(a).numpy(), 2.079441547393799, rtol=1e-6)
    assert np.isnan(tf.linalg.logdet(tf.constant([[1., 2], [2, 1]])).numpy())
    assert tf.linalg.det(tf.zeros([0, 0])).numpy() == 1.0
    assert tf.linalg.inv(tf.zeros([3, 0, 0])).shape == (3, 0, 0)
    np.testing.assert_allclose(tf.linalg.inv(tf.constant([[4., 2], [2, 3]], tf.float16)).numpy(),
                               [[0.375, -0.25], [-0.25, 0.5]])


def test_cholesky_and_solves_match_tensorflow():
    a = tf.constant([[4., 2], [2, 3]])
    np.testing.assert_allclose(
        tf.linalg.cholesky_solve(tf.linalg.cholesky(a), tf.constant([[1.], [2.]])).numpy(),
        [[-0.125], [0.75]], rtol=1e-5)
    # only the lower triangle is read; a failed factorization is NaN (TF 2.21's CPU kernel)
    np.testing.assert_allclose(tf.linalg.cholesky(tf.constant([[4., 100.], [0., 1.]])).numpy(),
                               [[2., 0.], [0., 1.]])
    failed = tf.linalg.cholesky(_f64([[[4., 2, 1], [2, 3, 0], [1, 0, -5]],
                                      [[4., 2, 1], [2, 3, 0], [1, 0, 5]]])).numpy()
    assert np.isnan(failed[0][np.tril_indices(3)]).all() and (failed[0][np.triu_indices(3, 1)] == 0).all()
    np.testing.assert_allclose(failed[1], [[2, 0, 0], [1, 1.4142135623730951, 0],
                                           [0.5, -0.35355339059327373, 2.150581316760657]])
    t = tf.constant([[2., 5.], [1., 4.]])
    b = tf.constant([[1.], [2.]])
    np.testing.assert_allclose(tf.linalg.triangular_solve(t, b).numpy(), [[0.5], [0.375]])
    np.testing.assert_allclose(tf.linalg.triangular_solve(t, b, lower=False).numpy(),
                               [[-0.75], [0.5]])
    np.testing.assert_allclose(tf.linalg.triangular_solve(t, b, adjoint=True).numpy(),
                               [[0.25], [0.5]])
    assert tf.linalg.triangular_solve(tf.stack([t] * 3), b).shape == (3, 2, 1)  # broadcasts
    np.testing.assert_array_equal(
        tf.linalg.triangular_solve(tf.constant([[0., 0.], [1., 1.]]), tf.ones([2, 1])).numpy(),
        [[np.inf], [-np.inf]])
    np.testing.assert_allclose(tf.linalg.solve(t, b).numpy(), np.linalg.solve(t.numpy(), b.numpy()),
                               rtol=1e-6)


def test_lstsq_matches_tensorflow():
    a, b = tf.constant([[1., 2], [2, 4.1], [0, 1]]), tf.constant([[1.], [2], [3]])
    np.testing.assert_allclose(tf.linalg.lstsq(a, b).numpy(), [[-5.107789039611816],
                                                                [2.994014263153076]], rtol=1e-4)
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, l2_regularizer=0.5).numpy(),
                               [[-1.237075924873352], [1.1572468280792236]], rtol=1e-5)
    w, c = tf.constant([[1., 2, 3], [2, 4.1, 0]]), tf.constant([[1.], [2]])
    expected = [[0.19225840270519257], [0.39402028918266296], [0.0065670437179505825]]
    np.testing.assert_allclose(tf.linalg.lstsq(w, c).numpy(), expected, rtol=1e-4)
    np.testing.assert_allclose(tf.linalg.lstsq(w, c, fast=False).numpy(), expected, rtol=1e-4)


def test_decompositions_match_tensorflow():
    q, r = tf.linalg.qr(_f64(TALL))
    np.testing.assert_allclose(q.numpy(), [[-0.16903085094570325, 0.948683298050514],
                                           [-0.5070925528371099, -0.3162277660168368],
                                           [-0.8451542547285166, 0.0]], atol=1e-12)
    np.testing.assert_allclose(r.numpy(), [[-5.916079783099616, -8.282511696339462],
                                           [0.0, 0.632455532033676]])
    q, r = tf.linalg.qr(_f64(TALL), full_matrices=True)
    assert q.shape == (3, 3) and r.shape == (3, 2)
    q, r = tf.linalg.qr(_f64(WIDE))
    np.testing.assert_allclose(r.numpy(), [[-3.1622776601683795, -4.427188724235731,
                                            -0.9486832980505138],
                                           [0.0, -0.6324555320336751, 0.316227766016838]])
    s, u, v = tf.linalg.svd(_f64(TALL))
    np.testing.assert_allclose(s.numpy(), [10.191428257097225, 0.36713768594389984])
    # singular vectors are unique up to sign: compare magnitudes, and rebuild the matrix
    np.testing.assert_allclose(np.abs(u.numpy()), np.abs([[0.2167838956617989, -0.9389228781711111],
                                                          [0.4904541352657368, 0.3414639048912717],
                                                          [0.8440731507295046, 0.04273441825135235]]))
    np.testing.assert_allclose(np.abs(v.numpy()), [[0.5797530930948657, 0.814792213418204],
                                                   [0.814792213418204, 0.5797530930948657]])
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().T, TALL)
    s, u, v = tf.linalg.svd(_f64(WIDE), full_matrices=True)
    assert (s.shape, u.shape, v.shape) == ((2,), (2, 2), (3, 3))
    assert tf.linalg.svd(_f64(WIDE), compute_uv=False).shape == (2,)
    e, v = tf.linalg.eigh(_f64([[4., 2], [2, 3]]))
    np.testing.assert_allclose(e.numpy(), [1.43844718719117, 5.561552812808831])
    np.testing.assert_allclose(np.abs(v.numpy()), [[0.6154122094026357, 0.7882054380161092],
                                                   [0.7882054380161092, 0.6154122094026357]])
    np.testing.assert_allclose(tf.linalg.eigvalsh(_f64([[4., 2], [2, 3]])).numpy(), e.numpy())
    np.testing.assert_allclose(tf.linalg.expm(_f64([[1., 2], [0.5, -1]])).numpy(),
                               [[3.5464824286171615, 2.736597744017182],
                                [0.6841494360042955, 0.8098846845999804]], rtol=1e-12)
    np.testing.assert_allclose(tf.linalg.expm(tf.constant([[0., 1.], [-1., 0.]])).numpy(),
                               [[0.5403023, 0.84147096], [-0.84147096, 0.5403023]], rtol=1e-6)
    np.testing.assert_allclose(tf.linalg.pinv(tf.constant([[1., 2], [2, 4], [0, 1]])).numpy(),
                               [[0.2, 0.4, -2.0], [0.0, 0.0, 1.0]], atol=1e-5)


def test_products_match_tensorflow():
    a = tf.reshape(tf.range(6.), [2, 3])
    b = tf.reshape(tf.range(6.), [3, 2])
    np.testing.assert_array_equal(tf.tensordot(a, b, 1).numpy(), [[10., 13.], [28., 40.]])
    np.testing.assert_array_equal(tf.tensordot(tf.constant([1., 2]), tf.constant([3., 4, 5]), 0).numpy(),
                                  [[3., 4, 5], [6, 8, 10]])
    np.testing.assert_array_equal(tf.tensordot(tf.ones([2, 3]), tf.ones([2, 3]), [[0], [0]]).numpy(),
                                  np.full((3, 3), 2.))
    assert tf.tensordot(tf.ones([2, 3], tf.int32), tf.ones([3, 2], tf.int32), 1).dtype == tf.int32
    np.testing.assert_array_equal(tf.einsum("ij,jk", tf.ones([2, 3]), tf.ones([3, 4])).numpy(),
                                  np.full((2, 4), 3.))
    assert tf.einsum("ii", tf.reshape(tf.range(9.), [3, 3])).numpy() == 12.0
    np.testing.assert_array_equal(tf.einsum("ii->i", tf.reshape(tf.range(9.), [3, 3])).numpy(),
                                  [0., 4, 8])
    assert tf.einsum("...ij,...jk->...ik", tf.ones([2, 2, 3]), tf.ones([3, 4])).shape == (2, 2, 4)
    assert tf.einsum("ij, jk -> ik", tf.ones([2, 3]), tf.ones([3, 4])).shape == (2, 4)
    r = tf.einsum("ij,jk->ik", tf.constant([[1, 2], [3, 4]]), tf.constant([[1, 2], [3, 4]]))
    assert r.dtype == tf.int32 and r.numpy().tolist() == [[7, 10], [15, 22]]
    np.testing.assert_array_equal(
        tf.linalg.matvec(tf.constant([[1., 2], [3, 4]]), tf.constant([1., 1])).numpy(), [3., 7.])
    np.testing.assert_array_equal(
        tf.linalg.matvec(tf.constant([[1., 2], [3, 4]]), tf.constant([1., 2]), adjoint_a=True).numpy(),
        [7., 10.])
    c = tf.linalg.cross(tf.constant([1, 2, 3]), tf.constant([4, 5, 6]))
    assert c.dtype == tf.int32 and c.numpy().tolist() == [-3, 6, -3]
    assert tf.linalg.matmul is tf.matmul and tf.linalg.eye is tf.eye


def test_diagonals_and_bands_match_tensorflow():
    m = tf.reshape(tf.range(12.), [3, 4])
    np.testing.assert_array_equal(tf.linalg.diag_part(tf.constant([[1., 2, 3], [3, 4, 5]])).numpy(),
                                  [1., 4.])
    np.testing.assert_array_equal(tf.linalg.diag_part(m, k=1).numpy(), [1., 6., 11.])
    np.testing.assert_array_equal(tf.linalg.diag_part(m, k=(-1, 1)).numpy(),
                                  [[1., 6., 11.], [0., 5., 10.], [4., 9., 0.]])
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant([1., 2]), k=1).numpy(),
                                  [[0., 1., 0.], [0., 0., 2.], [0., 0., 0.]])
    np.testing.assert_array_equal(tf.linalg.diag(tf.constant([[1., 2], [3, 4]]), k=(0, 1)).numpy(),
                                  [[3., 2.], [0., 4.]])
    d = tf.linalg.diag(tf.constant([True, True]))
    assert d.dtype == tf.bool and d.numpy().tolist() == [[True, False], [False, True]]
    np.testing.assert_array_equal(tf.linalg.set_diag(tf.zeros([2, 3]), tf.constant([1., 2])).numpy(),
                                  [[1., 0, 0], [0, 2, 0]])
    np.testing.assert_array_equal(
        tf.linalg.set_diag(tf.zeros([2, 3]), tf.constant([1., 2]), k=1).numpy(),
        [[0., 1, 0], [0, 0, 2]])
    np.testing.assert_array_equal(tf.linalg.band_part(tf.reshape(tf.range(16.), [4, 4]), 1, -1).numpy(),
                                  [[0., 1, 2, 3], [4, 5, 6, 7], [0, 9, 10, 11], [0, 0, 14, 15]])
    np.testing.assert_array_equal(tf.linalg.band_part(tf.reshape(tf.range(16), [4, 4]), 0, 1).numpy(),
                                  [[0, 1, 0, 0], [0, 5, 6, 0], [0, 0, 10, 11], [0, 0, 0, 15]])
    t = tf.linalg.trace(tf.constant([[1, 2], [3, 4]]))
    assert t.dtype == tf.int32 and t.numpy() == 5
    assert tf.linalg.trace(tf.constant([[1., 2, 3], [3, 4, 5]])).numpy() == 5.0
    assert tf.linalg.matrix_transpose(tf.ones([2, 3, 4])).shape == (2, 4, 3)
    np.testing.assert_array_equal(tf.linalg.adjoint(tf.constant([[1., 2], [3, 4]])).numpy(),
                                  [[1., 3.], [2., 4.]])


def test_norms_match_tensorflow():
    x = tf.constant([[3., -4.], [1, 2]])
    np.testing.assert_allclose(tf.norm(x).numpy(), 5.4772257804870605)
    np.testing.assert_allclose(tf.linalg.norm(x, ord=1, axis=[0, 1]).numpy(), 6.0)
    np.testing.assert_allclose(tf.norm(x, ord=np.inf, axis=[-2, -1]).numpy(), 7.0)
    np.testing.assert_allclose(tf.norm(x, ord=2, axis=[-2, -1]).numpy(), 5.116673469543457, rtol=1e-6)
    np.testing.assert_allclose(tf.norm(x, ord="fro", axis=[0, 1]).numpy(), 5.4772257804870605)
    np.testing.assert_allclose(tf.norm(x, ord=np.inf, axis=0).numpy(), [3.0, 4.0])
    v = tf.constant([3., -4.])
    np.testing.assert_allclose(tf.norm(v, ord=0.5).numpy(), 13.928203582763672, rtol=1e-6)
    np.testing.assert_allclose(tf.norm(v, ord=3).numpy(), 4.497941493988037, rtol=1e-6)
    y = tf.constant([[3., 4.], [1, 2]])
    np.testing.assert_allclose(tf.norm(y, axis=1, keepdims=True).numpy(), [[5.0], [2.2360680103302]])
    np.testing.assert_allclose(tf.norm(y, keepdims=True).numpy(), [[5.4772257804870605]])
    assert tf.norm(tf.ones([2, 3, 4]), ord=2, axis=[0, 2], keepdims=True).shape == (1, 3, 1)
    np.testing.assert_allclose(
        tf.linalg.global_norm([tf.constant([3., 4.]), tf.constant([[12.]])]).numpy(), 13.0)
    np.testing.assert_allclose(tf.linalg.global_norm([tf.constant([3., 4.]), None]).numpy(), 5.0)


# -- errors as TensorFlow raises them --------------------------------------------------------

@pytest.mark.parametrize("fn, arg, error, text", [
    (tf.linalg.inv, [[1., 2.], [2., 4.]], InvalidArgumentError, "Input is not invertible."),
    (tf.linalg.inv, [[1, 2], [3, 4]], InvalidArgumentError, "Value for attr 'T' of int32"),
    (tf.linalg.inv, np.ones((2, 3), np.float32), InvalidArgumentError, "Input matrix must be square."),
    (tf.linalg.inv, [1., 1.], InvalidArgumentError, "Input tensor 0 must have rank >= 2, got 1"),
    (tf.linalg.det, [[1, 2], [3, 4]], InvalidArgumentError, "Value for attr 'T' of int32"),
    (tf.linalg.det, np.ones((2, 3), np.float32), InvalidArgumentError, "must be square"),
    (tf.linalg.det, np.eye(2, dtype=np.float16), NotFoundError, "DT_HALF"),
    (tf.linalg.cholesky, [[1, 0], [0, 1]], InvalidArgumentError, "Value for attr 'T' of int32"),
    (tf.linalg.cholesky, [1., 1., 1.], InvalidArgumentError, "must have rank >= 2, got 1"),
    (tf.linalg.qr, [[1, 2], [3, 4]], InvalidArgumentError, "Value for attr 'T' of int32"),
    (tf.linalg.svd, [1., 1., 1.], InvalidArgumentError, "must have rank >= 2, got 1"),
    (tf.linalg.eigh, np.ones((2, 3), np.float32), InvalidArgumentError, "must be square"),
    (tf.linalg.trace, [1., 2.], InvalidArgumentError, "input must be at least 2-dim"),
    (tf.linalg.diag, 1., InvalidArgumentError, "diagonal must be at least 1-dim"),
])
def test_errors(fn, arg, error, text):
    with pytest.raises(error, match=text.replace("[", r"\[").replace(".", r"\.")):
        fn(tf.constant(arg))


def test_more_errors():
    with pytest.raises(InvalidArgumentError, match="Input matrix is not invertible"):
        tf.linalg.solve(tf.constant([[1., 2.], [2., 4.]]), tf.ones([2, 1]))
    with pytest.raises(InvalidArgumentError, match="Input matrix and rhs are incompatible"):
        tf.linalg.solve(tf.eye(2), tf.ones([3, 1]))
    with pytest.raises(InvalidArgumentError, match="All input tensors must have the same rank"):
        tf.linalg.solve(tf.eye(2), tf.ones([2]))
    with pytest.raises(InvalidArgumentError, match=r"must be square \(3 =/= 2\)"):
        tf.linalg.triangular_solve(tf.ones([2, 3]), tf.ones([2, 1]))
    with pytest.raises(InvalidArgumentError, match=r"In\[0\] mismatch In\[1\] shape: 2 vs. 3: \[2,2\] \[3,1\]"):
        tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]))
    with pytest.raises(InvalidArgumentError, match="Expected dimension 3 at axis 0 of the input "
                                                   r"shaped \[2,3\] but got dimension 2"):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="Expected dimension 1"):  # no broadcasting
        tf.einsum("ij,ij->ij", tf.ones([1, 3]), tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="float32"):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]), tf.ones([3, 2], tf.float64))
    with pytest.raises(ValueError, match='Got 1 inputs for equation "ij,jk->ik", expecting 2'):
        tf.einsum("ij,jk->ik", tf.ones([2, 3]))
    with pytest.raises(InvalidArgumentError, match="Expected input 0 to have rank 2 but got: 3"):
        tf.einsum("ij->i", tf.ones([2, 3, 4]))
    with pytest.raises(ValueError, match="label k not present in the input subscripts"):
        tf.einsum("ij->k", tf.ones([1, 3]))
    with pytest.raises(NotFoundError):
        tf.einsum("i,i->", tf.ones([2], tf.bool), tf.ones([2], tf.bool))
    with pytest.raises(FailedPreconditionError, match="only defined for 3-element vectors"):
        tf.linalg.cross(tf.constant([1., 2]), tf.constant([4., 5]))
    with pytest.raises(InvalidArgumentError, match=r"Both inputs must be of same shape: \[2,3\] vs. \[3\]"):
        tf.linalg.cross(tf.ones([2, 3]), tf.ones([3]))
    with pytest.raises(InvalidArgumentError, match="not in the list of allowed values"):
        tf.linalg.cross(tf.ones([3], tf.bool), tf.ones([3], tf.bool))
    with pytest.raises(InvalidArgumentError, match="The number of rows or columns is not consistent"):
        tf.linalg.diag(tf.constant([1., 2]), num_rows=3, num_cols=4, padding_value=9)
    with pytest.raises(InvalidArgumentError, match="Either first dimensions of diagonal"):
        tf.linalg.set_diag(tf.zeros([2, 3]), tf.constant([1., 2, 3]))
    with pytest.raises(InvalidArgumentError, match=r"num_lower must be negative or less or equal "
                                                   r"to number of rows \(4\) got: 5"):
        tf.linalg.band_part(tf.reshape(tf.range(16), [4, 4]), 5, 1)
    with pytest.raises(InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2, 3\]"):
        tf.tensordot(tf.ones([2, 3]), tf.ones([2, 3]), 1)
    with pytest.raises(ValueError, match="should be a \\(batch\\) matrix with rank >= 2"):
        tf.linalg.matrix_transpose(tf.ones([2]))
    with pytest.raises(ValueError, match="tf.linalg.expm does not support matrices of type"):
        tf.linalg.expm(tf.constant([[0, 1], [-1, 0]]))
    with pytest.raises(TypeError, match="Input `a` must have `float`-like `dtype` \\(saw int32\\)"):
        tf.linalg.pinv(tf.constant([[1, 2], [2, 4]]))
    with pytest.raises(TypeError, match="`t_list` should be a sequence of tensors"):
        tf.linalg.global_norm(tf.constant([3., 4.]))
    with pytest.raises(InvalidArgumentError):  # tf.sqrt refuses integers
        tf.norm(tf.constant([3, 4]))


@pytest.mark.parametrize("kwargs, text", [
    ({"ord": "fro"}, "'ord' must be a supported vector norm, got fro"),
    ({"ord": 0}, "'ord' must be a supported vector norm, got 0"),
    ({"ord": -1}, "'ord' must be a supported vector norm, got -1"),
    ({"ord": 3, "axis": [0, 1]}, "'ord' must be a supported matrix norm in"),
    ({"axis": [0, 1, 2]}, "'axis' must be None, an integer, or a tuple of 2 unique integers"),
    ({"axis": [1, 1]}, "'axis' must be None, an integer, or a tuple of 2 unique integers"),
])
def test_norm_argument_errors(kwargs, text):
    with pytest.raises(ValueError, match=text.replace("[", r"\[")):
        tf.norm(tf.ones([2, 2, 2]), **kwargs)


# -- eager == staged ----------------------------------------------------------------------------

def _r(*shape, dtype=np.float64):
    return RNG.standard_normal(shape).astype(dtype)


def _spd(n, batch=()):
    m = RNG.standard_normal(batch + (n, n))
    return (m @ np.swapaxes(m, -1, -2) + n * np.eye(n)).astype(np.float32)


@pytest.mark.parametrize("fn, args", [
    (lambda a: tf.linalg.inv(a), (_spd(3, (2,)),)),
    (lambda a: tf.linalg.inv(a, adjoint=True), (_r(3, 3, dtype=np.float32),)),
    (lambda a: tf.linalg.det(a), (_spd(3, (2,)),)),
    (lambda a: tf.linalg.slogdet(a), (_spd(3, (2,)),)),
    (lambda a: tf.linalg.logdet(a), (_spd(3, (2,)),)),
    (lambda a: tf.linalg.cholesky(a), (_spd(4, (2,)),)),
    (lambda a, b: tf.linalg.solve(a, b, adjoint=True), (_spd(3, (2,)), _r(2, 3, 2, dtype=np.float32))),
    (lambda a, b: tf.linalg.triangular_solve(a, b, lower=False), (_spd(3, (2,)), _r(3, 2, dtype=np.float32))),
    (lambda a, b: tf.linalg.cholesky_solve(tf.linalg.cholesky(a), b), (_spd(3), _r(3, 1, dtype=np.float32))),
    (lambda a, b: tf.linalg.lstsq(a, b), (_r(4, 2), _r(4, 1))),
    (lambda a: tf.linalg.qr(a), (_r(2, 4, 3, dtype=np.float32),)),
    (lambda a: tf.linalg.svd(a), (_r(2, 3, 4),)),
    (lambda a: tf.linalg.eigh(a), (_spd(3, (2,)),)),
    (lambda a: tf.linalg.expm(a), (_r(2, 3, 3) * 2,)),
    (lambda a: tf.linalg.pinv(a), (_r(3, 2),)),
    (lambda a, b: tf.einsum("bij,bjk->bki", a, b), (_r(2, 3, 4), _r(2, 4, 5))),
    (lambda a, b: tf.tensordot(a, b, [[1, 0], [0, 2]]), (_r(3, 4, 5), _r(4, 2, 3))),
    (lambda a, b: tf.linalg.cross(a, b), (_r(4, 3), _r(4, 3))),
    (lambda a: tf.linalg.diag_part(a, k=(-1, 2)), (_r(2, 3, 4),)),
    (lambda a: tf.linalg.diag(a, k=(-1, 0), padding_value=7.0), (_r(2, 2, 3),)),
    (lambda a, d: tf.linalg.set_diag(a, d, k=-1), (_r(2, 3, 4), _r(2, 2))),
    (lambda a: tf.linalg.band_part(a, 1, 0), (_r(2, 4, 4),)),
    (lambda a: tf.linalg.trace(a), (_r(2, 3, 3),)),
    (lambda a: tf.norm(a, ord=1, axis=[1, 2], keepdims=True), (_r(2, 3, 3),)),
    (lambda a: tf.norm(a, ord=2, axis=[0, 2]), (_r(2, 3, 3),)),
    (lambda a: tf.norm(a, ord=3, axis=-1), (_r(2, 3, 3),)),
    (lambda a, b: tf.linalg.matvec(a, b), (_r(2, 3, 3), _r(2, 3))),
])
def test_eager_equals_staged(fn, args):
    assert_same(fn, *args, rtol=1e-5)


def test_in_tf_function_with_unknown_batch():
    @tf.function(input_signature=[tf.TensorSpec([None, 3, 3], tf.float64)])
    def f(a):
        return tf.linalg.det(a), tf.linalg.cholesky(a), tf.linalg.trace(a), tf.linalg.inv(a)

    a = _spd(3, (2,)).astype(np.float64)
    d, c, t, i = f(tf.constant(a))
    np.testing.assert_allclose(d.numpy(), np.linalg.det(a))
    np.testing.assert_allclose(c.numpy(), np.linalg.cholesky(a))
    np.testing.assert_allclose(t.numpy(), np.trace(a, axis1=1, axis2=2))
    np.testing.assert_allclose(i.numpy(), np.linalg.inv(a), rtol=1e-6)
    cf = f.get_concrete_function()
    assert cf.structured_outputs[1].shape.as_list() == [None, 3, 3]


# -- gradients ----------------------------------------------------------------------------------

def test_gradients_match_tensorflow():
    w = tf.constant(np.arange(9.).reshape(3, 3))
    np.testing.assert_allclose(_grad(lambda x: tf.reduce_sum(tf.linalg.inv(x) * w), SQ),
                               [[0.12153739612188365, 0.2236842105263158, 0.13227146814404428],
                                [-0.03947368421052633, -0.5, -0.3421052631578947],
                                [-0.051939058171745156, -0.39473684210526316, -0.26592797783933514]])
    np.testing.assert_allclose(_grad(tf.linalg.det, SQ), [[14.75, -9.5, -2.], [-9.5, 19., 0.],
                                                          [-2., 0., 8.]], atol=1e-12)
    np.testing.assert_allclose(_grad(lambda x: tf.reduce_sum(tf.linalg.cholesky(x) * w), SQ),
                               [[0.3369796910667836, -0.5758252147247764, -0.19626833481758144],
                                [-0.5758252147247764, 1.414213562373095, 2.474873734152916],
                                [-0.19626833481758144, 2.474873734152916, 1.835325870964494]])
    eig = lambda x: tf.reduce_sum(tf.linalg.eigh(x)[0] * _f64([1., 2, 3])) + \
        tf.reduce_sum(tf.abs(tf.linalg.eigh(x)[1][:, 0]))  # noqa: E731
    np.testing.assert_allclose(_grad(eig, SQ), [[1.9663568259374316, 0.0, 0.0],
                                                [1.5699554318733564, 1.6796108254965245, 0.0],
                                                [1.0525621596163166, 0.25071122983144634,
                                                 2.354032348566041]], atol=1e-9)
    np.testing.assert_allclose(
        _grad(lambda x: tf.reduce_sum(tf.linalg.svd(x, compute_uv=False) * _f64([1., 2])), TALL),
        [[-1.404372966224978, 1.2653207157741688], [0.8407865636790433, 0.003688700371349274],
         [0.5589933624060764, 0.6381934084441079]])
    np.testing.assert_allclose(_grad(lambda x: tf.norm(x, ord=2, axis=[0, 1]), TALL),
                               [[0.12568113404308254, 0.1766338301796981],
                                [0.2843423019414785, 0.3996182104532809],
                                [0.4893540199337591, 0.6877442307697703]])
    np.testing.assert_allclose(
        _grad(lambda x: tf.reduce_sum(tf.linalg.expm(x) * _f64([[1., 2], [3, 4]])), [[1., 2], [0.5, -1]]),
        [[9.030309281415745, 4.700060297965414], [11.9587468318187, 5.281355681648589]], rtol=1e-9)
    np.testing.assert_allclose(
        _grad(lambda x: tf.reduce_sum(tf.linalg.pinv(x) * _f64(np.arange(6.).reshape(2, 3))), TALL),
        [[4.153061224489793, -3.64285714285714], [-6.826530612244874, 5.071428571428554],
         [3.0510204081632635, -2.2142857142857135]], rtol=1e-8)
    np.testing.assert_allclose(
        _grad(lambda x: tf.reduce_sum(tf.linalg.qr(x)[1] * _f64([[1., 2], [3, 4]])), TALL),
        [[-5.6844943411634254, 3.4566714903106495], [1.331395277235457, -2.2790961697415666],
         [-0.8451542547285114, -1.6903085094570367]], rtol=1e-9)
    np.testing.assert_allclose(_grad(lambda x: tf.reduce_sum(tf.einsum("ii->i", x) * _f64([1., 2, 3])), SQ),
                               np.diag([1., 2, 3]))


def _sym(x):
    """Cholesky reads the lower triangle and TensorFlow's gradient is symmetric: finite
    differences agree with it on a symmetric parametrization."""
    return (x + tf.linalg.matrix_transpose(x)) / 2


SPD_BATCH = _spd(3, (2,)).astype(np.float64)
B = _r(2, 3, 2)


@pytest.mark.parametrize("fn, x", [
    (_weighted(lambda x: tf.linalg.inv(x, adjoint=True), (2, 3, 3)), SPD_BATCH),
    (lambda x: tf.reduce_sum(tf.linalg.slogdet(x)[1]), SPD_BATCH),
    (lambda x: tf.reduce_sum(tf.linalg.logdet(_sym(x))), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.cholesky(_sym(x)), (2, 3, 3)), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.solve(x, _f64(B)), (2, 3, 2)), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.solve(_f64(SPD_BATCH), x, adjoint=True), (2, 3, 2)), B),
    (_weighted(lambda x: tf.linalg.triangular_solve(x, _f64(B[0]), lower=False), (2, 3, 2)), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.triangular_solve(_f64(SPD_BATCH), x, adjoint=True), (2, 3, 2)), B[0]),
    (_weighted(lambda x: tf.linalg.lstsq(x, _f64(B[0])), (2, 2)), _r(3, 2)),
    (_weighted(lambda x: tf.linalg.eigvalsh(x), (2, 3)), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.eigh(x)[1] ** 2, (2, 3, 3)), SPD_BATCH),
    (_weighted(lambda x: tf.linalg.expm(x), (2, 3, 3)), SPD_BATCH / 3),
    (_weighted(lambda x: tf.linalg.qr(x)[0], (2, 2)), WIDE),
    (_weighted(lambda x: tf.linalg.qr(x)[1], (2, 3)), WIDE),
    (_weighted(lambda x: tf.abs(tf.linalg.svd(x)[1]), (3, 2)), TALL),
    (_weighted(lambda x: tf.abs(tf.linalg.svd(x)[2]), (3, 2)), WIDE),
    (_weighted(lambda x: tf.einsum("ij,jk,k->ik", x, tf.transpose(x), _f64([1., 2, 3, 4])), (4, 4)), TALL + [[0., 1.]]),
    (_weighted(lambda x: tf.einsum("...ij->...j", x), (2, 3)), _r(2, 4, 3)),
    (_weighted(lambda x: tf.tensordot(x, x, [[0], [0]]), (2, 2)), TALL),
    (_weighted(lambda x: tf.linalg.cross(x, x[::-1]), (2, 3)), WIDE),
    (_weighted(lambda x: tf.linalg.diag(x, k=(-1, 0)), (2, 2)), [[1., 2.], [3., 4.]]),
    (_weighted(lambda x: tf.linalg.diag_part(x, k=(0, 1)), (2, 2)), WIDE),
    (_weighted(lambda x: tf.linalg.set_diag(x, x[1:, 0] * x[1:, 1], k=-1), (3, 2)), TALL),
    (_weighted(lambda x: tf.linalg.band_part(x, 0, 1), (3, 2)), TALL),
    (lambda x: tf.linalg.trace(x), SQ),
    (_weighted(lambda x: tf.linalg.matvec(x, _f64([1., 2])), (3,)), TALL),
    (_weighted(lambda x: tf.norm(x, ord=1, axis=[0, 1]), ()), WIDE),
    (_weighted(lambda x: tf.norm(x, ord=np.inf, axis=-1), (2,)), WIDE),
    (lambda x: tf.norm(x, ord=3), WIDE),
    (lambda x: tf.linalg.global_norm([x, x * 2]), WIDE),
])
def test_gradients_numerically(fn, x):
    _check_grad(fn, x, atol=1e-5)


def test_gradients_tensorflow_does_not_define():
    x = tf.constant(TALL)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.linalg.lstsq(x, tf.ones([3, 1]), fast=False)
    with pytest.raises(ValueError, match="Gradient not defined for fast=False"):
        t.gradient(y, x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.linalg.qr(x, full_matrices=True)[0]
    with pytest.raises(NotImplementedError, match="nrows > ncols and full_matrices is true"):
        t.gradient(y, x)


def test_gradient_in_tf_function():
    @tf.function
    def f(a):
        with tf.GradientTape() as t:
            t.watch(a)
            y = tf.linalg.logdet(a) + tf.reduce_sum(tf.linalg.inv(a))
        return t.gradient(y, a)

    a = SPD_BATCH[0]
    eager_value = _grad(lambda x: tf.linalg.logdet(x) + tf.reduce_sum(tf.linalg.inv(x)), a)
    np.testing.assert_allclose(f(_f64(a)).numpy(), eager_value, rtol=1e-10)


def _staged_losses(x):
    return (tf.reduce_sum(tf.linalg.svd(x[:, :2], compute_uv=False))
            + tf.reduce_sum(tf.linalg.qr(x)[1] * x)
            + tf.reduce_sum(tf.linalg.diag_part(x, k=(-1, 0)) ** 2)
            + tf.reduce_sum(tf.linalg.band_part(x, 0, 1) * x)
            + tf.reduce_sum(tf.linalg.set_diag(x, x[:, 0] ** 2) ** 2)
            + tf.reduce_sum(tf.einsum("ij,kj->ik", x, x) ** 2)
            + tf.reduce_sum(tf.linalg.cross(x, x * x)))


def test_staged_gradients_equal_eager():
    @tf.function
    def staged(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = _staged_losses(x)
        return t.gradient(y, x)

    x = _r(3, 3)
    np.testing.assert_allclose(staged(_f64(x)).numpy(), _grad(_staged_losses, x), rtol=1e-10)
    np.testing.assert_allclose(_grad(_staged_losses, x), _numeric_grad(_staged_losses, x),
                               rtol=1e-5, atol=1e-5)


def test_lstsq_and_pinv_with_unknown_matrix_size():
    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float64)] * 2)
    def f(a, b):  # tall or wide is decided when it runs
        return tf.linalg.lstsq(a, b), tf.linalg.lstsq(a, b, l2_regularizer=0.5), tf.linalg.pinv(a)

    for a, b in [(TALL, [[1.], [2], [3]]), (WIDE, [[1.], [2]])]:
        a, b = _f64(a), _f64(b)
        expected = (tf.linalg.lstsq(a, b), tf.linalg.lstsq(a, b, l2_regularizer=0.5),
                    tf.linalg.pinv(a))
        for got, want in zip(f(a, b), expected):
            np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-10)


def test_gradients_with_unknown_shapes():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None], tf.float64)])
    def f(a):
        with tf.GradientTape() as t:
            t.watch(a)
            y = tf.reduce_sum(tf.linalg.logdet(a)) + tf.reduce_sum(tf.linalg.eigvalsh(a) ** 2)
        return t.gradient(y, a)

    loss = lambda a: tf.reduce_sum(tf.linalg.logdet(a)) + tf.reduce_sum(tf.linalg.eigvalsh(a) ** 2)  # noqa: E731
    np.testing.assert_allclose(f(_f64(SPD_BATCH)).numpy(), _grad(loss, SPD_BATCH), rtol=1e-10)
