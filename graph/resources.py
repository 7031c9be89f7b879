"""Values of stateful resources (variables), keyed by resource id.

Graphs refer to a variable by its id (a node attr), never by a Python object,
so a graph can be saved and restored in a process with no user code.
"""
from __future__ import annotations

import itertools
import threading

from graph.errors import FailedPreconditionError

_ids = itertools.count(1)
_lock = threading.Lock()
_values: dict[int, object] = {}


def new_resource(value, initialized: bool = True) -> int:
    """A new resource id holding ``value`` (nothing yet, if not ``initialized``)."""
    with _lock:
        rid = next(_ids)
    if initialized:
        _values[rid] = value
    return rid


def read(rid: int):
    try:
        return _values[rid]
    except KeyError:
        raise FailedPreconditionError(
            message=f"Resource {rid} does not exist: the variable was deleted, never created, "
                    "or not initialized yet (its initial value needs a tf.function's inputs, "
                    "and that function has not run). Create the tf.Variable outside the "
                    "function or on its first call."
        ) from None


def write(rid: int, value) -> None:
    _values[rid] = value


def delete(rid: int) -> None:
    _values.pop(rid, None)


def exists(rid: int) -> bool:
    return rid in _values
