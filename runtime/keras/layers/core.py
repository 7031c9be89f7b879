"""The core layers: Dense, Activation, Flatten, Reshape, Embedding, Masking, Identity,
Lambda, and the regularization layers (Dropout and its spatial and alpha variants, the
Gaussian noise layers), which draw from a ``SeedGenerator`` made with the layer, as Keras
3's do: a seeded layer gives TensorFlow's masks call after call."""
from __future__ import annotations

import inspect
import math

from graph import dtypes
from runtime.keras import activations, constraints, initializers, regularizers
from runtime.keras import random as keras_random
from runtime.keras.layers.base import Layer, _set_keras_mask
from runtime.ops import array_ops, math_ops
from runtime.ops.core import convert_to_tensor



def stored_as(private: str) -> property:
    """A weight attribute kept under ``private``: Keras 3 tracks Dense's, the convolutions' and
    EinsumDense's kernel as ``_kernel`` and Embedding's table as ``_embeddings``, which is
    how checkpoints name them (``dense/_kernel/.ATTRIBUTES/VARIABLE_VALUE``)."""
    return property(lambda self: getattr(self, private, None),
                    lambda self, value: setattr(self, private, value))

class Dense(Layer):
    """``activation(inputs @ kernel + bias)`` on the last axis of the inputs."""

    supports_masking = True  # (the mask passes through, as in Keras 3)
    kernel = stored_as("_kernel")

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, kernel_constraint=None,
                 bias_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(units, int) or units <= 0:
            raise ValueError(f"Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.kernel = self.bias = None

    def build(self, input_shape):
        last = input_shape[-1] if input_shape else None
        if last is None:
            raise ValueError(f"The last dimension of the inputs to a Dense layer should be "
                             f"defined. Found None. Full input shape received: {input_shape}")
        self.kernel = self.add_weight(shape=(last, self.units),
                                      initializer=self.kernel_initializer, name="kernel",
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.units,), initializer=self.bias_initializer,
                                        name="bias", regularizer=self.bias_regularizer,
                                        constraint=self.bias_constraint)
        self.built = True

    def call(self, inputs):
        if inputs.dtype != self.kernel.dtype:
            inputs = math_ops.cast(inputs, self.kernel.dtype)
        rank = inputs.shape.rank
        if rank == 2:
            y = math_ops.matmul(inputs, self.kernel)
        else:  # contract the last axis of any-rank inputs: (..., in) -> (..., units)
            flat = array_ops.reshape(inputs, [-1, self.kernel.shape[0]])
            out_shape = array_ops.concat(
                [array_ops.shape(inputs)[:-1], [self.units]], axis=0)
            y = array_ops.reshape(math_ops.matmul(flat, self.kernel), out_shape)
        if self.use_bias:
            y = math_ops.add(y, self.bias)
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "units": self.units,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "kernel_regularizer": regularizers.serialize(self.kernel_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "kernel_constraint": constraints.serialize(self.kernel_constraint),
                "bias_constraint": constraints.serialize(self.bias_constraint)}


class Activation(Layer):
    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        return {**super().get_config(), "activation": activations.serialize(self.activation)}


def _check_rate(rate, what="rate") -> None:
    if not 0 <= rate <= 1:
        raise ValueError(f"Invalid value received for argument `{what}`. Expected a float "
                         f"value between 0 and 1. Received: {what}={rate}")


class Dropout(Layer):
    """Zeroes a ``rate`` fraction of the inputs (scaling the rest) only when training."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_rate(rate)
        self.rate, self.seed = rate, seed
        self.noise_shape = None if noise_shape is None else tuple(noise_shape)
        if rate > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return keras_random.dropout(inputs, self.rate, noise_shape=self._noise(inputs),
                                        seed=self.seed_generator)
        return inputs

    def _noise(self, inputs):
        return self.noise_shape

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed,
                "noise_shape": self.noise_shape}


class _SpatialDropout(Dropout):
    """Drops whole feature maps: the noise is 1 along the spatial axes."""

    _rank = 1
    data_format = "channels_last"

    def __init__(self, rate, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)

    def _noise(self, inputs):
        ndim = self._rank + 2
        if inputs.shape.rank != ndim:
            raise ValueError(f"Input 0 with name 'None' of layer '{self.name}' is incompatible "
                             f"with the layer: expected ndim={ndim}, found "
                             f"ndim={inputs.shape.rank}. Full shape received: "
                             f"{tuple(inputs.shape.as_list())}")
        ones = (1,) * self._rank
        if self.data_format == "channels_first":
            return (None, None) + ones
        return (None,) + ones + (None,)

    def get_config(self):
        return {"rate": self.rate, "seed": self.seed, "name": self.name,
                "dtype": self.dtype.name}


class SpatialDropout1D(_SpatialDropout):
    """Drops whole channels of ``(batch, steps, channels)`` inputs."""


class _SpatialDropoutND(_SpatialDropout):
    def __init__(self, rate, data_format=None, seed=None, name=None, dtype=None):
        super().__init__(rate, seed=seed, name=name, dtype=dtype)
        data_format = "channels_last" if data_format is None else str(data_format).lower()
        if data_format not in ("channels_first", "channels_last"):
            raise ValueError("The `data_format` argument must be one of {'channels_first', "
                             f"'channels_last'}}. Received: data_format={data_format}")
        self.data_format = data_format

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format}


class SpatialDropout2D(_SpatialDropoutND):
    """Drops whole channels of images (``data_format`` says where the channels are)."""

    _rank = 2


class SpatialDropout3D(_SpatialDropoutND):
    """Drops whole channels of volumes (``data_format`` says where the channels are)."""

    _rank = 3


class AlphaDropout(Dropout):
    """Dropout that keeps SELU's mean and variance: dropped values become SELU's negative
    saturation, then an affine map restores the moments."""

    def call(self, inputs, training=False):
        if not (training and self.rate > 0):
            return inputs
        alpha, scale = 1.6732632423543772848170429916717, 1.0507009873554804934193349852946
        alpha_p = -alpha * scale
        noise = keras_random.uniform(keras_random.concrete_noise_shape(inputs, self.noise_shape),
                                     seed=self.seed_generator)
        kept = math_ops.cast(math_ops.greater_equal(noise, self.rate), inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        x = math_ops.add(math_ops.multiply(inputs, kept),
                         math_ops.multiply(alpha_p, math_ops.subtract(1.0, kept)))
        return math_ops.add(math_ops.multiply(a, x), b)


class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1 * d2 * ...)."""

    def call(self, inputs):
        dims = inputs.shape.as_list() if inputs.shape.rank is not None else None
        if dims is not None and len(dims) <= 1:
            return array_ops.expand_dims(inputs, -1) if len(dims) == 1 else inputs
        if dims is not None and all(d is not None for d in dims[1:]):
            return array_ops.reshape(inputs, [-1 if dims[0] is None else dims[0],
                                              math.prod(dims[1:])])
        return array_ops.reshape(inputs, array_ops.stack([array_ops.shape(inputs)[0], -1]))


class Reshape(Layer):
    """(batch, ...) -> (batch,) + target_shape (one entry may be -1)."""

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(int(d) for d in target_shape)
        if sum(d == -1 for d in self.target_shape) > 1:
            raise ValueError(f"There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={self.target_shape}.")

    def call(self, inputs):
        dims = inputs.shape.as_list() if inputs.shape.rank is not None else None
        if dims is not None and all(d is not None for d in dims[1:]):
            size, known = math.prod(dims[1:]), math.prod(d for d in self.target_shape if d != -1)
            fits = size % known == 0 if -1 in self.target_shape else size == known
            if not fits:
                raise ValueError(f"The total size of the tensor must be unchanged. Received: "
                                 f"input_shape={tuple(dims[1:])}, "
                                 f"target_shape={self.target_shape}")
        if dims is not None and dims[0] is not None:
            return array_ops.reshape(inputs, [dims[0], *self.target_shape])
        if -1 not in self.target_shape:  # the batch is the one unknown: shapes stay static
            return array_ops.reshape(inputs, [-1, *self.target_shape])
        batch = array_ops.shape(inputs)[:1]
        return array_ops.reshape(inputs, array_ops.concat([batch, list(self.target_shape)], 0))

    def get_config(self):
        return {**super().get_config(), "target_shape": self.target_shape}


class Embedding(Layer):
    """Maps integer ids to rows of an ``(input_dim, output_dim)`` table."""

    embeddings = stored_as("_embeddings")

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 mask_zero=False, embeddings_constraint=None, **kwargs):
        super().__init__(**kwargs)
        if input_dim <= 0 or output_dim <= 0:
            raise ValueError(f"Both `input_dim` and `output_dim` should be positive, "
                             f"Received input_dim = {input_dim} and output_dim = {output_dim}")
        self.input_dim, self.output_dim = input_dim, output_dim
        self.mask_zero = self.supports_masking = bool(mask_zero)
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.embeddings = None

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(shape=(self.input_dim, self.output_dim),
                                          initializer=self.embeddings_initializer,
                                          name="embeddings",
                                          constraint=self.embeddings_constraint)
        self.built = True

    def _convert_input(self, x):  # ids stay integers; floats are cast to int32 as in Keras
        x = convert_to_tensor(x)
        return x if x.dtype in (dtypes.int32, dtypes.int64) else math_ops.cast(x, dtypes.int32)

    def call(self, inputs):
        return array_ops.gather(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """With ``mask_zero``: True where an id is not 0 (padding), as Keras computes it."""
        if not self.mask_zero:
            return None
        return math_ops.not_equal(convert_to_tensor(inputs), 0)

    def get_config(self):
        return {**super().get_config(), "input_dim": self.input_dim,
                "output_dim": self.output_dim, "mask_zero": self.mask_zero,
                "embeddings_initializer": initializers.serialize(self.embeddings_initializer)}


class Masking(Layer):
    """Masks the steps whose features all equal ``mask_value`` and sets them to zero: the
    output carries the mask (True = kept), as Keras 3's does."""

    supports_masking = True

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value

    def _kept(self, inputs, keepdims=False):
        value = math_ops.cast(self.mask_value, inputs.dtype)
        return math_ops.reduce_any(math_ops.not_equal(inputs, value), axis=-1,
                                   keepdims=keepdims)

    def compute_mask(self, inputs, mask=None):
        return self._kept(inputs)

    def call(self, inputs):
        kept = self._kept(inputs, keepdims=True)
        outputs = math_ops.where(kept, inputs, array_ops.zeros([], inputs.dtype))
        _set_keras_mask(outputs, array_ops.squeeze(kept, [-1]))
        return outputs

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}


class Identity(Layer):
    """Returns its inputs unchanged."""

    supports_masking = True  # (the mask passes through, as in Keras 3)


class Lambda(Layer):
    """Wraps ``function(inputs, **arguments)`` as a layer (it has no weights of its own).
    ``function`` is also given ``mask`` and ``training`` when it takes them; ``mask`` (a
    tensor, or ``f(inputs, mask)``) is the output's mask, as in Keras 3."""

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda's `function` must be callable, got {function!r}")
        self.function, self.output_shape_arg = function, output_shape
        self.arguments = dict(arguments or {})
        self.mask = mask
        self.supports_masking = mask is not None
        try:
            params = inspect.signature(function).parameters
        except (TypeError, ValueError):
            params = {}
        self._fn_takes = {name for name in ("mask", "training") if name in params}

    def call(self, inputs, mask=None, training=None):
        extra = {"mask": mask, "training": training}
        kwargs = {**self.arguments, **{name: extra[name] for name in self._fn_takes}}
        return self.function(inputs, **kwargs)

    def compute_mask(self, inputs, mask=None):
        return self.mask(inputs, mask) if callable(self.mask) else self.mask

    def get_config(self):
        return {**super().get_config(), "function": self.function,
                "output_shape": self.output_shape_arg, "arguments": self.arguments,
                "mask": self.mask}


class GaussianNoise(Layer):
    """Adds N(0, stddev^2) noise, only when training."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_rate(stddev, "stddev")
        self.stddev, self.seed = stddev, seed
        if stddev > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            noise = keras_random.normal(array_ops.shape(inputs), stddev=self.stddev,
                                        dtype=self.dtype, seed=self.seed_generator)
            return math_ops.add(inputs, noise)
        return inputs

    def get_config(self):
        return {**super().get_config(), "stddev": self.stddev, "seed": self.seed}


class GaussianDropout(Layer):
    """Multiplies by N(1, rate / (1 - rate)) noise, only when training."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(**kwargs)
        _check_rate(rate)
        self.rate, self.seed = rate, seed
        if rate > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            noise = keras_random.normal(array_ops.shape(inputs), mean=1.0,
                                        stddev=math.sqrt(self.rate / (1.0 - self.rate)),
                                        dtype=self.dtype, seed=self.seed_generator)
            return math_ops.multiply(inputs, noise)
        return inputs

    def get_config(self):
        return {**super().get_config(), "rate": self.rate, "seed": self.seed}
