"""RaggedTensor as TensorFlow's "Ragged tensors" guide uses it: ragged reductions (dtypes and
empty rows), the APIs that dispatch on RaggedTensors, merge_dims / boolean_mask / uniform rows /
segment ids / cross, tf.shape (DynamicRaggedShape), datasets of ragged elements, ragged
arguments of tf.function. Expected values were recorded from TensorFlow 2.21 as literals."""
import math

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import assert_same

SPLITS = np.array([0, 3, 3, 4], np.int64)  # rows [3, 1, 4], [], [5]
VALUES = [3, 1, 4, 5]


def parts(x):
    """A result as plain tensors (flat values and splits of a RaggedTensor)."""
    if isinstance(x, tf.RaggedTensor):
        return (x.flat_values,) + tuple(x.nested_row_splits)
    return x


def rows(values, splits=SPLITS):
    return tf.RaggedTensor.from_row_splits(values, splits)


# -- reductions: TensorFlow's dtypes and empty-row values ---------------------------------------

NAN = float("nan")
I32_MIN, I32_MAX = -2147483648, 2147483647
F32_MAX = 3.4028234663852886e+38


@pytest.mark.parametrize("dtype, api, axis, out_dtype, expected", [
    (np.int32, "reduce_sum", 1, "int32", [8, 0, 5]),
    (np.int32, "reduce_sum", 0, "int32", [8, 1, 4]),
    (np.int32, "reduce_mean", 1, "float64", [2.6666666666666665, NAN, 5.0]),
    (np.int32, "reduce_mean", 0, "float64", [4.0, 1.0, 4.0]),
    (np.int32, "reduce_mean", None, "float64", 3.25),
    (np.int64, "reduce_mean", 1, "float64", [2.6666666666666665, NAN, 5.0]),
    (np.uint8, "reduce_mean", 1, "float32", [2.6666667461395264, NAN, 5.0]),
    (np.float32, "reduce_mean", 1, "float32", [2.6666667461395264, NAN, 5.0]),
    (np.int32, "reduce_max", 1, "int32", [4, I32_MIN, 5]),
    (np.int32, "reduce_min", 1, "int32", [1, I32_MAX, 5]),
    (np.uint8, "reduce_max", 1, "uint8", [4, 0, 5]),
    (np.float32, "reduce_max", 1, "float32", [4.0, -F32_MAX, 5.0]),
    (np.float32, "reduce_min", 1, "float32", [1.0, F32_MAX, 5.0]),
    (np.float16, "reduce_max", 1, "float16", [4.0, -65504.0, 5.0]),
    (np.int32, "reduce_prod", 1, "int32", [12, 1, 5]),
    (np.int32, "reduce_prod", 0, "int32", [15, 1, 4]),
    (np.int32, "reduce_any", 1, "bool", [True, False, True]),
    (np.int32, "reduce_all", 1, "bool", [True, True, True]),
    (np.int32, "reduce_any", None, "bool", True),
    (np.int32, "reduce_std", 1, "float64", [1.247219128924647, NAN, 0.0]),
    (np.int32, "reduce_variance", 1, "float64", [1.5555555555555554, NAN, 0.0]),
    (np.int32, "reduce_variance", 0, "float64", [1.0, 0.0, 0.0]),
    (np.float32, "reduce_std", None, "float32", 1.4790199995040894),
    (np.float64, "reduce_variance", None, "float64", 2.1875),
])
def test_reductions_dtype_and_empty_rows_as_tensorflow(dtype, api, axis, out_dtype, expected):
    fn = getattr(tf.math, api)
    out = assert_same(lambda v: fn(rows(v), axis=axis), np.array(VALUES, dtype))
    assert out.dtype == np.dtype(out_dtype)
    np.testing.assert_allclose(np.asarray(out, np.float64), expected, rtol=1e-6)


def test_reduce_any_casts_to_int32_first_as_tensorflow():
    rt = tf.ragged.constant([[0.5, 0.0], [3.0]])
    assert tf.reduce_any(rt, axis=1).numpy().tolist() == [False, True]


def test_bool_reductions_and_keepdims():
    b = tf.ragged.constant([[True, False], [], [True]])
    assert tf.reduce_all(b, axis=1).numpy().tolist() == [False, True, True]
    assert tf.reduce_any(b, axis=0).numpy().tolist() == [True, False]
    for api in (tf.reduce_sum, tf.reduce_max, tf.reduce_mean):
        with pytest.raises(InvalidArgumentError):
            api(b, axis=1)
    r = tf.ragged.constant([[1, 2], [3]])
    out = tf.reduce_mean(r, axis=1, keepdims=True)
    assert out.dtype == tf.float64 and out.numpy().tolist() == [[1.5], [3.0]]
    assert tf.reduce_sum(r, axis=0, keepdims=True).numpy().tolist() == [[4, 2]]
    assert tf.reduce_sum(r, keepdims=True).numpy().tolist() == [[6]]
    assert tf.reduce_sum(r, axis=[0, 1]).numpy() == 6
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert tf.reduce_sum(r3, axis=2, keepdims=True).to_list() == [[[3], [3]], [[4]]]


def test_reductions_of_ragged_rank_2_and_inner_dims():
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5]], []])
    assert tf.reduce_mean(r3, axis=2).to_list() == [[1.5, 3.0], [4.5], []]
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert tf.reduce_mean(inner, axis=1).numpy().tolist() == [[2.0, 3.0], [5.0, 6.0]]
    assert tf.reduce_mean(inner, axis=2).to_list() == [[1.5, 3.5], [5.5]]


R3_SPLITS = (np.array([0, 2, 3, 3, 6], np.int64), np.array([0, 2, 3, 6, 7, 8, 9], np.int64))


@pytest.mark.parametrize("api, axis, expected", [
    ("reduce_sum", 0, [[12, 7, 6], [11], [9]]),
    ("reduce_sum", 1, [[4, 2], [4, 5, 6], [], [24]]),
    ("reduce_sum", [0, 1], [32, 7, 6]),
    ("reduce_sum", [0, 2], [25, 11, 9]),
    ("reduce_max", 0, [[7, 5, 6], [8], [9]]),
    ("reduce_max", [1, 2], [3, 6, I32_MIN, 9]),
    ("reduce_min", 1, [[1, 2], [4, 5, 6], [], [7]]),
    ("reduce_prod", 0, [[28, 10, 6], [24], [9]]),
    ("reduce_mean", 0, [[4.0, 3.5, 6.0], [5.5], [9.0]]),
    ("reduce_mean", [0, 1], [16 / 3, 3.5, 6.0]),
    ("reduce_any", 1, [[True, True], [True, True, True], [], [True]]),
])
def test_reductions_over_outer_ragged_axes_as_tensorflow(api, axis, expected):
    # [[[1, 2], [3]], [[4, 5, 6]], [], [[7], [8], [9]]]
    fn = getattr(tf.math, api)
    out = fn(tf.RaggedTensor.from_nested_row_splits(np.arange(1, 10, dtype=np.int32),
                                                    R3_SPLITS), axis=axis)
    out = out.to_list() if isinstance(out, tf.RaggedTensor) else out.numpy().tolist()
    assert out == expected
    assert_same(lambda v, s1, s2: parts(fn(tf.RaggedTensor.from_nested_row_splits(
        v, [s1, s2]), axis=axis)), np.arange(1, 10, dtype=np.int32), *R3_SPLITS)


def test_outer_axis_reductions_keepdims_and_gradients_as_tensorflow():
    r3 = tf.RaggedTensor.from_nested_row_splits(np.arange(1, 10, dtype=np.int32), R3_SPLITS)
    assert tf.reduce_sum(r3, axis=0, keepdims=True).to_list() == [[[12, 7, 6], [11], [9]]]
    assert tf.reduce_sum(r3, axis=1, keepdims=True).to_list() == \
        [[[4, 2]], [[4, 5, 6]], [[]], [[24]]]
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert tf.reduce_max(inner, axis=0).numpy().tolist() == [[5, 6], [3, 4]]
    v = tf.constant([1., 2., 3., 4., 5., 6., 7., 8., 9.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        x = tf.RaggedTensor.from_nested_row_splits(v, R3_SPLITS)
        y = tf.reduce_sum(tf.reduce_max(x, axis=0).flat_values * tf.range(1., 6.)) + \
            tf.reduce_sum(tf.reduce_prod(x, axis=1).flat_values * tf.range(1., 7.))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(),
                               [3., 2., 1., 3., 6., 8., 433., 382., 341.])


def test_reduction_gradients_as_tensorflow():
    v = tf.constant([1., 2., 3., 4., 5., 6.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        x = tf.RaggedTensor.from_row_splits(v, [0, 3, 4, 4, 6])
        y = tf.reduce_sum(tf.reduce_mean(x, axis=1) * tf.constant([1., 2., 3., 4.])) + \
            tf.reduce_sum(tf.reverse(x, [1]) * tf.ragged.constant([[1., 2., 3.], [4.], [],
                                                                    [5., 6.]]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(),
                               [3.3333333, 2.3333333, 1.3333334, 6., 8., 7.], rtol=1e-6)
    with tf.GradientTape() as tape:
        tape.watch(v)
        x = tf.RaggedTensor.from_row_splits(v, [0, 3, 4, 4, 6])
        y = tf.reduce_sum(tf.math.reduce_std(x, axis=1) * tf.constant([1., 2., 3., 4.])
                          * tf.constant([1., 1., 0., 1.]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(),
                               [-0.40824834, 0., 0.40824836, NAN, -2., 2.], rtol=1e-6)


# -- the APIs that dispatch on RaggedTensors ----------------------------------------------------

RT = [[1, 2, 3], [4], [], [5, 6]]


@pytest.mark.parametrize("fn, expected", [
    (lambda r: tf.tile(r, [1, 2]), [[1, 2, 3, 1, 2, 3], [4, 4], [], [5, 6, 5, 6]]),
    (lambda r: tf.tile(r, [2, 1]), [[1, 2, 3], [4], [], [5, 6], [1, 2, 3], [4], [], [5, 6]]),
    (lambda r: tf.where(r > 2, r, -r), [[-1, -2, 3], [4], [], [5, 6]]),
    (lambda r: tf.where(r > 2, r, 0), [[0, 0, 3], [4], [], [5, 6]]),
    (lambda r: tf.reverse(r, [1]), [[3, 2, 1], [4], [], [6, 5]]),
    (lambda r: tf.reverse(r, [0]), [[5, 6], [], [4], [1, 2, 3]]),
    (lambda r: tf.expand_dims(r, 0), [[[1, 2, 3], [4], [], [5, 6]]]),
    (lambda r: tf.expand_dims(r, 1), [[[1, 2, 3]], [[4]], [[]], [[5, 6]]]),
    (lambda r: tf.expand_dims(r, -1), [[[1], [2], [3]], [[4]], [], [[5], [6]]]),
    (lambda r: tf.one_hot(r, 7, on_value=5.0, dtype=tf.float64)[3],
     [[0.0, 0.0, 0.0, 0.0, 0.0, 5.0, 0.0], [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 5.0]]),
    (lambda r: tf.map_fn(lambda row: row * 2, r), [[2, 4, 6], [8], [], [10, 12]]),
    (lambda r: tf.map_fn(tf.math.square, r), [[1, 4, 9], [16], [], [25, 36]]),
    (lambda r: tf.ragged.boolean_mask(r, r > 2),
     [[3], [4], [], [5, 6]]),
])
def test_dispatch_eager_and_staged_as_tensorflow(fn, expected):
    splits = np.array([0, 3, 4, 4, 6], np.int64)
    values = np.array([1, 2, 3, 4, 5, 6], np.int32)
    out = fn(tf.ragged.constant(RT))
    out = out.to_list() if isinstance(out, tf.RaggedTensor) else out.numpy().tolist()
    assert out == expected
    assert_same(lambda v, s: parts(fn(tf.RaggedTensor.from_row_splits(v, s))), values, splits)


def test_dispatch_on_deeper_ragged_tensors_as_tensorflow():
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5]], []])
    assert tf.tile(r3, [2, 2, 1]).to_list() == [
        [[1, 2], [3], [1, 2], [3]], [[4, 5], [4, 5]], [],
        [[1, 2], [3], [1, 2], [3]], [[4, 5], [4, 5]], []]
    assert tf.tile(tf.ragged.constant([[[1], [2]], [[3]]]), [2, 1, 3]).to_list() == [
        [[1, 1, 1], [2, 2, 2]], [[3, 3, 3]], [[1, 1, 1], [2, 2, 2]], [[3, 3, 3]]]
    assert tf.reverse(r3, [0, 2]).to_list() == [[], [[5, 4]], [[2, 1], [3]]]
    assert tf.reverse(tf.ragged.constant([[[1, 2], [3]], [[4]]]), [1, 2]).to_list() == \
        [[[3], [2, 1]], [[4]]]
    assert tf.expand_dims(r3, 2).to_list() == [[[[1, 2]], [[3]]], [[[4, 5]]], []]
    assert tf.squeeze(tf.ragged.constant([[[1], [2]], [[3]]]), axis=-1).to_list() == \
        [[1, 2], [3]]
    assert tf.squeeze(tf.ragged.constant([[[1, 2]], [[3]]]), axis=1).to_list() == [[1, 2], [3]]
    assert tf.rank(r3).numpy() == 3 and tf.rank(r3).dtype == tf.int32
    with pytest.raises(ValueError, match="must have an axis"):
        tf.squeeze(r3)
    with pytest.raises(ValueError, match="must be greater than indices.ragged_rank"):
        tf.one_hot(tf.ragged.constant(RT), 3, axis=1)


def test_string_and_nn_apis_dispatch_as_tensorflow():
    q = tf.ragged.constant([["Who", "is", "Dan", "Smith"], ["Pause"],
                            ["Will", "it", "rain", "later", "today"]])
    assert tf.strings.substr(q, 1, 2).to_list() == [
        [b"ho", b"s", b"an", b"mi"], [b"au"], [b"il", b"t", b"ai", b"at", b"od"]]
    assert tf.strings.length(q).to_list() == [[3, 2, 3, 5], [5], [4, 2, 4, 5, 5]]
    assert tf.strings.join([q, "x"]).to_list()[1] == [b"Pausex"]
    assert tf.strings.to_number(tf.ragged.constant([["1", "2"], ["3"]])).to_list() == \
        [[1.0, 2.0], [3.0]]
    buckets = tf.strings.to_hash_bucket_fast(q, 10)
    assert buckets.dtype == tf.int64 and buckets.row_splits.numpy().tolist() == [0, 4, 5, 10]
    with pytest.raises(ValueError, match="same outer-dimension size"):
        tf.strings.join([q[:, i:] for i in range(2)], separator="#")
    table = tf.reshape(tf.range(8.), [4, 2])
    ids = tf.ragged.constant([[0, 3], [1]])
    assert tf.nn.embedding_lookup(table, ids).to_list() == [[[0.0, 1.0], [6.0, 7.0]],
                                                            [[2.0, 3.0]]]


def test_map_fn_signatures_as_tensorflow():
    rt = tf.ragged.constant(RT)
    out = tf.map_fn(lambda r: tf.reduce_sum(r), rt, fn_output_signature=tf.int32)
    assert out.numpy().tolist() == [6, 4, 0, 11]
    with pytest.raises(InvalidArgumentError, match="rank >= 1"):
        tf.map_fn(lambda r: tf.reduce_sum(r), rt)
    out = tf.map_fn(lambda n: tf.range(n), tf.constant([1, 3]),
                    fn_output_signature=tf.RaggedTensorSpec([None], tf.int32, 0))
    assert out.to_list() == [[0], [0, 1, 2]]


def test_apis_without_a_ragged_target_refuse_as_tensorflow():
    rt = tf.ragged.constant([[3, 1, 2], [3]])
    for fn in (tf.sort, lambda r: tf.argmax(r, axis=1), tf.convert_to_tensor):
        with pytest.raises(ValueError, match="unsupported type"):
            fn(rt)
    with pytest.raises(ValueError, match="mixed types"):
        tf.ragged.constant([["one", "two"], [3, 4]])


# -- merge_dims, boolean_mask, uniform rows, segment ids, cross ---------------------------------

def test_merge_dims_as_tensorflow():
    rt = tf.ragged.constant(RT)
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5]], []])
    assert rt.merge_dims(0, 1).numpy().tolist() == [1, 2, 3, 4, 5, 6]
    assert r3.merge_dims(0, 1).to_list() == [[1, 2], [3], [4, 5]]
    assert r3.merge_dims(1, 2).to_list() == [[1, 2, 3], [4, 5], []]
    assert r3.merge_dims(0, -1).numpy().tolist() == [1, 2, 3, 4, 5]
    assert rt.merge_dims(1, 1) is rt
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert inner.merge_dims(1, 2).to_list() == [[1, 2, 3, 4], [5, 6]]
    assert inner.merge_dims(0, 1).numpy().tolist() == [[1, 2], [3, 4], [5, 6]]
    assert_same(lambda v, s1, s2: parts(tf.RaggedTensor.from_nested_row_splits(
        v, [s1, s2]).merge_dims(1, 2)),
        np.array([1, 2, 3, 4, 5], np.int32), np.array([0, 2, 3, 3], np.int64),
        np.array([0, 2, 3, 5], np.int64))


def test_boolean_mask_as_tensorflow():
    rt = tf.ragged.constant(RT)
    dense = tf.constant([[1, 2], [3, 4]])
    assert tf.ragged.boolean_mask(dense, tf.constant([[True, False], [False, True]])).to_list() \
        == [[1], [4]]
    assert tf.ragged.boolean_mask(rt, tf.constant([True, False, True, True])).to_list() == \
        [[1, 2, 3], [], [5, 6]]
    assert tf.ragged.boolean_mask(dense, tf.constant([True, False])).numpy().tolist() == [[1, 2]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4, 5]], []])
    assert tf.ragged.boolean_mask(r3, r3 > 2).to_list() == [[[], [3]], [[4, 5]], []]


def test_ragged_gradients_through_tile_and_boolean_mask_as_tensorflow():
    v = tf.constant([1., 2., 3., 4., 5., 6.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        x = tf.RaggedTensor.from_row_splits(v, [0, 3, 4, 4, 6])
        y = tf.reduce_sum(tf.tile(x, [2, 3]).flat_values * tf.range(36.)) + tf.reduce_sum(
            tf.ragged.boolean_mask(x, x > 2).flat_values * tf.constant([1., 10., 100., 1000.]))
    np.testing.assert_allclose(tape.gradient(y, v).numpy(),
                               [72., 78., 85., 124., 238., 1144.])


def test_uniform_row_length_as_tensorflow():
    assert tf.ragged.constant(RT).uniform_row_length is None
    u = tf.RaggedTensor.from_uniform_row_length(tf.constant([1, 2, 3, 4, 5, 6]), 2)
    assert u.uniform_row_length.numpy() == 2 and u.uniform_row_length.dtype == tf.int64
    assert u.shape.as_list() == [3, 2] and (u + 1).shape.as_list() == [3, 2]
    assert u.row_splits.numpy().tolist() == [0, 2, 4, 6]
    assert repr(u) == "<tf.RaggedTensor [[1, 2],\n [3, 4],\n [5, 6]]>"
    nested = tf.RaggedTensor.from_uniform_row_length(tf.ragged.constant(RT), 2)
    assert nested.shape.as_list() == [2, 2, None]
    assert nested.to_list() == [[[1, 2, 3], [4]], [[], [5, 6]]]
    assert tf.RaggedTensor.from_uniform_row_length(tf.zeros([0]), 0, nrows=3).to_list() == \
        [[], [], []]
    with pytest.raises(ValueError, match="must equal nvals"):
        tf.RaggedTensor.from_uniform_row_length(tf.constant([1, 2, 3, 4, 5]), 2)
    assert tf.expand_dims(tf.ragged.constant([[1, 2], [3]]), 0).shape.as_list() == [1, 2, None]

    @tf.function
    def f(x):
        return x * 2
    assert f(u).shape.as_list() == [3, 2] and f(u).uniform_row_length.numpy() == 2


def test_segment_ids_and_row_splits_as_tensorflow():
    out = tf.ragged.segment_ids_to_row_splits([0, 0, 2])
    assert out.dtype == tf.int64 and out.numpy().tolist() == [0, 2, 2, 3]
    assert tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5).numpy().tolist() == \
        [0, 2, 2, 3, 3, 3]
    out = tf.ragged.segment_ids_to_row_splits(tf.constant([1, 1]), out_type=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [0, 0, 2]
    out = tf.ragged.row_splits_to_segment_ids([0, 2, 2, 3])
    assert out.dtype == tf.int64 and out.numpy().tolist() == [0, 0, 2]
    assert tf.ragged.row_splits_to_segment_ids(tf.constant([0, 2, 2, 3])).dtype == tf.int32


def test_cross_as_tensorflow():
    a = tf.ragged.constant([["a"], ["b", "c"]])
    assert tf.ragged.cross([a, tf.ragged.constant([["d"], ["e"]])]).to_list() == \
        [[b"a_X_d"], [b"b_X_e", b"c_X_e"]]
    assert tf.ragged.cross([a, tf.constant([["d"], ["e"]]), tf.constant([[1], [2]])]).to_list() \
        == [[b"a_X_d_X_1"], [b"b_X_e_X_2", b"c_X_e_X_2"]]
    assert tf.ragged.cross([tf.ragged.constant([["a", "x"], []]),
                            tf.ragged.constant([["d", "f"], ["e"]])]).to_list() == \
        [[b"a_X_d", b"a_X_f", b"x_X_d", b"x_X_f"], []]


# -- tf.shape(rt) ----------------------------------------------------------------------------------

def test_shape_is_a_dynamic_ragged_shape_as_tensorflow():
    s = tf.shape(tf.ragged.constant([[1, 2], [3]]))
    assert repr(s) == "<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>"
    assert s.rank == 2 and s.dtype == tf.int32 and s[0].numpy() == 2
    assert s[0].dtype == tf.int32
    with pytest.raises(ValueError, match="Index 1 is not uniform"):
        s[1]
    inner = tf.shape(tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
    assert repr(inner) == "<DynamicRaggedShape lengths=[2, (2, 1), 2] num_row_partitions=1>"
    assert inner[2].numpy() == 2 and inner.inner_shape.numpy().tolist() == [3, 2]
    uni = tf.shape(tf.RaggedTensor.from_uniform_row_length(
        tf.ragged.constant([[1], [2, 3], [], [4]]), 2))
    assert uni.static_lengths() == [2, 2, (1, 2, 0, 1)] and uni[1].numpy() == 2
    nrows = tf.function(lambda r: tf.shape(r)[0])
    assert nrows(tf.ragged.constant(RT)).numpy() == 4


# -- tf.function with ragged arguments --------------------------------------------------------------

def test_function_with_ragged_arguments_as_tensorflow():
    concat_reverse = tf.function(lambda x, axis: tf.concat([x, tf.reverse(x, [axis])], axis))
    assert concat_reverse(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), axis=1).to_list() == \
        [[1, 2, 2, 1], [3, 3], [4, 5, 6, 6, 5, 4]]
    max_min = tf.function(
        lambda rt: (tf.math.reduce_max(rt, axis=-1), tf.math.reduce_min(rt, axis=-1)),
        input_signature=[tf.RaggedTensorSpec(shape=[None, None], dtype=tf.int32)])
    hi, lo = max_min(tf.ragged.constant([[1, 2], [3], [4, 5, 6]]))
    assert hi.numpy().tolist() == [2, 3, 6] and lo.numpy().tolist() == [1, 3, 4]
    rt = tf.ragged.constant(RT)
    plus_one = tf.function(lambda x: x + 1).get_concrete_function(rt)
    assert plus_one(rt).to_list() == [[2, 3, 4], [5], [], [6, 7]]
    mean = tf.function(lambda x: tf.reduce_mean(x, axis=1))(tf.ragged.constant([[1, 2], []]))
    assert mean.dtype == tf.float64 and mean.numpy()[0] == 1.5 and math.isnan(mean.numpy()[1])


# -- datasets of ragged elements ------------------------------------------------------------------

def test_dataset_of_ragged_elements_as_tensorflow():
    ds = tf.data.Dataset.from_tensor_slices({
        "colors": tf.ragged.constant([["red", "blue"], ["green"], ["yellow", "blue"]]),
        "lengths": [7, 8, 9]})
    assert repr(ds.element_spec["colors"]) == \
        "RaggedTensorSpec(TensorShape([None]), tf.string, 0, tf.int64)"
    elements = list(ds)
    assert elements[1]["colors"].numpy().tolist() == [b"green"]
    assert elements[2]["lengths"].numpy() == 9
    batches = list(ds.batch(2))
    assert batches[0]["colors"].to_list() == [[b"red", b"blue"], [b"green"]]
    assert batches[1]["lengths"].numpy().tolist() == [9]
    mapped = tf.data.Dataset.from_tensor_slices({"lengths": [7, 8]}).map(
        lambda f: {"mean_length": tf.math.reduce_mean(f["lengths"]),
                   "length_ranges": tf.ragged.range(f["lengths"])})
    assert [e["length_ranges"].to_list() for e in mapped] == [[list(range(7))], [list(range(8))]]


def test_ragged_batch_and_dense_to_ragged_batch_as_tensorflow():
    ds = tf.data.Dataset.from_tensor_slices([1, 5, 3, 2, 8]).map(tf.range)
    expected = [[[0], [0, 1, 2, 3, 4]], [[0, 1, 2], [0, 1]], [[0, 1, 2, 3, 4, 5, 6, 7]]]
    batched = ds.ragged_batch(2)
    assert repr(batched.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    assert [b.to_list() for b in batched] == expected
    assert [b.to_list() for b in ds.apply(tf.data.experimental.dense_to_ragged_batch(2))] == \
        expected
    assert [t.numpy().tolist() for t in batched.unbatch()] == [[0], [0, 1, 2, 3, 4], [0, 1, 2],
                                                               [0, 1], list(range(8))]
    nested = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1, 2], [3]], [[4]]]))
    assert repr(nested.ragged_batch(2).element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None, None]), tf.int32, 2, tf.int64)"
    assert [b.to_list() for b in nested.ragged_batch(2)] == [[[[1, 2], [3]], [[4]]]]
    mixed = tf.data.Dataset.from_tensor_slices(
        (tf.ragged.constant([[1, 2], [3], [4, 5, 6]]), [1, 2, 3])).map(
        lambda r, n: (r, tf.range(n), n)).ragged_batch(2)
    first = next(iter(mixed))
    assert [first[0].to_list(), first[1].to_list(), first[2].numpy().tolist()] == \
        [[[1, 2], [3]], [[0], [0, 1]], [1, 2]]
    dense = list(tf.data.Dataset.from_tensors(tf.ones([2, 3])).repeat(3).ragged_batch(2))
    assert [d.shape.as_list() for d in dense] == [[2, 2, 3], [1, 2, 3]]


def test_staged_loop_over_a_ragged_dataset():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += tf.reduce_sum(x)
        return s
    ds = tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3]], dtype=tf.int64))
    assert total(ds).numpy() == 6


def test_variable_first_assigned_in_a_dataset_loop_is_refused_as_tensorflow():
    @tf.function
    def f(ds):
        for x in ds:
            last = x
        return last
    with pytest.raises(ValueError, match="'last' must be defined before the loop"):
        f(tf.data.Dataset.range(3))

    @tf.function
    def g(rt):
        for row in rt:
            last = row
        return last
    with pytest.raises(ValueError, match="'last' must be defined before the loop"):
        g(tf.ragged.constant([[1], [2, 3]]))
