"""tf.keras.backend: Keras 3's legacy backend functions, each result recorded from
TensorFlow 2.21 / Keras 3."""
import numpy as np
import pytest

import autograph as tf

K = tf.keras.backend


@pytest.fixture(autouse=True)
def _fresh_keras_state():
    K.clear_session()
    yield
    K.set_floatx("float32")
    K.clear_session()


def test_config_and_clear_session():
    assert (K.epsilon(), K.floatx(), K.image_data_format()) == (1e-7, "float32", "channels_last")
    tf.keras.layers.Dense(2)
    assert tf.keras.layers.Dense(2).name == "dense_1"
    K.clear_session()
    assert tf.keras.layers.Dense(2).name == "dense"
    with pytest.raises(ValueError):
        K.set_floatx("int32")


def test_math_with_keras_s_twists():
    x = tf.constant([[1.0, -4.0], [9.0, 16.0]])
    assert float(K.mean(x)) == 5.5
    np.testing.assert_allclose(K.mean(x, axis=0, keepdims=True).numpy(), [[5.0, 6.0]])
    assert K.mean(tf.constant([True, False, True])).dtype == tf.float32
    np.testing.assert_allclose(K.sqrt(x).numpy(), [[1.0, 0.0], [3.0, 4.0]])  # negatives -> 0
    np.testing.assert_allclose(K.clip(x, 2.0, 1.0).numpy(), [[2.0, 2.0], [2.0, 2.0]])
    np.testing.assert_allclose(K.std(x).numpy(), 7.632169, rtol=1e-6)
    np.testing.assert_allclose(K.var(x, 0).numpy(), [16.0, 100.0])
    assert (K.int_shape(x), K.ndim(x), K.dtype(x), K.count_params(x)) == ((2, 2), 2, "float32", 4)
    assert K.constant([1, 2]).dtype == tf.float32
    assert K.batch_flatten(tf.ones([2, 2, 3])).shape == (2, 6)
    with pytest.raises(ValueError, match="Cannot apply softmax to a tensor that is 1D"):
        K.softmax(tf.constant([1.0, 2.0]))


def test_variables_and_values():
    v = K.variable([1.0, 2.0])
    K.set_value(v, [3, 4])
    np.testing.assert_array_equal(K.get_value(v), [3.0, 4.0])
    assert isinstance(K.zeros((2,)), tf.Variable)  # a fully known shape: a variable
    assert K.batch_get_value([v])[0].tolist() == [3.0, 4.0]


def test_floatx_is_the_layers_default_dtype_from_the_first_layer_on():
    K.set_floatx("float64")
    dense = tf.keras.layers.Dense(2)
    assert dense(np.ones((1, 3))).dtype == tf.float64
    assert tf.keras.initializers.GlorotUniform()((2, 2)).dtype == tf.float64
    K.set_floatx("float32")  # (Keras's dtype policy keeps what the first layer fixed)
    assert tf.keras.layers.Dense(2)(np.ones((1, 3))).dtype == tf.float64
    K.clear_session()
    assert tf.keras.layers.Dense(2)(np.ones((1, 3))).dtype == tf.float32
