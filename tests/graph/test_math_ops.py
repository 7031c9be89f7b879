"""Graph-level tests of the math op library: inference, exact kernel dtypes, errors.

Each op is built into a one-node graph and run with both executor back ends
(the interpreter checks every value against its inferred dtype and shape);
results are compared with plain numpy.
"""
import numpy as np
import pytest

from graph import Graph, TensorShape, compile_graph, dtypes
from graph.errors import InvalidArgumentError, UnimplementedError
from graph.ops.strings import summarize_value
from graph.registry import get_op

RNG = np.random.default_rng(0)


def run_op(op, values, attrs=None, shapes=None):
    """Builds ``op`` on placeholders fed with ``values``; returns the results of both back ends."""
    g = Graph("t")
    ins = []
    for i, v in enumerate(values):
        arr = np.asarray(v)
        dtype = dtypes.string if arr.dtype.kind in "OSU" else dtypes.as_dtype(arr.dtype)
        shape = shapes[i] if shapes else TensorShape(arr.shape)
        ph = g.add_node("Placeholder", attrs={"dtype": dtype, "shape": shape}, name=f"in{i}")
        g.inputs.append(ph.output(0))
        ins.append(ph.output(0))
    node = g.add_node(op, ins, attrs or {})
    g.outputs = [node.output(i) for i in range(len(node.outputs))]
    results = []
    for backend in ("codegen", "interpret"):
        out = compile_graph(g, backend=backend)(*values)
        results.append(out)
    for a, b in zip(*results):
        assert np.asarray(a).dtype == np.asarray(b).dtype
        np.testing.assert_array_equal(a, b)
    for o, v in zip(node.outputs, results[0]):
        if not o.dtype.is_string:
            assert np.asarray(v).dtype == o.dtype.numpy_dtype, (op, np.asarray(v).dtype, o.dtype)
        assert o.shape.is_compatible_with(np.shape(v))
    return results[0][0] if len(node.outputs) == 1 else results[0]


def rand(shape, dtype):
    if np.dtype(dtype).kind == "f":
        return RNG.uniform(0.5, 3, shape).astype(dtype)
    return RNG.integers(1, 9, shape).astype(dtype)


BINARY = {
    "AddV2": np.add, "Sub": np.subtract, "Mul": np.multiply, "FloorDiv": np.floor_divide,
    "FloorMod": np.remainder, "Pow": np.power, "Maximum": np.maximum, "Minimum": np.minimum,
}


@pytest.mark.parametrize("op", sorted(BINARY))
@pytest.mark.parametrize("dtype", [np.float32, np.float64, np.int32, np.int64])
def test_binary_broadcasting_keeps_dtype(op, dtype):
    x, y = rand((3, 1, 4), dtype), rand((2, 1), dtype)
    np.testing.assert_allclose(run_op(op, [x, y]), BINARY[op](x, y), rtol=1e-6)
    xs, ys = dtype(3), dtype(2)  # numpy scalars stay scalars of the same dtype
    assert run_op(op, [xs, ys]) == BINARY[op](xs, ys)


@pytest.mark.parametrize("op,fn", [("Greater", np.greater), ("GreaterEqual", np.greater_equal),
                                   ("Less", np.less), ("LessEqual", np.less_equal),
                                   ("Equal", np.equal), ("NotEqual", np.not_equal)])
def test_comparisons_give_bool(op, fn):
    x, y = rand((4, 3), np.int32), rand((3,), np.int32)
    np.testing.assert_array_equal(run_op(op, [x, y], {"incompatible_shape_error": True}), fn(x, y))


@pytest.mark.parametrize("op,fn", [("Tanh", np.tanh), ("Exp", np.exp), ("Log", np.log),
                                   ("Sqrt", np.sqrt), ("Square", np.square), ("Neg", np.negative),
                                   ("Abs", np.abs), ("Relu", lambda x: np.maximum(x, 0)),
                                   ("Sigmoid", lambda x: 1 / (1 + np.exp(-x.astype(np.float64))))])
@pytest.mark.parametrize("dtype", [np.float16, np.float32, np.float64])
def test_unary_float(op, fn, dtype):
    x = (RNG.standard_normal((2, 5)) * 3).astype(dtype)
    if op in ("Log", "Sqrt"):
        x = np.abs(x) + dtype(0.1)
    tol = 2e-3 if dtype == np.float16 else 1e-6
    np.testing.assert_allclose(run_op(op, [x]), fn(x), rtol=tol, atol=tol)


def test_sigmoid_is_stable_for_large_inputs():
    x = np.array([-200.0, -30.0, 0.0, 30.0, 200.0], np.float32)
    with np.errstate(over="raise", invalid="raise", divide="raise"):
        out = run_op("Sigmoid", [x])
    assert out[0] == 0 and out[-1] == 1 and out[2] == 0.5 and 0 < out[1] < 1e-12


def test_integer_unary_and_abs_neg():
    x = np.array([-3, 0, 4], np.int32)
    np.testing.assert_array_equal(run_op("Abs", [x]), [3, 0, 4])
    np.testing.assert_array_equal(run_op("Relu", [x]), [0, 0, 4])
    np.testing.assert_array_equal(run_op("Square", [x]), [9, 0, 16])


def test_floats_only_ops_reject_ints_with_a_fix():
    with pytest.raises(InvalidArgumentError, match=r"Exp does not support int32.*tf.cast"):
        run_op("Exp", [np.array([1], np.int32)])
    with pytest.raises(InvalidArgumentError, match="RealDiv does not support int32.*truediv"):
        run_op("RealDiv", [np.array([1], np.int32), np.array([1], np.int32)])


def test_mixed_dtypes_are_rejected_naming_tf_cast():
    with pytest.raises(InvalidArgumentError, match="int32.*float32.*tf.cast"):
        run_op("AddV2", [np.array([1], np.int32), np.array([1.0], np.float32)])


def test_incompatible_shapes():
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \(2,\) vs. \(3,\)"):
        run_op("Mul", [np.ones(2, np.float32), np.ones(3, np.float32)])


def test_integer_division_by_zero_raises():
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        run_op("FloorDiv", [np.array([1], np.int32), np.array([0], np.int32)])
    with pytest.raises(InvalidArgumentError, match="Integer division by zero"):
        run_op("FloorMod", [np.array([1], np.int32), np.array([0], np.int32)])


def test_integer_negative_power_raises():
    with pytest.raises(InvalidArgumentError, match="negative integer powers"):
        run_op("Pow", [np.array([2], np.int32), np.array([-1], np.int32)])


def test_floor_semantics_match_python():
    x = np.array([-7, 7, -7, 7], np.int32)
    y = np.array([2, -2, -2, 2], np.int32)
    np.testing.assert_array_equal(run_op("FloorDiv", [x, y]), [a // b for a, b in zip(x.tolist(), y.tolist())])
    np.testing.assert_array_equal(run_op("FloorMod", [x, y]), [a % b for a, b in zip(x.tolist(), y.tolist())])


def test_string_add_and_equality():
    a = np.array([b"a", b"bc"], dtype=object)
    b = np.array([b"a", b"x"], dtype=object)
    out = run_op("AddV2", [a, b])
    assert out.dtype == object and out.tolist() == [b"aa", b"bcx"]
    s = np.empty((), object)
    s[()] = b"a"
    scalar = run_op("AddV2", [s, s])
    assert isinstance(scalar, np.ndarray) and scalar.dtype == object and scalar[()] == b"aa"
    np.testing.assert_array_equal(run_op("Equal", [a, b], {"incompatible_shape_error": True}),
                                  [True, False])
    with pytest.raises(InvalidArgumentError, match="Sub does not support string"):
        run_op("Sub", [a, b])


def test_equal_with_incompatible_shapes_is_false_when_asked():
    x, y = np.ones(2, np.int32), np.ones(3, np.int32)
    assert run_op("Equal", [x, y], {"incompatible_shape_error": False}) == np.False_
    assert run_op("NotEqual", [x, y], {"incompatible_shape_error": False}) == np.True_
    unknown = [TensorShape([None]), TensorShape([None])]
    assert run_op("Equal", [x, y], {"incompatible_shape_error": False}, shapes=unknown) == np.False_


def test_logical_ops():
    a = np.array([True, True, False, False])
    b = np.array([True, False, True, False])
    np.testing.assert_array_equal(run_op("LogicalAnd", [a, b]), a & b)
    np.testing.assert_array_equal(run_op("LogicalOr", [a, b]), a | b)
    np.testing.assert_array_equal(run_op("LogicalNot", [a]), ~a)
    with pytest.raises(InvalidArgumentError, match="LogicalAnd does not support int32"):
        run_op("LogicalAnd", [np.ones(2, np.int32), np.ones(2, np.int32)])


@pytest.mark.parametrize("ta", [False, True])
@pytest.mark.parametrize("tb", [False, True])
def test_matmul_transposes(ta, tb):
    a, b = rand((3, 4), np.float32), rand((4, 5), np.float32)
    a_in, b_in = (a.T.copy() if ta else a), (b.T.copy() if tb else b)
    out = run_op("MatMul", [a_in, b_in], {"transpose_a": ta, "transpose_b": tb})
    np.testing.assert_allclose(out, a @ b, rtol=1e-5)


def test_matmul_batch_and_int():
    a, b = rand((2, 1, 3, 4), np.int32), rand((5, 4, 2), np.int32)
    out = run_op("BatchMatMulV2", [a, b], {"adj_x": False, "adj_y": False})
    assert out.shape == (2, 5, 3, 2)
    np.testing.assert_array_equal(out, a @ b)


def test_matmul_errors():
    with pytest.raises(InvalidArgumentError, match=r"Matrix size-incompatible: In\[0\]: \[2, 3\]"):
        run_op("MatMul", [np.ones((2, 3), np.float32), np.ones((4, 5), np.float32)])
    with pytest.raises(InvalidArgumentError, match="rank >= 2"):
        run_op("MatMul", [np.ones(3, np.float32), np.ones((3, 3), np.float32)])


def test_select_v2_broadcasts_three_ways():
    c = RNG.random((3, 1)) > 0.5
    t, e = rand((1, 4), np.float32), rand((4,), np.float32)
    np.testing.assert_array_equal(run_op("SelectV2", [c, t, e]), np.where(c, t, e))
    with pytest.raises(InvalidArgumentError, match="condition must be a bool"):
        run_op("SelectV2", [np.ones(2, np.int32), t[0], e])


def test_where_coordinates():
    c = np.array([[True, False], [False, True]])
    out = run_op("Where", [c], shapes=[TensorShape([None, 2])])
    np.testing.assert_array_equal(out, [[0, 0], [1, 1]])
    assert out.dtype == np.int64


def test_cast():
    x = np.array([-1.7, 0.0, 2.9], np.float32)
    np.testing.assert_array_equal(run_op("Cast", [x], {"DstT": dtypes.int32}), [-1, 0, 2])
    np.testing.assert_array_equal(run_op("Cast", [x], {"DstT": dtypes.bool_}), [True, False, True])
    assert run_op("Cast", [np.int32(3)], {"DstT": dtypes.float64}).dtype == np.float64
    with pytest.raises(UnimplementedError, match="to_number"):  # (TensorFlow's class)
        run_op("Cast", [np.array([b"1"], object)], {"DstT": dtypes.float32})


# -- reductions -------------------------------------------------------------------

REDUCTIONS = {"Sum": np.sum, "Prod": np.prod, "Max": np.max, "Min": np.min}


@pytest.mark.parametrize("op", sorted(REDUCTIONS))
@pytest.mark.parametrize("axis", [None, (0,), (1,), (-1,), (0, 2), ()])
@pytest.mark.parametrize("keep", [False, True])
def test_reductions(op, axis, keep):
    for dtype in (np.int32, np.float32):
        x = rand((2, 3, 4), dtype)
        expected = REDUCTIONS[op](x, axis=axis, keepdims=keep).astype(dtype)
        out = run_op(op, [x], {"axis": axis, "keep_dims": keep})
        np.testing.assert_allclose(out, expected, rtol=1e-5)


def test_int_mean_truncates_toward_zero_and_sum_stays_int32():
    x = np.array([[1, 2], [-3, -4]], np.int32)
    np.testing.assert_array_equal(run_op("Mean", [x], {"axis": (1,), "keep_dims": False}), [1, -3])
    assert run_op("Mean", [x], {"axis": None, "keep_dims": False}) == -1
    big = np.full(3, 2**30, np.int32)
    assert run_op("Sum", [big], {"axis": None, "keep_dims": False}).dtype == np.int32


def test_any_all_and_empty_extremes():
    b = np.array([[True, False], [True, True]])
    np.testing.assert_array_equal(run_op("Any", [b], {"axis": (1,), "keep_dims": False}), [True, True])
    np.testing.assert_array_equal(run_op("All", [b], {"axis": (1,), "keep_dims": True}), [[False], [True]])
    empty = np.zeros((0,), np.float32)
    assert run_op("Max", [empty], {"axis": None, "keep_dims": False}) == -np.inf


def test_reduction_errors():
    x = np.ones((2, 3), np.float32)
    with pytest.raises(InvalidArgumentError, match=r"invalid reduction dimension 2.*\[-2, 2\)"):
        run_op("Sum", [x], {"axis": (2,), "keep_dims": False})
    with pytest.raises(InvalidArgumentError, match="listed twice"):
        run_op("Sum", [x], {"axis": (1, -1), "keep_dims": False})
    with pytest.raises(InvalidArgumentError, match="Any takes bool"):
        run_op("Any", [x], {"axis": None, "keep_dims": False})


def test_reduction_shape_inference_with_unknown_dims():
    g = Graph("t")
    ph = g.add_node("Placeholder", attrs={"dtype": dtypes.float32, "shape": TensorShape([None, 3])})
    n = g.add_node("Sum", [ph.output(0)], {"axis": (1,), "keep_dims": True})
    assert n.outputs[0].shape == TensorShape([None, 1])
    n = g.add_node("Mean", [ph.output(0)], {"axis": None, "keep_dims": False})
    assert n.outputs[0].shape == TensorShape([])


def test_argmax():
    x = rand((3, 5), np.float32)
    out = run_op("ArgMax", [x], {"axis": 1, "output_type": dtypes.int64})
    np.testing.assert_array_equal(out, np.argmax(x, axis=1))


# -- random --------------------------------------------------------------------------

def _random_graph(op, inputs, attrs):
    g = Graph("r")
    ins = [g.add_node("Const", attrs={"dtype": dtypes.as_dtype(np.asarray(v).dtype),
                                      "value": np.asarray(v)}).output(0) for v in inputs]
    node = g.add_node(op, ins, attrs)
    g.outputs = [node.output(0)]
    return g, node


def test_random_uniform_graph_continues_its_sequence_and_repeats_with_seeds():
    g, node = _random_graph("RandomUniform", [np.array([4], np.int32)],
                            {"dtype": dtypes.float32, "seed": 5, "seed2": 7})
    assert node.outputs[0].shape == TensorShape([4]) and get_op("RandomUniform").stateful
    plan = compile_graph(g)
    first, second = plan()[0], plan()[0]
    assert first.dtype == np.float32 and not np.array_equal(first, second)
    assert ((0 <= first) & (first < 1)).all()
    again = compile_graph(g, backend="interpret")
    np.testing.assert_array_equal(again()[0], first)
    np.testing.assert_array_equal(again()[0], second)


def test_random_unseeded_differs_between_compilations():
    g, _ = _random_graph("RandomStandardNormal", [np.array([6], np.int32)],
                         {"dtype": dtypes.float64, "seed": 0, "seed2": 0})
    a, b = compile_graph(g)()[0], compile_graph(g)()[0]
    assert a.dtype == np.float64 and not np.array_equal(a, b)


def test_random_uniform_int():
    g, node = _random_graph("RandomUniformInt", [np.array([200], np.int32), np.int32(-2), np.int32(3)],
                            {"seed": 1, "seed2": 2})
    out = compile_graph(g, backend="interpret")()[0]
    assert out.dtype == np.int32 and set(out.tolist()) == {-2, -1, 0, 1, 2}
    with pytest.raises(InvalidArgumentError, match="Need minval < maxval"):
        _random_graph("RandomUniformInt", [np.array([2], np.int32), np.int32(3), np.int32(3)],
                      {"seed": 1, "seed2": 2})


def test_random_rejects_int_dtype_for_float_ops():
    with pytest.raises(InvalidArgumentError, match="makes float tensors"):
        _random_graph("RandomUniform", [np.array([2], np.int32)],
                      {"dtype": dtypes.int32, "seed": 0, "seed2": 0})


# -- text form of values -----------------------------------------------------------------

@pytest.mark.parametrize("value,text", [
    (np.array([0.666458249, 0.713946581, 0.18005164, 0.405638], np.float32),
     "[0.666458249 0.713946581 0.18005164 0.405638]"),
    (np.arange(10, dtype=np.int32), "[0 1 2 ... 7 8 9]"),
    (np.array([True, False]), "[1 0]"),
    (np.float64(0.1), "0.1"),
    (np.float32(1.0), "1"),
    (np.arange(4, dtype=np.int32).reshape(2, 2), "[[0 1]\n [2 3]]"),
    (np.array([b"a", b'q"'], object), '["a" "q\\""]'),
    (np.zeros((0,), np.float32), "[]"),
    (np.float32(np.nan), "nan"), (np.float32(-np.inf), "-inf"),
])
def test_summarize_value_matches_tf_print(value, text):
    assert summarize_value(value, 3) == text


def test_summarize_elides_every_dimension():
    x = np.arange(64, dtype=np.int32).reshape(8, 8)
    expected = ("[[0 1 2 ... 5 6 7]\n [8 9 10 ... 13 14 15]\n [16 17 18 ... 21 22 23]\n ...\n"
                " [40 41 42 ... 45 46 47]\n [48 49 50 ... 53 54 55]\n [56 57 58 ... 61 62 63]]")
    assert summarize_value(x, 3) == expected
    assert summarize_value(np.arange(8, dtype=np.int32), -1) == "[0 1 2 3 4 5 6 7]"


def test_legacy_summary_for_assert():
    assert summarize_value(np.arange(5, dtype=np.int32), 3, print_v2=False) == "0 1 2..."
    assert summarize_value(np.arange(4, dtype=np.int32).reshape(2, 2), 9, print_v2=False) == "[0 1] [2 3]"


def test_string_format_and_join():
    out = run_op("StringFormat", [np.arange(3, dtype=np.int32)],
                 {"template": "x={}!", "placeholder": "{}", "summarize": 3})
    assert out[()] == b"x=[0 1 2]!"
    with pytest.raises(InvalidArgumentError, match="1 placeholders"):
        run_op("StringFormat", [], {"template": "{}", "placeholder": "{}", "summarize": 3})
    a = np.array([b"a", b"b"], object)
    s = np.empty((), object)
    s[()] = b"z"
    assert run_op("StringJoin", [a, s], {"separator": "-"}).tolist() == [b"a-z", b"b-z"]


def test_equality_shape_when_broadcasting_is_decided_at_run_time():
    g = Graph("t")

    def ph(shape):
        return g.add_node("Placeholder", attrs={"dtype": dtypes.int32,
                                                "shape": TensorShape(shape)}).output(0)
    loose = {"incompatible_shape_error": False}
    assert g.add_node("Equal", [ph([None, 3]), ph([])], loose).outputs[0].shape == TensorShape([None, 3])
    assert g.add_node("Equal", [ph([None]), ph([None])], loose).outputs[0].shape.rank is None
    assert g.add_node("Equal", [ph([2]), ph([3])], loose).outputs[0].shape == TensorShape([])
    assert g.add_node("Equal", [ph([None]), ph([None])], {}).outputs[0].shape == TensorShape([None])
