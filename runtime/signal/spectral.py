"""Spectrograms and cosine transforms: stft, inverse_stft (+ its window), dct / idct
(types 1-4), linear_to_mel_weight_matrix and mfccs_from_log_mel_spectrograms, written
on the FFTs as TensorFlow writes them."""
from __future__ import annotations

import math

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import array_ops as A, complex_ops as C, math_ops as M
from runtime.ops.core import convert_to_tensor
from runtime.signal.fft import irfft, rfft
from runtime.signal.framing import frame, overlap_and_add
from runtime.signal.windows import hann_window
from runtime.tensor import Tensor


def _default_fft_length(frame_length: int) -> int:
    return 1 << math.ceil(math.log2(frame_length))


def stft(signals, frame_length, frame_step, fft_length=None, window_fn=hann_window,
         pad_end=False, name=None) -> Tensor:
    """``[..., frames, fft_length // 2 + 1]``: the rfft of each windowed frame."""
    signals = convert_to_tensor(signals, name="signals")
    if signals.shape.rank is not None and signals.shape.rank < 1:
        raise ValueError(f"signals must have rank at least 1, got {signals.shape.rank}")
    fft_length = _default_fft_length(frame_length) if fft_length is None else int(fft_length)
    framed = frame(signals, frame_length, frame_step, pad_end=pad_end)
    if window_fn is not None:
        framed = M.multiply(framed, window_fn(frame_length, dtype=framed.dtype))
    return rfft(framed, [fft_length])


def inverse_stft(stfts, frame_length, frame_step, fft_length=None, window_fn=hann_window,
                 name=None) -> Tensor:
    """The signal whose stft is ``stfts``: irfft of each frame, windowed, overlap-added
    (use ``inverse_stft_window_fn`` for a perfect reconstruction)."""
    stfts = convert_to_tensor(stfts, name="stfts")
    if stfts.shape.rank is not None and stfts.shape.rank < 2:
        raise ValueError(f"stfts must have rank at least 2, got {stfts.shape.rank}")
    fft_length = _default_fft_length(frame_length) if fft_length is None else int(fft_length)
    frames = irfft(stfts, [fft_length])[..., :frame_length]
    if frame_length > fft_length:
        rank = frames.shape.rank
        frames = A.pad(frames, [[0, 0]] * (rank - 1) + [[0, frame_length - fft_length]])
    if window_fn is not None:
        frames = M.multiply(frames, window_fn(frame_length, dtype=frames.dtype))
    return overlap_and_add(frames, frame_step)


def inverse_stft_window_fn(frame_step, forward_window_fn=hann_window, name=None):
    """The window that makes inverse_stft invert a stft made with ``forward_window_fn``."""
    def window(frame_length, dtype):
        forward = forward_window_fn(frame_length, dtype=dtype)
        overlaps = -(-frame_length // frame_step)
        denom = A.pad(M.square(forward), [[0, overlaps * frame_step - frame_length]])
        denom = M.reduce_sum(A.reshape(denom, [overlaps, frame_step]), 0, keepdims=True)
        denom = A.reshape(A.tile(denom, [overlaps, 1]), [overlaps * frame_step])
        return M.divide(forward, denom[:frame_length])
    return window


def _fit_last(x: Tensor, n: int) -> Tensor:
    length = x.shape[-1]
    rank = x.shape.rank
    if length > n:
        return x[..., :n]
    return A.pad(x, [[0, 0]] * (rank - 1) + [[0, n - length]]) if length < n else x


def _edge_weights(first, rest, length: int, dtype) -> Tensor:
    """``[first, rest, rest, ...]`` of ``length`` values."""
    return convert_to_tensor(np.array([first] + [rest] * (length - 1),
                                      dtype.numpy_dtype))


def dct(input, type=2, n=None, axis=-1, norm=None, name=None) -> Tensor:  # noqa: A002
    """``tf.signal.dct``: the discrete cosine transform (types 1-4) of the last axis,
    unnormalized or ``norm="ortho"``."""
    x = convert_to_tensor(input, name="input")
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported. Got type: {type}")
    if axis != -1:
        raise NotImplementedError("axis must be -1. Got: %s" % axis)
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")
    if type == 1 and norm == "ortho":
        raise ValueError("Normalization is not supported for the Type-I DCT.")
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise TypeError(f"dct takes float32 or float64 input, got {x.dtype.name}")
    if n is not None:
        if n < 1:
            raise ValueError(f"Invalid number of samples. Expected n > 0, got {n}")
        x = _fit_last(x, n)
    length = x.shape[-1]
    if length is None:
        raise ValueError("dct needs the size of the last axis known while tracing")
    if type == 1:
        if length < 2:
            raise ValueError("Type-I DCT requires the last axis to be at least 2")
        return C.real(rfft(A.concat([x, A.reverse(x[..., 1:-1], [-1])], axis=-1)))
    if type == 2:
        phase = np.exp(-1j * np.arange(length) * np.pi * 0.5 / length) * 2.0
        scale = convert_to_tensor(phase.astype(_complex_of(x.dtype)))
        out = C.real(M.multiply(rfft(x, [2 * length])[..., :length], scale))
        if norm == "ortho":
            first = 0.5 / math.sqrt(length)
            out = M.multiply(out, _edge_weights(first, first * math.sqrt(2.0), length,
                                                x.dtype))
        return out
    if type == 3:
        if norm == "ortho":
            first = math.sqrt(length)
            x = M.multiply(x, _edge_weights(first, first * math.sqrt(0.5), length, x.dtype))
        else:
            x = M.multiply(x, M.cast(float(length), x.dtype))
        phase = np.exp(1j * np.arange(length) * np.pi * 0.5 / length) * 2.0
        scale = convert_to_tensor(phase.astype(_complex_of(x.dtype)))
        spectrum = M.multiply(scale, C.complex(x, A.zeros_like(x)))
        return irfft(spectrum, [2 * length])[..., :length]
    out = dct(x, type=2, n=2 * length)[..., 1::2]
    if norm == "ortho":
        out = M.multiply(out, M.cast(math.sqrt(0.5) / math.sqrt(length), x.dtype))
    return out


def _complex_of(dtype):
    return np.complex64 if dtype == dtypes.float32 else np.complex128


def idct(input, type=2, n=None, axis=-1, norm=None, name=None) -> Tensor:  # noqa: A002
    """``tf.signal.idct``: the DCT of the inverse type (scaled by 1/(2N) unless ``ortho``)."""
    if type not in (1, 2, 3, 4):
        raise ValueError(f"Types I, II, III and IV (I)DCT are supported. Got type: {type}")
    return dct(input, type={1: 1, 2: 3, 3: 2, 4: 4}[type], n=n, axis=axis, norm=norm)


def _hertz_to_mel(frequencies):
    return M.multiply(1127.0, M.log(M.add(1.0, M.divide(frequencies, 700.0))))


def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None) -> Tensor:
    """``[num_spectrogram_bins, num_mel_bins]``: triangular mel filters over the linear
    frequencies of an rfft spectrum (the DC bin gets no weight)."""
    dtype = as_dtype(dtype)
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower_edge_hertz < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower_edge_hertz}")
    if lower_edge_hertz >= upper_edge_hertz:
        raise ValueError(f"lower_edge_hertz {lower_edge_hertz:.1f} >= upper_edge_hertz "
                         f"{upper_edge_hertz:.1f}")
    if isinstance(sample_rate, (int, float)):
        if sample_rate <= 0.0:
            raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
        if upper_edge_hertz > sample_rate / 2:
            raise ValueError(f"upper_edge_hertz must not be larger than the Nyquist frequency "
                             f"(sample_rate / 2). Got {upper_edge_hertz} for sample_rate: "
                             f"{sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype.name}")
    nyquist = M.divide(M.cast(sample_rate, dtype), 2.0)
    linear = A.linspace(M.cast(0.0, dtype), nyquist, num_spectrogram_bins)[1:]
    bins_mel = A.expand_dims(_hertz_to_mel(linear), 1)
    edges = frame(A.linspace(_hertz_to_mel(M.cast(lower_edge_hertz, dtype)),
                             _hertz_to_mel(M.cast(upper_edge_hertz, dtype)), num_mel_bins + 2),
                  frame_length=3, frame_step=1)
    lower, center, upper = (A.reshape(t, [1, num_mel_bins]) for t in A.split(edges, 3, axis=1))
    lower_slopes = M.divide(M.subtract(bins_mel, lower), M.subtract(center, lower))
    upper_slopes = M.divide(M.subtract(upper, bins_mel), M.subtract(upper, center))
    weights = M.maximum(M.cast(0.0, dtype), M.minimum(lower_slopes, upper_slopes))
    return A.pad(weights, [[1, 0], [0, 0]])


def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None) -> Tensor:
    """The orthonormal-scaled DCT-II of log-mel spectrograms (the MFCCs)."""
    x = convert_to_tensor(log_mel_spectrograms, name="log_mel_spectrograms")
    bins = x.shape[-1] if x.shape.rank else None
    if bins is None:
        raise ValueError("mfccs_from_log_mel_spectrograms needs the number of mel bins known")
    return M.multiply(dct(x, type=2), M.rsqrt(M.cast(bins * 2.0, x.dtype)))
