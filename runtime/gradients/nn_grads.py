"""Gradients of the tf.nn ops, after TensorFlow's nn_grad.py.

Activations reuse their output where TensorFlow does; the fused softmax losses
return ``backprop`` (softmax - labels) scaled by the loss gradient, plus the
softmax Jacobian applied to any gradient of ``backprop`` itself (what a
second derivative sends). A convolution's gradients are its two backprop
ops, and each backprop op's gradients are the other two: so every order of
derivative is available.
"""
from __future__ import annotations

from graph.ops.nn import _SELU_ALPHA, _SELU_SCALE, CONV_OPS
from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import reduce_to
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, convert_to_tensor

NotDifferentiable("InTopKV2")


@RegisterGradient("Relu6")
def _relu6_grad(op, g):
    x = op.inputs[0]
    inside = M.logical_and(M.greater(x, 0), M.less(x, 6))
    return [M.where(inside, g, A.zeros_like(g))]


@RegisterGradient("Elu")
def _elu_grad(op, g):
    y = op.outputs[0]
    return [M.where(M.less(y, 0), M.multiply(g, M.add(y, 1.0)), g)]


@RegisterGradient("Selu")
def _selu_grad(op, g):
    y = op.outputs[0]
    return [M.where(M.less(y, 0), M.multiply(g, M.add(y, _SELU_SCALE * _SELU_ALPHA)),
                   M.multiply(g, _SELU_SCALE))]


@RegisterGradient("Softplus")
def _softplus_grad(op, g):
    return [M.multiply(g, M.sigmoid(op.inputs[0]))]


@RegisterGradient("Softsign")
def _softsign_grad(op, g):
    return [M.truediv(g, M.square(M.add(1.0, M.abs(op.inputs[0]))))]


@RegisterGradient("LeakyRelu")
def _leaky_relu_grad(op, g):
    x = op.inputs[0]
    return [M.where(M.greater(x, 0), g, M.multiply(g, op.attrs["alpha"]))]


# -- softmax and losses ----------------------------------------------------------------

def _softmax_jvp(g, softmax):
    """The softmax Jacobian (symmetric) applied to ``g``: (g - sum(g * s)) * s on the last axis."""
    return M.multiply(M.subtract(g, M.reduce_sum(M.multiply(g, softmax), -1, keepdims=True)),
                      softmax)


@RegisterGradient("Softmax")
def _softmax_grad(op, g):
    return [_softmax_jvp(g, op.outputs[0])]


@RegisterGradient("LogSoftmax")
def _log_softmax_grad(op, g):
    softmax = M.exp(op.outputs[0])
    return [M.subtract(g, M.multiply(M.reduce_sum(g, -1, keepdims=True), softmax))]


def _logits_grad(op, g_loss, g_backprop):
    grad = A.zeros_like(op.outputs[1]) if g_loss is None else \
        M.multiply(A.expand_dims(g_loss, -1), op.outputs[1])
    if g_backprop is not None:
        softmax = apply_op("Softmax", [op.inputs[0]], name="Softmax")
        grad = M.add(grad, _softmax_jvp(g_backprop, softmax))
    return grad


@RegisterGradient("SoftmaxCrossEntropyWithLogits")
def _xent_grad(op, g_loss, g_backprop):
    logits, labels = op.inputs
    log_p = apply_op("LogSoftmax", [logits], name="LogSoftmax")
    g_labels = None if g_loss is None else M.multiply(A.expand_dims(g_loss, -1),
                                                      M.negative(log_p))
    return [reduce_to(_logits_grad(op, g_loss, g_backprop), logits),
            None if g_labels is None else reduce_to(g_labels, labels)]


@RegisterGradient("SparseSoftmaxCrossEntropyWithLogits")
def _sparse_xent_grad(op, g_loss, g_backprop):
    return [_logits_grad(op, g_loss, g_backprop), None]


@RegisterGradient("BiasAdd")
def _bias_add_grad(op, g):
    value = op.inputs[0]
    rank = g.shape.rank if g.shape.rank is not None else value.shape.rank
    channel = 1 if op.attrs.get("data_format") == "NCHW" else rank - 1
    axes = [i for i in range(rank) if i != channel]
    return [g, M.reduce_sum(g, axes)]


@RegisterGradient("L2Loss")
def _l2_loss_grad(op, g):
    return [M.multiply(op.inputs[0], g)]


# -- convolution ---------------------------------------------------------------------

_CONV_KEYS = ("strides", "padding", "dilations", "explicit_paddings")


def _conv_attrs(op):
    return {k: op.attrs[k] for k in _CONV_KEYS if k in op.attrs}


def _shape_of(t):
    """A static shape as a constant when known, else the Shape op."""
    return A.shape(convert_to_tensor(t))


def _conv_family(forward: str, backprop_input: str, backprop_filter: str):
    """Each op's input gradients are the family's other two ops; one nobody needs is not
    computed (an eager tape would run it)."""
    def op(name, inputs, record, needed):
        return apply_op(name, inputs, _conv_attrs(record), name=name) if needed else None

    @RegisterGradient(forward)
    def _forward_grad(record, g, needed=(True, True)):
        x, f = record.inputs
        return [op(backprop_input, [_shape_of(x), f, g], record, needed[0]),
                op(backprop_filter, [x, _shape_of(f), g], record, needed[1])]

    @RegisterGradient(backprop_input)
    def _input_grad(record, g, needed=(False, True, True)):
        _, f, dy = record.inputs
        return [None, op(backprop_filter, [g, _shape_of(f), dy], record, needed[1]),
                op(forward, [g, f], record, needed[2])]

    @RegisterGradient(backprop_filter)
    def _filter_grad(record, g, needed=(True, False, True)):
        x, _, dy = record.inputs
        return [op(backprop_input, [_shape_of(x), g, dy], record, needed[0]), None,
                op(forward, [x, g], record, needed[2])]

    for fn in (_forward_grad, _input_grad, _filter_grad):
        fn.takes_needed = True


for _forward, _input, _filter, _, _ in CONV_OPS:
    _conv_family(_forward, _input, _filter)


# -- pooling ------------------------------------------------------------------------------

def _pool_attrs(op):
    return {k: op.attrs[k] for k in ("ksize", "strides", "padding")}


def _pool_family(suffix: str):
    @RegisterGradient(f"MaxPool{suffix}")
    def _max_pool_grad(op, g):
        return [apply_op(f"MaxPool{suffix}Grad", [op.inputs[0], op.outputs[0], g],
                         _pool_attrs(op), name=f"MaxPool{suffix}Grad")]

    @RegisterGradient(f"MaxPool{suffix}Grad")
    def _max_pool_grad_grad(op, g):
        x, y, _ = op.inputs
        return [None, None, apply_op(f"MaxPool{suffix}GradGrad", [x, y, g], _pool_attrs(op),
                                     name=f"MaxPool{suffix}GradGrad")]

    @RegisterGradient(f"MaxPool{suffix}GradGrad")
    def _max_pool_grad_grad_grad(op, g):
        x, y, _ = op.inputs
        return [None, None, apply_op(f"MaxPool{suffix}Grad", [x, y, g], _pool_attrs(op),
                                     name=f"MaxPool{suffix}Grad")]

    @RegisterGradient(f"AvgPool{suffix}")
    def _avg_pool_grad(op, g):
        return [apply_op(f"AvgPool{suffix}Grad", [_shape_of(op.inputs[0]), g], _pool_attrs(op),
                         name=f"AvgPool{suffix}Grad")]

    @RegisterGradient(f"AvgPool{suffix}Grad")
    def _avg_pool_grad_grad(op, g):
        return [None, apply_op(f"AvgPool{suffix}", [g], _pool_attrs(op), name=f"AvgPool{suffix}")]


_pool_family("")
_pool_family("3D")


# -- DepthToSpace, SpaceToDepth: each other's inverse -----------------------------------------

@RegisterGradient("DepthToSpace")
def _depth_to_space_grad(op, g):
    return [apply_op("SpaceToDepth", [g], dict(op.attrs), name="SpaceToDepth")]


@RegisterGradient("SpaceToDepth")
def _space_to_depth_grad(op, g):
    return [apply_op("DepthToSpace", [g], dict(op.attrs), name="DepthToSpace")]


# -- top_k ----------------------------------------------------------------------------------

@RegisterGradient("TopKV2")
def _top_k_grad(op, g_values, g_indices):
    """Each value's gradient goes back to the position it was taken from."""
    x = op.inputs[0]
    indices = op.outputs[1]
    n = x.shape.as_tuple()[-1] if x.shape.rank is not None else None
    n = A.shape(x)[-1] if n is None else n
    positions = A.range(n)
    hit = M.cast(M.equal(A.expand_dims(indices, -1), positions), g_values.dtype)
    return [M.reduce_sum(M.multiply(A.expand_dims(g_values, -1), hit), -2), None]


# -- max pooling with argmax, isotonic regression ---------------------------------------------

NotDifferentiable("CTCGreedyDecoder", "CTCBeamSearchDecoder")


@RegisterGradient("MaxPoolWithArgmax")
def _max_pool_with_argmax_grad(op, g_output, g_argmax):
    """Each output's gradient goes to the input position its argmax names."""
    x, argmax = op.inputs[0], M.cast(op.outputs[1], "int64")
    shape = A.shape(x, out_type="int64")
    if not op.attrs["include_batch_in_index"]:
        per_image = M.reduce_prod(shape[1:])
        batch = A.reshape(A.range(shape[0], dtype="int64"), [-1, 1, 1, 1])
        argmax = M.add(argmax, M.multiply(batch, per_image))
    from runtime.ops.special_ops import unsorted_segment_sum
    flat = unsorted_segment_sum(A.reshape(g_output, [-1]), A.reshape(argmax, [-1]),
                                M.reduce_prod(shape))
    return [A.reshape(flat, shape)]


@RegisterGradient("IsotonicRegression")
def _isotonic_regression_grad(op, g_output, g_segments):
    """The mean of the output gradient over each pooled block, as TensorFlow's."""
    segments = op.outputs[1]
    n = A.shape(segments)[-1]
    rows = A.reshape(segments, [-1, n])
    ids = M.add(rows, A.expand_dims(M.multiply(A.range(A.shape(rows)[0]), n), 1))
    from runtime.ops.special_ops import unsorted_segment_mean
    means = unsorted_segment_mean(A.reshape(g_output, [-1]), A.reshape(ids, [-1]), A.size(ids))
    return [A.reshape(A.gather(means, ids), A.shape(g_output))]


@RegisterGradient("Dilation2D")
def _dilation2d_grad(op, g):
    """Each output's gradient goes to the input and filter taps of its window's maximum."""
    inputs = [op.inputs[0], op.inputs[1], g]
    attrs = {k: op.attrs[k] for k in ("strides", "rates", "padding")}
    return [apply_op("Dilation2DBackpropInput", inputs, attrs, name="Dilation2DBackpropInput"),
            apply_op("Dilation2DBackpropFilter", inputs, attrs, name="Dilation2DBackpropFilter")]


NotDifferentiable("Dilation2DBackpropInput", "Dilation2DBackpropFilter")


@RegisterGradient("CTCLoss")
def _ctc_loss_grad(op, g_loss, g_grad):
    """The op's own gradient, scaled by each entry's loss gradient."""
    return [M.multiply(op.outputs[1], A.reshape(g_loss, [1, -1, 1])), None, None, None]


NotDifferentiable("LogUniformCandidateSampler", "UniformCandidateSampler")
