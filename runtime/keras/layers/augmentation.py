"""Keras 3's image augmentation and resizing layers (channels-last images, one ``(H, W, C)``
image or a batch ``(N, H, W, C)``): ``RandomFlip``, ``RandomRotation``, ``RandomZoom``,
``RandomTranslation``, ``RandomContrast``, ``RandomBrightness``, ``RandomCrop``,
``CenterCrop`` and ``Resizing``.

As in Keras 3, ``training`` defaults to True (calling the layer augments); with
``training=False`` the random layers return their input. Each draws its random numbers from
its own ``SeedGenerator`` with Keras's draws in Keras's order, so a seeded layer gives
TensorFlow's values call after call, eagerly, in a tf.function and in a ``tf.data`` map
(the generator's state is a variable, stepped by each call). For an unbatched image the
draw is made for a single image, then applied to it as a batch of one.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.image import geometry
from runtime.keras.backend import image_data_format
from runtime.keras.layers.base import Layer
from runtime.keras.layers.image_transform import affine_transform
from runtime.keras.random import SeedGenerator, make_default_seed, uniform
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor

HORIZONTAL, VERTICAL = "horizontal", "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"


def _data_format(data_format) -> str:
    data_format = (data_format or image_data_format()).lower()
    if data_format != "channels_last":
        raise NotImplementedError("only channels_last images are supported here")
    return data_format


def _factor_range(factor, bounds):
    """Keras's ``factor``: a number ``f`` is ``(-f, f)`` clipped to ``bounds``; a pair is
    sorted. Both must lie within ``bounds``."""
    message = ("The `factor` argument should be a number (or a list of two numbers) in the "
               f"range [{bounds[0]}, {bounds[1]}]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > bounds[1] or factor[1] < bounds[0]:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        if factor < bounds[0] or factor > bounds[1]:
            raise ValueError(message)
        factor = abs(factor)
        return max(-factor, bounds[0]), factor
    raise ValueError(message)


def _per_image_uniform(images, seed, **kwargs):
    """One draw per image: shape ``(N, 1, 1, 1)`` for a batch, ``(1, 1, 1)`` for one image."""
    if images.shape.rank == 3:
        return uniform([1, 1, 1], seed=seed, **kwargs)
    if images.shape.rank == 4:
        draw = uniform(A.stack([A.shape(images)[0], 1, 1, 1]), seed=seed, **kwargs)
        return A.reshape(draw, [-1, 1, 1, 1])  # (static shape: broadcasts keep the image's)
    raise ValueError(f"Expected the input image to be rank 3 or 4. Received "
                     f"inputs.shape={tuple(images.shape.as_list())}")


class _ImageLayer(Layer):
    """Draw a transformation for the input (3-D or 4-D), apply it to a batch."""

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _data_format(data_format)

    def call(self, inputs, training=True):
        images = convert_to_tensor(inputs)
        if images.shape.rank not in (3, 4):
            raise ValueError(f"Expected image tensor to have rank 3 (single image) or 4 "
                             f"(batch of images). Received: data.shape="
                             f"{tuple(images.shape.as_list())}")
        transformation = self._transformation(images, training)
        if images.shape.rank == 4:
            return self._transform(images, transformation, training)
        return A.squeeze(self._transform(A.expand_dims(images, 0), transformation, training),
                         [0])

    def _transformation(self, images, training):
        return None

    def get_config(self):
        config = super().get_config()
        config.update(data_format=self.data_format)
        return config


class RandomFlip(_ImageLayer):
    """Each image flipped (left-right and/or up-down, per ``mode``) with probability 1/2."""

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.seed, self.mode = seed, mode
        self.generator = SeedGenerator(seed)

    def _transformation(self, images, training):
        if not training:
            return None
        return M.less_equal(_per_image_uniform(images, self.generator), 0.5)

    def _transform(self, images, flips, training):
        images = M.cast(images, self.dtype) if images.dtype != self.dtype else images
        if not training or flips is None:
            return images
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            images = M.where(flips, A.reverse(images, [2]), images)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            images = M.where(flips, A.reverse(images, [1]), images)
        return images

    def get_config(self):
        config = super().get_config()
        config.update(seed=self.seed, mode=self.mode)
        return config


class RandomContrast(_ImageLayer):
    """``(x - mean) * c + mean`` per image and channel, ``c`` drawn from
    ``[1 - lower, 1 + upper]``, clipped to ``value_range``."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (0, 1))
        self.value_range, self.seed = value_range, seed
        self.generator = SeedGenerator(seed)

    def _transformation(self, images, training):
        if not training:
            return None
        return _per_image_uniform(images, self.generator, minval=1.0 - self.factor[0],
                                  maxval=1.0 + self.factor[1], dtype=self.dtype)

    def _transform(self, images, factor, training):
        if not training:
            return images
        mean = M.reduce_mean(M.reduce_mean(images, axis=-3, keepdims=True), axis=-2,
                             keepdims=True)
        out = M.add(M.multiply(M.subtract(images, mean), factor), mean)
        return A.clip_by_value(out, M.cast(self.value_range[0], out.dtype),
                               M.cast(self.value_range[1], out.dtype))

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, value_range=self.value_range, seed=self.seed)
        return config


class RandomBrightness(_ImageLayer):
    """A delta drawn from ``factor * (value_range width)`` added to each image, clipped to
    ``value_range``."""

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(**kwargs)
        self.factor = _factor_range(factor, (-1, 1))
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self.value_range, self.seed = sorted(value_range), seed
        self.generator = SeedGenerator(seed)

    def _transformation(self, images, training):
        if not training:
            return None
        delta = _per_image_uniform(images, self.generator, minval=self.factor[0],
                                   maxval=self.factor[1])
        return M.multiply(delta, float(self.value_range[1] - self.value_range[0]))

    def _transform(self, images, delta, training):
        if not training:
            return images
        out = M.add(images, M.cast(delta, images.dtype))
        return A.clip_by_value(out, M.cast(self.value_range[0], out.dtype),
                               M.cast(self.value_range[1], out.dtype))

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor, value_range=self.value_range, seed=self.seed)
        return config


_FILL_MODES = ("reflect", "wrap", "constant", "nearest")
_INTERPOLATIONS = ("nearest", "bilinear")


def _zeros(n):
    return A.zeros(A.stack([n, 1]), dtypes.float32)


class _AffineLayer(_ImageLayer):
    """A random affine transform per image, sampled with ``fill_mode`` / ``interpolation``."""

    def __init__(self, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if fill_mode not in _FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      f"{_FILL_MODES}.")
        if interpolation not in _INTERPOLATIONS:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of "
                                      f"one {_INTERPOLATIONS}.")
        self.fill_mode, self.interpolation, self.fill_value = fill_mode, interpolation, \
            fill_value
        self.seed = seed
        self.generator = SeedGenerator(seed)

    def _transform(self, images, transforms, training):
        images = M.cast(images, self.dtype) if images.dtype != self.dtype else images
        if not training or transforms is None:
            return images
        return affine_transform(images, transforms, self.interpolation, self.fill_mode,
                                self.fill_value)

    def get_config(self):
        config = super().get_config()
        config.update(fill_mode=self.fill_mode, interpolation=self.interpolation,
                      seed=self.seed, fill_value=self.fill_value)
        return config


def _count(images):
    return 1 if images.shape.rank == 3 else A.shape(images)[0]


def _per_image(images, *dims):
    """The shape of one draw per image: ``(count, *dims)``."""
    n = _count(images)
    return (n, *dims) if isinstance(n, int) else A.stack([n, *dims])


class RandomRotation(_AffineLayer):
    """Each image rotated about its center by an angle drawn from ``factor * 360`` degrees
    (``factor`` a fraction of a full turn)."""

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.factor = _factor_range(factor, (-1, 1))

    def _transformation(self, images, training):
        if not training:
            return None
        angle = uniform(_per_image(images),
                        minval=self.factor[0] * 360.0, maxval=self.factor[1] * 360.0,
                        seed=self.generator)
        angle = M.multiply(angle, M.cast(np.pi / 180.0, dtypes.float32))
        height, width = _static_hw(images, "RandomRotation")
        cx, cy = 0.5 * (width - 1.0), 0.5 * (height - 1.0)
        cos, sin = M.cos(angle), M.sin(angle)
        a2 = M.subtract(M.subtract(cx, M.multiply(cx, cos)), M.multiply(cy, M.negative(sin)))
        b2 = M.subtract(M.subtract(cy, M.multiply(cx, sin)), M.multiply(cy, cos))
        columns = [cos, M.negative(sin), a2, sin, cos, b2]
        matrix = A.concat([A.expand_dims(c, 1) for c in columns] + [_zeros(A.shape(angle)[0]),
                                                                   _zeros(A.shape(angle)[0])],
                          axis=1)
        return matrix

    def get_config(self):
        config = super().get_config()
        config.update(factor=self.factor)
        return config


def _zoom_or_shift_range(factor, name, message, low_open):
    """``factor`` (a number ``f``: ``(-f, f)``) checked against ``(-1, 1]`` (zoom) or
    ``[-1, 1]`` (translation)."""
    def check(value):
        if value > 1.0 or (value <= -1.0 if low_open else value < -1.0):
            raise ValueError(message + f"Received: input_number={value}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message + f"Received: {name}={factor}")
        check(factor[0])
        check(factor[1])
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)):
        check(factor)
        return -abs(factor), abs(factor)
    raise ValueError(message + f"Received: {name}={factor}")


class RandomZoom(_AffineLayer):
    """Each image zoomed about its center: ``1 + height_factor`` (and ``1 + width_factor``,
    else the same draw) is the scale of the sampled region (positive: zoom out)."""

    _MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a "
                "list of two numbers) in the range (-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _zoom_or_shift_range(
            height_factor, "height_factor", self._MESSAGE, True)
        if width_factor is not None:
            self.width_lower, self.width_upper = _zoom_or_shift_range(
                width_factor, "width_factor", self._MESSAGE, True)

    def _transformation(self, images, training):
        if not training:
            return None
        shape = _per_image(images, 1)
        height_zoom = uniform(shape, minval=1.0 + self.height_lower,
                              maxval=1.0 + self.height_upper, seed=self.generator)
        width_zoom = height_zoom if self.width_factor is None else uniform(
            shape, minval=1.0 + self.width_lower, maxval=1.0 + self.width_upper,
            seed=self.generator)
        height, width = _static_hw(images, "RandomZoom")
        zeros = A.zeros_like(width_zoom)
        x_offset = M.multiply((width - 1.0) / 2.0, M.subtract(1.0, width_zoom))
        y_offset = M.multiply((height - 1.0) / 2.0, M.subtract(1.0, height_zoom))
        return A.concat([width_zoom, zeros, x_offset, zeros, height_zoom, y_offset, zeros,
                         zeros], axis=1)

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config


class RandomTranslation(_AffineLayer):
    """Each image shifted by fractions of its height and width drawn from the factors."""

    _MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in the "
                "range [-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None,
                 **kwargs):
        super().__init__(fill_mode, interpolation, seed, fill_value, data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = _zoom_or_shift_range(
            height_factor, "height_factor", self._MESSAGE, False)
        self.width_lower, self.width_upper = _zoom_or_shift_range(
            width_factor, "width_factor", self._MESSAGE, False)

    def _transformation(self, images, training):
        if not training:
            return None
        shape = _per_image(images, 1)
        height, width = _static_hw(images, "RandomTranslation")
        dy = M.multiply(uniform(shape, minval=self.height_lower, maxval=self.height_upper,
                                seed=self.generator), float(height))
        dx = M.multiply(uniform(shape, minval=self.width_lower, maxval=self.width_upper,
                                seed=self.generator), float(width))
        ones, zeros = A.ones_like(dx), A.zeros_like(dx)
        return A.concat([ones, zeros, M.negative(dx), zeros, ones, M.negative(dy), zeros,
                         zeros], axis=1)

    def get_config(self):
        config = super().get_config()
        config.update(height_factor=self.height_factor, width_factor=self.width_factor)
        return config


def _static_hw(images, layer):
    height, width = images.shape.as_list()[-3:-1]
    if height is None or width is None:
        raise ValueError(f"{layer} requires the input to have a fully defined height and "
                         f"width. Received: images.shape={tuple(images.shape.as_list())}")
    return height, width


def _aspect_crop_box(height, width, target_height, target_width):
    """The centered box of the target's aspect ratio (Keras's integer arithmetic)."""
    crop_height = max(min(height, int(float(width * target_height) / target_width)), 1)
    crop_width = max(min(width, int(float(height * target_width) / target_height)), 1)
    return (int(float(height - crop_height) / 2), int(float(width - crop_width) / 2),
            crop_height, crop_width)


def _resize(images, size, interpolation="bilinear", antialias=False):
    return geometry.resize(images, size, method=interpolation, antialias=antialias)


class RandomCrop(_ImageLayer):
    """A ``height × width`` window at a random place when training (an image too small is
    center-cropped to the aspect ratio and resized); the input unchanged otherwise."""

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        self.seed = seed if seed is not None else make_default_seed()
        self.generator = SeedGenerator(seed)

    def _transformation(self, images, training):
        height, width = _static_hw(images, "RandomCrop")
        if training and height > self.height and width > self.width:
            h = M.cast(uniform((), 0, float(height - self.height + 1), seed=self.generator),
                       dtypes.int32)
            w = M.cast(uniform((), 0, float(width - self.width + 1), seed=self.generator),
                       dtypes.int32)
            return h, w
        return _aspect_crop_box(height, width, self.height, self.width)[:2]

    def _transform(self, images, start, training):
        if not training:
            return images
        images = M.cast(images, self.dtype) if images.dtype != self.dtype else images
        h, w = start
        cropped = images[:, h:h + self.height, w:w + self.width, :]
        if isinstance(h, int) and tuple(cropped.shape.as_list()[1:3]) == (self.height,
                                                                          self.width):
            return cropped
        return M.cast(_resize(cropped, (self.height, self.width)), self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, seed=self.seed)
        return config


class CenterCrop(_ImageLayer):
    """The central ``height × width`` window; an image smaller than that is center-cropped to
    the target's aspect ratio and resized (bilinear)."""

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = height, width

    def _transform(self, images, transformation, training):
        images = M.cast(images, self.dtype) if images.dtype != self.dtype else images
        height, width = _static_hw(images, "CenterCrop")
        if height >= self.height and width >= self.width:
            h, w = (height - self.height) // 2, (width - self.width) // 2
            return images[:, h:h + self.height, w:w + self.width, :]
        h, w, crop_height, crop_width = _aspect_crop_box(height, width, self.height, self.width)
        cropped = images[:, h:h + crop_height, w:w + crop_width, :]
        return M.cast(_resize(cropped, (self.height, self.width)), self.dtype)

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width)
        return config


class Resizing(_ImageLayer):
    """Images resized to ``height × width`` (after a centered crop or a padding to the
    target's aspect ratio, if asked); integer images are rounded back to their dtype."""

    _INTERPOLATIONS = ("bilinear", "nearest", "bicubic", "area", "lanczos3", "lanczos5")

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if fill_mode != "constant":
            raise ValueError(f"Invalid value for argument `fill_mode`. Only `'constant'` is "
                             f"supported. Received: fill_mode={fill_mode}")
        if pad_to_aspect_ratio and crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can "
                             "be `True`.")
        self.height, self.width, self.interpolation = height, width, interpolation
        self.crop_to_aspect_ratio, self.pad_to_aspect_ratio = \
            crop_to_aspect_ratio, pad_to_aspect_ratio
        self.fill_mode, self.fill_value, self.antialias = fill_mode, fill_value, bool(antialias)

    def _transform(self, images, transformation, training):
        if self.interpolation not in self._INTERPOLATIONS:
            raise ValueError(f"Invalid value for argument `interpolation`. Expected of one "
                             f"{self._INTERPOLATIONS}. Received: "
                             f"interpolation={self.interpolation}")
        source = images
        if self.crop_to_aspect_ratio:
            h, w, crop_height, crop_width = _aspect_crop_box(
                *_static_hw(images, "Resizing"), self.height, self.width)
            images = images[:, h:h + crop_height, w:w + crop_width, :]
        elif self.pad_to_aspect_ratio:
            images = self._pad_to_aspect_ratio(images)
        resized = _resize(images, (self.height, self.width), self.interpolation,
                          self.antialias)
        if resized.dtype == source.dtype:
            return resized
        if source.dtype.is_integer:
            resized = M.round(resized)
        return M.saturate_cast(resized, source.dtype)

    def _pad_to_aspect_ratio(self, images):
        height, width = _static_hw(images, "Resizing")
        pad_height = max(height, int(float(width * self.height) / self.width))
        pad_width = max(width, int(float(height * self.width) / self.height))
        h, w = int(float(pad_height - height) / 2), int(float(pad_width - width) / 2)
        return A.pad(images, [[0, 0], [h, h], [w, w], [0, 0]],
                     constant_values=M.cast(self.fill_value, images.dtype))

    def get_config(self):
        config = super().get_config()
        config.update(height=self.height, width=self.width, interpolation=self.interpolation,
                      crop_to_aspect_ratio=self.crop_to_aspect_ratio,
                      pad_to_aspect_ratio=self.pad_to_aspect_ratio, fill_mode=self.fill_mode,
                      fill_value=self.fill_value, antialias=self.antialias)
        return config
