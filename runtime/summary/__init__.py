"""``tf.summary``: TensorBoard event files, written eagerly or by stateful ops in a function.

``core``: writers, the per-thread default writer / step / recording condition, ``write``;
``plugins``: scalar, histogram, text, image, audio; ``trace``: trace_on/off/export;
``graph/ops/summary.py``: the event file format and the ops.
"""
from runtime.summary.core import (SummaryWriter, create_file_writer,  # noqa: F401
                                  create_noop_writer, flush, record_if,
                                  should_record_summaries, write)
from runtime.summary.plugins import audio, histogram, image, scalar, text  # noqa: F401
from runtime.summary.trace import trace_export, trace_off, trace_on  # noqa: F401
from runtime.summary import experimental  # noqa: F401
