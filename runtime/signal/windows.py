"""``tf.signal`` windows: hann_window and hamming_window (TensorFlow's raised cosine, whose
``periodic`` form lengthens only even windows)."""
from __future__ import annotations

import math

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops as A, math_ops as M
from runtime.tensor import Tensor


def _raised_cosine(window_length: int, periodic: bool, dtype, a: float, b: float) -> Tensor:
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype.name}")
    window_length = int(window_length)
    if window_length == 1:
        return A.ones([1], dtype=dtype)
    even = 1 - window_length % 2
    n = float(window_length + int(bool(periodic)) * even - 1)
    count = M.cast(A.range_(window_length), dtype)
    angle = M.divide(M.multiply(M.cast(2 * math.pi, dtype), count), M.cast(n, dtype))
    return M.subtract(M.cast(a, dtype), M.multiply(M.cast(b, dtype), M.cos(angle)))


def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None) -> Tensor:
    """``0.5 - 0.5 cos(2 pi n / N)``."""
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None) -> Tensor:
    """``0.54 - 0.46 cos(2 pi n / N)``."""
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)
