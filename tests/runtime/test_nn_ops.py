"""tf.nn eagerly and staged: values equal to TensorFlow's (recorded from TensorFlow 2.21
as literals, /tmp/tfcheck_nn), gradients checked numerically, TensorFlow's errors."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import assert_same, staged

f32 = np.float32
X = (np.arange(-6, 6, dtype=f32).reshape(3, 4) / 2)
IMG = (((np.arange(1 * 5 * 5 * 2) * 7 % 11) - 5).reshape(1, 5, 5, 2) / 4).astype(f32)
FLT = (((np.arange(3 * 3 * 2 * 3) * 5 % 7) - 3).reshape(3, 3, 2, 3) / 4).astype(f32)
DW = (((np.arange(2 * 2 * 2 * 2) * 3 % 5) - 2).reshape(2, 2, 2, 2) / 4).astype(f32)
SEQ = (((np.arange(1 * 6 * 2) * 5 % 7) - 3).reshape(1, 6, 2) / 2).astype(f32)
K1 = (((np.arange(3 * 2 * 2) * 3 % 5) - 2).reshape(3, 2, 2) / 2).astype(f32)
SIGNS = np.array([1, -1, 1, -1], f32)
LABELS = np.abs(np.sin(X))


def upstream(shape):
    """The fixed upstream gradient the recorded TensorFlow gradients used."""
    return ((np.arange(int(np.prod(shape))) % 5) - 2).reshape(shape).astype(f32) / 2


TF = {'avg_pool1d': [[[0.0, 0.16667], [0.66667, -0.33333], [0.0, 0.75]]],
 'avg_pool_same': [[[[-0.375, 0.0], [0.29167, 0.20833], [-0.1875, 0.1875]],
                    [[-0.25, -0.33333], [0.11111, 0.02778], [0.16667, 0.08333]],
                    [[-0.125, -0.4375], [0.08333, 0.0], [0.0625, 0.4375]]]],
 'avg_pool_valid': [[[[-0.375, 0.0], [0.375, 0.0625], [0.4375, 0.125], [-0.1875, 0.1875]],
                     [[-0.0625, -0.375], [0.0, 0.375], [0.0625, 0.4375], [0.125, -0.1875]],
                     [[-0.4375, -0.0625], [-0.375, 0.0], [0.375, 0.0625], [0.4375, 0.125]],
                     [[-0.125, -0.4375], [-0.0625, -0.375], [0.0, 0.375], [0.0625, 0.4375]]]],
 'batch_norm': [[1.0, 1.5, 1.99999, 2.5], [4.998, 9.48405, 128.49109, 10.48405],
                [8.996, 17.4681, 254.98218, 18.4681]],
 'bias_add': [[-4.0, -3.0, -2.0, -1.0], [-2.0, -1.0, 0.0, 1.0], [0.0, 1.0, 2.0, 3.0]],
 'conv1d': [[[1.5, 0.5], [1.5, 1.0], [1.75, -3.5], [-1.5, 2.5], [-1.25, -2.0], [-0.25, 0.75]]],
 'conv_explicit': [[[[-3.0625, -2.8125, 2.6875], [-2.25, 1.5, 0.875], [1.3125, 1.6875, -2.3125],
                     [1.9375, -1.5625, -0.25], [-2.0625, -0.125, 0.5]],
                    [[3.4375, -3.8125, -3.1875], [-3.1875, -3.8125, 3.4375],
                     [-3.625, 2.375, 1.8125], [1.1875, 1.75, -0.75], [1.625, -0.25, -0.375]]]],
 'conv_same_s2': [[[[1.5, -2.5625, -1.8125], [-2.25, 1.5, 0.875], [1.9375, -1.5625, -0.25]],
                   [[0.1875, 2.8125, -3.3125], [-3.1875, -3.8125, 3.4375], [1.1875, 1.75, -0.75]],
                   [[-0.25, 0.875, 1.125], [2.6875, -2.8125, -3.0625], [-2.125, 2.125, 0.25]]]],
 'conv_transpose': [[[[1.1875, 1.0], [-0.0625, -0.25], [0.5625, 0.5625], [-0.8125, -0.625],
                      [-1.0, -0.9375], [0.5, 0.375]],
                     [[-0.8125, 1.1875], [1.0, -0.0625], [-0.3125, 0.5625], [1.1875, -0.8125],
                      [-0.625, -1.0], [-0.6875, 0.5]],
                     [[-1.0625, -1.625], [2.1875, 1.625], [-0.6875, -1.0625], [1.25, 1.4375],
                      [-1.25, -0.8125], [-1.0625, -0.8125]],
                     [[-0.5, -0.4375], [-0.8125, 1.0], [0.875, -0.375], [-0.625, 0.25],
                      [1.25, -0.5625], [-0.4375, -0.5]],
                     [[-0.8125, -1.0625], [-0.4375, -0.6875], [2.6875, 2.25], [-0.6875, -0.875],
                      [1.4375, 1.8125], [-1.625, -1.0625]],
                     [[0.5, -0.6875], [-0.5625, 0.0], [-0.6875, 1.4375], [1.0, -0.0625],
                      [-0.3125, 0.5625], [1.1875, -0.8125]]]],
 'conv_valid_d2': [[[[1.3125, -1.3125, 0.0], [-1.75, 0.625, 0.8125], [-1.375, 1.1875, 0.25]],
                    [[-0.9375, -1.25, 0.625], [0.125, 0.0, 0.75], [-0.1875, -0.125, -0.5]],
                    [[0.9375, -1.875, 0.5625], [1.3125, -1.3125, 0.0], [-1.75, 0.625, 0.8125]]]],
 'depthwise_same': [[[[0.375, 0.1875, 0.8125, -0.125], [0.1875, 0.375, -0.25, 0.5625],
                      [0.6875, -0.8125, 0.0625, -0.8125], [-0.875, 0.75, -0.3125, 0.5625],
                      [0.5, -0.25, 0.3125, 0.125]],
                     [[0.8125, -0.9375, 0.3125, -0.8125], [-0.75, -0.75, -0.0625, -0.8125],
                      [-0.9375, 0.8125, -0.4375, 0.5625], [0.25, 0.3125, -0.125, 0.5625],
                      [0.5, 0.0, 0.25, -0.5]],
                     [[-0.8125, 0.6875, -0.1875, 0.5625], [0.375, 0.1875, 0.8125, -0.125],
                      [0.1875, 0.375, -0.25, 0.5625], [0.6875, -0.8125, 0.0625, -0.8125],
                      [-0.875, 0.25, -0.5, 0.25]],
                     [[0.3125, 0.25, 0.0, 0.5625], [0.8125, -0.9375, 0.3125, -0.8125],
                      [-0.75, -0.75, -0.0625, -0.8125], [-0.9375, 0.8125, -0.4375, 0.5625],
                      [0.5, -0.1875, 0.125, 0.3125]],
                     [[0.0, -0.375, 0.1875, -0.4375], [-0.375, 0.8125, 0.1875, -0.25],
                      [0.625, -0.0625, 0.1875, -0.0625], [0.25, -0.25, -0.5, 0.8125],
                      [-0.125, 0.0625, 0.1875, -0.375]]]],
 'depthwise_valid_s2': [[[[0.375, 0.1875, 0.8125, -0.125], [0.6875, -0.8125, 0.0625, -0.8125]],
                         [[-0.8125, 0.6875, -0.1875, 0.5625], [0.1875, 0.375, -0.25, 0.5625]]]],
 'elu': [[-0.95021, -0.91791, -0.86466, -0.77687], [-0.63212, -0.39347, 0.0, 0.5],
         [1.0, 1.5, 2.0, 2.5]],
 'gelu': [[-0.00405, -0.01552, -0.0455, -0.10021], [-0.15866, -0.15427, 0.0, 0.34573],
          [0.84134, 1.39979, 1.9545, 2.48448]],
 'gelu_approx': [[-0.00364, -0.01508, -0.0454, -0.10043], [-0.15881, -0.15429, 0.0, 0.34571],
                 [0.84119, 1.39957, 1.9546, 2.48492]],
 'in_top_k': [True, False, True],
 'l2_loss': 18.25,
 'l2_normalize': [[-0.647, -0.53916, -0.43133, -0.3235], [-0.8165, -0.40825, 0.0, 0.40825],
                  [0.27217, 0.40825, 0.54433, 0.68041]],
 'leaky_relu': [[-0.9, -0.75, -0.6, -0.45], [-0.3, -0.15, 0.0, 0.5], [1.0, 1.5, 2.0, 2.5]],
 'log_softmax0': [[-4.14293, -4.14293, -4.14293, -4.14293],
                  [-2.14293, -2.14293, -2.14293, -2.14293],
                  [-0.14293, -0.14293, -0.14293, -0.14293]],
 'max_pool1d': [[[0.0, 1.0], [1.5, 0.5], [1.0, 1.5]]],
 'max_pool_same': [[[[0.5, 1.25], [1.25, 1.25], [1.0, 1.0]],
                    [[0.75, 0.75], [1.25, 1.25], [1.25, 1.0]],
                    [[0.75, 0.75], [1.25, 1.25], [1.25, 1.25]]]],
 'moments': ([-1.0, -0.5, 0.0, 0.5], [2.66667, 2.66667, 2.66667, 2.66667]),
 'relu6': [[0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 1.5], [3.0, 4.5, 6.0, 6.0]],
 'selu': [[-1.67057, -1.61379, -1.52017, -1.36581], [-1.11133, -0.69176, 0.0, 0.52535],
          [1.0507, 1.57605, 2.1014, 2.62675]],
 'sigmoid_xent': [[0.47195, 1.57507, 1.94552, 1.69766], [1.15473, 0.71379, 0.69315, 0.73436],
                  [0.47179, 0.20517, 0.30833, 1.08271]],
 'silu': [[-0.14228, -0.18965, -0.23841, -0.27364], [-0.26894, -0.18877, 0.0, 0.31123],
          [0.73106, 1.22636, 1.76159, 2.31035]],
 'softmax': [[0.10154, 0.16741, 0.276, 0.45505], [0.10154, 0.16741, 0.276, 0.45505],
             [0.10154, 0.16741, 0.276, 0.45505]],
 'softmax_xent': [1.24505, 1.24505, 1.24505],
 'softplus': [[0.04859, 0.07889, 0.12693, 0.20141], [0.31326, 0.47408, 0.69315, 0.97408],
              [1.31326, 1.70141, 2.12693, 2.57889]],
 'softsign': [[-0.75, -0.71429, -0.66667, -0.6], [-0.5, -0.33333, 0.0, 0.33333],
              [0.5, 0.6, 0.66667, 0.71429]],
 'sparse_xent': [2.28734, 0.78734, 1.78734],
 'top_k': ([[3.0, 2.0], [1.0, 0.5], [2.5, 1.5]], [[3, 1], [3, 0], [0, 2]]),
 'weighted_xent': [[0.68706, 2.34677, 2.91253, 2.54623], [1.70727, 0.94729, 0.69315, 0.84801],
                   [0.60359, 0.30563, 0.36604, 1.10632]]}

TF_GRADS = {
    'avg_pool_same':
            [[[[[-0.25, -0.125], [-0.25, -0.04167], [0.0, 0.08333], [0.25, -0.16667],
                      [0.25, -0.25]],
                     [[-0.33333, -0.125], [-0.27778, 0.06944], [0.05556, 0.19444],
                      [0.13889, -0.13889], [0.08333, -0.33333]],
                     [[-0.08333, 0.0], [-0.02778, 0.11111], [0.05556, 0.11111], [-0.11111, 0.02778],
                      [-0.16667, -0.08333]],
                     [[-0.08333, 0.125], [0.13889, 0.06944], [0.22222, -0.05556],
                      [-0.06944, -0.13889], [-0.29167, -0.08333]],
                     [[0.0, 0.125], [0.16667, -0.04167], [0.16667, -0.16667], [0.04167, -0.16667],
                      [-0.125, 0.0]]]]],
 'conv_same_s2': [[[[[0.125, 0.625], [1.125, 0.0], [0.25, -1.375], [-1.75, 1.0], [0.375, 0.375]],
                    [[0.75, 0.25], [2.5, 2.5], [0.25, 0.75], [-2.25, -2.125], [1.0, 0.625]],
                    [[-1.375, 0.25], [0.0, 1.125], [0.625, 0.125], [-0.375, -0.375],
                     [0.125, 0.625]],
                    [[-2.625, -2.625], [0.75, 1.125], [0.625, 1.0], [-2.125, -2.25], [0.75, 0.25]],
                    [[0.25, -1.375], [-1.75, 1.0], [0.375, 0.375], [1.0, -1.75], [-1.375, 0.25]]]],
                  [[[[2.125, -0.625, -0.25], [-0.125, -1.0, -1.25]],
                    [[-1.75, 0.625, 3.0], [1.375, 1.625, -0.625]],
                    [[-0.25, -1.125, -0.125], [-1.25, -0.25, 2.625]]],
                   [[[-1.875, -0.75, 0.375], [2.75, 0.625, -1.5]],
                    [[2.5, -0.875, -2.375], [-3.0, -0.375, 4.125]],
                    [[0.375, 3.375, -1.125], [-1.5, -1.75, -0.125]]],
                   [[[-0.625, -0.25, -1.125], [-1.0, -1.25, -0.25]],
                    [[0.625, 3.0, -0.25], [1.625, -0.625, -1.625]],
                    [[-1.125, -0.125, 2.125], [-0.25, 2.625, -0.125]]]]],
 'depthwise_same': [[[[[0.375, 0.25], [-0.5, 0.0], [0.5, -0.125], [-0.375, -0.875], [0.0, 0.875]],
                      [[-0.125, 0.375], [0.0, 0.0], [0.0, 0.25], [0.0, -1.375], [0.0, 1.375]],
                      [[-0.125, 0.375], [0.0, 0.0], [0.0, 0.25], [0.0, -1.375], [0.0, 1.375]],
                      [[-0.125, 0.375], [0.0, 0.0], [0.0, 0.25], [0.0, -1.375], [0.0, 1.375]],
                      [[-0.125, 0.375], [0.0, 0.0], [0.0, 0.25], [0.0, -1.375], [0.0, 1.375]]]],
                    [[[[1.375, 2.5], [1.125, -2.75]], [[1.625, 1.125], [-2.125, -1.0]]],
                     [[[0.0, 0.625], [0.625, -4.125]], [[0.375, 0.625], [-3.25, -0.875]]]]],
 'max_pool_same': [[[[[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [1.0, 0.0], [0.0, 0.0]],
                     [[0.0, 0.0], [-1.0, 0.0], [0.5, 0.0], [0.0, -1.5], [0.0, 0.0]],
                     [[-0.5, 0.0], [0.0, 0.0], [0.0, 1.0], [0.0, 0.0], [0.0, 0.0]],
                     [[0.0, 0.5], [0.0, 0.0], [0.0, 0.0], [-0.5, 0.0], [0.0, 0.0]],
                     [[0.0, 0.0], [0.0, 0.0], [0.0, 0.0], [0.0, -1.0], [0.0, 0.0]]]]],
 'softmax_xent': [[[-2.28734, -1.78734, -1.28734, -0.78734],
                   [-1.14367, -0.89367, -0.64367, -0.39367], [0.0, 0.0, 0.0, 0.0]],
                  [[0.03958, 0.43107, 0.63329, 0.54244], [0.36997, 0.15601, -0.138, 0.01219],
                   [-0.0, -0.0, -0.0, -0.0]]],
 'top_k': [[[0.0, -0.5, 0.0, -1.0], [0.5, 0.0, 0.0, 0.0], [1.0, 0.0, -1.0, 0.0]]]}


# name: (function of tensors, its arguments); the same expressions as the TensorFlow script.
CASES = {
    "relu6": (lambda x: tf.nn.relu6(x * 3), X),
    "elu": (tf.nn.elu, X), "selu": (tf.nn.selu, X), "softplus": (tf.nn.softplus, X),
    "softsign": (tf.nn.softsign, X), "leaky_relu": (lambda x: tf.nn.leaky_relu(x, 0.3), X),
    "silu": (tf.nn.silu, X), "gelu": (tf.nn.gelu, X),
    "gelu_approx": (lambda x: tf.nn.gelu(x, approximate=True), X),
    "softmax": (tf.nn.softmax, X), "log_softmax0": (lambda x: tf.nn.log_softmax(x, axis=0), X),
    "sigmoid_xent": (lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
                     LABELS, X),
    "weighted_xent": (lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 1.5),
                      LABELS, X),
    "softmax_xent": (lambda x: tf.nn.softmax_cross_entropy_with_logits(
        tf.nn.softmax(x[::-1]), x), X),
    "sparse_xent": (lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([0, 3, 1], x), X),
    "l2_loss": (tf.nn.l2_loss, X), "l2_normalize": (lambda x: tf.nn.l2_normalize(x, 1), X),
    "moments": (lambda x: tf.nn.moments(x, [0]), X),
    "batch_norm": (lambda x: tf.nn.batch_normalization(x, x[0], x[1] ** 2, x[2], 2.0, 1e-3), X),
    "bias_add": (lambda x: tf.nn.bias_add(x, x[1]), X),
    "conv_same_s2": (lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), IMG, FLT),
    "conv_valid_d2": (lambda x, f: tf.nn.conv2d(x, f[:2, :2], 1, "VALID", dilations=2), IMG, FLT),
    "conv_explicit": (lambda x, f: tf.nn.conv2d(x, f, [1, 2, 1, 1],
                                                [[0, 0], [1, 0], [0, 2], [0, 0]]), IMG, FLT),
    "conv_transpose": (lambda x, f: tf.nn.conv2d_transpose(x[:, :3, :3], f[..., :2],
                                                           [1, 6, 6, 2], 2, "SAME"), IMG, FLT),
    "depthwise_same": (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), IMG, DW),
    "depthwise_valid_s2": (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID"),
                           IMG, DW),
    "max_pool_same": (lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), IMG),
    "avg_pool_same": (lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), IMG),
    "avg_pool_valid": (lambda x: tf.nn.avg_pool2d(x, 2, 1, "VALID"), IMG),
    "conv1d": (lambda x, k: tf.nn.conv1d(x, k, 1, "SAME"), SEQ, K1),
    "max_pool1d": (lambda x: tf.nn.max_pool1d(x, 2, 2, "VALID"), SEQ),
    "avg_pool1d": (lambda x: tf.nn.avg_pool1d(x, 3, 2, "SAME"), SEQ),
    "top_k": (lambda x: tuple(tf.math.top_k(x[:, ::-1] * SIGNS, 2)) if hasattr(tf.math, "top_k")
              else tuple(tf.nn.top_k(x[:, ::-1] * SIGNS, 2)), X),
    "in_top_k": (lambda x: tf.nn.in_top_k([3, 0, 2], x * SIGNS, 2), X),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_values_equal_tensorflow_eager_and_staged(name):
    fn, *args = CASES[name]
    assert_equals_recorded(assert_same(fn, *args, rtol=1e-5), TF[name])


def assert_equals_recorded(got, want):
    if not isinstance(want, tuple):
        got, want = (got,), (want,)
    assert len(got) == len(want)
    for g, w in zip(got, want):
        np.testing.assert_allclose(g, w, atol=2e-5)


def _tape_grads(fn, *args):
    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = fn(*ts)
        loss = tf.reduce_sum(y * upstream(tuple(y.shape)))
    return [g.numpy() for g in tape.gradient(loss, ts)]


GRAD_CASES = {
    "conv_same_s2": (lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), IMG, FLT),
    "depthwise_same": (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME"), IMG, DW),
    "max_pool_same": (lambda x: tf.nn.max_pool2d(x, 3, 2, "SAME"), IMG),
    "avg_pool_same": (lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME"), IMG),
    "softmax_xent": (lambda a, b: tf.nn.softmax_cross_entropy_with_logits(a, b), LABELS, X),
    "top_k": (lambda x: tf.nn.top_k(x, 2).values, X[:, ::-1] * SIGNS),
}


@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradients_equal_tensorflow(name):
    for got, want in zip(_tape_grads(*GRAD_CASES[name]), TF_GRADS[name]):
        np.testing.assert_allclose(got, want, atol=2e-5)


# -- numerical gradient checks (float64) ---------------------------------------------------

R = np.random.default_rng(7)


def numeric_check(fn, *args, eps=1e-6):
    """The tape's gradient of sum(fn(args) * w) equals central differences, for every input."""
    args = [np.asarray(a, np.float64) for a in args]
    w = R.normal(size=np.shape(fn(*[tf.constant(a) for a in args]))).astype(np.float64)

    def loss(*xs):
        return float(np.sum(fn(*[tf.constant(x) for x in xs]).numpy() * w))

    ts = [tf.constant(a) for a in args]
    with tf.GradientTape() as tape:
        for t in ts:
            tape.watch(t)
        y = tf.reduce_sum(fn(*ts) * w)
    grads = tape.gradient(y, ts)
    for i, (a, g) in enumerate(zip(args, grads)):
        num = np.zeros_like(a)
        for idx in np.ndindex(a.shape):
            hi = [x.copy() for x in args]
            lo = [x.copy() for x in args]
            hi[i][idx] += eps
            lo[i][idx] -= eps
            num[idx] = (loss(*hi) - loss(*lo)) / (2 * eps)
        np.testing.assert_allclose(tf.convert_to_tensor(g).numpy(), num, rtol=1e-5, atol=1e-6,
                                   err_msg=f"input {i}")


IMG_SMALL = R.normal(size=(2, 4, 5, 2))
FLT_SMALL = R.normal(size=(2, 3, 2, 3))
DISTINCT = R.permutation(2 * 5 * 5 * 2).reshape(2, 5, 5, 2) / 7.0  # no ties: max is smooth
V = R.normal(size=(3, 4))
DIST = np.abs(V) / np.abs(V).sum(axis=1, keepdims=True)  # rows of labels are distributions

NUMERIC = {
    "conv2d_same_s2": (lambda x, f: tf.nn.conv2d(x, f, 2, "SAME"), IMG_SMALL, FLT_SMALL),
    "conv2d_valid_d2": (lambda x, f: tf.nn.conv2d(x, f, 1, "VALID", dilations=[1, 1, 2, 1]),
                        IMG_SMALL, FLT_SMALL[:, :2]),
    "conv2d_explicit": (lambda x, f: tf.nn.conv2d(x, f, [1, 1, 2, 1],
                                                  [[0, 0], [2, 1], [0, 1], [0, 0]]),
                        IMG_SMALL, FLT_SMALL),
    "conv2d_transpose": (lambda x, f: tf.nn.conv2d_transpose(x, f, [2, 7, 9, 2], 2, "SAME"),
                         IMG_SMALL, FLT_SMALL[..., :2].transpose(0, 1, 3, 2).copy()),
    "depthwise": (lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 1, 1], "SAME"),
                  IMG_SMALL, R.normal(size=(3, 2, 2, 2))),
    "conv1d": (lambda x, k: tf.nn.conv1d(x, k, 2, "SAME"), R.normal(size=(2, 7, 2)),
               R.normal(size=(3, 2, 3))),
    "max_pool": (lambda x: tf.nn.max_pool2d(x, [2, 3], [2, 2], "SAME"), DISTINCT),
    "avg_pool": (lambda x: tf.nn.avg_pool2d(x, 3, [1, 2], "SAME"), IMG_SMALL),
    "max_pool1d": (lambda x: tf.nn.max_pool1d(x, 3, 1, "SAME"), DISTINCT[0]),
    "avg_pool1d": (lambda x: tf.nn.avg_pool1d(x, 2, 2, "VALID"), IMG_SMALL[0]),
    "softmax": (lambda x: tf.nn.softmax(x, axis=0), V),
    "log_softmax": (tf.nn.log_softmax, V),
    "softmax_xent": (lambda z, x: tf.nn.softmax_cross_entropy_with_logits(z, x), DIST, V),
    "softmax_xent_axis0": (lambda z, x: tf.nn.softmax_cross_entropy_with_logits(z, x, axis=0),
                           np.abs(V) / np.abs(V).sum(axis=0), V),
    "sparse_xent": (lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits([1, 0, 3], x), V),
    "sparse_xent_3d": (lambda x: tf.nn.sparse_softmax_cross_entropy_with_logits(
        [[1, 0], [2, 2]], x), R.normal(size=(2, 2, 3))),
    "sigmoid_xent": (lambda z, x: tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x),
                     np.abs(np.sin(V)), V),
    "weighted_xent": (lambda z, x: tf.nn.weighted_cross_entropy_with_logits(z, x, 2.0),
                      np.abs(np.sin(V)), V),
    "activations": (lambda x: tf.stack([tf.nn.relu6(x * 4), tf.nn.elu(x), tf.nn.selu(x),
                                        tf.nn.softplus(x), tf.nn.softsign(x),
                                        tf.nn.leaky_relu(x), tf.nn.silu(x, beta=1.5),
                                        tf.nn.gelu(x), tf.nn.gelu(x, approximate=True)]), V),
    "bias_add": (lambda x, b: tf.nn.bias_add(x, b), IMG_SMALL, R.normal(size=2)),
    "bias_add_nchw": (lambda x, b: tf.nn.bias_add(x, b, data_format="NCHW"), IMG_SMALL,
                      R.normal(size=4)),
    "l2_loss": (tf.nn.l2_loss, V),
    "l2_normalize": (lambda x: tf.nn.l2_normalize(x, axis=0), V),
    "moments": (lambda x: tf.stack(tf.nn.moments(x, [1])), V),
    "batch_normalization": (lambda x, m, v, o, s: tf.nn.batch_normalization(x, m, v, o, s, 1e-3),
                            V, V[0], np.abs(V[1]) + 0.5, V[2], V[0] + 2),
    "top_k": (lambda x: tf.nn.top_k(x, 3).values, V),
    "embedding_lookup": (lambda p: tf.nn.embedding_lookup(p, [[2, 0], [2, 2]]), V),
    "embedding_max_norm": (lambda p: tf.nn.embedding_lookup(p, [2, 0], max_norm=1.0), V),
}


@pytest.mark.parametrize("name", sorted(NUMERIC))
def test_gradients_numerically(name):
    numeric_check(*NUMERIC[name])


def test_second_derivatives_of_conv_and_softmax_xent():
    x, f = tf.constant(IMG_SMALL), tf.constant(FLT_SMALL)
    with tf.GradientTape() as outer:
        outer.watch(f)
        with tf.GradientTape() as inner:
            inner.watch(x)
            y = tf.reduce_sum(tf.nn.conv2d(x, f, 1, "SAME") ** 2)
        gx = inner.gradient(y, x)
        z = tf.reduce_sum(gx * x)
    assert outer.gradient(z, f).shape == FLT_SMALL.shape
    numeric_check(lambda f: _conv_gx(tf.constant(IMG_SMALL), f), FLT_SMALL)
    numeric_check(lambda x: _xent_grad(tf.constant(DIST), x), V)  # w.r.t. logits, as TF


def _conv_gx(x, f):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.conv2d(x, f, 1, "SAME") ** 2)
    return tape.gradient(y, x)


def _xent_grad(z, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_sum(tf.nn.softmax_cross_entropy_with_logits(z, x) * [1.0, 2.0, 3.0])
    return tape.gradient(y, x)


# -- tf.function, unknown dimensions ----------------------------------------------------------

def test_conv_net_in_tf_function_equals_eager_with_gradients():
    x, f = tf.constant(IMG), tf.Variable(FLT)

    def step(x):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.nn.conv2d(x, f, 1, "SAME"))
            h = tf.nn.max_pool2d(h, 2, 2, "VALID")
            logits = tf.reshape(tf.nn.avg_pool2d(h, 2, 2, "SAME"), [1, 3])
            loss = tf.reduce_mean(tf.nn.sparse_softmax_cross_entropy_with_logits([2], logits))
        return loss, tape.gradient(loss, f)

    eager_loss, eager_grad = step(x)
    loss, grad = tf.function(step)(x)
    np.testing.assert_allclose(loss.numpy(), eager_loss.numpy(), rtol=1e-6)
    np.testing.assert_allclose(grad.numpy(), eager_grad.numpy(), rtol=1e-5, atol=1e-7)


def test_shapes_with_unknown_dimensions():
    seen = {}

    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 2], tf.float32)])
    def f(x):
        seen["conv"] = tf.nn.conv2d(x, FLT, 2, "SAME").shape.as_list()
        seen["pool"] = tf.nn.max_pool2d(x, 2, 2, "VALID").shape.as_list()
        seen["top"] = tf.nn.top_k(x, 1).indices.shape.as_list()
        seen["xent"] = tf.nn.softmax_cross_entropy_with_logits(x, x).shape.as_list()
        return tf.nn.conv2d_transpose(x, FLT[..., :2], tf.shape(x), 1, "SAME")

    np.testing.assert_allclose(f(IMG).numpy(), tf.nn.conv2d_transpose(
        IMG, FLT[..., :2], [1, 5, 5, 2], 1, "SAME").numpy(), rtol=1e-6)
    assert seen == {"conv": [None, None, None, 3], "pool": [None, None, None, 2],
                    "top": [None, None, None, 1], "xent": [None, None, None]}


def test_conv_shapes_are_tensorflows():
    assert tf.nn.conv2d(IMG, FLT, 2, "SAME").shape == (1, 3, 3, 3)
    assert tf.nn.conv2d(IMG, FLT, 2, "VALID").shape == (1, 2, 2, 3)
    assert tf.nn.conv2d(IMG, np.ones((6, 6, 2, 1), f32), 1, "VALID").shape == (1, 0, 0, 1)
    assert tf.nn.max_pool2d(IMG, 2, 3, "SAME").shape == (1, 2, 2, 2)
    assert tf.nn.conv2d(tf.ones([1, 3, 3, 1], tf.int32), tf.ones([2, 2, 1, 1], tf.int32), 1,
                        "VALID").numpy().tolist() == [[[[4], [4]], [[4], [4]]]]


# -- dropout --------------------------------------------------------------------------------------

def test_dropout_keeps_and_scales():
    x = tf.ones([200, 50])
    y = tf.nn.dropout(x, 0.75, seed=3).numpy()
    assert set(np.unique(y)) <= {0.0, 4.0}
    assert 0.2 < np.mean(y == 4.0) < 0.3
    assert tf.nn.dropout(x, 0.0) is x
    masked = tf.nn.dropout(x, rate=0.5, noise_shape=[200, 1], seed=1).numpy()
    assert (masked == masked[:, :1]).all()  # one draw per row, broadcast along it
    y = staged(lambda x: tf.nn.dropout(x, tf.constant(0.5), noise_shape=[None, 1], seed=5),
               np.ones((100, 3), f32))
    assert set(np.unique(y)) <= {0.0, 2.0} and (y == y[:, :1]).all()


def test_dropout_errors():
    with pytest.raises(ValueError, match=r"`rate` must be a scalar tensor or a float in the range"):
        tf.nn.dropout(tf.ones([2]), 1.0)
    with pytest.raises(ValueError, match="must be a floating point tensor"):
        tf.nn.dropout(tf.constant([1, 2]), 0.5)


# -- errors --------------------------------------------------------------------------------

def test_errors_are_tensorflows():
    x = tf.constant(X)
    with pytest.raises(InvalidArgumentError):
        tf.nn.softmax(tf.constant([1, 2]))
    with pytest.raises(InvalidArgumentError, match=r"`dim` must be in the range \[-2, 2\)"):
        tf.nn.softmax(x, axis=5)
    with pytest.raises(InvalidArgumentError, match="labels must be int32 or int64"):
        tf.nn.sparse_softmax_cross_entropy_with_logits(tf.constant([1., 0., 2.]), x)
    with pytest.raises(ValueError, match="must equal `logits.shape.rank - 1`"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([[1], [0], [2]], x)
    with pytest.raises(InvalidArgumentError,
                       match=r"Received a label value of 5 which is outside the valid range "
                             r"of \[0, 4\)"):
        tf.nn.sparse_softmax_cross_entropy_with_logits([5, 0, 1], x)
    with pytest.raises(ValueError, match="must have the same shape"):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=[1., 0.], logits=[1., 2., 3.])
    with pytest.raises(InvalidArgumentError, match="logits and labels must be broadcastable"):
        tf.nn.softmax_cross_entropy_with_logits(tf.ones([3, 2]), x)
    with pytest.raises(InvalidArgumentError, match="Must provide as many biases as the last"):
        tf.nn.bias_add(tf.ones([2, 4]), tf.ones([3]))
    with pytest.raises(InvalidArgumentError, match="at least 2D"):
        tf.nn.bias_add(tf.ones([4]), tf.ones([4]))
    with pytest.raises(InvalidArgumentError):
        tf.nn.l2_loss(tf.constant([1, 2]))
    with pytest.raises(InvalidArgumentError):
        tf.nn.elu(tf.constant([1, 2]))
    assert tf.nn.leaky_relu(tf.constant([-1, 2])).dtype == tf.float32  # as TensorFlow casts
    with pytest.raises(ValueError, match="must be a floating point tensor"):
        tf.nn.gelu(tf.constant([1, 2]))


def test_conv_and_pool_errors():
    with pytest.raises(ValueError, match="padding"):
        tf.nn.conv2d(IMG, FLT, 1, "FOO")
    with pytest.raises(ValueError, match="padding"):
        tf.nn.max_pool2d(IMG, 2, 1, "same!")
    with pytest.raises(ValueError, match="strides should be of length 1, 2 or 4"):
        tf.nn.conv2d(IMG, FLT, [1, 1, 1], "VALID")
    with pytest.raises(InvalidArgumentError, match="must be 4-dimensional"):
        tf.nn.conv2d(IMG[0], FLT, 1, "VALID")
    with pytest.raises(InvalidArgumentError, match="input depth must be evenly divisible by "
                                                   "filter depth: 2 vs 3"):
        tf.nn.conv2d(IMG, np.ones((2, 2, 3, 1), f32), 1, "VALID")
    with pytest.raises(InvalidArgumentError):
        tf.nn.conv2d(tf.constant(IMG), tf.constant(FLT, tf.float64), 1, "VALID")
    with pytest.raises(NotImplementedError, match="NHWC"):
        tf.nn.conv2d(IMG, FLT, 1, "VALID", data_format="NCHW")
    with pytest.raises(InvalidArgumentError):
        tf.nn.avg_pool2d(IMG.astype(np.int32), 2, 1, "SAME")
    with pytest.raises(ValueError, match="rank 4"):
        tf.nn.max_pool2d(IMG[0], 2, 1, "SAME")


def test_top_k_and_in_top_k():
    r = tf.nn.top_k([3, 1, 3, 2, 3], 3)
    assert r.values.numpy().tolist() == [3, 3, 3] and r.indices.numpy().tolist() == [0, 2, 4]
    assert r.indices.dtype == tf.int32
    with pytest.raises(InvalidArgumentError, match="input must have at least k columns. "
                                                   "Had 3, needed 4"):
        tf.nn.top_k([1, 2, 3], 4)
    with pytest.raises(InvalidArgumentError, match="input must have at least k columns"):
        staged(lambda x: tf.nn.top_k(x, 4), np.ones(3, f32))
    with pytest.raises(InvalidArgumentError, match="Need k >= 0, got -1"):
        tf.nn.top_k([1, 2, 3], -1)
    with pytest.raises(InvalidArgumentError, match=r"input must be >= 1-D, got shape \[\]"):
        tf.nn.top_k(1.0, 1)
    preds = [[0.1, 0.2, 0.3], [0.3, 0.3, 0.1], [0.5, 0.1, np.nan], [1., 2., 3.]]
    # A tie with the target counts for it; out-of-range targets and NaN scores do not.
    assert tf.nn.in_top_k([1, 0, 1, 5], preds, 1).numpy().tolist() == [False, True, False, False]
    with pytest.raises((ValueError, TypeError)):
        tf.nn.in_top_k([0], tf.constant([[0.1, 0.2]], tf.float64), 1)


# -- 3-D ops, transposed and composed convolutions, the other tf.nn functions -------------------

VOL = (((np.arange(1 * 3 * 4 * 4 * 2) * 7 % 11) - 5).reshape(1, 3, 4, 4, 2) / 4).astype(f32)
F3 = (((np.arange(2 * 2 * 2 * 2 * 2) * 5 % 7) - 3).reshape(2, 2, 2, 2, 2) / 4).astype(f32)
PW = ((np.arange(12) % 5 - 2).reshape(1, 1, 4, 3) / 2).astype(f32)
Z = np.array([0., 1., 2., 3.5], f32)
C = np.array([0.1, -1., 2., 0.5], f32)
M2 = np.array([[1., 2.], [3., 5.]], f32)

TF_MORE = {'atrous_conv2d': [[0.875, -0.375, 0.625, 0.5], [0.0625, 0.8125, 0.9375, 0.3125],
                   [0.75, 0.625, 0.75, 0.125], [0.25, 1.1875, -1.0625, -0.5625]],
 'avg_pool3d': [[-0.25, -0.125, 0.125, 0.25], [0.0625, 0.1875, 0.20833, 0.21875],
                [-0.125, 0.0, -0.20833, -0.3125]],
 'compute_average_loss': 2.75,
 'conv1d_transpose': [[[1.1875, -0.25], [-0.8125, -0.0625], [1.0, -0.625], [-0.0625, -0.8125],
                       [-0.5625, 0.375], [0.0, 0.5], [-0.75, 0.0], [0.75, -0.25]],
                      [[1.125, -0.375], [-0.5625, -0.3125], [-0.4375, 0.625], [-0.5, 1.0],
                       [-0.625, 0.25], [0.25, 0.25], [-0.8125, -0.125], [1.0, -0.5]]],
 'conv3d': [[[[-1.875, -1.75], [3.1875, -1.75]], [[-1.375, 0.3125], [2.3125, 1.6875]]],
            [[[-1.9375, 0.4375], [1.75, -1.5625]], [[-2.125, 0.5625], [1.5625, -0.0625]]]],
 'conv3d_transpose': [[[[1.1875, -0.25], [-0.8125, -0.0625]], [[-0.625, 1.0], [-0.4375, 1.1875]]],
                      [[[-0.25, -0.8125], [-0.0625, -0.625]], [[1.0, -0.4375], [1.1875, -0.25]]]],
 'convolution': [[0.875, 0.0], [0.6875, 1.0], [0.5, 0.625], [-0.9375, 0.5]],
 'crelu': [[0.0, 0.0, 1.0, 0.0], [1.0, 3.0, 0.0, 0.0]],
 'log_poisson_loss': [1.10517, 1.36788, 3.38906, -0.10128],
 'log_poisson_loss_full': [1.10517, 1.36788, 4.04086, 2.32871],
 'max_pool3d': [[[[[0.75, 1.25], [1.25, 1.25]], [[1.25, 1.25], [1.0, 1.0]]],
                 [[[1.0, 0.75], [0.5, 1.25]], [[1.25, 1.25], [1.0, 0.0]]]]],
 'separable_conv2d': [[-1.71875, 0.5625, 1.4375], [-2.5625, 0.65625, 1.53125],
                      [-1.0, -0.625, -0.09375]],
 'sufficient_statistics': (2.0, [[2.0, 5.0]], [[4.0, 17.0]], 1.0),
 'weighted_moments': ([2.5, 4.25], [0.75, 1.6875]),
 'zero_fraction': 0.5}

MORE_CASES = {
    "conv3d": (lambda v, f: tf.nn.conv3d(v, f, [1, 2, 1, 2, 1], "SAME")[0, :, :2], VOL, F3),
    "max_pool3d": (lambda v: tf.nn.max_pool3d(v, 2, 2, "SAME"), VOL),
    "avg_pool3d": (lambda v: tf.nn.avg_pool3d(v, [2, 3, 2], 1, "SAME")[0, :, :, 0, 0], VOL),
    "conv3d_transpose": (lambda v, f: tf.nn.conv3d_transpose(v, f, [1, 6, 8, 8, 2], 2,
                                                             "SAME")[0, :2, :2, :2], VOL, F3),
    "conv1d_transpose": (lambda v, f: tf.nn.conv1d_transpose(v[0, 0], f[0, 0], [4, 8, 2], 2,
                                                             "SAME")[:2], VOL, F3),
    "atrous_conv2d": (lambda v, f: tf.nn.atrous_conv2d(v[0], f[0], 2, "SAME")[0, :, :, 0],
                      VOL, F3),
    "convolution": (lambda v, f: tf.nn.convolution(v[0, 0], f[0, 0], padding="SAME")[1], VOL, F3),
    "separable_conv2d": (lambda v, f, p: tf.nn.separable_conv2d(v[0], f[0], p, [1, 1, 1, 1],
                                                                "VALID")[0, 0], VOL, F3, PW),
    "crelu": (lambda m: tf.nn.crelu(m - 2), M2),
    "log_poisson_loss": (lambda z, c: tf.nn.log_poisson_loss(z, c), Z, C),
    "log_poisson_loss_full": (lambda z, c: tf.nn.log_poisson_loss(z, c, compute_full_loss=True),
                              Z, C),
    "compute_average_loss": (lambda m: tf.nn.compute_average_loss(m, sample_weight=0.5), M2),
    "zero_fraction": (lambda z: tf.nn.zero_fraction(z * 0 + [0, 1, 0, 2]), Z),
    "sufficient_statistics": (lambda m: tuple(tf.nn.sufficient_statistics(m, [0], shift=1.0,
                                                                         keepdims=True)), M2),
    "weighted_moments": (lambda m: tuple(tf.nn.weighted_moments(m, [0], np.array([[1.], [3.]],
                                                                                 f32))), M2),
}


@pytest.mark.parametrize("name", sorted(MORE_CASES))
def test_more_values_equal_tensorflow_eager_and_staged(name):
    fn, *args = MORE_CASES[name]
    assert_equals_recorded(assert_same(fn, *args, rtol=1e-5), TF_MORE[name])


NUMERIC_MORE = {
    "conv3d": (lambda v, f: tf.nn.conv3d(v, f, [1, 1, 2, 1, 1], "SAME"),
               R.normal(size=(1, 3, 4, 3, 2)), R.normal(size=(2, 2, 1, 2, 2))),
    "conv3d_transpose": (lambda v, f: tf.nn.conv3d_transpose(v, f, [1, 3, 7, 3, 2], [1, 2, 1],
                                                             "VALID"),
                         R.normal(size=(1, 2, 3, 2, 2)), R.normal(size=(2, 3, 2, 2, 2))),
    "max_pool3d": (lambda v: tf.nn.max_pool3d(v, [1, 2, 2], [1, 2, 1], "SAME"),
                   R.permutation(36).reshape(1, 2, 3, 3, 2) / 5.0),
    "avg_pool3d": (lambda v: tf.nn.avg_pool3d(v, 2, 1, "SAME"), R.normal(size=(1, 2, 3, 3, 2))),
    "conv1d_transpose": (lambda v, f: tf.nn.conv1d_transpose(v, f, [2, 8, 3], 2, "SAME"),
                         R.normal(size=(2, 4, 2)), R.normal(size=(3, 3, 2))),
    "separable_conv2d": (lambda v, d, p: tf.nn.separable_conv2d(v, d, p, [1, 1, 1, 1], "SAME"),
                         IMG_SMALL, R.normal(size=(2, 2, 2, 2)), R.normal(size=(1, 1, 4, 3))),
    "crelu": (lambda x: tf.nn.crelu(x, axis=0), V),
    "log_poisson_loss": (lambda z, c: tf.nn.log_poisson_loss(z, c, compute_full_loss=True),
                         np.abs(V) * 3, V),
    "weighted_moments": (lambda x, w: tf.stack(tf.nn.weighted_moments(x, [1], w)), V,
                         np.abs(V) + 0.5),
}


@pytest.mark.parametrize("name", sorted(NUMERIC_MORE))
def test_more_gradients_numerically(name):
    numeric_check(*NUMERIC_MORE[name])


def test_max_pool_second_order():
    """The pooled gradient is linear in the upstream gradient (MaxPoolGrad -> MaxPoolGradGrad)."""
    x = tf.constant(DISTINCT)

    def routed(w):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.nn.max_pool2d(x, 3, 2, "SAME") * w)
        return tape.gradient(y, x)

    numeric_check(routed, R.normal(size=(2, 3, 3, 2)))
    numeric_check(lambda g: routed(routed(g)[:, ::2, ::2][:, :3, :3]), R.normal(size=(2, 3, 3, 2)))


def test_sigmoid_losses_do_not_cast_labels():
    with pytest.raises(InvalidArgumentError):
        tf.nn.sigmoid_cross_entropy_with_logits(labels=tf.constant([1, 0]), logits=[1., 2.])
    with pytest.raises(InvalidArgumentError):
        tf.nn.weighted_cross_entropy_with_logits([1, 0], [1., 2.], 2.0)


def test_gradients_of_unknown_shapes_in_tf_function():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 2], tf.float32),
                                  tf.TensorSpec([3, 3, 2, None], tf.float32)])
    def grads(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.nn.avg_pool2d(tf.nn.conv2d(x, f, 2, "SAME"), 2, 1, "SAME")
            y = tf.nn.max_pool2d(tf.nn.depthwise_conv2d(y, tf.ones([1, 1, 3, 2]), [1] * 4,
                                                        "SAME"), 2, 2, "SAME")
            loss = tf.reduce_sum(y * y)
        return tape.gradient(loss, [x, f])

    x, f = tf.constant(IMG), tf.constant(FLT)
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.avg_pool2d(tf.nn.conv2d(x, f, 2, "SAME"), 2, 1, "SAME")
        y = tf.nn.max_pool2d(tf.nn.depthwise_conv2d(y, tf.ones([1, 1, 3, 2]), [1] * 4, "SAME"),
                             2, 2, "SAME")
        loss = tf.reduce_sum(y * y)
    for got, want in zip(grads(IMG, FLT), tape.gradient(loss, [x, f])):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_depth_to_space_and_space_to_depth():
    x = np.arange(1 * 2 * 2 * 8).reshape(1, 2, 2, 8).astype(np.int32)
    y = assert_same(lambda x: tf.nn.depth_to_space(x, 2), x)
    assert y.tolist() == [[[[0, 1], [2, 3], [8, 9], [10, 11]], [[4, 5], [6, 7], [12, 13], [14, 15]],
                          [[16, 17], [18, 19], [24, 25], [26, 27]],
                          [[20, 21], [22, 23], [28, 29], [30, 31]]]]  # TensorFlow's
    assert assert_same(lambda y: tf.nn.space_to_depth(y, 2), y).tolist() == x.tolist()
    numeric_check(lambda x: tf.nn.depth_to_space(x, 2), R.normal(size=(2, 1, 2, 4)))
    numeric_check(lambda x: tf.nn.space_to_depth(x, 2), R.normal(size=(1, 2, 4, 3)))
    with pytest.raises(InvalidArgumentError, match="Image width 5 and height 5 should be "
                                                   "divisible by block_size: 2"):
        tf.nn.space_to_depth(np.zeros((1, 5, 5, 1)), 2)
    with pytest.raises(InvalidArgumentError, match="Input depth dimension 6 should be "
                                                   "divisible by: 4"):
        tf.nn.depth_to_space(np.zeros((1, 2, 2, 6)), 2)
    with pytest.raises(InvalidArgumentError, match="must be at least minimum 2"):
        tf.nn.depth_to_space(np.zeros((1, 2, 2, 4)), 1)


def test_pool():
    y = np.arange(1 * 4 * 4 * 2).reshape(1, 4, 4, 2).astype(f32)
    assert tf.nn.pool(y, [2, 2], "MAX", strides=[2, 2], padding="SAME").numpy().tolist() == \
        [[[[10.0, 11.0], [14.0, 15.0]], [[26.0, 27.0], [30.0, 31.0]]]]  # TensorFlow's
    np.testing.assert_allclose(tf.nn.pool(y[0], [3], "AVG", padding="SAME").numpy()[1],
                               [[9.0, 10.0], [10.0, 11.0], [12.0, 13.0], [13.0, 14.0]])
    with pytest.raises(ValueError, match="2-D MIN pooling is not supported"):
        tf.nn.pool(y, [2, 2], "MIN")
