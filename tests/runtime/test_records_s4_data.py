"""tf.data.Options: the option tree, its checks and merging, as TensorFlow 2.21 has them."""
import pytest

import autograph as tf


def test_options_tree_and_merge():
    options = tf.data.Options()
    assert options.deterministic is None and options.threading.private_threadpool_size is None
    assert options.experimental_distribute.auto_shard_policy == \
        tf.data.experimental.AutoShardPolicy.AUTO
    options.experimental_deterministic = False
    assert options.deterministic is False
    options.threading.private_threadpool_size = 4
    dataset = tf.data.Dataset.range(3).with_options(options)
    assert repr(dataset).startswith("<_OptionsDataset element_spec=")
    assert dataset.options() == options
    more = tf.data.Options()
    more.threading.max_intra_op_parallelism = 1
    mapped = dataset.with_options(more).map(lambda x: x + 1)
    assert mapped.options().threading.max_intra_op_parallelism == 1
    assert mapped.options().threading.private_threadpool_size == 4
    assert list(mapped.as_numpy_iterator()) == [1, 2, 3]
    assert tf.data.Dataset.range(3).options() == tf.data.Options()
    assert int(tf.data.experimental.AutoShardPolicy.DATA) == 2
    assert int(tf.data.experimental.AutoShardPolicy.OFF) == -1


def test_options_errors():
    options = tf.data.Options()
    with pytest.raises(AttributeError, match="Cannot set the property foo on Options."):
        options.foo = 1
    with pytest.raises(TypeError, match='Property "deterministic" must be of type '
                                        "<class 'bool'>, got: 3"):
        options.deterministic = 3
    with pytest.raises(TypeError):
        tf.data.Dataset.range(2).with_options({"deterministic": True})


def test_options_dataset_in_function():
    options = tf.data.Options()
    options.deterministic = True
    dataset = tf.data.Dataset.range(4).with_options(options)

    @tf.function
    def total():
        s = tf.constant(0, tf.int64)
        for x in dataset:
            s += x
        return s
    assert total().numpy() == 6
