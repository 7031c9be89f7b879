"""A custom training loop, as TensorFlow's guides write it: Keras layers, a loss,
an optimizer and GradientTape inside one tf.function, run as a graph (traced twice on the
first call, as TensorFlow does: that trace makes the optimizer's variables)."""
import numpy as np

import autograph as tf

tf.keras.utils.set_random_seed(0)  # (Keras 3 seeds weights from Python's random)
rng = np.random.default_rng(0)
x = rng.normal(size=(256, 2)).astype(np.float32)
y = (x[:, :1] * 3.0 - x[:, 1:] * 2.0 + 0.5).astype(np.float32)  # y = 3 a - 2 b + 0.5

model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"),
                             tf.keras.layers.Dense(1)])
loss_fn = tf.keras.losses.MeanSquaredError()
optimizer = tf.keras.optimizers.Adam(learning_rate=0.05)
dataset = tf.data.Dataset.from_tensor_slices((x, y)).batch(32)


@tf.function
def train_step(features, labels):
    with tf.GradientTape() as tape:
        loss = loss_fn(labels, model(features, training=True))
    grads = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(grads, model.trainable_variables))
    return loss


for epoch in range(30):
    losses = [float(train_step(fx, fy)) for fx, fy in dataset]
    if epoch % 10 == 9:
        print(f"epoch {epoch + 1}: mean loss below 0.05: {np.mean(losses) < 0.05}")

print("traced:", train_step.experimental_get_tracing_count(), "times")
print("prediction for (1, 1) is near 1.5:", abs(float(model(tf.constant([[1.0, 1.0]]))[0, 0]) - 1.5) < 0.3)
