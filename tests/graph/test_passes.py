"""Each optimization pass on its own, then the driver.

Every test checks three things: the rewrite happened (or, for what must not
be rewritten, did not), values are unchanged (optimized codegen == original
interpreter), and the graph handed in was not modified.
"""
from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import runtime as rt
from graph import compile_graph
from graph.errors import InvalidArgumentError
from graph.ir import Graph, Node
from graph.passes import (PASSES, copy_graph, eliminate_common_subexpressions, fold_constants,
                          hoist_loop_invariants, optimize, prune, remove_identities, simplify)
from graph.passes.rewrite import all_graphs
from tests.graph.test_executor import steps
from tests.staging import trace


def ops(graph: Graph) -> list[str]:
    return [n.op for n in graph.nodes]


def snapshot(graph: Graph):
    """Everything a pass could change, for every graph of the family."""
    return [(g.name, [(n.name, n.op, [i.name for i in n.inputs], len(n.outputs), n.origin)
                      for n in g.nodes], [o.name for o in g.outputs], [i.name for i in g.inputs])
            for g in all_graphs(graph)]


def check(fn, *args, rewrite=optimize):
    """Traces ``fn``; returns (original, rewritten) after checking values and immutability."""
    graph, _, feeds = trace(fn, *args)
    before = snapshot(graph)
    new = rewrite(graph)
    assert snapshot(graph) == before, "the pass modified the graph it was given"
    expected = compile_graph(graph, backend="interpret")(*feeds)
    for backend in ("codegen", "interpret"):
        got = compile_graph(new, backend=backend)(*feeds)
        for a, b in zip(got, expected):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
            assert np.asarray(a).dtype == np.asarray(b).dtype
    return graph, new


def body_of(graph: Graph) -> Graph:
    loop = next(n for n in graph.nodes if n.op in ("While", "StatelessWhile"))
    return loop.attrs["body"]


# -- copy ---------------------------------------------------------------------------
def test_copy_is_deep_and_keeps_names_and_origins():
    graph, _, _ = trace(lambda x: rt.while_loop(lambda v: v < 3.0, lambda v: v + 1.0, [x])[0],
                        np.float32(0))
    copy = copy_graph(graph)
    assert snapshot(copy) == snapshot(graph)
    old_nodes = {id(n) for g in all_graphs(graph) for n in g.nodes}
    assert not any(id(n) in old_nodes for g in all_graphs(copy) for n in g.nodes)
    assert body_of(copy) is not body_of(graph)
    assert all(n.graph is g for g in all_graphs(copy) for n in g.nodes)
    assert set(copy.library) == set(graph.library)


# -- prune ----------------------------------------------------------------------------
def test_prune_drops_dead_nodes_but_keeps_stateful_ones():
    def f(x):
        rt.tanh(x) * 2.0          # dead
        rt.print("side effect")   # stateful: stays
        return x + 1.0
    graph, new = check(f, np.float32(1), rewrite=prune)
    assert "Tanh" in ops(graph) and "Tanh" not in ops(new)
    assert any("Print" in op for op in ops(new))


def test_prune_drops_dead_loops_and_their_library_functions():
    def f(x):
        rt.while_loop(lambda v: v < 3.0, lambda v: v + 1.0, [x])  # result unused
        return x * 2.0
    graph, new = check(f, np.float32(1), rewrite=prune)
    assert "StatelessWhile" in ops(graph) and "StatelessWhile" not in ops(new)
    assert graph.library and not new.library


# -- constant folding -------------------------------------------------------------------
def test_constant_folding_keeps_name_and_origin():
    def f(x):
        c = rt.constant(2.0) * 3.0
        return x + rt.tanh(c)
    graph, new = check(f, np.float32(1), rewrite=fold_constants)
    tanh = next(n for n in new.nodes if n.name == "Tanh")
    assert tanh.op == "Const" and tanh.origin == graph.get_node("Tanh").origin
    assert tanh.origin is not None and tanh.origin.file.endswith("test_passes.py")
    assert float(tanh.attrs["value"]) == pytest.approx(np.tanh(6.0))
    assert not tanh.attrs["value"].flags.writeable


def test_constant_folding_never_folds_random_ops():
    def f(x):
        return x + rt.random.uniform([2], seed=3) * 2.0
    graph, _, _ = trace(f, np.float32(1))
    new = fold_constants(graph)
    assert any("Random" in op for op in ops(new))
    assert ops(new).count("Mul") == 1


def test_constant_folding_leaves_failing_ops_to_run_time():
    def f(x):
        return x + rt.constant(7) // rt.constant(0)
    graph, _, feeds = trace(f, np.int32(1))
    new = fold_constants(graph)
    assert "FloorDiv" in ops(new)
    with pytest.raises(InvalidArgumentError, match="division by zero"):
        compile_graph(new)(*feeds)


# -- CSE ------------------------------------------------------------------------------
def test_cse_merges_identical_pure_nodes():
    graph, new = check(lambda x: rt.tanh(x) * 2.0 + rt.tanh(x) * 2.0, np.float32(0.5),
                       rewrite=eliminate_common_subexpressions)
    assert ops(graph).count("Tanh") == 2 and ops(new).count("Tanh") == 1
    assert ops(new).count("Mul") == 1


def test_cse_keeps_distinct_attrs_and_stateful_ops():
    def f(x):
        a = rt.reduce_sum(rt.reshape(x, [2, 2]), axis=0)
        b = rt.reduce_sum(rt.reshape(x, [2, 2]), axis=1)
        r = rt.random.uniform([4]) + rt.random.uniform([4])
        return a + b, r
    graph, _, _ = trace(f, np.ones(4, np.float32))
    new = eliminate_common_subexpressions(graph)
    assert ops(new).count("Sum") == 2
    assert ops(new).count("Reshape") == 1
    assert sum("Random" in op for op in ops(new)) == 2


def test_cse_merges_equal_constants_only():
    """Constants are keyed by dtype, shape and bytes: the same bytes as another dtype
    (float 1.0 and the int 0x3f800000) or another shape stay apart."""
    from graph import dtypes
    from graph.passes.cse import attr_key
    graph = Graph("g")
    bits = np.frombuffer(np.float32(1.0).tobytes(), np.int32)[0]
    values = [np.array(1.0, np.float32), np.array(1.0, np.float32), np.array(bits, np.int32),
              np.array([1.0], np.float32), np.array(2.0, np.float32)]
    for v in values:
        graph.add_node("Const", attrs={"dtype": dtypes.as_dtype(v.dtype), "value": v})
    keys = [attr_key(n.attrs) for n in graph.nodes]
    assert keys[0] == keys[1] and len(set(keys)) == 4
    graph.outputs = [n.output(0) for n in graph.nodes]
    new = eliminate_common_subexpressions(graph)
    assert len(new.nodes) == 4 and new.outputs[0] == new.outputs[1]


# -- identity and no-op removal ---------------------------------------------------------------
def test_identity_removal_rewires_readers_and_outputs():
    graph, new = check(lambda x: rt.identity(rt.identity(x) * 2.0), np.float32(3),
                       rewrite=remove_identities)
    assert "Identity" in ops(graph) and "Identity" not in ops(new)
    assert new.outputs[0].node.op == "Mul"


def test_noop_removal_keeps_control_order():
    graph = Graph("g")
    first = graph.add_node("NoOp")
    x = graph.add_node("Const", attrs={"dtype": rt.float32, "value": np.float32(1.0)})
    second = graph.add_node("NoOp", control_inputs=[first])
    kept = graph.add_node("Identity", [x.output(0)], control_inputs=[second])
    graph.outputs = [kept.output(0)]
    new = remove_identities(graph)
    assert "NoOp" not in ops(new)
    assert new.get_node(kept.name).control_inputs == []  # the NoOps ordered nothing
    assert ops(graph).count("NoOp") == 2


# -- algebraic simplification ----------------------------------------------------------------
@pytest.mark.parametrize("fn, arg, removed", [
    (lambda x: x * 1.0, np.float32(-0.0), True),
    (lambda x: 1.0 * x, np.ones(3, np.float32), True),
    (lambda x: x - 0.0, np.float32(-0.0), True),
    (lambda x: x + rt.constant(-0.0), np.float32(-0.0), True),
    (lambda x: x + 0, np.int32(4), True),
    (lambda x: rt.truediv(x, 1.0), np.float32(3), True),
    (lambda x: x + 0.0, np.float32(-0.0), False),        # -0.0 + 0.0 is +0.0
    (lambda x: x * rt.ones([3]), np.float32(2), False),   # broadcasting changes the shape
    (lambda x: x * 2.0, np.float32(2), False),
])
def test_algebraic_simplification_only_when_exact(fn, arg, removed):
    graph, new = check(fn, arg, rewrite=simplify)
    arith = {"Mul", "Sub", "AddV2", "RealDiv"}
    assert any(op in arith for op in ops(graph))
    assert (not any(op in arith for op in ops(new))) == removed
    out = compile_graph(new)(arg)[0]
    expected = np.asarray(fn(rt.constant(arg)))
    assert np.signbit(out).tolist() == np.signbit(expected).tolist()


# -- loop-invariant hoisting ------------------------------------------------------------------
def loop_with_invariant(x, y):
    def body(v, i):
        w = rt.tanh(y) * 2.0    # invariant: depends on a capture and a constant
        return v + w + rt.cast(i, rt.float32), i + 1
    return rt.while_loop(lambda v, i: i < 5, body, [x, 0])[0]


def test_hoisting_moves_invariant_body_nodes_in_front_of_the_loop():
    graph, new = check(loop_with_invariant, np.ones(3, np.float32), np.float32(0.5),
                       rewrite=lambda g: hoist_loop_invariants(remove_identities(g)))
    assert "Tanh" in ops(body_of(graph)) and "Tanh" not in ops(body_of(new))
    assert "Tanh" in ops(new) and "Mul" in ops(new)
    tanh = next(n for n in new.nodes if n.op == "Tanh")
    assert tanh.origin.file.endswith("test_passes.py")
    loop = next(n for n in new.nodes if n.op == "StatelessWhile")
    assert new.nodes.index(tanh) < new.nodes.index(loop)
    assert len(loop.inputs) == len(loop.outputs) == len(body_of(new).inputs)


def test_hoisting_is_correct_when_the_loop_runs_zero_times():
    def f(x, y, n):
        return rt.while_loop(lambda v: rt.reduce_sum(v) < n,
                             lambda v: v + rt.exp(y) * 3.0, [x])[0]
    args = (np.ones(2, np.float32), np.float32(1), np.float32(-5))
    graph, new = check(f, *args, rewrite=optimize)
    assert "Exp" not in ops(body_of(new))


def test_hoisting_never_moves_stateful_or_variant_nodes():
    v = rt.Variable(2.0)

    def f(x):
        return rt.while_loop(lambda s, i: i < 3,
                             lambda s, i: (s + v.read_value() * 2.0, i + 1), [x, 0])[0]
    graph, _, feeds = trace(f, np.float32(0))
    new = optimize(graph)
    assert "ReadVariableOp" in ops(body_of(new))
    assert float(compile_graph(new)(*feeds)[0]) == 12.0


def test_hoisting_leaves_ops_that_could_fail_in_the_loop():
    def f(x, idx):
        def body(v, i):
            return v + rt.gather(x, idx), i + 1
        return rt.while_loop(lambda v, i: i < 0, body, [rt.constant(0.0), 0])[0]
    graph, _, feeds = trace(f, np.ones(3, np.float32), np.int32(9))
    new = optimize(graph)
    assert "GatherV2" in ops(body_of(new))
    assert float(compile_graph(new)(*feeds)[0]) == 0.0  # never ran: no error


# -- the driver ----------------------------------------------------------------------------------
def test_optimize_combines_passes_and_keeps_values():
    def f(x, y):
        a = rt.tanh(x) * 1.0 + rt.tanh(x)
        c = rt.constant(3.0) * 2.0
        return rt.identity(a * c), loop_with_invariant(x, y)
    graph, new = check(f, np.ones(3, np.float32), np.float32(0.25))
    assert ops(new).count("Tanh") == 2  # one from x, one hoisted out of the loop
    assert "Identity" not in ops(new)
    assert len(new.nodes) < len(graph.nodes)


def test_errors_after_optimization_still_name_the_users_line():
    def f(x, idx):
        return rt.gather(rt.identity(x) * 1, idx) + 0
    graph, _, _ = trace(f, np.ones(3, np.int32), np.int32(0))
    new = optimize(graph)
    with pytest.raises(InvalidArgumentError) as info:
        compile_graph(new)(np.ones(3, np.int32), np.int32(5))
    assert "GatherV2" in str(info.value) and "test_passes.py" in str(info.value)


def test_optimize_accepts_a_custom_pass_list():
    graph, _, _ = trace(lambda x: rt.identity(x) * 1.0, np.float32(1))
    only_prune = optimize(graph, passes=[PASSES["prune"]])
    assert ops(only_prune) == ops(graph)
    assert ops(optimize(graph)) == ["Placeholder"]


# -- the default pipeline re-runs only where it can do more ----------------------------------
def _every_round(graph: Graph) -> Graph:
    """``optimize`` with the default passes, re-running all of them on every graph."""
    from graph.passes import DEFAULT
    return optimize(graph, passes=[lambda g, p=p: p(g) for p in DEFAULT])


def _listing(graph: Graph):
    return [(g.name, [(n.name, n.op, [i.name for i in n.inputs], [c.name for c in n.control_inputs],
                       [str(t) for t in n.outputs]) for n in g.nodes],
             [o.name for o in g.outputs], [i.name for i in g.inputs])
            for g in all_graphs(graph)]


def _folding_enables_algebra(x):
    one = rt.constant(3.0) - 2.0           # folds to 1.0 ...
    return x * one                         # ... so this becomes x, but only in round two


def _hoisting_enables_folding_and_cse(x, y):
    def body(v, i, s):
        w = rt.tanh(s) * 2.0                # invariant: hoisted, then folded in front of the loop
        return v + w * rt.tanh(y) + rt.cast(i, rt.float32), i + 1, s
    loop = rt.while_loop(lambda v, i, s: i < 4, body, [x, 0, rt.constant(0.5)])[0]
    return loop + rt.tanh(y)                # merges with the hoisted tanh(y)


def _algebra_in_a_body_enables_hoisting_by_its_holder(x):
    def body(v, i, s):
        w = rt.tanh(s) * 2.0                # hoistable once s passes through unchanged ...
        return v + w, i + 1, s * (rt.constant(3.0) - 2.0)  # ... which takes two rounds
    return rt.while_loop(lambda v, i, s: i < 4, body, [x, 0, rt.constant(0.5)])[0]


def test_default_pipeline_reaches_what_rerunning_everything_reaches():
    from tests.graph.test_executor import run_program
    from benchmarks.bench_conversion import nested
    import autograph as tf
    graph, _, _ = trace(_folding_enables_algebra, np.ones(3, np.float32))
    assert ops(optimize(graph)) == ["Placeholder"]
    graph, _, _ = trace(_hoisting_enables_folding_and_cse, np.ones(3, np.float32),
                        np.float32(0.25))
    new = optimize(graph)
    assert _listing(new) == _listing(_every_round(graph))
    assert ops(new).count("Tanh") == 1 and "Const" in ops(new) and "Mul" in ops(new)
    graph, _, _ = trace(_algebra_in_a_body_enables_hoisting_by_its_holder, np.ones(3, np.float32))
    new = optimize(graph)
    assert _listing(new) == _listing(_every_round(graph))
    assert "Tanh" not in ops(body_of(new))
    f = tf.function(nested, optimize=False,
                    experimental_autograph_options=tf.autograph.experimental.Feature.ASSERT_STATEMENTS)
    traced = f.get_concrete_function(tf.constant(3), tf.constant(12), [None]).graph
    assert _listing(optimize(traced)) == _listing(_every_round(traced))
    program = [("while", 0, 3, [("const", 2, 0, 1.0, True), ("un", 0, 1),
                                ("cond", 1, 0.5, [("bin", 0, 0, 2)], [("red", 1, 3)])]),
               ("const", 0, 1, -0.0, False), ("bin", 2, 2, 3)]
    graph, _, _ = trace(lambda a, b: run_program(program, [a, b]), np.ones(4, np.float32),
                        np.float32(1))
    assert _listing(optimize(graph)) == _listing(_every_round(graph))


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=steps(2))
def test_default_pipeline_equals_rerunning_everything_on_random_programs(program):
    from tests.graph.test_executor import run_program
    with np.errstate(all="ignore"):
        graph, _, _ = trace(lambda a, b: run_program(program, [a, b]), np.ones(4, np.float32),
                            np.float32(1))
    assert _listing(optimize(graph)) == _listing(_every_round(graph))
