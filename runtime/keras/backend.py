"""``tf.keras.backend``: Keras 3's legacy backend functions that custom training loops and
custom losses still call (``clear_session``, ``epsilon``, ``floatx``, ``K.mean``...).

Each is the TensorFlow op Keras's legacy backend calls, with its few twists kept:
``mean`` of booleans averages them as ``floatx()``, ``sqrt`` clips negatives to 0,
``clip`` raises ``max_value`` to ``min_value`` when it is below, ``constant`` and
``zeros``/``ones`` default to ``floatx()``, and ``zeros``/``ones``/``eye`` of a fully
known shape are variables. ``floatx()`` is also the default dtype of initializers,
and of layers as Keras's global dtype policy has it (fixed by the first layer made).
"""
from __future__ import annotations

import math

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops, math_ops, nn_ops, special_ops
from runtime.ops.core import constant as _constant, convert_to_tensor
from runtime.tensor import Tensor
from runtime.variables import Variable

_config = {"epsilon": 1e-7, "floatx": "float32", "image_data_format": "channels_last"}
_FLOAT_TYPES = ("float16", "bfloat16", "float32", "float64")


def epsilon() -> float:
    """The fuzz factor Keras adds to avoid dividing by zero (1e-7)."""
    return _config["epsilon"]


def set_epsilon(value: float) -> None:
    _config["epsilon"] = float(value)


def floatx() -> str:
    """The default float type of new weights, initializers and ``constant`` (``'float32'``)."""
    return _config["floatx"]


def layer_dtype() -> str:
    """The default dtype of new layers: ``floatx()`` when the first layer asked, kept from
    then on (Keras's global dtype policy) until ``clear_session``."""
    if _config.get("layer_dtype") is None:
        _config["layer_dtype"] = _config["floatx"]
    return _config["layer_dtype"]


def set_floatx(value: str) -> None:
    name = as_dtype(value).name
    if name not in _FLOAT_TYPES:
        raise ValueError(f"Unknown `floatx` value: {value}. Expected one of {set(_FLOAT_TYPES)}")
    _config["floatx"] = name


def image_data_format() -> str:
    return _config["image_data_format"]


def set_image_data_format(data_format: str) -> None:
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"The `data_format` argument must be one of {{'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    _config["image_data_format"] = data_format


def clear_session(free_memory: bool = True) -> None:
    """Forgets Keras's global state: layer names start again at ``dense``, ``dense_1``...;
    the generator behind unseeded random calls and the layers' default dtype are made anew."""
    from runtime.keras import random as keras_random
    from runtime.keras.layers import base
    with base._uid_lock:
        base._uids.clear()
    keras_random.reset_global_seed_generator()
    _config["layer_dtype"] = None


def get_uid(prefix: str = "") -> int:
    """1, 2, 3... per prefix: the numbers behind Keras's layer names."""
    from runtime.keras.layers import base
    with base._uid_lock:
        base._uids[prefix] = base._uids.get(prefix, 0) + 1
        return base._uids[prefix]


def is_keras_tensor(x) -> bool:
    from runtime.keras.layers.base import KerasTensor
    return isinstance(x, KerasTensor)


# -- values and shapes -------------------------------------------------------------------------

def variable(value, dtype=None, name=None, constraint=None) -> Variable:
    return Variable(value, dtype=as_dtype(dtype or floatx()), name=name, constraint=constraint)


def constant(value, dtype=None, shape=None, name=None) -> Tensor:
    return _constant(value, dtype=as_dtype(dtype or floatx()), shape=shape, name=name)


def _filled(fill, shape, dtype, name):
    value = fill(shape, dtype=as_dtype(dtype or floatx()), name=name)
    known = all(d is not None for d in value.shape.as_list()) if value.shape.rank is not None \
        else False
    return variable(value, dtype=value.dtype, name=name) if known else value


def zeros(shape, dtype=None, name=None):
    return _filled(array_ops.zeros, shape, dtype, name)


def ones(shape, dtype=None, name=None):
    return _filled(array_ops.ones, shape, dtype, name)


def eye(size, dtype=None, name=None):
    return variable(np.eye(size), dtype=as_dtype(dtype or floatx()), name=name)


def zeros_like(x, dtype=None, name=None):
    return array_ops.zeros_like(x, dtype=dtype, name=name)


def ones_like(x, dtype=None, name=None):
    return array_ops.ones_like(x, dtype=dtype, name=name)


def cast_to_floatx(x):
    if isinstance(x, (Tensor, Variable)):
        return math_ops.cast(x, floatx())
    return np.asarray(x, dtype=floatx())


def get_value(x):
    return x.numpy() if isinstance(x, (Tensor, Variable)) else x


def batch_get_value(tensors) -> list:
    return [x.numpy() for x in tensors]


def set_value(x, value) -> None:
    x.assign(np.asarray(value, dtype=x.dtype.numpy_dtype))


def batch_set_value(tuples) -> None:
    for x, value in tuples:
        set_value(x, value)


def int_shape(x):
    shape = x.shape
    return shape if isinstance(shape, tuple) else tuple(shape.as_list())


def ndim(x):
    return x.shape.rank


def dtype(x) -> str:
    return x.dtype.name


def count_params(x) -> int:
    return math.prod(x.shape.as_list())


def shape(x):
    return array_ops.shape(x)


# -- math -----------------------------------------------------------------------------------------

def mean(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if x.dtype == dtypes.bool_:
        x = math_ops.cast(x, floatx())
    return math_ops.reduce_mean(x, axis, keepdims)


def sum(x, axis=None, keepdims=False):  # noqa: A001  (Keras's name)
    return math_ops.reduce_sum(x, axis, keepdims)


def max(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_max(x, axis, keepdims)


def min(x, axis=None, keepdims=False):  # noqa: A001
    return math_ops.reduce_min(x, axis, keepdims)


def prod(x, axis=None, keepdims=False):
    return math_ops.reduce_prod(x, axis, keepdims)


def var(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if x.dtype == dtypes.bool_:
        x = math_ops.cast(x, floatx())
    return special_ops.reduce_variance(x, axis=axis, keepdims=keepdims)


def std(x, axis=None, keepdims=False):
    x = convert_to_tensor(x)
    if x.dtype == dtypes.bool_:
        x = math_ops.cast(x, floatx())
    return special_ops.reduce_std(x, axis=axis, keepdims=keepdims)


def sqrt(x):
    x = convert_to_tensor(x)
    return math_ops.sqrt(math_ops.maximum(x, _constant(0.0, dtype=x.dtype)))


def clip(x, min_value, max_value):
    if isinstance(min_value, (int, float)) and isinstance(max_value, (int, float)) \
            and max_value < min_value:
        max_value = min_value
    return array_ops.clip_by_value(x, -np.inf if min_value is None else min_value,
                                   np.inf if max_value is None else max_value)


def cast(x, dtype):
    return math_ops.cast(x, dtype)


def abs(x):  # noqa: A001
    return math_ops.abs(x)


def square(x):
    return math_ops.square(x)


def exp(x):
    return math_ops.exp(x)


def log(x):
    return math_ops.log(x)


def pow(x, a):  # noqa: A001
    return math_ops.pow(x, a)


def maximum(x, y):
    return math_ops.maximum(x, y)


def minimum(x, y):
    return math_ops.minimum(x, y)


def sigmoid(x):
    return math_ops.sigmoid(x)


def tanh(x):
    return math_ops.tanh(x)


def softmax(x, axis=-1):
    x = convert_to_tensor(x)
    if x.shape.rank is not None and x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    return nn_ops.softmax(x, axis=axis)


def argmax(x, axis=-1):
    return math_ops.argmax(x, axis)


def argmin(x, axis=-1):
    return math_ops.argmin(x, axis)


def stop_gradient(variables):
    from runtime.gradients import stop_gradient as stop
    if isinstance(variables, (list, tuple)):
        return [stop(v) for v in variables]
    return stop(variables)


# -- shapes of tensors ----------------------------------------------------------------------------

def concatenate(tensors, axis=-1):
    return array_ops.concat(list(tensors), axis)


def stack(x, axis=0):
    return array_ops.stack(x, axis=axis)


def reshape(x, shape):
    return array_ops.reshape(x, shape)


def expand_dims(x, axis=-1):
    return array_ops.expand_dims(x, axis)


def squeeze(x, axis):
    return array_ops.squeeze(x, [axis])


def transpose(x):
    return array_ops.transpose(x)


def permute_dimensions(x, pattern):
    return array_ops.transpose(x, perm=pattern)


def flatten(x):
    return array_ops.reshape(x, [-1])


def batch_flatten(x):
    return array_ops.reshape(x, array_ops.stack([-1, math_ops.reduce_prod(
        array_ops.shape(x)[1:])]))


def one_hot(indices, num_classes):
    return array_ops.one_hot(indices, depth=num_classes, axis=-1)
