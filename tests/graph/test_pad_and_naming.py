"""Graph level: Pad/PadV2/MirrorPad(Grad) inference and kernels; unique names and name scopes."""
import tempfile

import numpy as np
import pytest

from graph import Graph, TensorShape, compile_graph
from graph.dtypes import float32, int32, int64
from graph.errors import InvalidArgumentError
from graph.serialize import load, save


def placeholder(g, dtype, shape, name="x"):
    return g.add_node("Placeholder", attrs={"dtype": dtype, "shape": TensorShape(shape)},
                      name=name).output(0)


def const(g, value, dtype=int32, name="Const"):
    return g.add_node("Const", attrs={"dtype": dtype, "value": np.asarray(value,
                                                                          dtype.numpy_dtype)},
                      name=name).output(0)


# -- inference ------------------------------------------------------------------------------

@pytest.mark.parametrize("shape, paddings, expected", [
    ([2, 3], [[1, 1], [0, 2]], [4, 5]),
    ([None, 3], [[1, 1], [0, 2]], [None, 5]),
    (None, [[1, 1], [0, 2]], [None, None]),
    ([], np.zeros((0, 2), np.int32), []),
])
def test_pad_shape_inference(shape, paddings, expected):
    g = Graph("g")
    x = placeholder(g, float32, shape)
    for op, extra in (("Pad", []), ("PadV2", [const(g, 0.0, float32)])):
        node = g.add_node(op, [x, const(g, paddings)] + extra)
        assert node.outputs[0].shape == TensorShape(expected)
        assert node.outputs[0].dtype == float32


def test_pad_with_unknown_paddings_keeps_the_rank():
    g = Graph("g")
    x = placeholder(g, float32, [2, 3])
    p = placeholder(g, int64, [2, 2], name="p")
    assert g.add_node("Pad", [x, p]).outputs[0].shape == TensorShape([None, None])
    y = placeholder(g, float32, None, name="y")
    q = placeholder(g, int32, [3, 2], name="q")
    assert g.add_node("MirrorPad", [y, q], {"mode": "SYMMETRIC"}).outputs[0].shape == \
        TensorShape([None, None, None])


@pytest.mark.parametrize("build, message", [
    (lambda g, x: g.add_node("Pad", [x, const(g, [[1, 1]])]), "first dimension of paddings"),
    (lambda g, x: g.add_node("Pad", [x, const(g, [[1, -1], [0, 0]])]), "non-negative"),
    (lambda g, x: g.add_node("Pad", [x, const(g, [[1.0, 1.0], [0, 0]], float32)]),
     "int32 or int64"),
    (lambda g, x: g.add_node("PadV2", [x, const(g, [[1, 1], [0, 0]]), const(g, 1)]),
     "expected to be a float32"),
    (lambda g, x: g.add_node("PadV2", [x, const(g, [[1, 1], [0, 0]]), const(g, [1.0], float32)]),
     "constant_values must be a scalar"),
    (lambda g, x: g.add_node("MirrorPad", [x, const(g, [[2, 0], [0, 0]])], {"mode": "REFLECT"}),
     "less than the dimension size"),
    (lambda g, x: g.add_node("MirrorPad", [x, const(g, [[1, 0], [0, 0]])], {"mode": "WRAP"}),
     "REFLECT or SYMMETRIC"),
])
def test_pad_inference_errors(build, message):
    g = Graph("g")
    x = placeholder(g, float32, [2, 3])
    with pytest.raises(InvalidArgumentError, match=message):
        build(g, x)


# -- kernels through both back ends and a save/load round trip ---------------------------------

def test_pad_ops_run_in_both_backends_and_after_save_and_load():
    g = Graph("g")
    x = placeholder(g, int32, [None, 3])
    p = const(g, [[1, 0], [2, 1]])
    outs = [g.add_node("Pad", [x, p]).output(0),
            g.add_node("PadV2", [x, p, const(g, 9)]).output(0),
            g.add_node("MirrorPad", [x, p], {"mode": "REFLECT"}).output(0),
            g.add_node("MirrorPad", [x, p], {"mode": "SYMMETRIC"}).output(0)]
    g.inputs, g.outputs = [x], outs
    value = np.arange(6, dtype=np.int32).reshape(2, 3)
    expected = [np.pad(value, [[1, 0], [2, 1]]),
                np.pad(value, [[1, 0], [2, 1]], constant_values=9),
                np.pad(value, [[1, 0], [2, 1]], mode="reflect"),
                np.pad(value, [[1, 0], [2, 1]], mode="symmetric")]
    with tempfile.TemporaryDirectory() as d:
        save(g, d)
        loaded = load(d)
    for graph in (g, loaded):
        for backend in ("codegen", "interpret"):
            got = compile_graph(graph, backend=backend)(value)
            for a, b in zip(got, expected):
                np.testing.assert_array_equal(a, b)
                assert a.dtype == np.int32


@pytest.mark.parametrize("mode", ["REFLECT", "SYMMETRIC"])
@pytest.mark.parametrize("paddings", [[[2, 1], [0, 2]], [[0, 0], [1, 1]], [[1, 2], [2, 0]]])
def test_mirror_pad_grad_is_the_adjoint_of_mirror_pad(mode, paddings):
    """<MirrorPad(x), g> == <x, MirrorPadGrad(g)> for every x and g."""
    rng = np.random.default_rng(1)
    g = Graph("g")
    x = placeholder(g, float32, [3, 4])
    gy = placeholder(g, float32, None, name="gy")
    p = const(g, paddings)
    g.inputs = [x, gy]
    g.outputs = [g.add_node("MirrorPad", [x, p], {"mode": mode}).output(0),
                 g.add_node("MirrorPadGrad", [gy, p], {"mode": mode}).output(0)]
    xv = rng.standard_normal((3, 4)).astype(np.float32)
    out_shape = [3 + sum(paddings[0]), 4 + sum(paddings[1])]
    gv = rng.standard_normal(out_shape).astype(np.float32)
    y, gx = compile_graph(g)(xv, gv)
    assert gx.shape == (3, 4)
    np.testing.assert_allclose(np.sum(y * gv), np.sum(xv * gx), rtol=1e-5)


def test_mirror_pad_grad_shape_inference():
    g = Graph("g")
    gy = placeholder(g, float32, [6, None])
    node = g.add_node("MirrorPadGrad", [gy, const(g, [[2, 1], [1, 1]])], {"mode": "REFLECT"})
    assert node.outputs[0].shape == TensorShape([3, None])


# -- names --------------------------------------------------------------------------------------

def test_unique_names_ignore_case_and_keep_the_given_spelling():
    g = Graph("g")
    assert [g.unique_name(n) for n in ["add", "Add", "ADD", "add_1", "Add_1"]] == \
        ["add", "Add_1", "ADD_2", "add_1_1", "Add_1_2"]


def test_unique_name_without_marking_does_not_reserve():
    g = Graph("g")
    assert g.unique_name("a", mark_used=False) == "a"
    assert g.unique_name("a") == "a"
    assert g.unique_name("a", mark_used=False) == "a_1"
    assert g.unique_name("a") == "a_1"


def test_enter_name_scope_follows_tensorflow():
    g = Graph("g")
    scope, restore = g.enter_name_scope("a")
    assert scope == "a/" and g.name_stack == "a" and g.unique_name("x") == "a/x"
    inner, restore_inner = g.enter_name_scope("b/c")
    assert inner == "a/b/c/" and g.unique_name("x") == "a/b/c/x"
    g.exit_name_scope(restore_inner)
    top, restore_top = g.enter_name_scope("")
    assert top == "" and g.unique_name("x") == "x"
    g.exit_name_scope(restore_top)
    absolute, restore_abs = g.enter_name_scope("z/y/")
    assert absolute == "z/y/" and g.unique_name("x") == "z/y/x"
    assert g.push_scope("cond") == "z/y/cond" and g.unique_name("x") == "z/y/cond/x"
    g.pop_scope()
    g.exit_name_scope(restore_abs)
    g.exit_name_scope(restore)
    assert g.name_stack == "" and g.enter_name_scope("a")[0] == "a_1/"


def test_sub_graphs_start_in_their_parents_scope_with_names_of_their_own():
    g = Graph("g")
    _, restore = g.enter_name_scope("s")
    sub = Graph("sub", outer=g)
    other = Graph("other", outer=g)
    assert sub.unique_name("x") == "s/x"
    assert g.unique_name("x") == "s/x"  # (TensorFlow's FuncGraphs name their ops alone)
    assert other.unique_name("x") == "s/x" and sub.unique_name("x") == "s/x_1"
    g.exit_name_scope(restore)
    assert sub.name_stack == "s"
