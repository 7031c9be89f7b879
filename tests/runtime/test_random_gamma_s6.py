"""tf.random.gamma and stateless_gamma draw TensorFlow's numbers (Marsaglia-Tsang from each
sample's reserved Philox stream; values recorded from TensorFlow 2.21)."""
import numpy as np
import pytest

import autograph as tf


def test_stateless_gamma_is_tensorflows():
    got = tf.random.stateless_gamma([2, 5], seed=[1, 2], alpha=[0.1, 0.5, 1.0, 2.5, 30.0])
    np.testing.assert_allclose(got.numpy(), [
        [4.5858954e-08, 1.8136732e-01, 2.2994834e-01, 3.7823472e+00, 3.3983860e+01],
        [1.8210700e-02, 4.7589920e-02, 1.1978732e+00, 2.4927735e+00, 3.0516413e+01]],
        rtol=1e-5)
    got = tf.random.stateless_gamma([3], seed=[1, 2], alpha=2.0, beta=3.0, dtype=tf.float64)
    np.testing.assert_allclose(got.numpy(), [0.9390912, 0.6413789, 1.1120022], rtol=1e-5)
    got = tf.random.stateless_gamma([4], seed=[7, 0], alpha=0.7, dtype=tf.float16)
    np.testing.assert_array_equal(got.numpy(), np.float16([0.4988, 1.736, 0.1625, 1.06]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="must end with broadcasted shape"):
        tf.random.stateless_gamma([3], seed=[1, 2], alpha=[0.5, 2.0])


def test_stateful_gamma_is_tensorflows():
    tf.random.set_seed(1)
    np.testing.assert_allclose(tf.random.gamma([3], 2.0).numpy(),
                               [4.302483, 0.945175, 0.740369], rtol=1e-5)
    np.testing.assert_allclose(tf.random.gamma([2], [0.5, 1.0, 3.0], seed=7).numpy(),
                               [[0.842505, 0.334772, 3.567464], [1.415353, 0.195657, 8.040552]],
                               rtol=1e-5)
    np.testing.assert_allclose(tf.random.gamma([3], 2.0).numpy(),  # the op's stream moved on
                               [1.356609, 1.739774, 0.612465], rtol=1e-5)
    tf.random.set_seed(4)
    np.testing.assert_allclose(
        tf.random.gamma([2, 2], [0.3, 4.0], beta=[1.0, 2.0], seed=1).numpy(),
        [[[4.4587728e-01, 3.6489120e+00], [4.4801293e-04, 7.1241063e-01]],
         [[2.5903425e-01, 1.8610569e+00], [1.3712089e-01, 1.3297130e+00]]], rtol=1e-5)
    np.testing.assert_allclose(tf.random.gamma([3], 1.0, dtype=tf.float64).numpy(),
                               [0.9644518, 2.2520428, 0.3001758], rtol=1e-5)
    f = tf.function(lambda: (tf.random.gamma([2], 5.0, seed=3),
                             tf.random.stateless_gamma([2], [3, 3], 0.2)))
    first, second = f(), f()
    np.testing.assert_allclose(first[0].numpy(), [5.704837, 8.007061], rtol=1e-5)
    np.testing.assert_allclose(second[0].numpy(), [2.4529297, 1.7723134], rtol=1e-5)
    for stateless in (first[1], second[1]):
        np.testing.assert_allclose(stateless.numpy(), [2.3397048e-08, 6.7304418e-04], rtol=1e-5)
