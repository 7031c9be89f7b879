"""``tf.strings`` Unicode API: decode / split (with byte offsets), encode, transcode, scripts.

Results are shaped as TensorFlow shapes them: a scalar string gives Tensors, a tensor of
rank >= 1 or a RaggedTensor gives a RaggedTensor with one more (ragged) dimension.
"""
from __future__ import annotations

from graph import dtypes
from graph.ops.unicode import codec_name
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.string_ops import ragged_rows

_ERRORS = ("strict", "replace", "ignore")


def _attrs(encoding: str, errors: str, replacement_char, replace_control_characters) -> dict:
    if errors not in _ERRORS:
        raise ValueError(f"errors must be 'strict', 'replace' or 'ignore', got {errors!r}")
    codec_name(encoding)  # an unknown encoding fails before anything runs
    return {"input_encoding": encoding, "errors": errors,
            "replacement_char": int(replacement_char),
            "replace_control_characters": bool(replace_control_characters)}


def _decode(input, attrs, name, what):  # noqa: A002
    """[code points, offsets], shaped as ``input``'s rows."""
    def run(flat):
        splits, codes, offsets = apply_op("UnicodeDecodeWithOffsets", [flat], attrs,
                                          name=name or "UnicodeDecodeWithOffsets")
        return codes, offsets, splits
    return ragged_rows(run, input, name, what)


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """``tf.strings.unicode_decode``: int32 code points, one ragged row per string."""
    attrs = _attrs(input_encoding, errors, replacement_char, replace_control_characters)
    return _decode(input, attrs, name, "unicode_decode")[0]


def unicode_decode_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                                replacement_char=65533, replace_control_characters=False,
                                name=None):
    """``(code points, int64 byte offsets of each character's start)``."""
    attrs = _attrs(input_encoding, errors, replacement_char, replace_control_characters)
    codes, offsets = _decode(input, attrs, name, "unicode_decode_with_offsets")
    return codes, offsets


def _encode_each(codes, encoding, errors, replacement_char):
    """Each code point of ``codes`` (any shape) as its own string in ``encoding``."""
    flat = array_ops.reshape(codes, [-1])
    splits = math_ops.cast(array_ops.range(array_ops.size(flat) + 1), dtypes.int64)
    utf8 = apply_op("UnicodeEncode", [flat, splits],
                    {"errors": errors, "replacement_char": int(replacement_char)},
                    name="UnicodeEncode")
    return array_ops.reshape(_from_utf8(utf8, encoding, errors, replacement_char),
                             array_ops.shape(codes))


def _from_utf8(strings, encoding, errors, replacement_char):
    if codec_name(encoding) == "utf-8":
        return strings
    return apply_op("UnicodeTranscode", [strings],
                    {"input_encoding": "UTF-8", "output_encoding": encoding, "errors": errors,
                     "replacement_char": int(replacement_char),
                     "replace_control_characters": False}, name="UnicodeTranscode")


def _split(input, input_encoding, errors, replacement_char, name, what):  # noqa: A002
    from runtime.ragged.ragged_tensor import RaggedTensor
    attrs = _attrs(input_encoding, errors, replacement_char, False)
    codes, offsets = _decode(input, attrs, name, what)
    values = codes.flat_values if isinstance(codes, RaggedTensor) else codes
    chars = _encode_each(values, input_encoding, errors, replacement_char)
    chars = codes.with_flat_values(chars) if isinstance(codes, RaggedTensor) else chars
    return chars, offsets


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """``tf.strings.unicode_split``: each character as a string in ``input_encoding``."""
    return _split(input, input_encoding, errors, replacement_char, name, "unicode_split")[0]


def unicode_split_with_offsets(input, input_encoding, errors="replace",  # noqa: A002
                               replacement_char=65533, name=None):
    """``(characters, int64 byte offsets)``."""
    return _split(input, input_encoding, errors, replacement_char, name,
                  "unicode_split_with_offsets")


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """``tf.strings.unicode_encode``: code points (last dimension, maybe ragged) to strings."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    if errors not in _ERRORS:
        raise ValueError(f"errors must be 'strict', 'replace' or 'ignore', got {errors!r}")
    codec_name(output_encoding)
    attrs = {"errors": errors, "replacement_char": int(replacement_char)}
    if isinstance(input, RaggedTensor):
        if input.ragged_rank > 1:
            return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                    replacement_char, name))
        utf8 = apply_op("UnicodeEncode", [input.values, input.row_splits], attrs,
                        name=name or "UnicodeEncode")
        return _from_utf8(utf8, output_encoding, errors, replacement_char)
    x = convert_to_tensor(input, dtype_hint=dtypes.int32)
    if x.shape.rank == 0:
        raise ValueError("unicode_encode needs code points of rank >= 1, got a scalar")
    rows = RaggedTensor.from_tensor(array_ops.reshape(x, [-1, array_ops.shape(x)[-1]])
                                    if x.shape.rank != 1 else array_ops.expand_dims(x, 0))
    encoded = unicode_encode(rows, output_encoding, errors, replacement_char, name)
    if x.shape.rank == 1:
        return array_ops.reshape(encoded, [])
    return array_ops.reshape(encoded, array_ops.shape(x)[:-1])


def unicode_transcode(input, input_encoding, output_encoding, errors="replace",  # noqa: A002
                      replacement_char=65533, replace_control_characters=False, name=None):
    """``tf.strings.unicode_transcode``: re-encodes each string (same shape)."""
    attrs = _attrs(input_encoding, errors, replacement_char, replace_control_characters)
    codec_name(output_encoding)
    attrs["output_encoding"] = output_encoding
    x = convert_to_tensor(input, dtype=dtypes.string)
    return apply_op("UnicodeTranscode", [x], attrs, name=name or "UnicodeTranscode")


def unicode_script(input, name=None):  # noqa: A002
    """``tf.strings.unicode_script``: ICU's UScriptCode of each int32 code point (-1 when
    not a code point); elementwise, so a RaggedTensor keeps its rows."""
    if hasattr(input, "with_flat_values"):  # RaggedTensor (TensorFlow dispatches it so)
        return input.with_flat_values(unicode_script(input.flat_values, name))
    x = convert_to_tensor(input, dtype_hint=dtypes.int32)
    return apply_op("UnicodeScript", [x], name=name or "UnicodeScript")
