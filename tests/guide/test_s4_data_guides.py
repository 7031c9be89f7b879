"""The tf.data guide's CSV, resampling and grouping cells, run with ``import autograph as
tf``; expected values were recorded from TensorFlow 2.21 running the same code."""
import collections

import numpy as np
import pytest

import autograph as tf

ROWS = ["survived,sex,age,fare,class",
        "0,male,22.0,7.25,Third",
        "1,female,38.0,71.2833,First",
        "1,female,,7.925,Third",
        "0,male,35.0,8.05,Third"]


@pytest.fixture
def titanic(tmp_path):
    path = tmp_path / "titanic.csv"
    path.write_text("\n".join(ROWS) + "\n")
    return str(path)


def test_make_csv_dataset_infers_columns_and_pops_the_label(titanic):
    ds = tf.data.experimental.make_csv_dataset(titanic, batch_size=3, label_name="survived",
                                               shuffle=False, num_epochs=1)
    features, label = next(iter(ds))
    assert isinstance(features, collections.OrderedDict)
    assert list(features) == ["sex", "age", "fare", "class"]
    assert label.dtype == tf.int32 and label.numpy().tolist() == [0, 1, 1]
    assert features["age"].dtype == tf.float32
    assert features["age"].numpy().tolist() == [22.0, 38.0, 0.0]   # missing: the default
    assert features["class"].numpy().tolist() == [b"Third", b"First", b"Third"]
    assert repr(ds.element_spec[1]) == "TensorSpec(shape=(None,), dtype=tf.int32, name=None)"
    selected = tf.data.experimental.make_csv_dataset(
        titanic, 2, label_name="survived", select_columns=["class", "fare", "survived"],
        shuffle=False)   # num_epochs=None: repeats, whole batches
    features, label = next(iter(selected))
    assert list(features) == ["fare", "class"] and features["fare"].shape == (2,)
    with pytest.raises(ValueError, match="label_name"):
        tf.data.experimental.make_csv_dataset(titanic, 2, label_name="nope")


def test_csv_dataset_defaults_select_cols_and_required_fields(tmp_path):
    path = tmp_path / "missing.csv"
    path.write_text("1,2,3,4\n,2,3,4\n1,,3,4\n1,2,,4\n1,2,3,\n,,,\n")
    ds = tf.data.experimental.CsvDataset(str(path), [999, 999, 999, 999])
    rows = [line.numpy().tolist() for line in ds.map(lambda *items: tf.stack(items))]
    assert rows == [[1, 2, 3, 4], [999, 2, 3, 4], [1, 999, 3, 4], [1, 2, 999, 4],
                    [1, 2, 3, 999], [999, 999, 999, 999]]
    ds = tf.data.experimental.CsvDataset(str(path), [999, 999], select_cols=[1, 3])
    assert [[int(v) for v in r] for r in ds] == [[2, 4], [2, 4], [999, 4], [2, 4], [2, 999],
                                                 [999, 999]]
    required = tf.data.experimental.CsvDataset(str(path), [tf.int32, 0.0, "", 0],
                                               select_cols=None)
    assert repr(required.element_spec[1]) == "TensorSpec(shape=(), dtype=tf.float32, name=None)"
    it = iter(required)
    assert [v.numpy() for v in next(it)] == [1, 2.0, b"3", 4]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Field 0 is required"):
        next(it)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 5 fields but have 4"):
        list(tf.data.experimental.CsvDataset(str(path), [0] * 5))


def test_csv_dataset_header_staged(titanic):
    @tf.function
    def total():
        s = tf.constant(0.0)
        for survived, fare in tf.data.experimental.CsvDataset(
                titanic, [0, 0.0], header=True, select_cols=[0, 3]):
            s += tf.cast(survived, tf.float32) * fare
        return s
    assert np.isclose(total().numpy(), 71.2833 + 7.925)


def test_group_by_window_full_windows_then_partial_ones_by_key():
    ds = tf.data.Dataset.range(20).group_by_window(
        key_func=lambda x: x % 3, reduce_func=lambda key, window: window.batch(4),
        window_size=4)
    assert [b.numpy().tolist() for b in ds] == [
        [0, 3, 6, 9], [1, 4, 7, 10], [2, 5, 8, 11], [12, 15, 18], [13, 16, 19], [14, 17]]
    assert repr(ds) == ("<_GroupByWindowDataset element_spec=TensorSpec(shape=(None,), "
                        "dtype=tf.int64, name=None)>")
    pairs = tf.data.Dataset.from_tensor_slices(({"a": np.arange(7)}, np.arange(7.)))
    grouped = pairs.group_by_window(
        lambda f, l: f["a"] % 2, lambda k, w: w.batch(2).map(lambda f, l: (f["a"] + k, l)),
        window_size_func=lambda k: k + 2)
    assert [[v.numpy().tolist() for v in x] for x in grouped] == [
        [[0, 2], [0.0, 2.0]], [[2, 4], [1.0, 3.0]], [[6], [5.0]], [[4, 6], [4.0, 6.0]]]


def test_bucket_by_sequence_length_pads_per_bucket():
    def gen():
        for i in range(12):
            yield np.arange((i * 7) % 11 + 1, dtype=np.int32)
    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec([None], tf.int32))
    b = ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3, 5, 8], [2, 2, 2, 2])
    assert [(x.shape[0], x.shape[1], x.numpy()[:, -1].tolist()) for x in b] == [
        (2, 11, [0, 10]), (2, 4, [3, 0]), (2, 7, [6, 0]), (2, 2, [0, 1]), (2, 10, [9, 0]),
        (1, 1, [0]), (1, 5, [4])]
    padded = ds.apply(tf.data.experimental.bucket_by_sequence_length(
        lambda e: tf.shape(e)[0], [3, 5, 8, 12], [2, 2, 2, 3, 1], pad_to_bucket_boundary=True,
        padding_values=-1))
    first = next(iter(padded)).numpy()
    assert first.tolist() == [[0, 1, 2, 3], [0, 1, 2, -1]]
    with pytest.raises(ValueError, match="len\\(bucket_batch_sizes\\)"):
        ds.bucket_by_sequence_length(lambda e: tf.shape(e)[0], [3], [2])


def test_random_sample_and_choose_from_datasets_draw_tensorflows_values():
    assert [int(x) for x in tf.data.Dataset.random(seed=7).take(3)] == [
        1992159687, 3200305987, 237021325]
    zeros = tf.data.Dataset.from_tensors(0).repeat()
    ones = tf.data.Dataset.from_tensors(1).repeat()
    d = tf.data.Dataset.sample_from_datasets([zeros, ones], weights=[0.5, 0.5], seed=7)
    assert [int(x) for x in d.take(20)] == [1, 0, 1, 0, 0, 1, 1, 1, 0, 1, 1, 1, 0, 0, 0, 0,
                                            1, 0, 0, 0]
    a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(100, 105)
    assert [int(x) for x in tf.data.Dataset.sample_from_datasets([a, b], seed=1)] == [
        100, 0, 1, 2, 101, 102, 103, 104]
    assert [int(x) for x in tf.data.Dataset.sample_from_datasets(
        [a, b], seed=1, stop_on_empty_dataset=True)] == [100, 0, 1, 2]
    choice = tf.data.Dataset.from_tensor_slices(np.array([0, 0, 0, 0, 1], np.int64))
    assert [int(x) for x in tf.data.Dataset.choose_from_datasets([a, b], choice)] == [0, 1, 2]
    assert [int(x) for x in tf.data.experimental.choose_from_datasets([a, b], choice)] == [
        0, 1, 2, 100]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Selector index out of range"):
        list(tf.data.Dataset.choose_from_datasets([a, a], tf.data.Dataset.range(5)))
    with pytest.raises(TypeError, match="compatible element specs"):
        tf.data.Dataset.sample_from_datasets([a, a.map(lambda x: tf.cast(x, tf.int32))])

    @tf.function
    def staged():   # seeds (3, 5): the global seed, then the op's
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.sample_from_datasets(
                [tf.data.Dataset.range(10), tf.data.Dataset.range(100, 110)], [0.3, 0.7], 5):
            s = s * 3 % 1000003 + x
        return s
    tf.random.set_seed(3)
    try:
        assert staged().numpy() == STAGED_SAMPLE
    finally:
        tf.random.set_seed(None)


STAGED_SAMPLE = 898141  # TensorFlow's


def test_ragged_from_sparse_requires_right_ragged_indices():
    rt = tf.RaggedTensor.from_sparse(tf.sparse.from_dense([[1, 2, 0], [3, 0, 0], [0, 0, 0]]))
    assert rt.to_list() == [[1, 2], [3], []]
    with pytest.raises(tf.errors.InvalidArgumentError, match="SparseTensor is not right-ragged"):
        tf.RaggedTensor.from_sparse(tf.sparse.from_dense([[1, 0, 2], [0, 0, 3]]))


def test_unicode_script_of_ragged_code_points():
    # the "Unicode strings" guide's word segmentation by script
    codes = tf.strings.unicode_decode([u"Hello, world.", u"世界こんにちは"], "UTF-8")
    scripts = tf.strings.unicode_script(codes)
    assert scripts.to_list() == [[25, 25, 25, 25, 25, 0, 0, 25, 25, 25, 25, 25, 0],
                                 [17, 17, 20, 20, 20, 20, 20]]
    starts = tf.concat([tf.fill([scripts.nrows(), 1], True),
                        tf.not_equal(scripts[:, 1:], scripts[:, :-1])], axis=1)
    word_starts = tf.squeeze(tf.where(starts.values), axis=1)
    assert word_starts.numpy().tolist() == [0, 5, 7, 12, 13, 15]


def test_rejection_resample_mixes_original_and_accepted_elements():
    features = np.arange(200).astype(np.float32)
    labels = (np.arange(200) % 10 == 0).astype(np.int64)
    ds = tf.data.Dataset.from_tensor_slices((features, labels))
    resampled = ds.rejection_resample(lambda f, l: l, target_dist=[0.5, 0.5],
                                      initial_dist=[0.9, 0.1], seed=42)
    assert repr(resampled.element_spec[0]) == (
        "TensorSpec(shape=(), dtype=tf.int64, name=None)")
    balanced = resampled.map(lambda extra_label, features_and_label: features_and_label)
    assert [(int(f), int(l)) for f, l in balanced.take(20)] == [
        (0, 1), (10, 1), (20, 1), (30, 1), (0, 1), (40, 1), (1, 0), (2, 0), (3, 0), (50, 1),
        (4, 0), (60, 1), (5, 0), (6, 0), (7, 0), (70, 1), (80, 1), (90, 1), (100, 1), (8, 0)]
    estimated = ds.rejection_resample(lambda f, l: l, target_dist=[0.5, 0.5], seed=3)
    assert [(int(c), int(f)) for c, (f, l) in estimated.take(12)] == [
        (1, 0), (0, 1), (1, 0), (0, 2), (1, 10), (0, 3), (0, 4), (1, 20), (0, 5), (0, 6),
        (1, 30), (0, 7)]
    unchanged = ds.rejection_resample(lambda f, l: l, target_dist=[0.9, 0.1],
                                      initial_dist=[0.9, 0.1], seed=3)
    assert [int(c) for c, _ in unchanged.take(12)] == [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0]


def test_extension_type_field_error_names_the_expected_tensor():
    class Masked(tf.experimental.ExtensionType):
        values: tf.Tensor
        mask: tf.Tensor
    with pytest.raises(TypeError, match="^mask: expected a Tensor, got 'NoneType'$"):
        Masked([1, 2, 3], None)
