"""Conversion of calls, methods, closures, state kinds and special iterables."""
import functools
import threading

import numpy as np
import pytest

import autograph as tf
import runtime as rt
from autograph.impl import api
from autograph.impl.api import convert, do_not_convert, to_code
from tests.staging import staged, trace


def _graph_ops(fn, *args):
    graph, _, _ = trace(convert(fn), *args)
    ops = []
    def walk(g):
        for n in g.nodes:
            ops.append(n.op)
            for v in n.attrs.values():
                if hasattr(v, "nodes"):
                    walk(v)
    walk(graph)
    return ops


class Counter:
    def __init__(self):
        self.count = 0

    def run(self, n):
        i = 0
        while i < n:
            self.count += 2
            i += 1
        return self.count

    def __call__(self, x):
        if x > 0:
            return x * 3
        return x


class Base:
    def value(self, x):
        return x + 1


class Child(Base):
    def value(self, x):
        if x > 0:
            return super().value(x) * 10
        return x


def test_bound_method_staged_with_attribute_state():
    c = Counter()
    assert staged(convert(c.run), np.int32(4)) == 8
    c2 = Counter()
    assert convert(c2.run)(3) == 6 and c2.count == 6


def test_callable_object():
    assert convert(Counter())(4) == 12
    assert staged(convert(Counter()), np.int32(-2)) == -2


def test_super_without_arguments():
    assert convert(Child().value)(2) == 30
    assert staged(convert(Child().value), np.int32(2)) == 30


def test_partial_and_lambda():
    def f(x, k):
        return x * k if x > 0 else x
    p = functools.partial(f, k=5)
    assert convert(p)(2) == 10
    lam = lambda x: x + 1 if x > 0 else x - 1  # noqa: E731
    assert convert(lam)(3) == 4 and convert(lam)(-3) == -4
    assert staged(convert(lam), np.int32(-3)) == -4
    assert "def tf__lambda(x):" in to_code(lam)


def test_closure_nonlocal_shares_cells():
    def outer():
        total = 0

        def add(n):
            nonlocal total
            if n > 0:
                total += n
            return total
        return add, lambda: total
    add, get = outer()
    convert(add)(5)
    assert get() == 5
    add(2)
    assert convert(add)(1) == 8


_G = 0


def _bump_global(n):
    global _G
    if n > 0:
        _G += n
    return _G


def test_global_in_converted_if():
    global _G
    _G = 1
    assert convert(_bump_global)(4) == 5 and _G == 5


def test_do_not_convert_runs_as_is():
    @do_not_convert
    def raw(x):
        if x > 0:  # would fail on a symbolic tensor: proves it was not converted
            return x
        return -x

    def caller(x):
        return raw(x)
    with pytest.raises(rt.errors.OperatorNotAllowedInGraphError):
        staged(convert(caller), np.int32(1))
    assert caller(3) == 3 and convert(caller)(-3) == 3


def test_library_functions_are_not_converted():
    assert api.converted_callable(np.sum) is np.sum
    assert api.converted_callable(rt.tanh) is rt.tanh
    assert api.converted_callable(functools.reduce) is functools.reduce


def test_conversion_is_cached_per_code_object():
    def make(k):
        def f(x):
            return x + k
        return f
    f1, f2 = make(1), make(2)
    c1, c2 = convert(f1), convert(f2)
    assert c1(1) == 2 and c2(1) == 3
    key = api.DEFAULT
    assert api._code_cache[f1.__code__, key] is api._code_cache[f2.__code__, key]


def test_conversion_is_thread_safe():
    def fn(x):
        s = 0
        for i in range(x):
            if i % 2:
                s += i
        return s
    results, errors = [], []

    def work():
        try:
            results.append(api.converted_callable(fn, user_requested=True)(7))
        except Exception as e:  # noqa: BLE001
            errors.append(e)
    threads = [threading.Thread(target=work) for _ in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors and results == [9] * 8


def test_print_stays_python_and_runs_at_trace_time(capsys):
    def f(x):
        while x > 0:
            print("tracing body")
            x = x - 1
        return x
    staged(convert(f), np.int32(3))
    assert capsys.readouterr().out == "tracing body\n"
    assert "print('tracing body')" in to_code(f)


def test_assert_stages_an_assert_op():
    def f(x):
        assert x > 0, "x must be positive"
        return x
    asserts = tf.autograph.experimental.Feature.ASSERT_STATEMENTS
    graph, _, _ = trace(convert(f, experimental_optional_features=asserts), np.int32(1))
    assert "Assert" in [n.op for n in graph.nodes]
    with pytest.raises(AssertionError, match="x must be positive"):
        convert(f, experimental_optional_features=asserts)(-1)
    with pytest.raises(tf.errors.OperatorNotAllowedInGraphError):  # TF's default: unconverted
        _graph_ops(f, np.int32(1))


def test_for_over_tensor_first_axis():
    def f(xs):
        s = 0.0
        for x in xs:
            if x > 1.0:
                s += x
        return s
    data = np.array([0.5, 2.0, 3.0], np.float32)
    assert staged(convert(f), data) == pytest.approx(5.0)
    assert "StatelessWhile" in _graph_ops(f, data) or "While" in _graph_ops(f, data)


def test_tf_range_loop_is_one_while():
    def f(n):
        s = 0
        for i in tf.range(n):
            s += i
        return s
    assert staged(convert(f), np.int32(5)) == 10
    ops = _graph_ops(f, np.int32(5))
    assert ops.count("StatelessWhile") + ops.count("While") == 1


def test_len_of_tensor():
    def f(xs):
        return len(xs) * 2
    assert staged(convert(f), np.zeros([4, 2], np.float32)) == 8


def test_range_of_a_tensor_used_as_a_value_is_tf_range():
    def returned(n):
        return range(n)

    def summed(n):
        return tf.reduce_sum(range(1, n, 2))
    assert tf.function(returned)(tf.constant(3)).numpy().tolist() == [0, 1, 2]  # as in TF 2.21
    assert int(tf.function(summed)(tf.constant(6))) == 9


def test_len_of_a_scalar_tensor_in_a_graph_is_tensorflows_value_error():
    def f(x):
        return len(x)
    with pytest.raises(ValueError, match="len requires a non-scalar tensor, got one of shape"):
        tf.function(f)(tf.constant(1))
    with pytest.raises(TypeError, match="Scalar tensor has no `len"):  # eagerly, as TensorFlow
        len(tf.constant(1))


def test_staged_loop_over_a_scalar_tensor_is_tensorflows_value_error_and_a_type_error():
    def f(x):
        total = 0
        for v in x:
            total += v
        return total
    with pytest.raises(ValueError, match="len requires a non-scalar tensor") as raised:
        tf.function(f)(tf.constant(3))  # (TensorFlow 2.21: ValueError in a graph)
    assert isinstance(raised.value, TypeError)  # (what iterating it eagerly raises)
    with pytest.raises(TypeError, match="Cannot iterate over a scalar tensor"):
        f(tf.constant(3))


def test_python_loop_whose_test_becomes_a_tensor_is_refused():
    def f(x):
        i = 0
        while i < 10:
            if x > 0:
                i += 3
            else:
                i += 5
        return i
    with pytest.raises(NotImplementedError, match="started as non-Tensor, then changed"):
        staged(convert(f), np.int32(1))


def test_special_iterable_delegates():
    calls = []

    class Special:
        def _autograph_for_stmt(self, extra_test, body, get_state, set_state, names, opts):
            calls.append(names)
            for v in (1, 2):
                body(v)

    def f(n):
        s = n
        for v in Special():
            s = s + v
        return s
    assert convert(f)(10) == 13
    assert calls == [("s",)]


def test_subscript_state_in_staged_loop():
    def f(n):
        acc = [0, 0]
        i = 0
        while i < n:
            acc[0] = acc[0] + i
            i += 1
        return acc[0]
    assert staged(convert(f), np.int32(5)) == 10
    assert "acc[0]" in to_code(f)


def test_converted_function_keeps_defaults_and_name():
    def f(x, y=4, *, z=1):
        return x + y * z
    c = convert(f)
    assert c(1) == 5 and c(1, z=2) == 9
    assert c.__name__ == "f"


def test_to_code_of_method_and_tf_function():
    assert to_code(Counter().run).startswith("def tf__run(self, n):")
    tf_fn = tf.function(Counter.run)
    assert to_code(tf_fn).startswith("def tf__run(self, n):")


def test_tf_autograph_namespace():
    assert tf.autograph.to_code is to_code
    assert tf.autograph.to_graph is convert
    assert tf.autograph.experimental.do_not_convert is do_not_convert
