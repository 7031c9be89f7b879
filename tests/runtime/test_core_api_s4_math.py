"""tf.math special functions, tf.linalg additions and tf.sets: values equal to TensorFlow
2.21's for representative inputs (recorded from TensorFlow as literals), eager and
staged, gradients checked numerically."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime import sets
from runtime.ops import linalg_extra as L
from runtime.ops import special_extra as S
from tests.staging import assert_same

F64 = tf.float64


def _close(t, want, rtol=1e-12):
    np.testing.assert_allclose(np.asarray(t), np.asarray(want, np.float64), rtol=rtol, atol=0)


def _numeric_grad(f, x, eps=1e-6):
    """Central differences of scalar f at x (float64)."""
    x = np.array(x, np.float64)
    out = np.zeros_like(x)
    for i in np.ndindex(x.shape):
        up, down = x.copy(), x.copy()
        up[i] += eps
        down[i] -= eps
        out[i] = (f(up) - f(down)) / (2 * eps)
    return out


def _check_grad(fn, x, rtol=1e-6):
    """tf gradient of sum(fn(x) * w) against central differences."""
    x = np.asarray(x, np.float64)
    xt = tf.constant(x)
    shape = fn(xt).shape
    w = np.linspace(0.5, 1.5, shape.num_elements()).reshape(shape.as_list())
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.reduce_sum(fn(xt) * w)
    got = tape.gradient(y, xt).numpy()
    want = _numeric_grad(lambda v: float(tf.reduce_sum(fn(tf.constant(v)) * w).numpy()), x)
    np.testing.assert_allclose(got, want, rtol=rtol, atol=1e-8)


# -- special functions --------------------------------------------------------------------------

X = np.array([-50., -3.5, -1., 0., 0.5, 1., 2.5, 10., 29.9, 30.1, 100., 700.])


def test_bessel():
    _close(S.bessel_i0e(X), [0.05656162664745418, 0.22280243801077917, 0.46575960759364043,
                             1., 0.6450352704491502, 0.46575960759364043, 0.27004644161220276,
                             0.1278333371634286, 0.07326921904600191, 0.07302329413106094,
                             0.03994437929909669, 0.01508129565153135])
    _close(S.bessel_i1e(X), [-0.0559931238928954, -0.18739997660304997, -0.20791041534970844,
                             0., 0.15642080318487162, 0.20791041534970844, 0.20658464953126654,
                             0.12126268138445552, 0.0720333749118688, 0.07179985435101433,
                             0.03974415302513026, 0.01507051944471684])
    _close(S.bessel_i0(X), [2.9325537838493355e+20, 7.3782034322254795, 1.2660658777520082, 1.,
                            1.0634833707413238, 1.2660658777520082, 3.2898391440501231,
                            2.8157166284662544e+03, 7.0847833048901453e+11,
                            8.6243292003177917e+11, 1.0737517071310740e+42,
                            1.5295933476718735e+302])
    _close(S.bessel_i1(X), [-2.9030785901035566e+20, -6.2058349222583642, -5.6515910399248503e-1,
                            0., 2.5789430539089619e-1, 5.6515910399248503e-1,
                            2.5167162452886984, 2.6709883037012551e+03, 6.9652830836109277e+11,
                            8.4798363019154126e+11, 1.0683693903381627e+42,
                            1.5285003902339004e+302])
    f32 = S.bessel_i0e(tf.constant([1., -2.]))
    assert f32.dtype == tf.float32
    _close(f32, [0.46575963, 0.30850834], rtol=1e-6)
    with pytest.raises(InvalidArgumentError):
        S.bessel_i0(tf.constant([1]))
    x = np.array([-2.5, -0.3, 0.0, 0.7, 3.0])
    for fn in (S.bessel_i0, S.bessel_i1, S.bessel_i0e, S.bessel_i1e):
        _check_grad(fn, x)
    assert_same(S.bessel_i1e, np.array([-40., 0.5, 31.], np.float32))


def test_betainc():
    a = np.array([0.5, 1., 2., 5., 0.1, 30., 1., -1., 2.])
    b = np.array([0.5, 3., 2., 0.5, 10., 40., 1., 1., 2.])
    x = np.array([0.3, 0.5, 0.99, 0.2, 0.01, 0.45, 0., 0.5, 1.5])
    _close(S.betainc(a, b, x), [3.6901011956554536e-01, 8.75e-01, 9.997020e-01,
                                8.6302161531542511e-05, 8.2448967090669711e-01,
                                6.4474800855855763e-01, 0., np.nan, np.nan], rtol=1e-11)
    _close(S.betainc(2., tf.constant([1., 2.]), 0.5), [0.25, 0.5], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="Shapes of a and b are inconsistent"):
        S.betainc(tf.constant([2., 3]), tf.constant([1., 2., 3]), tf.constant([0.5, 0.5]))
    _check_grad(lambda t: S.betainc(tf.constant([2., 0.7], F64), tf.constant([3., 1.5], F64), t),
                [0.4, 0.8])
    assert_same(S.betainc, np.float32(2.), np.array([3., 1.], np.float32),
                np.array([0.4, 0.9], np.float32))


def test_ndtri_erfcinv():
    p = np.array([0., 1e-300, 1e-20, 1e-5, 0.025, 0.3, 0.5, 0.7, 0.975, 1 - 1e-10, 1., 1.5, -0.1])
    _close(S.ndtri(p), [-np.inf, -37.0470962993612, -9.262340089798409, -4.264890793922825,
                        -1.9599639845400545, -0.5244005127080409, 0., 0.5244005127080407,
                        1.959963984540054, 6.361340889697422, np.inf, np.nan, np.nan],
           rtol=1e-14)
    y = np.array([0., 1e-300, 1e-20, 1e-5, 0.3, 1., 1.5, 2 - 1e-10, 2., 2.5])
    _close(S.erfcinv(y), [np.inf, 26.209469960516124, 6.601580622355143, 3.1234132743408756,
                          0.7328690779592171, 0., -0.4769362762044699, -4.572824958544925,
                          -np.inf, np.nan], rtol=1e-14)
    _check_grad(S.ndtri, [0.01, 0.3, 0.9])
    assert_same(S.erfcinv, np.array([0.1, 1.2], np.float32))


def test_zeta_polygamma_lbeta():
    zx = np.array([2., 3., 1., 0.5, 4.5, 2., 2., 10., 2., 3.])
    zq = np.array([1., 2.5, 1., 1., 0.1, -1.5, -2., 0.5, 1e3, -0.5])
    _close(S.zeta(zx, zq), [1.6449340668482266, 1.1810202582086368e-01, np.inf, np.nan,
                            3.1623472537667596e+04, 9.3792466449891236, np.inf,
                            1.0240174503557578e+03, 1.0005001666666331e-03,
                            4.1439832211715999e-01], rtol=1e-13)
    n = np.array([0., 1., 2., 3., 1., 1.5, 4., -1., 2.])
    x = np.array([2.5, 0.5, 3., 10., -1.5, 2., 0.25, 1., -2.])
    _close(S.polygamma(n, x), [7.0315664064524341e-01, 4.9348022005446799, -1.5411380631918856e-01,
                               2.3199013042898686e-03, 9.3792466449891236, np.nan,
                               -2.4584375388637949e+04, np.nan, np.nan], rtol=1e-12)
    _check_grad(lambda q: S.zeta(tf.constant([2., 3.5], F64), q), [1.5, 0.7])
    _check_grad(lambda t: S.polygamma(tf.constant([0., 2.], F64), t), [1.5, 0.7])
    _close(S.lbeta(tf.constant([[1., 2.], [3., 4.5], [0.1, 100.]])),
           [-0.6931472, -4.3874803, 1.7926636], rtol=1e-6)
    assert S.lbeta(tf.constant([3.])).numpy() == 0.0
    assert S.lbeta(np.zeros([2, 0])).numpy().tolist() == [-np.inf, -np.inf]
    with pytest.raises(InvalidArgumentError):
        S.lbeta(tf.constant(3.))
    assert_same(S.lbeta, np.array([[1., 2.], [3., 4.5]], np.float32))


def test_small_math_helpers():
    np.testing.assert_array_equal(
        S.reciprocal_no_nan(tf.constant([0., 2., -4., np.inf])).numpy(), [0., 0.5, -0.25, 0.])
    np.testing.assert_array_equal(S.reciprocal_no_nan(tf.constant([0j, 2 + 2j])).numpy(),
                                  [0j, 0.25 - 0.25j])
    with pytest.raises(InvalidArgumentError):
        S.reciprocal_no_nan(tf.constant([0, 2]))
    np.testing.assert_array_equal(S.invert_permutation([3, 4, 0, 2, 1]).numpy(), [2, 4, 3, 0, 1])
    assert S.invert_permutation(tf.constant([1, 0], tf.int64)).dtype == tf.int64
    with pytest.raises(InvalidArgumentError, match="0 is duplicated in the input."):
        S.invert_permutation([0, 0])
    with pytest.raises(InvalidArgumentError, match="expects a 1D vector"):
        S.invert_permutation([[0]])
    assert_same(S.invert_permutation, np.array([2, 0, 1], np.int32))
    assert S.is_non_decreasing([1, 2, 2, 3]).numpy()
    assert not S.is_non_decreasing([[1, 2], [0, 3]]).numpy()
    assert not S.is_strictly_increasing([1, 2, 2, 3]).numpy()
    assert S.is_strictly_increasing([1.]).numpy() and S.is_strictly_increasing([]).numpy()
    assert_same(S.is_strictly_increasing, np.array([1, 3, 4], np.int32))
    np.testing.assert_array_equal(
        S.accumulate_n([tf.constant([1., 2]), tf.constant([3., 4])], shape=[2],
                       tensor_dtype=tf.float32).numpy(), [4., 6.])
    for bad in ([tf.constant([1., 2]), tf.constant([3])], []):
        with pytest.raises(ValueError, match="at least one Tensor with the same dtype and shape"):
            S.accumulate_n(bad)
    got = S.unsorted_segment_sqrt_n(tf.constant([[1., 2], [3, 4], [5, 6]]), [0, 1, 0], 3)
    _close(got, [[4.242641, 5.656854], [3., 4.], [0., 0.]], rtol=1e-6)
    with pytest.raises(InvalidArgumentError):
        S.unsorted_segment_sqrt_n(tf.constant([1, 2]), [0, 1], 2)
    _check_grad(lambda d: S.unsorted_segment_sqrt_n(d, [0, 1, 0], 2), [1., 2., 3.])


# -- linalg ------------------------------------------------------------------------------------------

A = np.array([[1., 2, 3], [4, 5, 6], [7, 8, 10.]])


def test_lu_family():
    lu, p = L.lu(A)
    _close(lu, [[7., 8., 10.], [0.14285714285714285, 0.8571428571428572, 1.5714285714285716],
                [0.5714285714285714, 0.5000000000000002, -0.49999999999999967]], rtol=1e-13)
    assert p.dtype == tf.int32 and p.numpy().tolist() == [2, 0, 1]
    lu32, p64 = L.lu(tf.constant(A, tf.float32), output_idx_type=tf.int64)
    assert lu32.dtype == tf.float32 and p64.dtype == tf.int64
    _close(L.lu_reconstruct(lu, p), A, rtol=1e-14)
    _close(L.lu_solve(lu, p, [[1.], [2], [3]]), [[-1 / 3], [2 / 3], [0.]], rtol=1e-13)
    _close(L.lu_matrix_inverse(lu, p), np.linalg.inv(A), rtol=1e-12)
    batch = np.stack([A, A.T])
    assert L.lu(batch).p.numpy().tolist() == [[2, 0, 1], [2, 0, 1]]
    with pytest.raises(InvalidArgumentError, match="Input is not invertible."):
        L.lu(np.zeros([2, 2]))
    with pytest.raises(InvalidArgumentError, match="Input matrix must be square."):
        L.lu(np.ones([2, 3]))
    with pytest.raises(InvalidArgumentError):
        L.lu(np.eye(2, dtype=np.int32))
    with pytest.raises(LookupError):  # TensorFlow registers no gradient for Lu
        x = tf.constant(A)
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(L.lu(x).lu)
        tape.gradient(y, x)
    assert_same(lambda m: L.lu_reconstruct(*L.lu(m)), batch.astype(np.float32), rtol=1e-5)
    _check_grad(lambda b: L.lu_solve(lu, p, b), [[1., 2.], [3., 4.], [5., 6.]])


def test_sqrtm_matrix_rank_normalize():
    assert L.sqrtm([[4., 1], [0, 9]]).dtype == tf.float32
    _close(L.sqrtm(np.array([[4., 1], [0, 9]])), [[2., 0.2], [0., 3.]], rtol=1e-14)
    spd = np.array([[2., 1, 0], [1, 3, 1], [0, 1, 4]])
    _close(L.sqrtm(spd), [[1.3748982385857973, 0.33002900775538513, -0.02712356122769871],
                          [0.33002900775538496, 1.6778036851134834, 0.2757818852999885],
                          [-0.02712356122769854, 0.27578188529998826, 1.98070913164117]],
           rtol=1e-13)
    assert np.isnan(L.sqrtm(np.array([[-1., 0], [0, 1]])).numpy()).all()
    _close(L.sqrtm(np.array([[0., -1], [1, 0]])), [[0.7071067811865476, -0.7071067811865476],
                                        [0.7071067811865476, 0.7071067811865476]], rtol=1e-14)
    x = tf.constant(spd)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(L.sqrtm(x) * np.arange(1., 10.).reshape(3, 3))
    _close(tape.gradient(y, x), [[0.21173586359819233, 0.46348853771890597, 0.7423647730673172],
                                 [1.0150523083188827, 1.087560166629031, 1.3424071907981687],
                                 [1.845492314267271, 1.7854767164873544, 2.0718787145706616]],
           rtol=1e-12)
    assert L.matrix_rank(np.array([[1., 2], [2, 4]])).numpy() == 1
    np.testing.assert_array_equal(L.matrix_rank(np.stack([A, np.ones([3, 3])])).numpy(), [3, 1])
    assert L.matrix_rank(np.diag([1., 1e-3]), tol=1e-2).numpy() == 1
    normed, norm = L.normalize([[3., 4], [6, 8]], axis=1)
    _close(normed, [[0.6, 0.8], [0.6, 0.8]], rtol=1e-6)
    _close(norm, [[5.], [10.]])
    normed, norm = L.normalize([[3., 4], [6, 8]], ord=1, axis=0)
    assert norm.shape == (1, 2)
    _close(norm, [[9., 12.]])
    _close(L.l2_normalize([3., 4]), [0.6, 0.8], rtol=1e-6)
    assert_same(lambda m: L.sqrtm(m), spd.astype(np.float32), rtol=1e-5)


DIAGS = np.array([[2., 3, 0], [1., 4, 5], [0, 6., 7]], np.float32)  # super, main, sub
RHS = np.array([1., 2, 3], np.float32)
SOLUTION = [0.04918033, 0.47540984, -0.06557377]


def test_tridiagonal():
    _close(L.tridiagonal_solve(DIAGS, RHS), SOLUTION, rtol=1e-6)
    _close(L.tridiagonal_solve(DIAGS, RHS[:, None])[:, 0], SOLUTION, rtol=1e-6)
    seq = (tf.constant([2., 3, 0]), tf.constant([1., 4, 5]), tf.constant([0, 6., 7]))
    _close(L.tridiagonal_solve(seq, RHS[:, None], diagonals_format="sequence")[:, 0],
           SOLUTION, rtol=1e-6)
    dense = np.array([[1., 2, 0], [6, 4, 3], [0, 7, 5]], np.float32)
    _close(L.tridiagonal_solve(dense, RHS[:, None], diagonals_format="matrix")[:, 0],
           SOLUTION, rtol=1e-6)
    _close(L.tridiagonal_solve(DIAGS, RHS[None, :], transpose_rhs=True)[:, 0], SOLUTION,
           rtol=1e-6)
    with pytest.raises(ValueError, match="Unrecognized diagonals_format: foo"):
        L.tridiagonal_solve(DIAGS, RHS, diagonals_format="foo")
    _close(L.tridiagonal_matmul(DIAGS, RHS[:, None])[:, 0], [5., 23., 29.])
    with pytest.raises(InvalidArgumentError, match="same rank"):
        L.tridiagonal_matmul(DIAGS, RHS)
    d, r = tf.Variable(DIAGS), tf.Variable(RHS[:, None])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(L.tridiagonal_solve(d, r) * tf.constant([[1.], [2], [3]]))
    gd, gr = tape.gradient(y, [d, r])
    _close(gd, [[0.5065843, 0.022574576, 0.], [0.05240527, -0.16366568, 0.025799515],
                [0., -0.016930934, -0.1870465]], rtol=1e-5)
    _close(gr[:, 0], [-1.0655738, 0.3442623, 0.39344263], rtol=1e-6)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(L.tridiagonal_matmul(d, r) * tf.constant([[1.], [2], [3]]))
    gd, gr = tape.gradient(y, [d, r])
    _close(gd, [[2., 6., 0.], [1., 4., 9.], [0., 2., 6.]])
    _close(gr[:, 0], [13., 31., 21.])
    assert_same(lambda dg, b: L.tridiagonal_solve(dg, b), np.stack([DIAGS, DIAGS * 2]),
                np.stack([RHS, RHS]), rtol=1e-5)


def test_tensor_diag():
    d = L.tensor_diag([[1, 2], [3, 4]])
    assert d.shape == (2, 2, 2, 2) and d.numpy()[1, 0, 1, 0] == 3 and d.numpy().sum() == 10
    np.testing.assert_array_equal(L.tensor_diag_part(d).numpy(), [[1, 2], [3, 4]])
    with pytest.raises(InvalidArgumentError):
        L.tensor_diag_part(tf.zeros([2, 3]))
    assert_same(lambda x: L.tensor_diag_part(L.tensor_diag(x)), np.array([1., 2, 3], np.float32))


# -- sets --------------------------------------------------------------------------------------------

def _sparse(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def test_sets_dense():
    a = tf.constant([[1, 2, 3], [4, 5, 5]])
    b = tf.constant([[3, 2, 7], [5, 6, 6]])
    assert _sparse(sets.intersection(a, b)) == ([[0, 0], [0, 1], [1, 0]], [2, 3, 5], [2, 2])
    assert _sparse(sets.union(a, b)) == ([[0, 0], [0, 1], [0, 2], [0, 3], [1, 0], [1, 1], [1, 2]],
                                         [1, 2, 3, 7, 4, 5, 6], [2, 4])
    assert _sparse(sets.difference(a, b)) == ([[0, 0], [1, 0]], [1, 4], [2, 1])
    assert _sparse(sets.difference(a, b, aminusb=False)) == ([[0, 0], [1, 0]], [7, 6], [2, 1])
    assert _sparse(sets.union(tf.constant([[[1, 1]], [[2, 3]]]), tf.constant([[[4, 1]], [[3, 3]]]))
                   ) == ([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1]], [1, 4, 2, 3], [2, 1, 2])
    assert _sparse(sets.union([["a", "b"]], [["c", "a"]])) == \
        ([[0, 0], [0, 1], [0, 2]], [b"a", b"b", b"c"], [1, 3])
    assert _sparse(sets.intersection([[1]], [[2]])) == ([], [], [1, 0])
    assert sets.union(tf.constant([[1]], tf.int64), tf.constant([[2]], tf.int64)).dtype == tf.int64
    with pytest.raises(InvalidArgumentError, match=r"Shape \[2\] has rank 1 < 2"):
        sets.intersection(tf.constant([1, 2]), tf.constant([2]))
    with pytest.raises(TypeError, match="invalid dtype"):
        sets.union(tf.constant([[1.]]), tf.constant([[2.]]))
    with pytest.raises(TypeError, match="Types don't match"):
        sets.union(tf.constant([[1]]), tf.constant([[2]], tf.int64))
    with pytest.raises(InvalidArgumentError, match=r"Mismatched shapes \[2\] vs \[1\]"):
        sets.union(tf.constant([[1], [2]]), tf.constant([[2]]))


def test_sets_sparse_and_staged():
    sa = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 4], [2, 3])
    b = tf.constant([[3, 2, 7], [5, 6, 6]])
    np.testing.assert_array_equal(sets.size(sa).numpy(), [2, 1])
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
        sets.size(b)
    assert _sparse(sets.intersection(sa, b)) == ([[0, 0]], [2], [2, 1])
    assert _sparse(sets.intersection(b, sa)) == ([[0, 0]], [2], [2, 1])
    assert _sparse(sets.difference(b, sa)) == ([[0, 0], [0, 1], [1, 0], [1, 1]], [3, 7, 5, 6],
                                               [2, 2])
    assert _sparse(sets.union(sa, sa)) == ([[0, 0], [0, 1], [1, 0]], [1, 2, 4], [2, 2])

    @tf.function
    def f(x, y):
        u = sets.union(x, y)
        return u, sets.size(u)

    u, n = f(tf.constant([[1, 2, 3], [4, 5, 5]]), b)
    assert _sparse(u)[1] == [1, 2, 3, 7, 4, 5, 6]
    np.testing.assert_array_equal(n.numpy(), [4, 3])


def test_sqrtm_of_a_batch_treats_each_matrix_alone():
    # TensorFlow 2.21: [[2, 0], [0, 3]] and nan for the zero matrix (before: all nan).
    a = np.stack([np.diag([4.0, 9.0]), np.zeros((2, 2))]).astype(np.float32)
    got = tf.linalg.sqrtm(a).numpy()
    assert got[0].tolist() == [[2.0, 0.0], [0.0, 3.0]] and np.isnan(got[1]).all()
