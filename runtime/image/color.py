"""Colour: brightness, contrast, gamma, saturation, hue, and the colour-space conversions.

The conversions are written with tensor ops (as TensorFlow's kernels compute them), so
they run eagerly and staged and have gradients. The adjust_* functions convert integer
images to float32 first and back (saturating) after, as TensorFlow's wrappers do.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.image.convert import checked_image, convert_image_dtype, from_float, to_float
from runtime.ops import array_ops as A, linalg_ops, math_ops as M
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor

_GRAY_WEIGHTS = (0.2989, 0.5870, 0.1140)
_YIQ = np.array([[0.299, 0.59590059, 0.2115], [0.587, -0.27455667, -0.52273617],
                 [0.114, -0.32134392, 0.31119955]], np.float32)
_YUV = np.array([[0.299, -0.14714119, 0.61497538], [0.587, -0.28886916, -0.51496512],
                 [0.114, 0.43601035, -0.10001026]], np.float32)
_YIQ_INVERSE = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
                [0.6208248, -0.64720424, 1.70423049]]
_YUV_INVERSE = [[1, 1, 1], [0, -0.394642334, 2.03206185], [1.13988303, -0.58062185, 0]]


def _channels(image: Tensor, op: str) -> Tensor:
    image = checked_image(convert_to_tensor(image), op, min_rank=1)
    if image.shape[-1] is not None and image.shape[-1] != 3:
        raise ValueError(f"{op}: the last dimension of 'images' must be 3 (RGB), got shape "
                         f"{list(image.shape.as_tuple())}")
    return image


def _float_images(image, op: str) -> Tensor:
    image = _channels(image, op)
    if not image.dtype.is_floating:
        raise TypeError(f"{op} takes float images, got {image.dtype.name}")
    return image


def rgb_to_grayscale(images, name=None) -> Tensor:
    """``tf.image.rgb_to_grayscale``: the luma of each pixel, with a last axis of 1."""
    images = _channels(images, "rgb_to_grayscale")
    flt = convert_image_dtype(images, dtypes.float32)
    weights = convert_to_tensor(np.array(_GRAY_WEIGHTS, np.float32))
    gray = M.reduce_sum(M.multiply(flt, weights), axis=-1, keepdims=True)
    return convert_image_dtype(gray, images.dtype)


def grayscale_to_rgb(images, name=None) -> Tensor:
    """``tf.image.grayscale_to_rgb``: the one channel repeated three times."""
    images = checked_image(images, "grayscale_to_rgb", min_rank=2)
    if images.shape[-1] is not None and images.shape[-1] != 1:
        raise ValueError(f"Last dimension of a grayscale image should be size 1, got shape "
                         f"{list(images.shape.as_tuple())}")
    return A.concat([images, images, images], axis=-1)


def _split_rgb(images):
    return A.unstack(images, axis=-1) if images.shape[-1] == 3 else \
        [images[..., i] for i in range(3)]


def rgb_to_hsv(images, name=None) -> Tensor:
    """``tf.image.rgb_to_hsv``: hue, saturation and value in [0, 1] (float images)."""
    images = _float_images(images, "rgb_to_hsv")
    r, g, b = _split_rgb(images)
    value = M.maximum(M.maximum(r, g), b)
    spread = M.subtract(value, M.minimum(M.minimum(r, g), b))
    zero = A.zeros_like(value)
    saturation = M.where(M.greater(value, 0.0), M.divide(spread, M.where(
        M.greater(value, 0.0), value, A.ones_like(value))), zero)
    norm = M.divide(1.0, M.multiply(6.0, M.where(M.greater(spread, 0.0), spread,
                                                 A.ones_like(spread))))
    hue = M.where(M.equal(r, value), M.multiply(norm, M.subtract(g, b)),
                  M.where(M.equal(g, value), M.add(M.multiply(norm, M.subtract(b, r)), 2.0 / 6),
                          M.add(M.multiply(norm, M.subtract(r, g)), 4.0 / 6)))
    hue = M.where(M.greater(spread, 0.0), hue, zero)
    hue = M.where(M.less(hue, 0.0), M.add(hue, 1.0), hue)
    return A.stack([hue, saturation, value], axis=-1)


def hsv_to_rgb(images, name=None) -> Tensor:
    """``tf.image.hsv_to_rgb``: the inverse of rgb_to_hsv (float images)."""
    images = _float_images(images, "hsv_to_rgb")
    hue, saturation, value = _split_rgb(images)
    chroma = M.multiply(saturation, value)
    low = M.subtract(value, chroma)
    sector = M.multiply(hue, 6.0)
    category = M.cast(sector, dtypes.int32)  # truncation, as the kernel's int cast
    mod2 = M.subtract(sector, M.multiply(2.0, M.floor(M.divide(sector, 2.0))))
    x = M.multiply(chroma, M.subtract(1.0, M.abs(M.subtract(mod2, 1.0))))
    zero = A.zeros_like(x)

    def pick(*per_category):
        out = zero
        for k, v in enumerate(per_category):
            out = M.where(M.equal(category, k), v, out)
        return M.add(out, low)
    return A.stack([pick(chroma, x, zero, zero, x, chroma),
                    pick(x, chroma, chroma, x, zero, zero),
                    pick(zero, zero, x, chroma, chroma, x)], axis=-1)


def _matrix_transform(images, matrix, op: str) -> Tensor:
    """Each pixel's 3 channels times ``matrix`` (a tensordot over the last axis)."""
    images = _float_images(images, op)
    kernel = convert_to_tensor(np.asarray(matrix, images.dtype.numpy_dtype))
    return linalg_ops.tensordot(images, kernel, axes=[[images.shape.rank - 1], [0]])


def rgb_to_yiq(images) -> Tensor:
    return _matrix_transform(images, _YIQ, "rgb_to_yiq")


def yiq_to_rgb(images) -> Tensor:
    return _matrix_transform(images, _YIQ_INVERSE, "yiq_to_rgb")


def rgb_to_yuv(images) -> Tensor:
    return _matrix_transform(images, _YUV, "rgb_to_yuv")


def yuv_to_rgb(images) -> Tensor:
    return _matrix_transform(images, _YUV_INVERSE, "yuv_to_rgb")


def adjust_brightness(image, delta) -> Tensor:
    """``tf.image.adjust_brightness``: adds ``delta`` (in the float [0, 1] scale)."""
    image = convert_to_tensor(image, name="image")
    flt = to_float(image)
    return from_float(M.add(flt, M.cast(delta, flt.dtype)), image.dtype)


def adjust_contrast(images, contrast_factor, name=None) -> Tensor:
    """``tf.image.adjust_contrast``: ``(x - mean) * contrast_factor + mean`` per channel,
    the mean over each image's height and width."""
    images = convert_to_tensor(images, name="images")
    if not (images.dtype.is_integer or images.dtype.is_floating):
        raise TypeError(f"adjust_contrast takes integer or float images, got {images.dtype.name}")
    factor = convert_to_tensor(contrast_factor, dtype=dtypes.float32, name="contrast_factor")
    flt = to_float(images)  # float16 stays: its kernel is missing, as in TensorFlow
    adjusted = apply_op("AdjustContrastv2", [flt, factor], name=name or "AdjustContrastv2")
    return from_float(adjusted, images.dtype)


def adjust_gamma(image, gamma=1, gain=1) -> Tensor:
    """``tf.image.adjust_gamma``: ``gain * image ** gamma`` in the float scale."""
    image = convert_to_tensor(image, name="image")
    flt = to_float(image)
    if isinstance(gamma, (int, float)) and gamma < 0:
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = M.multiply(M.cast(gain, flt.dtype), M.pow(flt, M.cast(gamma, flt.dtype)))
    return from_float(adjusted, image.dtype)


def _adjust_hsv(image, change, op: str) -> Tensor:
    image = _channels(image, op)
    flt = convert_image_dtype(image, dtypes.float32)
    h, s, v = A.unstack(rgb_to_hsv(flt), axis=-1)
    h, s = change(h, s)
    return convert_image_dtype(hsv_to_rgb(A.stack([h, s, v], axis=-1)), image.dtype)


def adjust_saturation(image, saturation_factor, name=None) -> Tensor:
    """``tf.image.adjust_saturation``: scales the HSV saturation, clipped to [0, 1]."""
    factor = M.cast(saturation_factor, dtypes.float32)
    return _adjust_hsv(image, lambda h, s: (h, A.clip_by_value(M.multiply(s, factor), 0.0, 1.0)),
                       "adjust_saturation")


def adjust_hue(image, delta, name=None) -> Tensor:
    """``tf.image.adjust_hue``: rotates the HSV hue by ``delta`` (in [-1, 1])."""
    if isinstance(delta, (int, float)) and not -1 <= delta <= 1:
        raise ValueError("delta must be in the interval [-1, 1]")
    delta = M.cast(delta, dtypes.float32)

    def rotate(h, s):
        h = M.add(h, delta)
        return M.subtract(h, M.floor(h)), s
    return _adjust_hsv(image, rotate, "adjust_hue")
