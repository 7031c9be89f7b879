"""``tf.summary.trace_on`` / ``trace_off`` / ``trace_export``.

TensorFlow's trace collects the GraphDefs (and profiles) of the functions run meanwhile and
exports them as serialized ``RunMetadata`` protos. This project's graphs are not TensorFlow
GraphDefs, so ``trace_export`` cannot write what TensorFlow writes: it raises
NotImplementedError (after stopping the trace) rather than writing something else.
"""
from __future__ import annotations

import logging
import threading

from runtime import context
from runtime.summary.core import _choose_step

_lock = threading.Lock()
_trace = None  # (graph, profiler) while a trace is on
_log = logging.getLogger("autograph")


def trace_on(graph=True, profiler=False, profiler_outdir=None):
    """Starts a trace (eagerly only; a warning elsewhere or when one is on already)."""
    global _trace
    if not context.executing_eagerly():
        _log.warning("Cannot enable trace inside a tf.function.")
        return
    with _lock:
        if _trace is not None:
            _log.warning("Trace already enabled")
            return
        _trace = (graph, profiler)


def trace_export(name, step=None, profiler_outdir=None):
    """Stops the trace; exporting it is not supported (NotImplementedError)."""
    if step is not None:
        _choose_step(step)
    if not context.executing_eagerly():
        _log.warning("Cannot export trace inside a tf.function.")
        return
    with _lock:
        if _trace is None:
            raise ValueError("Must enable trace before export through tf.summary.trace_on.")
    trace_off()
    raise NotImplementedError(
        "tf.summary.trace_export: exporting traced graphs needs TensorFlow GraphDef and "
        "RunMetadata protos, which this library's graphs are not; the trace was stopped")


def trace_off():
    """Stops the current trace, discarding it."""
    global _trace
    with _lock:
        _trace = None
