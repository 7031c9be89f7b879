"""tf.lookup tables, eager and inside tf.function: values, bucket ids and errors recorded
from TensorFlow 2.21."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import FailedPreconditionError
from runtime import lookup
from tests.staging import assert_same


def _letters():
    return lookup.StaticHashTable(lookup.KeyValueTensorInitializer(["a", "b", "c"], [0, 1, 2]),
                                  default_value=-1)


def test_static_hash_table():
    table = _letters()
    assert table.key_dtype == tf.string and table.value_dtype == tf.int32
    out = table.lookup(tf.constant(["a", "x", "c"]))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [0, -1, 2]
    assert table.size().numpy() == 3 and table.size().dtype == tf.int64
    assert table[tf.constant([["b"]])].numpy().tolist() == [[1]]
    keys, values = table.export()
    assert dict(zip(keys.numpy().tolist(), values.numpy().tolist())) == {b"a": 0, b"b": 1,
                                                                         b"c": 2}
    floats = lookup.StaticHashTable(lookup.KeyValueTensorInitializer(
        tf.constant([1, 2], tf.int64), tf.constant([0.5, 1.5])), 0.0)
    np.testing.assert_array_equal(floats.lookup(tf.constant([2, 3], tf.int64)),
                                  np.float32([1.5, 0.0]))
    ragged = table.lookup(tf.ragged.constant([["a"], ["q", "c"]]))
    assert ragged.to_list() == [[0], [-1, 2]]


def test_errors_as_tensorflow():
    table = _letters()
    with pytest.raises(TypeError, match="Dtype of argument `keys` must be <dtype: 'string'>, "
                                        "received: <dtype: 'int32'>"):
        table.lookup(tf.constant([1, 2]))
    with pytest.raises(TypeError, match="Cannot convert -1.5 to EagerTensor of dtype int32"):
        lookup.StaticHashTable(lookup.KeyValueTensorInitializer(["a"], [0]), -1.5)
    with pytest.raises(FailedPreconditionError, match="HashTable has different value for same "
                                                      "key. Key a has 0 and trying to add "
                                                      "value 1"):
        lookup.StaticHashTable(lookup.KeyValueTensorInitializer(["a", "a"], [0, 1]), -1)
    with pytest.raises(TypeError, match=r"Invalid `value_dtype`, expected <dtype: 'int64'> but "
                                        r"got <dtype: 'int32'>\."):
        lookup.StaticVocabularyTable(lookup.KeyValueTensorInitializer(["a"], [0]), 2)


def test_vocabulary_table_buckets_as_tensorflow():
    vocab = lookup.StaticVocabularyTable(lookup.KeyValueTensorInitializer(
        ["emerson", "lake", "palmer"], tf.constant([0, 1, 2], tf.int64)), num_oov_buckets=5)
    ids = vocab.lookup(tf.constant(["emerson", "lake", "king", "crimson", "", "palmer", "x"]))
    assert ids.dtype == tf.int64 and ids.numpy().tolist() == [0, 1, 6, 7, 6, 2, 3]
    assert vocab.size().numpy() == 8
    ints = lookup.StaticVocabularyTable(lookup.KeyValueTensorInitializer(
        tf.constant([10, 20], tf.int64), tf.constant([0, 1], tf.int64)), num_oov_buckets=3)
    assert ints.lookup(tf.constant([10, 5, 7, 20, -3], tf.int64)).numpy().tolist() == \
        [0, 3, 3, 1, 2]

    def f(x):
        return vocab.lookup(x)
    assert_same(f, np.array([b"lake", b"king", b"x"], dtype=object))


def test_text_file_initializer(tmp_path):
    path = tmp_path / "vocab.txt"
    path.write_text("apple\nbanana\ncherry\n")
    table = lookup.StaticHashTable(lookup.TextFileInitializer(
        str(path), tf.string, lookup.TextFileIndex.WHOLE_LINE, tf.int64,
        lookup.TextFileIndex.LINE_NUMBER), -1)
    assert table.lookup(tf.constant(["banana", "zz", "apple"])).numpy().tolist() == [1, -1, 0]
    assert (lookup.TextFileIndex.WHOLE_LINE, lookup.TextFileIndex.LINE_NUMBER) == (-2, -1)
    columns = tmp_path / "cols.tsv"
    columns.write_text("x\t7\ny\t9\n")
    by_column = lookup.StaticHashTable(lookup.TextFileInitializer(
        str(columns), tf.string, 0, tf.int64, 1), 0)
    assert by_column.lookup(tf.constant(["y", "x"])).numpy().tolist() == [9, 7]


def test_tables_in_function_and_mutable_table():
    table = _letters()

    @tf.function
    def twice(x):
        return table.lookup(x) * 2
    assert twice(tf.constant(["b", "zz"])).numpy().tolist() == [2, -2]
    mutable = lookup.experimental.MutableHashTable(tf.string, tf.int64, -1)
    mutable.insert(["a", "b"], tf.constant([5, 6], tf.int64))
    assert mutable.lookup(tf.constant(["a", "c"])).numpy().tolist() == [5, -1]
    mutable.remove(tf.constant(["a"]))
    assert mutable.lookup(tf.constant(["a", "b"])).numpy().tolist() == [-1, 6]

    @tf.function
    def insert_then_read(k, v):
        mutable.insert(k, v)
        return mutable.lookup(k), mutable.size()
    found, size = insert_then_read(tf.constant(["q"]), tf.constant([9], tf.int64))
    assert found.numpy().tolist() == [9] and size.numpy() == 2
    keys, values = mutable.export()
    assert sorted(zip(keys.numpy().tolist(), values.numpy().tolist())) == [(b"b", 6), (b"q", 9)]
