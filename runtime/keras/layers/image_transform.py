"""Projective image transforms (what TensorFlow's ``ImageProjectiveTransformV3`` computes),
written as a composition of ops, for Keras's ``RandomRotation``, ``RandomZoom`` and
``RandomTranslation``.

Each transform ``[a0, a1, a2, b0, b1, b2, c0, c1]`` maps an output pixel ``(x, y)`` to the
input point ``((a0 x + a1 y + a2) / k, (b0 x + b1 y + b2) / k)``, ``k = c0 x + c1 y + 1``.
A point outside the image is first mapped back by ``fill_mode`` (``reflect``: mirrored
about the edges, ``wrap``: tiled, ``nearest``: clamped, ``constant``: kept, so that it
reads ``fill_value``); it is then sampled ``nearest`` (rounded half away from zero) or
``bilinear`` (pixels outside read ``fill_value``). Coordinates are float32.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M


def _truncate(x):
    """C's float -> int conversion (toward zero), as a float."""
    return M.multiply(M.sign(x), M.floor(M.abs(x)))


def _reflect(coord, size: int):
    if size <= 1:
        return A.zeros_like(coord)
    twice = float(2 * size)
    low = M.add(coord, M.multiply(twice, _truncate(M.divide(M.negative(coord), twice))))
    low = M.where(M.less(low, -float(size)), M.add(low, twice), M.subtract(-1.0, low))
    high = M.subtract(coord, M.multiply(twice, _truncate(M.divide(coord, twice))))
    high = M.where(M.greater_equal(high, float(size)), M.subtract(twice - 1.0, high), high)
    coord = M.where(M.less(coord, 0.0), low, M.where(M.greater(coord, size - 1.0), high,
                                                      coord))
    return A.clip_by_value(coord, 0.0, size - 1.0)


def _wrap(coord, size: int):
    if size <= 1:
        return A.zeros_like(coord)
    span = float(size - 1)
    low = M.add(coord, M.multiply(float(size),
                                  M.add(_truncate(M.divide(M.negative(coord), span)), 1.0)))
    high = M.subtract(coord, M.multiply(float(size), _truncate(M.divide(coord, span))))
    coord = M.where(M.less(coord, 0.0), low, M.where(M.greater(coord, span), high, coord))
    return A.clip_by_value(coord, 0.0, span)


def _map(coord, size: int, fill_mode: str):
    if fill_mode == "reflect":
        return _reflect(coord, size)
    if fill_mode == "wrap":
        return _wrap(coord, size)
    if fill_mode == "nearest":
        return A.clip_by_value(coord, 0.0, size - 1.0)
    return coord


def affine_transform(images, transforms, interpolation="bilinear", fill_mode="reflect",
                     fill_value=0.0):
    """``images`` (N, H, W, C) resampled through ``transforms`` (N, 8), float32 coordinates,
    results in the images' dtype."""
    _, height, width, channels = images.shape.as_list()
    if height is None or width is None:
        raise ValueError("affine_transform needs images of known height and width; got "
                         f"{tuple(images.shape.as_list())}")
    channels = A.shape(images)[-1] if channels is None else channels
    t = M.cast(transforms, dtypes.float32)
    coefficient = [A.reshape(t[:, i], [-1, 1, 1]) for i in range(8)]
    ys, xs = np.meshgrid(np.arange(height, dtype=np.float32),
                         np.arange(width, dtype=np.float32), indexing="ij")
    a0, a1, a2, b0, b1, b2, c0, c1 = coefficient
    k = M.add(M.add(M.multiply(c0, xs), M.multiply(c1, ys)), 1.0)
    x = M.divide(M.add(M.add(M.multiply(a0, xs), M.multiply(a1, ys)), a2), k)
    y = M.divide(M.add(M.add(M.multiply(b0, xs), M.multiply(b1, ys)), b2), k)
    x, y = _map(x, width, fill_mode), _map(y, height, fill_mode)
    flat = A.reshape(images, A.stack([-1, channels]) if not isinstance(channels, int)
                     else [-1, channels])
    batch = A.reshape(M.cast(A.range_(A.shape(images)[0]), dtypes.float32), [-1, 1, 1])
    fill = M.cast(fill_value, images.dtype)
    zero_k = M.equal(k, 0.0)

    def read(row, col):
        """Pixels at (row, col), ``fill_value`` where outside the image."""
        inside = M.logical_and(
            M.logical_and(M.greater_equal(row, 0.0), M.less_equal(row, height - 1.0)),
            M.logical_and(M.greater_equal(col, 0.0), M.less_equal(col, width - 1.0)))
        inside = M.logical_and(inside, M.logical_not(zero_k))
        index = M.add(M.multiply(batch, float(height * width)),
                      M.add(M.multiply(A.clip_by_value(row, 0.0, height - 1.0), float(width)),
                            A.clip_by_value(col, 0.0, width - 1.0)))
        values = A.gather(flat, M.cast(index, dtypes.int64))
        return M.where(A.expand_dims(inside, -1), values, fill)

    if interpolation == "nearest":
        return read(_round(y), _round(x))
    x0, y0 = M.floor(x), M.floor(y)
    x1, y1 = M.add(x0, 1.0), M.add(y0, 1.0)
    compute = images.dtype if images.dtype.is_floating else dtypes.float32

    def weighted(w, v):
        return M.multiply(A.expand_dims(M.cast(w, compute), -1), M.cast(v, compute))

    top = M.add(weighted(M.subtract(x1, x), read(y0, x0)),
                weighted(M.subtract(x, x0), read(y0, x1)))
    bottom = M.add(weighted(M.subtract(x1, x), read(y1, x0)),
                   weighted(M.subtract(x, x0), read(y1, x1)))
    out = M.add(weighted(M.subtract(y1, y), top), weighted(M.subtract(y, y0), bottom))
    return out if compute == images.dtype else M.cast(out, images.dtype)


def _round(v):
    """``std::round``: halves away from zero."""
    return M.multiply(M.sign(v), M.floor(M.add(M.abs(v), 0.5)))
