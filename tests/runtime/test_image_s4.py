"""tf.image: values equal to TensorFlow 2.21's (recorded from TensorFlow as literals: dtype,
shape, sum and a sin-weighted sum of each result), eager == tf.function, gradients equal
to TensorFlow's, and TensorFlow's errors."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf

# -- cases (shared with the TensorFlow recording script) --
def image_cases(tf, np):
    rng = np.random.default_rng(1)
    img = rng.uniform(size=(2, 7, 6, 3)).astype(np.float32)
    img2 = np.clip(img + rng.normal(scale=0.1, size=img.shape), 0, 1).astype(np.float32)
    u8 = (img * 255).astype(np.uint8)
    big = rng.uniform(size=(1, 12, 12, 2)).astype(np.float32)
    big2 = np.clip(big + rng.normal(scale=0.2, size=big.shape), 0, 1).astype(np.float32)
    I = tf.image
    c = tf.constant
    return {
        "resize_bilinear": lambda: I.resize(c(img), (4, 9)),
        "resize_bilinear_u8": lambda: I.resize(c(u8[0]), (9, 4)),
        "resize_nearest": lambda: I.resize(c(img), (5, 13), method="nearest"),
        "resize_nearest_u8": lambda: I.resize(c(u8), (3, 4),
                                              method=I.ResizeMethod.NEAREST_NEIGHBOR),
        "resize_bicubic": lambda: I.resize(c(img), (9, 4), method="bicubic"),
        "resize_bicubic_down": lambda: I.resize(c(img), (3, 5), method="bicubic"),
        "resize_area": lambda: I.resize(c(img), (3, 4), method="area"),
        "resize_area_up": lambda: I.resize(c(u8[1]), (9, 8), method=I.ResizeMethod.AREA),
        "resize_aspect": lambda: I.resize(c(img), (4, 4), preserve_aspect_ratio=True),
        "resize_with_pad": lambda: I.resize_with_pad(c(img), 4, 9),
        "resize_with_crop_or_pad": lambda: I.resize_with_crop_or_pad(c(img[0]), 3, 8),
        "central_crop": lambda: I.central_crop(c(img), 0.5),
        "crop": lambda: I.crop_to_bounding_box(c(img), 1, 2, 3, 4),
        "pad": lambda: I.pad_to_bounding_box(c(u8[0]), 1, 2, 9, 10),
        "patches": lambda: I.extract_patches(c(img), [1, 2, 3, 1], [1, 2, 2, 1], [1, 1, 1, 1],
                                             "VALID"),
        "patches_same": lambda: I.extract_patches(c(u8), [1, 3, 2, 1], [1, 2, 3, 1],
                                                  [1, 2, 1, 1], "SAME"),
        "rot90": lambda: I.rot90(c(img)),
        "rot270": lambda: I.rot90(c(img[0]), 3),
        "flip_lr": lambda: I.flip_left_right(c(img)),
        "flip_ud": lambda: I.flip_up_down(c(img[0])),
        "transpose": lambda: I.transpose(c(img)),
        "gray": lambda: I.rgb_to_grayscale(c(img)),
        "gray_u8": lambda: I.rgb_to_grayscale(c(u8)),
        "gray_to_rgb": lambda: I.grayscale_to_rgb(I.rgb_to_grayscale(c(u8))),
        "rgb_to_hsv": lambda: I.rgb_to_hsv(c(img)),
        "hsv_to_rgb": lambda: I.hsv_to_rgb(c(img)),
        "yiq": lambda: I.rgb_to_yiq(c(img)),
        "yiq_to_rgb": lambda: I.yiq_to_rgb(c(img)),
        "yuv": lambda: I.rgb_to_yuv(c(img)),
        "yuv_to_rgb": lambda: I.yuv_to_rgb(c(img)),
        "brightness": lambda: I.adjust_brightness(c(img), 0.3),
        "brightness_u8": lambda: I.adjust_brightness(c(u8), -0.2),
        "contrast_u8": lambda: I.adjust_contrast(c(u8), 1.7),
        "gamma": lambda: I.adjust_gamma(c(img), 2.0, 1.5),
        "gamma_u8": lambda: I.adjust_gamma(c(u8), 0.5),
        "saturation": lambda: I.adjust_saturation(c(img), 1.8),
        "saturation_u8": lambda: I.adjust_saturation(c(u8), 0.3),
        "hue": lambda: I.adjust_hue(c(img), 0.3),
        "hue_negative": lambda: I.adjust_hue(c(img), -0.7),
        "hue_u8": lambda: I.adjust_hue(c(u8), 0.1),
        "standardization": lambda: I.per_image_standardization(c(img)),
        "standardization_u8": lambda: I.per_image_standardization(c(u8)),
        "total_variation": lambda: I.total_variation(c(img)),
        "total_variation_3d": lambda: I.total_variation(c(u8[0].astype(np.int32))),
        "image_gradients": lambda: tf.stack(I.image_gradients(c(img))),
        "sobel": lambda: I.sobel_edges(c(img)),
        "psnr": lambda: I.psnr(c(img), c(img2), 1.0),
        "psnr_u8": lambda: I.psnr(c(u8), c((img2 * 255).astype(np.uint8)), 255),
        "ssim": lambda: I.ssim(c(big), c(big2), 1.0),
        "ssim_3d": lambda: I.ssim(c(big[0]), c(big2[0]), 1.0, filter_size=5),
        "convert_f_u8": lambda: I.convert_image_dtype(c(img), tf.uint8),
        "convert_u8_f": lambda: I.convert_image_dtype(c(u8), tf.float32),
        "convert_u8_i32": lambda: I.convert_image_dtype(c(u8), tf.int32),
        "convert_i32_u8": lambda: I.convert_image_dtype(
            I.convert_image_dtype(c(u8), tf.int32), tf.uint8),
        "convert_saturate": lambda: I.convert_image_dtype(c(img * 2 - 0.5), tf.uint8,
                                                          saturate=True),
        "convert_f_i16": lambda: I.convert_image_dtype(c(img), tf.int16),
        "convert_f16": lambda: I.convert_image_dtype(c(img), tf.float16),
    }


def gradient_cases(tf, np):
    rng = np.random.default_rng(2)
    img = rng.uniform(size=(2, 5, 6, 3)).astype(np.float32)
    I = tf.image
    return img, {
        "resize_bilinear": lambda x: I.resize(x, (3, 4)),
        "resize_bilinear_up": lambda x: I.resize(x, (8, 9)),
        "resize_nearest": lambda x: I.resize(x, (8, 4), method="nearest"),
        "resize_bicubic": lambda x: I.resize(x, (7, 9), method="bicubic"),
        "rgb_to_hsv": I.rgb_to_hsv,
        "standardization": I.per_image_standardization,
        "sobel": I.sobel_edges,
        "total_variation": I.total_variation,
        "yiq": I.rgb_to_yiq,
        "gray": I.rgb_to_grayscale,
        "ssim": lambda x: I.ssim(x, tf.ones_like(x) * 0.5, 1.0, filter_size=3),
        "patches": lambda x: I.extract_patches(x, [1, 2, 2, 1], [1, 1, 2, 1], [1, 1, 1, 1],
                                               "VALID"),
    }


def fingerprint(np, value):
    """dtype, shape, the sum, and a sum weighted by sin(index): a compact record of a value."""
    value = np.asarray(value)
    flat = value.astype(np.float64).ravel()
    weights = np.sin(np.arange(flat.size))
    return value.dtype.name, value.shape, float(flat.sum()), float(flat @ weights)
# -- end cases --


# Recorded from TensorFlow 2.21 with the cases above.
IMAGE = {
    'resize_bilinear': ('float32', (2, 4, 9, 3), 109.21591692045331, 0.21393967570818082),
    'resize_bilinear_u8': ('float32', (9, 4, 3), 13906.916641235352, 783.1962766000618),
    'resize_nearest': ('float32', (2, 5, 13, 3), 198.78197751007974, 1.2430430177690914),
    'resize_nearest_u8': ('uint8', (2, 3, 4, 3), 9324.0, 259.60826776815554),
    'resize_bicubic': ('float32', (2, 9, 4, 3), 108.6741387732327, 4.200930161372755),
    'resize_bicubic_down': ('float32', (2, 3, 5, 3), 44.13297341391444, 0.3102603525068303),
    'resize_area': ('float32', (2, 3, 4, 3), 36.055101364851, 1.1456990496287822),
    'resize_area_up': ('float32', (9, 8, 3), 26873.141785144806, 115.691917590465),
    'resize_aspect': ('float32', (2, 4, 3, 3), 36.405305579304695, 1.649208442281699),
    'resize_with_pad': ('float32', (2, 4, 9, 3), 36.405305579304695, 0.8812050795706545),
    'resize_with_crop_or_pad': ('float32', (3, 8, 3), 28.53843229357153, -2.1418806128225287),
    'central_crop': ('float32', (2, 5, 4, 3), 61.74562738323584, 1.020626499522693),
    'crop': ('float32', (2, 3, 4, 3), 39.08175717573613, 3.0930177269956727),
    'pad': ('uint8', (9, 10, 3), 16372.0, -335.0438523704347),
    'patches': ('float32', (2, 3, 2, 18), 112.00891940994188, 0.1762164762894591),
    'patches_same': ('uint8', (2, 4, 2, 18), 30428.0, 305.0220432298038),
    'rot90': ('float32', (2, 6, 7, 3), 126.1928481576033, -2.9579116156432295),
    'rot270': ('float32', (6, 7, 3), 64.45224571647123, -1.1382559335679143),
    'flip_lr': ('float32', (2, 7, 6, 3), 126.1928481576033, 1.96683876806763),
    'flip_ud': ('float32', (7, 6, 3), 64.45224571647123, -0.26524507791488583),
    'transpose': ('float32', (2, 6, 7, 3), 126.1928481576033, -2.0905895087232604),
    'gray': ('float32', (2, 7, 6, 1), 41.51753194630146, 2.9414568854050516),
    'gray_u8': ('uint8', (2, 7, 6, 1), 10519.0, 747.8595261015578),
    'gray_to_rgb': ('uint8', (2, 7, 6, 3), 31557.0, 851.4441905806212),
    'rgb_to_hsv': ('float32', (2, 7, 6, 3), 163.26374739222229, 1.8692422318750113),
    'hsv_to_rgb': ('float32', (2, 7, 6, 3), 99.50324994837865, -0.29176547213558357),
    'yiq': ('float32', (2, 7, 6, 3), 42.64143710015924, -1.338756218597112),
    'yiq_to_rgb': ('float32', (2, 7, 6, 3), 181.81242256285623, -3.0469950373165156),
    'yuv': ('float32', (2, 7, 6, 3), 42.94121951687703, -1.2929945619881749),
    'yuv_to_rgb': ('float32', (2, 7, 6, 3), 217.7497772218194, 13.62127435911253),
    'brightness': ('float32', (2, 7, 6, 3), 201.79285046458244, 0.07779271633925362),
    'brightness_u8': ('uint8', (2, 7, 6, 3), 20338.0, 56.7953785052327),
    'contrast_u8': ('uint8', (2, 7, 6, 3), 31893.0, 136.8669420769208),
    'gamma': ('float32', (2, 7, 6, 3), 125.03226383684523, 1.0261058492586617),
    'gamma_u8': ('uint8', (2, 7, 6, 3), 42878.0, -3.49436957934047),
    'saturation': ('float32', (2, 7, 6, 3), 103.18607495026663, -1.292897546332289),
    'saturation_u8': ('uint8', (2, 7, 6, 3), 43520.0, 459.3809311791816),
    'hue': ('float32', (2, 7, 6, 3), 126.97792199673131, 8.8467899166422),
    'hue_negative': ('float32', (2, 7, 6, 3), 126.97792259277776, 8.846789174995827),
    'hue_u8': ('uint8', (2, 7, 6, 3), 32309.0, 797.5484952966812),
    'standardization': ('float32', (2, 7, 6, 3), 5.552545189857483e-06, 0.8659603571919363),
    'standardization_u8': ('float32', (2, 7, 6, 3), 2.2293534129858017e-06, 0.8276977994387603),
    'total_variation': ('float32', (2,), 139.2288360595703, 58.33338131513761),
    'total_variation_3d': ('int32', (), 17838.0, 0.0),
    'image_gradients': ('float32', (2, 2, 7, 6, 3), 1.2216780986636877, -0.019496690424031324),
    'sobel': ('float32', (2, 7, 6, 3, 2), -17.04229696141556, 6.616613389621642),
    'psnr': ('float32', (2,), 42.37521171569824, 17.884675426463332),
    'psnr_u8': ('float32', (2,), 42.37837219238281, 17.891023116559072),
    'ssim': ('float32', (1,), 0.856124997138977, 0.0),
    'ssim_3d': ('float32', (), 0.8147882223129272, 0.0),
    'convert_f_u8': ('uint8', (2, 7, 6, 3), 32115.0, 30.793746256744612),
    'convert_u8_f': ('float32', (2, 7, 6, 3), 125.67843910586089, 0.10315712432200888),
    'convert_u8_i32': ('int32', (2, 7, 6, 3), 268838109184.0, 220662256.79827857),
    'convert_i32_u8': ('uint8', (2, 7, 6, 3), 32048.0, 26.30499086359484),
    'convert_saturate': ('uint8', (2, 7, 6, 3), 32027.0, 2.237659443089937),
    'convert_f_i16': ('int16', (2, 7, 6, 3), 4134893.0, 3648.0606628077057),
    'convert_f16': ('float16', (2, 7, 6, 3), 126.19132232666016, 0.11089883759455593),
}
GRADIENTS = {
    'resize_bilinear': ('float32', (2, 5, 6, 3), 1.6736024050042033, 0.03840851000748175),
    'resize_bilinear_up': ('float32', (2, 5, 6, 3), 1.38662538677454, 0.10678372663084579),
    'resize_nearest': ('float32', (2, 5, 6, 3), 1.9483645595610142, -0.4130458146903132),
    'resize_bicubic': ('float32', (2, 5, 6, 3), 0.0044762445613741875, -0.026382539224494485),
    'rgb_to_hsv': ('float32', (2, 5, 6, 3), 0.7004648679867387, -12.064215585911878),
    'standardization': ('float32', (2, 5, 6, 3), 6.42961822450161e-06, 307.64585188397587),
    'sobel': ('float32', (2, 5, 6, 3), 5.960464477539063e-08, 2.404848877461796),
    'total_variation': ('float32', (2, 5, 6, 3), 0.0, -0.2691388521288772),
    'yiq': ('float32', (2, 5, 6, 3), 0.45723503176122904, 11.894168611238713),
    'gray': ('float32', (2, 5, 6, 3), 1.939145295531489, -0.07335459989983507),
    'ssim': ('float32', (2, 5, 6, 3), -3.795884549617767e-05, 0.0035947148806646624),
    'patches': ('float32', (2, 5, 6, 3), 0.8690863624215126, -20.409314419976408),
}


def _check(got, expected):
    dtype, shape, total, weighted = fingerprint(np, got)
    assert (dtype, shape) == (expected[0], tuple(expected[1]))
    scale = max(1.0, abs(expected[2]) / max(np.size(got), 1))
    assert total == pytest.approx(expected[2], rel=1e-5, abs=1e-4 * scale)
    assert weighted == pytest.approx(expected[3], rel=1e-5, abs=1e-4 * scale)


_CASES = image_cases(tf, np)


@pytest.mark.parametrize("name", sorted(IMAGE))
def test_values_match_tensorflow(name):
    eager = _CASES[name]()
    _check(eager.numpy(), IMAGE[name])
    staged = tf.function(_CASES[name])()
    np.testing.assert_allclose(np.asarray(staged, np.float64), np.asarray(eager, np.float64),
                               rtol=1e-6, atol=1e-6)


_IMG, _GRAD_CASES = gradient_cases(tf, np)


@pytest.mark.parametrize("name", sorted(GRADIENTS))
def test_gradients_match_tensorflow(name):
    x = tf.constant(_IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = _GRAD_CASES[name](x)
        weights = np.sin(np.arange(np.prod(y.shape))).reshape(y.shape).astype(np.float32)
        loss = tf.reduce_sum(y * weights)
    _check(tape.gradient(loss, x).numpy(), GRADIENTS[name])


def test_errors_as_tensorflow():
    img = np.zeros((4, 5, 3), np.float32)
    with pytest.raises(ValueError, match="width must be >= target \\+ offset"):
        tf.image.crop_to_bounding_box(img, 0, 3, 2, 3)
    with pytest.raises(ValueError, match="target_height must be > 0"):
        tf.image.crop_to_bounding_box(img, 0, 0, 0, 3)
    with pytest.raises(ValueError, match="height must be <= target - offset"):
        tf.image.pad_to_bounding_box(img, 1, 0, 4, 6)
    with pytest.raises(ValueError, match="central_fraction must be within"):
        tf.image.central_crop(img, 1.5)
    with pytest.raises(ValueError, match="must be at least 3-dimensional"):
        tf.image.flip_left_right(np.zeros((4, 5), np.float32))
    with pytest.raises(ValueError, match="1-D Tensor of 2 elements"):
        tf.image.resize(img, [2, 3, 4])
    with pytest.raises(ValueError, match="Resize method is not implemented"):
        tf.image.resize(img, [2, 3], method="cubic")
    with pytest.raises(ValueError, match="Gamma should be a non-negative"):
        tf.image.adjust_gamma(img, -1.0)
    with pytest.raises(ValueError, match="Last dimension of a grayscale image"):
        tf.image.grayscale_to_rgb(img)
    x = tf.constant(img)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.resize(x, [2, 2], method="area")
    with pytest.raises(LookupError):
        tape.gradient(y, x)


def test_resize_static_shapes_and_dynamic_size():
    @tf.function(input_signature=[tf.TensorSpec([None, None, None, 3], tf.float32),
                                  tf.TensorSpec([2], tf.int32)])
    def f(images, size):
        out = tf.image.resize(images, size)
        assert out.shape.as_list() == [None, None, None, 3]
        return out
    images = np.arange(2 * 4 * 4 * 3, dtype=np.float32).reshape(2, 4, 4, 3)
    np.testing.assert_allclose(f(images, tf.constant([2, 2])),
                               tf.image.resize(images, [2, 2]).numpy())
    assert tf.image.resize(np.zeros((5, 6, 1)), [3, 3]).shape.as_list() == [3, 3, 1]
    assert tf.image.ResizeMethod.BILINEAR == "bilinear"
