"""``tf.signal`` Fourier transforms: fft/ifft (1-3-D), the real transforms rfft/irfft
(1-3-D) and fftshift/ifftshift.

The real transforms are compositions of the complex ops: ``rfft`` keeps the
non-negative frequencies of the FFT of the (cropped or zero-padded) input; ``irfft``
rebuilds the Hermitian spectrum and takes the real part of its inverse. Gradients come
from the ops'.
"""
from __future__ import annotations

from graph import dtypes
from runtime.ops import array_ops as A, complex_ops as C, math_ops as M
from runtime.ops.control_ops import get_static_value
from runtime.ops.core import apply_op, convert_to_tensor
from graph.ops.spectral import RANK
from runtime.tensor import Tensor

_COMPLEX = {dtypes.float32: dtypes.complex64, dtypes.float64: dtypes.complex128}


def _complex_input(x, op: str) -> Tensor:
    x = convert_to_tensor(x, name="input")
    if x.dtype not in (dtypes.complex64, dtypes.complex128):
        raise TypeError(f"{op} takes a complex64 or complex128 tensor, got {x.dtype.name}")
    return x


def _transform(op: str):
    def fn(input, name=None):  # noqa: A002  (TensorFlow's argument name)
        return apply_op(op, [_complex_input(input, op)], name=name or op)
    fn.__name__ = op.lower()
    fn.__doc__ = f"``tf.signal.{op.lower()}`` over the innermost {RANK[op]} axes."
    return fn


fft, ifft = _transform("FFT"), _transform("IFFT")
fft2d, ifft2d = _transform("FFT2D"), _transform("IFFT2D")
fft3d, ifft3d = _transform("FFT3D"), _transform("IFFT3D")
_FORWARD = {1: fft, 2: fft2d, 3: fft3d}
_INVERSE = {1: ifft, 2: ifft2d, 3: ifft3d}


def _lengths(fft_length, rank: int, op: str) -> list[int] | None:
    if fft_length is None:
        return None
    value = get_static_value(fft_length) if isinstance(fft_length, Tensor) else fft_length
    if value is None:
        raise ValueError(f"{op} needs fft_length known while tracing")
    value = [int(v) for v in (value if hasattr(value, "__len__") else [value])]
    if len(value) != rank:
        raise ValueError(f"{op}: fft_length must have {rank} elements, got {value}")
    return value


def _fit(x: Tensor, lengths: list[int]) -> Tensor:
    """Crops or zero-pads the innermost axes of ``x`` to ``lengths``."""
    rank = len(lengths)
    dims = x.shape.as_list()
    if any(d is None for d in dims[-rank:]):
        raise ValueError("the transformed axes must have static sizes")
    lead = len(dims) - rank
    x = A.slice(x, [0] * len(dims), [-1] * lead + [min(d, n) for d, n in
                                                   zip(dims[-rank:], lengths)])
    pads = [[0, max(n - d, 0)] for d, n in zip(dims[-rank:], lengths)]
    return A.pad(x, [[0, 0]] * lead + pads) if any(p[1] for p in pads) else x


def _rfft(rank: int, op: str):
    def fn(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor, name="input_tensor")
        if x.dtype not in _COMPLEX:
            raise TypeError(f"{op} takes a float32 or float64 tensor, got {x.dtype.name}")
        lengths = _lengths(fft_length, rank, op) or x.shape.as_list()[-rank:]
        x = _fit(x, lengths)
        spectrum = _FORWARD[rank](C.complex(x, A.zeros_like(x)))
        return spectrum[..., :lengths[-1] // 2 + 1]
    fn.__name__ = op
    fn.__doc__ = (f"``tf.signal.{op}``: the non-negative frequencies of the FFT of a real "
                  f"signal over the innermost {rank} axes (``fft_length`` crops or pads).")
    return fn


def _irfft(rank: int, op: str):
    def fn(input_tensor, fft_length=None, name=None):
        x = convert_to_tensor(input_tensor, name="input_tensor")
        if x.dtype not in (dtypes.complex64, dtypes.complex128):
            raise TypeError(f"{op} takes a complex64 or complex128 tensor, got {x.dtype.name}")
        dims = x.shape.as_list()[-rank:]
        lengths = _lengths(fft_length, rank, op) or dims[:-1] + [2 * (dims[-1] - 1)]
        n = lengths[-1]
        half = _fit(x, lengths[:-1] + [n // 2 + 1])
        # The negative frequencies are the conjugates of the positive ones, reversed (and,
        # over several axes, at the negated indices of the other axes too).
        mirrored = C.conj(A.reverse(half[..., 1:(n + 1) // 2], [-1]))
        for axis in range(-rank, -1):
            mirrored = A.roll(A.reverse(mirrored, [axis]), 1, axis)
        full = A.concat([half, mirrored], axis=-1)
        return C.real(_INVERSE[rank](full))
    fn.__name__ = op
    fn.__doc__ = (f"``tf.signal.{op}``: the real signal whose spectrum's non-negative "
                  f"frequencies are the input (over the innermost {rank} axes).")
    return fn


rfft, irfft = _rfft(1, "rfft"), _irfft(1, "irfft")
rfft2d, irfft2d = _rfft(2, "rfft2d"), _irfft(2, "irfft2d")
rfft3d, irfft3d = _rfft(3, "rfft3d"), _irfft(3, "irfft3d")


def _shift(x, axes, sign: int):
    x = convert_to_tensor(x)
    if axes is None:
        axes = list(range(x.shape.rank))
    axes = [axes] if isinstance(axes, int) else list(axes)
    shape = A.shape(x)
    shifts = [M.floordiv(shape[a], 2) * sign if x.shape[a] is None else
              (x.shape[a] // 2) * sign for a in axes]
    shifts = shifts if all(isinstance(s, int) for s in shifts) else A.stack(shifts)
    return A.roll(x, shifts, axes)


def fftshift(x, axes=None, name=None) -> Tensor:
    """Moves the zero frequency to the center (rolls each axis by half its size)."""
    return _shift(x, axes, 1)


def ifftshift(x, axes=None, name=None) -> Tensor:
    """The inverse of fftshift."""
    return _shift(x, axes, -1)
