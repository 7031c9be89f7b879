"""``tf.complex`` and the parts of complex tensors (``tf.math.real/imag/conj/angle``).

On real tensors these behave as TensorFlow's Python wrappers do: ``real`` and
``conj`` return the input itself, ``imag`` zeros, ``angle`` pi where negative.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops.array_ops import ones_like, zeros_like
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.math_ops import less, where
from runtime.tensor import Tensor

__all__ = ["complex"]  # top level tf.complex; the others live in tf.math only

_PAIRS = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def complex(real, imag, name=None) -> Tensor:  # noqa: A001  (TensorFlow's name)
    """``tf.complex``: ``real + imag * 1j``; both float32 (complex64) or float64 (complex128)."""
    real = convert_to_tensor(real, name="real")
    imag = convert_to_tensor(imag, name="imag")
    if real.dtype != imag.dtype or real.dtype not in _PAIRS:
        raise TypeError(f"The `real` and `imag` components have incorrect types: "
                        f"{real.dtype.name} {imag.dtype.name}. They must be consistent, and one "
                        f"of [tf.float32, tf.float64]")
    return apply_op("Complex", [real, imag], {"Tout": _PAIRS[real.dtype]}, name=name or "Complex")


def real(input, name=None) -> Tensor:  # noqa: A002
    """``tf.math.real``: the real part (a real tensor is returned as it is)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_complex:
        return x
    return apply_op("Real", [x], name=name or "Real")


def imag(input, name=None) -> Tensor:  # noqa: A002
    """``tf.math.imag``: the imaginary part (zeros for a real tensor)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_complex:
        return zeros_like(x, name=name)
    return apply_op("Imag", [x], name=name or "Imag")


def conj(x, name=None) -> Tensor:
    """``tf.math.conj``: the complex conjugate (a real tensor is returned as it is)."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return apply_op("Conj", [x], name=name or "Conj")
    if x.dtype.is_numeric:
        return x
    raise TypeError(f"Expected numeric or variant tensor, got dtype {x.dtype!r}.")


def angle(input, name=None) -> Tensor:  # noqa: A002
    """``tf.math.angle``: the argument of each element (pi for negative reals, else 0)."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply_op("Angle", [x], name=name or "Angle")
    return where(less(x, 0), np.pi * ones_like(x), zeros_like(x), name=name)
