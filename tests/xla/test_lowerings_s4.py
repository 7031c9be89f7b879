"""Lowerings of the special functions, FFTs, Lu/sqrtm, image and CTC ops against the numpy
kernels (jit_compile=True vs the numpy backend; one compile per bundle), their gradients
compiled, and the reasons given for the ops XLA cannot compile."""
import re

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime.ops.core import apply_op, convert_to_tensor

pytest.importorskip("jax")


def compare(fn, args, rtol, atol):
    """``fn`` compiled equals ``fn`` on the numpy backend: dtypes, shapes and values
    (nan where nan)."""
    tensors = [tf.constant(a) for a in args]
    got = tf.nest.flatten(tf.function(fn, jit_compile=True, autograph=False)(*tensors))
    want = tf.nest.flatten(tf.function(fn, autograph=False)(*tensors))
    assert len(got) == len(want)
    for k, (g, w) in enumerate(zip(got, want)):
        g, w = g.numpy(), w.numpy()
        assert g.dtype == w.dtype and g.shape == w.shape, (k, g, w)
        np.testing.assert_allclose(g, w, rtol=rtol, atol=atol, err_msg=f"output {k}")
    return got


def raw(op, *inputs, **attrs):
    return apply_op(op, [convert_to_tensor(i) for i in inputs], attrs)


# -- special functions ----------------------------------------------------------------------------

X = np.array([-3.0, -0.5, 0.0, 0.3, 1.5, 2.0, 10.0, 40.0, np.inf, np.nan], np.float32)


def special(x):
    m = tf.math
    p = tf.abs(x) / 45.0
    orders = tf.constant([0.0, 1.0, 2.0, 1.5, -1.0, 3.0, 1.0, 4.0, 1.0, 1.0])
    powers = tf.constant([1.0, 2.0, 3.0, 0.5, 2.0, 3.0, 2.5, 4.0, 2.0, 1.0])
    unit = tf.constant([0.0, 0.1, 0.5, 1.0, 1.2, -0.1, 0.9, 0.99, 0.3, 0.2])
    return (m.bessel_i0(x), m.bessel_i0e(x), m.bessel_i1(x), m.bessel_i1e(x), m.ndtri(p),
            m.ndtri(tf.constant([0.0, 1.0, -0.1, 0.5, 1e-30])), m.polygamma(orders, x),
            m.zeta(powers, x), m.betainc(tf.constant(2.0), tf.constant(3.0), p),
            m.betainc(tf.abs(x[:8]) + 0.1, tf.constant([0.5] * 8), unit[:8]),
            m.invert_permutation(tf.constant([2, 0, 3, 1])),
            m.invert_permutation(tf.constant([1, 0], tf.int64)))


def test_special_functions_equal_the_numpy_kernels():
    # float32 in JAX against the kernels' float64 series: a few float32 ulps
    compare(special, (X,), rtol=2e-5, atol=1e-6)


def special64(x):
    m = tf.math
    return (m.bessel_i0(x), m.bessel_i1e(x), m.polygamma(tf.constant(2.0, tf.float64), x + 4.0),
            m.zeta(x + 4.5, x + 4.0), m.ndtri(tf.abs(x) / 45.0),
            m.betainc(x + 4.0, x + 4.5, tf.abs(x) / 45.0))


def test_special_functions_in_float64():
    compare(special64, (X[:8].astype(np.float64),), rtol=1e-10, atol=1e-12)


def test_special_edges_are_tensorflow_values():
    inf, nan = np.inf, np.nan
    f = tf.function(lambda a, b: tf.math.betainc(a, b, tf.fill([3], 0.3)), jit_compile=True)
    out = f(tf.constant([inf, 2.0, nan]), tf.constant([0.5, inf, 1.0]))
    assert np.isnan(out.numpy()).all()  # TensorFlow 2.21: [nan nan nan]


def special_grads(x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = (tf.math.bessel_i0(x) + tf.math.bessel_i1e(x) + tf.math.ndtri(x / 4.0)
             + tf.math.zeta(3.0, x + 1.0) + tf.math.polygamma(1.0, x + 1.0)
             + tf.math.betainc(2.0, 3.0, x / 4.0) + tf.math.bessel_i0e(x) + tf.math.bessel_i1(x))
        total = tf.reduce_sum(y)
    return tape.gradient(total, x)


def test_special_function_gradients_compile():
    compare(special_grads, (np.array([0.25, 1.0, 2.5], np.float32),), rtol=2e-5, atol=1e-6)


# -- FFT, Lu, sqrtm -------------------------------------------------------------------------------

def spectral_linalg(re, im, a):
    c = tf.complex(re, im)
    lu, p = tf.linalg.lu(a)
    lu64, p64 = tf.linalg.lu(tf.cast(a[0], tf.float64), output_idx_type=tf.int64)
    with tf.GradientTape() as tape:
        tape.watch(re)
        loss = tf.reduce_sum(tf.abs(tf.signal.fft2d(tf.complex(re, re * 2.0))))
    return (tf.signal.fft(c), tf.signal.ifft(c), tf.signal.fft2d(c), tf.signal.ifft2d(c),
            tf.signal.fft3d(c), tf.signal.ifft3d(c), tf.signal.fft(c[:, :, :0]),
            tf.signal.rfft(re), tape.gradient(loss, re), lu, p, lu64, p64,
            tf.linalg.sqrtm(a), tf.linalg.sqrtm(tf.cast(a[::2], tf.complex64)))


A = np.array([[[1.0, 2, 3], [4, 5, 6], [7, 8, 10]], [[2, 1, 0], [1, 2, 1], [0, 1, 2]],
              [[-1, 0, 0], [0, 1, 0], [0, 0, 1]], [[0, 1, 0], [-1, 0, 0], [0, 0, 2]]],
             np.float32)


def test_fft_lu_and_sqrtm_equal_the_numpy_kernels():
    rng = np.random.default_rng(0)
    re, im = (rng.normal(size=(2, 3, 4)).astype(np.float32) for _ in range(2))
    # A[0] has a negative eigenvalue: its real sqrtm is nan; A[3] has a real root
    got = compare(spectral_linalg, (re, im, A[[1, 0, 3]]), rtol=2e-5, atol=2e-5)
    assert np.isnan(got[-2].numpy()[1]).all() and not np.isnan(got[-2].numpy()[2]).any()


def test_complex_sqrtm_is_tensorflows_principal_root():
    f = tf.function(tf.linalg.sqrtm, jit_compile=True)
    root = f(tf.cast(A[0], tf.complex64)).numpy()
    # TensorFlow 2.21's tf.linalg.sqrtm of A[0] as complex64 (eigenvalue -0.906: complex root)
    want = np.array([[0.45195478 + 0.802997j, 0.4185351 + 0.10711474j, 0.72115445 - 0.27982318j],
                     [0.899305 - 0.07943406j, 1.5068458 - 0.010596j, 1.3178399 + 0.02768067j],
                     [1.6412044 - 0.4571452j, 1.7778647 - 0.0609803j, 2.5739284 + 0.15930301j]])
    np.testing.assert_allclose(root, want, rtol=1e-5, atol=2e-6)


# -- image ops ------------------------------------------------------------------------------------

IMG = np.random.default_rng(1).random((2, 5, 6, 3)).astype(np.float32)
BOXES = np.array([[0.1, 0.2, 0.8, 0.9], [-0.2, 0.0, 1.3, 0.5], [0.5, 0.5, 0.5, 0.5]], np.float32)
BOX_INDEX = np.array([0, 1, 1], np.int32)
_ALIGN = ((True, False), (False, False), (False, True))  # (align_corners, half_pixel_centers)


def resizing(img):
    out = [tf.image.resize(img, size, method=m) for m in ("bilinear", "nearest", "bicubic", "area")
           for size in ([7, 4], [3, 9])]
    g = tf.ones([2, 8, 3, 3]) * tf.reshape(tf.range(3, dtype=tf.float32), [1, 1, 3, 1])
    for corners, half in _ALIGN:
        attrs = {"align_corners": corners, "half_pixel_centers": half}
        for op in ("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic"):
            out.append(raw(op, img, [8, 3], **attrs))
        out += [raw("ResizeBilinearGrad", g, img, **attrs),
                raw("ResizeBicubicGrad", g, img, **attrs),
                raw("ResizeNearestNeighborGrad", g, [5, 6], **attrs)]
    out += [tf.image.resize(tf.cast(img * 100, tf.uint8), [7, 4], method="nearest"),
            tf.image.resize(tf.cast(img * 100, tf.int32), [7, 4])]
    with tf.GradientTape() as tape:
        tape.watch(img)
        y = tf.image.resize(img, [7, 4]) + tf.image.resize(img, [7, 4], method="bicubic")
        loss = tf.reduce_sum(y * y) + tf.reduce_sum(tf.image.resize(img, [3, 9], "nearest"))
    return out + [tape.gradient(loss, img)]


def boxes(img, boxes, box_index):
    g = tf.reshape(tf.range(3 * 4 * 3 * 3, dtype=tf.float32), [3, 4, 3, 3])
    with tf.GradientTape() as tape:
        tape.watch([img, boxes])
        crops = tf.image.crop_and_resize(img, boxes, box_index, [4, 3])
        loss = tf.reduce_sum(crops * crops)
    return (crops, tf.image.crop_and_resize(img, boxes, box_index, [1, 1], method="nearest",
                                            extrapolation_value=-1.0),
            *tape.gradient(loss, [img, boxes]),
            raw("CropAndResizeGradImage", g, boxes, box_index, [2, 5, 6, 3], T=tf.float64,
                method="nearest"),
            tf.image.draw_bounding_boxes(img, tf.stack([boxes, boxes[::-1]]),
                                         [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]]),
            tf.image.draw_bounding_boxes(img[..., :1], tf.stack([boxes, boxes[::-1]]),
                                         tf.zeros([0, 4])),
            tf.image.draw_bounding_boxes(img, tf.constant([[[0.0, 0.0, 1.0, 1.0],
                                                            [0.9, 0.2, 0.1, 0.3]]] * 2),
                                         tf.zeros([0, 4])))


@pytest.mark.parametrize("fn,args", [(resizing, (IMG,)), (boxes, (IMG, BOXES, BOX_INDEX))],
                         ids=["resizing", "boxes"])
def test_image_ops_and_their_gradients_equal_the_numpy_kernels(fn, args):
    compare(fn, args, rtol=1e-5, atol=1e-5)  # float32 sums in another order


def test_box_colors_read_at_run_time():
    colors = tf.constant([[0.2, 0.3, 0.4, 1.0], [0.5, 0.5, 0.5, 1.0], [0.9, 0.1, 0.1, 1.0]])
    box_sets = tf.constant(np.stack([BOXES, BOXES[::-1]]))
    draw = tf.image.draw_bounding_boxes
    got = tf.function(draw, jit_compile=True)(tf.constant(IMG), box_sets, colors)
    np.testing.assert_array_equal(got.numpy(), draw(IMG, box_sets, colors).numpy())


# -- dilation, erosion, max pooling with argmax ---------------------------------------------------

def windows(x, w):
    with tf.GradientTape() as tape:
        tape.watch([x, w])
        d = tf.nn.dilation2d(x, w, [1, 1, 1, 1], "SAME", "NHWC", [1, 1, 1, 1])
        d2 = tf.nn.dilation2d(x, w, [1, 2, 1, 1], "VALID", "NHWC", [1, 1, 2, 1])
        e = tf.nn.erosion2d(x, w, [1, 1, 2, 1], "SAME", "NHWC", [1, 2, 1, 1])
        p, i = tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")
        p2, i2 = tf.nn.max_pool_with_argmax(x, [3, 2], [1, 2], "VALID", output_dtype=tf.int32,
                                            include_batch_in_index=True)
        loss = (tf.reduce_sum(d * d) + tf.reduce_sum(d2) + tf.reduce_sum(e * e)
                + tf.reduce_sum(p * p) + tf.reduce_sum(p2))
    return (d, d2, e, p, i, p2, i2, *tape.gradient(loss, [x, w]))


def test_dilation_and_max_pool_with_argmax_and_their_gradients():
    rng = np.random.default_rng(3)
    img = rng.normal(size=(2, 6, 7, 3)).astype(np.float32)
    img[0, :2, :2, 0] = 1.0  # ties: the first maximum wins, as in the numpy kernels
    compare(windows, (img, rng.normal(size=(3, 2, 3)).astype(np.float32) * 0.1),
            rtol=1e-6, atol=1e-6)


# -- CTC loss -------------------------------------------------------------------------------------

LOGITS = np.random.default_rng(2).normal(size=(6, 6, 4)).astype(np.float32)
# rows: [1, 2]; [1, 1] in 3 steps (just fits); [2]; [0, 1, 2, 0, 1]; [2] in 0 steps (inf);
# [1, 1] in 2 steps (no alignment: inf, zero gradient)
LABEL_INDICES = np.array([[0, 0], [0, 1], [1, 0], [1, 1], [2, 0], [3, 0], [3, 1], [3, 2], [3, 3],
                          [3, 4], [4, 0], [5, 0], [5, 1]], np.int64)
LABEL_VALUES = np.array([1, 2, 1, 1, 2, 0, 1, 2, 0, 1, 2, 1, 1], np.int32)
LENGTHS = np.array([6, 3, 4, 5, 0, 2], np.int32)


def ctc(logits, indices, values, lengths):
    with tf.GradientTape() as tape:
        tape.watch(logits)
        loss, grad = raw("CTCLoss", logits, indices, values, lengths)
        total = tf.reduce_sum(tf.where(tf.math.is_finite(loss), loss, 0.0))
    return loss, grad, tape.gradient(total, logits)


def test_ctc_loss_and_its_gradient():
    args = (LOGITS, LABEL_INDICES, LABEL_VALUES, LENGTHS)
    loss, grad, tape_grad = compare(ctc, args, rtol=1e-5, atol=1e-6)
    assert np.isinf(loss.numpy()[[4, 5]]).all() and np.isfinite(loss.numpy()[:4]).all()
    # the gradient output is the loss's derivative: central differences in float64
    f = tf.function(lambda x: raw("CTCLoss", x, *args[1:])[0], jit_compile=True)
    base = tf.cast(LOGITS, tf.float64)
    for t, b, c in ((0, 0, 1), (2, 1, 3), (4, 3, 0)):
        step = np.zeros(LOGITS.shape)
        step[t, b, c] = 1e-3
        diff = (f(base + step).numpy()[b] - f(base - step).numpy()[b]) / 2e-3
        assert abs(diff - grad.numpy()[t, b, c]) < 1e-4, (t, b, c)


def test_ctc_loss_api_with_sparse_labels_compiles():
    def loss(logits, values):
        labels = tf.sparse.SparseTensor(tf.constant([[0, 0], [0, 1], [1, 0]], tf.int64), values,
                                        [2, 2])
        return tf.nn.ctc_loss(labels, logits, None, tf.constant([6, 4]), blank_index=0)
    args = (tf.constant(LOGITS[:, :2]), tf.constant([1, 2, 3]))
    np.testing.assert_allclose(tf.function(loss, jit_compile=True)(*args).numpy(),
                               loss(*args).numpy(), rtol=1e-6)


# -- what cannot be compiled ----------------------------------------------------------------------

def _sets(x):
    return tf.sets.size(tf.sets.intersection(x[None], x[None] + 1))


@pytest.mark.parametrize("body,reason", [
    (lambda x: tf.timestamp() + tf.cast(x[0], tf.float64), r"Timestamp \(it reads the host's"),
    (lambda x: tf.nn.ctc_greedy_decoder(tf.ones([4, 1, 3]) * tf.cast(x[0], tf.float32),
                                        [4])[1], r"CTCGreedyDecoder \(its output is a sparse"),
    (lambda x: tf.nn.ctc_beam_search_decoder(tf.ones([4, 1, 3]) * tf.cast(x[0], tf.float32),
                                             [4])[1], r"CTCBeamSearchDecoder \(its output"),
    (_sets, r"DenseToDenseSetOperation \(its output is a sparse tensor"),
    (lambda x: tf.image.non_max_suppression(tf.cast(tf.reshape(x, [1, 4]), tf.float32), [0.5],
                                            1), r"NonMaxSuppressionV3 \(its output's shape"),
    (lambda x: tf.nn.isotonic_regression(tf.cast(x, tf.float32))[0],
     r"IsotonicRegression \(its pool-adjacent-violators"),
    (lambda x: tf.random.uniform_candidate_sampler(tf.cast(x[None], tf.int64), 4, 2, True,
                                                   5)[0], r"UniformCandidateSampler \("),
    (lambda x: tf.fingerprint(x), r"Fingerprint \(no lowering: its FarmHash"),
], ids=["timestamp", "greedy", "beam", "sets", "nms", "isotonic", "sampler", "fingerprint"])
def test_what_xla_cannot_compile_says_why(body, reason):
    with pytest.raises(InvalidArgumentError, match="Detected unsupported operations") as info:
        tf.function(body, jit_compile=True, autograph=False)(tf.constant([1, 2, 2, 3]))
    assert re.search(reason, str(info.value)), str(info.value)
    assert "test_lowerings_s4.py" in str(info.value)


def test_family_reasons_cover_ops_registered_later():
    from graph.xla.lowering import reason_of
    assert reason_of("SomeNewDataset").startswith("datasets and iterators")
    assert reason_of("RaggedSomething").startswith("ragged tensors")
    assert reason_of("MatMul") is None
