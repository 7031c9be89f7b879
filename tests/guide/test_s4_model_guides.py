"""TensorFlow's model guides (modules, training loops, checkpoints, SavedModel, custom training)
run as programs; each test is a cell that differed from TensorFlow 2.21, whose output is
recorded here as literals.
"""
import os

import numpy as np
import pytest

import autograph as tf


def test_checkpoint_attributes_lists_and_dicts(tmp_path):
    # "Training checkpoints": Python state — lists and dicts assigned to a Checkpoint
    # after construction are dependencies, and a restore waits for their items.
    save = tf.train.Checkpoint()
    save.listed = [tf.Variable(1.)]
    save.listed.append(tf.Variable(2.))
    save.mapped = {'one': save.listed[0]}
    save.mapped['two'] = save.listed[1]
    save_path = save.save(os.fspath(tmp_path / "tf_list_example"))
    names = sorted(n for n, _ in tf.train.list_variables(save_path))
    assert names == ['_CHECKPOINTABLE_OBJECT_GRAPH', 'listed/0/.ATTRIBUTES/VARIABLE_VALUE',
                     'listed/1/.ATTRIBUTES/VARIABLE_VALUE', 'save_counter/.ATTRIBUTES/VARIABLE_VALUE']
    restore = tf.train.Checkpoint()
    v2 = tf.Variable(0.)
    restore.mapped = {'two': v2}
    restore.restore(save_path)
    assert v2.numpy() == 2.
    assert not hasattr(restore, "listed")
    restore.listed = []
    assert repr(restore.listed) == "ListWrapper([])"
    v1 = tf.Variable(0.)
    restore.listed.append(v1)          # restored when it joins the list
    assert v1.numpy() == 1.
    assert (type(save.listed).__name__, type(save.mapped).__name__) == ("ListWrapper", "_DictWrapper")
    assert isinstance(save.listed, list) and isinstance(save.mapped, dict)


def test_checkpoint_attribute_delayed_restore(tmp_path):
    # A variable assigned to a Checkpoint attribute after restore() takes its saved value.
    path = tf.train.Checkpoint(a=tf.Variable([1., 2.])).write(os.fspath(tmp_path / "c"))
    ckpt = tf.train.Checkpoint()
    status = ckpt.read(path)
    with pytest.raises(AssertionError):
        status.assert_consumed()
    ckpt.a = tf.Variable([0., 0.])
    np.testing.assert_array_equal(ckpt.a.numpy(), [1., 2.])
    status.assert_consumed()


def test_saved_model_setter_is_not_the_default_signature(tmp_path):
    # "Using the SavedModel format": `mutate` has an input signature but returns nothing, so
    # TensorFlow does not make it `serving_default` (the save used to fail).
    class CustomModule(tf.Module):
      def __init__(self):
        super(CustomModule, self).__init__()
        self.v = tf.Variable(1.)
      @tf.function
      def __call__(self, x):
        return x * self.v
      @tf.function(input_signature=[tf.TensorSpec([], tf.float32)])
      def mutate(self, new_v):
        self.v.assign(new_v)
    module = CustomModule()
    module(tf.constant(0.))
    tf.saved_model.save(module, os.fspath(tmp_path))
    imported = tf.saved_model.load(os.fspath(tmp_path))
    assert list(imported.signatures.keys()) == []
    imported.mutate(tf.constant(2.))
    assert imported(tf.constant(3.)).numpy() == 6


def test_saved_model_of_checkpoint_with_function_attribute(tmp_path):
    # "Using the SavedModel format", saving a custom model: functions assigned to a
    # tf.train.Checkpoint are saved with it.
    root = tf.train.Checkpoint()
    root.v1 = tf.Variable(3.)
    root.v2 = tf.Variable(2.)
    root.f = tf.function(lambda x: root.v1 * root.v2 * x)
    input_data = tf.constant(3., shape=(1,))
    to_save = root.f.get_concrete_function(input_data)
    tf.saved_model.save(root, os.fspath(tmp_path), to_save)
    loaded = tf.saved_model.load(os.fspath(tmp_path))
    np.testing.assert_array_equal(loaded.f(input_data).numpy(), [18.])
    out = loaded.signatures["serving_default"](x=input_data)
    assert list(out) == ["output_0"]
    np.testing.assert_array_equal(out["output_0"].numpy(), [18.])
    assert (loaded.v1.numpy(), loaded.v2.numpy()) == (3.0, 2.0)


def test_accuracy_counts_every_label_not_every_batch():
    # "Custom training: walkthrough": test accuracy over batches of unequal size is the
    # fraction of all labels predicted right (recorded from TensorFlow).
    m = tf.keras.metrics.Accuracy()
    m([1, 2, 3], [1, 2, 0])
    assert float(m([4], [4])) == 0.75
    b = tf.keras.metrics.BinaryAccuracy()
    b([[1], [0], [1]], [[0.9], [0.8], [0.2]])
    assert float(b([[1, 1]], [[0.7, 0.1]])) == 0.375


def test_keras_utils_set_random_seed():
    import random
    tf.keras.utils.set_random_seed(3)
    np.testing.assert_allclose(tf.random.uniform([2]).numpy(), [0.13366318, 0.5678531])
    assert (np.random.rand(), random.random()) == (0.5507979025745755, 0.23796462709189137)
    with pytest.raises(ValueError, match=r"Received: seed=1.5 \(of type <class 'float'>\)"):
        tf.keras.utils.set_random_seed(1.5)


def _rounded(losses):
    return [round(float(l), 5) for l in losses]


def test_layer_add_loss_collects_from_nested_layers_per_call():
    # "Making new layers and models via subclassing": the loss list starts afresh at each
    # outermost call and gathers the inner layers' losses.
    class ActivityRegularizationLayer(tf.keras.layers.Layer):
        def __init__(self, rate=1e-2):
            super().__init__()
            self.rate = rate
        def call(self, inputs):
            self.add_loss(self.rate * tf.reduce_mean(inputs))
            return inputs
    class OuterLayer(tf.keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.activity_reg = ActivityRegularizationLayer(1e-2)
        def call(self, inputs):
            return self.activity_reg(inputs)
    layer = OuterLayer()
    assert len(layer.losses) == 0
    _ = layer(tf.zeros((1, 1)))
    _ = layer(tf.zeros((1, 1)))
    assert _rounded(layer.losses) == [0.0]
    _ = layer(tf.ones((2, 2)) * 3.)
    assert _rounded(layer.losses) == [0.03]
    with pytest.raises(ValueError, match=r"can only be called from inside `build\(\)` or "
                                         r"`call\(\)`, on a tensor input. Received invalid "
                                         r"value: 1.0"):
        layer.add_loss(1.0)


def test_weight_and_activity_regularizers():
    # Values recorded from TensorFlow 2.21 (Keras 3).
    keras = tf.keras
    d = keras.layers.Dense(2, kernel_initializer="ones", bias_initializer="ones",
                           kernel_regularizer="l2",
                           bias_regularizer=keras.regularizers.L1L2(l1=0.5, l2=0.25),
                           activity_regularizer=keras.regularizers.l1(0.1))
    assert d.losses == []
    d(tf.constant([[1., 2.], [3., 4.], [5., 6.]]))
    assert _rounded(d.losses) == [1.6, 0.04, 1.5]   # activity loss / batch size first
    d(tf.constant([[1., 2.]]))
    assert _rounded(d.losses) == [0.8, 0.04, 1.5]
    config = d.get_config()
    assert config["kernel_regularizer"] == {'module': 'keras.regularizers', 'class_name': 'L2',
                                            'config': {'l2': 0.01}, 'registered_name': None}
    assert config["activity_regularizer"]["config"] == {'l1': 0.10000000149011612}

    class Outer(keras.layers.Layer):
        def __init__(self):
            super().__init__()
            self.d = d
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return self.d(x)
    o = Outer()
    o(tf.constant([[1., 1.]]))
    assert _rounded(o.losses) == [2.0, 0.6, 0.04, 1.5]
    assert _rounded(d.losses) == [0.6, 0.04, 1.5]
    d.trainable = False                       # frozen weights are not penalized
    assert _rounded(o.losses) == [2.0, 0.6]

    @tf.function
    def f(x):
        o(x)
        return tf.add_n(o.losses)
    assert round(float(f(tf.constant([[2., 2.]]))), 4) == 5.0
    with pytest.raises(ValueError, match=r"expected a non-negative float.Received: l2=-1.0"):
        keras.regularizers.L2(-1.)
    assert keras.regularizers.get("l1l2").get_config() == {'l1': 0.0, 'l2': 0.0}


def test_model_losses_in_training_loop():
    # The guide's training loop adds `sum(model.losses)` to the loss (values from TensorFlow).
    class Linear(tf.keras.layers.Layer):
        def __init__(self, units):
            super().__init__()
            self.units = units
        def build(self, input_shape):
            self.w = self.add_weight(shape=(input_shape[-1], self.units), initializer="ones")
        def call(self, inputs):
            self.add_loss(1e-2 * tf.reduce_mean(inputs))
            return tf.matmul(inputs, self.w)
    class MyModel(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.l1, self.l2 = Linear(3), Linear(1)
        def call(self, x, training=False):
            return self.l2(tf.nn.relu(self.l1(x)))
    model = MyModel()
    optimizer = tf.keras.optimizers.SGD(learning_rate=1e-2)
    loss_fn = tf.keras.losses.MeanSquaredError()
    xs = np.arange(8, dtype=np.float32).reshape(4, 2) / 8
    ys = np.ones((4, 1), np.float32)
    out = []
    for step in range(3):
        with tf.GradientTape() as tape:
            loss_value = loss_fn(ys, model(xs)) + sum(model.losses)
        grads = tape.gradient(loss_value, model.trainable_weights)
        optimizer.apply_gradients(zip(grads, model.trainable_weights))
        out.append(round(float(loss_value), 5))
    assert len(model.losses) == 2
    assert out == [5.46625, 4.52463, 3.79921]
