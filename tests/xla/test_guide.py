"""The guides' examples under jit_compile=True: the same values as the numpy backend."""
import numpy as np
import pytest

import autograph as tf

pytest.importorskip("jax")


def _training(jit_compile: bool):
    """The guide's custom training loop (Adam, dense layers, a tape): losses of 10 steps."""
    tf.keras.utils.set_random_seed(1)  # (Keras 3 seeds weights from Python's random)
    x = np.random.default_rng(0).normal(size=(64, 4)).astype(np.float32)
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int32)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dense(2),
    ])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.05)

    @tf.function(jit_compile=jit_compile)
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = [float(train_step(x, labels)) for _ in range(10)]
    return losses, [v.numpy() for v in model.trainable_variables], train_step


def test_custom_training_loop_matches_numpy_backend():
    compiled, weights, step = _training(True)
    reference, ref_weights, _ = _training(False)
    np.testing.assert_allclose(compiled, reference, rtol=1e-4)
    for w, r in zip(weights, ref_weights):
        np.testing.assert_allclose(w, r, rtol=1e-3, atol=1e-5)
    assert compiled[-1] < compiled[0] / 2
    # TensorFlow: 2 (Adam's slots are created in the first trace, which is traced again)
    assert step.experimental_get_tracing_count() == 2


def test_data_dependent_control_flow():
    @tf.function(jit_compile=True)
    def g(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2
    assert g(tf.constant([1, 2])).numpy().tolist() == [1, 4]
    assert g(tf.constant([-3, -2])).numpy().tolist() == [1, 1]
    assert g.experimental_get_tracing_count() == 1


def test_retracing_follows_input_types():
    @tf.function(jit_compile=True)
    def double(a):
        return a + a
    assert double(tf.constant(1)).numpy() == 2
    assert double(tf.constant(1.1)).numpy() == pytest.approx(2.2)
    assert double(tf.constant([1, 2])).numpy().tolist() == [2, 4]
    assert double.experimental_get_tracing_count() == 3
