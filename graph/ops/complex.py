"""Complex numbers: building them from parts (Complex), taking them apart (Real, Imag,
ComplexAbs, Angle) and conjugating (Conj).

TensorFlow pairs complex64 with float32 and complex128 with float64
(``DType.real_dtype``). Real, Imag, Conj and Angle also take real inputs
(the imaginary part is 0); ComplexAbs takes complex ones only (``tf.abs``
picks it for complex tensors, Abs otherwise).
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import as_dtype, complex64, complex128, float32, float64
from graph.errors import DTypeNotSupportedError, InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import broadcast, expect_arity
from graph.registry import register_op

_PAIRS = {float32: complex64, float64: complex128}


def _complex_infer(inputs, attrs):
    expect_arity("Complex", inputs, 2)
    real, imag = inputs
    if real.dtype != imag.dtype or real.dtype not in _PAIRS:
        raise InvalidArgumentError(
            message=f"Complex: the real and imag parts must both be float32 or both float64, "
                    f"got {real.dtype.name} and {imag.dtype.name}")
    out = as_dtype(attrs.get("Tout", _PAIRS[real.dtype]))
    if out is not _PAIRS[real.dtype]:
        raise InvalidArgumentError(
            message=f"Complex: Tout {out.name} does not pair with {real.dtype.name} parts")
    return [TensorType(out, broadcast("Complex", real, imag))]


def _complex(real, imag, Tout):
    out = np.empty(np.broadcast_shapes(np.shape(real), np.shape(imag)), Tout.numpy_dtype)
    out.real = real
    out.imag = imag
    return out


def _part_rule(op: str, complex_only: bool = False):
    """The float dtype of a complex input's parts; a real input keeps its dtype."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        if not (x.dtype.is_complex or (x.dtype.is_floating and not complex_only)):
            takes = "complex" if complex_only else "float or complex"
            raise DTypeNotSupportedError(
                message=f"{op} does not support {x.dtype.name} tensors (it takes {takes} "
                        "tensors)")
        return [TensorType(x.dtype.real_dtype, x.shape)]
    return infer


def _conj_infer(inputs, attrs):
    expect_arity("Conj", inputs, 1)
    x = inputs[0]
    if not (x.dtype.is_complex or x.dtype.is_floating or x.dtype.is_integer):
        raise DTypeNotSupportedError(
            message=f"Conj does not support {x.dtype.name} tensors (it takes numeric tensors)")
    return [TensorType(x.dtype, x.shape)]


def _real_part(kernel):
    """Applies a numpy part-taker and keeps the real dtype (np.real of a 0-d array is 0-d)."""
    def run(x):
        x = np.asarray(x)
        return np.asarray(kernel(x), dtype=x.real.dtype)
    return run


register_op("Complex", _complex_infer, _complex, kernel_attrs=("Tout",))
register_op("Real", _part_rule("Real"), _real_part(np.real))
register_op("Imag", _part_rule("Imag"), _real_part(np.imag))
register_op("Angle", _part_rule("Angle"), _real_part(np.angle))
register_op("ComplexAbs", _part_rule("ComplexAbs", complex_only=True), _real_part(np.abs))
register_op("Conj", _conj_infer, np.conj)
