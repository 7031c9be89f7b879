"""Keras 3 losses (function and class forms): values equal to TensorFlow 2.21's, recorded
from TensorFlow as literals; eager == staged; gradients checked numerically."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_nn_ops import numeric_check
from tests.staging import assert_same

L = tf.keras.losses
YT = np.array([[0., 1., 1.], [1., 0., 0.]], np.float32)
YP = np.array([[0.2, 0.7, -0.4], [1.5, 0.1, 0.3]], np.float32)
YPP = np.array([[0.2, 0.7, 0.1], [0.6, 0.1, 0.3]], np.float32)
YTR = np.array([[-1., 1., 1.], [1., -1., 2.]], np.float32)
W = np.array([0.3, 1.2], np.float32)

# fn(YT, YP or YPP) and fn(YTR, YP), from TensorFlow.
FUNCTIONS = {
    "hinge": ([0.9666666984558105, 0.800000011920929], [0.9666666984558105, 0.5]),
    "squared_hinge": ([1.1633332967758179, 0.9666666388511658],
                      [1.1633332967758179, 0.4566666781902313]),
    "categorical_hinge": ([0.9000000357627869, 0.0], [1.2999999523162842, 0.0]),
    "huber": ([0.3216666579246521, 0.05833333358168602], [0.5483333468437195, 0.6416667103767395]),
    "kl_divergence": ([2.6592586040496826, 0.5108227133750916], None),
    "log_cosh": ([0.27669820189476013, 0.05648231506347656],
                 [0.4679718017578125, 0.557244062423706]),
    "poisson": ([1.2197529077529907, 0.5036084651947021], None),
    "mean_squared_logarithmic_error": ([0.18003547191619873, 0.04257066547870636],
                                       [0.18003547191619873, 0.25272926688194275]),
    "mean_absolute_percentage_error": ([66666720.0, 133333352.0],
                                       [96.66667175292969, 81.66666412353516]),
    "cosine_similarity": ([-0.25537699460983276, -0.9784921407699585],
                          [-0.0695047676563263, -0.5326236486434937]),
}
# Class()(YT, YPP, sample_weight=W) and the class's default name, from TensorFlow.
CLASSES = {
    "Hinge": (0.6800000071525574, "hinge"),
    "SquaredHinge": (0.7289999723434448, "squared_hinge"),
    "CategoricalHinge": (0.48000001907348633, "categorical_hinge"),
    "Huber": (0.0494999997317791, "huber_loss"),
    "KLDivergence": (0.7053824663162231, "kl_divergence"),
    "LogCosh": (0.04665914922952652, "log_cosh"),
    "Poisson": (0.4851280450820923, "poisson"),
    "MeanSquaredLogarithmicError": (0.046395525336265564, "mean_squared_logarithmic_error"),
    "MeanAbsolutePercentageError": (90000024.0, "mean_absolute_percentage_error"),
    "CosineSimilarity": (-0.6462610960006714, "cosine_similarity"),
}


@pytest.mark.parametrize("name", sorted(FUNCTIONS))
def test_functions_match_tensorflow(name):
    fn = getattr(L, name)
    first, second = FUNCTIONS[name]
    pred = YPP if name in ("kl_divergence", "poisson") else YP
    np.testing.assert_allclose(assert_same(fn, YT, pred), first, rtol=1e-5)
    if second is not None:
        np.testing.assert_allclose(assert_same(fn, YTR, YP), second, rtol=1e-5)


@pytest.mark.parametrize("name", sorted(CLASSES))
def test_classes_match_tensorflow(name):
    value, default_name = CLASSES[name]
    loss = getattr(L, name)()
    assert loss.name == default_name
    np.testing.assert_allclose(float(loss(YT, YPP, sample_weight=W)), value, rtol=1e-5)
    assert type(loss)(**loss.get_config()).get_config() == loss.get_config()


def test_arguments_and_aliases():
    np.testing.assert_allclose(float(L.Huber(delta=0.3)(YT, YP)), 0.09916666150093079, rtol=1e-6)
    np.testing.assert_allclose(float(L.CosineSimilarity(axis=0)(YT, YP)), -0.39372578263282776,
                               rtol=1e-6)
    assert L.kld is L.KLD is L.kullback_leibler_divergence is L.kl_divergence
    assert L.msle is L.mean_squared_logarithmic_error and L.mape is L.MAPE
    assert isinstance(L.get("Huber"), L.Huber) and L.get("logcosh") is L.log_cosh
    with pytest.raises(TypeError, match="unexpected keyword argument 'delta'"):
        L.Hinge(delta=1.0)


@pytest.mark.parametrize("name", ["huber", "log_cosh", "cosine_similarity",
                                  "mean_squared_logarithmic_error", "squared_hinge"])
def test_gradients_numerically(name):
    fn = getattr(L, name)
    numeric_check(fn, np.abs(YTR), np.abs(YP) + 0.05)


YL = np.array([[-1.2, 0.7, 2.1], [0.6, -0.1, 0.3]], np.float32)


def test_focal_crossentropies_match_tensorflow():
    # From TensorFlow 2.21 / Keras 3.
    np.testing.assert_allclose(assert_same(L.binary_focal_crossentropy, YT, YPP),
                               [0.6353734135627747, 0.038295477628707886], rtol=1e-5)
    np.testing.assert_allclose(
        L.binary_focal_crossentropy(YT, YL, apply_class_balancing=True, alpha=0.4, gamma=1.5,
                                    from_logits=True, label_smoothing=0.1).numpy(),
        [0.02239430882036686, 0.12693607807159424], rtol=1e-5)
    np.testing.assert_allclose(assert_same(L.categorical_focal_crossentropy, YT, YPP),
                               [0.4742986559867859, 0.02043301984667778], rtol=1e-5)
    np.testing.assert_allclose(
        L.categorical_focal_crossentropy(YT, YL, alpha=0.5, gamma=1.0, from_logits=True,
                                         label_smoothing=0.2).numpy(),
        [0.7162830829620361, 0.2566843628883362], rtol=1e-5)
    binary = L.BinaryFocalCrossentropy(gamma=3.0)
    assert L.BinaryFocalCrossentropy().name == "binary_focal_crossentropy"
    np.testing.assert_allclose(float(binary(YT, YPP, sample_weight=W)), 0.09298566728830338,
                               rtol=1e-6)
    categorical = L.CategoricalFocalCrossentropy()
    assert categorical.name == "categorical_focal_crossentropy"
    np.testing.assert_allclose(float(categorical(YT, YPP, sample_weight=W)),
                               0.08340461552143097, rtol=1e-6)
    numeric_check(lambda t, p: L.binary_focal_crossentropy(t, p, gamma=1.5), np.abs(YTR) / 2,
                  YPP + 0.05)
