"""``tf.io``: files, raw bytes, CSV and serialized tensors (``graph/ops/io.py`` documents the
serialization format), and ``tf.io.gfile`` for local files."""
from __future__ import annotations

import glob as _glob
import os as _os
import shutil as _shutil
from types import SimpleNamespace as _Namespace

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops.core import apply_op, convert_to_tensor


def _string(value):
    return convert_to_tensor(value, dtype_hint=dtypes.string)


def read_file(filename, name=None):
    """The bytes of a file as a scalar string tensor (NotFoundError when it is missing)."""
    return apply_op("ReadFile", [_string(filename)], name=name or "ReadFile")


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
from runtime.image.png import decode_png, encode_png  # noqa: F401,E402  (also tf.io names)
