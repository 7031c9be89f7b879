"""``tf.strings``: formatting, joining, splitting, substrings, regexes, Unicode, hashing.

Strings are byte strings (numpy object arrays of ``bytes``), as in TensorFlow.
"""
from __future__ import annotations

import builtins

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def _string(value) -> Tensor:
    """A string tensor; Python values of another type are TF's conversion TypeError."""
    if isinstance(value, Tensor) or hasattr(value, "_as_tensor"):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype=dtypes.string)


def format(template: str, inputs, placeholder: str = "{}", summarize: int = 3,  # noqa: A001
           name=None) -> Tensor:
    """``tf.strings.format``: fills each placeholder with a tensor's tf.print text."""
    if math_ops.is_tensor_like(inputs) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    tensors = [convert_to_tensor(t) for t in inputs]
    return apply_op("StringFormat", tensors,
                    {"template": template, "placeholder": placeholder,
                     "summarize": -1 if summarize is None else int(summarize)},
                    name=name or "StringFormat")


def join(inputs, separator: str = "", name=None) -> Tensor:
    """``tf.strings.join``: elementwise concatenation of string tensors (broadcasting)."""
    return apply_op("StringJoin", [_string(t) for t in inputs], {"separator": separator},
                    name=name or "StringJoin")


def length(input, unit: str = "BYTE", name=None) -> Tensor:  # noqa: A002
    """``tf.strings.length``: bytes (or UTF-8 characters with unit='UTF8_CHAR')."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return apply_op("StringLength", [_string(input)], {"unit": unit}, name=name or "StringLength")


def upper(input, encoding: str = "", name=None) -> Tensor:  # noqa: A002
    """ASCII letters only, unless ``encoding='utf-8'``."""
    return apply_op("StringUpper", [_string(input)], {"encoding": encoding},
                    name=name or "StringUpper")


def lower(input, encoding: str = "", name=None) -> Tensor:  # noqa: A002
    return apply_op("StringLower", [_string(input)], {"encoding": encoding},
                    name=name or "StringLower")


def strip(input, name=None) -> Tensor:  # noqa: A002
    """Removes leading and trailing whitespace."""
    return apply_op("StringStrip", [_string(input)], name=name or "StringStrip")


def to_number(string_tensor, out_type=dtypes.float32, name=None) -> Tensor:
    """``tf.strings.to_number``: parses numbers; a malformed string is an InvalidArgumentError."""
    return apply_op("StringToNumber", [_string(string_tensor)], {"out_type": as_dtype(out_type)},
                    name=name or "StringToNumber")


def as_string(input, precision=-1, scientific=False, shortest=False, width=-1, fill="",  # noqa: A002
              name=None) -> Tensor:
    """``tf.strings.as_string``: numbers and bools to their text (printf's ``%f`` by default)."""
    return apply_op("AsString", [convert_to_tensor(input)],
                    {"precision": int(precision), "scientific": bool(scientific),
                     "shortest": bool(shortest), "width": int(width), "fill": fill},
                    name=name or "AsString")


def _ragged_rows(op: str, input, attrs: dict, name):
    """Runs splitter ``op`` over ``input``: a Tensor of rows for a scalar, else a RaggedTensor
    with one more dimension than ``input`` (TF's results for rank 0 and rank >= 1)."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):
        return input.with_flat_values(_ragged_rows(op, input.flat_values, attrs, name))
    x = _string(input)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"{op}: the input's rank must be known")
    flat = array_ops.reshape(x, [-1])
    values, splits = apply_op(op, [flat], attrs, name=name or op)
    if rank == 0:
        return values
    result = RaggedTensor.from_row_splits(values, splits, validate=False)
    dims = x.shape.as_tuple()
    for d in reversed(dims[1:]):  # the outer dimensions are uniform
        if d is None:
            raise ValueError(f"{op}: inner dimensions of the input must be known, got {x.shape}")
        n = result.nrows(out_type=dtypes.int64)
        result = RaggedTensor.from_row_splits(
            result, array_ops.range(0, n + 1, d, dtype=dtypes.int64), validate=False)
    return result


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """``tf.strings.split``: a RaggedTensor (a Tensor for a scalar); ``sep=None`` splits on
    whitespace runs, any other separator keeps empty pieces."""
    return _ragged_rows("StringSplitV2", input, {"sep": sep or "", "maxsplit": int(maxsplit)},
                        name)


def bytes_split(input, name=None):  # noqa: A002
    return _ragged_rows("StringBytesSplit", input, {}, name)


def _check_encoding(encoding: str) -> None:
    if encoding.upper().replace("-", "") != "UTF8":
        raise ValueError(f"Only UTF-8 is supported as an encoding here, got {encoding!r}")


def _decode_attrs(errors: str, replacement_char: int) -> dict:
    if errors not in ("strict", "replace", "ignore"):
        raise ValueError(f"errors must be 'strict', 'replace' or 'ignore', got {errors!r}")
    return {"errors": errors, "replacement_char": int(replacement_char)}


def unicode_decode(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   replace_control_characters=False, name=None):
    """``tf.strings.unicode_decode``: int32 code points, one ragged row per string."""
    _check_encoding(input_encoding)
    return _ragged_rows("UnicodeDecode", input, _decode_attrs(errors, replacement_char), name)


def unicode_split(input, input_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                  name=None):
    """``tf.strings.unicode_split``: one string per character."""
    _check_encoding(input_encoding)
    return _ragged_rows("UnicodeSplit", input, _decode_attrs(errors, replacement_char), name)


def unicode_encode(input, output_encoding, errors="replace", replacement_char=65533,  # noqa: A002
                   name=None):
    """``tf.strings.unicode_encode``: code points (last dimension, maybe ragged) to strings."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    _check_encoding(output_encoding)
    attrs = _decode_attrs(errors, replacement_char)
    if isinstance(input, RaggedTensor):
        if input.ragged_rank > 1:
            return input.with_values(unicode_encode(input.values, output_encoding, errors,
                                                    replacement_char, name))
        return apply_op("UnicodeEncode", [input.values, input.row_splits], attrs,
                        name=name or "UnicodeEncode")
    x = convert_to_tensor(input, dtype_hint=dtypes.int32)
    if x.shape.rank == 0:
        raise ValueError("unicode_encode needs code points of rank >= 1, got a scalar")
    rows = RaggedTensor.from_tensor(array_ops.reshape(x, [-1, array_ops.shape(x)[-1]])
                                    if x.shape.rank != 1 else array_ops.expand_dims(x, 0))
    encoded = apply_op("UnicodeEncode", [rows.values, rows.row_splits], attrs,
                       name=name or "UnicodeEncode")
    if x.shape.rank == 1:
        return array_ops.reshape(encoded, [])
    return array_ops.reshape(encoded, array_ops.shape(x)[:-1])


def substr(input, pos, len, unit="BYTE", name=None):  # noqa: A002
    """``tf.strings.substr``: ``len`` bytes (or UTF-8 characters) from ``pos`` (negative: from
    the end); ``pos`` past the end is an InvalidArgumentError."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    pos = convert_to_tensor(pos, name="pos")
    length = convert_to_tensor(len, dtype=pos.dtype, name="len")
    return apply_op("Substr", [_string(input), pos, length], {"unit": unit},
                    name=name or "Substr")


def regex_full_match(input, pattern, name=None):  # noqa: A002
    """Whether each whole string matches ``pattern`` (Python ``re`` syntax, RE2's common subset)."""
    return apply_op("RegexFullMatch", [_string(input), _string(pattern)],
                    name=name or "RegexFullMatch")


def regex_replace(input, pattern, rewrite, replace_global=True, name=None):  # noqa: A002
    """Replaces matches of ``pattern`` by ``rewrite`` (``\\1`` names a group)."""
    return apply_op("RegexReplace", [_string(input), _string(pattern), _string(rewrite)],
                    {"replace_global": bool(replace_global)}, name=name or "RegexReplace")


def reduce_join(inputs, axis=None, keepdims=False, separator="", name=None) -> Tensor:
    """``tf.strings.reduce_join``: joins the strings along ``axis`` (all axes by default)."""
    axes = None if axis is None else tuple(int(a) for a in
                                           (axis if isinstance(axis, (list, tuple)) else [axis]))
    return apply_op("ReduceJoin", [_string(inputs)],
                    {"axis": axes, "keep_dims": bool(keepdims), "separator": separator},
                    name=name or "ReduceJoin")


def to_hash_bucket_fast(input, num_buckets, name=None) -> Tensor:  # noqa: A002
    """Bucket ``Fingerprint64(s) % num_buckets`` (FarmHash: TensorFlow's bucket numbers)."""
    return apply_op("StringToHashBucketFast", [_string(input)], {"num_buckets": int(num_buckets)},
                    name=name or "StringToHashBucketFast")


def to_hash_bucket_strong(input, num_buckets, key, name=None) -> Tensor:  # noqa: A002
    """Bucket of a BLAKE2b-64 keyed with the two 64-bit ints of ``key`` (TF uses SipHash)."""
    key = [int(k) for k in key]
    if builtins.len(key) != 2:
        raise ValueError(f"key must hold two integers, got {key}")
    return apply_op("StringToHashBucketStrong", [_string(input)],
                    {"num_buckets": int(num_buckets), "key": tuple(key)},
                    name=name or "StringToHashBucketStrong")


to_hash_bucket = to_hash_bucket_fast
