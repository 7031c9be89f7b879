"""tf.train.Checkpoint, CheckpointManager and the checkpoint readers.

Keys, the ``checkpoint`` state file and the numbering of saves are compared
with what TensorFlow 2.21 writes for the same objects (recorded as literals).
"""
from __future__ import annotations

import os

import numpy as np
import pytest

import autograph as tf
from graph.errors import NotFoundError
from runtime.train.checkpoint_io import CheckpointFormatError


class Model(tf.Module):
    def __init__(self):
        super().__init__()
        self.v = tf.Variable([1., 2.])
        self.sub = tf.Module()
        self.sub.w = tf.Variable(3.)
        self.lst = [tf.Variable(1), {"a": tf.Variable(2.)}]


# Recorded from TensorFlow 2.21: tf.train.list_variables of Checkpoint(model=Model()).save(...)
TF_KEYS = [
    ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
    ("model/lst/0/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("model/lst/1/a/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("model/sub/w/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("model/v/.ATTRIBUTES/VARIABLE_VALUE", [2]),
    ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
]


def test_save_restore_round_trip_with_tensorflow_names(tmp_path):
    m = Model()
    ckpt = tf.train.Checkpoint(model=m)
    path = ckpt.save(str(tmp_path / "ckpt"))
    assert path == str(tmp_path / "ckpt-1")
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ckpt-1.data-00000-of-00001",
                                            "ckpt-1.index"]
    assert (tmp_path / "checkpoint").read_text() == (
        'model_checkpoint_path: "ckpt-1"\nall_model_checkpoint_paths: "ckpt-1"\n')
    assert tf.train.list_variables(str(tmp_path)) == TF_KEYS
    assert tf.train.latest_checkpoint(str(tmp_path)) == path
    reader = tf.train.load_checkpoint(str(tmp_path))
    np.testing.assert_array_equal(reader.get_tensor("model/v/.ATTRIBUTES/VARIABLE_VALUE"), [1, 2])
    assert reader.get_variable_to_dtype_map()["model/lst/0/.ATTRIBUTES/VARIABLE_VALUE"] == tf.int32

    m.v.assign([5., 5.])
    m.lst[1]["a"].assign(0.)
    status = ckpt.restore(path)
    assert status.assert_consumed() is status
    np.testing.assert_array_equal(m.v.numpy(), [1., 2.])
    assert m.lst[1]["a"].numpy() == 2.0
    assert ckpt.save(str(tmp_path / "ckpt")).endswith("ckpt-2")
    assert int(ckpt.save_counter.numpy()) == 2


def test_strings_bools_and_unknown_shapes_round_trip(tmp_path):
    m = tf.Module()
    m.s = tf.Variable([b"a\x00", b"", b"long string"])
    m.b = tf.Variable([True, False])
    m.any = tf.Variable([1., 2.], shape=tf.TensorShape(None))
    ckpt = tf.train.Checkpoint(m=m)
    path = ckpt.write(str(tmp_path / "w"))
    m.s.assign([b"x", b"y", b"z"])
    m.b.assign([False, False])
    m.any.assign([[0.]])
    ckpt.read(path).assert_consumed()
    assert list(m.s.numpy()) == [b"a\x00", b"", b"long string"]
    assert m.b.numpy().tolist() == [True, False]
    assert m.any.numpy().tolist() == [1., 2.]


def test_write_and_read_use_the_exact_prefix(tmp_path):
    m = Model()
    ckpt = tf.train.Checkpoint(model=m)
    assert ckpt.write(str(tmp_path / "w")) == str(tmp_path / "w")
    assert not (tmp_path / "checkpoint").exists()
    m.sub.w.assign(-1.)
    ckpt.read(str(tmp_path / "w")).assert_consumed()
    assert m.sub.w.numpy() == 3.0


def test_restore_on_create_attributes_modules_and_lists(tmp_path):
    path = tf.train.Checkpoint(model=Model()).save(str(tmp_path / "ckpt"))
    m = tf.Module()
    status = tf.train.Checkpoint(model=m).restore(path)
    m.v = tf.Variable([0., 0.])
    np.testing.assert_array_equal(m.v.numpy(), [1., 2.])
    m.sub = tf.Module()
    m.sub.w = tf.Variable(0.)
    assert m.sub.w.numpy() == 3.0
    m.lst = [tf.Variable(0), {"a": tf.Variable(0.)}]
    assert m.lst[0].numpy() == 1 and m.lst[1]["a"].numpy() == 2.0
    status.assert_consumed()


class Lazy(tf.Module):
    def __init__(self):
        super().__init__()
        self.kernel = None

    @tf.function
    def __call__(self, x):
        if self.kernel is None:
            self.kernel = tf.Variable(tf.zeros([2]))
        return x * self.kernel


def test_restore_on_create_inside_a_traced_function(tmp_path):
    layer = Lazy()
    layer(tf.constant([1., 1.]))
    layer.kernel.assign([3., 4.])
    path = tf.train.Checkpoint(layer=layer).save(str(tmp_path / "ckpt"))
    fresh = Lazy()
    tf.train.Checkpoint(layer=fresh).restore(path)
    np.testing.assert_array_equal(fresh(tf.constant([1., 2.])).numpy(), [3., 8.])


def _train_step(model, opt):
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.square(model.v * 3.0 - 1.0)) + model.sub.w * model.sub.w
    variables = [model.v, model.sub.w]
    opt.apply_gradients(zip(tape.gradient(loss, variables), variables))


def test_optimizer_slots_are_saved_and_restored_when_created(tmp_path):
    model, opt = Model(), tf.optimizers.Adam(0.1)
    _train_step(model, opt)
    path = tf.train.Checkpoint(model=model, optimizer=opt).save(str(tmp_path / "ckpt"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    # Keras 3's layout (TensorFlow 2.21): slots are the optimizer's `_variables` list, after
    # the step counter and the rate; each variable's momentum then velocity
    assert [k for k in keys if k.startswith("optimizer/")] == [
        "optimizer/_iterations/.ATTRIBUTES/VARIABLE_VALUE",
        "optimizer/_learning_rate/.ATTRIBUTES/VARIABLE_VALUE",
        *(f"optimizer/_variables/{i}/.ATTRIBUTES/VARIABLE_VALUE" for i in range(2, 6))]
    _train_step(model, opt)  # the original continues...

    model2, opt2 = Model(), tf.optimizers.Adam(0.1)
    status = tf.train.Checkpoint(model=model2, optimizer=opt2).restore(path)
    _train_step(model2, opt2)  # ...and the restored copy, whose slots are created now
    status.assert_consumed()
    assert int(opt2.iterations.numpy()) == 2
    np.testing.assert_allclose(model2.v.numpy(), model.v.numpy(), rtol=1e-6)
    np.testing.assert_allclose(opt2.get_slot(model2.v, "v").numpy(),
                               opt.get_slot(model.v, "v").numpy(), rtol=1e-6)


def test_status_checks(tmp_path):
    path = tf.train.Checkpoint(model=Model()).save(str(tmp_path / "ckpt"))
    status = tf.train.Checkpoint(model=tf.Module()).restore(path)
    with pytest.raises(AssertionError, match=r"Unresolved object in checkpoint \(root\)\.model"):
        status.assert_consumed()
    assert status.expect_partial() is status
    status.assert_existing_objects_matched()
    m = Model()
    m.extra = tf.Variable(0.)
    status = tf.train.Checkpoint(model=m).restore(path)
    with pytest.raises(AssertionError, match="Object not assigned a value from checkpoint"):
        status.assert_existing_objects_matched()
    none = tf.train.Checkpoint(model=m).restore(None)
    with pytest.raises(AssertionError, match="No checkpoint specified"):
        none.assert_consumed()


def test_errors(tmp_path):
    with pytest.raises(ValueError, match="`Checkpoint` was expecting x to be a trackable"):
        tf.train.Checkpoint(x=1)
    with pytest.raises(NotFoundError, match="Failed to find any matching files"):
        tf.train.Checkpoint(model=Model()).restore(str(tmp_path / "nope"))
    assert tf.train.latest_checkpoint(str(tmp_path)) is None
    path = tf.train.Checkpoint(model=Model()).save(str(tmp_path / "ckpt"))
    bad = tf.Module()
    bad.v = tf.Variable([1., 2., 3.])
    with pytest.raises(ValueError, match="Received incompatible tensor with shape"):
        tf.train.Checkpoint(model=bad).restore(path)


@pytest.mark.parametrize("damage", ["truncate", "edit", "delete"])
@pytest.mark.parametrize("part", [".index", ".data-00000-of-00001"])
def test_damaged_files_are_named_and_nothing_is_restored(tmp_path, part, damage):
    m = Model()
    path = tf.train.Checkpoint(model=m).save(str(tmp_path / "ckpt"))
    file = path + part
    raw = open(file, "rb").read()
    if damage == "delete":
        os.remove(file)
    else:
        if damage == "truncate":
            raw = raw[:len(raw) // 2]
        elif part == ".index":  # valid JSON that says something else
            raw = raw.replace(b"model/v/", b"model/x/")
        else:
            raw = raw[:100] + bytes([raw[100] ^ 1]) + raw[101:]
        with open(file, "wb") as f:
            f.write(raw)
    m.v.assign([9., 9.])
    expected = NotFoundError if (damage == "delete" and part == ".index") else CheckpointFormatError
    with pytest.raises(expected) as info:
        tf.train.Checkpoint(model=m).restore(path)
    assert os.path.basename(path) in str(info.value)
    np.testing.assert_array_equal(m.v.numpy(), [9., 9.])


def test_manager_keeps_the_newest(tmp_path):
    ckpt = tf.train.Checkpoint(model=Model())
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert manager.latest_checkpoint is None
    saved = [manager.save() for _ in range(4)]
    assert saved == [str(tmp_path / f"ckpt-{i}") for i in (1, 2, 3, 4)]
    assert manager.checkpoints == saved[2:]
    assert manager.latest_checkpoint == saved[3]
    assert not os.path.exists(saved[0] + ".index")
    assert os.path.exists(saved[2] + ".index")
    state = (tmp_path / "checkpoint").read_text().splitlines()
    assert state[:3] == ['model_checkpoint_path: "ckpt-4"', 'all_model_checkpoint_paths: "ckpt-3"',
                         'all_model_checkpoint_paths: "ckpt-4"']
    assert tf.train.latest_checkpoint(str(tmp_path)) == saved[3]
    again = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=2)
    assert again.checkpoints == saved[2:]
    assert again.save(checkpoint_number=10) == str(tmp_path / "ckpt-10")
    assert again.checkpoints == [saved[3], str(tmp_path / "ckpt-10")]
    # restoring the directory picks its latest checkpoint
    m = Model()
    m.v.assign([0., 0.])
    tf.train.Checkpoint(model=m).restore(str(tmp_path)).assert_consumed()
    np.testing.assert_array_equal(m.v.numpy(), [1., 2.])


def test_manager_checkpoint_interval(tmp_path):
    step = tf.Variable(0, dtype=tf.int64)
    ckpt = tf.train.Checkpoint(step=step)
    with pytest.raises(ValueError, match="`step_counter` should be passed"):
        tf.train.CheckpointManager(ckpt, str(tmp_path), 3, checkpoint_interval=2)
    manager = tf.train.CheckpointManager(ckpt, str(tmp_path), max_to_keep=None,
                                         step_counter=step, checkpoint_interval=2)
    saved = []
    for _ in range(5):
        saved.append(manager.save())
        step.assign_add(1)
    assert [s is not None for s in saved] == [True, False, True, False, True]
    assert len(manager.checkpoints) == 3
