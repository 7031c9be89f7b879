"""``with`` statements around staged control flow.

A ``with`` whose body holds an ``if``/``while``/``for`` is converted to
``with ag__.with_context(cm) as x:``. The wrapper enters and exits ``cm``
exactly as the ``with`` would, and keeps a per-thread stack of the context
managers entered that way; a statement inside it that turns out to be
staged (its condition is a tensor) asks, with ``inside_with=n``, whether
the ``n`` innermost of them can span staged code.

A context manager of this project (``tf.GradientTape``, ``init_scope``,
name and device scopes...) is about building the graph: it spans staged
code as it does in TensorFlow. Any other one (a file, a lock,
``contextlib.suppress``...) is entered and exited once while tracing, not
when the graph runs, and could not handle an error raised by the graph:
staging inside it is an error naming both lines and what to write instead.
"""
from __future__ import annotations

import contextlib
import sys
import threading

from runtime.errors import StagingError
from runtime.origin import current_origin, map_location

_getframe = sys._getframe  # bound once: code under test may delete sys._getframe

_FRAMEWORK = ("runtime.", "graph.", "autograph.")
_HARMLESS = (contextlib.nullcontext,)
_local = threading.local()


def _stack() -> list:
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


class _Entered:
    __slots__ = ("cm", "exit", "enter", "filename", "line")

    def __init__(self, cm):
        cls = type(cm)
        try:
            self.enter, self.exit = cls.__enter__, cls.__exit__
        except AttributeError:
            raise TypeError(f"'{cls.__name__}' object does not support the context manager "
                            "protocol") from None
        self.cm = cm
        caller = _getframe(2)  # the converted function's `with` line
        self.filename, self.line = caller.f_code.co_filename, caller.f_lineno

    def __enter__(self):
        value = self.enter(self.cm)
        _stack().append(self)
        return value

    def __exit__(self, *exc):
        stack = _stack()
        if stack and stack[-1] is self:
            stack.pop()
        return self.exit(self.cm, *exc)


def with_context(cm):
    """``cm`` for a ``with`` statement whose body holds control flow (see the module doc)."""
    return _Entered(cm)


def _spans_staged_code(cm) -> bool:
    if isinstance(cm, _HARMLESS):
        return True
    module = type(cm).__module__ or ""
    if isinstance(cm, contextlib._GeneratorContextManagerBase):  # noqa: SLF001
        module = getattr(getattr(cm, "func", None), "__module__", "") or ""
    return module.startswith(_FRAMEWORK)


def check_inside_with(kind: str, depth: int) -> None:
    """Raises when a staged ``kind`` statement is inside one of the ``depth`` innermost
    ``with_context`` managers that cannot span staged code."""
    stack = _stack()
    for entered in reversed(stack[-depth:] if depth else []):
        if _spans_staged_code(entered.cm):
            continue
        origin = map_location(entered.filename, entered.line)
        where = f"{origin.file}:{origin.line}" if origin is not None else \
            f"{entered.filename}:{entered.line}"
        raise StagingError(
            f"The `{kind}` at {current_origin()} depends on a tensor, so it is staged (traced "
            f"once, into the graph), but it is inside the `with` at {where} "
            f"({type(entered.cm).__name__}): that context manager is entered and exited once "
            "while tracing, not when the graph runs, so it cannot guard or clean up after what "
            "the staged code does (nor handle its errors). Move the `with` out of the function "
            "(around the call of the tf.function), or use it only around Python code; "
            "context managers of this library (tf.GradientTape, tf.init_scope) may span "
            "staged code.")
