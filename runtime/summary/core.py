"""Summary writers, the per-thread summary state and ``tf.summary.write``.

As in TensorFlow, the default writer, default step and recording condition are per-thread
Python state read when a summary op is *built*: eagerly that is when it runs; in a
``tf.function`` it is at trace time, and the step (a Python int, tensor or ``tf.Variable``)
becomes an input of the stateful ``WriteSummary`` node, so a Variable step is read each call.
A writer is a resource (``graph/ops/summary.py``) made eagerly even inside a function
(``init_scope``), flushed and closed when the writer object is garbage collected.
"""
from __future__ import annotations

import abc
import contextlib
import re
import threading
import weakref

from graph import dtypes, resources
from graph.ops import summary as summary_ops
from runtime import context
from runtime.name_scope import current_eager_scope, name_scope, name_scope_v1
from runtime.ops import array_ops
from runtime.ops.control_flow import cond
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

_NO_STEP = ("No step set. Please specify one either through the `step` argument or through "
            "tf.summary.experimental.set_step()")


class _SummaryState(threading.local):
    def __init__(self):
        self.is_recording = None
        self.writer = None
        self.step = None


_state = _SummaryState()


class _SummaryContextManager:
    """``SummaryWriter.as_default()``: a class, so that ``set_as_default`` is its
    ``__enter__`` alone (a generator's ``finally`` would run when it is collected)."""

    def __init__(self, writer, step=None):
        self._writer, self._step = writer, step
        self._old_writer = self._old_step = None

    def __enter__(self):
        self._old_writer = _state.writer
        _state.writer = self._writer
        if self._step is not None:
            self._old_step = _state.step
            _state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        _state.writer.flush()
        _state.writer = self._old_writer
        if self._step is not None:
            _state.step = self._old_step
        return False


class SummaryWriter(metaclass=abc.ABCMeta):
    """``tf.summary.SummaryWriter``: the interface of a stateful summary writer."""

    def set_as_default(self, step=None):
        """Makes this the default writer of this thread (and ``step`` the default step)."""
        self.as_default(step).__enter__()

    def as_default(self, step=None):
        """A context manager making this the default writer (and ``step`` the default step,
        restored on exit); the writer is flushed on exit."""
        return _SummaryContextManager(self, step)

    def init(self):
        """Initializes the summary writer."""
        raise NotImplementedError()

    def flush(self):
        """Flushes any buffered data."""
        raise NotImplementedError()

    def close(self):
        """Flushes and closes the summary writer."""
        raise NotImplementedError()


class _ResourceSummaryWriter(SummaryWriter):
    """A writer of one event file (``graph/ops/summary.py``'s ``EventFileWriter``)."""

    def __init__(self, logdir: str, max_queue: int, flush_millis: int, filename_suffix: str):
        self._resource = resources.new_resource(
            summary_ops.EventFileWriter(logdir, max_queue, flush_millis, filename_suffix))
        self._closed = False
        weakref.finalize(self, summary_ops.close_writer, self._resource)

    def _check_open(self):
        if context.executing_eagerly() and self._closed:
            raise RuntimeError(f"SummaryWriter {self!r} is already closed")

    def set_as_default(self, step=None):
        self._check_open()
        super().set_as_default(step)

    def as_default(self, step=None):
        self._check_open()
        return super().as_default(step)

    def init(self):
        """The writer is made when created: nothing is left to run (TensorFlow's eager
        init op, None)."""
        self._check_open()

    def flush(self):
        if context.executing_eagerly() and self._closed:
            return None
        return apply_op("FlushSummaryWriter", [], {"writer": self._resource},
                        name="FlushSummaryWriter")

    def close(self):
        if context.executing_eagerly() and self._closed:
            return None
        try:
            self.flush()
            return apply_op("CloseSummaryWriter", [], {"writer": self._resource},
                            name="CloseSummaryWriter")
        finally:
            if context.executing_eagerly():
                self._closed = True


class _NoopSummaryWriter(SummaryWriter):
    """``create_noop_writer()``: as_default sets nothing, so summaries record nothing."""

    def set_as_default(self, step=None):
        pass

    @contextlib.contextmanager
    def as_default(self, step=None):
        yield

    def init(self):
        pass

    def flush(self):
        pass

    def close(self):
        pass


def _eager_value(arg, what: str, dtype, inside_function: bool):
    """A create_file_writer argument as a Python value (graph tensors are refused, as
    TensorFlow refuses them: the writer is made outside any function)."""
    if isinstance(arg, SymbolicTensor):
        where = ("create_file_writer() inside an @tf.function. The create call will be lifted "
                 "into the outer eager execution context, so it cannot consume graph tensors "
                 "defined inside the function body.") if inside_function else \
            "eagerly executed create_file_writer()."
        raise ValueError(f"Invalid graph Tensor argument '{what}={arg}' to {where}")
    value = convert_to_tensor(arg, dtype=dtype).numpy()
    return value.decode() if isinstance(value, bytes) else int(value)


def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """``tf.summary.create_file_writer``: a writer of a new event file in ``logdir`` (made
    with its parents). ``max_queue`` (10): summaries queued before a write; ``flush_millis``
    (120000): the longest time between writes; ``filename_suffix`` (".v2"). The writer holds
    no variables, so ``experimental_trackable`` changes nothing a checkpoint sees."""
    del name, experimental_trackable  # op names; tracking: see above
    if logdir is None:
        raise ValueError("Argument `logdir` cannot be None")
    if experimental_mesh is not None:
        raise NotImplementedError("create_file_writer: DTensor meshes (experimental_mesh) are "
                                  "not supported")
    inside = not context.executing_eagerly()
    with context.init_scope():
        args = [_eager_value(v, what, dtype, inside) for v, what, dtype in (
            (logdir, "logdir", dtypes.string),
            (10 if max_queue is None else max_queue, "max_queue", dtypes.int32),
            (120000 if flush_millis is None else flush_millis, "flush_millis", dtypes.int32),
            (".v2" if filename_suffix is None else filename_suffix, "filename_suffix",
             dtypes.string))]
        return _ResourceSummaryWriter(*args)


def create_noop_writer():
    """``tf.summary.create_noop_writer``: a writer that does nothing."""
    return _NoopSummaryWriter()


def flush(writer=None, name=None):
    """``tf.summary.flush``: flushes ``writer`` (default: the default writer, if any)."""
    del name
    if writer is None:
        writer = _state.writer
        if writer is None:
            return None
    if isinstance(writer, SummaryWriter):
        return writer.flush()
    raise ValueError(f"Invalid argument to flush(): {writer!r}")


# -- recording condition and step ------------------------------------------------------------

@contextlib.contextmanager
def record_if(condition):
    """``tf.summary.record_if``: records summaries only when ``condition`` (a bool, a bool
    tensor, or a callable giving one, called when a summary is built) holds."""
    old = _state.is_recording
    try:
        _state.is_recording = condition
        yield
    finally:
        _state.is_recording = old


def _static_bool(value):
    """``value``'s truth when known now (a Python value, an eager tensor or a constant)."""
    if isinstance(value, Tensor):
        known = value.value if isinstance(value, SymbolicTensor) else value.numpy()
        return None if known is None else bool(known)
    return bool(value)


def should_record_summaries():
    """``tf.summary.should_record_summaries``: a bool tensor, False without a default writer,
    else the ``record_if`` condition (True when none is set)."""
    if _state.writer is None:
        return constant(False)
    condition = _state.is_recording
    if callable(condition):
        condition = condition()
    return convert_to_tensor(True if condition is None else condition, dtype=dtypes.bool_)


def get_step():
    """``tf.summary.experimental.get_step``: the default step of this thread, or None."""
    return _state.step


def set_step(step):
    """``tf.summary.experimental.set_step``: the default step (an int64-castable value or
    Variable, read when a summary runs; None unsets it)."""
    _state.step = step


def _choose_step(step):
    step = convert_to_tensor(step, dtype=dtypes.int64)
    if step.shape.num_elements() != 1:
        raise ValueError(f"Argument `step` must be a scalar. Received step with shape "
                         f"{step.shape}.")
    return step


# -- writing ---------------------------------------------------------------------------------

_INVALID_SCOPE_CHARACTERS = re.compile(r"[^-_/.A-Za-z0-9]")


def _name_scope_string() -> str:
    graph = context.current_graph()
    return current_eager_scope().rstrip("/") if graph is None else graph.name_stack


@contextlib.contextmanager
def summary_scope(name, default_name="summary", values=None):
    """``tf.summary.experimental.summary_scope``: yields ``(tag, scope)``; the tag is ``name``
    under the enclosing name scopes, kept as given (not made unique, any characters)."""
    del values
    name = name or default_name
    current = _name_scope_string()
    tag = current + "/" + name if current else name
    name = _INVALID_SCOPE_CHARACTERS.sub("", name) or default_name
    with name_scope(name) as scope:
        yield tag, scope


def _smart_cond(pred, true_fn, false_fn):
    known = _static_bool(pred)
    if known is None:
        return cond(pred, true_fn, false_fn, name="summary_cond")
    return true_fn() if known else false_fn()


def _serialized(metadata) -> bytes:
    if metadata is None:
        return b""
    if hasattr(metadata, "SerializeToString"):
        return metadata.SerializeToString()
    value = convert_to_tensor(metadata, dtype=dtypes.string)
    return value.numpy() if isinstance(value, EagerTensor) else value


@contextlib.contextmanager
def _summary_op(step, name, default_name):
    """What ``write`` and ``write_raw_pb`` share: a given step must be a scalar; inside the
    op's name scope, yields (the default writer or None, the step: given, else the default)."""
    if step is not None:
        _choose_step(step)
    with name_scope_v1(name, default_name):
        yield _state.writer, get_step() if step is None else step


def write(tag, tensor, step=None, metadata=None, name=None):
    """``tf.summary.write``: writes ``tensor`` (or what the callable ``tensor`` returns, called
    only when recording) under ``tag`` at ``step`` (default: ``get_step()``) to the default
    writer. Returns a bool tensor: True when written, False without a default writer or when
    ``record_if`` says no. ValueError when recording with no step."""
    with _summary_op(step, name, "write_summary") as (writer, step):
        if writer is None:
            return constant(False)
        serialized = _serialized(metadata)

        def record():
            if step is None:
                raise ValueError(_NO_STEP)
            value = tensor() if callable(tensor) else array_ops.identity(tensor)
            apply_op("WriteSummary", [convert_to_tensor(step, dtype=dtypes.int64), value,
                                      convert_to_tensor(tag, dtype=dtypes.string),
                                      convert_to_tensor(serialized, dtype=dtypes.string)],
                     {"writer": writer._resource}, name="WriteSummary")
            return constant(True)

        return _smart_cond(should_record_summaries(), record, lambda: constant(False))


def write_raw_pb(tensor, step=None, name=None):
    """``tf.summary.experimental.write_raw_pb``: writes serialized ``Summary`` protos (a string
    tensor; one event holds them all) at ``step``; as ``write`` otherwise, but without a step
    it raises even when not recording, as TensorFlow does."""
    with _summary_op(step, name, "write_raw_pb") as (writer, step):
        if writer is None:
            return constant(False)
        if step is None:
            raise ValueError(_NO_STEP)

        def record():
            apply_op("WriteRawProtoSummary", [convert_to_tensor(step, dtype=dtypes.int64),
                                              array_ops.identity(tensor)],
                     {"writer": writer._resource}, name="WriteRawProtoSummary")
            return constant(True)

        return _smart_cond(should_record_summaries(), record, lambda: constant(False))
