"""Flips, rotations, crops, pads and resizes of ``[height, width, channels]`` images and
``[batch, height, width, channels]`` batches.

Crops and pads take Python ints and need the image's height and width known statically
(TensorFlow's ValueErrors for bad boxes are raised while tracing). Resizing runs the
resize ops of graph/ops/image.py with TensorFlow 2's half-pixel centers.
"""
from __future__ import annotations

import enum

import numpy as np

from graph import dtypes
from runtime.image import scale_translate
from runtime.image.convert import checked_image
from runtime.ops import array_ops as A, math_ops as M, nn_ops
from runtime.ops.control_ops import get_static_value
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def _image(image, op: str) -> Tensor:
    image = checked_image(image, op)
    if image.shape.rank > 4:
        raise ValueError(f"'image' (shape {list(image.shape.as_tuple())}) must be either 3 or "
                         f"4 dimensions.")
    return image


def _as_batch(image, op: str):
    """The image as a 4-D batch and whether it was one."""
    image = _image(image, op)
    return (image, True) if image.shape.rank == 4 else (A.expand_dims(image, 0), False)


def _unbatch(images: Tensor, was_batch: bool) -> Tensor:
    return images if was_batch else A.squeeze(images, axis=[0])


def _hw(image: Tensor, op: str) -> tuple[int, int]:
    height, width = image.shape[-3], image.shape[-2]
    if height is None or width is None:
        raise ValueError(f"{op} needs the image's height and width known statically, got "
                         f"shape {list(image.shape.as_tuple())}")
    return height, width


def flip_left_right(image) -> Tensor:
    """``tf.image.flip_left_right``: reverses the width axis."""
    image = _image(image, "flip_left_right")
    return A.reverse(image, [image.shape.rank - 2])


def flip_up_down(image) -> Tensor:
    """``tf.image.flip_up_down``: reverses the height axis."""
    image = _image(image, "flip_up_down")
    return A.reverse(image, [image.shape.rank - 3])


def transpose(image, name=None) -> Tensor:
    """``tf.image.transpose``: swaps height and width."""
    image = _image(image, "transpose")
    return A.transpose(image, [1, 0, 2] if image.shape.rank == 3 else [0, 2, 1, 3])


def rot90(image, k=1, name=None) -> Tensor:
    """``tf.image.rot90``: ``k`` quarter turns counter-clockwise (``k`` a Python int)."""
    image = _image(image, "rot90")
    static_k = get_static_value(k) if isinstance(k, Tensor) else k
    if static_k is None:
        raise ValueError("rot90 needs `k` known while tracing (a Python int or a constant)")
    k = int(static_k)
    h_axis = image.shape.rank - 3
    k %= 4
    if k == 1:
        return transpose(A.reverse(image, [h_axis + 1]))
    if k == 2:
        return A.reverse(image, [h_axis, h_axis + 1])
    if k == 3:
        return A.reverse(transpose(image), [h_axis + 1])
    return image


def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """``tf.image.crop_to_bounding_box``: the ``target`` box whose top-left is ``offset``."""
    image = _image(image, "crop_to_bounding_box")
    height, width = _hw(image, "crop_to_bounding_box")
    for label, value, positive in (("offset_width", offset_width, False),
                                   ("offset_height", offset_height, False),
                                   ("target_width", target_width, True),
                                   ("target_height", target_height, True)):
        if value < 0 or (positive and value == 0):
            raise ValueError(f"{label} must be {'>' if positive else '>='} 0.")
    if width < target_width + offset_width:
        raise ValueError("width must be >= target + offset.")
    if height < target_height + offset_height:
        raise ValueError("height must be >= target + offset.")
    lead = image.shape.rank - 3
    return A.slice(image, [0] * lead + [offset_height, offset_width, 0],
                   [-1] * lead + [target_height, target_width, -1])


def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """``tf.image.pad_to_bounding_box``: zeros around the image, its top-left at ``offset``."""
    image = _image(image, "pad_to_bounding_box")
    height, width = _hw(image, "pad_to_bounding_box")
    after_h = target_height - offset_height - height
    after_w = target_width - offset_width - width
    for label, value in (("offset_height", offset_height), ("offset_width", offset_width)):
        if value < 0:
            raise ValueError(f"{label} must be >= 0")
    if after_w < 0:
        raise ValueError("width must be <= target - offset")
    if after_h < 0:
        raise ValueError("height must be <= target - offset")
    lead = [[0, 0]] * (image.shape.rank - 3)
    return A.pad(image, lead + [[offset_height, after_h], [offset_width, after_w], [0, 0]])


def resize_with_crop_or_pad(image, target_height, target_width):
    """``tf.image.resize_image_with_crop_or_pad``: centrally crops and/or zero-pads."""
    image = _image(image, "resize_with_crop_or_pad")
    height, width = _hw(image, "resize_with_crop_or_pad")
    if target_width <= 0:
        raise ValueError("target_width must be > 0.")
    if target_height <= 0:
        raise ValueError("target_height must be > 0.")
    dh, dw = target_height - height, target_width - width
    cropped = crop_to_bounding_box(image, max(-dh // 2, 0), max(-dw // 2, 0),
                                   min(target_height, height), min(target_width, width))
    return pad_to_bounding_box(cropped, max(dh // 2, 0), max(dw // 2, 0), target_height,
                               target_width)


def central_crop(image, central_fraction):
    """``tf.image.central_crop``: the central ``central_fraction`` of height and width."""
    image = _image(image, "central_crop")
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return image
    height, width = _hw(image, "central_crop")
    top = int((height - height * central_fraction) / 2)
    left = int((width - width * central_fraction) / 2)
    return crop_to_bounding_box(image, top, left, height - 2 * top, width - 2 * left)


class ResizeMethod(str, enum.Enum):
    """``tf.image.ResizeMethod``: the interpolation of ``tf.image.resize``."""
    BILINEAR = "bilinear"
    NEAREST_NEIGHBOR = "nearest"
    BICUBIC = "bicubic"
    AREA = "area"
    LANCZOS3 = "lanczos3"
    LANCZOS5 = "lanczos5"
    GAUSSIAN = "gaussian"
    MITCHELLCUBIC = "mitchellcubic"

    def __str__(self):
        return self.value


_RESIZE_OPS = {"bilinear": "ResizeBilinear", "nearest": "ResizeNearestNeighbor",
               "bicubic": "ResizeBicubic", "area": "ResizeArea"}


def _size_tensor(size) -> Tensor:
    size = convert_to_tensor(size, dtype_hint=dtypes.int32, name="size")
    if size.shape.rank is not None and size.shape.as_tuple() != (2,):
        raise ValueError("'size' must be a 1-D Tensor of 2 elements: new_height, new_width")
    if not size.dtype.is_integer:
        raise TypeError(f"'size' must be an integer tensor, got {size.dtype.name}")
    return size if size.dtype == dtypes.int32 else M.cast(size, dtypes.int32)


def resize(images, size, method=ResizeMethod.BILINEAR, preserve_aspect_ratio=False,
           antialias=False, name=None) -> Tensor:
    """``tf.image.resize``: bilinear, nearest, bicubic or area resampling (half-pixel
    centers); the result is float32 except with ``nearest``, which keeps the dtype."""
    method = str(getattr(method, "value", method)).lower()
    if method not in _RESIZE_OPS and method not in scale_translate.KERNELS:
        raise ValueError(f"Resize method is not implemented: [{method}]")
    images, was_batch = _as_batch(images, "resize")
    size = _size_tensor(size)
    kernel = _SAMPLING_KERNELS.get(method, method) if antialias else method
    if kernel in scale_translate.KERNELS:  # (TensorFlow's ScaleAndTranslate cases)
        return _unbatch(_resize_with_kernel(images, size, kernel, antialias, preserve_aspect_ratio),
                        was_batch)
    if preserve_aspect_ratio:
        height, width = _hw(images, "resize(preserve_aspect_ratio=True)")
        known = get_static_value(size)
        if known is not None:  # computed now, so the result's shape is static (as in TF)
            scale = min(np.float32(known[0]) / np.float32(height),
                        np.float32(known[1]) / np.float32(width))
            size = convert_to_tensor(np.round(scale * np.array([height, width], np.float32))
                                     .astype(np.int32))
        else:
            target = M.cast(size, dtypes.float32)
            scale = M.minimum(M.divide(target[0], float(height)),
                              M.divide(target[1], float(width)))
            size = M.cast(M.round(M.multiply(scale, np.array([height, width], np.float32))),
                          dtypes.int32)
    half_pixel = method != "area"
    resized = apply_op(_RESIZE_OPS[method], [images, size],
                       attrs={"align_corners": False, "half_pixel_centers": half_pixel},
                       name=name or _RESIZE_OPS[method])
    return _unbatch(resized, was_batch)


# the kernel an antialiased resize samples with (area and nearest ignore ``antialias``)
_SAMPLING_KERNELS = {"bilinear": "triangle", "bicubic": "keyscubic"}


def _resize_with_kernel(images, size, kernel: str, antialias: bool, preserve_aspect_ratio):
    height, width = _hw(images, f"resize(method={kernel!r}, antialias={antialias})")
    target = get_static_value(size)
    if target is None:
        raise ValueError(f"resize with antialias=True or method={kernel!r} needs the new size "
                         "known while tracing (a constant, not a tensor computed in the graph)")
    new_height, new_width = (int(v) for v in target)
    if preserve_aspect_ratio:
        scale = min(np.float32(new_height) / np.float32(height),
                    np.float32(new_width) / np.float32(width))
        new_height = int(np.round(scale * np.float32(height)))
        new_width = int(np.round(scale * np.float32(width)))
    return scale_translate.resize(images, height, width, new_height, new_width, kernel,
                                  antialias)


def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False) -> Tensor:
    """``tf.image.resize_with_pad``: resizes keeping the aspect ratio, then zero-pads to the
    target, the image centered."""
    image, was_batch = _as_batch(image, "resize_with_pad")
    height, width = _hw(image, "resize_with_pad")
    if target_width <= 0:
        raise ValueError("target_width must be > 0.")
    if target_height <= 0:
        raise ValueError("target_height must be > 0.")
    ratio = max(np.float32(width) / np.float32(target_width),
                np.float32(height) / np.float32(target_height))
    exact_h, exact_w = np.float32(height) / ratio, np.float32(width) / ratio
    resized_h, resized_w = int(np.floor(exact_h)), int(np.floor(exact_w))
    # The padding centers the unrounded size, as TensorFlow computes it.
    pad_h = max(0, int(np.floor((np.float32(target_height) - exact_h) / 2)))
    pad_w = max(0, int(np.floor((np.float32(target_width) - exact_w) / 2)))
    resized = resize(image, [resized_h, resized_w], method=method, antialias=antialias)
    padded = pad_to_bounding_box(resized, pad_h, pad_w, target_height, target_width)
    return _unbatch(padded, was_batch)


def extract_patches(images, sizes, strides, rates, padding, name=None) -> Tensor:
    """``tf.image.extract_patches``: every ``sizes`` window (dilated by ``rates``) of a 4-D
    batch, flattened into the depth axis, as TensorFlow's ExtractImagePatches."""
    images = convert_to_tensor(images, name="images")
    if images.shape.rank != 4:
        raise ValueError(f"input must be 4-dimensional, got {images.shape.rank}")
    _, kh, kw, _ = sizes
    _, sh, sw, _ = strides
    _, rh, rw, _ = rates
    channels = images.shape[3]
    if channels is None:
        raise ValueError("extract_patches needs the channels known statically")
    # One-hot filters pick each (row, column, channel) of the window into its own output.
    work = images if images.dtype.is_floating else M.cast(images, dtypes.float64)
    eye = np.eye(kh * kw * channels, dtype=work.dtype.numpy_dtype)
    filters = eye.reshape(kh, kw, channels, kh * kw * channels)
    patches = nn_ops.conv2d(work, convert_to_tensor(filters), strides=[1, sh, sw, 1],
                            padding=padding, dilations=[1, rh, rw, 1])
    return patches if work is images else M.cast(patches, images.dtype)
