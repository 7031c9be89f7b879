"""``tf.keras.activations``: elementwise nonlinearities, by function or by name.

They are compositions of ``tf.math`` / ``tf.nn`` ops, so they run eagerly and
staged alike and get their gradients from those ops.
"""
from __future__ import annotations

from runtime.ops import math_ops as M
from runtime.ops import nn_ops
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


_BY_NAME = {f.__name__: f for f in (relu, sigmoid, tanh, linear, softmax, softplus, softsign,
                                     elu, selu, leaky_relu, relu6, silu, exponential, gelu)}
_BY_NAME["swish"] = silu


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
