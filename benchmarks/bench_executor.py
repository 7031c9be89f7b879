"""Executor workloads: compiled graphs against the same numpy calls written by hand.

The graphs are built directly with runtime ops inside ``context.building``
(no tracing cache involved), so these rows measure the executor alone: plan
call overhead, per-op dispatch, loop and branch overhead, big kernels.
"""
from __future__ import annotations

import numpy as np

import runtime as rt
from benchmarks.harness import compare
from graph import Graph, compile_graph
from graph.dtypes import as_dtype
from graph.shapes import TensorShape
from runtime import context
from runtime.tensor import SymbolicTensor


def build(fn, *specs, name="bench"):
    """A graph of ``fn`` applied to placeholders of ``specs`` ((dtype, shape) pairs)."""
    graph = Graph(name)
    with context.building(graph):
        args = []
        for i, (dtype, shape) in enumerate(specs):
            node = graph.add_node("Placeholder", attrs={"dtype": as_dtype(dtype),
                                                        "shape": TensorShape(shape)},
                                  name=f"x{i}")
            graph.inputs.append(node.output(0))
            args.append(SymbolicTensor(node.output(0)))
        out = fn(*args)
        outs = out if isinstance(out, (list, tuple)) else [out]
        graph.outputs = [rt.convert_to_tensor(o)._output for o in outs]
    return graph


def _optimized(graph):
    try:
        from graph.passes import optimize
    except ImportError:
        return graph
    return optimize(graph)


# -- 200 small elementwise ops ---------------------------------------------------
# (runtime op, numpy function, constant or None); cycling keeps values bounded.
_CHAIN = [
    ("tanh", np.tanh, None), ("add", np.add, 0.25), ("multiply", np.multiply, 0.5),
    ("maximum", np.maximum, -0.75), ("subtract", np.subtract, 0.125),
    ("minimum", np.minimum, 2.0), ("negative", np.negative, None),
]


def bench_chain(n_ops: int = 200, size: int = 16) -> None:
    steps = [_CHAIN[i % len(_CHAIN)] for i in range(n_ops)]

    def fn(x):
        for op, _, c in steps:
            x = getattr(rt, op)(x) if c is None else getattr(rt, op)(x, c)
        return x
    graph = build(fn, ("float32", [size]), name="chain")
    plan = compile_graph(graph)
    # the same numpy calls by hand, with the very constant values the graph holds
    lines, env = ["def hand(x):"], {"np": np}
    for i, (_, f, c) in enumerate(steps):
        if c is None:
            lines.append(f"    x = np.{f.__name__}(x)")
        else:
            env[f"c{i}"] = np.asarray(c, dtype=np.float32)  # the graph's Const: a 0-d array
            lines.append(f"    x = np.{f.__name__}(x, c{i})")
    lines.append("    return x")
    exec("\n".join(lines), env)
    hand = env["hand"]
    x = np.linspace(-1, 1, size, dtype=np.float32)
    np.testing.assert_allclose(plan(x)[0], hand(x), rtol=1e-6)
    compare(f"{n_ops} elementwise ops, float32[{size}]", lambda: plan(x), lambda: hand(x),
            units=n_ops, unit="op", target=1.1)


# -- four chained 512x512 matmuls --------------------------------------------------
def bench_matmul_chain(n: int = 512) -> None:
    graph = build(lambda a, b, c, d, e: rt.matmul(rt.matmul(rt.matmul(rt.matmul(a, b), c), d), e),
                  *[("float32", [n, n])] * 5, name="matmul_chain")
    plan = compile_graph(graph)
    rng = np.random.default_rng(0)
    xs = [rng.standard_normal((n, n), dtype=np.float32) / np.sqrt(n) for _ in range(5)]
    hand = lambda a, b, c, d, e: np.matmul(np.matmul(np.matmul(np.matmul(a, b), c), d), e)
    np.testing.assert_allclose(plan(*xs)[0], hand(*xs), rtol=1e-4, atol=1e-5)
    compare(f"4 chained matmuls float32[{n},{n}]", lambda: plan(*xs), lambda: hand(*xs),
            target=1.05, repeats=11)


# -- matmul power: 100 matmuls unrolled at trace time -------------------------------
def bench_matmul_power(k: int = 100) -> None:
    def fn(x):
        result = rt.eye(10, dtype=rt.int32)
        for _ in range(k):
            result = rt.matmul(x, result)
        return result
    graph = _optimized(build(fn, ("int32", [10, 10]), name="matmul_power"))
    plan = compile_graph(graph)
    eye = np.eye(10, dtype=np.int32)

    def hand(x):
        result = eye
        for _ in range(k):
            result = np.matmul(x, result)
        return result
    x = (np.arange(100, dtype=np.int32).reshape(10, 10) % 3 - 1).astype(np.int32)
    np.testing.assert_array_equal(plan(x)[0], hand(x))
    compare(f"matmul power int32[10,10] x{k} (unrolled)", lambda: plan(x), lambda: hand(x),
            target=1.1)


# -- staged loops ---------------------------------------------------------------------
def bench_tanh_while() -> None:
    graph = _optimized(build(lambda x: rt.while_loop(lambda x: rt.reduce_sum(x) > 1.0,
                                                     lambda x: rt.tanh(x), [x])[0],
                             ("float32", [5]), name="tanh_while"))
    plan = compile_graph(graph)
    one = np.float32(1.0)

    def hand(x):
        while np.sum(x) > one:
            x = np.tanh(x)
        return x
    x = np.full(5, 2.0, dtype=np.float32)
    iters = 0
    y = x
    while np.sum(y) > one:
        y, iters = np.tanh(y), iters + 1
    np.testing.assert_array_equal(plan(x)[0], hand(x))
    compare(f"tanh while on float32[5] ({iters} iterations)", lambda: plan(x), lambda: hand(x),
            units=iters, unit="iter", target=2.0)


def bench_counter_while(n: int = 10000) -> None:
    graph = _optimized(build(lambda i: rt.while_loop(lambda i: i < n, lambda i: i + 1, [i])[0],
                             ("int32", []), name="counter"))
    plan = compile_graph(graph)
    limit, one = np.int32(n), np.int32(1)

    def hand(i):
        while i < limit:
            i = i + one
        return i
    i0 = np.int32(0)
    assert int(plan(i0)[0]) == int(hand(i0)) == n
    compare(f"counter while, {n} iterations", lambda: plan(i0), lambda: hand(i0),
            units=n, unit="iter", target=2.0, repeats=11)


def bench_fizzbuzz(n: int = 1000) -> None:
    def fn(n_t):
        def body(i, fizz, buzz, fizzbuzz):
            fizz, buzz, fizzbuzz = rt.cond(
                rt.equal(i % 15, 0), lambda: (fizz, buzz, fizzbuzz + 1),
                lambda: rt.cond(rt.equal(i % 3, 0), lambda: (fizz + 1, buzz, fizzbuzz),
                                lambda: rt.cond(rt.equal(i % 5, 0),
                                                lambda: (fizz, buzz + 1, fizzbuzz),
                                                lambda: (fizz, buzz, fizzbuzz))))
            return i + 1, fizz, buzz, fizzbuzz
        zero = rt.constant(0)
        return rt.while_loop(lambda i, *_: i <= n_t, body, [rt.constant(1), zero, zero, zero])[1:]
    graph = _optimized(build(fn, ("int32", []), name="fizzbuzz"))
    plan = compile_graph(graph)

    def hand(n):  # as a person writes it: numpy int32 scalars and operators
        fizz = buzz = fizzbuzz = np.int32(0)
        one = np.int32(1)
        for i in np.arange(1, n + 1, dtype=np.int32):
            if i % 15 == 0:
                fizzbuzz = fizzbuzz + one
            elif i % 3 == 0:
                fizz = fizz + one
            elif i % 5 == 0:
                buzz = buzz + one
        return fizz, buzz, fizzbuzz
    nn = np.int32(n)
    assert [int(v) for v in plan(nn)] == [int(v) for v in hand(n)]
    compare(f"fizzbuzz count, n={n}", lambda: plan(nn), lambda: hand(n), units=n, unit="iter",
            target=2.0, repeats=11)


def main() -> None:
    for bench in (bench_chain, bench_matmul_chain, bench_matmul_power, bench_tanh_while,
                  bench_counter_while, bench_fizzbuzz):
        try:
            bench()
        except (AttributeError, ImportError, NotImplementedError) as e:
            print(f"skipped {bench.__name__}: {type(e).__name__}: {e}")
