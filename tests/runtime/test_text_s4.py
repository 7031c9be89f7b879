"""tf.strings Unicode, n-grams and segment joins: values recorded from TensorFlow 2.21 as
literals; eager == staged."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import assert_same

_S = [b"h\xc3\xa9llo", b"\xe2\x82", b"a\xffb", "\u8bed\u8a00\u5904\u7406".encode(), b""]
_CODES = [[104, 233, 108, 108, 111], [65533], [97, 65533, 98], [35821, 35328, 22788, 29702], []]
_OFFSETS = [[0, 1, 3, 4, 5], [0], [0, 1, 2], [0, 3, 6, 9], []]


def test_decode_modes_and_offsets():
    assert tf.strings.unicode_decode(_S, "UTF-8").to_list() == _CODES
    assert tf.strings.unicode_decode(_S, "UTF-8", errors="ignore").to_list() == \
        [[104, 233, 108, 108, 111], [], [97, 98], [35821, 35328, 22788, 29702], []]
    codes, offsets = tf.strings.unicode_decode_with_offsets(_S, "UTF-8")
    assert codes.to_list() == _CODES and offsets.to_list() == _OFFSETS
    assert offsets.dtype == tf.int64 and codes.dtype == tf.int32
    chars, offsets = tf.strings.unicode_split_with_offsets(_S, "UTF-8")
    assert chars.to_list()[:3] == [[b"h", b"\xc3\xa9", b"l", b"l", b"o"], [b"\xef\xbf\xbd"],
                                   [b"a", b"\xef\xbf\xbd", b"b"]]
    assert offsets.to_list() == _OFFSETS
    codes, offsets = tf.strings.unicode_decode_with_offsets(b"h\xc3\xa9", "UTF-8")
    assert codes.numpy().tolist() == [104, 233] and offsets.numpy().tolist() == [0, 1]
    codes, offsets = tf.strings.unicode_decode_with_offsets([[b"ab", b"c"], [b"d", b"e"]], "UTF-8")
    assert codes.to_list() == [[[97, 98], [99]], [[100], [101]]]
    assert offsets.to_list() == [[[0, 1], [0]], [[0], [0]]]
    assert tf.strings.unicode_decode(tf.ragged.constant([["ab"], ["c", "d"]]), "UTF-8") \
        .to_list() == [[[97, 98]], [[99], [100]]]
    assert tf.strings.unicode_decode(b"a\x01b", "UTF-8", replace_control_characters=True) \
        .numpy().tolist() == [97, 65533, 98]
    assert tf.strings.unicode_decode([b"\xed\xa0\x80", b"\xf0\x9f\x98\x80x\xc0\xafz"], "UTF-8") \
        .to_list() == [[65533, 65533, 65533], [128512, 120, 65533, 65533, 122]]
    codes, offsets = tf.strings.unicode_decode_with_offsets([b"\x00h\xd8\x3d\xde\x00"],
                                                            "UTF-16-BE")
    assert codes.to_list() == [[104, 128512]] and offsets.to_list() == [[0, 2]]
    with pytest.raises(InvalidArgumentError, match="Invalid formatting on input string"):
        tf.strings.unicode_decode(_S, "UTF-8", errors="strict")
    with pytest.raises(InvalidArgumentError, match="Could not create converter"):
        tf.strings.unicode_decode("a", "foo")


def test_encode_transcode_length():
    assert tf.strings.unicode_encode([104, 0x1F600], "UTF-16-BE").numpy() == b"\x00h\xd8=\xde\x00"
    tc = tf.strings.unicode_transcode
    assert tc([b"h\xc3\xa9llo", b"a\xffb"], "UTF-8", "UTF-16-BE").numpy().tolist() == \
        [b"\x00h\x00\xe9\x00l\x00l\x00o", b"\x00a\xff\xfd\x00b"]
    assert tc([b"h\xc3\xa9llo", b"a\xffb"], "UTF-8", "UTF-8", replacement_char=63) \
        .numpy().tolist() == [b"h\xc3\xa9llo", b"a?b"]
    assert tc([b"\x00h\x00i"], "UTF-16-BE", "UTF-8").numpy().tolist() == [b"hi"]
    assert tc([b"ab\x00c"], "UTF-8", "UTF-8", replace_control_characters=True) \
        .numpy().tolist() == [b"ab\xef\xbf\xbdc"]
    with pytest.raises(InvalidArgumentError, match="Invalid formatting"):
        tc([b"a\xffb"], "UTF-8", "UTF-8", errors="strict")
    assert tf.strings.length("h\u00e9llo", unit="UTF8_CHAR").numpy() == 5
    assert tf.strings.length(b"\xe2\x82a", unit="UTF8_CHAR").numpy() == 2


def test_unicode_script_matches_icu_codes():
    cps = [65, 945, 1072, 1488, 1575, 2309, 19968, 12354, 12450, 44032, 3585, 4256, 4608, 5024,
           768, 65533, 12293, 13008, 12800, 1632, 1776, 110594, 94208, 65393, 65313, 1155, 66352,
           128512, 8232, 57344, 1114111, -1, 1114112, 1, 3713, 3904]
    tf_scripts = [25, 14, 8, 19, 2, 10, 17, 20, 22, 18, 38, 12, 11, 6, 1, 0, 17, 22, 18, 2, 2,
                  20, 154, 22, 25, 8, 13, 0, 0, 103, 103, -1, -1, 0, 24, 39]
    out = tf.strings.unicode_script(cps)
    assert out.dtype == tf.int32 and out.numpy().tolist() == tf_scripts


def test_ngrams_dense_ragged_padding():
    d = [["a", "b", "c", "d"], ["e", "f", "g", "h"]]
    assert tf.strings.ngrams(d, 2).numpy().tolist() == \
        [[b"a b", b"b c", b"c d"], [b"e f", b"f g", b"g h"]]
    assert tf.strings.ngrams(d, [2, 3], separator="-").numpy().tolist() == \
        [[b"a-b", b"b-c", b"c-d", b"a-b-c", b"b-c-d"], [b"e-f", b"f-g", b"g-h", b"e-f-g", b"f-g-h"]]
    r = tf.ragged.constant([["a", "b", "c"], ["d"], []])
    assert tf.strings.ngrams(r, 2, pad_values=("L", "R"), padding_width=1).to_list() == \
        [[b"L a", b"a b", b"b c", b"c R"], [b"L d", b"d R"], [b"L R"]]
    assert tf.strings.ngrams(r, 3, pad_values="P").to_list() == \
        [[b"P P a", b"P a b", b"a b c", b"b c P", b"c P P"], [b"P P d", b"P d P", b"d P P"],
         [b"P P P", b"P P P"]]
    assert tf.strings.ngrams(r, 3, preserve_short_sequences=True).to_list() == \
        [[b"a b c"], [b"d"], []]
    assert tf.strings.ngrams(r, 3, pad_values="P", padding_width=1,
                             preserve_short_sequences=True).to_list() == \
        [[b"P a b", b"a b c", b"b c P"], [b"P d P"], []]
    assert tf.strings.ngrams(["a", "b", "c"], 2).numpy().tolist() == [b"a b", b"b c"]
    assert tf.strings.ngrams(["a"], 2).shape == (0,)
    for kwargs, err, msg in [({"ngram_width": 0}, ValueError, "greater than 0. Got 0"),
                             ({"ngram_width": 2, "padding_width": 0, "pad_values": "x"},
                              ValueError, "padding_width must be greater than 0"),
                             ({"ngram_width": 2, "padding_width": 1}, ValueError,
                              "pad_values must be provided"),
                             ({"ngram_width": 2, "pad_values": 3}, TypeError,
                              "pad_values must be a string")]:
        with pytest.raises(err, match=msg):
            tf.strings.ngrams(r, **kwargs)
    with pytest.raises(ValueError, match="Data must have rank>0"):
        tf.strings.ngrams("a", 2)


def test_unsorted_segment_join():
    usj = tf.strings.unsorted_segment_join
    assert usj(["a", "b", "c", "d"], [1, 0, 1, 3], 4, separator=":").numpy().tolist() == \
        [b"b", b"a:c", b"", b"d"]
    assert usj([["a", "b"], ["c", "d"], ["e", "f"]], [1, 0, 1], 2).numpy().tolist() == \
        [[b"c", b"d"], [b"ae", b"bf"]]
    with pytest.raises(InvalidArgumentError, match="not allowed to exceed num_segments"):
        usj(["a", "b", "c"], [-1, 0, 1], 2)
    with pytest.raises(InvalidArgumentError, match="Segment dimension is 2 while input"):
        usj(["a", "b", "c"], [0, 1], 2)


def test_eager_equals_staged():
    s = np.array(_S, dtype=object)

    def decode(x):
        codes, offsets = tf.strings.unicode_decode_with_offsets(x, "UTF-8")
        chars = tf.strings.unicode_split(x, "UTF-8")
        return (codes.flat_values, codes.row_splits, offsets.flat_values, chars.flat_values,
                tf.strings.unicode_transcode(x, "UTF-8", "UTF-16-BE"),
                tf.strings.unicode_script(codes.flat_values))
    assert_same(decode, s)

    def grams(x):
        return tf.strings.ngrams(x, [1, 2], pad_values="#"), \
            tf.strings.unsorted_segment_join(x, [1, 0, 1], 3, separator=",")
    assert_same(grams, np.array([b"a", b"b", b"c"], dtype=object))

    @tf.function
    def f(x):
        return tf.strings.unicode_decode(x, "UTF-8")
    assert f(tf.constant([b"h\xc3\xa9", b"x"])).to_list() == [[104, 233], [120]]
