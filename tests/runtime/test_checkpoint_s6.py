"""Checkpoints as TensorFlow 2.21 writes them: Keras 3 optimizer state, iterator positions.

Expected keys and values were recorded from TensorFlow 2.21 running the same code.
"""
import numpy as np
import pytest

import autograph as tf


def _keys(path):
    return [k for k, _ in tf.train.list_variables(path)]


@pytest.mark.parametrize("make, n_slots", [
    (lambda: tf.keras.optimizers.Adam(0.1), 2), (lambda: tf.keras.optimizers.SGD(0.1, 0.9), 1),
    (lambda: tf.keras.optimizers.RMSprop(0.1), 1), (lambda: tf.keras.optimizers.Adagrad(0.1), 1),
    (lambda: tf.keras.optimizers.Ftrl(0.1), 2)])
def test_optimizer_state_is_keras3_layout(tmp_path, make, n_slots):
    opt = make()
    a, b = tf.Variable(tf.ones([3, 2]), name="a"), tf.Variable(tf.zeros([2]), name="b")
    opt.apply_gradients([(tf.ones([3, 2]), a), (tf.ones([2]), b)])
    path = tf.train.Checkpoint(opt=opt, a=a, b=b).write(str(tmp_path / "c"))
    assert _keys(path) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "a/.ATTRIBUTES/VARIABLE_VALUE",
        "b/.ATTRIBUTES/VARIABLE_VALUE", "opt/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        *(f"opt/_variables/{i}/.ATTRIBUTES/VARIABLE_VALUE" for i in range(2, 2 + 2 * n_slots))]
    # slots of a tf.Variable are named after "a:0", as Keras 3 sanitises it
    assert [v.path for v in opt.variables][2].startswith(f"{opt.name}/a_0_")


def test_nadam_keeps_its_momentum_product_under_its_own_name(tmp_path):
    opt = tf.keras.optimizers.Nadam(0.1)
    a = tf.Variable(tf.ones([2]), name="a")
    opt.apply_gradients([(tf.ones([2]), a)])
    assert [v.path for v in opt.variables] == [
        "nadam/iteration", "nadam/learning_rate", "nadam/a_0_momentum", "nadam/a_0_velocity",
        "nadam/variable"]
    path = tf.train.Checkpoint(opt=opt).write(str(tmp_path / "c"))
    assert "opt/_u_product/.ATTRIBUTES/VARIABLE_VALUE" in _keys(path)


def test_slots_restore_when_the_optimizer_builds_them(tmp_path):
    a = tf.Variable([1.0, 2.0])
    opt = tf.keras.optimizers.Adam(0.1)
    for _ in range(3):
        opt.apply_gradients([(tf.constant([0.5, -1.0]), a)])
    path = tf.train.Checkpoint(a=a, opt=opt).write(str(tmp_path / "c"))
    a2, opt2 = tf.Variable([0.0, 0.0]), tf.keras.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(a=a2, opt=opt2).read(path)
    opt.apply_gradients([(tf.constant([0.5, -1.0]), a)])
    opt2.apply_gradients([(tf.constant([0.5, -1.0]), a2)])  # slots made now, then restored
    status.assert_consumed()
    np.testing.assert_allclose(a2.numpy(), a.numpy(), rtol=1e-6)
    assert int(opt2.iterations.numpy()) == 4


def _shuffled():
    return tf.data.Dataset.range(6).shuffle(6, seed=3).repeat(3).batch(4)


def test_iterator_position_is_saved_and_restored(tmp_path):
    it = iter(_shuffled())
    assert [next(it).numpy().tolist() for _ in range(2)] == [[0, 1, 2, 3], [4, 5, 0, 4]]
    ckpt = tf.train.Checkpoint(it=it)
    path = ckpt.write(str(tmp_path / "c"))
    assert tf.train.list_variables(path) == [("_CHECKPOINTABLE_OBJECT_GRAPH", []),
                                             ("it/.ATTRIBUTES/ITERATOR_STATE", [3])]
    rest = [[1, 5, 3, 2], [2, 4, 5, 3], [0, 1]]  # TensorFlow's: the shuffles' state comes back
    assert [next(it).numpy().tolist() for _ in range(2)] == rest[:2]
    ckpt.read(path)
    assert [x.numpy().tolist() for x in it] == rest
    fresh = iter(_shuffled())  # as in a new process
    tf.train.Checkpoint(it=fresh).read(path)
    assert [x.numpy().tolist() for x in fresh] == rest


def test_iterator_used_by_a_function_and_an_exhausted_one(tmp_path):
    it = iter(tf.data.Dataset.range(10).map(lambda x: x * 2))
    step = tf.function(lambda: next(it))
    assert [int(step()), int(step())] == [0, 2]
    ckpt = tf.train.Checkpoint(it=it)
    path = ckpt.write(str(tmp_path / "c"))
    assert int(step()) == 4
    ckpt.read(path)
    assert [int(step()), int(step())] == [4, 6]
    done = iter(tf.data.Dataset.range(2))
    list(done)
    path = tf.train.Checkpoint(it=done).write(str(tmp_path / "d"))
    again = iter(tf.data.Dataset.range(2))
    tf.train.Checkpoint(it=again).read(path)
    assert list(again) == []


def test_iterator_errors(tmp_path):
    path = tf.train.Checkpoint(it=iter(_shuffled())).write(str(tmp_path / "c"))
    other = iter(tf.data.Dataset.range(3))
    with pytest.raises(tf.errors.InvalidArgumentError, match="1 shuffles.*has 0"):
        tf.train.Checkpoint(it=other).read(path)
    holder = tf.train.Checkpoint(v=tf.Variable(1.0))
    path = holder.write(str(tmp_path / "v"))
    with pytest.raises(ValueError, match="holds a value at v/.ATTRIBUTES/VARIABLE_VALUE"):
        tf.train.Checkpoint(v=iter(tf.data.Dataset.range(3))).read(path)


def test_the_checkpoint_guide_keys_are_tensorflows(tmp_path):
    """The "Training checkpoints" guide's Checkpoint(step, optimizer, net, iterator): the keys
    TensorFlow 2.21 lists (Keras 3 keeps Dense's kernel as `_kernel`)."""
    tf.keras.utils.set_random_seed(1)

    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.l1 = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.l1(x)
    net, opt = Net(), tf.keras.optimizers.Adam(0.1)
    x = tf.ones([1, 3])
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(net(x))
    opt.apply_gradients(zip(tape.gradient(loss, net.trainable_variables),
                            net.trainable_variables))
    it = iter(tf.data.Dataset.range(5))
    next(it)
    ckpt = tf.train.Checkpoint(step=tf.Variable(1), optimizer=opt, net=net, iterator=it)
    path = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=3).save()
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("iterator/.ATTRIBUTES/ITERATOR_STATE", [3]),
        ("net/l1/_kernel/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]),
        ("net/l1/bias/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("optimizer/_variables/2/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]),
        ("optimizer/_variables/3/.ATTRIBUTES/VARIABLE_VALUE", [3, 2]),
        ("optimizer/_variables/4/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("optimizer/_variables/5/.ATTRIBUTES/VARIABLE_VALUE", [2]),
        ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []), ("step/.ATTRIBUTES/VARIABLE_VALUE", [])]
    assert net.l1.kernel is net.l1._kernel
    conv, emb = tf.keras.layers.Conv1D(2, 2), tf.keras.layers.Embedding(5, 2)
    conv(tf.ones([1, 3, 1])), emb(tf.constant([1]))
    keys = _keys(tf.train.Checkpoint(conv=conv, emb=emb).write(str(tmp_path / "layers")))
    assert "conv/_kernel/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "emb/_embeddings/.ATTRIBUTES/VARIABLE_VALUE" in keys


def test_a_sequential_keys_its_layers_as_keras_3s_functional_operations(tmp_path):
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dropout(0.1),
                                 tf.keras.layers.Dense(1)])
    model(tf.ones([1, 2]))
    path = tf.train.Checkpoint(model=model).write(str(tmp_path / "c"))
    assert _keys(path) == [  # TensorFlow 2.21's keys (the InputLayer is operation 0)
        "_CHECKPOINTABLE_OBJECT_GRAPH",
        "model/_functional/_operations/1/_kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "model/_functional/_operations/1/bias/.ATTRIBUTES/VARIABLE_VALUE",
        "model/_functional/_operations/3/_kernel/.ATTRIBUTES/VARIABLE_VALUE",
        "model/_functional/_operations/3/bias/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(3), tf.keras.layers.Dropout(0.1),
                                 tf.keras.layers.Dense(1)])
    status = tf.train.Checkpoint(model=fresh).read(path)
    fresh(tf.ones([1, 2]))  # built now: restored on creation
    status.assert_consumed()
    np.testing.assert_array_equal(fresh(tf.ones([1, 2])).numpy(), model(tf.ones([1, 2])).numpy())


def test_an_optimizer_tracks_the_variables_it_trains(tmp_path):
    """Keras 3's `_trainable_variables`: a model variable two edges away through its
    optimizer is keyed there (a shorter path than through the Sequential), as in TF 2.21."""
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    model(tf.ones([1, 3]))
    opt = tf.keras.optimizers.SGD(0.1)
    opt.apply_gradients(zip([tf.ones([3, 2]), tf.ones([2])], model.trainable_variables))
    path = tf.train.Checkpoint(model=model, opt=opt).write(str(tmp_path / "c"))
    assert _keys(path) == [
        "_CHECKPOINTABLE_OBJECT_GRAPH", "opt/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/_trainable_variables/0/.ATTRIBUTES/VARIABLE_VALUE",
        "opt/_trainable_variables/1/.ATTRIBUTES/VARIABLE_VALUE"]
    fresh = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    tf.train.Checkpoint(model=fresh).read(path).expect_partial()
    fresh(tf.ones([1, 3]))  # restored through the model's own path when built
    np.testing.assert_array_equal(fresh.layers[0].kernel.numpy(), model.layers[0].kernel.numpy())
