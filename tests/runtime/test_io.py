"""tf.io: files, decode_raw, decode_csv, serialize/parse (values and errors as TensorFlow)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError, NotFoundError
from tests.staging import assert_same


def test_files(tmp_path):
    path = str(tmp_path / "x.txt")
    tf.io.write_file(path, "hello\nworld")
    assert tf.io.read_file(path).numpy() == b"hello\nworld"
    assert tf.io.gfile.exists(path)
    with tf.io.gfile.GFile(path) as f:
        assert f.read() == "hello\nworld"
    with pytest.raises(NotFoundError, match="No such file or directory"):
        tf.io.read_file(str(tmp_path / "missing"))

    @tf.function
    def copy(src, dst):
        tf.io.write_file(dst, tf.io.read_file(src))
    copy(tf.constant(path), tf.constant(path + ".2"))
    assert open(path + ".2").read() == "hello\nworld"


def test_decode_raw():
    np.testing.assert_array_equal(
        tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"]), tf.int16),
        np.int16([[1, 2], [3, 4]]))
    np.testing.assert_array_equal(tf.io.decode_raw(b"\x00\x01", tf.int16, little_endian=False),
                                  np.int16([1]))
    assert_same(lambda s: tf.io.decode_raw(s, tf.float32),
                np.array([np.float32([1.5, 2]).tobytes()], dtype=object))


def test_decode_csv():
    a, b, c = tf.io.decode_csv(["1,2.5,a", "3,,b"], [[0], [1.0], ["x"]])
    assert a.dtype == tf.int32 and list(a.numpy()) == [1, 3]
    assert list(b.numpy()) == [2.5, 1.0] and list(c.numpy()) == [b"a", b"b"]
    with pytest.raises(InvalidArgumentError, match="Expect 3 fields but have 2 in record 0"):
        tf.io.decode_csv(["1,2.5"], [[0], [1.0], ["x"]])
    with pytest.raises(InvalidArgumentError, match="Field 0 is required but missing in record 0!"):
        tf.io.decode_csv([",2.5"], [tf.constant([], tf.int32), [1.0]])
    assert [t.numpy()[0] for t in tf.io.decode_csv(["1|2"], [[0], [0]], field_delim="|")] == [1, 2]


def test_serialize_parse_round_trip():
    for value in [np.float32([[1, 2]]), np.int64(7), np.array([b"a", b"bc"], dtype=object)]:
        t = tf.constant(value)
        back = tf.io.parse_tensor(tf.io.serialize_tensor(t), t.dtype)
        np.testing.assert_array_equal(back.numpy(), value)
        assert back.dtype == t.dtype
    with pytest.raises(InvalidArgumentError, match="Type mismatch between parsed tensor"):
        tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([1.0])), tf.int32)
