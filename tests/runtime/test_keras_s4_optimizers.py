"""Keras 3 optimizers and learning-rate schedules: values equal to TensorFlow 2.21's
(recorded from TensorFlow as literals), eagerly and inside a tf.function."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf

K = tf.keras.optimizers
S = tf.keras.optimizers.schedules
GRADS = ([0.1, -0.3, 2.0], [0.5, 0.2, -1.0], [-0.2, 0.0, 0.3])

# three apply_gradients of GRADS to [1.0, -2.0, 0.5], from TensorFlow 2.21 / Keras 3.
CASES = {
    "RMSprop": (lambda: K.RMSprop(0.01),
                [0.9494126439094543, -1.9865591526031494, 0.47850877046585083]),
    "RMSprop_c": (lambda: K.RMSprop(0.01, momentum=0.5, centered=True),
                  [0.9039324522018433, -1.9689949750900269, 0.4592680037021637]),
    "Adagrad": (lambda: K.Adagrad(0.1),
                [0.918138325214386, -1.9728782176971436, 0.43233922123908997]),
    "Adadelta": (lambda: K.Adadelta(1.0),
                 [0.9976633191108704, -1.999714970588684, 0.49919599294662476]),
    "AdamW": (lambda: K.AdamW(0.01),
              [0.9774090051651001, -1.9871987104415894, 0.48438695073127747]),
    "AdamW_ams": (lambda: K.AdamW(0.01, weight_decay=0.1, amsgrad=True),
                  [0.9745594263076782, -1.9814656972885132, 0.4829702079296112]),
    "Adamax": (lambda: K.Adamax(0.01),
               [0.9813442826271057, -1.9879943132400513, 0.4860069453716278]),
    "Nadam": (lambda: K.Nadam(0.01),
              [0.9821919202804565, -1.9942748546600342, 0.49157166481018066]),
    "Ftrl": (lambda: K.Ftrl(0.1, l1_regularization_strength=0.01,
                            l2_regularization_strength=0.1,
                            l2_shrinkage_regularization_strength=0.05, beta=0.5),
             [-0.031014127656817436, -0.2129005789756775, 0.27807265520095825]),
    "RMS_wd": (lambda: K.RMSprop(0.01, weight_decay=0.1),
               [0.9465099573135376, -1.9806102514266968, 0.4770587682723999]),
}


@pytest.mark.parametrize("name", sorted(CASES))
@pytest.mark.parametrize("staged", [False, True])
def test_update_rules_match_tensorflow(name, staged):
    make, expected = CASES[name]
    opt = make()
    v = tf.Variable([1.0, -2.0, 0.5])

    def step(g):
        opt.apply_gradients([(g, v)])

    run = tf.function(step) if staged else step
    for g in GRADS:
        run(tf.constant(g))
    np.testing.assert_allclose(v.numpy(), expected, rtol=2e-6, atol=1e-7)
    assert int(opt.iterations.numpy()) == 3


def test_schedule_as_learning_rate_and_slots():
    opt = K.Adagrad(S.ExponentialDecay(0.1, 2, 0.5))
    v = tf.Variable([1.0, -2.0, 0.5])
    step = tf.function(lambda g: opt.apply_gradients([(g, v)]))
    for g in GRADS:
        step(tf.constant(g))
    np.testing.assert_allclose(v.numpy(), [0.9267346858978271, -1.9606637954711914,
                                           0.4259539842605591], rtol=2e-6)
    ada = K.Adagrad(0.1)
    ada.apply_gradients([(tf.constant([1.0, 1.0, 1.0]), v)])
    assert ada.get_slot(v, "accumulator").numpy().tolist() == pytest.approx([1.1] * 3)
    assert K.get("rmsprop").__class__ is K.RMSprop


STEPS = range(9)
SCHEDULES = {
    "exp": (S.ExponentialDecay(0.1, 3, 0.5),
            [0.10000000149011612, 0.07937005162239075, 0.06299605220556259, 0.05000000074505806,
             0.039685025811195374, 0.031498026102781296, 0.02500000037252903,
             0.019842514768242836, 0.015749013051390648]),
    "exp_st": (S.ExponentialDecay(0.1, 3, 0.5, staircase=True),
               [0.1, 0.1, 0.1, 0.05, 0.05, 0.05, 0.025, 0.025, 0.025]),
    "inv": (S.InverseTimeDecay(0.1, 2, 0.5),
            [0.10000000149011612, 0.07999999821186066, 0.06666667014360428, 0.05714285746216774,
             0.05000000074505806, 0.04444444552063942, 0.03999999910593033, 0.036363635212183,
             0.03333333507180214]),
    "inv_st": (S.InverseTimeDecay(0.1, 2, 0.5, staircase=True),
               [0.1, 0.1, 0.06666667014360428, 0.06666667014360428, 0.05, 0.05,
                0.03999999910593033, 0.03999999910593033, 0.03333333507180214]),
    "pw": (S.PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1]),
           [1.0, 1.0, 1.0, 0.5, 0.5, 0.5, 0.1, 0.1, 0.1]),
    "poly": (S.PolynomialDecay(0.1, 5, 0.01, power=2.0),
             [0.10000000149011612, 0.06760000437498093, 0.04240000247955322,
              0.024399999529123306, 0.013599999248981476, 0.01, 0.01, 0.01, 0.01]),
    "poly_cyc": (S.PolynomialDecay(0.1, 3, 0.01, cycle=True),
                 [0.1, 0.07000000029802322, 0.03999999910593033, 0.01, 0.03999999910593033,
                  0.02500000223517418, 0.01, 0.029999999329447746, 0.019999999552965164]),
    "cos": (S.CosineDecay(0.1, 5, alpha=0.1),
            [0.10000000149011612, 0.09140576422214508, 0.06890576332807541, 0.04109422490000725,
             0.018594233319163322, 0.010000000707805157, 0.010000000707805157,
             0.010000000707805157, 0.010000000707805157]),
    "cos_w": (S.CosineDecay(0.0, 5, warmup_target=0.1, warmup_steps=3),
              [0.0, 0.03333333507180214, 0.06666667014360428, 0.1, 0.09045084565877914,
               0.06545084714889526, 0.03454914316534996, 0.009549147449433804, 0.0]),
}


@pytest.mark.parametrize("name", sorted(SCHEDULES))
def test_schedules_match_tensorflow(name):
    schedule, expected = SCHEDULES[name]
    eager = [float(schedule(tf.constant(np.int64(i)))) for i in STEPS]
    np.testing.assert_allclose(eager, expected, rtol=1e-6, atol=1e-8)
    staged = tf.function(schedule)
    np.testing.assert_allclose([float(staged(tf.constant(np.int64(i)))) for i in STEPS],
                               expected, rtol=1e-6, atol=1e-8)
    assert type(schedule).from_config(schedule.get_config()).get_config() == \
        schedule.get_config()


def test_argument_errors():
    with pytest.raises(ValueError, match="boundaries should be 1 less"):
        S.PiecewiseConstantDecay([1, 2], [1.0])
    with pytest.raises(ValueError, match="learning_rate_power"):
        K.Ftrl(learning_rate_power=0.5)
    with pytest.raises(ValueError, match="weight_decay"):
        K.AdamW(weight_decay=None)


# Two variables, three steps, from TensorFlow 2.21 / Keras 3: (first variable, second).
CLIPPING = {
    "RMSprop_clipnorm": (lambda: K.RMSprop(0.01, clipnorm=0.5),
                         ([0.9587671160697937, -1.9930939674377441, 0.47607365250587463],
                          [0.26225584745407104])),
    "Adagrad_globalclip": (lambda: K.Adagrad(0.1, global_clipnorm=0.3),
                           ([0.9963445067405701, -1.9961674213409424, 0.4397697150707245],
                            [0.2804528474807739])),
    "Adamax_clipvalue": (lambda: K.Adamax(0.01, clipvalue=0.4),
                         ([0.9813271760940552, -1.9879943132400513, 0.488088458776474],
                          [0.27931153774261475])),
}


@pytest.mark.parametrize("name", sorted(CLIPPING))
def test_gradient_clipping_matches_tensorflow(name):
    make, (expected_v, expected_w) = CLIPPING[name]
    opt = make()
    v, w = tf.Variable([1.0, -2.0, 0.5]), tf.Variable([0.3])
    step = tf.function(lambda g, h: opt.apply_gradients([(g, v), (h, w)]))
    for g in GRADS:
        step(tf.constant(g), tf.constant([g[0] * 3]))
    np.testing.assert_allclose(v.numpy(), expected_v, rtol=2e-6)
    np.testing.assert_allclose(w.numpy(), expected_w, rtol=2e-6)


def test_learning_rate_property():
    opt = K.RMSprop(S.ExponentialDecay(0.1, 2, 0.5))
    assert float(opt.learning_rate) == pytest.approx(0.1)
    opt.iterations.assign(2)
    assert float(opt.learning_rate) == pytest.approx(0.05)
    with pytest.raises(TypeError, match="its learning rate is not settable"):  # (Keras 3)
        opt.learning_rate = 0.3
    with pytest.raises(ValueError, match="Only one of"):
        K.Nadam(clipnorm=1.0, clipvalue=1.0)
