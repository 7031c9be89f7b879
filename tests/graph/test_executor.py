"""The compiled executor against the reference interpreter.

Differential: every graph runs through both back ends (and through the
optimized graph) and must give identical values and dtypes. Covers the op
set through the runtime API, random DAGs of elementwise and reduction ops
with randomly nested cond/while, error mapping to the failing node's origin,
buffer reuse, and a 10^6-iteration loop.
"""
from __future__ import annotations

import sys
import tracemalloc

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import runtime as rt
from graph import Graph, compile_graph
from graph.dtypes import float32, int32
from graph.errors import InvalidArgumentError
from graph.executor import _REUSE_MIN_ELEMENTS
from graph.passes import optimize
from graph.shapes import TensorShape
from tests.staging import trace


def run_all(graph: Graph, feeds):
    """Results of codegen, interpret, and codegen of the optimized graph; all must agree."""
    fast = compile_graph(graph)(*feeds)
    ref = compile_graph(graph, backend="interpret")(*feeds)
    opt = compile_graph(optimize(graph))(*feeds)
    assert len(fast) == len(ref) == len(opt)
    for a, b, c in zip(fast, ref, opt):
        for other in (b, c):
            np.testing.assert_array_equal(np.asarray(a), np.asarray(other))
            assert np.asarray(a).dtype == np.asarray(other).dtype
            assert np.shape(a) == np.shape(other)
    return fast


def differential(fn, *args):
    graph, _, feeds = trace(fn, *args)
    return run_all(graph, feeds)


# -- the op set ---------------------------------------------------------------------
X = np.array([[0.5, -1.5, 2.0], [3.0, -0.25, 1.0]], dtype=np.float32)
Y = np.array([[1.5, 2.0, -3.0], [0.5, 4.0, -1.0]], dtype=np.float32)
I = np.array([[3, -7, 8], [5, 0, -2]], dtype=np.int32)
J = np.array([[2, 3, -3], [1, 4, 5]], dtype=np.int32)
B = np.array([[True, False, True], [False, False, True]])

OPS = {
    "add": lambda x, y, i, j, b: rt.add(x, y), "sub": lambda x, y, i, j, b: rt.subtract(i, j),
    "mul": lambda x, y, i, j, b: x * y, "div": lambda x, y, i, j, b: rt.truediv(x, y),
    "floordiv": lambda x, y, i, j, b: i // j, "mod": lambda x, y, i, j, b: i % j,
    "pow": lambda x, y, i, j, b: rt.pow(x, 2.0), "neg": lambda x, y, i, j, b: -x,
    "abs": lambda x, y, i, j, b: rt.abs(i), "matmul": lambda x, y, i, j, b: rt.matmul(x, rt.transpose(y)),
    "compare": lambda x, y, i, j, b: (x < y, x >= y, rt.equal(i, j), rt.not_equal(i, 3)),
    "logic": lambda x, y, i, j, b: (rt.logical_and(b, x > 0), rt.logical_or(b, x > 1),
                                    rt.logical_not(b)),
    "reduce": lambda x, y, i, j, b: (rt.reduce_sum(x), rt.reduce_mean(x, axis=1),
                                     rt.reduce_max(i, axis=0, keepdims=True),
                                     rt.reduce_min(x), rt.reduce_prod(i, axis=1),
                                     rt.reduce_any(b), rt.reduce_all(b, axis=1)),
    "unary": lambda x, y, i, j, b: (rt.tanh(x), rt.exp(x), rt.sqrt(rt.abs(x)), rt.square(i),
                                    rt.sigmoid(x), rt.maximum(x, y), rt.minimum(i, j)),
    "where_cast": lambda x, y, i, j, b: (rt.where(b, x, y), rt.cast(x, rt.int32),
                                         rt.cast(i, rt.float64)),
    "shape_ops": lambda x, y, i, j, b: (rt.reshape(x, [3, 2]), rt.transpose(i),
                                        rt.concat([x, y], axis=0), rt.stack([i, j]),
                                        rt.unstack(x)[1], rt.gather(x, [1, 0]),
                                        rt.shape(x), rt.size(i), rt.rank(x)),
    "slicing": lambda x, y, i, j, b: (x[1], x[:, 1:3], x[..., None], i[::-1]),
    "creation": lambda x, y, i, j, b: (rt.fill([2, 2], 3.0), rt.zeros([3]), rt.ones([2], rt.int32),
                                       rt.eye(3), rt.range(1, 10, 2), rt.zeros_like(x)),
    "strings": lambda x, y, i, j, b: (rt.constant("a") + rt.constant("a"),
                                      rt.equal(rt.constant("a"), "b")),
}


@pytest.mark.parametrize("name", sorted(OPS))
def test_op_set_codegen_equals_interpreter(name):
    differential(OPS[name], X, Y, I, J, B)


def test_stateful_ops_keep_program_order():
    v = rt.Variable(1.0)

    def f(x):
        v.assign(x)
        a = v.read_value()
        v.assign_add(2.0)
        return a, v.read_value()
    graph, _, feeds = trace(f, np.float32(5.0))
    for backend in ("codegen", "interpret"):
        v.assign(1.0)
        a, b = compile_graph(graph, backend=backend)(*feeds)
        assert (float(a), float(b)) == (5.0, 7.0)


# -- random programs ------------------------------------------------------------------
UNARY = [rt.tanh, rt.negative, rt.abs, rt.square, rt.sigmoid]
BINARY = [rt.add, rt.subtract, rt.multiply, rt.maximum, rt.minimum]
REDUCE = [rt.reduce_sum, rt.reduce_max, rt.reduce_min, rt.reduce_mean]
CONSTANTS = [0.0, -0.0, 1.0, 0.5, -2.0]


def _like(r, v):
    """``r`` brought to ``v``'s shape, so loop variables keep their shape."""
    if r.shape == v.shape and r.shape.is_fully_defined():
        return r
    return rt.reduce_sum(r) + v * 0.0


def steps(depth: int):
    leaf = st.one_of(
        st.tuples(st.just("un"), st.integers(0, len(UNARY) - 1), st.integers(0, 50)),
        st.tuples(st.just("bin"), st.integers(0, len(BINARY) - 1), st.integers(0, 50),
                  st.integers(0, 50)),
        st.tuples(st.just("const"), st.integers(0, len(BINARY) - 1), st.integers(0, 50),
                  st.sampled_from(CONSTANTS), st.booleans()),
        st.tuples(st.just("red"), st.integers(0, len(REDUCE) - 1), st.integers(0, 50)),
    )
    if depth == 0:
        return st.lists(leaf, min_size=1, max_size=5)
    inner = steps(depth - 1)
    control = st.one_of(
        st.tuples(st.just("cond"), st.integers(0, 50), st.sampled_from(CONSTANTS), inner, inner),
        st.tuples(st.just("while"), st.integers(0, 50), st.integers(0, 3), inner),
    )
    return st.lists(st.one_of(leaf, leaf, control), min_size=1, max_size=6)


def run_program(program, pool):
    pool = list(pool)
    for step in program:
        kind = step[0]
        if kind == "un":
            pool.append(UNARY[step[1]](pool[step[2] % len(pool)]))
        elif kind == "bin":
            pool.append(BINARY[step[1]](pool[step[2] % len(pool)], pool[step[3] % len(pool)]))
        elif kind == "const":
            x, c = pool[step[2] % len(pool)], step[3]
            pool.append(BINARY[step[1]](x, c) if step[4] else BINARY[step[1]](c, x))
        elif kind == "red":
            pool.append(REDUCE[step[1]](pool[step[2] % len(pool)]))
        elif kind == "cond":
            a = pool[step[1] % len(pool)]
            pool.append(rt.cond(rt.reduce_sum(a) > step[2],
                                lambda: _like(run_program(step[3], pool), a),
                                lambda: _like(run_program(step[4], pool), a)))
        elif kind == "while":
            a = pool[step[1] % len(pool)]
            body = step[3]
            pool.append(rt.while_loop(
                lambda v, i: i < step[2],
                lambda v, i: (_like(run_program(body, [v] + pool), v), i + 1),
                [a, rt.constant(0)])[0])
    return pool[-1]


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(program=steps(2), x=st.lists(st.floats(-3, 3, width=32), min_size=4, max_size=4),
       y=st.floats(-3, 3, width=32))
def test_random_programs_agree_across_backends_and_optimization(program, x, y):
    with np.errstate(all="ignore"):
        differential(lambda a, b: run_program(program, [a, b]),
                     np.array(x, dtype=np.float32), np.float32(y))


# -- errors --------------------------------------------------------------------------
def test_kernel_error_names_the_failing_node_inside_a_loop():
    def f(x, idx):
        def body(v, i):
            return v + rt.gather(x, idx), i + 1
        return rt.while_loop(lambda v, i: i < 2, body, [rt.constant(0.0), 0])[0]
    graph, _, _ = trace(f, np.ones(3, np.float32), np.int32(0))
    for backend in ("codegen", "interpret"):
        plan = compile_graph(graph, backend=backend)
        assert float(plan(np.ones(3, np.float32), np.int32(1))[0]) == 2.0
        with pytest.raises(InvalidArgumentError) as info:
            plan(np.ones(3, np.float32), np.int32(7))
        assert "GatherV2" in str(info.value)
        assert "test_executor.py" in str(info.value)  # the user's line


def test_wrong_number_of_feeds_is_rejected():
    graph, _, feeds = trace(lambda x: x * 2.0, np.float32(1))
    with pytest.raises(InvalidArgumentError, match="takes 1 inputs, got 2"):
        compile_graph(graph)(1.0, 2.0)


def test_unknown_backend_is_rejected():
    graph, _, _ = trace(lambda x: x * 2.0, np.float32(1))
    with pytest.raises(ValueError, match="Unknown executor backend 'fast'"):
        compile_graph(graph, backend="fast")


def test_unused_failing_op_never_runs():
    def f(x, idx):
        rt.gather(x, idx)  # fed out of range, but nobody needs it
        return x + 1.0
    out, = differential(f, np.ones(3, np.float32), np.int32(10))
    np.testing.assert_array_equal(out, np.full(3, 2.0, np.float32))


# -- performance properties -------------------------------------------------------------
def test_loops_and_branches_are_inlined_without_sub_plans():
    def f(x):
        return rt.while_loop(lambda v: rt.reduce_sum(v) > 1.0,
                             lambda v: rt.cond(v[0] > 0.5, lambda: rt.tanh(v), lambda: v * 0.5),
                             [x])[0]
    graph, _, feeds = trace(f, np.full(4, 2.0, np.float32))
    plan = compile_graph(graph)
    assert "while True:" in plan.source and "    if " in plan.source
    kernels = [getattr(v, "__name__", "") for v in plan.fn.__globals__.values()]
    assert "run_while" not in kernels and "run_if" not in kernels  # no sub-plan calls
    run_all(graph, feeds)


def test_large_elementwise_chain_reuses_buffers():
    n = _REUSE_MIN_ELEMENTS * 4

    def f(x):
        for _ in range(6):
            x = rt.tanh(x) * 0.5 + 0.25
        return x
    graph, _, feeds = trace(f, np.linspace(-1, 1, n, dtype=np.float32))
    source = compile_graph(graph).source
    assert source.count("out=") >= 10
    fast, = run_all(graph, feeds)
    # no buffer is reused while a caller can still see it
    x = feeds[0].copy()
    compile_graph(graph)(x)
    np.testing.assert_array_equal(x, feeds[0])


def test_matmul_never_writes_over_its_own_input():
    """numpy copies an input that overlaps matmul's out=, which made chains 5% slower."""
    n = 128  # 128 x 128 elements, above the reuse threshold
    x = np.eye(n, dtype=np.float32)
    graph, _, feeds = trace(lambda a, b: rt.matmul(rt.matmul(rt.matmul(a, b), b), b), x, x * 2)
    assert "out=" not in compile_graph(graph).source
    run_all(graph, feeds)


def test_reuse_never_overwrites_a_value_something_else_reads():
    n = _REUSE_MIN_ELEMENTS * 2

    def f(x):
        a = rt.tanh(x)
        view = rt.reshape(a, [2, -1])  # may share a's buffer
        b = rt.exp(a)                   # a's last reader is a ufunc, but the view lives on
        return b, view
    graph, _, feeds = trace(f, np.linspace(-1, 1, n, dtype=np.float32))
    b, view = compile_graph(graph)(*feeds)
    np.testing.assert_array_equal(view.reshape(-1), np.tanh(feeds[0]))
    run_all(graph, feeds)


def test_million_iteration_loop_runs_in_constant_memory():
    graph = Graph("count")
    from runtime import context
    from runtime.tensor import SymbolicTensor
    with context.building(graph):
        ph = graph.add_node("Placeholder", attrs={"dtype": int32, "shape": TensorShape([])},
                            name="n")
        graph.inputs = [ph.output(0)]
        n = SymbolicTensor(ph.output(0))
        out = rt.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + 0.5),
                            [rt.constant(0), rt.constant(0.0)])
        graph.outputs = [t._output for t in out]
    plan = compile_graph(optimize(graph))
    limit = sys.getrecursionlimit()
    tracemalloc.start()
    try:
        i, s = plan(np.int32(10_000))
        small = tracemalloc.get_traced_memory()[1]
        tracemalloc.reset_peak()
        i, s = plan(np.int32(1_000_000))
        big = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert int(i) == 1_000_000 and float(s) == 500_000.0
    assert big <= small + 4096, (small, big)
    assert sys.getrecursionlimit() == limit


def test_deeply_nested_loops_fall_back_to_sub_plans():
    def nest(depth):
        def f(v):
            if depth == 0:
                return v + 1.0
            return rt.while_loop(lambda u, i: i < 1, lambda u, i: (nest(depth - 1)(u), i + 1),
                                 [v, 0])[0]
        return f
    graph, _, feeds = trace(nest(16), np.float32(0))
    plan = compile_graph(graph)
    kernels = [getattr(v, "__name__", "") for v in plan.fn.__globals__.values()]
    assert "run_while" in kernels  # the innermost loops are sub-plans
    out, = run_all(graph, feeds)
    assert float(out) == 1.0


# -- numpy warnings -------------------------------------------------------------------
def _no_warnings(call):
    """Runs ``call`` with every warning recorded; returns its result and the warnings."""
    import warnings
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        result = call()
    return result, [w for w in caught if issubclass(w.category, RuntimeWarning)]


@pytest.mark.parametrize("backend", ["codegen", "interpret"])
def test_plans_are_silent_where_numpy_warns_and_values_match_numpy(backend):
    def f(x, y, i):
        def body(k, v):
            return k + 1, v * 100000          # int32 scalar overflow, written as `v * c`
        _, wrapped = rt.while_loop(lambda k, v: k < 3, body, [rt.constant(0), i])
        return rt.truediv(x, y), rt.math.log(y), wrapped, i + 2147483647
    feeds = (np.array([1.0, -1.0, 0.0], np.float32), np.zeros(3, np.float32), np.int32(7))
    graph, _, _ = trace(f, *feeds)
    plan = compile_graph(graph, backend=backend)
    (div, log, wrapped, added), caught = _no_warnings(lambda: plan(*feeds))
    assert caught == []
    with np.errstate(all="ignore"):     # the same numbers numpy gives, warnings aside
        np.testing.assert_array_equal(div, np.array([np.inf, -np.inf, np.nan], np.float32))
        assert int(wrapped) == int(np.int32(7) * np.int32(100000) * np.int32(100000)
                                   * np.int32(100000))
        assert int(added) == int(np.int32(7) + np.int32(2147483647))
    np.testing.assert_array_equal(log, np.full(3, -np.inf, np.float32))


def test_plans_restore_the_callers_numpy_error_state_even_when_failing():
    graph, _, _ = trace(lambda x, i: rt.gather(x / 0.0, i), np.ones(2, np.float32), np.int32(0))
    plan = compile_graph(graph)
    with np.errstate(divide="raise"):
        before = np.geterr()
        with pytest.raises(InvalidArgumentError):
            plan(np.ones(2, np.float32), np.int32(9))
        assert np.geterr() == before
        assert float(plan(np.ones(2, np.float32), np.int32(0))[0]) == np.inf
        assert np.geterr() == before
        with pytest.raises(FloatingPointError):  # the caller's own numpy code still raises
            np.float32(1.0) / np.float32(0.0)


def test_eager_ops_are_silent_where_numpy_warns_like_plans():
    (div, log), caught = _no_warnings(
        lambda: (rt.constant([1.0, 0.0]) / 0.0, rt.math.log(rt.constant(0.0))))
    assert caught == []
    assert np.isinf(div.numpy()[0]) and np.isnan(div.numpy()[1])
    assert log.numpy() == -np.inf


def test_a_plain_numpy_division_without_the_plan_still_warns():
    """Guards the test above: the silence comes from the plan, not from the test setup."""
    _, caught = _no_warnings(lambda: np.ones(2, np.float32) / np.float32(0.0))
    assert caught and "divide by zero" in str(caught[0].message)


# -- StridedSlice written as a subscript ----------------------------------------------------
def _index_item(draw, dim, pool):
    """One index item for a dimension of size ``dim``: (python repr, needs a feed value)."""
    kind = draw(st.sampled_from(["index", "index_t", "slice", "slice_t"]))
    if kind == "index":
        return draw(st.integers(-dim - 1, dim))          # may be out of range: a build error
    if kind == "index_t":
        pool.append(np.int32(draw(st.integers(-dim - 2, dim + 1))))
        return ("t", len(pool) - 1)
    bounds = [draw(st.one_of(st.none(), st.integers(-dim - 2, dim + 2))) for _ in range(2)]
    step = draw(st.sampled_from([None, 1, 2, -1, -2]))
    if kind == "slice_t":
        pool.append(np.int32(draw(st.integers(-dim - 2, dim + 2))))
        bounds[draw(st.integers(0, 1))] = ("t", len(pool) - 1)
    return slice(bounds[0], bounds[1], step)


@st.composite
def subscripts(draw):
    shape = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3))
    pool: list = []
    items = [_index_item(draw, d, pool) for d in shape[:draw(st.integers(1, len(shape)))]]
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), Ellipsis)
    if draw(st.booleans()):
        items.insert(draw(st.integers(0, len(items))), None)
    return shape, items, pool


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=subscripts())
def test_subscripts_agree_with_the_strided_slice_kernel(case):
    shape, items, pool = case
    x = np.arange(int(np.prod(shape)), dtype=np.float32).reshape(shape)

    def f(x, *bounds):
        def resolve(b):
            return bounds[b[1]] if isinstance(b, tuple) else b
        key = tuple(slice(resolve(i.start), resolve(i.stop), i.step) if isinstance(i, slice)
                    else resolve(i) for i in items)
        return x[key] * 1.0
    try:
        graph, _, feeds = trace(f, x, *pool)
    except (InvalidArgumentError, ValueError, IndexError):
        return  # a constant index out of range is reported while building
    results = []
    for backend in ("codegen", "interpret"):
        try:
            results.append(compile_graph(graph, backend=backend)(*feeds)[0])
        except InvalidArgumentError as e:
            results.append(str(e))
    fast, ref = results
    if isinstance(ref, str):
        assert fast == ref  # the same error, raised by the kernel on both paths
    else:
        np.testing.assert_array_equal(np.asarray(fast), ref)
        assert np.asarray(fast).dtype == ref.dtype and np.shape(fast) == np.shape(ref)


def test_loop_indexing_is_a_subscript_and_out_of_range_names_the_line():
    def f(x, n):
        def body(i, s):
            return i + 1, s + x[i]  # MARK-subscript
        return rt.while_loop(lambda i, s: i < n, body, [rt.constant(0), rt.zeros([4])])[1]
    x = np.arange(12, dtype=np.float32).reshape(3, 4)
    graph, _, _ = trace(f, x, np.int32(3))
    plan = compile_graph(graph)
    assert "[v" in plan.source and ".within(3)" in plan.source  # x[i], range tested once per loop
    np.testing.assert_array_equal(plan(x, np.int32(3))[0], x.sum(axis=0))
    run_all(graph, [x, np.int32(2)])
    for backend in ("codegen", "interpret"):
        with pytest.raises(InvalidArgumentError,
                           match=r"slice index 3 of dimension 0 out of bounds.*test_executor.py"):
            compile_graph(graph, backend=backend)(x, np.int32(4))
