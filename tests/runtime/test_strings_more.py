"""tf.strings: values recorded from TensorFlow 2.21 as literals; eager == staged."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import assert_same


def _list(rt):
    return rt.to_list()


def test_split_family_matches_tensorflow():
    assert _list(tf.strings.split(["a b  c", "d"])) == [[b"a", b"b", b"c"], [b"d"]]
    assert list(tf.strings.split("a b  c").numpy()) == [b"a", b"b", b"c"]
    assert _list(tf.strings.split(["a,b,,c", ""], sep=",")) == [[b"a", b"b", b"", b"c"], [b""]]
    assert _list(tf.strings.split(["a b c d"], maxsplit=1)) == [[b"a", b"b c d"]]
    assert _list(tf.strings.split(["a,b,c,d"], sep=",", maxsplit=2)) == [[b"a", b"b", b"c,d"]]
    assert _list(tf.strings.split([["a b"], ["c"]])) == [[[b"a", b"b"]], [[b"c"]]]
    assert _list(tf.strings.split([" "])) == [[]]
    assert _list(tf.strings.bytes_split(["abc", "d"])) == [[b"a", b"b", b"c"], [b"d"]]
    assert list(tf.strings.bytes_split("h\u00e9").numpy()) == [b"h", b"\xc3", b"\xa9"]
    assert _list(tf.strings.unicode_decode(["h\u00e9llo", "ab"], "UTF-8")) == \
        [[104, 233, 108, 108, 111], [97, 98]]
    assert _list(tf.strings.unicode_decode([b"\xff"], "UTF-8")) == [[65533]]
    assert _list(tf.strings.unicode_decode([b"\xffa"], "UTF-8", errors="ignore")) == [[97]]
    with pytest.raises(InvalidArgumentError, match="Invalid formatting on input string"):
        tf.strings.unicode_decode([b"\xffa"], "UTF-8", errors="strict")
    assert _list(tf.strings.unicode_split(["h\u00e9", "x"], "UTF-8")) == [[b"h", b"\xc3\xa9"], [b"x"]]
    assert tf.strings.unicode_encode([104, 233], "UTF-8").numpy() == b"h\xc3\xa9"
    assert list(tf.strings.unicode_encode(tf.ragged.constant([[104, 233], [97]]), "UTF-8")
                .numpy()) == [b"h\xc3\xa9", b"a"]


def test_split_in_a_function():
    @tf.function
    def f(x):
        return tf.strings.split(x).to_tensor(default_value="")
    assert f(tf.constant(["a b", "c"])).numpy().tolist() == [[b"a", b"b"], [b"c", b""]]


def test_elementwise_ops_match_tensorflow():
    assert list(tf.strings.substr(["hello", "ab"], 1, 3).numpy()) == [b"ell", b"b"]
    assert list(tf.strings.substr(["hello", "ab"], -2, 2).numpy()) == [b"lo", b"ab"]
    assert tf.strings.substr("h\u00e9llo", 1, 2, unit="UTF8_CHAR").numpy() == b"\xc3\xa9l"
    assert list(tf.strings.substr(["hello", "world"], [0, 1], [2, 3]).numpy()) == [b"he", b"orl"]
    with pytest.raises(InvalidArgumentError, match="pos 3 out of range for string b'ab' at "
                                                   "index 1"):
        tf.strings.substr(["hello", "ab"], 3, 2)
    assert list(tf.strings.length(["h\u00e9llo", ""], unit="UTF8_CHAR").numpy()) == [5, 0]
    assert list(tf.strings.strip(["  a b \n", "\tc"]).numpy()) == [b"a b", b"c"]
    assert list(tf.strings.regex_full_match(["abc", "abd", "xabc"], "ab.").numpy()) == \
        [True, True, False]
    assert list(tf.strings.regex_replace(["aaa b", "c"], "a", "x").numpy()) == [b"xxx b", b"c"]
    assert list(tf.strings.regex_replace(["aaa b"], "a", "x", replace_global=False).numpy()) == \
        [b"xaa b"]
    assert tf.strings.regex_replace("hello world", r"(\w+) (\w+)", r"\2 \1").numpy() == \
        b"world hello"
    assert list(tf.strings.reduce_join([["a", "b"], ["c", "d"]], axis=1, separator=",")
                .numpy()) == [b"a,b", b"c,d"]
    assert tf.strings.reduce_join(["a", "b"]).numpy() == b"ab"
    assert list(tf.strings.upper(["h\u00e9llo"]).numpy()) == [b"H\xc3\xa9LLO"]
    assert list(tf.strings.lower(["H\u00c9LLO"], encoding="utf-8").numpy()) == [b"h\xc3\xa9llo"]
    np.testing.assert_array_equal(
        tf.strings.to_number(["0x10", "1e3", "inf"]).numpy(), np.float32([16, 1000, np.inf]))
    with pytest.raises(InvalidArgumentError, match="could not correctly convert string: abc"):
        tf.strings.to_number(["abc"])
    assert list(tf.strings.as_string([1.5, 2.0], precision=2).numpy()) == [b"1.50", b"2.00"]
    assert list(tf.strings.as_string([3], width=4, fill="0").numpy()) == [b"0003"]
    assert list(tf.strings.as_string([1234.5], scientific=True).numpy()) == [b"1.234500e+03"]
    assert list(tf.strings.as_string([1234.5], shortest=True).numpy()) == [b"1234.5"]
    with pytest.raises(TypeError):
        tf.strings.upper([1])


def test_hash_buckets_are_deterministic():
    # FarmHash Fingerprint64 (and SipHash-2-4 for the strong variant) modulo the bucket
    # count: TensorFlow 2.21's buckets.
    assert list(tf.strings.to_hash_bucket_fast(["a", "b", "hello"], 1000).numpy()) == \
        [939, 822, 296]
    words = tf.ragged.constant([["Who", "is", "Dan", "Smith"], ["Pause"],
                                ["Will", "it", "rain", "later", "today"]])
    assert tf.strings.to_hash_bucket_fast(words, 1024).to_list() == \
        [[633, 768, 237, 309], [28], [847, 998, 635, 20, 547]]
    strong = tf.strings.to_hash_bucket_strong(["a", "b", "hello"], 1000, [1, 2])
    assert strong.dtype == tf.int64 and list(strong.numpy()) == [646, 184, 622]


def test_eager_equals_staged():
    x = np.array([b"Hello World", b"  ab c "], dtype=object)
    assert_same(lambda s: (tf.strings.substr(s, 1, 4), tf.strings.strip(s),
                           tf.strings.regex_full_match(s, ".*World"),
                           tf.strings.regex_replace(s, "o", "0"), tf.strings.lower(s),
                           tf.strings.to_hash_bucket_fast(s, 7),
                           tf.strings.reduce_join(s, separator="|", keepdims=True)), x)
