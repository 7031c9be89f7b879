"""``tf.compat``: the text, path and dimension helpers real TensorFlow code calls.

Only TensorFlow 2 behaviour exists here, so ``forward_compatible`` answers whether a
date is before TensorFlow 2.21's compatibility horizon, and ``v1`` holds only the
TensorFlow 1 names that mean the same in TensorFlow 2 (``compat_v1.py``). ``v2`` is the
top-level module (``autograph`` sets it).
"""
from __future__ import annotations

import datetime
import numbers
import os

import numpy as np

from graph.shapes import as_shape

__all__ = ["as_bytes", "as_str", "as_str_any", "as_text", "bytes_or_text_types",
           "complex_types", "dimension_at_index", "dimension_value",
           "forward_compatibility_horizon", "forward_compatible", "integral_types",
           "path_to_str", "real_types"]

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)


def as_bytes(bytes_or_text, encoding: str = "utf-8") -> bytes:
    """``bytes`` unchanged, ``str`` encoded (``bytearray`` copied to bytes)."""
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


def as_text(bytes_or_text, encoding: str = "utf-8") -> str:
    """``str`` unchanged, ``bytes`` decoded."""
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


def as_str_any(value, encoding: str = "utf-8") -> str:
    """``as_str`` for bytes, ``str(value)`` for anything else."""
    return as_str(value, encoding) if isinstance(value, bytes) else str(value)


def path_to_str(path):
    """A path-like object as a string; anything else unchanged."""
    return os.fspath(path) if isinstance(path, os.PathLike) else path


def dimension_value(dimension):
    """The int (or None) of a dimension: ``shape[i]`` is already one here (TensorFlow's
    ``Dimension`` objects do not exist), so this returns it; a ``.value`` is read."""
    return getattr(dimension, "value", dimension)


def dimension_at_index(shape, index):
    """Dimension ``index`` of ``shape``: an int, or None when unknown (also when the
    rank is unknown)."""
    shape = as_shape(shape)
    return None if shape.rank is None else shape[index]


_HORIZON = datetime.date(2026, 1, 16)  # TensorFlow 2.21's forward-compatibility horizon


def forward_compatible(year: int, month: int, day: int) -> bool:
    """True when the date is before the forward-compatibility horizon."""
    return _HORIZON > datetime.date(year, month, day)


class forward_compatibility_horizon:  # noqa: N801  (TensorFlow's name)
    """Context manager moving the horizon (for testing new behaviour)."""

    def __init__(self, year: int, month: int, day: int):
        self._date = datetime.date(year, month, day)

    def __enter__(self):
        global _HORIZON
        self._saved, _HORIZON = _HORIZON, self._date

    def __exit__(self, *exc) -> bool:
        global _HORIZON
        _HORIZON = self._saved
        return False


def __getattr__(name: str):
    if name == "v1":  # (imported on first use: it needs the ops, which need this module)
        from runtime.compat_v1 import v1
        return v1
    raise AttributeError(f"module 'tf.compat' has no attribute {name!r}")
