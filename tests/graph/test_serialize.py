"""Save → load → run: the portable graph format, its round trips and its errors."""
import json
import math
import os
import subprocess
import sys
import tempfile

import numpy as np
import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp

import runtime as rt
from graph import Graph, TensorShape, TensorType, compile_graph, resources
from graph.dtypes import ALL as ALL_DTYPES
from graph.errors import FailedPreconditionError, GraphFormatError, NotFoundError
from graph.ir import Origin
from graph.printing import format_graph
from graph.registry import _REGISTRY, register_op
from graph.serialize import FORMAT_VERSION, load, save
from tests.graph.load_and_run import _plain
from tests.graph.test_printing import build, nested_loops, simple_relu

BACKENDS = ("codegen", "interpret")
HERE = os.path.dirname(os.path.abspath(__file__))


# -- test-only ops: a node that holds any attrs, and a variable pair --------------------

def _read_var(resource):
    return np.array(resources.read(resource), copy=True)


def _add_to_var(value, resource):
    resources.write(resource, resources.read(resource) + value)
    return ()


_TEST_OPS = {
    "TestOnlyAnyAttrs": dict(infer=lambda inputs, attrs: []),
    "TestOnlyReadVar": dict(infer=lambda inputs, attrs: [TensorType(attrs["dtype"],
                                                                    attrs["shape"])],
                            kernel=_read_var, kernel_attrs=("resource",), stateful=True),
    "TestOnlyAddToVar": dict(infer=lambda inputs, attrs: [], kernel=_add_to_var,
                             kernel_attrs=("resource",), stateful=True),
}


@pytest.fixture(scope="module", autouse=True)
def test_ops():
    for name, spec in _TEST_OPS.items():
        register_op(name, **spec)
    yield
    for name in _TEST_OPS:
        _REGISTRY.pop(name, None)


def roundtrip(graph, directory):
    save(graph, directory)
    return load(directory)


def run_both(graph, *feeds):
    return {b: compile_graph(graph, backend=b)(*feeds) for b in BACKENDS}


def assert_same_results(a, b):
    assert len(a) == len(b)
    for x, y in zip(a, b):
        x, y = np.asarray(x), np.asarray(y)
        assert x.dtype == y.dtype and x.shape == y.shape
        np.testing.assert_array_equal(x, y)


# -- round trips that run ----------------------------------------------------------------

def test_simple_relu_roundtrip_runs_the_same(tmp_path):
    g = simple_relu()
    loaded = roundtrip(g, tmp_path)
    assert [n.name for n in loaded.nodes] == [n.name for n in g.nodes]
    assert format_graph(loaded) == format_graph(g)  # names, ops, types, origins, captures
    for x in (np.int32(5), np.int32(-5)):
        for b in BACKENDS:
            assert_same_results(compile_graph(loaded, backend=b)(x), compile_graph(g)(x))


def test_nested_while_cond_while_roundtrip(tmp_path):
    g = nested_loops()
    loaded = roundtrip(g, tmp_path)
    assert format_graph(loaded) == format_graph(g)
    assert sorted(loaded.library) == sorted(f.name for f in _functions(g))
    for x in (np.float32(3.0), np.float32(0.2), np.float32(-1.5)):
        want = compile_graph(g)(x)
        for b in BACKENDS:
            assert_same_results(compile_graph(loaded, backend=b)(x), want)


def _functions(g):
    from graph.printing import reachable_functions
    return reachable_functions(g)


def test_loaded_sub_graphs_keep_their_nesting_and_captures(tmp_path):
    g = nested_loops()
    loaded = roundtrip(g, tmp_path)
    original = {f.name: f for f in _functions(g)}
    for name, f in loaded.library.items():
        o = original[name]
        assert (f.outer.name if f.outer is not loaded else None) == \
            (o.outer.name if o.outer is not g else None)
        assert [(a.name, b.name) for a, b in f.captures.items()] == \
            [(a.name, b.name) for a, b in o.captures.items()]
        assert [i.name for i in f.inputs] == [i.name for i in o.inputs]
        assert [i.name for i in f.outputs] == [i.name for i in o.outputs]


def strings_graph():
    return build(lambda x: rt.cond(
        x > 1.0,
        lambda: rt.add(rt.constant([[b"a\x00", b"\xff\xfe"], [b"", b"\x00"]]), rt.constant(b"!")),
        lambda: rt.constant([[b"", b"q"], [b"\xc3\xa9", b"end\x00\x00"]])), ("x", rt.float32, []))


def test_strings_roundtrip_exactly_including_nul_bytes(tmp_path):
    g = strings_graph()
    loaded = roundtrip(g, tmp_path)
    for x in (np.float32(2), np.float32(0)):
        want = compile_graph(g)(x)[0]
        for b in BACKENDS:
            got = compile_graph(loaded, backend=b)(x)[0]
            assert got.dtype == object and got.tolist() == want.tolist()
            assert all(type(v) is bytes for v in got.ravel())


def test_string_placeholders_run_after_load(tmp_path):
    g = build(lambda s: rt.add(s, rt.constant(b"-x")), ("s", rt.string, [None]))
    loaded = roundtrip(g, tmp_path)
    feed = np.array([b"a", b""], dtype=object)
    for b in BACKENDS:
        assert compile_graph(loaded, backend=b)(feed)[0].tolist() == [b"a-x", b"-x"]


@pytest.mark.parametrize("read_op, add_op", [("TestOnlyReadVar", "TestOnlyAddToVar"),
                                             ("ReadVariableOp", "AssignAddVariableOp")])
def test_variables_are_saved_by_value_and_get_fresh_resources(tmp_path, read_op, add_op):
    if read_op not in _REGISTRY:
        pytest.skip(f"{read_op} is not registered in this version")
    rid = resources.new_resource(np.array([1.0, 2.0], np.float32))
    attrs = {"resource": rid, "dtype": rt.float32, "shape": TensorShape([2])}
    g = Graph("with_state")
    x = g.add_node("Placeholder", attrs={"dtype": rt.float32, "shape": TensorShape([2])},
                   name="x").output(0)
    g.inputs = [x]
    g.add_node(add_op, [x], dict(attrs) if add_op != "TestOnlyAddToVar" else {"resource": rid},
               name="add")
    read = g.add_node(read_op, [], dict(attrs) if read_op != "TestOnlyReadVar" else attrs,
                      name="read")
    g.outputs = [read.output(0)]
    save(g, tmp_path)
    resources.write(rid, np.array([100.0, 100.0], np.float32))  # after saving: not in the file
    loaded = load(tmp_path)
    new_rid = loaded.get_node("read").attrs["resource"]
    assert new_rid != rid and loaded.get_node("add").attrs["resource"] == new_rid
    one = np.ones(2, np.float32)
    for step, b in enumerate(BACKENDS, start=1):
        got = compile_graph(loaded, backend=b)(one)[0]
        np.testing.assert_array_equal(got, np.array([1.0, 2.0], np.float32) + step)
    np.testing.assert_array_equal(resources.read(rid), [100.0, 100.0])  # original untouched
    second = load(tmp_path)  # each load gets its own copy of the state
    assert second.get_node("read").attrs["resource"] not in (rid, new_rid)
    np.testing.assert_array_equal(compile_graph(second)(one)[0], [2.0, 3.0])


def test_saving_a_graph_whose_variable_was_deleted_fails(tmp_path):
    rid = resources.new_resource(np.float32(1))
    resources.delete(rid)
    g = Graph("dead")
    g.add_node("TestOnlyReadVar", [], {"resource": rid, "dtype": rt.float32,
                                       "shape": TensorShape([])})
    with pytest.raises(FailedPreconditionError, match=f"Resource {rid} does not exist"):
        save(g, tmp_path)


# -- every attr kind round-trips exactly ------------------------------------------------------

def same(a, b) -> bool:
    """Equality that also checks types (tuple vs list, numpy scalar types, -0.0, nan)."""
    if type(a) is not type(b):
        return False
    if isinstance(a, np.ndarray):
        if a.dtype != b.dtype or a.shape != b.shape:
            return False
        if a.dtype == object:
            return all(type(x) is type(y) and x == y for x, y in zip(a.ravel(), b.ravel()))
        return np.array_equal(a, b, equal_nan=a.dtype.kind == "f")
    if isinstance(a, np.generic):
        return same(np.asarray(a), np.asarray(b))
    if isinstance(a, float):
        return (math.isnan(a) and math.isnan(b)) or (a == b and math.copysign(1, a) ==
                                                     math.copysign(1, b))
    if isinstance(a, (list, tuple)):
        return len(a) == len(b) and all(same(x, y) for x, y in zip(a, b))
    if isinstance(a, dict):
        return len(a) == len(b) and all(same(k1, k2) and same(v1, v2) for (k1, v1), (k2, v2)
                                        in zip(a.items(), b.items()))
    if isinstance(a, Graph):
        return a.name == b.name
    return a == b


_NUMERIC = [np.float16, np.float32, np.float64, np.int8, np.int16, np.int32, np.int64,
            np.uint8, np.bool_]
_arrays = st.sampled_from(_NUMERIC).flatmap(
    lambda dt: hnp.arrays(dt, hnp.array_shapes(min_dims=0, max_dims=3, max_side=3)))
_string_arrays = st.lists(st.binary(max_size=5), max_size=6).map(
    lambda xs: np.array(xs, dtype=object).reshape(-1))
_scalars = st.sampled_from(_NUMERIC).flatmap(
    lambda dt: hnp.from_dtype(np.dtype(dt)).map(dt))
_shapes = st.one_of(st.none(), st.lists(st.one_of(st.none(), st.integers(0, 9)), max_size=3)
                    ).map(TensorShape)
_leaves = st.one_of(
    st.none(), st.booleans(), st.integers(-2**70, 2**70), st.floats(), st.text(max_size=5),
    st.binary(max_size=5), st.sampled_from(ALL_DTYPES), _shapes,
    st.builds(TensorType, st.sampled_from(ALL_DTYPES), _shapes), _arrays, _string_arrays,
    _scalars)
_keys = st.one_of(st.integers(-5, 5), st.text(max_size=3),
                  st.tuples(st.integers(0, 3), st.text(max_size=2)))
_values = st.recursive(_leaves, lambda inner: st.one_of(
    st.lists(inner, max_size=3), st.lists(inner, max_size=3).map(tuple),
    st.dictionaries(_keys, inner, max_size=3)), max_leaves=8)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=_values)
@example(value=[math.inf, -math.inf, math.nan, -0.0, 2**70, -2**70, np.float32("nan"),
                np.array([], dtype=object), np.array([[b"\0"]], dtype=object), (), (1,),
                {(1, "a"): {"k": ()}}, TensorShape(None), TensorShape([None, 3]),
                np.bool_(True), b"", ""])
def test_any_attr_value_roundtrips_exactly(value):
    g = Graph("attrs")
    g.add_node("TestOnlyAnyAttrs", attrs={"v": value}, name="holder")
    with tempfile.TemporaryDirectory() as d:
        loaded = roundtrip(g, d)
    got = loaded.get_node("holder").attrs["v"]
    assert same(got, value), (got, value)


def test_graph_attrs_nested_in_containers_and_origins_roundtrip(tmp_path):
    g = Graph("outer")
    sub = Graph("fn_sub", outer=g)
    sub.outputs = []
    g.add_function(sub)
    origin = Origin("/src/user.py", 12, "f", "y = f(x)")
    g.add_node("TestOnlyAnyAttrs", attrs={"v": [{"k": (sub, 1)}], "t": (), "one": (1,)},
               name="holder", origin=origin)
    loaded = roundtrip(g, tmp_path)
    node = loaded.get_node("holder")
    assert node.attrs["v"][0]["k"][0] is loaded.library["fn_sub"]
    assert node.attrs["t"] == () and node.attrs["one"] == (1,)
    assert node.origin == origin


def test_unsavable_attr_values_are_refused_with_their_location(tmp_path):
    g = Graph("bad")
    g.add_node("TestOnlyAnyAttrs", attrs={"fn": print}, name="holder")
    with pytest.raises(TypeError, match="attr 'fn' of node 'holder' in graph 'bad'.*"
                                        "builtin_function_or_method"):
        save(g, tmp_path)
    g2 = Graph("bad2")
    g2.add_node("TestOnlyAnyAttrs", attrs={"s": np.array(["text"], dtype=object)}, name="h")
    with pytest.raises(TypeError, match="string array holds a str"):
        save(g2, tmp_path)


# -- a fresh process with nothing but `graph` ------------------------------------------------

def test_fresh_process_loads_and_runs_without_user_code(tmp_path):
    def f(x, n):
        loop = nested_loops_fn(x)
        words = rt.cond(x > 1.0, lambda: rt.add(rt.constant([b"big\x00", b"\xff"]),
                                                rt.constant(b"!")),
                        lambda: rt.constant([b"small", b""]))
        return loop, words, rt.add(n, 1)
    g = build(f, ("x", rt.float32, []), ("n", rt.int32, [None]))
    save(g, tmp_path / "saved")
    feeds = [np.float32(3.0), np.array([1, 2, 3], np.int32)]
    paths = []
    for i, feed in enumerate(feeds):
        paths.append(str(tmp_path / f"feed{i}.npy"))
        np.save(paths[-1], feed, allow_pickle=False)
    proc = subprocess.run([sys.executable, "-I", os.path.join(HERE, "load_and_run.py"),
                           str(tmp_path / "saved"), *paths],
                          capture_output=True, text=True, cwd=tmp_path, timeout=60)
    assert proc.returncode == 0, proc.stderr
    report = json.loads(proc.stdout)
    assert report["foreign_modules"] == []
    want = [_plain(v) for v in compile_graph(g)(*feeds)]
    assert report["results"] == {"codegen": want, "interpret": want}
    assert want[1]["value"] == [b"big\x00!".hex(), b"\xff!".hex()]


def nested_loops_fn(x):
    def body(v, i):
        inner = rt.cond(i > 1, lambda: rt.while_loop(lambda u: u > 0.5, rt.tanh, [v])[0],
                        lambda: v * 2.0)
        return inner, i + 1
    return rt.while_loop(lambda v, i: i < 4, body, [x, 0])[0]


# -- malformed files: each error names the file, the place and what is wrong ---------------------

@pytest.fixture
def saved(tmp_path):
    directory = tmp_path / "relu"
    save(simple_relu(), directory)
    return directory


def edit(directory, change):
    path = directory / "graph.json"
    doc = json.loads(path.read_text())
    change(doc)
    path.write_text(json.dumps(doc))


def node_doc(doc, name):
    return next(n for n in doc["graph"]["nodes"] if n["name"] == name)


def const_array_file(directory):
    doc = json.loads((directory / "graph.json").read_text())
    return directory / node_doc(doc, "Greater/y")["attrs"]["value"]["array"]


def load_error(directory, exc=GraphFormatError):
    with pytest.raises(exc) as info:
        load(directory)
    message = str(info.value)
    assert str(directory / "graph.json") in message, message
    return message


def test_missing_directory(tmp_path):
    assert "no such file" in load_error(tmp_path / "nothing")


def test_load_accepts_the_json_path_too(saved):
    assert [n.name for n in load(saved / "graph.json").nodes][:2] == ["x", "Greater/y"]


def test_truncated_json(saved):
    text = (saved / "graph.json").read_text()
    (saved / "graph.json").write_text(text[:len(text) // 2])
    assert "invalid JSON (truncated or corrupt file?)" in load_error(saved)


def test_json_that_is_not_an_object(saved):
    (saved / "graph.json").write_text("[1, 2]")
    assert "expected a JSON object at the top level, got an array" in load_error(saved)


@pytest.mark.parametrize("cut", [10, 129])
def test_truncated_npy(saved, cut):
    path = const_array_file(saved)
    path.write_bytes(path.read_bytes()[:cut])
    message = load_error(saved)
    assert f"array file {path} is truncated or corrupt" in message
    assert "'Greater/y'" in message and "attr 'value'" in message


def test_garbage_npy(saved):
    const_array_file(saved).write_bytes(b"this is not numpy at all" * 10)
    assert "is truncated or corrupt" in load_error(saved)


def test_missing_npy(saved):
    path = const_array_file(saved)
    path.unlink()
    assert f"array file {path} is missing" in load_error(saved)


def test_replaced_npy(saved):
    np.save(const_array_file(saved), np.zeros(3), allow_pickle=False)
    message = load_error(saved)
    assert "holds <f8[3], but graph.json says <i4[]" in message
    assert "corrupt or was replaced" in message


class _Boom:
    """Unpickling this would create a file: loading must never do that."""

    marker = ""

    def __reduce__(self):
        return (open, (self.marker, "w"))


def test_pickled_npy_is_refused_and_never_executed(saved, tmp_path):
    marker = tmp_path / "pwned"
    _Boom.marker = str(marker)
    payload = np.empty((), dtype=object)
    payload[()] = _Boom()
    np.save(const_array_file(saved), payload, allow_pickle=True)
    assert "is truncated or corrupt" in load_error(saved)
    assert not marker.exists()


def test_array_file_outside_the_directory(saved):
    edit(saved, lambda d: node_doc(d, "Greater/y")["attrs"]["value"].update(array="../a0.npy"))
    assert "'../a0.npy' is not a plain file name in the directory" in load_error(saved)


@pytest.mark.parametrize("change, expected", [
    (lambda d: d.update(format="something-else"),
     "not a saved graph: format is 'something-else', expected 'autograph-graph'"),
    (lambda d: d.update(version=FORMAT_VERSION + 1),
     f"unsupported format version {FORMAT_VERSION + 1}: this version reads version "
     f"{FORMAT_VERSION} only"),
    (lambda d: d.pop("version"), "unsupported format version None"),
    (lambda d: d["graph"].pop("nodes"), "graph 'simple_relu': missing field 'nodes'"),
    (lambda d: d.update(library="nope"), "field 'library' should be a JSON array, got a string"),
])
def test_bad_header_or_structure(saved, change, expected):
    edit(saved, change)
    assert expected in load_error(saved)


def test_unknown_op_type(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(op="FancyOp"))
    message = load_error(saved, NotFoundError)
    assert "node 'Greater' in graph 'simple_relu': op type 'FancyOp' is not registered" in message


def test_input_naming_a_missing_node(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(inputs=[["x", 0], ["nope", 0]]))
    message = load_error(saved)
    assert "node 'Greater' in graph 'simple_relu': input nope:0 names a node that does not " \
           "exist in graph 'simple_relu'" in message


def test_input_naming_a_later_node(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(inputs=[["x", 0], ["Identity", 0]]))
    assert "input Identity:0 names a node that does not exist" in load_error(saved)


def test_input_with_a_bad_output_index(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(inputs=[["x", 0], ["Greater/y", 3]]))
    assert "input Greater/y:3: node 'Greater/y' has only 1 outputs" in load_error(saved)


def test_control_input_naming_a_missing_node(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(control_inputs=["ghost"]))
    assert "control input 'ghost' names no earlier node" in load_error(saved)


def test_attr_of_unknown_kind(saved):
    edit(saved, lambda d: node_doc(d, "Greater/y")["attrs"].update(value={"weird": 1}))
    message = load_error(saved)
    assert "node 'Greater/y' in graph 'simple_relu', attr 'value': a value of unknown kind " \
           "['weird']" in message


def test_attr_with_a_bad_dtype_name(saved):
    edit(saved, lambda d: node_doc(d, "Greater/y")["attrs"].update(dtype={"dtype": "int33"}))
    assert "attr 'dtype': bad 'dtype' value 'int33': Unknown dtype name" in load_error(saved)


def test_node_that_fails_inference(saved):
    edit(saved, lambda d: node_doc(d, "Greater").update(inputs=[["x", 0]]))
    message = load_error(saved)
    assert "node 'Greater' in graph 'simple_relu': the node does not check:" in message


def test_outputs_that_disagree_with_inference(saved):
    edit(saved, lambda d: node_doc(d, "Greater/y")["attrs"].update(dtype={"dtype": "float32"}))
    message = load_error(saved)
    assert "node 'Greater/y'" in message
    assert "the file says the node outputs [int32[]], but its inputs and attrs give " \
           "[float32[]]" in message


def test_duplicate_node_names(saved):
    def dup(d):
        d["graph"]["nodes"].insert(1, dict(node_doc(d, "x")))
    edit(saved, dup)
    assert "node 'x' in graph 'simple_relu': a node of this name already exists" in \
        load_error(saved)


def test_missing_function(saved):
    edit(saved, lambda d: node_doc(d, "cond")["attrs"].update(else_branch={"function": "nope"}))
    assert "graph 'simple_relu': a node uses function 'nope', which is not in the file" in \
        load_error(saved)


def test_function_nested_in_an_unknown_graph(saved):
    edit(saved, lambda d: d["library"][0].update(outer="elsewhere"))
    assert "is nested in graph 'elsewhere', which is not in the file" in load_error(saved)


def test_recursive_function(saved):
    def recurse(d):
        fn = d["library"][0]
        fn["nodes"].append({"name": "again", "op": "TestOnlyAnyAttrs", "inputs": [],
                            "control_inputs": [], "attrs": {"f": {"function": fn["name"]}},
                            "outputs": [], "origin": None})
    edit(saved, recurse)
    assert "uses itself (recursion)" in load_error(saved)


def test_bad_capture(saved):
    edit(saved, lambda d: d["library"][0].update(captures=[[["ghost", 0], ["cond/x", 0]]]))
    assert "captured value ghost:0 names a node that does not exist in graph 'simple_relu'" in \
        load_error(saved)


def test_resource_missing_from_the_file(tmp_path):
    rid = resources.new_resource(np.float32(1))
    g = Graph("state")
    g.add_node("TestOnlyReadVar", [], {"resource": rid, "dtype": rt.float32,
                                       "shape": TensorShape([])}, name="read")
    save(g, tmp_path)
    edit(tmp_path, lambda d: d.update(resources=[]))
    assert f"refers to variable resource {rid}, whose value is not in the file" in \
        load_error(tmp_path)
