"""``tf.keras.utils``' helpers for custom ``train_step``s: packing and unpacking the
``(x, y, sample_weight)`` data tuple, and telling symbolic Keras tensors apart."""
from __future__ import annotations

from runtime.keras.keras_tensor import KerasTensor


def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """``x`` alone (a tuple or list ``x`` wrapped as ``(x,)``), ``(x, y)`` or
    ``(x, y, sample_weight)``."""
    if y is None:
        return (x,) if isinstance(x, (tuple, list)) else x
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def unpack_x_y_sample_weight(data):
    """``(x, y, sample_weight)`` from ``x``, ``(x,)``, ``(x, y)`` or ``(x, y, sample_weight)``,
    with None for what is missing."""
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if 1 <= len(data) <= 3:
        return tuple(data) + (None,) * (3 - len(data))
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


def is_keras_tensor(x) -> bool:
    """Whether ``x`` is a symbolic Keras tensor (what ``tf.keras.Input`` returns)."""
    return isinstance(x, KerasTensor)
