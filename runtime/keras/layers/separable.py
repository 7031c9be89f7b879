"""Keras 3's ``DepthwiseConv1D`` / ``DepthwiseConv2D`` (each input channel convolved with its own
``depth_multiplier`` filters) and ``SeparableConv1D`` / ``SeparableConv2D`` (that, then a
1×1 convolution mixing the channels), channels-last, on ``tf.nn.depthwise_conv2d`` and
``tf.nn.separable_conv2d`` (1-D inputs get a spatial axis of size 1, as Keras gives them)."""
from __future__ import annotations

from runtime.keras import activations, initializers, regularizers
from runtime.keras.layers.base import Layer
from runtime.keras.layers.convolutional import _channels_last, _padding, _tuple
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import nn_ops


class _DepthwiseBase(Layer):
    rank = 2

    def __init__(self, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(**kwargs)
        name = type(self).__name__
        n = self.rank
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.dilation_rate = _tuple(dilation_rate, n, "dilation_rate")
        if any(s != 1 for s in self.strides) and any(d != 1 for d in self.dilation_rate):
            raise NotImplementedError(f"{name}: `strides > 1` together with "
                                      "`dilation_rate > 1` is not supported here")
        self.padding = _padding(padding)
        self.data_format = _channels_last(data_format, name)
        self.depth_multiplier = depth_multiplier
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.depthwise_initializer = initializers.get(depthwise_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.depthwise_regularizer = regularizers.get(depthwise_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)

    def _check_input(self, input_shape):
        if len(input_shape) != self.rank + 2 or input_shape[-1] is None:
            raise ValueError(f"{type(self).__name__} expects inputs of rank {self.rank + 2} "
                             f"(batch, ..., channels) with known channels, got shape "
                             f"{input_shape}")
        return input_shape[-1]

    def _as_2d(self, inputs, *kernels):
        """1-D inputs and kernels with a spatial axis of size 1 in front, as Keras does."""
        if self.rank == 2:
            return (inputs, *kernels, [1, *self.strides, 1], list(self.dilation_rate))
        return (A.expand_dims(inputs, 1), *[A.expand_dims(k, 0) for k in kernels],
                [1, 1, self.strides[0], 1], [1, self.dilation_rate[0]])

    def _finish(self, y):
        if self.rank == 1:
            y = A.squeeze(y, [1])
        if self.use_bias:
            y = M.add(y, self.bias)
        return self.activation(y)

    def get_config(self):
        return {**super().get_config(), "kernel_size": self.kernel_size,
                "strides": self.strides, "padding": self.padding,
                "data_format": self.data_format, "dilation_rate": self.dilation_rate,
                "depth_multiplier": self.depth_multiplier,
                "activation": activations.serialize(self.activation),
                "use_bias": self.use_bias,
                "depthwise_initializer": initializers.serialize(self.depthwise_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer),
                "depthwise_regularizer": regularizers.serialize(self.depthwise_regularizer),
                "bias_regularizer": regularizers.serialize(self.bias_regularizer),
                "activity_regularizer": regularizers.serialize(self.activity_regularizer),
                "depthwise_constraint": None, "bias_constraint": None}


class DepthwiseConv2D(_DepthwiseBase):
    """A 2-D depthwise convolution: kernel ``(kh, kw, channels, depth_multiplier)``."""

    def build(self, input_shape):
        channels = self._check_input(input_shape)
        self.kernel = self.add_weight(
            shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer,
            name="kernel")
        self.bias = self.add_weight(shape=(self.depth_multiplier * channels,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    name="bias") if self.use_bias else None
        self.built = True

    def call(self, inputs):
        x, kernel, strides, dilations = self._as_2d(inputs, self.kernel)
        return self._finish(nn_ops.depthwise_conv2d(x, kernel, strides, self.padding.upper(),
                                                    dilations=dilations))


class DepthwiseConv1D(DepthwiseConv2D):
    """A 1-D depthwise convolution: kernel ``(k, channels, depth_multiplier)``."""

    rank = 1


class _SeparableConv(_DepthwiseBase):
    """A depthwise convolution then a pointwise one to ``filters`` channels."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, **kwargs):
        super().__init__(kernel_size, strides, padding, data_format, dilation_rate,
                         depth_multiplier, activation, use_bias, depthwise_initializer,
                         bias_initializer, depthwise_regularizer, bias_regularizer, **kwargs)
        self.filters = filters
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)

    def build(self, input_shape):
        channels = self._check_input(input_shape)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.depthwise_initializer, regularizer=self.depthwise_regularizer)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel",
            shape=(1,) * self.rank + (self.depth_multiplier * channels, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer)
        self.bias = self.add_weight(name="bias", shape=(self.filters,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer) if self.use_bias else None
        self.built = True

    def call(self, inputs):
        x, depthwise, pointwise, strides, dilations = self._as_2d(
            inputs, self.depthwise_kernel, self.pointwise_kernel)
        return self._finish(nn_ops.separable_conv2d(x, depthwise, pointwise, strides,
                                                    self.padding.upper(), dilations=dilations))

    def get_config(self):
        return {**super().get_config(), "filters": self.filters,
                "pointwise_initializer": initializers.serialize(self.pointwise_initializer),
                "pointwise_regularizer": regularizers.serialize(self.pointwise_regularizer),
                "pointwise_constraint": None}


class SeparableConv1D(_SeparableConv):
    rank = 1


class SeparableConv2D(_SeparableConv):
    rank = 2


SeparableConvolution1D, SeparableConvolution2D = SeparableConv1D, SeparableConv2D
