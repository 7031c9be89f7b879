"""Array ops: eager == staged (both back ends) == numpy, and their error messages."""
import numpy as np
import pytest

import runtime as rt
from graph.errors import InvalidArgumentError
from tests.staging import assert_same, staged

rng = np.random.default_rng(0)


def f32(*shape):
    return rng.standard_normal(shape).astype(np.float32)


def i32(*shape):
    return rng.integers(-50, 50, shape).astype(np.int32)


def check(fn, expected, *args):
    """fn eagerly and staged agree with each other and with the numpy ``expected``."""
    got = assert_same(fn, *args)
    exp = np.asarray(expected)
    got = np.asarray(got)
    assert got.dtype == exp.dtype, (got.dtype, exp.dtype)
    np.testing.assert_array_equal(got, exp)


# -- reshaping ---------------------------------------------------------------------

@pytest.mark.parametrize("shape", [[6, 4], [-1], [2, -1, 3], [24], [1, 24, 1]])
def test_reshape(shape):
    x = f32(2, 3, 4)
    check(lambda x: rt.reshape(x, shape), x.reshape(shape), x)


def test_reshape_with_shape_tensor_from_another_tensor():
    x, y = i32(2, 6), i32(3, 4)
    check(lambda x, y: rt.reshape(x, rt.shape(y)), x.reshape(3, 4), x, y)


def test_reshape_shape_as_staged_input_has_unknown_static_dims():
    x = f32(12)
    shape = np.array([3, -1], np.int32)
    check(lambda x, s: rt.reshape(x, s), x.reshape(3, -1), x, shape)


@pytest.mark.parametrize("perm", [None, [0, 1, 2], [2, 0, 1], [1, 2, 0]])
def test_transpose(perm):
    x = i32(2, 3, 4)
    check(lambda x: rt.transpose(x, perm), np.transpose(x, perm), x)


def test_expand_dims_squeeze_tile():
    x = f32(3, 1, 2)
    check(lambda x: rt.expand_dims(x, 0), x[None], x)
    check(lambda x: rt.expand_dims(x, -1), x[..., None], x)
    check(lambda x: rt.squeeze(x), x.reshape(3, 2), x)
    check(lambda x: rt.squeeze(x, [1]), x.reshape(3, 2), x)
    check(lambda x: rt.squeeze(x, -2), x.reshape(3, 2), x)
    check(lambda x: rt.tile(x, [2, 3, 1]), np.tile(x, [2, 3, 1]), x)


def test_identity():
    x = i32(4)
    check(lambda x: rt.identity(x), x, x)


# -- joining and splitting ------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1])
def test_concat(axis):
    a, b, c = f32(2, 3), f32(2, 3), f32(2, 3)
    check(lambda a, b, c: rt.concat([a, b, c], axis), np.concatenate([a, b, c], axis), a, b, c)


def test_concat_of_one_value_is_identity():
    a = f32(2)
    check(lambda a: rt.concat([a], 0), a, a)


@pytest.mark.parametrize("axis", [0, 1, 2, -1])
def test_stack(axis):
    a, b = i32(2, 3), i32(2, 3)
    check(lambda a, b: rt.stack([a, b], axis=axis), np.stack([a, b], axis), a, b)


def test_stack_converts_python_values_to_the_tensor_dtype():
    a = f32()
    check(lambda a: rt.stack([a, 1, 2.5]), np.array([a, 1, 2.5], np.float32), a)


@pytest.mark.parametrize("axis", [0, 1])
def test_unstack(axis):
    x = i32(3, 2)
    expected = list(np.moveaxis(x, axis, 0))
    got = assert_same(lambda x: rt.unstack(x, axis=axis), x)
    assert len(got) == x.shape[axis]
    for g, e in zip(got, expected):
        np.testing.assert_array_equal(g, e)


def test_unstack_single_and_symbolic_iteration():
    x = i32(1, 4)
    assert len(assert_same(lambda x: rt.unstack(x), x)) == 1
    # TensorFlow refuses Python iteration of a symbolic tensor, even of known length
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError, match="Iterating over"):
        staged(lambda x: [r * 2 for r in x], i32(3, 2))


def test_convert_nested_list_with_tensors_packs():
    a, b = f32(), f32()
    expected = np.array([[a, 1.0], [2.0, b]], np.float32)
    check(lambda a, b: rt.convert_to_tensor([[a, 1.0], [2, b]]), expected, a, b)


def test_constant_of_a_list_with_tensors_packs():
    a = f32()
    check(lambda a: rt.constant([a, 1]), np.array([a, 1], np.float32), a)
    v = rt.Variable(2)
    np.testing.assert_array_equal(rt.constant([[v, 3]], dtype=rt.int32).numpy(), [[2, 3]])


def test_stack_nested_rejects_mixed_tensor_dtypes():
    with pytest.raises(TypeError, match="Cannot convert a list containing a tensor of dtype "
                                        "int32 to float32"):
        rt.stack_nested([rt.constant(1.0), rt.constant(1)])


# -- gather ------------------------------------------------------------------------------

@pytest.mark.parametrize("axis", [0, 1, -1])
def test_gather(axis):
    x = f32(4, 5)
    idx = rng.integers(0, 4, (2, 3)).astype(np.int32)
    check(lambda x, i: rt.gather(x, i, axis=axis), np.take(x, idx, axis=axis), x, idx)


def test_gather_scalar_index_and_strings():
    words = np.array([b"a", b"bb", b"ccc"], dtype=object)
    got = rt.gather(rt.constant(words), 1)
    assert got.numpy() == b"bb"
    check(lambda x: rt.gather(x, 2), np.int32(7), np.array([5, 6, 7], np.int32))


def test_gather_batch_dims():
    x = i32(2, 4, 3)
    idx = rng.integers(0, 4, (2, 5)).astype(np.int32)
    expected = np.stack([np.take(x[b], idx[b], axis=0) for b in range(2)])
    check(lambda x, i: rt.gather(x, i, batch_dims=1), expected, x, idx)


# -- shape queries and creation ----------------------------------------------------------------

def test_shape_size_rank():
    x = f32(2, 3)
    check(lambda x: rt.shape(x), np.array([2, 3], np.int32), x)
    check(lambda x: rt.size(x), np.int32(6), x)
    check(lambda x: rt.rank(x), np.int32(2), x)
    check(lambda x: rt.shape(x, out_type=rt.int64), np.array([2, 3], np.int64), x)


def test_shape_of_unknown_dims_runs_the_shape_op():
    def f(n):
        x = rt.zeros(rt.stack([n, 2]))
        assert x.shape.as_list() == [None, 2]  # the Pack of [n, 2] is seen through
        return rt.shape(x), rt.size(x)
    shape, size = staged(f, np.int32(3))
    np.testing.assert_array_equal(shape, [3, 2])
    assert shape.dtype == np.int32 and size == 6


def test_fill_zeros_ones():
    check(lambda: rt.fill([2, 3], 7), np.full((2, 3), 7, np.int32))
    check(lambda: rt.zeros([2, 2]), np.zeros((2, 2), np.float32))
    check(lambda: rt.ones(3, dtype=rt.int64), np.ones(3, np.int64))
    check(lambda: rt.zeros([40, 40]), np.zeros((40, 40), np.float32))  # via Fill
    check(lambda n: rt.ones([n, 2], rt.int32), np.ones((4, 2), np.int32), np.int32(4))
    check(lambda x: rt.reshape(x, [rt.shape(x)[0], -1, 2]), np.ones((2, 3, 2), np.float32),
          np.ones((2, 6), np.float32))
    check(lambda: rt.zeros(rt.TensorShape([1, 2]), rt.bool), np.zeros((1, 2), bool))


def test_zeros_like_ones_like():
    x = i32(2, 3)
    check(lambda x: rt.zeros_like(x), np.zeros_like(x), x)
    check(lambda x: rt.ones_like(x), np.ones_like(x), x)
    check(lambda x: rt.ones_like(x, dtype=rt.float32), np.ones((2, 3), np.float32), x)


@pytest.mark.parametrize("args", [(3,), (2, 4), (4, 2), (3, None, [2])])
def test_eye(args):
    n, m, batch = (list(args) + [None, None])[:3]
    expected = np.eye(n, m or n, dtype=np.float32)
    if batch:
        expected = np.broadcast_to(expected, batch + list(expected.shape))
    check(lambda: rt.eye(n, m, batch_shape=batch), expected)


def test_eye_with_tensor_sizes():
    check(lambda n, m: rt.eye(n, m, dtype=rt.int32), np.eye(2, 3, dtype=np.int32),
          np.int32(2), np.int32(3))


@pytest.mark.parametrize("args, expected", [
    ((5,), np.arange(5, dtype=np.int32)),
    ((2, 9, 3), np.arange(2, 9, 3, dtype=np.int32)),
    ((5, 0, -2), np.array([5, 3, 1], np.int32)),
    ((1, 2, 0.25), np.arange(1, 2, 0.25, dtype=np.float32)),
    ((0.0, 1.0, 0.1), None),
    ((3, 3), np.zeros(0, np.int32)),
])
def test_range(args, expected):
    got = check if expected is not None else assert_same
    if expected is None:  # TensorFlow accumulates float32 steps: 0.70000005, ...
        out = assert_same(lambda: rt.range(*args))
        acc = np.cumsum(np.array([0.0] + [0.1] * 9, np.float32), dtype=np.float32)
        np.testing.assert_array_equal(out, acc)
        assert out.dtype == np.float32
    else:
        got(lambda: rt.range(*args), expected)


def test_range_dtypes_and_tensor_bounds():
    assert rt.range(3, dtype=rt.float64).dtype == rt.float64
    assert rt.range(rt.constant(3, rt.int64)).dtype == rt.int64
    check(lambda n: rt.range(n), np.arange(4, dtype=np.int32), np.int32(4))
    check(lambda n: rt.range(1, n, 2), np.arange(1, 7, 2, dtype=np.int32), np.int32(7))
    # an int32 tensor bound with a float bound: cast to the widest dtype, float32
    check(lambda n: rt.range(n, 4.5), np.array([2, 3, 4], np.float32), np.int32(2))


def test_range_symbolic_limit_has_unknown_length():
    def f(n):
        r = rt.range(n)
        assert r.shape.as_list() == [None]
        return r
    staged(f, np.int32(3))


# -- errors -------------------------------------------------------------------------------------

def test_bad_reshape_eager_and_staged():
    x = f32(2, 3)
    with pytest.raises(InvalidArgumentError,
                       match="Input to reshape is a tensor with 6 values, but the requested "
                             "shape has 4"):
        rt.reshape(rt.constant(x), [4])
    with pytest.raises(InvalidArgumentError, match=r"requested shape has 4\n  at .*test_array_ops"):
        staged(lambda x: rt.reshape(x, [2, 2]), x)
    with pytest.raises(InvalidArgumentError, match="requires a multiple of 4"):
        rt.reshape(rt.constant(x), [4, -1])
    with pytest.raises(InvalidArgumentError, match="only one input size may be -1"):
        rt.reshape(rt.constant(x), [-1, -1])


def test_bad_reshape_found_at_run_time_names_the_node():
    x = f32(6)
    with pytest.raises(InvalidArgumentError, match=r"tensor with 6 values.*op 'Reshape'"):
        staged(lambda x, s: rt.reshape(x, s), x, np.array([4], np.int32))


@pytest.mark.parametrize("perm, message", [
    ([0, 0], r"1 is missing from \{0,0\}"),
    ([0, 2], r"2 is out of range \[0 .. 2\)"),
    ([1, 0, 2], "transpose expects a vector of size 2. But input.1. is a vector of size 3"),
])
def test_bad_perm(perm, message):
    x = f32(2, 3)
    with pytest.raises(InvalidArgumentError, match=message):
        rt.transpose(rt.constant(x), perm)
    with pytest.raises(InvalidArgumentError, match=message):
        staged(lambda x: rt.transpose(x, perm), x)


def test_out_of_range_gather():
    x = f32(3)
    with pytest.raises(InvalidArgumentError, match=r"indices\[1\] = 3 is not in \[0, 3\)"):
        rt.gather(rt.constant(x), [0, 3])
    with pytest.raises(InvalidArgumentError, match=r"indices\[0\] = -1 is not in \[0, 3\)"):
        rt.gather(rt.constant(x), [-1])
    with pytest.raises(InvalidArgumentError,
                       match=r"indices\[0,1\] = 7 is not in \[0, 3\).*op 'GatherV2'"):
        staged(lambda x, i: rt.gather(x, i), x, np.array([[0, 7]], np.int32))


def test_gather_axis_out_of_range():
    with pytest.raises(InvalidArgumentError, match=r"Expected axis in the range \[-1, 1\), "
                                                   "but got 1"):
        rt.gather(rt.constant([1, 2]), [0], axis=1)


def test_concat_and_stack_shape_errors():
    with pytest.raises(InvalidArgumentError, match="Dimension 1 in both shapes must be equal"):
        rt.concat([rt.zeros([2, 3]), rt.zeros([2, 4])], 0)
    with pytest.raises(InvalidArgumentError, match="Shapes of all inputs must match"):
        rt.stack([rt.zeros([2]), rt.zeros([3])])
    with pytest.raises(InvalidArgumentError, match="expected to be a float32 tensor"):
        rt.concat([rt.zeros([2]), rt.constant([1, 2])], 0)


def test_squeeze_and_unstack_errors():
    with pytest.raises(InvalidArgumentError, match=r"Can not squeeze dim\[0\], expected a "
                                                   "dimension of 1, got 3"):
        rt.squeeze(rt.zeros([3, 1]), 0)
    with pytest.raises(ValueError, match="Cannot infer argument `num`"):
        staged(lambda n: rt.unstack(rt.zeros(rt.stack([n]))), np.int32(2))


def test_range_errors():
    with pytest.raises(InvalidArgumentError, match="Requires delta != 0"):
        rt.range(0, 5, 0)
    with pytest.raises(InvalidArgumentError, match="Requires start <= limit when delta > 0: 5/1"):
        rt.range(5, 1)
    with pytest.raises(InvalidArgumentError, match="Requires start <= limit.*op 'range'"):
        staged(lambda n: rt.range(n, 1), np.int32(5))
