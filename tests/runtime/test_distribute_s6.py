"""MirroredStrategy over logical CPUs: replicas run one after the other, with TensorFlow's
results (recorded from TensorFlow 2.21 with the CPU split into two logical devices)."""
import numpy as np
import pytest

import autograph as tf


@pytest.fixture
def two_replicas():
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    try:
        yield tf.distribute.MirroredStrategy()
    finally:
        tf.config.set_logical_device_configuration(cpu, None)


def _local(strategy, value):
    return [t.numpy().tolist() for t in strategy.experimental_local_results(value)]


def test_logical_cpus_make_replicas(two_replicas):
    s = two_replicas
    assert [d.name for d in tf.config.list_logical_devices("CPU")] == [
        "/device:CPU:0", "/device:CPU:1"]
    assert s.num_replicas_in_sync == 2
    assert s.extended.worker_devices == ("/job:localhost/replica:0/task:0/device:CPU:0",
                                         "/job:localhost/replica:0/task:0/device:CPU:1")
    ids = s.run(lambda: tf.distribute.get_replica_context().replica_id_in_sync_group)
    assert _local(s, ids) == [0, 1]
    assert str(s.run(lambda: tf.constant(1))) == (
        "PerReplica:{\n  0: tf.Tensor(1, shape=(), dtype=int32),\n"
        "  1: tf.Tensor(1, shape=(), dtype=int32)\n}")
    assert s.run(lambda: 1) == 1
    assert int(s.reduce("SUM", s.run(lambda: tf.constant(1)), axis=None)) == 2
    assert float(s.reduce("MEAN", tf.constant(3.0), axis=None)) == 3.0
    with pytest.raises(ValueError, match="A non-DistributedValues value tf.Tensor"):
        s.reduce("SUM", tf.constant(3), axis=None)
    assert s.gather(s.run(lambda: tf.constant([1, 2])), axis=0).numpy().tolist() == [1, 2, 1, 2]
    with pytest.raises(NotImplementedError, match="all_reduce with 2 replicas"):
        s.run(lambda: tf.distribute.get_replica_context().all_reduce("SUM", tf.constant(2)))


def test_distributed_datasets_split_batches_as_tensorflow(two_replicas):
    s = two_replicas
    dds = s.experimental_distribute_dataset(tf.data.Dataset.range(7).batch(3))
    assert [_local(s, pr) for pr in dds] == [[[0, 1], [2]], [[3, 4], [5]], [[6], []]]
    assert [float(s.reduce("MEAN", pr, axis=0)) for pr in dds] == [1.0, 4.0, 6.0]
    assert [int(s.reduce("SUM", pr, axis=0)) for pr in dds] == [3, 12, 6]
    even = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
    assert [s.reduce("SUM", pr, axis=None).numpy().tolist() for pr in even] == [[2, 4], [10, 12]]
    per_fn = s.distribute_datasets_from_function(lambda ctx: tf.data.Dataset.range(8).batch(2))
    assert [_local(s, pr) for pr in per_fn] == [[[0, 1], [2, 3]], [[4, 5], [6, 7]]]


def test_a_loop_over_a_distributed_dataset_in_a_function(two_replicas):
    s = two_replicas

    @tf.function
    def f(data):
        t = tf.constant(0, tf.int64)
        for pr in data:
            t = t * 10 + s.reduce("SUM", pr, axis=0)
        return t
    dds = s.experimental_distribute_dataset(tf.data.Dataset.range(8).batch(4))
    assert int(f(dds)) == 82
    assert int(f(iter(s.experimental_distribute_dataset(
        tf.data.Dataset.range(8).batch(4))))) == 82

    @tf.function
    def count(n):
        c = tf.constant(0)
        for _ in tf.range(n):
            c += s.reduce("SUM", s.run(lambda: tf.constant(1)), axis=None)
        return c
    assert int(count(tf.constant(3))) == 6
    np.testing.assert_array_equal(
        s.reduce("SUM", s.run(lambda x: tf.reduce_sum(x), (next(iter(dds)),)), axis=None), 6)


def test_without_a_split_the_strategy_has_one_replica():
    s = tf.distribute.MirroredStrategy()
    assert s.num_replicas_in_sync == 1
    ds = tf.data.Dataset.range(3)
    assert s.experimental_distribute_dataset(ds) is ds


def test_variable_updates_inside_several_replicas_are_refused(two_replicas):
    s = two_replicas
    v = tf.Variable(1.0)
    with pytest.raises(NotImplementedError, match="inside strategy.run with 2 replicas"):
        s.run(lambda: v.assign_add(1.0))
    assert float(v) == 1.0
    tf.distribute.OneDeviceStrategy("/cpu:0").run(lambda: v.assign_add(1.0))
    assert float(v) == 2.0
