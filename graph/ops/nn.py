"""Neural-network ops (tf.nn): activations, softmax, losses, convolution, pooling, top_k.

Convolution and pooling (2-D and 3-D) work on channels-last tensors (NHWC,
NDHWC), the only layout TensorFlow's CPU kernels take. A window geometry
(output size and padding per spatial dimension) is computed as TensorFlow
computes it: VALID keeps the windows that fit, SAME gives ``ceil(in / stride)``
outputs and pads the extra half before and the rest after. Kernels are
vectorized: windows are a strided view of the padded input (im2col by
``as_strided``) contracted with the filter, and their gradients scatter-add
back one filter tap at a time.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import bool_, float32, int32, int64
from graph.errors import InvalidArgumentError, UnimplementedError
from graph.ir import TensorType
from graph.ops.array import _shape_value
from graph.ops.infer import check_dtype, expect_arity, same_dtype
from graph.registry import register_op
from graph.shapes import TensorShape


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _dims(shape: TensorShape):
    return None if shape.rank is None else list(shape.as_tuple())


def _check_rank(op: str, x, rank: int, what: str = "input") -> list | None:
    dims = _dims(x.shape)
    if dims is not None and len(dims) != rank:
        raise _error(f"{op}: {what} must be {rank}-dimensional, got shape {dims}")
    return dims


# -- activations ------------------------------------------------------------------

_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


def _unary(op: str, allowed: str = "f"):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        check_dtype(op, inputs[0], allowed)
        return [TensorType(inputs[0].dtype, inputs[0].shape)]
    return infer


def _elu(x):
    return np.where(x > 0, x, np.expm1(np.minimum(x, 0))).astype(x.dtype, copy=False)


def _selu(x):
    neg = (_SELU_SCALE * _SELU_ALPHA) * np.expm1(np.minimum(x, 0))
    return np.where(x > 0, _SELU_SCALE * x, neg).astype(x.dtype, copy=False)


def _softplus(x):
    # log(1 + e^x) = max(x, 0) + log1p(e^-|x|): never overflows.
    return (np.maximum(x, 0) + np.log1p(np.exp(-np.abs(x)))).astype(x.dtype, copy=False)


def _softsign(x):
    return x / (1 + np.abs(x))


def _leaky_relu(x, alpha=0.2):
    return np.where(x > 0, x, x * np.asarray(alpha, x.dtype)).astype(x.dtype, copy=False)


def _relu6(x):
    return np.clip(x, 0, 6).astype(x.dtype, copy=False)


register_op("Relu6", _unary("Relu6", "fi"), _relu6)
register_op("Elu", _unary("Elu"), _elu)
register_op("Selu", _unary("Selu"), _selu)
register_op("Softplus", _unary("Softplus"), _softplus)
register_op("Softsign", _unary("Softsign"), _softsign)
register_op("LeakyRelu", _unary("LeakyRelu"), _leaky_relu, kernel_attrs=("alpha",))


# -- softmax and the fused losses ---------------------------------------------------

def _softmax_infer(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        check_dtype(op, x, "f")
        if x.shape.rank == 0:
            raise _error(f"{op}: logits must have >= 1 dimension, got shape []")
        return [TensorType(x.dtype, x.shape)]
    return infer


def _softmax(x):
    if x.size == 0:  # (no rows, or rows of nothing: an empty result, not a max of nothing)
        return x.copy()
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _log_softmax(x):
    if x.size == 0:
        return x.copy()
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


register_op("Softmax", _softmax_infer("Softmax"), _softmax)
register_op("LogSoftmax", _softmax_infer("LogSoftmax"), _log_softmax)


def _xent_infer(inputs, attrs):
    op = "SoftmaxCrossEntropyWithLogits"
    expect_arity(op, inputs, 2)
    features, labels = inputs
    dtype = same_dtype(op, inputs)
    check_dtype(op, features, "f")
    a, b = _dims(features.shape), _dims(labels.shape)
    if a is None or b is None:
        return [TensorType(dtype, TensorShape([None])),
                TensorType(dtype, TensorShape([None, None]))]
    if len(a) != 2 or len(b) != 2:
        raise _error("logits and labels must be either 2-dimensional, or broadcasted to be "
                     f"2-dimensional; got shapes {a} and {b}")
    dims = []
    for p, q in zip(a, b):
        if p is not None and q is not None and p != q and 1 not in (p, q):
            raise _error(f"logits and labels must be broadcastable: logits_size={a} "
                         f"labels_size={b}")
        dims.append(q if p in (None, 1) else p)
    return [TensorType(dtype, TensorShape(dims[:1])), TensorType(dtype, TensorShape(dims))]


def _xent(features, labels):
    features, labels = np.broadcast_arrays(features, labels)
    log_p = _log_softmax(features)
    loss = -np.sum(labels * log_p, axis=-1)
    return loss.astype(features.dtype, copy=False), (np.exp(log_p) - labels).astype(features.dtype)


def _sparse_xent_infer(inputs, attrs):
    op = "SparseSoftmaxCrossEntropyWithLogits"
    expect_arity(op, inputs, 2)
    features, labels = inputs
    check_dtype(op, features, "f")
    if not labels.dtype.is_integer:
        raise _error(f"{op}: labels must be int32 or int64, got {labels.dtype.name}")
    a, b = _check_rank(op, features, 2, "logits"), _check_rank(op, labels, 1, "labels")
    batch = None if a is None else a[0]
    if b is not None:
        if batch is not None and b[0] is not None and batch != b[0]:
            raise _error(f"logits and labels must have the same first dimension, got logits "
                         f"shape {a} and labels shape {b}")
        batch = batch if batch is not None else b[0]
    classes = None if a is None else a[1]
    return [TensorType(features.dtype, TensorShape([batch])),
            TensorType(features.dtype, TensorShape([batch, classes]))]


def _sparse_xent(features, labels):
    n = features.shape[-1]
    bad = (labels < 0) | (labels >= n)
    if np.any(bad):
        raise _error(f"Received a label value of {labels[bad][0]} which is outside the valid "
                     f"range of [0, {n}).  Label values: {' '.join(map(str, labels))}")
    log_p = _log_softmax(features)
    rows = np.arange(len(labels))
    loss = -log_p[rows, labels]
    backprop = np.exp(log_p)
    backprop[rows, labels] -= 1
    return loss.astype(features.dtype, copy=False), backprop.astype(features.dtype, copy=False)


register_op("SoftmaxCrossEntropyWithLogits", _xent_infer, _xent)
register_op("SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_infer, _sparse_xent)


# -- BiasAdd, L2Loss ------------------------------------------------------------------

def _bias_add_infer(inputs, attrs):
    expect_arity("BiasAdd", inputs, 2)
    value, bias = inputs
    dtype = same_dtype("BiasAdd", inputs)
    check_dtype("BiasAdd", value, "fi")
    v, b = _dims(value.shape), _check_rank("BiasAdd", bias, 1, "bias")
    if v is None:
        return [TensorType(dtype, value.shape)]
    if len(v) < 2:
        raise _error(f"BiasAdd: Input tensor must be at least 2D: {v}")
    channel = 1 if attrs.get("data_format", "NHWC") == "NCHW" else -1
    if b is not None and None not in (b[0], v[channel]) and b[0] != v[channel]:
        side = "second" if channel == 1 else "last"
        raise _error(f"Must provide as many biases as the {side} dimension of the input "
                     f"tensor: {b} vs. {v}")
    if v[channel] is None and b is not None:
        v[channel] = b[0]
    return [TensorType(dtype, TensorShape(v))]


def _bias_add(value, bias, data_format="NHWC"):
    if data_format == "NCHW":
        bias = bias.reshape((-1,) + (1,) * (value.ndim - 2))
    return value + bias


def _l2_loss_infer(inputs, attrs):
    expect_arity("L2Loss", inputs, 1)
    check_dtype("L2Loss", inputs[0], "f")
    return [TensorType(inputs[0].dtype, TensorShape([]))]


def _l2_loss(x):
    return np.asarray(np.sum(np.square(x)) / 2, dtype=x.dtype)


register_op("BiasAdd", _bias_add_infer, _bias_add, kernel_attrs=("data_format",))
register_op("L2Loss", _l2_loss_infer, _l2_loss)


# -- window geometry ------------------------------------------------------------------

def _geometry(op, size, k, stride, dilation, padding, explicit=(0, 0)):
    """(output size, pad before, pad after) of one spatial dimension, as TensorFlow computes it."""
    if size is None or k is None:
        return None, 0, 0
    eff = (k - 1) * dilation + 1
    if padding == "SAME":
        out = -(-size // stride)
        total = max((out - 1) * stride + eff - size, 0)
        return out, total // 2, total - total // 2
    before, after = explicit
    room = size + before + after + stride - eff
    out = room // stride if room >= 0 else -(-room // stride)  # C++ division truncates
    if out < 0:
        raise _error(f"{op}: Computed output size would be negative: {out} [input_size: "
                     f"{size + before + after}, effective_filter_size: {eff}, stride: {stride}]")
    return out, before, after


def _check_window_list(op: str, attrs, key: str, n: int, default=None) -> None:
    values = list(attrs.get(key, default))
    if len(values) != n + 2:
        raise _error(f"{op}: Sliding window {key} field must specify {n + 2} dimensions, "
                     f"got {values}")
    if values[0] != 1 or values[-1] != 1:
        raise UnimplementedError(
            message=f"{op}: Current implementation does not yet support {key} in the batch "
                    "and depth dimensions.")
    if min(values) < 1:
        raise _error(f"{op}: {key} must be positive, got {values}")


def _check_window_attrs(op: str, attrs, n: int, pool: bool) -> None:
    """Checks padding, layout, strides and ksize/dilations of an op with ``n`` spatial dims."""
    padding = attrs["padding"]
    allowed = ("SAME", "VALID") if pool or n != 2 else ("SAME", "VALID", "EXPLICIT")
    if padding not in allowed:
        raise _error(f"{op}: padding must be one of {', '.join(allowed)}, got {padding!r}")
    fmt = attrs.get("data_format") or _LAYOUT[n]
    if fmt != _LAYOUT[n]:
        raise UnimplementedError(
            message=f"{op}: the CPU kernels take {_LAYOUT[n]} tensors only, got "
                    f"data_format={fmt!r}")
    _check_window_list(op, attrs, "strides", n)
    _check_window_list(op, attrs, "ksize" if pool else "dilations", n, (1,) * (n + 2))


_LAYOUT = {2: "NHWC", 3: "NDHWC"}


def _spatial(op, dims, kdims, attrs):
    """Per spatial dimension: (out, before, after), from the attrs of a conv or pool op."""
    n = len(dims)
    strides = attrs["strides"]
    dilations = attrs.get("dilations") or (1,) * (n + 2)
    explicit = list(attrs.get("explicit_paddings") or [0] * (2 * n + 4))
    return [_geometry(op, dims[i], kdims[i], strides[i + 1], dilations[i + 1], attrs["padding"],
                      tuple(explicit[2 * i + 2: 2 * i + 4])) for i in range(n)]


def _windows(x, geometry, k, strides, dilations, fill=0):
    """The windows of channels-last ``x``: a read-only view [N, *out, *k, C] of the padded input."""
    pads = [(0, 0)] + [(g[1], g[2]) for g in geometry] + [(0, 0)]
    xp = np.pad(x, pads, constant_values=fill) if any(map(any, pads)) else np.ascontiguousarray(x)
    n = len(geometry)
    spatial = xp.strides[1:-1]
    return np.lib.stride_tricks.as_strided(
        xp, shape=(xp.shape[0], *(g[0] for g in geometry), *k, xp.shape[-1]),
        strides=(xp.strides[0], *(spatial[i] * strides[i + 1] for i in range(n)),
                 *(spatial[i] * dilations[i + 1] for i in range(n)), xp.strides[-1]),
        writeable=False)


def _unwindow(cols, in_shape, geometry, strides, dilations):
    """The adjoint of ``_windows``: adds window values [N, *out, *k, C] back to the input."""
    n = len(geometry)
    padded = [in_shape[0]] + [in_shape[i + 1] + g[1] + g[2] for i, g in enumerate(geometry)]
    out = np.zeros(padded + [in_shape[-1]], dtype=cols.dtype)
    if all(g[0] for g in geometry):
        for tap in np.ndindex(*cols.shape[n + 1: 2 * n + 1]):
            where = tuple(slice(t * dilations[i + 1],
                                t * dilations[i + 1] + strides[i + 1] * (g[0] - 1) + 1,
                                strides[i + 1]) for i, (t, g) in enumerate(zip(tap, geometry)))
            out[(slice(None),) + where] += cols[(slice(None),) * (n + 1) + tap]
    crop = tuple(slice(g[1], g[1] + in_shape[i + 1]) for i, g in enumerate(geometry))
    return out[(slice(None),) + crop]


# -- convolution ------------------------------------------------------------------------

def _conv_shape(op, n, x_dims, f_dims, attrs, depthwise):
    """The output shape of a (depthwise) convolution from input and filter dims (None: unknown)."""
    x_dims = x_dims or [None] * (n + 2)
    f_dims = f_dims or [None] * (n + 2)
    if None not in (x_dims[-1], f_dims[n]) and x_dims[-1] != f_dims[n]:
        if depthwise:
            raise _error(f"{op}: input and filter must have the same depth: "
                         f"{x_dims[-1]} vs {f_dims[n]}")
        raise _error(f"{op}: input depth must be evenly divisible by filter depth: "
                     f"{x_dims[-1]} vs {f_dims[n]} (input shape {x_dims}, filter shape "
                     f"{f_dims}; the filter is [*spatial, in_channels, out_channels])")
    outs = [g[0] for g in _spatial(op, x_dims[1:-1], f_dims[:n], attrs)]
    if depthwise:
        depth = None if None in f_dims[n:] else f_dims[n] * f_dims[n + 1]
    else:
        depth = f_dims[-1]
    return TensorShape([x_dims[0]] + outs + [depth])


def _conv_infer(op: str, n: int, depthwise: bool = False):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        dtype = same_dtype(op, inputs)
        check_dtype(op, inputs[0], "f" if depthwise or n != 2 else "fi")
        _check_window_attrs(op, attrs, n, pool=False)
        x = _check_rank(op, inputs[0], n + 2)
        f = _check_rank(op, inputs[1], n + 2, "filter")
        return [TensorType(dtype, _conv_shape(op, n, x, f, attrs, depthwise))]
    return infer


def _sizes_input(op, inp, what, n):
    if not inp.dtype.is_integer:
        raise _error(f"{op}: {what} must be an int32 vector, got {inp.dtype.name}")
    sizes = _shape_value(inp)
    if sizes is not None and len(sizes) != n + 2:
        raise _error(f"{op}: {what} must have {n + 2} elements, got {sizes}")
    return sizes or [None] * (n + 2)


def _backprop_infer(op: str, n: int, wrt_input: bool):
    """Conv*BackpropInput (input_sizes, filter, out_backprop) or
    Conv*BackpropFilter (input, filter_sizes, out_backprop)."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 3)
        sizes, tensor, dy = (inputs[0], inputs[1], inputs[2]) if wrt_input else \
            (inputs[1], inputs[0], inputs[2])
        dtype = same_dtype(op, [tensor, dy])
        check_dtype(op, tensor, "f")
        _check_window_attrs(op, attrs, n, pool=False)
        _check_rank(op, tensor, n + 2, "filter" if wrt_input else "input")
        _check_rank(op, dy, n + 2, "out_backprop")
        dims = _sizes_input(op, sizes, "input_sizes" if wrt_input else "filter_sizes", n)
        return [TensorType(dtype, TensorShape(dims))]
    return infer


def _check_out_backprop(op, dy, batch, geometry, depth):
    want = (batch, *(g[0] for g in geometry), depth)
    if tuple(dy.shape) != want:
        raise _error(f"{op}: out_backprop has shape {list(dy.shape)}, but the convolution "
                     f"computes shape {list(want)}")


def _conv_kernels(op: str, n: int, depthwise: bool):
    """The forward, backprop-input and backprop-filter kernels of one convolution op family.

    A plain convolution contracts the windows [N, *out, *k, C] with the filter [*k, C, O];
    a depthwise one keeps C and contracts the taps only, with [*k, C, M] filters.
    """
    taps = list(range(n + 1, 2 * n + 1))
    lead = list(range(n + 1))

    def attrs_of(strides, padding, dilations, explicit_paddings):
        return {"strides": strides, "padding": padding, "dilations": dilations or (1,) * (n + 2),
                "explicit_paddings": explicit_paddings}

    def forward(x, f, strides, padding, dilations=None, explicit_paddings=None):
        attrs = attrs_of(strides, padding, dilations, explicit_paddings)
        g = _spatial(op, x.shape[1:-1], f.shape[:n], attrs)
        cols = _windows(x, g, f.shape[:n], strides, attrs["dilations"])
        if depthwise:
            out = np.einsum(cols, lead + taps + [2 * n + 1], f, taps + [2 * n + 1, 2 * n + 2],
                            lead + [2 * n + 1, 2 * n + 2])
            out = out.reshape(out.shape[:n + 1] + (-1,))
        else:
            out = np.tensordot(cols, f, axes=(taps + [2 * n + 1], list(range(n + 1))))
        return out.astype(x.dtype, copy=False)

    def backprop_input(sizes, f, dy, strides, padding, dilations=None, explicit_paddings=None):
        attrs = attrs_of(strides, padding, dilations, explicit_paddings)
        shape = tuple(int(s) for s in sizes)
        if shape[-1] != f.shape[n]:
            raise _error(f"{op}BackpropInput: input depth {shape[-1]} (input_sizes "
                         f"{list(shape)}) must equal the filter's in_channels {f.shape[n]} "
                         f"(filter shape {list(f.shape)})")
        g = _spatial(op, shape[1:-1], f.shape[:n], attrs)
        out_depth = f.shape[n] * f.shape[n + 1] if depthwise else f.shape[-1]
        _check_out_backprop(f"{op}BackpropInput", dy, shape[0], g, out_depth)
        if depthwise:
            dy = dy.reshape(dy.shape[:n + 1] + f.shape[n:])
            cols = np.einsum(dy, lead + [2 * n + 1, 2 * n + 2], f, taps + [2 * n + 1, 2 * n + 2],
                             lead + taps + [2 * n + 1])
        else:
            cols = np.tensordot(dy, f, axes=([n + 1], [n + 1]))  # [N, *out, *k, C]
        return _unwindow(cols, shape, g, strides, attrs["dilations"])

    def backprop_filter(x, sizes, dy, strides, padding, dilations=None, explicit_paddings=None):
        attrs = attrs_of(strides, padding, dilations, explicit_paddings)
        shape = tuple(int(s) for s in sizes)
        g = _spatial(op, x.shape[1:-1], shape[:n], attrs)
        out_depth = shape[n] * shape[n + 1] if depthwise else shape[-1]
        _check_out_backprop(f"{op}BackpropFilter", dy, x.shape[0], g, out_depth)
        cols = _windows(x, g, shape[:n], strides, attrs["dilations"])
        if depthwise:
            dy = dy.reshape(dy.shape[:n + 1] + shape[n:])
            out = np.einsum(cols, lead + taps + [2 * n + 1], dy, lead + [2 * n + 1, 2 * n + 2],
                            taps + [2 * n + 1, 2 * n + 2])
        else:
            out = np.tensordot(cols, dy, axes=(lead, lead))
        return out.astype(x.dtype, copy=False)

    return forward, backprop_input, backprop_filter


_CONV_ATTRS = ("strides", "padding", "dilations", "explicit_paddings")

# forward op, backprop-input op, backprop-filter op, spatial dims, depthwise
CONV_OPS = [("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter", 2, False),
            ("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2", 3, False),
            ("DepthwiseConv2dNative", "DepthwiseConv2dNativeBackpropInput",
             "DepthwiseConv2dNativeBackpropFilter", 2, True)]

for _fwd, _bin, _bfl, _n, _dw in CONV_OPS:
    _kf, _ki, _kw = _conv_kernels(_fwd, _n, _dw)
    register_op(_fwd, _conv_infer(_fwd, _n, _dw), _kf, kernel_attrs=_CONV_ATTRS)
    register_op(_bin, _backprop_infer(_bin, _n, True), _ki, kernel_attrs=_CONV_ATTRS)
    register_op(_bfl, _backprop_infer(_bfl, _n, False), _kw, kernel_attrs=_CONV_ATTRS)


# -- pooling ----------------------------------------------------------------------------

def _pool_infer(op: str, n: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        check_dtype(op, inputs[0], "f" if op.startswith("Avg") else "fi")
        _check_window_attrs(op, attrs, n, pool=True)
        x = _check_rank(op, inputs[0], n + 2) or [None] * (n + 2)
        outs = [g[0] for g in _spatial(op, x[1:-1], list(attrs["ksize"])[1:-1], attrs)]
        return [TensorType(inputs[0].dtype, TensorShape([x[0]] + outs + [x[-1]]))]
    return infer


def _max_pool_grad_infer(op: str, n: int, shaped_like: int = 0):
    """MaxPoolGrad (shaped as the pool's input, input 0) and MaxPoolGradGrad (as the
    pool's output, input 1): (orig_input, orig_output, grad), one dtype."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 3)
        dtype = same_dtype(op, inputs)
        _check_window_attrs(op, attrs, n, pool=True)
        return [TensorType(dtype, inputs[shaped_like].shape)]
    return infer


def _max_pool_grad_grad_infer(op: str, n: int):
    return _max_pool_grad_infer(op, n, shaped_like=1)


def _avg_pool_grad_infer(op: str, n: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        check_dtype(op, inputs[1], "f")
        _check_window_attrs(op, attrs, n, pool=True)
        dims = _sizes_input(op, inputs[0], "orig_input_shape", n)
        return [TensorType(inputs[1].dtype, TensorShape(dims))]
    return infer


def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


_UNDILATED = (1, 1, 1, 1, 1)  # pooling windows are dense


def _pool_geometry(op, shape, ksize, strides, padding):
    return _spatial(op, shape[1:-1], ksize[1:-1], {"strides": strides, "padding": padding})


def _window_counts(shape, geometry, ksize, strides, dtype):
    """How many real (unpadded) inputs each window holds: [1, *out, 1]."""
    n = len(geometry)
    ones = np.ones((1,) + tuple(shape[1:-1]) + (1,), dtype=dtype)
    return _windows(ones, geometry, ksize[1:-1], strides, _UNDILATED).sum(
        axis=tuple(range(n + 1, 2 * n + 1)))


def _pool_kernels(suffix: str):
    """MaxPool, AvgPool and their gradients for any number of spatial dims (from the input)."""
    def max_pool(x, ksize, strides, padding):
        g = _pool_geometry(f"MaxPool{suffix}", x.shape, ksize, strides, padding)
        cols = _windows(x, g, ksize[1:-1], strides, _UNDILATED, fill=_lowest(x.dtype))
        return cols.max(axis=tuple(range(len(g) + 1, 2 * len(g) + 1)))

    def max_pool_grad(x, y, dy, ksize, strides, padding):
        """Each output's gradient goes to the first maximum of its window, as TensorFlow's."""
        g = _pool_geometry(f"MaxPool{suffix}Grad", x.shape, ksize, strides, padding)
        n = len(g)
        cols = _windows(x, g, ksize[1:-1], strides, _UNDILATED, fill=_lowest(x.dtype))
        flat = cols.reshape(cols.shape[:n + 1] + (-1, cols.shape[-1]))
        first = flat.argmax(axis=n + 1)
        hit = np.arange(flat.shape[n + 1]).reshape((-1, 1)) == first[..., None, :]
        dcols = (hit * dy[..., None, :]).astype(dy.dtype, copy=False)
        return _unwindow(dcols.reshape(cols.shape), x.shape, g, strides, _UNDILATED)

    def max_pool_grad_grad(x, y, g, ksize, strides, padding):
        """The gradient of MaxPoolGrad w.r.t. its ``grad``: g at each window's first maximum."""
        geometry = _pool_geometry(f"MaxPool{suffix}GradGrad", x.shape, ksize, strides, padding)
        n = len(geometry)
        cols = _windows(x, geometry, ksize[1:-1], strides, _UNDILATED, fill=_lowest(x.dtype))
        first = cols.reshape(cols.shape[:n + 1] + (-1, cols.shape[-1])).argmax(axis=n + 1)
        g_cols = _windows(g, geometry, ksize[1:-1], strides, _UNDILATED)
        g_flat = g_cols.reshape(g_cols.shape[:n + 1] + (-1, g_cols.shape[-1]))
        return np.take_along_axis(g_flat, first[..., None, :], axis=n + 1)[..., 0, :]

    def avg_pool(x, ksize, strides, padding):
        g = _pool_geometry(f"AvgPool{suffix}", x.shape, ksize, strides, padding)
        n = len(g)
        taps = tuple(range(n + 1, 2 * n + 1))
        sums = _windows(x, g, ksize[1:-1], strides, _UNDILATED).sum(axis=taps)
        counts = _window_counts(x.shape, g, ksize, strides, x.dtype)
        return (sums / counts).astype(x.dtype, copy=False)

    def avg_pool_grad(sizes, dy, ksize, strides, padding):
        shape = tuple(int(s) for s in sizes)
        g = _pool_geometry(f"AvgPool{suffix}Grad", shape, ksize, strides, padding)
        n = len(g)
        share = dy / _window_counts(shape, g, ksize, strides, dy.dtype)
        cols = np.broadcast_to(share.reshape(share.shape[:-1] + (1,) * n + share.shape[-1:]),
                               share.shape[:-1] + tuple(ksize[1:-1]) + share.shape[-1:])
        return _unwindow(cols.astype(dy.dtype, copy=False), shape, g, strides, _UNDILATED)

    return max_pool, max_pool_grad, max_pool_grad_grad, avg_pool, avg_pool_grad


_POOL_ATTRS = ("ksize", "strides", "padding")

for _suffix, _n in (("", 2), ("3D", 3)):
    _kernels = dict(zip(("MaxPool", "MaxPoolGrad", "MaxPoolGradGrad", "AvgPool", "AvgPoolGrad"),
                        _pool_kernels(_suffix)))
    _rules = {"MaxPool": _pool_infer, "MaxPoolGrad": _max_pool_grad_infer,
              "MaxPoolGradGrad": _max_pool_grad_grad_infer, "AvgPool": _pool_infer,
              "AvgPoolGrad": _avg_pool_grad_infer}
    for _kind, _kernel in _kernels.items():
        _name = _kind[:7] + _suffix + _kind[7:]  # MaxPool3DGrad, as TensorFlow names it
        register_op(_name, _rules[_kind](_name, _n), _kernel, kernel_attrs=_POOL_ATTRS)


# -- DepthToSpace, SpaceToDepth -------------------------------------------------------------

def _block_infer(op: str, to_depth: bool):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        b = int(attrs["block_size"])
        if b < 2:
            raise _error(f"Value for attr 'block_size' of {b} must be at least minimum 2")
        if attrs.get("data_format", "NHWC") != "NHWC":
            raise UnimplementedError(message=f"{op}: only the NHWC data format is supported")
        dims = _dims(inputs[0].shape)
        if dims is None:
            return [TensorType(inputs[0].dtype, TensorShape([None] * 4))]
        if len(dims) != 4:
            raise _error(f"Input rank should be: 4 instead of: {len(dims)}")
        n, h, w, c = dims
        if to_depth:
            if (h is not None and h % b) or (w is not None and w % b):
                raise _error(f"Image width {w} and height {h} should be divisible by "
                             f"block_size: {b}")
            shape = [n, _div(h, b), _div(w, b), _mul(c, b * b)]
        else:
            if c is not None and c % (b * b):
                raise _error(f"Input depth dimension {c} should be divisible by: {b * b}")
            shape = [n, _mul(h, b), _mul(w, b), _div(c, b * b)]
        return [TensorType(inputs[0].dtype, TensorShape(shape))]
    return infer


def _div(d, k):
    return None if d is None else d // k


def _mul(d, k):
    return None if d is None else d * k


def _depth_to_space(x, block_size, data_format="NHWC"):
    """output[n, h*b + i, w*b + j, c] = input[n, h, w, (i*b + j)*C' + c]."""
    n, h, w, c = x.shape
    b = block_size
    if c % (b * b):
        raise _error(f"Input depth dimension {c} should be divisible by: {b * b}")
    blocks = x.reshape(n, h, w, b, b, c // (b * b)).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(blocks).reshape(n, h * b, w * b, c // (b * b))


def _space_to_depth(x, block_size, data_format="NHWC"):
    """The inverse of DepthToSpace: each b x b block becomes one pixel of b*b*C channels."""
    n, h, w, c = x.shape
    b = block_size
    if h % b or w % b:
        raise _error(f"Image width {w} and height {h} should be divisible by block_size: {b}")
    blocks = x.reshape(n, h // b, b, w // b, b, c).transpose(0, 1, 3, 2, 4, 5)
    return np.ascontiguousarray(blocks).reshape(n, h // b, w // b, b * b * c)


register_op("DepthToSpace", _block_infer("DepthToSpace", False), _depth_to_space,
            kernel_attrs=("block_size", "data_format"))
register_op("SpaceToDepth", _block_infer("SpaceToDepth", True), _space_to_depth,
            kernel_attrs=("block_size", "data_format"))


# -- TopKV2, InTopKV2 --------------------------------------------------------------------

def _top_k_infer(inputs, attrs):
    expect_arity("TopKV2", inputs, 2)
    x, k_in = inputs
    check_dtype("TopKV2", x, "fi")
    if not k_in.dtype.is_integer or k_in.shape.rank not in (None, 0):
        raise _error(f"TopKV2: k must be an integer scalar, got a {k_in.dtype.name} tensor of "
                     f"shape {k_in.shape}")
    k = None if k_in.value is None else int(k_in.value)
    dims = _dims(x.shape)
    if k is not None and k < 0:
        raise _error(f"TopKV2: Need k >= 0, got {k}")
    if dims is not None:
        if not dims:
            raise _error("TopKV2: input must be >= 1-D, got shape []")
        if k is not None and dims[-1] is not None and dims[-1] < k:
            raise _error(f"input must have at least k columns. Had {dims[-1]}, needed {k}")
        shape = TensorShape(dims[:-1] + [k])
    else:
        shape = TensorShape(None)
    return [TensorType(x.dtype, shape), TensorType(int32, shape)]


def _top_k(x, k, sorted=True):  # noqa: A002  (TensorFlow's attr name)
    k, n = int(k), x.shape[-1]
    if n < k:
        raise _error(f"input must have at least k columns. Had {n}, needed {k}")
    # A stable ascending sort of the reversed row, read backwards: descending, and equal
    # values keep their order (the lower index first, as TensorFlow's), with no negation.
    order = n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1][..., :k]
    return np.take_along_axis(x, order, axis=-1), order.astype(np.int32)


def _in_top_k_infer(inputs, attrs):
    expect_arity("InTopKV2", inputs, 3)
    predictions, targets, k = inputs
    if predictions.dtype.name != "float32":
        raise _error(f"InTopKV2: predictions must be float32, got {predictions.dtype.name}")
    if not targets.dtype.is_integer or targets.dtype != k.dtype:
        raise _error(f"InTopKV2: targets and k must be int32 or int64 of one dtype, got "
                     f"{targets.dtype.name} and {k.dtype.name}")
    p = _check_rank("InTopKV2", predictions, 2, "predictions")
    t = _check_rank("InTopKV2", targets, 1, "targets")
    batch = p[0] if p is not None else None
    if t is not None and batch is not None and t[0] is not None and t[0] != batch:
        raise _error(f"InTopKV2: First dimension of predictions {batch} must match length of "
                     f"targets {t[0]}")
    return [TensorType(bool_, TensorShape([batch if batch is not None else (t or [None])[0]]))]


def _in_top_k(predictions, targets, k):
    """True where fewer than k classes score strictly higher than the target; False for
    a target out of range or whose score is not finite, as TensorFlow's kernel."""
    n = predictions.shape[1]
    if n == 0:  # (no classes: no target is among the top k)
        return np.zeros(len(targets), dtype=bool)
    valid = (targets >= 0) & (targets < n)
    rows = np.arange(len(targets))
    target = predictions[rows, np.where(valid, targets, 0)]
    higher = np.sum(predictions > target[:, None], axis=1)
    return valid & np.isfinite(target) & (higher < int(k))


register_op("TopKV2", _top_k_infer, _top_k, kernel_attrs=("sorted",))
register_op("InTopKV2", _in_top_k_infer, _in_top_k)


# -- max pooling with argmax, CTC greedy decoding, isotonic regression --------------------------

def _pool_argmax_infer(inputs, attrs):
    pooled = _pool_infer("MaxPoolWithArgmax", 2)(inputs, attrs)[0]
    index = attrs["Targmax"]
    if index.name not in ("int32", "int64"):
        raise _error(f"MaxPoolWithArgmax: Targmax must be int32 or int64, got {index.name}")
    return [pooled, TensorType(index, pooled.shape)]


def _max_pool_with_argmax(x, ksize, strides, padding, Targmax, include_batch_in_index):
    """The max of each window and where it is: ``(y * W + x) * C + c`` in the input (plus
    ``b * H * W * C`` with ``include_batch_in_index``); ties give the first, as TF's kernel."""
    g = _pool_geometry("MaxPoolWithArgmax", x.shape, ksize, strides, padding)
    cols = _windows(x, g, ksize[1:-1], strides, _UNDILATED, fill=_lowest(x.dtype))
    flat = cols.reshape(cols.shape[:3] + (-1, cols.shape[-1]))
    first = flat.argmax(axis=3)
    batch, height, width, depth = x.shape
    oy = np.arange(g[0][0]).reshape(1, -1, 1, 1) * strides[1] - g[0][1]
    ox = np.arange(g[1][0]).reshape(1, 1, -1, 1) * strides[2] - g[1][1]
    y, xx = oy + first // ksize[2], ox + first % ksize[2]
    index = (y * width + xx) * depth + np.arange(depth)
    if include_batch_in_index:
        index = index + np.arange(batch).reshape(-1, 1, 1, 1) * (height * width * depth)
    pooled = np.take_along_axis(flat, first[:, :, :, None, :], axis=3)[:, :, :, 0, :]
    return pooled, index.astype(Targmax.numpy_dtype)


register_op("MaxPoolWithArgmax", _pool_argmax_infer, _max_pool_with_argmax,
            kernel_attrs=("ksize", "strides", "padding", "Targmax", "include_batch_in_index"))


def _decoder_inputs(op: str, inputs):
    """A CTC decoder's float [time, batch, classes] logits and int32 [batch] lengths; the
    logits and their dimensions (None where unknown)."""
    expect_arity(op, inputs, 2)
    logits, lengths = inputs
    check_dtype(op, logits, "f")
    dims = _check_rank(op, logits, 3, "inputs") or [None] * 3
    if lengths.dtype != int32:
        raise _error(f"{op}: sequence_length must be int32, got {lengths.dtype.name}")
    _check_rank(op, lengths, 1, "sequence_length")
    return logits, dims


def _ctc_greedy_infer(inputs, attrs):
    logits, dims = _decoder_inputs("CTCGreedyDecoder", inputs)
    return [TensorType(int64, TensorShape([None, 2])), TensorType(int64, TensorShape([None])),
            TensorType(int64, TensorShape([2])),
            TensorType(logits.dtype, TensorShape([dims[1], 1]))]


def _ctc_greedy_decoder(logits, lengths, merge_repeated=True):
    """Best class per step (the last class is the blank); repeats merged unless a blank
    separates them; the log probability is minus the sum of the steps' best logits."""
    steps, batch, _ = logits.shape
    if np.any(lengths > steps) or np.any(lengths < 0):
        raise _error(f"CTCGreedyDecoder: sequence_length must be in [0, {steps}], got "
                     f"{lengths.tolist()}")
    blank = logits.shape[2] - 1
    best = logits.argmax(axis=2)
    indices, values = [], []
    log_prob = np.zeros((batch, 1), dtype=logits.dtype)
    longest = 0
    for b in range(batch):
        prev, row = -1, []
        for t in range(lengths[b]):
            c = int(best[t, b])
            log_prob[b, 0] -= logits[t, b, c]
            if c != blank and not (merge_repeated and c == prev):
                row.append(c)
            prev = c
        indices.extend([b, i] for i in range(len(row)))
        values.extend(row)
        longest = max(longest, len(row))
    return (np.array(indices, dtype=np.int64).reshape(-1, 2), np.array(values, dtype=np.int64),
            np.array([batch, longest], dtype=np.int64), log_prob)


register_op("CTCGreedyDecoder", _ctc_greedy_infer, _ctc_greedy_decoder,
            kernel_attrs=("merge_repeated",))


def _isotonic_infer(inputs, attrs):
    expect_arity("IsotonicRegression", inputs, 1)
    check_dtype("IsotonicRegression", inputs[0], "f")
    return [TensorType(inputs[0].dtype, inputs[0].shape), TensorType(int32, inputs[0].shape)]


def _isotonic_row(row):
    """Pool adjacent violators: the non-increasing fit; blocks as [sum, count, start]."""
    blocks = []
    for i, v in enumerate(row):
        blocks.append([float(v), 1, i])
        while len(blocks) > 1 and blocks[-2][0] * blocks[-1][1] < blocks[-1][0] * blocks[-2][1]:
            s, n, _ = blocks.pop()
            blocks[-1][0] += s
            blocks[-1][1] += n
    out, seg = np.empty(len(row)), np.empty(len(row), dtype=np.int32)
    for k, (s, n, start) in enumerate(blocks):
        out[start:start + n], seg[start:start + n] = s / n, k
    return out, seg


def _isotonic_regression(x):
    """A non-increasing least-squares fit of each row (last axis) and its segment ids."""
    if x.size == 0:
        return x.copy(), np.zeros(x.shape, dtype=np.int32)
    rows = x.reshape(-1, x.shape[-1]) if x.ndim else x.reshape(1, 1)
    fits = [_isotonic_row(r) for r in rows]
    out = np.array([f[0] for f in fits], dtype=x.dtype).reshape(x.shape)
    seg = np.array([f[1] for f in fits], dtype=np.int32).reshape(x.shape)
    return out, seg


register_op("IsotonicRegression", _isotonic_infer, _isotonic_regression)


# -- morphological dilation (erosion is a dilation of the negated input) ----------------------

def _dilation_geometry(op, x_shape, f_shape, strides, rates, padding):
    return _spatial(op, list(x_shape[1:3]), list(f_shape[:2]),
                    {"strides": strides, "dilations": rates, "padding": padding})


def _dilation_check(op, x, f, attrs):
    same_dtype(op, [x, f])
    check_dtype(op, x, "fi")
    _check_window_list(op, attrs, "strides", 2)
    _check_window_list(op, attrs, "rates", 2)
    if attrs["padding"] not in ("SAME", "VALID"):
        raise _error(f"{op}: padding must be SAME or VALID, got {attrs['padding']!r}")
    xd = _check_rank(op, x, 4) or [None] * 4
    fd = _check_rank(op, f, 3, "filter") or [None] * 3
    if xd[3] is not None and fd[2] is not None and xd[3] != fd[2]:
        raise _error(f"{op}: input and filter must have the same depth: {xd[3]} vs {fd[2]}")
    return xd, fd


def _dilation_infer(inputs, attrs):
    expect_arity("Dilation2D", inputs, 2)
    xd, fd = _dilation_check("Dilation2D", inputs[0], inputs[1], attrs)
    g = _dilation_geometry("Dilation2D", xd, fd, attrs["strides"], attrs["rates"],
                           attrs["padding"])
    return [TensorType(inputs[0].dtype, TensorShape([xd[0], g[0][0], g[1][0], xd[3]]))]


def _dilation_backprop_infer(op: str, wrt: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 3)
        _dilation_check(op, inputs[0], inputs[1], attrs)
        return [TensorType(inputs[wrt].dtype, inputs[wrt].shape)]
    return infer


def _dilation_windows(x, f, strides, rates, padding):
    """[N, oh, ow, kh*kw, C] of input + filter over each window, and the geometry."""
    g = _dilation_geometry("Dilation2D", x.shape, f.shape, strides, rates, padding)
    cols = _windows(x, g, f.shape[:2], strides, rates, fill=_lowest(x.dtype))
    sums = cols + f.astype(x.dtype)
    return sums.reshape(sums.shape[:3] + (-1, sums.shape[-1])), g


def _dilation2d(x, f, strides, rates, padding):
    """``max over (dy, dx) of x[y*s + dy*r, x*s + dx*r] + filter[dy, dx]``, per channel."""
    sums, _ = _dilation_windows(x, f, strides, rates, padding)
    return sums.max(axis=3)


def _dilation_hits(x, f, dy, strides, rates, padding):
    """One-hot of each window's first maximum, times the output gradient: [N,oh,ow,kh*kw,C]."""
    sums, g = _dilation_windows(x, f, strides, rates, padding)
    first = sums.argmax(axis=3)
    hit = np.arange(sums.shape[3]).reshape(-1, 1) == first[:, :, :, None, :]
    return (hit * dy[:, :, :, None, :]).astype(dy.dtype, copy=False), g


def _dilation_backprop_input(x, f, dy, strides, rates, padding):
    hits, g = _dilation_hits(x, f, dy, strides, rates, padding)
    cols = hits.reshape(hits.shape[:3] + f.shape[:2] + hits.shape[-1:])
    return _unwindow(cols, x.shape, g, strides, rates)


def _dilation_backprop_filter(x, f, dy, strides, rates, padding):
    hits, _ = _dilation_hits(x, f, dy, strides, rates, padding)
    return hits.sum(axis=(0, 1, 2)).reshape(f.shape).astype(f.dtype, copy=False)


_DILATION_ATTRS = ("strides", "rates", "padding")
register_op("Dilation2D", _dilation_infer, _dilation2d, kernel_attrs=_DILATION_ATTRS)
register_op("Dilation2DBackpropInput", _dilation_backprop_infer("Dilation2DBackpropInput", 0),
            _dilation_backprop_input, kernel_attrs=_DILATION_ATTRS)
register_op("Dilation2DBackpropFilter", _dilation_backprop_infer("Dilation2DBackpropFilter", 1),
            _dilation_backprop_filter, kernel_attrs=_DILATION_ATTRS)


# -- CTC loss -------------------------------------------------------------------------------------

def _ctc_loss_infer(inputs, attrs):
    expect_arity("CTCLoss", inputs, 4)
    logits, indices, values, lengths = inputs
    check_dtype("CTCLoss", logits, "f")
    dims = _check_rank("CTCLoss", logits, 3, "inputs") or [None] * 3
    if indices.dtype != int64 or values.dtype != int32 or lengths.dtype != int32:
        raise _error("CTCLoss: labels_indices must be int64, labels_values and "
                     "sequence_length int32")
    return [TensorType(logits.dtype, TensorShape([dims[1]])),
            TensorType(logits.dtype, TensorShape(dims))]


def _logsumexp(a, axis=None):
    top = np.max(a, axis=axis, keepdims=True)
    top = np.where(np.isfinite(top), top, 0.0)
    with np.errstate(divide="ignore"):
        out = np.log(np.sum(np.exp(a - top), axis=axis, keepdims=True)) + top
    return float(out.reshape(())) if axis is None else np.squeeze(out, axis)


def _ctc_one(logp, labels, blank):
    """(-log p(labels | logp), d loss / d logits) by the forward-backward recursions in log
    space; the blank is class ``blank``; no path: (inf, zeros)."""
    steps, classes = logp.shape
    ext = np.full(2 * len(labels) + 1, blank, dtype=np.int64)
    ext[1::2] = labels
    size = len(ext)
    skip = np.zeros(size, dtype=bool)  # s-2 -> s allowed
    skip[2:] = (ext[2:] != blank) & (ext[2:] != ext[:-2])
    if steps == 0:
        return (0.0 if size == 1 else np.inf), np.zeros_like(logp)
    emit = logp[:, ext]
    alpha = np.full((steps, size), -np.inf)
    alpha[0, :min(2, size)] = emit[0, :min(2, size)]
    for t in range(1, steps):
        prev = alpha[t - 1]
        stay = np.stack([prev, np.r_[-np.inf, prev[:-1]],
                         np.where(skip, np.r_[-np.inf, -np.inf, prev[:-2]], -np.inf)])
        alpha[t] = _logsumexp(stay, axis=0) + emit[t]
    beta = np.full((steps, size), -np.inf)
    beta[-1, max(size - 2, 0):] = emit[-1, max(size - 2, 0):]
    skip_next = np.r_[skip[2:], False, False]  # s -> s+2 allowed
    for t in range(steps - 2, -1, -1):
        nxt = beta[t + 1]
        move = np.stack([nxt, np.r_[nxt[1:], -np.inf],
                         np.where(skip_next, np.r_[nxt[2:], -np.inf, -np.inf], -np.inf)])
        beta[t] = _logsumexp(move, axis=0) + emit[t]
    loglik = _logsumexp(alpha[-1, max(size - 2, 0):])
    if not np.isfinite(loglik):
        return np.inf, np.zeros_like(logp)
    both = alpha + beta - emit
    grad = np.exp(logp)
    for k in np.unique(ext):
        grad[:, k] -= np.exp(_logsumexp(both[:, ext == k], axis=1) - loglik)
    return -loglik, grad


def _ctc_loss(logits, indices, values, lengths):
    """TensorFlow's CTCLoss (blank = the last class): the loss of each batch entry and its
    gradient with respect to the logits (zero past each sequence's length)."""
    steps, batch, classes = logits.shape
    if np.any(lengths > steps) or np.any(lengths < 0):
        raise _error(f"CTCLoss: sequence_length must be in [0, {steps}], got {lengths.tolist()}")
    x = logits.astype(np.float64)
    logp = x - _logsumexp(x, axis=2)[..., None]
    loss = np.zeros(batch, dtype=logits.dtype)
    grad = np.zeros(logits.shape, dtype=logits.dtype)
    for b in range(batch):
        labels = values[indices[:, 0] == b]
        if labels.size == 0:
            raise _error(f"Labels length is zero in batch {b}")
        if np.any(labels < 0) or np.any(labels >= classes - 1):
            raise _error(f"CTCLoss: labels must be in [0, {classes - 1}), got {labels.tolist()}")
        n = int(lengths[b])
        loss[b], grad[:n, b] = _ctc_one(logp[:n, b], labels, classes - 1)
    return loss, grad


register_op("CTCLoss", _ctc_loss_infer, _ctc_loss)


# -- CTC beam search: TensorFlow's prefix beam search (ctc_beam_search.h), no language model ------

_LOG0 = -np.inf


class _Beam:
    """A label prefix: its parent prefix, last label, log probabilities ending in a blank /
    in its label / in total, at the previous (old) and current (new) step."""
    __slots__ = ("parent", "label", "old", "new", "children")

    def __init__(self, parent, label):
        self.parent, self.label, self.children = parent, label, None
        self.old, self.new = [_LOG0] * 3, [_LOG0] * 3  # blank, label, total

    def active(self) -> bool:
        return self.new[2] != _LOG0

    def labels(self) -> list:
        out, b = [], self
        while b.parent is not None:
            out.append(b.label)
            b = b.parent
        return out[::-1]


def _beam_search(logits, beam_width: int, top_paths: int):
    """Top ``top_paths`` (labels, log probability) of one sequence [T, C] (blank last)."""
    blank = logits.shape[1] - 1
    root = _Beam(None, -1)
    root.new = [0.0, _LOG0, 0.0]
    leaves = [root]

    def bottom():
        return min(leaves, key=lambda b: b.new[2])

    def candidate(p):
        return p[2] > _LOG0 and (len(leaves) < beam_width or p[2] >= bottom().new[2])

    for row in logits:
        row = row - row.max()
        logp = row - np.log(np.exp(row).sum())
        branches = sorted(leaves, key=lambda b: -b.new[2])
        leaves = []
        for b in branches:
            b.old = list(b.new)
        for b in branches:
            label = b.old[1]
            if b.parent is not None:
                if b.parent.active():
                    prev = b.parent.old[0] if b.label == b.parent.label else b.parent.old[2]
                    label = np.logaddexp(label, prev)
                label += logp[b.label]
            b.new = [b.old[2] + logp[blank], label, 0.0]
            b.new[2] = np.logaddexp(b.new[0], b.new[1])
            leaves.append(b)
        for b in branches:
            if not candidate(b.old):
                continue
            if b.children is None:
                b.children = [_Beam(b, c) for c in range(blank)]
            for c in b.children:
                if c.active():
                    continue
                prev = b.old[0] if c.label == b.label else b.old[2]
                c.new = [_LOG0, logp[c.label] + prev, logp[c.label] + prev]
                if candidate(c.new):
                    if len(leaves) >= beam_width:
                        low = bottom()
                        leaves.remove(low)
                        low.new = [_LOG0] * 3
                    leaves.append(c)
                else:
                    c.old, c.new = [_LOG0] * 3, [_LOG0] * 3
    if len(leaves) < top_paths:
        raise _error("CTCBeamSearchDecoder: Less leaves in the beam search than requested.")
    best = sorted(leaves, key=lambda b: -b.new[2])[:top_paths]
    return [(b.labels(), b.new[2]) for b in best]


def _beam_infer(inputs, attrs):
    logits, dims = _decoder_inputs("CTCBeamSearchDecoder", inputs)
    top, width = int(attrs["top_paths"]), int(attrs["beam_width"])
    if top < 1 or width < top:
        raise _error(f"CTCBeamSearchDecoder: need 0 < top_paths <= beam_width, got top_paths "
                     f"{top} and beam_width {width}")
    return ([TensorType(int64, TensorShape([None, 2]))] * top
            + [TensorType(int64, TensorShape([None]))] * top
            + [TensorType(int64, TensorShape([2]))] * top
            + [TensorType(logits.dtype, TensorShape([dims[1], top]))])


def _ctc_beam_search_decoder(logits, lengths, beam_width, top_paths):
    steps, batch, _ = logits.shape
    if np.any(lengths > steps) or np.any(lengths < 0):
        raise _error(f"CTCBeamSearchDecoder: sequence_length must be in [0, {steps}], got "
                     f"{lengths.tolist()}")
    x = logits.astype(np.float64)
    results = [_beam_search(x[:lengths[b], b], beam_width, top_paths) for b in range(batch)]
    indices, values, shapes = [], [], []
    for p in range(top_paths):
        paths = [results[b][p][0] for b in range(batch)]
        indices.append(np.array([[b, j] for b in range(batch) for j in range(len(paths[b]))],
                                dtype=np.int64).reshape(-1, 2))
        values.append(np.array([v for path in paths for v in path], dtype=np.int64))
        shapes.append(np.array([batch, max([len(q) for q in paths] + [0])], dtype=np.int64))
    log_probs = np.array([[r[p][1] for p in range(top_paths)] for r in results],
                         dtype=logits.dtype).reshape(batch, top_paths)
    return (*indices, *values, *shapes, log_probs)


register_op("CTCBeamSearchDecoder", _beam_infer, _ctc_beam_search_decoder,
            kernel_attrs=("beam_width", "top_paths"))


# -- candidate samplers: TensorFlow's range samplers on its Philox stream -----------------------

def _sampler_infer(op):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        true = inputs[0]
        if true.dtype != int64:
            raise _error(f"{op}: true_classes must be int64, got {true.dtype.name}")
        dims = _check_rank(op, true, 2, "true_classes") or [None, None]
        num_true, num_sampled = int(attrs["num_true"]), int(attrs["num_sampled"])
        if dims[1] is not None and dims[1] != num_true:
            raise _error(f"{op}: true_classes must be a matrix with num_true={num_true} "
                         f"columns, got shape {dims}")
        if attrs["unique"] and num_sampled > int(attrs["range_max"]):
            raise _error(f"{op}: Sampler's range is too small.")
        return [TensorType(int64, TensorShape([num_sampled])),
                TensorType(float32, TensorShape([dims[0], num_true])),
                TensorType(float32, TensorShape([num_sampled]))]
    return infer


class _Words:
    """SimplePhilox over a reserved stream: its uint32 words in order, fetched in chunks."""

    _CHUNK = 1024  # words, 256 Philox blocks

    def __init__(self, key, counter):
        self.key, self.counter, self.fetched = key, counter, 0
        self.buf, self.pos = np.empty(0, np.uint32), 0

    def next(self) -> int:
        from graph.ops.random import _bits
        if self.pos == len(self.buf):
            self.buf = _bits(self.key, self.counter, self._CHUNK, skip_blocks=self.fetched // 4)
            self.fetched += self._CHUNK
            self.pos = 0
        self.pos += 1
        return int(self.buf[self.pos - 1])

    def double(self) -> float:
        """Uint64ToDouble of two words: 52 mantissa bits of [1, 2), minus 1."""
        hi, lo = self.next() & 0xFFFFF, self.next()
        return float(np.frombuffer(np.uint64((1023 << 52) | (hi << 32) | lo).tobytes(),
                                   np.float64)[0]) - 1.0

    def uniform64(self, n: int) -> int:
        lo, hi = self.next(), self.next()
        return (lo | hi << 32) % n


    def float32(self) -> np.float32:
        """Uint32ToFloat: 23 mantissa bits of [1, 2), minus 1."""
        bits = np.uint32((127 << 23) | (self.next() & 0x7FFFFF))
        return np.frombuffer(bits.tobytes(), np.float32)[0] - np.float32(1.0)

    def exact_uniform(self, n: int) -> int:
        """ExactUniformInt<uint32>: a mask for powers of two, else rejection of the low rest."""
        if n & (n - 1) == 0:
            return self.next() & (n - 1)
        rest = (1 << 32) % n
        x = self.next()
        while x < rest:
            x = self.next()
        return x % n


class _LogUniform:
    def __init__(self, attrs):
        self.range_max = int(attrs["range_max"])

    def sample(self, words) -> int:
        value = int(np.exp(words.double() * np.log1p(self.range_max))) - 1
        return value % self.range_max

    def probability(self, value) -> np.float32:
        return np.float32(np.log((value + 2.0) / (value + 1.0)) / np.log1p(self.range_max))


class _Uniform:
    def __init__(self, attrs):
        self.range_max = int(attrs["range_max"])

    def sample(self, words) -> int:
        return words.uniform64(self.range_max)

    def probability(self, value) -> np.float32:
        return np.float32(1.0 / self.range_max)


class _FixedUnigram:
    """TensorFlow's FixedUnigramSampler: ``unigrams`` (or a vocab file's last column) raised to
    ``distortion``, after ``num_reserved_ids`` zero weights, this shard's ids only, drawn by
    Walker's alias method (DistributionSampler)."""

    def __init__(self, attrs):
        n_shards, shard = int(attrs["num_shards"]), int(attrs["shard"])
        counts = list(attrs["unigrams"]) or _vocab_counts(attrs["vocab_file"])
        weights = [np.float32(0.0)] * len(range(shard, int(attrs["num_reserved_ids"]), n_shards))
        for word_id, w in enumerate(counts, start=int(attrs["num_reserved_ids"])):
            if word_id % n_shards == shard:
                weights.append(np.float32(np.float32(w) ** np.float32(attrs["distortion"])))
        if len(weights) != int(attrs["range_max"]):
            raise _error(f"FixedUnigramCandidateSampler: range_max must equal the number of "
                         f"ids of this shard ({len(weights)}), got {attrs['range_max']}")
        self.weights = weights
        self.total = np.float32(0.0)
        for w in weights:
            self.total = np.float32(self.total + w)
        self.prob, self.alt = _alias_table(weights)

    def sample(self, words) -> int:
        r = words.float32()
        idx = words.exact_uniform(len(self.weights))
        return idx if r < self.prob[idx] else self.alt[idx]

    def probability(self, value) -> np.float32:
        if not 0 <= value < len(self.weights):
            return np.float32(0.0)
        return np.float32(self.weights[value] / self.total)


def _vocab_counts(path: str) -> list:
    if not path:
        raise _error("FixedUnigramCandidateSampler: give either unigrams or vocab_file")
    with open(path, encoding="utf-8") as f:
        return [float(line.rstrip("\n").split(",")[-1]) for line in f if line.strip()]


def _alias_table(weights) -> tuple[list, list]:
    """DistributionSampler's table: float32 probabilities and alternatives, pairing the last
    low bucket with the last high one."""
    n = len(weights)
    total = sum(float(w) for w in weights)
    p = [float(w) * n / total for w in weights]
    alt = [-1] * n
    low = [i for i in range(n) if p[i] < 1.0]
    high = [i for i in range(n) if p[i] >= 1.0]
    while high and low:
        lo, hi = low.pop(), high.pop()
        alt[lo] = hi
        p[hi] -= 1.0 - p[lo]
        (low if p[hi] < 1.0 else high).append(hi)
    prob = [np.float32(v) for v in p]
    for i in high + low:
        prob[i], alt[i] = np.float32(1.0), i
    return prob, alt


_SAMPLERS = {"LogUniformCandidateSampler": (_LogUniform, ()),
             "UniformCandidateSampler": (_Uniform, ()),
             "FixedUnigramCandidateSampler": (_FixedUnigram, (
                 "vocab_file", "distortion", "num_reserved_ids", "num_shards", "shard",
                 "unigrams"))}


def _expected(p, batch, tries):
    """ExpectedCountHelper: p * batch without uniqueness, else 1 - (1 - p) ** tries."""
    p = np.float32(p)
    if tries == batch:
        return p * np.float32(batch)
    return np.float32(-np.expm1(np.float32(tries) * np.float32(np.log1p(-p))))


def _sample_candidates(sampler, words, true, num_sampled, unique):
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:
        value = sampler.sample(words)
        tries += 1
        if not unique or value not in seen:
            seen.add(value)
            picked.append(value)
    sampled = np.array(picked, dtype=np.int64)
    expected_sampled = np.array([_expected(sampler.probability(v), num_sampled, tries)
                                 for v in picked], dtype=np.float32)
    expected_true = np.array([[_expected(sampler.probability(int(v)), num_sampled, tries)
                               for v in row] for row in true],
                             dtype=np.float32).reshape(true.shape)
    return sampled, expected_true, expected_sampled


def _register_sampler(op):
    from graph.ops import random as R
    make, extra_attrs = _SAMPLERS[op]
    attrs = ("num_true", "num_sampled", "unique", "range_max") + extra_attrs

    def run(stream, sampler, true, num_sampled, unique):
        key, counter = stream.reserve(512 * num_sampled)  # TF reserves 2048 * n 32-bit samples
        return _sample_candidates(sampler, _Words(key, counter), np.asarray(true), num_sampled,
                                  unique)

    def eager_kernel(true, seed=0, seed2=0, **kwargs):
        stream = R._eager_generator(R._kernel_key(op, [true], kwargs) + (seed, seed2), seed,
                                    seed2, R.PhiloxStream)
        return run(stream, make(kwargs), true, kwargs["num_sampled"], kwargs["unique"])

    def build(node, compile_subgraph):
        seed, seed2 = node.attrs.get("seed", 0), node.attrs.get("seed2", 0)
        sampler = make(node.attrs)
        num_sampled, unique = node.attrs["num_sampled"], node.attrs["unique"]
        state = [None, None]

        def kernel(true):
            if state[1] != R._epoch[0]:
                state[0], state[1] = R.PhiloxStream(seed, seed2), R._epoch[0]
            return run(state[0], sampler, true, num_sampled, unique)
        return kernel

    register_op(op, _sampler_infer(op), eager_kernel, kernel_attrs=("seed", "seed2") + attrs,
                stateful=True, build=build)


for _op in _SAMPLERS:
    _register_sampler(_op)
