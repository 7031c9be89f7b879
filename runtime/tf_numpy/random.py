"""``tnp.random``: numpy's sampling functions on TensorFlow's random ops (so ``seed``
is ``tf.random.set_seed`` and the values are TensorFlow's)."""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import array_ops, random_ops
from runtime.tf_numpy.creation import asarray
from runtime.tf_numpy.dtype_rules import result_type


def seed(s) -> None:
    try:
        s = int(s)
    except TypeError:
        raise ValueError(f"Argument `s` got an invalid value {s}. Only integers are "
                         "supported.") from None
    random_ops.set_seed(s)


def _size(size) -> tuple:
    if size is None:
        return ()
    if isinstance(size, (int, np.integer)):
        return (int(size),)
    return tuple(size)


def standard_normal(size=None):
    """Samples of N(0, 1), float64 (numpy's dtype, whatever ``prefer_float32`` says)."""
    return random_ops.normal(_size(size), dtype=result_type(float))


def randn(*args):
    return standard_normal(size=args)


def uniform(low=0.0, high=1.0, size=None):
    dtype = result_type(float)
    low, high = asarray(low, dtype), asarray(high, dtype)
    if size is None:
        size = array_ops.broadcast_dynamic_shape(array_ops.shape(low), array_ops.shape(high))
    else:
        size = _size(size)
    return random_ops.uniform(size, minval=low, maxval=high, dtype=dtype)


def random(size=None):
    return uniform(0.0, 1.0, size)


def rand(*size):
    return uniform(0.0, 1.0, size)


def randint(low, high=None, size=None, dtype=np.int64):
    """Integers in [low, high) (in [0, low) without ``high``), int64 unless int32 is asked."""
    low = int(low)
    if high is None:
        low, high = 0, low
    dtype_arg, dtype = dtype, result_type(dtype)
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got an invalid value {dtype_arg}. Only those "
                         f"convertible to {(np.int32, np.int64)} are supported.")
    return random_ops.uniform(_size(size), minval=low, maxval=high, dtype=dtype)


def poisson(lam=1.0, size=None):
    return random_ops.poisson(lam, _size(size), dtype=dtypes.int64)
