"""``sys._getframe``, ``warnings.warn``, ``eval``, ``exec`` and the stack and traceback
listings of ``traceback`` and ``inspect`` as the program as written sees them.

Converted control flow runs its bodies as nested functions called by the
operators (``if_stmt`` calls ``if_body``), so converted code has more
frames than the original. Code that counts frames then looks at the wrong
one: ``warnings.warn(..., stacklevel=2)`` blames the operators,
``namedtuple`` reads its module from ``sys._getframe(1)``. Converted code
calls these twins instead (``ag__.converted`` swaps them in): they count
only the program's own frames — not this project's, and not the bodies the
operators call, which are recognized by their caller being an operator —
and a warning in generated code is reported at the user's file:line.
``traceback.extract_stack``/``extract_tb`` (and the ``format_``/``print_``
functions built on them) and ``inspect.stack``/``trace``/``getinnerframes``/
``getouterframes`` list the program's frames only, at the user's file:line:
code that reads them sees what it sees unconverted (pyparsing tells a parse
action's arity error from one raised inside it by the line of the failing
call, and names the parser elements of a traceback by their frames).
``eval``/``exec`` without a namespace of their own, and ``locals()``,
``vars()`` and ``dir()`` without arguments, see the locals of the function
as written: those of the bodies they run in and of the function around them
(a body sees only the names it uses itself), without the variables that are
not assigned yet (``Undefined`` placeholders) and, for ``locals()``, without
the converter's own names.
"""
from __future__ import annotations

import __future__
import builtins
import inspect
import linecache
import os
import sys
import traceback
import warnings

from runtime.origin import is_library_file, map_location

from autograph.operators.variables import Undefined

_getframe = sys._getframe  # bound once: code under test may delete sys._getframe

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


def _scope(frame) -> dict:
    """The locals the program as written has at ``frame``: its own, over those of the
    bodies of converted control flow around it, over its function's."""
    chain = []
    while frame is not None:
        if not is_library_file(frame.f_code.co_filename):
            chain.append(frame)
            if not _is_body(frame):
                break
        frame = frame.f_back
    scope: dict = {}
    for f in reversed(chain):
        scope.update(f.f_locals)
    return {k: v for k, v in scope.items() if v.__class__ is not Undefined}


def locals_(generated, order=()):
    """``locals()`` (and ``vars()``) of the function as written: without the names in
    ``generated``, those the converter made (its bodies, flags, ``ag__``), in the order
    ``order`` gives (the original's), then as found (free variables)."""
    scope = _scope(_getframe(1))
    found = {k: scope[k] for k in order if k in scope and k not in generated}
    for k, v in scope.items():
        if k not in found and k not in generated:
            found[k] = v
    return found


def dir_(generated):
    """``dir()`` of the function as written."""
    return sorted(k for k in _scope(_getframe(1)) if k not in generated)


_FUTURE_FLAGS = 0
for _name in __future__.all_feature_names:
    _FUTURE_FLAGS |= getattr(__future__, _name).compiler_flag


def _compiled(source, mode: str, frame):
    """``source`` compiled as ``eval``/``exec`` compile it in ``frame``: with its function's
    ``from __future__`` features (not this module's)."""
    if not isinstance(source, (str, bytes, bytearray)):
        return source  # a code object
    if mode == "eval":  # (eval strips leading blanks)
        source = source.lstrip(" \t" if isinstance(source, str) else b" \t")
    return compile(source, "<string>", mode, frame.f_code.co_flags & _FUTURE_FLAGS,
                   dont_inherit=True)


def eval_(source, globals=None, locals=None, /):
    """``eval``: without ``globals``, in the caller's globals and its locals as written."""
    frame = _getframe(1)
    if globals is None:
        globals, locals = frame.f_globals, _scope(frame) if locals is None else locals
    return builtins.eval(_compiled(source, "eval", frame), globals, locals)


def exec_(source, globals=None, locals=None, /, **kwargs):
    """``exec``: without ``globals``, in the caller's globals and its locals as written."""
    frame = _getframe(1)
    if globals is None:
        globals, locals = frame.f_globals, _scope(frame) if locals is None else locals
    return builtins.exec(_compiled(source, "exec", frame), globals, locals, **kwargs)


def getframe(depth: int = 0):
    """``sys._getframe(depth)`` counting the program's frames only."""
    found, _ = _nth_program_frame(_getframe(1), depth)
    if found is None:
        raise ValueError("call stack is not deep enough")
    return found


def warn(message, category=None, stacklevel: int = 1, source=None):
    """``warnings.warn`` whose ``stacklevel`` counts the program's frames only."""
    frame, where = _nth_program_frame(
        _getframe(1), max(stacklevel, 1) - 1,
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


# -- the traceback module -------------------------------------------------------------------

def _summary(owner, where_file: str, lineno: int, real=None):
    """The ``FrameSummary`` of the program's frame ``owner`` at ``where_file:lineno`` (the
    line of the innermost body it runs, when it runs one): at the user's file and line when
    that is generated code; ``real`` (the summary Python made, with its column positions)
    when it is not."""
    mapped = map_location(where_file, lineno)
    if mapped is None:
        if real is not None and real.lineno == lineno:
            return real
        linecache.lazycache(where_file, owner.f_globals)
        return traceback.FrameSummary(where_file, lineno, owner.f_code.co_name,
                                      lookup_line=False)
    return traceback.FrameSummary(mapped.file, mapped.line, owner.f_code.co_name,
                                  lookup_line=False)


def _finish(summaries) -> traceback.StackSummary:
    """What ``StackSummary.extract`` does last: source lines read after ``checkcache``."""
    result = traceback.StackSummary.from_list(summaries)
    for filename in {s.filename for s in result}:
        linecache.checkcache(filename)
    for s in result:
        s.line  # noqa: B018 (reads the line now, as extract does)
    return result


def _limited(entries: list, limit) -> list:
    """``limit`` applied as ``StackSummary.extract`` applies it, to entries in walk order
    (a traceback's outermost first, a stack's innermost first)."""
    if limit is None:
        limit = getattr(sys, "tracebacklimit", None)
        if limit is not None and limit < 0:
            limit = 0
    if limit is None:
        return entries
    if limit >= 0:
        return entries[:limit]
    return entries[limit:]


def extract_stack(f=None, limit=None):
    """``traceback.extract_stack`` listing the program's frames only, at the user's lines."""
    if f is None:
        f = _getframe(1)
    entries = _limited([_summary(frame, where.f_code.co_filename, where.f_lineno)
                        for frame, where in _program_frames(f)], limit)
    entries.reverse()
    return _finish(entries)


def _owner(frame):
    """The frame of the function as written that runs ``frame``, a body of converted
    control flow."""
    f = frame
    while f is not None:
        if not is_library_file(f.f_code.co_filename) and not _is_body(f):
            return f
        f = f.f_back
    return frame


def _tb_entries(tb) -> list:
    """``[owner, file, line, index]`` for each frame of the program in traceback ``tb``: a
    body of converted control flow is a line of the function it belongs to (``index``: the
    entry's position in ``walk_tb(tb)`` when it is that frame itself, else None)."""
    entries = []
    for index, (frame, lineno) in enumerate(traceback.walk_tb(tb)):
        filename = frame.f_code.co_filename
        if is_library_file(filename):
            continue
        if _is_body(frame):
            owner = _owner(frame)
            if entries and entries[-1][0] is owner:
                entries[-1][1:] = [filename, lineno, None]
                continue
            entries.append([owner, filename, lineno, None])
        else:
            entries.append([frame, filename, lineno, index])
    return entries


def extract_tb(tb, limit=None):
    """``traceback.extract_tb`` listing the program's frames only, at the user's lines."""
    entries = _tb_entries(tb)
    real = traceback.extract_tb(tb, limit=sys.maxsize)
    return _finish(_limited([_summary(owner, filename, lineno,
                                      None if index is None else real[index])
                             for owner, filename, lineno, index in entries], limit))


def format_stack(f=None, limit=None):
    """``traceback.format_stack`` of the program's frames."""
    return traceback.format_list(extract_stack(_getframe(1) if f is None else f, limit))


def print_stack(f=None, limit=None, file=None):
    """``traceback.print_stack`` of the program's frames."""
    traceback.print_list(extract_stack(_getframe(1) if f is None else f, limit), file=file)


def format_tb(tb, limit=None):
    """``traceback.format_tb`` of the program's frames."""
    return extract_tb(tb, limit).format()


def print_tb(tb, limit=None, file=None):
    """``traceback.print_tb`` of the program's frames."""
    traceback.print_list(extract_tb(tb, limit), file=file)


# -- inspect's frame lists -------------------------------------------------------------------

def _frame_info(frame, filename: str, lineno: int, context: int, real=None):
    """``inspect.FrameInfo`` of the program's ``frame`` at ``filename:lineno`` (the line of
    the innermost body it runs), at the user's file and line when that is generated code."""
    mapped = map_location(filename, lineno)
    if mapped is None:
        if real is not None and real.lineno == lineno:
            return real
        info = inspect.getframeinfo(frame, context)
        return inspect.FrameInfo(frame, *info)
    filename, lineno = mapped.file, mapped.line
    code_context = index = None
    if context > 0:  # as inspect.getframeinfo picks the lines, from the user's file
        lines = linecache.getlines(filename)
        if lines:
            start = max(0, min(lineno - 1 - context // 2, len(lines) - context))
            code_context, index = lines[start:start + context], lineno - 1 - start
    fields = (frame, filename, lineno, frame.f_code.co_name, code_context, index)
    try:
        return inspect.FrameInfo(*fields, positions=None)
    except TypeError:  # (Python 3.10: no positions)
        return inspect.FrameInfo(*fields)


def getinnerframes(tb, context=1):
    """``inspect.getinnerframes`` listing the program's frames only, at the user's lines."""
    entries = _tb_entries(tb)
    real = inspect.getinnerframes(tb, context) if any(e[3] is not None for e in entries) \
        else []
    return [_frame_info(owner, filename, lineno, context,
                        None if index is None else real[index])
            for owner, filename, lineno, index in entries]


def getouterframes(frame, context=1):
    """``inspect.getouterframes`` listing the program's frames only, at the user's lines."""
    return [_frame_info(f, where.f_code.co_filename, where.f_lineno, context)
            for f, where in _program_frames(frame)]


def stack(context=1):
    """``inspect.stack`` listing the program's frames only, at the user's lines."""
    return getouterframes(_getframe(1), context)


def trace(context=1):
    """``inspect.trace`` listing the program's frames only, at the user's lines."""
    return getinnerframes(sys.exc_info()[2], context)


TRACEBACK_TWINS = {inspect.getinnerframes: getinnerframes,
                   inspect.getouterframes: getouterframes, inspect.stack: stack,
                   inspect.trace: trace,
                   traceback.extract_stack: extract_stack, traceback.extract_tb: extract_tb,
                   traceback.format_stack: format_stack, traceback.print_stack: print_stack,
                   traceback.format_tb: format_tb, traceback.print_tb: print_tb}
