"""``Conv2D`` and the 2-D pooling layers, on ``tf.nn.conv2d`` / ``max_pool2d`` / ``avg_pool2d``
(channels-last images: batch, height, width, channels), and global average pooling."""
from __future__ import annotations

from runtime.keras import activations, initializers
from runtime.keras.layers.base import Layer
from runtime.ops import math_ops as M, nn_ops


def _pair(value, what: str) -> tuple[int, int]:
    if isinstance(value, int):
        return (value, value)
    value = tuple(value)
    if len(value) != 2 or not all(isinstance(v, int) for v in value):
        raise ValueError(f"The `{what}` argument must be a tuple of 2 integers. "
                         f"Received {what}={value}")
    return value


def _padding(padding) -> str:
    if not isinstance(padding, str) or padding.lower() not in ("valid", "same"):
        raise ValueError(f"The `padding` argument must be one of 'valid', 'same'. "
                         f"Received: padding={padding}")
    return padding.lower()


def _channels_last(data_format, layer: str) -> str:
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{layer}(data_format={data_format!r}) is not supported: "
                                  f"images are channels_last (NHWC)")
    return "channels_last"


class Conv2D(Layer):
    """A 2-D convolution with a (kh, kw, in_channels, filters) kernel, plus bias and
    activation."""

    def __init__(self, filters, kernel_size, strides=(1, 1), padding="valid", data_format=None,
                 dilation_rate=(1, 1), groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if groups != 1:
            raise NotImplementedError("Conv2D(groups > 1) is not supported")
        self.filters = filters
        self.kernel_size = _pair(kernel_size, "kernel_size")
        self.strides = _pair(strides, "strides")
        self.dilation_rate = _pair(dilation_rate, "dilation_rate")
        if self.strides != (1, 1) and self.dilation_rate != (1, 1):
            raise ValueError("`strides > 1` not supported in conjunction with "
                             "`dilation_rate > 1`.")
        self.padding = _padding(padding)
        self.data_format = _channels_last(data_format, "Conv2D")
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.bias = None

    def build(self, input_shape):
        if len(input_shape) != 4 or input_shape[-1] is None:
            raise ValueError(f"Conv2D expects inputs of rank 4 (batch, height, width, "
                             f"channels) with known channels, got shape {input_shape}")
        self.kernel = self.add_weight(shape=self.kernel_size + (input_shape[-1], self.filters),
                                      initializer=self.kernel_initializer, name="kernel")
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), initializer=self.bias_initializer,
                                        name="bias")
        self.built = True

    def call(self, inputs):
        y = nn_ops.conv2d(inputs, self.kernel, strides=list(self.strides),
                          padding=self.padding.upper(), dilations=list(self.dilation_rate))
        if self.use_bias:
            y = M.add(y, self.bias)
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "filters": self.filters,
                "kernel_size": self.kernel_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate,
                "activation": activations.serialize(self.activation), "use_bias": self.use_bias,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer)}


class _Pooling2D(Layer):
    _pool = None  # the tf.nn function

    def __init__(self, pool_size=(2, 2), strides=None, padding="valid", data_format=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _pair(pool_size, "pool_size")
        self.strides = self.pool_size if strides is None else _pair(strides, "strides")
        self.padding = _padding(padding)
        self.data_format = _channels_last(data_format, type(self).__name__)

    def call(self, inputs):
        return self._pool(inputs, ksize=list(self.pool_size), strides=list(self.strides),
                          padding=self.padding.upper())

    def get_config(self):
        return {**super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format}


class MaxPooling2D(_Pooling2D):
    """The maximum of each window."""
    _pool = staticmethod(nn_ops.max_pool2d)


class AveragePooling2D(_Pooling2D):
    """The mean of each window."""
    _pool = staticmethod(nn_ops.avg_pool2d)


class GlobalAveragePooling2D(Layer):
    """The mean over height and width: (batch, h, w, c) -> (batch, c)."""

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, "GlobalAveragePooling2D")
        self.keepdims = keepdims

    def call(self, inputs):
        return M.reduce_mean(inputs, axis=[1, 2], keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format,
                "keepdims": self.keepdims}
