"""Resizing with a sampling kernel: ``antialias=True`` and the lanczos/gaussian/mitchell methods.

TensorFlow resizes these with its ScaleAndTranslate kernel: each output pixel is a
weighted sum of the input pixels under a kernel centred on its sample point, the kernel
widened by the downscale factor when antialiasing, the weights normalized. Along one
axis that is a fixed (output x input) matrix, computed here in float32 exactly as the
kernel computes its spans, so a resize is two constant matrix products (height, then
width): linear, and differentiable by the products' own gradients. The sizes must be
known while tracing, as they are in practice.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import linalg_ops, math_ops as M
from runtime.ops.core import constant

f32 = np.float32


def _triangle(x):
    return np.where(x < 1, 1 - x, 0).astype(f32)


def _keys_cubic(x):
    far = ((f32(-0.5) * x + f32(2.5)) * x - f32(4.0)) * x + f32(2.0)
    near = ((f32(1.5) * x - f32(2.5)) * x) * x + f32(1.0)
    return np.where(x >= 2, 0, np.where(x >= 1, far, near)).astype(f32)


def _mitchell_cubic(x):
    far = ((f32(-7.0 / 18.0) * x + f32(2.0)) * x - f32(10.0 / 3.0)) * x + f32(16.0 / 9.0)
    near = ((f32(7.0 / 6.0) * x - f32(2.0)) * x) * x + f32(8.0 / 9.0)
    return np.where(x >= 2, 0, np.where(x >= 1, far, near)).astype(f32)


def _lanczos(radius: int):
    def kernel(x):
        with np.errstate(all="ignore"):
            px = f32(np.pi) * x
            value = f32(radius) * np.sin(px) * np.sin(px / f32(radius)) / (px * px)
        return np.where(x > radius, 0, np.where(x <= f32(1e-3), 1, value)).astype(f32)
    return kernel


def _gaussian(x, radius=f32(1.5)):
    sigma = radius / f32(3.0)
    return np.where(x >= radius, 0, np.exp(-x * x / (f32(2.0) * sigma * sigma))).astype(f32)


# kernel type -> (function of |x|, radius), as TensorFlow's sampling kernels
KERNELS = {"triangle": (_triangle, 1.0), "keyscubic": (_keys_cubic, 2.0),
           "mitchellcubic": (_mitchell_cubic, 2.0), "lanczos3": (_lanczos(3), 3.0),
           "lanczos5": (_lanczos(5), 5.0), "gaussian": (_gaussian, 1.5)}


def weights(kernel_type: str, input_size: int, output_size: int, antialias: bool) -> np.ndarray:
    """The (output_size, input_size) float32 matrix of one axis of a resize."""
    kernel, radius = KERNELS[kernel_type]
    scale = f32(output_size) / f32(input_size)
    inv_scale = f32(1.0) / scale
    kernel_scale = max(inv_scale, f32(1.0)) if antialias else f32(1.0)
    reach = f32(radius) * kernel_scale
    out = np.zeros((output_size, input_size), f32)
    for x in range(output_size):
        sample = (f32(x) + f32(0.5)) * inv_scale
        if sample < 0 or sample > input_size:  # (outside the source: an empty span)
            continue
        start = min(max(int(np.ceil(sample - reach - f32(0.5))), 0), input_size - 1)
        end = min(max(int(np.floor(sample + reach - f32(0.5))), 0), input_size - 1) + 1
        source = np.arange(start, end, dtype=f32)
        w = kernel(np.abs((source + f32(0.5) - sample) / kernel_scale).astype(f32))
        total = f32(np.sum(w, dtype=f32))
        if abs(total) >= f32(1000.0) * np.finfo(f32).tiny:
            out[x, start:end] = w * (f32(1.0) / total)
    return out


def resize(images, height: int, width: int, new_height: int, new_width: int,
           kernel_type: str, antialias: bool):
    """A 4-D float batch resized to (new_height, new_width) with ``kernel_type``."""
    images = M.cast(images, dtypes.float32) if images.dtype != dtypes.float32 else images
    rows = constant(weights(kernel_type, height, new_height, antialias))
    cols = constant(weights(kernel_type, width, new_width, antialias))
    return linalg_ops.einsum("ph,bhwc,qw->bpqc", rows, images, cols)
