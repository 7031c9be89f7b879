"""EncodeWav / DecodeWav: 16-bit PCM WAV files as float32 [samples, channels] in [-1, 1)."""
from __future__ import annotations

import struct

import numpy as np

from graph.dtypes import float32, int32, string
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape

_SCALE = 32768.0  # int16 sample <-> float: x / 2^15, as TensorFlow's kernels


def _encode_wav_infer(inputs, attrs):
    audio, rate = inputs
    if audio.dtype is not float32 or audio.shape.rank not in (None, 2):
        raise InvalidArgumentError(message=f"EncodeWav: audio must be a 2-D float32 tensor "
                                           f"[frames, channels], got {audio.dtype.name} of "
                                           f"shape {audio.shape}")
    if rate.dtype is not int32 or rate.shape.rank not in (None, 0):
        raise InvalidArgumentError(message=f"EncodeWav: sample_rate must be an int32 scalar, "
                                           f"got {rate.dtype.name} of shape {rate.shape}")
    return [TensorType(string, TensorShape([]))]


def _encode_wav(audio, sample_rate):
    """RIFF/WAVE, 16-bit PCM: samples scaled by 32768, rounded, clamped to int16."""
    audio = np.asarray(audio, np.float32)
    frames, channels = audio.shape
    rate = int(sample_rate)
    if rate <= 0:
        raise InvalidArgumentError(message=f"sample_rate must be positive, got {rate}")
    scaled = audio.astype(np.float64) * _SCALE  # exact; rounded half away from zero (roundf)
    samples = np.clip(np.sign(scaled) * np.floor(np.abs(scaled) + 0.5), -32768, 32767)
    samples = samples.astype("<i2").tobytes()
    header = (b"RIFF" + struct.pack("<I", 36 + len(samples)) + b"WAVEfmt "
              + struct.pack("<IHHIIHH", 16, 1, channels, rate, rate * channels * 2,
                            channels * 2, 16)
              + b"data" + struct.pack("<I", len(samples)))
    out = np.empty((), dtype=object)
    out[()] = header + samples
    return out


def _decode_infer(inputs, attrs):
    expect_arity("DecodeWav", inputs, 1)
    if inputs[0].dtype != string:
        raise InvalidArgumentError(message="DecodeWav takes a string (the file's bytes)")
    samples = attrs.get("desired_samples", -1)
    channels = attrs.get("desired_channels", -1)
    return [TensorType(float32, TensorShape([None if samples < 0 else samples,
                                             None if channels < 0 else channels])),
            TensorType(int32, TensorShape([]))]


def _chunks(data: bytes):
    """(chunk id, payload) of the RIFF file after its 12-byte header."""
    if len(data) < 12 or data[:4] != b"RIFF" or data[8:12] != b"WAVE":
        raise InvalidArgumentError(message="Header mismatch: not a RIFF WAVE file")
    pos = 12
    while pos + 8 <= len(data):
        cid, size = struct.unpack("<4sI", data[pos:pos + 8])
        yield cid, data[pos + 8:pos + 8 + size]
        pos += 8 + size + (size & 1)


def _decode(contents, desired_channels=-1, desired_samples=-1):
    data = bytes(np.asarray(contents, dtype=object).item())
    fmt = pcm = None
    for cid, payload in _chunks(data):
        if cid == b"fmt ":
            fmt = struct.unpack("<HHIIHH", payload[:16])
        elif cid == b"data":
            pcm = payload
    if fmt is None or pcm is None:
        raise InvalidArgumentError(message="Bad WAV file: no fmt or no data chunk")
    audio_format, channels, rate, _, _, bits = fmt
    if audio_format != 1 or bits != 16:
        raise InvalidArgumentError(message=f"Can only read 16-bit PCM WAV files, got format "
                                           f"{audio_format} with {bits} bits per sample")
    values = np.frombuffer(pcm[:len(pcm) // 2 * 2], "<i2").astype(np.float32) / _SCALE
    audio = values[:len(values) // channels * channels].reshape(-1, channels)
    if desired_channels > 0 and desired_channels != channels:
        if channels == 1:
            audio = np.repeat(audio, desired_channels, axis=1)
        elif desired_channels < channels:
            audio = audio[:, :desired_channels]
        else:
            raise InvalidArgumentError(message=f"Can't convert {channels} channels to "
                                               f"{desired_channels}")
    if desired_samples >= 0:
        audio = audio[:desired_samples]
        if len(audio) < desired_samples:
            audio = np.concatenate([audio, np.zeros((desired_samples - len(audio),
                                                     audio.shape[1]), np.float32)])
    return np.ascontiguousarray(audio, np.float32), np.int32(rate)


register_op("EncodeWav", _encode_wav_infer, _encode_wav)
register_op("DecodeWav", _decode_infer, _decode,
            kernel_attrs=("desired_channels", "desired_samples"))
