"""Behaviours TensorFlow's tutorials with custom training loops (DCGAN, CVAE, text generation,
word2vec, Transformer, time series, NMT with attention, CycleGAN, actor-critic, DQN, advanced
autodiff; /tmp/programs_s6) showed to differ from TensorFlow. Expected values were recorded
from TensorFlow 2.21 as literals."""
import numpy as np

import autograph as tf
from tests.staging import assert_same


def test_keras_modules_have_tensorflow_short_names():
    # tf.losses.SparseCategoricalCrossentropy, tf.metrics.Mean (the text generation tutorial)
    assert tf.losses.SparseCategoricalCrossentropy is tf.keras.losses.SparseCategoricalCrossentropy
    assert tf.metrics.Mean is tf.keras.metrics.Mean
    assert tf.initializers.GlorotUniform is tf.keras.initializers.GlorotUniform
    assert tf.optimizers.Adam is tf.keras.optimizers.Adam


def test_shape_of_a_slice_and_concat_of_shapes_stays_partially_known():
    # tf.reshape(x, tf.concat([tf.shape(x)[:-1], [n]], 0)) keeps x's known dimensions (TF's
    # partial shape evaluation): a Dense layer on a (1, None, 4) input gives (1, None, 3).
    shapes = []

    @tf.function
    def f(x):
        x = tf.transpose(x)
        shapes.append(x.shape.as_list())
        y = tf.reshape(tf.tile(x[..., None], [1, 1, 3]),
                       tf.concat([tf.shape(x), [3]], axis=0))
        z = tf.reshape(y, tf.concat([tf.shape(y)[:-1], [1, 3]], 0))
        w = tf.zeros(tf.cast(tf.shape(y)[1:], tf.int64))
        shapes.extend([y.shape.as_list(), z.shape.as_list(), w.shape.as_list()])
        return z
    f.get_concrete_function(tf.TensorSpec([None, 1], tf.int32))
    assert shapes == [[1, None], [1, None, 3], [1, None, 1, 3], [None, 3]]
    assert_same(lambda x: tf.reshape(x, tf.concat([tf.shape(x)[:-1], [2, 2]], 0)),
                np.arange(8, dtype=np.float32).reshape(2, 4))


def test_batch_jacobian_of_unconnected_source_is_zeros():
    # TensorFlow returns zeros of the target's dtype whatever unconnected_gradients says.
    x = tf.constant([[1., 2.], [3., 4.]])
    w = tf.Variable([[1., 0., 2.], [0., 1., 1.]])
    with tf.GradientTape(persistent=True) as tape:
        y = x @ w
    for use_pfor in (True, False):
        j = tape.batch_jacobian(y, x, experimental_use_pfor=use_pfor)
        assert j.shape == (2, 3, 2) and not np.any(j.numpy())
    assert tape.jacobian(y, x) is None

    @tf.function
    def staged(x):
        with tf.GradientTape() as tape:
            y = x @ w
        return tape.batch_jacobian(y, x)
    np.testing.assert_array_equal(staged(x).numpy(), np.zeros([2, 3, 2], np.float32))


def test_initializer_in_a_function_draws_with_the_functions_op_seeds():
    # A layer built in a tf.function (pix2pix/CycleGAN's tf.random_normal_initializer) draws
    # as TensorFlow's lifted initializer: op seeds 0, 1... of that function, first values.
    tf.keras.utils.set_random_seed(8)
    dense = tf.keras.layers.Dense(2, kernel_initializer=tf.random_normal_initializer(0., 1.),
                                  use_bias=False)

    @tf.function
    def f(x):
        return dense(x) + tf.random.normal([2])
    out = f(tf.ones([1, 2]))
    np.testing.assert_allclose(dense.kernel.numpy().ravel(),
                               [-0.012987994588911533, 1.3936513662338257,
                                -1.5809277296066284, -1.730348825454712], rtol=1e-6)
    np.testing.assert_allclose(out.numpy().ravel(), [-1.6069036722183228, 1.0569539070129395],
                               rtol=1e-6)
    np.testing.assert_allclose(tf.random.normal([2]).numpy(),
                               [1.2074401378631592, -0.745246171951294], rtol=1e-6)


def test_weights_of_a_symbolic_keras_build_are_drawn_eagerly():
    # Keras 3 initializes the variables of a subclassed model's symbolic build under
    # tf.init_scope: they take eager op seeds even when the first call is in a tf.function.
    tf.keras.utils.set_random_seed(8)

    class M(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.d = tf.keras.layers.Dense(
                2, kernel_initializer=tf.random_normal_initializer(0., 1.), use_bias=False)

        def call(self, x):
            return self.d(x)
    m = M()
    tf.function(lambda x: m(x))(tf.ones([1, 2]))
    np.testing.assert_allclose(m.d.kernel.numpy().ravel(),
                               [1.2074401378631592, -0.745246171951294, 0.6908677816390991,
                                -0.7635987997055054], rtol=1e-6)


def test_variable_of_a_random_value_created_in_a_function():
    tf.random.set_seed(3)
    made = []

    @tf.function
    def f():
        if not made:
            made.append(tf.Variable(tf.random.uniform([3])))
            made.append(tf.Variable(lambda: tf.random.normal([2], seed=5)))
        return made[0] + 1.
    f()
    np.testing.assert_allclose(made[0].numpy(), [0.12736403942108154, 0.8146913051605225,
                                                 0.8978378772735596], rtol=1e-6)
    np.testing.assert_allclose(made[1].numpy(), [-1.1347393989562988, 0.7460805773735046],
                               rtol=1e-6)


def test_indexed_slices_cross_function_boundaries():
    # word2vec's train step returning the embedding gradient: an IndexedSlices, as in TF.
    v = tf.Variable(tf.ones([4, 2]))

    @tf.function
    def grad():
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(tf.gather(v, [1, 2]))
        return tape.gradient(y, v)
    g = grad()
    assert type(g).__name__ == "IndexedSlices"
    assert g.indices.numpy().tolist() == [1, 2] and g.dense_shape.numpy().tolist() == [4, 2]
    s = tf.IndexedSlices(tf.ones([2, 2]), tf.constant([1, 3]), tf.constant([5, 2]))
    assert repr(tf.type_spec_from_value(s)) == (
        "IndexedSlicesSpec(TensorShape([5, 2]), tf.float32, tf.int32, tf.int32, TensorShape([2]))")
    assert repr(tf.type_spec_from_value(tf.IndexedSlices(tf.ones([2, 3]),
                                                         tf.constant([1, 3], tf.int64)))) == (
        "IndexedSlicesSpec(TensorShape([None, 3]), tf.float32, tf.int64, None, TensorShape([2]))")
    assert repr(tf.IndexedSlicesSpec(shape=[5, 2], dtype=tf.float32)) == (
        "IndexedSlicesSpec(TensorShape([5, 2]), tf.float32, tf.int64, None, TensorShape([None]))")

    @tf.function
    def double(x):
        return tf.IndexedSlices(x.values * 2., x.indices, x.dense_shape)
    r = double(s)
    assert r.values.numpy().tolist() == [[2., 2.], [2., 2.]]
    assert r.indices.numpy().tolist() == [1, 3]
    double(tf.IndexedSlices(tf.ones([3, 2]), tf.constant([1, 3, 4]), tf.constant([5, 2])))
    assert double.experimental_get_tracing_count() == 2
    np.testing.assert_array_equal(tf.convert_to_tensor(r).numpy(),
                                  [[0, 0], [2, 2], [0, 0], [2, 2], [0, 0]])
    out = double.get_concrete_function(
        tf.IndexedSlicesSpec([5, 2], tf.float32, tf.int32, tf.int32)).structured_outputs
    assert out.values.shape.as_list() == [None, 2] and out.dense_shape.shape.as_list() == [2]

    @tf.function
    def branch(b):
        x = tf.IndexedSlices(tf.ones([1, 2]), tf.constant([0]), tf.constant([3, 2]))
        if b:
            y = tf.IndexedSlices(x.values * 2., x.indices, x.dense_shape)
        else:
            y = x
        return y
    assert branch(tf.constant(True)).values.numpy().tolist() == [[2., 2.]]


def test_fixed_unigram_candidate_sampler_draws_tensorflows_values(tmp_path):
    cases = [  # (arguments, sampled, true expected count, sampled expected count), from TF
        (dict(num_sampled=3, unique=True, range_max=4, unigrams=[1., 2., 3., 4.], seed=4),
         [2, 3, 1], [[0.6], [0.9]], [0.9, 1.2, 0.6]),
        (dict(num_sampled=8, unique=False, range_max=5, unigrams=[5., 1., 1., 2., 7.], seed=1,
              distortion=0.75),
         [4, 2, 0, 3, 4, 0, 0, 0], [[0.7061516642570496], [0.7061516642570496]],
         [3.038935661315918, 0.7061516642570496, 2.3611605167388916, 1.18760085105896,
          3.038935661315918, 2.3611605167388916, 2.3611605167388916, 2.3611605167388916]),
        (dict(num_sampled=3, unique=True, range_max=6, unigrams=[3., 1., 4., 1.],
              num_reserved_ids=2, seed=2),
         [2, 5, 4], [[0.], [1.]], [1., 0.3333333432674408, 1.3333333730697632]),
        (dict(num_sampled=2, unique=True, range_max=3, unigrams=[3., 1., 4., 1., 5., 9.],
              num_shards=2, shard=1, seed=2),
         [2, 0], [[0.4868418574333191], [0.9999934434890747]],
         [0.9999934434890747, 0.4868418574333191]),
    ]
    for kwargs, sampled, true_count, sampled_count in cases:
        s, t, e = tf.random.fixed_unigram_candidate_sampler([[1], [2]], 1, **kwargs)
        assert s.numpy().tolist() == sampled
        np.testing.assert_allclose(t.numpy(), true_count, rtol=1e-6)
        np.testing.assert_allclose(e.numpy(), sampled_count, rtol=1e-6)
        staged = tf.function(
            lambda: tf.random.fixed_unigram_candidate_sampler([[1], [2]], 1, **kwargs)[0])
        assert staged().numpy().tolist() == sampled
    vocab = tmp_path / "vocab.txt"
    vocab.write_text("a,5\nb,1\nc,3\n")
    s = tf.nn.fixed_unigram_candidate_sampler([[0]], 1, 2, True, 3, vocab_file=str(vocab),
                                              seed=3)[0]
    assert s.numpy().tolist() == [2, 0]


def test_custom_gradient_takes_a_variable_argument_as_an_input():
    v = tf.Variable([1., 2.])
    w = tf.Variable(3.)

    @tf.custom_gradient
    def scale(x):
        def grad(dy, variables=None):
            return dy * 10., [dy * 0. + 7.]
        return x * w, grad

    def f():
        with tf.GradientTape() as t:
            y = tf.reduce_sum(scale(v))
        return t.gradient(y, [v, w])
    for run in (f, tf.function(f)):
        assert [g.numpy().tolist() for g in run()] == [[10., 10.], [7., 7.]]

    @tf.recompute_grad
    def block(x):
        return tf.nn.relu(x * 3.) ** 2
    xv = tf.Variable([1., -1., 2.])
    with tf.GradientTape() as t:
        s = tf.reduce_sum(block(xv))
    assert t.gradient(s, xv).numpy().tolist() == [18., 0., 36.]


def test_tf_gradients_in_a_function():
    try:
        tf.gradients(tf.constant(1.), tf.constant(2.))
        raise AssertionError("expected RuntimeError")
    except RuntimeError as e:
        assert str(e) == ("tf.gradients is not supported when eager execution is enabled. "
                          "Use tf.GradientTape instead.")
    v = tf.Variable([1., 2., 3.])

    @tf.function
    def f(x):
        a = x * x
        b = a * 3.
        c = tf.reduce_sum(tf.gather(v, [0, 2])) * 2.
        return (tf.gradients(b, x), tf.gradients(b, x, stop_gradients=[a]),
                tf.gradients([a, b], [x], grad_ys=[tf.ones([2]) * 2., tf.ones([2])]),
                tf.gradients(c, [v, x]), tf.gradients(c, x, unconnected_gradients="zero"),
                tf.gradients(b, a), tf.gradients(tf.gradients(b + x ** 3, x)[0], x))
    g1, g2, g3, (gv, gx), g5, g6, g7 = f(tf.constant([1., 2.]))
    assert g1[0].numpy().tolist() == [6., 12.] and g2 == [None]
    assert g3[0].numpy().tolist() == [10., 20.] and gx is None
    assert type(gv).__name__ == "IndexedSlices" and gv.indices.numpy().tolist() == [0, 2]
    assert g5[0].numpy().tolist() == [0., 0.] and g6[0].numpy().tolist() == [3., 3.]
    assert g7[0].numpy().tolist() == [12., 18.]


def test_adam_amsgrad_and_lion_step_as_keras_3():
    # Keras 3's arithmetic (``1 - beta_1`` a Python float): TF's float32 values to the bit.
    v = tf.Variable([1., -2.])
    adam = tf.keras.optimizers.Adam(0.1, amsgrad=True)
    lion = tf.keras.optimizers.Lion(0.1)
    for opt, expected in ((adam, [0.7076846957206726, -1.7076857089996338]),
                          (lion, [0.40768465399742126, -1.40768563747406])):
        for i in range(3):
            opt.apply_gradients([(tf.constant([0.5, -0.25]) * (i + 1), v)])
        assert v.numpy().tolist() == expected
    assert [x.name for x in adam.variables] == [  # (paths: adam/iteration...)
        "iteration", "learning_rate", "Variable_0_momentum", "Variable_0_velocity",
        "Variable_0_velocity_hat"]
    assert [x.name for x in lion.variables] == ["iteration", "learning_rate",
                                                "Variable_0_momentum"]
    assert type(tf.keras.optimizers.get("lion")).__name__ == "Lion"

    w = tf.Variable(np.array([[0.5, -1.0], [2.0, 0.3]], dtype=np.float32))
    b = tf.Variable(np.array([0.1, -0.2], dtype=np.float32))
    x = tf.constant(np.array([[1.0, 2.0], [-1.0, 0.5], [0.3, 0.3]], dtype=np.float32))
    y = tf.constant(np.array([[1.0, 0.0], [0.0, 1.0], [0.5, 0.5]], dtype=np.float32))
    opt = tf.keras.optimizers.Adam(learning_rate=0.05)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.tanh(tf.matmul(x, w) + b) - y))
        opt.apply_gradients(zip(tape.gradient(loss, [w, b]), [w, b]))
    for _ in range(5):
        step()
    np.testing.assert_allclose(w.numpy().ravel(), [0.74089115858078, -0.7746459245681763,
                                                   1.7581582069396973, 0.5266818404197693],
                               rtol=1e-6)
    np.testing.assert_allclose(b.numpy(), [-0.14214080572128296, 0.04327971488237381], rtol=1e-6)


def test_binary_accuracy_of_bool_and_integer_predictions():
    # The autoencoder tutorial's anomaly detector scores tf.math.less(...) (bools).
    m = tf.keras.metrics.BinaryAccuracy()
    m.update_state(np.array([True, False, True]), tf.constant([True, True, True]))
    np.testing.assert_allclose(m.result().numpy(), 0.6666666865348816)
    m = tf.keras.metrics.BinaryAccuracy()
    m.update_state([1, 0, 1], tf.constant([1, 0, 0]))
    np.testing.assert_allclose(m.result().numpy(), 0.6666666865348816)
    m = tf.keras.metrics.BinaryAccuracy(threshold=0.7)
    m.update_state([[1.], [0.], [1.]], tf.constant([[0.8], [0.6], [0.69]], tf.float16))
    np.testing.assert_allclose(m.result().numpy(), 0.6666666865348816)
    assert tf.keras.metrics.binary_accuracy(
        tf.constant([1., 0.]), tf.constant([True, False])).numpy().tolist() == [1., 1.]


def test_tf_hessians_in_a_function():
    @tf.function
    def f(x):
        return tf.hessians(tf.reduce_sum(x ** 3) + x[0] * x[1], x)
    assert f(tf.constant([1., 2., 3.]))[0].numpy().tolist() == [[6., 1., 0.], [1., 12., 0.],
                                                                 [0., 0., 18.]]

    @tf.function
    def g(x, w):
        return tf.hessians(tf.reduce_sum(tf.matmul(x, w) ** 2), [w])
    h = g(tf.constant([[1., 2.]]), tf.constant([[1.], [0.5]]))[0]
    assert h.shape == (2, 1, 2, 1) and h.numpy().ravel().tolist() == [2., 4., 4., 8.]


def test_stateful_poisson_draws_tensorflows_values():
    tf.random.set_seed(5)
    assert tf.random.poisson([4], lam=2.0).numpy().tolist() == [0., 2., 3., 2.]
    assert tf.random.poisson([4], lam=2.0).numpy().tolist() == [2., 1., 3., 0.]
    assert tf.random.poisson([3, 2], lam=[1.5, 30.0], seed=7).numpy().tolist() == [
        [[0., 25.], [0., 25.]], [[1., 32.], [1., 29.]], [[1., 38.], [4., 26.]]]
    assert tf.random.poisson([2], lam=[[0.5], [12.]], dtype=tf.int32,
                             seed=3).numpy().tolist() == [[[0], [9]], [[1], [7]]]

    @tf.function
    def f():
        return tf.random.poisson([3], lam=2.0), tf.random.poisson([2], lam=[4.0, 50.0], seed=1)
    assert [o.numpy().tolist() for o in f()] == [[3., 3., 3.], [[2., 52.], [6., 46.]]]
    assert [o.numpy().tolist() for o in f()] == [[1., 3., 4.], [[5., 52.], [5., 41.]]]
