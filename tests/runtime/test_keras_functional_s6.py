"""The Keras functional API: tf.keras.Input -> layers -> tf.keras.Model(inputs, outputs).

Values, names and orders are TensorFlow 2.21's (Keras 3), recorded from it as literals by the
programs in /tmp/tfcheck_functional/ (seeded with tf.keras.utils.set_random_seed).
"""
import numpy as np
import pytest

import autograph as tf
from tests.staging import assert_same

K = tf.keras


def _guide_model():
    """The model of Keras's guide "Writing a training loop from scratch", smaller."""
    inputs = K.Input(shape=(20,), name="digits")
    x1 = K.layers.Dense(16, activation="relu")(inputs)
    x2 = K.layers.Dense(16, activation="relu")(x1)
    outputs = K.layers.Dense(10, name="predictions")(x2)
    return inputs, outputs, K.Model(inputs=inputs, outputs=outputs)


def test_guide_training_loop_matches_tensorflow():
    K.utils.set_random_seed(7)
    inputs, outputs, model = _guide_model()
    assert type(model).__name__ == "Functional" and model.name.startswith("functional")
    assert [type(l).__name__ for l in model.layers] == ["InputLayer", "Dense", "Dense", "Dense"]
    assert model.layers[0].name == "digits" and model.layers[-1].name == "predictions"
    assert [v.name for v in model.trainable_variables] == ["kernel", "bias"] * 3
    assert model.trainable_variables[-1].path == "predictions/bias"
    assert model.inputs == [inputs] and model.outputs == [outputs]
    assert inputs.shape == (None, 20) and outputs.shape == (None, 10)
    assert outputs.dtype == "float32"
    x = tf.random.stateless_uniform((64, 20), seed=(1, 2))
    y = tf.random.stateless_uniform((64,), seed=(3, 4), maxval=10, dtype=tf.int32)
    opt = K.optimizers.SGD(learning_rate=1e-1)
    loss_fn = K.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function
    def step(xb, yb):
        with tf.GradientTape() as tape:
            loss = loss_fn(yb, model(xb, training=True))
        grads = tape.gradient(loss, model.trainable_weights)
        opt.apply_gradients(zip(grads, model.trainable_weights))
        return loss
    losses = [float(step(x[i:i + 16], y[i:i + 16])) for _ in range(2) for i in range(0, 64, 16)]
    np.testing.assert_allclose(losses, [2.298004, 2.365245, 2.310788, 2.290275,
                                        2.279798, 2.342477, 2.282446, 2.256242], atol=3e-6)
    np.testing.assert_allclose(model(x[:1]).numpy(), [[
        -0.208781, -0.112754, -0.069451, 0.317619, -0.194964, 0.189445, 0.135322, 0.09823,
        0.162108, -0.177991]], atol=2e-6)


def _recorded_program():
    """The models of /tmp/tfcheck_functional/feat.py, made in its order (its weights)."""
    K.utils.set_random_seed(3)
    a = K.Input(shape=(4,))
    b = K.Input(shape=(3,), name="b")
    shared = K.layers.Dense(5, name="shared")
    ha = shared(a)
    hb = shared(K.layers.Dense(4)(b))  # a layer called twice: one set of weights
    s2 = (ha + hb) * 2.0
    c = K.layers.Concatenate()([s2, ha[:, 0:2]])
    d = K.layers.Dropout(0.5)(c, training=False)
    o1 = K.layers.Dense(1, name="o1")(d)
    multi = K.Model([a, b], [o1, ha[:, 0]], name="multi")
    p, q = K.Input(shape=(2,), name="p"), K.Input(shape=(2,), name="q")
    md = K.Model({"p": p, "q": q}, {"sum": K.layers.Add()([p, q]), "pd": K.layers.Dense(2)(p)})
    inner_in = K.Input(shape=(3,))
    inner = K.Model(inner_in, K.layers.Dense(2, activation="tanh")(inner_in), name="inner")
    oi = K.Input(shape=(3,))
    outer = K.Model(oi, K.layers.Dense(1)(inner(oi)))
    ti = K.Input(shape=(None,), dtype="int32")
    e = K.layers.Embedding(10, 3, mask_zero=True)(ti)
    masked = K.Model(ti, K.layers.GlobalAveragePooling1D()(e))
    return {"a": a, "b": b, "o1": o1, "multi": multi, "p": p, "q": q, "dict": md,
            "inner": inner, "outer": outer, "embedded": e, "masked": masked}


def test_multiple_inputs_outputs_shared_layers_and_operators():
    r = _recorded_program()
    a, b, o1, m = r["a"], r["b"], r["o1"], r["multi"]
    assert a.name.startswith("keras_tensor") and b.name == "b"
    assert [l.name.split("_")[0] for l in m.layers] == \
        ["b", "input", "dense", "shared", "concatenate", "dropout", "o1"]
    assert m.layers[3] is m.get_layer("shared")
    assert [v.path.split("/")[0] for v in m.trainable_variables][2:] == \
        ["shared", "shared", "o1", "o1"]
    assert m.name == "multi" and m.output_names[0] == "o1"
    assert m.output_names[1].startswith("get_item")
    assert m.outputs[1].shape == (None,) and o1.shape == (None, 1)
    xa = tf.random.stateless_uniform((2, 4), seed=(1, 1))
    xb = tf.random.stateless_uniform((2, 3), seed=(1, 2))
    r = m([xa, xb])
    assert isinstance(r, list) and len(r) == 2
    np.testing.assert_allclose(r[0].numpy(), [[0.12392], [-0.33528]], atol=1e-5)
    np.testing.assert_allclose(r[1].numpy(), [0.32005, 0.50712], atol=1e-5)
    # eager == staged (both graph back ends), and inside tf.function
    assert_same(lambda p, q: m([p, q]), xa.numpy(), xb.numpy())
    staged = tf.function(lambda p, q: m([p, q]))(xa, xb)
    np.testing.assert_allclose(staged[0].numpy(), r[0].numpy(), rtol=1e-6)


def test_operators_record_keras_operations():
    i = K.Input(shape=(3,))
    assert (i * 2).shape == (2 - i).shape == (-i).shape == (None, 3)
    assert i[:, 1:].shape == (None, 2) and i[:, 0].shape == (None,)
    assert (i > 0).dtype == "bool" and abs(i).shape == (None, 3)
    m = K.Model(i, [2 - i, (i * i)[:, 0], i / 2])
    x = np.array([[1., 2., 3.]], np.float32)
    out = m(x)
    np.testing.assert_allclose(out[0].numpy(), [[1., 0., -1.]])
    np.testing.assert_allclose(out[1].numpy(), [1.])
    np.testing.assert_allclose(out[2].numpy(), [[.5, 1., 1.5]])
    twice = K.Model(i, np.float32(2) * i)  # (numpy defers to the KerasTensor)
    np.testing.assert_allclose(twice(x).numpy(), [[2., 4., 6.]])
    with pytest.raises(NotImplementedError, match="Iterating over a symbolic KerasTensor"):
        list(i)
    with pytest.raises(TypeError, match="cannot be used as a boolean"):
        bool(i)


def test_dict_inputs_and_outputs():
    r = _recorded_program()
    p, q, md = r["p"], r["q"], r["dict"]
    rd = md({"p": tf.ones((1, 2)), "q": tf.ones((1, 2)) * 3})
    assert sorted(rd) == ["pd", "sum"]
    np.testing.assert_allclose(rd["sum"].numpy(), [[4., 4.]])
    np.testing.assert_allclose(rd["pd"].numpy(), [[-1.10484, -1.51853]], atol=1e-5)
    # a list model given a dict: matched by input names
    ml = K.Model([p, q], K.layers.Subtract()([p, q]))
    np.testing.assert_allclose(ml({"q": np.ones((1, 2)), "p": np.zeros((1, 2))}).numpy(),
                               [[-1., -1.]])


def test_nested_models_and_sequential_as_layers():
    r = _recorded_program()
    inner, outer = r["inner"], r["outer"]
    assert [type(l).__name__ for l in outer.layers] == ["InputLayer", "Functional", "Dense"]
    assert outer.layers[1] is inner
    assert [v.path.split("/")[1] for v in outer.trainable_variables] == ["kernel", "bias"] * 2
    expected = [[-0.41222], [-0.41222]]
    np.testing.assert_allclose(outer(tf.ones((2, 3))).numpy(), expected, atol=1e-5)
    np.testing.assert_allclose(tf.function(lambda t: outer(t))(tf.ones((2, 3))).numpy(),
                               expected, atol=1e-5)
    si = K.Input(shape=(3,))
    seq = K.Sequential([K.layers.Dense(2)])
    sm = K.Model(si, seq(si))
    assert [type(l).__name__ for l in sm.layers] == ["InputLayer", "Sequential"]
    assert [v.path for v in sm.trainable_variables][0].startswith("sequential")


def test_masks_flow_from_embedding():
    r = _recorded_program()
    assert r["embedded"].shape == (None, None, 3)
    mm = r["masked"]
    # the mask of the padding (0) ids: the average is over the first two steps only
    np.testing.assert_allclose(mm(tf.constant([[1, 2, 0, 0]])).numpy(),
                               [[-0.01195, 0.03371, 0.01544]], atol=1e-5)


def test_training_argument_of_the_model_overrides_the_recorded_one():
    di = K.Input(shape=(400,))
    dm = K.Model(di, K.layers.Dropout(0.5, seed=1)(di, training=False))
    x = tf.ones((1, 400))
    np.testing.assert_array_equal(dm(x).numpy(), x.numpy())
    np.testing.assert_array_equal(dm(x, training=False).numpy(), x.numpy())
    dropped = dm(x, training=True).numpy()
    assert set(np.unique(dropped)) == {0.0, 2.0}


def test_inputs_are_converted_to_the_input_dtypes_and_ranks():
    ii = K.Input(shape=(2,), dtype="int32")
    em = K.Model(ii, K.layers.Embedding(5, 2)(ii))
    assert em(np.array([[1, 2]])).dtype == tf.float32 and em.inputs[0].dtype == "int32"
    ri = K.Input(shape=(1,))
    rm = K.Model(ri, K.layers.Dense(1, use_bias=False, kernel_initializer="ones")(ri))
    assert rm(tf.constant([1.0, 2.0])).numpy().tolist() == [[1.0], [2.0]]


def test_gradients_through_a_functional_model():
    K.utils.set_random_seed(1)
    i = K.Input(shape=(3,), dtype="float64")
    h = K.layers.Dense(4, activation="tanh", dtype="float64")(i)
    m = K.Model(i, (h * h)[:, 1:] + 1.0)
    x = tf.constant(np.linspace(-1, 1, 6).reshape(2, 3))
    kernel = m.trainable_variables[0]

    def loss():
        return tf.reduce_sum(m(x))
    with tf.GradientTape() as tape:
        value = loss()
    grad = tape.gradient(value, kernel).numpy()
    base, eps, numeric = kernel.numpy(), 1e-6, np.zeros_like(kernel.numpy())
    for idx in np.ndindex(*base.shape):
        shifted = base.copy()
        shifted[idx] += eps
        kernel.assign(shifted)
        numeric[idx] = (float(loss()) - float(value)) / eps
    kernel.assign(base)
    np.testing.assert_allclose(grad, numeric, atol=1e-5)


def test_summary_matches_keras():
    i = K.Input(shape=(3,), name="x")
    h = K.layers.Dense(4, activation="relu", name="h")(i)
    m = K.Model(i, K.layers.Dense(2, name="out")(h), name="functional")
    lines = []
    m.summary(print_fn=lines.append)
    assert lines[0] == 'Model: "functional"'
    assert lines[4] == "│ x (InputLayer)                  │ (None, 3)              │" \
                       "             0 │"
    assert lines[6] == "│ h (Dense)                       │ (None, 4)              │" \
                       "            16 │"
    assert lines[-3] == " Total params: 26 (104.00 B)"
    # an operator's operation is a row of its own; a multi-output layer shows its shapes
    j = K.Input(shape=(None, 3), name="seq")
    out, _, _ = K.layers.LSTM(2, return_state=True, name="rnn")(j)
    m = K.Model(j, K.layers.Dense(1, name="d")(out) * 2.0)
    lines = []
    m.summary(print_fn=lines.append)
    assert lines[6:8] == [
        "│ rnn (LSTM)                      │ [(None, 2), (None, 2), │            48 │",
        "│                                 │ (None, 2)]             │               │"]
    assert lines[11].startswith("│ multiply") and "(Multiply)" in lines[11]


def test_errors_are_keras_errors():
    a, b = K.Input(shape=(4,)), K.Input(shape=(3,))
    o = K.layers.Concatenate()([a, b])
    with pytest.raises(ValueError, match="KerasTensor cannot be used as input to a "
                                         "TensorFlow function"):
        tf.nn.relu(a)
    with pytest.raises(ValueError, match="Output with path `` is not connected to `inputs`"):
        K.Model(a, o)
    with pytest.raises(ValueError, match="All `inputs` values must be KerasTensors"):
        K.Model(tf.ones((1, 2)), o)
    m = K.Model([a, b], o)
    with pytest.raises(ValueError):
        m([tf.ones((1, 4))])
    # Sequential built from an Input is unchanged
    seq = K.Sequential([K.Input(shape=(2,)), K.layers.Dense(3)])
    assert seq(np.ones((1, 2), np.float32)).shape == (1, 3) and len(seq.layers) == 1


def test_a_model_cut_at_a_layer_output():
    i = K.Input(shape=(3,))
    hidden = K.layers.Dense(4, activation="relu", name="cut_hidden")
    o = K.layers.Dense(2)(hidden(i))
    full = K.Model(i, o)
    features = K.Model(full.input, full.get_layer("cut_hidden").output)
    assert hidden.input is i and features.layers[1] is hidden
    x = np.ones((1, 3), np.float32)
    np.testing.assert_allclose(features(x).numpy(), hidden(x).numpy())
    layer = K.layers.InputLayer(shape=(3,))  # an InputLayer made directly
    assert layer.output._keras_history[0] is layer
    m = K.Model(layer.output, K.layers.Dense(1)(layer.output))
    assert m.layers[0] is layer
    with pytest.raises(AttributeError, match="never been called"):
        K.layers.Dense(1).output


def test_functional_guide_multi_input_multi_output_model():
    """The ticket-classifier model of Keras's functional API guide (smaller): masked and
    unmasked LSTMs, a dict of outputs, trained with a tf.function step."""
    K.utils.set_random_seed(11)
    title = K.Input(shape=(None,), name="title", dtype="int32")
    body = K.Input(shape=(None,), name="body", dtype="int32")
    tags = K.Input(shape=(6,), name="tags")
    title_embedded = K.layers.Embedding(50, 8, mask_zero=True)(title)
    body_embedded = K.layers.Embedding(50, 8)(body)
    title_features = K.layers.LSTM(6)(title_embedded)
    body_features = K.layers.LSTM(4)(body_embedded)
    x = K.layers.concatenate([title_features, body_features, tags])
    priority = K.layers.Dense(1, name="priority")(x)
    department = K.layers.Dense(3, name="department")(x)
    model = K.Model(inputs=[title, body, tags],
                    outputs={"priority": priority, "department": department})
    assert [l.name.split("_")[0] for l in model.layers] == [
        "title", "body", "embedding", "embedding", "lstm", "lstm", "tags", "concatenate",
        "department", "priority"]
    assert [v.name for v in model.trainable_variables][-4:] == ["kernel", "bias"] * 2
    assert model.trainable_variables[-4].path == "department/kernel"
    t = tf.random.stateless_uniform((3, 5), seed=(1, 1), maxval=50, dtype=tf.int32)
    t = tf.concat([t[:, :3], tf.zeros((3, 2), tf.int32)], axis=1)  # padded titles
    b = tf.random.stateless_uniform((3, 7), seed=(1, 2), maxval=50, dtype=tf.int32)
    g = tf.random.stateless_uniform((3, 6), seed=(1, 3))
    out = model({"title": t, "body": b, "tags": g})
    np.testing.assert_allclose(out["priority"].numpy(), [[-0.014405], [0.0585893],
                                                         [0.1921344]], atol=2e-6)
    np.testing.assert_allclose(out["department"].numpy(), [
        [-0.1009007, 0.5081308, 0.2957758], [0.067121, 0.2293923, 0.104285],
        [0.1407863, 0.60765, -0.0999342]], atol=2e-6)
    opt = K.optimizers.Adam(1e-2)

    @tf.function
    def step():
        with tf.GradientTape() as tape:
            o = model([t, b, g], training=True)
            loss = tf.reduce_mean(tf.square(o["priority"] - 1.0)) + \
                tf.reduce_mean(tf.square(o["department"]))
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        return loss
    np.testing.assert_allclose([float(step()) for _ in range(3)],
                               [0.947407, 0.797288, 0.659561], atol=2e-6)


GRAPH_SUMMARY = [  # TensorFlow's summary of the model below
    'Model: "functional"',
    '┏━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┓',
    '┃ Layer (type)        ┃ Output Shape      ┃    Param # ┃ Connected to      ┃',
    '┡━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━┩',
    '│ b (InputLayer)      │ (None, 3)         │          0 │ -                 │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ a (InputLayer)      │ (None, 4)         │          0 │ -                 │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ pre (Dense)         │ (None, 4)         │         16 │ b[0][0]           │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ shared (Dense)      │ (None, 5)         │         25 │ a[0][0],          │',
    '│                     │                   │            │ pre[0][0]         │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ cat (Concatenate)   │ (None, 10)        │          0 │ shared[0][0],     │',
    '│                     │                   │            │ shared[1][0]      │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ o1 (Dense)          │ (None, 1)         │         11 │ cat[0][0]         │',
    '├─────────────────────┼───────────────────┼────────────┼───────────────────┤',
    '│ add (Add)           │ (None, 5)         │          0 │ shared[0][0],     │',
    '│                     │                   │            │ shared[1][0]      │',
    '└─────────────────────┴───────────────────┴────────────┴───────────────────┘',
]


def test_summary_of_a_graph_shows_connections_as_keras():
    a = K.Input(shape=(4,), name="a")
    b = K.Input(shape=(3,), name="b")
    shared = K.layers.Dense(5, name="shared")
    ha = shared(a)
    hb = shared(K.layers.Dense(4, name="pre")(b))
    c = K.layers.Concatenate(name="cat")([ha, hb])
    m = K.Model([a, b], [K.layers.Dense(1, name="o1")(c), ha + hb], name="functional")
    lines = []
    m.summary(print_fn=lines.append)
    text = lines
    add = m._operations[-1].name  # ("add", "add_1"... after other tests)
    assert text[:18] + text[19:21] == GRAPH_SUMMARY[:18] + GRAPH_SUMMARY[19:]
    assert text[18].startswith(f"│ {add} (Add) ") and text[18].endswith(GRAPH_SUMMARY[18][21:])
    assert text[21] == " Total params: 52 (208.00 B)"


def test_sequential_built_from_an_input_is_a_graph_of_calls():
    """The feature extractor of Keras's Sequential guide: a functional model from a
    Sequential's inputs to each of its layers' outputs."""
    K.utils.set_random_seed(4)
    initial = K.Sequential([K.Input(shape=(5,)), K.layers.Dense(4, activation="relu"),
                            K.layers.Dense(3, activation="relu"), K.layers.Dense(2)])
    assert [v.path.split("/")[1] for v in initial.trainable_variables][::2] == \
        [l.name for l in initial.layers]
    assert initial.input_shape == (None, 5) and initial.output_shape == (None, 2)
    extractor = K.Model(inputs=initial.inputs, outputs=[l.output for l in initial.layers])
    assert [type(l).__name__ for l in extractor.layers] == ["InputLayer"] + ["Dense"] * 3
    features = extractor(tf.ones((1, 5)))
    np.testing.assert_allclose(features[0].numpy(), [[0.2143, 0.882, 0.0, 0.0969]], atol=1e-4)
    np.testing.assert_allclose(features[2].numpy(), [[-0.1105, -0.5806]], atol=1e-4)
    np.testing.assert_allclose(initial(tf.ones((1, 5))).numpy(), features[2].numpy())
    initial.pop()
    assert initial.output_shape == (None, 3)
    with pytest.raises(AttributeError, match="has no defined inputs yet"):
        K.Sequential([K.layers.Dense(2)]).inputs
