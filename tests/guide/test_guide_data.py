"""The tf.data guide ("tf.data: Build TensorFlow input pipelines"), its in-memory and text parts.

Each test runs the guide's code with ``import autograph as tf`` and compares what it prints
with what TensorFlow 2.21 printed for the same code (recorded as literals).
"""
import textwrap

import numpy as np
import pytest

import autograph as tf


def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_reprs_name_tensorflows_dataset_classes():
    assert repr(tf.data.Dataset.from_tensor_slices([8, 3])) == (
        "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>")
    assert repr(tf.data.Dataset.range(3).batch(2).unbatch()) == (
        "<_UnbatchDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>")
    assert repr(tf.data.Dataset.range(3).padded_batch(2)) == (
        "<_PaddedBatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>")
    assert repr(tf.data.Dataset.range(3).window(2)) == (
        "<_WindowDataset element_spec=DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, "
        "name=None), TensorShape([]))>")
    assert repr(tf.data.TextLineDataset(["a"])) == (
        "<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>")
    assert repr(tf.data.Dataset.range(3).flat_map(tf.data.Dataset.range)) == (
        "<_FlatMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>")


def test_padded_batch(capsys):
    dataset = tf.data.Dataset.range(100)
    dataset = dataset.map(lambda x: tf.fill([tf.cast(x, tf.int32)], x))
    dataset = dataset.padded_batch(4, padded_shapes=(None,))
    for batch in dataset.take(2):
        print(batch.numpy())
        print()
    assert capsys.readouterr().out == expect("""
        [[0 0 0]
         [1 0 0]
         [2 2 0]
         [3 3 3]]

        [[4 4 4 4 0 0 0]
         [5 5 5 5 5 0 0]
         [6 6 6 6 6 6 0]
         [7 7 7 7 7 7 7]]

        """)
    padded = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).padded_batch(2, [3])
    np.testing.assert_array_equal(next(iter(padded)), [[1, 2, 0], [3, 4, 0]])


def test_padded_batch_of_a_generator_series():
    def gen_series():
        i = 0
        while True:
            size = np.random.randint(0, 10)
            yield i, np.random.normal(size=(size,))
            i += 1
    ds_series = tf.data.Dataset.from_generator(
        gen_series, output_types=(tf.int32, tf.float32), output_shapes=((), (None,)))
    ids, sequence_batch = next(iter(ds_series.shuffle(20).padded_batch(10)))
    assert ids.numpy().shape == (10,)
    assert sequence_batch.numpy().shape[0] == 10
    assert sequence_batch.shape.as_list() == [10, sequence_batch.shape[1]]


def test_padded_batch_errors():
    ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]])
    with pytest.raises(ValueError, match=r"The padded shape \(1,\) is not compatible with the "
                                         r"shape \(2,\) of the corresponding input component."):
        ds.padded_batch(2, padded_shapes=[1])
    ragged = tf.data.Dataset.from_generator(lambda: iter([[1], [1, 2]]), tf.int32, [None])
    with pytest.raises(tf.errors.DataLossError,
                       match="Attempted to pad to a smaller size than the input element."):
        list(ragged.padded_batch(2, padded_shapes=[1]))


@pytest.fixture
def text_files(tmp_path):
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_text("first line of a\nsecond line of a\n# comment\nthird line of a\n")
    b.write_text("header\nb one\nb two")
    return [str(a), str(b)]


def test_text_line_dataset(text_files, capsys):
    dataset = tf.data.TextLineDataset(text_files)
    for line in dataset.take(5):
        print(line.numpy())
    files_ds = tf.data.Dataset.from_tensor_slices(text_files)
    lines_ds = files_ds.interleave(tf.data.TextLineDataset, cycle_length=2)
    for i, line in enumerate(lines_ds.take(6)):
        if i % 2 == 0:
            print()
        print(line.numpy())
    for line in tf.data.TextLineDataset(text_files[1]).skip(1):
        print(line.numpy())

    def not_comment(line):
        return tf.not_equal(tf.strings.substr(line, 0, 1), "#")
    for line in tf.data.TextLineDataset(text_files[0]).filter(not_comment):
        print(line.numpy())
    assert capsys.readouterr().out == expect("""
        b'first line of a'
        b'second line of a'
        b'# comment'
        b'third line of a'
        b'header'

        b'first line of a'
        b'header'

        b'second line of a'
        b'b one'

        b'# comment'
        b'b two'
        b'b one'
        b'b two'
        b'first line of a'
        b'second line of a'
        b'third line of a'
        """)


def test_text_line_dataset_of_a_missing_file():
    with pytest.raises(tf.errors.NotFoundError,
                       match="/nonexistent/file.txt; No such file or directory"):
        list(tf.data.TextLineDataset("/nonexistent/file.txt"))


def test_interleave_refills_a_slot_when_next_visited():
    ds = tf.data.Dataset.range(4).interleave(
        lambda x: tf.data.Dataset.from_tensors(x).repeat(x + 1), cycle_length=2, block_length=2)
    assert list(ds.as_numpy_iterator()) == [0, 1, 1, 2, 2, 2, 3, 3, 3, 3]


def test_window_flat_map(capsys):
    range_ds = tf.data.Dataset.range(100000)
    window_size = 5
    windows = range_ds.window(window_size, shift=1)
    for sub_ds in windows.take(2):
        print(sub_ds)
    for x in windows.flat_map(lambda x: x).take(30):
        print(x.numpy(), end=' ')
    print()

    def sub_to_batch(sub):
        return sub.batch(window_size, drop_remainder=True)
    for example in windows.flat_map(sub_to_batch).take(3):
        print(example.numpy())
    assert capsys.readouterr().out == expect("""
        <_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
        <_VariantDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
        0 1 2 3 4 1 2 3 4 5 2 3 4 5 6 3 4 5 6 7 4 5 6 7 8 5 6 7 8 9 
        [0 1 2 3 4]
        [1 2 3 4 5]
        [2 3 4 5 6]
        """)  # noqa: W291


def test_window_of_structures_and_strides():
    ds = tf.data.Dataset.zip((tf.data.Dataset.range(3),
                              tf.data.Dataset.range(3).map(tf.strings.as_string))).window(2)
    assert repr(ds.element_spec) == (
        "(DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([])), "
        "DatasetSpec(TensorSpec(shape=(), dtype=tf.string, name=None), TensorShape([])))")
    got = [(list(a.as_numpy_iterator()), list(b.as_numpy_iterator())) for a, b in ds]
    assert got == [([0, 1], [b"0", b"1"]), ([2], [b"2"])]
    strided = tf.data.Dataset.range(7).window(3, shift=2, stride=2, drop_remainder=True)
    assert [b.tolist() for b in strided.flat_map(lambda x: x.batch(3)).as_numpy_iterator()] == [
        [0, 2, 4], [2, 4, 6]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Window size must be greater"):
        list(tf.data.Dataset.range(3).window(0))


def test_apply_unbatch_counter(capsys):
    def my_transform(ds):
        return ds.map(lambda x: x * 2)
    for x in tf.data.Dataset.range(3).apply(my_transform):
        print(x.numpy())
    for x in tf.data.Dataset.range(6).batch(4).unbatch():
        print(x.numpy(), end=' ')
    print()
    assert capsys.readouterr().out == "0\n2\n4\n0 1 2 3 4 5 \n"
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components."):
        tf.data.Dataset.range(3).unbatch()
    counter = tf.data.experimental.Counter(start=2, step=3)
    assert list(counter.take(3).as_numpy_iterator()) == [2, 5, 8]
    lines = tf.data.Dataset.range(20)
    n, _ = next(iter(tf.data.Dataset.zip((counter, lines)).shuffle(100).batch(20)))
    assert sorted(n.numpy().tolist()) == list(range(2, 60, 3))


def test_staged_window_unbatch_padded_batch():
    @tf.function
    def staged(ds):
        total = tf.constant(0, tf.int64)
        for w in ds.window(3, shift=2).flat_map(lambda x: x.batch(3)):
            total += tf.reduce_sum(w)
        return total
    assert staged(tf.data.Dataset.range(7)).numpy() == 33

    @tf.function
    def staged2():
        out = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(6).batch(4).unbatch():
            out = out * 10 + x
        for b in tf.data.Dataset.range(5).map(lambda x: tf.fill([x], x)).padded_batch(
                2, padded_shapes=[4], padding_values=tf.constant(-1, tf.int64)):
            out += tf.reduce_sum(b)
        return out
    assert staged2().numpy() == 12365


def test_seeded_shuffle_is_tensorflows(global_seed):
    ds = tf.data.Dataset.range(10).shuffle(10, seed=42)
    assert list(ds.as_numpy_iterator()) == [5, 9, 6, 4, 7, 1, 2, 8, 3, 0]
    assert list(ds.as_numpy_iterator()) == [3, 7, 6, 5, 8, 4, 0, 1, 9, 2]  # reshuffled
    fixed = tf.data.Dataset.range(10).shuffle(10, seed=42, reshuffle_each_iteration=False)
    assert list(fixed.as_numpy_iterator()) == [2, 0, 7, 8, 9, 3, 6, 4, 1, 5]
    assert list(tf.data.Dataset.range(20).shuffle(4, seed=7).as_numpy_iterator()) == [
        0, 4, 2, 3, 5, 6, 1, 9, 8, 12, 7, 10, 15, 14, 17, 16, 11, 13, 19, 18]
    tf.random.set_seed(3)
    assert list(tf.data.Dataset.range(10).shuffle(5).as_numpy_iterator()) == [
        2, 4, 5, 3, 0, 6, 7, 1, 8, 9]

    @tf.function
    def f():
        return tf.data.Dataset.range(6).shuffle(6, seed=1).reduce(
            tf.constant(0, tf.int64), lambda s, x: s * 10 + x)
    assert f().numpy() == f().numpy() == 143052


@pytest.fixture
def global_seed():
    yield
    tf.random.set_seed(None)


def test_shard_cache_scan_get_single_element():
    sharded = tf.data.Dataset.range(10).shard(3, 1)
    assert list(sharded.as_numpy_iterator()) == [1, 4, 7]
    assert sharded.cardinality().numpy() == 3
    cached = tf.data.Dataset.range(5).map(lambda x: x * 2).cache()
    assert list(cached.as_numpy_iterator()) == list(cached.as_numpy_iterator()) == [0, 2, 4, 6, 8]
    pair = tf.data.Dataset.range(1).map(lambda x: (x, x + 1)).get_single_element()
    assert [t.numpy() for t in pair] == [0, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset was empty."):
        tf.data.Dataset.range(0).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dataset had more than one"):
        tf.data.Dataset.range(2).get_single_element()
    with pytest.raises(tf.errors.InvalidArgumentError, match="Number of shards must be greater"):
        tf.data.Dataset.range(2).shard(0, 0)
    scanned = tf.data.Dataset.range(5).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))
    assert list(scanned.as_numpy_iterator()) == [0, 0, 10, 30, 60]
    nested = tf.data.Dataset.range(4).scan(
        (tf.constant(1, tf.int64), tf.constant(0.5)),
        lambda s, x: ((s[0] * 2, s[1] + 1.), {"a": x + s[0], "b": s[1]}))
    assert [(e["a"], e["b"]) for e in nested.as_numpy_iterator()] == [
        (1, 0.5), (3, 1.5), (6, 2.5), (11, 3.5)]
    with pytest.raises(TypeError):
        tf.data.Dataset.range(3).scan(tf.constant(0), lambda s, x: (tf.cast(s, tf.float32), x))

    @tf.function
    def f():
        total = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(6).scan(tf.constant(0, tf.int64),
                                               lambda s, x: (s + x, s)).shard(2, 0):
            total += x
        return total, tf.data.Dataset.from_tensors(tf.constant([1, 2])).get_single_element()
    total, single = f()
    assert total.numpy() == 7 and single.numpy().tolist() == [1, 2]


def _tens_of_evens(x):
    if x % 2 == 0:  # a tensor condition: the map function runs converted, as in TensorFlow
        x = x * 10
    return x


def test_map_and_filter_functions_are_converted():
    ds = tf.data.Dataset.range(6)
    assert [int(v) for v in ds.map(_tens_of_evens)] == [0, 1, 20, 3, 40, 5]
    assert [int(v) for v in ds.filter(lambda x: x > 2)] == [3, 4, 5]
