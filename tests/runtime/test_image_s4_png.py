"""tf.image encode_png and decode_png (tf.io's, once runtime/io.py exports them): PNGs
written by TensorFlow 2.21 (recorded as byte literals) decode to their pixels, with
TensorFlow's channel and dtype conversions; our PNGs round-trip, eagerly and staged."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf

RGB = np.array([[[168, 229, 184], [171, 238, 171], [20, 206, 245], [153, 204, 5]],
                [[37, 53, 213], [206, 192, 173], [6, 120, 63], [96, 236, 131]],
                [[118, 4, 87], [161, 124, 71], [42, 73, 237], [16, 194, 250]]], np.uint8)
G16 = np.array([[[10165], [2967], [35508]], [[66], [25253], [3195]]], np.uint16)
# tf.image.encode_png(RGB) and tf.image.encode_png(G16), from TensorFlow (libpng, filtered rows).
RGB_PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x04\x00\x00\x00\x03\x08\x02\x00"
           b"\x00\x00;\x969\x91\x00\x00\x002IDAT\x08\x99\x01'\x00\xd8\xff\x01\xa8\xe5\xb8"
           b"\x03\t\xf3i\xe0J\x85\xfe\x10\x02}P\x1d#\xd2\x02\xf2\xaaJ\xc7 ~\x03d\xea\xed\xff"
           b"\x1a\xc5\xd7\xcf\xaa\xcb(Bk\x9a\x13;\xbe\xd6e\x96\x00\x00\x00\x00IEND\xaeB`\x82")
G16_PNG = (b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR\x00\x00\x00\x03\x00\x00\x00\x02\x10\x00\x00"
           b"\x00\x00\xe8\x8f\xe5\x85\x00\x00\x00\x17IDAT\x08\x99cT\xdf\xfa\xe4Q\xbd,\xf3\xdb"
           b"\x17\xb1\x96\xd3\xce\x03\x000\xd7\x07\x13\\5\x96\x03\x00\x00\x00\x00IEND\xaeB`\x82")


def test_decodes_tensorflow_pngs():
    np.testing.assert_array_equal(tf.image.decode_png(RGB_PNG).numpy(), RGB)
    np.testing.assert_array_equal(tf.image.decode_png(G16_PNG, dtype=tf.uint16).numpy(), G16)
    # From TensorFlow: 16 bits to 8 keep the high byte; 8 to 16 multiply by 257;
    # gray from RGB is libpng's truncated 0.299/0.587/0.114 mix; alpha is opaque.
    assert tf.image.decode_png(G16_PNG).numpy()[..., 0].tolist() == [[39, 11, 138], [0, 98, 12]]
    assert tf.image.decode_png(RGB_PNG, dtype=tf.uint16).numpy()[0, 0].tolist() == \
        [43176, 58853, 47288]
    assert tf.image.decode_png(RGB_PNG, channels=1).numpy()[..., 0].tolist() == \
        [[205, 210, 154, 166], [66, 194, 79, 182], [47, 129, 82, 147]]
    assert tf.image.decode_png(RGB_PNG, channels=4).numpy()[0].tolist() == \
        [[168, 229, 184, 255], [171, 238, 171, 255], [20, 206, 245, 255], [153, 204, 5, 255]]


@pytest.mark.parametrize("image", [RGB, G16, RGB[..., :1], np.concatenate(
    [RGB, RGB[..., :1]], axis=-1), RGB[..., :2]])
def test_round_trip_eager_and_staged(image):
    encoded = tf.image.encode_png(image)
    assert encoded.dtype == tf.string and encoded.shape.as_list() == []
    decoded = tf.image.decode_png(encoded, dtype=tf.as_dtype(image.dtype))
    np.testing.assert_array_equal(decoded.numpy(), image)

    @tf.function
    def round_trip(x):
        out = tf.image.decode_png(tf.image.encode_png(x), channels=image.shape[-1] if
                               image.shape[-1] != 2 else 0, dtype=x.dtype)
        assert out.shape.as_list()[:2] == [None, None]
        return out
    np.testing.assert_array_equal(round_trip(tf.constant(image)).numpy(), image)


def test_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid PNG data"):
        tf.image.decode_png(b"not a png")
    with pytest.raises(tf.errors.InvalidArgumentError, match="uint8 or uint16"):
        tf.image.encode_png(np.zeros((2, 2, 3), np.float32))


# tf.io.encode_png bytes from TensorFlow 2.21 (libpng's row filters and zlib window): RGB
# uint8 and grey+alpha uint16. Unfiltered rows were written before (a valid, different PNG).
_TF_RGB = ("89504e470d0a1a0a0000000d49484452000000040000000308020000003b9639910000001449444154089963"
           "646064628601161e1e1eec1c000bf500a6fa706ba30000000049454e44ae426082")
_TF_GA16 = ("89504e470d0a1a0a0000000d49484452000000060000000310040000004a986a330000003e4944415408996"
            "3666060bdc3bd835f4d48449449e283f43dd9330abb9435d4c458dc02dc037802b87770efe0e1e0e1e0e1e0"
            "81f258dc02dc02105c842400959b1068cf232c660000000049454e44ae426082")


def test_encode_png_writes_tensorflow_s_bytes():
    rgb = np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3)
    assert tf.io.encode_png(rgb[0]).numpy().hex() == _TF_RGB
    grey_alpha = (np.arange(36, dtype=np.uint16) * 1500).reshape(3, 6, 2)
    assert tf.io.encode_png(grey_alpha).numpy().hex() == _TF_GA16


def test_encode_png_takes_batches_as_tensorflow_does():
    rgb = np.arange(2 * 3 * 4 * 3, dtype=np.uint8).reshape(2, 3, 4, 3)
    batch = tf.io.encode_png(rgb)
    assert batch.shape == (2,) and batch.numpy()[0].hex() == _TF_RGB
    assert tf.function(tf.io.encode_png)(tf.constant(rgb)).shape == (2,)
    assert tf.image.encode_png(np.zeros((1, 2, 2, 2, 1), np.uint8)).shape == (1, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="images must be at least rank 3"):
        tf.io.encode_png(np.zeros((2, 2), np.uint8))
    with pytest.raises(tf.errors.InvalidArgumentError, match="1, 2, 3, or 4 channels, got 5"):
        tf.io.encode_png(np.zeros((2, 2, 5), np.uint8))
