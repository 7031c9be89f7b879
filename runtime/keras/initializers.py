"""``tf.keras.initializers``: the values new weights start from, drawn as Keras 3 draws them.

An initializer is called with a shape and dtype and returns a tensor. A random
initializer draws through ``tf.keras.random`` (stateless ops), so its values are
TensorFlow's for the same seed: an int seed gives the same values on every
call; ``seed=None`` takes an int seed from Python's ``random`` once, when the
initializer is made (so ``tf.keras.utils.set_random_seed`` before building a
model gives TensorFlow's weights, layer for layer, as Keras 3 makes a layer's
default initializers in its constructor); a ``SeedGenerator`` seed gives new
values on every call.
"""
from __future__ import annotations

import math

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.keras import random as keras_random
from runtime.keras.backend import floatx
from runtime.ops import array_ops, linalg_ops, math_ops
from runtime.ops.core import constant as _constant


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` returns a tensor of that shape."""

    def __call__(self, shape, dtype=None):
        dtype = as_dtype(dtype or floatx())
        dims = tuple(shape)
        if any(d is None for d in dims):
            raise ValueError(f"{type(self).__name__} needs a fully defined shape, got {dims}")
        return _constant(self._values(tuple(int(d) for d in dims), dtype), dtype=dtype)

    def _values(self, shape, dtype) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _values")

    def get_config(self) -> dict:
        return {}

    @classmethod
    def from_config(cls, config: dict):
        return cls(**config)


class Zeros(Initializer):
    def _values(self, shape, dtype):
        return np.zeros(shape, dtype.numpy_dtype)


class Ones(Initializer):
    def _values(self, shape, dtype):
        return np.ones(shape, dtype.numpy_dtype)


class Constant(Initializer):
    def __init__(self, value=0.0):
        self.value = value

    def _values(self, shape, dtype):
        return np.broadcast_to(np.asarray(self.value, dtype.numpy_dtype), shape).copy()

    def get_config(self):
        return {"value": self.value}


class RandomInitializer(Initializer):
    """Holds the seed its draws use: an int or a SeedGenerator (None: one drawn now)."""

    def __init__(self, seed=None):
        self._init_seed = seed
        if seed is None:
            seed = keras_random.make_default_seed()
        elif isinstance(seed, dict):  # a serialized SeedGenerator (from get_config)
            seed = keras_random.SeedGenerator.from_config(seed.get("config", seed))
        elif not isinstance(seed, (int, keras_random.SeedGenerator)) or isinstance(seed, bool):
            raise ValueError("`seed` argument should be an instance of "
                             "`keras.random.SeedGenerator()` or an integer. "
                             f"Received: seed={seed}")
        self.seed = seed

    def __call__(self, shape, dtype=None):
        dtype = as_dtype(dtype or floatx())
        if not dtype.is_floating:
            raise ValueError(f"{type(self).__name__} makes float weights, got dtype {dtype.name}")
        return self._draw(tuple(shape), dtype)

    def _draw(self, shape, dtype):
        raise NotImplementedError(f"{type(self).__name__} must define _draw")

    def get_config(self):
        seed = self._init_seed
        if isinstance(seed, keras_random.SeedGenerator):
            seed = {"module": "keras.random", "class_name": "SeedGenerator",
                    "config": seed.get_config(), "registered_name": None}
        return {"seed": seed}


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def _draw(self, shape, dtype):
        return keras_random.normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval = minval, maxval
        super().__init__(seed)

    def _draw(self, shape, dtype):
        return keras_random.uniform(shape, self.minval, self.maxval, dtype, self.seed)

    def get_config(self):
        return {**super().get_config(), "minval": self.minval, "maxval": self.maxval}


class TruncatedNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev = mean, stddev
        super().__init__(seed)

    def _draw(self, shape, dtype):
        return keras_random.truncated_normal(shape, self.mean, self.stddev, dtype, self.seed)

    def get_config(self):
        return {**super().get_config(), "mean": self.mean, "stddev": self.stddev}


def compute_fans(shape, input_axes=None, output_axes=None) -> tuple[int, int]:
    """(fan_in, fan_out): the products over ``input_axes``/``output_axes`` when both are given;
    else a kernel's last two axes are (in, out) and the others its receptive field."""
    shape = tuple(shape)
    if input_axes is not None and output_axes is not None:
        return (int(math.prod(shape[a] for a in input_axes)),
                int(math.prod(shape[a] for a in output_axes)))
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return int(shape[0]), int(shape[0])
    receptive = math.prod(shape[:-2])
    return int(shape[-2] * receptive), int(shape[-1] * receptive)


class VarianceScaling(RandomInitializer):
    """Samples scaled by the weight's fan: the rule behind Glorot, He and LeCun initialization."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None,
                 input_axes=None, output_axes=None):
        if scale <= 0.0:
            raise ValueError(f"Argument `scale` must be positive float. Received: scale={scale}")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode}. Please use one of "
                             "{'fan_in', 'fan_out', 'fan_avg'}")
        distribution = distribution.lower()
        if distribution == "normal":
            distribution = "truncated_normal"
        if distribution not in ("uniform", "truncated_normal", "untruncated_normal"):
            raise ValueError(f"Invalid `distribution` argument: {distribution}.Please use one of "
                             "{'uniform', 'truncated_normal', 'untruncated_normal'}")
        self.scale, self.mode, self.distribution = scale, mode, distribution
        self.input_axes, self.output_axes = input_axes, output_axes
        super().__init__(seed)

    def _draw(self, shape, dtype):
        fan_in, fan_out = compute_fans(shape, self.input_axes, self.output_axes)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "truncated_normal":
            # 0.8796...: the stddev of a unit normal truncated at two stddevs.
            stddev = math.sqrt(variance) / 0.87962566103423978
            return keras_random.truncated_normal(shape, 0.0, stddev, dtype, self.seed)
        if self.distribution == "untruncated_normal":
            return keras_random.normal(shape, 0.0, math.sqrt(variance), dtype, self.seed)
        limit = math.sqrt(3.0 * variance)
        return keras_random.uniform(shape, -limit, limit, dtype, self.seed)

    def get_config(self):
        return {**super().get_config(), "scale": self.scale, "mode": self.mode,
                "distribution": self.distribution, "input_axes": self.input_axes,
                "output_axes": self.output_axes}


def _variance_scaling(name: str, scale: float, mode: str, distribution: str):
    def __init__(self, seed=None, input_axes=None, output_axes=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed, input_axes, output_axes)

    def get_config(self):
        return {**RandomInitializer.get_config(self), "input_axes": self.input_axes,
                "output_axes": self.output_axes}

    return type(name, (VarianceScaling,), {"__init__": __init__, "get_config": get_config,
                                           "__module__": __name__,
                                           "__doc__": f"VarianceScaling({scale}, {mode!r}, "
                                                      f"{distribution!r})."})


GlorotUniform = _variance_scaling("GlorotUniform", 1.0, "fan_avg", "uniform")
GlorotNormal = _variance_scaling("GlorotNormal", 1.0, "fan_avg", "truncated_normal")
HeUniform = _variance_scaling("HeUniform", 2.0, "fan_in", "uniform")
HeNormal = _variance_scaling("HeNormal", 2.0, "fan_in", "truncated_normal")
LecunUniform = _variance_scaling("LecunUniform", 1.0, "fan_in", "uniform")
LecunNormal = _variance_scaling("LecunNormal", 1.0, "fan_in", "truncated_normal")


class Orthogonal(RandomInitializer):
    """A (semi-)orthogonal matrix from the QR decomposition of a normal one, times ``gain``;
    higher-rank shapes are the matrix of their flattened leading axes by the last axis."""

    def __init__(self, gain=1.0, seed=None):
        self.gain = gain
        super().__init__(seed)

    def _draw(self, shape, dtype):
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = math.prod(shape[:-1]), shape[-1]
        a = keras_random.normal((max(rows, cols), min(rows, cols)), dtype=dtype, seed=self.seed)
        q, r = linalg_ops.qr(a)
        q = math_ops.multiply(q, math_ops.sign(linalg_ops.diag_part(r)))
        if rows < cols:
            q = array_ops.transpose(q)
        return math_ops.multiply(math_ops.cast(self.gain, dtype), array_ops.reshape(q, shape))

    def get_config(self):
        return {**super().get_config(), "gain": self.gain}


class Identity(Initializer):
    """``gain`` times the identity matrix (2-D shapes only)."""

    def __init__(self, gain=1.0):
        self.gain = gain

    def _values(self, shape, dtype):
        if len(shape) != 2:
            raise ValueError(f"Identity matrix initializer can only be used for 2D matrices. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        return (self.gain * np.eye(*shape)).astype(dtype.numpy_dtype)

    def get_config(self):
        return {"gain": self.gain}


_BY_NAME = {c.__name__: c for c in (
    Zeros, Ones, Constant, RandomNormal, RandomUniform, TruncatedNormal, VarianceScaling,
    GlorotUniform, GlorotNormal, HeUniform, HeNormal, LecunUniform, LecunNormal, Orthogonal,
    Identity)}
_BY_NAME.update({"zeros": Zeros, "ones": Ones, "constant": Constant,
                 "random_normal": RandomNormal, "random_uniform": RandomUniform,
                 "truncated_normal": TruncatedNormal, "variance_scaling": VarianceScaling,
                 "glorot_uniform": GlorotUniform, "glorot_normal": GlorotNormal,
                 "he_uniform": HeUniform, "he_normal": HeNormal,
                 "lecun_uniform": LecunUniform, "lecun_normal": LecunNormal,
                 "uniform": RandomUniform, "normal": RandomNormal, "orthogonal": Orthogonal,
                 "identity": Identity})
OrthogonalInitializer, IdentityInitializer = Orthogonal, Identity
# Keras 3's lower-case aliases of the classes.
zeros, ones, constant, identity, orthogonal = Zeros, Ones, Constant, Identity, Orthogonal
random_normal, random_uniform, truncated_normal = RandomNormal, RandomUniform, TruncatedNormal
variance_scaling, glorot_uniform, glorot_normal = VarianceScaling, GlorotUniform, GlorotNormal
he_uniform, he_normal, lecun_uniform, lecun_normal = HeUniform, HeNormal, LecunUniform, LecunNormal


def get(identifier):
    """An initializer from a name (``"glorot_uniform"``), a config dict, or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, str) and identifier in _BY_NAME:
        return _BY_NAME[identifier]()
    if isinstance(identifier, dict) and identifier.get("class_name") in _BY_NAME:
        return _BY_NAME[identifier["class_name"]](**identifier.get("config", {}))
    if callable(identifier):
        return identifier() if isinstance(identifier, type) else identifier
    raise ValueError(f"Could not interpret initializer identifier: {identifier}")


def serialize(initializer) -> dict | None:
    """The config dict of an initializer, as ``get_config`` of a layer shows it."""
    if initializer is None:
        return None
    return {"module": "keras.initializers", "class_name": type(initializer).__name__,
            "config": initializer.get_config(), "registered_name": None}
