"""runtime.Function / ConcreteFunction: trace cache, retracing, signatures, concrete calls."""
import collections
import warnings

import numpy as np
import pytest

import runtime as rt
from graph.errors import InvalidArgumentError
from runtime.function import Function, FunctionRecursionError
from runtime.signature import InputSignatureError
from runtime.tensor_spec import TensorSpec



def traced(fn=None, **kw):
    """Function(fn) that counts how often the Python function runs (= traces)."""
    def wrap(f):
        calls = []

        def body(*args, **kwargs):
            calls.append((args, kwargs))
            return f(*args, **kwargs)
        body.__name__ = f.__name__
        body.__signature__ = __import__("inspect").signature(f)
        func = Function(body, **kw)
        func.calls = calls
        return func
    return wrap(fn) if fn is not None else wrap


# -- the trace key -------------------------------------------------------------------------

def test_same_dtype_and_shape_reuses_the_trace():
    f = traced(lambda x: x * 2)
    assert f(rt.constant([1, 2])).numpy().tolist() == [2, 4]
    assert f(rt.constant([5, 6])).numpy().tolist() == [10, 12]
    assert len(f.calls) == 1 and f.experimental_get_tracing_count() == 1


@pytest.mark.parametrize("second", [rt.constant([1.0, 2.0]), rt.constant([1, 2, 3]),
                                    rt.constant(1)])
def test_new_dtype_or_shape_retraces(second):
    f = traced(lambda x: x + x)
    f(rt.constant([1, 2]))
    f(second)
    assert f.experimental_get_tracing_count() == 2


def test_python_values_key_by_value():
    f = traced(lambda n: rt.constant(n))
    out = [f(n).numpy() for n in (10, 10, 20, 10, 10.0, True, 1, "a", "a")]
    # TensorFlow 2.21: 10, 20, True, "a" — numbers Python calls equal share a trace
    # (10.0 runs the trace of 10, and 1 the trace of True)
    assert f.experimental_get_tracing_count() == 4
    assert out[4] == 10 and out[4].dtype == np.int32 and out[6] is np.True_


def test_nested_structures_key_by_their_leaves_and_dict_order_does_not_matter():
    f = traced(lambda d: d["a"] + d["b"])
    x = rt.constant(1.0)
    f({"a": x, "b": x})
    f({"b": x, "a": x})
    assert f.experimental_get_tracing_count() == 1
    f({"a": x, "b": rt.constant([1.0])})
    assert f.experimental_get_tracing_count() == 2
    g = traced(lambda xs: xs[0])
    g([x, 1])
    g((x, 1))        # a tuple is not a list
    g([x, 2])        # a Python leaf changed
    g([x, 1])
    assert g.experimental_get_tracing_count() == 3


def test_namedtuple_arguments_are_rebuilt_with_placeholders():
    Point = collections.namedtuple("Point", "x y")
    f = traced(lambda p: p.x * p.y)
    assert float(f(Point(rt.constant(2.0), rt.constant(3.0)))) == 6.0
    assert float(f(Point(rt.constant(4.0), rt.constant(3.0)))) == 12.0
    assert f.experimental_get_tracing_count() == 1


def test_keywords_and_defaults_are_canonicalized():
    f = traced(lambda a, b=2: a * b)
    x = rt.constant(3)
    assert int(f(x)) == 6
    assert int(f(x, 2)) == 6
    assert int(f(a=x, b=2)) == 6
    assert f.experimental_get_tracing_count() == 1
    assert int(f(x, b=4)) == 12
    assert f.experimental_get_tracing_count() == 2


def test_other_objects_key_by_identity_held_weakly():
    class Box:
        def __init__(self, v):
            self.v = v
    f = traced(lambda box, x: box.v * x)
    x = rt.constant(2.0)
    b1 = Box(3.0)
    assert float(f(b1, x)) == 6.0
    b1.v = 10.0                     # same object: the trace (with 3.0 baked in) is reused
    assert float(f(b1, x)) == 6.0
    assert float(f(Box(5.0), x)) == 10.0
    assert f.experimental_get_tracing_count() == 2
    del b1
    import gc
    gc.collect()
    assert float(f(Box(7.0), x)) == 14.0  # a new object never matches a dead one's trace
    assert f.experimental_get_tracing_count() == 3


def test_numpy_arrays_are_tensor_arguments():
    f = traced(lambda x: x + 1)
    assert f(np.array([1, 2], np.int64)).dtype == rt.int64
    assert f(np.array([3, 4], np.int64)).numpy().tolist() == [4, 5]
    assert f.experimental_get_tracing_count() == 1


def test_different_function_objects_never_share_traces():
    def body(x):
        return x + 1
    a, b = Function(body), Function(body)
    a(rt.constant(1))
    b(rt.constant(1))
    assert a.experimental_get_tracing_count() == b.experimental_get_tracing_count() == 1


def test_custom_tracing_type_protocol():
    class Kind(rt.types.experimental.TraceType):
        def __init__(self, cls):
            self.cls = cls

        def is_subtype_of(self, other):
            return type(other) is Kind and self.cls is other.cls

        def most_specific_common_supertype(self, others):
            return self if all(self == o for o in others) else None

        def __eq__(self, other):
            return type(other) is Kind and self.cls is other.cls

        def __hash__(self):
            return hash(self.cls)

    class Fruit:
        def __tf_tracing_type__(self, context):
            return Kind(type(self))

    class Apple(Fruit):
        flavor = rt.constant([1, 2])

    f = traced(lambda a: a.flavor + 1)
    f(Apple())
    f(Apple())
    assert f.experimental_get_tracing_count() == 1


# -- outputs ----------------------------------------------------------------------------------

def test_output_structures_come_back_as_eager_tensors():
    f = Function(lambda x: {"a": x, "b": (x + 1, None), "c": 3})
    out = f(rt.constant(1))
    assert isinstance(out, dict) and out["b"][1] is None
    assert int(out["a"]) == 1 and int(out["b"][0]) == 2
    assert isinstance(out["c"], rt.EagerTensor) and int(out["c"]) == 3
    assert Function(lambda: None)() is None


def test_returning_a_non_tensor_object_is_a_type_error():
    with pytest.raises(TypeError, match="must return zero or more Tensors"):
        Function(lambda: object())()


def test_captured_eager_tensors_are_constants_at_trace_time():
    state = {"c": rt.constant(1)}
    f = Function(lambda: state["c"] + 1)
    assert int(f()) == 2
    state["c"] = rt.constant(100)
    assert int(f()) == 2


# -- input signatures ---------------------------------------------------------------------

def test_input_signature_traces_once_for_every_compatible_shape():
    f = traced(lambda x: x * 2, input_signature=[TensorSpec([None], rt.int32)])
    assert f(rt.constant([1, 2, 3])).numpy().tolist() == [2, 4, 6]
    assert f(rt.constant([1])).numpy().tolist() == [2]
    assert f([4, 5]).numpy().tolist() == [8, 10]     # Python values are converted
    assert f(x=rt.constant([1])).numpy().tolist() == [2]
    assert len(f.calls) == 1
    (spec,), _ = f.get_concrete_function().structured_input_signature
    assert spec == TensorSpec([None], rt.int32, name="x")


@pytest.mark.parametrize("bad", [rt.constant([[1, 2]]), rt.constant([1.0]), "a"])
def test_input_signature_mismatch_is_value_and_type_error(bad):
    f = Function(lambda x: x, input_signature=[TensorSpec([None], rt.int32)])
    with pytest.raises(InputSignatureError) as info:
        f(bad)
    assert isinstance(info.value, ValueError) and isinstance(info.value, TypeError)
    assert str(info.value).startswith("Python inputs incompatible with input_signature:\n"
                                      "  inputs: (\n    ")
    assert str(info.value).endswith("  input_signature: (\n"
                                    "    TensorSpec(shape=(None,), dtype=tf.int32, name=None)).")


def test_input_signature_too_many_arguments():
    f = Function(lambda x: x, input_signature=[TensorSpec([], rt.int32)])
    with pytest.raises(InputSignatureError):
        f(rt.constant(1), rt.constant(2))


def test_input_signature_must_be_a_sequence_of_specs():
    with pytest.raises(TypeError, match="input_signature"):
        Function(lambda x: x, input_signature=TensorSpec([], rt.int32))
    with pytest.raises(TypeError, match="TensorSpec"):
        Function(lambda x: x, input_signature=[3])


def test_nested_input_signature():
    f = Function(lambda xs: xs[0] + xs[1],
                 input_signature=[[TensorSpec([], rt.float32), TensorSpec([], rt.float32)]])
    assert float(f([rt.constant(1.0), 2.0])) == 3.0


# -- reduce_retracing and the retracing warning -----------------------------------------------

def test_reduce_retracing_generalizes_to_unknown_dimensions():
    f = traced(lambda x: rt.reduce_sum(x) if hasattr(rt, "reduce_sum") else x,
               reduce_retracing=True)
    for n in range(1, 6):
        f(rt.constant(np.ones(n, np.float32)))
    assert f.experimental_get_tracing_count() == 2
    shapes = [str(s[0][0].shape) for s in
              (c.structured_input_signature for c in f._list_all_concrete_functions())]
    assert shapes == ["(1,)", "(None,)"]


def test_frequent_retracing_logs_one_warning_and_says_which_argument_changed(caplog):
    f = Function(lambda n: rt.constant(n))
    with caplog.at_level("WARNING", logger="tensorflow"):
        for n in range(9):
            f(n)
    messages = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert len(messages) == 2  # the 5th and the 6th trace: TensorFlow's detector warns twice
    assert messages[0].startswith("5 out of the last 5 calls to ")
    assert messages[1].startswith("6 out of the last 6 calls to ")
    assert "triggered tf.function retracing" in messages[0] and "\n" not in messages[0]
    assert "n: Python int 3 → 4; pass a tensor to reuse the trace" in messages[0]
    assert len(f.trace_log) == 9
    assert f.trace_log[0].reason == "it was the first call"
    assert f.trace_log[2].reason == "n: Python int 1 → 2; pass a tensor to reuse the trace"


def test_retracing_among_cache_hits_follows_tensorflows_history(caplog):
    f = Function(lambda x: x + 1)
    with caplog.at_level("WARNING", logger="tensorflow"):
        for i in range(30):
            f(rt.constant(i))  # one trace, then hits: no warning
        for size in range(1, 4):  # 4 traces so far: below the threshold
            f(rt.constant([0] * size))
            f(rt.constant([0] * size))
        assert not [r for r in caplog.records if r.name == "tensorflow"]
        for _ in range(11):  # more than the history's 10 calls: the old traces drop out
            f(rt.constant([0]))
        f(rt.constant([0] * 4))
        assert not [r for r in caplog.records if r.name == "tensorflow"]
        for size in range(5, 9):
            f(rt.constant([0] * size))
    messages = [r.getMessage() for r in caplog.records if r.name == "tensorflow"]
    assert messages and messages[0].startswith("5 out of the last 17 calls to ")


def test_trace_log_numbers_the_call_that_traced():
    f = Function(lambda x: x + 1)
    for value in ([1.0], [2.0], [1.0, 2.0], [3.0], [1.0, 2.0, 3.0]):
        f(rt.constant(value))
    assert [record.call for record in f.trace_log] == [1, 3, 5]


def test_tracing_pauses_the_garbage_collector_and_restores_it():
    import gc
    seen = []
    f = Function(lambda x: seen.append(gc.isenabled()) or x + 1)
    assert gc.isenabled()
    f(rt.constant(1.0))
    assert seen == [False] and gc.isenabled()
    with pytest.raises(ZeroDivisionError):
        Function(lambda x: 1 / 0)(rt.constant(1.0))
    assert gc.isenabled()  # (also after a trace that failed)
    gc.disable()
    try:
        f(rt.constant([1.0]))  # a program that turned it off keeps it off
        assert seen == [False, False] and not gc.isenabled()
    finally:
        gc.enable()


def test_trace_log_explains_shape_changes():
    f = Function(lambda x: x)
    f(rt.constant([1]))
    f(rt.constant([1, 2]))
    assert f.trace_log[1].reason.startswith("x: shape (1,) → (2,)")


# -- concrete functions -----------------------------------------------------------------

def test_concrete_function_signature_printing():
    def double(a):
        return a + a
    f = Function(double)
    c = f.get_concrete_function(rt.constant("a"))
    assert str(c) == ("ConcreteFunction double(a)\n  Args:\n    a: string Tensor, shape=()\n"
                      "  Returns:\n    string Tensor, shape=()")
    assert repr(c.structured_input_signature) == \
        "((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})"
    assert str(c.structured_outputs) == 'Tensor("Identity:0", shape=(), dtype=string)'
    assert repr(c.structured_outputs) == "<tf.Tensor 'Identity:0' shape=() dtype=string>"
    assert f.get_concrete_function(TensorSpec([], rt.string)) is c


def test_concrete_function_nested_outputs_print_with_markers():
    def pair(x):
        return x, (x + 1, None)
    c = Function(pair).get_concrete_function(TensorSpec([2], rt.int32))
    assert c.pretty_printed_signature() == (
        "pair(x)\n  Args:\n    x: int32 Tensor, shape=(2,)\n  Returns:\n"
        "    (<1>, (<2>, <3>))\n      <1>: int32 Tensor, shape=(2,)\n"
        "      <2>: int32 Tensor, shape=(2,)\n      <3>: None")


def test_concrete_function_python_argument_checks():
    def power(a, b):
        return a * b
    c = Function(power).get_concrete_function(a=TensorSpec(None, rt.float32), b=2.0)
    assert str(c).startswith("ConcreteFunction power(a, b=2.0)\n  Args:\n"
                             "    a: float32 Tensor, shape=<unknown>")
    assert float(c(rt.constant(10.0))) == 20.0
    assert float(c(rt.constant(10.0), b=2.0)) == 20.0
    with pytest.raises(TypeError) as info:
        c(rt.constant(10.0), b=3.0)
    assert str(info.value) == ("ConcreteFunction power(a, b) was constructed with float value "
                               "2.0 in b, but was called with float value 3.0.")
    assert "got unexpected keyword arguments: b" in str(info.value.__context__)


def test_concrete_function_wrong_dtype_or_shape_is_invalid_argument():
    c = Function(lambda x: x).get_concrete_function(TensorSpec([2], rt.int32))
    with pytest.raises(InvalidArgumentError, match=r"input #0\(zero-based\) was expected to be "
                                                   r"a int32 tensor but is a float tensor"):
        c(rt.constant([1.0, 2.0]))
    with pytest.raises(InvalidArgumentError, match="expected to have shape"):
        c(rt.constant([1, 2, 3]))
    with pytest.raises(TypeError, match=r"missing required argument: x"):
        c()


def test_concrete_function_flat_call_skips_python_arguments():
    class Model:
        weight = 2.0

    def evaluate(model, x):
        return model.weight * x
    c = Function(evaluate).get_concrete_function(Model(), rt.constant(10.0))
    assert float(c(rt.constant(3.0))) == 6.0
    assert str(c).startswith("ConcreteFunction evaluate(model=<")


def test_concrete_function_graph_inputs_and_outputs():
    c = Function(lambda a, b: a * b).get_concrete_function(rt.constant(1), rt.constant(2))
    assert [t.name for t in c.inputs] == ["a:0", "b:0"]
    assert [t.name for t in c.outputs] == ["Identity:0"]
    assert [n.op for n in c.graph.nodes] == ["Placeholder", "Placeholder", "Mul", "Identity"]


def test_pretty_printed_concrete_signatures_lists_every_trace():
    def my_relu(x):
        return rt.maximum(0.0, x)
    f = Function(my_relu)
    f(rt.constant(5.5))
    f([1, -1])
    assert f.pretty_printed_concrete_signatures() == (
        "my_relu(x)\n  Args:\n    x: float32 Tensor, shape=()\n  Returns:\n"
        "    float32 Tensor, shape=()\n\nmy_relu(x=[1, -1])\n  Returns:\n"
        "    float32 Tensor, shape=(2,)")


# -- methods, nesting, recursion ---------------------------------------------------------------

def test_methods_trace_per_instance():
    class Scaler:
        def __init__(self, k):
            self.k = k

        @Function
        def scale(self, x):
            return x * self.k
    a, b = Scaler(2), Scaler(3)
    x = rt.constant(5)
    assert int(a.scale(x)) == 10 and int(b.scale(x)) == 15
    assert a.scale is a.scale
    assert a.scale.experimental_get_tracing_count() == 1
    assert Scaler.scale.experimental_get_tracing_count() == 0


def test_function_calling_function_copies_its_trace():
    inner = traced(lambda a, b: a + b)
    outer = Function(lambda x, w: inner(x * w, 1))
    assert int(outer(rt.constant(2), rt.constant(3))) == 7
    graph = outer.get_concrete_function(rt.constant(2), rt.constant(3)).graph
    assert [n.op for n in graph.nodes if n.op not in ("Placeholder", "Const")] == \
        ["Mul", "AddV2", "Identity", "Identity"]  # (inner's output Identity is copied too)
    assert inner.experimental_get_tracing_count() == 1  # TensorFlow traces the inner one


def test_recursion_with_python_values_terminates():
    calls = []

    @Function
    def countdown(n):
        if n > 0:
            calls.append(n)
            return countdown(n - 1)
        return 1
    assert int(countdown(5)) == 1
    assert calls == [5, 4, 3, 2, 1]


def test_recursion_with_the_same_argument_types_is_reported():
    @Function
    def forever(n):
        return forever(n - 1)
    with pytest.raises(FunctionRecursionError, match="forever calls itself while it is being "
                                                     "traced.*n: int32 Tensor, shape=()"):
        forever(rt.constant(5))
    assert isinstance(FunctionRecursionError("x"), RecursionError)


def test_unbounded_recursion_on_changing_python_values_is_reported():
    @Function
    def deeper(n):
        return deeper(n + 1)
    with pytest.raises(FunctionRecursionError, match="recursed too deeply"):
        deeper(0)


def test_an_error_while_tracing_leaves_no_cache_entry():
    fail = [True]

    def body(x):
        if fail[0]:
            raise ValueError("boom")
        return x
    f = Function(body)
    with pytest.raises(ValueError, match="boom"):
        f(rt.constant(1))
    assert f.experimental_get_tracing_count() == 0
    fail[0] = False
    assert int(f(rt.constant(1))) == 1


def test_run_functions_eagerly_runs_the_python_function():
    f = traced(lambda x: x + 1)
    rt.config.run_functions_eagerly(True)
    try:
        assert rt.config.functions_run_eagerly()
        assert int(f(rt.constant(1))) == 2
        assert int(f(rt.constant(1))) == 2
        assert len(f.calls) == 2 and f.experimental_get_tracing_count() == 0
    finally:
        rt.config.run_functions_eagerly(False)
    assert not rt.config.functions_run_eagerly()


def test_both_backends_agree_on_a_traced_function():
    from graph.executor import compile_graph
    f = Function(lambda x, y: rt.tanh(x * y + 1.0) - x)
    x, y = np.float32([0.5, -1.0]), np.float32([2.0, 3.0])
    c = f.get_concrete_function(rt.constant(x), rt.constant(y))
    fast = compile_graph(c.graph)(x, y)[0]
    ref = compile_graph(c.graph, backend="interpret")(x, y)[0]
    np.testing.assert_allclose(fast, ref)
    np.testing.assert_allclose(f(rt.constant(x), rt.constant(y)).numpy(), np.tanh(x * y + 1) - x,
                               rtol=1e-6)


def test_tensorflow_s_warnings_print_as_tensorflow_prints_them(tmp_path):
    # TensorFlow 2.21, logging not configured: "WARNING:tensorflow:5 out of the last 5 calls
    # to <function ...> triggered tf.function retracing. ..." on stderr; ours printed the bare
    # message. (A program of its own: pytest configures logging.)
    import subprocess
    import sys
    program = tmp_path / "retrace.py"
    program.write_text("import autograph as tf\n"
                       "f = tf.function(lambda x: x + 1)\n"
                       "for n in range(1, 7):\n"
                       "    f(tf.constant([1.0] * n))\n")
    err = subprocess.run([sys.executable, str(program)], capture_output=True, text=True,
                         check=True).stderr
    assert "WARNING:tensorflow:5 out of the last 5 calls to" in err
