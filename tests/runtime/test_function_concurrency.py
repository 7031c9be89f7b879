"""Function called from several threads at once: one trace per key, no deadlock, no hang.

Each test runs its threads behind a barrier and joins them with a timeout: a thread
still alive afterwards is a hang, reported as a failure rather than a stuck suite.
Where a test needs threads to be inside a trace at the same time it says so with
events, and sleeps only to give the other threads time to arrive (the assertions
hold however the threads are scheduled).
"""
import threading
import time

import numpy as np
import pytest

import runtime as rt
from runtime import function as function_module
from runtime.function import Function, FunctionRecursionError
from runtime.tensor_spec import TensorSpec


JOIN_TIMEOUT = 5.0     # seconds: only reached when something hangs
ARRIVE = 0.05          # seconds a trace lingers so that the other threads reach the miss


def run_threads(targets):
    """Runs each callable in its own thread, all released at once; (results, errors) by index."""
    n = len(targets)
    barrier = threading.Barrier(n)
    results, errors = [None] * n, [None] * n

    def run(i):
        barrier.wait(timeout=JOIN_TIMEOUT)
        try:
            results[i] = targets[i]()
        except BaseException as e:  # noqa: BLE001 - handed to the test
            errors[i] = e

    threads = [threading.Thread(target=run, args=(i,), daemon=True) for i in range(n)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(timeout=JOIN_TIMEOUT)
    assert not any(t.is_alive() for t in threads), "a thread hung"
    return results, errors


def assert_settled(*functions):
    """No trace left in progress and no thread left registered as waiting."""
    for f in functions:
        assert getattr(f, "_in_flight", []) == []
    assert getattr(function_module, "_waiting_for", {}) == {}


# -- one key: one trace ----------------------------------------------------------------------

def test_concurrent_first_calls_with_one_key_trace_once():
    traced = []

    @Function
    def f(x):
        traced.append(threading.get_ident())
        time.sleep(ARRIVE)
        return x + 1

    results, errors = run_threads([lambda i=i: f(rt.constant(i)) for i in range(8)])
    assert errors == [None] * 8
    assert [int(r) for r in results] == [i + 1 for i in range(8)]
    assert len(traced) == 1
    assert f.experimental_get_tracing_count() == 1
    assert len(f.trace_log) == 1 and f.trace_log[0].reason == "it was the first call"
    assert_settled(f)


def test_concurrent_first_calls_with_an_input_signature_trace_once():
    traced = []

    @Function
    def g(x):
        traced.append(1)
        time.sleep(ARRIVE)
        return x * 2

    f = Function(g.python_function, input_signature=[TensorSpec([None], rt.float32)])
    xs = [rt.constant(np.full(i + 1, i, np.float32)) for i in range(8)]
    results, errors = run_threads([lambda x=x: f(x) for x in xs])
    assert errors == [None] * 8
    for x, r in zip(xs, results):
        np.testing.assert_array_equal(r.numpy(), x.numpy() * 2)
    assert len(traced) == 1
    assert f.experimental_get_tracing_count() == 1
    assert_settled(f)


def test_concurrent_get_concrete_function_and_calls_share_one_trace():
    traced = []

    @Function
    def f(x):
        traced.append(1)
        time.sleep(ARRIVE)
        return x - 1

    x = rt.constant(3)
    targets = [lambda: f.get_concrete_function(x), lambda: f(x)] * 4
    results, errors = run_threads(targets)
    assert errors == [None] * 8
    concretes = results[0::2]
    assert all(c is concretes[0] for c in concretes)
    assert [int(r) for r in results[1::2]] == [2] * 4
    assert len(traced) == 1
    assert_settled(f)


def test_a_method_called_from_several_threads_is_one_function_tracing_once():
    class Scaler:
        traced = []

        @Function
        def scale(self, x):
            Scaler.traced.append(1)
            time.sleep(ARRIVE)
            return x * 3

    s = Scaler()
    results, errors = run_threads([lambda i=i: (s.scale, s.scale(rt.constant(i)))
                                   for i in range(8)])
    assert errors == [None] * 8
    assert all(bound is s.scale for bound, _ in results)
    assert [int(r) for _, r in results] == [3 * i for i in range(8)]
    assert len(Scaler.traced) == 1
    assert_settled(s.scale)


# -- different keys: traced side by side -------------------------------------------------------

def test_different_keys_trace_at_the_same_time():
    entered = {"a": threading.Event(), "b": threading.Event()}
    saw_other = {}

    @Function
    def f(x, tag):
        if tag in entered:
            entered[tag].set()
            other = "b" if tag == "a" else "a"
            # Both traces are in progress at once only if neither waits for the other.
            saw_other[tag] = entered[other].wait(timeout=JOIN_TIMEOUT)
        return x + 1

    f(rt.constant(0), "warm-up")  # the first trace runs alone (it may create Variables)
    results, errors = run_threads([lambda: f(rt.constant(1), "a"),
                                   lambda: f(rt.constant(2), "b")])
    assert errors == [None, None]
    assert [int(r) for r in results] == [2, 3]
    assert saw_other == {"a": True, "b": True}
    assert f.experimental_get_tracing_count() == 3
    assert_settled(f)


def test_two_keys_from_eight_threads_trace_each_once():
    traced = []

    @Function
    def f(x):
        traced.append(x.dtype.name)
        time.sleep(ARRIVE)
        return x + x

    f(rt.constant(0.5, dtype=rt.float64))  # warm-up, a third key
    targets = [lambda i=i: f(rt.constant(i)) if i % 2 else f(rt.constant(float(i)))
               for i in range(8)]
    results, errors = run_threads(targets)
    assert errors == [None] * 8
    assert [float(r) for r in results] == [2.0 * i for i in range(8)]
    assert sorted(traced) == ["float32", "float64", "int32"]
    assert f.experimental_get_tracing_count() == 3
    assert len(f.trace_log) == 3
    assert_settled(f)


def test_different_functions_trace_at_the_same_time():
    entered = [threading.Event(), threading.Event()]
    saw_other = [None, None]

    def make(i):
        def body(x):
            entered[i].set()
            saw_other[i] = entered[1 - i].wait(timeout=JOIN_TIMEOUT)
            return x * (i + 2)
        return Function(body)

    f, g = make(0), make(1)
    results, errors = run_threads([lambda: f(rt.constant(5)), lambda: g(rt.constant(5))])
    assert errors == [None, None]
    assert [int(r) for r in results] == [10, 15]
    assert saw_other == [True, True]
    assert_settled(f, g)


def test_the_first_trace_runs_alone_so_variables_are_created_once():
    class Model:
        def __init__(self):
            self.v = None
            self.made = 0

        @Function
        def __call__(self, x):
            if self.v is None:
                time.sleep(ARRIVE)
                self.made += 1
                self.v = rt.Variable(2.0)
            return x * self.v

    m = Model()
    xs = [rt.constant(np.ones(n, np.float32)) for n in (1, 2, 3, 4)]
    results, errors = run_threads([lambda x=x: m(x) for x in xs])
    assert errors == [None] * 4
    for x, r in zip(xs, results):
        np.testing.assert_array_equal(r.numpy(), x.numpy() * 2)
    assert m.made == 1
    # four shapes, and the first trace (it creates a Variable) traced twice, as TensorFlow counts
    assert m.__call__.experimental_get_tracing_count() == 5
    assert_settled(m.__call__)


# -- Functions calling Functions ---------------------------------------------------------------

def test_a_function_calling_a_function_from_several_threads():
    inner_traced, outer_traced = [], []

    @Function
    def inner(a):
        inner_traced.append(1)
        return a * 3

    @Function
    def outer(x):
        outer_traced.append(1)
        time.sleep(ARRIVE)
        return inner(x) + 1

    results, errors = run_threads([lambda i=i: outer(rt.constant(i)) for i in range(8)])
    assert errors == [None] * 8
    assert [int(r) for r in results] == [3 * i + 1 for i in range(8)]
    assert len(outer_traced) == 1 and len(inner_traced) == 1   # traced once, in outer's trace
    assert inner.experimental_get_tracing_count() == 1
    assert_settled(inner, outer)


def test_a_function_tracing_another_under_init_scope_from_several_threads():
    inner_traced, outer_traced = [], []

    @Function
    def inner(a):
        inner_traced.append(1)
        time.sleep(ARRIVE)
        return a * 3

    @Function
    def outer(x):
        outer_traced.append(1)
        with rt.init_scope():
            k = inner(rt.constant(2))   # runs eagerly: traces inner (once) while outer traces
        return x + int(k)

    results, errors = run_threads(
        [lambda i=i: outer(rt.constant(i)) if i % 2 else inner(rt.constant(i)) for i in range(8)])
    assert errors == [None] * 8
    assert [int(r) for r in results] == [(i + 6) if i % 2 else 3 * i for i in range(8)]
    assert len(outer_traced) == 1 and len(inner_traced) == 1
    assert_settled(inner, outer)


def test_two_functions_tracing_each_other_in_two_threads_do_not_deadlock(monkeypatch):
    # Thread 1 traces a, which calls b eagerly; thread 2 traces b, which calls a eagerly.
    # Each would wait for the other's trace: one of them traces instead of waiting.
    a_started, b_started = threading.Event(), threading.Event()
    cycles = []
    detect = getattr(function_module, "_wait_would_deadlock", None)

    def spy(flight, me):
        found = detect(flight, me)
        cycles.append(found)
        return found
    monkeypatch.setattr(function_module, "_wait_would_deadlock", spy, raising=False)
    first_thread = {}

    @Function
    def a(x):
        a_started.set()
        if threading.get_ident() == first_thread.get("a"):
            b_started.wait(timeout=JOIN_TIMEOUT)
            with rt.init_scope():
                b(rt.constant(1))
        return x + 1

    @Function
    def b(x):
        b_started.set()
        if threading.get_ident() == first_thread.get("b"):
            a_started.wait(timeout=JOIN_TIMEOUT)
            with rt.init_scope():
                a(rt.constant(1))
        return x + 2

    def call(f, name):
        first_thread[name] = threading.get_ident()
        return f(rt.constant(10))

    results, errors = run_threads([lambda: call(a, "a"), lambda: call(b, "b")])
    assert errors == [None, None]
    assert [int(r) for r in results] == [11, 12]
    # One of the two was traced twice: by its own thread and by the one that would have waited.
    assert a.experimental_get_tracing_count() + b.experimental_get_tracing_count() == 3
    assert True in cycles
    assert_settled(a, b)


# -- errors -----------------------------------------------------------------------------------

def test_a_failed_trace_lets_a_waiting_thread_trace_instead():
    attempts = []

    @Function
    def f(x):
        first = not attempts
        attempts.append(1)
        time.sleep(ARRIVE)
        if first:
            raise ValueError("first trace fails")
        return x + 1

    results, errors = run_threads([lambda i=i: f(rt.constant(i)) for i in range(8)])
    failed = [i for i, e in enumerate(errors) if e is not None]
    assert len(failed) == 1 and isinstance(errors[failed[0]], ValueError)
    assert all(int(results[i]) == i + 1 for i in range(8) if i not in failed)
    assert len(attempts) == 2        # the failed trace, then one good one for the other seven
    assert f.experimental_get_tracing_count() == 1
    assert len(f.trace_log) == 1
    assert_settled(f)


def test_a_trace_that_always_fails_fails_in_every_thread():
    attempts = []

    @Function
    def f(x):
        attempts.append(1)
        raise ValueError("never traces")

    results, errors = run_threads([lambda: f(rt.constant(1)) for _ in range(6)])
    assert all(isinstance(e, ValueError) for e in errors)
    assert len(attempts) == 6        # each thread tried in turn; none got a half-built trace
    assert f.experimental_get_tracing_count() == 0 and f._traces == [] and f._cache == {}
    assert_settled(f)


def test_recursion_with_the_same_key_is_still_reported_in_every_thread():
    @Function
    def forever(n):
        return forever(n - 1)

    @Function
    def eagerly(n):
        with rt.init_scope():
            eagerly(rt.constant(1))   # the same key, called while its own trace is running
        return n

    results, errors = run_threads([lambda: forever(rt.constant(5))] * 3 +
                                  [lambda: eagerly(rt.constant(5))] * 3)
    assert all(isinstance(e, FunctionRecursionError) for e in errors), errors
    assert "calls itself while it is being traced" in str(errors[0])
    assert_settled(forever, eagerly)
