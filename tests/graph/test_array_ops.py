"""Array, indexing and state ops at the graph level: names, inference, attrs, save/load."""
import numpy as np
import pytest

import runtime as rt
from graph import Graph, compile_graph
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.shapes import TensorShape
from tests.staging import trace

ALLOWED_ATTR_TYPES = (type(None), bool, int, float, str, bytes, rt.DType, TensorShape,
                      TensorType, np.ndarray, np.generic, Graph)


def attr_ok(value) -> bool:
    if isinstance(value, (list, tuple)):
        return all(attr_ok(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and attr_ok(v) for k, v in value.items())
    return isinstance(value, ALLOWED_ATTR_TYPES)


def listing(graph):
    return [(n.name, n.op, [i.input_name for i in n.inputs]) for n in graph.nodes]


def build(fn, *args):
    graph, result, _ = trace(fn, *args)
    return graph, result


def test_node_names_follow_tensorflow():
    x = np.zeros((2, 3), np.float32)
    graph, _ = build(lambda x: [rt.reshape(x, [3, 2]), rt.transpose(x), rt.concat([x, x], 0),
                                rt.stack([x, x]), rt.gather(x, [1]), rt.expand_dims(x, 0),
                                rt.tile(x, [1, 2]), rt.range(3), x[0], rt.squeeze(x),
                                rt.zeros_like(x)], x)
    names = listing(graph)
    assert ("Reshape/shape", "Const", []) in names
    assert ("Reshape", "Reshape", ["arg0", "Reshape/shape"]) in names
    assert ("transpose", "Transpose", ["arg0", "transpose/perm"]) in names
    assert ("concat", "ConcatV2", ["arg0", "arg0", "concat/axis"]) in names
    assert ("stack", "Pack", ["arg0", "arg0"]) in names
    assert ("GatherV2", "GatherV2", ["arg0", "GatherV2/indices", "GatherV2/axis"]) in names \
        or ("GatherV2", "GatherV2", ["arg0", "Const", "GatherV2/axis"]) in names
    assert ("ExpandDims", "ExpandDims", ["arg0", "ExpandDims/dim"]) in names
    assert ("Tile", "Tile", ["arg0", "Tile/multiples"]) in names
    assert ("range", "Range", ["range/start", "range/limit", "range/delta"]) in names
    assert ("strided_slice", "StridedSlice", ["arg0"]) in names
    assert ("Squeeze", "Squeeze", ["arg0"]) in names
    assert ("zeros_like", "ZerosLike", ["arg0"]) in names
    for node in graph.nodes:
        assert attr_ok(node.attrs), (node.name, node.attrs)


def test_static_shape_queries_fold_to_constants():
    graph, (s, n, r) = build(lambda x: (rt.shape(x), rt.size(x), rt.rank(x)),
                             np.zeros((2, 3), np.float32))
    assert [node.op for node in graph.nodes] == ["Placeholder", "Const", "Const", "Const"]
    assert [node.name for node in graph.nodes[1:]] == ["Shape", "Size", "Rank"]


def test_inference_of_static_shapes():
    def f(x, n):
        assert rt.reshape(x, [-1]).shape.as_list() == [24]
        assert rt.reshape(x, [n, -1]).shape.as_list() == [None, None]
        assert rt.reshape(x, rt.stack([n, 4])).shape.as_list() == [None, 4]
        assert rt.reshape(x, rt.shape(x)).shape.as_list() == [2, 3, 4]
        assert rt.transpose(x, [2, 0, 1]).shape.as_list() == [4, 2, 3]
        assert rt.concat([x, x], -1).shape.as_list() == [2, 3, 8]
        assert rt.concat([x, x], n).shape.as_list() == [None, None, None]
        assert rt.stack([x, x], axis=3).shape.as_list() == [2, 3, 4, 2]
        assert rt.gather(x, [[0, 1]], axis=1).shape.as_list() == [2, 1, 2, 4]
        assert rt.gather(x, n, axis=2).shape.as_list() == [2, 3]
        assert rt.fill([n, 2], 1.0).shape.as_list() == [None, 2]
        assert rt.range(n).shape.as_list() == [None]
        assert rt.range(1, 10, 4).shape.as_list() == [3]
        assert rt.range(0.0, 1.0, 0.3).shape.as_list() == [4]
        assert rt.expand_dims(x, -1).shape.as_list() == [2, 3, 4, 1]
        assert rt.tile(x, [n, 1, 2]).shape.as_list() == [None, None, None]
        assert rt.tile(x, [2, 1, 2]).shape.as_list() == [4, 3, 8]
        assert rt.eye(3, 5).shape.as_list() == [3, 5]
        assert rt.unstack(x, axis=1)[0].shape.as_list() == [2, 4]
        return x
    build(f, np.zeros((2, 3, 4), np.float32), np.int32(2))


def test_unknown_rank_inputs_give_unknown_shapes():
    g = Graph("g")
    x = g.add_node("Placeholder", attrs={"dtype": rt.float32, "shape": TensorShape(None)})
    c = g.add_node("Const", attrs={"dtype": rt.int32, "value": np.array([1, 0], np.int32)})
    t = g.add_node("Transpose", [x.output(0), c.output(0)])
    assert t.outputs[0].shape.rank == 2
    s = g.add_node("Shape", [x.output(0)], attrs={"out_type": rt.int32})
    assert s.outputs[0].shape.as_list() == [None]
    sq = g.add_node("Squeeze", [x.output(0)], attrs={"squeeze_dims": []})
    assert sq.outputs[0].shape.rank is None
    sl = g.add_node("StridedSlice", [x.output(0)], attrs={"spec": (("index", 0),)})
    assert sl.outputs[0].shape.rank is None
    g.inputs = [x.output(0)]
    g.outputs = [sl.output(0)]
    for backend in ("codegen", "interpret"):
        (out,) = compile_graph(g, backend=backend)(np.ones((2, 3), np.float32))
        assert out.shape == (3,)


@pytest.mark.parametrize("fn, message", [
    (lambda x: rt.reshape(x, [5]), "Input to reshape is a tensor with 6 values, but the "
                                   "requested shape has 5"),
    (lambda x: rt.reshape(x, [-1, -2]), "Size 1 must be non-negative, not -2"),
    (lambda x: rt.transpose(x, [1, 1]), r"0 is missing from \{1,1\}"),
    (lambda x: x[2], "slice index 2 of dimension 0 out of bounds"),
    (lambda x: x[:, -4], "slice index -4 of dimension 1 out of bounds"),
    (lambda x: rt.expand_dims(x, 3), r"Expected axis in the range \[-3, 3\), but got 3"),
    (lambda x: rt.tile(x, [1]), "Expected multiples argument to be a vector of length 2"),
    (lambda x: rt.stack([x, x], axis=4), r"Expected axis in the range \[-3, 3\)"),
    (lambda x: rt.reshape(x, rt.constant([2.0, 3.0])), "shape must be an int32 or int64 tensor"),
    (lambda x: rt.fill([2], x), "Fill: value must be a scalar"),
])
def test_inference_errors_name_the_problem_and_the_user_line(fn, message):
    with pytest.raises(InvalidArgumentError, match=message) as info:
        build(fn, np.zeros((2, 3), np.float32))
    assert "test_array_ops.py" in str(info.value)  # the user's line, from the node origin


def test_out_of_range_gather_fails_when_it_runs_not_when_it_is_built():
    """Non-strict execution: TensorFlow checks gather indices only when the op runs."""
    g, _ = build(lambda x: rt.gather(x, [[0], [2]]), np.zeros((2, 3), np.float32))
    for backend in ("codegen", "interpret"):
        with pytest.raises(InvalidArgumentError, match=r"indices\[1,0\] = 2 is not in \[0, 2\)"):
            compile_graph(g, backend=backend)(np.zeros((2, 3), np.float32))


def test_kernels_return_exact_dtypes_on_the_interpreter():
    """The interpret back end checks every kernel result against inference."""
    cases = {
        np.int64: np.arange(6, dtype=np.int64).reshape(2, 3),
        np.float64: np.linspace(0, 1, 6).reshape(2, 3),
        np.bool_: np.array([[True, False, True], [False, False, True]]),
        np.uint8: np.arange(6, dtype=np.uint8).reshape(2, 3),
    }
    for dtype, x in cases.items():
        def f(x, i):
            return [x[1], x[i, ::-1], rt.gather(x, i, axis=1), rt.reshape(x, [-1]),
                    rt.transpose(x), rt.unstack(x)[1], rt.concat([x, x], 1),
                    rt.stack([x, x]), rt.zeros_like(x), rt.tile(x, [1, 2]),
                    rt.squeeze(rt.expand_dims(x, 0)), rt.fill([2], x[0, 0])]
        graph, _, feeds = trace(f, x, np.int32(1))
        out = compile_graph(graph, backend="interpret")(*feeds)
        for o in out:
            assert np.asarray(o).dtype == dtype


def test_range_kernel_dtype_for_every_numeric_dtype():
    for dtype in (rt.int32, rt.int64, rt.float32, rt.float64):
        graph, _, feeds = trace(lambda n: rt.range(n), np.array(5, dtype.numpy_dtype))
        (out,) = compile_graph(graph, backend="interpret")(*feeds)
        assert out.dtype == dtype.numpy_dtype and out.tolist() == [0, 1, 2, 3, 4]


def test_slicing_and_state_graph_saves_loads_and_runs(tmp_path):
    from graph.serialize import load, save
    v = rt.Variable([1.0, 2.0, 3.0])

    def f(x, i):
        v.assign_add(x[i:i + 3])
        return v.read_value()[::-1], rt.gather(x, rt.range(i, 4))
    graph, _, feeds = trace(f, np.arange(5, dtype=np.float32), np.int32(1))
    save(graph, tmp_path / "g")
    loaded = load(tmp_path / "g")
    spec = [n for n in loaded.nodes if n.op == "StridedSlice"][0].attrs["spec"]
    assert spec[0][0] == "slice" and tuple(spec[0][1]) == ("input", 1)
    before = v.numpy().copy()
    rev, gathered = compile_graph(loaded)(*feeds)
    np.testing.assert_array_equal(rev, (before + [1, 2, 3])[::-1])
    np.testing.assert_array_equal(gathered, [1, 2, 3])
