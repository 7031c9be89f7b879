"""``tf.keras.initializers``: the values new weights start from (Keras 3's rules).

An initializer is called with a shape and dtype and returns a tensor. As in
Keras 3, a random initializer is deterministic per instance: called twice it
returns the same values (a seeded one always does; an unseeded one draws its
seed once, at construction — from ``tf.random.set_seed``'s sequence when a
global seed is set, so a program that sets it builds the same weights on
every run). Values are drawn with numpy's generator, so they equal
TensorFlow's in distribution, not bit for bit.
"""
from __future__ import annotations

import math

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops.core import constant as _constant
from runtime.ops.random_ops import get_seed


class Initializer:
    """Base class: ``initializer(shape, dtype=None)`` returns a tensor of that shape."""

    def __call__(self, shape, dtype=None):
        dtype = as_dtype(dtype or dtypes.float32)
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
    """Draws from numpy's generator seeded once per instance (see the module docstring)."""

    def __init__(self, seed=None):
        if seed is not None and not isinstance(seed, int):
            raise ValueError(f"`seed` must be an integer or None, got {seed!r}")
        self.seed = seed
        global_seed, op_seed = get_seed(None)
        if seed is not None:
            self._entropy = [seed]
        elif (global_seed, op_seed) != (0, 0):
            self._entropy = [global_seed, op_seed]
        else:
            self._entropy = [int(np.random.SeedSequence().entropy % 2**63)]

    def _values(self, shape, dtype):
        if not dtype.is_floating:
            raise ValueError(f"{type(self).__name__} makes float weights, got dtype {dtype.name}")
        rng = np.random.default_rng(self._entropy)
        return self._sample(rng, shape).astype(dtype.numpy_dtype)

    def _sample(self, rng, shape) -> np.ndarray:
        raise NotImplementedError(f"{type(self).__name__} must define _sample")

    def get_config(self):
        return {"seed": self.seed}


def _truncated_normal(rng, shape, stddev) -> np.ndarray:
    """Normal samples redrawn until within two standard deviations (TensorFlow's rule)."""
    out = rng.standard_normal(shape)
    bad = np.abs(out) > 2.0
    while bad.any():
        out[bad] = rng.standard_normal(int(bad.sum()))
        bad = np.abs(out) > 2.0
    return out * stddev


class RandomNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def _sample(self, rng, shape):
        return rng.normal(self.mean, self.stddev, shape)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


class RandomUniform(RandomInitializer):
    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        super().__init__(seed)
        self.minval, self.maxval = minval, maxval

    def _sample(self, rng, shape):
        return rng.uniform(self.minval, self.maxval, shape)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}


class TruncatedNormal(RandomInitializer):
    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        super().__init__(seed)
        self.mean, self.stddev = mean, stddev

    def _sample(self, rng, shape):
        return self.mean + _truncated_normal(rng, shape, self.stddev)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


def compute_fans(shape) -> tuple[float, float]:
    """(fan_in, fan_out): a kernel's last two axes are (in, out), the others its receptive field."""
    if len(shape) == 0:
        return 1, 1
    if len(shape) == 1:
        return shape[0], shape[0]
    receptive = math.prod(shape[:-2])
    return shape[-2] * receptive, shape[-1] * receptive


class VarianceScaling(RandomInitializer):
    """Samples scaled by the weight's fan: the rule behind Glorot and He initialization."""

    def __init__(self, scale=1.0, mode="fan_in", distribution="truncated_normal", seed=None):
        super().__init__(seed)
        if scale <= 0.0:
            raise ValueError(f"`scale` must be positive float. Received: scale={scale}.")
        if mode not in ("fan_in", "fan_out", "fan_avg"):
            raise ValueError(f"Invalid `mode` argument: {mode!r}")
        if distribution not in ("truncated_normal", "untruncated_normal", "uniform"):
            raise ValueError(f"Invalid `distribution` argument: {distribution!r}")
        self.scale, self.mode, self.distribution = scale, mode, distribution

    def _sample(self, rng, shape):
        fan_in, fan_out = compute_fans(shape)
        n = {"fan_in": fan_in, "fan_out": fan_out, "fan_avg": (fan_in + fan_out) / 2.0}[self.mode]
        variance = self.scale / max(1.0, n)
        if self.distribution == "uniform":
            limit = math.sqrt(3.0 * variance)
            return rng.uniform(-limit, limit, shape)
        if self.distribution == "untruncated_normal":
            return rng.normal(0.0, math.sqrt(variance), shape)
        # 0.8796...: the stddev of a unit normal truncated at two stddevs.
        return _truncated_normal(rng, shape, math.sqrt(variance) / 0.87962566103423978)

    def get_config(self):
        return {"scale": self.scale, "mode": self.mode, "distribution": self.distribution,
                "seed": self.seed}


def _variance_scaling(name: str, scale: float, mode: str, distribution: str):
    def __init__(self, seed=None):
        VarianceScaling.__init__(self, scale, mode, distribution, seed)

    def get_config(self):
        return {"seed": self.seed}

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
        super().__init__(seed)
        self.gain = gain

    def _sample(self, rng, shape):
        if len(shape) < 2:
            raise ValueError(f"The tensor to initialize must be at least two-dimensional. "
                             f"Received: shape={shape} of rank {len(shape)}.")
        rows, cols = int(np.prod(shape[:-1])), int(shape[-1])
        q, r = np.linalg.qr(rng.standard_normal((max(rows, cols), min(rows, cols))))
        q = q * np.sign(np.diag(r))
        if rows < cols:
            q = q.T
        return self.gain * q.reshape(shape)

    def get_config(self):
        return {"gain": self.gain, "seed": self.seed}


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
