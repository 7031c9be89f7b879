"""``tf.image.convert_image_dtype`` and the float32 round trip the adjust_* ops make.

Integer images hold [0, MAX]; float images hold [0, 1]. Converting scales between
the two (integers to integers by a power-of-two factor), as TensorFlow does.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor


def _saturate_cast(x: Tensor, dtype) -> Tensor:
    """Clamps ``x`` into ``dtype``'s range before casting (no wrap-around)."""
    if x.dtype.is_floating or float(dtype.min) > float(x.dtype.min):
        x = M.maximum(x, M.cast(dtype.min, x.dtype))
    if x.dtype.is_floating or float(dtype.max) < float(x.dtype.max):
        x = M.minimum(x, M.cast(dtype.max, x.dtype))
    return M.cast(x, dtype)


def convert_image_dtype(image, dtype, saturate: bool = False, name=None) -> Tensor:
    """``tf.image.convert_image_dtype``: rescales values to the range of ``dtype``."""
    image = convert_to_tensor(image, name="image")
    dtype = as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer) or dtype.is_complex:
        raise AttributeError("dtype must be either floating point or integer")
    if not (image.dtype.is_floating or image.dtype.is_integer) or image.dtype.is_complex:
        raise AttributeError("image dtype must be either floating point or integer")
    if image.dtype == dtype:
        return image
    cast = _saturate_cast if saturate else M.cast
    if image.dtype.is_integer and dtype.is_integer:
        scale_in, scale_out = int(image.dtype.max), int(dtype.max)
        if scale_in > scale_out:
            scale = (scale_in + 1) // (scale_out + 1)
            return cast(M.floordiv(image, M.cast(scale, image.dtype)), dtype)
        scale = (scale_out + 1) // (scale_in + 1)
        return M.multiply(cast(image, dtype), M.cast(scale, dtype))
    if image.dtype.is_floating and dtype.is_floating:
        return M.cast(image, dtype)
    if image.dtype.is_integer:  # to float: [0, MAX] -> [0, 1]
        return M.multiply(M.cast(image, dtype), M.cast(1.0 / float(image.dtype.max), dtype))
    scaled = M.multiply(image, M.cast(float(dtype.max) + 0.5, image.dtype))
    return cast(scaled, dtype)


def to_float(image: Tensor) -> Tensor:
    """float16/float32 images as they are, others converted to float32 (as the ops take)."""
    if image.dtype in (dtypes.float16, dtypes.float32):
        return image
    return convert_image_dtype(image, dtypes.float32)


def from_float(image: Tensor, dtype) -> Tensor:
    """Back to the caller's dtype, saturating integers."""
    return convert_image_dtype(image, dtype, saturate=True)


def checked_image(image, op: str, min_rank: int = 3) -> Tensor:
    """``image`` as a tensor of known rank >= ``min_rank`` (TensorFlow's ValueError)."""
    image = convert_to_tensor(image, name="image")
    rank = image.shape.rank
    if rank is None:
        raise ValueError(f"{op}: 'image' (shape <unknown>) must have a known rank")
    if rank < min_rank:
        raise ValueError(f"'image' (shape {list(image.shape.as_tuple())}) must be at least "
                         f"{min_rank}-dimensional.")
    return image
