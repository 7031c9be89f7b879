"""Pausing Python's cyclic garbage collector around work that allocates many objects.

Conversion (syntax trees) and tracing (nodes, graphs, plans) allocate objects by the
thousand and free none of them in cycles, so the collections their allocation triggers
find nothing, and a full one walks the whole heap. Pausing is process-wide (the collector
has no per-thread switch) and lasts only as long as that work; a program that had turned
the collector off keeps it off.
"""
from __future__ import annotations

import contextlib
import gc


def pause() -> bool:
    """Turns the collector off if it is on; True when it did (the caller turns it on again)."""
    if gc.isenabled():
        gc.disable()
        return True
    return False


@contextlib.contextmanager
def paused():
    """``with paused():`` runs its body with the collector off, as ``pause`` turns it off."""
    resume = pause()
    try:
        yield
    finally:
        if resume:
            gc.enable()
