"""``converted(f)``: what converted code calls in place of ``f``.

Converted code writes a call ``f(x, k=v)`` as ``ag__.converted(f)(x, k=v)``: the call
itself stays in the user's frame, with the user's arguments as written, so library code
that looks at its caller (``warnings.warn(stacklevel=...)``, ``sys._getframe`` in
``namedtuple``, tracebacks) sees the user's function. User functions run converted
(converted on first call, cached); library functions, classes and functions marked
``do_not_convert`` run as they are; ``range``, ``len``, ``enumerate``, ``zip``, ``int``,
``float``, ``abs`` and ``print`` get their tensor-aware versions, ``sys._getframe`` and
``warnings.warn`` twins that count the program's frames only, ``traceback`` twins that list
them at the user's lines, ``eval`` and ``exec`` twins that see the function's locals as
written (``frames.py``).
"""
from __future__ import annotations

import sys
import types
import warnings

import autograph.operators as _OPERATORS
from autograph.operators import frames
from autograph.operators.py_builtins import BUILTIN_OVERRIDES


_AS_IS = frozenset({types.BuiltinFunctionType, types.BuiltinMethodType,
                    types.MethodWrapperType, types.MethodDescriptorType})
_FUNCTION, _METHOD = types.FunctionType, types.MethodType


# The overrides by the identity of the builtin they replace: looking ``f`` up by identity
# never runs the user's ``__hash__``/``__eq__`` (a callable object's may raise, or be slow).
_OVERRIDES_BY_ID = {id(builtin): override for builtin, override in BUILTIN_OVERRIDES.items()}
# (the traceback module's functions are plain functions: looked up with the overrides, first)
_OVERRIDES_BY_ID.update({id(f): twin for f, twin in frames.TRACEBACK_TWINS.items()})
_FRAME_TWINS = {id(sys._getframe): frames.getframe, id(warnings.warn): frames.warn,
                id(eval): frames.eval_, id(exec): frames.exec_}


def converted(f):
    """The callable that runs ``f``: its converted twin when it is user code."""
    override = _OVERRIDES_BY_ID.get(id(f))
    if override is not None:
        return override
    cls = f.__class__
    if cls in _AS_IS:  # ``out.append``, ``math.sqrt``: the common calls, at once
        # (those that look at their caller's frame see the program's, through twins)
        return _FRAME_TWINS.get(id(f), f)
    if cls is _METHOD:  # ``self.method``, ``obj.method``: the other common calls
        fn = f.__func__
        if fn.__class__ is _FUNCTION and runs_as_written(fn):
            return f
    elif cls is _FUNCTION and runs_as_written(f):
        return f
    from autograph.impl.api import converted_callable
    return converted_callable(f)


def runs_as_written(fn) -> bool:
    """Whether the plain function ``fn`` runs as it is: marked ``do_not_convert``, converted
    code (``converted_module.converted`` marks a converted module's functions), or a def or
    lambda converted with the function it is nested in, in such a module (it reads the
    converter's ``ag__``, the operators module, from that function's scope)."""
    d = fn.__dict__
    if d.get("__ag_converted__") or d.get("__ag_do_not_convert__"):
        return True
    code = fn.__code__
    if "ag__" not in code.co_freevars:
        return False
    try:
        return fn.__closure__[code.co_freevars.index("ag__")].cell_contents is _OPERATORS
    except ValueError:  # (an empty cell)
        return False


def converted_call(f, args, kwargs=None):
    """``f(*args, **kwargs)``, with ``f`` converted when it is user code (TensorFlow's name)."""
    target = converted(f)
    if kwargs:
        return target(*args, **kwargs)
    return target(*args)
