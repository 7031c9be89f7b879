"""``tf.image``: adjust_contrast (what the autodiff guide meets).

Like TensorFlow's wrapper, images other than float16/float32 are converted to float32
for the kernel (integers scaled to [0, 1]) and back to their dtype (integers scaled and
saturated) afterwards. AdjustContrastv2 has no gradient, as in TensorFlow.
"""
from __future__ import annotations

from graph import dtypes
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def _to_float32(x: Tensor) -> Tensor:
    if x.dtype.is_integer:
        return M.multiply(M.cast(x, dtypes.float32), 1.0 / float(x.dtype.max))
    return x if x.dtype in (dtypes.float16, dtypes.float32) else M.cast(x, dtypes.float32)


def _from_float32(x: Tensor, dtype) -> Tensor:
    if dtype.is_integer:  # scale by max + 0.5, then saturate into the integer range
        scaled = M.multiply(x, float(dtype.max) + 0.5)
        return M.cast(M.minimum(M.maximum(scaled, float(dtype.min)), float(dtype.max)), dtype)
    return M.cast(x, dtype) if dtype is not dtypes.float32 else x


def adjust_contrast(images, contrast_factor, name=None) -> Tensor:
    """``tf.image.adjust_contrast``: ``(x - mean) * contrast_factor + mean`` per channel,
    the mean over each image's height and width."""
    images = convert_to_tensor(images, name="images")
    if not (images.dtype.is_integer or images.dtype.is_floating):
        raise TypeError(f"adjust_contrast takes integer or float images, got {images.dtype.name}")
    factor = convert_to_tensor(contrast_factor, dtype=dtypes.float32, name="contrast_factor")
    adjusted = apply_op("AdjustContrastv2", [_to_float32(images), factor],
                        name=name or "AdjustContrastv2")
    return _from_float32(adjusted, images.dtype)

