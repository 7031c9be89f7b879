"""``Assert`` under XLA: dropped, as TensorFlow's XLA bridge drops it (with a warning).

``PrintV2`` has no lowering: its input is a formatted string, and strings
cannot be compiled; TensorFlow reports its ``StringFormat`` the same way.
"""
from __future__ import annotations

import logging

from graph.xla.lowering import lowering

_log = logging.getLogger("tensorflow")


@lowering("Assert")
def _assert(ctx, node, condition, *data):
    _log.warning("Ignoring Assert operator %s", node.name)
    return ()
