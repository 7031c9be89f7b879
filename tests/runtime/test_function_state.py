"""State and side effects under Function: Variables, Modules, py_function, leaks, program order."""
import gc
import sys

import numpy as np
import pytest

import runtime as rt
from runtime.errors import LeakedTensorError
from runtime.function import VARIABLE_CREATION_ERROR, Function



def test_variables_are_read_live():
    v = rt.Variable(1)
    f = Function(lambda: v + 1)
    assert int(f()) == 2
    v.assign(100)
    assert int(f()) == 101
    assert f.experimental_get_tracing_count() == 1


def test_variable_arguments_key_by_type_and_are_not_fed():
    f = Function(lambda v, x: v * x)
    a, b = rt.Variable(2.0), rt.Variable(3.0)
    x = rt.constant(10.0)
    assert float(f(a, x)) == 20.0
    assert float(f(b, x)) == 30.0
    a.assign(5.0)
    assert float(f(a, x)) == 50.0
    assert f.experimental_get_tracing_count() == 1  # TensorFlow: a Variable of the same type
    c = f.get_concrete_function(a, x)
    assert float(c(a, x)) == 50.0
    assert float(c(b, x)) == 30.0
    with pytest.raises(rt.errors.InvalidArgumentError, match="read variable with wrong dtype"):
        c(rt.Variable(1), x)


def test_assignments_run_every_call_in_program_order():
    v = rt.Variable(0)

    @Function
    def step():
        v.assign_add(1)          # result unused: still runs
        before = v.read_value()
        v.assign(before * 10)
        return before
    assert int(step()) == 1 and int(v.numpy()) == 10
    assert int(step()) == 11 and int(v.numpy()) == 110


def test_variable_created_on_first_trace_only_is_allowed():
    class Counter(rt.Module):
        def __init__(self):
            super().__init__()
            self.count = None

        @Function
        def __call__(self):
            if self.count is None:
                self.count = rt.Variable(0)
            return self.count.assign_add(1)
    c = Counter()
    assert [int(c()) for _ in range(3)] == [1, 2, 3]
    assert len(c.variables) == 1 and c.variables[0] is c.count


class _LazyState(rt.Module):
    """State made on the first call from the call's input, as TensorFlow allows."""

    def __init__(self, init):
        super().__init__()
        self.init, self.v = init, None

    @Function
    def __call__(self, x):
        if self.v is None:
            self.v = rt.Variable(self.init(x))
        self.v.assign_add(x)
        return self.v.read_value()


@pytest.mark.parametrize("init, first", [(lambda x: x, [2.0, 4.0]),
                                         (lambda x: x * 2.0, [3.0, 6.0]),
                                         (rt.ones_like, [2.0, 3.0]),
                                         (lambda x: lambda: x * 3.0, [4.0, 8.0])])
def test_variable_initial_value_from_the_first_calls_inputs(init, first):
    # TensorFlow assigns such an initial value in the first trace (while the variable holds
    # none), runs that trace once, then the trace that made no variables.
    x = rt.constant([1.0, 2.0])
    m = _LazyState(init)
    assert m(x).numpy().tolist() == first
    assert m(x).numpy().tolist() == [first[0] + 1.0, first[1] + 2.0]
    assert m.__call__.experimental_get_tracing_count() == 2
    assert m.v.shape.as_list() == [2] and m.v.dtype == rt.float32


def test_variable_initialized_from_inputs_through_a_concrete_function_or_a_caller():
    x = rt.constant([1.0, 2.0])
    m = _LazyState(lambda x: x)
    concrete = m.__call__.get_concrete_function(x)
    with pytest.raises(rt.errors.FailedPreconditionError, match="not initialized yet"):
        m.v.numpy()
    assert concrete(x).numpy().tolist() == [2.0, 4.0]
    assert concrete(x).numpy().tolist() == [3.0, 6.0]
    inner = _LazyState(lambda x: x * 3.0)
    outer = Function(lambda x: inner(x) + inner(x))  # the second call finds it initialized
    assert outer(x).numpy().tolist() == [4.0 + 5.0, 8.0 + 10.0]
    assert outer(x).numpy().tolist() == [6.0 + 7.0, 12.0 + 14.0]


def test_variable_created_on_every_trace_raises_tf_message():
    @Function
    def f(x):
        v = rt.Variable(1.0)
        return v
    with pytest.raises(ValueError) as info:
        f(1.0)
    assert str(info.value).startswith(VARIABLE_CREATION_ERROR)
    assert "test_function_state.py" in str(info.value)


def test_variable_created_on_a_later_trace_raises():
    made = []

    @Function
    def f(n):
        if n == 2:
            made.append(rt.Variable(0))
        return rt.constant(n)
    f(1)
    with pytest.raises(ValueError, match="singleton tf.Variables created on the first call"):
        f(2)
    assert made == []
    assert int(f(1)) == 1


def test_init_scope_lifts_ops_out_of_the_trace():
    v = rt.Variable(0)
    counter = [0]

    @Function
    def f():
        if counter[0] == 0:
            with rt.init_scope():
                counter[0] += 1
                v.assign_add(1)
        return v.read_value()
    assert [int(f()) for _ in range(3)] == [1, 1, 1]


def test_python_side_effects_happen_at_trace_time_only():
    seen = []

    @Function
    def f(x):
        seen.append(x)
        return x
    for _ in range(3):
        f(1)
    assert seen == [1]
    it = iter([1, 2, 3])
    g = Function(lambda iterator: rt.constant(next(iterator)))
    assert [int(g(it)) for _ in range(3)] == [1, 1, 1]


def test_leaked_tensor_used_later_is_a_clear_type_error():
    leak = {}

    @Function
    def leaky(a):
        leak["x"] = a + 1
        return a + 2
    assert int(leaky(rt.constant(1))) == 3
    with pytest.raises(AttributeError, match="'Tensor' object has no attribute 'numpy'"):
        leak["x"].numpy()

    @Function
    def uses_leak(b):
        return b + leak["x"]
    with pytest.raises(LeakedTensorError) as info:
        uses_leak(rt.constant(2))
    assert isinstance(info.value, TypeError)
    assert "escaped the function" in str(info.value) and "leaky" in str(info.value)
    with pytest.raises(LeakedTensorError):
        rt.add(leak["x"], 1)
    with pytest.raises(LeakedTensorError):
        Function(lambda t: t + 1)(leak["x"])   # passed as an argument


def test_module_tracks_variables_and_submodules():
    class Dense(rt.Module):
        def __init__(self):
            super().__init__()
            self.w = rt.Variable(np.ones((2, 2), np.float32))
            self.b = rt.Variable(np.zeros(2, np.float32), trainable=False)

    class Net(rt.Module):
        def __init__(self):
            super().__init__(name="net")
            self.layers = [Dense(), Dense()]
            self.extra = {"scale": rt.Variable(2.0)}
    net = Net()
    assert net.name == "net" and Dense().name == "dense"
    assert len(net.variables) == 5
    assert len(net.trainable_variables) == 3
    assert len(net.submodules) == 2
    with pytest.raises(ValueError):
        rt.Module(name="not valid!")


def test_py_function_runs_python_on_every_call():
    calls = []

    def record(x):
        calls.append(float(x))
        return x * 2

    @Function
    def f(x):
        y = rt.py_function(record, [x], rt.float32)
        return y + 1
    assert float(f(rt.constant(1.0))) == 3.0
    assert float(f(rt.constant(2.0))) == 5.0
    assert calls == [1.0, 2.0]
    assert f.experimental_get_tracing_count() == 1
    node = [n for n in f.get_concrete_function(rt.constant(1.0)).graph.nodes
            if n.op == "EagerPyFunc"][0]
    assert node.outputs[0].shape.rank is None


def test_py_function_with_unused_result_still_runs_and_keeps_order():
    order = []

    @Function
    def f():
        rt.py_function(lambda: order.append("a"), [], [])
        rt.py_function(lambda: order.append("b"), [], [])
        return rt.constant(0)
    f()
    f()
    assert order == ["a", "b", "a", "b"]


def test_py_function_eagerly_and_with_several_outputs():
    a, b = rt.py_function(lambda x: (x + 1, x * 2), [rt.constant(3)], [rt.int32, rt.int32])
    assert (int(a), int(b)) == (4, 6)
    f = Function(lambda x: rt.py_function(lambda v: (v + 1, v * 2), [x], [rt.int32, rt.int32]))
    assert [int(t) for t in f(rt.constant(3))] == [4, 6]


def test_py_function_wrong_output_dtype_is_reported():
    f = Function(lambda x: rt.py_function(lambda v: v, [x], rt.int32))
    with pytest.raises(rt.errors.InvalidArgumentError, match="float32 tensor where Tout says"):
        f(rt.constant(1.0))


def test_print_runs_every_call_python_print_only_when_tracing(capsys, monkeypatch):
    monkeypatch.setattr(sys, "stderr", sys.stdout)

    @Function
    def f(x):
        print("Traced with", x)
        rt.print("Executed with", x)
    f(1)
    f(1)
    f(2)
    assert capsys.readouterr().out == ("Traced with 1\nExecuted with 1\nExecuted with 1\n"
                                       "Traced with 2\nExecuted with 2\n")


def test_deleted_objects_release_their_traces():
    class Key:
        pass
    f = Function(lambda k, x: x + 1)
    x = rt.constant(1)
    for _ in range(3):
        f(Key(), x)
        gc.collect()
    f(Key(), x)
    assert len(f._traces) <= 2
