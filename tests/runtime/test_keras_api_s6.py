"""tf.keras names used by custom training loops and tutorials (session 6): base classes at
top level, utils, preprocessing / lookup / augmentation layers, Dot & co., IoU metrics,
CosineDecayRestarts. Values equal to TensorFlow 2.21's for representative inputs, recorded
from TensorFlow as literals."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError

K, L = tf.keras, tf.keras.layers


def close(a, b, tol=1e-5):
    np.testing.assert_allclose(np.asarray(a), np.asarray(b), rtol=tol, atol=tol)


# -- top-level names --------------------------------------------------------------------------
def test_base_classes_at_top_level():
    dense = L.Dense(2)
    dense.build((None, 3))
    assert K.Layer is L.Layer and isinstance(dense, K.Layer)
    assert isinstance(dense.kernel, K.Variable)
    assert isinstance(K.losses.MeanSquaredError(), K.Loss)
    assert isinstance(K.metrics.Mean(), K.Metric)
    assert isinstance(K.optimizers.Adam(), K.Optimizer)
    assert isinstance(K.optimizers.RMSprop(), K.Optimizer)
    assert isinstance(K.initializers.GlorotUniform(), K.Initializer)
    assert isinstance(K.regularizers.L2(), K.Regularizer)
    assert L.Input is K.Input


def test_keras_name_scope_names_variables_and_ops():
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        K.name_scope("a/b")
    with K.name_scope("blk"):
        layer = L.Dense(1)
        layer.build((None, 2))
    assert layer.kernel.path.startswith("blk/")


def test_input_layer():
    layer = L.InputLayer(shape=(4,))
    assert layer.built and layer.batch_shape == (None, 4)
    assert layer.output.shape == (None, 4) and layer.output.name.startswith("keras_tensor")
    named = L.InputLayer(batch_shape=(2, 3), name="inp")
    assert named.get_config() == {"batch_shape": (2, 3), "dtype": "float32", "sparse": False,
                                  "ragged": False, "name": "inp", "optional": False}
    with pytest.raises(TypeError):
        layer(np.ones((2, 4)))


# -- utils ------------------------------------------------------------------------------------
def test_to_categorical_and_normalize():
    a = K.utils.to_categorical([0, 2, 1])
    assert a.dtype == np.float64 and a.tolist() == [[1, 0, 0], [0, 0, 1], [0, 1, 0]]
    assert K.utils.to_categorical([[1], [3]], 5).tolist() == [[0, 1, 0, 0, 0], [0, 0, 0, 1, 0]]
    t = K.utils.to_categorical(tf.constant([[1], [3]]), 5)
    assert t.dtype == tf.float32 and t.numpy().tolist() == [[0, 1, 0, 0, 0], [0, 0, 0, 1, 0]]
    with pytest.raises(ValueError):
        K.utils.to_categorical(tf.constant([1, 3]))
    assert K.utils.normalize(np.array([[3., 4.], [0, 0]])).tolist() == [[0.6, 0.8], [0, 0]]
    close(K.utils.normalize(np.array([[3., 4.], [1, 2]]), axis=0, order=1),
          [[0.75, 1.0], [1 / 6, 1 / 3]])
    close(K.utils.normalize(tf.constant([[3., 4.], [1, -2]]), order=1),
          [[0.42857143, 0.5714286], [0.33333334, -0.6666667]])
    close(K.utils.normalize(tf.constant([[3., 4.], [1, -2]]), order=3),
          [[0.66697174, 0.8892957], [0.48074985, -0.9614997]])


def test_pad_sequences():
    pad = K.utils.pad_sequences
    out = pad([[1, 2, 3], [4], [5, 6]])
    assert out.dtype == np.int32 and out.tolist() == [[1, 2, 3], [0, 0, 4], [0, 5, 6]]
    assert pad([[1, 2, 3], [4], []], maxlen=2, padding="post", truncating="post",
               value=-1).tolist() == [[1, 2], [4, -1], [-1, -1]]
    assert pad([[1.5, 2]], maxlen=3, dtype="float32").tolist() == [[0.0, 1.5, 2.0]]
    assert K.preprocessing.sequence.pad_sequences([[1, 2]], maxlen=3).tolist() == [[0, 1, 2]]
    with pytest.raises(ValueError, match='Padding type "mid" not understood'):
        pad([[1, 2]], padding="mid")
    with pytest.raises(ValueError, match="You should set `dtype=object`"):
        pad([[1, 2]], value="x")


def test_timeseries_dataset_from_array():
    make = K.utils.timeseries_dataset_from_array
    data = np.arange(20)
    ds = make(data, None, sequence_length=4, sequence_stride=3, batch_size=2)
    assert [b.numpy().tolist() for b in ds] == [
        [[0, 1, 2, 3], [3, 4, 5, 6]], [[6, 7, 8, 9], [9, 10, 11, 12]],
        [[12, 13, 14, 15], [15, 16, 17, 18]]]
    ds = make(data.astype("float32"), data[3:] * 10, sequence_length=3, sampling_rate=2,
              batch_size=4, start_index=2, end_index=15)
    got = [(a.numpy().tolist(), b.numpy().tolist()) for a, b in ds]
    assert got[0] == ([[2, 4, 6], [3, 5, 7], [4, 6, 8], [5, 7, 9]], [50, 60, 70, 80])
    assert got[2] == ([[10, 12, 14]], [130])
    ds = make(data, None, sequence_length=5, batch_size=3, shuffle=True, seed=3)
    assert [b.numpy().tolist() for b in ds][:2] == [
        [[6, 7, 8, 9, 10], [13, 14, 15, 16, 17], [3, 4, 5, 6, 7]],
        [[0, 1, 2, 3, 4], [5, 6, 7, 8, 9], [1, 2, 3, 4, 5]]]
    with pytest.raises(ValueError, match="`sampling_rate` must be higher than 0"):
        make(data, None, sequence_length=3, sampling_rate=0)
    with pytest.raises(ValueError, match="`end_index` must be higher than `start_index`"):
        make(data, None, sequence_length=3, start_index=5, end_index=3)


def test_cosine_decay_restarts():
    steps = [0, 1, 3, 4, 5, 11, 12, 13, 30, 100]
    s = K.optimizers.schedules.CosineDecayRestarts(0.1, 4)
    close([float(s(i)) for i in steps],
          [0.1, 0.08535534, 0.014644662, 0.1, 0.096193977, 0.003806019, 0.1, 0.099039264,
           0.099039264, 0.030865824], 1e-6)
    s = K.optimizers.schedules.CosineDecayRestarts(0.1, 4, t_mul=1.0, m_mul=0.5, alpha=0.1)
    close([float(s(i)) for i in steps],
          [0.1, 0.086819813, 0.023180196, 0.055000003, 0.048409905, 0.013295049, 0.02125,
           0.019602476, 0.010351563, 0.010000004], 1e-6)
    s = K.optimizers.schedules.CosineDecayRestarts(0.1, 4, t_mul=3.0, m_mul=0.9)
    close([float(s(i)) for i in steps],
          [0.1, 0.08535534, 0.014644662, 0.089999996, 0.088466667, 0.033353142, 0.022499997,
           0.013180195, 0.054351807, 0.042779472], 1e-6)
    assert s(2).dtype == tf.float32
    with pytest.raises(ValueError, match="`first_decay_steps` must be > 0"):
        K.optimizers.schedules.CosineDecayRestarts(0.1, 0)


# -- Normalization ----------------------------------------------------------------------------
X3 = np.array([[1., 2., 3.], [4., 6., 9.], [0., 1., -3.]], np.float32)
X3_NORMALIZED = [[-0.39223, -0.46291, 0.0], [1.37281, 1.38873, 1.22474],
                 [-0.98058, -0.92582, -1.22474]]


def test_normalization_adapt_and_call():
    n = L.Normalization()
    n.adapt(X3)
    assert [(w.name, w.dtype.name) for w in n.weights] == [
        ("mean", "float32"), ("variance", "float32"), ("count", "int64")]
    close(n.weights[0], [1.6666666, 3.0, 3.0])
    close(n.weights[1], [2.888889, 4.6666665, 24.0])
    close(n(X3), X3_NORMALIZED)
    close(tf.function(n)(tf.constant(X3)), X3_NORMALIZED)
    mapped = [e.numpy() for e in tf.data.Dataset.from_tensor_slices(X3).map(n)]
    assert mapped[0].shape == (1, 3)
    close(mapped[1], [[1.3728, 1.3887, 1.2247]], 1e-4)
    pooled = L.Normalization(axis=None)
    pooled.adapt(tf.data.Dataset.from_tensor_slices(X3).batch(2))
    close(pooled(X3), [[-0.47087, -0.16817, 0.13453], [0.43724, 1.04264, 1.95075],
                       [-0.77357, -0.47087, -1.68168]])
    unbatched = L.Normalization()
    unbatched.adapt(tf.data.Dataset.from_tensor_slices(X3))  # batched by 128
    close(unbatched.mean, [[1.6667, 3.0, 3.0]], 1e-4)


def test_normalization_given_statistics_and_invert():
    close(L.Normalization(mean=2., variance=4.)(X3), [[-0.5, 0, 0.5], [1, 2, 3.5],
                                                      [-1, -0.5, -2.5]])
    inv = L.Normalization(mean=[1., 2., 3.], variance=[1., 4., 9.], invert=True)
    close(inv(X3), [[2, 6, 12], [5, 14, 30], [1, 4, -6]])
    n5 = L.Normalization(axis=(1, 2))
    n5.adapt(np.arange(24.).reshape(2, 3, 4))
    close(n5(np.ones((1, 3, 4)))[0, 0], [-0.8333, -1.0, -1.1667, -1.3333], 1e-4)
    with pytest.raises(ValueError, match="both `mean` and `variance` must be set"):
        L.Normalization(mean=1.)
    with pytest.raises(ValueError, match="must have the same shape"):
        L.Normalization(mean=[1., 2.], variance=[1.])
    assert L.Normalization(name="nn").get_config()["axis"] == (-1,)


# -- lookup layers ----------------------------------------------------------------------------
DATA = np.array([["a", "c", "d"], ["d", "z", "b"]])


def test_string_lookup():
    s = L.StringLookup(vocabulary=["a", "b", "c", "d"])
    out = s(DATA)
    assert out.dtype == tf.int64 and out.numpy().tolist() == [[1, 3, 4], [4, 0, 2]]
    assert s.get_vocabulary() == ["[UNK]", "a", "b", "c", "d"] and s.vocabulary_size() == 5
    assert tf.function(s)(tf.constant(DATA)).numpy().tolist() == [[1, 3, 4], [4, 0, 2]]
    assert [e.numpy().tolist() for e in tf.data.Dataset.from_tensor_slices(DATA).map(s)] == \
        [[1, 3, 4], [4, 0, 2]]
    assert s(tf.strings.split(tf.constant(["a b", "c d z"]))).to_list() == [[1, 2], [3, 4, 0]]
    assert int(s("c")) == 3
    s2 = L.StringLookup(vocabulary=["a", "b", "c", "d"], num_oov_indices=2, mask_token="")
    assert s2(np.array([["a", "", "zz", "q"], ["yy", "d", "c", "xx"]])).numpy().tolist() == \
        [[3, 0, 1, 2], [2, 6, 5, 2]]
    assert s2.get_vocabulary() == ["", "[UNK]", "[UNK]", "a", "b", "c", "d"]
    config = s.get_config()
    assert config["vocabulary"] == ["a", "b", "c", "d"] and config["vocabulary_size"] == 5


def test_string_lookup_encodings_and_invert():
    vocab = ["a", "b", "c", "d"]
    one_hot = L.StringLookup(vocabulary=vocab, output_mode="one_hot")(np.array(["a", "z", "d"]))
    assert one_hot.dtype == tf.int64
    assert one_hot.numpy().tolist() == [[0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 0, 1]]
    assert L.StringLookup(vocabulary=vocab, output_mode="multi_hot")(DATA).numpy().tolist() == \
        [[0, 1, 0, 1, 1], [1, 0, 1, 0, 1]]
    count = L.StringLookup(vocabulary=vocab, output_mode="count", pad_to_max_tokens=True,
                           max_tokens=7)
    assert count(np.array([["a", "a", "d"], ["z", "z", "b"]])).numpy().tolist() == \
        [[0, 2, 0, 0, 1, 0, 0], [2, 0, 1, 0, 0, 0, 0]]
    inv = L.StringLookup(vocabulary=vocab, invert=True)
    assert inv(np.array([[1, 2], [5, 0]])).numpy().tolist() == [[b"a", b"b"],
                                                                 [b"[UNK]", b"[UNK]"]]
    inv2 = L.StringLookup(vocabulary=vocab, invert=True, mask_token="[M]")
    assert inv2(np.array([[1, 2], [5, 0]])).numpy().tolist() == [[b"[UNK]", b"a"],
                                                                  [b"d", b"[M]"]]


def test_lookup_adapt():
    a = L.StringLookup()
    a.adapt(np.array([["x", "y", "x"], ["z", "y", "x"], ["w", "q", "q"]]))
    assert a.get_vocabulary() == ["[UNK]", "x", "y", "q", "z", "w"]  # ties: larger token first
    assert a(np.array(["x", "q", "nope"])).numpy().tolist() == [1, 3, 0]
    a2 = L.StringLookup(max_tokens=3)
    a2.adapt(tf.data.Dataset.from_tensor_slices(["x", "y", "x", "z", "y", "x", "w"]).batch(2))
    assert a2.get_vocabulary() == ["[UNK]", "x", "y"]
    i3 = L.IntegerLookup()
    i3.adapt(np.array([3, 3, 5, 7, 7, 7, 1]))
    assert i3.get_vocabulary() == [-1, 7, 3, 5, 1]
    assert i3(tf.constant([7, 3, 9])).numpy().tolist() == [1, 2, 0]


def test_integer_lookup():
    i = L.IntegerLookup(vocabulary=[12, 36, 1138, 42])
    assert i(np.array([[12, 1138, 42], [42, 1000, 36]])).numpy().tolist() == [[1, 3, 4],
                                                                             [4, 0, 2]]
    i2 = L.IntegerLookup(vocabulary=[12, 36, 1138, 42], num_oov_indices=2, mask_token=0)
    assert i2(np.array([[12, 0, 7], [8, 1000, 36]])).numpy().tolist() == [[3, 0, 2], [1, 1, 4]]
    assert i2.get_vocabulary() == [0, -1, -1, 12, 36, 1138, 42]
    assert L.IntegerLookup(vocabulary=[12, 36], invert=True)(np.array([1, 2, 0, 5])).numpy() \
        .tolist() == [12, 36, -1, -1]
    assert L.IntegerLookup(vocabulary=[12, 36], output_mode="one_hot")(
        np.array([[12], [36], [5]])).numpy().tolist() == [[0, 1, 0], [0, 0, 1], [1, 0, 0]]


def test_lookup_errors():
    strict = L.StringLookup(vocabulary=["a"], num_oov_indices=0)
    assert strict(np.array(["a"])).numpy().tolist() == [0]
    with pytest.raises(InvalidArgumentError, match=r'found OOV values \["b"\]'):
        strict(np.array(["b"]))
    with pytest.raises(ValueError, match="repeated term"):
        L.StringLookup(vocabulary=["a", "a"])
    with pytest.raises(ValueError, match="Received vocabulary size is 3; `max_tokens` is 2"):
        L.StringLookup(vocabulary=["a", "b"], max_tokens=2)
    with pytest.raises(RuntimeError, match="you must set the layer's vocabulary"):
        L.StringLookup(output_mode="one_hot")(np.array(["a"]))
    with pytest.raises(ValueError, match="Cannot adapt layer"):
        L.StringLookup(vocabulary=["a"]).adapt(np.array(["a"]))
    with pytest.raises(ValueError, match="`output_mode` must be `'int'` when `invert`"):
        L.StringLookup(invert=True, output_mode="count")


def test_category_encoding():
    assert L.CategoryEncoding(4, output_mode="one_hot")([3, 2, 0, 1]).numpy().tolist() == \
        [[0, 0, 0, 1], [0, 0, 1, 0], [1, 0, 0, 0], [0, 1, 0, 0]]
    multi = L.CategoryEncoding(num_tokens=4, output_mode="multi_hot")
    assert multi([[0, 1], [0, 0], [1, 2], [3, 1]]).numpy().tolist() == \
        [[1, 1, 0, 0], [1, 0, 0, 0], [0, 1, 1, 0], [0, 1, 0, 1]]
    count = L.CategoryEncoding(num_tokens=4, output_mode="count")
    close(count([[0, 1], [0, 0], [1, 2], [3, 1]],
                count_weights=np.array([[.1, .2], [.1, .1], [.2, .3], [.4, .2]])),
          [[0.1, 0.2, 0, 0], [0.2, 0, 0, 0], [0, 0.2, 0.3, 0], [0, 0.2, 0, 0.4]])
    assert count([0, 1, 1, 5]).numpy().tolist() == [1, 2, 0, 0]  # (5 is out of range)


def test_discretization():
    x = np.array([[-1.5, 1.0, 3.4, .5], [0.0, 3.0, 1.3, 0.0]])
    d = L.Discretization(bin_boundaries=[0., 1., 2.])
    out = d(x)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[0, 2, 3, 1], [1, 3, 2, 1]]
    assert L.Discretization(bin_boundaries=[0., 1., 2.], output_mode="count")(x).numpy() \
        .tolist() == [[1, 1, 1, 1], [0, 2, 1, 1]]
    d = L.Discretization(num_bins=4, epsilon=0.01)
    d.adapt(x)
    close(d.bin_boundaries, [0.0, 0.5, 1.3])
    big = np.random.RandomState(0).randn(1000).astype("float32")
    d = L.Discretization(num_bins=5)
    d.adapt(tf.data.Dataset.from_tensor_slices(big).batch(64))
    close(d.bin_boundaries, [-0.84162, -0.29482, 0.24296, 0.80484])
    assert d(tf.constant([[-2., 0.], [0.3, 5.]])).numpy().tolist() == [[0, 2], [3, 4]]
    with pytest.raises(ValueError, match="either `num_bins` or `bin_boundaries`"):
        L.Discretization()


def test_hashing():
    words = [["A"], ["B"], ["C"], ["D"], ["E"]]
    assert L.Hashing(num_bins=3)(words).numpy().tolist() == [[1], [0], [1], [1], [2]]
    assert L.Hashing(num_bins=3, mask_value="")([["A"], ["B"], [""], ["C"], ["D"]]).numpy() \
        .tolist() == [[1], [1], [0], [2], [2]]
    assert L.Hashing(num_bins=3, salt=133)(words).numpy().tolist() == [[0], [0], [2], [1], [0]]
    assert L.Hashing(num_bins=3, salt=[133, 137])(words).numpy().tolist() == \
        [[1], [2], [1], [0], [2]]
    assert L.Hashing(num_bins=5)(np.array([[1, 2], [3, 40]])).numpy().tolist() == [[4, 4],
                                                                                  [1, 3]]
    multi = L.Hashing(num_bins=5, output_mode="multi_hot")(np.array([[1, 2], [3, 40]]))
    assert multi.dtype == tf.float32 and multi.numpy().tolist() == [[0, 0, 0, 0, 1],
                                                                   [0, 1, 0, 1, 0]]
    assert L.Hashing(num_bins=5, mask_value=0)(np.array([[1, 0], [3, 40]])).numpy().tolist() \
        == [[2, 0], [2, 1]]
    hashing = L.Hashing(num_bins=4)
    assert [int(e) for e in tf.data.Dataset.from_tensor_slices(np.array(["a", "b"]))
            .map(hashing)] == [3, 2]


# -- IoU metrics --------------------------------------------------------------------------
def test_mean_iou():
    from runtime.keras import iou_metrics as M  # (tf.keras.metrics.* once metrics.py exports it)
    m = M.MeanIoU(num_classes=3)
    assert m.name.startswith("mean_io_u") and m.total_cm.dtype == tf.int64
    m.update_state([0, 1, 2, 2, 1], [0, 2, 2, 1, 1])
    assert m.result().dtype == tf.float32
    close(m.result(), 0.5555555)
    assert m.total_cm.numpy().tolist() == [[1, 0, 0], [0, 1, 1], [0, 1, 1]]
    m.update_state([0, 1], [1.7, 1], sample_weight=[2, 3])  # (truncated to int64)
    close(m.result(), 0.3888889)
    m.reset_state()
    assert float(m.result()) == 0.0
    iou = M.IoU(num_classes=3, target_class_ids=[0, 2])
    iou.update_state([[0, 1], [2, 2]], [[0, 2], [2, 1]])
    close(iou.result(), 0.6666666)
    ignored = M.MeanIoU(num_classes=3, ignore_class=1)
    ignored.update_state([0, 1, 2, 2, 1], [0, 2, 2, 1, 1])
    close(ignored.result(), 0.5)
    weighted = M.MeanIoU(num_classes=3, dtype="float32")
    weighted.update_state([0, 1, 2], [0, 2, 2], sample_weight=[.5, 1, 2])
    close(weighted.result(), 0.5555555)
    one_hot = M.OneHotIoU(num_classes=3, target_class_ids=[1])
    one_hot.update_state([[1, 0, 0], [0, 1, 0], [0, 0, 1]], [[.9, .1, 0], [.2, .3, .5],
                                                             [0, 0, 1]])
    assert float(one_hot.result()) == 0.0
    binary = M.BinaryIoU(target_class_ids=[1], threshold=0.3)
    binary.update_state([0, 1, 1, 0], [0.2, 0.6, 0.4, 0.7])
    close(binary.result(), 0.6666666)
    staged = M.MeanIoU(num_classes=3)
    step = tf.function(lambda a, b: (staged.update_state(a, b), staged.result())[1])
    close(step(tf.constant([0, 1, 2]), tf.constant([0, 1, 1])), 0.5)
    with pytest.raises(ValueError, match=r"Target class id 3 is out of range, which is \[0, 3\)"):
        M.IoU(num_classes=3, target_class_ids=[3])


def test_losses_reduction():
    from runtime.keras.legacy_losses import Reduction
    assert Reduction.all() == ("auto", "none", "sum", "sum_over_batch_size")
    with pytest.raises(ValueError, match="Invalid Reduction Key: mean"):
        Reduction.validate("mean")


# -- Dot & co. -----------------------------------------------------------------------------
RNG = np.random.RandomState(1)
A2, B2 = RNG.randn(2, 3).astype("float32"), RNG.randn(2, 3).astype("float32")
C3, D3 = RNG.randn(2, 3, 4).astype("float32"), RNG.randn(2, 4, 5).astype("float32")


def test_dot():
    close(L.Dot(axes=1)([A2, B2]), [[3.13134], [6.27438]])
    close(L.Dot(axes=1, normalize=True)([A2, B2]), [[0.89417], [0.92131]])
    out = L.Dot(axes=(2, 1))([C3, D3])
    assert out.shape == (2, 3, 5)
    close(out[0, 0], [1.30503, 3.84922, -0.66467, 0.67077, 0.00159], 1e-4)
    assert L.Dot(axes=(1, 1))([A2, C3]).shape == (2, 4)
    with pytest.raises(ValueError, match="Incompatible input shapes"):
        L.Dot(axes=1)([A2, D3])
    x, y = tf.Variable(A2), tf.Variable(B2)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(L.Dot(axes=1)([x, y]))
    close(tape.gradient(loss, x), B2)


def test_unit_and_group_normalization_and_activity_regularization():
    close(L.UnitNormalization()(np.array([[3., 4.], [0., 0.]])), [[0.6, 0.8], [0, 0]])
    ar = L.ActivityRegularization(l1=0.1, l2=0.01)
    close(ar(A2), A2)
    close([float(v) for v in ar.losses], [0.40265], 1e-4)
    assert ar.get_config()["l1"] == 0.1 and "activity_regularizer" not in ar.get_config()
    x = np.random.RandomState(3).randn(2, 3, 4).astype("float32")
    g = L.GroupNormalization(groups=2)
    out = g(x)
    assert [w.name for w in g.weights] == ["gamma", "beta"]
    pairs = x.reshape(2, 3, 2, 2)
    expected = (pairs - pairs.mean(axis=(1, 3), keepdims=True)) / np.sqrt(
        pairs.var(axis=(1, 3), keepdims=True) + 1e-3)
    close(out, expected.reshape(2, 3, 4), 1e-4)
    with pytest.raises(ValueError, match="must be a multiple of the number of channels"):
        L.GroupNormalization(groups=3)(x)
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(g(v) * np.arange(24.).reshape(2, 3, 4).astype("float32"))
    grad = tape.gradient(loss, v).numpy()
    eps = 1e-2
    bumped = x.copy()
    bumped[0, 1, 2] += eps
    numeric = (np.sum(g(bumped).numpy() * np.arange(24.).reshape(2, 3, 4)) -
               np.sum(g(x).numpy() * np.arange(24.).reshape(2, 3, 4))) / eps
    close(grad[0, 1, 2], numeric, 5e-2)


# -- augmentation -----------------------------------------------------------------------------
IMAGES = np.arange(2 * 4 * 5 * 3, dtype="float32").reshape(2, 4, 5, 3)


def _head(t, n=6):
    return np.asarray(t).reshape(-1)[:n].tolist()


def test_random_flip_seeded():
    f = L.RandomFlip(seed=7)
    assert _head(f(IMAGES)) == [0, 1, 2, 3, 4, 5]
    assert _head(f(IMAGES)) == [57, 58, 59, 54, 55, 56]
    assert _head(f(IMAGES, training=False)) == [0, 1, 2, 3, 4, 5]
    assert _head(f(IMAGES[0])) == [57, 58, 59, 54, 55, 56]
    assert _head(L.RandomFlip("horizontal", seed=3)(IMAGES), 18)[12:] == [0, 1, 2, 27, 28, 29]
    assert _head(L.RandomFlip("vertical", seed=3)(IMAGES)) == [45, 46, 47, 48, 49, 50]
    staged = L.RandomFlip(seed=11)
    g = tf.function(lambda a: staged(a))
    assert _head(g(tf.constant(IMAGES))) == [0, 1, 2, 3, 4, 5]
    assert _head(g(tf.constant(IMAGES))) == [57, 58, 59, 54, 55, 56]
    assert [v.name for v in staged.variables] == ["seed_generator_state"]


def test_random_contrast_brightness_seeded():
    c = L.RandomContrast(0.5, seed=1)
    close(np.asarray(c(IMAGES)).reshape(-1)[9:12], [0.4347, 1.4347, 2.4347], 1e-3)
    close(_head(c(IMAGES[1]), 3), [58.5996, 59.5996, 60.5996], 1e-3)
    assert _head(c(IMAGES, training=False)) == _head(IMAGES)
    b = L.RandomBrightness(0.2, seed=2)
    close(_head(b(IMAGES), 3), [30.6999, 31.6999, 32.6999], 1e-3)
    b = L.RandomBrightness((-0.1, 0.3), value_range=(0, 1), seed=2)
    close(_head(b(IMAGES / 120.), 3), [0.2204, 0.2287, 0.2371], 1e-3)
    rc = L.RandomContrast(0.3, seed=4)
    got = [np.asarray(e).reshape(-1)[:6] for e in
           tf.data.Dataset.from_tensor_slices(IMAGES).batch(1).map(lambda a: rc(a))]
    close(got[0], [0, 0, 0, 0, 0, 0.558], 1e-3)
    close(got[1], [57.164, 58.164, 59.164, 60.463, 61.463, 62.463], 1e-3)
    with pytest.raises(ValueError, match=r"in the range \[0, 1\]. Received: factor=1.5"):
        L.RandomContrast(1.5)


def test_crops_and_resizing():
    r = L.RandomCrop(2, 3, seed=5)
    assert _head(r(IMAGES)) == [3, 4, 5, 6, 7, 8]
    assert _head(r(IMAGES)) == [6, 7, 8, 9, 10, 11]
    assert r(IMAGES, training=False).shape == (2, 4, 5, 3)
    small = L.RandomCrop(6, 3, seed=5)(IMAGES)
    assert small.shape == (2, 6, 3, 3)
    close(_head(small, 12)[9:], [10.5, 11.5, 12.5])
    cc = L.CenterCrop(2, 3)
    assert _head(cc(IMAGES)) == [18, 19, 20, 21, 22, 23] and cc(IMAGES[0]).shape == (2, 3, 3)
    close(_head(L.CenterCrop(6, 4)(IMAGES)), [3, 4, 5, 3.75, 4.75, 5.75])
    close(_head(L.Resizing(3, 7)(IMAGES)), [2.5, 3.5, 4.5, 4.2143, 5.2143, 6.2143], 1e-4)
    assert _head(L.Resizing(2, 2, interpolation="nearest")(IMAGES)) == [18, 19, 20, 24, 25, 26]
    close(_head(L.Resizing(3, 3, crop_to_aspect_ratio=True)(IMAGES)), [3, 4, 5, 7, 8, 9])
    close(_head(L.Resizing(3, 3, pad_to_aspect_ratio=True)(IMAGES)),
          [3.5, 4.5, 5.5, 8.5, 9.5, 10.5])
    assert L.Resizing(3, 3)(IMAGES.astype("uint8")).dtype == tf.uint8
    assert L.Resizing(2, 2, name="rs").get_config()["interpolation"] == "bilinear"


# -- TextVectorization ------------------------------------------------------------------------
TEXTS = ["The cat sat on the mat.", "The dog ate my homework!", "Cat, dog; MAT?"]


def test_text_vectorization_adapt_and_int_mode():
    v = L.TextVectorization()
    v.adapt(TEXTS)
    assert v.get_vocabulary() == ["", "[UNK]", "the", "mat", "dog", "cat", "sat", "on", "my",
                                  "homework", "ate"]
    assert v(TEXTS).numpy().tolist() == [[2, 5, 6, 7, 2, 3], [2, 4, 10, 8, 9, 0],
                                         [5, 4, 3, 0, 0, 0]]
    v = L.TextVectorization(max_tokens=6, output_sequence_length=4)
    v.adapt(tf.data.Dataset.from_tensor_slices(TEXTS).batch(2))
    assert v.get_vocabulary() == ["", "[UNK]", "the", "mat", "dog", "cat"]
    assert v(TEXTS).numpy().tolist() == [[2, 5, 1, 1], [2, 4, 1, 1], [5, 4, 3, 0]]
    assert v(np.array([["cat"], ["a b c d e f"]])).numpy().tolist() == [[5, 0, 0, 0],
                                                                       [1, 1, 1, 1]]
    chars = L.TextVectorization(split="character", output_sequence_length=5)
    chars.adapt(["abca", "bcd"])
    assert chars.get_vocabulary() == ["", "[UNK]", "c", "b", "a", "d"]
    assert chars(["abz"]).numpy().tolist() == [[4, 3, 1, 0, 0]]
    ragged = L.TextVectorization(vocabulary=["cat", "dog"], ragged=True)
    assert ragged(["cat dog x", "dog"]).to_list() == [[2, 3, 1], [3]]
    whole = L.TextVectorization(vocabulary=["cat", "dog"], split=None, output_sequence_length=3)
    assert whole(np.array([["cat"], ["dog"]])).numpy().tolist() == [[2, 0, 0], [3, 0, 0]]


def test_text_vectorization_encodings_function_and_dataset():
    v = L.TextVectorization(output_mode="multi_hot")
    v.adapt(TEXTS)
    assert v(TEXTS).numpy().tolist() == [[0, 1, 1, 0, 1, 1, 1, 0, 0, 0],
                                         [0, 1, 0, 1, 0, 0, 0, 1, 1, 1],
                                         [0, 0, 1, 1, 1, 0, 0, 0, 0, 0]]
    v = L.TextVectorization(output_mode="count", ngrams=2, max_tokens=10)
    v.adapt(TEXTS)
    assert v.get_vocabulary() == ["[UNK]", "the", "mat", "dog", "cat", "the mat", "the dog",
                                  "the cat", "sat on", "sat"]
    assert v(TEXTS).numpy().tolist() == [[3, 2, 1, 0, 1, 1, 0, 1, 1, 1],
                                         [6, 1, 0, 1, 0, 0, 1, 0, 0, 0],
                                         [2, 0, 1, 1, 1, 0, 0, 0, 0, 0]]
    given = L.TextVectorization(vocabulary=["cat", "dog", "mat"], standardize=None,
                                output_sequence_length=6)
    assert given(["Cat dog mat. cat"]).numpy().tolist() == [[1, 3, 1, 2, 0, 0]]
    v = L.TextVectorization(vocabulary=["cat", "dog"], output_sequence_length=3)
    assert tf.function(v)(tf.constant(["cat dog x cat", "dog"])).numpy().tolist() == \
        [[2, 3, 1], [3, 0, 0]]
    texts = tf.data.Dataset.from_tensor_slices(["cat dog", "dog dog dog dog"])
    assert [e.numpy().tolist() for e in texts.batch(2).map(v)] == [[[2, 3, 0], [3, 3, 3]]]
    assert [e.numpy().tolist() for e in texts.map(v)] == [[2, 3, 0], [3, 3, 3]]
    with pytest.raises(ValueError, match="`output_sequence_length` must not be set"):
        L.TextVectorization(output_mode="count", output_sequence_length=3)
    with pytest.raises(ValueError, match="Unknown value for `split` argument"):
        L.TextVectorization(split="comma")


# -- affine augmentation --------------------------------------------------------------------
SMALL = np.arange(2 * 5 * 6 * 2, dtype="float32").reshape(2, 5, 6, 2)


@pytest.mark.parametrize("fill_mode, interpolation, head", [
    ("reflect", "bilinear", [41.455, 42.455, 30.64, 31.64, 20.528, 21.528]),
    ("wrap", "nearest", [46, 47, 36, 37, 24, 25, 14, 15, 50, 51, 52, 53]),
    ("constant", "bilinear", [26.51, 27.158, 30.64, 31.64, 20.528, 21.528]),
    ("constant", "nearest", [36, 37, 36, 37, 24, 25, 14, 15, 2, 3, -1, -1]),
])
def test_random_rotation_fill_modes(fill_mode, interpolation, head):
    r = L.RandomRotation(0.3, fill_mode=fill_mode, interpolation=interpolation, seed=3,
                         fill_value=-1.)
    close(_head(r(SMALL), len(head)), head, 1e-3)


def test_random_rotation_zoom_translation_seeded():
    r = L.RandomRotation((-0.5, 0.5), seed=9)
    close(_head(r(SMALL[0]), 4), [9.235, 10.235, 16.307, 17.307], 1e-3)
    assert _head(r(SMALL, training=False), 4) == [0, 1, 2, 3]
    z = L.RandomZoom(0.5, seed=2)
    close(_head(z(SMALL), 4), [0.0, 1.0, 1.097, 2.097], 1e-3)
    close(_head(z(SMALL), 4), [11.125, 12.125, 12.358, 13.358], 1e-3)
    z = L.RandomZoom((-0.4, -0.2), (0.3, 0.6), fill_mode="constant", seed=2)
    close(_head(z(SMALL), 4), [0.936, 1.099, 6.751, 7.751], 1e-3)
    t = L.RandomTranslation(0.4, 0.4, seed=5)
    close(_head(t(SMALL), 4), [21.031, 22.031, 21.921, 22.921], 1e-3)
    t = L.RandomTranslation((-0.6, -0.5), 0.9, fill_mode="wrap", interpolation="nearest",
                            seed=5)
    assert _head(t(SMALL), 6) == [46, 47, 46, 47, 38, 39]
    rr = L.RandomRotation(0.2, seed=8)
    close(_head(tf.function(lambda a: rr(a))(tf.constant(SMALL)), 4),
          [0.255, 1.255, 2.251, 3.251], 1e-3)
    with pytest.raises(ValueError, match=r"in the range \(-1.0, 1.0\]"):
        L.RandomZoom(-1.0)
    with pytest.raises(NotImplementedError, match="Unknown `fill_mode` x"):
        L.RandomRotation(0.1, fill_mode="x")


# -- depthwise / separable convolutions -----------------------------------------------------
def test_depthwise_and_separable_convolutions():
    K.utils.set_random_seed(0)
    x = np.random.RandomState(0).randn(2, 6, 5, 3).astype("float32")
    d = L.DepthwiseConv2D(3, depth_multiplier=2, padding="same")
    close(_head(d(x), 4), [0.7421, 0.6077, -0.5407, -0.587], 1e-4)  # (seeded glorot)
    assert [(w.name, tuple(w.shape)) for w in d.weights] == [("kernel", (3, 3, 3, 2)),
                                                             ("bias", (6,))]
    d = L.DepthwiseConv2D((2, 3), strides=2, activation="relu", depthwise_initializer="ones",
                          bias_initializer="ones")
    out = d(x)
    assert out.shape == (2, 3, 2, 3)
    close(_head(out, 4), [7.2554, 4.6208, 0.0, 5.8579], 1e-4)
    d = L.DepthwiseConv2D(2, dilation_rate=2,
                          depthwise_initializer=K.initializers.RandomNormal(seed=1))
    close(_head(d(x), 3), [0.0254, 0.0206, 0.2151], 1e-3)
    s = L.SeparableConv2D(4, 3, depth_multiplier=2, depthwise_initializer="ones",
                          pointwise_initializer=K.initializers.RandomNormal(seed=2))
    close(_head(s(x), 4), [-0.9779, -0.4672, -0.1094, 0.279], 1e-4)
    assert [(w.name, tuple(w.shape)) for w in s.weights] == [
        ("depthwise_kernel", (3, 3, 3, 2)), ("pointwise_kernel", (1, 1, 6, 4)), ("bias", (4,))]
    s1 = L.SeparableConv1D(4, 3, strides=2, padding="same",
                           depthwise_initializer=K.initializers.RandomNormal(seed=3),
                           pointwise_initializer=K.initializers.RandomNormal(seed=2))
    out = s1(x[:, :, 0, :])
    assert out.shape == (2, 3, 4)
    close(_head(out, 4), [-0.0077, -0.0048, -0.002, -0.0057], 1e-4)
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(s(v))
    assert tape.gradient(loss, [v, s.depthwise_kernel])[1].shape == (3, 3, 3, 2)


def test_additive_attention():
    K.utils.set_random_seed(1)
    rng = np.random.RandomState(2)
    q, v, k = (rng.randn(*s).astype("float32") for s in [(2, 3, 4), (2, 5, 4), (2, 5, 4)])
    a = L.AdditiveAttention()
    out, weights = a([q, v, k], return_attention_scores=True)
    close(_head(out, 4), [-0.642, -0.1683, -0.4305, 0.7571], 1e-4)
    close(_head(weights, 5), [0.2325, 0.1735, 0.1652, 0.2699, 0.1588], 1e-4)
    assert [(w.name, tuple(w.shape)) for w in a.weights] == [("scale", (4,))]
    plain = L.AdditiveAttention(use_scale=False)
    masked = plain([q, v], mask=[None, np.array([[1, 1, 1, 0, 0], [1, 1, 1, 1, 1]], bool)])
    close(_head(masked, 4), [-1.6037, -0.0581, -0.08, 1.0511], 1e-4)
    close(_head(plain([q, v], use_causal_mask=True), 4), [-0.3388, -0.2362, -0.6377, -1.1876],
          1e-4)
    assert "score_mode" not in a.get_config()


def test_stacked_rnn_cells():
    K.utils.set_random_seed(3)
    x = np.random.RandomState(1).randn(2, 4, 3).astype("float32")
    cells = L.StackedRNNCells([L.LSTMCell(4), L.GRUCell(3), L.SimpleRNNCell(2)])
    rnn = L.RNN(cells, return_sequences=True, return_state=True)
    out = rnn(x)
    assert out[0].shape == (2, 4, 2)
    close(_head(out[0], 8), [-0.0373, -0.0937, 0.0374, -0.0694, 0.0108, -0.1964, 0.0964,
                             -0.1824], 1e-4)
    close(out[-1], [[0.0964, -0.1824], [-0.0141, -0.0149]], 1e-4)
    assert [w.name for w in rnn.weights] == ["kernel", "recurrent_kernel", "bias"] * 3
    assert [w.path.split("/")[1].rstrip("_0123456789") for w in rnn.weights] == \
        ["stacked_rnn_cells"] * 9  # (rnn/stacked_rnn_cells/lstm_cell/kernel...)
    assert cells.output_size == 2


def test_split_dataset():
    split = K.utils.split_dataset
    data = np.arange(20).reshape(10, 2)
    left, right = split(data, left_size=0.8)
    assert [e.numpy().tolist() for e in right] == [[16, 17], [18, 19]]
    assert len(list(left)) == 8
    left, right = split((data, np.arange(10)), left_size=3, right_size=4, shuffle=True, seed=1)
    assert [(a.numpy().tolist(), int(b)) for a, b in left] == [([12, 13], 6), ([16, 17], 8),
                                                               ([18, 19], 9)]
    assert [int(b) for _, b in right] == [0, 4, 1, 2]
    batched = tf.data.Dataset.from_tensor_slices((data, np.arange(10))).batch(4)
    left, right = split(batched, left_size=0.5, shuffle=True, seed=3)
    assert [b.numpy().tolist() for _, b in left] == [[1, 5, 6, 0], [9]]
    assert [b.numpy().tolist() for _, b in right] == [[4, 7, 2, 8], [3]]
    left, right = split(tf.data.Dataset.range(6), right_size=2)
    assert [int(e) for e in right] == [4, 5]
    with pytest.raises(ValueError, match="At least one of the `left_size` or `right_size`"):
        split(data)
    with pytest.raises(ValueError, match="The sum of `left_size` and `right_size` is greater"):
        split(data, left_size=0.7, right_size=0.5)
    with pytest.raises(TypeError, match="Unsupported dataset type"):
        split({"a": 1}, left_size=1)


def test_input_spec():
    from runtime.keras.input_spec import assert_input_compatibility as check
    spec = K.InputSpec
    assert repr(spec(ndim=3, axes={-1: 4})) == "InputSpec(ndim=3, axes={-1: 4})"
    assert repr(spec(shape=(None, 3), dtype="float32")) == \
        "InputSpec(dtype=float32, shape=(None, 3), ndim=2)"
    x = tf.zeros((2, 3))
    check(spec(ndim=2, axes={1: 3}), x, "lay")
    messages = {
        "expected ndim=3, found ndim=2. Full shape received: (2, 3)": spec(ndim=3),
        "expected max_ndim=1, found ndim=2": spec(max_ndim=1),
        "expected dtype=int32, found dtype=float32": spec(dtype="int32"),
        "expected axis -1 of input shape to have value 4, but received input with shape "
        "(2, 3)": spec(axes={-1: 4}),
        "expected shape=(None, 4), found shape=(2, 3)": spec(shape=(None, 4)),
    }
    for message, s in messages.items():
        with pytest.raises(ValueError) as info:
            check(s, x, "lay")
        assert str(info.value) == ("Input 0 with name 'None' of layer 'lay' is incompatible "
                                   "with the layer: " + message)
    with pytest.raises(ValueError, match='Layer "lay" expects 2 input\\(s\\), but it received 1'):
        check([spec(), spec()], x, "lay")
    with pytest.raises(ValueError, match="Axis 2 is greater than the maximum allowed value: 1"):
        spec(ndim=2, axes={2: 3})


def test_float_indices_and_integer_buckets():
    assert L.CategoryEncoding(4, output_mode="one_hot")(np.array([1., 2.7])).numpy().tolist() \
        == [[0, 1, 0, 0], [0, 0, 1, 0]]
    assert L.CategoryEncoding(4, output_mode="count")(np.array([1., 2.7])).numpy().tolist() \
        == [0, 1, 1, 0]
    d = L.Discretization(bin_boundaries=[0.5, 1.5])
    assert d(np.array([0, 1, 2])).numpy().tolist() == [0, 1, 2]


def test_tf_idf_output_mode():
    s = L.StringLookup(vocabulary=["a", "b", "c"], idf_weights=[0.3, 0.4, 0.5],
                       output_mode="tf_idf")
    close(s(np.array([["a", "a", "z"], ["c", "b", "b"]])), [[0.4, 0.6, 0, 0], [0, 0, 0.8, 0.5]])
    s = L.StringLookup(vocabulary=["[UNK]", "a", "b", "c"], idf_weights=[0.1, 0.3, 0.4, 0.5],
                       output_mode="tf_idf", pad_to_max_tokens=True, max_tokens=6)
    close(s(np.array([["a", "a", "z"]])), [[0.1, 0.6, 0, 0, 0, 0]])
    s = L.StringLookup(output_mode="tf_idf")
    s.adapt(np.array([["a", "b"], ["a", "c"], ["a", "a"]]))
    assert s.get_vocabulary() == ["[UNK]", "a", "c", "b"]
    close(s(np.array([["a", "c", "q"]])), [[0.7974, 0.55962, 0.91629, 0]])
    s = L.StringLookup(output_mode="tf_idf")
    s.adapt(np.array(["a", "b", "a", "c"]))  # (each string a document)
    close(s(np.array(["a", "c"])), [0, 0.8473, 1.09861, 0])
    i = L.IntegerLookup(output_mode="tf_idf")
    i.adapt(tf.data.Dataset.from_tensor_slices(np.array([[1, 2], [2, 3], [2, 2]])).batch(2))
    assert i.get_vocabulary() == [-1, 2, 3, 1]
    close(i(np.array([[2, 3, 9]])), [[0.7974, 0.55962, 0.91629, 0]])
    v = L.TextVectorization(output_mode="tf_idf", max_tokens=6)
    v.adapt(["the cat sat", "the dog", "a cat a cat"])
    assert v.get_vocabulary() == ["[UNK]", "cat", "the", "a", "sat", "dog"]
    close(v(["the cat cat x"]), [[0.82703, 1.38629, 0.69315, 0, 0, 0]])
    with pytest.raises(ValueError, match="the `idf_weights` argument must also be provided"):
        L.StringLookup(vocabulary=["a"], output_mode="tf_idf")
    with pytest.raises(ValueError, match="`idf_weights` must be the same length as vocabulary"):
        L.StringLookup(vocabulary=["a"], idf_weights=[1., 2.], output_mode="tf_idf")


def test_depthwise_conv1d():
    x = np.random.RandomState(0).randn(2, 7, 3).astype("float32")
    d = L.DepthwiseConv1D(3, strides=2, depth_multiplier=2, padding="same",
                          depthwise_initializer=K.initializers.RandomNormal(seed=4))
    out = d(x)
    assert out.shape == (2, 4, 6) and d.kernel.shape == (3, 3, 2)
    close(_head(out, 4), [0.2654, -0.0841, 0.0501, -0.06], 1e-4)


def test_tutorial_pipelines():
    """A text model built on tf.keras.Input(dtype=string) and an augmentation Sequential used
    eagerly and in a tf.data map (shapes stay known through the random layers)."""
    K.utils.set_random_seed(0)
    v = L.TextVectorization(max_tokens=20, output_sequence_length=5)
    v.adapt(["the cat sat", "the dog", "a cat a cat"])
    model = K.Sequential([K.Input(shape=(1,), dtype="string"), v, L.Embedding(20, 4),
                          L.GlobalAveragePooling1D(), L.Dense(1)])
    close(model(tf.constant([["the cat"], ["dog dog"]])), [[-0.0088], [-0.0232]], 1e-4)
    aug = K.Sequential([L.RandomFlip("horizontal", seed=1), L.RandomRotation(0.1, seed=2),
                        L.RandomZoom(0.1, seed=3)])
    x = np.arange(2 * 4 * 4 * 1, dtype="float32").reshape(2, 4, 4, 1)
    close(_head(aug(x), 4), [0.899, 1.93, 3.922, 5.797], 1e-3)
    assert _head(aug(x, training=False), 4) == [0, 1, 2, 3]
    mapped = tf.data.Dataset.from_tensor_slices(x).batch(2).map(lambda a: aug(a, training=True))
    assert mapped.element_spec.shape.as_list() == [None, 4, 4, 1]
    close(_head(next(iter(mapped)), 4), [6.489, 4.289, 1.817, 0.9], 1e-3)
