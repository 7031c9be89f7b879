"""tf.SparseTensor: construction, tf.sparse ops, printing, and the composite protocol
(function arguments and results, input signatures, loop and cond state, shape invariants)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.staging import staged


def _sp():
    return tf.SparseTensor(indices=[[0, 0], [1, 1]], values=[1, 2], dense_shape=[3, 3])


def test_parts_shape_and_spec():
    sp = _sp()
    assert sp.indices.dtype == tf.int64 and sp.dense_shape.dtype == tf.int64
    assert sp.values.numpy().tolist() == [1, 2] and sp.dtype == tf.int32
    assert sp.shape.as_list() == [3, 3] and sp.get_shape() == sp.shape
    assert sp._type_spec == tf.SparseTensorSpec([3, 3], tf.int32)
    assert repr(sp._type_spec) == "SparseTensorSpec(TensorShape([3, 3]), tf.int32)"
    assert [s.shape.as_list() for s in sp._type_spec._component_specs] == [[None, 2], [None], [2]]


def test_repr_is_tensorflows():
    assert repr(_sp()) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [1 1]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1 2], shape=(2,), dtype=int32), "
        "dense_shape=tf.Tensor([3 3], shape=(2,), dtype=int64))")


def test_construction_checks():
    with pytest.raises(ValueError, match="2 indices but 3 values"):
        tf.SparseTensor([[0, 0], [1, 1]], [1, 2, 3], [3, 3])
    with pytest.raises(ValueError, match="rank"):
        tf.SparseTensor([[0, 0]], [1], [3, 3, 3])
    # int32 indices or dense_shape: TensorFlow's ValueError and wording
    with pytest.raises(ValueError, match="indices: Tensor conversion requested dtype int64"):
        tf.SparseTensor(tf.constant([[0, 0]]), [1], [3, 3])
    with pytest.raises(ValueError, match="dense_shape: Tensor conversion requested dtype int64"):
        tf.SparseTensor([[0, 0]], [1], tf.constant([3, 3]))


def test_to_dense_from_dense_round_trip():
    dense = tf.sparse.to_dense(_sp())
    assert dense.numpy().tolist() == [[1, 0, 0], [0, 2, 0], [0, 0, 0]]
    assert tf.sparse.to_dense(_sp(), default_value=-1).numpy().tolist() == \
        [[1, -1, -1], [-1, 2, -1], [-1, -1, -1]]
    back = tf.sparse.from_dense(dense)
    assert back.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert back.values.numpy().tolist() == [1, 2] and back.shape.as_list() == [3, 3]
    strings = tf.sparse.from_dense(tf.constant([["", "a"], ["b", ""]]))
    assert strings.values.numpy().tolist() == [b"a", b"b"]


def test_to_dense_validates_order():
    unordered = tf.SparseTensor([[1, 1], [0, 0]], [2, 1], [2, 2])
    with pytest.raises(InvalidArgumentError, match="out of order"):
        tf.sparse.to_dense(unordered)
    assert tf.sparse.to_dense(unordered, validate_indices=False).numpy().tolist() == \
        [[1, 0], [0, 2]]
    ordered = tf.sparse.reorder(unordered)
    assert ordered.indices.numpy().tolist() == [[0, 0], [1, 1]]
    assert ordered.values.numpy().tolist() == [1, 2] and ordered.shape.as_list() == [2, 2]
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        tf.sparse.to_dense(tf.SparseTensor([[5, 0]], [1], [2, 2]))


@pytest.mark.parametrize("axis, shape, first", [(None, [1, 3, 3], [0, 0, 0]),
                                                (1, [3, 1, 3], [0, 0, 0]),
                                                (-1, [3, 3, 1], [0, 0, 0]),
                                                (2, [3, 3, 1], [0, 0, 0])])
def test_expand_dims(axis, shape, first):
    out = tf.sparse.expand_dims(_sp(), axis)
    assert out.shape.as_list() == shape and out.dense_shape.numpy().tolist() == shape
    assert out.indices.numpy().tolist()[0] == first
    assert tf.sparse.to_dense(out).numpy().reshape(3, 3).tolist() == \
        tf.sparse.to_dense(_sp()).numpy().tolist()
    with pytest.raises(InvalidArgumentError):
        tf.sparse.expand_dims(_sp(), 4)


def test_unary_ops_apply_to_values():
    sp = tf.SparseTensor([[0, 1]], [-3], [2, 2])
    assert tf.abs(sp).values.numpy().tolist() == [3]
    assert tf.cast(sp, tf.float32).values.dtype == tf.float32
    assert tf.math.negative(sp).shape.as_list() == [2, 2]


def test_sparse_ops_codegen_matches_interpreter():
    indices = np.array([[1, 1], [0, 0]], dtype=np.int64)
    values = np.array([2, 1], dtype=np.int32)
    shape = np.array([2, 3], dtype=np.int64)

    def fn(i, v, s):
        sp = tf.sparse.reorder(tf.SparseTensor(i, v, s))
        wide = tf.sparse.expand_dims(sp, -1)
        back = tf.sparse.from_dense(tf.sparse.to_dense(sp))
        return tf.sparse.to_dense(sp), wide.indices, wide.dense_shape, back.indices
    dense, wide_i, wide_s, back_i = staged(fn, indices, values, shape)
    assert dense.tolist() == [[1, 0, 0], [0, 2, 0]]
    assert wide_i.tolist() == [[0, 0, 0], [1, 1, 0]] and wide_s.tolist() == [2, 3, 1]
    assert back_i.tolist() == [[0, 0], [1, 1]]


# -- tf.function ------------------------------------------------------------------------------

def test_function_argument_and_result():
    @tf.function
    def f(x):
        return tf.sparse.expand_dims(x), tf.sparse.to_dense(x) * 2
    wide, dense = f(_sp())
    assert isinstance(wide, tf.SparseTensor) and wide.shape.as_list() == [1, 3, 3]
    assert dense.numpy().tolist() == [[2, 0, 0], [0, 4, 0], [0, 0, 0]]
    f(tf.SparseTensor([[0, 2]], [7], [3, 3]))  # another value of the same spec: no retrace
    assert f.experimental_get_tracing_count() == 1
    f(tf.SparseTensor([[0, 2]], [7], [4, 4]))
    assert f.experimental_get_tracing_count() == 2
    concrete = f.get_concrete_function(_sp())
    (spec,), _ = concrete.structured_input_signature
    assert spec == tf.SparseTensorSpec([3, 3], tf.int32)
    assert [i.name for i in concrete.inputs] == ["x:0", "x_1:0", "x_2:0"]


def test_input_signature_with_sparse_spec():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, None], tf.int32)])
    def f(x):
        return tf.reduce_sum(x.values)
    assert int(f(_sp())) == 3
    assert int(f(tf.SparseTensor([[0, 0, ], [4, 4], [5, 5]], [1, 1, 1], [6, 6]))) == 3
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tf.SparseTensor([[0, 0, 0]], [1], [2, 2, 2]))


def test_functional_loop_carries_sparse_with_shape_invariant():
    @tf.function
    def f(n):
        _, v = tf.while_loop(lambda i, v: i < n,
                             lambda i, v: (i + 1, tf.sparse.expand_dims(v)),
                             [0, _sp()], shape_invariants=[tf.TensorShape([]),
                                                           tf.TensorShape(None)])
        return v
    out = f(tf.constant(2))
    assert isinstance(out, tf.SparseTensor) and out.shape.as_list() == [1, 1, 3, 3]
    assert out.indices.numpy().tolist() == [[0, 0, 0, 0], [0, 0, 1, 1]]
    assert f(tf.constant(0)).shape.as_list() == [3, 3]


def test_shape_invariant_that_does_not_fit_is_reported():
    @tf.function
    def f(n):
        return tf.while_loop(lambda v: tf.size(v.values) < n,
                             lambda v: tf.sparse.expand_dims(v), [_sp()],
                             shape_invariants=[tf.TensorShape([None, None])])
    with pytest.raises(ValueError, match="shape invariant"):
        f(tf.constant(2))


def test_autograph_loop_with_sparse_state():
    def scale(n):
        v = _sp()
        i = 0
        while i < n:  # the values change, the spec does not: no invariant needed
            v = tf.SparseTensor(v.indices, v.values * 3, v.dense_shape)
            i += 1
        return v
    f = tf.function(scale)
    for n in (0, 1, 3):
        got, want = f(tf.constant(n)), scale(n)
        assert isinstance(got, tf.SparseTensor) and got.shape == want.shape
        assert got.indices.numpy().tolist() == want.indices.numpy().tolist()
        assert got.values.numpy().tolist() == want.values.numpy().tolist()

    def deeper(n):
        v = _sp()
        i = 0
        while i < n:
            v = tf.sparse.expand_dims(v)
            i += 1
        return v
    with pytest.raises(ValueError, match="shape invariants"):  # (the rank changes)
        tf.function(deeper)(tf.constant(2))


def test_cond_with_sparse_branches():
    @tf.function
    def f(flag):
        return tf.cond(flag, lambda: _sp(), lambda: tf.SparseTensor([[2, 2]], [9], [3, 3]))
    assert f(tf.constant(True)).values.numpy().tolist() == [1, 2]
    other = f(tf.constant(False))
    assert other.indices.numpy().tolist() == [[2, 2]] and other.shape.as_list() == [3, 3]


def test_print(capsys):
    tf.print(tf.sparse.from_dense([[1]]))

    @tf.function
    def f(x):
        tf.print("sp:", x)
        return x
    f(_sp())
    assert capsys.readouterr().err == (
        "'SparseTensor(indices=[[0 0]], values=[1], shape=[1 1])'\n"
        "sp: 'SparseTensor(indices=[[0 0]\n [1 1]], values=[1 2], shape=[3 3])'\n")
