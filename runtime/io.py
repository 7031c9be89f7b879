"""``tf.io``: files, raw bytes, CSV and serialized tensors (``graph/ops/io.py`` documents the
serialization format), ``tf.io.gfile`` for local files, TFRecord files and the parsing of
``tf.train.Example`` records (``graph/ops/records.py`` reads and writes both)."""
from __future__ import annotations

import glob as _glob
import os as _os
import shutil as _shutil
import zlib as _zlib
from collections import namedtuple as _namedtuple
from types import SimpleNamespace as _Namespace

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.ops import records
from graph.shapes import TensorShape
from runtime.ops.core import apply_op, convert_to_tensor


def _string(value):
    return convert_to_tensor(value, dtype_hint=dtypes.string)


def read_file(filename, name=None):
    """The bytes of a file as a scalar string tensor (NotFoundError when it is missing)."""
    return apply_op("ReadFile", [_string(filename)], name=name or "ReadFile")


def matching_files(pattern, name=None):
    """``tf.io.matching_files``: the files matching a glob pattern (or any of a vector of
    them), sorted."""
    return apply_op("MatchingFiles", [_string(pattern)], name=name or "MatchingFiles")


def write_file(filename, contents, name=None):
    return apply_op("WriteFile", [_string(filename), _string(contents)], name=name or "WriteFile")


def decode_raw(input_bytes, out_type, little_endian=True, fixed_length=None, name=None):  # noqa: ARG001
    """Reinterprets each string's bytes as a vector of ``out_type`` (one more dimension)."""
    if fixed_length is not None:
        raise NotImplementedError("decode_raw's fixed_length is not supported")
    return apply_op("DecodeRaw", [_string(input_bytes)],
                    {"out_type": as_dtype(out_type), "little_endian": bool(little_endian)},
                    name=name or "DecodeRaw")


def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, na_value="",
               select_cols=None, name=None):
    """One tensor per column, typed by ``record_defaults`` (an empty default means required)."""
    if select_cols is not None:
        raise NotImplementedError("decode_csv's select_cols is not supported")
    defaults = []
    for d in record_defaults:
        if isinstance(d, (list, tuple)) and len(d) == 0:
            defaults.append(convert_to_tensor([], dtype=dtypes.float32))
        else:
            defaults.append(convert_to_tensor(d))
    result = apply_op("DecodeCSV", [_string(records)] + defaults,
                      {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                       "na_value": na_value}, name=name or "DecodeCSV")
    return list(result) if isinstance(result, tuple) else [result]


def encode_base64(input, pad=False, name=None):  # noqa: A002
    """``tf.io.encode_base64``: web-safe base64 of each string, '=' padding only with ``pad``."""
    return apply_op("EncodeBase64", [_string(input)], {"pad": bool(pad)},
                    name=name or "EncodeBase64")


def decode_base64(input, name=None):  # noqa: A002
    """``tf.io.decode_base64``: the bytes of web-safe base64 strings (padded or not)."""
    return apply_op("DecodeBase64", [_string(input)], name=name or "DecodeBase64")


def serialize_tensor(tensor, name=None):
    return apply_op("SerializeTensor", [convert_to_tensor(tensor)], name=name or "SerializeTensor")


def parse_tensor(serialized, out_type, name=None):
    return apply_op("ParseTensor", [_string(serialized)], {"out_type": as_dtype(out_type)},
                    name=name or "ParseTensor")


class GFile:
    """``tf.io.gfile.GFile``: a local file (text or binary, as ``mode`` says)."""

    def __init__(self, name, mode="r"):
        self._file = open(name, mode)

    def __getattr__(self, attr):
        return getattr(self._file, attr)

    def __iter__(self):
        return iter(self._file)

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self._file.close()
        return False


gfile = _Namespace(GFile=GFile, exists=_os.path.exists, isdir=_os.path.isdir,
                   listdir=_os.listdir, makedirs=lambda p: _os.makedirs(p, exist_ok=True),
                   mkdir=_os.mkdir, remove=_os.remove, rmtree=_shutil.rmtree,
                   glob=_glob.glob, rename=lambda s, d, overwrite=False: _os.replace(s, d)
                   if overwrite or not _os.path.exists(d) else _raise_exists(d),
                   copy=lambda s, d, overwrite=False: _shutil.copyfile(s, d)
                   if overwrite or not _os.path.exists(d) else _raise_exists(d))


def _raise_exists(path):
    raise FileExistsError(f"file already exists: {path}")


# -- TFRecord files -------------------------------------------------------------------------

_COMPRESSION = {None: "", "": "", "GZIP": "GZIP", "ZLIB": "ZLIB"}


class TFRecordOptions:
    """``tf.io.TFRecordOptions``: the compression of a TFRecord file ('' / GZIP / ZLIB); the
    buffer and zlib tuning arguments are kept (``compression_level`` is used)."""

    compression_type_map = {"": 0, "ZLIB": 1, "GZIP": 2}

    def __init__(self, compression_type=None, flush_mode=None, input_buffer_size=None,
                 output_buffer_size=None, window_bits=None, compression_level=None,
                 compression_method=None, mem_level=None, compression_strategy=None):
        self.compression_type = _compression(compression_type)
        self.flush_mode, self.input_buffer_size = flush_mode, input_buffer_size
        self.output_buffer_size, self.window_bits = output_buffer_size, window_bits
        self.compression_level, self.compression_method = compression_level, compression_method
        self.mem_level, self.compression_strategy = mem_level, compression_strategy

    @classmethod
    def get_compression_type_string(cls, options) -> str:
        if isinstance(options, TFRecordOptions):
            return options.compression_type
        return _compression(options)


def _compression(value) -> str:
    if isinstance(value, TFRecordOptions):
        return value.compression_type
    if value not in _COMPRESSION:
        raise ValueError(f'Not a valid compression_type: "{value}"')
    return _COMPRESSION[value]


class TFRecordWriter:
    """``tf.io.TFRecordWriter``: records framed and compressed as TensorFlow writes them (zlib
    with TensorFlow's memory level 9; GZIP is zlib's gzip wrapper), so that files are
    byte-identical to TensorFlow's."""

    def __init__(self, path, options=None):
        opts = options if isinstance(options, TFRecordOptions) else \
            TFRecordOptions(compression_type=options)
        self._file = open(_os.fspath(path), "wb")
        self._zlib = None
        if opts.compression_type:
            bits = 15 if opts.window_bits is None else int(opts.window_bits)
            self._zlib = _zlib.compressobj(
                -1 if opts.compression_level is None else int(opts.compression_level),
                _zlib.DEFLATED, bits + 16 if opts.compression_type == "GZIP" else bits,
                9 if opts.mem_level is None else int(opts.mem_level))

    def write(self, record) -> None:
        if isinstance(record, str):
            record = record.encode()
        data = records.frame(bytes(record))
        self._file.write(self._zlib.compress(data) if self._zlib else data)

    def flush(self) -> None:
        if self._zlib:
            self._file.write(self._zlib.flush(_zlib.Z_SYNC_FLUSH))
        self._file.flush()

    def close(self) -> None:
        if self._file.closed:
            return
        if self._zlib:
            self._file.write(self._zlib.flush())
        self._file.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()
        return False


# -- parsing tf.train.Example ------------------------------------------------------------------

FixedLenFeature = _namedtuple("FixedLenFeature", ["shape", "dtype", "default_value"],
                              defaults=[None])
FixedLenSequenceFeature = _namedtuple(
    "FixedLenSequenceFeature", ["shape", "dtype", "allow_missing", "default_value"],
    defaults=[False, None])
VarLenFeature = _namedtuple("VarLenFeature", ["dtype"])
RaggedFeature = _namedtuple(
    "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"],
    defaults=[None, (), dtypes.int32, False])
RaggedFeature.RowLengths = _namedtuple("RowLengths", ["key"])
RaggedFeature.RowSplits = _namedtuple("RowSplits", ["key"])
RaggedFeature.UniformRowLength = _namedtuple("UniformRowLength", ["length"])
SparseFeature = _namedtuple("SparseFeature", ["index_key", "value_key", "dtype", "size",
                                              "already_sorted"], defaults=[False])
FixedLenFeature.__doc__ = "``tf.io.FixedLenFeature``: a dense feature of a known shape."
SparseFeature.__doc__ = ("``tf.io.SparseFeature``: a SparseTensor of dense shape ``size`` "
                         "whose indices and values are other (int64, ``dtype``) features.")
FixedLenSequenceFeature.__doc__ = ("``tf.io.FixedLenSequenceFeature``: a dense feature of any "
                                   "number of items of ``shape``, padded to the longest.")
VarLenFeature.__doc__ = "``tf.io.VarLenFeature``: a feature parsed as a SparseTensor."
RaggedFeature.__doc__ = "``tf.io.RaggedFeature``: a feature parsed as a RaggedTensor."


def parse_example(serialized, features, example_names=None, name=None):
    """A dict of the ``features`` parsed from a vector of serialized ``Example``s: dense
    tensors with a batch dimension, SparseTensors and RaggedTensors (one row per record)."""
    return _parse(serialized, features, name or "ParseExample")


def parse_single_example(serialized, features, example_names=None, name=None):
    """``parse_example`` of one serialized ``Example`` (a scalar): no batch dimension."""
    serialized = _string(serialized)
    if serialized.shape.rank not in (None, 0):
        raise ValueError(f"Input serialized must be a scalar, got shape {serialized.shape}")
    return _parse(serialized, features, name or "ParseSingleExample")


def _parse(serialized, features, name):
    if not features:
        raise ValueError("Invalid argument: features cannot be empty.")
    serialized = _string(serialized)
    plain = _plain_features(features)
    attrs, defaults, kinds = _parse_attrs(plain, sequence=False)
    out = apply_op("ParseExampleV2", [serialized] + defaults, attrs, name=name)
    out = list(out) if isinstance(out, tuple) else [out]
    single = serialized.shape.rank == 0
    return _with_composite_features(_parsed(out, plain, kinds, single), features, single)


def _index_keys(feature) -> list:
    return list(feature.index_key) if isinstance(feature.index_key, (list, tuple)) \
        else [feature.index_key]


def _parts(key, feature) -> list:
    """The plain features a SparseFeature (index and value VarLenFeatures) or a
    RaggedFeature with partitions (ragged values and int64 partition features) is built
    from, as TensorFlow parses them; [] for a plain feature."""
    if isinstance(feature, SparseFeature):
        return [(k, VarLenFeature(dtypes.int64)) for k in _index_keys(feature)] + [
            (feature.value_key, VarLenFeature(feature.dtype))]
    if isinstance(feature, RaggedFeature) and feature.partitions:
        splits = feature.row_splits_dtype
        return [(feature.value_key or key, RaggedFeature(feature.dtype, row_splits_dtype=splits))
                ] + [(p.key, RaggedFeature(dtypes.int64, row_splits_dtype=splits))
                     for p in feature.partitions if hasattr(p, "key")]
    return []


def _plain_features(features) -> dict:
    """The features with each composite one replaced by the plain features of its parts."""
    plain = {k: f for k, f in features.items() if not _parts(k, f)}
    for key, feature in features.items():
        for k, part in _parts(key, feature):
            if plain.setdefault(k, part) != part:
                raise ValueError(f"Conflicting type for feature '{k}' of {type(feature).__name__} "
                                 f"'{key}': {plain[k]} and {part}")
    return plain


def _with_composite_features(result: dict, features, single: bool) -> dict:
    """``result`` with the composite features built from their parts, and parts not asked
    for left out."""
    built = {k: _sparse_feature(result, f) if isinstance(f, SparseFeature) else
             _partitioned(result, k, f, single) for k, f in features.items() if _parts(k, f)}
    if not built:
        return result
    out = {k: v for k, v in result.items() if k in features and k not in built}
    out.update(built)
    return out


def _partitioned(result: dict, key, feature, single: bool):
    """A RaggedFeature's values partitioned from the innermost partition out; in a batch
    each partition is one row per example, so its flat values partition the flat values and
    its row lengths regroup them by example."""
    from runtime.ops import array_ops, math_ops
    from runtime.ragged.ragged_tensor import RaggedTensor
    rt = result[feature.value_key or key]
    for part in reversed(feature.partitions):
        if not hasattr(part, "key"):   # UniformRowLength
            rt = array_ops.reshape(rt, [-1, part.length]) if single and \
                not isinstance(rt, RaggedTensor) else RaggedTensor.from_uniform_row_length(
                    rt, part.length) if single else RaggedTensor.from_row_lengths(
                    RaggedTensor.from_uniform_row_length(rt.values, part.length),
                    rt.row_lengths() // part.length)
            continue
        p = result[part.key]
        if type(part).__name__ == "RowSplits":
            p = p[1:] - p[:-1] if single else p[:, 1:] - p[:, :-1]
        lengths = math_ops.cast(p if single else p.values, feature.row_splits_dtype)
        rt = RaggedTensor.from_row_lengths(rt if single else rt.values, lengths)
        if not single:
            rt = RaggedTensor.from_row_lengths(rt, math_ops.cast(
                p.row_lengths(), feature.row_splits_dtype))
    return rt


def _sparse_feature(result: dict, feature):
    """A SparseFeature's SparseTensor built from its parts (indices in canonical order
    unless ``already_sorted``)."""
    from runtime.ops import array_ops, math_ops
    from runtime.sparse.sparse_ops import reorder
    from runtime.sparse.sparse_tensor import SparseTensor
    ids = [result[k] for k in _index_keys(feature)]
    size = list(feature.size) if isinstance(feature.size, (list, tuple)) else [feature.size]
    indices = array_ops.concat([ids[0].indices[:, :-1]] + [
        array_ops.expand_dims(i.values, 1) for i in ids], 1)
    shape = array_ops.concat([ids[0].dense_shape[:-1], math_ops.cast(
        convert_to_tensor(size), dtypes.int64)], 0)
    known = ids[0].shape
    value = SparseTensor(indices, result[feature.value_key].values, shape)._with_static_shape(
        TensorShape(None) if known.rank is None else
        TensorShape(known.as_list()[:-1] + [int(d) for d in size]))
    return value if feature.already_sorted else reorder(value)


def parse_single_sequence_example(serialized, context_features=None, sequence_features=None,
                                  example_name=None, name=None):
    """(context, feature lists) of one serialized ``SequenceExample``: the context as
    ``parse_single_example`` gives it, each feature list with one row per frame."""
    context_features, sequence_features = context_features or {}, sequence_features or {}
    if not context_features and not sequence_features:
        raise ValueError("Must provide at least one context_feature or sequence_feature.")
    serialized = _string(serialized)
    context, context_defaults, context_kinds = _parse_attrs(context_features, sequence=False)
    seq, seq_defaults, seq_kinds = _parse_attrs(sequence_features, sequence=True)
    seq["required"] = tuple(k for k in seq_kinds["dense"]
                            if not getattr(sequence_features[k], "allow_missing", False))
    out = apply_op("ParseSingleSequenceExample", [serialized] + context_defaults + seq_defaults,
                   {"context": context, "sequence": seq},
                   name=name or "ParseSingleSequenceExample")
    out = list(out) if isinstance(out, tuple) else [out]
    n = sum(len(v) for v in context_kinds.values()) + len(context_kinds["sparse"]) * 2 + \
        len(context_kinds["ragged"])
    return (_parsed(out[:n], context_features, context_kinds, True),
            _parsed(out[n:], sequence_features, seq_kinds, False))


def _parse_attrs(features, sequence: bool):
    """ParseExampleV2's attrs, its default inputs, and the keys of each kind (sorted)."""
    kinds = {"dense": [], "sparse": [], "ragged": []}
    for key in sorted(features):
        kinds[_feature_kind(key, features[key], sequence)].append(key)
    attrs = {"dense_keys": tuple(kinds["dense"]), "sparse_keys": tuple(kinds["sparse"]),
             "ragged_keys": tuple(features[k].value_key or k for k in kinds["ragged"])}
    attrs["dense_types"] = tuple(as_dtype(features[k].dtype) for k in kinds["dense"])
    attrs["dense_shapes"] = tuple(_dense_shape(features[k], sequence) for k in kinds["dense"])
    attrs["sparse_types"] = tuple(as_dtype(features[k].dtype) for k in kinds["sparse"])
    attrs["ragged_value_types"] = tuple(as_dtype(features[k].dtype) for k in kinds["ragged"])
    attrs["ragged_split_types"] = tuple(as_dtype(features[k].row_splits_dtype)
                                        for k in kinds["ragged"])
    defaults = [_default(features[k], t, s) for k, t, s in zip(
        kinds["dense"], attrs["dense_types"], attrs["dense_shapes"])]
    return attrs, defaults, kinds


def _parsed(out, features, kinds, single):
    """The result dict of a parse op's outputs: sparse, dense then ragged keys, each sorted
    (TensorFlow's order, which printing the dict or an element_spec shows)."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    from runtime.sparse.sparse_tensor import SparseTensor
    n = len(kinds["sparse"])
    result = {k: SparseTensor(out[i], out[n + i], out[2 * n + i])
              for i, k in enumerate(kinds["sparse"])}
    result.update(zip(kinds["dense"], out[3 * n:3 * n + len(kinds["dense"])]))
    ragged = out[3 * n + len(kinds["dense"]):]
    for i, key in enumerate(kinds["ragged"]):
        values, splits = ragged[i], ragged[len(kinds["ragged"]) + i]
        result[key] = values if single else \
            RaggedTensor.from_row_splits(values, splits, validate=False)
    return result


def _feature_kind(key, feature, sequence: bool = False) -> str:
    if isinstance(feature, (FixedLenFeature, FixedLenSequenceFeature)):
        if isinstance(feature, FixedLenSequenceFeature) and not feature.allow_missing and \
                not sequence:
            raise ValueError("Unsupported: FixedLenSequenceFeature requires allow_missing to "
                             "be True.")
        return "dense"
    if isinstance(feature, VarLenFeature):
        return "sparse"
    if isinstance(feature, RaggedFeature):
        for p in feature.partitions:
            if type(p).__name__ not in ("RowLengths", "RowSplits", "UniformRowLength"):
                raise NotImplementedError(f"RaggedFeature partition {p} is not supported "
                                          f"(RowLengths, RowSplits and UniformRowLength are)")
        return "ragged"
    raise ValueError(f"Unsupported {type(feature).__name__} {feature} for key '{key}'")


def _dense_shape(feature, sequence: bool = False) -> tuple:
    shape = tuple(None if d is None else int(d) for d in TensorShape(feature.shape).as_list())
    if None in shape:
        raise ValueError(f"All dimensions of shape for feature need to be known but received "
                         f"{list(shape)}.")
    sequence_of_items = isinstance(feature, FixedLenSequenceFeature) and not sequence
    return (None,) + shape if sequence_of_items else shape


def _default(feature, dtype, shape):
    """The default value input of a dense feature (an empty tensor when there is none)."""
    if feature.default_value is None:
        return convert_to_tensor(np.zeros([0], dtype=object if dtype.is_string
                                          else dtype.numpy_dtype), dtype=dtype)
    value = convert_to_tensor(feature.default_value, dtype=dtype)
    if isinstance(feature, FixedLenSequenceFeature):
        return value
    from runtime.ops.array_ops import reshape
    return reshape(value, list(shape))


from runtime.image.png import (decode_image, decode_png, encode_png,  # noqa: F401,E402
                               is_jpeg)  # (also tf.io names)
