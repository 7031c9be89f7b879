"""tf.image.resize with antialias=True and the sampling-kernel methods (TensorFlow's
ScaleAndTranslate), values recorded from TensorFlow 2.21; before, NotImplementedError."""
import numpy as np
import pytest

import autograph as tf

RAMP = tf.reshape(tf.range(20, dtype=tf.float32), [4, 5, 1])

EXPECTED = {
    ("bilinear", True): [[4.0, 5.57143, 7.14286], [11.85714, 13.42857, 15.0]],
    ("bicubic", True): [[3.28773, 4.93388, 6.58004], [12.41996, 14.06612, 15.71227]],
    ("lanczos3", False): [[2.06718, 3.85819, 5.64921], [13.35079, 15.14181, 16.93282]],
    ("gaussian", False): [[2.83924, 4.5, 6.16076], [12.83924, 14.5, 16.16076]],
    ("mitchellcubic", True): [[3.85535, 5.4058, 6.95624], [12.04376, 13.5942, 15.14465]],
}


@pytest.mark.parametrize("method, antialias", list(EXPECTED))
def test_sampling_kernel_resizes_give_tensorflows_values(method, antialias):
    for fn in (lambda: tf.image.resize(RAMP, [2, 3], method=method, antialias=antialias),
               tf.function(lambda: tf.image.resize(RAMP, [2, 3], method=method,
                                                   antialias=antialias))):
        got = fn()
        assert got.shape == (2, 3, 1) and got.dtype == tf.float32
        np.testing.assert_allclose(got[..., 0].numpy(), EXPECTED[method, antialias], atol=1e-4)


def test_an_antialiased_resize_is_differentiable_and_upsampling_ignores_antialias():
    x = tf.Variable(tf.ones([1, 4, 4, 1]))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.image.resize(x, [2, 2], antialias=True))
    edge, inner = 0.24489799, 0.32653064  # (TensorFlow's gradient)
    expected = [[0.1836735, edge, edge, 0.1836735], [edge, inner, inner, edge],
                [edge, inner, inner, edge], [0.1836735, edge, edge, 0.1836735]]
    np.testing.assert_allclose(tape.gradient(y, x).numpy()[0, ..., 0], expected, rtol=1e-6)
    up = tf.image.resize(RAMP, [8, 10], antialias=True)
    np.testing.assert_allclose(up.numpy(), tf.image.resize(RAMP, [8, 10]).numpy(), atol=1e-5)
