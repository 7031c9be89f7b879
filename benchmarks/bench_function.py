"""tf.function costs: one trace, and what a cache-hit call adds above running its plan.

The cache-hit path is key computation (dtype+shape per tensor argument), one
dict lookup, the plan call and wrapping results as EagerTensors. Target: it
adds under 20 µs to the plan itself. ``main()`` prints the figures and adds
them to the shared table of ``python -m benchmarks``.
"""
from __future__ import annotations

import numpy as np

import runtime as rt
from benchmarks import harness
from runtime.function import Function, RetracingWarning

OVERHEAD_BUDGET = 20e-6   # seconds a cache hit may add above the plan
TRACE_BUDGET = 5e-3       # seconds for tracing + compiling a small function


def _small(x, y):
    return rt.tanh(x * y + 1.0)


def _nested(xs, scale, flag=True):
    return {"sum": xs[0] + xs[1] * scale, "prod": xs[0] * xs[1]}


def _overhead(name: str, fn: Function, args: tuple, kwargs: dict | None = None):
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
                         OVERHEAD_BUDGET)
    harness.RESULTS.append(row)
    return result, overhead


def _trace_cost():
    x = rt.constant(np.ones(4, np.float32))

    def trace_once():
        Function(_small)(x, x)
    return harness.absolute("trace + compile + first call (tanh(x*y+1))", trace_once,
                            TRACE_BUDGET, repeats=7)


def main() -> None:
    import warnings
    warnings.simplefilter("ignore", RetracingWarning)
    x = rt.constant(np.ones((4,), np.float32))
    y = rt.constant(np.full((4,), 2.0, np.float32))
    rows = []
    rows.append(_overhead("2 tensors", Function(_small), (x, y)))
    rows.append(_overhead("list + python + kwarg", Function(_nested), ([x, y], 3.0),
                          {"flag": False}))
    sig = Function(_small, input_signature=[rt.TensorSpec([None], rt.float32)] * 2)
    rows.append(_overhead("input_signature", sig, (x, y)))
    trace = _trace_cost()
    for result, overhead in rows:
        print(f"{result.name:40s} call {result.ours * 1e6:8.2f} us  plan {result.floor * 1e6:8.2f}"
              f" us  overhead {overhead * 1e6:6.2f} us (budget {OVERHEAD_BUDGET * 1e6:.0f} us)")
    print(f"{'one trace (new Function, first call)':40s} {trace.ours * 1e3:8.3f} ms "
          f"(budget {TRACE_BUDGET * 1e3:.0f} ms)")


if __name__ == "__main__":
    main()
