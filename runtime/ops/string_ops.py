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


def ragged_rows(run, input, name, what: str):  # noqa: A002
    """``run(flat)`` turns a 1-D string tensor into (values..., row_splits); the result for
    ``input`` is each values tensor for a scalar, else a RaggedTensor with one more dimension
    than ``input`` (TF's results for rank 0 and rank >= 1), as a list."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    if isinstance(input, RaggedTensor):
        return [input.with_flat_values(v) for v in ragged_rows(run, input.flat_values, name, what)]
    x = _string(input)
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"{what}: the input's rank must be known")
    *values, splits = run(array_ops.reshape(x, [-1]))
    if rank == 0:
        return values
    dims = x.shape.as_tuple()
    if any(d is None for d in dims[1:]):
        raise ValueError(f"{what}: inner dimensions of the input must be known, got {x.shape}")
    results = []
    for v in values:
        result = RaggedTensor.from_row_splits(v, splits, validate=False)
        for d in reversed(dims[1:]):  # the outer dimensions are uniform
            n = result.nrows(out_type=dtypes.int64)
            result = RaggedTensor.from_row_splits(
                result, array_ops.range(0, n + 1, d, dtype=dtypes.int64), validate=False)
        results.append(result)
    return results


def _ragged_rows(op: str, input, attrs: dict, name):  # noqa: A002
    """Splitter ``op`` (a 1-D string tensor to values and row splits) over ``input``."""
    return ragged_rows(lambda flat: apply_op(op, [flat], attrs, name=name or op),
                       input, name, op)[0]


def split(input, sep=None, maxsplit=-1, name=None):  # noqa: A002
    """``tf.strings.split``: a RaggedTensor (a Tensor for a scalar); ``sep=None`` splits on
    whitespace runs, any other separator keeps empty pieces."""
    return _ragged_rows("StringSplitV2", input, {"sep": sep or "", "maxsplit": int(maxsplit)},
                        name)


def bytes_split(input, name=None):  # noqa: A002
    return _ragged_rows("StringBytesSplit", input, {}, name)


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
    """Bucket ``SipHash-2-4(s) % num_buckets``, keyed with the two 64-bit ints of ``key``."""
    key = [int(k) for k in key]
    if builtins.len(key) != 2:
        raise ValueError(f"key must hold two integers, got {key}")
    return apply_op("StringToHashBucketStrong", [_string(input)],
                    {"num_buckets": int(num_buckets), "key": tuple(key)},
                    name=name or "StringToHashBucketStrong")


def to_hash_bucket(string_tensor, num_buckets, name=None) -> Tensor:
    """Bucket ``Hash64(s) % num_buckets`` (TensorFlow's legacy hash, not the fast one)."""
    return apply_op("StringToHashBucket", [_string(string_tensor)],
                    {"num_buckets": int(num_buckets)}, name=name or "StringToHashBucket")


def _pads(pad_values):
    if pad_values is None:
        return "", ""
    if isinstance(pad_values, (list, tuple)) and builtins.len(pad_values) == 2 and \
            all(isinstance(p, (str, bytes)) for p in pad_values):
        return tuple(pad_values)
    if isinstance(pad_values, (str, bytes)):
        return pad_values, pad_values
    raise TypeError("pad_values must be a string, tuple of strings, or None.")


def ngrams(data, ngram_width, separator=" ", pad_values=None, padding_width=None,
           preserve_short_sequences=False, name=None):
    """``tf.strings.ngrams``: the n-grams of each innermost row, joined by ``separator``.

    A dense input gives a dense result (its last dimension the n-grams), a RaggedTensor a
    RaggedTensor; ``pad_values`` pads each row by ``padding_width`` (default width - 1)."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    left, right = _pads(pad_values)
    if padding_width is not None and padding_width < 1:
        raise ValueError("padding_width must be greater than 0.")
    if padding_width is not None and pad_values is None:
        raise ValueError("pad_values must be provided if padding_width is set.")
    widths = list(ngram_width) if isinstance(ngram_width, (list, tuple)) else [ngram_width]
    if any(w < 1 for w in widths):
        raise ValueError(f"All ngram_widths must be greater than 0. Got {ngram_width}")
    attrs = {"separator": separator, "ngram_widths": tuple(int(w) for w in widths),
             "left_pad": left, "right_pad": right,
             "pad_width": 0 if pad_values is None else
             (-1 if padding_width is None else int(padding_width)),
             "preserve_short_sequences": bool(preserve_short_sequences)}

    def rows(rt):
        if rt.ragged_rank > 1:
            return rt.with_values(rows(rt.values))
        values, splits = apply_op("StringNGrams", [_string(rt.values), rt.row_splits], attrs,
                                  name=name or "StringNGrams")
        return RaggedTensor.from_row_splits(values, splits, validate=False)

    if isinstance(data, RaggedTensor):
        return rows(data)
    x = _string(data)
    if x.shape.rank is None:
        raise ValueError("Rank of data must be known.")
    if x.shape.rank == 0:
        raise ValueError("Data must have rank>0")
    if x.shape.rank == 1:
        return rows(RaggedTensor.from_tensor(array_ops.expand_dims(x, 0))).flat_values
    result = rows(RaggedTensor.from_tensor(x, ragged_rank=x.shape.rank - 1))
    shape = array_ops.concat([array_ops.shape(x)[:-1], [-1]], axis=0)
    return array_ops.reshape(result.flat_values, shape)


def unsorted_segment_join(inputs, segment_ids, num_segments, separator="", name=None):
    """``tf.strings.unsorted_segment_join``: joins the strings of each segment in order (an
    empty segment is ``''``); ids outside ``[0, num_segments)`` are an InvalidArgumentError."""
    ids = convert_to_tensor(segment_ids, dtype_hint=dtypes.int32, name="segment_ids")
    num = convert_to_tensor(num_segments, dtype_hint=dtypes.int32, name="num_segments")
    return apply_op("UnsortedSegmentJoin", [_string(inputs), ids, num],
                    {"separator": separator}, name=name or "UnsortedSegmentJoin")
