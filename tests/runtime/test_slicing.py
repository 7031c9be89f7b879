"""Tensor.__getitem__ (StridedSlice) against numpy: eagerly, staged, with tensor indices."""
import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import runtime as rt
from graph.errors import InvalidArgumentError
from tests.staging import assert_same, eager, staged

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

bounds = st.one_of(st.none(), st.integers(-7, 7))
items = st.one_of(
    st.integers(-5, 5),
    st.builds(slice, bounds, bounds, st.one_of(st.none(), st.integers(-3, 3).filter(bool))),
    st.just(Ellipsis),
    st.just(None),
)


@st.composite
def array_and_key(draw):
    shape = draw(st.lists(st.integers(0, 4), min_size=0, max_size=3))
    x = np.arange(int(np.prod(shape)), dtype=np.int32).reshape(shape)
    key = draw(st.lists(items, min_size=1, max_size=4))
    if key.count(Ellipsis) > 1:
        key = [k for k in key if k is not Ellipsis] + [Ellipsis]
    return x, tuple(key) if len(key) > 1 or draw(st.booleans()) else key[0]


def numpy_result(x, key):
    try:
        return np.asarray(x[key]), None
    except IndexError as e:
        return None, e


def _flat_ints(key):
    """The int parts of ``key`` (indices and slice bounds), to be fed as tensors."""
    key = key if isinstance(key, tuple) else (key,)
    out = []
    for k in key:
        if isinstance(k, int):
            out.append(k)
        elif isinstance(k, slice):
            out.extend(b for b in (k.start, k.stop, k.step) if b is not None)
    return out


def _rebuild(key, values):
    """``key`` with its ints replaced, in order, by ``values`` (tensors)."""
    it = iter(values)
    was_tuple = isinstance(key, tuple)
    key = key if was_tuple else (key,)
    out = []
    for k in key:
        if isinstance(k, int):
            out.append(next(it))
        elif isinstance(k, slice):
            out.append(slice(*(None if b is None else next(it) for b in (k.start, k.stop, k.step))))
        else:
            out.append(k)
    return tuple(out) if was_tuple else out[0]


@SETTINGS
@given(array_and_key())
def test_python_indices_match_numpy_eager_and_staged(case):
    x, key = case
    expected, error = numpy_result(x, key)
    if error is not None:
        with pytest.raises(InvalidArgumentError, match="out of bounds|Index out of range"):
            eager(lambda t: t[key], x)
        with pytest.raises(InvalidArgumentError, match="out of bounds|Index out of range"):
            staged(lambda t: t[key], x)
        return
    got = assert_same(lambda t: t[key], x)
    assert got.shape == expected.shape and got.dtype == expected.dtype
    np.testing.assert_array_equal(got, expected)


@SETTINGS
@given(array_and_key())
def test_tensor_indices_match_numpy_when_staged(case):
    x, key = case
    ints = [np.int32(v) for v in _flat_ints(key)]
    expected, error = numpy_result(x, key)

    def f(t, *values):
        return t[_rebuild(key, values)]
    if error is not None:
        with pytest.raises(InvalidArgumentError, match="out of bounds|Index out of range"):
            staged(f, x, *ints)
        return
    got = staged(f, x, *ints)
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got, expected)


def test_static_shapes_of_common_forms():
    def f(x, i, j):
        assert x[1].shape.as_list() == [4, 5]
        assert x[1:3].shape.as_list() == [2, 4, 5]
        assert x[::-1].shape.as_list() == [3, 4, 5]
        assert x[..., None].shape.as_list() == [3, 4, 5, 1]
        assert x[:, 0].shape.as_list() == [3, 5]
        assert x[i].shape.as_list() == [4, 5]
        assert x[i:j].shape.as_list() == [None, 4, 5]
        assert x[:, i:j, 2].shape.as_list() == [3, None]
        assert x[None, ..., 1:100:2].shape.as_list() == [1, 3, 4, 2]
        return x[i:j]
    x = np.arange(60, dtype=np.float32).reshape(3, 4, 5)
    np.testing.assert_array_equal(staged(f, x, np.int32(1), np.int32(3)), x[1:3])


def test_slice_spec_attr_reads_like_the_index():
    from tests.staging import trace
    graph, _, _ = trace(lambda x, i: x[i:, ..., None, 2], np.zeros((3, 4), np.int32),
                        np.int32(1))
    node = [n for n in graph.nodes if n.op == "StridedSlice"][0]
    assert node.name == "strided_slice"
    assert node.attrs["spec"] == (("slice", ("input", 1), None, None), ("ellipsis",),
                                  ("newaxis",), ("index", 2))
    assert [i.node.name for i in node.inputs] == ["arg0", "arg1"]


def test_tensor_valued_indices_inside_a_staged_while_loop():
    x = np.arange(10, dtype=np.float32) ** 2

    def windows(x):
        def body(i, acc, rev):
            return i + 1, acc + x[i:i + 3], rev + x[::-1][i]
        return rt.while_loop(lambda i, acc, rev: i < 5, body,
                             [0, rt.zeros([3]), rt.constant(0.0)])
    i, acc, rev = assert_same(windows, x)
    np.testing.assert_array_equal(acc, sum(x[k:k + 3] for k in range(5)))
    assert rev == sum(x[::-1][k] for k in range(5))


def test_loop_carried_bounds_and_step_tensor():
    x = np.arange(12, dtype=np.int32)

    def f(x, step):
        def body(lo, hi, total):
            return lo + 1, hi - 1, total + rt.size(x[lo:hi:step])
        return rt.while_loop(lambda lo, hi, t: lo < hi, body, [0, 12, 0])[2]
    expected = sum(len(x[lo:12 - lo:2]) for lo in range(6))
    assert assert_same(f, x, np.int32(2)) == expected


def test_variable_index_and_eager_tensor_index():
    x = rt.constant([10, 20, 30])
    assert x[rt.constant(2)].numpy() == 30
    assert x[rt.Variable(1)].numpy() == 20
    v = rt.Variable([[1, 2], [3, 4]])
    np.testing.assert_array_equal(v[:, 1], [2, 4])


def test_out_of_range_tensor_index_fails_at_run_time_naming_the_node():
    with pytest.raises(InvalidArgumentError,
                       match=r"slice index 7 of dimension 1 out of bounds.*op 'strided_slice'"):
        staged(lambda x, i: x[:, i], np.zeros((2, 3), np.int32), np.int32(7))


def test_out_of_range_constant_index_fails_while_building_with_the_user_line():
    with pytest.raises(InvalidArgumentError,
                       match=r"slice index -4 of dimension 0 out of bounds.\n  at .*test_slicing"):
        staged(lambda x: x[-4], np.zeros(3, np.int32))


def test_too_many_indices():
    with pytest.raises(InvalidArgumentError,
                       match="Index out of range using input dim 1; input has only 1 dims"):
        rt.constant([1, 2])[0, 0]


@pytest.mark.parametrize("key", [1.5, "a", (slice(None), [1])])
def test_unsupported_indices_raise_type_error(key):
    with pytest.raises(TypeError, match="Only integers, slices"):
        rt.constant([[1, 2]])[key]


def test_float_and_vector_tensor_indices_are_rejected():
    x = rt.constant([1, 2])
    with pytest.raises(TypeError, match="scalar tf.int32/tf.int64 tensors are valid indices"):
        x[rt.constant(1.0)]
    with pytest.raises(TypeError, match="scalar tf.int32/tf.int64 tensors are valid indices"):
        x[rt.constant([0, 1])]


def test_zero_step_and_double_ellipsis():
    x = rt.constant([1, 2])
    # TensorFlow's InvalidArgumentErrors (a ValueError here)
    with pytest.raises(InvalidArgumentError, match=r"strides\[0\] must be non-zero"):
        x[::0]
    with pytest.raises(InvalidArgumentError, match="Multiple ellipses in slice spec not allowed"):
        x[..., ...]


def test_string_tensor_slicing():
    words = rt.constant(["a", "bb", "ccc"])
    assert words[1].numpy() == b"bb"
    assert list(words[::-1].numpy()) == [b"ccc", b"bb", b"a"]
