"""Keras 3 fidelity: seeded initializers, SeedGenerator, the dropout and noise layers draw
TensorFlow's very values; layers, models and weights are named as Keras 3 names them.
Values recorded from TensorFlow 2.21 (Keras 3.15) as literals."""
import random
import re

import numpy as np
import pytest

import autograph as tf
from runtime.keras.layers import core

K = tf.keras
L = tf.keras.layers
X = np.arange(1, 13, dtype=np.float32).reshape(3, 4)


def close(actual, expected, atol=2e-6):
    np.testing.assert_allclose(np.asarray(actual), np.asarray(expected, np.float32), rtol=1e-5,
                               atol=atol)


# -- initializers ----------------------------------------------------------------------------

SEEDED_3x4 = {  # cls(seed=7)((3, 4)), first six values
    "RandomNormal": [-0.033709, -0.017935, -0.093979, -0.073645, -0.100313, -0.056672],
    "RandomUniform": [0.024708, 0.017218, -0.044222, 0.014421, -0.042969, 0.016815],
    "TruncatedNormal": [-0.033709, -0.017935, -0.093979, -0.073645, -0.036262, 0.038018],
    "GlorotUniform": [0.457501, 0.318816, -0.818833, 0.267031, -0.795634, 0.311362],
    "GlorotNormal": [-0.409675, -0.217967, -1.142166, -0.895034, -0.44071, 0.462047],
    "HeUniform": [0.698844, 0.486999, -1.250788, 0.407897, -1.215351, 0.475614],
    "HeNormal": [-0.625789, -0.33295, -1.744688, -1.367186, -0.673195, 0.705788],
    "LecunUniform": [0.494158, 0.34436, -0.884441, 0.288426, -0.859383, 0.33631],
    "LecunNormal": [-0.442499, -0.235431, -1.23368, -0.966747, -0.476021, 0.499068],
    "Orthogonal": [-0.32566, -0.711483, -0.580233, -0.22598, 0.040513, -0.668431],
}


@pytest.mark.parametrize("name", sorted(SEEDED_3x4))
def test_seeded_initializers_draw_tensorflows_values_on_every_call(name):
    init = getattr(K.initializers, name)(seed=7)
    first = init((3, 4)).numpy()
    close(first.ravel()[:6], SEEDED_3x4[name])
    np.testing.assert_array_equal(init((3, 4)).numpy(), first)


def test_variance_scaling_modes_and_distributions():
    expected = {  # VarianceScaling(2.0, mode, dist, seed=3)((2, 3, 4, 5)), first four values
        ("fan_in", "truncated_normal"): [-0.2204, 0.550045, -0.309882, 0.199513],
        ("fan_in", "untruncated_normal"): [-0.19387, 0.483834, -0.27258, 0.175497],
        ("fan_in", "uniform"): [-0.304087, 0.439345, 0.032275, 0.341041],
        ("fan_out", "truncated_normal"): [-0.197132, 0.491976, -0.277167, 0.17845],
        ("fan_out", "untruncated_normal"): [-0.173402, 0.432754, -0.243803, 0.156969],
        ("fan_out", "uniform"): [-0.271984, 0.392962, 0.028868, 0.305037],
        ("fan_avg", "truncated_normal"): [-0.207795, 0.518588, -0.29216, 0.188103],
        ("fan_avg", "untruncated_normal"): [-0.182782, 0.456163, -0.256991, 0.16546],
        ("fan_avg", "uniform"): [-0.286696, 0.414219, 0.030429, 0.321537],
    }
    for (mode, dist), values in expected.items():
        init = K.initializers.VarianceScaling(2.0, mode, dist, seed=3)
        close(init((2, 3, 4, 5)).numpy().ravel()[:4], values)
    normal = K.initializers.VarianceScaling(2.0, "fan_in", "normal", seed=3)
    assert normal.distribution == "truncated_normal"
    with pytest.raises(ValueError, match="Invalid `distribution`"):
        K.initializers.VarianceScaling(distribution="gamma")
    with pytest.raises(ValueError, match="must be positive"):
        K.initializers.VarianceScaling(scale=0.0)
    assert K.initializers.VarianceScaling().get_config() == {
        "seed": None, "scale": 1.0, "mode": "fan_in", "distribution": "truncated_normal",
        "input_axes": None, "output_axes": None}


def test_orthogonal_identity_constant():
    close(K.initializers.Orthogonal(seed=1, gain=2.0)((4, 2, 3)).numpy().ravel()[:6],
          [0.082208, -0.376054, 0.05003, -0.512035, 0.190404, -0.461374])
    close(K.initializers.Orthogonal(seed=1)((2, 5)),
          [[0.044862, 0.22358, 0.201306, -0.511094, -0.803901],
           [-0.283894, -0.307312, -0.838849, -0.333878, -0.099102]], atol=5e-6)
    with pytest.raises(ValueError, match="at least two-dimensional"):
        K.initializers.Orthogonal()((3,))
    close(K.initializers.Identity(2.0)((2, 3)), [[2, 0, 0], [0, 2, 0]])
    c = K.initializers.Constant(3)((2,))
    assert c.dtype == tf.float32
    close(c, [3, 3])


def test_int_seeds_wrap_as_keras_does_and_dtypes():
    # [seed, 0] as int64, floormod(2**31 - 2), cast to int32
    close(K.initializers.GlorotUniform(seed=2**31 + 5)((2, 2)),
          [[0.605217, 0.421754], [-1.083215, 0.353249]])
    close(K.initializers.GlorotUniform(seed=-3)((2, 2)),
          [[-0.402391, 0.577434], [1.010704, 0.086103]])
    f64 = K.initializers.RandomNormal(seed=1)((2,), dtype="float64")
    assert f64.dtype == tf.float64
    close(f64, [-0.126604, 0.043196])
    with pytest.raises(ValueError, match="should be an instance of"):
        K.initializers.RandomNormal(seed="a")


def test_unseeded_initializers_take_their_seed_from_python_random_at_construction():
    random.seed(0)
    g = K.initializers.GlorotUniform()  # consumes one randint
    assert random.random() == pytest.approx(0.3852453064766108)
    expected = [[0.038419, -0.467701], [0.830143, -0.963625]]
    close(g((2, 2)), expected)
    close(g((2, 2)), expected)  # the seed was drawn once
    K.utils.set_random_seed(0)
    close(K.initializers.GlorotUniform()((2, 2)), expected)
    close(K.initializers.HeNormal()((2, 2)), [[1.614042, 0.563698], [-1.657282, -0.73737]])


def test_initializer_with_a_seed_generator_draws_anew_and_serializes():
    g = K.random.SeedGenerator(3, name="g")
    init = K.initializers.RandomNormal(seed=g)
    config = init.get_config()
    assert config == {"seed": {"module": "keras.random", "class_name": "SeedGenerator",
                               "config": {"seed": 3, "name": "g"}, "registered_name": None},
                      "mean": 0.0, "stddev": 0.05}
    first = init((2,)).numpy()
    close(first, [-0.03357924, 0.08380252])
    close(init((2,)), [-0.05876512, -0.02520938])
    close(K.initializers.RandomNormal.from_config(config)((2,)), first)


# -- tf.keras.random -------------------------------------------------------------------------

def test_seed_generator_state_and_random_functions():
    g = K.random.SeedGenerator(5)
    assert g.state.name == "seed_generator_state" and g.state.dtype == tf.int64
    assert g.state.path == f"{g.name}/seed_generator_state" and not g.state.trainable
    assert g.next().numpy().tolist() == [5, 0] and g.state.numpy().tolist() == [5, 1]
    assert K.random.SeedGenerator(3).get_config()["seed"] == 3
    with pytest.raises(ValueError, match="must be an integer"):
        K.random.SeedGenerator(1.5)
    g = K.random.SeedGenerator(42)
    close(K.random.normal((3,), seed=g), [0.0158, -1.5901, 0.1036], atol=1e-4)
    close(K.random.normal((3,), seed=g), [1.1292, 0.047, 0.9594], atol=1e-4)
    close(K.random.uniform((3,), seed=5), [0.0619, 0.8317, 0.9736], atol=1e-4)
    close(K.random.uniform((2,), minval=2, maxval=4, seed=g), [3.9254, 2.0304], atol=1e-4)
    close(K.random.truncated_normal((3,), seed=5, stddev=2.0), [2.3164, 0.3832, -0.2596],
          atol=1e-4)
    assert K.random.randint((4,), 0, 10, seed=5).numpy().tolist() == [3, 0, 7, 9]
    assert K.random.shuffle(np.arange(6), seed=5).numpy().tolist() == [0, 3, 5, 4, 1, 2]
    close(K.random.dropout(X, 0.5, seed=5), [[0, 4, 6, 0], [10, 0, 0, 16], [18, 20, 22, 24]])
    with pytest.raises(ValueError, match="must be either an integer"):
        K.random.normal((2,), seed="a")


def test_unseeded_draws_use_the_global_generator_reset_by_set_random_seed():
    K.utils.set_random_seed(7)
    close(K.random.normal((2,)), [-1.5028, -0.1911], atol=1e-4)
    close(K.random.normal((2,)), [-0.1349, -0.0373], atol=1e-4)
    close(L.Dropout(0.5)(X, training=True), [[2, 4, 0, 8], [10, 0, 0, 0], [18, 20, 0, 0]])


def test_stateless_dropout_is_the_same_staged():
    f = tf.function(lambda x: K.random.dropout(x, 0.5, seed=5))
    close(f(X), K.random.dropout(X, 0.5, seed=5))


# -- regularization layers -----------------------------------------------------------------

def test_seeded_dropout_gives_tensorflows_masks_eagerly_and_in_a_function():
    d = L.Dropout(0.5, seed=1)
    close(d(X, training=True), [[2, 0, 6, 0], [0, 0, 0, 16], [0, 20, 0, 0]])
    close(d(X, training=True), [[0, 0, 0, 0], [0, 0, 14, 16], [18, 0, 0, 0]])
    assert d.seed_generator.state.numpy().tolist() == [1, 2]
    f = tf.function(lambda t: d(t, training=True))
    close(f(X), [[2, 0, 6, 0], [0, 12, 0, 0], [0, 0, 0, 0]])
    close(f(X), [[2, 0, 6, 0], [0, 0, 0, 0], [18, 0, 22, 0]])
    assert d.seed_generator.state.numpy().tolist() == [1, 4]
    close(d(X), X)  # inference: unchanged, no draw
    assert d.seed_generator.state.numpy().tolist() == [1, 4]
    close(L.Dropout(0.3, noise_shape=(None, 1), seed=2)(X, training=True), X / 0.7)
    assert not hasattr(L.Dropout(0.0), "seed_generator")


def test_noise_layers():
    close(L.GaussianNoise(0.5, seed=3)(X, training=True),
          [[0.6642, 2.838, 2.5279, 4.304], [5.6264, 6.6762, 7.2242, 8.7969],
           [8.4381, 10.1114, 11.0137, 11.4589]], atol=1e-4)
    close(L.GaussianDropout(0.4, seed=3)(X, training=True),
          [[0.4517, 4.737, 0.6871, 5.9855], [10.1145, 12.6256, 9.5627, 18.4108],
           [0.7422, 11.8196, 11.2454, 1.3966]], atol=1e-4)
    close(core.AlphaDropout(0.4, seed=3)(X, training=True),
          [[-0.9106, 2.3337, 3.1969, 4.0602], [-0.9106, -0.9106, -0.9106, -0.9106],
           [8.3766, 9.2399, 10.1032, 10.9665]], atol=1e-4)


def test_spatial_dropout_drops_whole_channels():
    x3 = np.arange(1, 25, dtype=np.float32).reshape(2, 3, 4)
    close(core.SpatialDropout1D(0.5, seed=4)(x3, training=True),
          [[[2, 4, 0, 8], [10, 12, 0, 16], [18, 20, 0, 24]],
           [[26, 0, 30, 0], [34, 0, 38, 0], [42, 0, 46, 0]]])
    x4 = np.arange(1, 17, dtype=np.float32).reshape(2, 2, 2, 2)
    close(core.SpatialDropout2D(0.5, seed=4)(x4, training=True).numpy().ravel(),
          [2, 4, 6, 8, 10, 12, 14, 16, 0, 20, 0, 24, 0, 28, 0, 32])
    close(core.SpatialDropout3D(0.5, seed=4)(x4[..., None], training=True).numpy().ravel(),
          np.arange(2, 33, 2))
    with pytest.raises(ValueError, match="expected ndim=3"):
        core.SpatialDropout1D(0.5)(x4, training=True)


# -- names ----------------------------------------------------------------------------------

def test_layer_auto_names_are_keras_snake_case():
    from runtime.keras.layers.base import snake_case
    cases = {"Conv1D": "conv1d", "Conv2D": "conv2d", "Conv3D": "conv3d", "LSTM": "lstm",
             "GRU": "gru", "SimpleRNN": "simple_rnn", "MultiHeadAttention":
             "multi_head_attention", "LayerNormalization": "layer_normalization",
             "Conv2DTranspose": "conv2d_transpose", "GlobalAveragePooling2D":
             "global_average_pooling2d", "MaxPooling2D": "max_pooling2d", "ReLU": "re_lu",
             "PReLU": "p_re_lu", "ELU": "elu", "LeakyReLU": "leaky_re_lu", "UpSampling2D":
             "up_sampling2d", "ZeroPadding2D": "zero_padding2d", "LSTMCell": "lstm_cell",
             "EinsumDense": "einsum_dense", "BatchNormalization": "batch_normalization",
             "MyModel": "my_model", "SpatialDropout1D": "spatial_dropout1d"}
    assert {k: snake_case(k) for k in cases} == cases
    assert L.Conv2D(2, 3).name.startswith("conv2d")

    class MyModel(K.Model):
        def call(self, x):
            return x
    assert MyModel().name.startswith("my_model")


def test_weights_have_keras_names_paths_and_reprs():
    class MyModel(K.Model):
        def __init__(self):
            super().__init__()
            self.d = L.Dense(3)

        def call(self, x):
            return self.d(x)
    m = MyModel()
    m(np.ones((2, 2), np.float32))
    v = m.d.kernel
    assert v.name == "kernel" and v.path == f"{m.name}/{m.d.name}/kernel"
    assert [w.path for w in m.weights] == [f"{m.name}/{m.d.name}/kernel",
                                           f"{m.name}/{m.d.name}/bias"]
    text = repr(v)
    assert text.startswith(f"<Variable path={v.path}, shape=(2, 3), dtype=float32, value=[[")
    assert str(v) == text
    with tf.name_scope("outer"):  # TensorFlow's name scopes are not part of a Keras path
        d = L.Dense(1)
        d(np.ones((1, 1), np.float32))
    assert d.kernel.path == f"{d.name}/kernel"
    d = L.Dense(2)
    assert d.path is None  # known once built
    d.build((None, 3))
    assert d.kernel.path == d.path + "/kernel" and d.path == d.name
    assert m.d.path == f"{m.name}/{m.d.name}" and m.path == m.name


def test_variables_order_and_seed_generator_states():
    class C(L.Layer):
        def __init__(self):
            super().__init__()
            self.g = K.random.SeedGenerator(1)
            self.inner = L.Dense(2)

        def build(self, shape):
            self.a = self.add_weight(shape=(1,), trainable=False, name="a")
            self.b = self.add_weight(shape=(1,), name="b")

        def call(self, x):
            return self.inner(x)
    c = C()
    c(np.ones((1, 2), np.float32))
    n, i, g = c.name, c.inner.name, c.g.name
    # trainable weights first, then the others; seed states after the layer's own weights
    assert [v.path for v in c.weights] == [f"{n}/b", f"{n}/a", f"{n}/{i}/kernel",
                                           f"{n}/{i}/bias"]
    assert [v.path for v in c.variables] == [f"{n}/b", f"{n}/a", f"{g}/seed_generator_state",
                                             f"{n}/{i}/kernel", f"{n}/{i}/bias"]
    assert [v.path for v in c.non_trainable_variables] == [f"{n}/a",
                                                           f"{g}/seed_generator_state"]
    assert [v.path for v in c.non_trainable_weights] == [f"{n}/a"]

    class Unnamed(L.Layer):
        def build(self, shape):
            self.w = self.add_weight(shape=(2,))
    first, second = Unnamed(), Unnamed()
    first.build(None)
    second.build(None)
    assert first.w.name.startswith("variable") and first.w.name != second.w.name


def test_seeded_training_loop_prints_tensorflows_losses():
    K.utils.set_random_seed(0)
    x = np.random.normal(size=(64, 8, 8, 1)).astype(np.float32)
    y = np.random.randint(0, 3, size=(64,)).astype(np.int64)
    model = K.Sequential([L.Conv2D(4, 3, activation="relu"), L.MaxPooling2D(),
                          L.BatchNormalization(), L.Flatten(), L.Dense(16, activation="relu"),
                          L.Dropout(0.3, seed=1), L.Dense(3)])
    loss_fn = K.losses.SparseCategoricalCrossentropy(from_logits=True)
    opt = K.optimizers.Adam(1e-2)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    losses = [float(step(x[i:i + 16], y[i:i + 16])) for _ in range(2) for i in range(0, 64, 16)]
    close(losses, [1.4537, 1.6927, 1.5176, 1.3916, 0.8825, 1.1744, 1.395, 1.2245], atol=1e-4)
    assert model.name.startswith("sequential")
    assert [v.name for v in model.trainable_variables] == [
        "kernel", "bias", "gamma", "beta", "kernel", "bias", "kernel", "bias"]
    assert [v.path.split("/", 1)[1] for v in model.non_trainable_variables[:2]] == [
        f"{model.layers[2].name}/moving_mean", f"{model.layers[2].name}/moving_variance"]
    assert model.layers[5].seed_generator.state.numpy().tolist() == [1, 8]


def test_spatial_dropout_channels_first():
    # recorded from TensorFlow: SpatialDropout2D(0.5, "channels_first", seed=4) on 2x2x2x2
    x4 = np.arange(1, 17, dtype=np.float32).reshape(2, 2, 2, 2)
    layer = core.SpatialDropout2D(0.5, data_format="channels_first", seed=4)
    close(layer(x4, training=True).numpy().ravel(),
          [2, 4, 6, 8, 10, 12, 14, 16, 0, 0, 0, 0, 26, 28, 30, 32])
    assert layer.get_config()["data_format"] == "channels_first"
    with pytest.raises(ValueError, match="data_format"):
        core.SpatialDropout2D(0.5, data_format="nhwc")


def test_attention_layers_draw_tensorflow_s_weights_and_masks():
    # Recorded from TensorFlow 2.21 / Keras 3: MultiHeadAttention clones its initializers per
    # projection (each unseeded clone draws a seed), EinsumDense measures VarianceScaling fans
    # over the equation's axes, and the dropout masks come from the layers' SeedGenerators.
    tf.keras.utils.set_random_seed(3)
    x = np.random.default_rng(0).normal(size=(2, 4, 6)).astype(np.float32)
    mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3, dropout=0.25, name="mha")
    out, _ = mha(x, x, return_attention_scores=True)
    np.testing.assert_allclose(out.numpy()[0, 0], [0.5262, 0.2842, 0.1826, -0.8061, 0.0117,
                                                   0.7495], atol=1e-4)
    np.testing.assert_allclose(mha(x, x, training=True).numpy()[0, 0],
                               [0.367, -0.0588, -0.3373, -0.5743, 0.2721, 0.6813], atol=1e-4)
    paths = [v.path for v in mha.variables]  # (generators are numbered process-wide)
    paths[6] = re.sub(r"seed_generator_\d+/", "seed_generator/", paths[6])
    assert paths == [
        "mha/query/kernel", "mha/query/bias", "mha/key/kernel", "mha/key/bias",
        "mha/value/kernel", "mha/value/bias", "mha/seed_generator/seed_generator_state",
        "mha/attention_output/kernel", "mha/attention_output/bias"]
    att = tf.keras.layers.Attention(use_scale=True, dropout=0.5)
    np.testing.assert_allclose(att([x, x], training=True).numpy()[0, 0],
                               [0.5302, 0.1787, 0.3682, -0.3049, -0.6928, 0.3472], atol=1e-4)
    dense = tf.keras.layers.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c")
    np.testing.assert_allclose(dense(x[0]).numpy()[0], [0.64, -0.2711, 0.5328, -0.5787],
                               atol=1e-4)


def test_a_model_builds_by_running_its_call_symbolically_as_keras_does(capsys):
    # Recorded from TensorFlow 2.21 / Keras 3: a model without a build of its own runs its
    # call once on symbolic inputs to make its sublayers' weights. A tf.function call traces
    # there, once per training value, without retracing for the weights; a Function already
    # tracing around the first call does retrace for them.
    class Traced(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense1 = tf.keras.layers.Dense(4)

        @tf.function
        def call(self, inputs, training=True):
            print("tracing call", training)
            return self.dense1(inputs)

    model, x = Traced(), tf.ones((2, 3))
    model(x, training=True), model(x, training=False), model(x, training=True)
    assert model.call.experimental_get_tracing_count() == 2
    assert len(model.trainable_variables) == 2 and model.dense1.built

    class Plain(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense1 = tf.keras.layers.Dense(4)

        def call(self, inputs, training=False):
            print("plain call", training)
            return self.dense1(inputs)

    plain = Plain()

    @tf.function
    def step(x):
        print("trace step")
        return plain(x, training=True)
    step(x), step(x)
    assert step.experimental_get_tracing_count() == 2
    assert capsys.readouterr().out == (
        "tracing call True\ntracing call False\n"
        "trace step\nplain call True\nplain call True\ntrace step\nplain call True\n")


def test_a_learning_rate_set_after_tracing_is_used_as_in_keras_3():
    # TensorFlow 2.21 / Keras 3 prints 0.9, 0.39999998, 0.14999998 and traces once: the rate
    # is a Variable the traced step reads. Ours baked 0.1 into the trace (0.8, 0.7 after).
    v = tf.Variable(1.0)
    opt = tf.keras.optimizers.SGD(0.1)

    @tf.function
    def step():
        opt.apply_gradients([(tf.constant(1.0), v)])
    step()
    opt.learning_rate = 0.5
    step()
    opt.learning_rate.assign(0.25)
    step()
    np.testing.assert_allclose(v.numpy(), 0.14999998, rtol=1e-7)
    assert step.experimental_get_tracing_count() == 1


def test_optimizer_state_has_keras_3_names_and_paths():
    model = tf.keras.Sequential([tf.keras.layers.Dense(2, name="dense")], name="sequential")
    model.build((None, 3))
    opt = tf.keras.optimizers.Adam(name="adam")
    opt.apply_gradients(zip([tf.ones_like(v) for v in model.trainable_variables],
                            model.trainable_variables))
    assert [(v.name, v.path) for v in opt.variables] == [
        ("iteration", "adam/iteration"), ("learning_rate", "adam/learning_rate"),
        ("sequential_dense_kernel_momentum", "adam/sequential_dense_kernel_momentum"),
        ("sequential_dense_kernel_velocity", "adam/sequential_dense_kernel_velocity"),
        ("sequential_dense_bias_momentum", "adam/sequential_dense_bias_momentum"),
        ("sequential_dense_bias_velocity", "adam/sequential_dense_bias_velocity")]
    assert float(opt.learning_rate) == np.float32(0.001)


def test_metric_state_has_keras_3_names_and_paths():
    # TensorFlow 2.21 / Keras 3: [('total', 'mean/total'), ('count', 'mean/count')]
    mean = tf.keras.metrics.Mean(name="mean")
    mean.update_state(1.0)
    assert [(v.name, v.path) for v in mean.variables] == [("total", "mean/total"),
                                                         ("count", "mean/count")]


def test_global_average_pooling_1d_takes_a_mask_as_keras_does():
    # TensorFlow 2.21 / Keras 3: the mean over the steps the mask keeps (ours refused `mask`).
    x = tf.constant(np.arange(24, dtype=np.float32).reshape(2, 4, 3))
    mask = tf.constant([[True, True, False, False], [True, False, True, True]])
    pool = tf.keras.layers.GlobalAveragePooling1D()
    np.testing.assert_array_equal(pool(x, mask=mask).numpy(),
                                  [[1.5, 2.5, 3.5], [17.0, 18.0, 19.0]])
    np.testing.assert_array_equal(pool(x).numpy(), [[4.5, 5.5, 6.5], [16.5, 17.5, 18.5]])
    kept = tf.keras.layers.GlobalAveragePooling1D(keepdims=True)(x, mask=mask)
    assert kept.shape == (2, 1, 3)


def test_embedding_masks_flow_through_a_model_as_in_keras_3():
    # TensorFlow 2.21 / Keras 3 values: Embedding(mask_zero=True) masks the padding ids, the
    # mask passes Dropout and Dense, and GlobalAveragePooling1D averages the kept steps, in a
    # Sequential and in a subclassed model. A layer that cannot use a mask drops it with
    # Keras's warning.
    tf.keras.utils.set_random_seed(3)
    ids = tf.constant([[3, 1, 0, 0], [2, 4, 5, 0]])
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(6, 4, mask_zero=True), tf.keras.layers.Dropout(0.2),
        tf.keras.layers.Dense(3, activation="relu"), tf.keras.layers.GlobalAveragePooling1D(),
        tf.keras.layers.Dense(1)])
    np.testing.assert_allclose(model(ids).numpy(), EXPECTED_MASKED_MODEL, atol=1e-5)
    assert model.layers[0].compute_mask(ids).numpy().tolist() == [
        [True, True, False, False], [True, True, True, False]]
    opt = tf.keras.optimizers.Adam(0.1)

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True)[:, 0] - y) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss
    losses = [float(step(ids, tf.constant([1.0, -1.0]))) for _ in range(4)]
    np.testing.assert_allclose(losses, EXPECTED_MASKED_LOSSES, atol=1e-5)
    with pytest.warns(UserWarning, match="does not support masking"):  # (Keras drops it)
        tf.keras.Sequential([tf.keras.layers.Embedding(6, 4, mask_zero=True),
                             tf.keras.layers.Flatten()])(ids)


EXPECTED_MASKED_MODEL = [[-0.023800000548362732], [-0.014659999869763851]]
EXPECTED_MASKED_LOSSES = [1.01352, 0.99803, 0.7972, 0.62885]


def test_masks_pass_normalization_and_activations_and_reach_attention_as_in_keras_3():
    # TensorFlow 2.21 / Keras 3 values. LayerNormalization and ReLU pass the mask on;
    # Attention gets [query mask, value mask] and zeroes masked queries with +0 (ours gave
    # -0.); a merge of masked inputs combines their masks (logical or, as Keras 3).
    tf.keras.utils.set_random_seed(5)
    ids = tf.constant([[3, 1, 0, 0], [2, 4, 5, 0]])
    model = tf.keras.Sequential([
        tf.keras.layers.Embedding(6, 4, mask_zero=True), tf.keras.layers.LayerNormalization(),
        tf.keras.layers.ReLU(), tf.keras.layers.GlobalAveragePooling1D()])
    np.testing.assert_allclose(model(ids).numpy(), EXPECTED_NORMALIZED_POOL, atol=1e-5)
    x = tf.keras.layers.Embedding(6, 4, mask_zero=True)(ids)
    attended = tf.keras.layers.Attention()([x, x]).numpy()[0]
    np.testing.assert_allclose(attended, EXPECTED_ATTENTION_ROW, atol=1e-5)
    assert not np.signbit(attended[2:]).any()
    from runtime.keras.layers.base import get_keras_mask
    assert get_keras_mask(tf.keras.layers.Add()([x, x])).numpy().tolist() == [
        [True, True, False, False], [True, True, True, False]]


EXPECTED_NORMALIZED_POOL = [[0.2901799976825714, 0.048009999096393585, 0.01128000020980835, 0.32528001070022583], [0.181209996342659, 0.1792300045490265, 0.4776400029659271, 0.4106000065803528]]
EXPECTED_ATTENTION_ROW = [[-0.015799999237060547, 0.035179998725652695, -0.010730000212788582, 0.02070000022649765], [-0.015720000490546227, 0.03516000136733055, -0.010900000110268593, 0.02078999951481819], [0.0, 0.0, 0.0, 0.0], [0.0, 0.0, 0.0, 0.0]]
