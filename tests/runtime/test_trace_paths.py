"""The fast paths of tracing, optimizing and compiling (issue 17): each one still does
exactly what the plain version it replaced did."""
from __future__ import annotations

import dataclasses
import threading
import time

import numpy as np
import pytest

import autograph as tf
import runtime as rt
from graph.dtypes import float32, int32
from graph.ir import Graph, Origin, Output, TensorType
from graph.passes import algebraic, constant_folding, cse, identity, optimize, rounds
from graph.passes.prune import prune_in_place
from graph.passes.rewrite import all_graphs, copy_graph
from graph.shapes import TensorShape
from runtime import context, origin
from runtime.function import TraceRecord, _Landing
from tests.staging import trace


def _listing(graph: Graph):
    return [(g.name, [(n.name, n.op, [i.name for i in n.inputs], [c.name for c in n.control_inputs],
                       [str(t) for t in n.outputs]) for n in g.nodes],
             [o.name for o in g.outputs]) for g in all_graphs(graph)]


def _pass_by_pass(graph: Graph) -> Graph:
    """The four local passes one after the other, repeated until nothing changes."""
    graph = copy_graph(graph)
    for _ in range(6):
        changed = identity.remove_identities_in_place(graph)
        changed |= algebraic.simplify_in_place(graph)
        changed |= constant_folding.fold_in_place(graph)
        changed |= cse.cse_in_place(graph)
        changed |= prune_in_place(graph)
        if not changed:
            break
    return graph


def _const(g: Graph, value, name="c"):
    return g.add_node("Const", attrs={"dtype": float32, "value": np.array(value, np.float32)},
                      name=name).output(0)


def _control_graph() -> Graph:
    """Identity, x * 1 and duplicate nodes that other nodes wait on (control inputs)."""
    g = Graph("g")
    x = g.add_node("Placeholder", attrs={"dtype": float32, "shape": TensorShape([3])},
                   name="x").output(0)
    g.inputs = [x]
    one = _const(g, 1.0, "one")
    kept_id = g.add_node("Identity", [x], name="kept_id")
    gone_id = g.add_node("Identity", [x], name="gone_id").output(0)
    kept_mul = g.add_node("Mul", [gone_id, one], name="kept_mul")
    gone_mul = g.add_node("Mul", [x, one], name="gone_mul").output(0)
    t1 = g.add_node("Tanh", [gone_mul], name="t1").output(0)
    t2 = g.add_node("Tanh", [x], name="t2")  # the same as t1 once gone_mul is x: waited on
    folded = g.add_node("Sub", [_const(g, 3.0, "three"), _const(g, 2.0, "two")], name="sub")
    scaled = g.add_node("Mul", [t1, folded.output(0)], name="scaled").output(0)  # x * 1 once folded
    waits = g.add_node("Neg", [scaled], name="waits",
                       control_inputs=[kept_id, kept_mul, t2])
    g.outputs = [waits.output(0), t2.output(0)]
    return g


def test_one_walk_reaches_what_the_passes_reach_one_by_one():
    g = _control_graph()
    fused = optimize(g)
    assert _listing(fused) == _listing(_pass_by_pass(g))
    names = [n.name for n in fused.nodes]
    assert "kept_id" in names and "kept_mul" in names and "t2" in names  # (waited on)
    assert "gone_id" not in names and "gone_mul" not in names and "sub" not in names
    waits = next(n for n in fused.nodes if n.name == "waits")
    assert waits.inputs[0].node.name == "t1"  # scaled = t1 * (3 - 2) became t1


def test_folding_enables_simplification_in_the_same_round(monkeypatch):
    rounds_run = []
    real = rounds._round
    monkeypatch.setattr(rounds, "_round", lambda *a: rounds_run.append(1) or real(*a))
    graph, _, _ = trace(lambda x: x * (rt.constant(3.0) - 2.0) - (rt.constant(1.0) - 1.0),
                        np.ones(3, np.float32))
    assert [n.op for n in optimize(graph).nodes] == ["Placeholder"]
    assert len(rounds_run) == 1


def test_optimized_function_runs_as_traced():
    @tf.function
    def f(x, n):
        y = x * (tf.constant(2.0) - 1.0)
        for i in tf.range(n):
            y = tf.identity(y) + tf.cast(i, tf.float32) * 1.0
        return y, tf.identity(y)

    x = tf.constant([1.0, 2.0])
    a, b = f(x, tf.constant(3))
    np.testing.assert_array_equal(a.numpy(), [4.0, 5.0])
    np.testing.assert_array_equal(b.numpy(), [4.0, 5.0])
    a, _ = f(tf.constant([1.0, 2.0, 3.0]), tf.constant(1))
    np.testing.assert_array_equal(a.numpy(), [1.0, 2.0, 3.0])


def test_copy_shares_no_structure_and_maps_control_inputs_and_captures():
    g = _control_graph()
    copy = copy_graph(g)
    assert _listing(copy) == _listing(g)
    old = {n.name: n for n in g.nodes}
    for n in copy.nodes:
        assert n is not old[n.name] and n.graph is copy and n.origin is old[n.name].origin
        assert n.inputs is not old[n.name].inputs and n.attrs is not old[n.name].attrs
        assert all(i.node.graph is copy for i in n.inputs)
        assert all(c.graph is copy for c in n.control_inputs)
    graph, _, _ = trace(lambda x, y: rt.cond(x[0] > 0.0, lambda: x * y, lambda: x - y),
                        np.ones(2, np.float32), np.float32(2))
    copy = copy_graph(graph)
    for sub in all_graphs(copy)[:-1]:
        assert sub.captures and all(k.node.graph is copy and v.node.graph is sub
                                    for k, v in sub.captures.items())


def test_output_and_tensor_type_stay_frozen_values():
    t = TensorType(float32, [2, None])
    assert t == TensorType(dtype=float32, shape=TensorShape([2, None]))
    assert hash(t) == hash(TensorType(float32, (2, None))) and t != TensorType(int32, [2, None])
    assert isinstance(t.shape, TensorShape) and TensorType(float32, None).shape.rank is None
    with pytest.raises(dataclasses.FrozenInstanceError):
        t.shape = TensorShape([1])
    g = Graph("g")
    node = g.add_node("Placeholder", attrs={"dtype": float32, "shape": TensorShape([])}, name="p")
    o = node.output(0)
    assert o == Output(node, 0) and hash(o) == hash(node.output(0)) and o != Output(node, 1)
    assert repr(o) == "<Output p:0 float32[]>"
    with pytest.raises(dataclasses.FrozenInstanceError):
        o.index = 1


def test_add_node_checks_inputs_and_copies_what_it_keeps():
    g, other = Graph("g"), Graph("other")
    x = g.add_node("Placeholder", attrs={"dtype": float32, "shape": TensorShape([2])}, name="x")
    y = other.add_node("Placeholder", attrs={"dtype": float32, "shape": TensorShape([2])}, name="y")
    with pytest.raises(TypeError, match="must be an Output"):
        g.add_node("Neg", [x])
    with pytest.raises(rt.errors.InvalidArgumentError, match="capture it into this graph first"):
        g.add_node("Neg", [y.output(0)])
    inputs, controls, attrs = [x.output(0)], [x], {}
    neg = g.add_node("Neg", inputs, attrs, control_inputs=controls)
    inputs.append(x.output(0)), controls.clear(), attrs.update(a=1)
    assert len(neg.inputs) == 1 and neg.control_inputs == [x] and neg.attrs == {}
    assert neg.outputs == [TensorType(float32, [2])]


def _fake_user_code(filename: str):
    """A function whose frames come from ``filename`` (a user file, as far as origins go)."""
    namespace: dict = {}
    exec(compile("def where():\n    return current_origin()\n", filename, "exec"),
         {"current_origin": origin.current_origin}, namespace)
    return namespace["where"]


def test_origins_are_the_user_frame_and_follow_later_source_maps():
    where = _fake_user_code("/tmp/user_code_for_origins.py")
    assert where() == Origin("/tmp/user_code_for_origins.py", 2, "where")
    assert where() is where()  # (one Origin per line)
    origin.register_source_map("/tmp/user_code_for_origins.py",
                               {2: Origin("user.py", 7, "f", "y = x + 1")})
    try:
        assert where() == Origin("user.py", 7, "f", "y = x + 1")
    finally:
        origin.register_source_map("/tmp/user_code_for_origins.py", {})
    assert where() == Origin("/tmp/user_code_for_origins.py", 2, "where")


def test_origin_skips_internal_frames():
    graph, _, _ = trace(lambda x: rt.tanh(x * 2.0), np.ones(2, np.float32))
    for node in graph.nodes:
        if node.op in ("Mul", "Tanh"):
            assert node.origin.file == __file__, node.origin


def test_retrace_reasons_are_worded_when_read():
    f = tf.function(lambda x, n: x + n)
    for args in [(tf.constant([1.0]), 1), (tf.constant([1.0, 2.0]), 1), (tf.constant([1.0]), 2)]:
        f(*args)
    log = f.trace_log
    assert log[0].reason == "it was the first call"
    assert log[1].reason.startswith("x: shape (1,) → (2,)")
    assert log[2].reason.startswith("x: shape (2,) → (1,)") and "n: Python int 1 → 2" in \
        log[2].reason
    assert str(log[1]) == f"call 2: traced {log[1].signature} because {log[1].reason}"
    assert log[1] == TraceRecord(2, log[1].signature, log[1].reason) and log[1] != log[2]
    assert "reason='x: shape" in repr(log[1])


def test_frequent_retracing_warning_names_the_change(caplog):
    import logging
    f = tf.function(lambda x: x * 2.0)
    with caplog.at_level(logging.WARNING, logger="tensorflow"):
        for n in range(1, 7):
            f(tf.constant(np.ones(n, np.float32)))
    warned = [r.getMessage() for r in caplog.records if "retracing" in r.getMessage()]
    assert warned and "(The latest retrace happened because x: shape (5,) → (6,)" in warned[-1]


def test_landing_wakes_every_waiter_once_set():
    landing, woke = _Landing(), []
    waiters = [threading.Thread(target=lambda: (landing.wait(), woke.append(1)))
               for _ in range(3)]
    for t in waiters:
        t.start()
    time.sleep(0.02)
    assert not landing.is_set() and not woke
    landing.set()
    for t in waiters:
        t.join(5)
    assert landing.is_set() and len(woke) == 3
    landing.wait()  # (returns at once once set)


def test_building_and_init_scope_restore_the_stack():
    g = Graph("g")
    with context.building(g) as built:
        assert built is g and context.current_graph() is g
        with context.init_scope() as inner:
            assert inner is None and context.executing_eagerly()
        assert context.current_graph() is g
        with pytest.raises(KeyError):
            with context.building(Graph("h")):
                raise KeyError("boom")
        assert context.current_graph() is g
    assert context.current_graph() is None


def test_functions_of_one_python_function_share_its_spec_until_it_changes():
    def f(x, n=1):
        return x * n

    first, second = tf.function(f), tf.function(f)
    assert first(tf.constant(2.0)).numpy() == 2.0 and second(tf.constant(2.0)).numpy() == 2.0
    assert first.function_spec is second.function_spec
    f.__defaults__ = (3,)
    third = tf.function(f)
    assert third.function_spec is not first.function_spec
    assert third(tf.constant(2.0)).numpy() == 6.0
    sig = tf.function(f, input_signature=[tf.TensorSpec([], tf.float32)])
    assert sig.function_spec is not third.function_spec and sig(tf.constant(1.0)).numpy() == 3.0


def _general_broadcast(a, b):
    """Numpy's rule written out dimension by dimension: what the fast paths must equal."""
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    n = max(a.rank, b.rank)
    x = [1] * (n - a.rank) + list(a.as_tuple())
    y = [1] * (n - b.rank) + list(b.as_tuple())
    out = []
    for p, q in zip(x, y):
        out.append(q if p == 1 else p if q == 1 else (p if q is None else q)
                   if p is None or q is None else p)
    return TensorShape(out)


@pytest.mark.parametrize("a, b", [
    ([3, 4], [3, 4]), ([None, 4], [None, 4]), ([], []), ([3, 4], []), ([], [None]),
    (None, [3]), ([3], None), ([1, 4], [3, 1]), ([None], [1]), ([1], [None]), ([None], [5]),
    ([2, 1, 3], [4, 3]), ([1], [1]),
])
def test_broadcast_shapes_fast_paths_follow_the_general_rule(a, b):
    from graph.shapes import broadcast_shapes
    sa, sb = TensorShape(a), TensorShape(b)
    got = broadcast_shapes(sa, sb)
    assert got == _general_broadcast(sa, sb)
    assert got.rank is None or all(d is None or type(d) is int for d in got.as_tuple())
    with pytest.raises(ValueError, match="Incompatible shapes"):
        broadcast_shapes(TensorShape([3]), TensorShape([4]))


def test_silenced_keeps_what_wraps_kept():
    from graph.registry import silenced

    def kernel(x):
        """Doubles."""
        return np.float32(x) / np.float32(0.0)
    quiet = silenced(kernel)
    assert (quiet.__name__, quiet.__qualname__, quiet.__doc__, quiet.__wrapped__) == \
        (kernel.__name__, kernel.__qualname__, kernel.__doc__, kernel)
    with np.errstate(all="raise"):
        assert quiet(1.0) == np.inf


@pytest.mark.parametrize("op, const_first, value, dtype, kept", [
    ("Mul", False, 1.0, float32, "x"), ("Mul", True, 1.0, float32, "x"),
    ("RealDiv", False, 1.0, float32, "x"), ("RealDiv", True, 1.0, float32, None),
    ("Sub", False, 0.0, float32, "x"), ("Sub", True, 0.0, float32, None),
    ("Sub", False, -0.0, float32, None),
    ("AddV2", False, -0.0, float32, "x"), ("AddV2", True, -0.0, float32, "x"),
    ("AddV2", False, 0.0, float32, None), ("AddV2", False, 0, int32, "x"),
    ("AddV2", True, 0, int32, "x"), ("Mul", False, 2.0, float32, None),
    ("Maximum", False, 0.0, float32, None),
])
def test_algebraic_neutral_operands(op, const_first, value, dtype, kept):
    """x*1, 1*x, x/1, x-0 (+0.0 only), x+(-0.0) (floats) and x+0 (integers) become x."""
    g = Graph("g")
    x = g.add_node("Placeholder", attrs={"dtype": dtype, "shape": TensorShape([3])},
                   name="x").output(0)
    c = g.add_node("Const", attrs={"dtype": dtype, "value": np.array(value, dtype.numpy_dtype)},
                   name="c").output(0)
    node = g.add_node(op, [c, x] if const_first else [x, c])
    assert algebraic.simplified(node) == (x if kept else None)


def test_equal_code_from_two_files_has_two_origins():
    """Code objects compare equal without their file name: the origin cache must not."""
    first = _fake_user_code("/tmp/user_code_a.py")
    second = _fake_user_code("/tmp/user_code_b.py")
    assert first.__code__ == second.__code__
    assert first().file == "/tmp/user_code_a.py"
    assert second().file == "/tmp/user_code_b.py"
