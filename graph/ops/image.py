"""Image ops (tf.image): AdjustContrastv2.

Images are ``[..., height, width, channels]``; TensorFlow's CPU kernel takes
float32 only (the Python wrapper converts other dtypes first).
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import float16, float32
from graph.errors import InvalidArgumentError, NotFoundError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op


def _adjust_contrast_infer(inputs, attrs):
    expect_arity("AdjustContrastv2", inputs, 2)
    images, factor = inputs
    if images.dtype is float16:
        raise NotFoundError(message="Could not find device for node: {{node AdjustContrastv2}} "
                                    "= AdjustContrastv2[T=DT_HALF]: its CPU kernel takes float32")
    if images.dtype is not float32 or factor.dtype is not float32:
        raise InvalidArgumentError(
            message=f"AdjustContrastv2 takes float32 images and contrast_factor, got "
                    f"{images.dtype.name} and {factor.dtype.name}")
    rank = images.shape.rank
    if rank is not None and rank < 3:
        raise InvalidArgumentError(
            message=f"input must be at least 3-D, got shape{list(images.shape.as_tuple())}")
    if factor.shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message=f"contrast_factor must be scalar: {list(factor.shape.as_tuple())}")
    return [TensorType(float32, images.shape)]


def _adjust_contrast(images, factor):
    """(x - mean) * factor + mean, the mean per channel over height and width."""
    images = np.asarray(images)
    if images.ndim < 3:
        raise InvalidArgumentError(
            message=f"input must be at least 3-D, got shape{list(images.shape)}")
    mean = np.mean(images, axis=(-3, -2), keepdims=True, dtype=np.float32)
    return ((images - mean) * np.float32(factor) + mean).astype(np.float32, copy=False)


register_op("AdjustContrastv2", _adjust_contrast_infer, _adjust_contrast)
