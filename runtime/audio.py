"""``tf.audio``: WAV files (16-bit PCM) to and from float32 [samples, channels] tensors."""
from __future__ import annotations

from collections import namedtuple

from graph import dtypes
from runtime.ops.core import apply_op, convert_to_tensor

DecodeWav = namedtuple("DecodeWav", ["audio", "sample_rate"])


def decode_wav(contents, desired_channels=-1, desired_samples=-1, name=None) -> DecodeWav:
    """The samples of a WAV file's bytes in [-1, 1), and its sample rate; ``desired_channels``
    and ``desired_samples`` (when >= 0) duplicate or drop channels and cut or zero-pad."""
    audio, rate = apply_op("DecodeWav", [convert_to_tensor(contents, dtype=dtypes.string)],
                           {"desired_channels": int(desired_channels),
                            "desired_samples": int(desired_samples)},
                           name=name or "DecodeWav")
    return DecodeWav(audio, rate)


def encode_wav(audio, sample_rate, name=None):
    """A 16-bit PCM WAV file of float32 [samples, channels] audio (clipped to [-1, 1])."""
    return apply_op("EncodeWav", [convert_to_tensor(audio, dtype=dtypes.float32),
                                  convert_to_tensor(sample_rate, dtype=dtypes.int32)],
                    name=name or "EncodeWav")
