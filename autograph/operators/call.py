"""``converted_call``: how converted code calls anything.

User functions run converted (converted on first call, cached); library
functions, classes and functions marked ``do_not_convert`` run as they
are; ``range``, ``len``, ``enumerate``, ``zip``, ``int``, ``float`` and
``abs`` get their tensor-aware versions.
"""
from __future__ import annotations

from autograph.operators.py_builtins import BUILTIN_OVERRIDES


def converted_call(f, args, kwargs=None):
    """``f(*args, **kwargs)``, with ``f`` converted when it is user code."""
    try:
        override = BUILTIN_OVERRIDES.get(f)
    except TypeError:  # unhashable callable
        override = None
    if override is not None:
        target = override
    else:
        from autograph.impl.api import converted_callable
        target = converted_callable(f)
    if kwargs:
        return target(*args, **kwargs)
    return target(*args)
