"""``tf.signal`` windows: hann_window and hamming_window (TensorFlow's raised cosine, whose
``periodic`` form lengthens only even windows), the Kaiser, Kaiser-Bessel-derived and
Vorbis windows."""
from __future__ import annotations

import math

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops as A, math_ops as M
from runtime.ops.special_extra import bessel_i0e
from runtime.ops.special_ops import cumsum
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


def _float_dtype(dtype):
    dtype = as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype.name}")
    return dtype


def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None) -> Tensor:
    """``I0(beta sqrt(1 - (n / h)^2)) / I0(beta)`` for n in -h..h, h = (length - 1) / 2,
    as TensorFlow computes it: with exponentially scaled I0, so a large beta stays finite."""
    dtype = _float_dtype(dtype)
    window_length = int(window_length)
    if window_length == 1:
        return A.ones([1], dtype=dtype)
    half = (window_length - 1) / 2.0
    arg = M.cast(A.range_(-half, half + 0.1, dtype=dtypes.float32), dtype)
    beta = M.cast(beta, dtype)
    ratio = M.divide(arg, M.cast(half, dtype))
    num = M.multiply(beta, M.sqrt(M.maximum(M.subtract(M.cast(1.0, dtype), M.square(ratio)),
                                            M.cast(0.0, dtype))))
    return M.multiply(M.exp(M.subtract(num, beta)), M.divide(bessel_i0e(num), bessel_i0e(beta)))


def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32,
                                 name=None) -> Tensor:
    """The square root of the Kaiser window's normalized running sum, mirrored."""
    dtype = _float_dtype(dtype)
    kaiser = kaiser_window(int(window_length) // 2 + 1, beta, dtype=dtype)
    total = cumsum(kaiser)
    half = M.sqrt(M.divide(total[:-1], total[-1]))
    return A.concat([half, half[::-1]], axis=0)


def vorbis_window(window_length, dtype=dtypes.float32, name=None) -> Tensor:
    """``sin(pi / 2 sin^2(pi (n + 0.5) / N))``."""
    dtype = _float_dtype(dtype)
    arg = M.cast(A.range_(int(window_length)), dtype)
    inner = M.sin(M.multiply(M.cast(math.pi / int(window_length), dtype),
                             M.add(arg, M.cast(0.5, dtype))))
    return M.sin(M.multiply(M.cast(math.pi / 2.0, dtype), M.square(inner)))
