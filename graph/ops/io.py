"""File and serialization ops (tf.io): read/write files, match file patterns, decode_raw,
decode_csv, (de)serialize tensors.

``SerializeTensor`` writes this project's own format (not TensorFlow's TensorProto):
``b"AGT1"``, the dtype name and a NUL byte, the rank as a little-endian uint32,
each dimension as a little-endian int64, then the elements: numbers as their
little-endian bytes in C order, strings each as a uint64 length and its bytes.
"""
from __future__ import annotations

import csv
import glob
import struct

import numpy as np

from graph.dtypes import as_dtype, string
from graph.errors import InvalidArgumentError, NotFoundError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape

_MAGIC = b"AGT1"


def _scalar(value) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _string_scalar_infer(op: str, n: int, outputs):
    def infer(inputs, attrs):
        expect_arity(op, inputs, n)
        for t in inputs[:n]:
            if not t.dtype.is_string or t.shape.rank not in (None, 0):
                raise InvalidArgumentError(message=f"{op}: expects scalar string inputs, got "
                                                   f"{t.dtype.name} of shape {t.shape}")
        return outputs
    return infer


def _read_file(filename):
    path = np.asarray(filename, dtype=object)[()].decode()
    try:
        with open(path, "rb") as f:
            return _scalar(f.read())
    except FileNotFoundError:
        raise NotFoundError(message=f"{path}; No such file or directory") from None


def _write_file(filename, contents):
    path = np.asarray(filename, dtype=object)[()].decode()
    with open(path, "wb") as f:
        f.write(np.asarray(contents, dtype=object)[()])


def _matching_files_infer(inputs, attrs):
    expect_arity("MatchingFiles", inputs, 1)
    if not inputs[0].dtype.is_string or inputs[0].shape.rank not in (None, 0, 1):
        raise InvalidArgumentError(message=f"MatchingFiles: expects a string scalar or vector "
                                           f"of patterns, got {inputs[0].dtype.name} of shape "
                                           f"{inputs[0].shape}")
    return [TensorType(string, TensorShape([None]))]


def _matching_files(pattern):
    """The files matching any of the glob patterns, sorted (TensorFlow's MatchingFiles)."""
    found = sorted({f for p in np.asarray(pattern, dtype=object).reshape(-1)
                    for f in glob.glob(p.decode())})
    out = np.empty(len(found), dtype=object)
    out[:] = [f.encode() for f in found]
    return out


register_op("MatchingFiles", _matching_files_infer, _matching_files, stateful=True)
register_op("ReadFile", _string_scalar_infer("ReadFile", 1, [TensorType(string, TensorShape([]))]),
            _read_file, stateful=True)
register_op("WriteFile", _string_scalar_infer("WriteFile", 2, []), _write_file, stateful=True)


def _decode_raw_infer(inputs, attrs):
    expect_arity("DecodeRaw", inputs, 1)
    if not inputs[0].dtype.is_string:
        raise InvalidArgumentError(message=f"DecodeRaw takes strings, got {inputs[0].dtype.name}")
    shape = inputs[0].shape
    dims = None if shape.rank is None else list(shape.as_tuple()) + [None]
    return [TensorType(as_dtype(attrs["out_type"]), TensorShape(dims))]


def _decode_raw(x, out_type, little_endian=True):
    dtype = np.dtype(as_dtype(out_type).numpy_dtype).newbyteorder("<" if little_endian else ">")
    arr = np.asarray(x, dtype=object)
    flat = arr.reshape(-1)
    sizes = {len(b) for b in flat}
    if len(sizes) > 1:
        raise InvalidArgumentError(message="DecodeRaw requires input strings to all be the same "
                                           f"size, but element 0 has size {len(flat[0])}")
    size = sizes.pop() if sizes else 0
    if size % dtype.itemsize:
        raise InvalidArgumentError(message=f"Input to DecodeRaw has length {size} that is not a "
                                           f"multiple of {dtype.itemsize}, the size of "
                                           f"{as_dtype(out_type).name}")
    rows = [np.frombuffer(b, dtype=dtype) for b in flat]
    out = np.stack(rows) if rows else np.zeros((0, 0), dtype)
    return out.astype(dtype.newbyteorder("=")).reshape(arr.shape + (size // dtype.itemsize,))


register_op("DecodeRaw", _decode_raw_infer, _decode_raw, kernel_attrs=("out_type", "little_endian"))


def _serialize(x):
    arr = np.asarray(x)
    dtype = as_dtype("string" if arr.dtype == object else arr.dtype.name)
    head = _MAGIC + dtype.name.encode() + b"\0" + struct.pack("<I", arr.ndim) + \
        struct.pack(f"<{arr.ndim}q", *arr.shape)
    if dtype.is_string:
        body = b"".join(struct.pack("<Q", len(b)) + b for b in arr.reshape(-1))
    else:
        body = np.ascontiguousarray(arr).astype(arr.dtype.newbyteorder("<")).tobytes()
    return _scalar(head + body)


def _parse(serialized, out_type):
    data = np.asarray(serialized, dtype=object)[()]
    bad = InvalidArgumentError(message="Could not parse `serialized` as a tensor serialized "
                                       "by tf.io.serialize_tensor")
    if not data.startswith(_MAGIC) or b"\0" not in data:
        raise bad
    name, rest = data[len(_MAGIC):].split(b"\0", 1)
    if name.decode() != as_dtype(out_type).name:
        raise InvalidArgumentError(message=f"Type mismatch between parsed tensor "
                                           f"({name.decode()}) and dtype "
                                           f"({as_dtype(out_type).name})")
    (ndim,) = struct.unpack_from("<I", rest)
    shape = struct.unpack_from(f"<{ndim}q", rest, 4)
    offset = 4 + 8 * ndim
    count = int(np.prod(shape, dtype=np.int64))
    if as_dtype(out_type).is_string:
        items = []
        for _ in range(count):
            (n,) = struct.unpack_from("<Q", rest, offset)
            items.append(rest[offset + 8:offset + 8 + n])
            offset += 8 + n
        out = np.empty(count, dtype=object)
        out[:] = items
        return out.reshape(shape)
    dtype = np.dtype(as_dtype(out_type).numpy_dtype).newbyteorder("<")
    return np.frombuffer(rest, dtype=dtype, count=count, offset=offset) \
        .astype(dtype.newbyteorder("=")).reshape(shape)


register_op("SerializeTensor", lambda i, a: [TensorType(string, TensorShape([]))], _serialize)
def _parse_infer(inputs, attrs):
    _string_scalar_infer("ParseTensor", 1, [])(inputs, attrs)
    return [TensorType(as_dtype(attrs["out_type"]), TensorShape(None))]


register_op("ParseTensor", _parse_infer, _parse, kernel_attrs=("out_type",))


def _decode_csv_infer(inputs, attrs):
    records, defaults = inputs[0], inputs[1:]
    if not records.dtype.is_string:
        raise InvalidArgumentError(message=f"DecodeCSV: records must be strings, got "
                                           f"{records.dtype.name}")
    for i, d in enumerate(defaults):
        if d.shape.rank not in (None, 0, 1) or d.dtype.name not in (
                "float32", "float64", "int32", "int64", "string"):
            raise InvalidArgumentError(message=f"DecodeCSV: record_defaults[{i}] must be a "
                                               "scalar or empty vector of float, int or string")
    return [TensorType(d.dtype, records.shape) for d in defaults]


def _decode_csv(records, *defaults, field_delim=",", use_quote_delim=True, na_value=""):
    arr = np.asarray(records, dtype=object)
    outs = [np.empty(arr.shape, dtype=object if np.asarray(d).dtype == object
                     else np.asarray(d).dtype) for d in defaults]
    for idx in np.ndindex(arr.shape):
        line = arr[idx].decode()
        reader = csv.reader([line], delimiter=field_delim,
                            quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE)
        fields = next(reader, [""])
        if len(fields) != len(defaults):
            raise InvalidArgumentError(message=f"Expect {len(defaults)} fields but have "
                                               f"{len(fields)} in record {idx[0] if idx else 0}")
        for j, (field, default, out) in enumerate(zip(fields, defaults, outs)):
            default = np.asarray(default)
            if field == "" or field == na_value:
                if default.size == 0:
                    raise InvalidArgumentError(message=f"Field {j} is required but missing in "
                                                       f"record {idx[0] if idx else 0}!")
                out[idx] = default.reshape(-1)[0]
            elif out.dtype == object:
                out[idx] = field.encode()
            else:
                try:
                    out[idx] = int(field) if out.dtype.kind == "i" else float(field)
                except ValueError:
                    raise InvalidArgumentError(
                        message=f"Field {j} in record {idx[0] if idx else 0} is not a valid "
                                f"{out.dtype.name}: {field}") from None
    return tuple(outs)


register_op("DecodeCSV", _decode_csv_infer, _decode_csv,
            kernel_attrs=("field_delim", "use_quote_delim", "na_value"))
