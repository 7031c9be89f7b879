"""tf.nn / tf.math additions: values recorded from TensorFlow 2.21 as literals; eager ==
staged; gradients checked numerically."""
import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_gradients import check_gradients
from tests.staging import assert_same

_LOGITS = np.log(np.array([[[.6, .3, .1], [.2, .7, .1]], [[.6, .3, .1], [.1, .1, .8]],
                           [[.1, .2, .7], [.1, .1, .8]], [[.5, .4, .1], [.3, .6, .1]]],
                          np.float32))
_IMAGE = np.array([[1, 5, 3, 2], [4, 2, 8, 1], [0, 9, 7, 6], [3, 3, 2, 2]],
                  np.float32).reshape(1, 4, 4, 1)
_IMAGE2 = np.concatenate([_IMAGE, _IMAGE * 2], -1)


def test_approx_top_k_is_exact_top_k():
    x = tf.constant([[3., 1., 4., 1., 5.], [9., 2., 6., 5., 3.]])
    values, indices = tf.math.approx_max_k(x, 2)
    assert values.numpy().tolist() == [[5., 4.], [9., 6.]]
    assert indices.dtype == tf.int32 and indices.numpy().tolist() == [[4, 2], [0, 2]]
    values, indices = tf.nn.approx_min_k(x, 2)
    assert values.numpy().tolist() == [[1., 1.], [2., 3.]]
    assert indices.numpy().tolist() == [[1, 3], [1, 4]]
    values, indices = tf.math.approx_max_k(x, 1, reduction_dimension=0)
    assert values.numpy().tolist() == [[9., 2., 6., 5., 5.]]
    assert indices.numpy().tolist() == [[1, 1, 1, 1, 0]]


def test_ctc_collapse_and_greedy_decoder():
    labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3, 0], [4, 4, 4, 5, 5, 5]], [5, 6])
    assert labels.numpy().tolist() == [[1, 2, 3], [4, 5, 0]]
    assert lengths.numpy().tolist() == [3, 2]
    (decoded,), log_prob = tf.nn.ctc_greedy_decoder(_LOGITS, [4, 3])
    assert decoded.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert decoded.values.numpy().tolist() == [0, 0, 1]
    assert decoded.dense_shape.numpy().tolist() == [2, 2]
    np.testing.assert_allclose(log_prob.numpy(), [[2.0714731], [0.802962]], rtol=1e-6)
    (decoded,), _ = tf.nn.ctc_greedy_decoder(_LOGITS, [4, 3], merge_repeated=False,
                                             blank_index=0)
    assert decoded.indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1], [1, 2]]
    assert decoded.values.numpy().tolist() == [2, 1, 2, 2]
    assert decoded.dense_shape.numpy().tolist() == [2, 3]

    def f(x):
        (d,), p = tf.nn.ctc_greedy_decoder(x, [4, 3])
        return d.indices, d.values, d.dense_shape, p
    assert_same(f, _LOGITS)


def test_lrn_and_global_batch_norm():
    r = np.arange(2 * 2 * 2 * 6, dtype=np.float32).reshape(2, 2, 2, 6) / 10
    out = tf.nn.lrn(r, depth_radius=2, bias=1.0, alpha=0.5, beta=0.75)
    np.testing.assert_allclose(out.numpy().ravel()[:8], [0., 0.09505221, 0.18009706, 0.250028,
                                                         0.33435455, 0.4229485, 0.39518887,
                                                         0.39424768], rtol=1e-6)
    x = tf.constant(r)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.local_response_normalization(x, 2, 1.0, 0.5, 0.75)
                          * tf.range(6, dtype=tf.float32))
    np.testing.assert_allclose(tape.gradient(y, x).numpy().ravel()[:8],
                               [0., 0.8762459, 1.4944557, 1.6598539, 2.249627, 2.9795425,
                                -0.21333036, 0.11581029], rtol=1e-5, atol=1e-6)
    check_gradients(lambda v: tf.nn.lrn(v, 1, 0.5, 0.3, 0.6), np.random.default_rng(1)
                    .uniform(0.1, 1, (1, 1, 2, 4)))
    m, v, b, g = (tf.constant([c] * 6) for c in (.1, 2., .5, 3.))
    bn = tf.nn.batch_norm_with_global_normalization
    np.testing.assert_allclose(bn(r, m, v, b, g, 1e-3, True).numpy().ravel()[:4],
                               [0.28792095, 0.5, 0.71207905, 0.92415804], rtol=1e-6)
    np.testing.assert_allclose(bn(r, m, v, b, g, 1e-3, False).numpy().ravel()[:4],
                               [0.42930698, 0.5, 0.570693, 0.64138603], rtol=1e-6)
    with pytest.raises(ValueError, match="4-dimensional"):
        tf.nn.lrn(r[0])


def test_max_pool_with_argmax():
    out, argmax = tf.nn.max_pool_with_argmax(_IMAGE2, 2, 2, "VALID")
    assert out.numpy().ravel().tolist() == [5., 10., 8., 16., 9., 18., 7., 14.]
    assert argmax.dtype == tf.int64 and argmax.numpy().ravel().tolist() == \
        [2, 3, 12, 13, 18, 19, 20, 21]
    _, argmax = tf.nn.max_pool_with_argmax(np.concatenate([_IMAGE2, _IMAGE2 + 1]), [1, 3, 3, 1],
                                           1, "SAME", include_batch_in_index=True)
    assert argmax.numpy().ravel().tolist() == [
        2, 3, 12, 13, 12, 13, 12, 13, 18, 19, 18, 19, 18, 19, 12, 13, 18, 19, 18, 19, 18, 19,
        12, 13, 18, 19, 18, 19, 18, 19, 20, 21, 34, 35, 44, 45, 44, 45, 44, 45, 50, 51, 50, 51,
        50, 51, 44, 45, 50, 51, 50, 51, 50, 51, 44, 45, 50, 51, 50, 51, 50, 51, 52, 53]
    assert tf.nn.max_pool_with_argmax(_IMAGE2, 2, 2, "VALID", output_dtype=tf.int32)[1].dtype \
        == tf.int32
    im = tf.constant(_IMAGE)
    with tf.GradientTape() as tape:
        tape.watch(im)
        y = tf.reduce_sum(tf.nn.max_pool_with_argmax(im, 3, 1, "SAME").output
                          * tf.reshape(tf.range(16.), [1, 4, 4, 1]))
    assert tape.gradient(y, im).numpy().ravel().tolist() == \
        [0., 0., 0., 0., 0., 0., 24., 0., 0., 81., 15., 0., 0., 0., 0., 0.]
    assert_same(lambda x: tf.nn.max_pool_with_argmax(x, 3, 2, "SAME"), _IMAGE2)


def test_embedding_lookup_sparse():
    params = tf.constant([[1., 2.], [3., 4.], [5., 6.], [7., 8.]])
    ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0]], tf.constant([0, 2, 1, 3], tf.int64),
                          [4, 2])
    w = tf.SparseTensor([[0, 0], [0, 1], [1, 0], [3, 0]], [1., 3., 2., .5], [4, 2])
    expected = {"mean": ([[3., 4.], [3., 4.], [0., 0.], [7., 8.]],
                         [[4., 5.], [3., 4.], [0., 0.], [7., 8.]]),
                "sum": ([[6., 8.], [3., 4.], [0., 0.], [7., 8.]],
                        [[16., 20.], [6., 8.], [0., 0.], [3.5, 4.]]),
                "sqrtn": ([[4.242640495300293, 5.656854152679443], [3., 4.], [0., 0.], [7., 8.]],
                          [[5.0596442222595215, 6.324555397033691], [3., 4.], [0., 0.],
                           [7., 8.]])}
    for combiner, (plain, weighted) in expected.items():
        assert tf.nn.embedding_lookup_sparse(params, ids, None, combiner=combiner) \
            .numpy().tolist() == plain
        assert tf.nn.embedding_lookup_sparse(params, ids, w, combiner=combiner) \
            .numpy().tolist() == weighted
    p2 = tf.constant([[1.], [1.], [0.1], [0.7]])
    ids2 = tf.SparseTensor([[0, 0], [0, 1], [0, 2], [1, 0], [1, 1], [1, 2]],
                           tf.constant([0, 1, 2, 1, 2, 3], tf.int64), [2, 3])
    assert tf.nn.embedding_lookup_sparse(p2, ids2, None).numpy().ravel().tolist() == \
        [0.699999988079071, 0.6000000238418579]
    safe = tf.nn.safe_embedding_lookup_sparse
    assert safe(params, ids, w).numpy().tolist() == [[4., 5.], [3., 4.], [0., 0.], [7., 8.]]
    assert safe(params, ids, None, default_id=1).numpy().tolist() == \
        [[3., 4.], [3., 4.], [3., 4.], [7., 8.]]
    neg = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, -1, 1], tf.int64), [2, 2])
    assert safe(params, neg, None, combiner="sum").numpy().tolist() == [[1., 2.], [3., 4.]]
    v = tf.Variable(params)
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup_sparse(v, ids, w, combiner="sqrtn"))
    np.testing.assert_allclose(tf.convert_to_tensor(tape.gradient(y, v)).numpy(),
                               [[1 / np.sqrt(10)] * 2, [1.] * 2, [3 / np.sqrt(10)] * 2, [1.] * 2],
                               rtol=1e-6)


def test_isotonic_regression():
    out, seg = tf.nn.isotonic_regression([[1., 3., 2., 4.], [5., 1., 2., 0.]])
    assert out.numpy().tolist() == [[2.5, 2.5, 2.5, 2.5], [5., 1.5, 1.5, 0.]]
    assert seg.dtype == tf.int32 and seg.numpy().tolist() == [[0, 0, 0, 0], [0, 1, 1, 2]]
    out, seg = tf.nn.isotonic_regression([[1., 3., 2., 4.]], decreasing=False)
    assert out.numpy().tolist() == [[1., 2.5, 2.5, 4.]] and seg.numpy().tolist() == [[0, 1, 1, 2]]
    out, _ = tf.nn.isotonic_regression([[1, 3, 2, 4]])
    assert out.dtype == tf.float64
    assert tf.nn.isotonic_regression([[2., 2., 1.]]).segments.numpy().tolist() == [[0, 1, 2]]
    x = tf.constant([[1., 3., 2., 4.], [5., 1., 2., 0.]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.isotonic_regression(x).output * tf.constant([1., 2., 3., 4.]))
    assert tape.gradient(y, x).numpy().tolist() == [[2.5] * 4, [1., 2.5, 2.5, 4.]]
    assert_same(lambda v: tf.nn.isotonic_regression(v, axis=0), np.array([[1., 3.], [2., 0.]]))


_F = np.array([[[0., 1.], [2., 0.]], [[1., 0.], [0., 3.]]], np.float32)


def test_dilation_and_erosion():
    out = tf.nn.dilation2d(_IMAGE2, _F, [1, 1, 1, 1], "SAME", "NHWC", [1, 2, 2, 1])
    assert out.numpy().ravel().tolist() == [
        2., 7., 8., 19., 3., 5., 9., 16., 9., 21., 7., 17., 10., 18., 8., 14., 4., 9., 10., 16.,
        4., 7., 8., 17., 11., 18., 9., 14., 9., 19., 7., 15.]
    out = tf.nn.erosion2d(_IMAGE2, _F, [1, 2, 2, 1], "SAME", "NHWC", [1, 1, 1, 1])
    assert out.numpy().ravel().tolist() == [1., -1., 1., 1., 0., -3., 0., 3.]
    x, f = tf.constant(_IMAGE2), tf.constant(_F)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([x, f])
        y = tf.reduce_sum(tf.nn.dilation2d(x, f, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
                          * tf.reshape(tf.range(32.), [1, 4, 4, 2]))
        z = tf.reduce_sum(tf.nn.erosion2d(x, f, [1, 2, 2, 1], "VALID", "NHWC", [1, 1, 1, 1])
                          * tf.reshape(tf.range(8.), [1, 2, 2, 2]))
    assert tape.gradient(y, x).numpy().ravel().tolist() == [
        0., 0., 0., 1., 0., 0., 6., 7., 0., 0., 0., 0., 28., 21., 0., 0., 0., 0., 42., 56., 0.,
        21., 56., 38., 0., 25., 24., 27., 26., 29., 58., 31.]
    assert tape.gradient(y, f).numpy().ravel().tolist() == [88., 195., 124., 18., 18., 31., 10.,
                                                            12.]
    assert tape.gradient(z, x).numpy().ravel().tolist() == [
        0., 1., 0., 0., 0., 0., 2., 0., 0., 0., 0., 0., 0., 0., 0., 3., 4., 5., 0., 0., 0., 0.,
        0., 0., 0., 0., 0., 0., 6., 0., 0., 7.]
    assert tape.gradient(z, f).numpy().ravel().tolist() == [0., -10., -6., 0., -2., 0., -4., -6.]
    with pytest.raises(ValueError, match="other  than 'NHWC' are not supported"):
        tf.nn.dilation2d(_IMAGE2, _F, [1, 1, 1, 1], "SAME", "NCHW", [1, 1, 1, 1])
    assert_same(lambda v: tf.nn.dilation2d(v, _F, [1, 2, 1, 1], "SAME", "NHWC", [1, 1, 2, 1]),
                _IMAGE2)


_CTC_LOGITS = np.random.default_rng(0).normal(size=(5, 2, 4)).astype(np.float32)
_CTC_LABELS = np.array([[1, 2, 2], [3, 1, 0]], np.int32)
_CTC_GRAD = [0.03887327015399933, -0.6382789611816406, 0.37808725237846375, 0.22131843864917755,
             -0.016475126147270203, 0.17331945896148682, 0.4447630047798157, -0.6016073226928711,
             -0.04348061978816986, -0.21189826726913452, -0.18712176382541656, 0.4425007104873657,
             -0.006757970899343491, 0.0014718174934387207, 0.17228686809539795,
             -0.16700074076652527, -0.03738105297088623, 0.1288905292749405, -0.5930964946746826,
             0.5015869736671448, 0.04007663577795029, -0.24569576978683472, 0.07632959634065628,
             0.12928956747055054, -0.40975725650787354, 0.2474260777235031, 0.0727294534444809,
             0.08960168063640594, -0.10530248284339905, -0.2795567810535431, 0.11927972733974457,
             0.2655794620513916, 0.1488579511642456, 0.32798370718955994, -0.7493013739585876,
             0.2724597752094269, 0., 0., 0., 0.]


def test_ctc_loss_dense_sparse_and_gradient():
    x = tf.constant(_CTC_LOGITS)
    lengths, steps = [3, 2], [5, 4]
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.ctc_loss(_CTC_LABELS, x, lengths, steps)
    np.testing.assert_allclose(loss.numpy(), [5.282315254211426, 2.1182150840759277], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy().ravel(), _CTC_GRAD, atol=1e-6)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.ctc_loss(np.array([[1, 2, 2], [0, 1, 0]], np.int32), x, lengths, steps,
                              blank_index=3)
    np.testing.assert_allclose(loss.numpy(), [6.015385627746582, 3.1789824962615967], rtol=1e-6)
    np.testing.assert_allclose(tape.gradient(loss, x).numpy().ravel()[:8], [
        0.2259768545627594, -0.7639027833938599, 0.37808725237846375, 0.1598387211561203,
        -0.5819528102874756, 0.17331945896148682, 0.4447630047798157, -0.036129772663116455],
        atol=1e-6)
    sparse = tf.sparse.from_dense(tf.constant(_CTC_LABELS))
    np.testing.assert_allclose(tf.nn.ctc_loss(sparse, x, None, steps, blank_index=0).numpy(),
                               [5.282315731048584, 2.1182148456573486], rtol=1e-6)
    np.testing.assert_allclose(
        tf.nn.ctc_loss(_CTC_LABELS, tf.transpose(x, [1, 0, 2]), lengths, steps,
                       logits_time_major=False).numpy(), [5.282315254211426, 2.1182150840759277],
        rtol=1e-6)
    with pytest.raises(ValueError, match="`blank_index` must be provided"):
        tf.nn.ctc_loss(sparse, x, None, steps)
    check_gradients(lambda v: tf.nn.ctc_loss(_CTC_LABELS, v, lengths, steps),
                    _CTC_LOGITS.astype(np.float64), rtol=1e-5, atol=1e-6)
    assert_same(lambda v: tf.nn.ctc_loss(_CTC_LABELS, v, lengths, steps), _CTC_LOGITS)


_BEAM_LOGITS = (np.random.default_rng(3).normal(size=(6, 2, 4)) * 2).astype(np.float32)


@pytest.mark.parametrize("width,top,paths,log_probs", [
    (100, 3, [([0, 1, 2, 1], [0, 1]), ([0, 1, 2, 0, 1], [1]), ([0, 1, 2, 0], [1, 0, 1])],
     [[-1.351033329963684, -1.6965807676315308, -1.9089844226837158],
      [-1.2226403951644897, -1.6146585941314697, -2.0177228450775146]]),
    (2, 2, [([0, 1, 2, 0, 1], [1, 0, 1]), ([0, 1, 2, 1], [1])],
     [[-1.8951126337051392, -2.0495002269744873], [-2.144911289215088, -2.239306926727295]]),
    (1, 1, [([0, 1, 2, 0, 1], [1, 1])], [[-1.8951126337051392], [-2.363938331604004]])])
def test_ctc_beam_search_decoder(width, top, paths, log_probs):
    x = np.asarray(_BEAM_LOGITS, np.float32)
    decoded, lp = tf.nn.ctc_beam_search_decoder(x, [6, 4], beam_width=width, top_paths=top)
    for sp, rows in zip(decoded, paths):
        dense = tf.sparse.to_dense(sp).numpy().tolist()
        assert [row[:len(r)] for row, r in zip(dense, rows)] == [list(r) for r in rows]
        assert sp.dense_shape.numpy().tolist() == [2, max(len(r) for r in rows)]
    np.testing.assert_allclose(lp.numpy(), log_probs, rtol=1e-5)

    def f(v):
        d, p = tf.nn.ctc_beam_search_decoder(v, [6, 4], beam_width=width, top_paths=top)
        return [s.values for s in d], p
    assert_same(f, x, rtol=1e-6)


def test_sobol_sample_matches_tensorflow():
    got = tf.math.sobol_sample(16, 9).numpy()
    assert got.dtype == np.float32
    expected = [  # TensorFlow's first 9 points of 16 dimensions, times 16
        [8] * 16,
        [12, 4, 4, 4, 12, 12, 4, 12, 12, 12, 12, 12, 4, 4, 12, 4],
        [4, 12, 12, 12, 4, 4, 12, 4, 4, 4, 4, 4, 12, 12, 4, 12],
        [6, 6, 10, 14, 6, 2, 6, 14, 14, 10, 14, 6, 6, 10, 6, 14],
        [14, 14, 2, 6, 14, 10, 14, 6, 6, 2, 6, 14, 14, 2, 14, 6],
        [10, 2, 14, 10, 10, 14, 2, 2, 2, 6, 2, 10, 2, 14, 10, 10],
        [2, 10, 6, 2, 2, 6, 10, 10, 10, 14, 10, 2, 10, 6, 2, 2],
        [3, 5, 15, 7, 9, 5, 7, 15, 15, 5, 11, 1, 15, 15, 13, 15],
        [11, 13, 7, 15, 1, 13, 15, 7, 7, 13, 3, 9, 7, 7, 5, 7]]
    assert (got * 16).tolist() == expected
    late = (tf.math.sobol_sample(16, 64, dtype=tf.float64).numpy() * 2 ** 10).astype(int)[-3:]
    assert late.tolist() == [
        [528, 304, 880, 976, 368, 656, 80, 656, 336, 80, 944, 176, 48, 272, 848, 272],
        [16, 816, 368, 464, 880, 144, 592, 144, 848, 592, 432, 688, 560, 784, 336, 784],
        [24, 408, 840, 856, 664, 456, 680, 216, 760, 120, 968, 232, 440, 536, 824, 520]]
    assert (tf.math.sobol_sample(3, 3, skip=5).numpy() * 16).tolist() == \
        [[10, 2, 14], [2, 10, 6], [3, 5, 15]]
    assert_same(lambda n: tf.math.sobol_sample(40, n, skip=3), np.int32(7))


def test_candidate_samplers_draw_tensorflows_values():
    from runtime.ops.nn_extra import log_uniform_candidate_sampler, uniform_candidate_sampler
    tf.random.set_seed(None)  # op seeds alone: TensorFlow's default global seed pairs them
    tc = tf.constant([[1, 5], [3, 0]], tf.int64)
    s, t, e = log_uniform_candidate_sampler(tc, 2, 6, True, 20, seed=7)
    assert s.numpy().tolist() == [13, 0, 3, 11, 5, 1]
    np.testing.assert_allclose(t.numpy(), [[0.6812595725059509, 0.3401029109954834],
                                           [0.456076443195343, 0.8734034299850464]], rtol=1e-6)
    np.testing.assert_allclose(e.numpy(), [0.16754508018493652, 0.8734034299850464,
                                           0.456076443195343, 0.1919570416212082,
                                           0.3401029109954834, 0.6812595725059509], rtol=1e-6)
    s, t, e = log_uniform_candidate_sampler(tc, 2, 6, False, 20, seed=7)
    assert s.numpy().tolist() == [13, 0, 3, 11, 0, 3]
    np.testing.assert_allclose(t.numpy(), [[0.7990713715553284, 0.3037928342819214],
                                           [0.439760684967041, 1.3660215139389038]], rtol=1e-6)
    s, t, e = uniform_candidate_sampler(tc, 2, 6, True, 20, seed=7)
    assert s.numpy().tolist() == [19, 9, 8, 14, 16, 12]
    assert e.dtype == tf.float32 and np.allclose(e.numpy(), 0.3)

    @tf.function
    def f(classes):
        return log_uniform_candidate_sampler(classes, 2, 6, True, 20, seed=7)[0]
    assert f(tc).numpy().tolist() == [13, 0, 3, 11, 5, 1]
    assert f(tc).numpy().tolist() != [13, 0, 3, 11, 5, 1]  # the op's stream moves on
    tf.random.set_seed(3)
    try:
        assert log_uniform_candidate_sampler(tc, 2, 6, True, 20)[0].numpy().tolist() == \
            [0, 18, 11, 3, 6, 1]
        assert log_uniform_candidate_sampler(tc, 2, 6, True, 20)[0].numpy().tolist() == \
            [4, 19, 0, 2, 13, 6]
    finally:
        tf.random.set_seed(None)


def test_sampled_softmax_and_nce_losses():
    from runtime.ops.nn_extra import log_uniform_candidate_sampler
    tf.random.set_seed(None)
    rng = np.random.default_rng(5)
    w = rng.normal(size=(20, 3)).astype(np.float32)
    b = rng.normal(size=(20,)).astype(np.float32)
    x = rng.normal(size=(2, 3)).astype(np.float32)
    labels = np.array([[1], [13]], np.int64)
    wv, bv = tf.Variable(w), tf.Variable(b)
    with tf.GradientTape() as tape:
        loss = tf.nn.sampled_softmax_loss(wv, bv, labels, x, 6, 20, seed=7)
    np.testing.assert_allclose(loss.numpy(), [4.505924224853516, 3.1491055488586426], rtol=1e-6)
    gw, gb = (tf.convert_to_tensor(g).numpy() for g in tape.gradient(loss, [wv, bv]))
    np.testing.assert_allclose(gw.ravel()[:6], [-0.8457261323928833, -1.0059356689453125,
                                                0.4347860515117645, 0.9515347480773926,
                                                1.1128900051116943, -0.4113709330558777],
                               rtol=1e-5)
    np.testing.assert_allclose(gb[[0, 1, 3, 5, 11, 13]], [
        0.8334559202194214, -0.980634868144989, 0.004916397389024496, 0.22259192168712616,
        0.8320333361625671, -0.9123626351356506], rtol=1e-5)
    sampled = log_uniform_candidate_sampler(labels, 1, 6, True, 20, seed=7)
    np.testing.assert_allclose(tf.nn.nce_loss(w, b, labels, x, 6, 20, sampled_values=sampled)
                               .numpy(), [12.493644714355469, 11.89123821258545], rtol=1e-6)
    np.testing.assert_allclose(tf.nn.nce_loss(w, b, labels, x, 6, 20, sampled_values=sampled,
                                              remove_accidental_hits=True).numpy(),
                               [12.070966720581055, 11.89123821258545], rtol=1e-6)
    two = np.array([[1, 0], [13, 3]], np.int64)
    sampled = log_uniform_candidate_sampler(two, 2, 6, True, 20, seed=7)
    np.testing.assert_allclose(tf.nn.sampled_softmax_loss(w, b, two, x, 6, 20, num_true=2,
                                                          sampled_values=sampled).numpy(),
                               [2.7123711109161377, 4.727404594421387], rtol=1e-6)


def test_ctc_loss_of_a_row_without_labels_is_tensorflows_error():
    # TensorFlow 2.21: InvalidArgumentError "Labels length is zero in batch 1" (before: a
    # numpy shape error).
    logits = tf.constant(np.zeros((4, 2, 3), np.float32))
    labels = tf.SparseTensor(indices=[[0, 0]], values=[1], dense_shape=[2, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Labels length is zero in batch 1"):
        tf.nn.ctc_loss(labels, logits, None, tf.constant([4, 4]), logits_time_major=True,
                       blank_index=-1)
