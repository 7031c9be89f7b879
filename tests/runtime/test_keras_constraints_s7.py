"""tf.keras.constraints, applied by the optimizer after each update (Keras 3's rule); values
recorded from TensorFlow 2.21. Before, a layer refused kernel_constraint= and add_weight
raised NotImplementedError."""
import numpy as np
import pytest

import autograph as tf


def _train():
    tf.keras.utils.set_random_seed(1)
    d = tf.keras.layers.Dense(3, kernel_constraint=tf.keras.constraints.MaxNorm(0.5),
                              bias_constraint="non_neg")
    e = tf.keras.layers.Embedding(5, 2, embeddings_constraint=tf.keras.constraints.MinMaxNorm(
        0.5, 1.0, rate=0.5, axis=1))
    x = tf.constant(np.linspace(-1, 1, 8).reshape(2, 4).astype(np.float32))
    opt = tf.keras.optimizers.SGD(0.5)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(d(x) ** 2) + tf.reduce_sum(e(tf.constant([1, 2])))
        vs = d.trainable_variables + e.trainable_variables
        opt.apply_gradients(zip(tape.gradient(loss, vs), vs))
        return loss
    for _ in range(3):
        step()
    return d, e


def test_constraints_project_the_weights_after_each_update():
    d, e = _train()
    np.testing.assert_allclose(d.kernel.numpy()[-1], [0.19839, 0.30706, -0.07821], atol=1e-5)
    np.testing.assert_allclose(d.bias.numpy(), [0.0, 0.39542, 0.59009], atol=1e-5)
    assert not np.signbit(d.bias.numpy()[0])
    norms = np.linalg.norm(d.kernel.numpy(), axis=0)
    assert np.all(norms <= 0.5 + 1e-6)
    np.testing.assert_allclose(e.embeddings.numpy()[0], [0.29983, -0.3209], atol=1e-5)


def test_constraint_formulas_names_and_configs():
    np.testing.assert_allclose(
        tf.keras.constraints.MaxNorm(2.0)(tf.constant([[3.0, 0.5], [4.0, 0.5]])).numpy(),
        [[1.2, 0.5], [1.6, 0.5]], rtol=1e-6)
    assert isinstance(tf.keras.constraints.get("unit_norm"), tf.keras.constraints.UnitNorm)
    assert tf.keras.constraints.serialize(tf.keras.constraints.MaxNorm(3)) == {
        "module": "keras.constraints", "class_name": "MaxNorm",
        "config": {"max_value": 3, "axis": 0}, "registered_name": None}
    with pytest.raises(ValueError, match="Could not interpret constraint identifier"):
        tf.keras.constraints.get("nope")


def test_a_user_constraint_subclass_clips_weights():
    class Clip(tf.keras.constraints.Constraint):
        def __call__(self, w):
            return tf.clip_by_value(w, -0.01, 0.01)

    layer = tf.keras.layers.Dense(2, kernel_constraint=Clip())
    layer(tf.ones([1, 2]))
    opt = tf.keras.optimizers.SGD(1.0)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(tf.ones([1, 2])))
    opt.apply_gradients(zip(tape.gradient(loss, layer.trainable_variables),
                            layer.trainable_variables))
    assert np.max(np.abs(layer.kernel.numpy())) <= 0.01


def test_sequential_builds_take_keras_3s_names():
    # A Sequential builds a Functional of its layers (after an InputLayer it puts first when
    # it has none), as Keras 3 does: later Inputs, tensors and models are numbered after them
    # (the counters are global to the program: the test compares how far they move).
    from runtime.keras.layers.base import unique_name

    def next_index(prefix):
        name = unique_name(prefix)
        return int(name.rsplit("_", 1)[1]) if "_" in name.replace(prefix, "", 1) else 0

    f0, i0, k0 = next_index("functional"), next_index("input_layer"), next_index("keras_tensor")
    s = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    s(tf.zeros([1, 3]))
    assert next_index("functional") == f0 + 2      # (one for the Sequential's build)
    assert next_index("input_layer") == i0 + 2     # (its InputLayer)
    assert next_index("keras_tensor") == k0 + 3    # (the InputLayer's output and Dense's)
