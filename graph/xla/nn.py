"""Lowerings of activations, softmax, the fused losses and BiasAdd (graph/ops/nn.py)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np

from graph.xla.lowering import lowering, static_value

_ACTIVATIONS = {
    "Relu6": lambda x: jnp.clip(x, 0, 6).astype(x.dtype),
    "Elu": jax.nn.elu, "Selu": jax.nn.selu, "Softplus": jax.nn.softplus,
    "Softsign": jax.nn.soft_sign,
    "Softmax": jax.nn.softmax, "LogSoftmax": jax.nn.log_softmax,
    "L2Loss": lambda x: jnp.sum(jnp.square(x)) / 2,
}

for _name, _fn in _ACTIVATIONS.items():
    lowering(_name)((lambda fn: lambda ctx, node, x: fn(x))(_fn))


@lowering("LeakyRelu")
def _leaky_relu(ctx, node, x):
    return jnp.where(x > 0, x, x * jnp.asarray(node.attrs.get("alpha", 0.2), x.dtype))


@lowering("BiasAdd")
def _bias_add(ctx, node, value, bias):
    if node.attrs.get("data_format", "NHWC") == "NCHW":
        bias = jnp.reshape(bias, (-1,) + (1,) * (value.ndim - 2))
    return value + bias


@lowering("SoftmaxCrossEntropyWithLogits")
def _xent(ctx, node, features, labels):
    log_p = jax.nn.log_softmax(features)
    return -jnp.sum(labels * log_p, axis=-1), jnp.exp(log_p) - labels


@lowering("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(ctx, node, features, labels):
    """Loss and its gradient; an out-of-range label gives NaN, as TensorFlow's XLA kernel does
    (there is no run-time error in a compiled program)."""
    log_p = jax.nn.log_softmax(features)
    onehot = jax.nn.one_hot(labels, features.shape[-1], dtype=features.dtype)
    loss = -jnp.sum(onehot * log_p, axis=-1)
    valid = (labels >= 0) & (labels < features.shape[-1])
    return jnp.where(valid, loss, jnp.nan), jnp.exp(log_p) - onehot


# -- convolution and pooling (NHWC / NDHWC, as the numpy kernels) ------------------------

def _conv_fn(node, n: int, depthwise: bool):
    """``(x, filter) -> y`` for a Conv node's attrs, as ``lax.conv_general_dilated``."""
    attrs = node.attrs
    spatial = "DHW"[3 - n:]
    dims = (f"N{spatial}C", f"{spatial}IO", f"N{spatial}C")
    padding = attrs["padding"]
    if padding == "EXPLICIT":
        pads = list(attrs.get("explicit_paddings") or [])
        padding = [(pads[2 * i], pads[2 * i + 1]) for i in range(1, n + 1)]
    strides = tuple(attrs["strides"])[1:-1]
    dilations = tuple(attrs.get("dilations") or (1,) * (n + 2))[1:-1]

    def conv(x, f):
        groups = 1
        if depthwise:  # [H, W, C, M] -> [H, W, 1, C * M], one group per input channel
            groups = f.shape[-2]
            f = jnp.reshape(f, f.shape[:-2] + (1, f.shape[-2] * f.shape[-1]))
        return jax.lax.conv_general_dilated(x, f, strides, padding, rhs_dilation=dilations,
                                            dimension_numbers=dims,
                                            feature_group_count=groups)
    return conv


def _register_conv(fwd: str, backprop_input: str, backprop_filter: str, n: int, dw: bool):
    lowering(fwd)(lambda ctx, node, x, f: _conv_fn(node, n, dw)(x, f))

    @lowering(backprop_input)
    def _input(ctx, node, sizes, f, dy):
        shape = tuple(int(s) for s in static_value(sizes, node, "input_sizes"))
        _, transpose = jax.vjp(lambda x: _conv_fn(node, n, dw)(x, f), jnp.zeros(shape, dy.dtype))
        return transpose(dy)[0]

    @lowering(backprop_filter)
    def _filter(ctx, node, x, sizes, dy):
        shape = tuple(int(s) for s in static_value(sizes, node, "filter_sizes"))
        _, transpose = jax.vjp(lambda f: _conv_fn(node, n, dw)(x, f), jnp.zeros(shape, dy.dtype))
        return transpose(dy)[0]


for _fwd, _bin, _bfl, _n, _dw in (("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", 2,
                                   False),
                                  ("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2", 3,
                                   False),
                                  ("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
                                   "DepthwiseConv2dNativeBackpropFilter", 2, True)):
    _register_conv(_fwd, _bin, _bfl, _n, _dw)


def _pool_fn(node, kind: str):
    ksize, strides = tuple(node.attrs["ksize"]), tuple(node.attrs["strides"])
    padding = node.attrs["padding"]

    def pool(x):  # (numpy inits: JAX differentiates a window max/sum with a constant init)
        if kind == "max":
            init = -np.inf if jnp.issubdtype(x.dtype, jnp.floating) else np.iinfo(x.dtype).min
            return jax.lax.reduce_window(x, np.asarray(init, x.dtype), jax.lax.max, ksize,
                                         strides, padding)
        zero = np.zeros((), x.dtype)
        total = jax.lax.reduce_window(x, zero, jax.lax.add, ksize, strides, padding)
        count = jax.lax.reduce_window(np.ones(x.shape, x.dtype), zero, jax.lax.add, ksize,
                                      strides, padding)
        return total / count  # SAME padding averages over the valid cells, as TensorFlow
    return pool


for _suffix in ("", "3D"):
    lowering(f"MaxPool{_suffix}")(lambda ctx, node, x: _pool_fn(node, "max")(x))
    lowering(f"AvgPool{_suffix}")(lambda ctx, node, x: _pool_fn(node, "avg")(x))

    @lowering(f"MaxPool{_suffix}Grad")
    def _max_pool_grad(ctx, node, x, y, dy):
        return jax.vjp(_pool_fn(node, "max"), x)[1](dy)[0]

    @lowering(f"AvgPool{_suffix}Grad")
    def _avg_pool_grad(ctx, node, sizes, dy):
        shape = tuple(int(s) for s in static_value(sizes, node, "orig_input_shape"))
        return jax.vjp(_pool_fn(node, "avg"), jnp.zeros(shape, dy.dtype))[1](dy)[0]


@lowering("TopKV2")
def _top_k(ctx, node, x, k):
    values, indices = jax.lax.top_k(x, int(static_value(k, node, "k")))
    return values, indices


@lowering("InTopKV2")
def _in_top_k(ctx, node, predictions, targets, k):
    k = int(static_value(k, node, "k"))
    target = jnp.take_along_axis(predictions, targets[:, None].astype(jnp.int32), axis=1)
    better = jnp.sum(predictions > target, axis=1)
    return (better < k) & jnp.all(jnp.isfinite(predictions), axis=1)


@lowering("MaxPoolGradGrad", "MaxPool3DGradGrad")
def _max_pool_grad_grad(ctx, node, x, y, g):
    """The gradient of MaxPoolGrad with respect to its ``dy``: ``g`` read at each window's
    maximum, i.e. the pool's Jacobian applied to ``g`` (jvp)."""
    return jax.jvp(_pool_fn(node, "max"), (x,), (g,))[1]


@lowering("DepthToSpace")
def _depth_to_space(ctx, node, x):
    n, h, w, c = x.shape
    b = int(node.attrs["block_size"])
    blocks = jnp.reshape(x, (n, h, w, b, b, c // (b * b))).transpose(0, 1, 3, 2, 4, 5)
    return jnp.reshape(blocks, (n, h * b, w * b, c // (b * b)))


@lowering("SpaceToDepth")
def _space_to_depth(ctx, node, x):
    n, h, w, c = x.shape
    b = int(node.attrs["block_size"])
    blocks = jnp.reshape(x, (n, h // b, b, w // b, b, c)).transpose(0, 1, 3, 2, 4, 5)
    return jnp.reshape(blocks, (n, h // b, w // b, b * b * c))


@lowering("AdjustContrastv2")  # (graph/ops/image.py)
def _adjust_contrast(ctx, node, images, factor):
    mean = jnp.mean(images, axis=(-3, -2), keepdims=True)
    return (images - mean) * factor + mean
