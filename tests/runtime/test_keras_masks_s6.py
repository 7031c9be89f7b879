"""Keras masks in the layers that use them (Keras 3 semantics): recurrent layers (masked steps
keep the previous states and output, ``zero_output_for_mask``, ``go_backwards``, the output
masks, Bidirectional), MultiHeadAttention's query/value/key masks, BatchNormalization's
masked moments, merge layers, TimeDistributed, Masking, Lambda, Softmax and user layers
(``supports_masking`` / ``compute_mask``); a layer that cannot use a mask drops it with
Keras's warning. Values, masks, gradients and training losses are TensorFlow 2.21's for the
same seeded models, recorded as literals (dtype, shape, sum, sin-weighted sum), eagerly and
inside a tf.function."""
from __future__ import annotations

import warnings

import numpy as np
import pytest

import autograph as tf
from runtime.keras.layers.base import get_keras_mask


# -- cases (run by TensorFlow to record the literals below) --
def fingerprint(np, value):
    """dtype, shape, the sum and a sum weighted by sin(index); None stays None."""
    if value is None:
        return None
    value = np.asarray(value.numpy() if hasattr(value, "numpy") else value)
    flat = value.astype(np.float64).ravel()
    return value.dtype.name, value.shape, float(flat.sum()), \
        float(flat @ np.sin(np.arange(flat.size)))


IDS = [[3, 1, 2, 0, 0], [0, 2, 4, 5, 1], [1, 0, 3, 0, 2]]


def rnn_cases(L):
    return {
        "simple": lambda: L.SimpleRNN(2),
        "simple_seq": lambda: L.SimpleRNN(2, return_sequences=True),
        "simple_seq_zero": lambda: L.SimpleRNN(2, return_sequences=True,
                                               zero_output_for_mask=True),
        "lstm_seq_state": lambda: L.LSTM(2, return_sequences=True, return_state=True),
        "lstm_back": lambda: L.LSTM(2, go_backwards=True, return_sequences=True),
        "gru_state": lambda: L.GRU(2, return_state=True),
        "gru_back_zero": lambda: L.GRU(2, go_backwards=True, zero_output_for_mask=True),
        "rnn_cell": lambda: L.RNN(L.GRUCell(2), return_sequences=True),
        "bi_concat": lambda: L.Bidirectional(L.LSTM(2, return_sequences=True)),
        "bi_sum": lambda: L.Bidirectional(L.GRU(2), merge_mode="sum"),
        "bi_none_state": lambda: L.Bidirectional(
            L.SimpleRNN(2, return_sequences=True, return_state=True), merge_mode=None),
    }


def run_rnn(tf, np, kmask, name, staged):
    """The outputs, their masks, and the gradients of a weighted sum of the outputs wrt the
    inputs and the weights, for an RNN layer given an explicit mask."""
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(1)
    ids = np.array(IDS, np.int32)
    x = L.Embedding(6, 3)(ids)
    layer = rnn_cases(L)[name]()
    mask = tf.constant(ids != 0)

    def run(x, mask):
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = layer(x, mask=mask)
            flat = tf.concat([tf.reshape(o, [-1]) for o in tf.nest.flatten(out)], 0)
            total = tf.reduce_sum(tf.sin(tf.range(tf.size(flat), dtype=tf.float32) * 0.37) *
                                  flat)
        grads = tape.gradient(total, [x] + layer.trainable_weights)
        masks = [kmask(o) for o in tf.nest.flatten(out)]
        return tf.nest.flatten(out) + grads, [m for m in masks if m is not None]
    values, masks = (tf.function(run) if staged else run)(x, mask)
    return [fingerprint(np, v) for v in values], \
        [] if staged else [fingerprint(np, m) for m in masks]


def dropout_cases(L):
    return {
        "lstm_drop": lambda: L.LSTM(2, dropout=0.3, recurrent_dropout=0.2, seed=3,
                                    return_sequences=True),
        "lstm_input_drop": lambda: L.LSTM(2, dropout=0.3, seed=3, return_sequences=True),
        "gru_drop": lambda: L.GRU(2, dropout=0.3, recurrent_dropout=0.2, seed=3,
                                  return_sequences=True),
        "gru_v1_drop": lambda: L.GRU(2, dropout=0.3, recurrent_dropout=0.2, seed=3,
                                     reset_after=False, return_sequences=True),
        "simple_drop": lambda: L.SimpleRNN(2, dropout=0.3, recurrent_dropout=0.2, seed=3,
                                           return_sequences=True),
        "unseeded": lambda: L.LSTM(2, dropout=0.3, recurrent_dropout=0.2),
    }


def run_dropout(tf, np, name):
    """A masked RNN with dropout called for inference (which draws its masks too, as Keras's
    does), then twice in training; the gradients of the last call."""
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(1)
    x = L.Embedding(6, 3, mask_zero=True)(tf.constant(IDS))
    layer = dropout_cases(L)[name]()
    values = [layer(x), layer(x, training=True)]
    with tf.GradientTape() as tape:
        out = layer(x, training=True)
        total = tf.reduce_sum(tf.sin(out))
    return [fingerprint(np, v) for v in values + [out] +
            tape.gradient(total, layer.trainable_weights)]


def train_cases(L):
    return {
        "lstm": lambda: [L.LSTM(3)],
        "gru_seq_pool": lambda: [L.GRU(3, return_sequences=True), L.GlobalAveragePooling1D()],
        "bi_lstm": lambda: [L.Bidirectional(L.LSTM(2))],
        "bi_gru_ave_lstm": lambda: [L.Bidirectional(L.GRU(2, return_sequences=True),
                                                    merge_mode="ave"), L.LSTM(2)],
        "simple_back": lambda: [L.SimpleRNN(3, go_backwards=True)],
    }


def train(tf, np, name, staged=True):
    """Five Adam steps of Embedding(mask_zero=True) -> recurrent layers -> Dense: the losses."""
    L = tf.keras.layers
    ids = tf.constant([[3, 1, 2, 0, 0], [4, 2, 4, 5, 1], [1, 5, 3, 0, 0], [2, 2, 0, 0, 0]])
    y = tf.constant([[1.0], [-1.0], [0.5], [0.0]])
    tf.keras.utils.set_random_seed(7)
    model = tf.keras.Sequential([L.Embedding(7, 4, mask_zero=True), *train_cases(L)[name](),
                                 L.Dense(1)])
    opt = tf.keras.optimizers.Adam(0.05)

    def step(x, t):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean((model(x, training=True) - t) ** 2)
        opt.apply_gradients(zip(tape.gradient(loss, model.trainable_variables),
                                model.trainable_variables))
        return loss
    step = tf.function(step) if staged else step
    return [round(float(step(ids, y)), 6) for _ in range(5)]


def layer_cases(tf, np, kmask):
    """name -> a function giving a list of values (outputs, masks, weights, gradients)."""
    L = tf.keras.layers
    ids2 = [[3, 0, 2, 1, 0], [1, 2, 0, 5, 0], [1, 1, 3, 0, 2]]
    plain = tf.constant(np.linspace(-1, 1, 45).reshape(3, 5, 3).astype(np.float32))

    def embedded():
        tf.keras.utils.set_random_seed(2)
        return (L.Embedding(6, 3, mask_zero=True)(tf.constant(IDS)),
                L.Embedding(6, 3, mask_zero=True)(tf.constant(ids2)))

    def merge(cls):
        def run():
            x, x2 = embedded()
            out = getattr(L, cls)()([x, x2])
            return [out, kmask(out), kmask(getattr(L, cls)()([x, plain]))]
        return run

    def concatenate(axis):
        def run():
            x, x2 = embedded()
            out = L.Concatenate(axis=axis)([x, x2])
            return [out, kmask(out), kmask(L.Concatenate(axis=axis)([x, plain]))]
        return run

    def batch_norm():
        x, _ = embedded()
        bn = L.BatchNormalization(momentum=0.5)
        with tf.GradientTape() as tape:
            tape.watch(x)
            out = bn(x, training=True)
            total = tf.reduce_sum(tf.sin(tf.range(45, dtype=tf.float32)) * tf.reshape(out, [-1]))
        grads = tape.gradient(total, [x, bn.gamma, bn.beta])
        return [out, kmask(out), bn.moving_mean, bn.moving_variance, bn(x, training=False),
                *grads]

    def time_distributed():
        x, _ = embedded()
        out = L.TimeDistributed(L.Dense(2))(x)

        class KeepFirst(L.Layer):
            def call(self, inputs, mask=None):
                return inputs * tf.cast(tf.expand_dims(mask, -1), inputs.dtype)
        x4 = tf.reshape(tf.tile(x, [1, 1, 2]), [3, 5, 2, 3])
        inner = L.TimeDistributed(KeepFirst())(
            x4, mask=tf.constant(np.array([[[1, 0]] * 5] * 3, bool)))
        return [out, kmask(out), inner]

    def masking():
        raw = np.linspace(-1, 1, 30).reshape(2, 5, 3).astype(np.float32)
        raw[0, 1], raw[1, 3], raw[1, 4], raw[0, 2, 0] = 0, 0, 0, 0
        out = L.Masking()(raw)
        tf.keras.utils.set_random_seed(3)
        lstm = tf.keras.Sequential([L.Masking(), L.LSTM(2, return_sequences=True)])(raw)
        return [out, kmask(out), kmask(L.Masking(mask_value=0.5)(raw)), lstm]

    def lambdas():
        x, _ = embedded()
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # (a Lambda without `mask` drops it)
            out = L.Lambda(lambda t, mask: t * tf.cast(tf.expand_dims(mask, -1), t.dtype)
                           + 1.0)(x)
        flipped = L.Lambda(lambda t: t * 2.0, mask=lambda t, m: tf.logical_not(m))(x)
        return [out, kmask(out), kmask(flipped)]

    def user_layers():
        x, _ = embedded()

        class Pass(L.Layer):
            def __init__(self):
                super().__init__()
                self.supports_masking = True

            def call(self, inputs):
                return inputs * 3.0

        class Own(L.Layer):
            def call(self, inputs):
                return inputs + 1.0

            def compute_mask(self, inputs, mask=None):
                if mask is None:
                    return tf.reduce_any(tf.not_equal(inputs, 0.0), axis=-1)
                return tf.logical_and(mask, inputs[..., 0] > 0)
        flags = [Pass().supports_masking, Own().supports_masking, L.Dense(2).supports_masking,
                 L.Flatten().supports_masking, L.Embedding(3, 2).supports_masking]
        return [np.array(flags), kmask(Pass()(x)), kmask(Own()(x)), kmask(Own()(plain))]

    def attention():
        tf.keras.utils.set_random_seed(4)
        emb = L.Embedding(6, 4, mask_zero=True)
        ids, other = tf.constant(IDS), tf.constant([[3, 1, 0, 0], [1, 2, 5, 0], [1, 1, 3, 2]])
        mha = L.MultiHeadAttention(2, 3)
        out, scores = mha(emb(ids), emb(other), return_attention_scores=True)
        values = [out, kmask(out), scores, mha(emb(ids), emb(other), use_causal_mask=True)]
        _, scores = mha(emb(ids), emb(other), return_attention_scores=True,
                        attention_mask=tf.constant(np.tril(np.ones((3, 5, 4), bool), 1)))
        values.append(scores)
        _, scores = mha(emb(ids), emb(other), return_attention_scores=True,
                        value_mask=tf.constant([[1, 1, 1, 1], [1, 0, 0, 1], [1, 1, 1, 0]]) > 0)
        values.append(scores)
        _, scores = mha(tf.identity(emb(ids)), emb(other), return_attention_scores=True,
                        query_mask=tf.constant(np.array([[1, 0, 1, 1, 1]] * 3, bool)))
        values.append(scores)  # (an explicit query_mask is not used: Keras 3)
        _, scores = mha(emb(ids), emb(other), emb(other * 0 + [[1, 0, 1, 1]]),
                        return_attention_scores=True)
        values.append(scores)
        q = emb(ids)
        out = mha(q, q)
        values += [out, kmask(out), kmask(q)]  # (the query's mask is removed)
        x, v = emb(ids), emb(other)
        out = L.Attention()([x, v])
        return values + [out, kmask(out)]

    def softmax():
        logits = tf.constant(np.linspace(-2, 2, 24).reshape(2, 3, 4).astype(np.float32))
        mask = tf.constant([[1, 1, 0, 0], [0, 0, 0, 0], [1, 0, 1, 1]], tf.float32)
        return [L.Softmax()(logits, mask=mask), L.Softmax(axis=(1, 2))(logits, mask=mask > 0)]

    cases = {f"merge_{cls}": merge(cls)
             for cls in ["Add", "Subtract", "Multiply", "Average", "Maximum", "Minimum"]}
    cases.update(concat_last=concatenate(-1), concat_time=concatenate(1),
                 batch_norm=batch_norm, time_distributed=time_distributed, masking=masking,
                 lambdas=lambdas, user_layers=user_layers, attention=attention,
                 softmax=softmax)
    return cases
# -- end cases --


# Recorded from TensorFlow 2.21 / Keras 3 with the cases above.
RNN = {
    'simple': [('float32', (3, 2), 0.1925172412302345, 0.16202039473185523), ('float32', (3, 5, 3), -1.4185415360843763, 1.03250545188344), ('float32', (3, 2), -0.031239472329616547, -0.03529822244001206), ('float32', (2, 2), -0.05325523763895035, 0.0009711941217663931), ('float32', (2,), 0.3653517961502075, -0.9571880310837122)],
    'simple_seq': [('float32', (3, 5, 2), 0.8969983980059624, 0.14136206695806364), ('float32', (3, 5, 3), -1.9342448711395264, 2.4389968675142795), ('float32', (3, 2), -0.5489111143397167, -0.05399163698230311), ('float32', (2, 2), 0.07478273287415504, 0.028276203887396795), ('float32', (2,), 1.237135410308838, -0.02454714354185347)],
    'simple_seq_zero': [('float32', (3, 5, 2), 0.5040963850915432, -0.002495846118351929), ('float32', (3, 5, 3), -1.455653604120016, 1.9368571630608031), ('float32', (3, 2), -0.5436030775308609, 0.097998040520488), ('float32', (2, 2), -0.007022645324468613, 0.017804805359267747), ('float32', (2,), 1.2229012846946716, 0.4873393429427219)],
    'lstm_seq_state': [('float32', (3, 5, 2), -0.037665922776795924, 0.0024914312736397494), ('float32', (3, 2), -0.01571344747208059, 0.00312878435636636), ('float32', (3, 2), -0.03159702569246292, 0.006179073552451074), ('float32', (3, 5, 3), -0.10480496659874916, 0.24912222921091945), ('float32', (3, 8), -0.4118577104200085, -0.029814252397807012), ('float32', (2, 8), 0.0007959050628869591, -0.0011361674666943021), ('float32', (8,), 5.601624227594584, -4.813152822780474)],
    'lstm_back': [('float32', (3, 5, 2), -0.04920481079898309, 0.00843657129629606), ('float32', (3, 5, 3), 0.010167618631385267, 0.16883724988966092), ('float32', (3, 8), 0.12171722883817893, 0.037270795641255836), ('float32', (2, 8), 0.0004701120217305288, 0.0006037506110464735), ('float32', (8,), -0.5535000226809643, 0.44249280825981924)],
    'gru_state': [('float32', (3, 2), -0.029893203638494015, 0.0006086598839041021), ('float32', (3, 2), -0.029893203638494015, 0.0006086598839041021), ('float32', (3, 5, 3), 0.10257673915475607, 0.21411867966506143), ('float32', (3, 6), -0.1702631944526729, 0.12311858589379522), ('float32', (2, 6), -0.008469587639410747, 0.004860258778943232), ('float32', (2, 6), 4.715191961964592, -3.743762904308353)],
    'gru_back_zero': [('float32', (3, 2), -0.0170784592628479, -0.0013369342952196715), ('float32', (3, 5, 3), 0.6061542693059891, 0.29401862731844886), ('float32', (3, 6), -0.13705164290240646, 0.10249005209992476), ('float32', (2, 6), -0.003950302687371732, 0.0031711147970809187), ('float32', (2, 6), 2.7754489737562835, -2.3208431976720156)],
    'rnn_cell': [('float32', (3, 5, 2), -0.1097588324919343, -0.008965258158837216), ('float32', (3, 5, 3), 0.3483362472616136, 0.35244619075788725), ('float32', (3, 6), -0.38855847144077416, 0.26768093256285735), ('float32', (2, 6), -0.0030768122965127986, 0.0001614910271527439), ('float32', (2, 6), 4.253821934456937, -3.3611168611944326)],
    'bi_concat': [('float32', (3, 5, 4), 0.03572444219025783, -0.02287185269327224), ('float32', (3, 5, 3), -0.3692339351400733, 0.019822677254612068), ('float32', (3, 8), -0.13685361312764144, -0.011585625514086675), ('float32', (2, 8), -0.003230394064758002, -0.002596166458233677), ('float32', (8,), 1.3498614109121263, -1.1432108861359476), ('float32', (3, 8), -0.0865609831889742, -0.020542362693823535), ('float32', (2, 8), -0.014312358819012161, 0.004746906312186569), ('float32', (8,), 0.3005691112484783, -0.20594103546345655)],
    'bi_sum': [('float32', (3, 2), -0.08713615499436855, -0.032323239162712056), ('float32', (3, 5, 3), 1.444088650867343, -1.3435509743835303), ('float32', (3, 6), -0.15997416848074408, 0.12274957724034452), ('float32', (2, 6), -0.0345344035731614, 0.0292228829821917), ('float32', (2, 6), 4.70545304089319, -3.863435152418354), ('float32', (3, 6), -0.15815372549241147, 0.121091580522585), ('float32', (2, 6), 0.0030049334665278593, -0.002538605458938396), ('float32', (2, 6), 4.616189417545684, -3.838858633417525)],
    'bi_none_state': [('float32', (3, 5, 2), -0.07516022119671106, -0.09370646259798478), ('float32', (3, 5, 2), -0.33953488495899364, -0.2211019684518907), ('float32', (3, 2), 0.0553672406822443, -0.07831764516156017), ('float32', (3, 2), -0.24176274024648592, 0.2032200460411367), ('float32', (3, 5, 3), 1.2598462998867035, -1.5489200862812582), ('float32', (3, 2), -0.48930773884058, 0.20803943050822665), ('float32', (2, 2), -0.06321235001087189, 0.09984081897383916), ('float32', (2,), -1.641318678855896, -2.7446836187930406), ('float32', (3, 2), -0.027529527433216572, 0.01590773033913676), ('float32', (2, 2), -0.38398152589797974, -0.1460911771964099), ('float32', (2,), -3.3049163222312927, -0.7484243104581592)],
}
RNN_MASKS = {
    'simple': [],
    'simple_seq': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'simple_seq_zero': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'lstm_seq_state': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'lstm_back': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'gru_state': [],
    'gru_back_zero': [],
    'rnn_cell': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'bi_concat': [('bool', (3, 5), 10.0, 3.4398295708236457)],
    'bi_sum': [],
    'bi_none_state': [('bool', (3, 5), 10.0, 3.4398295708236457), ('bool', (3, 5), 10.0, 3.4398295708236457)],
}
DROPOUT = {
    'lstm_drop': [('float32', (3, 5, 2), -0.03766592324245721, 0.0024914316233454374), ('float32', (3, 5, 2), 0.0363394400337711, 0.0008474938117864072), ('float32', (3, 5, 2), -0.005223503780143801, -0.00016870065499706668), ('float32', (3, 8), -0.5328073924392811, -0.1060498692075745), ('float32', (2, 8), 0.026640338046490797, 0.0202916555621199), ('float32', (8,), 11.750304454937577, -10.028536489903843)],
    'lstm_input_drop': [('float32', (3, 5, 2), -0.037665922776795924, 0.0024914312736397494), ('float32', (3, 5, 2), -0.02608281228458509, -0.0008304716625137146), ('float32', (3, 5, 2), 0.0003163584624417126, 0.007581839474739695), ('float32', (3, 8), -0.5434154847716854, -0.05181864405938104), ('float32', (2, 8), 0.01739543795792997, 0.008545860094394588), ('float32', (8,), 11.64885310921818, -9.915158851498825)],
    'gru_drop': [('float32', (3, 5, 2), -0.1097588324919343, -0.008965258158837216), ('float32', (3, 5, 2), -0.1560007914667949, -0.022562601029579014), ('float32', (3, 5, 2), -0.15978022816125304, -0.009484535831537674), ('float32', (3, 6), -1.434917870996287, 1.0576348252441796), ('float32', (2, 6), -0.049441692608525045, 0.028737135857036578), ('float32', (2, 6), 29.054312400519848, -23.7442741682319)],
    'gru_v1_drop': [('float32', (3, 5, 2), -0.10998927638866007, -0.008983754983714851), ('float32', (3, 5, 2), -0.15627713885623962, -0.0225380760445409), ('float32', (3, 5, 2), -0.16028546972665936, -0.009510189630981825), ('float32', (3, 6), -1.4367500384669256, 1.0606621689929072), ('float32', (2, 6), -0.04860473681401345, 0.028581838842519035), ('float32', (6,), 19.359168326482177, -16.46528382065479)],
    'simple_drop': [('float32', (3, 5, 2), -0.20087982062250376, -0.039227752108660974), ('float32', (3, 5, 2), -0.16219178412575275, -0.0027235343719562767), ('float32', (3, 5, 2), 0.016967037227004766, -0.14091650802051237), ('float32', (3, 2), -1.3019054885953665, 0.1425988683712192), ('float32', (2, 2), 0.19982250779867172, -0.07473509142799661), ('float32', (2,), 16.341781854629517, 15.477653811858254)],
    'unseeded': [('float32', (3, 2), -0.015713447937741876, 0.00312878393294175), ('float32', (3, 2), -0.013652129884576425, 0.0007041984430104444), ('float32', (3, 2), -0.0034337596443947405, 0.00736704851115847), ('float32', (3, 8), -0.0738212089472654, -0.005461791703574661), ('float32', (2, 8), -0.0027202887545172416, -0.006401622906257221), ('float32', (8,), 3.178610521950759, -2.695315441645738)],
}
TRAIN = {
    'lstm': [0.558572, 0.512223, 0.460347, 0.389447, 0.304851],
    'gru_seq_pool': [0.572598, 0.523284, 0.487783, 0.422068, 0.33704],
    'bi_lstm': [0.563345, 0.526351, 0.482887, 0.420949, 0.342027],
    'bi_gru_ave_lstm': [0.561328, 0.539775, 0.505479, 0.455364, 0.389283],
    'simple_back': [0.597655, 0.262268, 0.097151, 0.038454, 0.023285],
}
LAYERS = {
    'merge_Add': [('float32', (3, 5, 3), 0.31610105000436306, -0.07328279845975202), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'merge_Subtract': [('float32', (3, 5, 3), -0.07625725865364075, -0.3138548387133167), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'merge_Multiply': [('float32', (3, 5, 3), 0.23125556105514988, 0.13125734876899178), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'merge_Average': [('float32', (3, 5, 3), 0.15805052500218153, -0.03664139922987601), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'merge_Maximum': [('float32', (3, 5, 3), 0.5437981523573399, 0.05952333715051173), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'merge_Minimum': [('float32', (3, 5, 3), -0.10217634029686451, -0.0692753098012826), ('bool', (3, 5), 13.0, 1.6220350976696705), None],
    'concat_last': [('float32', (3, 5, 6), 0.31610105000436306, -0.06444463961850247), ('bool', (3, 5), 13.0, 1.6220350976696705), ('bool', (3, 5), 15.0, 1.2853996391883833)],
    'concat_time': [('float32', (3, 10, 3), 0.31610105000436306, -0.3273250426331435), ('bool', (3, 10), 20.0, 2.8452618510073235), ('bool', (3, 10), 25.0, 2.437350344141419)],
    'batch_norm': [('float32', (3, 5, 3), -2.6343006044626236, -3.7582879177999633), ('bool', (3, 5), 10.0, 3.4398295708236457), ('float32', (3,), 0.007072796463035047, -0.004186242159956349), ('float32', (3,), 1.5012076497077942, 0.8762677993504386), ('float32', (3, 5, 3), 0.019555183593183756, -0.26307694682087274), ('float32', (3, 5, 3), -7.045455276966095e-06, 499.630696252993), ('float32', (3,), -3.7582870721817017, -4.214801023582264), ('float32', (3,), 0.00899440050125122, 0.37944335679960545)],
    'time_distributed': [('float32', (3, 5, 2), 0.06544333999045193, 0.05533575057750991), ('bool', (3, 5), 10.0, 3.4398295708236457), ('float32', (3, 5, 2, 3), 0.11992189846932888, -0.15177617859035758)],
    'masking': [('float32', (2, 5, 3), -2.2068965435028076, -2.1690364044098804), ('bool', (2, 5), 7.0, -0.2877382345656546), ('bool', (2, 5), 10.0, 1.9552094821073802), ('float32', (2, 5, 2), 0.025527754216454923, -0.007534632533496169)],
    'lambdas': [('float32', (3, 5, 3), 45.14145612716675, -0.19702440131204602), None, ('bool', (3, 5), 5.0, -2.1544299316352618)],
    'user_layers': [('bool', (5,), 3.0, 1.7507684116335782), ('bool', (3, 5), 10.0, 3.4398295708236457), ('bool', (3, 5), 8.0, 3.9764024888240805), ('bool', (3, 5), 15.0, 1.2853996391883833)],
    'attention': [('float32', (3, 5, 4), 0.2800175298471004, -0.05468444881540045), ('bool', (3, 5), 10.0, 3.4398295708236457), ('float32', (3, 2, 5, 4), 20.000000163912773, 2.1295450612754223), ('float32', (3, 5, 4), 0.37789536502896226, -0.02797858511608054), ('float32', (3, 2, 5, 4), 20.000000193715096, 0.9852663710364044), ('float32', (3, 2, 5, 4), 19.999999850988388, 1.0011422377396006), ('float32', (3, 2, 5, 4), 30.000000432133675, -0.26783921119618015), ('float32', (3, 2, 5, 4), 20.000000178813934, 1.712894579413476), ('float32', (3, 5, 4), 0.4146826557989698, -0.0069040504300171834), ('bool', (3, 5), 10.0, 3.4398295708236457), None, ('float32', (3, 5, 4), 0.11469899921212345, -0.004594826226154046), ('bool', (3, 5), 10.0, 3.4398295708236457)],
    'softmax': [('float32', (2, 3, 4), 3.999999850988388, -0.04506170808271193), ('float32', (2, 3, 4), 1.999999850988388, -0.37698677710149703)],
}


def _close(got, expected):
    if expected is None or got is None:
        assert got is expected
        return
    dtype, shape, total, weighted = got
    assert (dtype, tuple(shape)) == (expected[0], tuple(expected[1]))
    size = max(int(np.prod(shape)), 1)
    tol = 2e-5 * max(1.0, abs(expected[2]) / size) * np.sqrt(size)
    assert total == pytest.approx(expected[2], rel=1e-4, abs=tol)
    assert weighted == pytest.approx(expected[3], rel=1e-4, abs=tol)


@pytest.mark.parametrize("name", sorted(RNN))
@pytest.mark.parametrize("staged", [False, True], ids=["eager", "function"])
def test_recurrent_layers_use_masks_as_tensorflow(name, staged):
    values, masks = run_rnn(tf, np, get_keras_mask, name, staged)
    assert len(values) == len(RNN[name])
    for got, expected in zip(values, RNN[name]):
        _close(got, expected)
    if not staged:
        assert len(masks) == len(RNN_MASKS[name])
        for got, expected in zip(masks, RNN_MASKS[name]):
            _close(got, expected)


@pytest.mark.parametrize("name", sorted(DROPOUT))
def test_recurrent_dropout_with_masks_draws_tensorflows_masks(name):
    values = run_dropout(tf, np, name)
    assert len(values) == len(DROPOUT[name])
    for got, expected in zip(values, DROPOUT[name]):
        _close(got, expected)


@pytest.mark.parametrize("name", sorted(TRAIN))
def test_masked_training_loops_give_tensorflows_losses(name):
    np.testing.assert_allclose(train(tf, np, name), TRAIN[name], rtol=1e-4, atol=2e-5)


def test_masked_training_loop_eagerly():
    np.testing.assert_allclose(train(tf, np, "lstm", staged=False), TRAIN["lstm"], rtol=1e-4,
                               atol=2e-5)


@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers_use_and_pass_masks_as_tensorflow(name):
    values = [fingerprint(np, v) for v in layer_cases(tf, np, get_keras_mask)[name]()]
    assert len(values) == len(LAYERS[name])
    for got, expected in zip(values, LAYERS[name]):
        _close(got, expected)


def test_layers_that_cannot_use_a_mask_drop_it_with_keras_warning():
    # TensorFlow 2.21 / Keras 3: Flatten, GlobalMaxPooling1D, Conv1D (and a Sequential model
    # given a masked input) warn that they destroy the mask; their outputs carry none.
    L = tf.keras.layers
    x = L.Embedding(6, 3, mask_zero=True)(tf.constant(IDS))
    for layer in [L.Flatten(), L.GlobalMaxPooling1D(), L.Conv1D(2, 2),
                  tf.keras.Sequential([L.Dense(2)])]:
        with pytest.warns(UserWarning, match=f"Layer '{layer.name}' \\(of type "
                          f"{type(layer).__name__}\\) was passed an input with a mask "
                          "attached to it. However, this layer does not support masking"):
            out = layer(x)
        assert get_keras_mask(out) is None or isinstance(layer, tf.keras.Sequential)
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # (a wrapped layer drops the mask quietly, as Keras's)
        L.TimeDistributed(L.Flatten())(tf.reshape(x, [3, 5, 3, 1]), mask=x[..., 0] > 0)


def test_an_rnn_given_initial_state_gets_no_mask_from_its_input():
    # Keras 3 fills `mask` in only when the call has one tensor argument: with an
    # initial_state the masked steps run (TensorFlow 2.21 values); the output keeps the mask.
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(4)
    x = L.Embedding(6, 3, mask_zero=True)(tf.constant([[3, 1, 2, 0, 0], [4, 2, 4, 5, 1]]))
    gru = L.GRU(2, return_sequences=True)
    h = tf.fill([2, 2], 0.3)
    out = gru(x, initial_state=h)
    np.testing.assert_allclose(out.numpy()[0, 2:], [[0.04903, 0.00259], [0.01745, 0.00091],
                                                    [0.00494, 0.00337]], atol=2e-5)
    assert get_keras_mask(out).numpy().tolist() == [[True, True, True, False, False],
                                                    [True] * 5]
    explicit = gru(x, initial_state=h, mask=get_keras_mask(x)).numpy()
    np.testing.assert_allclose(explicit[0, 2:], [[0.04903, 0.00259]] * 3, atol=2e-5)


def test_masked_layers_agree_eagerly_staged_and_compiled():
    from tests.staging import assert_same
    L = tf.keras.layers
    tf.keras.utils.set_random_seed(1)
    emb = L.Embedding(6, 3, mask_zero=True)
    rnn = L.Bidirectional(L.LSTM(2, return_sequences=True, go_backwards=True))
    mha, bn = L.MultiHeadAttention(2, 2), L.BatchNormalization()

    def f(ids):
        y = rnn(emb(ids))
        return bn(mha(y, y, use_causal_mask=True), training=True), L.Maximum()([y, y * 2.0])
    ids = np.array(IDS, np.int32)
    eager = assert_same(f, ids, rtol=1e-5)
    compiled = tf.function(f, jit_compile=True)(tf.constant(ids))
    for a, b in zip(eager, compiled):
        np.testing.assert_allclose(a, b.numpy(), rtol=1e-5, atol=1e-6)


def test_mask_errors_are_kerass():
    # TensorFlow 2.21 / Keras 3 error types and messages.
    L = tf.keras.layers
    x = tf.ones([2, 5, 3])
    with pytest.raises(ValueError, match=r"The mask provided should be one dimension less "
                       r"than the inputs. Received: mask.shape=\(2, 5, 3\), "
                       r"inputs.shape=\(2, 5, 3\)"):
        L.BatchNormalization()(x, training=True, mask=tf.ones([2, 5, 3], tf.bool))
    with pytest.raises(ValueError, match=r"must be at least 2D \(e.g., `\(batch_size, "
                       r"timesteps\)`\), but it has 1 dimension\(s\) with shape \(2,\)."):
        L.TimeDistributed(L.Dense(2))(x, mask=tf.ones([2], tf.bool))
    with pytest.raises(ValueError, match=r"has a shape \(2, 4\) that is incompatible with "
                       r"the input shape \(2, 5, 3\).*Expected mask shape prefix: \(2, 5\)."):
        L.TimeDistributed(L.Dense(2))(x, mask=tf.ones([2, 4], tf.bool))
    with pytest.raises(ValueError, match="Each mask dimension must be 1 or match the "
                       r"corresponding input dimension. Received: inputs.shape=\(2, 5, 3\), "
                       r"mask.shape=\(2, 4\)"):
        L.Softmax()(x, mask=tf.ones([2, 4], tf.bool))
    with pytest.raises(ValueError, match="must not have more dimensions"):
        L.Softmax()(x, mask=tf.ones([1, 2, 5, 3], tf.bool))
    with pytest.raises(ValueError, match="`mask` should be a list. Received: mask="):
        L.Add().compute_mask([x, x], tf.ones([2, 5], tf.bool))
    with pytest.raises(ValueError, match="The lists `inputs` and `mask` should have the same "
                       "length."):
        L.Concatenate().compute_mask([x, x], [None])
    with pytest.raises(ValueError, match="`inputs` should be a list. Received: inputs="):
        L.Concatenate().compute_mask(x, [None])
    assert L.Add().compute_mask([x, x], [None, tf.ones([2, 5], tf.bool)]) is None
    assert L.Concatenate().compute_mask([x, x], [None, None]) is None
    assert L.LSTM(2, return_state=True).compute_mask(x, tf.ones([2, 5], tf.bool)) == \
        [None, None, None]
    assert L.LSTM(2, zero_output_for_mask=True).get_config()["zero_output_for_mask"] is True
    assert L.Masking(0.5).get_config()["mask_value"] == 0.5


def test_tensors_expose_their_keras_mask_as_keras_code_reads_it():
    ids = tf.constant([[3, 0]])
    emb = tf.keras.layers.Embedding(4, 2, mask_zero=True)(ids)
    assert emb._keras_mask.numpy().tolist() == [[True, False]]
    assert tf.constant([1.0])._keras_mask is None
