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


def register_source_map(filename: str, mapping: dict[int, Origin]) -> None:
    """Maps lines of generated code in ``filename`` back to user origins."""
    _SOURCE_MAPS[filename] = mapping


def map_location(filename: str, line: int) -> Origin | None:
    mapping = _SOURCE_MAPS.get(filename)
    return None if mapping is None else mapping.get(line)


def _is_internal(filename: str) -> bool:
    return filename.startswith(tuple(_INTERNAL_DIRS)) or filename.startswith("<frozen")


_INTERNAL_CODES: dict = {}  # code object -> whether its frames are internal (a cache)


def _is_internal_code(code) -> bool:
    internal = _INTERNAL_CODES.get(code)
    if internal is None:
        if len(_INTERNAL_CODES) > 50_000:  # generated code comes and goes: stay bounded
            _INTERNAL_CODES.clear()
        internal = _INTERNAL_CODES[code] = _is_internal(code.co_filename)
    return internal


def current_origin() -> Origin | None:
    frame = sys._getframe(1)
    while frame is not None and _is_internal_code(frame.f_code):
        frame = frame.f_back
    if frame is None:
        return None
    filename = frame.f_code.co_filename
    mapped = map_location(filename, frame.f_lineno)
    if mapped is not None:
        return mapped
    return Origin(filename, frame.f_lineno, frame.f_code.co_name)
