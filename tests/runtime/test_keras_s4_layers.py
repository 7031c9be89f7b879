"""Keras layers for training loops (convolutions and transposes, 1-D/global pooling,
activation, merging and reshaping layers, Attention, MultiHeadAttention): with the same
weights, outputs and gradients (inputs and weights) equal to TensorFlow 2.21 / Keras 3
(recorded from TensorFlow as literals), eagerly and inside a tf.function."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_image_s4 import _check, fingerprint  # noqa: F401

# -- layer cases --
def layer_cases(L, np):
    """name -> (make layer, inputs): inputs is one array or a list (merging layers)."""
    rng = np.random.default_rng(21)
    seq = rng.uniform(-1, 1, size=(2, 6, 3)).astype(np.float32)
    img = rng.uniform(-1, 1, size=(2, 5, 5, 2)).astype(np.float32)
    a, b, c = (rng.uniform(-1, 1, size=(2, 4)).astype(np.float32) for _ in range(3))
    q = rng.uniform(-1, 1, size=(2, 4, 5)).astype(np.float32)
    v = rng.uniform(-1, 1, size=(2, 3, 6)).astype(np.float32)
    return {
        "conv1d": (lambda: L.Conv1D(4, 3, strides=2, padding="same", activation="relu"), seq),
        "conv1d_causal": (lambda: L.Conv1D(2, 2, padding="causal", dilation_rate=2), seq),
        "conv2d_transpose": (lambda: L.Conv2DTranspose(3, 3, strides=2), img),
        "conv2d_transpose_same": (lambda: L.Conv2DTranspose(2, (2, 3), strides=(2, 1),
                                                            padding="same"), img),
        "conv2d_transpose_outpad": (lambda: L.Conv2DTranspose(2, 3, strides=2,
                                                              output_padding=1), img),
        "conv1d_transpose": (lambda: L.Conv1DTranspose(2, 3, strides=2, padding="same"), seq),
        "max_pool1d": (lambda: L.MaxPooling1D(2), seq),
        "avg_pool1d": (lambda: L.AveragePooling1D(3, strides=2, padding="same"), seq),
        "global_max1d": (lambda: L.GlobalMaxPooling1D(), seq),
        "global_avg1d": (lambda: L.GlobalAveragePooling1D(keepdims=True), seq),
        "global_max2d": (lambda: L.GlobalMaxPooling2D(), img),
        "leaky_relu": (lambda: L.LeakyReLU(), img),
        "prelu": (lambda: L.PReLU(shared_axes=[1, 2]), img),
        "elu": (lambda: L.ELU(0.5), img),
        "relu": (lambda: L.ReLU(max_value=0.6, negative_slope=0.1, threshold=0.2), img),
        "softmax": (lambda: L.Softmax(axis=1), seq),
        "softmax_axes": (lambda: L.Softmax(axis=(1, 2)), seq),
        "add": (lambda: L.Add(), [a, b, c]),
        "subtract": (lambda: L.Subtract(), [a, b]),
        "multiply": (lambda: L.Multiply(), [a, b, c]),
        "average": (lambda: L.Average(), [a, b]),
        "maximum": (lambda: L.Maximum(), [a, b, c]),
        "minimum": (lambda: L.Minimum(), [a, b]),
        "concatenate": (lambda: L.Concatenate(axis=0), [a, b]),
        "attention": (lambda: L.Attention(), [q, q]),
        "attention_scale_key": (lambda: L.Attention(use_scale=True), [q, q[:, :3], q[:, 1:]]),
        "attention_concat": (lambda: L.Attention(score_mode="concat", use_scale=True), [q, q]),
        "mha": (lambda: L.MultiHeadAttention(2, 3), (q, v)),
        "zero_padding2d": (lambda: L.ZeroPadding2D(((1, 2), (0, 3))), img),
        "zero_padding1d": (lambda: L.ZeroPadding1D(2), seq),
        "cropping2d": (lambda: L.Cropping2D(((1, 0), (2, 1))), img),
        "cropping1d": (lambda: L.Cropping1D((0, 2)), seq),
        "upsampling2d": (lambda: L.UpSampling2D((2, 3)), img),
        "upsampling2d_bilinear": (lambda: L.UpSampling2D(2, interpolation="bilinear"), img),
        "upsampling1d": (lambda: L.UpSampling1D(3), seq),
        "repeat_vector": (lambda: L.RepeatVector(3), a),
        "permute": (lambda: L.Permute((2, 1)), seq),
        "rescaling": (lambda: L.Rescaling(1 / 127.5, offset=-1), img),
        "mha_key_value": (lambda: L.MultiHeadAttention(3, 2, value_dim=4, output_shape=7),
                          (q, v, v[:, ::-1])),
    }


def layer_weights(np, layer):
    rng = np.random.default_rng(22)
    return [rng.uniform(-0.7, 0.7, size=w.shape).astype(np.float32) for w in layer.weights]
# -- end layer cases --


# Recorded from TensorFlow 2.21: (output, gradients wrt the inputs + trainable weights).
LAYERS = {
    'conv1d': (('float32', (2, 3, 4), 1.24735626578331, -0.18490548982088711),
               [('float32', (2, 6, 3), 1.0290974576491863, -0.33842412960542145),
                ('float32', (3, 3, 4), 0.12237844988703728, -0.6605137452289224),
                ('float32', (4,), 0.04042065143585205, -0.5711872705411103)]),
    'conv1d_causal': (('float32', (2, 6, 2), 1.3388910368084908, 3.7465384757584226),
                      [('float32', (2, 6, 3), -0.23789630085229874, 0.05732421211422826),
                       ('float32', (2, 3, 2), 2.3065970838069916, -3.8093645760346995),
                       ('float32', (2,), 0.9798056483268738, 0.28791032792848853)]),
    'conv2d_transpose': (('float32', (2, 11, 11, 3), 240.14937133714557, 0.3592627612990743),
                         [('float32', (2, 5, 5, 2), -5.217395734973252, -7.007226931091215),
                          ('float32', (3, 3, 3, 2), -6.620703935623169, 5.327026291782394),
                          ('float32', (3,), 1.9357008337974548, 1.5029868056017273)]),
    'conv2d_transpose_same': (('float32',
                               (2, 10, 5, 2),
                               -0.0977969616651535,
                               -3.2652373621643025),
                              [('float32',
                                (2, 5, 5, 2),
                                -0.8952959033194929,
                                0.43039992322379617),
                               ('float32', (2, 3, 2, 2), -7.395875930786133, 0.8814639047350706),
                               ('float32', (2,), 0.9059965014457703, 0.2564058532264695)]),
    'conv2d_transpose_outpad': (('float32',
                                 (2, 12, 12, 2),
                                 -210.6857390254736,
                                 14.982519424054217),
                                [('float32',
                                  (2, 5, 5, 2),
                                  -0.8324205614626408,
                                  -0.09959314166005884),
                                 ('float32',
                                  (3, 3, 2, 2),
                                  -0.2764768600463867,
                                  1.5313577259944446),
                                 ('float32', (2,), 1.782687246799469, 0.7318873639937419)]),
    'conv1d_transpose': (('float32', (2, 12, 2), 8.228838950395584, 2.2250947654985502),
                         [('float32', (2, 6, 3), 0.30411927960813046, 3.3700076574311035),
                          ('float32', (3, 2, 3), -0.7116578817367554, -1.3418923045254794),
                          ('float32', (2,), 1.8852590322494507, 0.8200718561906567)]),
    'max_pool1d': (('float32', (2, 3, 3), 6.057493153959513, 1.629115765375715),
                   [('float32', (2, 6, 3), 0.6863866299390793, -3.402741774159418)]),
    'avg_pool1d': (('float32', (2, 3, 3), 1.0440678298473358, 0.4958866021298386),
                   [('float32', (2, 6, 3), 0.6863865405321121, -0.05067728691348846)]),
    'global_max1d': (('float32', (2, 3), 3.743799865245819, 0.6424707457385264),
                     [('float32', (2, 6, 3), 0.17616157233715057, -2.7464009200872703)]),
    'global_avg1d': (('float32', (2, 1, 3), 0.22710610926151276, 0.4658864561672121),
                     [('float32', (2, 6, 3), 0.17616145312786102, -0.05215782103116028)]),
    'global_max2d': (('float32', (2, 2), 3.68468976020813, 1.8287507001451517),
                     [('float32', (2, 5, 5, 2), 1.891888365149498, 1.3589278298764853)]),
    'leaky_relu': (('float32', (2, 5, 5, 2), 19.93184314109385, 7.506691873118398),
                   [('float32', (2, 5, 5, 2), 6.872065289877355, 34.64213449562098)]),
    'prelu': (('float32', (2, 5, 5, 2), 36.65610814653337, 4.8708512398041846),
              [('float32', (2, 5, 5, 2), 12.85128358087968, 20.422349675918724),
               ('float32', (1, 1, 2), 3.9163732528686523, 2.61976954397064)]),
    'elu': (('float32', (2, 5, 5, 2), 18.411937445402145, 7.783825248660826),
            [('float32', (2, 5, 5, 2), 6.4690048502525315, 34.77917635373021)]),
    'relu': (('float32', (2, 5, 5, 2), 18.891684758127667, 5.364528097389783),
             [('float32', (2, 5, 5, 2), 1.1124157968442887, 16.121898144680646)]),
    'softmax': (('float32', (2, 6, 3), 5.99999987334013, 0.5055437084026735),
                [('float32', (2, 6, 3), 1.641456037759781e-08, 2.8201368799600193)]),
    'softmax_axes': (('float32', (2, 6, 3), 2.00000037252903, 0.1500570953933641),
                     [('float32', (2, 6, 3), -1.8510036170482635e-08, 1.0860141610388052)]),
    'add': (('float32', (2, 4), -1.9587534666061401, -1.672008901224383),
            [('float32', (2, 4), 0.5537326782941818, 3.5568002509079424),
             ('float32', (2, 4), 0.5537326782941818, 3.5568002509079424),
             ('float32', (2, 4), 0.5537326782941818, 3.5568002509079424)]),
    'subtract': (('float32', (2, 4), 3.2260824143886566, -0.767735781060425),
                 [('float32', (2, 4), 0.5537326782941818, 3.5568002509079424),
                  ('float32', (2, 4), -0.5537326782941818, -3.5568002509079424)]),
    'multiply': (('float32', (2, 4), -0.024194746743887663, -0.23491604717591733),
                 [('float32', (2, 4), 0.6534141879528761, -0.028100598593265094),
                  ('float32', (2, 4), 0.4969872757792473, 0.9135927044357772),
                  ('float32', (2, 4), 0.37134717032313347, 0.06535005627728334)]),
    'average': (('float32', (2, 4), -1.7185579538345337, -0.22755320392590864),
                [('float32', (2, 4), 0.2768663391470909, 1.7784001254539712),
                 ('float32', (2, 4), 0.2768663391470909, 1.7784001254539712)]),
    'maximum': (('float32', (2, 4), 3.5990466624498367, -1.004428891843895),
                [('float32', (2, 4), 0.5620554685592651, 0.7861464125596744),
                 ('float32', (2, 4), 0.14112000167369843, 0.019914855773600797),
                 ('float32', (2, 4), -0.14944279193878174, 2.7507389825746666)]),
    'minimum': (('float32', (2, 4), -4.491259753704071, -0.007336584488700504),
                [('float32', (2, 4), 0.14112000167369843, 0.019914855773600797),
                 ('float32', (2, 4), 0.4126126766204834, 3.5368853951343415)]),
    'concatenate': (('float32', (4, 4), -3.437115903943777, -3.0261560869673536),
                    [('float32', (2, 4), 0.5537326782941818, 3.5568002509079424),
                     ('float32', (2, 4), 1.3819547295570374, -0.13539915630177435)]),
    'attention': (('float32', (2, 4, 5), -3.8115675777662545, -1.689639816643618),
                  [('float32', (2, 4, 5), 0.2776970830745995, 1.286004751989358),
                   ('float32', (2, 4, 5), 1.153097677975893, 11.558184047118083)]),
    'attention_scale_key': (('float32', (2, 4, 5), -5.322118089534342, -1.2076234813058773),
                            [('float32', (2, 4, 5), -0.026243055138820637, 0.03683897462936207),
                             ('float32', (2, 3, 5), 1.1530982702970505, 0.8885747304940391),
                             ('float32',
                              (2, 3, 5),
                              -7.741618901491165e-09,
                              -0.11801295588290713),
                             ('float32', (), 0.33881694078445435, 0.0)]),
    'attention_concat': (('float32', (2, 4, 5), -0.40875071892514825, -0.7086732940612022),
                         [('float32', (2, 4, 5), 0.006220803712494671, 0.004706045414319545),
                          ('float32', (2, 4, 5), 1.1593190338462591, 1.0954197088809259),
                          ('float32', (), -0.3142855167388916, 0.0),
                          ('float32', (), -0.15998825430870056, 0.0)]),
    'mha': (('float32', (2, 4, 5), -0.2373892366886139, 0.36606493067476126),
            [('float32', (2, 4, 5), -0.09769511839840561, 0.6327057029967033),
             ('float32', (2, 3, 6), -1.3606947679072618, 3.174673910470306),
             ('float32', (5, 2, 3), -0.2462470969185233, -0.6752619301571382),
             ('float32', (2, 3), -0.20735323801636696, -0.0018521932774919405),
             ('float32', (6, 2, 3), -1.8695466695353389, 0.34424569769775415),
             ('float32', (2, 3), 8.195638656616211e-08, 1.124449149635953e-08),
             ('float32', (6, 2, 3), 0.843338256701827, -0.6218930429101304),
             ('float32', (2, 3), -4.231513127684593, 1.478183677088561),
             ('float32', (2, 3, 5), 0.7266927510499954, 0.2519725003478432),
             ('float32', (5,), 1.1530981063842773, 0.0704202773401475)]),
    'zero_padding2d': (('float32', (2, 8, 8, 2), 1.6720833145081997, -1.5988640497210005),
                       [('float32', (2, 5, 5, 2), 0.30472285207360983, -6.930089781863987)]),
    'zero_padding1d': (('float32', (2, 10, 3), 1.3626364287920296, 0.5452423156094446),
                       [('float32', (2, 6, 3), 1.2290520193055272, 14.208717642214564)]),
    'cropping2d': (('float32', (2, 4, 2, 2), 0.9643924683332443, -0.4804614641068625),
                   [('float32', (2, 5, 5, 2), -0.12398733664304018, -2.789583746918767)]),
    'cropping1d': (('float32', (2, 4, 3), 0.7814203090965748, 1.886104755950859),
                   [('float32', (2, 6, 3), 0.9798057479783893, 11.447639115187899)]),
    'upsampling2d': (('float32', (2, 10, 15, 2), 10.032499887049198, -1.4296442364641153),
                     [('float32', (2, 5, 5, 2), 1.807502880692482, 0.6265231700335896)]),
    'upsampling2d_bilinear': (('float32', (2, 10, 10, 2), 6.688333410769701, 4.894983696666669),
                              [('float32', (2, 5, 5, 2), 1.8214770052582026, -8.726256556185305)]),
    'upsampling1d': (('float32', (2, 18, 3), 4.087909286376089, -3.413479499551794),
                     [('float32', (2, 6, 3), 0.10815166682004929, -1.2989085192460463)]),
    'repeat_vector': (('float32', (2, 3, 4), -0.3165503181517124, 0.08487383206336005),
                      [('float32', (2, 4), 0.9798057526350021, -0.14744675392763187)]),
    'permute': (('float32', (2, 3, 6), 1.3626364287920296, -0.7062579701570961),
                [('float32', (2, 6, 3), 1.528251270763576, -1.4034976570840767)]),
    'rescaling': (('float32', (2, 5, 5, 2), -99.98688519001007, -0.29881706617986775),
                  [('float32', (2, 5, 5, 2), 0.002974075177917257, 0.39225085859232467)]),
    'mha_key_value': (('float32', (2, 4, 7), -0.24638208746910095, -1.713822132353873),
                      [('float32', (2, 4, 5), 0.1885753902606666, -0.30595912321118784),
                       ('float32', (2, 3, 6), 2.0531710907816887, 3.375191687513096),
                       ('float32', (2, 3, 6), 8.172355592250824e-08, 0.13744316650898003),
                       ('float32', (5, 3, 2), -0.9101432596798986, 0.8831677008807057),
                       ('float32', (3, 2), -0.4727536737918854, 1.3985371626675471),
                       ('float32', (6, 3, 2), -1.107392990263179, 0.49020554649392695),
                       ('float32', (3, 2), 1.183943822979927e-07, -7.753817374506717e-08),
                       ('float32', (6, 3, 4), -0.06782008707523346, -2.7439508669477757),
                       ('float32', (3, 4), 0.36117202043533325, 0.6874074337121685),
                       ('float32', (3, 4, 7), 5.051787286996841, 24.248349708308208),
                       ('float32', (7,), 0.3951146900653839, -1.9961101328035213)]),
}

CASES = layer_cases(tf.keras.layers, np)


def _call(layer, inputs):
    return layer(*inputs) if isinstance(inputs, tuple) else layer(inputs)


def _run(layer, inputs):
    with tf.GradientTape() as tape:
        tape.watch(inputs)
        out = _call(layer, inputs)
        weights = np.sin(np.arange(np.prod(out.shape))).reshape(out.shape).astype(np.float32)
        loss = tf.reduce_sum(out * weights)
    return out, tape.gradient(loss, tf.nest.flatten(inputs) + layer.trainable_weights)


@pytest.mark.parametrize("staged", [False, True])
@pytest.mark.parametrize("name", sorted(LAYERS))
def test_layers_match_tensorflow(name, staged):
    make, inputs = CASES[name]
    layer = make()
    _call(layer, inputs)
    layer.set_weights(layer_weights(np, layer))
    run = tf.function(_run) if staged else _run
    out, grads = run(layer, tf.nest.map_structure(tf.constant, inputs))
    expected_out, expected_grads = LAYERS[name]
    _check(out.numpy(), expected_out)
    assert len(grads) == len(expected_grads)
    for got, expected in zip(grads, expected_grads):
        _check(got.numpy(), expected)


def test_masks_scores_and_training_only_layers():
    q = np.random.default_rng(0).uniform(size=(2, 4, 5)).astype(np.float32)
    mha = tf.keras.layers.MultiHeadAttention(2, 3)
    out, scores = mha(q, q, return_attention_scores=True, use_causal_mask=True)
    assert out.shape.as_list() == [2, 4, 5] and scores.shape.as_list() == [2, 2, 4, 4]
    assert np.allclose(np.triu(scores.numpy(), k=1), 0)  # no attention to the future
    assert np.allclose(scores.numpy().sum(-1), 1, atol=1e-6)
    mask = np.array([[1, 1, 0, 0], [1, 1, 1, 1]], bool)
    _, w = tf.keras.layers.Attention()([q, q], mask=[None, mask], return_attention_scores=True)
    assert np.allclose(w.numpy()[0, :, 2:], 0)
    tf.random.set_seed(1)
    noise = tf.keras.layers.GaussianNoise(0.5)
    assert np.array_equal(noise(q).numpy(), q) and not np.allclose(noise(q, training=True), q)
    drop = tf.keras.layers.GaussianDropout(0.3)
    assert np.array_equal(drop(q).numpy(), q) and not np.allclose(drop(q, training=True), q)
    assert np.array_equal(tf.keras.layers.Identity()(q).numpy(), q)
    double = tf.keras.layers.Lambda(lambda x, k: x * k, arguments={"k": 2.0})
    np.testing.assert_allclose(double(q).numpy(), 2 * q)
    np.testing.assert_allclose(tf.keras.layers.add([q, q]).numpy(), 2 * q)
    assert tf.keras.layers.concatenate([q, q], axis=1).shape.as_list() == [2, 8, 5]
    with pytest.raises(ValueError, match="at least 2 inputs"):
        tf.keras.layers.Add()([q])
    with pytest.raises(ValueError, match="padding"):
        tf.keras.layers.Conv2D(2, 3, padding="causal")
