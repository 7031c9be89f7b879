"""``tf.summary``'s event files and the stateful ops that write them.

An ``EventFileWriter`` (kept in ``graph/resources.py``, named by nodes through their ``writer``
attr, as lookup tables are) owns one TensorBoard event file, named as TensorFlow's
``SummaryFileWriter`` names it: ``events.out.tfevents.<10-digit seconds>.<host>.<pid>.<n><suffix>``
(``n`` counts the writers of this process). Its first record is ``Event{wall_time (whole
seconds), file_version: "brain.Event:2", source_metadata}``, written and flushed when the
writer is made; summaries are queued and written when the queue holds more than
``max_queue`` or ``flush_millis`` have passed, on flush and on close.

Records are TFRecord frames of ``Event`` protos, byte for byte TensorFlow's but the wall
time: the wire format is ``graph/ops/records.py``'s codec. Its schemas have no singular
numeric fields, so the few that events use (``wall_time``, ``step``, a tensor's ``dtype``, a
dimension's ``size``: each its message's first fields) are written before the rest, and the
messages holding them are nested as already-encoded bytes (same wire format).

``WriteSummary`` stores a tensor as TensorFlow's kernel does: strings as ``string_val``,
everything else as little-endian ``tensor_content``; non-empty metadata bytes are stored as
given (serialized ``SummaryMetadata``); ``WriteRawProtoSummary`` writes serialized ``Summary``
protos as they are. ``EncodeWav`` (``audio.py``) is TensorFlow's 16-bit PCM encoder
(``tf.audio.encode_wav``), which audio summaries use.
"""
from __future__ import annotations

import itertools
import os
import socket
import struct
import threading
import time

import numpy as np

from graph import dtypes, resources
from graph.errors import InvalidArgumentError, NotFoundError
from graph.ir import TensorType
from graph.ops import records
from graph.ops.records import _delimited, _varint, decode, encode, frame
from graph.registry import register_op
from graph.shapes import TensorShape

# -- Event protos ------------------------------------------------------------------------------

records.SCHEMAS.update({
    # wall_time (1, double) is written by hand and skipped when decoding
    "tensorboard.Event": {2: ("step", "int64", None), 3: ("file_version", "bytes", None),
                          5: ("summary", "message", "tensorboard.Summary"),
                          10: ("source_metadata", "message", "tensorboard.SourceMetadata")},
    "tensorboard.SourceMetadata": {1: ("writer", "bytes", None)},
    "tensorboard.Summary": {1: ("value", "messages", "tensorboard.SummaryValue")},
    "tensorboard.SummaryValue": {1: ("tag", "bytes", None),
                                 8: ("tensor", "bytes", None),  # an encoded TensorProto
                                 9: ("metadata", "message", "tensorboard.SummaryMetadata")},
    "tensorboard.SummaryMetadata": {1: ("plugin_data", "message", "tensorboard.PluginData"),
                                    2: ("display_name", "bytes", None),
                                    3: ("summary_description", "bytes", None)},
    "tensorboard.PluginData": {1: ("plugin_name", "bytes", None), 2: ("content", "bytes", None)},
    "tensorboard.TensorProto": {1: ("dtype", "int64", None),
                                2: ("tensor_shape", "message", "tensorboard.TensorShape"),
                                4: ("tensor_content", "bytes", None),
                                8: ("string_val", "bytes", None)},
    "tensorboard.TensorShape": {2: ("dim", "bytes", None)},  # encoded Dims
    "tensorboard.Dim": {1: ("size", "int64", None)},
})

# TensorFlow's DataType enum (types.proto)
DATA_TYPES = {dtypes.float32: 1, dtypes.float64: 2, dtypes.int32: 3, dtypes.uint8: 4,
              dtypes.int16: 5, dtypes.int8: 6, dtypes.string: 7, dtypes.complex64: 8,
              dtypes.int64: 9, dtypes.bool_: 10, dtypes.uint16: 17, dtypes.complex128: 18,
              dtypes.float16: 19, dtypes.uint32: 22, dtypes.uint64: 23}


def _int_field(number: int, value: int) -> bytes:
    """A singular varint field; proto3 omits zero."""
    return _varint(number << 3) + _varint(value) if value else b""


def tensor_proto(value: np.ndarray) -> bytes:
    """The encoded ``TensorProto`` TensorFlow's summary kernel writes for ``value``."""
    value = np.asarray(value)
    dtype = dtypes.string if value.dtype == object else dtypes.as_dtype(value.dtype)
    dims = [_int_field(1, int(d)) for d in value.shape]
    fields = {"tensor_shape": {"dim": dims}}
    if dtype is dtypes.string:
        fields["string_val"] = [v if isinstance(v, bytes) else str(v).encode()
                                for v in value.reshape(-1)]
    elif value.size:
        fields["tensor_content"] = [np.ascontiguousarray(
            value, value.dtype.newbyteorder("<")).tobytes()]
    return _int_field(1, DATA_TYPES[dtype]) + encode(fields, "tensorboard.TensorProto")


def event(wall_time: float, step: int = 0, **fields) -> bytes:
    """An encoded ``Event``: ``fields`` are its other fields (``summary``, ``file_version``...)."""
    return (_varint(1 << 3 | 1) + struct.pack("<d", wall_time) + _int_field(2, step)
            + encode(fields, "tensorboard.Event"))


def summary_event(wall_time: float, step: int, tag: bytes, value: np.ndarray,
                  metadata: bytes) -> bytes:
    entry = {"tag": [tag], "tensor": [tensor_proto(value)]}
    body = encode(entry, "tensorboard.SummaryValue")
    if metadata:
        body += _delimited(9, metadata)
    return event(wall_time, step) + _delimited(5, _delimited(1, body))


def parse_event(record: bytes) -> dict:
    """An event record as nested dicts (``records.decode``'s form: scalars of the numeric
    fields, tensors and dims decoded), with ``wall_time``; for tests and readers."""
    out = decode(record, "tensorboard.Event")
    out["wall_time"] = struct.unpack_from("<d", record, 1)[0] if record[:1] == b"\x09" else 0.0
    out["step"] = out.get("step", [0])[-1]
    for value in out.get("summary", {}).get("value", []):
        if "tensor" in value:
            tensor = value["tensor"] = decode(value["tensor"][0], "tensorboard.TensorProto")
            tensor["dtype"] = tensor.get("dtype", [0])[-1]
            shape = tensor.setdefault("tensor_shape", {})
            shape["dim"] = [decode(d, "tensorboard.Dim").get("size", [0])[-1]
                            for d in shape.get("dim", [])]
    return out


# -- the writer resource ----------------------------------------------------------------------

_file_ids = itertools.count()


class EventFileWriter:
    """One event file and the queue of encoded events not yet written to it (thread-safe,
    as TensorFlow's writer is: several threads may run summary ops)."""

    def __init__(self, logdir: str, max_queue: int, flush_millis: int, filename_suffix: str):
        os.makedirs(logdir, exist_ok=True)
        seconds = int(time.time())
        sep = "" if filename_suffix.startswith(".") else "."
        name = (f"events.out.tfevents.{seconds:010d}.{socket.gethostname()}.{os.getpid()}."
                f"{next(_file_ids)}{sep}{filename_suffix}")
        self.path = os.path.join(logdir, name)
        self.max_queue, self.flush_millis = max_queue, flush_millis
        self.queue: list[bytes] = []
        self.lock = threading.Lock()
        self.file = open(self.path, "wb")
        self.file.write(frame(event(float(seconds), file_version=[b"brain.Event:2"],
                                    source_metadata={"writer": [
                                        b"tensorflow.core.util.events_writer"]})))
        self.file.flush()
        self.last_flush = time.monotonic()

    def write(self, record: bytes) -> None:
        with self.lock:
            self.queue.append(record)
            if len(self.queue) > self.max_queue or \
                    (time.monotonic() - self.last_flush) * 1000 > self.flush_millis:
                self._flush()

    def flush(self) -> None:
        with self.lock:
            self._flush()

    def close(self) -> None:
        with self.lock:
            self._flush()
            self.file.close()

    def _flush(self) -> None:
        if self.file.closed:
            return
        self.file.write(b"".join(frame(r) for r in self.queue))
        self.queue.clear()
        self.file.flush()
        self.last_flush = time.monotonic()


def close_writer(rid: int) -> None:
    """Flushes, closes and forgets the writer ``rid`` (if it still exists)."""
    if resources.exists(rid):
        writer = resources.read(rid)
        resources.delete(rid)
        writer.close()


def _writer(rid) -> EventFileWriter:
    if not resources.exists(rid):
        raise NotFoundError(message=f"Resource {rid} (a summary writer) does not exist: it "
                                    "was closed, or its SummaryWriter was garbage collected")
    return resources.read(rid)


# -- ops ---------------------------------------------------------------------------------------

def _scalar_of(op: str, what: str, t, dtype) -> None:
    if t.dtype is not dtype or t.shape.rank not in (None, 0):
        raise InvalidArgumentError(message=f"{op}: {what} must be a {dtype.name} scalar, got "
                                           f"{t.dtype.name} of shape {t.shape}")


def _write_summary_infer(inputs, attrs):
    step, _, tag, metadata = inputs
    _scalar_of("WriteSummary", "step", step, dtypes.int64)
    _scalar_of("WriteSummary", "tag", tag, dtypes.string)
    _scalar_of("WriteSummary", "summary_metadata", metadata, dtypes.string)
    return []


def _write_summary(step, tensor, tag, metadata, writer):
    target = _writer(writer)
    target.write(summary_event(time.time(), int(step), bytes(np.asarray(tag, object)[()]),
                               np.asarray(tensor), bytes(np.asarray(metadata, object)[()])))
    return ()


def _write_raw_infer(inputs, attrs):
    step, summaries = inputs
    _scalar_of("WriteRawProtoSummary", "step", step, dtypes.int64)
    if not summaries.dtype.is_string:
        raise InvalidArgumentError(message=f"WriteRawProtoSummary: the summaries must be "
                                           f"strings, got {summaries.dtype.name}")
    return []


def _write_raw(step, summaries, writer):
    """One event holding the serialized ``Summary`` protos merged (their bytes joined)."""
    merged = b"".join(bytes(s) for s in np.asarray(summaries, object).reshape(-1))
    _writer(writer).write(event(time.time(), int(step)) + _delimited(5, merged))
    return ()


def _no_inputs(op: str):
    def infer(inputs, attrs):
        if inputs:
            raise InvalidArgumentError(message=f"{op} takes no inputs, got {len(inputs)}")
        return []
    return infer


def _flush(writer):
    if resources.exists(writer):
        resources.read(writer).flush()
    return ()


def _close(writer):
    close_writer(writer)
    return ()


register_op("WriteSummary", _write_summary_infer, _write_summary, kernel_attrs=("writer",),
            stateful=True)
register_op("WriteRawProtoSummary", _write_raw_infer, _write_raw, kernel_attrs=("writer",),
            stateful=True)
register_op("FlushSummaryWriter", _no_inputs("FlushSummaryWriter"), _flush,
            kernel_attrs=("writer",), stateful=True)
register_op("CloseSummaryWriter", _no_inputs("CloseSummaryWriter"), _close,
            kernel_attrs=("writer",), stateful=True)

