"""The rest of tf.math: special functions, safe divisions, statistics reductions, scans,
segment reductions, bincount and confusion_matrix, bit shifts.

Expected values were recorded from TensorFlow 2.21 as literals; every op also runs
eagerly and staged (both executors), and gradients are checked by central differences.
"""
import numpy as np
import pytest

import runtime as tf
from graph.errors import InvalidArgumentError
from runtime import bitwise
from tests.staging import assert_same

RNG = np.random.default_rng(7)
X64 = np.array([-0.9, -0.3, 0.2, 0.7])

# -- values against TensorFlow --------------------------------------------------------

TF_UNARY_FLOAT64 = {
    "tan": [-1.2601582175503392, -0.30933624960962325, 0.2027100355086725, 0.8422883804630794],
    "asin": [-1.1197695149986342, -0.3046926540153975, 0.2013579207903308, 0.775397496610753],
    "acos": [2.6905658417935308, 1.8754889808102941, 1.369438406004566, 0.7953988301841436],
    "atan": [-0.7328151017865067, -0.2914567944778671, 0.19739555984988075, 0.6107259643892086],
    "sinh": [-1.0265167257081753, -0.3045202934471426, 0.20133600254109402, 0.7585837018395334],
    "cosh": [1.4330863854487745, 1.0453385141288605, 1.020066755619076, 1.255169005630943],
    "asinh": [-0.8088669356527824, -0.29567304756342244, 0.19869011034924142,
              0.6526665660823557],
    "atanh": [-1.4722194895832204, -0.3095196042031117, 0.2027325540540822, 0.8673005276940531],
    "log1p": [-2.302585092994046, -0.3566749439387324, 0.18232155679395465, 0.5306282510621704],
    "expm1": [-0.593430340259401, -0.2591817793182821, 0.22140275816016985, 1.0137527074704764],
    "erf": [-0.7969082124228323, -0.3286267594591274, 0.2227025892104785, 0.6778011938374185],
    "erfc": [1.7969082124228324, 1.3286267594591274, 0.7772974107895215, 0.32219880616258145],
    "erfinv": [-1.1630871536766743, -0.27246271472675443, 0.17914345462129164,
               0.7328690779592171],
    "digamma": [-9.312643829299969, 2.1133097796353986, -5.289039896592188, -1.220023553697935],
    "lgamma": [2.3580731673920323, 1.4648400508576023, 1.5240638224307843, 0.2608672465316666],
    "reciprocal": [-1.1111111111111112, -3.3333333333333335, 5.0, 1.4285714285714286],
}


@pytest.mark.parametrize("name", sorted(TF_UNARY_FLOAT64))
def test_unary_values_equal_tensorflow(name):
    fn = getattr(tf.math, name)
    got = assert_same(fn, X64)
    assert got.dtype == np.float64
    np.testing.assert_allclose(got, TF_UNARY_FLOAT64[name], rtol=1e-13, atol=1e-15)


def test_special_functions_over_wide_ranges_equal_tensorflow():
    c = tf.constant
    np.testing.assert_allclose(tf.math.acosh(c([1., 1.5, 10.], tf.float64)).numpy(),
                               [0.0, 0.9624236501192069, 2.993222846126381], rtol=1e-14)
    x32 = c([0.1, 1.5, 7.3, -2.5, 100.])
    np.testing.assert_allclose(tf.math.lgamma(x32).numpy(), [
        2.2527127265930176, -0.12078223377466202, 7.147892951965332, -0.056243713945150375,
        359.13421630859375], rtol=1e-6)
    np.testing.assert_allclose(tf.math.digamma(x32).numpy(), [
        -10.423754692077637, 0.03648996353149414, 1.9178203344345093, 1.1031568050384521,
        4.600162029266357], rtol=1e-6)
    assert tf.math.lgamma(x32).dtype == tf.float32
    np.testing.assert_allclose(tf.math.erf(c([-3., -0.5, 0.01, 1.2, 2.7])).numpy(), [
        -0.9999780058860779, -0.5204998850822449, 0.01128341443836689, 0.9103140234947205,
        0.9998656511306763], rtol=1e-6)
    np.testing.assert_allclose(tf.math.erfc(c([-3., -0.5, 0.01, 1.2, 2.7, 6., 26.],
                                              tf.float64)).numpy(), [
        1.9999779095030015, 1.5204998778130467, 0.9887165844441503, 0.08968602177036461,
        0.0001343327399405242, 2.151973671249891e-17, 5.663192408856143e-296], rtol=1e-13)
    np.testing.assert_allclose(tf.math.erfinv(c([-0.999, -0.5, 1e-8, 0.3, 0.99999],
                                                tf.float64)).numpy(), [
        -2.3267537655135246, -0.4769362762044699, 8.862269200667397e-09, 0.27246271472675443,
        3.1234132743398733], rtol=1e-8)  # TF's float64 erfinv(1e-8) is off by 6e-9 relative
    a = np.array([0.5, 1., 2., 5., 30., 3.])
    x = np.array([0.1, 1., 3., 20., 25., 0.])
    np.testing.assert_allclose(assert_same(tf.math.igamma, a, x), [
        0.345279153981423, 0.6321205588285578, 0.8008517265285442, 0.9999830552560699,
        0.1821039159774535, 0.0], rtol=1e-12)
    np.testing.assert_allclose(assert_same(tf.math.igammac, a, x), [
        0.6547208460185769, 0.36787944117144233, 0.1991482734714558, 1.694474393006737e-05,
        0.8178960840225464, 1.0], rtol=1e-11)


def test_special_function_edges_equal_tensorflow():
    f = tf.constant([0., 1., 2., -1., -2.5, 0.5, np.nan, np.inf, -np.inf])
    np.testing.assert_allclose(tf.math.lgamma(f).numpy(), [
        np.inf, 0., 0., np.inf, -0.05624371, 0.5723649, np.nan, np.inf, np.inf], atol=1e-6)
    np.testing.assert_allclose(tf.math.digamma(f).numpy(), [
        np.nan, -0.5772159, 0.4227842, np.nan, 1.1031568, -1.9635108, np.nan, np.inf, np.nan],
        rtol=1e-6)
    np.testing.assert_array_equal(tf.math.erfinv(tf.constant([-1., 1., 1.5, 0.])).numpy(),
                                  [-np.inf, np.inf, np.nan, 0.])
    np.testing.assert_array_equal(
        tf.math.igamma(tf.constant([0., -1., 1., 1.]), tf.constant([1., 1., -1., 0.])).numpy(),
        [np.nan, np.nan, np.nan, 0.])


def test_binary_values_equal_tensorflow():
    c = tf.constant
    np.testing.assert_allclose(tf.math.atan2(c([1., -1., 0., 2.]), c([0., -1., -1., 3.])),
                               [1.5707963705062866, -2.356194496154785, 3.1415927410125732,
                                0.588002622127533], rtol=1e-6)
    x, y = c([0., 2., 3.]), c([0., 3., 0.5])
    np.testing.assert_allclose(tf.math.xlogy(x, y), [0.0, 2.1972246170043945,
                                                     -2.079441547393799], rtol=1e-6)
    np.testing.assert_allclose(tf.math.xlog1py(x, c([-1., 3., 0.5])),
                               [0.0, 2.7725887298583984, 1.2163952589035034], rtol=1e-6)
    np.testing.assert_allclose(tf.math.xdivy(x, y), [0.0, 0.6666666865348816, 6.0], rtol=1e-6)
    np.testing.assert_array_equal(tf.math.xlogy(c([0., 0., 1.]), c([0., np.nan, 0.])),
                                  [0., 0., -np.inf])
    np.testing.assert_array_equal(tf.math.divide_no_nan(c([1., np.nan, 1.]),
                                                        c([0., 0., np.nan])), [0., 0., np.nan])
    np.testing.assert_array_equal(tf.math.multiply_no_nan(c([np.inf, np.nan, 1.]),
                                                          c([0., 0., np.nan])), [0., 0., np.nan])
    ints = tf.math.divide_no_nan(c([1, 3]), c([0, 2]))
    assert ints.dtype == tf.float64
    np.testing.assert_array_equal(ints, [0.0, 1.5])
    np.testing.assert_array_equal(
        tf.math.nextafter(c([1., 0.]), c([2., -1.])).numpy(),
        np.array([1.0000001192092896, -1.401298464324817e-45], np.float32))
    np.testing.assert_array_equal(tf.math.rint(c([0.5, 1.5, 2.5, -0.5, -1.7])),
                                  [0.0, 2.0, 2.0, -0.0, -2.0])
    np.testing.assert_array_equal(tf.math.round(c([0.5, 1.5, 2.5, -0.5, -1.5])),
                                  [0., 2., 2., -0., -2.])
    special = c([np.nan, -np.inf, 1.])
    assert tf.math.is_nan(special).numpy().tolist() == [True, False, False]
    assert tf.math.is_inf(special).numpy().tolist() == [False, True, False]
    assert tf.math.is_finite(special).numpy().tolist() == [False, False, True]


def test_truncating_division_equal_tensorflow():
    c = tf.constant
    assert tf.truncatediv(c([-7, 7, 6]), c([2, -2, 3])).numpy().tolist() == [-3, -3, 2]
    assert tf.truncatemod(c([-7, 7, 6]), c([2, -2, 4])).numpy().tolist() == [-1, 1, 2]
    assert tf.truncatediv(c([-7., 7.5]), c([2., 2.])).numpy().tolist() == [-3., 3.]
    assert tf.truncatemod(c([-7., 7.5]), c([2., 2.])).numpy().tolist() == [-1., 1.5]
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        tf.truncatediv(c([1]), c([0]))


def test_bit_shifts_equal_tensorflow():
    x, s = tf.constant([1, -8]), tf.constant([3, 1])
    assert bitwise.left_shift(x, s).numpy().tolist() == [8, -16]
    assert bitwise.right_shift(x, s).numpy().tolist() == [0, -4]
    assert_same(bitwise.left_shift, np.array([1, 2, 3], np.uint8), np.array([1, 7, 2], np.uint8))
    with pytest.raises(InvalidArgumentError, match="LeftShift"):
        bitwise.left_shift(tf.constant([1.]), tf.constant([1.]))


def test_composed_functions_equal_tensorflow():
    c = tf.constant
    np.testing.assert_allclose(tf.math.log_sigmoid(c([-100., -1., 0., 2., 100.])),
                               [-100.0, -1.31326162815094, -0.6931471824645996,
                                -0.12692800164222717, -0.0], rtol=1e-6, atol=1e-30)
    assert tf.math.softplus is tf.nn.softplus and tf.math.top_k is tf.nn.top_k
    np.testing.assert_array_equal(tf.math.polyval([1., 2., 3.], c([3., 1.])), [18., 6.])
    np.testing.assert_array_equal(tf.math.polyval([], c([3., 1.])), [0., 0.])
    assert tf.math.polyval([3.], c([1., 2.])).shape == ()  # as TensorFlow: not broadcast
    with pytest.raises(InvalidArgumentError):
        tf.math.polyval([1., 2.], c(3))
    with pytest.raises(ValueError, match="coeffs must be list"):
        tf.math.polyval(c([1., 2.]), c(1.))


# -- dtype rules ---------------------------------------------------------------------------

@pytest.mark.parametrize("name", ["sin", "tan", "asin", "acosh", "log1p", "expm1", "erf",
                                  "erfinv", "lgamma", "digamma", "rint", "is_nan", "is_finite",
                                  "floor", "ceil", "rsqrt"])
def test_float_only_unary_ops_refuse_integers(name):
    with pytest.raises(InvalidArgumentError):
        getattr(tf.math, name)(tf.constant([2, 0, -3]))


@pytest.mark.parametrize("name", ["xlogy", "xdivy", "atan2", "multiply_no_nan", "nextafter",
                                  "igamma"])
def test_float_only_binary_ops_refuse_integers(name):
    with pytest.raises(InvalidArgumentError):
        getattr(tf.math, name)(tf.constant([2, 0]), tf.constant([1, 2]))


def test_integer_ops_keep_integers():
    assert tf.math.sign(tf.constant([2, 0, -3])).numpy().tolist() == [1, 0, -1]
    assert tf.math.round(tf.constant([3])).dtype == tf.int32


# -- reductions --------------------------------------------------------------------------------

M23 = np.array([[1., 2., 4.], [3., -1., 0.]], np.float32)


def test_statistics_reductions_equal_tensorflow():
    m = tf.constant(M23)
    np.testing.assert_allclose(tf.math.reduce_variance(m), 2.9166667461395264, rtol=1e-6)
    np.testing.assert_allclose(tf.math.reduce_variance(m, axis=0), [1.0, 2.25, 4.0])
    std = tf.math.reduce_std(m, axis=1, keepdims=True)
    assert std.shape == (2, 1)
    np.testing.assert_allclose(std, [[1.247219204902649], [1.6996731758117676]], rtol=1e-6)
    np.testing.assert_allclose(tf.reduce_logsumexp(m), 4.456193447113037, rtol=1e-6)
    np.testing.assert_allclose(tf.math.reduce_logsumexp(m, axis=1),
                               [4.169846057891846, 3.0658838748931885], rtol=1e-6)
    assert tf.math.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(m, axis=1),
                               [4.582575798034668, 3.1622776985168457], rtol=1e-6)
    norm = tf.math.reduce_euclidean_norm(tf.constant([[3, 4], [1, 1]]), axis=1)
    assert norm.dtype == tf.int32 and norm.numpy().tolist() == [5, 1]
    nz = tf.math.count_nonzero(tf.constant([[0, 1], [2, 0]]), axis=0)
    assert nz.dtype == tf.int64 and nz.numpy().tolist() == [1, 1]
    assert tf.math.count_nonzero(tf.constant(["", "a"])).numpy() == 1
    with pytest.raises(TypeError, match="Input must be either real or complex"):
        tf.math.reduce_variance(tf.constant([1, 2]))


def test_argmax_output_type():
    x = tf.constant([[1, 5], [7, 2]])
    am = tf.math.argmax(x)
    assert am.dtype == tf.int64 and am.numpy().tolist() == [1, 0]
    am = tf.math.argmin(x, axis=1, output_type=tf.int32)
    assert am.dtype == tf.int32 and am.numpy().tolist() == [0, 1]


def test_reductions_eager_equal_staged():
    x = RNG.normal(size=(3, 4)).astype(np.float32)
    assert_same(lambda t: (tf.math.reduce_variance(t, axis=1), tf.math.reduce_std(t),
                           tf.reduce_logsumexp(t, axis=0, keepdims=True),
                           tf.math.reduce_euclidean_norm(t, axis=[0, 1]),
                           tf.math.count_nonzero(t > 0, axis=1)), x)


# -- scans -----------------------------------------------------------------------------------

def test_scans_equal_tensorflow():
    v = np.array([[1, 2, 3], [4, 5, 6]], np.int32)
    got = assert_same(lambda t: (tf.cumsum(t, axis=1), tf.cumsum(t, axis=1, exclusive=True),
                                 tf.cumsum(t, axis=0, reverse=True),
                                 tf.cumsum(t, axis=1, exclusive=True, reverse=True),
                                 tf.math.cumprod(t, axis=1, exclusive=True, reverse=True)), v)
    assert [g.tolist() for g in got] == [
        [[1, 3, 6], [4, 9, 15]], [[0, 1, 3], [0, 4, 9]], [[5, 7, 9], [4, 5, 6]],
        [[5, 3, 0], [11, 6, 0]], [[6, 3, 1], [30, 6, 1]]]
    assert got[0].dtype == np.int32
    np.testing.assert_allclose(
        tf.math.cumulative_logsumexp(tf.constant([1., 2., 3.]), reverse=True),
        [3.4076061248779297, 3.3132617473602295, 3.0], rtol=1e-6)
    with pytest.raises(InvalidArgumentError, match="Expected scan axis in the range"):
        tf.cumsum(tf.constant(v), axis=2)
    with pytest.raises(InvalidArgumentError, match="Expected scan axis in the range"):
        tf.cumsum(tf.constant(3.))


# -- segment reductions ------------------------------------------------------------------------

DATA = np.array([[1., 2.], [3., 4.], [5., 6.], [-1., 0.]], np.float32)
LOWEST, HIGHEST = -3.4028234663852886e+38, 3.4028234663852886e+38


def test_sorted_segment_ops_equal_tensorflow():
    ids = np.array([0, 0, 2, 2], np.int32)
    got = assert_same(lambda d, i: (tf.math.segment_sum(d, i), tf.math.segment_mean(d, i),
                                    tf.math.segment_max(d, i), tf.math.segment_min(d, i),
                                    tf.math.segment_prod(d, i)), DATA, ids)
    assert [g.tolist() for g in got] == [
        [[4.0, 6.0], [0.0, 0.0], [4.0, 6.0]], [[2.0, 3.0], [0.0, 0.0], [2.0, 3.0]],
        [[3.0, 4.0], [0.0, 0.0], [5.0, 6.0]], [[1.0, 2.0], [0.0, 0.0], [-1.0, 0.0]],
        [[3.0, 8.0], [1.0, 1.0], [-5.0, 0.0]]]
    assert tf.math.segment_mean(tf.constant([1, 2, -3, -4]), ids).numpy().tolist() == [1, 0, -3]


def test_unsorted_segment_ops_equal_tensorflow():
    ids = np.array([2, -1, 2, 0], np.int32)
    got = assert_same(lambda d, i: (
        tf.math.unsorted_segment_sum(d, i, 4), tf.math.unsorted_segment_mean(d, i, 4),
        tf.math.unsorted_segment_max(d, i, 4), tf.math.unsorted_segment_min(d, i, 4),
        tf.math.unsorted_segment_prod(d, i, 4)), DATA, ids)
    assert [g.tolist() for g in got] == [
        [[-1.0, 0.0], [0.0, 0.0], [6.0, 8.0], [0.0, 0.0]],
        [[-1.0, 0.0], [0.0, 0.0], [3.0, 4.0], [0.0, 0.0]],
        [[-1.0, 0.0], [LOWEST, LOWEST], [5.0, 6.0], [LOWEST, LOWEST]],
        [[-1.0, 0.0], [HIGHEST, HIGHEST], [1.0, 2.0], [HIGHEST, HIGHEST]],
        [[-1.0, 0.0], [1.0, 1.0], [5.0, 12.0], [1.0, 1.0]]]
    assert tf.math.unsorted_segment_max(tf.constant([1, 2]), [0, 0], 2).numpy().tolist() == [
        2, -2147483648]


def test_segment_errors_as_tensorflow():
    d = tf.constant(DATA)
    with pytest.raises(InvalidArgumentError, match="not increasing"):
        tf.math.segment_sum(d, [1, 0, 0, 0])
    with pytest.raises(InvalidArgumentError, match="out of range"):
        tf.math.unsorted_segment_max(d, [0, 5, 0, 0], 3)
    with pytest.raises(InvalidArgumentError, match="same size as dimension 0"):
        tf.math.segment_sum(d, [0, 0, 0])


def test_segment_shapes_while_tracing():
    from tests.staging import trace
    graph, out, _ = trace(lambda d, i: (tf.math.segment_sum(d, i),
                                        tf.math.unsorted_segment_max(d, i, 5)),
                          DATA, np.array([0, 0, 1, 1], np.int32))
    assert out[0].shape.as_list() == [None, 2] and out[1].shape.as_list() == [5, 2]


# -- counting --------------------------------------------------------------------------------

def test_bincount_equal_tensorflow():
    assert tf.math.bincount([1, 1, 3]).numpy().tolist() == [0, 2, 0, 1]
    w = tf.math.bincount([1, 1, 3], weights=[.5, .5, 2.], minlength=6)
    assert w.dtype == tf.float32 and w.numpy().tolist() == [0., 1., 0., 2., 0., 0.]
    assert tf.math.bincount([1, 1, 3, 7], maxlength=3).numpy().tolist() == [0, 2, 0]
    assert tf.math.bincount(tf.constant([], tf.int32)).numpy().tolist() == []
    assert tf.math.bincount(tf.constant([1, 2], tf.int64)).numpy().tolist() == [0, 1, 1]
    f = tf.math.bincount([1, 2], dtype=tf.float32)
    assert f.dtype == tf.float32 and f.numpy().tolist() == [0., 1., 1.]
    with pytest.raises(InvalidArgumentError, match="non-negative"):
        tf.math.bincount([-1, 2])
    assert_same(lambda a: tf.math.bincount(a, minlength=4), np.array([0, 2, 2], np.int32))


def test_confusion_matrix_equal_tensorflow():
    cm = assert_same(tf.math.confusion_matrix, np.array([0, 1, 2, 1]), np.array([0, 2, 2, 1]))
    assert cm.dtype == np.int32 and cm.tolist() == [[1, 0, 0], [0, 1, 1], [0, 0, 1]]
    w = tf.math.confusion_matrix([0, 1], [1, 1], num_classes=3, weights=[2., 3.],
                                 dtype=tf.float32)
    assert w.numpy().tolist() == [[0.0, 2.0, 0.0], [0.0, 3.0, 0.0], [0.0, 0.0, 0.0]]
    with pytest.raises(InvalidArgumentError, match="`labels` out of bound"):
        tf.math.confusion_matrix([0, 3], [0, 1], num_classes=3)


# -- eager == staged on random inputs -----------------------------------------------------------

UNIT = RNG.uniform(-0.9, 0.9, (3, 4))
POSITIVE = RNG.uniform(0.2, 4.0, (3, 4))


@pytest.mark.parametrize("name", ["tan", "asin", "acos", "atan", "sinh", "cosh", "asinh",
                                  "atanh", "log1p", "expm1", "erf", "erfc", "erfinv",
                                  "reciprocal", "rint", "log_sigmoid", "is_nan"])
@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_unary_eager_equals_staged(name, dtype):
    assert_same(getattr(tf.math, name), UNIT.astype(dtype))


@pytest.mark.parametrize("name", ["lgamma", "digamma", "acosh"])
def test_positive_domain_eager_equals_staged(name):
    assert_same(getattr(tf.math, name), (POSITIVE + 1).astype(np.float32))


@pytest.mark.parametrize("name", ["atan2", "xlogy", "xlog1py", "xdivy", "divide_no_nan",
                                  "multiply_no_nan", "nextafter", "igamma", "igammac"])
def test_binary_eager_equals_staged_with_broadcasting(name):
    assert_same(getattr(tf.math, name), POSITIVE.astype(np.float32),
                POSITIVE[:1].astype(np.float32))


# -- gradients -------------------------------------------------------------------------------------

def _numeric(fn, x, eps=1e-6):
    grads = np.zeros_like(x)
    for idx in np.ndindex(x.shape):
        plus, minus = x.copy(), x.copy()
        plus[idx] += eps
        minus[idx] -= eps
        grads[idx] = (np.sum(fn(tf.constant(plus)).numpy())
                      - np.sum(fn(tf.constant(minus)).numpy())) / (2 * eps)
    return grads


def _tape_grad(fn, x):
    t = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(t)
        y = tf.reduce_sum(fn(t))
    return tape.gradient(y, t).numpy()


WEIGHTS = RNG.uniform(-1, 1, (3, 4))

GRAD_CASES = {
    "tan": (tf.math.tan, UNIT), "asin": (tf.math.asin, UNIT), "acos": (tf.math.acos, UNIT),
    "atan": (tf.math.atan, UNIT), "sinh": (tf.math.sinh, UNIT), "cosh": (tf.math.cosh, UNIT),
    "asinh": (tf.math.asinh, UNIT), "acosh": (tf.math.acosh, POSITIVE + 1.1),
    "atanh": (tf.math.atanh, UNIT), "log1p": (tf.math.log1p, UNIT),
    "expm1": (tf.math.expm1, UNIT), "erf": (tf.math.erf, UNIT), "erfc": (tf.math.erfc, UNIT),
    "erfinv": (tf.math.erfinv, UNIT), "lgamma": (tf.math.lgamma, UNIT + 2),
    "digamma": (tf.math.digamma, np.concatenate([POSITIVE, UNIT - 1.5])),
    "reciprocal": (tf.math.reciprocal, POSITIVE), "log_sigmoid": (tf.math.log_sigmoid, UNIT),
    "reduce_std": (lambda t: tf.math.reduce_std(t, axis=0), UNIT),
    "reduce_logsumexp": (lambda t: tf.reduce_logsumexp(t, axis=1), UNIT),
    "reduce_euclidean_norm": (tf.math.reduce_euclidean_norm, UNIT),
    "polyval": (lambda t: tf.math.polyval([tf.constant(c, tf.float64) for c in (2., -1., 3.)],
                                          t), UNIT),
    "cumsum": (lambda t: tf.cumsum(t, axis=1, exclusive=True) * WEIGHTS, UNIT),
    "cumprod": (lambda t: tf.math.cumprod(t, axis=1, reverse=True) * WEIGHTS, POSITIVE),
    "cumulative_logsumexp": (lambda t: tf.math.cumulative_logsumexp(t, axis=0) * WEIGHTS, UNIT),
    "atan2": (lambda t: tf.math.atan2(t, t[:1] + 2.0), UNIT),
    "xlogy": (lambda t: tf.math.xlogy(t, t[::-1] + 2.0), UNIT),
    "xlog1py": (lambda t: tf.math.xlog1py(t, t[::-1] + 2.0), UNIT),
    "xdivy": (lambda t: tf.math.xdivy(t, t[::-1] + 2.0), UNIT),
    "divide_no_nan": (lambda t: tf.math.divide_no_nan(t, t[::-1] + 2.0), UNIT),
    "multiply_no_nan": (lambda t: tf.math.multiply_no_nan(t, t[::-1] * 3.0), UNIT),
    "truncatemod": (lambda t: tf.truncatemod(t, 0.3), UNIT),
    "igamma_x": (lambda t: tf.math.igamma(tf.constant(POSITIVE), t), POSITIVE),
    "igammac_x": (lambda t: tf.math.igammac(tf.constant(POSITIVE), t), POSITIVE),
    "segment_sum": (lambda t: tf.math.segment_sum(t, [0, 0, 2]) * WEIGHTS, UNIT),
    "segment_mean": (lambda t: tf.math.segment_mean(t, [0, 0, 2]) * WEIGHTS, UNIT),
    "segment_max": (lambda t: tf.math.segment_max(t, [0, 1, 1]) * WEIGHTS[:2], UNIT),
    "segment_prod": (lambda t: tf.math.segment_prod(t, [0, 1, 1]) * WEIGHTS[:2], UNIT),
    "unsorted_segment_min": (
        lambda t: tf.math.unsorted_segment_min(t, [1, -1, 0], 2) * WEIGHTS[:2], UNIT),
    "unsorted_segment_prod": (
        lambda t: tf.math.unsorted_segment_prod(t, [1, 0, 1], 2) * WEIGHTS[:2], UNIT),
    "unsorted_segment_mean": (
        lambda t: tf.math.unsorted_segment_mean(t, [1, 0, 1], 3) * WEIGHTS, UNIT),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradients_match_central_differences(name):
    fn, x = GRAD_CASES[name]
    np.testing.assert_allclose(_tape_grad(fn, x), _numeric(fn, x), rtol=1e-5, atol=1e-7)


def test_gradients_equal_tensorflow_at_singular_points():
    def grad(fn, x):
        return _tape_grad(fn, np.array(x))
    np.testing.assert_allclose(grad(tf.math.digamma, [0.3, 2.5, -1.5]),
                               [12.245364546107734, 0.4903577561002349, 9.379246644989124],
                               rtol=1e-10)
    w = tf.constant([1., 2., 3.], tf.float64)
    np.testing.assert_allclose(grad(lambda t: tf.math.cumprod(t, exclusive=True) * w,
                                    [2., 3., 4.]), [11.0, 6.0, 0.0])
    w = tf.constant([1., -2., 3.], tf.float64)
    np.testing.assert_allclose(grad(lambda t: tf.math.cumulative_logsumexp(t) * w,
                                    [0.5, 1., -1.]),
                               [1.2895409460549139, 0.4773723164993744, 0.23308673744571176],
                               rtol=1e-10)
    w = tf.constant([2., 3.], tf.float64)
    np.testing.assert_allclose(grad(lambda t: tf.math.unsorted_segment_prod(
        t, [0, 0, 1, 1, -1], 2) * w, [2., 3., 0., 5., 7.]), [6.0, 4.0, 15.0, 0.0, 0.0])
    np.testing.assert_allclose(grad(lambda t: tf.math.segment_max(t, [0, 0, 1]) * w,
                                    [4., 4., 1.]), [1.0, 1.0, 3.0])
    np.testing.assert_allclose(grad(lambda t: tf.math.xlogy(t, t + 1.), [0., 2.]),
                               [0.0, 1.7652789553347765])


def test_gradients_inside_a_function():
    import autograph

    @autograph.function
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.math.erf(x) * tf.cumsum(x) + tf.math.lgamma(x + 2.0))
        return tape.gradient(y, x)
    x = POSITIVE[0]
    np.testing.assert_allclose(f(tf.constant(x)).numpy(), _tape_grad(
        lambda t: tf.math.erf(t) * tf.cumsum(t) + tf.math.lgamma(t + 2.0), x), rtol=1e-12)
