"""TFRecord files and ``tf.train.Example`` protos, byte-compatible with TensorFlow's.

* CRC-32C (Castagnoli, table-driven) and TensorFlow's mask of it, which frame each record:
  ``uint64 length, uint32 masked_crc(length), data, uint32 masked_crc(data)`` (little endian).
* The protobuf wire format of ``example.proto`` / ``feature.proto``, written by hand from a
  schema (``SCHEMAS``): messages are plain dicts (field name -> value; a map is a dict, a
  repeated field a list), so the ``tf.train`` classes and the parsing kernels share one codec.
  Repeated floats and int64s are written packed, as TensorFlow writes them; both packed and
  unpacked forms are read. Map entries are written in insertion order (TensorFlow's order is
  its hash table's, which changes from run to run), in key order when ``deterministic``.
* ``TFRecordDataset`` and ``FixedLengthRecordDataset``: dataset ops reading files lazily.
* ``ParseExampleV2`` (a scalar or vector of Examples) and ``ParseSingleSequenceExample`` (whose
  feature lists parse as batches of frames): dense, sparse and ragged outputs, with
  TensorFlow's errors for missing and ill-typed features.
"""
from __future__ import annotations

import gzip
import struct
import zlib

import numpy as np

from graph import dtypes
from graph.errors import DataLossError, InvalidArgumentError, NotFoundError
from graph.ir import TensorType
from graph.ops.data import DatasetValue, _variant
from graph.registry import register_op
from graph.shapes import TensorShape


# -- CRC-32C ---------------------------------------------------------------------------

def _crc_table() -> list[int]:
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    return table


_CRC_TABLE = _crc_table()


def crc32c(data: bytes) -> int:
    table, crc = _CRC_TABLE, 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    """TensorFlow's ``crc32c::Mask``: rotate right by 15 bits and add a constant."""
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


# -- TFRecord framing ---------------------------------------------------------------------

def frame(record: bytes) -> bytes:
    """One record as a TFRecord file stores it."""
    length = struct.pack("<Q", len(record))
    return length + struct.pack("<I", masked_crc(length)) + record + \
        struct.pack("<I", masked_crc(record))


def open_compressed(path: str, compression: str):
    """A binary stream of ``path``'s bytes, decompressed as ``compression`` ('', GZIP, ZLIB)."""
    try:
        raw = open(path, "rb")
    except OSError as e:
        raise NotFoundError(message=f"{path}; {e.strerror or 'No such file or directory'}") \
            from None
    if compression == "GZIP":
        return gzip.GzipFile(fileobj=raw)
    if compression == "ZLIB":
        import io
        with raw:
            return io.BytesIO(zlib.decompress(raw.read()))
    return raw


def read_records(stream):
    """The records of a TFRecord stream, checking lengths and checksums (TensorFlow's
    DataLossErrors: at the record's offset, or its data's when the data's checksum fails)."""
    offset = 0
    while True:
        head = stream.read(12)
        if not head:
            return
        truncated = DataLossError(message=f"truncated record at {offset}' failed with Read "
                                          "less bytes than requested")
        if len(head) < 12:
            raise truncated
        (length,) = struct.unpack_from("<Q", head)
        if struct.unpack_from("<I", head, 8)[0] != masked_crc(head[:8]):
            raise DataLossError(message=f"corrupted record at {offset}")
        data = stream.read(length)
        tail = stream.read(4)
        if len(data) < length or len(tail) < 4:
            raise truncated
        if struct.unpack("<I", tail)[0] != masked_crc(data):
            raise DataLossError(message=f"corrupted record at {offset + 12}")
        offset += 16 + length
        yield data


# -- protobuf wire format -----------------------------------------------------------------

# message -> {field number: (name, kind, message type)}; kinds: message (singular),
# messages (repeated), map (string keys), string (one bytes value: a map entry's key),
# bytes / float / int64 (repeated scalars).
SCHEMAS = {
    "BytesList": {1: ("value", "bytes", None)},
    "FloatList": {1: ("value", "float", None)},
    "Int64List": {1: ("value", "int64", None)},
    "Feature": {1: ("bytes_list", "message", "BytesList"),
                2: ("float_list", "message", "FloatList"),
                3: ("int64_list", "message", "Int64List")},
    "Features": {1: ("feature", "map", "Feature")},
    "FeatureList": {1: ("feature", "messages", "Feature")},
    "FeatureLists": {1: ("feature_list", "map", "FeatureList")},
    "Example": {1: ("features", "message", "Features")},
    "SequenceExample": {1: ("context", "message", "Features"),
                        2: ("feature_lists", "message", "FeatureLists")},
}


class DecodeError(ValueError):
    """Bytes that are not a valid message of the schema."""


def _varint(value: int) -> bytes:
    value &= 0xFFFFFFFFFFFFFFFF
    out = bytearray()
    while value > 0x7F:
        out.append(value & 0x7F | 0x80)
        value >>= 7
    out.append(value)
    return bytes(out)


def _read_varint(data: bytes, pos: int) -> tuple[int, int]:
    result = shift = 0
    while True:
        if pos >= len(data) or shift > 63:
            raise DecodeError("truncated varint")
        b = data[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if not b & 0x80:
            return result, pos
        shift += 7


def _delimited(number: int, payload: bytes) -> bytes:
    return _varint(number << 3 | 2) + _varint(len(payload)) + payload


def encode(message: dict, schema: str, deterministic: bool = False) -> bytes:
    """The wire bytes of ``message`` (a dict of field values) of type ``schema``."""
    out = []
    for number, (name, kind, sub) in SCHEMAS[schema].items():
        value = message.get(name)
        if value is None:
            continue
        if kind == "message":
            out.append(_delimited(number, encode(value, sub, deterministic)))
        elif kind == "messages":
            out.extend(_delimited(number, encode(v, sub, deterministic)) for v in value)
        elif kind == "map":
            keys = sorted(value) if deterministic else value
            for key in keys:
                entry = _delimited(1, key.encode()) + \
                    _delimited(2, encode(value[key], sub, deterministic))
                out.append(_delimited(number, entry))
        elif kind == "bytes":
            out.extend(_delimited(number, v) for v in value)
        elif value:  # packed float / int64
            payload = np.asarray(value, "<f4").tobytes() if kind == "float" else \
                b"".join(_varint(int(v)) for v in value)
            out.append(_delimited(number, payload))
    return b"".join(out)


def decode(data: bytes, schema: str, into: dict | None = None) -> dict:
    """The message of type ``schema`` in ``data`` (merged into ``into``, as protobuf merges)."""
    message = {} if into is None else into
    fields, pos, end = SCHEMAS[schema], 0, len(data)
    while pos < end:
        key, pos = _read_varint(data, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _read_varint(data, pos)
        elif wire == 1:
            value, pos = data[pos:pos + 8], pos + 8
        elif wire == 5:
            value, pos = data[pos:pos + 4], pos + 4
        elif wire == 2:
            n, pos = _read_varint(data, pos)
            value, pos = data[pos:pos + n], pos + n
        else:
            raise DecodeError(f"unsupported wire type {wire}")
        if pos > end or number == 0:
            raise DecodeError("truncated message")
        if number in fields:
            _store(message, fields[number], wire, value)
    return message


def _store(message: dict, field, wire: int, value) -> None:
    name, kind, sub = field
    expected = {"int64": (0, 2), "float": (5, 2)}.get(kind, (2,))
    if wire not in expected:
        raise DecodeError(f"field {name!r} has wire type {wire}")
    if kind == "message":
        message[name] = decode(value, sub, message.get(name))
    elif kind == "messages":
        message.setdefault(name, []).append(decode(value, sub))
    elif kind == "map":
        entry = decode(value, "_MapEntry_" + sub)
        target = message.setdefault(name, {})
        target[entry.get("key", b"").decode()] = entry.get("value", {})
    elif kind == "bytes":
        message.setdefault(name, []).append(bytes(value))
    elif kind == "string":
        message[name] = bytes(value)
    elif kind == "float":
        if len(value) % 4:
            raise DecodeError("packed floats of a length not a multiple of 4")
        message.setdefault(name, []).extend(np.frombuffer(value, "<f4").tolist())
    elif wire == 0:
        message.setdefault(name, []).append(_signed(value))
    else:
        values, pos = message.setdefault(name, []), 0
        while pos < len(value):
            v, pos = _read_varint(value, pos)
            values.append(_signed(v))


def _signed(v: int) -> int:
    return v - (1 << 64) if v >= 1 << 63 else v


for _sub in ("Feature", "FeatureList"):
    SCHEMAS["_MapEntry_" + _sub] = {1: ("key", "string", None), 2: ("value", "message", _sub)}


# -- record datasets -----------------------------------------------------------------------

def _filenames(value) -> list[str]:
    return [bytes(f).decode() for f in np.asarray(value, dtype=object).reshape(-1)]


class _TFRecords(DatasetValue):
    """The records of each file in turn, read (and decompressed) by every pass."""
    name = "TFRecordDataset"

    def __init__(self, filenames, compression_type):
        self.filenames = _filenames(filenames)
        self.compression = bytes(np.asarray(compression_type, dtype=object)[()]).decode()
        if self.compression not in ("", "GZIP", "ZLIB"):
            raise InvalidArgumentError(message=f"Unsupported compression_type: "
                                               f"{self.compression}")

    def iterate(self):
        for path in self.filenames:
            with open_compressed(path, self.compression) as stream:
                for record in read_records(stream):
                    yield (_string_scalar(record),)


class _FixedLengthRecords(DatasetValue):
    """Each file's bytes after ``header_bytes`` and before ``footer_bytes``, cut into records
    of ``record_bytes`` (which must divide that body, as TensorFlow requires)."""
    name = "FixedLengthRecordDataset"

    def __init__(self, filenames, header, record, footer, compression_type):
        self.filenames = _filenames(filenames)
        self.header, self.record, self.footer = int(header), int(record), int(footer)
        self.compression = bytes(np.asarray(compression_type, dtype=object)[()]).decode()
        if self.record <= 0:
            raise InvalidArgumentError(message=f"record_bytes must be > 0 but it is "
                                               f"{self.record}")

    def iterate(self):
        for path in self.filenames:
            with open_compressed(path, self.compression) as stream:
                data = stream.read()
            body = data[self.header:len(data) - self.footer]
            if len(body) % self.record:
                raise InvalidArgumentError(
                    message=f"Excluding the header ({self.header} bytes) and footer "
                            f"({self.footer} bytes), input file \"{path}\" has body length "
                            f"{len(body)} bytes, which is not an exact multiple of the record "
                            f"length ({self.record} bytes).")
            for start in range(0, len(body), self.record):
                yield (_string_scalar(body[start:start + self.record]),)


def _string_scalar(value: bytes) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _files_infer(op: str, n_ints: int):
    def infer(inputs, attrs):
        names, *ints, compression = inputs
        if not names.dtype.is_string or names.shape.rank not in (None, 0, 1):
            raise InvalidArgumentError(message=f"{op}: `filenames` must be a string scalar or "
                                               "vector")
        if len(ints) != n_ints or any(not t.dtype.is_integer for t in ints) or \
                not compression.dtype.is_string:
            raise InvalidArgumentError(message=f"{op}: expects filenames, {n_ints} int64 "
                                               "sizes and a compression type")
        return _variant()
    return infer


register_op("TFRecordDataset", _files_infer("TFRecordDataset", 1),
            lambda names, buffer_size, compression: _TFRecords(names, compression))
register_op("FixedLengthRecordDataset", _files_infer("FixedLengthRecordDataset", 4),
            lambda names, header, record, footer, buffer_size, compression:
            _FixedLengthRecords(names, header, record, footer, compression))


# -- parsing Examples ------------------------------------------------------------------------

_LIST_OF = {"float32": "float_list", "int64": "int64_list", "string": "bytes_list"}
_TYPE_NAME = {"float_list": "float", "int64_list": "int64", "bytes_list": "string"}


def _features_of(record: bytes) -> dict:
    try:
        return decode(record, "Example").get("features", {}).get("feature", {})
    except DecodeError:
        raise InvalidArgumentError(message=f"Could not parse example input, value: "
                                           f"'{record[:64]!r}'") from None


def _values(feature: dict, key: str, dtype, dense: bool) -> list | None:
    """The values of ``feature`` (None when absent), checked against ``dtype``."""
    if feature is None:
        return None
    kind = next((k for k in ("bytes_list", "float_list", "int64_list") if k in feature), None)
    if kind is None:
        return []
    want = _LIST_OF[dtype.name]
    if kind != want:
        actual, expected = _TYPE_NAME[kind], _TYPE_NAME[want]
        raise InvalidArgumentError(
            message=f"Key: {key}.  Data types don't match. Data type: {actual} but expected "
                    f"type: {expected}" if dense else
            f"Key: {key}.  Data types don't match. Expected type: {expected}, Actual type: "
            f"{actual}")
    return feature[kind].get("value", [])


def _array(values: list, dtype) -> np.ndarray:
    if dtype.is_string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.asarray(values, dtype=dtype.numpy_dtype).reshape(-1)


def _dense(records, key, dtype, shape, default, single):
    """A FixedLenFeature (known shape) or FixedLenSequenceFeature (first dimension None)."""
    sequence = bool(shape) and shape[0] is None
    inner = tuple(shape[1:]) if sequence else tuple(shape)
    size = int(np.prod(inner, dtype=np.int64))
    default = np.asarray(default)
    rows = []
    for index, features in enumerate(records):
        values = _values(features.get(key), key, dtype, dense=True)
        if values is None and not sequence:
            if default.size == 0:
                raise InvalidArgumentError(
                    message=f"Feature: {key} (data type: {_TYPE_NAME[_LIST_OF[dtype.name]]}) "
                            "is required but could not be found.")
            rows.append(np.broadcast_to(default.astype(dtype.numpy_dtype, copy=False),
                                        inner).reshape(-1))
            continue
        values = _array(values or [], dtype)
        if (len(values) != size) if not sequence else (size and len(values) % size):
            raise InvalidArgumentError(
                message=f"Name: <unknown>, Key: {key}, Index: {index}.  Number of "
                        f"{_TYPE_NAME[_LIST_OF[dtype.name]]} values != expected.  Values size: "
                        f"{len(values)} but output shape: {list(inner)}")
        rows.append(values)
    if sequence:
        longest = max((len(r) // size if size else 0 for r in rows), default=0)
        pad = default.reshape(-1)[0] if default.size else (b"" if dtype.is_string else 0)
        full = np.full((len(rows), longest * size), pad,
                       dtype=object if dtype.is_string else dtype.numpy_dtype)
        for i, r in enumerate(rows):
            full[i, :len(r)] = r
        out = full.reshape((len(rows), longest) + inner)
    else:
        out = np.stack(rows).reshape((len(rows),) + inner) if rows else \
            np.zeros((0,) + inner, dtype=object if dtype.is_string else dtype.numpy_dtype)
    return out[0] if single else out


def _sparse(records, key, dtype, single):
    """A VarLenFeature: (indices, values, dense_shape) of a SparseTensor."""
    parts = [_array(_values(f.get(key), key, dtype, dense=False) or [], dtype) for f in records]
    longest = max((len(p) for p in parts), default=0)
    rows = [np.stack([np.full(len(p), i), np.arange(len(p))], 1) for i, p in enumerate(parts)]
    indices = np.concatenate(rows).astype(np.int64) if rows else np.zeros((0, 2), np.int64)
    values = np.concatenate(parts) if parts else _array([], dtype)
    shape = np.array([len(parts), longest], np.int64)
    if single:
        return indices[:, 1:], values, shape[1:]
    return indices, values, shape


def _ragged(records, key, dtype, split_type):
    """A RaggedFeature without partitions: flat values and row splits."""
    parts = [_array(_values(f.get(key), key, dtype, dense=False) or [], dtype) for f in records]
    splits = np.cumsum([0] + [len(p) for p in parts]).astype(split_type.numpy_dtype)
    return (np.concatenate(parts) if parts else _array([], dtype)), splits


def _parse_example(serialized, *dense_defaults, dense_keys, dense_types, dense_shapes,
                   sparse_keys, sparse_types, ragged_keys, ragged_value_types,
                   ragged_split_types):
    arr = np.asarray(serialized, dtype=object)
    single = arr.ndim == 0
    records = [_features_of(bytes(r)) for r in arr.reshape(-1)]
    attrs = {"dense_keys": dense_keys, "dense_types": dense_types,
             "dense_shapes": dense_shapes, "sparse_keys": sparse_keys,
             "sparse_types": sparse_types, "ragged_keys": ragged_keys,
             "ragged_value_types": ragged_value_types, "ragged_split_types": ragged_split_types}
    out = _parse_records(records, dense_defaults, single, attrs)
    return out[0] if len(out) == 1 else tuple(out)


def _parse_example_infer(inputs, attrs):
    serialized, defaults = inputs[0], inputs[1:]
    if not serialized.dtype.is_string or serialized.shape.rank not in (None, 0, 1):
        raise InvalidArgumentError(message="ParseExampleV2: `serialized` must be a string "
                                           f"scalar or vector, got {serialized.dtype.name} of "
                                           f"shape {serialized.shape}")
    if len(defaults) != len(attrs["dense_keys"]):
        raise InvalidArgumentError(message="ParseExampleV2: one default per dense key")
    rank = serialized.shape.rank
    batch = [] if rank == 0 else [None] if rank is None else [serialized.shape[0]]
    for t in (*attrs["dense_types"], *attrs["sparse_types"], *attrs["ragged_value_types"]):
        if t.name not in _LIST_OF:
            raise InvalidArgumentError(message=f"Value for attr 'Tdense' of {t.name} is not in "
                                               "the list of allowed values: float, int64, "
                                               "string")
    r = None if rank is None else rank + 1
    n = len(attrs["sparse_keys"])
    out = [TensorType(dtypes.int64, TensorShape([None, r]))] * n + \
        [TensorType(t, TensorShape([None])) for t in attrs["sparse_types"]] + \
        [TensorType(dtypes.int64, TensorShape([r]))] * n
    out += [TensorType(t, TensorShape(None if rank is None else batch + list(s)))
            for t, s in zip(attrs["dense_types"], attrs["dense_shapes"])]
    out += [TensorType(t, TensorShape([None])) for t in attrs["ragged_value_types"]]
    splits = [None if rank != 1 or batch[0] is None else batch[0] + 1]
    out += [TensorType(t, TensorShape(splits)) for t in attrs["ragged_split_types"]]
    return out


register_op("ParseExampleV2", _parse_example_infer, _parse_example,
            kernel_attrs=("dense_keys", "dense_types", "dense_shapes", "sparse_keys",
                          "sparse_types", "ragged_keys", "ragged_value_types",
                          "ragged_split_types"))


# -- parsing one SequenceExample ----------------------------------------------------------------

def _parse_sequence_example(serialized, *defaults, context, sequence):
    """``context`` and ``sequence`` are ParseExampleV2 attr dicts: the context parses as one
    Example, each feature list as a batch whose records are its frames (missing lists have no
    frames, or are an error when their dense key is in ``required``)."""
    try:
        message = decode(bytes(np.asarray(serialized, dtype=object)[()]), "SequenceExample")
    except DecodeError:
        raise InvalidArgumentError(message="Could not parse example input") from None
    lists = message.get("feature_lists", {}).get("feature_list", {})
    for key in sequence["required"]:
        if key not in lists:
            raise InvalidArgumentError(message=f"Name: <unknown>, Feature list '{key}' is "
                                               "required but could not be found.  Did you mean "
                                               "to include it in feature_list_dense_missing_"
                                               "assumed_empty or feature_list_dense_defaults?")
    n_context = len(context["dense_keys"])
    out = _parse_records([message.get("context", {}).get("feature", {})],
                         defaults[:n_context], True, context)
    frames = {key: [{key: f} for f in lists.get(key, {}).get("feature", [])]
              for key in (*sequence["dense_keys"], *sequence["sparse_keys"],
                          *sequence["ragged_keys"])}
    out += _parse_records(frames, defaults[n_context:], False, sequence)
    return out[0] if len(out) == 1 else tuple(out)


def _parse_records(records, defaults, single, attrs):
    """ParseExampleV2's outputs for decoded feature dicts (``records``: a list, or for
    feature lists a dict key -> that key's frames)."""
    def of(key):
        return records[key] if isinstance(records, dict) else records
    sparse = [_sparse(of(k), k, t, single) for k, t in zip(attrs["sparse_keys"],
                                                           attrs["sparse_types"])]
    dense = [_dense(of(k), k, t, s, d, single) for k, t, s, d in zip(
        attrs["dense_keys"], attrs["dense_types"], attrs["dense_shapes"], defaults)]
    ragged = [_ragged(of(k), k, t, s) for k, t, s in zip(
        attrs["ragged_keys"], attrs["ragged_value_types"], attrs["ragged_split_types"])]
    return [s[0] for s in sparse] + [s[1] for s in sparse] + [s[2] for s in sparse] + dense + \
        [r[0] for r in ragged] + [r[1] for r in ragged]


def _parse_sequence_infer(inputs, attrs):
    serialized = inputs[0]
    if not serialized.dtype.is_string or serialized.shape.rank not in (None, 0):
        raise InvalidArgumentError(message="ParseSingleSequenceExample: `serialized` must be "
                                           "a string scalar")
    n = len(attrs["context"]["dense_keys"])
    context = _parse_example_infer([TensorType(dtypes.string, TensorShape([])),
                                    *inputs[1:1 + n]], attrs["context"])
    seq = {k: v for k, v in attrs["sequence"].items() if k != "required"}
    frames = TensorType(dtypes.string, TensorShape([None]))
    return context + _parse_example_infer([frames, *inputs[1 + n:]], seq)


register_op("ParseSingleSequenceExample", _parse_sequence_infer, _parse_sequence_example,
            kernel_attrs=("context", "sequence"))
