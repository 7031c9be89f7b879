"""Finds the user's source line for the op being recorded.

Walks the Python stack to the first frame outside this project's internal
packages; frames of converted code are mapped back to the user's file and
line through the source maps the converter registers.
"""
from __future__ import annotations

import os
import sys

from graph.ir import Origin

_INTERNAL_DIRS: list[str] = [
    os.path.dirname(os.path.abspath(__file__)) + os.sep,
    os.path.dirname(os.path.abspath(sys.modules["graph"].__file__)) + os.sep,
]
_SOURCE_MAPS: dict[str, dict[int, Origin]] = {}


def register_internal_dir(path: str) -> None:
    """Frames from files under ``path`` are never reported as user code."""
    path = os.path.abspath(path) + os.sep
    if path not in _INTERNAL_DIRS:
        _INTERNAL_DIRS.append(path)
        _INTERNAL_CODES.clear()
        _INTERNAL.clear()
        _ORIGINS.clear()


def register_source_map(filename: str, mapping: dict[int, Origin]) -> None:
    """Maps lines of generated code in ``filename`` back to user origins."""
    _SOURCE_MAPS[filename] = mapping
    _ORIGINS.clear()


def map_location(filename: str, line: int) -> Origin | None:
    mapping = _SOURCE_MAPS.get(filename)
    return None if mapping is None else mapping.get(line)


def is_library_file(filename: str) -> bool:
    """A file of this project's layers: its frames are never the program's."""
    return filename.startswith(tuple(_INTERNAL_DIRS))


def _is_internal(filename: str) -> bool:
    """Never reported as a user's location: this project, and the frozen stdlib modules."""
    return is_library_file(filename) or filename.startswith("<frozen")


_INTERNAL_CODES: dict = {}  # code object -> whether its frames are internal (a cache)
_INTERNAL: set = set()  # the internal ones among them: what the walk tests (one `in` a frame)


def _is_internal_code(code) -> bool:
    internal = _INTERNAL_CODES.get(code)
    if internal is None:
        if len(_INTERNAL_CODES) > 50_000:  # generated code comes and goes: stay bounded
            _INTERNAL_CODES.clear()
            _INTERNAL.clear()
        internal = _INTERNAL_CODES[code] = _is_internal(code.co_filename)
        if internal:
            _INTERNAL.add(code)
    return internal


_ORIGINS: dict = {}  # (code object, line) -> its Origin: every op of a trace asks


def current_origin() -> Origin | None:
    frame = sys._getframe(1)
    internal = _INTERNAL
    try:
        while True:
            while frame.f_code in internal:  # (an op is recorded ~8 internal frames deep)
                frame = frame.f_back
            code = frame.f_code
            if code in _INTERNAL_CODES or not _is_internal_code(code):
                break  # (a known outside frame, or one just found to be outside)
            frame = frame.f_back
    except AttributeError:  # walked off the bottom of the stack: no user frame
        return None
    key = (code, frame.f_lineno)
    origin = _ORIGINS.get(key)
    if origin is None:
        filename = code.co_filename
        mapping = _SOURCE_MAPS.get(filename)
        origin = None if mapping is None else mapping.get(key[1])
        if origin is None:
            origin = Origin(filename, key[1], code.co_name)
        if len(_ORIGINS) > 50_000:  # generated code comes and goes: stay bounded
            _ORIGINS.clear()
        _ORIGINS[key] = origin
    return origin
