"""The complex FFT ops (FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D).

They transform the innermost 1-3 axes of a complex64/complex128 tensor; the inverse
divides by the number of points, as TensorFlow's. The real FFTs of ``tf.signal``
(runtime/signal/) are written on these; their gradients are in
runtime/gradients/spectral_grads.py.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import complex64, complex128
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op

_OPS = {("FFT", 1): np.fft.fftn, ("IFFT", 1): np.fft.ifftn, ("FFT2D", 2): np.fft.fftn,
        ("IFFT2D", 2): np.fft.ifftn, ("FFT3D", 3): np.fft.fftn, ("IFFT3D", 3): np.fft.ifftn}
INVERSE = {"FFT": "IFFT", "FFT2D": "IFFT2D", "FFT3D": "IFFT3D",
           "IFFT": "FFT", "IFFT2D": "FFT2D", "IFFT3D": "FFT3D"}
RANK = {op: rank for op, rank in _OPS}


def _infer_for(op: str, rank: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        if x.dtype not in (complex64, complex128):
            raise InvalidArgumentError(message=f"{op} takes complex64 or complex128 input, got "
                                               f"{x.dtype.name}")
        if x.shape.rank is not None and x.shape.rank < rank:
            raise InvalidArgumentError(message=f"{op}: input must be at least {rank}-D, got "
                                               f"shape{list(x.shape.as_tuple())}")
        return [TensorType(x.dtype, x.shape)]
    return infer


def _kernel_for(transform, rank: int):
    def kernel(x):
        x = np.asarray(x)
        if x.ndim < rank:
            raise InvalidArgumentError(message=f"input must be at least {rank}-D")
        if x.size == 0:
            return x.copy()
        return transform(x, axes=tuple(range(-rank, 0))).astype(x.dtype, copy=False)
    return kernel


for (_name, _rank), _transform in _OPS.items():
    register_op(_name, _infer_for(_name, _rank), _kernel_for(_transform, _rank))
