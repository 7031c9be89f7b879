"""Composites, the rest of issue #13: feature crosses, row partitions, misuse errors, programs.

Expected values and error types were recorded from TensorFlow 2.21 (side venv) as literals.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from graph.farmhash import fingerprint64
# (tf.experimental.RowPartition once runtime/experimental.py exports it)
RowPartition = tf.experimental.RowPartition

# -- FarmHash Fingerprint64 (tf.fingerprint's farmhash64, little-endian) --------------------------

_FINGERPRINTS = {
    b"": 11160318154034397263, b"a": 12917804110809363939, b"ab": 12289600257749001502,
    b"abc": 2640714258260161385, b"abcd": 1897425971756105985,
    b"abcdefg": 4341691227789030229, b"abcdefgh": 18368443631171807497,
    b"0123456789abcdef": 6105018409752412263, b"0123456789abcdefg": 12024047538191061578,
    b"x" * 31: 14488865282191048223, b"x" * 32: 12901576723999808517,
    b"y" * 33: 8610735037765521150,
    b"hello world, this is a string of about 60 bytes long!!!!!": 17769269812097926181,
    b"z" * 64: 294799756062990872, b"z" * 65: 8299915583762718517,
    bytes(range(256)) * 3: 2092031361577642528,
    b"\xff\xfe\x80" * 7 + b"q" * 100: 610332150648841574,
}


def test_fingerprint64_equals_tensorflows():
    assert {s: fingerprint64(s) for s in _FINGERPRINTS} == _FINGERPRINTS


# -- tf.ragged.cross_hashed ---------------------------------------------------------------------

def _abc():
    a = tf.ragged.constant([["a", "b", "c"], ["d"], []])
    b = tf.ragged.constant([["x", "y"], ["z"], ["w"]])
    c = tf.ragged.constant([[1, 2], [3], [4]], dtype=tf.int64)
    return a, b, c


def test_cross_hashed_values_are_tensorflows():
    a, b, c = _abc()
    assert tf.ragged.cross_hashed([a, b]).to_list() == [
        [1484974617627318892, 3920818148696658747, 3552177129620670004,
         5470948523078679805, 194339337503152553, 6571367263544129360],
        [1162820126533639634], []]
    assert tf.ragged.cross_hashed([a, b], num_buckets=10).to_list() == [[2, 7, 4, 5, 3, 0], [1],
                                                                        []]
    assert tf.ragged.cross_hashed([a, c], num_buckets=100, hash_key=7).to_list() == [
        [77, 40, 52, 93, 58, 19], [31], []]
    assert tf.ragged.cross_hashed([a]).to_list() == [
        [3550520439517529108, 5701958020731327761, 5287514571041673476],
        [4346144516708487356], []]
    assert tf.ragged.cross_hashed([c]).to_list() == [
        [5199413699614396413, 5167850198417433268], [1424184489956106035],
        [7063646998832180613]]
    # int32 values are hashed as int64; a hash key past 2**63 is the same uint64 as negative
    assert tf.ragged.cross_hashed([tf.ragged.constant([[1, 2], [3], [4]]), a]).to_list()[1] == \
        [6097522101708857197]
    for key in (2 ** 64 - 5, -5):
        assert tf.ragged.cross_hashed([tf.ragged.constant([[-1, 2 ** 40]], dtype=tf.int64)],
                                      hash_key=key).to_list() == [
            [6781900928448224905, 3913908456855443588]]


def test_cross_hashed_of_dense_and_sparse_inputs():
    a, b, _ = _abc()
    out = tf.ragged.cross_hashed([tf.constant([["a"], ["b"], ["c"]]), a])
    assert out.to_list() == [[3112133398209135108, 5527121959452899179, 1265624096873407566],
                             [2292520902626215647], []]
    assert out.dtype == tf.int64 and out.row_splits.dtype == tf.int64
    sp = tf.sparse.from_dense(tf.constant([["a", ""], ["", "q"], ["r", "s"]]))
    assert tf.ragged.cross_hashed([sp, b]).to_list() == [
        [1484974617627318892, 3920818148696658747], [2457612447715259137],
        [9121319394037654667, 8114403240824831208]]
    assert tf.ragged.cross([tf.sparse.from_dense(tf.constant([[1, 0], [0, 2], [3, 4]], tf.int64)),
                            tf.constant([["a"], ["b"], ["c"]])]).to_list() == [
        [b"1_X_a"], [b"2_X_b"], [b"3_X_c", b"4_X_c"]]


def test_cross_row_splits_dtype_follows_the_ragged_inputs():
    a = tf.ragged.constant([["a", "b"], ["d"]]).with_row_splits_dtype(tf.int32)
    out = tf.ragged.cross([a, tf.constant([["x"], ["y"]])])
    assert out.row_splits.dtype == tf.int32 and out.to_list() == [[b"a_X_x", b"b_X_x"],
                                                                  [b"d_X_y"]]
    out = tf.ragged.cross_hashed([a])
    assert out.row_splits.dtype == tf.int32
    assert out.to_list() == [[3550520439517529108, 5701958020731327761], [4346144516708487356]]


def test_cross_hashed_staged_equals_eager():
    @tf.function
    def f(x, y):
        return tf.ragged.cross_hashed([x, y], num_buckets=1000)
    out = f(tf.ragged.constant([["a", "b"], ["c"]]), tf.constant([[1], [2]]))
    assert out.to_list() == [[485, 983], [523]]     # TensorFlow's


def test_cross_misuse_raises_tensorflows_errors():
    a, b, _ = _abc()
    assert tf.ragged.cross_hashed([]).to_list() == []      # TensorFlow: <tf.RaggedTensor []>
    with pytest.raises(ValueError, match=r"Unexpected dtype for inputs\[0\]: <dtype: 'float32'>"):
        tf.ragged.cross_hashed([tf.ragged.constant([[1., 2], [3], [4]]), a])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="inputs must all have the same batch dimension size"):
        tf.ragged.cross_hashed([a, tf.ragged.constant([["x"]])])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Value for attr 'num_buckets' of -1 must be at least minimum 0"):
        tf.ragged.cross_hashed([a], num_buckets=-1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="tf.ragged.cross only supports inputs with rank=2"):
        tf.ragged.cross([tf.constant(["a", "b"]), a])
    with pytest.raises(ValueError, match="tf.ragged.cross only supports inputs with rank=2"):
        tf.ragged.cross([a, tf.ragged.constant([[["a"]], [["b"]], [["c"]]])])
    with pytest.raises(TypeError, match="Inputs must be a list"):
        tf.ragged.cross_hashed(a)



def test_sparse_cross_and_cross_hashed_as_tensorflow():
    a, b, _ = _abc()
    sa, sb = a.to_sparse(), b.to_sparse()
    out = tf.sparse.cross_hashed([sa, sb])
    assert out.indices.numpy().tolist() == [[0, 0], [0, 1], [0, 2], [0, 3], [0, 4], [0, 5],
                                            [1, 0]]
    assert out.values.numpy().tolist() == [
        1484974617627318892, 3920818148696658747, 3552177129620670004, 5470948523078679805,
        194339337503152553, 6571367263544129360, 1162820126533639634]
    assert out.dense_shape.numpy().tolist() == [3, 6]
    assert tf.sparse.cross([sa, sb]).values.numpy().tolist() == [
        b"a_X_x", b"a_X_y", b"b_X_x", b"b_X_y", b"c_X_x", b"c_X_y", b"d_X_z"]
    out = tf.sparse.cross([sa, tf.constant([["q"], ["r"], ["s"]])], separator="-")
    assert out.values.numpy().tolist() == [b"a-q", b"b-q", b"c-q", b"d-r"]
    assert out.dense_shape.numpy().tolist() == [3, 3]
    assert tf.sparse.cross_hashed([sa, sb], num_buckets=10, hash_key=3).values.numpy().tolist() \
        == [7, 9, 3, 5, 4, 2, 4]
    assert tf.sparse.cross_hashed([tf.constant([[1, 2]], tf.int64), tf.constant([["a"]])]) \
        .values.numpy().tolist() == [6586076667385110638, 7765088336588600593]
    assert tf.sparse.cross([tf.constant([[1.]])]).values.numpy().tolist() == [b"1"]
    assert tf.sparse.cross_hashed([tf.constant([[1]])]).values.numpy().tolist() == [
        5199413699614396413]
    with pytest.raises(TypeError, match="All inputs must be Tensor or SparseTensor"):
        tf.sparse.cross([a])

# -- RowPartition and DynamicRaggedShape.row_partitions -------------------------------------------



def _np(t):
    return t.numpy().tolist()


def test_row_partitions_of_a_shape_as_tensorflow():
    s = tf.shape(tf.ragged.constant([[[1, 2], [3]], [[4]], []]))
    assert repr(s.row_partitions) == ("(tf.RowPartition(row_splits=[0 2 3 3]), "
                                      "tf.RowPartition(row_splits=[0 2 3 4]))")
    rp = s.row_partitions[0]
    assert rp.dtype == tf.int32        # the shape's dtype
    assert _np(rp.row_splits()) == [0, 2, 3, 3] and _np(rp.row_lengths()) == [2, 1, 0]
    assert _np(rp.value_rowids()) == [0, 0, 1] and _np(rp.nrows()) == 3 and _np(rp.nvals()) == 3
    assert _np(rp.row_starts()) == [0, 2, 3] and _np(rp.row_limits()) == [2, 3, 3]
    assert rp.uniform_row_length() is None and not rp.is_uniform()
    assert _np(rp.offsets_in_rows()) == [0, 1, 0]
    assert (rp.static_nrows, rp.static_nvals, rp.static_uniform_row_length) == (3, None, None)
    s64 = tf.shape(tf.ragged.constant([[1, 2], [3]]), out_type=tf.int64)
    assert s64.row_partitions[0].row_splits().dtype == tf.int64
    s2 = tf.shape(tf.RaggedTensor.from_uniform_row_length(tf.range(6), 2))
    assert repr(s2.row_partitions) == "(tf.RowPartition(nrows=3, uniform_row_length=2),)"


def test_row_partition_factories_as_tensorflow():
    p = RowPartition.from_row_lengths([2, 0, 1])
    assert repr(p) == "tf.RowPartition(row_splits=[0 2 2 3])" and p.dtype == tf.int64
    assert (p.static_nrows, p.static_nvals) == (3, None)
    p = RowPartition.from_uniform_row_length(3, nvals=6)
    assert repr(p) == "tf.RowPartition(nrows=2, uniform_row_length=3)" and p.is_uniform()
    assert _np(p.uniform_row_length()) == 3 and _np(p.row_lengths()) == [3, 3]
    assert repr(p._type_spec) == ("RowPartitionSpec(nrows=2, nvals=6, uniform_row_length=3, "
                                  "dtype=tf.int64)")
    assert RowPartition.from_uniform_row_length(2, nrows=3).static_nvals == 6
    assert _np(RowPartition.from_uniform_row_length(0, nvals=0).nrows()) == 0
    p = RowPartition.from_value_rowids([0, 0, 2], nrows=4)
    assert _np(p.row_splits()) == [0, 2, 2, 3, 3] and (p.static_nvals, p.static_nrows) == (3, 4)
    p = RowPartition.from_row_starts([0, 2, 2], nvals=5)
    assert _np(p.row_splits()) == [0, 2, 2, 5] and p.static_nvals == 5
    assert _np(RowPartition.from_row_limits([2, 2, 5]).row_splits()) == [0, 2, 2, 5]
    p = RowPartition.from_row_splits([0, 2, 3]).with_dtype(tf.int32)
    assert p.dtype == tf.int32 and _np(p.row_splits()) == [0, 2, 3]
    assert RowPartition.from_row_splits(tf.constant([0, 2, 3], tf.int32)).dtype == tf.int32
    assert RowPartition.from_row_splits([0, 2, 3], dtype_hint=tf.int32).dtype == tf.int32
    assert repr(RowPartition.from_row_splits([0, 2, 3])._type_spec) == (
        "RowPartitionSpec(nrows=2, nvals=None, uniform_row_length=None, dtype=tf.int64)")


def test_row_partition_misuse():
    with pytest.raises(tf.errors.InvalidArgumentError, match="from_row_splits"):
        RowPartition.from_row_splits([1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="from_row_splits"):
        RowPartition.from_row_splits([0, 3, 2])
    with pytest.raises(tf.errors.InvalidArgumentError):
        RowPartition.from_row_lengths([1, -2])
    with pytest.raises(ValueError):                       # TensorFlow: must have rank 1
        RowPartition.from_row_splits([[0, 2]])
    with pytest.raises(ValueError,
                       match="uniform_row_length=4 times nrows=1 must equal nvals=6"):
        RowPartition.from_uniform_row_length(4, nvals=6)
    with pytest.raises(ValueError, match="constructor is private"):
        RowPartition(tf.constant([0]))


def test_row_partition_in_tf_function():
    @tf.function
    def lengths(x):
        rp = tf.shape(x).row_partitions[0]
        return rp.row_lengths(), rp.nrows()

    rows, n = lengths(tf.ragged.constant([[1, 2], [3]]))
    assert _np(rows) == [2, 1] and _np(n) == 2 and rows.dtype == tf.int32

    seen = []

    @tf.function
    def doubled(p):
        seen.append(repr(p))
        return RowPartition.from_row_lengths(p.row_lengths() * 2)

    out = doubled(RowPartition.from_row_splits([0, 2, 3]))
    assert repr(out) == "tf.RowPartition(row_splits=[0 4 6])"    # TensorFlow's
    assert seen[0].startswith("tf.RowPartition(row_splits=Tensor(")
    doubled(RowPartition.from_row_splits([0, 1, 3]))
    assert len(seen) == 1          # same spec: one trace


# -- ragged + ragged of different ragged ranks; misuse errors as TensorFlow's ---------------------

R = tf.ragged.constant


def test_ragged_ranks_align_when_the_inner_dimensions_are_uniform():
    a = R([[[1, 2]], [[3, 4]]], ragged_rank=1)
    b = R([[[1, 2]], [[3, 4]]])
    for out in (a + b, b + a):        # TensorFlow: ragged_rank 2, [[[2, 4]], [[6, 8]]]
        assert out.ragged_rank == 2 and out.to_list() == [[[2, 4]], [[6, 8]]]
    assert tf.math.maximum(a, b).to_list() == [[[1, 2]], [[3, 4]]]


def test_ragged_ranks_that_cannot_align_raise_invalid_argument():
    a = R([[[1, 2]], [[3, 4]]], ragged_rank=1)
    with pytest.raises(tf.errors.InvalidArgumentError):            # different splits
        a + R([[[1, 2]], [[3]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        R([[1, 2], [3]]) + R([[[1], [2]], [[3]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y did not hold"):
        tf.add(R([[[1, 2]], [[3]]]), R([[1, 2], [3]]))
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.where(R([[True, False], [True]]), R([[1, 2], [3]]), R([[[1], [2]], [[3]]]))


@pytest.mark.parametrize("make, error, match", [
    (lambda: R([[1, 2], [3]]) + R([[1], [2], [3]]), tf.errors.InvalidArgumentError, None),
    (lambda: R([[1, 2], [3]]) + R([[1., 2.], [3.]]), tf.errors.InvalidArgumentError,
     "cannot compute AddV2 as input #1"),
    (lambda: R([[1, 2], [3]]) + 1.5, tf.errors.InvalidArgumentError,
     "cannot compute AddV2 as input #1"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 2, 3]),
     tf.errors.InvalidArgumentError, "Arguments to from_row_splits do not form a valid"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 3, 2, 3]),
     tf.errors.InvalidArgumentError, "Arguments to from_row_splits do not form a valid"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 2]), tf.errors.InvalidArgumentError,
     "do not form a valid RaggedTensor"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [0., 3.]), ValueError,
     "row_splits must have dtype int32 or int64"),
    (lambda: tf.RaggedTensor.from_row_splits([1, 2, 3], [[0, 3]]), ValueError, None),
    (lambda: tf.RaggedTensor.from_row_lengths([1, 2, 3], [4, -1]),
     tf.errors.InvalidArgumentError, None),
    (lambda: tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 2, 1]),
     tf.errors.InvalidArgumentError, None),
    (lambda: tf.RaggedTensor.from_uniform_row_length([1, 2, 3], 2), ValueError,
     "uniform_row_length=2 times nrows=1 must equal nvals=3"),
    (lambda: tf.RaggedTensor.from_row_splits(1, [0, 1]), tf.errors.InvalidArgumentError, None),
    (lambda: R([[1, [2]], [3]]), ValueError, "all scalar values must have the same nesting"),
    (lambda: R([[1, 2], [3]], ragged_rank=2), ValueError,
     "pylist has scalar values depth 2, but ragged_rank=2 requires scalar value depth greater "
     "than 2"),
    (lambda: R([[[1, 2]], [[3]]], ragged_rank=1), ValueError,
     "inner values have inconsistent shape"),
    (lambda: R([[1, 2], [3]])[:, 1], ValueError, "Cannot index into an inner ragged dimension"),
    (lambda: R([[1, 2], [3]]).to_tensor(shape=[2]), tf.errors.InvalidArgumentError,
     r"rt_input.shape and shape=\[2\] are incompatible: rt_input.rank = 2 but shape.rank = 1"),
    (lambda: tf.reduce_sum(R([[1, 2], [3]]), axis=2), ValueError,
     "axis=2 out of bounds: expected -2<=axis<2"),
    (lambda: tf.gather(R([[1, 2], [3]]), [5]), tf.errors.InvalidArgumentError,
     r"indices\[0\] = 5 is not in \[0, 2\)"),
    (lambda: tf.concat([R([[1]]), R([[1], [2]])], axis=1), tf.errors.InvalidArgumentError,
     r"Input tensors at index 0 \(=x\) and 1 \(=y\) have incompatible shapes"),
])
def test_ragged_misuse_errors_as_tensorflow(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_row_lengths_axis_0_is_the_row_count():
    assert R([[1, 2], [3]]).row_lengths(axis=0).numpy() == 2      # TensorFlow's


def _sp(indices=((0, 0),), values=(1.,), shape=(2, 2)):
    return tf.SparseTensor([list(i) for i in indices], list(values), list(shape))


@pytest.mark.parametrize("make, error, match", [
    (lambda: tf.SparseTensor([[0.5, 0]], [1.], [2, 2]), TypeError, "Cannot convert"),
    (lambda: tf.SparseTensor([[0, 0]], [[1.]], [2, 2]), ValueError, None),
    (lambda: tf.SparseTensor([[0, 0], [1, 1]], [1.], [2, 2]), ValueError, None),
    (lambda: tf.SparseTensor([[0, 0]], [1.], [2, 2, 2]), ValueError, None),
    (lambda: tf.sparse.to_dense(_sp([(0, 5)])), tf.errors.InvalidArgumentError,
     r"indices\[0\] = \[0,5\] is out of bounds: need 0 <= index < \[2,2\]"),
    (lambda: tf.sparse.to_dense(_sp([(-1, 0)])), tf.errors.InvalidArgumentError,
     r"indices\[0\] = \[-1,0\] is out of bounds"),
    (lambda: tf.sparse.to_dense(_sp([(1, 0), (0, 0)], [1., 2.])), tf.errors.InvalidArgumentError,
     r"indices\[1\] = \[0, 0\] is out of order"),
    (lambda: tf.sparse.to_dense(_sp([(0, 0), (0, 0)], [1., 2.])), tf.errors.InvalidArgumentError,
     r"is repeated"),
    (lambda: tf.sparse.add(_sp(), _sp(shape=(3, 2))), tf.errors.InvalidArgumentError,
     "Operands' shapes do not match: got 2 and 3 for dimension 0"),
    (lambda: tf.sparse.add(_sp(), tf.SparseTensor([[0, 0]], [1], [2, 2])),
     tf.errors.InvalidArgumentError, r"cannot compute SparseAdd as input #4\(zero-based\)"),
    (lambda: tf.sparse.add(_sp(), tf.ones([3, 3])), tf.errors.InvalidArgumentError,
     r"Dimension 0 does not equal \(no broadcasting is supported\): sparse side 2 vs dense "
     "side 3"),
    (lambda: tf.sparse.add(_sp(), tf.ones([2, 2], tf.int32)), tf.errors.InvalidArgumentError,
     r"cannot compute SparseTensorDenseAdd as input #3\(zero-based\) was expected to be a"),
    (lambda: tf.sparse.sparse_dense_matmul(_sp(), tf.ones([3, 3])),
     tf.errors.InvalidArgumentError,
     "Cannot multiply A and B because inner dimension does not match: 2 vs. 3"),
    (lambda: tf.sparse.sparse_dense_matmul(_sp(), tf.ones([2, 3], tf.float64)),
     tf.errors.InvalidArgumentError,
     r"cannot compute SparseTensorDenseMatMul as input #3\(zero-based\) was expected to be a"),
    (lambda: tf.sparse.sparse_dense_matmul(_sp([(0, 7)]), tf.ones([2, 3])),
     tf.errors.InvalidArgumentError, r"k \(7\) from index\[0,1\] out of bounds \(>=2\)"),
    (lambda: tf.sparse.concat(0, [_sp(), tf.SparseTensor([[0]], [1.], [2])]),
     tf.errors.InvalidArgumentError,
     "Ranks of all input tensors must match: expected 2 but got 1 at position 1"),
    (lambda: tf.sparse.concat(0, [_sp(), _sp(shape=(2, 3))]), tf.errors.InvalidArgumentError,
     "Input shapes must match: expected 2 for dimension 1 but got 3 at position 1"),
    (lambda: tf.sparse.slice(_sp(), [0], [1]), tf.errors.InvalidArgumentError,
     "Expected start to be a vector of length 2 but got length 1"),
    (lambda: tf.sparse.reshape(_sp(), [3, 2]), tf.errors.InvalidArgumentError,
     "Input to reshape is a tensor with 4 dense values, but the requested shape has 6"),
    (lambda: tf.sparse.reduce_sum(_sp(), axis=3), tf.errors.InvalidArgumentError,
     "Invalid reduction dimension 3, for input with 2 dimensions"),
    (lambda: tf.sparse.retain(_sp(), [True, False]), ValueError,
     "Dimensions 1 and 2 are not compatible"),
    (lambda: tf.sparse.reset_shape(_sp([(1, 1)]), [1, 1]), ValueError,
     "Requested new_shape should have dimension sizes >= sp_input.shape"),
    (lambda: _sp() * tf.ones([3, 3]), tf.errors.InvalidArgumentError,
     r"SparseDenseBinaryOpShared broadcasts dense to sparse only; got incompatible shapes: "
     r"\[2,2\] vs. \[3,3\]"),
    (lambda: _sp() + _sp(), TypeError,
     r"unsupported operand type\(s\) for \+: 'SparseTensor' and 'SparseTensor'"),
    (lambda: tf.add(_sp(), 1.), ValueError, "Attempt to convert a value"),
])
def test_sparse_misuse_errors_as_tensorflow(make, error, match):
    with pytest.raises(error, match=match):
        make()


def test_sparse_reset_shape_as_tensorflow():
    sp = tf.SparseTensor([[0, 1], [1, 2]], [1., 2.], [4, 5])
    assert tf.sparse.reset_shape(sp).dense_shape.numpy().tolist() == [2, 3]
    assert tf.sparse.reset_shape(sp, [5, 6]).dense_shape.numpy().tolist() == [5, 6]
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [3, 3])
    assert tf.sparse.reset_shape(empty).dense_shape.numpy().tolist() == [0, 0]

    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.float32),
                                  tf.TensorSpec([2], tf.int64)])
    def reset(s, shape):
        return tf.sparse.reset_shape(s, shape).dense_shape

    assert reset(sp, tf.constant([6, 6], tf.int64)).numpy().tolist() == [6, 6]
    with pytest.raises(tf.errors.InvalidArgumentError):   # checked when it runs, as in TF
        reset(sp, tf.constant([1, 6], tf.int64))


# -- realistic programs: staged loops and branches, datasets, gradients (TensorFlow's outputs) ----

def _value(v):
    if isinstance(v, tf.RaggedTensor):
        return v.to_list()
    if isinstance(v, tf.SparseTensor):
        return (v.indices.numpy().tolist(), v.values.numpy().tolist(),
                v.dense_shape.numpy().tolist())
    if isinstance(v, (list, tuple)):
        return [_value(x) for x in v]
    return np.round(np.asarray(tf.convert_to_tensor(v).numpy(), dtype=float), 4).tolist() \
        if tf.convert_to_tensor(v).dtype.is_floating else tf.convert_to_tensor(v).numpy().tolist()


def test_ragged_and_sparse_through_staged_loops_and_branches():
    @tf.function
    def grow(rt, n):
        acc = rt
        for _ in tf.range(n):
            acc = acc * 2 + 1
        return acc
    assert _value(grow(R([[1., 2.], [3.]]), tf.constant(3))) == [[15.0, 23.0], [31.0]]

    @tf.function
    def branch(rt, flag):
        if flag:
            out = rt + 1
        else:
            out = rt * 10
        return out
    assert _value(branch(R([[1, 2], [3]]), tf.constant(True))) == [[2, 3], [4]]
    assert _value(branch(R([[1, 2], [3]]), tf.constant(False))) == [[10, 20], [30]]

    @tf.function
    def negate_if(sp, flag):
        if flag > 0:
            r = tf.sparse.map_values(tf.negative, sp)
        else:
            r = sp
        return tf.sparse.to_dense(r)
    sp = tf.sparse.from_dense([[1., 0.], [0., 2.]])
    assert _value(negate_if(sp, tf.constant(1))) == [[-1.0, 0.0], [0.0, -2.0]]

    @tf.function
    def weighted(rt):
        total = tf.constant(0.)
        for row in rt:
            total += tf.reduce_sum(row) * tf.cast(tf.size(row), tf.float32)
        return total
    assert _value(weighted(R([[1., 2.], [3.], []]))) == 9.0

    @tf.function
    def concat_rows(n):
        rt = tf.ragged.constant([[1]], dtype=tf.int32)
        i = tf.constant(0)
        while i < n:
            tf.autograph.experimental.set_loop_options(
                shape_invariants=[(rt, tf.TensorShape([None, None]))])
            rt = tf.concat([rt, tf.RaggedTensor.from_row_lengths(tf.range(i + 1), [i + 1])],
                           axis=0)
            i += 1
        return rt
    assert _value(concat_rows(tf.constant(3))) == [[1], [0], [0, 1], [0, 1, 2]]

    @tf.function
    def diagonal(n):
        sp = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [4, 4])
        for i in tf.range(n):
            j = tf.cast(i, tf.int64)
            sp = tf.sparse.add(sp, tf.SparseTensor([[j, j]], [tf.cast(i, tf.float32) + 1.],
                                                   [4, 4]))
        return tf.sparse.to_dense(sp)
    assert _value(diagonal(tf.constant(3))) == [[1., 0., 0., 0.], [0., 2., 0., 0.],
                                                [0., 0., 3., 0.], [0., 0., 0., 0.]]

    @tf.function
    def row_sums(rt):
        return tf.map_fn(lambda r: tf.reduce_sum(r), rt, fn_output_signature=tf.float32)
    assert _value(row_sums(R([[1., 2.], [3.], []]))) == [3.0, 3.0, 0.0]


def test_datasets_of_ragged_and_sparse_elements():
    rows = R([[1, 2], [3], [4, 5, 6], []])
    ds = tf.data.Dataset.from_tensor_slices(rows)
    assert _value(list(ds.map(tf.reduce_sum))) == [3, 3, 15, 0]

    @tf.function
    def total(ds):
        s = tf.constant(0)
        for x in ds:
            s += tf.reduce_sum(x)
        return s
    assert _value(total(ds)) == 21
    padded = ds.batch(2).map(lambda x: x.to_tensor())
    assert _value(list(padded)) == [[[1, 2], [3, 0]], [[4, 5, 6], [0, 0, 0]]]
    assert _value(list(ds.batch(3).unbatch())) == [[1, 2], [3], [4, 5, 6], []]
    nested = tf.data.Dataset.range(5).map(lambda i: tf.ragged.range(i)).batch(2)
    assert _value(list(nested)) == [[[[]], [[0]]], [[[0, 1]], [[0, 1, 2]]], [[[0, 1, 2, 3]]]]
    assert _value(list(tf.data.Dataset.range(4).map(lambda i: tf.range(i)).ragged_batch(2))) == \
        [[[], [0]], [[0, 1], [0, 1, 2]]]
    sp = tf.sparse.from_dense([[1., 0.], [0., 2.], [3., 0.]])
    doubled = tf.data.Dataset.from_tensor_slices(sp).map(lambda s: tf.sparse.to_dense(s) * 2)
    assert _value(list(doubled)) == [[2.0, 0.0], [0.0, 4.0], [6.0, 0.0]]
    with pytest.raises(tf.errors.InvalidArgumentError):   # rows of different lengths
        list(ds.map(lambda x: x * 2).batch(2))


def test_gradients_through_ragged_values_as_tensorflow():
    v = tf.Variable([1., 2., 3.])
    with tf.GradientTape() as t:
        rt = tf.RaggedTensor.from_row_splits(v, [0, 2, 3])
        y = tf.reduce_sum(tf.reduce_mean(rt * rt, axis=1))
    assert _value(t.gradient(y, v)) == [1.0, 2.0, 6.0]

    v4 = tf.Variable([1., 2., 3., 4.])
    with tf.GradientTape() as t:
        rt = tf.RaggedTensor.from_row_lengths(v4, [1, 3])
        y = tf.reduce_sum(tf.reduce_max(rt, axis=1) ** 2) + tf.reduce_sum(rt.to_tensor() * 2)
    assert _value(t.gradient(y, v4)) == [4.0, 2.0, 2.0, 10.0]

    @tf.function
    def staged():
        with tf.GradientTape() as t:
            rt = tf.RaggedTensor.from_row_splits(v, [0, 2, 3])
            y = tf.reduce_sum(tf.exp(rt).flat_values) + \
                tf.reduce_sum(tf.concat([rt, rt], axis=1).flat_values * 3)
        return t.gradient(y, v)
    np.testing.assert_allclose(staged().numpy(), [8.718280, 13.389060, 26.085541], rtol=1e-5)

    m = tf.Variable([[1., 2.], [3., 4.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.RaggedTensor.from_tensor(m, lengths=[1, 2]) ** 2)
    assert _value(t.gradient(y, m)) == [[2.0, 0.0], [6.0, 8.0]]

    table = tf.Variable(np.arange(12, dtype=np.float32).reshape(4, 3))
    ids = R([[0, 1], [3], [2, 2, 1]])
    with tf.GradientTape() as t:
        pooled = tf.reduce_mean(tf.gather(table, ids), axis=1)
        y = tf.reduce_sum(pooled ** 2)
    assert _value(pooled) == [[1.5, 2.5, 3.5], [9.0, 10.0, 11.0], [5.0, 6.0, 7.0]]
    np.testing.assert_allclose(tf.convert_to_tensor(t.gradient(y, table)).numpy(),
                               [[1.5, 2.5, 3.5], [4.83333, 6.5, 8.16667],
                                [6.66667, 8.0, 9.33333], [18.0, 20.0, 22.0]], rtol=1e-5)


def test_gradients_through_sparse_values_as_tensorflow():
    vals, w = tf.Variable([1., 2.]), tf.Variable([[1., 2.], [3., 4.]])
    with tf.GradientTape() as t:
        sp = tf.SparseTensor([[0, 0], [1, 1]], vals, [2, 2])
        y = tf.reduce_sum(tf.sparse.sparse_dense_matmul(sp, w) ** 2) + \
            tf.reduce_sum(tf.sparse.to_dense(sp) * 3.)
    assert _value(t.gradient(y, [vals, w])) == [[13.0, 103.0], [[2.0, 4.0], [24.0, 32.0]]]

    v3 = tf.Variable([1., 2., 5.])
    with tf.GradientTape() as t:
        sp = tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v3, [2, 3])
        y = tf.reduce_sum(tf.sparse.reduce_sum(sp, axis=1) ** 2) + \
            tf.reduce_sum(tf.sparse.add(sp, tf.ones([2, 3])) ** 2)
    assert _value(t.gradient(y, v3)) == [6.0, 20.0, 26.0]


# TensorFlow's gradients of the ops that move entries (d/dv of sum(f(sp) ** 2), v = [1, 2, 5])
_MOVING = {
    "slice": (lambda sp: tf.sparse.slice(sp, [0, 1], [2, 2]).values, [0.0, 4.0, 10.0]),
    "fill": (lambda sp: tf.sparse.fill_empty_rows(
        tf.SparseTensor([[0, 0], [2, 1], [2, 2]], sp.values, [3, 3]), 7.)[0].values,
        [2.0, 4.0, 10.0]),
    "transpose": (lambda sp: tf.sparse.transpose(sp).values, [2.0, 4.0, 10.0]),
    "reorder": (lambda sp: tf.sparse.reorder(sp).values, [2.0, 4.0, 10.0]),
    "add": (lambda sp: tf.sparse.add(sp, sp).values, [8.0, 16.0, 40.0]),
    "softmax": (lambda sp: tf.sparse.softmax(sp).values, [0.0, -0.08178, 0.08178]),
}


@pytest.mark.parametrize("name", sorted(_MOVING))
def test_gradients_of_sparse_entry_moving_ops(name):
    f, expected = _MOVING[name]
    v = tf.Variable([1., 2., 5.])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(f(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v * 1., [2, 3])) ** 2)
    np.testing.assert_allclose(t.gradient(y, v).numpy(), expected, atol=1e-5)


def _numeric_gradient(f, x, eps=1e-3):
    x = np.asarray(x, dtype=np.float64)
    out = np.zeros_like(x)
    for i in range(x.size):
        d = np.zeros_like(x)
        d.flat[i] = eps
        out.flat[i] = (f(x + d) - f(x - d)) / (2 * eps)
    return out


@pytest.mark.parametrize("make", [
    lambda v: tf.sparse.reorder(tf.SparseTensor([[1, 0], [0, 1], [0, 0]], v, [2, 2])).values *
    tf.constant([1., 2., 3.], tf.float64),
    lambda v: tf.sparse.add(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 3]),
                            tf.SparseTensor([[1, 1], [0, 2]], tf.stack([v[1] * -1.1, v[0]]),
                                            [2, 3]),
                            threshold=0.5).values ** 2,      # (entry [1, 1] is dropped)
    lambda v: tf.sparse.slice(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 3]),
                              [1, 1], [1, 2]).values ** 3,
    lambda v: tf.sparse.fill_empty_rows(tf.SparseTensor([[0, 0], [2, 1], [2, 2]], v, [3, 3]),
                                        v[0] * 2.)[0].values ** 2,
])
def test_sparse_entry_gradients_match_numeric_ones(make):
    x0 = [1.2, -0.7, 2.1]

    def loss(x):
        return float(tf.reduce_sum(make(tf.constant(x, tf.float64))).numpy())

    v = tf.Variable(x0, dtype=tf.float64)
    with tf.GradientTape() as t:
        y = tf.reduce_sum(make(v * 1.))
    np.testing.assert_allclose(t.gradient(y, v).numpy(), _numeric_gradient(loss, x0),
                               rtol=1e-4, atol=1e-6)


def test_dynamic_ragged_shape_factories_as_tensorflow():
    D = tf.experimental.DynamicRaggedShape
    s = D.from_lengths([2, (2, 1), 3])
    assert repr(s) == "<DynamicRaggedShape lengths=[2, (2, 1), 3] num_row_partitions=1>"
    assert (s.rank, s.inner_rank, s.num_row_partitions, s.dtype) == (3, 2, 1, tf.int64)
    assert _np(s.inner_shape) == [3, 3]
    s2 = D.from_row_partitions([RowPartition.from_row_lengths([2, 1])])
    assert repr(s2) == "<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>"
    assert _np(s2.inner_shape) == [3] and s2.inner_rank == 1
    s3 = D.from_tensor(tf.zeros([2, 3]))
    assert repr(s3) == "<DynamicRaggedShape lengths=[2, 3] num_row_partitions=0>"
    assert s3.inner_shape.dtype == tf.int32
    s4 = D([RowPartition.from_row_lengths([2, 1])], [3, 4])
    assert repr(s4) == "<DynamicRaggedShape lengths=[2, (2, 1), 4] num_row_partitions=1>"
    assert repr(D.from_tensor(R([[1], [2, 3]]))) == \
        "<DynamicRaggedShape lengths=[2, (1, 2)] num_row_partitions=1>"
    shape = tf.shape(R([[1], [2, 3]]))
    assert shape.with_dtype(tf.int64).dtype == tf.int64
    assert shape.is_uniform(0) and not shape.is_uniform(1)
    assert tf.shape(R([[[1, 2]], [[2, 3]]], ragged_rank=1)).is_uniform(2)
    assert repr(D.from_lengths([2, 3])) == \
        "<DynamicRaggedShape lengths=[2, 3] num_row_partitions=0>"


def test_zeros_ones_broadcast_to_of_a_dynamic_ragged_shape():
    D = tf.experimental.DynamicRaggedShape
    z = tf.zeros(tf.shape(R([[1, 2], [3]])))
    assert z.to_list() == [[0.0, 0.0], [0.0]] and z.row_splits.dtype == tf.int32
    z = tf.zeros(D.from_lengths([2, (2, 1)]), tf.int32)
    assert z.to_list() == [[0, 0], [0]] and z.row_splits.dtype == tf.int64
    assert tf.ones(D.from_lengths([2, 2, (1, 2, 0, 1)]), tf.int32).to_list() == \
        [[[1], [1, 1]], [[], [1]]]
    assert tf.broadcast_to(tf.constant([[1], [2]]), D.from_lengths([2, (2, 1)])).to_list() == \
        [[1, 1], [2]]
    assert tf.broadcast_to(5, tf.shape(R([[1, 2], [3]]))).to_list() == [[5, 5], [5]]

    @tf.function
    def doubled_ones(rt):
        return tf.ones(tf.shape(rt)) * 2
    assert doubled_ones(R([[1, 2], [3]])).to_list() == [[2.0, 2.0], [2.0]]


def _sparse_value(s):
    return (s.indices.numpy().tolist(), s.values.numpy().tolist(), s.dense_shape.numpy().tolist())


def test_sparse_bincount_of_ragged_and_sparse_inputs():
    rt = R([[1, 1, 2], [3], []])
    sp = tf.sparse.from_dense(tf.constant([[1, 0, 2], [3, 3, 0]]))
    rows = [[0, 1], [0, 2], [1, 3]]
    assert _sparse_value(tf.sparse.bincount(rt)) == ([[1], [2], [3]], [2, 1, 1], [4])
    assert _sparse_value(tf.sparse.bincount(rt, axis=-1)) == (rows, [2, 1, 1], [3, 4])
    assert _sparse_value(tf.sparse.bincount(rt, axis=-1, minlength=5)) == (rows, [2, 1, 1],
                                                                           [3, 5])
    out = tf.sparse.bincount(rt, weights=R([[1., 2., 3.], [4.], []]), axis=-1)
    assert _sparse_value(out) == (rows, [3.0, 3.0, 4.0], [3, 4]) and out.dtype == tf.float32
    assert _sparse_value(tf.sparse.bincount(rt, axis=-1, binary_output=True)) == \
        (rows, [1, 1, 1], [3, 4])
    assert _sparse_value(tf.sparse.bincount(rt, axis=-1, maxlength=2)) == ([[0, 1]], [2], [3, 2])
    assert _sparse_value(tf.sparse.bincount(sp)) == ([[1], [2], [3]], [1, 1, 2], [4])
    assert _sparse_value(tf.sparse.bincount(sp, axis=-1)) == (rows, [1, 1, 2], [2, 4])
    w = tf.sparse.from_dense(tf.constant([[1., 0, 2.], [3., 4., 0]]))
    assert _sparse_value(tf.sparse.bincount(sp, weights=w, axis=-1)) == (rows, [1.0, 2.0, 7.0],
                                                                         [2, 4])
    out = tf.sparse.bincount(R([[1, 5]], dtype=tf.int64), axis=-1)
    assert _sparse_value(out) == ([[0, 1], [0, 5]], [1, 1], [1, 6]) and out.dtype == tf.int64
    with pytest.raises(ValueError, match="`weights` must be a RaggedTensor if `values` is a "
                                         "RaggedTensor"):
        tf.sparse.bincount(rt, weights=tf.constant([1., 2.]), axis=-1)


def test_sparse_segment_reductions_as_tensorflow():
    data = tf.constant([[1., 2.], [3., 4.], [5., 6.]])
    assert _np(tf.sparse.segment_sum(data, tf.constant([0, 2]), tf.constant([0, 0]))) == \
        [[6.0, 8.0]]
    assert _np(tf.sparse.segment_mean(data, tf.constant([0, 2, 1]), tf.constant([0, 0, 2]))) == \
        [[3.0, 4.0], [0.0, 0.0], [3.0, 4.0]]
    np.testing.assert_allclose(
        tf.sparse.segment_sqrt_n(data, tf.constant([0, 2, 1]), tf.constant([0, 0, 2])).numpy(),
        [[4.2426, 5.6569], [0.0, 0.0], [3.0, 4.0]], atol=1e-4)
    assert _np(tf.sparse.segment_sum(tf.constant([1., 2., 3.]), tf.constant([0, 2]),
                                     tf.constant([0, 1]), num_segments=4)) == [1.0, 3.0, 0.0, 0.0]
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(tf.sparse.segment_mean(v, tf.constant([0, 2, 2]),
                                                 tf.constant([0, 0, 1])) ** 2)
    # d/dv: row 0 gets 2 * mean0 / 2, row 2 gets 2 * mean0 / 2 + 2 * row2
    np.testing.assert_allclose(tf.convert_to_tensor(t.gradient(y, v)).numpy(),
                               [[3., 4.], [0., 0.], [13., 16.]])


def test_reduce_join_of_ragged_strings_as_tensorflow():
    rt = tf.strings.split(tf.constant(["the cat sat", "a dog", "", "hello world again ok"]))
    join = tf.strings.reduce_join
    assert join(rt, axis=1, separator="|").numpy().tolist() == [
        b"the|cat|sat", b"a|dog", b"", b"hello|world|again|ok"]
    assert join(rt, axis=0, separator="|").numpy().tolist() == [
        b"the|a|hello", b"cat|dog|world", b"sat|again", b"ok"]
    assert join(rt, separator=" ").numpy() == b"the cat sat a dog hello world again ok"
    assert join(rt, axis=-1).numpy().tolist() == [b"thecatsat", b"adog", b"",
                                                  b"helloworldagainok"]
    assert join(rt, axis=1, keepdims=True, separator=",").numpy().tolist() == [
        [b"the,cat,sat"], [b"a,dog"], [b""], [b"hello,world,again,ok"]]
    rt2 = R([[["a", "b"], ["c"]], [["d"]], []])
    assert join(rt2, axis=2, separator="+").to_list() == [[b"a+b", b"c"], [b"d"], []]
    assert join(rt2, axis=1, separator="+").to_list() == [[b"a+c", b"b"], [b"d"], []]
    assert join(rt2, axis=0, separator="+").to_list() == [[b"a+d", b"b"], [b"c"]]
    rt3 = R([[["a", "b"], ["c", "d"]], [["e", "f"]]], ragged_rank=1)
    assert join(rt3, axis=2, separator="+").to_list() == [[b"a+b", b"c+d"], [b"e+f"]]
    out = join(rt3, axis=1, separator="+")           # TensorFlow: a dense Tensor
    assert isinstance(out, tf.Tensor) and out.numpy().tolist() == [[b"a+c", b"b+d"], [b"e", b"f"]]
    staged = tf.function(lambda x: join(x, axis=1, separator="-"))
    assert staged(rt).numpy().tolist() == [b"the-cat-sat", b"a-dog", b"",
                                           b"hello-world-again-ok"]


def test_row_key_out_of_bounds_is_tensorflows_index_error():
    rt = R([[1, 2], [3]])
    with pytest.raises(IndexError, match="Row key 2 out of bounds"):
        rt[2]
    with pytest.raises(IndexError, match="Row key 2 out of bounds"):
        rt[tf.constant(2)]
    with pytest.raises(tf.errors.InvalidArgumentError):      # TensorFlow: a strided slice
        rt[-3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        rt[1, 1]
