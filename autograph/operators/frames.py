"""``sys._getframe`` and ``warnings.warn`` as the program as written sees them.

Converted control flow runs its bodies as nested functions called by the
operators (``if_stmt`` calls ``if_body``), so converted code has more
frames than the original. Code that counts frames then looks at the wrong
one: ``warnings.warn(..., stacklevel=2)`` blames the operators,
``namedtuple`` reads its module from ``sys._getframe(1)``. Converted code
calls these twins instead (``ag__.converted`` swaps them in): they count
only the program's own frames — not this project's, and not the bodies the
operators call, which are recognized by their caller being an operator —
and a warning in generated code is reported at the user's file:line.
"""
from __future__ import annotations

import os
import sys
import warnings

from runtime.origin import is_library_file, map_location

_OPERATORS = os.path.dirname(os.path.abspath(__file__)) + os.sep


def _is_body(frame) -> bool:
    """A body of converted control flow: a function an operator called."""
    back = frame.f_back
    return back is not None and back.f_code.co_filename.startswith(_OPERATORS)


def _is_importlib(filename: str) -> bool:
    """What ``warnings.warn`` skips when it counts ``stacklevel`` (CPython's rule)."""
    return "importlib" in filename and "_bootstrap" in filename


def _program_frames(frame, skip=is_library_file):
    """``(frame, where)`` for each frame of the program as written, from ``frame``
    outward (frozen stdlib modules such as ``abc`` included, as ``sys._getframe`` counts
    them): ``where`` is the frame whose line it is at — the innermost body of converted
    control flow it is running, or itself."""
    where = None
    while frame is not None:
        if not skip(frame.f_code.co_filename):
            if where is None:
                where = frame
            if not _is_body(frame):
                yield frame, where
                where = None
        frame = frame.f_back


def _nth_program_frame(frame, n: int, skip=is_library_file):
    for i, found in enumerate(_program_frames(frame, skip)):
        if i == n:
            return found
    return None, None


def getframe(depth: int = 0):
    """``sys._getframe(depth)`` counting the program's frames only."""
    found, _ = _nth_program_frame(sys._getframe(1), depth)
    if found is None:
        raise ValueError("call stack is not deep enough")
    return found


def warn(message, category=None, stacklevel: int = 1, source=None):
    """``warnings.warn`` whose ``stacklevel`` counts the program's frames only."""
    frame, where = _nth_program_frame(
        sys._getframe(1), max(stacklevel, 1) - 1,
        lambda f: is_library_file(f) or _is_importlib(f))
    if frame is None:  # deeper than the stack: where warnings.warn then points
        return warnings.warn(message, category, stacklevel=sys.getrecursionlimit(),
                             source=source)
    if isinstance(message, Warning):
        category = message.__class__
    elif category is None:
        category = UserWarning
    filename, lineno = where.f_code.co_filename, where.f_lineno
    mapped = map_location(filename, lineno)
    if mapped is not None:
        filename, lineno = mapped.file, mapped.line
    globals_ = frame.f_globals
    warnings.warn_explicit(message, category, filename, lineno,
                           module=globals_.get("__name__", "<string>"),
                           registry=globals_.setdefault("__warningregistry__", {}),
                           module_globals=globals_, source=source)
