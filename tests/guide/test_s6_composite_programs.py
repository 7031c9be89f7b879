"""Behaviours that realistic tf.data / ragged / sparse / string programs (/tmp/programs_s6c)
showed to differ from TensorFlow; expected values were recorded from TensorFlow 2.21 as
literals."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError


def _values(ds):
    return [np.asarray(x).tolist() for x in ds.as_numpy_iterator()]


def test_take_while_eager_staged_and_experimental():
    ds = tf.data.Dataset.range(10)
    assert _values(ds.take_while(lambda x: x < 4)) == [0, 1, 2, 3]
    assert _values(ds.apply(tf.data.experimental.take_while(lambda x: x % 5 != 4))) == \
        [0, 1, 2, 3]
    assert ds.take_while(lambda x: x < 3).cardinality().numpy() == -2
    assert tf.data.experimental.cardinality(ds).numpy() == 10
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar"):
        ds.take_while(lambda x: x)

    @tf.function
    def total(limit):
        s = tf.constant(0, tf.int64)
        for x in ds.take_while(lambda x: x * x < limit):
            s += x
        return s
    assert total(tf.constant(20, tf.int64)).numpy() == 10   # 0 + 1 + 2 + 3 + 4


def test_rebatch_crosses_input_batches():
    ds = tf.data.Dataset.range(10)
    cases = [
        (ds.batch(4).rebatch(2), "(None,)", [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]),
        (ds.batch(4).rebatch(2, drop_remainder=True), "(2,)",
         [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]),
        (ds.batch(4).rebatch([1, 3]), "(None,)", [[0], [1, 2, 3], [4], [5, 6, 7], [8], [9]]),
        (ds.batch(4, drop_remainder=True).rebatch([2, 1, 1]), "(None,)",
         [[0, 1], [2], [3], [4, 5], [6], [7]]),
        (ds.batch(3).rebatch([2, 2], drop_remainder=True), "(2,)",
         [[0, 1], [2, 3], [4, 5], [6, 7], [8, 9]]),
    ]
    for rebatched, shape, expected in cases:
        assert str(rebatched.element_spec.shape) == shape
        assert _values(rebatched) == expected
    d2 = tf.data.Dataset.from_tensor_slices(({"a": tf.range(6)}, tf.ones([6, 2]))).batch(3)
    spec = d2.rebatch(2).element_spec
    assert spec[0]["a"].shape.as_list() == [None] and spec[1].shape.as_list() == [None, 2]
    with pytest.raises(ValueError, match="found a dataset with scalar elements"):
        ds.rebatch(2)


def test_padded_batch_refuses_ragged_elements():
    words = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1], [1, 2], [3, 4, 5]]))
    with pytest.raises(TypeError, match="only supported for datasets that produce tensor "
                                        "elements"):
        words.padded_batch(2)


def test_group_by_window_keeps_ragged_elements():
    words = tf.data.Dataset.from_tensor_slices(tf.ragged.constant(
        [[1], [1, 2], [3, 4, 5], [6], [7, 8], [9, 10, 11, 12], [1, 2, 3]]))
    b = words.bucket_by_sequence_length(lambda x: tf.size(x), bucket_boundaries=[2, 3],
                                        bucket_batch_sizes=[2, 2, 2], no_padding=True)
    assert [x.to_list() for x in b] == [[[1], [6]], [[1, 2], [7, 8]],
                                        [[3, 4, 5], [9, 10, 11, 12]], [[1, 2, 3]]]
    d = tf.data.Dataset.from_tensor_slices(({"a": [1, 2, 3]}, [4., 5., 6.]))
    g = d.group_by_window(lambda a, b: tf.cast(a["a"] % 2, tf.int64),
                          lambda k, w: w.batch(2), window_size=2)
    assert [(a["a"].numpy().tolist(), b.numpy().tolist()) for a, b in g] == \
        [([1, 3], [4., 6.]), ([2], [5.])]


def test_dataset_spec_prints_as_its_repr():
    spec = tf.data.Dataset.range(7).window(3).element_spec
    assert str(spec) == ("DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), "
                         "TensorShape([]))")


def test_deterministic_without_parallel_calls_warns():
    ds = tf.data.Dataset.range(3)
    with pytest.warns(UserWarning, match="`deterministic` argument has no effect"):
        ds.interleave(lambda x: tf.data.Dataset.range(x), cycle_length=2, deterministic=True)
    with pytest.warns(UserWarning, match="`deterministic` argument has no effect"):
        ds.map(lambda x: x, deterministic=False)


def _example(ix, v, j=None):
    f = {"ix": tf.train.Feature(int64_list=tf.train.Int64List(value=ix)),
         "v": tf.train.Feature(float_list=tf.train.FloatList(value=v))}
    if j is not None:
        f["j"] = tf.train.Feature(int64_list=tf.train.Int64List(value=j))
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def test_parse_example_key_order_is_sparse_dense_ragged():
    spec = {"z": tf.io.FixedLenFeature([], tf.int64, default_value=0),
            "b": tf.io.VarLenFeature(tf.float32),
            "a": tf.io.FixedLenFeature([], tf.int64, default_value=0),
            "y": tf.io.RaggedFeature(tf.int64), "c": tf.io.RaggedFeature(tf.int64),
            "m": tf.io.VarLenFeature(tf.int64)}
    ex = _example([1], [2.])
    assert list(tf.io.parse_single_example(ex, spec)) == ["b", "m", "a", "z", "c", "y"]
    ds = tf.data.Dataset.from_tensors([ex]).map(lambda s: tf.io.parse_example(s, spec))
    assert list(ds.element_spec) == ["b", "m", "a", "z", "c", "y"]


def test_sparse_feature():
    p = tf.io.parse_single_example(_example([3, 1], [1., 2.]), {
        "sp": tf.io.SparseFeature(index_key="ix", value_key="v", dtype=tf.float32, size=5),
        "ix": tf.io.VarLenFeature(tf.int64)})
    assert list(p) == ["ix", "sp"] and p["sp"].shape.as_list() == [5]
    assert p["sp"].indices.numpy().tolist() == [[1], [3]]
    assert p["sp"].values.numpy().tolist() == [2., 1.]
    p = tf.io.parse_example([_example([3, 1], [1., 2.]), _example([0], [5.])],
                            {"sp": tf.io.SparseFeature("ix", "v", tf.float32, 5)})
    assert list(p) == ["sp"] and p["sp"].dense_shape.numpy().tolist() == [2, 5]
    assert p["sp"].indices.numpy().tolist() == [[0, 1], [0, 3], [1, 0]]
    p = tf.io.parse_example([_example([3, 1], [1., 2.], [0, 1])],
                            {"sp": tf.io.SparseFeature(["ix", "j"], "v", tf.float32, [5, 2])})
    assert p["sp"].indices.numpy().tolist() == [[0, 1, 1], [0, 3, 0]]
    assert p["sp"].dense_shape.numpy().tolist() == [1, 5, 2]
    p = tf.io.parse_example([_example([3, 1], [1., 2.])], {"sp": tf.io.SparseFeature(
        "ix", "v", tf.float32, 5, already_sorted=True)})
    assert p["sp"].indices.numpy().tolist() == [[0, 3], [0, 1]]
    ds = tf.data.Dataset.from_tensors([_example([3], [1.])]).map(
        lambda s: tf.io.parse_example(s, {"sp": tf.io.SparseFeature("ix", "v", tf.float32, 5)}))
    assert ds.element_spec["sp"].shape.as_list() == [None, 5]


def test_from_generator_with_composite_signature():
    def gen():
        for i in range(1, 4):
            yield tf.ragged.constant([[j] * j for j in range(i)], dtype=tf.int32), {"n": i}
    ds = tf.data.Dataset.from_generator(gen, output_signature=(
        tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32),
        {"n": tf.TensorSpec([], tf.int32)}))
    assert [r.to_list() for r, _ in ds] == [[[]], [[], [1]], [[], [1], [2, 2]]]
    batched = next(iter(ds.batch(2)))[0]
    assert batched.to_list() == [[[]], [[], [1]]] and batched.ragged_rank == 2

    @tf.function
    def total(ds):
        s = 0
        for r, d in ds:
            s += tf.reduce_sum(r) * d["n"]
        return s
    assert total(ds).numpy() == 17   # 0*1 + 1*2 + 5*3
    sp = tf.data.Dataset.from_generator(lambda: iter([tf.SparseTensor([[0]], [1], [3])]),
                                        output_signature=tf.SparseTensorSpec([None], tf.int32))
    assert [tf.sparse.to_dense(x).numpy().tolist() for x in sp] == [[1, 0, 0]]
    for value, message in [
            (tf.ragged.constant([[1.], []]), "element of RaggedTensorSpec\\(TensorShape\\(\\[2, "
                                             "None\\]\\), tf.float32, 1, tf.int64\\) where"),
            ([[1], [2, 3]], "did not match the expected structure"),
            (tf.constant([[1], [2]]), "element of TensorSpec\\(shape=\\(2, 1\\)")]:
        bad = tf.data.Dataset.from_generator(lambda: iter([value]), output_signature=(
            tf.RaggedTensorSpec([None, None], tf.int32)))
        with pytest.raises(InvalidArgumentError, match=message):
            list(bad)


def test_from_generator_conversions():
    def first(value, **kw):
        return next(iter(tf.data.Dataset.from_generator(lambda: iter([value]), **kw))).numpy()
    # numpy floats truncate; numbers are not strings (TensorFlow: InvalidArgumentError)
    assert first(np.float32(-1.5), output_types=tf.int32) == -1
    assert first(np.array([3.6]), output_signature=tf.TensorSpec([None], tf.int32)).tolist() == [3]
    assert first(True, output_types=tf.float32) == 1.0
    for value in (1, [1, 2], 1.5, True):
        with pytest.raises(InvalidArgumentError):
            first(value, output_types=tf.string)


def test_sparse_reductions_with_sparse_output():
    st = tf.SparseTensor([[0, 0, 1], [0, 2, 0], [1, 1, 1], [1, 1, 0]], [1., -1., 2., 5.],
                         [2, 3, 2])
    expected = {  # (axis, keepdims) -> sum (indices, values, dense_shape), max values
        (1, False): ([[0, 0], [0, 1], [1, 0], [1, 1]], [-1., 1., 5., 2.], [2, 2],
                     [-1., 1., 5., 2.]),
        (1, True): ([[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1]], [-1., 1., 5., 2.],
                    [2, 1, 2], [-1., 1., 5., 2.]),
        ((0, 2), False): ([[0], [1], [2]], [1., 7., -1.], [3], [1., 5., -1.]),
        (None, False): ([[]], [7.], [], [5.]),
        (None, True): ([[0, 0, 0]], [7.], [1, 1, 1], [5.]),
    }
    for (axis, keepdims), (indices, values, shape, max_values) in expected.items():
        axis = list(axis) if isinstance(axis, tuple) else axis
        r = tf.sparse.reduce_sum(st, axis=axis, keepdims=keepdims, output_is_sparse=True)
        assert isinstance(r, tf.SparseTensor)
        assert r.indices.numpy().tolist() == indices and r.values.numpy().tolist() == values
        assert r.dense_shape.numpy().tolist() == shape
        m = tf.sparse.reduce_max(st, axis=axis, keepdims=keepdims, output_is_sparse=True)
        assert m.values.numpy().tolist() == max_values
    staged = tf.function(lambda s: tf.sparse.reduce_sum(s, 1, output_is_sparse=True))
    r = staged(st)
    assert r.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0], [1, 1]]
    assert r.shape.as_list() == [2, 2]


def test_map_fn_over_ragged_with_ragged_signature():
    rt = tf.ragged.constant([[1, 2, 3], [4], [], [5, 6]])

    @tf.function
    def doubled(x):
        return tf.map_fn(lambda r: tf.concat([r, r], 0), x,
                         fn_output_signature=tf.RaggedTensorSpec(shape=[None], dtype=tf.int32))
    assert doubled(rt).to_list() == [[1, 2, 3, 1, 2, 3], [4, 4], [], [5, 6, 5, 6]]


def test_table_made_inside_function_lives_with_the_graph():
    @tf.function
    def count(keys):
        table = tf.lookup.experimental.DenseHashTable(
            key_dtype=tf.int64, value_dtype=tf.int64, default_value=0, empty_key=-1,
            deleted_key=-2)
        return table.size(), table.lookup(keys)
    for _ in range(2):
        size, found = count(tf.constant([3], tf.int64))
        assert size.numpy() == 0 and found.numpy().tolist() == [0]


def test_stack_dynamic_partitions():
    f = tf.ragged.stack_dynamic_partitions
    assert f(tf.constant([[1, 2], [3, 4], [5, 6]]), [2, 0, 2], 3).to_list() == \
        [[[3, 4]], [], [[1, 2], [5, 6]]]
    assert f(tf.constant([[1, 2], [3, 4]]), [[1, 0], [0, 0]], 2).to_list() == [[2, 3, 4], [1]]
    assert f(tf.ragged.constant([[1], [3, 4], [5]]), [1, 0, 1], 2).to_list() == \
        [[[3, 4]], [[1], [5]]]
    assert f([1, 2], tf.constant([0, 1], tf.int64), 2).to_list() == [[1], [2]]
    with pytest.raises(InvalidArgumentError, match="partitions must be less than"):
        f([1, 2], [0, 3], 2)
    staged = tf.function(lambda d, p: f(d, p, 3))
    assert staged(tf.constant([1., 2., 3.]), tf.constant([2, 2, 0])).to_list() == \
        [[3.], [], [1., 2.]]


def test_cache_to_a_file_is_read_by_later_datasets(tmp_path):
    path = str(tmp_path / "cache")
    c = tf.data.Dataset.range(4).map(lambda x: x * 3).cache(path)
    assert _values(c) == [0, 3, 6, 9] and _values(c) == [0, 3, 6, 9]
    assert (tmp_path / "cache.index").exists()
    # TensorFlow reads an existing cache whatever the input now is
    assert _values(tf.data.Dataset.range(10).cache(path)) == [0, 3, 6, 9]
    unfinished = tf.data.Dataset.range(5).cache(str(tmp_path / "partial"))
    next(iter(unfinished))
    assert not (tmp_path / "partial.index").exists()

    @tf.function
    def total(p):
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(3).cache(p):
            s += x
        return s
    assert total(tf.constant(str(tmp_path / "staged"))).numpy() == 3
    assert (tmp_path / "staged.index").exists()


def test_save_and_load(tmp_path):
    path = str(tmp_path / "saved")
    ds = tf.data.Dataset.from_tensor_slices((tf.ragged.constant([[1], [2, 3]]), {"s": ["a", "b"]}))
    ds.save(path)
    loaded = tf.data.Dataset.load(path)
    assert repr(loaded.element_spec) == (
        "(RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64), {'s': TensorSpec("
        "shape=(), dtype=tf.string, name=None)})")
    assert [(r.numpy().tolist(), m["s"].numpy()) for r, m in loaded] == [([1], b"a"),
                                                                          ([2, 3], b"b")]
    assert loaded.cardinality().numpy() == 2

    @tf.function
    def total(d):
        s = 0
        for r, _ in d:
            s += tf.reduce_sum(r)
        return s
    assert total(loaded).numpy() == 6
    with pytest.raises(tf.errors.NotFoundError):
        tf.data.Dataset.load(str(tmp_path / "nothing"))


def test_list_files_and_matching_files(tmp_path):
    for name in ["b.txt", "a.txt", "c.csv"]:
        (tmp_path / name).write_text(name)
    ds = tf.data.Dataset.list_files([str(tmp_path / "*.txt"), str(tmp_path / "*.csv")],
                                    shuffle=False)
    assert [f.decode().rsplit("/", 1)[1] for f in ds.as_numpy_iterator()] == \
        ["a.txt", "b.txt", "c.csv"]
    assert ds.cardinality().numpy() == 3
    assert sorted(f.decode().rsplit("/", 1)[1] for f in tf.data.Dataset.list_files(
        str(tmp_path / "*")).as_numpy_iterator()) == ["a.txt", "b.txt", "c.csv"]
    with pytest.raises(InvalidArgumentError, match="to be true. Summarized data: b'No files "
                                                   "matched pattern: "):
        tf.data.Dataset.list_files(str(tmp_path / "*.nope"))
    assert tf.io.matching_files(str(tmp_path / "*.nope")).shape == (0,)

    @tf.function
    def count(p):
        n = 0
        for f in tf.data.Dataset.list_files(p, shuffle=False):
            n += tf.strings.length(tf.io.read_file(f))
        return n
    assert count(str(tmp_path / "*.txt")).numpy() == 10


def test_to_tensor_gives_the_values_an_indexed_slices_gradient():
    v = tf.Variable([1., 2., 3.])
    for f, expected in [(lambda r: r.to_tensor() ** 2, [2., 4., 6.]),
                        (lambda r: r.to_tensor(shape=[2, 1]) * 3., [3., 0., 3.]),
                        (lambda r: r.to_tensor(default_value=2.) * 3., [3., 3., 3.])]:
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(f(tf.RaggedTensor.from_row_lengths(v, [2, 1])))
        g = tape.gradient(y, v)
        assert type(g).__name__ == "IndexedSlices"
        assert tf.convert_to_tensor(g).numpy().tolist() == expected

    @tf.function
    def staged(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.RaggedTensor.from_row_lengths(x, [1, 2]).to_tensor() * 2.)
        return t.gradient(y, x)
    g = staged(tf.constant([1., 2., 3.]))
    assert type(g).__name__ == "IndexedSlices"
    assert tf.convert_to_tensor(g).numpy().tolist() == [2., 2., 2.]


def test_assert_cardinality_and_experimental_transformations():
    for n, expected, error in [
            (3, 3, None), (3, 2, "expected to contain 2 elements but contained at least 3 "
                                 "elements."),
            (3, 5, "expected to contain 5 elements but contained only 3 elements."),
            (0, 1, "expected to contain 1 element but contained only 0 elements.")]:
        ds = tf.data.Dataset.range(n).filter(lambda x: True).apply(
            tf.data.experimental.assert_cardinality(expected))
        assert ds.cardinality().numpy() == expected
        if error is None:
            assert _values(ds) == list(range(n))
        else:
            with pytest.raises(tf.errors.FailedPreconditionError, match=error):
                _values(ds)
    gen = tf.data.Dataset.from_generator(lambda: iter([1, 2]), output_types=tf.int32)
    assert len(gen.apply(tf.data.experimental.assert_cardinality(2))) == 2
    ds = tf.data.Dataset.range(5)
    e = tf.data.experimental
    assert _values(ds.apply(e.shuffle_and_repeat(5, 2, seed=3))) == \
        [4, 3, 2, 1, 0, 3, 4, 1, 2, 0]
    assert _values(ds.apply(e.map_and_batch(lambda x: x * 2, 2))) == [[0, 2], [4, 6], [8]]
    assert ds.apply(e.map_and_batch(lambda x: x, 2, drop_remainder=True)).element_spec.shape \
        .as_list() == [2]
    assert _values(tf.data.Dataset.range(1, 4).apply(e.parallel_interleave(
        lambda x: tf.data.Dataset.range(x), cycle_length=2))) == [0, 0, 1, 0, 1, 2]
    assert _values(ds.batch(2).apply(e.unbatch())) == [0, 1, 2, 3, 4]
    assert e.get_structure(ds) == tf.TensorSpec([], tf.int64)
    o = e.get_next_as_optional(iter(tf.data.Dataset.range(1)))
    assert o.has_value().numpy() and o.get_value().numpy() == 0


def test_sparse_batch_keeps_every_entry():
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 0, 2], [3], [0, 4]])).map(
        lambda x: x)
    b = ds.sparse_batch(2, [4])
    assert repr(b.element_spec) == "SparseTensorSpec(TensorShape([None, 4]), tf.int32)"
    got = [(s.indices.numpy().tolist(), s.values.numpy().tolist(), s.dense_shape.numpy().tolist())
           for s in b]
    assert got == [([[0, 0], [0, 1], [0, 2], [1, 0]], [1, 0, 2, 3], [2, 4]),
                   ([[0, 0], [0, 1]], [0, 4], [1, 4])]
    s = next(iter(ds.apply(tf.data.experimental.dense_to_sparse_batch(3, [5]))))
    assert s.values.numpy().tolist() == [1, 0, 2, 3, 0, 4]
    assert s.dense_shape.numpy().tolist() == [3, 5]
    m = tf.data.Dataset.range(3).map(lambda x: tf.fill([x, 2], x)).sparse_batch(3, [3, 2])
    assert next(iter(m)).indices.numpy().tolist() == \
        [[1, 0, 0], [1, 0, 1], [2, 0, 0], [2, 0, 1], [2, 1, 0], [2, 1, 1]]
    with pytest.raises(tf.errors.DataLossError, match="shape \\(\\[3\\]\\) that is larger than "
                                                      "the row shape \\(\\[2\\]\\)"):
        list(ds.sparse_batch(2, [2]))
    with pytest.raises(ValueError, match="Dimension -1 must be >= 0"):
        ds.sparse_batch(2, [-1])

    @tf.function
    def total(d):
        acc = tf.zeros([4], tf.int32)
        for sp in d:
            acc += tf.sparse.reduce_sum(sp, axis=0)
        return acc
    assert total(b).numpy().tolist() == [4, 4, 2, 0]


def _nested_example(v, lens, splits):
    f = {"v": tf.train.Feature(int64_list=tf.train.Int64List(value=v)),
         "lens": tf.train.Feature(int64_list=tf.train.Int64List(value=lens)),
         "sp": tf.train.Feature(int64_list=tf.train.Int64List(value=splits))}
    return tf.train.Example(features=tf.train.Features(feature=f)).SerializeToString()


def test_ragged_feature_partitions():
    e1 = _nested_example([1, 2, 3, 4, 5], [2, 0, 3], [0, 1, 3])
    e2 = _nested_example([6], [1], [0, 1])
    F = tf.io.RaggedFeature
    lengths = F(tf.int64, value_key="v", partitions=[F.RowLengths("lens")])
    p = tf.io.parse_single_example(e1, {"r": lengths})["r"]
    assert p.to_list() == [[1, 2], [], [3, 4, 5]] and p.row_splits.dtype == tf.int32
    b = tf.io.parse_example([e1, e2], {"r": lengths})["r"]
    assert b.to_list() == [[[1, 2], [], [3, 4, 5]], [[6]]] and b.ragged_rank == 2
    two = F(tf.int64, value_key="v", partitions=[F.RowSplits("sp"), F.RowLengths("lens")],
            row_splits_dtype=tf.int64)
    p = tf.io.parse_single_example(e1, {"r": two})["r"]
    assert p.to_list() == [[[1, 2]], [[], [3, 4, 5]]] and p.row_splits.dtype == tf.int64
    b = tf.io.parse_example([e1, e2], {"r": two})["r"]
    assert b.to_list() == [[[[1, 2]], [[], [3, 4, 5]]], [[[6]]]] and b.ragged_rank == 3
    ds = tf.data.Dataset.from_tensors([e1, e2]).map(lambda s: tf.io.parse_example(s, {
        "r": F(tf.int64, value_key="v", partitions=[F.RowSplits("sp")]),
        "lens": tf.io.VarLenFeature(tf.int64)}))
    assert repr(ds.element_spec) == (
        "{'lens': SparseTensorSpec(TensorShape([None, None]), tf.int64), 'r': RaggedTensorSpec("
        "TensorShape([2, None, None]), tf.int64, 2, tf.int32)}")
