"""Public names real TensorFlow 2 programs call (session 7 API diff): tf.debugging's static
assertions, Keras 3's Lamb and Adafactor. Values and messages recorded from TensorFlow 2.21."""
import numpy as np
import pytest

import autograph as tf


def _bits(x):
    return np.asarray(x, np.float32).view(np.int32).ravel().tolist()


# -- tf.debugging --------------------------------------------------------------------------

def test_assert_rank_at_least_and_rank_in_messages_are_tensorflows():
    x = tf.constant([1, 2])
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_rank_at_least(x, 2, message="msg")
    assert str(e.value) == ("msg.  Tensor  must have rank at least 2.  Received rank 1, "
                            "shape (2,)")
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_rank_in(x, [0, 2])
    assert str(e.value) == "Tensor  must have rank in (0, 2).  Received rank 1, shape (2,)"
    assert tf.debugging.assert_rank_at_least(x, 1) is None


def test_static_rank_assertions_inside_tf_function():
    @tf.function
    def f(x):
        tf.debugging.assert_rank_at_least(x, 1)
        tf.debugging.assert_rank_in(x, [1, 2])
        return x
    assert f(tf.constant([1.0])).numpy().tolist() == [1.0]

    @tf.function
    def g(x):
        tf.debugging.assert_rank_at_least(x, 2)
        return x
    with pytest.raises(ValueError, match=r"must have rank at least 2.  Received rank 1, "
                                         r"shape \(1,\)"):
        g(tf.constant([1.0]))


def test_assert_same_float_dtype():
    assert tf.debugging.assert_same_float_dtype([tf.constant(1.0, tf.float64)]) == tf.float64
    assert tf.debugging.assert_same_float_dtype(None) == tf.float32
    with pytest.raises(ValueError) as e:
        tf.debugging.assert_same_float_dtype([tf.constant(1.0), tf.constant(1.0, tf.float64)])
    assert str(e.value) == ("tf.Tensor(1.0, shape=(), dtype=float64), type=<dtype: 'float64'>, "
                            "must be of the same type (<dtype: 'float32'>) as "
                            "tf.Tensor(1.0, shape=(), dtype=float32).")
    with pytest.raises(ValueError, match="^Expected floating point type, got <dtype: 'int32'>.$"):
        tf.debugging.assert_same_float_dtype([tf.constant(1)])


def test_assert_proper_iterable_and_log_device_placement_flag():
    with pytest.raises(TypeError, match='^Expected argument "values" to be a "proper" '
                                        "iterable.  Found: <class 'str'>$"):
        tf.debugging.assert_proper_iterable("abc")
    with pytest.raises(TypeError, match="numpy.ndarray"):
        tf.debugging.assert_proper_iterable(np.ones(2))
    tf.debugging.assert_proper_iterable([1, 2])
    assert tf.debugging.get_log_device_placement() is False
    tf.debugging.set_log_device_placement(True)
    try:
        assert tf.debugging.get_log_device_placement() is True
    finally:
        tf.debugging.set_log_device_placement(False)


# -- Keras 3's Lamb and Adafactor ----------------------------------------------------------

def _gradients(n):
    rng = np.random.RandomState(0)
    return [rng.randn(2, 3).astype(np.float32) for _ in range(n)]


def test_lamb_matches_keras3_over_four_traced_steps():
    w = tf.Variable(np.array([[0.5, -1.0, 2.0], [0.25, 3.0, -0.75]], np.float32))
    b = tf.Variable(np.zeros(3, np.float32))
    z = tf.Variable(np.zeros(2, np.float32))
    opt = tf.keras.optimizers.Lamb(learning_rate=0.05, name="lamb")

    @tf.function
    def step(gw, gb):
        opt.apply_gradients([(gw, w), (gb, b), (tf.zeros(2), z)])
    rng = np.random.RandomState(0)
    for _ in range(4):
        step(tf.constant(rng.randn(2, 3).astype(np.float32)),
             tf.constant(rng.randn(3).astype(np.float32)))
    # TensorFlow's pow(x, 2.0) is not always x*x rounded, so ||w|| may differ by an ulp
    np.testing.assert_allclose(
        _bits(w), [1044132620, -1080636885, 1072188090, -1110225086, 1076534204, -1091019517],
        atol=3)
    assert _bits(b) == [-1116473610, 1028725610, 1030328587]
    assert z.numpy().tolist() == [0.0, 0.0]  # a zero step keeps ratio 1
    assert [v.path.split("/")[-1].split("_")[-1] for v in opt.variables] == [
        "iteration", "rate"] + ["momentum", "velocity"] * 3


def test_adafactor_factored_slots_match_keras3_bit_for_bit():
    w = tf.keras.Variable(np.array([[0.5, -1.0, 2.0], [0.25, 3.0, -0.75]], np.float32), name="w")
    opt = tf.keras.optimizers.Adafactor(learning_rate=0.05)
    expected = [
        ([1068792363, 1078585472], [1082270399, 1072265004, 1064623408],
         [1075890476, 1066416612, 1058489479, 1085530344, 1075927610, 1068055276],
         [1054024851, -1081881496, 1072901035, 1043582900, 1077547781, -1087447240]),
        ([1061652156, 1071929869], [1073903935, 1061811595, 1065500381],
         [1067363973, 1056284493, 1058957188, 1077254970, 1066175927, 1068845559],
         [1051854497, -1082020449, 1072984472, 1042342971, 1077504078, -1085893206]),
        ([1058059229, 1068485690], [1068167427, 1064142878, 1059391572],
         [1061641349, 1057653478, 1052801112, 1072837573, 1067992748, 1063900285],
         [1049659173, -1081915177, 1072523754, 1041107986, 1077089439, -1086166432])]
    for g, (r, c, v, after) in zip(_gradients(3), expected):
        opt.apply_gradients([(tf.constant(g), w)])
        assert [_bits(s) for s in opt.variables[2:]] == [r, c, v]
        assert _bits(w) == after


def test_optimizers_get_knows_adafactor_but_not_lamb_as_keras3():
    assert type(tf.keras.optimizers.get("adafactor")).__name__ == "Adafactor"
    with pytest.raises(ValueError, match="^Could not interpret optimizer identifier: lamb$"):
        tf.keras.optimizers.get("lamb")


def test_adafactor_slots_and_checkpoint_keys_are_keras3s(tmp_path):
    w = tf.keras.Variable(np.ones((2, 3), np.float32), name="w")
    b = tf.keras.Variable(np.array([0.1, -0.2, 0.3], np.float32), name="b")
    opt = tf.keras.optimizers.Adafactor(learning_rate=0.05, name="adafactor")

    @tf.function
    def step(gw, gb):
        opt.apply_gradients([(gw, w), (gb, b)])
    rng = np.random.RandomState(0)
    for _ in range(3):
        step(tf.constant(rng.randn(2, 3).astype(np.float32)),
             tf.constant(rng.randn(3).astype(np.float32)))
    assert [(v.path, v.dtype.name, tuple(v.shape)) for v in opt.variables] == [
        ("adafactor/iteration", "int64", ()), ("adafactor/learning_rate", "float32", ()),
        ("adafactor/w", "float32", (2,)), ("adafactor/w", "float32", (3,)),
        ("adafactor/w_velocity", "float32", (2, 3)), ("adafactor/b", "int32", ()),
        ("adafactor/b", "int32", ()), ("adafactor/b_velocity", "float32", (3,))]
    # Keras 3's values after 3 traced steps (a rank-1 variable keeps a full second moment)
    assert _bits(b) == [1032672539, -1102887498, 1050906759]
    np.testing.assert_allclose(_bits(w), [1063952688, 1065476459, 1064307980, 1063639169,
                                          1063397882, 1065774425], atol=1)
    path = tf.train.Checkpoint(opt=opt).save(str(tmp_path / "a"))
    keys = sorted(n for n, _ in tf.train.list_variables(path))
    assert "opt/_variables/7/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "opt/_trainable_variables/1/.ATTRIBUTES/VARIABLE_VALUE" in keys


# -- tf.train: checkpoint state, polling, options ------------------------------------------

def test_get_checkpoint_state_and_checkpoints_iterator(tmp_path):
    d = str(tmp_path)
    assert tf.train.get_checkpoint_state(d) is None
    v = tf.Variable(1.0)
    m = tf.train.CheckpointManager(tf.train.Checkpoint(v=v), d, max_to_keep=2)
    for _ in range(3):
        m.save()
    st = tf.train.get_checkpoint_state(d)
    assert st.model_checkpoint_path == f"{d}/ckpt-3"
    assert list(st.all_model_checkpoint_paths) == [f"{d}/ckpt-2", f"{d}/ckpt-3"]
    assert len(st.all_model_checkpoint_timestamps) == 2 and st.last_preserved_timestamp > 0
    assert str(st).splitlines()[:3] == [f'model_checkpoint_path: "{d}/ckpt-3"',
                                        f'all_model_checkpoint_paths: "{d}/ckpt-2"',
                                        f'all_model_checkpoint_paths: "{d}/ckpt-3"']
    # polls once a second: a timeout shorter than that returns after the latest one at once
    assert list(tf.train.checkpoints_iterator(d, timeout=0.5)) == [f"{d}/ckpt-3"]
    calls = []
    assert list(tf.train.checkpoints_iterator(
        d, timeout=0.1, timeout_fn=lambda: calls.append(1) or len(calls) == 2)) == [
            f"{d}/ckpt-3"]
    assert calls == [1, 1]
    o = tf.train.CheckpointOptions()
    assert (o.experimental_io_device, o.experimental_enable_async_checkpoint, o.enable_async,
            o.experimental_skip_slot_variables) == (None, False, False, False)
    path = tf.train.Checkpoint(v=v).write(f"{d}/x", options=o)
    tf.train.Checkpoint(v=v).read(path, options=o).assert_consumed()


# -- tf.data: NumpyIterator, from_list -----------------------------------------------------

def test_as_numpy_iterator_is_a_numpy_iterator_refused_in_a_function():
    it = tf.data.Dataset.range(3).as_numpy_iterator()
    assert isinstance(it, tf.data.NumpyIterator) and iter(it) is it
    assert (next(it), it.next(), list(it)) == (0, 1, [2])
    with pytest.raises(StopIteration):
        next(it)
    assert list(tf.data.Dataset.from_tensor_slices(
        {"a": [1, 2], "b": ["x", "y"]}).as_numpy_iterator()) == [{"a": 1, "b": b"x"},
                                                                 {"a": 2, "b": b"y"}]

    @tf.function
    def f():
        return tf.data.Dataset.range(3).as_numpy_iterator()
    with pytest.raises(RuntimeError, match=r"as_numpy_iterator\(\)` is only supported in "
                                           "eager mode."):
        f()


def test_from_list_slices_a_list_of_elements():
    d = tf.data.experimental.from_list([(1, "a"), (2, "b")])
    assert str(d.element_spec) == ("(TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                   "TensorSpec(shape=(), dtype=tf.string, name=None))")
    assert list(d.as_numpy_iterator()) == [(1, b"a"), (2, b"b")]
    d = tf.data.experimental.from_list([{"x": [1.0, 2.0]}, {"x": [3.0, 4.0]}])
    assert str(d.element_spec) == "{'x': TensorSpec(shape=(2,), dtype=tf.float32, name=None)}"
    assert [e["x"].tolist() for e in d.as_numpy_iterator()] == [[1.0, 2.0], [3.0, 4.0]]
    with pytest.raises(ValueError, match="^Invalid `elements`. `elements` should not be empty. "
                                         r"If you want an empty dataset, use "
                                         r"`tf.data.Dataset.range\(0\)`.$"):
        tf.data.experimental.from_list([])


# -- tf.keras.utils: data tuples, Keras tensors ---------------------------------------------

def test_pack_and_unpack_x_y_sample_weight_and_is_keras_tensor():
    U = tf.keras.utils
    assert U.is_keras_tensor(tf.keras.Input((3,)))
    assert not U.is_keras_tensor(tf.constant(1.0)) and not U.is_keras_tensor(np.ones(2))
    assert [U.pack_x_y_sample_weight(1), U.pack_x_y_sample_weight(1, 2),
            U.pack_x_y_sample_weight(1, 2, 3), U.pack_x_y_sample_weight((1, 2)),
            U.pack_x_y_sample_weight([1, 2])] == [1, (1, 2), (1, 2, 3), ((1, 2),), ([1, 2],)]
    assert [U.unpack_x_y_sample_weight(d) for d in ((1,), (1, 2), (1, 2, 3), 5, [1, 2],
                                                   {"a": 1})] == [
        (1, None, None), (1, 2, None), (1, 2, 3), (5, None, None), (1, 2, None),
        ({"a": 1}, None, None)]
    with pytest.raises(ValueError, match=r"^Data is expected to be in format `x`, `\(x,\)`, "
                                         r"`\(x, y\)`, or `\(x, y, sample_weight\)`, found: "
                                         r"\(1, 2, 3, 4\)$"):
        U.unpack_x_y_sample_weight((1, 2, 3, 4))


# -- tf.keras.utils.Progbar -------------------------------------------------------------------

def test_progbar_output_is_keras3s(monkeypatch, capsys):
    import runtime.keras.progbar as progbar
    monkeypatch.setattr(progbar.time, "time", lambda: 100.0)  # every step takes 0s
    p = tf.keras.utils.Progbar(3, interval=0)
    p.update(1, [("loss", 0.5), ("acc", 0.0001)])
    p.update(2, [("loss", 1.5)])
    p.add(1, [("loss", tf.constant(2.0))])
    q = tf.keras.utils.Progbar(None, stateful_metrics=["m"], interval=0)
    q.update(5, [("m", 3.0)])
    q.update(7, [("m", 4.0)], finalize=True)
    r = tf.keras.utils.Progbar(10, verbose=2, width=5)
    r.update(4, [("l", 1.0)])
    r.update(10, [("l", 3.0)])
    # recorded from Keras 3 with the same constant clock
    assert capsys.readouterr().out == '\r\x1b[1m1/3\x1b[0m \x1b[32m━━━━━━\x1b[0m\x1b[37m━━━━━━━━━━━━━━\x1b[0m \x1b[1m0s\x1b[0m 0s/step - loss: 0.5000 - acc: 1.0000e-04\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\r\x1b[1m2/3\x1b[0m \x1b[32m━━━━━━━━━━━━━\x1b[0m\x1b[37m━━━━━━━\x1b[0m \x1b[1m0s\x1b[0m 0s/step - loss: 1.0000 - acc: 1.0000e-04\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\r\x1b[1m3/3\x1b[0m \x1b[32m━━━━━━━━━━━━━━━━━━━━\x1b[0m\x1b[37m\x1b[0m \x1b[1m0s\x1b[0m 0s/step - loss: 2.0000 - acc: 1.0000e-04\n\r      5/Unknown \x1b[1m0s\x1b[0m 0s/step - m: 3.0000\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\x08\r      7/Unknown \x1b[1m0s\x1b[0m 0s/step - m: 4.0000\n10/10 - 0s - 0s/step - l: 3.0000\n'
