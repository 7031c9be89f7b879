"""PrintV2 and Assert: stateful ops that talk to the outside world.

PrintV2 prints one scalar string (usually made by StringFormat) to the
stream its ``output_stream`` attr names: ``"stderr"``/``"stdout"`` are looked
up in ``sys`` each time the op runs (so redirecting ``sys.stderr`` works, as
with TensorFlow), ``"log(info)"``-style names go to ``logging``, and
``"file://path"`` appends to a file.

Assert raises InvalidArgumentError carrying its data (formatted as
TensorFlow's legacy summaries: ``assertion failed: [msg] [1 2 3...]``) when
its condition is false; the executor adds the node's origin (user file:line).
"""
from __future__ import annotations

import logging
import sys

import numpy as np

from graph.errors import InvalidArgumentError
from graph.registry import register_op
from graph.ops.strings import summarize_value

STREAMS = ("stderr", "stdout", "log(info)", "log(warning)", "log(error)")
_LOG_LEVELS = {"log(info)": logging.INFO, "log(warning)": logging.WARNING,
               "log(error)": logging.ERROR}


def _print_infer(inputs, attrs):
    if len(inputs) != 1 or not inputs[0].dtype.is_string or inputs[0].shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message="PrintV2 prints one scalar string; format the values first "
                    "(tf.strings.format or tf.print)")
    stream = attrs.get("output_stream", "stderr")
    if stream not in STREAMS and not stream.startswith("file://"):
        raise InvalidArgumentError(
            message=f"PrintV2: unsupported output_stream {stream!r}; use one of {STREAMS} "
                    "or 'file://<path>'")
    return []


def write(text: str, output_stream: str = "stderr", end: str = "\n") -> None:
    """Writes ``text + end`` to the named stream, resolved now."""
    if output_stream == "stderr":
        stream = sys.stderr
    elif output_stream == "stdout":
        stream = sys.stdout
    elif output_stream in _LOG_LEVELS:
        logging.getLogger("autograph").log(_LOG_LEVELS[output_stream], text)
        return
    else:
        with open(output_stream[len("file://"):], "a", encoding="utf-8") as f:
            f.write(text + end)
        return
    stream.write(text + end)
    stream.flush()


def _print_v2(value, output_stream="stderr", end="\n"):
    value = value[()] if isinstance(value, np.ndarray) else value
    text = value.decode("utf-8", errors="replace") if isinstance(value, bytes) else str(value)
    write(text, output_stream, end)
    return ()


register_op("PrintV2", _print_infer, _print_v2, kernel_attrs=("output_stream", "end"),
            stateful=True)


def _assert_infer(inputs, attrs):
    if not inputs:
        raise InvalidArgumentError(message="Assert needs a condition input")
    cond = inputs[0]
    if not cond.dtype.is_bool or cond.shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message=f"Assert: the condition must be a scalar bool tensor, got a "
                    f"{cond.dtype.name} tensor of shape {cond.shape}; reduce it with "
                    "tf.reduce_all first")
    return []


_C_ESCAPES = str.maketrans({"\\": "\\\\", "'": "\\'", '"': '\\"', "\n": "\\n",
                            "\r": "\\r", "\t": "\\t"})


def _c_escape(text: str) -> str:
    return text.translate(_C_ESCAPES)


def assertion_message(data, summarize: int = 3) -> str:
    parts = []
    for value in data:
        arr = np.asarray(value)
        if arr.dtype == object and arr.ndim == 0:  # a string: C-escaped, as TensorFlow shows it
            v = arr[()]
            text = v.decode('utf-8', errors='replace') if isinstance(v, bytes) else str(v)
            parts.append(f"[{_c_escape(text)}]")
        else:
            parts.append(f"[{summarize_value(arr, summarize, print_v2=False)}]")
    return "assertion failed: " + " ".join(parts)


def _assert(cond, *data, summarize=3):
    if not np.all(cond):
        raise InvalidArgumentError(message=assertion_message(data, summarize))
    return ()


register_op("Assert", _assert_infer, _assert, kernel_attrs=("summarize",), stateful=True)
