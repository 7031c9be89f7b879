"""Convolutions (1-3-D, and their transposes) and pooling layers, channels-last, on the
tf.nn ops; and the global poolings."""
from __future__ import annotations

from runtime.keras import activations, constraints, initializers
from runtime.keras.layers.base import Layer
from runtime.keras.layers.core import stored_as
from runtime.ops import array_ops as A, math_ops as M, nn_ops

_CONV = {1: nn_ops.conv1d, 2: nn_ops.conv2d, 3: nn_ops.conv3d}
_CONV_TRANSPOSE = {1: nn_ops.conv1d_transpose, 2: nn_ops.conv2d_transpose,
                   3: nn_ops.conv3d_transpose}
_MAX_POOL = {1: nn_ops.max_pool1d, 2: nn_ops.max_pool2d, 3: nn_ops.max_pool3d}
_AVG_POOL = {1: nn_ops.avg_pool1d, 2: nn_ops.avg_pool2d, 3: nn_ops.avg_pool3d}


def _tuple(value, n: int, what: str) -> tuple[int, ...]:
    if isinstance(value, int):
        return (value,) * n
    value = tuple(value)
    if len(value) != n or not all(isinstance(v, int) for v in value):
        raise ValueError(f"The `{what}` argument must be a tuple of {n} integers. "
                         f"Received {what}={value}")
    return value


def _padding(padding, allowed=("valid", "same")) -> str:
    if not isinstance(padding, str) or padding.lower() not in allowed:
        raise ValueError(f"The `padding` argument must be one of {', '.join(map(repr, allowed))}"
                         f". Received: padding={padding}")
    return padding.lower()


def _channels_last(data_format, layer: str) -> str:
    if data_format not in (None, "channels_last"):
        raise NotImplementedError(f"{layer}(data_format={data_format!r}) is not supported: "
                                  f"inputs are channels_last")
    return "channels_last"


class _Conv(Layer):
    """An N-D convolution with a (*kernel_size, in_channels, filters) kernel, plus bias and
    activation."""

    rank = 2
    kernel = stored_as("_kernel")
    transpose = False

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        output_padding = kwargs.pop("output_padding", None) if self.transpose else None
        super().__init__(**kwargs)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        name = type(self).__name__
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError(f"Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        if groups != 1:
            raise NotImplementedError(f"{name}(groups > 1) is not supported")
        n = self.rank
        self.filters = filters
        self.kernel_size = _tuple(kernel_size, n, "kernel_size")
        self.strides = _tuple(strides, n, "strides")
        self.dilation_rate = _tuple(dilation_rate, n, "dilation_rate")
        if any(s != 1 for s in self.strides) and any(d != 1 for d in self.dilation_rate):
            raise ValueError("`strides > 1` not supported in conjunction with "
                             "`dilation_rate > 1`.")
        causal_ok = n == 1 and not self.transpose
        self.padding = _padding(padding, ("valid", "same", "causal") if causal_ok
                                else ("valid", "same"))
        self.output_padding = None if output_padding is None else \
            _tuple(output_padding, n, "output_padding")
        self.data_format = _channels_last(data_format, name)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.bias = None

    def build(self, input_shape):
        if len(input_shape) != self.rank + 2 or input_shape[-1] is None:
            raise ValueError(f"{type(self).__name__} expects inputs of rank {self.rank + 2} "
                             f"(batch, ..., channels) with known channels, got shape "
                             f"{input_shape}")
        channels = (self.filters, input_shape[-1]) if self.transpose else \
            (input_shape[-1], self.filters)
        self.kernel = self.add_weight(shape=self.kernel_size + channels,
                                      initializer=self.kernel_initializer, name="kernel",
                                      constraint=self.kernel_constraint)
        if self.use_bias:
            self.bias = self.add_weight(shape=(self.filters,), initializer=self.bias_initializer,
                                        name="bias", constraint=self.bias_constraint)
        self.built = True

    def _output_length(self, length, i):
        """Keras's deconv_output_length for spatial axis ``i``."""
        kernel = self.kernel_size[i] + (self.kernel_size[i] - 1) * (self.dilation_rate[i] - 1)
        stride = self.strides[i]
        if self.output_padding is None:
            return length * stride + (max(kernel - stride, 0) if self.padding == "valid" else 0)
        pad = kernel // 2 if self.padding == "same" else 0
        return (length - 1) * stride + kernel - 2 * pad + self.output_padding[i]

    def call(self, inputs):
        strides = list(self.strides) if self.rank > 1 else self.strides[0]
        if self.transpose:
            # Static sizes where known, so the output's shape is known while tracing.
            dynamic = A.shape(inputs)
            dims = [d if d is not None else dynamic[i]
                    for i, d in enumerate(inputs.shape.as_list())]
            sizes = [dims[0]] + [self._output_length(dims[i + 1], i)
                                 for i in range(self.rank)] + [self.filters]
            out_shape = sizes if all(isinstance(d, int) for d in sizes) else A.stack(sizes)
            y = _CONV_TRANSPOSE[self.rank](inputs, self.kernel, out_shape,
                                           strides=list(self.strides),
                                           padding=self.padding.upper(),
                                           dilations=list(self.dilation_rate))
            if out_shape is sizes:  # tf.nn.conv1d_transpose leaves the static shape unknown
                y = A.ensure_shape(y, sizes)
        else:
            padding = self.padding
            if padding == "causal":  # pad the past only, so no output sees the future
                left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
                inputs = A.pad(inputs, [[0, 0], [left, 0], [0, 0]])
                padding = "valid"
            y = _CONV[self.rank](inputs, self.kernel, strides, padding=padding.upper(),
                                 dilations=list(self.dilation_rate))
        if self.use_bias:
            y = M.add(y, self.bias)
        return self.activation(y)

    def get_config(self):
        config = {**super().get_config(), "filters": self.filters,
                  "kernel_size": self.kernel_size, "strides": self.strides,
                  "padding": self.padding, "data_format": self.data_format,
                  "dilation_rate": self.dilation_rate,
                  "activation": activations.serialize(self.activation),
                  "use_bias": self.use_bias,
                  "kernel_initializer": initializers.serialize(self.kernel_initializer),
                  "bias_initializer": initializers.serialize(self.bias_initializer)}
        if self.transpose:
            config["output_padding"] = self.output_padding
        return config


class Conv1D(_Conv):
    rank = 1


class Conv2D(_Conv):
    rank = 2


class Conv3D(_Conv):
    rank = 3


class Conv1DTranspose(_Conv):
    rank, transpose = 1, True


class Conv2DTranspose(_Conv):
    rank, transpose = 2, True


class Conv3DTranspose(_Conv):
    rank, transpose = 3, True


class _Pooling(Layer):
    rank = 2
    _pools: dict = {}

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.pool_size = _tuple(pool_size, self.rank, "pool_size")
        self.strides = self.pool_size if strides is None else \
            _tuple(strides, self.rank, "strides")
        self.padding = _padding(padding)
        self.data_format = _channels_last(data_format, type(self).__name__)

    def call(self, inputs):
        return self._pools[self.rank](inputs, ksize=list(self.pool_size),
                                      strides=list(self.strides), padding=self.padding.upper())

    def get_config(self):
        return {**super().get_config(), "pool_size": self.pool_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format}


def _pooling(name, rank, pools, doc):
    return type(name, (_Pooling,), {"rank": rank, "_pools": pools, "__doc__": doc,
                                    "__module__": __name__})


MaxPooling1D = _pooling("MaxPooling1D", 1, _MAX_POOL, "The maximum of each window.")
MaxPooling2D = _pooling("MaxPooling2D", 2, _MAX_POOL, "The maximum of each window.")
MaxPooling3D = _pooling("MaxPooling3D", 3, _MAX_POOL, "The maximum of each window.")
AveragePooling1D = _pooling("AveragePooling1D", 1, _AVG_POOL, "The mean of each window.")
AveragePooling2D = _pooling("AveragePooling2D", 2, _AVG_POOL, "The mean of each window.")
AveragePooling3D = _pooling("AveragePooling3D", 3, _AVG_POOL, "The mean of each window.")


class _GlobalPooling(Layer):
    rank = 2
    _reduce = None

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = _channels_last(data_format, type(self).__name__)
        self.keepdims = keepdims

    def call(self, inputs):
        return self._reduce(inputs, axis=list(range(1, self.rank + 1)), keepdims=self.keepdims)

    def get_config(self):
        return {**super().get_config(), "data_format": self.data_format,
                "keepdims": self.keepdims}


def _global(name, rank, reduce, what):
    return type(name, (_GlobalPooling,), {
        "rank": rank, "_reduce": staticmethod(reduce), "__module__": __name__,
        "__doc__": f"The {what} over the {rank} spatial axes: (batch, ..., c) -> (batch, c)."})


class GlobalAveragePooling1D(_global("GlobalAveragePooling1D", 1, M.reduce_mean, "mean")):
    """The mean over the steps: (batch, steps, c) -> (batch, c); with a ``mask`` (batch,
    steps), the mean over the steps it keeps, as Keras computes it."""

    def compute_mask(self, inputs, mask=None):
        return None  # (the steps are gone)

    def call(self, inputs, mask=None):
        if mask is None:
            return super().call(inputs)
        weights = A.expand_dims(M.cast(mask, inputs.dtype), 2)
        return M.divide(M.reduce_sum(M.multiply(inputs, weights), axis=1, keepdims=self.keepdims),
                        M.reduce_sum(weights, axis=1, keepdims=self.keepdims))
GlobalAveragePooling2D = _global("GlobalAveragePooling2D", 2, M.reduce_mean, "mean")
GlobalAveragePooling3D = _global("GlobalAveragePooling3D", 3, M.reduce_mean, "mean")
GlobalMaxPooling1D = _global("GlobalMaxPooling1D", 1, M.reduce_max, "maximum")
GlobalMaxPooling2D = _global("GlobalMaxPooling2D", 2, M.reduce_max, "maximum")
GlobalMaxPooling3D = _global("GlobalMaxPooling3D", 3, M.reduce_max, "maximum")
