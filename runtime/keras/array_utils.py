"""``tf.keras.utils`` array helpers: ``to_categorical``, ``normalize`` and ``pad_sequences``.

As in Keras 3 they work on NumPy arrays and return NumPy arrays (``to_categorical``'s matrix
is float64, as Keras builds it); given a tensor, ``to_categorical`` and ``normalize`` run the
ops Keras runs instead (``one_hot``; an L2 norm as ``x * min(rsqrt(sum(x²)), 1/epsilon)``), so
they also work inside a tf.function.
"""
from __future__ import annotations

import numpy as np

from runtime.keras.backend import epsilon
from runtime.ops import array_ops as A
from runtime.ops import linalg_ops
from runtime.ops import math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor


def to_categorical(x, num_classes=None):
    """One-hot rows for integer class labels (a trailing axis of size 1 is dropped)."""
    if isinstance(x, Tensor):
        shape = x.shape.as_list() if x.shape.rank is not None else None
        if shape is not None and len(shape) > 1 and shape[-1] == 1:
            x = A.reshape(x, [-1 if d is None else d for d in shape[:-1]])
        return A.one_hot(x, num_classes)
    x = np.array(x, dtype="int64")
    input_shape = x.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    x = x.reshape(-1)
    if not num_classes:
        num_classes = np.max(x) + 1
    categorical = np.zeros((x.shape[0], num_classes))
    categorical[np.arange(x.shape[0]), x] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


def normalize(x, axis=-1, order=2):
    """``x`` divided by its ``order``-norm along ``axis`` (zero vectors are left as they are)."""
    if isinstance(x, np.ndarray):
        norm = np.atleast_1d(np.linalg.norm(x, order, axis))
        norm[norm == 0] = 1
        return x / np.expand_dims(norm, axis or -1)
    return normalize_tensor(x, axis, order)


def normalize_tensor(x, axis=-1, order=2, eps=None):
    """Keras's ``ops.normalize``: ``x / max(norm, eps)`` (for L2, ``x * min(rsqrt(sum(x²)),
    1 / eps)``), ``eps`` defaulting to ``backend.epsilon()``."""
    if not isinstance(order, int) or not order >= 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    eps = epsilon() if eps is None else eps
    x = convert_to_tensor(x)
    if x.shape.rank == 0:
        x = A.expand_dims(x, 0)
    if order == 2:
        inverse = M.rsqrt(M.reduce_sum(M.square(x), axis=axis, keepdims=True))
        return M.multiply(x, M.minimum(inverse, M.cast(1.0 / eps, x.dtype)))
    norm = linalg_ops.norm(x, ord=order, axis=axis, keepdims=True)
    return M.divide(x, M.maximum(norm, M.cast(eps, x.dtype)))


def pad_sequences(sequences, maxlen=None, dtype="int32", padding="pre", truncating="pre",
                  value=0.0):
    """Sequences of different lengths as one ``(len(sequences), maxlen, ...)`` array: padded
    with ``value`` and truncated, before (``"pre"``) or after (``"post"``)."""
    if not hasattr(sequences, "__len__"):
        raise ValueError("`sequences` must be iterable.")
    lengths, sample_shape = [], None
    for s in sequences:
        try:
            lengths.append(len(s))
        except TypeError as e:
            raise ValueError(f"`sequences` must be a list of iterables. Found non-iterable: "
                             f"{s}") from e
        if sample_shape is None and len(s):
            sample_shape = np.asarray(s).shape[1:]
    sample_shape = sample_shape or ()
    if maxlen is None:
        maxlen = np.max(lengths)
    is_text = np.issubdtype(dtype, np.str_) or np.issubdtype(dtype, np.bytes_)
    if isinstance(value, str) and dtype is not object and not is_text:
        raise ValueError(f"`dtype` {dtype} is not compatible with `value`'s type: "
                         f"{type(value)}\nYou should set `dtype=object` for variable length "
                         "strings.")
    out = np.full((len(sequences), maxlen) + sample_shape, value, dtype=dtype)
    for i, s in enumerate(sequences):
        if not len(s):
            continue
        if truncating == "pre":
            kept = s[-maxlen:]
        elif truncating == "post":
            kept = s[:maxlen]
        else:
            raise ValueError(f'Truncating type "{truncating}" not understood')
        kept = np.asarray(kept, dtype=dtype)
        if kept.shape[1:] != sample_shape:
            raise ValueError(f"Shape of sample {kept.shape[1:]} of sequence at position {i} "
                             f"is different from expected shape {sample_shape}")
        if padding == "post":
            out[i, :len(kept)] = kept
        elif padding == "pre":
            out[i, -len(kept):] = kept
        else:
            raise ValueError(f'Padding type "{padding}" not understood')
    return out
