"""Lowerings of graph/ops/nn.py: activations, softmax, the fused and CTC losses, BiasAdd,
convolution, pooling and morphological dilation."""
from __future__ import annotations

import functools

import jax
import jax.numpy as jnp
import numpy as np

from graph.ops.nn import _dilation_geometry, _lowest, _pool_geometry
from graph.xla.lowering import half_in_float32, lowering, static_value

_ACTIVATIONS = {
    "Relu6": lambda x: jnp.clip(x, 0, 6).astype(x.dtype),
    "Elu": jax.nn.elu, "Selu": jax.nn.selu, "Softplus": jax.nn.softplus,
    "Softsign": jax.nn.soft_sign,
    "Softmax": lambda x: _softmax(x, log=False), "LogSoftmax": lambda x: _softmax(x, log=True),
    "L2Loss": lambda x: jnp.sum(jnp.square(x), dtype=_sum_type(x.dtype)).astype(x.dtype) / 2,
}


def _sum_type(dtype):
    return jnp.float32 if dtype == jnp.float16 else dtype


def _softmax(x, log: bool):
    """TensorFlow's XLA softmax: the sum of exponentials accumulated in float32 for float16,
    each float16 step rounded on its own."""
    shifted = half_in_float32(jnp.subtract)(x, jnp.max(x, axis=-1, keepdims=True))
    e = half_in_float32(jnp.exp)(shifted)
    total = jnp.sum(e, axis=-1, keepdims=True, dtype=_sum_type(x.dtype)).astype(x.dtype)
    if log:
        return half_in_float32(jnp.subtract)(shifted, half_in_float32(jnp.log)(total))
    return half_in_float32(jnp.divide)(e, total)

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
    log_p = _softmax(features, log=True)
    return -jnp.sum(labels * log_p, axis=-1), jnp.exp(log_p) - labels


@lowering("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent(ctx, node, features, labels):
    """Loss and its gradient; an out-of-range label gives NaN, as TensorFlow's XLA kernel does
    (there is no run-time error in a compiled program)."""
    log_p = _softmax(features, log=True)
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


# -- morphological dilation and max pooling with argmax (windows of static taps) ---------------

def _taps(x, geometry, k, strides, rates, fill):
    """[N, out_h, out_w, kh * kw, C]: the padded input at each tap of each window (the numpy
    kernels' ``_windows``), one strided slice per tap."""
    (oh, top, bottom), (ow, left, right) = geometry
    xp = jnp.pad(x, [(0, 0), (top, bottom), (left, right), (0, 0)],
                 constant_values=np.asarray(fill, x.dtype))
    taps = [xp[:, dy * rates[1]: dy * rates[1] + strides[1] * (oh - 1) + 1: strides[1],
               dx * rates[2]: dx * rates[2] + strides[2] * (ow - 1) + 1: strides[2]]
            for dy in range(k[0]) for dx in range(k[1])]
    return jnp.stack(taps, axis=3)


def _dilation_sums(node, x, f):
    attrs = node.attrs
    g = _dilation_geometry("Dilation2D", x.shape, f.shape, attrs["strides"], attrs["rates"],
                           attrs["padding"])

    def taps(x):
        return _taps(x, g, f.shape[:2], attrs["strides"], attrs["rates"], _lowest(x.dtype))
    return taps(x) + jnp.reshape(f, (-1, f.shape[-1])), taps


@lowering("Dilation2D")
def _dilation2d(ctx, node, x, f):
    return jnp.max(_dilation_sums(node, x, f)[0], axis=3)


def _dilation_hits(node, x, f, dy):
    """The output gradient at each window's first maximum: [N, out_h, out_w, kh * kw, C]."""
    sums, taps = _dilation_sums(node, x, f)
    first = jax.nn.one_hot(jnp.argmax(sums, axis=3), sums.shape[3], axis=3, dtype=dy.dtype)
    return first * dy[:, :, :, None, :], taps


@lowering("Dilation2DBackpropInput")
def _dilation_backprop_input(ctx, node, x, f, dy):
    hits, taps = _dilation_hits(node, x, f, dy)
    return jax.vjp(taps, x)[1](hits)[0]  # each tap's gradient added back where it was read


@lowering("Dilation2DBackpropFilter")
def _dilation_backprop_filter(ctx, node, x, f, dy):
    return jnp.reshape(jnp.sum(_dilation_hits(node, x, f, dy)[0], axis=(0, 1, 2)), f.shape)


@lowering("MaxPoolWithArgmax")
def _max_pool_with_argmax(ctx, node, x):
    """Each window's max and where its first maximum is: ``(y * W + x) * C + c`` (plus
    ``b * H * W * C`` with ``include_batch_in_index``)."""
    attrs = node.attrs
    ksize, strides = attrs["ksize"], attrs["strides"]
    g = _pool_geometry("MaxPoolWithArgmax", x.shape, ksize, strides, attrs["padding"])
    taps = _taps(x, g, ksize[1:3], strides, (1, 1, 1, 1), _lowest(x.dtype))
    first = jnp.argmax(taps, axis=3)
    batch, height, width, depth = x.shape
    oy = np.arange(g[0][0]).reshape(1, -1, 1, 1) * strides[1] - g[0][1]
    ox = np.arange(g[1][0]).reshape(1, 1, -1, 1) * strides[2] - g[1][1]
    index = ((oy + first // ksize[2]) * width + ox + first % ksize[2]) * depth + np.arange(depth)
    if attrs.get("include_batch_in_index"):
        index = index + np.arange(batch).reshape(-1, 1, 1, 1) * (height * width * depth)
    return jnp.max(taps, axis=3), index


# -- CTC loss: the forward recursion in log space, its gradient by differentiating it -----------

_NO_PATH = -1e30  # a finite log(0): logsumexp and its gradient stay free of nan


def _logsumexp(*terms):
    top = jnp.maximum(functools.reduce(jnp.maximum, terms), _NO_PATH)
    return top + jnp.log(sum(jnp.exp(t - top) for t in terms))


def _ctc_log_likelihood(logits, ext, skip, ext_len, lengths):
    """log p(labels | logits) per batch entry: ``ext`` [batch, S] are the labels with blanks
    around them (``ext_len`` of them valid), ``skip`` where s - 2 -> s is allowed."""
    logp = jax.nn.log_softmax(logits, axis=-1)
    emit = jnp.take_along_axis(logp, jnp.broadcast_to(ext[None], logp.shape[:2] + ext.shape[1:]),
                               axis=2)  # [steps, batch, S]
    s = jnp.arange(ext.shape[1])
    valid = s[None, :] < ext_len[:, None]
    neg = jnp.asarray(_NO_PATH, logp.dtype)

    def shift(a, k):
        return jnp.concatenate([jnp.full(a.shape[:1] + (k,), neg), a[:, :-k]], axis=1)

    def step(alpha, inputs):
        t, e = inputs
        new = _logsumexp(alpha, shift(alpha, 1), jnp.where(skip, shift(alpha, 2), neg)) + e
        return jnp.where((t < lengths)[:, None], jnp.where(valid, new, neg), alpha), None
    alpha0 = jnp.where(valid & (s < 2)[None, :], emit[0], neg)
    steps = jnp.arange(1, logits.shape[0])
    alpha, _ = jax.lax.scan(step, alpha0, (steps, emit[1:]))
    last = jnp.take_along_axis(alpha, jnp.stack([ext_len - 1, jnp.maximum(ext_len - 2, 0)], 1),
                               axis=1)
    last = jnp.where(jnp.stack([ext_len > 0, ext_len > 1], 1), last, neg)
    return _logsumexp(last[:, 0], last[:, 1])


@lowering("CTCLoss")
def _ctc_loss(ctx, node, logits, indices, values, lengths):
    """TensorFlow's CTCLoss (blank = the last class; sparse labels, each row's values in
    order) and its gradient with respect to the logits, computed in float64 as the numpy
    kernel computes it. No alignment: loss inf and a zero gradient. Out-of-range labels or
    lengths and empty label rows are not reported (a compiled program cannot raise)."""
    steps, batch, classes = logits.shape
    count = values.shape[0]
    rows = indices[:, 0].astype(jnp.int32)
    same_row = rows[:, None] == rows[None, :]
    position = jnp.sum(same_row & (np.arange(count)[None, :] < np.arange(count)[:, None]), 1)
    label_len = jnp.sum(rows[None, :] == jnp.arange(batch)[:, None], axis=1)
    blank = classes - 1
    ext = jnp.full((batch, 2 * count + 1), blank, jnp.int32)
    ext = ext.at[rows, 2 * position + 1].set(values.astype(jnp.int32), mode="drop")
    skip = jnp.concatenate([jnp.zeros((batch, 2), bool),
                            (ext[:, 2:] != blank) & (ext[:, 2:] != ext[:, :-2])], axis=1)
    ext_len = 2 * label_len + 1
    lengths = lengths.astype(jnp.int32)
    if steps == 0:
        return (jnp.where(label_len == 0, 0, jnp.inf).astype(logits.dtype),
                jnp.zeros(logits.shape, logits.dtype))
    work = logits.astype(jnp.float64)
    loglik, vjp = jax.vjp(lambda x: _ctc_log_likelihood(x, ext, skip, ext_len, lengths), work)
    # a sequence of length 0 aligns only the empty label sequence
    loglik = jnp.where(lengths == 0, jnp.where(label_len == 0, 0.0, _NO_PATH), loglik)
    found = loglik > _NO_PATH / 2
    grad = jnp.where(found[None, :, None], -vjp(jnp.ones_like(loglik))[0], 0.0)
    grad = jnp.where((jnp.arange(steps)[:, None] < lengths[None, :])[..., None], grad, 0.0)
    return jnp.where(found, -loglik, jnp.inf).astype(logits.dtype), grad.astype(logits.dtype)
