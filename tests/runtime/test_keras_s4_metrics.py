"""Keras 3 metrics for training loops: values equal to TensorFlow 2.21's (recorded from
TensorFlow as literals) after two updates, eagerly and inside a tf.function."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf

m = tf.keras.metrics
YT = np.array([[0, 1, 1, 0], [1, 0, 0, 1], [0, 0, 1, 0]], np.float32)
YP = np.array([[0.2, 0.7, 0.4, 0.55], [0.9, 0.1, 0.3, 0.45], [0.6, 0.05, 0.8, 0.35]], np.float32)
W = np.array([0.5, 2.0, 1.0], np.float32)
YT2 = np.array([[1, 0, 0, 1], [0, 1, 1, 0], [0, 0, 0, 1]], np.float32)
YP2 = np.array([[0.3, 0.3, 0.9, 0.8], [0.1, 0.95, 0.2, 0.5], [0.7, 0.15, 0.4, 0.25]], np.float32)

MAKERS = {
    "TruePositives": lambda: m.TruePositives(),
    "FalsePositives": lambda: m.FalsePositives(thresholds=[0.1, 0.5, 0.7]),
    "TrueNegatives": lambda: m.TrueNegatives(thresholds=0.3),
    "FalseNegatives": lambda: m.FalseNegatives(),
    "Precision": lambda: m.Precision(),
    "Precision_t": lambda: m.Precision(thresholds=[0.3, 0.6]),
    "Precision_k": lambda: m.Precision(top_k=2),
    "Recall": lambda: m.Recall(),
    "Recall_c": lambda: m.Recall(class_id=2),
    "Recall_kc": lambda: m.Recall(top_k=1, class_id=0),
    "AUC": lambda: m.AUC(),
    "AUC_pr": lambda: m.AUC(curve="PR"),
    "AUC_min": lambda: m.AUC(num_thresholds=7, summation_method="minoring"),
    "AUC_maj_pr": lambda: m.AUC(num_thresholds=5, curve="PR", summation_method="majoring"),
    "AUC_thr": lambda: m.AUC(thresholds=[0.25, 0.5, 0.75]),
    "AUC_logits": lambda: m.AUC(from_logits=True),
}
# result after update(YT, YP, W) then update(YT2, YP2), from TensorFlow.
EXPECTED = {
    "TruePositives": 5.5,
    "FalsePositives": [11.0, 3.5, 1.0],
    "TrueNegatives": 8.5,
    "FalseNegatives": 5.5,
    "Precision": 0.6111111044883728,
    "Precision_t": [0.5517241358757019, 0.7333333492279053],
    "Precision_k": 0.5769230723381042,
    "Recall": 0.5,
    "Recall_c": 0.4000000059604645,
    "Recall_kc": 0.6666666865348816,
    "AUC": 0.7424242496490479,
    "AUC_pr": 0.6949248909950256,
    "AUC_min": 0.6712121367454529,
    "AUC_maj_pr": 0.6995631456375122,
    "AUC_thr": 0.6916666030883789,
    "AUC_logits": 0.7424242496490479,
}
# MeanMetricWrapper-style metrics: (result, default name), same updates, from TensorFlow.
MEANS = {
    "MeanSquaredError": (0.2043750137090683, 'mean_squared_error'),
    "MeanAbsoluteError": (0.3721154034137726, 'mean_absolute_error'),
    "RootMeanSquaredError": (0.45207855105400085, 'root_mean_squared_error'),
    "CategoricalCrossentropy": (2.1189932823181152, 'categorical_crossentropy'),
    "BinaryCrossentropy": (0.5888405442237854, 'binary_crossentropy'),
    "BinaryCrossentropy_l": (0.7050206661224365, 'binary_crossentropy'),
    "TopKCategoricalAccuracy": (0.692307710647583, 'top_k_categorical_accuracy'),
    "Hinge": (0.9490384459495544, 'hinge'),
    "KLDivergence": (1.0986896753311157, 'kl_divergence'),
    "LogCoshError": (0.09541149437427521, 'logcosh'),
    "CosineSimilarity": (0.7072455286979675, 'cosine_similarity'),
    "Poisson": (0.7275577187538147, 'poisson'),
    "MeanAbsolutePercentageError": (200961552.0, 'mean_absolute_percentage_error'),
    "MeanSquaredLogarithmicError": (0.10113923251628876, 'mean_squared_logarithmic_error'),
    "SquaredHinge": (1.1832211017608643, 'squared_hinge'),
    "CategoricalHinge": (0.557692289352417, 'categorical_hinge'),
}
MEAN_MAKERS = {"BinaryCrossentropy_l": lambda: m.BinaryCrossentropy(from_logits=True,
                                                                     label_smoothing=0.1),
               "TopKCategoricalAccuracy": lambda: m.TopKCategoricalAccuracy(k=2)}


def _run(metric, staged):
    def update(a, b, c, d, w):
        metric.update_state(a, b, sample_weight=w)
        metric.update_state(c, d)
        return metric.result()

    fn = tf.function(update) if staged else update
    return np.asarray(fn(tf.constant(YT), tf.constant(YP), tf.constant(YT2), tf.constant(YP2),
                         tf.constant(W)))


@pytest.mark.parametrize("name", sorted(MAKERS))
@pytest.mark.parametrize("staged", [False, True])
def test_confusion_metrics_match_tensorflow(name, staged):
    metric = MAKERS[name]()
    np.testing.assert_allclose(_run(metric, staged), EXPECTED[name], rtol=1e-5)
    metric.reset_state()
    assert np.all(np.asarray(metric.result()) == 0)


@pytest.mark.parametrize("name", sorted(MEANS))
def test_mean_metrics_match_tensorflow(name):
    value, default_name = MEANS[name]
    metric = MEAN_MAKERS.get(name, getattr(m, name.split("_")[0]))()
    assert metric.name == default_name
    np.testing.assert_allclose(float(_run(metric, name == "AUC")), value, rtol=1e-5)


def test_sparse_metrics_sum_and_names():
    scce = m.SparseCategoricalCrossentropy()
    scce.update_state(np.array([1, 0, 2]), YP[:, :3], sample_weight=W)
    np.testing.assert_allclose(float(scce.result()), 0.4684789478778839, rtol=1e-6)
    top1 = m.SparseTopKCategoricalAccuracy(k=1)
    tf.function(top1.update_state)(tf.constant(np.array([[1], [0], [1]])), tf.constant(YP))
    np.testing.assert_allclose(float(top1.result()), 0.6666666865348816, rtol=1e-6)
    total = m.Sum()
    total.update_state([1.0, 2.0, 3.5], sample_weight=[1.0, 0.5, 2.0])
    total.update_state(4.0)
    assert float(total.result()) == 13.0 and total.name == "sum"
    first, second = m.AUC(), m.AUC()
    assert first.name.startswith("auc") and second.name != first.name
    assert m.mse is tf.keras.losses.mean_squared_error and m.kld is m.KLD


def test_argument_errors():
    with pytest.raises(ValueError, match="Threshold values must be in"):
        m.Precision(thresholds=[0.5, 1.5])
    with pytest.raises(ValueError, match="Invalid curve"):
        m.AUC(curve="XY")
    with pytest.raises(ValueError, match="num_thresholds"):
        m.AUC(num_thresholds=1)


# After the same two updates, from TensorFlow 2.21 / Keras 3.
SCORES = {
    "f1": (lambda: m.F1Score(), [0.6666666269302368, 0.9999998807907104, 0.4444444179534912,
                                 0.0]),
    "f1_micro_t": (lambda: m.F1Score(average="micro", threshold=0.5), 0.5499998927116394),
    "f1_macro": (lambda: m.F1Score(average="macro"), 0.5277777314186096),
    "fbeta_w": (lambda: m.FBetaScore(average="weighted", beta=2.0, threshold=0.4),
                0.6675904989242554),
    "r2": (lambda: m.R2Score(), 0.13738612830638885),
    "r2_var": (lambda: m.R2Score(class_aggregation="variance_weighted_average"),
               0.0910690426826477),
    "r2_none": (lambda: m.R2Score(class_aggregation=None),
                [0.13952380418777466, 0.8418333530426025, -0.30650007724761963,
                 -0.12531256675720215]),
    "r2_adj": (lambda: m.R2Score(num_regressors=2), 0.055232465267181396),
}


@pytest.mark.parametrize("name", sorted(SCORES))
@pytest.mark.parametrize("staged", [False, True])
def test_scores_match_tensorflow(name, staged):
    make, expected = SCORES[name]
    metric = make()
    np.testing.assert_allclose(_run(metric, staged), expected, rtol=1e-5)
    metric.reset_state()
    with pytest.raises(ValueError, match="Invalid `average`"):
        m.F1Score(average="mean")
