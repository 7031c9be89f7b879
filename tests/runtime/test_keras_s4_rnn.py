"""Keras recurrent layers (SimpleRNN, LSTM, GRU, RNN over a cell, Bidirectional,
TimeDistributed): with the same weights, outputs, states and gradients equal to TensorFlow
2.21 / Keras 3 (recorded from TensorFlow as literals: dtype, shape, sum and a sin-weighted
sum), eagerly and inside a tf.function."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_image_s4 import _check, fingerprint  # noqa: F401

# -- rnn cases --
def rnn_cases(layers):
    L = layers
    return {
        "simple": lambda: L.SimpleRNN(4),
        "simple_seq_relu": lambda: L.SimpleRNN(3, activation="relu", return_sequences=True),
        "lstm": lambda: L.LSTM(4),
        "lstm_seq_state": lambda: L.LSTM(3, return_sequences=True, return_state=True),
        "lstm_back_nobias": lambda: L.LSTM(2, go_backwards=True, use_bias=False,
                                           return_state=True),
        "gru": lambda: L.GRU(4),
        "gru_seq_state": lambda: L.GRU(3, return_sequences=True, return_state=True),
        "gru_v1": lambda: L.GRU(3, reset_after=False, go_backwards=True),
        "rnn_lstm_cell": lambda: L.RNN(L.LSTMCell(3), return_sequences=True),
        "bidirectional_lstm": lambda: L.Bidirectional(L.LSTM(3, return_sequences=True)),
        "bidirectional_gru_sum_state": lambda: L.Bidirectional(
            L.GRU(2, return_state=True), merge_mode="sum"),
        "time_distributed_dense": lambda: L.TimeDistributed(L.Dense(2, activation="tanh")),
    }


def rnn_weights(np, layer):
    """Deterministic weights for a built layer (the same in both frameworks)."""
    rng = np.random.default_rng(11)
    return [rng.uniform(-0.6, 0.6, size=w.shape).astype(np.float32) for w in layer.weights]
# -- end rnn cases --


# Recorded from TensorFlow 2.21: (outputs, gradients wrt [inputs] + trainable weights).
RNN = {
    'simple': ([('float32', (2, 4), -0.8620162010192871, -0.6874767753157465)],
               [('float32', (2, 5, 3), -1.001878566108644, 0.4504911274776449),
                ('float32', (3, 4), -1.2733983546495438, -0.5654194716104094),
                ('float32', (4, 4), -0.4330632872879505, 2.0606742518579115),
                ('float32', (4,), 0.2883780598640442, 0.06882577822178525)]),
    'simple_seq_relu': ([('float32', (2, 5, 3), 14.742572769522667, -1.5960079810215695)],
                        [('float32', (2, 5, 3), -0.6075653359293938, 3.541628469182261),
                         ('float32', (3, 3), -0.1353202909231186, -3.6748139569571414),
                         ('float32', (3, 3), -2.3842660263180733, -1.4652731029962056),
                         ('float32', (3,), -2.178481876850128, -1.7065928249023854)]),
    'lstm': ([('float32', (2, 4), -0.15333962813019753, 0.1441686285603447)],
             [('float32', (2, 5, 3), -0.19521543523296714, -0.2442173347297767),
              ('float32', (3, 16), -0.5775363752618432, -0.23495829372728405),
              ('float32', (4, 16), -0.1595683866762556, -0.01647657082145313),
              ('float32', (16,), 0.712948402389884, -0.5538116618161172)]),
    'lstm_seq_state': ([('float32', (2, 5, 3), -3.156709721311927, -0.4153038407584358),
                        ('float32', (2, 3), -0.8539162836968899, -0.27537122701937217),
                        ('float32', (2, 3), -1.558191254734993, -0.5929226334889881)],
                       [('float32', (2, 5, 3), -0.3822229178622365, -0.6474424327336007),
                        ('float32', (3, 12), -0.2775784279219806, -2.504566543337188),
                        ('float32', (3, 12), 0.6650405636173673, -0.10078907247382975),
                        ('float32', (12,), -1.5043377056717873, -0.359709043731378)]),
    'lstm_back_nobias': ([('float32', (2, 2), 0.018664380186237395, 0.12629611758523088),
                          ('float32', (2, 2), 0.018664380186237395, 0.12629611758523088),
                          ('float32', (2, 2), 0.07234665006399155, 0.2901062429418146)],
                         [('float32', (2, 5, 3), 0.19380955398082733, -0.8397103132828307),
                          ('float32', (3, 8), 1.0360019407235086, 1.0039286687925768),
                          ('float32', (2, 8), 0.21433635140419938, -0.10971327604533522)]),
    'gru': ([('float32', (2, 4), 0.30708267353475094, -0.04130582273379228)],
            [('float32', (2, 5, 3), -0.8574534277431667, 0.28783343402757283),
             ('float32', (3, 12), -2.0589583122637123, -1.0574038519892743),
             ('float32', (4, 12), 0.057123246719129384, 0.010189876630287267),
             ('float32', (2, 12), 0.16640389245003462, -2.756331311760688)]),
    'gru_seq_state': ([('float32', (2, 5, 3), -2.570366755127907, -0.8775616973698332),
                       ('float32', (2, 3), -0.555754229426384, -0.3423765498807106)],
                      [('float32', (2, 5, 3), 0.47826300747692585, -2.0309077573126717),
                       ('float32', (3, 9), -1.5730429776012897, -1.5561694155691013),
                       ('float32', (3, 9), -0.3954932481283322, -0.781433159779382),
                       ('float32', (2, 9), 2.0118504241108894, 0.31262951721942756)]),
    'gru_v1': ([('float32', (2, 3), 0.0024037957191467285, 0.18164971429953689)],
               [('float32', (2, 5, 3), -0.05189739656634629, -0.047246441699846514),
                ('float32', (3, 9), -0.9497874846856575, -1.251438244974015),
                ('float32', (3, 9), -0.15566479542758316, -0.05503728702653695),
                ('float32', (9,), 0.014338623965159059, -0.04526093050904101)]),
    'rnn_lstm_cell': ([('float32', (2, 5, 3), -3.156709721311927, -0.4153038407584358)],
                      [('float32', (2, 5, 3), -0.12398932967334986, -0.16108699205017663),
                       ('float32', (3, 12), 0.6758111855015159, -0.9395774060610188),
                       ('float32', (3, 12), 0.30185568891465664, -0.13923762120635325),
                       ('float32', (12,), -0.7113165203481913, -0.005453550814710462)]),
    'bidirectional_lstm': ([('float32', (2, 5, 6), -2.9362616445869207, 0.31619510003777634)],
                           [('float32', (2, 5, 3), 0.9326465912163258, 0.12183636280368199),
                            ('float32', (3, 12), -0.2448635371401906, 0.23716468989272532),
                            ('float32', (3, 12), 0.799767748452723, -0.5084571866091375),
                            ('float32', (12,), -1.6230425462126732, 1.3367554705108622),
                            ('float32', (3, 12), 3.2689907466992736, 1.1229696439129615),
                            ('float32', (3, 12), 0.7383960756706074, 0.17603197452232427),
                            ('float32', (12,), 0.03130669146776199, -2.8747087406226615)]),
    'bidirectional_gru_sum_state': ([('float32',
                                      (2, 2),
                                      -0.9422122538089752,
                                      -0.8181036861066603),
                                     ('float32',
                                      (2, 2),
                                      -1.5890564918518066,
                                      -0.9917582383499659),
                                     ('float32',
                                      (2, 2),
                                      0.6468442529439926,
                                      0.17365456579289312)],
                                    [('float32',
                                      (2, 5, 3),
                                      -4.379145742859691,
                                      -0.2598070409325289),
                                     ('float32',
                                      (3, 6),
                                      -0.17972604278475046,
                                      -0.11075270521329487),
                                     ('float32', (2, 6), -0.862171697546728, 0.780510751117284),
                                     ('float32',
                                      (2, 6),
                                      3.6792024970054626,
                                      -3.2006329248953658),
                                     ('float32', (3, 6), 1.445899821817875, 0.39547250442977927),
                                     ('float32',
                                      (2, 6),
                                      1.0614090114831924,
                                      -0.5414182185805833),
                                     ('float32', (2, 6), 4.969414725899696, -3.5592664269416545)]),
    'time_distributed_dense': ([('float32', (2, 5, 2), -7.004389174282551, 0.002378619930765669)],
                               [('float32',
                                 (2, 5, 3),
                                 -0.24013043256127276,
                                 -0.012294855800223499),
                                ('float32', (3, 2), -3.06147700548172, 2.413842592554224),
                                ('float32', (2,), 0.32911500334739685, 0.006698528371812023)]),
}

X = np.random.default_rng(12).uniform(-1, 1, size=(2, 5, 3)).astype(np.float32)
CASES = rnn_cases(tf.keras.layers)


def _run(layer, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        outputs = tf.nest.flatten(layer(x))
        loss = 0.0
        for o in outputs:
            weights = np.sin(np.arange(np.prod(o.shape))).reshape(o.shape).astype(np.float32)
            loss = loss + tf.reduce_sum(o * weights)
    return outputs, tape.gradient(loss, [x] + layer.trainable_weights)


@pytest.mark.parametrize("staged", [False, True])
@pytest.mark.parametrize("name", sorted(RNN))
def test_outputs_and_gradients_match_tensorflow(name, staged):
    layer = CASES[name]()
    layer(X)
    layer.set_weights(rnn_weights(np, layer))
    run = tf.function(_run) if staged else _run
    outputs, grads = run(layer, tf.constant(X))
    expected_outputs, expected_grads = RNN[name]
    assert len(outputs) == len(expected_outputs)
    for got, expected in zip(outputs + grads, expected_outputs + expected_grads):
        _check(got.numpy(), expected)


def test_unknown_time_steps_and_cells():
    layer = tf.keras.layers.GRU(3, return_sequences=True)

    @tf.function(input_signature=[tf.TensorSpec([None, None, 3], tf.float32)])
    def f(x):
        return layer(x)
    assert f(X).shape.as_list() == [2, 5, 3] and f(X[:, :2]).shape.as_list() == [2, 2, 3]
    np.testing.assert_allclose(f(X).numpy(), layer(X).numpy(), rtol=1e-5)
    cell = tf.keras.layers.LSTMCell(2)
    h, (h2, c) = cell(X[:, 0], [tf.zeros([2, 2]), tf.zeros([2, 2])])
    assert h.shape.as_list() == [2, 2] and np.allclose(h.numpy(), h2.numpy())
    lstm = tf.keras.layers.LSTM(2)
    lstm(X)
    bias = lstm.cell.bias.numpy()
    assert bias.tolist() == [0, 0, 1, 1, 0, 0, 0, 0]  # unit_forget_bias
    assert lstm.units == 2 and lstm.get_config()["unit_forget_bias"] is True
    with pytest.raises(ValueError, match="rank 3"):
        tf.keras.layers.SimpleRNN(2)(np.zeros((2, 3), np.float32))


def test_dropout_only_when_training():
    tf.random.set_seed(3)
    layer = tf.keras.layers.SimpleRNN(4, dropout=0.5, recurrent_dropout=0.5)
    quiet = layer(X)
    np.testing.assert_allclose(layer(X, training=False).numpy(), quiet.numpy())
    assert not np.allclose(layer(X, training=True).numpy(), quiet.numpy())
