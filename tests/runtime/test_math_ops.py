"""The math op API eagerly and staged: every op, broadcasting, TF's dtype rules, operators."""
import numpy as np
import pytest

import runtime as tf
from graph import Graph
from graph.errors import InvalidArgumentError, UnimplementedError
from runtime import context
from runtime.ops.math_ops import relu
from tests.staging import assert_same, trace

RNG = np.random.default_rng(1)


def f32(*shape):
    return RNG.uniform(0.5, 2.0, shape).astype(np.float32)


def i32(*shape):
    return RNG.integers(1, 9, shape).astype(np.int32)


BINARY = [tf.add, tf.subtract, tf.multiply, tf.maximum, tf.minimum, tf.math.floordiv,
          tf.math.floormod, tf.pow, tf.math.squared_difference]
COMPARE = [tf.greater, tf.greater_equal, tf.less, tf.less_equal, tf.equal, tf.not_equal]


@pytest.mark.parametrize("fn", BINARY + COMPARE + [tf.divide, tf.truediv],
                         ids=lambda f: f.__name__)
@pytest.mark.parametrize("make", [f32, i32], ids=["float32", "int32"])
def test_binary_eager_equals_staged_with_broadcasting(fn, make):
    assert_same(fn, make(3, 1, 4), make(2, 1))
    assert_same(lambda x: fn(x, 2), make(5))          # Python scalar takes the tensor's dtype
    assert_same(lambda y: fn(3, y), make(2, 2))


@pytest.mark.parametrize("fn", [tf.tanh, tf.exp, tf.square, tf.sigmoid, relu, tf.negative,
                                tf.abs, tf.math.sign, tf.math.floor, tf.math.round],
                         ids=lambda f: f.__name__)
def test_unary_eager_equals_staged(fn):
    assert_same(fn, f32(4, 3) - np.float32(1.0))


@pytest.mark.parametrize("fn", [tf.math.log, tf.sqrt, tf.math.rsqrt], ids=lambda f: f.__name__)
def test_unary_positive_domain(fn):
    assert_same(fn, f32(4, 3))


def test_python_operators_eager_equals_staged():
    def f(x, y):
        return (x + y, x - y, x * y, x / y, x // y, x % y, x ** 2, -x, abs(x), x @ y,
                x < y, x <= y, x > y, x >= y, x == y, x != y, 1 + x, 2 - x, 3 * x, 1 / x,
                2 ** x, 7 // y, 7 % y)
    assert_same(f, f32(3, 3), f32(3, 3))
    ints = assert_same(lambda x, y: (x / y, x // y, x % y, x @ y), i32(2, 2), i32(2, 2))
    assert ints[0].dtype == np.float64  # int32 / int32 is float64, like TensorFlow


def test_bool_operators():
    def f(a, b):
        return a & b, a | b, a ^ b, ~a, True & a, False | b
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    out = assert_same(f, a, b)
    np.testing.assert_array_equal(out[2], a ^ b)
    np.testing.assert_array_equal(out[3], ~a)


def test_int_bitwise_operators():
    out = assert_same(lambda a, b: (a & b, a | b, a ^ b, ~a), i32(4), i32(4))
    assert out[0].dtype == np.int32


def test_operators_on_numpy_left_operand():
    x = tf.constant([1.0, 2.0])
    out = np.array([1.0, 1.0], np.float32) + x
    assert isinstance(out, tf.Tensor) and out.numpy().tolist() == [2.0, 3.0]


def test_equality_with_none_and_incompatible_objects():
    x = tf.constant([1, 2])
    assert (x == None) is False and (x != None) is True  # noqa: E711
    assert (x == object()) is False and (x != "text") is True
    assert bool(tf.constant([1, 2, 3]) == tf.constant([1, 2])) is False  # shapes differ
    np.testing.assert_array_equal((x == 2).numpy(), [False, True])


def test_truediv_of_ints_casts_to_float64_and_small_ints_to_float32():
    assert tf.truediv(tf.constant(3), 2).dtype == tf.float64
    assert tf.divide(tf.constant(3, tf.int16), tf.constant(2, tf.int16)).dtype == tf.float32
    assert (tf.constant(3) / 2).numpy() == 1.5
    g, _, _ = trace(lambda x: x / 2, np.int32(3))
    assert [n.op for n in g.nodes].count("Cast") == 2 and g.get_node("truediv").op == "RealDiv"


def test_python_literals_take_the_tensor_dtype():
    assert (tf.constant(1.5, tf.float64) + 1).dtype == tf.float64
    assert (tf.constant(2, tf.int64) * 3).dtype == tf.int64
    assert (tf.constant([1.0]) + [2]).dtype == tf.float32
    assert tf.add(1, 2).dtype == tf.int32 and tf.add(1.0, 2).dtype == tf.float32


def test_float_into_int_tensor_is_a_type_error_naming_the_line():
    with pytest.raises(TypeError, match=r"Cannot convert 1.5 to EagerTensor of dtype int32.*test_math_ops.py:\d+"):
        tf.constant(1) + 1.5
    with pytest.raises(TypeError, match=r"Cannot convert 2.0 to EagerTensor of dtype int32"):
        tf.constant(1) + 2.0  # even a whole float (TensorFlow refuses it too)
    # numpy values are cast to the tensor's dtype, as TensorFlow casts them
    assert (tf.constant([1, 2]) * np.array([0.5, 2.5])).numpy().tolist() == [0, 4]


def test_mixing_tensor_dtypes_raises_invalid_argument_naming_the_fix():
    with pytest.raises(InvalidArgumentError, match="int32.*float32.*tf.cast"):
        tf.constant(1) + tf.constant(1.0)
    g = Graph("g")
    with context.building(g):
        a = tf.constant(1)
        with pytest.raises(InvalidArgumentError, match=r"tf.cast.*\n  at .*test_math_ops.py:\d+"):
            tf.multiply(a, tf.constant(2.0))


def test_strings_concat_and_compare():
    assert (tf.constant("a") + "a").numpy() == b"aa"
    assert tf.add("a", "b").numpy() == b"ab"
    s = np.array([b"x", b"y"], dtype=object)
    out = assert_same(lambda s: (s + "!", s == "x", tf.equal(s, s), s != "y"), tf.constant(s))
    assert out[0].tolist() == [b"x!", b"y!"]
    assert out[1].tolist() == [True, False] and out[3].tolist() == [True, False]
    with pytest.raises(TypeError):
        tf.constant("a") + 1


def test_logical_functions():
    a = np.array([True, False, True])
    b = np.array([False, False, True])
    out = assert_same(lambda a, b: (tf.logical_and(a, b), tf.logical_or(a, b),
                                    tf.logical_not(a), tf.math.logical_xor(a, b)), a, b)
    np.testing.assert_array_equal(out[3], a ^ b)


@pytest.mark.parametrize("fn", [tf.reduce_sum, tf.reduce_mean, tf.reduce_max, tf.reduce_min,
                                tf.reduce_prod], ids=lambda f: f.__name__)
@pytest.mark.parametrize("axis", [None, 0, 1, -1, [0, 2], (1, 2)])
@pytest.mark.parametrize("keepdims", [False, True])
def test_reductions(fn, axis, keepdims):
    for x in (f32(2, 3, 4), i32(2, 3, 4)):
        out = assert_same(lambda x: fn(x, axis=axis, keepdims=keepdims), x)
        assert out.dtype == x.dtype
        name = fn.__name__.replace("reduce_", "")
        np_axis = tuple(axis) if isinstance(axis, list) else axis
        if name in ("sum", "prod"):  # in the input dtype: int32 wraps like TensorFlow's
            ref = getattr(np, name)(x, axis=np_axis, keepdims=keepdims, dtype=x.dtype)
        else:
            ref = getattr(np, name)(x.astype(np.float64), axis=np_axis, keepdims=keepdims)
        if name == "mean" and x.dtype == np.int32:
            ref = np.trunc(ref)
        np.testing.assert_allclose(out, ref.astype(x.dtype), rtol=1e-5)


def test_reduce_any_all():
    b = RNG.random((3, 4)) > 0.5
    out = assert_same(lambda b: (tf.reduce_any(b, axis=1), tf.reduce_all(b), tf.reduce_all(b, 0, True)), b)
    np.testing.assert_array_equal(out[0], b.any(axis=1))
    assert out[2].shape == (1, 4)


def test_reduction_with_tensor_axis_and_errors():
    x = tf.constant([[1, 2], [3, 4]])
    assert tf.reduce_sum(x, axis=tf.constant(1)).numpy().tolist() == [3, 7]
    with pytest.raises(InvalidArgumentError, match="invalid reduction dimension 2"):
        tf.reduce_sum(x, axis=2)


def test_mse_from_the_guide():
    y_true = np.array([1, 0, 4, 4, 7], np.int32)
    y_pred = np.array([3, 6, 3, 0, 6], np.int32)
    out = assert_same(lambda a, b: tf.reduce_mean(tf.pow(a - b, 2)), y_true, y_pred)
    assert out == 11 and out.dtype == np.int32


def test_matmul():
    a, b = f32(3, 4), f32(4, 2)
    np.testing.assert_allclose(assert_same(tf.matmul, a, b), a @ b, rtol=1e-5)
    out = assert_same(lambda a, b: tf.matmul(a, b, transpose_a=True, transpose_b=True),
                      a.T.copy(), b.T.copy())
    np.testing.assert_allclose(out, a @ b, rtol=1e-5)
    batch = assert_same(tf.matmul, f32(2, 3, 4), f32(4, 5))
    assert batch.shape == (2, 3, 5)
    g, _, _ = trace(tf.matmul, a, b)
    assert g.get_node("MatMul").op == "MatMul"
    g, _, _ = trace(tf.matmul, f32(2, 3, 4), b)
    assert g.get_node("MatMul").op == "BatchMatMulV2"


def test_eye_power_chain_from_the_guide():
    x = RNG.integers(-1, 2, (10, 10)).astype(np.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result
    out = assert_same(power, x, 5)
    np.testing.assert_array_equal(out, np.linalg.matrix_power(x.astype(np.int64), 5).astype(np.int32))


def test_where():
    c = RNG.random((3, 1)) > 0.5
    out = assert_same(lambda c, x, y: tf.where(c, x, y), c, f32(1, 4), f32(4))
    assert out.shape == (3, 4)
    assert_same(lambda x: tf.where(x > 1, x, 0.0), f32(5))
    coords = tf.where(tf.constant([[True, False], [False, True]]))
    assert coords.dtype == tf.int64 and coords.numpy().tolist() == [[0, 0], [1, 1]]
    with pytest.raises(ValueError, match="both x and y"):
        tf.where(c, 1.0)


def test_cast():
    out = assert_same(lambda x: (tf.cast(x, tf.int32), tf.cast(x, tf.bool), tf.cast(x, tf.float64)),
                      np.array([-1.7, 0.0, 2.5], np.float32))
    assert out[0].tolist() == [-1, 0, 2] and out[2].dtype == np.float64
    x = tf.constant([1, 2])
    assert tf.cast(x, tf.int32) is x
    assert tf.cast(1.7, tf.int32).numpy() == 1 and tf.cast(300, tf.uint8).numpy() == 44
    with pytest.raises(UnimplementedError, match="to_number"):  # (TensorFlow's class)
        tf.cast(tf.constant("1"), tf.float32)


def test_unary_float_op_on_int_names_the_fix():
    with pytest.raises(InvalidArgumentError, match=r"Sqrt does not support int32.*tf.cast"):
        tf.sqrt(tf.constant(4))


def test_node_names_follow_tensorflow():
    def f(x):
        return x + 1, tf.add(x, x), x > 0, tf.reduce_sum(x), tf.cast(x, tf.int32), x * x
    g, _, _ = trace(f, f32(3))
    names = {n.name: n.op for n in g.nodes}
    assert names["add"] == "AddV2" and names["add/y"] == "Const"
    # names are unique regardless of case, as in TensorFlow: tf.add after `+` is Add_1
    assert names["Add_1"] == "AddV2" and names["Greater"] == "Greater"
    assert names["Greater/y"] == "Const"
    assert names["Sum"] == "Sum" and names["Cast"] == "Cast" and names["mul"] == "Mul"


def test_math_namespace_module_is_importable():
    import runtime.math as m
    assert m.reduce_sum is tf.reduce_sum and m.log is tf.math.log and m.argmax is not None
    assert tf.math.argmax(tf.constant([1, 5, 2])).numpy() == 1
    assert tf.add_n([tf.constant(1), tf.constant(2), 3]).numpy() == 6


# -- property: any broadcastable pair of shapes, eager == staged == numpy ------------------

from hypothesis import given, settings, strategies as st  # noqa: E402
from hypothesis.extra import numpy as hnp  # noqa: E402

_OPS = {"add": (tf.add, np.add), "subtract": (tf.subtract, np.subtract),
        "multiply": (tf.multiply, np.multiply), "maximum": (tf.maximum, np.maximum),
        "greater": (tf.greater, np.greater), "equal": (tf.equal, np.equal),
        "floordiv": (tf.math.floordiv, np.floor_divide)}


@settings(max_examples=40, deadline=None)
@given(shapes=hnp.mutually_broadcastable_shapes(num_shapes=2, max_dims=3, max_side=3),
       op=st.sampled_from(sorted(_OPS)), dtype=st.sampled_from([np.int32, np.float32]),
       data=st.data())
def test_broadcasting_property(shapes, op, dtype, data):
    elements = st.integers(1, 50) if dtype == np.int32 else st.floats(0.5, 50, width=32)
    x = data.draw(hnp.arrays(dtype, shapes.input_shapes[0], elements=elements))
    y = data.draw(hnp.arrays(dtype, shapes.input_shapes[1], elements=elements))
    fn, ref = _OPS[op]
    out = assert_same(fn, x, y)
    expected = ref(x, y)
    assert np.shape(out) == shapes.result_shape and np.asarray(out).dtype == expected.dtype
    np.testing.assert_array_equal(out, expected)
