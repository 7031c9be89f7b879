"""Reshaping layers: ZeroPadding, Cropping and UpSampling (1-3-D, channels-last),
RepeatVector, Permute and Rescaling."""
from __future__ import annotations

from runtime.image import resize
from runtime.keras.layers.base import Layer
from runtime.keras.layers.convolutional import _channels_last
from runtime.ops import array_ops as A, math_ops as M


def _pairs(value, rank: int, what: str) -> tuple[tuple[int, int], ...]:
    """Keras's padding/cropping argument: an int, one int per axis, or (before, after) per
    axis (1-D layers: an int or one pair)."""
    if isinstance(value, int):
        return ((value, value),) * rank
    value = tuple(value)
    if rank == 1 and len(value) == 2 and all(isinstance(v, int) for v in value):
        return (value,)
    if len(value) != rank:
        raise ValueError(f"`{what}` should have {rank} elements. Received: {what}={value}.")
    return tuple((v, v) if isinstance(v, int) else tuple(v) for v in value)


class _Spatial(Layer):
    rank = 2

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, type(self).__name__)


class _ZeroPadding(_Spatial):
    """Zeros added before and after each spatial axis."""

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.padding = _pairs(padding, self.rank, "padding")

    def call(self, inputs):
        return A.pad(inputs, [[0, 0], *map(list, self.padding), [0, 0]])

    def get_config(self):
        return {**super().get_config(), "padding": self.padding}


class _Cropping(_Spatial):
    """Values removed from the start and end of each spatial axis."""

    def __init__(self, cropping=1, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.cropping = _pairs(cropping, self.rank, "cropping")

    def call(self, inputs):
        index = [slice(None)] + [slice(start, -end if end else None)
                                 for start, end in self.cropping]
        return inputs[tuple(index)]

    def get_config(self):
        return {**super().get_config(), "cropping": self.cropping}


class _UpSampling(_Spatial):
    """Each value repeated ``size`` times along each spatial axis ("nearest"); 2-D also
    takes the other tf.image.resize methods ("bilinear", ...)."""

    def __init__(self, size=2, data_format=None, interpolation="nearest", **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.size = (size,) * self.rank if isinstance(size, int) else tuple(size)
        self.interpolation = interpolation

    def call(self, inputs):
        if self.interpolation != "nearest":
            height, width = inputs.shape[1], inputs.shape[2]
            new_size = [height * self.size[0], width * self.size[1]] \
                if height is not None and width is not None \
                else M.multiply(A.shape(inputs)[1:3], list(self.size))
            return M.cast(resize(inputs, new_size, method=self.interpolation), inputs.dtype)
        for axis, times in enumerate(self.size, start=1):
            inputs = A.repeat(inputs, times, axis=axis)
        return inputs

    def get_config(self):
        return {**super().get_config(), "size": self.size, "interpolation": self.interpolation}


def _spatial(base, name, rank):
    return type(name, (base,), {"rank": rank, "__doc__": base.__doc__, "__module__": __name__})


ZeroPadding1D = _spatial(_ZeroPadding, "ZeroPadding1D", 1)
ZeroPadding2D = _spatial(_ZeroPadding, "ZeroPadding2D", 2)
ZeroPadding3D = _spatial(_ZeroPadding, "ZeroPadding3D", 3)
Cropping1D = _spatial(_Cropping, "Cropping1D", 1)
Cropping2D = _spatial(_Cropping, "Cropping2D", 2)
Cropping3D = _spatial(_Cropping, "Cropping3D", 3)
UpSampling1D = _spatial(_UpSampling, "UpSampling1D", 1)
UpSampling2D = _spatial(_UpSampling, "UpSampling2D", 2)
UpSampling3D = _spatial(_UpSampling, "UpSampling3D", 3)


class RepeatVector(Layer):
    """``[batch, features]`` -> ``[batch, n, features]``."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        self.n = n

    def call(self, inputs):
        return A.tile(A.expand_dims(inputs, 1), [1, self.n, 1])

    def get_config(self):
        return {**super().get_config(), "n": self.n}


class Permute(Layer):
    """Permutes the non-batch axes (``dims`` counts them from 1)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(self.dims) != list(range(1, len(self.dims) + 1)):
            raise ValueError(f"Invalid permutation argument `dims` for Permute Layer. The set "
                             f"of indices in `dims` must be consecutive and start from 1. "
                             f"Received dims={dims}")

    def call(self, inputs):
        return A.transpose(inputs, [0, *self.dims])

    def get_config(self):
        return {**super().get_config(), "dims": self.dims}


class Rescaling(Layer):
    """``inputs * scale + offset`` (in the layer's dtype)."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset

    def call(self, inputs):
        inputs = inputs if inputs.dtype == self.dtype else M.cast(inputs, self.dtype)
        return M.add(M.multiply(inputs, M.cast(self.scale, self.dtype)),
                     M.cast(self.offset, self.dtype))

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "offset": self.offset}
