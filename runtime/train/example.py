"""``tf.train.Example`` and its kin: the protobuf messages of ``example.proto``.

Each class is built from its schema in ``graph/ops/records.py`` (which writes and reads the
wire format), with the protobuf API the TFRecord guide uses: keyword constructors,
``SerializeToString``/``FromString``/``ParseFromString``, attribute access that reads an unset
sub-message as an empty one and sets it (and its parents) on the first change, maps whose
``[key]`` adds an entry, ``WhichOneof('kind')`` for ``Feature``, ``==``, and ``str()`` in
protobuf's text format.
"""
from __future__ import annotations

import math

import numpy as np

from graph.ops import records

_ONEOF = {"Feature": ("bytes_list", "float_list", "int64_list")}


# -- repeated fields ------------------------------------------------------------------------

def _check_scalar(kind: str, value, where: str):
    if kind == "int64":
        if isinstance(value, (bool, np.bool_)):
            raise TypeError(f"Field {where}: Expected an int, got a boolean.")
        if not isinstance(value, (int, np.integer)):
            raise TypeError(f"'{type(value).__name__}' object cannot be interpreted as an "
                            f"integer (field {where})")
        if not -(1 << 63) <= int(value) < 1 << 63:
            raise ValueError(f"Value out of range: {value}")
        return int(value)
    if kind == "float":
        if isinstance(value, (str, bytes)) or not isinstance(value, (int, float, np.number)):
            raise TypeError(f"Field {where}: {value!r} has type {type(value).__name__}, but "
                            "expected one of: int, float")
        return float(np.float32(value))
    if isinstance(value, str):
        return value.encode()
    if not isinstance(value, (bytes, np.bytes_)):
        raise TypeError(f"{value!r} has type {type(value).__name__}, but expected one of: "
                        f"bytes, unicode (field {where})")
    return bytes(value)


class _Repeated(list):
    """A repeated scalar field: type-checked on every change, which marks its message set."""

    def __init__(self, owner, kind: str, where: str, values=()):
        super().__init__(_check_scalar(kind, v, where) for v in values)
        self._owner, self._kind, self._where = owner, kind, where

    def append(self, value):
        super().append(_check_scalar(self._kind, value, self._where))
        self._owner._touch()

    def extend(self, values):
        super().extend(_check_scalar(self._kind, v, self._where) for v in values)
        self._owner._touch()

    def insert(self, index, value):
        super().insert(index, _check_scalar(self._kind, value, self._where))
        self._owner._touch()

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            value = [_check_scalar(self._kind, v, self._where) for v in value]
        else:
            value = _check_scalar(self._kind, value, self._where)
        super().__setitem__(index, value)
        self._owner._touch()


class _RepeatedMessages(list):
    """A repeated message field (``FeatureList.feature``); ``add(**fields)`` appends one."""

    def __init__(self, owner, cls, values=()):
        super().__init__()
        self._owner, self._cls = owner, cls
        for v in values:
            self.append(v)

    def add(self, **fields):
        message = self._cls(**fields)
        self.append(message)
        return message

    def append(self, message):
        super().append(_as_message(self._cls, message))
        self._owner._touch()

    def extend(self, messages):
        for m in messages:
            self.append(m)


class _MessageMap(dict):
    """A map of string to message: reading a missing key adds an empty entry, as protobuf."""

    def __init__(self, owner, cls, values=None):
        super().__init__()
        self._owner, self._cls = owner, cls
        for k, v in (values or {}).items():
            self[k] = v

    def __missing__(self, key):
        message = self._cls()
        dict.__setitem__(self, _key(key), message)
        self._owner._touch()
        return message

    def __setitem__(self, key, message):  # (protobuf forbids this on maps of messages)
        dict.__setitem__(self, _key(key), _as_message(self._cls, message))
        self._owner._touch()

    def get_or_create(self, key):
        return self[key]


def _key(key) -> str:
    if isinstance(key, bytes):
        return key.decode()
    if not isinstance(key, str):
        raise TypeError(f"{key!r} has type {type(key).__name__}, but expected one of: bytes, "
                        "unicode")
    return key


def _as_message(cls, value):
    if isinstance(value, cls):
        return value
    if isinstance(value, dict):
        return cls(**value)
    raise TypeError(f"Parameter to MergeFrom() must be instance of same class: expected "
                    f"{cls._FULL_NAME} got {type(value).__name__}.")


# -- messages -------------------------------------------------------------------------------

class _Message:
    """A protobuf message of ``records.SCHEMAS[_SCHEMA]``; fields are class properties."""

    _SCHEMA = ""
    _FULL_NAME = ""

    def __init__(self, **fields):
        self._fields: dict = {}
        self._parent = None  # (message, field name) that holds this one once it is set
        for name, value in fields.items():
            if name not in self._FIELDS:
                raise ValueError(f'Protocol message {type(self).__name__} has no "{name}" '
                                 "field.")
            if value is not None:
                self._set(name, value)

    def _set(self, name: str, value) -> None:
        kind, cls = self._FIELDS[name]
        if kind == "message":
            value = _as_message(cls, value)
            value._parent = (self, name)
        elif kind == "messages":
            value = _RepeatedMessages(self, cls, value)
        elif kind == "map":
            value = _MessageMap(self, cls, value)
        else:
            value = _Repeated(self, kind, f"{self._FULL_NAME}.{name}", value)
        self._fields[name] = value
        self._chosen(name)

    def _get(self, name: str):
        if name in self._fields:
            return self._fields[name]
        kind, cls = self._FIELDS[name]
        if kind == "message":  # an empty message that joins this one when it is changed
            child = cls()
            child._parent = (self, name)
            return child
        self._set(name, ())
        return self._fields[name]

    def _chosen(self, name: str) -> None:
        """Setting a member of a oneof clears the other members."""
        for other in _ONEOF.get(self._SCHEMA, ()):
            if name in _ONEOF[self._SCHEMA] and other != name:
                self._fields.pop(other, None)

    def _touch(self) -> None:
        """A change below: this message (and each parent) now holds its field."""
        if self._parent is not None:
            parent, name = self._parent
            if parent._fields.get(name) is not self:
                parent._fields[name] = self
                parent._chosen(name)
            parent._touch()

    # -- protobuf API ---------------------------------------------------------------
    def HasField(self, name: str) -> bool:
        if self._FIELDS.get(name, ("",))[0] != "message":
            raise ValueError(f'Protocol message {type(self).__name__} has no singular "{name}" '
                             "field.")
        return name in self._fields

    def WhichOneof(self, group: str):
        if group != "kind" or self._SCHEMA not in _ONEOF:
            raise ValueError(f'Protocol message has no oneof "{group}" field.')
        return next((n for n in _ONEOF[self._SCHEMA] if n in self._fields), None)

    def ClearField(self, name: str) -> None:
        self._fields.pop(name, None)

    def Clear(self) -> None:
        self._fields.clear()

    def CopyFrom(self, other) -> None:
        self.Clear()
        self.MergeFrom(other)

    def MergeFrom(self, other) -> None:
        self.MergeFromString(_as_message(type(self), other).SerializeToString())

    def MergeFromString(self, data: bytes) -> int:
        try:
            decoded = records.decode(bytes(data), self._SCHEMA)
        except records.DecodeError as e:
            raise DecodeError(f"Error parsing message with type '{self._FULL_NAME}'") from e
        merged = records.decode(records.encode(self._as_dict(), self._SCHEMA) + bytes(data),
                                self._SCHEMA) if self._fields else decoded
        self._fields.clear()
        for name, value in _from_dict(merged, self._FIELDS).items():
            self._set(name, value)
        self._touch()
        return len(data)

    def ParseFromString(self, data: bytes) -> int:
        self.Clear()
        return self.MergeFromString(data)

    @classmethod
    def FromString(cls, data: bytes):
        message = cls()
        message.MergeFromString(data)
        return message

    def SerializeToString(self, deterministic: bool = False) -> bytes:
        return records.encode(self._as_dict(), self._SCHEMA, deterministic)

    SerializePartialToString = SerializeToString

    def ByteSize(self) -> int:
        return len(self.SerializeToString())

    def ListFields(self) -> list:
        order = [n for _, (n, _, _) in sorted(records.SCHEMAS[self._SCHEMA].items())]
        return [(name, self._fields[name]) for name in order
                if name in self._fields and (self._FIELDS[name][0] == "message"
                                             or len(self._fields[name]))]

    def _as_dict(self) -> dict:
        out = {}
        for name, value in self._fields.items():
            kind = self._FIELDS[name][0]
            if kind == "message":
                out[name] = value._as_dict()
            elif kind == "messages":
                out[name] = [m._as_dict() for m in value]
            elif kind == "map":
                out[name] = {k: m._as_dict() for k, m in value.items()}
            else:
                out[name] = list(value)
        return out

    def __eq__(self, other) -> bool:
        if not isinstance(other, _Message):
            return NotImplemented
        return type(self) is type(other) and \
            _normalized(self._as_dict(), self._FIELDS) == _normalized(other._as_dict(),
                                                                      other._FIELDS)

    __hash__ = None

    def __str__(self) -> str:
        return "".join(_text(self, ""))

    __repr__ = __str__

    def __reduce__(self):
        return type(self).FromString, (self.SerializeToString(),)


class DecodeError(Exception):
    """``google.protobuf.message.DecodeError``: bytes that are not a message of this type."""


def _normalized(d: dict, fields: dict) -> dict:
    """A message dict without empty repeated fields (they are the same as absent ones)."""
    out = {}
    for name, value in d.items():
        kind, cls = fields[name]
        if kind == "message":
            out[name] = _normalized(value, cls._FIELDS)
        elif kind == "map":
            out[name] = {k: _normalized(v, cls._FIELDS) for k, v in value.items()}
        elif kind == "messages":
            if value:
                out[name] = [_normalized(v, cls._FIELDS) for v in value]
        elif value:
            out[name] = [v if v == v else "nan" for v in value]
    return out


def _from_dict(d: dict, fields: dict) -> dict:
    """Constructor keywords for a decoded message dict."""
    out = {}
    for name, value in d.items():
        kind, cls = fields[name]
        if kind == "message":
            out[name] = cls(**_from_dict(value, cls._FIELDS))
        elif kind == "messages":
            out[name] = [cls(**_from_dict(v, cls._FIELDS)) for v in value]
        elif kind == "map":
            out[name] = {k: cls(**_from_dict(v, cls._FIELDS)) for k, v in value.items()}
        else:
            out[name] = value
    return out


# -- text format ----------------------------------------------------------------------------

def _escape(data: bytes) -> str:
    """protobuf's C escaping of a bytes field: octal for what is not printable ASCII."""
    special = {0x0A: "\\n", 0x0D: "\\r", 0x09: "\\t", 0x22: '\\"', 0x27: "\\'", 0x5C: "\\\\"}
    return "".join(special.get(b) or (chr(b) if 0x20 <= b < 0x7F else f"\\{b:03o}")
                   for b in data)


def _float_text(value: float) -> str:
    """The shortest ``%g`` that reads back as the same float32 (protobuf's text format)."""
    if math.isnan(value):
        return "nan"
    if math.isinf(value):
        return "inf" if value > 0 else "-inf"
    for precision in range(6, 10):
        text = "%.*g" % (precision, value)
        if np.float32(float(text)) == np.float32(value):
            return text
    return "%.9g" % value


def _scalar_text(kind: str, value) -> str:
    if kind == "float":
        return _float_text(value)
    if kind == "int64":
        return str(value)
    return f'"{_escape(value)}"'


def _text(message: _Message, indent: str):
    for _, (name, _, _) in sorted(records.SCHEMAS[message._SCHEMA].items()):
        if name not in message._fields:
            continue
        kind, value = message._FIELDS[name][0], message._fields[name]
        if kind == "message":
            yield from _block(name, value, indent)
        elif kind == "messages":
            for m in value:
                yield from _block(name, m, indent)
        elif kind == "map":
            for key, m in value.items():
                yield f"{indent}{name} {{\n{indent}  key: \"{_escape(key.encode())}\"\n"
                yield from _block("value", m, indent + "  ")
                yield f"{indent}}}\n"
        else:
            for v in value:
                yield f"{indent}{name}: {_scalar_text(kind, v)}\n"


def _block(name: str, message: _Message, indent: str):
    yield f"{indent}{name} {{\n"
    yield from _text(message, indent + "  ")
    yield f"{indent}}}\n"


# -- the classes ------------------------------------------------------------------------------

def _message_class(name: str) -> type:
    cls = type(name, (_Message,), {"_SCHEMA": name, "_FULL_NAME": f"tensorflow.{name}",
                                   "__module__": __name__,
                                   "__doc__": f"``tf.train.{name}`` (a protobuf message)."})
    for _, (field, _, _) in records.SCHEMAS[name].items():
        setattr(cls, field, property(
            lambda self, f=field: self._get(f),
            lambda self, value, f=field: _refuse_assignment(self, f)))
    return cls


def _refuse_assignment(message: _Message, field: str):
    kind = message._FIELDS[field][0]
    what = "field" if kind == "message" else "repeated field"
    raise AttributeError(f'Assignment not allowed to {what} "{field}" in protocol message '
                         "object.")


BytesList = _message_class("BytesList")
FloatList = _message_class("FloatList")
Int64List = _message_class("Int64List")
Feature = _message_class("Feature")
Features = _message_class("Features")
FeatureList = _message_class("FeatureList")
FeatureLists = _message_class("FeatureLists")
Example = _message_class("Example")
SequenceExample = _message_class("SequenceExample")

_CLASSES = {c._SCHEMA: c for c in (BytesList, FloatList, Int64List, Feature, Features,
                                   FeatureList, FeatureLists, Example, SequenceExample)}
for _cls in _CLASSES.values():
    _cls._FIELDS = {name: (kind, _CLASSES.get(sub))
                    for _, (name, kind, sub) in records.SCHEMAS[_cls._SCHEMA].items()}
