"""tf.keras: layers, models, initializers, activations, losses, metrics.

Expected values were recorded from TensorFlow 2.21 / Keras 3.15 (the side venv)
for the same weights and inputs, and are written here as literals.
"""
import numpy as np
import pytest

import autograph as tf
from tests.staging import assert_same

K = tf.keras

X = (np.arange(12, dtype=np.float32).reshape(3, 4) - 5) / 4
IMG = (np.arange(2 * 5 * 5 * 2, dtype=np.float32).reshape(2, 5, 5, 2) % 7 - 3) / 3
YT = np.array([[0., 1.], [1., 1.], [0., 0.]], np.float32)
YP = np.array([[0.2, 0.7], [0.9, 0.4], [0.1, 0.3]], np.float32)
LOGITS = np.array([[-1.5, 2.0], [0.5, -0.3], [1.2, -2.2]], np.float32)
SW = np.array([1., 0.5, 2.], np.float32)
CT = np.array([[0., 1., 0.], [1., 0., 0.]], np.float32)
CP = np.array([[0.2, 0.5, 0.3], [0.6, 0.3, 0.1]], np.float32)
CL = np.array([[1., 2., 0.5], [3., -1., 0.]], np.float32)
ST = np.array([1, 0], np.int32)


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b, dtype=np.float64), rtol=tol,
                               atol=tol)


def dense_3_relu():
    d = K.layers.Dense(3, activation="relu")
    d.build((None, 4))
    d.set_weights([np.linspace(-1, 1, 12, dtype=np.float32).reshape(4, 3),
                   np.array([0.1, -0.2, 0.3], np.float32)])
    return d


# -- layers ------------------------------------------------------------------------------

def test_dense_matches_tensorflow_eager_and_staged():
    d = dense_3_relu()
    expected = [[1.4181818, 0.4818181, 0.3454545], [0.6909091, 0.4818182, 1.0727272],
                [0.0, 0.4818183, 1.8]]
    close(d(X), expected)
    close(tf.function(lambda x: d(x))(tf.constant(X)), expected)
    x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 10
    close(d(x3), [[[0.2636364, 0.0727273, 0.6818182], [0.0, 0.0727272, 0.9727273],
                   [0.0, 0.0727273, 1.2636364]],
                  [[0.0, 0.0727272, 1.5545454], [0.0, 0.0727272, 1.8454545],
                   [0.0, 0.0727272, 2.1363635]]])
    # Keras 3: a weight's name is its own, its path says where it lives.
    assert [v.name for v in d.weights] == ["kernel", "bias"]
    assert [v.path for v in d.weights] == [f"{d.name}/kernel", f"{d.name}/bias"]


def test_dense_builds_on_first_call_and_casts_inputs():
    d = K.layers.Dense(2, kernel_initializer="ones", bias_initializer=K.initializers.Constant(.5))
    assert not d.built and d.weights == []
    y = d(np.ones((1, 3)))  # float64 input is cast to the layer's float32
    assert d.built and y.dtype == tf.float32
    close(y, [[3.5, 3.5]])
    assert d(tf.constant([[1, 2, 3]])).dtype == tf.float32
    cfg = d.get_config()
    assert cfg["units"] == 2 and cfg["activation"] == "linear" and cfg["use_bias"]
    assert cfg["kernel_initializer"]["class_name"] == "Ones"
    with pytest.raises(ValueError, match="Unrecognized keyword arguments passed to Dense"):
        K.layers.Dense(2, foo=1)
    with pytest.raises(ValueError, match="last dimension of the inputs to a Dense layer"):
        K.layers.Dense(2).build((None, None))


def test_layer_names_are_unique_per_class():
    a, b = K.layers.Flatten(), K.layers.Flatten()
    assert a.name.startswith("flatten") and b.name != a.name
    assert K.layers.Dense(1, name="out").name == "out"


def test_batch_normalization_training_and_inference_match_tensorflow():
    bn = K.layers.BatchNormalization()
    bn.build((None, 4))
    bn.set_weights([np.array([1., 2., 0.5, 1.], np.float32),
                    np.array([0., 0.1, -0.1, 0.2], np.float32),
                    np.zeros(4, np.float32), np.ones(4, np.float32)])
    assert [v.name for v in bn.trainable_weights] == ["gamma", "beta"]
    assert [v.name for v in bn.non_trainable_weights] == ["moving_mean", "moving_variance"]
    close(bn(X, training=True), [[-1.2238274, -2.3476548, -0.7119137, -1.0238273],
                                 [0.0, 0.1, -0.1, 0.2],
                                 [1.2238274, 2.5476546, 0.5119137, 1.4238274]])
    close(bn.moving_mean, [-0.0025, 0.0, 0.0025, 0.005])
    close(bn.moving_variance, [0.99666667] * 4)
    inference = [[-1.248958, -1.9023374, -0.4766897, -0.3055902],
                 [-0.2477893, 0.1, 0.0238946, 0.6955785],
                 [0.7533795, 2.1023374, 0.524479, 1.6967473]]
    close(bn(X, training=False), inference)
    close(bn(X), inference)  # training defaults to False


def test_batch_normalization_in_a_function_updates_moving_stats():
    bn = K.layers.BatchNormalization(momentum=0.5)

    @tf.function
    def step(x, training):
        return bn(x, training=training)

    step(tf.constant(X), True)
    step(tf.constant(X), True)
    close(bn.moving_mean, np.mean(X, axis=0) * 0.75)
    before = bn.moving_mean.numpy()
    step(tf.constant(X), False)
    close(bn.moving_mean, before)
    bn.trainable = False  # a frozen layer runs in inference mode even when training
    bn(X, training=True)  # (eagerly: the traced step read the flag when it was traced)
    close(bn.moving_mean, before)
    assert bn.trainable_weights == [] and len(bn.non_trainable_weights) == 4


def test_dropout_only_when_training():
    layer = K.layers.Dropout(0.5)
    close(layer(X), X)
    close(layer(X, training=False), X)
    y = layer(tf.ones([200, 10]), training=True).numpy()
    assert set(np.unique(y)) <= {0.0, 2.0} and 0.3 < (y == 0).mean() < 0.7
    with pytest.raises(ValueError, match="rate"):
        K.layers.Dropout(1.5)


def test_conv2d_and_pooling_match_tensorflow():
    c = K.layers.Conv2D(3, 3, padding="same", activation="tanh")
    c.build((None, 5, 5, 2))
    c.set_weights([np.linspace(-0.5, 0.5, 54, dtype=np.float32).reshape(3, 3, 2, 3),
                   np.array([0.0, 0.1, -0.1], np.float32)])
    out = c(IMG)
    assert out.shape == (2, 5, 5, 3)
    close(out.numpy()[0, :2, :2], [[[0.700318, 0.747791, 0.645721],
                                    [0.252294, 0.332186, 0.131931]],
                                   [[0.368592, 0.436521, 0.244032],
                                    [0.264034, 0.332186, 0.119551]]])
    c2 = K.layers.Conv2D(2, (2, 3), strides=2)
    c2.build((None, 5, 5, 2))
    c2.set_weights([np.linspace(-1, 1, 24, dtype=np.float32).reshape(2, 3, 2, 2),
                    np.zeros(2, np.float32)])
    close(c2(IMG), [[[[1.130435, 1.072464], [-0.275362, -0.362319]],
                     [[0.695652, 0.695652], [-1.115942, -1.144928]]],
                    [[[-0.362319, -0.275362], [1.072464, 1.130435]],
                     [[1.130435, 1.072464], [-0.275362, -0.362319]]]])
    close(K.layers.MaxPooling2D()(IMG), [[[[2 / 3, 1.], [1., 2 / 3]], [[1., 2 / 3], [1., 1.]]],
                                         [[[1., 2 / 3], [2 / 3, 1.]], [[2 / 3, 1.], [1., 2 / 3]]]])
    assert K.layers.MaxPooling2D(3, strides=1, padding="same")(IMG).shape == (2, 5, 5, 2)
    assert [w.shape.as_list() for w in c.weights] == [[3, 3, 2, 3], [3]]


def test_flatten_and_embedding():
    assert K.layers.Flatten()(IMG).shape == (2, 50)
    assert K.layers.Flatten()(np.ones((3,), np.float32)).shape == (3, 1)
    flat = tf.function(lambda x: K.layers.Flatten()(x)).get_concrete_function(
        tf.TensorSpec([None, 5, 5, 2]))
    assert flat.structured_outputs.shape.as_list() == [None, 50]
    e = K.layers.Embedding(5, 2)
    e.build(None)
    e.set_weights([np.arange(10, dtype=np.float32).reshape(5, 2)])
    close(e(np.array([[0, 4], [2, 2]])), [[[0., 1.], [8., 9.]], [[4., 5.], [4., 5.]]])
    close(e(np.array([1., 3.])), [[2., 3.], [6., 7.]])  # float ids are cast to int32


def test_custom_layer_add_weight_and_training_argument():
    class Scale(K.layers.Layer):
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
            self.steps = self.add_weight(shape=(), dtype="int32", trainable=False, name="n")

        def call(self, x, training=None):
            return x * self.w * (2.0 if training else 1.0)

    class Outer(K.layers.Layer):
        def __init__(self):
            super().__init__()
            self.inner = Scale()

        def call(self, x):
            return self.inner(x)  # inherits the outer call's training value

    layer = Outer()
    close(layer(np.ones((1, 2), np.float32), training=True), [[2., 2.]])
    close(layer(np.ones((1, 2), np.float32)), [[1., 1.]])
    assert [v.path for v in layer.trainable_weights] == [f"{layer.name}/{layer.inner.name}/w"]
    assert layer.non_trainable_weights[0].dtype == tf.int32
    assert len(layer.weights) == 2 and len(layer.variables) == 2
    layer.trainable = False
    assert layer.trainable_variables == [] and len(layer.non_trainable_weights) == 2


# -- models ------------------------------------------------------------------------------

def test_sequential_builds_from_input_and_tracks_weights():
    m = K.Sequential([K.Input(shape=(4,)), K.layers.Dense(2), K.layers.BatchNormalization()])
    assert m.built and len(m.weights) == 6 and len(m.trainable_weights) == 4
    assert [type(l).__name__ for l in m.layers] == ["Dense", "BatchNormalization"]
    m2 = K.Sequential()
    m2.add(K.layers.Dense(3, activation="relu", input_shape=(2,)))
    m2.add(K.layers.Dense(1))
    assert m2.built and m2.count_params() == 13
    lazy = K.Sequential([K.layers.Dense(3), K.layers.Dense(1)])
    assert not lazy.weights
    assert lazy(np.ones((5, 7), np.float32)).shape == (5, 1)
    assert lazy.layers[0].kernel.shape == (7, 3)
    with pytest.raises(ValueError, match="Only instances of `keras.Layer`"):
        K.Sequential([3])


def test_model_summary_prints_layers_and_counts(capsys):
    m = K.Sequential([K.layers.Dense(2, input_shape=(3,)), K.layers.BatchNormalization()])
    m.summary()
    out = capsys.readouterr().out
    assert f"{m.layers[0].name} (Dense)" in out and "(None, 2)" in out
    assert "Total params: 16 (64.00 B)" in out
    assert "Trainable params: 12 (48.00 B)" in out
    assert "Non-trainable params: 4 (16.00 B)" in out


def test_model_build_creates_weights_without_running():
    class Net(K.Model):
        def __init__(self):
            super().__init__()
            self.a = K.layers.Dense(4)
            self.b = K.layers.Dense(1)

        def call(self, x):
            return self.b(self.a(x))

    net = Net()
    net.build((None, 3))
    assert [v.shape.as_list() for v in net.trainable_variables] == [[3, 4], [4], [4, 1], [1]]
    assert net.layers == [net.a, net.b] and net.get_layer(net.b.name) is net.b


def test_training_loops_point_to_gradient_tape():
    m = K.Sequential([K.layers.Dense(1)])
    for method in ("compile", "fit", "evaluate", "predict"):
        with pytest.raises(NotImplementedError, match="GradientTape"):
            getattr(m, method)()
    with pytest.raises(ValueError, match="All `outputs` values must be KerasTensors"):
        K.Model(inputs=K.Input((2,)), outputs=None)


def test_custom_training_loop_matches_tensorflow():
    x = np.linspace(-1, 1, 8, dtype=np.float32).reshape(8, 1)
    y = 3 * x + 1
    d = K.layers.Dense(1)
    d.build((None, 1))
    d.set_weights([np.array([[0.5]], np.float32), np.array([0.], np.float32)])
    opt, loss_fn = K.optimizers.SGD(0.1), K.losses.MeanSquaredError()

    @tf.function
    def step(x, y):
        with tf.GradientTape() as tape:
            loss = loss_fn(y, d(x))
        grads = tape.gradient(loss, d.trainable_variables)
        opt.apply_gradients(zip(grads, d.trainable_variables))
        return loss

    losses = [float(step(x, y)) for _ in range(5)]
    close(losses, [3.6785712, 2.879067, 2.2812772, 1.8267132, 1.4756243])
    close(d.kernel, [[1.4028354]])
    close(d.bias, [0.67232])


# -- initializers and activations ----------------------------------------------------------

def test_initializers_shapes_statistics_and_seeds():
    g = K.initializers.GlorotUniform(seed=1)
    a, b = g((200, 300)), g((200, 300))
    np.testing.assert_array_equal(a, b)  # Keras 3: a seeded initializer repeats its values
    assert np.abs(a.numpy()).max() <= np.sqrt(6 / 500) and a.dtype == tf.float32
    h = K.initializers.HeNormal(seed=2)((400, 300)).numpy()
    assert np.abs(h).max() <= 2 * np.sqrt(2 / 400) / 0.87962566 + 1e-6
    assert abs(h.std() - np.sqrt(2 / 400)) < 0.003
    n = K.initializers.RandomNormal(mean=1.0, stddev=0.5, seed=3)((100, 100)).numpy()
    assert abs(n.mean() - 1.0) < 0.02 and abs(n.std() - 0.5) < 0.02
    u = K.initializers.RandomUniform(-2, 2)((10, 10), dtype="float64")
    assert u.dtype == tf.float64 and np.abs(u.numpy()).max() <= 2
    close(K.initializers.Zeros()((2,)), [0, 0])
    close(K.initializers.Ones()((2,)), [1, 1])
    c = K.initializers.Constant(2.)((2,), dtype="int32")
    assert c.dtype == tf.int32 and c.numpy().tolist() == [2, 2]
    assert isinstance(K.initializers.get("he_normal"), K.initializers.HeNormal)
    assert isinstance(K.initializers.get("GlorotUniform"), K.initializers.GlorotUniform)
    assert K.initializers.GlorotUniform(seed=1).get_config() == {
        "seed": 1, "input_axes": None, "output_axes": None}
    with pytest.raises(ValueError, match="Could not interpret initializer identifier: nope"):
        K.initializers.get("nope")


def test_initializers_follow_keras_set_random_seed():
    # Keras 3 seeds unseeded initializers from Python's random: set_random_seed(5) then
    # Dense(3) built on 2 inputs gives TensorFlow's kernel (recorded from TensorFlow 2.21).
    for _ in range(2):
        K.utils.set_random_seed(5)
        layer = K.layers.Dense(3)
        layer.build((None, 2))
        np.testing.assert_allclose(layer.kernel.numpy(),
                                   [[0.5282925, 0.4615514, -0.2958127],
                                    [0.6544260, 0.9987657, 0.4983927]], rtol=1e-6)
    tf.random.set_seed(None)


def test_activations_match_tensorflow():
    x = np.array([[-3., -0.5, 0., 0.5, 3.]], np.float32)
    expected = {
        "relu": [0.0, 0.0, 0.0, 0.5, 3.0],
        "sigmoid": [0.0474259, 0.3775407, 0.5, 0.6224594, 0.9525741],
        "softmax": [0.0021285, 0.0259306, 0.0427523, 0.0704866, 0.8587021],
        "tanh": [-0.9950547, -0.4621171, 0.0, 0.4621171, 0.9950547],
        "linear": [-3.0, -0.5, 0.0, 0.5, 3.0],
        "gelu": [-0.0040497, -0.1542688, 0.0, 0.3457312, 2.9959502],
        "elu": [-0.9502129, -0.3934693, 0.0, 0.5, 3.0],
        "selu": [-1.6705687, -0.6917582, 0.0, 0.5253505, 3.1521029],
        "softplus": [0.0485874, 0.474077, 0.6931472, 0.974077, 3.0485873],
        "swish": [-0.1422776, -0.1887703, 0.0, 0.3112297, 2.8577223],
        "leaky_relu": [-0.6, -0.1, 0.0, 0.5, 3.0],
    }
    for name, values in expected.items():
        close(K.activations.get(name)(x), [values])
    close(K.activations.gelu(x, approximate=True),
          [[-0.0036374, -0.154286, 0.0, 0.345714, 2.9963627]])
    close(K.activations.relu(x, negative_slope=0.2, max_value=2.), [[-0.6, -0.1, 0., 0.5, 2.]])
    assert K.activations.get(None) is K.activations.linear
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        K.activations.get("nope")
    assert_same(lambda t: K.activations.softmax(t) + K.activations.gelu(t), x)


# -- losses --------------------------------------------------------------------------------

@pytest.mark.parametrize("reduction,plain,weighted", [
    ("sum_over_batch_size", 0.1, 0.0858333),
    ("sum", 0.3, 0.2575),
    ("none", [0.065, 0.185, 0.05], [0.065, 0.0925, 0.1]),
    ("mean_with_sample_weight", 0.1, 0.0735714),
])
def test_mse_reductions_match_tensorflow(reduction, plain, weighted):
    loss = K.losses.MeanSquaredError(reduction=reduction)
    close(loss(YT, YP), plain)
    close(loss(YT, YP, sample_weight=SW), weighted)


def test_losses_match_tensorflow():
    close(K.losses.MeanAbsoluteError()(YT, YP), 0.2666667)
    close(K.losses.mae(YT, YP), [0.25, 0.35, 0.2])
    close(K.losses.mse(YT, YP), [0.065, 0.185, 0.05])
    close(K.losses.BinaryCrossentropy()(YT, YP), 0.3439175)
    close(K.losses.BinaryCrossentropy(from_logits=True)(YT, LOGITS), 0.5375232)
    close(K.losses.binary_crossentropy(YT, YP), [0.2899092, 0.5108256, 0.2310178])
    close(K.losses.BinaryCrossentropy(label_smoothing=0.2)(YT, YP), 0.4617487)
    extremes = np.array([[0., 1.], [1., 0.], [0., 1.]], np.float32)
    close(K.losses.BinaryCrossentropy()(YT, extremes), 5.343413, tol=1e-4)  # clipped to 1e-7
    close(K.losses.CategoricalCrossentropy()(CT, CP), 0.6019864)
    close(K.losses.CategoricalCrossentropy(from_logits=True)(CT, CL), 0.2651263)
    close(K.losses.categorical_crossentropy(CT, CP * 2), [0.6931472, 0.5108256])
    close(K.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)(CT, CL),
          0.4234597)
    close(K.losses.SparseCategoricalCrossentropy()(ST, CP), 0.6019864)
    close(K.losses.SparseCategoricalCrossentropy(from_logits=True)(ST, CL), 0.2651263)
    close(K.losses.sparse_categorical_crossentropy(ST, CL, from_logits=True),
          [0.4643688, 0.0658839])
    close(K.losses.SparseCategoricalCrossentropy(from_logits=True)(ST[:, None], CL), 0.2651263)


def test_loss_objects_config_dtypes_and_errors():
    loss = K.losses.MeanSquaredError()
    assert (loss.name, loss.reduction) == ("mean_squared_error", "sum_over_batch_size")
    assert K.losses.SparseCategoricalCrossentropy().get_config() == {
        "name": "sparse_categorical_crossentropy", "reduction": "sum_over_batch_size",
        "from_logits": False, "ignore_class": None}
    assert loss(np.array([[1, 2]]), np.array([[1., 3.]])).dtype == tf.float32
    assert loss(tf.constant([[1., 2.]], tf.float64),
                tf.constant([[1., 3.]], tf.float64)).dtype == tf.float32
    with pytest.raises(ValueError, match="Invalid value for argument `reduction`"):
        K.losses.MeanSquaredError(reduction="foo")


def test_losses_staged_and_differentiable():
    fns = [K.losses.BinaryCrossentropy(from_logits=True), K.losses.MeanSquaredError()]
    assert_same(lambda p: fns[0](YT, p) + fns[1](YT, p), LOGITS)
    scce = K.losses.SparseCategoricalCrossentropy(from_logits=True)
    logits = tf.Variable(CL)
    with tf.GradientTape() as tape:
        loss = scce(ST, logits)
    grad = tape.gradient(loss, logits).numpy()
    eps, numeric = 1e-3, np.zeros_like(CL)
    for idx in np.ndindex(CL.shape):
        up, down = CL.copy(), CL.copy()
        up[idx] += eps
        down[idx] -= eps
        numeric[idx] = (float(scce(ST, up)) - float(scce(ST, down))) / (2 * eps)
    close(grad, numeric, tol=1e-3)


# -- metrics -------------------------------------------------------------------------------

def test_mean_metric():
    m = K.metrics.Mean()
    m.update_state([1., 2., 3.])
    m.update_state([4.], sample_weight=[2.])
    close(m.result(), 2.8)
    assert m.name == "mean" and [v.name for v in m.variables] == ["total", "count"]  # (Keras 3)
    m.reset_state()
    close(m.result(), 0.0)
    close(m(3.0), 3.0)


def test_accuracy_metrics_match_tensorflow():
    a = K.metrics.Accuracy()
    a.update_state([[1], [2], [3], [4]], [[0], [2], [3], [4]])
    close(a.result(), 0.75)
    b = K.metrics.BinaryAccuracy()
    b.update_state(YT, YP)
    close(b.result(), 0.8333333)
    b.update_state(YT, YP, sample_weight=SW)
    close(b.result(), 0.8846154)
    c = K.metrics.CategoricalAccuracy()
    c.update_state(CT, CP)
    c.update_state(CT, CL)
    close(c.result(), 1.0)
    s = K.metrics.SparseCategoricalAccuracy()
    s.update_state(ST, CP)
    s.update_state([[2], [0]], CL)
    close(s.result(), 0.75)
    assert s.name == "sparse_categorical_accuracy"
    s.reset_state()
    s.update_state(ST, CP, sample_weight=[0.3, 2.])
    close(s.result(), 1.0)


def test_metrics_update_inside_a_function():
    acc = K.metrics.SparseCategoricalAccuracy()

    @tf.function
    def update(labels, logits):
        acc.update_state(labels, logits)
        return acc.result()

    close(update(tf.constant(ST), tf.constant(CP)), 1.0)
    close(update(tf.constant([2, 0]), tf.constant(CL)), 0.75)
    acc.reset_state()
    close(acc.result(), 0.0)


def test_layer_gradients_match_finite_differences():
    kw = {"dtype": "float64", "kernel_initializer": K.initializers.RandomNormal(seed=4)}
    model = K.Sequential([K.layers.Conv2D(2, 2, activation="tanh", **kw),
                          K.layers.MaxPooling2D(dtype="float64"),
                          K.layers.Flatten(dtype="float64"),
                          K.layers.BatchNormalization(dtype="float64"),
                          K.layers.Dense(3, **kw)])
    images = IMG[:, :4, :4].astype(np.float64)
    labels = np.array([0, 2])
    loss_fn = K.losses.SparseCategoricalCrossentropy(from_logits=True, dtype="float64")
    loss = lambda: loss_fn(labels, model(images, training=True))  # noqa: E731
    with tf.GradientTape() as tape:
        value = loss()
    grads = tape.gradient(value, model.trainable_variables)
    assert len(grads) == 6 and value.dtype == tf.float64
    for var, grad in zip(model.trainable_variables, grads):
        base, numeric = var.numpy(), np.zeros(var.shape.as_list())
        for idx in np.ndindex(*base.shape):
            for sign in (1, -1):
                bumped = base.copy()
                bumped[idx] += sign * 1e-6
                var.assign(bumped)
                numeric[idx] += sign * float(loss()) / 2e-6
        var.assign(base)
        close(grad, numeric, tol=1e-5)


def test_average_pooling_activation_and_channel_axis_match_tensorflow():
    avg = K.layers.AveragePooling2D(3, strides=2, padding="same")(IMG)
    close(avg.numpy()[0], [[[-0.166667, 0.166667], [0.055556, 0.0], [0.083333, -0.166667]],
                           [[0.166667, 0.111111], [0.0, 0.074074], [-0.166667, 0.166667]],
                           [[-0.083333, 0.25], [-0.055556, -0.111111], [0.166667, -0.083333]]])
    close(K.layers.Activation("softmax")(np.array([[1., 2., 3.]], np.float32)),
          [[0.0900306, 0.2447285, 0.6652409]])
    bn = K.layers.BatchNormalization(axis=1)
    out = bn(np.arange(24, dtype=np.float32).reshape(2, 3, 4), training=True)
    close(out.numpy()[0], [[-1.2288314, -1.0649872, -0.9011431, -0.7372988]] * 3)
    close(bn.moving_mean, [0.075, 0.115, 0.155])
    close(bn.moving_variance, [1.3625] * 3)


def test_layer_normalization_reshape_global_pooling_match_tensorflow():
    ln = K.layers.LayerNormalization()
    ln.build((None, 4))
    ln.set_weights([np.array([1., 2., 0.5, 1.], np.float32),
                    np.array([0., 0.1, -0.1, 0.2], np.float32)])
    close(ln(X), [[-1.3331358, -0.7887573, 0.1221893, 1.5331359]] * 3)
    x3 = np.arange(24, dtype=np.float32).reshape(2, 3, 4) ** 1.5 / 10
    ln2 = K.layers.LayerNormalization(axis=[1, 2], epsilon=0.1)
    close(ln2(x3).numpy()[1], [[-1.4971732, -1.2544627, -1.0022283, -0.7408166],
                               [-0.4705391, -0.191678, 0.0955102, 0.3907912],
                               [0.6939485, 1.0047829, 1.3231084, 1.6487544]])
    assert ln2.gamma.shape == (3, 4)
    close(K.layers.GlobalAveragePooling2D()(IMG), [[0.0, -0.04], [-0.04, 0.0133333]])
    assert K.layers.GlobalAveragePooling2D(keepdims=True)(IMG).shape == (2, 1, 1, 2)
    assert K.layers.Reshape((5, -1))(IMG).shape == (2, 5, 10)
    staged = tf.function(lambda x: K.layers.Reshape((25, 2))(x)).get_concrete_function(
        tf.TensorSpec([None, 5, 5, 2]))
    assert staged.structured_outputs.shape.as_list() == [None, 25, 2]
    with pytest.raises(ValueError, match="at most one unknown dimension"):
        K.layers.Reshape((3, -1, -1))
    with pytest.raises(ValueError, match="total size of the tensor must be unchanged"):
        K.layers.Reshape((7, 3))(IMG)


def test_a_keras_model_checkpoints_and_saves_as_a_module(tmp_path):
    """Layers and models save with tf.train.Checkpoint (restore-on-create into a model built
    later) and with tf.saved_model inside a Module."""
    import numpy as np

    x = tf.constant([[1.0, 2.0, 3.0]])
    model = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    expected = model(x).numpy()
    path = tf.train.Checkpoint(model=model).save(str(tmp_path / "ckpt"))

    fresh = tf.keras.Sequential([tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(2)])
    tf.train.Checkpoint(model=fresh).restore(path)  # before its variables exist
    np.testing.assert_allclose(fresh(x).numpy(), expected)

    class Serving(tf.Module):
        def __init__(self, net):
            super().__init__()
            self.net = net

        @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
        def __call__(self, inputs):
            return self.net(inputs)

    tf.saved_model.save(Serving(model), str(tmp_path / "saved"))
    loaded = tf.saved_model.load(str(tmp_path / "saved"))
    np.testing.assert_allclose(loaded(x).numpy(), expected)
    assert len(loaded.trainable_variables) == 4
