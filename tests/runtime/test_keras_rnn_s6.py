"""Keras RNN layers with user cells, stacked cells and initial states, as TensorFlow 2.21
(values recorded from TensorFlow)."""
import numpy as np

import autograph as tf


class MinimalRNNCell(tf.keras.layers.Layer):
    """The Keras guide's cell: its call takes no `training`."""

    def __init__(self, units, **kwargs):
        super().__init__(**kwargs)
        self.units = units
        self.state_size = units

    def build(self, input_shape):
        self.kernel = self.add_weight(shape=(input_shape[-1], self.units),
                                      initializer="uniform", name="kernel")
        self.recurrent_kernel = self.add_weight(shape=(self.units, self.units),
                                                initializer="uniform", name="recurrent_kernel")
        self.built = True

    def call(self, inputs, states):
        output = tf.matmul(inputs, self.kernel) + tf.matmul(states[0], self.recurrent_kernel)
        return output, [output]


def test_user_cells_and_lists_of_cells():
    tf.keras.utils.set_random_seed(2)
    x = tf.reshape(tf.range(24, dtype=tf.float32), [2, 3, 4]) / 10
    np.testing.assert_allclose(tf.keras.layers.RNN(MinimalRNNCell(3))(x).numpy(),
                               [[0.07151, -0.0326, -0.02412], [0.16948, -0.0816, -0.03731]],
                               atol=1e-5)
    stacked = tf.keras.layers.RNN([MinimalRNNCell(2), MinimalRNNCell(3)])
    np.testing.assert_allclose(stacked(x).numpy(), [[0.00037, -0.00479, -0.0019],
                                                    [0.00102, -0.01065, -0.00442]], atol=1e-5)


def test_initial_states():
    lstm = tf.keras.layers.LSTM(2)
    assert [s.numpy().tolist() for s in lstm.get_initial_state(2)] == [[[0.0, 0.0]] * 2] * 2
    assert [s.shape for s in tf.keras.layers.LSTMCell(3).get_initial_state(batch_size=4)] == [
        (4, 3), (4, 3)]
    assert [s.shape for s in tf.keras.layers.GRU(3).get_initial_state(5)] == [(5, 3)]
