"""tf.function costs: first call, retrace, and what a cache-hit call adds above its plan.

The cache-hit path is key computation (dtype+shape per tensor argument), one
dict lookup, the plan call and wrapping results as EagerTensors. Target: it
adds under 1 µs to the plan itself for two tensor arguments (issue 17), under
20 µs for the other call shapes. The "first call" row is what a user
waits for the first time a converted function runs: autograph conversion
(conversion caches cleared before each sample), tracing, optimization,
compilation and the run, for the 40-line nested function of
``bench_conversion`` (target 6 ms). "retrace" is one new trace of a small
function that has traced before (a new input shape; target 150 µs).
``main()`` prints the figures and adds them to the shared table of
``python -m benchmarks``.
"""
from __future__ import annotations

import numpy as np

import runtime as rt
from benchmarks import harness
from runtime.function import Function

OVERHEAD_BUDGET = 20e-6   # seconds a cache hit may add above the plan
TWO_TENSORS_BUDGET = 1e-6  # ... for the common call: two tensor arguments
TRACE_BUDGET = 5e-3       # seconds for tracing + compiling a small function
FIRST_CALL_BUDGET = 6e-3  # conversion + trace + first run of the 40-line nested function
RETRACE_BUDGET = 150e-6   # one new trace of a small function


def _small(x, y):
    return rt.tanh(x * y + 1.0)


def _nested(xs, scale, flag=True):
    return {"sum": xs[0] + xs[1] * scale, "prod": xs[0] * xs[1]}


def _overhead(name: str, fn: Function, args: tuple, kwargs: dict | None = None,
              budget: float = OVERHEAD_BUDGET):
    kwargs = kwargs or {}
    fn(*args, **kwargs)
    concrete = fn.get_concrete_function(*args, **kwargs)
    feeds: list = []
    from runtime import trace_type as tt
    for a in args:
        tt.make_key(a, feeds)
    if kwargs:
        tt.make_key(kwargs, feeds)
    plan = concrete._plan
    result = harness.compare(f"{name}: call vs plan", lambda: fn(*args, **kwargs),
                             lambda: plan(*feeds), target=100.0)
    overhead = max(result.ours - result.floor, 0.0)
    row = harness.Result(result.group, f"{name}: cache-hit overhead", overhead, None, "call",
                         budget)
    harness.RESULTS.append(row)
    return result, overhead


def _trace_cost():
    x = rt.constant(np.ones(4, np.float32))

    def trace_once():
        Function(_small)(x, x)
    return harness.absolute("trace + compile + first call (tanh(x*y+1))", trace_once,
                            TRACE_BUDGET, repeats=7)


def _first_call():
    """Conversion + trace + optimize + compile + run of ``bench_conversion.nested``, cold."""
    import autograph as tf
    from autograph.impl import api
    from benchmarks.bench_conversion import nested
    x, n = tf.constant(3), tf.constant(12)
    expected = nested(3, 12, [None])

    def cold():  # forget the converted code, so the call converts again
        for key in [k for k in api._code_cache if k[0] is nested.__code__]:
            del api._code_cache[key]
        api._fn_cache.pop(nested, None)
        return tf.function(nested, experimental_autograph_options=(
            tf.autograph.experimental.Feature.ASSERT_STATEMENTS))

    def call(f):
        return f(x, n, [None])
    assert int(call(cold())) == expected
    return harness.once("first call: convert + trace + run, 40-line nested function", call,
                        FIRST_CALL_BUDGET, setup=cold)


def _retrace():
    """One new trace (new input shape) of a small converted function that traced before."""
    import autograph as tf
    x4, x5 = tf.constant(np.ones(4, np.float32)), tf.constant(np.ones(5, np.float32))

    def warm():
        f = tf.function(_small)
        f(x4, x4)
        return f

    def retrace(f):
        return f(x5, x5)
    f = warm()
    retrace(f)
    assert f.experimental_get_tracing_count() == 2
    return harness.once("retrace: one new trace of tanh(x*y+1)", retrace, RETRACE_BUDGET,
                        setup=warm, repeats=31)


def main() -> None:
    import logging
    logging.getLogger("tensorflow").setLevel(logging.ERROR)  # (retracing is measured here)
    x = rt.constant(np.ones((4,), np.float32))
    y = rt.constant(np.full((4,), 2.0, np.float32))
    rows = []
    rows.append(_overhead("2 tensors", Function(_small), (x, y), budget=TWO_TENSORS_BUDGET))
    rows.append(_overhead("list + python + kwarg", Function(_nested), ([x, y], 3.0),
                          {"flag": False}))
    sig = Function(_small, input_signature=[rt.TensorSpec([None], rt.float32)] * 2)
    rows.append(_overhead("input_signature", sig, (x, y)))
    trace = _trace_cost()
    retrace = _retrace()
    first = _first_call()
    for result, overhead in rows:
        print(f"{result.name:40s} call {result.ours * 1e6:8.2f} us  plan {result.floor * 1e6:8.2f}"
              f" us  overhead {overhead * 1e6:6.2f} us")
    print(f"{'one trace (new Function, first call)':40s} {trace.ours * 1e3:8.3f} ms "
          f"(budget {TRACE_BUDGET * 1e3:.0f} ms)")
    print(f"{'retrace (new shape, small function)':40s} {retrace.ours * 1e3:8.3f} ms "
          f"(budget {RETRACE_BUDGET * 1e3:.2f} ms)")
    print(f"{'first call (40-line nested function)':40s} {first.ours * 1e3:8.3f} ms "
          f"(budget {FIRST_CALL_BUDGET * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
