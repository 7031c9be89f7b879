"""``tf.keras.activations``: elementwise nonlinearities, by function or by name.

They are compositions of ``tf.math`` / ``tf.nn`` ops, so they run eagerly and
staged alike and get their gradients from those ops.
"""
from __future__ import annotations

from runtime.ops import array_ops, math_ops as M, nn_ops
from runtime.ops.special_ops import cumsum, expm1, log_sigmoid as special_log_sigmoid
from runtime.ops.core import convert_to_tensor


def relu(x, negative_slope=0.0, max_value=None, threshold=0.0):
    """max(x, 0); with ``negative_slope``, ``max_value`` or ``threshold`` Keras's general form."""
    x = convert_to_tensor(x)
    if negative_slope == 0.0 and max_value is None and threshold == 0.0:
        return M.relu(x)
    y = M.where(M.less(x, threshold), M.multiply(M.subtract(x, threshold), negative_slope), x)
    return y if max_value is None else M.minimum(y, max_value)


def sigmoid(x):
    return M.sigmoid(x)


def tanh(x):
    return M.tanh(x)


def linear(x):
    """The identity: what ``activation=None`` means."""
    return x


def softmax(x, axis=-1):
    return nn_ops.softmax(x, axis=axis)


def softplus(x):
    return nn_ops.softplus(x)


def softsign(x):
    return nn_ops.softsign(x)


def elu(x, alpha=1.0):
    y = nn_ops.elu(x)
    return y if alpha == 1.0 else M.where(M.greater(y, 0), y, M.multiply(y, alpha))


def selu(x):
    return nn_ops.selu(x)


def leaky_relu(x, negative_slope=0.2):
    return nn_ops.leaky_relu(x, alpha=negative_slope)


def relu6(x):
    return nn_ops.relu6(x)


def silu(x):
    """x * sigmoid(x) (also called swish)."""
    return nn_ops.silu(x)


swish = silu


def exponential(x):
    return M.exp(x)


def gelu(x, approximate=False):
    """x * P(X <= x) for a standard normal X; ``approximate`` uses the tanh formula."""
    return nn_ops.gelu(x, approximate=approximate)



def celu(x, alpha=1.0):
    """``max(x, 0) + alpha * (exp(min(x, 0) / alpha) - 1)``."""
    x = convert_to_tensor(x)
    return M.add(M.maximum(x, 0.0), M.multiply(alpha, expm1(M.divide(M.minimum(x, 0.0),
                                                                      alpha))))


def glu(x, axis=-1):
    """Gated linear unit: the first half of ``axis`` times the sigmoid of the second."""
    a, b = array_ops.split(convert_to_tensor(x), 2, axis=axis)
    return M.multiply(a, M.sigmoid(b))


def hard_sigmoid(x):
    """``relu6(x + 3) / 6``: a piecewise-linear sigmoid."""
    return M.divide(nn_ops.relu6(M.add(convert_to_tensor(x), 3.0)), 6.0)


def hard_silu(x):
    """``x * hard_sigmoid(x)`` (also called hard_swish)."""
    x = convert_to_tensor(x)
    return M.multiply(x, hard_sigmoid(x))


hard_swish = hard_silu


def hard_tanh(x):
    return array_ops.clip_by_value(convert_to_tensor(x), -1.0, 1.0)


def hard_shrink(x, threshold=0.5):
    """``x`` where ``|x| > threshold``, else 0."""
    x = convert_to_tensor(x)
    return M.where(M.greater(M.abs(x), threshold), x, array_ops.zeros_like(x))


def soft_shrink(x, threshold=0.5):
    """``x`` moved ``threshold`` towards 0, and 0 within ``threshold`` of it."""
    x = convert_to_tensor(x)
    zero = array_ops.zeros_like(x)
    return M.where(M.greater(x, threshold), M.subtract(x, threshold),
                   M.where(M.less(x, -threshold), M.add(x, threshold), zero))


def tanh_shrink(x):
    x = convert_to_tensor(x)
    return M.subtract(x, M.tanh(x))


def log_sigmoid(x):
    return special_log_sigmoid(convert_to_tensor(x))


def log_softmax(x, axis=-1):
    return nn_ops.log_softmax(x, axis=axis)


def mish(x):
    """``x * tanh(softplus(x))``."""
    x = convert_to_tensor(x)
    return M.multiply(x, M.tanh(nn_ops.softplus(x)))


def squareplus(x, b=4):
    """``(x + sqrt(x^2 + b)) / 2``: a smooth relu."""
    x = convert_to_tensor(x)
    return M.divide(M.add(x, M.sqrt(M.add(M.square(x), M.cast(b, x.dtype)))), 2.0)


def sparse_plus(x):
    """0 below -1, ``x`` above 1, ``(x + 1)^2 / 4`` between."""
    x = convert_to_tensor(x)
    return M.where(M.less_equal(x, -1.0), array_ops.zeros_like(x),
                   M.where(M.greater_equal(x, 1.0), x, M.divide(M.square(M.add(x, 1.0)), 4.0)))


def sparse_sigmoid(x):
    """0 below -1, 1 above 1, ``(x + 1) / 2`` between."""
    x = convert_to_tensor(x)
    return M.where(M.less_equal(x, -1.0), array_ops.zeros_like(x),
                   M.where(M.greater_equal(x, 1.0), array_ops.ones_like(x),
                           M.multiply(0.5, M.add(x, 1.0))))


def sparsemax(x, axis=-1):
    """Sparse softmax, as Keras 3's TensorFlow backend computes it: its threshold divides
    the sum of the supported running sums (not the last one) by the support size."""
    x = convert_to_tensor(x)
    ordered = array_ops.sort(x, axis=axis, direction="DESCENDING")
    running = cumsum(ordered, axis=axis)
    rank = x.shape.rank
    size = x.shape[axis]
    shape = [1] * rank
    shape[axis] = size
    r = array_ops.reshape(M.cast(array_ops.range_(1, size + 1), x.dtype), shape)
    support = M.greater(M.subtract(ordered, M.divide(M.subtract(running, 1.0), r)), 0.0)
    k = M.reduce_sum(M.cast(support, x.dtype), axis=axis, keepdims=True)
    safe = M.where(support, running, array_ops.zeros_like(running))
    tau = M.divide(M.subtract(M.reduce_sum(safe, axis=axis, keepdims=True), 1.0), k)
    return M.maximum(M.subtract(x, tau), 0.0)


def threshold(x, threshold, default_value):
    """``x`` where ``x > threshold``, else ``default_value``."""
    x = convert_to_tensor(x)
    return M.where(M.greater(x, threshold), x,
                   M.multiply(array_ops.ones_like(x), default_value))

_BY_NAME = {f.__name__: f for f in (relu, sigmoid, tanh, linear, softmax, softplus, softsign,
                                     elu, selu, leaky_relu, relu6, silu, exponential, gelu,
                                     celu, glu, hard_sigmoid, hard_silu, hard_tanh, hard_shrink,
                                     soft_shrink, tanh_shrink, log_sigmoid, log_softmax, mish,
                                     squareplus, sparse_plus, sparse_sigmoid, sparsemax)}
_BY_NAME.update({"swish": silu, "hard_swish": hard_silu})


def get(identifier):
    """The activation for a name (``"relu"``), a callable, or None (linear)."""
    if identifier is None:
        return linear
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret activation function identifier: {identifier}")


def serialize(activation) -> str:
    """The name ``get_config`` shows for an activation."""
    return getattr(activation, "__name__", repr(activation))


def deserialize(config, custom_objects=None):
    """The activation a name or a serialized config names."""
    if isinstance(config, dict):
        config = config.get("config", config.get("class_name"))
    if custom_objects and config in custom_objects:
        return custom_objects[config]
    return get(config)
