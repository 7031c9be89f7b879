"""``tf.nn`` ops under TensorFlow's names.

Where TensorFlow has a kernel (Softmax, Conv2D, MaxPool, the fused losses...)
the function records that op; where TensorFlow's Python composes other ops
(moments, dropout, batch_normalization, the sigmoid losses) so does this
module, and gradients come from the parts. Convolution and pooling take
channels-last tensors (NWC, NHWC, NDHWC: the CPU kernels' layout); 1-D variants
add a height of 1 and call the 2-D op, as TensorFlow does.
"""
from __future__ import annotations

import collections
import math as _math

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError, UnimplementedError
from runtime.name_scope import name_scope
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import random_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.special_ops import divide_no_nan, erfc
from runtime.origin import current_origin
from runtime.tensor import Tensor

__all__: list[str] = []  # none is top level in TensorFlow (tf.sigmoid/tanh are math_ops')

relu = M.relu
sigmoid = M.sigmoid
tanh = M.tanh


def _float_tensor(x, what: str, fn: str) -> Tensor:
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`{what}.dtype` must be a floating point tensor. Received: "
                         f"{what}.dtype={x.dtype!r} (tf.nn.{fn}, at {current_origin()}); "
                         f"cast it first: tf.cast({what}, tf.float32)")
    return x


# -- activations ----------------------------------------------------------------------

def _activation(op: str, tf_name: str):
    def fn(features, name=None):
        return apply_op(op, [convert_to_tensor(features)], name=name or op)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = f"``tf.nn.{tf_name}``: elementwise ``{op}``."
    return fn


relu6 = _activation("Relu6", "relu6")
elu = _activation("Elu", "elu")
selu = _activation("Selu", "selu")
softplus = _activation("Softplus", "softplus")
softsign = _activation("Softsign", "softsign")


def leaky_relu(features, alpha: float = 0.2, name=None) -> Tensor:
    """``tf.nn.leaky_relu``: x where x > 0, else alpha * x; integers become float32 first."""
    x = convert_to_tensor(features)
    if x.dtype.is_integer:
        x = M.cast(x, dtypes.float32)
    # (alpha is a 32-bit float attr in TensorFlow: a float64 input is scaled by 0.2f)
    alpha = float(np.float32(alpha))
    return apply_op("LeakyRelu", [x], {"alpha": alpha}, name=name or "LeakyRelu")


def silu(features, beta: float = 1.0, name=None) -> Tensor:
    """``tf.nn.silu`` (``swish``): x * sigmoid(beta * x)."""
    x = convert_to_tensor(features)
    with name_scope(name or "silu"):
        beta = M.cast(convert_to_tensor(beta, dtype_hint=x.dtype), x.dtype)
        return M.multiply(x, M.sigmoid(M.multiply(beta, x)))


swish = silu


def crelu(features, axis: int = -1, name=None) -> Tensor:
    """``tf.nn.crelu``: relu(x) and relu(-x) concatenated along ``axis``."""
    x = convert_to_tensor(features)
    with name_scope(name or "CRelu"):
        return A.concat([M.relu(x), M.relu(M.negative(x))], axis)


def gelu(features, approximate: bool = False, name=None) -> Tensor:
    """``tf.nn.gelu``: x * P(X <= x) for X ~ N(0, 1); the tanh form when ``approximate``."""
    x = _float_tensor(features, "features", "gelu")
    with name_scope(name or "Gelu"):
        # (TensorFlow's formulas, operation for operation: the same roundings)
        if approximate:
            cube = M.multiply(0.044715, M.pow(x, 3))
            inner = M.multiply(0.7978845608028654, M.add(x, cube))
            return M.multiply(M.multiply(0.5, x), M.add(1.0, M.tanh(inner)))
        return M.multiply(M.multiply(0.5, x), erfc(M.multiply(M.negative(x), 0.7071067811865476)))


# -- softmax ------------------------------------------------------------------------------

def _along_last(op: str, x: Tensor, axis: int, name, fn):
    """Applies ``fn`` (an op on the last axis) along ``axis``, moving it last and back."""
    rank = x.shape.rank
    if rank is None:
        if axis != -1:
            raise ValueError(f"{op}: an axis other than -1 needs an input of known rank "
                             f"(at {current_origin()})")
        return fn(x, name)
    if not -rank <= axis < max(rank, 1):
        raise InvalidArgumentError(
            message=f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the number "
                    f"of dimensions in the input. Received: dim={axis}")
    axis %= max(rank, 1)
    if axis == rank - 1 or rank == 0:
        return fn(x, name)
    perm = list(range(rank))
    perm[axis], perm[-1] = perm[-1], perm[axis]
    return A.transpose(fn(A.transpose(x, perm), None), perm, name=name or "transpose")


def softmax(logits, axis=None, name=None) -> Tensor:
    """``tf.nn.softmax``: exp(x) / sum(exp(x)) along ``axis`` (the last one by default)."""
    x = convert_to_tensor(logits)
    return _along_last("Softmax", x, -1 if axis is None else int(axis), name,
                       lambda t, n: apply_op("Softmax", [t], name=n or "Softmax"))


def log_softmax(logits, axis=None, name=None) -> Tensor:
    """``tf.nn.log_softmax``: x - log(sum(exp(x))) along ``axis``."""
    x = convert_to_tensor(logits)
    return _along_last("LogSoftmax", x, -1 if axis is None else int(axis), name,
                       lambda t, n: apply_op("LogSoftmax", [t], name=n or "LogSoftmax"))


# -- losses --------------------------------------------------------------------------------

def _same_shape_labels(labels, logits, fn: str):
    logits, labels = convert_to_tensor(logits), convert_to_tensor(labels)  # no cast, as TF
    if not logits.shape.is_compatible_with(labels.shape):
        raise ValueError(f"`logits` and `labels` must have the same shape, received "
                         f"({_shape_str(logits)} vs {_shape_str(labels)}) (tf.nn.{fn}, at "
                         f"{current_origin()}).")
    return labels, logits


def _shape_str(t: Tensor) -> str:
    dims = t.shape.as_tuple() if t.shape.rank is not None else None
    return "<unknown>" if dims is None else str(tuple(dims))


def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None) -> Tensor:
    """``max(x, 0) - x * z + log(1 + exp(-|x|))``: the stable form of
    ``z * -log(sigmoid(x)) + (1 - z) * -log(1 - sigmoid(x))``."""
    labels, logits = _same_shape_labels(labels, logits, "sigmoid_cross_entropy_with_logits")
    with name_scope(name or "logistic_loss"):  # (TensorFlow's selects: its gradient at 0)
        nonnegative = M.greater_equal(logits, A.zeros_like(logits))
        relu_logits = M.where(nonnegative, logits, A.zeros_like(logits))
        neg_abs_logits = M.where(nonnegative, M.negative(logits), logits)
        return M.add(M.subtract(relu_logits, M.multiply(logits, labels)),
                     softplus(neg_abs_logits))


def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None) -> Tensor:
    """The sigmoid cross entropy with the positive term weighted by ``pos_weight``."""
    labels, logits = _same_shape_labels(labels, logits, "weighted_cross_entropy_with_logits")
    with name_scope(name or "logistic_loss"):
        pos_weight = convert_to_tensor(pos_weight, dtype_hint=logits.dtype)
        log_weight = M.add(1.0, M.multiply(M.subtract(pos_weight, 1.0), labels))
        return M.add(M.multiply(M.subtract(1.0, labels), logits),
                     M.multiply(log_weight, M.add(softplus(M.negative(M.abs(logits))),
                                                  M.relu(M.negative(logits)))))


def _flat_classes(x: Tensor, axis: int):
    """``x`` with ``axis`` moved last and the rest flattened: a [batch, classes] matrix."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError(f"softmax_cross_entropy_with_logits needs logits of known rank "
                         f"(at {current_origin()})")
    axis %= rank
    if axis != rank - 1:
        perm = [i for i in range(rank) if i != axis] + [axis]
        x = A.transpose(x, perm)
    return x if rank == 2 else A.reshape(x, [-1, _last_dim(x)])


def _last_dim(x: Tensor):
    return _dims(x, [-1])[0]


def _dims(x: Tensor, axes) -> list:
    """The sizes of ``axes`` of ``x``: ints where known while tracing, else scalar tensors
    (a reshape to such a list keeps the known sizes static)."""
    static = x.shape.as_tuple()
    dynamic = None
    out = []
    for i in axes:
        if static[i] is None:
            dynamic = A.shape(x) if dynamic is None else dynamic
            out.append(dynamic[i])
        else:
            out.append(static[i])
    return out


def softmax_cross_entropy_with_logits(labels, logits, axis: int = -1, name=None) -> Tensor:
    """``-sum(labels * log_softmax(logits))`` along ``axis``; labels are cast to the logits' dtype
    (each row of labels is a probability distribution; its gradient flows too)."""
    logits = convert_to_tensor(logits)
    labels = M.cast(convert_to_tensor(labels), logits.dtype)
    with name_scope(name or "softmax_cross_entropy_with_logits"):
        rank = logits.shape.rank
        if rank == 2 and axis in (-1, 1):
            loss, _ = apply_op("SoftmaxCrossEntropyWithLogits", [logits, labels],
                               name="SoftmaxCrossEntropyWithLogits")
            return loss
        loss, _ = apply_op("SoftmaxCrossEntropyWithLogits",
                           [_flat_classes(logits, axis), _flat_classes(labels, axis)],
                           name="SoftmaxCrossEntropyWithLogits")
        return A.reshape(loss, _dims(logits, [i for i in range(rank) if i != axis % rank]))


def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None) -> Tensor:
    """The softmax cross entropy with labels as class indices (int32/int64, one fewer dims)."""
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels, dtype_hint=dtypes.int32)
    lr, xr = labels.shape.rank, logits.shape.rank
    if lr is not None and xr is not None and lr != xr - 1:
        raise ValueError(f"`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
                         f"labels.shape={_shape_str(labels)} of rank {lr} and logits.shape="
                         f"{_shape_str(logits)} of rank {xr}")
    with name_scope(name or "SparseSoftmaxCrossEntropyWithLogits"):
        if xr == 2:
            loss, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits", [logits, labels],
                               name="SparseSoftmaxCrossEntropyWithLogits")
            return loss
        if xr is None:
            raise ValueError(f"sparse_softmax_cross_entropy_with_logits needs logits of known "
                             f"rank (at {current_origin()})")
        loss, _ = apply_op("SparseSoftmaxCrossEntropyWithLogits",
                           [A.reshape(logits, [-1, _last_dim(logits)]), A.reshape(labels, [-1])],
                           name="SparseSoftmaxCrossEntropyWithLogits")
        if lr is None:
            return A.reshape(loss, A.shape(labels))
        return A.reshape(loss, _dims(labels, range(lr)))


def log_poisson_loss(targets, log_input, compute_full_loss: bool = False, name=None) -> Tensor:
    """``exp(c) - z * c`` for log-rate c and count z; with ``compute_full_loss`` the Stirling
    term ``z log z - z + log(2 pi z) / 2`` is added where z > 1."""
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets, dtype_hint=log_input.dtype)
    if not log_input.shape.is_compatible_with(targets.shape):
        raise ValueError(f"log_input and targets must have the same shape "
                         f"({_shape_str(log_input)} vs {_shape_str(targets)})")
    with name_scope(name or "log_poisson_loss"):
        result = M.subtract(M.exp(log_input), M.multiply(log_input, targets))
        if not compute_full_loss:
            return result
        z = targets
        stirling = M.add(M.subtract(M.multiply(z, M.log(z)), z),
                         M.multiply(0.5, M.log(M.multiply(2 * _math.pi, z))))
        return M.add(result, M.where(M.greater(z, 1.0), stirling, A.zeros_like(z)))


def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """The sum of the (weighted) per-example losses over the global batch size (one replica:
    the batch size, the first dimension)."""
    loss = convert_to_tensor(per_example_loss)
    if not loss.dtype.is_floating:
        loss = M.cast(loss, dtypes.float32)
    with name_scope("average_loss"):
        if sample_weight is not None:
            loss = M.multiply(loss, convert_to_tensor(sample_weight, dtype_hint=loss.dtype))
        if global_batch_size is None:
            batch = 1 if loss.shape.rank == 0 else A.shape(loss)[0]
            global_batch_size = M.cast(batch, loss.dtype)
        return M.truediv(M.reduce_sum(loss),
                         convert_to_tensor(global_batch_size, dtype_hint=loss.dtype))


def scale_regularization_loss(regularization_loss):
    """The regularization loss (a sum when a list) divided by the replica count, one here."""
    if isinstance(regularization_loss, (list, tuple)):
        regularization_loss = M.add_n(regularization_loss)
    return M.truediv(regularization_loss, 1.0)


def zero_fraction(value, name=None) -> Tensor:
    """The fraction of zeros in ``value`` as a float32 scalar."""
    x = convert_to_tensor(value)
    with name_scope(name or "zero_fraction"):
        return M.reduce_mean(M.cast(M.equal(x, A.zeros_like(x)), dtypes.float32))


def l2_loss(t, name=None) -> Tensor:
    """``tf.nn.l2_loss``: sum(t ** 2) / 2."""
    return apply_op("L2Loss", [convert_to_tensor(t)], name=name or "L2Loss")


# -- normalization ------------------------------------------------------------------------

def l2_normalize(x, axis=None, epsilon: float = 1e-12, name=None, dim=None) -> Tensor:
    """``x / sqrt(max(sum(x ** 2, axis), epsilon))``."""
    x = convert_to_tensor(x)
    axis = dim if axis is None else axis
    with name_scope(name or "l2_normalize"):
        square_sum = M.reduce_sum(M.square(x), axis, keepdims=True)
        return M.multiply(x, M.rsqrt(M.maximum(square_sum, epsilon)))


def moments(x, axes, shift=None, keepdims: bool = False, name=None):
    """``(mean, variance)`` of ``x`` over ``axes``; float16 is computed in float32."""
    x = convert_to_tensor(x)
    with name_scope(name or "moments"):
        y = M.cast(x, dtypes.float32) if x.dtype == dtypes.float16 else x
        mean = M.reduce_mean(y, axes, keepdims=True, name="mean")
        variance = M.reduce_mean(
            M.squared_difference(y, apply_op("StopGradient", [mean], name="StopGradient")),
            axes, keepdims=True, name="variance")
        if not keepdims:
            mean, variance = A.squeeze(mean, axes), A.squeeze(variance, axes)
        if x.dtype == dtypes.float16:
            return M.cast(mean, dtypes.float16), M.cast(variance, dtypes.float16)
        return mean, variance


def sufficient_statistics(x, axes, shift=None, keepdims: bool = False, name=None):
    """``(count, sum(x - shift), sum((x - shift) ** 2), shift)`` over ``axes``."""
    x = convert_to_tensor(x)
    axes = [axes] if isinstance(axes, int) else list(axes)
    with name_scope(name or "sufficient_statistics"):
        if x.shape.rank is not None and all(x.shape.as_tuple()[a] is not None for a in axes):
            count = convert_to_tensor(float(np.prod([x.shape.as_tuple()[a] for a in axes])),
                                      dtype=x.dtype, name="count")
        else:
            count = M.cast(M.reduce_prod(A.gather(A.shape(x), axes)), x.dtype, name="count")
        if shift is not None:
            shift = convert_to_tensor(shift, dtype=x.dtype, name="shift")
            x = M.subtract(x, shift)
        mean_ss = M.reduce_sum(x, axes, keepdims=keepdims, name="mean_ss")
        var_ss = M.reduce_sum(M.square(x), axes, keepdims=keepdims, name="var_ss")
        return count, mean_ss, var_ss, shift


def weighted_moments(x, axes, frequency_weights, keepdims: bool = False, name=None):
    """The mean and variance of ``x`` over ``axes`` with each element counted
    ``frequency_weights`` times (broadcast against ``x``)."""
    x = convert_to_tensor(x)
    with name_scope(name or "weighted_moments"):
        w = convert_to_tensor(frequency_weights, dtype_hint=x.dtype)
        weighted_sum = M.reduce_sum(M.multiply(w, x), axes, keepdims=True)
        total = M.reduce_sum(M.add(w, A.zeros_like(x)), axes, keepdims=True)
        mean = divide_no_nan(weighted_sum, total)  # no weight: 0, as TensorFlow
        variance = divide_no_nan(M.reduce_sum(M.multiply(w, M.squared_difference(x, mean)),
                                              axes, keepdims=True), total)
        if not keepdims:
            mean, variance = A.squeeze(mean, axes), A.squeeze(variance, axes)
        return mean, variance


def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """Mean and variance from sufficient statistics (sums, sums of squares, shift)."""
    mean_ss = convert_to_tensor(mean_ss)
    with name_scope(name or "normalize"):
        divisor = M.truediv(1.0, M.cast(convert_to_tensor(counts, dtype_hint=mean_ss.dtype),
                                        mean_ss.dtype))
        shifted_mean = M.multiply(mean_ss, divisor)
        mean = shifted_mean if shift is None else M.add(shifted_mean, shift)
        variance = M.subtract(M.multiply(variance_ss, divisor), M.square(shifted_mean))
        return mean, variance


def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None) -> Tensor:
    """``scale * (x - mean) / sqrt(variance + epsilon) + offset`` (offset, scale may be None)."""
    x = convert_to_tensor(x)
    with name_scope(name or "batchnorm"):
        inv = M.rsqrt(M.add(variance, variance_epsilon))
        if scale is not None:
            inv = M.multiply(inv, scale)
        shift = M.negative(M.multiply(mean, inv)) if offset is None else \
            M.subtract(offset, M.multiply(mean, inv))
        return M.add(M.multiply(x, M.cast(inv, x.dtype)), M.cast(shift, x.dtype))


# -- lookup, bias, dropout -------------------------------------------------------------------

def embedding_lookup(params, ids, max_norm=None, name=None) -> Tensor:
    """The rows of ``params`` at ``ids`` (``params`` may be a list of shards: see
    ``_sharded_gather``); rows whose L2 norm exceeds ``max_norm`` are scaled down to it."""
    if isinstance(params, (list, tuple)) and len(params) == 1:
        params = params[0]
    with name_scope(name or "embedding_lookup"):
        ids = convert_to_tensor(ids, dtype_hint=dtypes.int32)
        rows = _sharded_gather(params, ids) if isinstance(params, (list, tuple)) \
            else A.gather(params, ids)
        if max_norm is None:
            return rows
        if rows.shape.rank is None or ids.shape.rank is None:
            raise ValueError(f"embedding_lookup with max_norm needs params and ids of known "
                             f"rank (at {current_origin()})")
        # Each looked-up row (the dims past the ids' own) is clipped to the norm; a zero
        # row's norm is taken without sqrt(0), whose gradient would be NaN.
        axes = list(range(ids.shape.rank, rows.shape.rank))
        square_sum = M.reduce_sum(M.square(rows), axes, keepdims=True)
        positive = M.greater(square_sum, 0.0)
        norm = M.where(positive, M.sqrt(M.where(positive, square_sum, A.ones_like(square_sum))),
                       square_sum)
        clip = convert_to_tensor(max_norm, dtype=rows.dtype)
        return M.truediv(M.multiply(rows, clip), M.maximum(norm, clip))


def _sharded_gather(shards, ids) -> Tensor:
    """The rows at ``ids`` of the table split in ``shards`` by TensorFlow's "div"
    strategy (``tf.nn.embedding_lookup``'s for a list): of N ids over n shards, the
    first N % n shards hold N // n + 1 consecutive ids, the others N // n. Each shard
    gathers its ids; the rows are put back in the ids' order."""
    if not shards:
        raise ValueError("embedding_lookup needs at least one params tensor")
    shards = [convert_to_tensor(p) for p in shards]
    flat = A.reshape(ids, [-1])
    total = M.add_n([A.shape(p, out_type=flat.dtype)[0] for p in shards])
    n = len(shards)
    per, extras = M.floordiv(total, n), M.floormod(total, n)
    shard = M.maximum(M.floordiv(flat, M.add(per, 1)),
                      M.floordiv(M.subtract(flat, extras), per))
    row = M.where(M.less(shard, extras), M.floormod(flat, M.add(per, 1)),
                  M.floormod(M.subtract(flat, extras), per))
    positions = A.range(A.size(flat))
    picked, order = [], []
    for i, p in enumerate(shards):
        mine = M.equal(shard, i)
        picked.append(A.gather(p, A.boolean_mask(row, mine)))
        order.append(A.boolean_mask(positions, mine))
    from runtime.ops.special_extra import invert_permutation  # (it imports this module's peers)
    rows = A.gather(A.concat(picked, 0), invert_permutation(A.concat(order, 0)))
    return A.reshape(rows, A.concat([A.shape(ids), A.shape(rows)[1:]], 0))


def bias_add(value, bias, data_format=None, name=None) -> Tensor:
    """``value + bias`` along the channel dimension (last; second for "NC..." formats)."""
    value = convert_to_tensor(value)
    bias = convert_to_tensor(bias, dtype_hint=value.dtype)
    fmt = "NCHW" if data_format is not None and data_format.startswith("NC") else "NHWC"
    return apply_op("BiasAdd", [value, bias], {"data_format": fmt}, name=name or "BiasAdd")


def dropout(x, rate, noise_shape=None, seed=None, name=None) -> Tensor:
    """Zeroes each element with probability ``rate`` and scales the kept ones by 1 / (1 - rate)."""
    return _dropout(x, rate, noise_shape, lambda shape, dtype: random_ops.uniform(
        shape, dtype=dtype, seed=seed), name or "dropout")


def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None) -> Tensor:
    """``tf.nn.experimental.stateless_dropout``: ``dropout`` with the mask drawn by
    ``stateless_uniform`` at ``seed`` (the same seed, the same mask)."""
    return _dropout(x, rate, noise_shape, lambda shape, dtype: random_ops.stateless_uniform(
        shape, seed, dtype=dtype), name or "stateless_dropout")


def _dropout(x, rate, noise_shape, uniform, name: str) -> Tensor:
    """TensorFlow's dropout: ``x`` times ``1 / (1 - rate)`` (a Python rate's scale computed in
    Python, then cast), where the noise is at least ``rate``, else 0 (a positive zero)."""
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError(f"`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype={x.dtype!r}")
    number = isinstance(rate, (int, float)) and not isinstance(rate, bool)
    if number and not 0 <= rate < 1:
        raise ValueError(f"`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    if number and rate == 0:
        return x
    with name_scope(name):
        if number:
            rate_t = convert_to_tensor(rate, dtype=x.dtype, name="rate")
            scaled = M.multiply(x, convert_to_tensor(1 / (1 - rate), dtype=x.dtype))
        else:
            rate_t = M.cast(convert_to_tensor(rate), x.dtype)
            scaled = M.truediv(x, M.subtract(1.0, rate_t))
        keep = M.greater_equal(uniform(_noise_shape(x, noise_shape), x.dtype), rate_t)
        return M.where(keep, scaled, convert_to_tensor(0, dtype=x.dtype))


def _noise_shape(x: Tensor, noise_shape):
    """``noise_shape`` with its None entries taken from ``x``'s shape."""
    if noise_shape is None:
        return x.shape.as_list() if x.shape.is_fully_defined() else A.shape(x)
    if isinstance(noise_shape, Tensor):
        return noise_shape
    dims = list(noise_shape)
    if None not in dims:
        return dims
    if x.shape.rank is not None and x.shape.rank == len(dims) and all(
            d is not None or x.shape.as_tuple()[i] is not None for i, d in enumerate(dims)):
        return [x.shape.as_tuple()[i] if d is None else d for i, d in enumerate(dims)]
    dynamic = A.shape(x)
    return A.stack([dynamic[i] if d is None else d for i, d in enumerate(dims)])


# -- convolution ---------------------------------------------------------------------------

_FORMATS = {1: "NWC", 2: "NHWC", 3: "NDHWC"}


def _window_list(value, n: int, what: str, fn: str) -> list[int]:
    """An int or a list of 1, n or n + 2 ints as the [1, *spatial, 1] list of an n-D op."""
    values = [int(value)] if isinstance(value, (int, np.integer)) else [int(v) for v in value]
    if len(values) == 1:
        values = values * n
    if len(values) == n:
        values = [1] + values + [1]
    if len(values) != n + 2:
        raise ValueError(f"{what} should be of length 1, {n} or {n + 2}. Received: "
                         f"{what}={list(values)} of length {len(values)} (tf.nn.{fn})")
    return values


def _as_2d(values: list[int]) -> list[int]:
    """A 1-D op's [1, w, 1] window list as the [1, 1, w, 1] of the 2-D op that runs it."""
    return [1, 1] + values[1:]


def _padding_attrs(padding, n: int, fn: str) -> dict:
    if isinstance(padding, str):
        if padding.upper() not in ("SAME", "VALID"):
            raise ValueError(f"Value for attr 'padding' of {padding!r} is not in the list of "
                             f"allowed values: \"SAME\", \"VALID\", \"EXPLICIT\" (tf.nn.{fn})")
        return {"padding": padding.upper(), "explicit_paddings": []}
    pairs = [list(p) for p in padding]
    if n != 2 or len(pairs) != 4 or any(len(p) != 2 for p in pairs) or pairs[0] != [0, 0] or \
            pairs[3] != [0, 0]:
        raise ValueError(f"padding should be \"SAME\", \"VALID\" or, for a 2-D convolution, 4 "
                         f"pairs with [0, 0] for the batch and channel dimensions, got "
                         f"{padding} (tf.nn.{fn})")
    return {"padding": "EXPLICIT", "explicit_paddings": [int(v) for p in pairs for v in p]}


def _check_format(data_format, n: int, fn: str) -> None:
    """TensorFlow's CPU kernels take channels-last data only (UnimplementedError)."""
    if data_format is not None and data_format != _FORMATS[n]:
        raise UnimplementedError(
            message=f"tf.nn.{fn}: only the {_FORMATS[n]} data format is supported on the CPU, "
                    f"got {data_format!r}")


def _conv_attrs(strides, padding, dilations, n: int, fn: str) -> dict:
    """The attrs of the n-D convolution op (n = 1 runs the 2-D op over a height of 1)."""
    strides = _window_list(strides, n, "strides", fn)
    dilations = _window_list(1 if dilations is None else dilations, n, "dilations", fn)
    attrs = _padding_attrs(padding, n, fn)
    if n == 1:
        strides, dilations = _as_2d(strides), _as_2d(dilations)
    attrs.update(strides=strides, dilations=dilations)
    return attrs


_CONV_OP = {2: "Conv2D", 3: "Conv3D"}
_CONV_INPUT_OP = {2: "Conv2DBackpropInput", 3: "Conv3DBackpropInputV2"}


def _conv(n: int, fn: str, input, filters, strides, padding, data_format, dilations, name):
    _check_format(data_format, n, fn)
    x, f = M.operands(input, filters, fn)
    attrs = _conv_attrs(strides, padding, dilations, n, fn)
    if n != 1:
        return apply_op(_CONV_OP[n], [x, f], attrs, name=name or _CONV_OP[n])
    with name_scope(name or "conv1d"):
        y = apply_op("Conv2D", [A.expand_dims(x, -3), A.expand_dims(f, 0)], attrs, name="Conv2D")
        return A.squeeze(y, [-3])


def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """``tf.nn.conv1d``: an NWC convolution, run as a Conv2D over a height of 1."""
    return _conv(1, "conv1d", input, filters, stride, padding, data_format, dilations, name)


def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """``tf.nn.conv2d``: NHWC input, [height, width, in, out] filters; padding "SAME",
    "VALID" or explicit [[0, 0], [top, bottom], [left, right], [0, 0]]."""
    return _conv(2, "conv2d", input, filters, strides, padding, data_format, dilations, name)


def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):
    """``tf.nn.conv3d``: NDHWC input, [depth, height, width, in, out] filters."""
    return _conv(3, "conv3d", input, filters, strides, padding, data_format, dilations, name)


def _conv_transpose(n: int, fn: str, input, filters, output_shape, strides, padding,
                    data_format, dilations, name):
    """The gradient of the n-D convolution w.r.t. its input; filters are [*k, out, in]."""
    _check_format(data_format, n, fn)
    x, f = M.operands(input, filters, fn)
    sizes = convert_to_tensor(output_shape, dtype_hint=dtypes.int32)
    attrs = _conv_attrs(strides, padding, dilations, n, fn)
    if n != 1:
        return apply_op(_CONV_INPUT_OP[n], [sizes, f, x], attrs, name=name or fn)
    with name_scope(name or fn):
        sizes = A.concat([sizes[:1], [1], sizes[1:]], 0)
        y = apply_op("Conv2DBackpropInput", [sizes, A.expand_dims(f, 0), A.expand_dims(x, -3)],
                     attrs, name="conv2d_transpose")
        return A.squeeze(y, [-3])


def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",
                     dilations=None, name=None):
    return _conv_transpose(1, "conv1d_transpose", input, filters, output_shape, strides,
                           padding, data_format, dilations, name)


def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",
                     dilations=None, name=None):
    """``tf.nn.conv2d_transpose``: the gradient of conv2d w.r.t. its input; ``filters`` is
    [height, width, out_channels, in_channels]."""
    return _conv_transpose(2, "conv2d_transpose", input, filters, output_shape, strides,
                           padding, data_format, dilations, name)


def conv3d_transpose(input, filters, output_shape, strides, padding="SAME",
                     data_format="NDHWC", dilations=None, name=None):
    return _conv_transpose(3, "conv3d_transpose", input, filters, output_shape, strides,
                           padding, data_format, dilations, name)


def _spatial_rank(x, fn: str) -> int:
    rank = convert_to_tensor(x).shape.rank
    if rank not in (3, 4, 5):
        raise ValueError(f"tf.nn.{fn}: input must have rank 3, 4 or 5 (1 to 3 spatial "
                         f"dimensions), got rank {rank}")
    return rank - 2


def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,
                name=None):
    """``tf.nn.convolution``: conv1d, conv2d or conv3d by the input's rank."""
    n = _spatial_rank(input, "convolution")
    return _conv(n, "convolution", input, filters, 1 if strides is None else strides, padding,
                 data_format, dilations, name)


def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,
                   dilations=None, name=None):
    """``tf.nn.conv_transpose``: conv1d/2d/3d_transpose by the input's rank."""
    n = _spatial_rank(input, "conv_transpose")
    return _conv_transpose(n, "conv_transpose", input, filters, output_shape, strides, padding,
                           data_format, dilations, name)


def atrous_conv2d(value, filters, rate, padding, name=None) -> Tensor:
    """``tf.nn.atrous_conv2d``: conv2d with the filter dilated by ``rate``."""
    return conv2d(value, filters, 1, padding, dilations=rate, name=name)


def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """``tf.nn.depthwise_conv2d``: each input channel convolved with its own
    ``channel_multiplier`` filters ([height, width, in, multiplier]); strides has 4 entries."""
    _check_format(data_format, 2, "depthwise_conv2d")
    x, f = M.operands(input, filter, "depthwise_conv2d")
    if len(list(strides)) != 4:
        raise ValueError(f"tf.nn.depthwise_conv2d: strides must have 4 elements, got {strides}")
    attrs = _conv_attrs(strides, padding, dilations, 2, "depthwise_conv2d")
    return apply_op("DepthwiseConv2dNative", [x, f], attrs, name=name or "depthwise")


def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None) -> Tensor:
    """A depthwise convolution followed by a 1x1 convolution mixing the channels."""
    with name_scope(name or "separable_conv2d"):
        depthwise = depthwise_conv2d(input, depthwise_filter, strides, padding, data_format,
                                     dilations)
        return conv2d(depthwise, pointwise_filter, 1, "VALID", name="Conv2D")


# -- pooling -------------------------------------------------------------------------------------

_POOL_OPS = {("MaxPool", 2): "MaxPool", ("MaxPool", 3): "MaxPool3D",
             ("AvgPool", 2): "AvgPool", ("AvgPool", 3): "AvgPool3D"}


def _pool(kind: str, fn: str, n: int, input, ksize, strides, padding, data_format, name):
    _check_format(data_format, n, fn)
    x = convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != n + 2:
        raise ValueError(f"tf.nn.{fn}: input must have rank {n + 2}, got shape "
                         f"{_shape_str(x)}")
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"Value for attr 'padding' of {padding!r} is not in the list of "
                         f"allowed values: \"SAME\", \"VALID\" (tf.nn.{fn})")
    ksize, strides = (_window_list(v, n, what, fn) for v, what in ((ksize, "ksize"),
                                                                    (strides, "strides")))
    if n != 1:
        op = _POOL_OPS[kind, n]
        return apply_op(op, [x], {"ksize": ksize, "strides": strides,
                                  "padding": padding.upper()}, name=name or op)
    attrs = {"ksize": _as_2d(ksize), "strides": _as_2d(strides), "padding": padding.upper()}
    with name_scope(name or fn):
        return A.squeeze(apply_op(kind, [A.expand_dims(x, 1)], attrs, name=kind), [1])


def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None) -> Tensor:
    return _pool("MaxPool", "max_pool1d", 1, input, ksize, strides, padding, data_format, name)


def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None) -> Tensor:
    """``tf.nn.max_pool2d``: the maximum of each window (padding never wins)."""
    return _pool("MaxPool", "max_pool2d", 2, input, ksize, strides, padding, data_format, name)


def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None) -> Tensor:
    return _pool("MaxPool", "max_pool3d", 3, input, ksize, strides, padding, data_format, name)


def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None) -> Tensor:
    return _pool("AvgPool", "avg_pool1d", 1, input, ksize, strides, padding, data_format, name)


def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None) -> Tensor:
    """``tf.nn.avg_pool2d``: the mean of each window over its real (unpadded) inputs."""
    return _pool("AvgPool", "avg_pool2d", 2, input, ksize, strides, padding, data_format, name)


def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None) -> Tensor:
    return _pool("AvgPool", "avg_pool3d", 3, input, ksize, strides, padding, data_format, name)


def max_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:
    """``tf.nn.max_pool``: the 1-, 2- or 3-D op by the input's rank."""
    n = _spatial_rank(input, "max_pool")
    return _pool("MaxPool", "max_pool", n, input, ksize, strides, padding, data_format, name)


def avg_pool(input, ksize, strides, padding, data_format=None, name=None) -> Tensor:
    """``tf.nn.avg_pool``: the 1-, 2- or 3-D op by the input's rank."""
    n = _spatial_rank(input, "avg_pool")
    return _pool("AvgPool", "avg_pool", n, input, ksize, strides, padding, data_format, name)


def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,
         dilations=None, name=None) -> Tensor:
    """``tf.nn.pool``: "MAX" or "AVG" pooling with ``window_shape`` over 1 to 3 spatial dims."""
    n = len(list(window_shape))
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    if dilations is not None and any(int(d) != 1 for d in np.ravel(dilations)):
        raise NotImplementedError("tf.nn.pool with dilations > 1 is not supported")
    kind = "MaxPool" if pooling_type == "MAX" else "AvgPool"
    return _pool(kind, "pool", n, input, window_shape, 1 if strides is None else strides,
                 padding, data_format, name)


# -- depth_to_space, space_to_depth -----------------------------------------------------------

def _block_op(op: str, input, block_size, data_format, name):
    _check_format(data_format, 2, op)
    return apply_op(op, [convert_to_tensor(input)],
                    {"block_size": int(block_size), "data_format": "NHWC"}, name=name or op)


def depth_to_space(input, block_size, data_format="NHWC", name=None) -> Tensor:
    """Moves channel blocks into b x b spatial blocks: [N, H, W, C] -> [N, bH, bW, C / b^2]."""
    return _block_op("DepthToSpace", input, block_size, data_format, name)


def space_to_depth(input, block_size, data_format="NHWC", name=None) -> Tensor:
    """Moves b x b spatial blocks into channels: [N, H, W, C] -> [N, H / b, W / b, b^2 C]."""
    return _block_op("SpaceToDepth", input, block_size, data_format, name)


# -- top_k, in_top_k ------------------------------------------------------------------------

TopKV2 = collections.namedtuple("TopKV2", ["values", "indices"])


def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """``(values, indices)`` of the k largest entries of the last dimension, largest first;
    equal values keep their order."""
    x = convert_to_tensor(input)
    k_t = convert_to_tensor(k, dtype=dtypes.int32)
    values, indices = apply_op("TopKV2", [x, k_t], {"sorted": bool(sorted)},
                               name=name or "TopKV2")
    if as_dtype(index_type) != dtypes.int32:
        indices = M.cast(indices, index_type)
    return TopKV2(values, indices)


def in_top_k(targets, predictions, k, name=None) -> Tensor:
    """Whether each target class is among the k highest predictions of its row."""
    p = convert_to_tensor(predictions, dtype=dtypes.float32)
    t = convert_to_tensor(targets, dtype_hint=dtypes.int32)
    k_t = convert_to_tensor(k, dtype=t.dtype)
    return apply_op("InTopKV2", [p, t, k_t], name=name or "InTopKV2")

