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

from graph.dtypes import bool_, int32
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
    e = np.exp(x - np.max(x, axis=-1, keepdims=True))
    return e / np.sum(e, axis=-1, keepdims=True)


def _log_softmax(x):
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
    valid = (targets >= 0) & (targets < n)
    rows = np.arange(len(targets))
    target = predictions[rows, np.where(valid, targets, 0)]
    higher = np.sum(predictions > target[:, None], axis=1)
    return valid & np.isfinite(target) & (higher < int(k))


register_op("TopKV2", _top_k_infer, _top_k, kernel_attrs=("sorted",))
register_op("InTopKV2", _in_top_k_infer, _in_top_k)
