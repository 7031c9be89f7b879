"""The guides' Keras uses: the tf.function API page's ``tf.keras.Model`` example, the guide's
Conv2D timing example, building models before a Function traces them, and a custom
training loop with GradientTape inside tf.function."""
import numpy as np
import pytest

import autograph as tf


def _all_nodes(graph):
    for node in graph.nodes:
        yield node
        for value in node.attrs.values():
            if hasattr(value, "nodes"):
                yield from _all_nodes(value)


class MyModel(tf.keras.Model):
    def __init__(self, keep_probability=0.2):
        super(MyModel, self).__init__()
        self.dense1 = tf.keras.layers.Dense(4)
        self.dense2 = tf.keras.layers.Dense(5)
        self.keep_probability = keep_probability

    @tf.function
    def call(self, inputs, training=True):
        y = self.dense2(self.dense1(inputs))
        if training:
            return tf.nn.dropout(y, self.keep_probability)
        else:
            return y


def test_api_page_keras_example_dropout_only_when_training():
    x = tf.random.uniform((10, 10))
    model = MyModel()
    with_dropout = model(x, training=True)  # executes a graph, with dropout
    without = model(x, training=False)  # executes a graph, without dropout
    plain = model.dense2(model.dense1(x))
    np.testing.assert_allclose(without.numpy(), plain.numpy(), rtol=1e-6)
    np.testing.assert_allclose(model(x, training=False).numpy(), without.numpy())
    kept = with_dropout.numpy() != 0
    assert 0 < (~kept).sum() < kept.size
    np.testing.assert_allclose(with_dropout.numpy()[kept], plain.numpy()[kept] / 0.8, rtol=1e-5)
    assert model.call.experimental_get_tracing_count() == 2  # one graph per training value
    assert len(model.trainable_variables) == 4


def test_api_page_keras_example_uses_variables_not_constants():
    x = tf.random.uniform((3, 10))
    model = MyModel()
    before = model(x, training=False).numpy()
    graph = model.call.get_concrete_function(x, training=False).graph
    ops = [n.op for n in _all_nodes(graph)]
    assert ops.count("ReadVariableOp") == 4
    assert all(n.attrs["value"].size <= 1 for n in _all_nodes(graph) if n.op == "Const")
    model.dense2.bias.assign(tf.ones([5]))  # a new value is seen without retracing
    np.testing.assert_allclose(model(x, training=False).numpy(), before + 1, rtol=1e-5)
    assert model.call.experimental_get_tracing_count() == 1


def test_guide_conv_layer_in_a_function():
    conv_layer = tf.keras.layers.Conv2D(100, 3)

    @tf.function
    def conv_fn(image):
        return conv_layer(image)

    image = tf.zeros([1, 20, 20, 10])
    eager = conv_layer(image)
    staged = conv_fn(image)
    assert staged.shape == (1, 18, 18, 100)
    np.testing.assert_allclose(staged.numpy(), eager.numpy())


def test_guide_multiple_models_build_before_tracing():
    @tf.function
    def run(model, x):
        return model(x)

    x = tf.ones([2, 3])
    run(tf.keras.Sequential([tf.keras.layers.Dense(2)]), x)  # variables made by the first trace
    unbuilt = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="only supports singleton tf.Variables"):
        run(unbuilt, x)
    built = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    built.build(input_shape=(None, 3))  # the guide's advice: build, then trace
    assert run(built, x).shape == (2, 2)


def test_custom_training_loop_reduces_loss_inside_function():
    tf.keras.utils.set_random_seed(0)  # (Keras 3: initializers draw seeds from Python's random)
    x = np.random.default_rng(0).normal(size=(64, 4)).astype(np.float32)
    labels = (x[:, 0] + x[:, 1] > 0).astype(np.int32)
    model = tf.keras.Sequential([
        tf.keras.layers.Dense(16, activation="relu", input_shape=(4,)),
        tf.keras.layers.Dropout(0.1),
        tf.keras.layers.BatchNormalization(),
        tf.keras.layers.Dense(2),
    ])
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    optimizer = tf.keras.optimizers.Adam(learning_rate=0.05)
    accuracy = tf.keras.metrics.SparseCategoricalAccuracy()
    mean_loss = tf.keras.metrics.Mean()

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, model(x, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip(grads, model.trainable_variables))
        mean_loss.update_state(loss)
        return loss

    @tf.function
    def evaluate(x, y):
        logits = model(x, training=False)
        accuracy.update_state(y, logits)
        return loss_fn(y, logits)

    first = float(evaluate(x, labels))
    losses = [float(train_step(x, labels)) for _ in range(30)]
    accuracy.reset_state()
    last = float(evaluate(x, labels))
    assert last < first / 2 and losses[-1] < losses[0]
    assert float(accuracy.result()) > 0.9
    # 2, as TensorFlow counts: Adam makes its slots in the first trace, which is traced again
    assert train_step.experimental_get_tracing_count() == 2
    assert float(mean_loss.result()) == pytest.approx(np.mean(losses), rel=1e-5)
