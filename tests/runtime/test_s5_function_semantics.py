"""tf.function's Python-side semantics, probed against TensorFlow 2.21.

Each expected value (results, tracing counts, printed side effects, error types and the key
words of messages) was recorded from TensorFlow running the same program: this file passes
unchanged with ``import tensorflow as tf``.
"""
import collections
import dataclasses

import numpy as np
import pytest

import autograph as tf


def _count(f):
    return f.experimental_get_tracing_count()


# -- trace types -----------------------------------------------------------------------------

@dataclasses.dataclass
class _Config:  # eq=True without frozen=True: unhashable, as TensorFlow's generic type needs
    a: int


def test_unhashable_arguments_are_a_type_error():
    @tf.function
    def f(d):
        return d.a * 2
    # TensorFlow: TypeError "Could not generate a generic TraceType for DC(a=1).Please verify
    # that it is immutable/hashable. Otherwise, consider implementing the Tracing Protocol..."
    with pytest.raises(TypeError, match=r"Could not generate a generic TraceType for "
                                        r"_Config\(a=1\)\.Please verify that it is "
                                        r"immutable/hashable"):
        f(_Config(1))
    with pytest.raises(TypeError, match="Could not generate a generic TraceType for {1, 2}"):
        f({1, 2})
    assert int(tf.function(lambda s: tf.constant(len(s)))(frozenset([1, 2]))) == 2


def test_tracing_type_placeholder_value_is_what_the_function_receives():
    class Type(tf.types.experimental.TraceType):
        def __init__(self, v):
            self.v = v

        def is_subtype_of(self, other):
            return self == other

        def most_specific_common_supertype(self, others):
            return self if all(self == o for o in others) else None

        def placeholder_value(self, placeholder_context=None):
            return self.v

        def __eq__(self, other):
            return isinstance(other, Type) and other.v == self.v

        def __hash__(self):
            return hash(self.v)

    class Holder:
        def __init__(self, v):
            self.v = v

        def __tf_tracing_type__(self, context):
            return Type(self.v)

    seen = []

    @tf.function
    def f(c):
        seen.append(type(c).__name__)
        return tf.constant(c)
    # TensorFlow: the trace receives placeholder_value() (an int), once per distinct type
    assert [int(f(Holder(1))), int(f(Holder(1))), int(f(Holder(2)))] == [1, 1, 2]
    assert seen == ["int", "int"] and _count(f) == 2


def test_input_signature_converts_python_values_in_nested_structures():
    @tf.function(input_signature=[(tf.TensorSpec([None], tf.float32),
                                   {"a": tf.TensorSpec([], tf.int32)})])
    def f(t):
        return t[0] * 2.0, t[1]["a"]
    a, b = f(([1.0, 2.0], {"a": 4}))  # TensorFlow: [2., 4.] float32, 4 int32, one trace
    assert a.dtype == tf.float32 and a.numpy().tolist() == [2.0, 4.0]
    assert b.dtype == tf.int32 and int(b) == 4
    a, _ = f((tf.constant([1.0]), {"a": tf.constant(3)}))
    assert a.numpy().tolist() == [2.0] and _count(f) == 1


def test_a_named_tensor_spec_names_its_placeholder():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.int32, name="inp")])
    def f(x):
        return x
    c = f.get_concrete_function()
    # TensorFlow: ((TensorSpec(shape=(None,), dtype=tf.int32, name='inp'),), {}), ['inp:0']
    assert repr(c.structured_input_signature) == \
        "((TensorSpec(shape=(None,), dtype=tf.int32, name='inp'),), {})"
    assert [t.name for t in c.inputs] == ["inp:0"]
    g = tf.function(lambda x: x).get_concrete_function(
        tf.TensorSpec([2], tf.float32, name="myname"))
    assert [t.name for t in g.inputs] == ["myname:0"]


# -- binding calls -----------------------------------------------------------------------------

def test_binding_errors_are_tensorflows():
    @tf.function
    def f(x, y=3, *args, z, w=2, **kw):
        return x

    @tf.function
    def g(x, y=3, *, z):
        return x

    @tf.function
    def h(x):
        return x
    sig = "(x, y=<captured_default_value>, *args, z, w=<captured_default_value>, **kw)"
    cases = [  # (call, TensorFlow 2.21's message)
        (lambda: f(), "Binding inputs to tf.function failed due to `missing a required argument: "
                      f"'x'`. Received args: () and kwargs: {{}} for signature: {sig}."),
        (lambda: g(1, 2), "Binding inputs to tf.function failed due to `missing a required "
                          "argument: 'z'`. Received args: (1, 2) and kwargs: {} for signature: "
                          "(x, y=<captured_default_value>, *, z)."),
        (lambda: h(1, x=2), "Binding inputs to tf.function failed due to `multiple values for "
                            "argument 'x'`. Received args: (1,) and kwargs: {'x': 2} for "
                            "signature: (x)."),
        (lambda: h(1, 2, 3), "Binding inputs to tf.function failed due to `too many positional "
                             "arguments`. Received args: (1, 2, 3) and kwargs: {} for "
                             "signature: (x)."),
        (lambda: h(1, z=2), "Binding inputs to tf.function failed due to `got an unexpected "
                            "keyword argument 'z'`. Received args: (1,) and kwargs: {'z': 2} "
                            "for signature: (x)."),
    ]
    for call, message in cases:
        with pytest.raises(TypeError) as info:
            call()
        assert str(info.value) == message


def test_concrete_function_dtype_errors_name_dtypes_as_the_runtime_does():
    f = tf.function(lambda x: x)
    c = f.get_concrete_function(tf.TensorSpec([], tf.float64))
    # TensorFlow: "... was expected to be a double tensor but is a float tensor [Op:...]"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="was expected to be a double tensor but is a float tensor"):
        c(tf.constant(1.0))


def test_returning_an_object_names_extension_types():
    @tf.function
    def f(x):
        return object()
    with pytest.raises(TypeError, match="must return zero or more Tensors or ExtensionTypes or "
                                        "None values"):
        f(tf.constant(1))


# -- concrete functions ------------------------------------------------------------------------

def test_concrete_function_variables():
    v = tf.Variable(1.0, name="vv")
    w = tf.Variable(2.0, name="ww", trainable=False)

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x * v, lambda: x + w)
    c = f.get_concrete_function(tf.TensorSpec([], tf.float32))
    # TensorFlow: variables ['vv:0', 'ww:0'], trainable_variables ['vv:0']
    assert [x.name for x in c.variables] == ["vv:0", "ww:0"]
    assert [x.name for x in c.trainable_variables] == ["vv:0"]
    assert tf.function(lambda x: x).get_concrete_function(tf.constant(1)).variables == ()


# -- state -------------------------------------------------------------------------------------

def test_variables_created_on_the_first_trace_count_two_traces():
    class Scale:
        def __init__(self):
            self.v = None
            self.traces = 0

        @tf.function
        def __call__(self, x):
            self.traces += 1
            if self.v is None:
                self.v = tf.Variable(2.0)
            return self.v * x
    s = Scale()
    assert float(s(tf.constant(1.0))) == 2.0 and float(s(tf.constant(3.0))) == 6.0
    assert _count(s.__call__) == 2 and s.traces == 2  # TensorFlow: 2


# -- nested tf.functions -----------------------------------------------------------------------

def test_an_inner_function_is_traced_once_per_input_type():
    printed = []

    @tf.function
    def inner(x):
        printed.append("inner")
        return x * 2

    @tf.function
    def outer(x):
        printed.append("outer")
        return inner(x) + inner(x)
    assert int(outer(tf.constant(1))) == 4 and int(outer(tf.constant(2))) == 8
    assert outer(tf.constant([1])).numpy().tolist() == [4]
    # TensorFlow prints outer, inner, outer, inner; both tracing counts are 2
    assert printed == ["outer", "inner", "outer", "inner"]
    assert (_count(inner), _count(outer)) == (2, 2)


def test_an_inner_function_retraces_per_python_argument():
    printed = []

    @tf.function
    def inner(x, n):
        printed.append(n)
        return x * n

    @tf.function
    def outer(x):
        return inner(x, 2) + inner(x, 3) + inner(x, 2)
    assert int(outer(tf.constant(1))) == 7
    assert printed == [2, 3] and _count(inner) == 2  # TensorFlow: inner 2, inner 3; count 2


def test_an_inner_function_with_a_signature_is_traced_once():
    printed = []

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def inner(x):
        printed.append(x.shape.as_list())
        return tf.reduce_sum(x)

    @tf.function
    def outer(x):
        return inner(x) + inner(x * 2.0)
    assert float(outer(tf.constant([1.0, 2.0]))) == 9.0
    assert printed == [[None]] and _count(inner) == 1  # TensorFlow: one trace, shape (None,)


def test_inner_function_state_and_effects_keep_their_order():
    v = tf.Variable(0)

    @tf.function
    def inc():
        v.assign_add(1)
        return v.read_value()

    @tf.function
    def outer():
        a = inc()
        b = inc()
        return a, b, v.read_value()
    assert [int(t) for t in outer()] == [1, 2, 2]  # TensorFlow: (1, 2, 2)

    @tf.function
    def inner_random():
        return tf.random.uniform([])

    @tf.function
    def two_draws():
        return inner_random() == inner_random()
    assert not bool(two_draws())  # TensorFlow: False


def test_an_inner_function_that_creates_a_variable():
    class Inner(tf.Module):
        def __init__(self):
            super().__init__()
            self.v = None

        @tf.function
        def __call__(self, x):
            if self.v is None:
                self.v = tf.Variable(3.0)
            return x * self.v
    inner = Inner()

    @tf.function
    def outer(x):
        return inner(x) + 1.0
    assert float(outer(tf.constant(2.0))) == 7.0 and float(outer(tf.constant(3.0))) == 10.0
    assert (_count(inner.__call__), _count(outer)) == (2, 1)  # TensorFlow: (2, 1)


def test_gradients_through_inner_functions():
    @tf.function
    def square(x):
        return x * x

    @tf.function
    def inside(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = square(x) * 3.0
        return t.gradient(y, x)
    assert float(inside(tf.constant(2.0))) == 12.0  # TensorFlow: 12.0

    v = tf.Variable(2.0)

    @tf.function
    def times_v(x):
        return x * v

    @tf.function
    def outer(x):
        return times_v(x) * times_v(x)
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = outer(x)
    assert [float(g) for g in t.gradient(y, [x, v])] == [24.0, 36.0]  # TensorFlow: 24, 36


def test_an_inner_function_reading_the_callers_tensors():
    @tf.function
    def outer(x):
        y = x * 2

        @tf.function
        def inner(z):
            return z + y
        return inner(x)
    assert int(outer(tf.constant(1))) == 3  # TensorFlow: 3


def test_inner_python_results_become_tensors_in_the_caller():
    seen = []

    @tf.function
    def inner(x):
        return x, 3, None

    @tf.function
    def outer(x):
        a, b, c = inner(x)
        seen.append((isinstance(b, tf.Tensor), c))
        return a * b
    assert int(outer(tf.constant(2))) == 6
    assert seen == [(True, None)]  # TensorFlow: SymbolicTensor, None


# -- Variables as arguments: traced by type, not identity --------------------------------------

def test_variable_arguments_share_a_trace_per_dtype_shape_and_trainability():
    a, b = tf.Variable(1.0, name="aa"), tf.Variable(2.0, name="bb")
    seen = []

    @tf.function
    def f(v):
        seen.append((v is a, v is b))
        return v * 2 + a  # `a` is the argument itself while tracing with it
    # TensorFlow: one trace, [3.0, 6.0, 3.0] (the trace reads its argument where it read `a`)
    assert [float(f(a)), float(f(b)), float(f(a))] == [3.0, 6.0, 3.0]
    assert seen == [(True, False)] and _count(f) == 1
    assert f.get_concrete_function(a).variables == ()  # TensorFlow: [] (an argument)

    @tf.function
    def g(v):
        return v * 2
    counts = []
    for v in (tf.Variable(1.0), tf.Variable(2.0), tf.Variable(1.0, trainable=False),
              tf.Variable([1.0]), tf.Variable(1), tf.Variable(5.0)):
        g(v)  # (each Variable is deleted after its call: its trace stays for the next)
        counts.append(_count(g))
    assert counts == [1, 1, 2, 3, 4, 4]  # TensorFlow


def test_variable_arguments_trace_by_aliasing():
    a, b = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(v, w):
        v.assign_add(1.0)
        return w.read_value()
    # TensorFlow: 2.0, 3.0, 3.0 with two traces (f(a, a) aliases, f(b, a) does not)
    assert [float(f(a, b)), float(f(a, a)), float(f(b, a))] == [2.0, 3.0, 3.0]
    assert _count(f) == 2 and float(b) == 3.0

    @tf.function
    def total(vs):
        return vs[0] + vs[1]
    assert float(total([a, b])) == 6.0 and float(total([b, a])) == 6.0 and _count(total) == 1


def test_variable_arguments_state_gradients_and_concrete_calls():
    a, b = tf.Variable(1.0), tf.Variable(10.0)

    @tf.function
    def step(v, x):
        if x > 0:
            v.assign_add(x)
        else:
            v.assign_sub(1.0)
        return v.read_value()
    assert float(step(a, tf.constant(2.0))) == 3.0 and float(step(b, tf.constant(-1.0))) == 9.0
    assert (float(a), float(b), _count(step)) == (3.0, 9.0, 1)  # TensorFlow

    c, d = tf.Variable(1.0), tf.Variable(2.0)

    @tf.function
    def f(v, x):
        return v * v * x
    grads = []
    for v in (c, d):
        with tf.GradientTape() as tape:
            y = f(v, tf.constant(3.0))
        grads.append(float(tape.gradient(y, v)))
    assert grads == [6.0, 12.0] and _count(f) == 1  # TensorFlow

    concrete = tf.function(lambda v: v * 2).get_concrete_function(c)
    assert float(concrete(c)) == 2.0 and float(concrete(d)) == 4.0  # TensorFlow: 2.0, 4.0

    @tf.function
    def times(v, n):
        return v * n
    by_three = times.get_concrete_function(c, 3)
    assert float(by_three(d, 3)) == 6.0 and float(by_three(v=d, n=3)) == 6.0  # TensorFlow
    # TensorFlow: InvalidArgumentError "Trying to read variable with wrong dtype. Expected
    # float got int32"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Trying to read variable with wrong dtype. Expected float got int32"):
        by_three(tf.Variable(1), 3)

    @tf.function
    def inner(v):
        return v * 10

    @tf.function
    def outer(x):
        return inner(c) + inner(d) + x
    assert float(outer(tf.constant(1.0))) == 31.0 and _count(inner) == 1  # TensorFlow


def test_keyword_only_defaults_given_or_not_share_a_trace():
    @tf.function
    def f(x, *, k=2):
        return x * k
    assert [int(f(tf.constant(1))), int(f(tf.constant(1), k=2)), int(f(tf.constant(1), k=3))] \
        == [2, 2, 3]
    assert _count(f) == 2  # TensorFlow: 2


def test_concrete_function_output_dtypes_and_shapes():
    @tf.function
    def f(x):
        return {"b": x, "a": [x, 1]}
    c = f.get_concrete_function(tf.TensorSpec([], tf.int32))
    # TensorFlow: {'b': tf.int32, 'a': [tf.int32, tf.int32]}, shapes all TensorShape([])
    assert c.output_dtypes == {"b": tf.int32, "a": [tf.int32, tf.int32]}
    assert c.output_shapes == {"b": tf.TensorShape([]),
                               "a": [tf.TensorShape([]), tf.TensorShape([])]}


def test_a_function_of_a_non_callable_is_a_type_error():
    with pytest.raises(TypeError, match="^3 is not a callable object$"):  # TensorFlow's text
        tf.function(3)


def test_dict_kinds_of_arguments():
    seen = []

    @tf.function
    def f(d):
        seen.append((type(d).__name__, list(d)))
        return d
    r = f(collections.OrderedDict([("b", tf.constant(1)), ("a", tf.constant(2))]))
    # TensorFlow: the trace sees an OrderedDict ['b', 'a'] and returns one
    assert seen == [("OrderedDict", ["b", "a"])]
    assert type(r) is collections.OrderedDict and list(r) == ["b", "a"]
    counts = collections.defaultdict(int)
    counts["x"] = tf.constant(3)
    assert type(f(counts)) is dict  # TensorFlow: a defaultdict is traced as a dict


def test_variable_arguments_with_relaxed_shapes():
    a, b, c = tf.Variable(1.0), tf.Variable(2.0), tf.Variable(3.0)

    @tf.function(reduce_retracing=True)
    def f(v, x):
        return v * tf.reduce_sum(x)
    results = [float(f(a, tf.ones([1]))), float(f(b, tf.ones([2]))), float(f(c, tf.ones([3]))),
               float(f(a, tf.ones([4])))]
    assert results == [1.0, 4.0, 9.0, 4.0] and _count(f) == 2  # TensorFlow

    @tf.function
    def g(v, x):
        return v * tf.reduce_sum(x)
    g.get_concrete_function(a, tf.TensorSpec([None], tf.float32))
    assert float(g(b, tf.ones([3]))) == 6.0 and _count(g) == 1  # TensorFlow


def test_operations_by_name_and_type_as_tensorflow_names_them():
    # TensorFlow 2.21: op.type is the op's name; an unknown name is this KeyError.
    @tf.function
    def f(x):
        return tf.sin(x) * 2.0
    graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    assert [op.type for op in graph.get_operations()] == [
        "Placeholder", "Sin", "Const", "Mul", "Identity"]
    assert graph.get_operation_by_name("Sin").type == "Sin"
    with pytest.raises(KeyError, match="The name 'nope' refers to an Operation not in the graph."):
        graph.get_operation_by_name("nope")


def test_a_leaked_tensor_s_error_starts_with_tensorflow_s_words():
    leak = []

    @tf.function
    def f(x):
        leak.append(x + 1)
        return x
    f(tf.constant(1))
    with pytest.raises(TypeError, match=r"add:0.* is out of scope and cannot be used here\."):
        leak[0] + 1


def test_datasets_are_traced_by_their_element_spec(capsys):
    # TensorFlow 2.21: datasets of one element spec share a trace ("5 3 1"); another spec
    # traces again; the signature is a DatasetSpec. Ours traced every dataset object anew.
    @tf.function
    def total(ds):
        print("tracing")
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x["a"]
        return s

    def make(n):
        return tf.data.Dataset.range(n).map(lambda x: {"a": x, "b": tf.cast(x, tf.float32)})
    assert (int(total(make(5))), int(total(make(3)))) == (10, 3)
    assert total.experimental_get_tracing_count() == 1
    assert int(total(tf.data.Dataset.range(3).map(lambda x: {"a": x, "b": x}))) == 3
    assert total.experimental_get_tracing_count() == 2  # (another element spec)
    assert capsys.readouterr().out == "tracing\ntracing\n"
    signature = total.get_concrete_function(make(2)).structured_input_signature
    assert repr(signature[0][0]).startswith("DatasetSpec({'a': TensorSpec(shape=(), "
                                            "dtype=tf.int64, name=None)")
