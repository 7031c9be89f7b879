"""tf.RaggedTensor: construction, queries, indexing, math, and the composite protocol
(function arguments and results, input signatures, cond/while_loop state, staged for)."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime import nest
from runtime.errors import StructureMismatchError
from tests.staging import staged


def ints(rt):
    return rt.to_list()


# -- tf.ragged.constant and repr ------------------------------------------------------------

@pytest.mark.parametrize("pylist, dtype, text", [
    ([[1, 2], [3]], None, "<tf.RaggedTensor [[1, 2], [3]]>"),
    ([[]], tf.int32, "<tf.RaggedTensor [[]]>"),
    ([[], [1]], tf.int32, "<tf.RaggedTensor [[], [1]]>"),
    ([[], [1], [1, 2]], None, "<tf.RaggedTensor [[], [1], [1, 2]]>"),
    ([[1.5, 2.0], [3.0]], None, "<tf.RaggedTensor [[1.5, 2.0], [3.0]]>"),
    ([[[1, 2], [3]], [[4]]], None, "<tf.RaggedTensor [[[1, 2], [3]], [[4]]]>"),
    ([["a", "b"], []], None, "<tf.RaggedTensor [[b'a', b'b'], []]>"),
])
def test_constant_repr_is_tensorflows(pylist, dtype, text):
    rt = tf.ragged.constant(pylist, dtype=dtype)
    assert repr(rt) == text and str(rt) == text
    encoded = [[x.encode() if isinstance(x, str) else x for x in row] for row in pylist]
    assert rt.to_list() == encoded


def test_constant_dtypes_ranks_and_shapes():
    rt = tf.ragged.constant([[1, 2], [3]])
    assert rt.dtype == tf.int32 and rt.row_splits.dtype == tf.int64
    assert rt.ragged_rank == 1 and rt.shape.as_list() == [2, None]
    assert tf.ragged.constant([[]]).dtype == tf.float32
    assert tf.ragged.constant([[1, 2]], dtype=tf.float64).dtype == tf.float64
    rt3 = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert rt3.ragged_rank == 2 and rt3.shape.as_list() == [2, None, None]
    inner = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert inner.ragged_rank == 1 and inner.shape.as_list() == [2, None, 2]
    assert inner.flat_values.shape.as_list() == [3, 2]
    assert tf.ragged.constant([[1, 2]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    dense = tf.ragged.constant([1, 2, 3])  # no ragged dimension: a Tensor
    assert isinstance(dense, tf.Tensor) and dense.numpy().tolist() == [1, 2, 3]


def test_constant_rejects_inconsistent_nesting():
    with pytest.raises(ValueError):
        tf.ragged.constant([[1, [2]], [3]])
    with pytest.raises(ValueError, match="empty list nesting"):
        tf.ragged.constant([[1], [[]]])


def test_constructor_is_private():
    with pytest.raises(ValueError, match="factory methods"):
        tf.RaggedTensor([1, 2], [0, 2])


# -- factories --------------------------------------------------------------------------------

def test_factories_agree():
    values = tf.constant([3, 1, 4, 1, 5, 9, 2])
    expected = [[3, 1, 4, 1], [], [5, 9, 2]]
    assert ints(tf.RaggedTensor.from_row_splits(values, [0, 4, 4, 7])) == expected
    assert ints(tf.RaggedTensor.from_row_lengths(values, [4, 0, 3])) == expected
    assert ints(tf.RaggedTensor.from_value_rowids(values, [0, 0, 0, 0, 2, 2, 2])) == expected
    assert ints(tf.RaggedTensor.from_value_rowids(values, [0, 0, 0, 0, 2, 2, 2], nrows=4)) == \
        expected + [[]]
    nested = tf.RaggedTensor.from_nested_row_splits(values, [[0, 2, 3], [0, 4, 4, 7]])
    assert nested.to_list() == [[[3, 1, 4, 1], []], [[5, 9, 2]]]
    assert [s.numpy().tolist() for s in nested.nested_row_splits] == [[0, 2, 3], [0, 4, 4, 7]]
    lengths = tf.RaggedTensor.from_nested_row_lengths(values, [[2, 1], [4, 0, 3]])
    assert lengths.to_list() == nested.to_list()


def test_from_tensor_uniform_lengths_padding():
    t = tf.constant([[1, 2, 0], [3, 0, 0], [4, 5, 6]])
    assert tf.RaggedTensor.from_tensor(t).to_list() == [[1, 2, 0], [3, 0, 0], [4, 5, 6]]
    assert tf.RaggedTensor.from_tensor(t, lengths=[2, 1, 0]).to_list() == [[1, 2], [3], []]
    assert tf.RaggedTensor.from_tensor(t, padding=0).to_list() == [[1, 2], [3], [4, 5, 6]]
    t3 = tf.constant([[[1, 2], [3, 4]], [[5, 6], [7, 8]]])
    rr2 = tf.RaggedTensor.from_tensor(t3, ragged_rank=2)
    assert rr2.ragged_rank == 2 and rr2.to_list() == t3.numpy().tolist()
    rr1 = tf.RaggedTensor.from_tensor(t3)
    assert rr1.ragged_rank == 1 and rr1.flat_values.shape.as_list() == [4, 2]
    with pytest.raises(ValueError):
        tf.RaggedTensor.from_tensor(t, lengths=[1, 1, 1], padding=0)


def test_invalid_splits_are_reported():
    with pytest.raises(InvalidArgumentError, match="first element of row_splits must be zero"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [1, 3])
    with pytest.raises(InvalidArgumentError, match="ascending"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 3, 2, 3])
    with pytest.raises(InvalidArgumentError, match="number of values"):
        tf.RaggedTensor.from_row_splits([1, 2, 3], [0, 1, 2])
    with pytest.raises(InvalidArgumentError):
        tf.RaggedTensor.from_row_lengths([1, 2], [1, -1, 2])


# -- queries and conversion -------------------------------------------------------------------

def test_queries():
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    assert rt.values.numpy().tolist() == [1, 2, 3, 4, 5]
    assert rt.flat_values.numpy().tolist() == [1, 2, 3, 4, 5]
    assert rt.row_splits.numpy().tolist() == [0, 2, 2, 5]
    assert rt.row_lengths().numpy().tolist() == [2, 0, 3]
    assert rt.row_lengths().dtype == tf.int64
    assert int(rt.nrows()) == 3 and rt.nrows(out_type=tf.int32).dtype == tf.int32
    assert rt.value_rowids().numpy().tolist() == [0, 0, 2, 2, 2]
    rt3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert rt3.row_lengths(axis=2).to_list() == [[1, 2], [1]]
    assert [x.numpy().tolist() for x in rt3.nested_row_lengths()] == [[2, 1], [1, 2, 1]]


def test_to_tensor_to_list_numpy():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    assert rt.to_tensor().numpy().tolist() == [[1, 2], [0, 0], [3, 0]]
    assert rt.to_tensor(default_value=-1).numpy().tolist() == [[1, 2], [-1, -1], [3, -1]]
    assert rt.to_tensor(shape=[2, 3]).numpy().tolist() == [[1, 2, 0], [0, 0, 0]]
    assert tf.ragged.constant([["a"], []]).to_tensor().numpy().tolist() == [[b"a"], [b""]]
    rt3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert rt3.to_tensor().numpy().tolist() == [[[1, 0], [2, 3]], [[4, 0], [0, 0]]]
    assert rt.to_list() == [[1, 2], [], [3]]
    n = rt.numpy()
    assert n.dtype == object and [r.tolist() for r in n] == [[1, 2], [], [3]]
    uniform = tf.ragged.constant([[1, 2], [3, 4]]).numpy()
    assert uniform.dtype == np.int32 and uniform.tolist() == [[1, 2], [3, 4]]


# -- indexing and iteration -------------------------------------------------------------------

def test_indexing_rows_and_slices():
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    assert isinstance(rt[0], tf.Tensor) and rt[0].numpy().tolist() == [1, 2]
    assert rt[1].numpy().tolist() == [] and rt[-1].numpy().tolist() == [3, 4, 5]
    assert rt[tf.constant(2)].numpy().tolist() == [3, 4, 5]
    assert int(rt[2, 1]) == 4
    assert rt[1:].to_list() == [[], [3, 4, 5]]
    assert rt[:-1].to_list() == [[1, 2], []]
    assert rt[5:].to_list() == []
    assert rt[1:].row_splits.numpy().tolist() == [0, 0, 3]
    with pytest.raises(InvalidArgumentError, match="out of bounds"):
        rt[3]
    rt3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert isinstance(rt3[0], tf.RaggedTensor) and rt3[0].to_list() == [[1], [2, 3]]
    assert rt3[0, 1].numpy().tolist() == [2, 3]
    assert rt3[1:].to_list() == [[[4]]]


def test_indexing_in_a_graph_matches_eager():
    @tf.function
    def rows(values, splits, i, a, b):
        rt = tf.RaggedTensor.from_row_splits(values, splits)
        return rt[i], rt[a:b], rt[-1]
    values, splits = tf.constant([1, 2, 3, 4, 5]), tf.constant([0, 2, 2, 5], dtype=tf.int64)
    row, part, last = rows(values, splits, tf.constant(0), tf.constant(1), tf.constant(3))
    assert row.numpy().tolist() == [1, 2] and part.to_list() == [[], [3, 4, 5]]
    assert last.numpy().tolist() == [3, 4, 5]
    row, part, _ = rows(values, splits, tf.constant(-1), tf.constant(-2), tf.constant(10))
    assert row.numpy().tolist() == [3, 4, 5] and part.to_list() == [[], [3, 4, 5]]


def test_eager_iteration_yields_rows():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    assert [r.numpy().tolist() for r in rt] == [[1, 2], [], [3]]
    assert [r.to_list() for r in tf.ragged.constant([[[1], [2]], [[3]]])] == [[[1], [2]], [[3]]]


# -- math -------------------------------------------------------------------------------------

def test_elementwise_ops_apply_to_flat_values():
    rt = tf.ragged.constant([[1, 2], [], [3]])
    assert (rt + 1).to_list() == [[2, 3], [], [4]]
    assert (10 - rt).to_list() == [[9, 8], [], [7]]
    assert (rt * rt).to_list() == [[1, 4], [], [9]]
    assert (-rt).to_list() == [[-1, -2], [], [-3]]
    assert tf.add(rt, 1).to_list() == [[2, 3], [], [4]]
    assert tf.math.add(1, rt).to_list() == [[2, 3], [], [4]]
    assert tf.multiply(rt, rt).to_list() == [[1, 4], [], [9]]
    assert tf.abs(-rt).to_list() == [[1, 2], [], [3]]
    assert (rt > 1).to_list() == [[False, True], [], [True]]
    roots = tf.math.sqrt(tf.cast(rt, tf.float32))
    assert roots.dtype == tf.float32 and np.allclose(roots.flat_values.numpy(), np.sqrt([1, 2, 3]))
    wide = tf.ragged.constant([[[1, 2]], [[3, 4], [5, 6]]], ragged_rank=1)
    assert (wide * tf.constant([10, 100])).to_list() == [[[10, 200]], [[30, 400], [50, 600]]]


def test_elementwise_ops_check_partitions():
    a = tf.ragged.constant([[1, 2], [3]])
    with pytest.raises(InvalidArgumentError, match="identical ragged splits"):
        a + tf.ragged.constant([[1], [2, 3]])
    with pytest.raises(ValueError, match="dense"):
        a + tf.constant([[1, 2], [3, 4]])


def test_reductions():
    rt = tf.ragged.constant([[1, 2], [], [3, 4, 5]])
    assert tf.reduce_sum(rt, axis=1).numpy().tolist() == [3, 0, 12]
    assert tf.reduce_sum(rt, axis=-1).numpy().tolist() == [3, 0, 12]
    assert tf.reduce_sum(rt, axis=0).numpy().tolist() == [4, 6, 5]
    assert int(tf.reduce_sum(rt)) == 15
    assert tf.reduce_max(rt, axis=1).numpy().tolist() == [2, np.iinfo(np.int32).min, 5]
    assert tf.reduce_prod(rt, axis=1).numpy().tolist() == [2, 1, 60]
    means = tf.reduce_mean(tf.cast(rt, tf.float32), axis=1).numpy()
    assert means[0] == 1.5 and np.isnan(means[1]) and means[2] == 4.0
    assert tf.reduce_any(rt > 4, axis=1).numpy().tolist() == [False, False, True]
    assert tf.reduce_all(rt > 0, axis=1).numpy().tolist() == [True, True, True]
    rt3 = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert tf.reduce_sum(rt3, axis=2).to_list() == [[1, 5], [4]]
    assert tf.math.reduce_sum(rt3, axis=[1, 2]).numpy().tolist() == [6, 4]


# -- the graph ops: both executor back ends agree ---------------------------------------------

def test_ragged_ops_codegen_matches_interpreter():
    values = np.array([1, 2, 3, 4, 5], dtype=np.int32)
    splits = np.array([0, 2, 2, 5], dtype=np.int64)

    def fn(v, s):
        rt = tf.RaggedTensor.from_row_splits(v, s)
        lengths = tf.RaggedTensor.from_row_lengths(v, rt.row_lengths())
        return (rt.to_tensor(), tf.reduce_sum(rt, axis=1), tf.reduce_max(rt, axis=0),
                lengths.row_splits, rt.value_rowids(), rt[1:].to_tensor(-1),
                tf.RaggedTensor.from_tensor(rt.to_tensor(), padding=0).row_splits)
    dense, sums, maxes, again, rowids, tail, padded = staged(fn, values, splits)
    assert dense.tolist() == [[1, 2, 0], [0, 0, 0], [3, 4, 5]]
    assert sums.tolist() == [3, 0, 12] and maxes.tolist() == [3, 4, 5]
    assert again.tolist() == [0, 2, 2, 5] and rowids.tolist() == [0, 0, 2, 2, 2]
    assert tail.tolist() == [[-1, -1, -1], [3, 4, 5]] and padded.tolist() == [0, 2, 2, 5]


def test_more_ragged_ops_codegen_matches_interpreter():
    cube = np.arange(8, dtype=np.int32).reshape(2, 2, 2)

    def fn(t):
        rr2 = tf.RaggedTensor.from_tensor(t, ragged_rank=2, lengths=[1, 2, 0, 1])
        rows = tf.RaggedTensor.from_value_rowids(tf.range(3), [0, 0, 2])
        text = apply_string(rr2)
        return (rr2.to_tensor(shape=[2, 2, 3]), rr2.flat_values, rows.row_splits,
                tf.reduce_sum(rr2, axis=2).flat_values, text)

    def apply_string(rt):
        return rt._print_format(3)[1][0]
    dense, flat, splits, sums, text = staged(fn, cube)
    assert dense.tolist() == [[[0, 0, 0], [2, 3, 0]], [[0, 0, 0], [6, 0, 0]]]
    assert flat.tolist() == [0, 2, 3, 6] and splits.tolist() == [0, 2, 2, 3]
    assert sums.tolist() == [0, 5, 0, 6] and text == b"[[[0], [2, 3]], [[], [6]]]"


# -- tf.function arguments and results --------------------------------------------------------

def test_function_argument_is_keyed_by_its_spec():
    @tf.function
    def double(x):
        return x * 2
    a = tf.ragged.constant([[1, 2], [3]])
    out = double(a)
    assert isinstance(out, tf.RaggedTensor) and out.to_list() == [[2, 4], [6]]
    assert double(tf.ragged.constant([[5], [6, 7, 8]])).to_list() == [[10], [12, 14, 16]]
    assert double.experimental_get_tracing_count() == 1  # same spec: [2, None] int32
    double(tf.ragged.constant([[1], [2], [3]]))  # three rows: another spec
    double(tf.ragged.constant([[1.0]]))
    assert double.experimental_get_tracing_count() == 3
    concrete = double.get_concrete_function(a)
    (spec,), _ = concrete.structured_input_signature
    assert spec == tf.RaggedTensorSpec([2, None], tf.int32, 1, tf.int64)
    assert repr(spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    assert "x: RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)" in str(concrete)
    assert concrete(a).to_list() == [[2, 4], [6]]
    assert [i.name for i in concrete.inputs] == ["x:0", "x_1:0"]


def test_ragged_rank_two_round_trip():
    @tf.function
    def f(x):
        return x + 1, x.values, x.flat_values
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    out, values, flat = f(rt)
    assert out.to_list() == [[[2], [3, 4]], [[5]]] and out.ragged_rank == 2
    assert values.to_list() == [[1], [2, 3], [4]] and flat.numpy().tolist() == [1, 2, 3, 4]


def test_input_signature_with_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32, 1)])
    def f(x):
        return tf.reduce_sum(x, axis=1)
    assert f(tf.ragged.constant([[1, 2], [3]])).numpy().tolist() == [3, 3]
    assert f(tf.ragged.constant([[1], [2], [3, 4]])).numpy().tolist() == [1, 2, 7]
    assert f.experimental_get_tracing_count() == 1
    with pytest.raises(TypeError):
        f(tf.constant([[1, 2]]))
    with pytest.raises(TypeError):
        f(tf.ragged.constant([[1.0]]))

    @tf.function(input_signature=[tf.TensorSpec([None, None], tf.int32)])
    def dense(x):
        return x
    with pytest.raises(TypeError):
        dense(tf.ragged.constant([[1, 2], [3]]))


def test_spec_order():
    a = tf.RaggedTensorSpec([2, None], tf.int32, 1)
    b = tf.RaggedTensorSpec([None, None], tf.int32, 1)
    assert a.is_subtype_of(b) and not b.is_subtype_of(a)
    assert a.most_specific_common_supertype([tf.RaggedTensorSpec([3, None], tf.int32, 1)]) == b
    assert a.most_specific_common_supertype([tf.RaggedTensorSpec([2, None], tf.float32, 1)]) \
        is None
    assert a.is_compatible_with(tf.ragged.constant([[1], [2, 3]]))
    assert [s.shape.as_list() for s in a._component_specs] == [[None], [3]]


def test_reduce_retracing_relaxes_nrows():
    @tf.function(reduce_retracing=True)
    def f(x):
        return x.nrows()
    for n in (1, 2, 3, 4):
        assert int(f(tf.ragged.constant([[1]] * n))) == n
    assert f.experimental_get_tracing_count() == 2


# -- staged loops over rows, and ragged loop / cond state -------------------------------------

def _digits_per_row(m):
    out = tf.TensorArray(tf.int32, size=0, dynamic_size=True, element_shape=())
    for row in m:
        s = 0
        for d in row:
            s = s * 10 + d
        out = out.write(out.size(), s)
    return out.stack()


@pytest.mark.parametrize("rows", [[[]], [[], [7]], [[1, 2], [], [3, 4, 5]]])
def test_for_over_rows_is_one_staged_loop(rows):
    rt = tf.ragged.constant(rows, dtype=tf.int32)
    eager = _digits_per_row(rt).numpy().tolist()
    f = tf.function(_digits_per_row)
    assert f(rt).numpy().tolist() == eager
    graph = f.get_concrete_function(rt).graph
    assert [n.op for n in graph.nodes].count("StatelessWhile") + \
        [n.op for n in graph.nodes].count("While") == 1  # the outer loop; the inner is nested


def test_for_over_rows_with_break_and_ragged_rank_two():
    def first_rows(m, limit):
        total = tf.constant(0)
        for row in m:
            if tf.reduce_sum(row.flat_values) > limit:
                break
            for inner in row:
                total += tf.reduce_sum(inner)
        return total
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]], [[50, 1]], [[6]]])
    f = tf.function(first_rows)
    for limit in (0, 5, 100):
        assert int(f(rt, tf.constant(limit))) == int(first_rows(rt, tf.constant(limit)))


def test_ragged_loop_state_rows_may_grow_but_not_their_count():
    @tf.function
    def longer_rows(x, n):
        i = 0
        while i < n:  # the flat values grow; the row count stays: no invariant needed
            x = tf.RaggedTensor.from_row_lengths(tf.concat([x.values, [i, i]], 0),
                                                 x.row_lengths() + [0, 2])
            i += 1
        return x
    assert longer_rows(tf.ragged.constant([[1], []]), tf.constant(2)).to_list() == \
        [[1], [0, 0, 1, 1]]

    def add_row(i, rt):
        return i + 1, tf.RaggedTensor.from_row_splits(
            tf.concat([rt.values, [i, i]], 0),
            tf.concat([rt.row_splits, [rt.row_splits[-1] + 2]], 0))

    @tf.function
    def more_rows(n):
        return tf.while_loop(lambda i, rt: i < n, add_row, [0, tf.ragged.constant([[1]])],
                             shape_invariants=[tf.TensorShape([]),
                                               tf.TensorShape([None, None])])[1]
    assert more_rows(tf.constant(2)).to_list() == [[1], [0, 0], [1, 1]]
    assert more_rows(tf.constant(0)).to_list() == [[1]]

    @tf.function
    def no_invariant(n):
        return tf.while_loop(lambda i, rt: i < n, add_row, [0, tf.ragged.constant([[1]])])
    with pytest.raises(ValueError, match=r"shape \(2,\) before the loop"):
        no_invariant(tf.constant(2))


def test_functional_while_loop_and_cond_carry_ragged():
    rt = tf.ragged.constant([[1, 2], [3]])

    @tf.function
    def f(x, n, flag):
        _, y = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * 2), [0, x])
        z = tf.cond(flag, lambda: y + 1, lambda: y - 1)
        return y, z
    y, z = f(rt, tf.constant(3), tf.constant(True))
    assert y.to_list() == [[8, 16], [24]] and z.to_list() == [[9, 17], [25]]
    assert f(rt, tf.constant(1), tf.constant(False))[1].to_list() == [[1, 3], [5]]


def test_loop_body_changing_a_ragged_variable_to_a_tensor_is_reported():
    @tf.function
    def f(x):
        return tf.while_loop(lambda v: tf.constant(False), lambda v: v.to_tensor(), [x])
    with pytest.raises(StructureMismatchError, match="RaggedTensor"):
        f(tf.ragged.constant([[1, 2], [3]]))


# -- nest and printing ------------------------------------------------------------------------

def test_nest_expand_composites():
    rt = tf.ragged.constant([[1, 2], [3]])
    flat = nest.flatten({"a": rt, "b": 1}, expand_composites=True)
    assert len(flat) == 3 and flat[0].numpy().tolist() == [1, 2, 3] and flat[2] == 1
    assert nest.flatten([rt]) == [rt]
    doubled = nest.map_structure(lambda t: t * 2 if t.dtype == tf.int32 else t, [rt],
                                 expand_composites=True)
    assert doubled[0].to_list() == [[2, 4], [6]]


def test_print_shows_the_rows(capsys):
    tf.print(tf.ragged.constant([[1, 2], [3]]), "and", tf.ragged.constant([["a", "b'"]]))

    @tf.function
    def f(x):
        tf.print({"x": x}, summarize=2)
        return x
    f(tf.ragged.constant([[1, 2, 3, 4, 5], [], [], [], [6]]))
    assert capsys.readouterr().err == ("[[1, 2], [3]] and [['a', 'b\\'']]\n"
                                       "{'x': [[1, 2, ..., 4, 5], [], ..., [], [6]]}\n")
