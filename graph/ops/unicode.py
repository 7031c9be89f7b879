"""Unicode ops: decoding with offsets, transcoding, scripts, n-grams, segment joins.

Decoding follows ICU, which TensorFlow uses: an ill-formed sequence is replaced as one
"maximal subpart" (``b'\\xe2\\x82'`` is one U+FFFD, ``b'\\xff'`` another), the same rule
Python's codecs follow, so Python's decoders are driven with an error handler that marks
each ill-formed span and its byte length.
"""
from __future__ import annotations

import codecs
import unicodedata

import numpy as np

from graph.dtypes import as_dtype, string
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape

_INT32, _INT64 = as_dtype("int32"), as_dtype("int64")
_MARK = 0xD800  # a lone surrogate: no decoder yields one, so it can only be our mark


def _mark_errors(exc):
    """``'tf-mark'`` error handler: the mark, then the span's length as a second surrogate."""
    if not isinstance(exc, UnicodeDecodeError):
        raise exc
    return chr(_MARK) + chr(0xDC00 + exc.end - exc.start), exc.end


codecs.register_error("autograph-tf-mark", _mark_errors)


def codec_name(encoding: str) -> str:
    """The Python codec for an ICU encoding name; unknown names are TF's error."""
    name = encoding.upper().replace("_", "-")
    try:
        return codecs.lookup(name).name
    except LookupError:
        raise InvalidArgumentError(
            message=f"Could not create converter for input encoding: {encoding}") from None


def decode(b: bytes, encoding="utf-8", errors="replace", replacement_char=65533,
           replace_control_characters=False):
    """(code points, byte offsets) of ``b`` under TensorFlow's ``errors`` modes."""
    text = b.decode(encoding, errors="autograph-tf-mark")
    codes, offsets, pos, i = [], [], 0, 0
    while i < len(text):
        code = ord(text[i])
        if code == _MARK:
            size = ord(text[i + 1]) - 0xDC00
            i += 2
            if errors == "strict":
                raise InvalidArgumentError(message="Invalid formatting on input string")
            if errors == "replace":
                codes.append(replacement_char)
                offsets.append(pos)
            pos += size
            continue
        size = len(text[i].encode(encoding))
        if replace_control_characters and code < 0x20:
            code = replacement_char
        codes.append(code)
        offsets.append(pos)
        pos += size
        i += 1
    return codes, offsets


def _vector_of_strings(op: str, x) -> None:
    if not x.dtype.is_string:
        raise InvalidArgumentError(message=f"{op} takes string tensors, got {x.dtype.name}")
    if x.shape.rank is not None and x.shape.rank != 1:
        raise InvalidArgumentError(message=f"{op}: input must be a vector, got shape {x.shape}")


def _ragged_infer(op: str, dtypes_):
    """(row_splits, values...) of a 1-D string input, one ragged row per string."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        _vector_of_strings(op, inputs[0])
        n = inputs[0].shape[0] if inputs[0].shape.rank == 1 else None
        return ([TensorType(_INT64, TensorShape([None if n is None else n + 1]))]
                + [TensorType(d, TensorShape([None])) for d in dtypes_])
    return infer


def _splits(rows) -> np.ndarray:
    splits = np.zeros(len(rows) + 1, dtype=np.int64)
    np.cumsum([len(r) for r in rows], out=splits[1:])
    return splits


def _decode_with_offsets(x, input_encoding, errors, replacement_char,
                         replace_control_characters):
    encoding = codec_name(input_encoding)
    rows = [decode(b, encoding, errors, replacement_char, replace_control_characters)
            for b in np.asarray(x, dtype=object).reshape(-1)]
    codes = np.array([c for r in rows for c in r[0]], dtype=np.int32)
    offsets = np.array([o for r in rows for o in r[1]], dtype=np.int64)
    return _splits([r[0] for r in rows]), codes, offsets


_DECODE_ATTRS = ("input_encoding", "errors", "replacement_char", "replace_control_characters")
register_op("UnicodeDecodeWithOffsets",
            _ragged_infer("UnicodeDecodeWithOffsets", (_INT32, _INT64)),
            _decode_with_offsets, kernel_attrs=_DECODE_ATTRS)


def _encode_code_point(code: int, encoding: str, errors: str, replacement_char: int) -> bytes:
    if 0 <= code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF:
        return chr(code).encode(encoding)
    if errors == "strict":
        raise InvalidArgumentError(message=f"Invalid code point {code} for {encoding} encoding")
    return b"" if errors == "ignore" else chr(replacement_char).encode(encoding)


def _transcode_infer(inputs, attrs):
    expect_arity("UnicodeTranscode", inputs, 1)
    if not inputs[0].dtype.is_string:
        raise InvalidArgumentError(
            message=f"UnicodeTranscode takes string tensors, got {inputs[0].dtype.name}")
    return [TensorType(string, inputs[0].shape)]


def _transcode(x, input_encoding, output_encoding, errors, replacement_char,
               replace_control_characters):
    source, target = codec_name(input_encoding), codec_name(output_encoding)
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        codes, _ = decode(arr[idx], source, errors, replacement_char, replace_control_characters)
        out[idx] = b"".join(_encode_code_point(c, target, errors, replacement_char)
                            for c in codes)
    return out


register_op("UnicodeTranscode", _transcode_infer, _transcode,
            kernel_attrs=("input_encoding", "output_encoding", "errors", "replacement_char",
                          "replace_control_characters"))


# -- scripts: ICU's UScriptCode numbers, found from the Unicode character names --------------

# Index = ICU's UScriptCode; each entry is the name prefix Unicode gives the script's
# characters ("" for ICU codes that name no characters of their own).
_ICU_SCRIPTS = (
    "", "", "ARABIC", "ARMENIAN", "BENGALI", "BOPOMOFO", "CHEROKEE", "COPTIC", "CYRILLIC",
    "DESERET", "DEVANAGARI", "ETHIOPIC", "GEORGIAN", "GOTHIC", "GREEK", "GUJARATI", "GURMUKHI",
    "", "HANGUL", "HEBREW", "HIRAGANA", "KANNADA", "KATAKANA", "KHMER", "LAO", "LATIN",
    "MALAYALAM", "MONGOLIAN", "MYANMAR", "OGHAM", "OLD ITALIC", "ORIYA", "RUNIC", "SINHALA",
    "SYRIAC", "TAMIL", "TELUGU", "THAANA", "THAI", "TIBETAN", "CANADIAN SYLLABICS", "YI",
    "TAGALOG", "HANUNOO", "BUHID", "TAGBANWA", "BRAILLE", "CYPRIOT", "LIMBU", "LINEAR B",
    "OSMANYA", "SHAVIAN", "TAI LE", "UGARITIC", "", "BUGINESE", "GLAGOLITIC", "KHAROSHTHI",
    "SYLOTI NAGRI", "NEW TAI LUE", "TIFINAGH", "OLD PERSIAN", "BALINESE", "BATAK", "", "BRAHMI",
    "CHAM", "", "", "", "", "EGYPTIAN HIEROGLYPH", "", "", "", "PAHAWH HMONG", "OLD HUNGARIAN",
    "", "JAVANESE", "KAYAH LI", "", "", "LEPCHA", "LINEAR A", "MANDAIC", "", "MEROITIC HIEROGLYPH",
    "NKO", "OLD TURKIC", "OLD PERMIC", "PHAGS-PA", "PHOENICIAN", "MIAO", "", "", "", "", "", "",
    "VAI", "", "CUNEIFORM", "", "", "CARIAN", "", "TAI THAM", "LYCIAN", "LYDIAN", "OL CHIKI",
    "REJANG", "SAURASHTRA", "SIGNWRITING", "SUNDANESE", "", "MEETEI MAYEK", "IMPERIAL ARAMAIC",
    "AVESTAN", "CHAKMA", "", "KAITHI", "MANICHAEAN", "INSCRIPTIONAL PAHLAVI", "PSALTER PAHLAVI",
    "", "INSCRIPTIONAL PARTHIAN", "SAMARITAN", "TAI VIET", "", "", "BAMUM", "LISU", "",
    "OLD SOUTH ARABIAN", "BASSA VAH", "DUPLOYAN", "ELBASAN", "GRANTHA", "", "", "MENDE KIKAKUI",
    "MEROITIC CURSIVE", "OLD NORTH ARABIAN", "NABATAEAN", "PALMYRENE", "KHUDAWADI", "WARANG CITI",
    "", "", "MRO", "NUSHU", "SHARADA", "SORA SOMPENG", "TAKRI", "TANGUT", "",
    "ANATOLIAN HIEROGLYPH",
    "KHOJKI", "TIRHUTA", "CAUCASIAN ALBANIAN", "MAHAJANI", "AHOM", "HATRAN", "MODI", "MULTANI",
    "PAU CIN HAU", "SIDDHAM", "ADLAM", "BHAIKSUKI", "MARCHEN", "NEWA", "OSAGE", "", "", "",
    "MASARAM GONDI", "SOYOMBO", "ZANABAZAR SQUARE", "DOGRA", "GUNJALA GONDI", "MAKASAR",
    "MEDEFAIDRIN", "HANIFI ROHINGYA", "SOGDIAN", "OLD SOGDIAN", "ELYMAIC",
    "NYIAKENG PUACHUE HMONG", "NANDINAGARI", "WANCHO", "CHORASMIAN", "DIVES AKURU",
    "KHITAN SMALL SCRIPT", "YEZIDI",
)
_COMMON, _INHERITED, _UNKNOWN = 0, 1, 103
_PREFIXES = {name: code for code, name in enumerate(_ICU_SCRIPTS) if name}
_PREFIXES.update({"CJK UNIFIED": 17, "CJK COMPATIBILITY": 17, "CJK RADICAL": 17, "KANGXI": 17,
                  "HANGZHOU NUMERAL": 17, "IDEOGRAPHIC ITERATION": 17, "IDEOGRAPHIC NUMBER": 17,
                  "IDEOGRAPHIC CLOSING": 17, "HENTAIGANA": 20, "ARABIC-INDIC": 2,
                  "EXTENDED ARABIC-INDIC": 2, "PARENTHESIZED HANGUL": 18})
# Leading words that keep the script of what follows ("CIRCLED KATAKANA A" is Katakana).
_QUALIFIERS = ("HALFWIDTH", "FULLWIDTH", "CIRCLED", "COMBINING")
_NAMELESS = ((0x17000, 0x187FF, 154), (0x18D00, 0x18D8F, 154))  # Tangut ideographs


def script_of(code: int) -> int:
    """ICU's script code of ``code``: the script its name starts with; combining marks of no
    script are Inherited; other assigned characters Common; the rest Unknown (-1 if invalid)."""
    if not 0 <= code <= 0x10FFFF:
        return -1
    ch = chr(code)
    category = unicodedata.category(ch)
    if category in ("Cn", "Co", "Cs"):
        return _UNKNOWN
    name = unicodedata.name(ch, "")
    if not name:
        return next((script for lo, hi, script in _NAMELESS if lo <= code <= hi), _COMMON)
    words = name.split(" ")
    while len(words) > 1 and words[0] in _QUALIFIERS:
        words = words[1:]
    for n in (3, 2, 1):
        script = _PREFIXES.get(" ".join(words[:n]))
        if script is not None and len(words) > n:
            return script
    if category in ("Mn", "Me") or code in (0x200C, 0x200D):
        return _INHERITED
    return _COMMON


def _script_infer(inputs, attrs):
    expect_arity("UnicodeScript", inputs, 1)
    if inputs[0].dtype != _INT32:
        raise InvalidArgumentError(
            message=f"UnicodeScript takes int32 code points, got {inputs[0].dtype.name}")
    return [TensorType(_INT32, inputs[0].shape)]


def _unicode_script(x):
    arr = np.asarray(x)
    return np.array([script_of(int(c)) for c in arr.reshape(-1)],
                    dtype=np.int32).reshape(arr.shape)


register_op("UnicodeScript", _script_infer, _unicode_script)


# -- n-grams and segment joins ------------------------------------------------------------------

def _ngrams_infer(inputs, attrs):
    expect_arity("StringNGrams", inputs, 2)
    data, splits = inputs
    if not data.dtype.is_string:
        raise InvalidArgumentError(message=f"StringNGrams takes strings, got {data.dtype.name}")
    if splits.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(
            message=f"StringNGrams: data_splits must be int32 or int64, got {splits.dtype.name}")
    return [TensorType(string, TensorShape([None])), TensorType(splits.dtype, splits.shape)]


def _ngrams_of(tokens, separator, widths, left_pad, right_pad, pad_width, preserve_short):
    """StringNGrams' rows: padding of ``pad_width`` (-1: width-1), capped at width-1."""
    out = []
    for width in widths:
        pad = min(width - 1 if pad_width < 0 else pad_width, width - 1)
        padded = [left_pad] * pad + list(tokens) + [right_pad] * pad
        out.extend(separator.join(padded[i:i + width])
                   for i in range(max(0, len(padded) - width + 1)))
    if preserve_short and not out and len(tokens):
        pad = max(pad_width, 0)
        out.append(separator.join([left_pad] * pad + list(tokens) + [right_pad] * pad))
    return out


def _string_ngrams(data, splits, separator, ngram_widths, left_pad, right_pad, pad_width,
                   preserve_short_sequences):
    data, splits = np.asarray(data, dtype=object), np.asarray(splits)
    if splits.size == 0 or splits[0] != 0 or splits[-1] != len(data) \
            or np.any(np.diff(splits) < 0):
        raise InvalidArgumentError(message=f"Invalid split values: {splits.tolist()}")
    enc = [s.encode() if isinstance(s, str) else s for s in (separator, left_pad, right_pad)]
    rows = [_ngrams_of(data[splits[i]:splits[i + 1]], enc[0], ngram_widths, enc[1], enc[2],
                       pad_width, preserve_short_sequences) for i in range(len(splits) - 1)]
    values = np.empty(sum(len(r) for r in rows), dtype=object)
    values[:] = [g for r in rows for g in r]
    return values, _splits(rows).astype(splits.dtype)


register_op("StringNGrams", _ngrams_infer, _string_ngrams,
            kernel_attrs=("separator", "ngram_widths", "left_pad", "right_pad", "pad_width",
                          "preserve_short_sequences"))


def _segment_join_infer(inputs, attrs):
    expect_arity("UnsortedSegmentJoin", inputs, 3)
    data, ids, num = inputs
    if not data.dtype.is_string:
        raise InvalidArgumentError(
            message=f"UnsortedSegmentJoin takes strings, got {data.dtype.name}")
    if not ids.dtype.is_integer or not num.dtype.is_integer:
        raise InvalidArgumentError(
            message="UnsortedSegmentJoin: segment_ids and num_segments must be integers")
    if num.shape.rank not in (None, 0):
        raise InvalidArgumentError(message=f"Number of segments must be a scalar, got "
                                           f"shape {num.shape}")
    n = None if num.value is None else int(num.value)
    if data.shape.rank is None or ids.shape.rank is None:
        return [TensorType(string, TensorShape(None))]
    dims, id_dims = data.shape.as_tuple(), ids.shape.as_tuple()
    for i, (d, s) in enumerate(zip(dims, id_dims)):
        if d is not None and s is not None and d != s:
            raise InvalidArgumentError(message=f"Segment dimension is {s} while input dimension "
                                               f"is {d} in rank {i}")
    if len(id_dims) > len(dims):
        raise InvalidArgumentError(message="UnsortedSegmentJoin: segment_ids has a higher rank "
                                           "than the input")
    return [TensorType(string, TensorShape([n, *dims[len(id_dims):]]))]


def _segment_join(data, ids, num, separator=""):
    data, ids, num = np.asarray(data, dtype=object), np.asarray(ids), int(num)
    if data.shape[:ids.ndim] != ids.shape:
        raise InvalidArgumentError(message=f"segment_ids shape {list(ids.shape)} is not a "
                                           f"prefix of the input shape {list(data.shape)}")
    if ids.size and (ids.min() < 0 or ids.max() >= num):
        raise InvalidArgumentError(message="segment_ids are not allowed to exceed num_segments "
                                           "or to have negative values.")
    sep = separator.encode() if isinstance(separator, str) else separator
    inner = data.shape[ids.ndim:]
    size = int(np.prod(inner, dtype=np.int64))
    parts = [[[] for _ in range(size)] for _ in range(num)]
    for row, seg in zip(data.reshape(ids.size, size), ids.reshape(-1)):
        for j, b in enumerate(row):
            parts[seg][j].append(b)
    out = np.empty((num, size), dtype=object)
    for i, seg in enumerate(parts):
        out[i] = [sep.join(p) for p in seg]
    out = out.reshape((num,) + inner)
    return out


register_op("UnsortedSegmentJoin", _segment_join_infer, _segment_join,
            kernel_attrs=("separator",))
