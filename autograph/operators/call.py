"""``converted(f)``: what converted code calls in place of ``f``.

Converted code writes a call ``f(x, k=v)`` as ``ag__.converted(f)(x, k=v)``: the call
itself stays in the user's frame, with the user's arguments as written, so library code
that looks at its caller (``warnings.warn(stacklevel=...)``, ``sys._getframe`` in
``namedtuple``, tracebacks) sees the user's function. User functions run converted
(converted on first call, cached); library functions, classes and functions marked
``do_not_convert`` run as they are; ``range``, ``len``, ``enumerate``, ``zip``, ``int``,
``float``, ``abs`` and ``print`` get their tensor-aware versions, ``sys._getframe`` and
``warnings.warn`` twins that count the program's frames only (``frames.py``).
"""
from __future__ import annotations

import sys
import types
import warnings

from autograph.operators import frames
from autograph.operators.py_builtins import BUILTIN_OVERRIDES


_AS_IS = frozenset({types.BuiltinFunctionType, types.BuiltinMethodType,
                    types.MethodWrapperType, types.MethodDescriptorType})


def converted(f):
    """The callable that runs ``f``: its converted twin when it is user code."""
    try:
        override = BUILTIN_OVERRIDES.get(f)
    except TypeError:  # unhashable callable
        override = None
    if override is not None:
        return override
    if f.__class__ in _AS_IS:  # ``out.append``, ``math.sqrt``: the common calls, at once
        if f is sys._getframe or f is warnings.warn:  # they count frames: the program's only
            return frames.getframe if f is sys._getframe else frames.warn
        return f
    from autograph.impl.api import converted_callable
    return converted_callable(f)


def converted_call(f, args, kwargs=None):
    """``f(*args, **kwargs)``, with ``f`` converted when it is user code (TensorFlow's name)."""
    target = converted(f)
    if kwargs:
        return target(*args, **kwargs)
    return target(*args)
