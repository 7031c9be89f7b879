"""tf.train.Example protos, TFRecord files and Example parsing: bytes, values and errors
equal to TensorFlow 2.21's (recorded from it as literals)."""
import gzip
import zlib

import numpy as np
import pytest

import autograph as tf
from graph.errors import DataLossError, InvalidArgumentError, NotFoundError
from graph.ops.records import crc32c, frame, masked_crc
from runtime.train import example as train
from tests.staging import assert_same

# tf.train.Example(...).SerializeToString() in TensorFlow (its map order varies per run: the
# bytes below are one of its orders, the one of our insertion order).
GUIDE = (b"\nR\n\x11\n\x08feature1\x12\x05\x1a\x03\n\x01\x04\n\x14\n\x08feature2\x12\x08\n"
         b"\x06\n\x04goat\n\x14\n\x08feature3\x12\x08\x12\x06\n\x04[\xd3|?\n\x11\n\x08feature0"
         b"\x12\x05\x1a\x03\n\x01\x00")
E1 = (b"\n,\n\r\n\x01b\x12\x08\x12\x06\n\x04\x00\x00\x00?\n\x0b\n\x01a\x12\x06\x1a\x04\n\x02"
      b"\x01\x02\n\x0e\n\x01s\x12\t\n\x07\n\x01x\n\x02yy")
E2 = b"\n\x1b\n\r\n\x01b\x12\x08\x12\x06\n\x04\x00\x00\xc0?\n\n\n\x01a\x12\x05\x1a\x03\n\x01\x03"
# TFRecordWriter: records b"one", b"", b"x" * 300
TF_FILE = (b"\x03\x00\x00\x00\x00\x00\x00\x00\xb0\x99I\x0eone\x01@U\x08\x00\x00\x00\x00\x00\x00"
           b"\x00\x00)\x03\x98\x07\xd8\xea\x82\xa2,\x01\x00\x00\x00\x00\x00\x00\xf2\xfe[\x9d" +
           b"x" * 300 + b"\xcd\x82\x94!")
TF_ZLIB = (b'x\x9ccf\x80\x80\r3=\xf9\xf2\xf3R\x19\x1dB9\xa0"\x0c\x9a\xcc3\xd8o\xbcjZ\xa4\xc3\x08'
           b'\xe1\x7f\xfa\x17=\xb7b\x14\x10\r\xce6MQ\x04\x00\xe1\xc5\x98\xee')
TF_GZIP = (b'\x1f\x8b\x08\x00\x00\x00\x00\x00\x00\x03cf\x80\x80\r3=\xf9\xf2\xf3R\x19\x1dB9\xa0'
           b'"\x0c\x9a\xcc3\xd8o\xbcjZ\xa4\xc3\x08\xe1\x7f\xfa\x17=\xb7b\x14\x10\r\xce6MQ\x04\x00'
           b'\xa3\xbfb\xd5_\x01\x00\x00')


def _i(v):
    return train.Feature(int64_list=train.Int64List(value=v))


def _f(v):
    return train.Feature(float_list=train.FloatList(value=v))


def _b(v):
    return train.Feature(bytes_list=train.BytesList(value=v))


def test_example_bytes_and_text_as_tensorflow():
    ex = train.Example(features=train.Features(feature={
        "feature1": _i([4]), "feature2": _b([b"goat"]), "feature3": _f([0.9876]),
        "feature0": _i([0])}))
    assert ex.SerializeToString() == GUIDE
    back = train.Example.FromString(GUIDE)
    assert back == ex
    assert back.features.feature["feature3"].float_list.value == [0.9876000285148621]
    assert back.features.feature["feature2"].WhichOneof("kind") == "bytes_list"
    assert str(train.Example(features=train.Features(feature={"feature3": _f([0.9876])}))) == (
        'features {\n  feature {\n    key: "feature3"\n    value {\n      float_list {\n'
        '        value: 0.9876\n      }\n    }\n  }\n}\n')
    odd = train.Example(features=train.Features(feature={
        "a": _i([-2]), "m": _b([b"a\x00\xff'\"\\\n\t"]), "e": train.Feature(),
        "ff": _f([1.0, 0.1, 1e30, -2.5e-8, float("nan"), float("inf")])}))
    assert odd.SerializeToString() == (
        b"\nS\n\x13\n\x01a\x12\x0e\x1a\x0c\n\n\xfe\xff\xff\xff\xff\xff\xff\xff\xff\x01\n\x11\n"
        b"\x01m\x12\x0c\n\n\n\x08a\x00\xff'\"\\\n\t\n\x05\n\x01e\x12\x00\n\"\n\x02ff\x12\x1c"
        b"\x12\x1a\n\x18\x00\x00\x80?\xcd\xcc\xcc=\xca\xf2Iq\x95\xbf\xd6\xb2\x00\x00\xc0\x7f"
        b"\x00\x00\x80\x7f")
    text = str(odd)
    assert 'value: "a\\000\\377\\\'\\"\\\\\\n\\t"' in text
    assert "value: 1\n" in text and "value: 0.1\n" in text and "value: 1e+30\n" in text
    assert "value: -2.5e-08\n" in text and "value: nan\n" in text and "value: inf\n" in text
    assert '    key: "e"\n    value {\n    }\n' in text
    assert str(train.Example()) == ""


def test_sequence_example_bytes_and_text():
    se = train.SequenceExample(
        context=train.Features(feature={"c": _i([3])}),
        feature_lists=train.FeatureLists(feature_list={
            "t": train.FeatureList(feature=[_i([1]), _i([2])])}))
    data = (b"\n\x0c\n\n\n\x01c\x12\x05\x1a\x03\n\x01\x03\x12\x15\n\x13\n\x01t\x12\x0e\n\x05"
            b"\x1a\x03\n\x01\x01\n\x05\x1a\x03\n\x01\x02")
    assert se.SerializeToString() == data
    assert train.SequenceExample.FromString(data) == se
    assert str(se).startswith('context {\n  feature {\n    key: "c"\n')
    assert 'feature_lists {\n  feature_list {\n    key: "t"\n    value {\n      feature {\n' \
        in str(se)


def test_message_api():
    ex = train.Example()
    assert not ex.HasField("features")
    feature = ex.features.feature["x"]  # reading a map key adds it, as protobuf does
    assert ex.HasField("features") and feature.WhichOneof("kind") is None
    feature.int64_list.value.append(3)
    assert feature.WhichOneof("kind") == "int64_list"
    assert ex.SerializeToString() == b"\n\x0c\n\n\n\x01x\x12\x05\x1a\x03\n\x01\x03"
    feature.float_list.value.extend([1.5])  # one member of the oneof at a time
    assert feature.WhichOneof("kind") == "float_list"
    parsed = train.Example()
    assert parsed.ParseFromString(GUIDE) == len(GUIDE)
    assert {k: getattr(f, f.WhichOneof("kind")).value[0]
            for k, f in parsed.features.feature.items()} == {
        "feature1": 4, "feature2": b"goat", "feature3": np.float32(0.9876), "feature0": 0}
    with pytest.raises(TypeError, match="Expected an int, got a boolean"):
        train.Int64List(value=[True])
    with pytest.raises(AttributeError, match="Assignment not allowed"):
        ex.features = train.Features()
    with pytest.raises(ValueError, match='has no "nope" field'):
        train.Feature(nope=1)
    with pytest.raises(train.DecodeError):
        train.Example.FromString(b"\xff\xff")
    assert train.Int64List(value=np.array([1, 2])) == train.Int64List(value=[1, 2])
    assert str(train.Int64List(value=[1, 2])) == "value: 1\nvalue: 2\n"


def test_crc32c_and_framing_as_tensorflow():
    assert crc32c(b"123456789") == 0xE3069283
    assert masked_crc(b"") == 0xA282EAD8
    assert frame(b"one") + frame(b"") + frame(b"x" * 300) == TF_FILE


@pytest.mark.parametrize("compression, expected", [("", TF_FILE), ("ZLIB", TF_ZLIB),
                                                   ("GZIP", TF_GZIP)])
def test_writer_bytes_equal_tensorflow_and_read_back(tmp_path, compression, expected):
    path = str(tmp_path / "r.tfrecord")
    with tf.io.TFRecordWriter(path, tf.io.TFRecordOptions(compression_type=compression)) as w:
        for record in (b"one", b"", "x" * 300):
            w.write(record)
    assert open(path, "rb").read() == expected
    ours = tf.data.TFRecordDataset(path, compression_type=compression)
    assert list(ours.as_numpy_iterator()) == [b"one", b"", b"x" * 300]
    tf_path = str(tmp_path / "tf.tfrecord")  # a file TensorFlow wrote
    open(tf_path, "wb").write(expected)
    assert [len(r) for r in tf.data.TFRecordDataset([tf_path], compression).as_numpy_iterator()] \
        == [3, 0, 300]


def test_record_dataset_errors_and_options(tmp_path):
    path = str(tmp_path / "r.tfrecord")
    open(path, "wb").write(TF_FILE[:-3])
    with pytest.raises(DataLossError, match="truncated record at 35"):
        list(tf.data.TFRecordDataset(path))
    corrupt = bytearray(TF_FILE)
    corrupt[14] ^= 1
    open(path, "wb").write(bytes(corrupt))
    with pytest.raises(DataLossError, match="corrupted record at 12$"):
        list(tf.data.TFRecordDataset(path))
    with pytest.raises(NotFoundError, match="No such file or directory"):
        list(tf.data.TFRecordDataset(str(tmp_path / "missing")))
    with pytest.raises(ValueError, match='Not a valid compression_type: "BAD"'):
        tf.io.TFRecordOptions(compression_type="BAD")
    assert tf.io.TFRecordOptions.get_compression_type_string("GZIP") == "GZIP"
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert repr(tf.data.TFRecordDataset(path)) == \
        "<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, name=None)>"


def test_interleaved_reads_and_staged_loop(tmp_path):
    paths = []
    for name, records in (("a", [b"a0", b"a1", b"a2"]), ("b", [b"b0"])):
        paths.append(str(tmp_path / name))
        with tf.io.TFRecordWriter(paths[-1]) as w:
            for r in records:
                w.write(r)
    parallel = tf.data.TFRecordDataset(paths, num_parallel_reads=2)
    assert list(parallel.as_numpy_iterator()) == [b"a0", b"b0", b"a1", b"a2"]
    of_dataset = tf.data.TFRecordDataset(tf.data.Dataset.from_tensor_slices(paths[::-1]))
    assert list(of_dataset.as_numpy_iterator()) == [b"b0", b"a0", b"a1", b"a2"]
    dataset = tf.data.TFRecordDataset(paths)

    @tf.function
    def total_length():
        n = tf.constant(0)
        for record in dataset:
            n += tf.strings.length(record)
        return n
    assert total_length().numpy() == 8


def test_fixed_length_records(tmp_path):
    path = str(tmp_path / "f.bin")
    open(path, "wb").write(b"H" + bytes(range(12)) + b"FF")
    ds = tf.data.FixedLengthRecordDataset(path, 4, header_bytes=1, footer_bytes=2)
    assert list(ds.as_numpy_iterator()) == [b"\x00\x01\x02\x03", b"\x04\x05\x06\x07",
                                            b"\x08\t\n\x0b"]
    with pytest.raises(InvalidArgumentError, match="body length 12 bytes, which is not an "
                                                   r"exact multiple of the record length \(5"):
        list(tf.data.FixedLengthRecordDataset(path, 5, header_bytes=1, footer_bytes=2))
    zpath = str(tmp_path / "f.gz")
    open(zpath, "wb").write(gzip.compress(bytes(range(6))))
    assert list(tf.data.FixedLengthRecordDataset(zpath, 3, compression_type="GZIP")
                .as_numpy_iterator()) == [b"\x00\x01\x02", b"\x03\x04\x05"]
    assert zlib.decompress(TF_ZLIB)[:8] == TF_FILE[:8]


FEATURES = {"b": tf.io.FixedLenFeature([], tf.float32), "a": tf.io.VarLenFeature(tf.int64),
            "s": tf.io.RaggedFeature(tf.string)}


def test_parse_single_example_values():
    out = tf.io.parse_single_example(E1, FEATURES)
    assert list(out) == ["a", "b", "s"]
    np.testing.assert_array_equal(out["a"].indices, [[0], [1]])
    np.testing.assert_array_equal(out["a"].values, np.int64([1, 2]))
    np.testing.assert_array_equal(out["a"].dense_shape, [2])
    assert out["b"].dtype == tf.float32 and out["b"].numpy() == 0.5
    assert out["s"].numpy().tolist() == [b"x", b"yy"]
    assert tf.io.parse_single_example(E1, {"a": tf.io.FixedLenFeature([2], tf.int64)})[
        "a"].shape == (2,)
    seq = tf.io.parse_single_example(E1, {"a": tf.io.FixedLenSequenceFeature(
        [], tf.int64, allow_missing=True)})
    np.testing.assert_array_equal(seq["a"], np.int64([1, 2]))


def test_parse_example_batch():
    out = tf.io.parse_example([E1, E2], {
        "b": tf.io.FixedLenFeature([1], tf.float32), "a": tf.io.VarLenFeature(tf.int64),
        "s": tf.io.RaggedFeature(tf.string),
        "q": tf.io.FixedLenFeature([2], tf.int64, default_value=[7, 8])})
    np.testing.assert_array_equal(out["a"].indices, [[0, 0], [0, 1], [1, 0]])
    np.testing.assert_array_equal(out["a"].dense_shape, [2, 2])
    np.testing.assert_array_equal(out["b"], np.float32([[0.5], [1.5]]))
    np.testing.assert_array_equal(out["q"], np.int64([[7, 8], [7, 8]]))
    assert out["s"].to_list() == [[b"x", b"yy"], []]
    assert out["s"].row_splits.dtype == tf.int32
    padded = tf.io.parse_example([E1, E2], {
        "a": tf.io.FixedLenSequenceFeature([], tf.int64, allow_missing=True),
        "s": tf.io.FixedLenSequenceFeature([], tf.string, allow_missing=True)})
    np.testing.assert_array_equal(padded["a"], np.int64([[1, 2], [3, 0]]))
    assert padded["s"].numpy().tolist() == [[b"x", b"yy"], [b"", b""]]


def test_parse_errors_as_tensorflow():
    def parse(serialized, features):
        return tf.io.parse_single_example(serialized, features)
    with pytest.raises(InvalidArgumentError, match=r"^Feature: s \(data type: string\) is "
                                                   "required but could not be found."):
        parse(E2, {"s": tf.io.FixedLenFeature([], tf.string)})
    with pytest.raises(InvalidArgumentError, match="^Key: a.  Data types don't match. Data "
                                                   "type: int64 but expected type: float\n"):
        parse(E2, {"a": tf.io.FixedLenFeature([], tf.float32)})
    with pytest.raises(InvalidArgumentError, match="^Key: a.  Data types don't match. "
                                                   "Expected type: float, Actual type: int64\n"):
        parse(E1, {"a": tf.io.VarLenFeature(tf.float32)})
    with pytest.raises(InvalidArgumentError, match="Values size: 2 but output shape: \\[\\]"):
        tf.io.parse_example([E1, E2], {"a": tf.io.FixedLenFeature([], tf.int64)})
    with pytest.raises(InvalidArgumentError, match="allowed values: float, int64, string"):
        parse(E1, {"a": tf.io.FixedLenFeature([], tf.int32)})
    with pytest.raises(ValueError, match="requires allow_missing to be True"):
        parse(E1, {"a": tf.io.FixedLenSequenceFeature([], tf.int64)})
    with pytest.raises(ValueError, match="features cannot be empty"):
        parse(E1, {})
    with pytest.raises(InvalidArgumentError, match="Could not parse example input"):
        parse(b"\xff\xff", {"a": tf.io.FixedLenFeature([], tf.int64)})
    assert repr(tf.io.FixedLenFeature([], tf.int64)) == \
        "FixedLenFeature(shape=[], dtype=tf.int64, default_value=None)"
    assert repr(tf.io.RaggedFeature(tf.string)) == (
        "RaggedFeature(dtype=tf.string, value_key=None, partitions=(), row_splits_dtype="
        "tf.int32, validate=False)")


def test_parse_staged_equals_eager():
    def single(x):
        out = tf.io.parse_single_example(x, {**FEATURES, "b": tf.io.FixedLenFeature(
            [1], tf.float32)})
        return out["a"].indices, out["a"].values, out["a"].dense_shape, out["b"], out["s"]
    assert_same(single, np.array(E1, dtype=object))

    def batch(x):
        out = tf.io.parse_example(x, FEATURES)
        return out["a"].indices, out["b"], out["s"].values, out["s"].row_splits
    assert_same(batch, np.array([E1, E2], dtype=object))

    @tf.function
    def traced(x):
        out = tf.io.parse_example(x, FEATURES)
        assert out["a"].indices.shape.as_list() == [None, 2]
        assert out["b"].shape.as_list() == [2] and out["s"].row_splits.shape.as_list() == [3]
        return out["b"]
    np.testing.assert_array_equal(traced(tf.constant([E1, E2])), np.float32([0.5, 1.5]))


def test_parse_in_dataset_map(tmp_path):
    path = str(tmp_path / "e.tfrecord")
    with tf.io.TFRecordWriter(path) as w:
        w.write(E1)
        w.write(E2)
    ds = tf.data.TFRecordDataset(path).map(
        lambda r: tf.io.parse_single_example(r, {"b": tf.io.FixedLenFeature([], tf.float32),
                                                 "a": tf.io.VarLenFeature(tf.int64)}))
    got = [(float(e["b"]), e["a"].values.numpy().tolist()) for e in ds]
    assert got == [(0.5, [1, 2]), (1.5, [3])]
    batched = tf.data.TFRecordDataset(path).batch(2).map(
        lambda r: tf.io.parse_example(r, {"b": tf.io.FixedLenFeature([], tf.float32)}))
    np.testing.assert_array_equal(next(iter(batched))["b"], np.float32([0.5, 1.5]))


SEQ = (b"\n\x0c\n\n\n\x01c\x12\x05\x1a\x03\n\x01\x03\x12,\n\x13\n\x01v\x12\x0e\n\x08\x12\x06\n"
       b"\x04\x00\x00\xc0?\n\x02\x12\x00\n\x15\n\x01t\x12\x10\n\x06\x1a\x04\n\x02\x01\x02\n\x06"
       b"\x1a\x04\n\x02\x04\x05")  # TensorFlow's bytes of a SequenceExample


def test_parse_single_sequence_example():
    context, lists = tf.io.parse_single_sequence_example(
        SEQ, {"c": tf.io.FixedLenFeature([], tf.int64)},
        {"t": tf.io.FixedLenSequenceFeature([2], tf.int64), "v": tf.io.VarLenFeature(tf.float32)})
    assert context["c"].numpy() == 3
    np.testing.assert_array_equal(lists["t"], np.int64([[1, 2], [4, 5]]))
    np.testing.assert_array_equal(lists["v"].indices, [[0, 0]])
    np.testing.assert_array_equal(lists["v"].dense_shape, [2, 1])
    ragged = tf.io.parse_single_sequence_example(SEQ, None, {"v": tf.io.RaggedFeature(
        tf.float32)})[1]["v"]
    assert ragged.to_list() == [[1.5], []]
    missing = tf.io.parse_single_sequence_example(SEQ, None, {"z": tf.io.FixedLenSequenceFeature(
        [2], tf.int64, allow_missing=True)})[1]["z"]
    assert missing.shape == (0, 2)
    with pytest.raises(InvalidArgumentError, match="Feature list 'z' is required but could "
                                                   "not be found"):
        tf.io.parse_single_sequence_example(SEQ, None, {"z": tf.io.FixedLenSequenceFeature(
            [2], tf.int64)})

    def staged(x):
        c, q = tf.io.parse_single_sequence_example(
            x, {"c": tf.io.FixedLenFeature([], tf.int64)},
            {"t": tf.io.FixedLenSequenceFeature([2], tf.int64)})
        return c["c"], q["t"]
    assert_same(staged, np.array(SEQ, dtype=object))
