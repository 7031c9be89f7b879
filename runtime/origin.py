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


# Code objects are keyed by ``id``: hashing a code object hashes its bytecode and constants,
# nested code objects included (microseconds for a converted function, paid per frame of
# every walk), and equal code compiled from two files would share one entry. Each entry
# holds its code object, so an id in these tables always names a live code object.
_INTERNAL_CODES: dict = {}  # id(code) -> (code, whether its frames are internal) (a cache)
_INTERNAL: set = set()  # the ids of the internal ones: what the walk tests (one `in` a frame)


def _is_internal_code(code) -> bool:
    entry = _INTERNAL_CODES.get(id(code))
    if entry is not None:
        return entry[1]
    if len(_INTERNAL_CODES) > 50_000:  # generated code comes and goes: stay bounded
        _INTERNAL_CODES.clear()
        _INTERNAL.clear()
        _ORIGINS.clear()  # (its keys name code objects by id too)
    internal = _is_internal(code.co_filename)
    _INTERNAL_CODES[id(code)] = (code, internal)
    if internal:
        _INTERNAL.add(id(code))
    return internal


_ORIGINS: dict = {}  # (id of a code object in _INTERNAL_CODES, instruction) -> its Origin


_getframe = sys._getframe  # (kept: a program may delete sys._getframe)


def current_origin() -> Origin | None:
    frame = _getframe(1)
    internal = _INTERNAL
    try:
        while True:
            while id(frame.f_code) in internal:  # (an op is recorded ~8 internal frames deep)
                frame = frame.f_back
            code = frame.f_code
            if id(code) in _INTERNAL_CODES or not _is_internal_code(code):
                break  # (a known outside frame, or one just found to be outside)
            frame = frame.f_back
    except AttributeError:  # walked off the bottom of the stack: no user frame
        return None
    # (keyed by the instruction: ``f_lineno`` scans the code's line table from its start,
    # thousands of instructions per op deep in a large converted function)
    key = (id(code), frame.f_lasti)
    origin = _ORIGINS.get(key)
    if origin is None:
        filename, line = code.co_filename, frame.f_lineno
        mapping = _SOURCE_MAPS.get(filename)
        origin = None if mapping is None else mapping.get(line)
        if origin is None:
            origin = Origin(filename, line, code.co_name)
        if len(_ORIGINS) > 50_000:  # generated code comes and goes: stay bounded
            _ORIGINS.clear()
        _ORIGINS[key] = origin
    return origin
