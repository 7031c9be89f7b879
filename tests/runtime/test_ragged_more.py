"""RaggedTensor: multi-axis slicing, broadcasting, tf.ragged.range, gradients, loop state.

Expected values and errors recorded from TensorFlow 2.21 (/tmp/tfcheck_ext/rg1.py, rg2.py,
loop.py).
"""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import staged

RT = [[1, 2, 3], [4], [5, 6]]
R3 = [[[1, 2], [3]], [[4, 5, 6]]]


def _rt():
    return tf.ragged.constant(RT)


def _out(x):
    return x.to_list() if isinstance(x, tf.RaggedTensor) else x.numpy().tolist()


@pytest.mark.parametrize("index, expected", [
    (lambda r: r[:, 1:], [[2, 3], [], [6]]),
    (lambda r: r[:, :2], [[1, 2], [4], [5, 6]]),
    (lambda r: r[1:, :1], [[4], [5]]),
    (lambda r: r[:, ::2], [[1, 3], [4], [5]]),
    (lambda r: r[:, ::-1], [[3, 2, 1], [4], [6, 5]]),
    (lambda r: r[:, -2:], [[2, 3], [4], [5, 6]]),
    (lambda r: r[::2], [[1, 2, 3], [5, 6]]),
    (lambda r: r[::-1], [[5, 6], [4], [1, 2, 3]]),
    (lambda r: r[:, tf.newaxis], [[[1, 2, 3]], [[4]], [[5, 6]]]),
    (lambda r: r[tf.newaxis], [[[1, 2, 3], [4], [5, 6]]]),
    (lambda r: r[1, 0], 4),
    (lambda r: r[..., :1], [[1], [4], [5]]),
])
def test_slicing_as_tensorflow(index, expected):
    assert _out(index(_rt())) == expected


def test_slicing_deeper_and_uniform_dims():
    r3 = tf.ragged.constant(R3)
    assert r3[:, :, -1:].to_list() == [[[2], [3]], [[6]]]
    u = tf.RaggedTensor.from_tensor(tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]]),
                                    lengths=[2, 1])
    assert u[:, :, 1].to_list() == [[2, 4], [6]]


@pytest.mark.parametrize("index", [
    lambda r: r[:, 0], lambda r: r[:, -1], lambda r: r[..., 0], lambda r: r[:, 3]])
def test_indexing_an_inner_ragged_dimension_is_refused(index):
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension."):
        index(_rt())


def test_slicing_staged_matches_eager():
    spec = tf.RaggedTensorSpec([None, None], tf.int32)

    @tf.function(input_signature=[spec, tf.TensorSpec([], tf.int32)])
    def f(r, a):
        return r[:, a:], r[::-1, ::2], r[:, :-1], r[a::2, tf.newaxis]
    for a in (0, 1, -1):
        out = f(_rt(), tf.constant(a))
        r = _rt()
        expected = (r[:, a:], r[::-1, ::2], r[:, :-1], r[a::2, tf.newaxis])
        assert [o.to_list() for o in out] == [e.to_list() for e in expected]

    def fn(values, splits):
        r = tf.RaggedTensor.from_row_splits(values, splits)
        s = r[::-1, 1::2]
        return s.flat_values, s.row_splits
    values, splits = staged(fn, np.arange(1, 7, dtype=np.int32), np.array([0, 3, 4, 6]))
    assert values.tolist() == [6, 2] and splits.tolist() == [0, 1, 1, 2]


def test_broadcasting_with_dense_as_tensorflow():
    assert (_rt() + tf.constant([[10], [20], [30]])).to_list() == [[11, 12, 13], [24], [35, 36]]
    with_inner = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert (with_inner + tf.constant([10, 20])).to_list() == [[[11, 22]], [[13, 24], [15, 26]]]
    r3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert (r3 + tf.constant([[[1]], [[2]]])).to_list() == [[[2, 3], [4]], [[6]]]
    assert (tf.constant([[1], [2], [3]]) * _rt()).to_list() == [[1, 2, 3], [8], [15, 18]]
    with pytest.raises(InvalidArgumentError):
        _rt() + tf.constant([[1, 2, 3]])  # a ragged dimension broadcasts from size 1 only
    with pytest.raises(InvalidArgumentError):
        _rt() + tf.constant([[1], [2]])
    with pytest.raises(InvalidArgumentError):
        _rt() + tf.ragged.constant([[1], [2], [3]])  # ragged operands: identical splits

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32),
                                  tf.TensorSpec([None, 1], tf.int32)])
    def f(r, d):
        return r * d
    assert f(_rt(), tf.constant([[1], [2], [3]])).to_list() == [[1, 2, 3], [8], [15, 18]]


def test_ragged_range_as_tensorflow():
    assert tf.ragged.range([3, 5, 2]).to_list() == [[0, 1, 2], [0, 1, 2, 3, 4], [0, 1]]
    assert tf.ragged.range([0, 5, 3], [3, 5, -1], [1, 1, -2]).to_list() == \
        [[0, 1, 2], [], [3, 1]]
    assert tf.ragged.range(0, [1.0, 2.5], 0.5).to_list() == \
        [[0.0, 0.5], [0.0, 0.5, 1.0, 1.5, 2.0]]
    assert tf.ragged.range(3).to_list() == [[0, 1, 2]]
    r = tf.ragged.range(tf.constant([2, 3], tf.int64))
    assert r.row_splits.numpy().tolist() == [0, 2, 5] and r.dtype == tf.int64
    with pytest.raises(InvalidArgumentError, match="Requires delta != 0"):
        tf.ragged.range([1, 2], 0, 0)
    with pytest.raises(InvalidArgumentError, match="must have the same shape"):
        tf.ragged.range([1, 2], [3], 1)


_V = [1., 5., 5., 2., 3., 4.]
_S = [0, 3, 3, 6]


@pytest.mark.parametrize("fn, expected", [
    (lambda r: tf.reduce_sum(r, axis=1), [1.0, 1.0, 1.0, 3.0, 3.0, 3.0]),
    (lambda r: tf.reduce_mean(r, axis=1), [1 / 3, 1 / 3, 1 / 3, 1.0, 1.0, 1.0]),
    (lambda r: tf.reduce_max(r, axis=1), [0.0, 0.5, 0.5, 0.0, 0.0, 3.0]),
    (lambda r: tf.reduce_min(r, axis=0), [1.0, 0.0, 0.0, 0.0, 2.0, 3.0]),
    (lambda r: tf.reduce_mean(r, axis=0), [0.5, 1.0, 1.5, 0.5, 1.0, 1.5]),
    (lambda r: tf.reduce_prod(r, axis=1), [25.0, 5.0, 5.0, 36.0, 24.0, 18.0]),
    (lambda r: r.to_tensor(default_value=7.0), [1.0, 2.0, 3.0, 7.0, 8.0, 9.0]),
    (lambda r: r.to_tensor(shape=[3, 2]), [1.0, 2.0, 0.0, 5.0, 6.0, 0.0]),
    (lambda r: r[:, 1:].flat_values, [0.0, 1.0, 2.0, 0.0, 3.0, 4.0]),
    (lambda r: (r * tf.constant([[1.], [2.], [3.]], r.dtype)).flat_values,
     [1.0, 2.0, 3.0, 12.0, 15.0, 18.0]),
    (lambda r: r[::-1, ::2].flat_values, [3.0, 0.0, 4.0, 1.0, 0.0, 2.0]),
])
def test_gradients_through_values_as_tensorflow(fn, expected):
    def loss(v, splits=_S):
        y = tf.reshape(fn(tf.RaggedTensor.from_row_splits(v, tf.constant(splits, tf.int64))),
                       [-1])
        return tf.reduce_sum(y * (tf.cast(tf.range(tf.size(y)), y.dtype) + 1.0))

    v = tf.Variable(_V)
    with tf.GradientTape() as tape:
        y = loss(v * 1.0)
    assert np.allclose(tape.gradient(y, v).numpy(), expected)

    @tf.function
    def staged_grad(x):
        with tf.GradientTape() as t:
            t.watch(x)
            out = loss(x)
        return t.gradient(out, x)
    # (an IndexedSlices for the gathering cases, as in TensorFlow)
    assert np.allclose(tf.convert_to_tensor(staged_grad(tf.constant(_V))).numpy(), expected)

    # numerically, on rows without ties or empty rows (where mean and max are smooth)
    x0, splits, eps = np.array([1., 5., 2., 3., 4., 6.]), [0, 2, 3, 6], 1e-6
    x = tf.constant(x0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = loss(x, splits)
    numeric = [(float(loss(tf.constant(x0 + eps * e), splits))
                - float(loss(tf.constant(x0 - eps * e), splits))) / (2 * eps)
               for e in np.eye(len(x0))]
    assert np.allclose(tf.convert_to_tensor(tape.gradient(y, x)).numpy(), numeric, atol=1e-5)


def test_gradients_of_default_value_and_from_tensor():
    d = tf.Variable(7.0)
    v = tf.constant(_V)
    with tf.GradientTape() as tape:
        r = tf.RaggedTensor.from_row_splits(v, tf.constant(_S, tf.int64))
        y = tf.reduce_sum(r.to_tensor(default_value=d) * tf.constant([[1., 2., 3.]]))
    assert float(tape.gradient(y, d)) == 6.0
    x = tf.Variable([[1., 2., 3.], [4., 5., 6.]])
    with tf.GradientTape() as tape:
        r = tf.RaggedTensor.from_tensor(x, lengths=[2, 1])
        y = tf.reduce_sum(r.flat_values * tf.constant([1., 2., 3.]))
    assert tape.gradient(y, x).numpy().tolist() == [[1.0, 2.0, 0.0], [3.0, 0.0, 0.0]]


def test_for_over_rows_refuses_a_variable_first_assigned_inside():
    @tf.function
    def f(r):
        for row in r:
            last = tf.reduce_sum(row)
        return last

    with pytest.raises(ValueError, match="'last' must be defined before the loop"):
        f(_rt())

    @tf.function
    def g(r):
        s = tf.constant(0)
        for row in r:
            tmp = row  # not used after the loop: a local of the body
            s += tf.reduce_sum(tmp)
        return s
    assert int(g(_rt())) == 21


def test_concat_stack_gather_as_tensorflow():
    a, b = tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4], [5, 6, 7]])
    dense = tf.constant([[8, 9], [10, 11]])
    assert tf.concat([a, b], 0).to_list() == [[1, 2], [3], [4], [5, 6, 7]]
    assert tf.concat([a, b], 1).to_list() == [[1, 2, 4], [3, 5, 6, 7]]
    assert tf.concat([a, b], -1).to_list() == [[1, 2, 4], [3, 5, 6, 7]]
    assert tf.concat([a, dense], 0).to_list() == [[1, 2], [3], [8, 9], [10, 11]]
    assert tf.concat([a, dense], 1).to_list() == [[1, 2, 8, 9], [3, 10, 11]]
    assert tf.stack([a, b], 0).to_list() == [[[1, 2], [3]], [[4], [5, 6, 7]]]
    assert tf.stack([a, b], 1).to_list() == [[[1, 2], [4]], [[3], [5, 6, 7]]]
    assert tf.ragged.stack([a, b]).to_list() == [[[1, 2], [3]], [[4], [5, 6, 7]]]
    assert tf.ragged.stack([[1, 2], [3]]).to_list() == [[1, 2], [3]]
    r3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert tf.concat([r3, tf.ragged.constant([[[5]]])], 0).to_list() == \
        [[[1], [2, 3]], [[4]], [[5]]]
    assert tf.concat([r3, tf.ragged.constant([[[5]], [[6, 7]]])], 1).to_list() == \
        [[[1], [2, 3], [5]], [[4], [6, 7]]]
    with pytest.raises(InvalidArgumentError, match="identical ragged splits"):
        tf.concat([r3, tf.ragged.constant([[[5]], [[6, 7]]])], 2)
    with pytest.raises(InvalidArgumentError, match="incompatible shapes"):
        tf.concat([a, tf.ragged.constant([[1]])], 1)
    assert tf.gather(a, [1, 0, 1]).to_list() == [[3], [1, 2], [3]]
    assert tf.gather(tf.constant([10, 20, 30]), tf.ragged.constant([[2], [0, 1]])).to_list() == \
        [[30], [10, 20]]
    assert tf.zeros_like(a).to_list() == [[0, 0], [0]]
    ones = tf.ones_like(a, dtype=tf.float32)
    assert ones.dtype == tf.float32 and ones.to_list() == [[1.0, 1.0], [1.0]]
    assert int(tf.size(a)) == 3


def test_concat_rows_staged_and_its_gradient():
    spec = tf.RaggedTensorSpec([None, None], tf.float32)

    @tf.function(input_signature=[spec, spec])
    def f(x, y):
        return tf.concat([x, y], axis=1)
    a = tf.ragged.constant([[1., 2.], [3.]])
    b = tf.ragged.constant([[4.], [5., 6., 7.]])
    assert f(a, b).to_list() == [[1, 2, 4], [3, 5, 6, 7]]
    va, vb = tf.Variable([1., 2., 3.]), tf.Variable([4., 5., 6., 7.])
    with tf.GradientTape() as tape:
        x = tf.RaggedTensor.from_row_splits(va * 1.0, tf.constant([0, 2, 3], tf.int64))
        y = tf.RaggedTensor.from_row_splits(vb * 1.0, tf.constant([0, 1, 4], tf.int64))
        joined = tf.concat([x, y], axis=1).flat_values
        loss = tf.reduce_sum(joined * tf.range(1.0, 8.0))
    ga, gb = tape.gradient(loss, [va, vb])
    assert ga.numpy().tolist() == [1.0, 2.0, 4.0] and gb.numpy().tolist() == [3.0, 5.0, 6.0, 7.0]


def test_sparse_conversions_and_partition_factories_as_tensorflow():
    a = tf.ragged.constant([[1, 2], [3]])
    st = a.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0], [0, 1], [1, 0]]
    assert st.values.numpy().tolist() == [1, 2, 3] and st.dense_shape.numpy().tolist() == [2, 2]
    assert tf.RaggedTensor.from_sparse(st).to_list() == [[1, 2], [3]]
    st3 = tf.ragged.constant([[[1], [2, 3]], [[4]]]).to_sparse()
    assert st3.indices.numpy().tolist() == [[0, 0, 0], [0, 1, 0], [0, 1, 1], [1, 0, 0]]
    assert st3.dense_shape.numpy().tolist() == [2, 2, 2]
    assert tf.RaggedTensor.from_row_starts([1, 2, 3], [0, 2]).to_list() == [[1, 2], [3]]
    assert tf.RaggedTensor.from_row_limits([1, 2, 3], [2, 3]).to_list() == [[1, 2], [3]]


def test_dataset_element_protocol_batch_and_unbatch():
    """What tf.data carries for a ragged element: one variant item (a row each when sliced),
    and the specs of a batch and of its rows (TensorFlow's from_tensor_slices / batch)."""
    rt = tf.ragged.constant([[1, 2], [3], [4, 5, 6]])
    spec = rt._type_spec
    rows = spec._unbatch()
    assert repr(rows) == "RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64)"
    assert repr(rows._batch(None)) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64)"
    items = spec._to_variant(rt, rows=True)
    assert items.shape.as_list() == [3]
    assert rows._from_variant(items[1]).numpy().tolist() == [3]
    assert rows._batch(None)._from_variant(items[:2]).to_list() == [[1, 2], [3]]
    assert spec._from_variant(spec._to_variant(rt)).to_list() == [[1, 2], [3], [4, 5, 6]]
    r3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    items = r3._type_spec._to_variant(r3, rows=True)
    back = r3._type_spec._unbatch()._batch(2)._from_variant(items)
    assert back.to_list() == [[[1], [2, 3]], [[4]]]

    @tf.function
    def staged(r):
        s = r._type_spec
        return s._unbatch()._batch(None)._from_variant(s._to_variant(r, rows=True))
    assert staged(rt).to_list() == [[1, 2], [3], [4, 5, 6]]


def test_equality_is_elementwise_and_unhashable():
    a = tf.ragged.constant([[1, 2], [3]])
    assert (a == tf.ragged.constant([[1, 5], [3]])).to_list() == [[True, False], [True]]
    assert (a != 1).to_list() == [[False, True], [True]]
    assert (a == None) is False  # noqa: E711  (as TensorFlow: None is never equal)
    with pytest.raises(TypeError, match="RaggedTensor is unhashable."):
        hash(a)
