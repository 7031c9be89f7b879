"""tf.audio.encode_wav/decode_wav: 16-bit PCM WAV (bytes and values recorded from TensorFlow
2.21). Before, tf.audio did not exist (the simple-audio tutorial decodes WAVs in Dataset.map)."""
import numpy as np
import pytest

import autograph as tf

AUDIO = tf.constant([[0.0, 0.5], [-0.5, 1.0], [-1.0, 0.3333], [1.5, -2.0], [0.00002, -0.00002]])
HEADER = (b"RIFF8\x00\x00\x00WAVEfmt \x10\x00\x00\x00\x01\x00\x02\x00\x80>\x00\x00\x00\xfa\x00"
          b"\x00\x04\x00\x10\x00data\x14\x00\x00\x00")


def test_encode_wav_writes_tensorflows_bytes():
    wav = tf.audio.encode_wav(AUDIO, 16000).numpy()
    assert wav[:44] == HEADER
    assert np.frombuffer(wav[44:], "<i2").tolist() == [0, 16384, -16384, 32767, -32768, 10922,
                                                       32767, -32768, 1, -1]


def test_decode_wav_gives_samples_and_rate_and_reshapes_on_request():
    wav = tf.audio.encode_wav(AUDIO, 16000)
    decoded = tf.audio.decode_wav(wav)
    assert decoded._fields == ("audio", "sample_rate") and int(decoded.sample_rate) == 16000
    np.testing.assert_array_equal(decoded.audio.numpy()[1], [-0.5, 0.999969482421875])
    short = tf.audio.decode_wav(wav, desired_channels=1, desired_samples=7).audio.numpy()
    np.testing.assert_array_equal(short[:, 0], [0.0, -0.5, -1.0, 0.999969482421875,
                                                3.0517578125e-05, 0.0, 0.0])
    mono = tf.audio.encode_wav(AUDIO[:, :1], 8000)
    assert tf.audio.decode_wav(mono, desired_channels=2).audio.shape == (5, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Header mismatch"):
        tf.audio.decode_wav(tf.constant(b"junk"))


def test_decode_wav_in_a_dataset_map():
    wav = tf.audio.encode_wav(AUDIO, 16000)
    ds = tf.data.Dataset.from_tensors(wav).map(
        lambda x: tf.audio.decode_wav(x, desired_channels=1).audio)
    assert ds.element_spec.shape.as_list() == [None, 1]
    assert [e.shape for e in ds] == [(5, 1)]
