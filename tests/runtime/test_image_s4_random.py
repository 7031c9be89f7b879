"""tf.image random augmentation: with a seed, the same images as TensorFlow 2.21 (recorded
from TensorFlow as literals), eagerly and staged; TensorFlow's argument errors."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_image_s4 import _check

# -- random cases --
def random_cases(tf, np):
    rng = np.random.default_rng(3)
    img = rng.uniform(size=(4, 5, 6, 3)).astype(np.float32)
    u8 = (img * 255).astype(np.uint8)
    I = tf.image
    c = tf.constant
    return {
        "flip_lr": lambda: I.random_flip_left_right(c(img), seed=7),
        "flip_ud_3d": lambda: I.random_flip_up_down(c(img[0]), seed=11),
        "brightness": lambda: I.random_brightness(c(img), 0.3, seed=5),
        "contrast_u8": lambda: I.random_contrast(c(u8), 0.2, 1.8, seed=5),
        "saturation": lambda: I.random_saturation(c(img), 0.5, 1.5, seed=9),
        "hue": lambda: I.random_hue(c(img), 0.2, seed=9),
        "crop": lambda: I.random_crop(c(img), [2, 3, 4, 3], seed=4),
        "s_flip_lr": lambda: I.stateless_random_flip_left_right(c(img), seed=(1, 2)),
        "s_flip_ud": lambda: I.stateless_random_flip_up_down(c(img), seed=(3, 4)),
        "s_flip_lr_3d": lambda: I.stateless_random_flip_left_right(c(img[1]), seed=(5, 2)),
        "s_brightness": lambda: I.stateless_random_brightness(c(u8), 0.4, seed=(1, 2)),
        "s_contrast": lambda: I.stateless_random_contrast(c(img), 0.2, 1.8, seed=(1, 2)),
        "s_saturation": lambda: I.stateless_random_saturation(c(img), 0.5, 1.5, seed=(2, 2)),
        "s_hue": lambda: I.stateless_random_hue(c(img), 0.4, seed=(7, 1)),
        "s_crop": lambda: I.stateless_random_crop(c(img), [2, 3, 4, 3], seed=(1, 5)),
    }
# -- end random cases --


# Recorded from TensorFlow 2.21 after tf.random.set_seed(1234).
RANDOM = {
    'flip_lr': ('float32', (4, 5, 6, 3), 182.22443813749123, -2.71666384205819),
    'flip_ud_3d': ('float32', (5, 6, 3), 45.98432164918631, -0.10263592786535897),
    'brightness': ('float32', (4, 5, 6, 3), 186.3648034017533, 2.2228688303847375),
    'contrast_u8': ('uint8', (4, 5, 6, 3), 46217.0, 582.5432222142772),
    'saturation': ('float32', (4, 5, 6, 3), 193.8495726287365, 2.114217805855661),
    'hue': ('float32', (4, 5, 6, 3), 186.4459320969181, 1.3102333713016836),
    'crop': ('float32', (2, 3, 4, 3), 33.87356497999281, 3.264637905486047),
    's_flip_lr': ('float32', (4, 5, 6, 3), 182.22443813749123, -1.9343746035268512),
    's_flip_ud': ('float32', (4, 5, 6, 3), 182.22443813749123, 2.8858794048353826),
    's_flip_lr_3d': ('float32', (5, 6, 3), 43.976281373761594, -0.007776075546336703),
    's_brightness': ('uint8', (4, 5, 6, 3), 68510.0, 335.2844427986436),
    's_contrast': ('float32', (4, 5, 6, 3), 182.22443516552448, 3.3085203183044003),
    's_saturation': ('float32', (4, 5, 6, 3), 158.62379140686244, 3.6996708732705814),
    's_hue': ('float32', (4, 5, 6, 3), 185.3025764405029, -0.5872173580470329),
    's_crop': ('float32', (2, 3, 4, 3), 36.70227241329849, 1.7976588115506962),
}

_CASES = random_cases(tf, np)


@pytest.mark.parametrize("name", sorted(RANDOM))
def test_seeded_images_match_tensorflow(name):
    tf.random.set_seed(1234)
    _check(_CASES[name]().numpy(), RANDOM[name])


@pytest.mark.parametrize("name", ["s_flip_lr", "s_hue", "s_crop", "flip_lr", "crop"])
def test_staged_equals_eager(name):
    tf.random.set_seed(1234)
    eager = _CASES[name]().numpy()
    tf.random.set_seed(1234)
    np.testing.assert_allclose(tf.function(_CASES[name])().numpy(), eager, rtol=1e-6)


def test_argument_errors():
    img = np.zeros((4, 5, 3), np.float32)
    with pytest.raises(ValueError, match="upper must be > lower"):
        tf.image.random_contrast(img, 0.5, 0.5)
    with pytest.raises(ValueError, match="lower must be non-negative"):
        tf.image.stateless_random_saturation(img, -0.5, 0.5, seed=(1, 2))
    with pytest.raises(ValueError, match="max_delta must be <= 0.5"):
        tf.image.random_hue(img, 0.6)
    with pytest.raises(ValueError, match="max_delta must be non-negative"):
        tf.image.random_brightness(img, -0.1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Need value.shape >= size"):
        tf.image.random_crop(img, [5, 5, 3])
