"""Random augmentation: ``random_*`` draw from tf.random's seeded ops, ``stateless_random_*``
from the stateless ones, with the same draws in the same order as TensorFlow's wrappers
(so a seed gives TensorFlow's images)."""
from __future__ import annotations

import functools

from graph import dtypes
from runtime.image import color
from runtime.image.convert import checked_image
from runtime.ops import array_ops as A, math_ops as M, random_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.logging_ops import Assert
from runtime.tensor import Tensor


def _stateful(seed):
    return functools.partial(random_ops.uniform, seed=seed)


def _stateless(seed):
    return functools.partial(random_ops.stateless_uniform, seed=seed)


def _flip(image, axis: int, draw) -> Tensor:
    image = checked_image(image, "random_flip")
    if image.shape.rank == 3:
        flipped = A.reverse(image, [axis])
        return M.where(M.less(draw(shape=[], minval=0, maxval=1.0), 0.5), flipped, image)
    if image.shape.rank != 4:
        raise ValueError(f"'image' (shape {list(image.shape.as_tuple())}) must have either 3 "
                         f"or 4 dimensions.")
    batch = A.shape(image)[0]
    flips = M.round(A.reshape(draw(shape=A.stack([batch]), minval=0, maxval=1.0),
                              A.stack([batch, 1, 1, 1])))
    flips = M.cast(flips, image.dtype)
    flipped = A.reverse(image, [axis + 1])
    return M.add(M.multiply(flips, flipped), M.multiply(M.subtract(1, flips), image))


def random_flip_left_right(image, seed=None) -> Tensor:
    """Flips each image left-right with probability 1/2."""
    return _flip(image, 1, _stateful(seed))


def random_flip_up_down(image, seed=None) -> Tensor:
    """Flips each image upside down with probability 1/2."""
    return _flip(image, 0, _stateful(seed))


def stateless_random_flip_left_right(image, seed) -> Tensor:
    return _flip(image, 1, _stateless(seed))


def stateless_random_flip_up_down(image, seed) -> Tensor:
    return _flip(image, 0, _stateless(seed))


def _check_range(lower, upper):
    if upper <= lower:
        raise ValueError("upper must be > lower.")
    if lower < 0:
        raise ValueError("lower must be non-negative.")


def _brightness(image, max_delta, draw):
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return color.adjust_brightness(image, draw(shape=[], minval=-max_delta, maxval=max_delta))


def _contrast(image, lower, upper, draw):
    _check_range(lower, upper)
    return color.adjust_contrast(image, draw(shape=[], minval=lower, maxval=upper))


def _saturation(image, lower, upper, draw):
    _check_range(lower, upper)
    return color.adjust_saturation(image, draw(shape=[], minval=lower, maxval=upper))


def _hue(image, max_delta, draw):
    if max_delta > 0.5:
        raise ValueError("max_delta must be <= 0.5.")
    if max_delta < 0:
        raise ValueError("max_delta must be non-negative.")
    return color.adjust_hue(image, draw(shape=[], minval=-max_delta, maxval=max_delta))


def _crop(value, size, draw):
    value = convert_to_tensor(value, name="value")
    size = convert_to_tensor(size, dtype=dtypes.int32, name="size")
    shape = A.shape(value)
    Assert(M.reduce_all(M.greater_equal(shape, size)),
           ["Need value.shape >= size, got ", shape, size], summarize=1000)
    limit = M.add(M.subtract(shape, size), 1)
    offset = M.floormod(draw(shape=A.shape(shape), dtype=dtypes.int32,
                             maxval=int(dtypes.int32.max)), limit)
    return A.slice(value, offset, size)


def random_brightness(image, max_delta, seed=None):
    """Adds a delta drawn from [-max_delta, max_delta)."""
    return _brightness(image, max_delta, _stateful(seed))


def stateless_random_brightness(image, max_delta, seed):
    return _brightness(image, max_delta, _stateless(seed))


def random_contrast(image, lower, upper, seed=None):
    """Scales the contrast by a factor drawn from [lower, upper)."""
    return _contrast(image, lower, upper, _stateful(seed))


def stateless_random_contrast(image, lower, upper, seed):
    return _contrast(image, lower, upper, _stateless(seed))


def random_saturation(image, lower, upper, seed=None):
    """Scales the saturation by a factor drawn from [lower, upper)."""
    return _saturation(image, lower, upper, _stateful(seed))


def stateless_random_saturation(image, lower, upper, seed):
    return _saturation(image, lower, upper, _stateless(seed))


def random_hue(image, max_delta, seed=None):
    """Rotates the hue by a delta drawn from [-max_delta, max_delta)."""
    return _hue(image, max_delta, _stateful(seed))


def stateless_random_hue(image, max_delta, seed):
    return _hue(image, max_delta, _stateless(seed))


def random_crop(value, size, seed=None, name=None):
    """``tf.image.random_crop``: a ``size`` slice at a random offset (any rank)."""
    return _crop(value, size, _stateful(seed))


def stateless_random_crop(value, size, seed, name=None):
    return _crop(value, size, _stateless(seed))
