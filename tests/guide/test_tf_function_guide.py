"""The tf.function guide ("Better performance with tf.function"), both editions, without Keras.

Each test runs one example as the guide writes it, with ``import autograph as tf``,
and compares what it prints with what the guide shows.
"""
import gc
import textwrap

import numpy as np
import pytest

import autograph as tf
from tests.guide import globals_examples
from tests.guide.helpers import assert_raises, caught



def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


# -- Basics -------------------------------------------------------------------------------------

def test_usage_add_and_dense_layer():
    @tf.function  # The decorator converts `add` into a `Function`.
    def add(a, b):
        return a + b

    assert repr(add(tf.ones([2, 2]), tf.ones([2, 2]))) == expect("""
        <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
        array([[2., 2.],
               [2., 2.]], dtype=float32)>""")

    @tf.function
    def dense_layer(x, w, b):
        return add(tf.matmul(x, w), b)

    assert repr(dense_layer(tf.ones([3, 2]), tf.ones([2, 2]), tf.ones([2]))) == expect("""
        <tf.Tensor: shape=(3, 2), dtype=float32, numpy=
        array([[3., 3.],
               [3., 3.],
               [3., 3.]], dtype=float32)>""")


# -- Tracing ------------------------------------------------------------------------------------

@pytest.fixture
def double():
    @tf.function
    def double(a):
        print("Tracing with", a)
        return a + a
    return double


def test_what_is_tracing(double, out):
    print(double(tf.constant(1)))
    print()
    print(double(tf.constant(1.1)))
    print()
    print(double(tf.constant("a")))
    print()
    assert out() == expect("""
        Tracing with Tensor("a:0", shape=(), dtype=int32)
        tf.Tensor(2, shape=(), dtype=int32)

        Tracing with Tensor("a:0", shape=(), dtype=float32)
        tf.Tensor(2.2, shape=(), dtype=float32)

        Tracing with Tensor("a:0", shape=(), dtype=string)
        tf.Tensor(b'aa', shape=(), dtype=string)

        """)
    # This doesn't print 'Tracing with ...'
    print(double(tf.constant("b")))
    assert out() == "tf.Tensor(b'bb', shape=(), dtype=string)\n"
    print(double.pretty_printed_concrete_signatures())
    assert out() == expect("""
        double(a)
          Args:
            a: int32 Tensor, shape=()
          Returns:
            int32 Tensor, shape=()

        double(a)
          Args:
            a: float32 Tensor, shape=()
          Returns:
            float32 Tensor, shape=()

        double(a)
          Args:
            a: string Tensor, shape=()
          Returns:
            string Tensor, shape=()
        """)


def test_input_signature(out):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def next_collatz(x):
        print("Tracing with", x)
        return tf.where(x % 2 == 0, x // 2, 3 * x + 1)

    print(next_collatz(tf.constant([1, 2])))
    # You specified a 1-D tensor in the input signature, so this should fail.
    with assert_raises(ValueError):
        next_collatz(tf.constant([[1, 2], [3, 4]]))
    first = caught[-1]
    # You specified an int32 dtype in the input signature, so this should fail.
    with assert_raises(ValueError):
        next_collatz(tf.constant([1.0, 2.0]))
    second = caught[-1]
    assert out() == expect("""
        Tracing with Tensor("x:0", shape=(None,), dtype=int32)
        tf.Tensor([4 1], shape=(2,), dtype=int32)
        Caught expected exception 
          <class 'ValueError'>:
        Caught expected exception 
          <class 'ValueError'>:
        """)
    assert str(first) == expect("""
        Python inputs incompatible with input_signature:
          inputs: (
            tf.Tensor(
        [[1 2]
         [3 4]], shape=(2, 2), dtype=int32))
          input_signature: (
            TensorSpec(shape=(None,), dtype=tf.int32, name=None)).""")
    assert str(second) == expect("""
        Python inputs incompatible with input_signature:
          inputs: (
            tf.Tensor([1. 2.], shape=(2,), dtype=float32))
          input_signature: (
            TensorSpec(shape=(None,), dtype=tf.int32, name=None)).""")
    assert isinstance(first, TypeError)  # as TensorFlow 2.21 raises it


def test_unknown_dimensions_for_flexibility(out):
    @tf.function(input_signature=(tf.TensorSpec(shape=[None], dtype=tf.int32),))
    def g(x):
        print('Tracing with', x)
        return x

    # No retrace!
    print(g(tf.constant([1, 2, 3])))
    print(g(tf.constant([1, 2, 3, 4, 5])))
    assert out() == expect("""
        Tracing with Tensor("x:0", shape=(None,), dtype=int32)
        tf.Tensor([1 2 3], shape=(3,), dtype=int32)
        tf.Tensor([1 2 3 4 5], shape=(5,), dtype=int32)
        """)


def _train():
    def train_one_step():
        pass

    @tf.function
    def train(num_steps):
        print("Tracing with num_steps = ", num_steps)
        tf.print("Executing with num_steps = ", num_steps)
        for _ in tf.range(num_steps):
            train_one_step()
    return train


def test_python_arguments_retrace(out):
    train = _train()
    print("Retracing occurs for different Python arguments.")
    train(num_steps=10)
    train(num_steps=20)
    assert out() == expect("""
        Retracing occurs for different Python arguments.
        Tracing with num_steps =  10
        Executing with num_steps =  10
        Tracing with num_steps =  20
        Executing with num_steps =  20
        """)


def test_tensor_arguments_reuse_traces(out):
    train = _train()
    print("Traces are reused for Tensor arguments.")
    train(num_steps=tf.constant(10))
    train(num_steps=tf.constant(20))
    assert out() == expect("""
        Traces are reused for Tensor arguments.
        Tracing with num_steps =  Tensor("num_steps:0", shape=(), dtype=int32)
        Executing with num_steps =  10
        Executing with num_steps =  20
        """)


def test_new_function_objects_retrace(out):
    def f():
        print('Tracing!')
        tf.print('Executing')

    tf.function(f)()
    tf.function(f)()
    assert out() == "Tracing!\nExecuting\nTracing!\nExecuting\n"


def test_tracing_protocol(out):
    @tf.function
    def get_mixed_flavor(fruit_a, fruit_b):
        return fruit_a.flavor + fruit_b.flavor

    class Fruit:
        flavor = tf.constant([0, 0])

    class Apple(Fruit):
        flavor = tf.constant([1, 2])

    class Mango(Fruit):
        flavor = tf.constant([3, 4])

    get_mixed_flavor(Apple(), Mango())  # Traces a new concrete function
    gc.collect()
    get_mixed_flavor(Apple(), Mango())  # Traces a new concrete function again
    assert get_mixed_flavor.experimental_get_tracing_count() == 2

    class FruitTraceType(tf.types.experimental.TraceType):
        def __init__(self, fruit_type):
            self.fruit_type = fruit_type

        def is_subtype_of(self, other):
            return (type(other) is FruitTraceType and
                    self.fruit_type is other.fruit_type)

        def most_specific_common_supertype(self, others):
            return self if all(self == other for other in others) else None

        def __eq__(self, other):
            return type(other) is FruitTraceType and self.fruit_type == other.fruit_type

        def __hash__(self):
            return hash(self.fruit_type)

    class FruitWithTraceType:

        def __tf_tracing_type__(self, context):
            return FruitTraceType(type(self))

    class AppleWithTraceType(FruitWithTraceType):
        flavor = tf.constant([1, 2])

    class MangoWithTraceType(FruitWithTraceType):
        flavor = tf.constant([3, 4])

    # Now if you try calling it again:
    get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())  # Traces a new concrete function
    result = get_mixed_flavor(AppleWithTraceType(), MangoWithTraceType())  # Re-uses the trace
    assert get_mixed_flavor.experimental_get_tracing_count() == 3
    assert repr(result) == \
        "<tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>"


# -- Obtaining concrete functions -----------------------------------------------------------------

def test_obtaining_concrete_functions(double, out):
    double(tf.constant("a"))
    out()
    print("Obtaining concrete trace")
    double_strings = double.get_concrete_function(tf.constant("a"))
    print("Executing traced function")
    print(double_strings(tf.constant("a")))
    print(double_strings(a=tf.constant("b")))
    # You can also call get_concrete_function on an InputSpec
    double_strings_from_inputspec = double.get_concrete_function(
        tf.TensorSpec(shape=[], dtype=tf.string))
    print(double_strings_from_inputspec(tf.constant("c")))
    print(double_strings)
    print(double_strings.structured_input_signature)
    print(double_strings.structured_outputs)
    assert out() == expect("""
        Obtaining concrete trace
        Executing traced function
        tf.Tensor(b'aa', shape=(), dtype=string)
        tf.Tensor(b'bb', shape=(), dtype=string)
        tf.Tensor(b'cc', shape=(), dtype=string)
        ConcreteFunction double(a)
          Args:
            a: string Tensor, shape=()
          Returns:
            string Tensor, shape=()
        ((TensorSpec(shape=(), dtype=tf.string, name='a'),), {})
        Tensor("Identity:0", shape=(), dtype=string)
        """)

    with assert_raises(tf.errors.InvalidArgumentError):
        double_strings(tf.constant(1))
    assert out().startswith("Caught expected exception \n  <class '")
    assert type(caught[-1]).__name__ == "InvalidArgumentError"
    assert str(caught[-1]).startswith("cannot compute __inference_double_")
    assert "as input #0(zero-based) was expected to be a string tensor but is a int32 tensor " \
        "[Op:__inference_double_" in str(caught[-1])

    graph = double_strings.graph
    for node in graph.as_graph_def().node:
        print(f'{node.input} -> {node.name}')
    assert out() == "[] -> a\n['a', 'a'] -> add\n['add'] -> Identity\n"


def test_python_arguments_in_concrete_signatures(out):
    @tf.function
    def pow(a, b):
        return a ** b

    square = pow.get_concrete_function(a=tf.TensorSpec(None, tf.float32), b=2)
    print(square)
    assert out() == expect("""
        ConcreteFunction pow(a, b=2)
          Args:
            a: float32 Tensor, shape=<unknown>
          Returns:
            float32 Tensor, shape=<unknown>
        """)
    assert square(tf.constant(10.0)) == 100

    with assert_raises(TypeError):
        square(tf.constant(10.0), b=3)
    assert out() == "Caught expected exception \n  <class 'TypeError'>:\n"
    assert str(caught[-1]) == ("ConcreteFunction pow(a, b) was constructed with int value 2 in b, "
                               "but was called with int value 3.")
    assert str(caught[-1].__context__) == "pow(a) got unexpected keyword arguments: b."


# -- Debugging and AutoGraph --------------------------------------------------------------------

def test_simple_loop(out):
    @tf.function
    def f(x):
        while tf.reduce_sum(x) > 1:
            tf.print(x)
            x = tf.tanh(x)
        return x

    start = np.float32([0.666458249, 0.713946581, 0.723879576, 0.330758929, 0.184087753])
    result = f(tf.constant(start))
    printed = out().splitlines()
    assert len(printed) == 28 and printed[0].startswith("[0.666458249 0.713946581")
    np.testing.assert_allclose(result.numpy(), [0.21746822, 0.21890487, 0.21917202, 0.18925412,
                                                0.14400077], rtol=1e-5)


def test_fizzbuzz(out):
    @tf.function
    def fizzbuzz(n):
        for i in tf.range(1, n + 1):
            print('Tracing for loop')
            if i % 15 == 0:
                print('Tracing fizzbuzz branch')
                tf.print('fizzbuzz')
            elif i % 3 == 0:
                print('Tracing fizz branch')
                tf.print('fizz')
            elif i % 5 == 0:
                print('Tracing buzz branch')
                tf.print('buzz')
            else:
                print('Tracing default branch')
                tf.print(i)

    fizzbuzz(tf.constant(5))
    fizzbuzz(tf.constant(20))
    assert out() == expect("""
        Tracing for loop
        Tracing fizzbuzz branch
        Tracing fizz branch
        Tracing buzz branch
        Tracing default branch
        1
        2
        fizz
        4
        buzz
        1
        2
        fizz
        4
        buzz
        fizz
        7
        8
        fizz
        buzz
        11
        fizz
        13
        14
        fizzbuzz
        16
        17
        fizz
        19
        buzz
        """)


def test_looping_over_python_data_unrolls(out):
    def measure_graph_size(f, *args):
        g = f.get_concrete_function(*args).graph
        print("{}({}) contains {} nodes in its graph".format(
            f.__name__, ', '.join(map(str, args)), len(g.as_graph_def().node)))

    @tf.function
    def train(dataset):
        loss = tf.constant(0)
        for x, y in dataset:
            loss += tf.abs(y - x)  # Some dummy computation.
        return loss

    small_data = [(1, 1)] * 3
    big_data = [(1, 1)] * 10
    measure_graph_size(train, small_data)
    measure_graph_size(train, big_data)
    assert out() == expect("""
        train([(1, 1), (1, 1), (1, 1)]) contains 11 nodes in its graph
        train([(1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1), (1, 1)]) contains 32 nodes in its graph
        """)  # noqa: E501


def test_accumulating_values_in_a_loop():
    batch_size = 2
    seq_len = 3
    feature_size = 4

    def rnn_step(inp, state):
        return inp + state

    @tf.function
    def dynamic_rnn(rnn_step, input_data, initial_state):
        # [batch, time, features] -> [time, batch, features]
        input_data = tf.transpose(input_data, [1, 0, 2])
        max_seq_len = input_data.shape[0]

        states = tf.TensorArray(tf.float32, size=max_seq_len)
        state = initial_state
        for i in tf.range(max_seq_len):
            state = rnn_step(input_data[i], state)
            states = states.write(i, state)
        return tf.transpose(states.stack(), [1, 0, 2])

    data = np.random.rand(batch_size, seq_len, feature_size).astype(np.float32)
    result = dynamic_rnn(rnn_step, tf.constant(data), tf.zeros([batch_size, feature_size]))
    assert result.shape == (2, 3, 4)
    np.testing.assert_allclose(result.numpy(), np.cumsum(data, axis=1), rtol=1e-6)


# -- Limitations ----------------------------------------------------------------------------------

def test_executing_python_side_effects(out):
    @tf.function
    def f(x):
        print("Traced with", x)
        tf.print("Executed with", x)

    f(1)
    f(1)
    f(2)
    assert out() == expect("""
        Traced with 1
        Executed with 1
        Executed with 1
        Traced with 2
        Executed with 2
        """)


def test_changing_python_globals_and_free_variables(out):
    external_list = []

    @tf.function
    def side_effect(x):
        print('Python side effect')
        external_list.append(x)

    side_effect(1)
    side_effect(1)
    side_effect(1)
    # The list append only happened once!
    assert len(external_list) == 1
    assert out() == "Python side effect\n"


def test_python_counter_guarding_a_variable(out):
    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                # A python side-effect
                self.counter += 1
                self.v.assign_add(1)

            return self.v

    m = Model()
    for n in range(3):
        print(m().numpy())  # prints 1, 2, 3
    assert out() == "1\n2\n3\n"

    class Model(tf.Module):
        def __init__(self):
            self.v = tf.Variable(0)
            self.counter = 0

        @tf.function
        def __call__(self):
            if self.counter == 0:
                # Lifts ops out of function-building graphs
                with tf.init_scope():
                    self.counter += 1
                    self.v.assign_add(1)

            return self.v

    m = Model()
    for n in range(3):
        print(m().numpy())  # prints 1, 1, 1
    assert out() == "1\n1\n1\n"


def test_python_iterators(out):
    @tf.function
    def buggy_consume_next(iterator):
        tf.print("Value:", next(iterator))

    iterator = iter([1, 2, 3])
    buggy_consume_next(iterator)
    # This reuses the first value from the iterator, rather than consuming the next value.
    buggy_consume_next(iterator)
    buggy_consume_next(iterator)
    assert out() == "Value: 1\nValue: 1\nValue: 1\n"


def test_leaking_tensors(out):
    globals_examples.leaking_tensors()
    assert out() == expect("""
        3
        'Tensor' object has no attribute 'numpy'
        2
        'Tensor' object has no attribute 'numpy'
        Caught expected exception 
          <class 'TypeError'>:
        """)
    assert "'leaky_function'" in str(caught[-1]) and "add:0" in str(caught[-1])


def test_recursive_functions_are_reported(out):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            return recursive_fn(n - 1)
        else:
            return 1

    with assert_raises(Exception):
        recursive_fn(tf.constant(5))  # Bad - maximum recursion error.
    assert out() == "Caught expected exception \n  <class 'Exception'>:\n"
    assert isinstance(caught[-1], RecursionError)
    assert "recursive_fn calls itself while it is being traced" in str(caught[-1])


def test_recursion_on_python_values_traces_many_times(out):
    @tf.function
    def recursive_fn(n):
        if n > 0:
            print('tracing')
            return recursive_fn(n - 1)
        else:
            return 1

    result = recursive_fn(5)  # Warning - multiple tracings
    assert out() == "tracing\n" * 5
    assert repr(result) == "<tf.Tensor: shape=(), dtype=int32, numpy=1>"


# -- Known issues --------------------------------------------------------------------------------

def test_depending_on_python_globals(out):
    globals_examples.python_globals()
    assert out() == expect("""
        Buggy: tf.Tensor(2, shape=(), dtype=int32)
        Correct: tf.Tensor(2, shape=(), dtype=int32)
        Updating the value of `foo` to 100!
        Buggy: tf.Tensor(2, shape=(), dtype=int32)
        Correct: tf.Tensor(101, shape=(), dtype=int32)
        Variable: tf.Tensor(2, shape=(), dtype=int32)
        Updating the value of `foo` to 100!
        Variable: tf.Tensor(101, shape=(), dtype=int32)
        """)


def test_depending_on_python_objects(out):
    class SimpleModel(tf.Module):
        def __init__(self):
            # These values are *not* tf.Variables.
            self.bias = 0.
            self.weight = 2.

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    simple_model = SimpleModel()
    x = tf.constant(10.)
    print(evaluate(simple_model, x))
    print("Adding bias!")
    simple_model.bias += 5.0
    print(evaluate(simple_model, x))  # Didn't change :(

    def evaluate(model, x):
        return model.weight * x + model.bias

    new_model = SimpleModel()
    evaluate_no_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    # Don't pass in `new_model`, `Function` already captured its state during tracing.
    print(evaluate_no_bias(x))
    print("Adding bias!")
    new_model.bias += 5.0
    # Create new Function and ConcreteFunction since you modified new_model.
    evaluate_with_bias = tf.function(evaluate).get_concrete_function(new_model, x)
    print(evaluate_with_bias(x))  # Don't pass in `new_model`.

    class BetterModel:

        def __init__(self):
            self.bias = tf.Variable(0.)
            self.weight = tf.Variable(2.)

    @tf.function
    def evaluate(model, x):
        return model.weight * x + model.bias

    better_model = BetterModel()
    print(evaluate(better_model, x))
    print("Adding bias!")
    better_model.bias.assign_add(5.0)  # Note: instead of better_model.bias += 5
    print(evaluate(better_model, x))  # This works!
    assert out() == expect("""
        tf.Tensor(20.0, shape=(), dtype=float32)
        Adding bias!
        tf.Tensor(20.0, shape=(), dtype=float32)
        tf.Tensor(20.0, shape=(), dtype=float32)
        Adding bias!
        tf.Tensor(25.0, shape=(), dtype=float32)
        tf.Tensor(20.0, shape=(), dtype=float32)
        Adding bias!
        tf.Tensor(25.0, shape=(), dtype=float32)
        """)


def test_creating_variables(out):
    @tf.function
    def f(x):
        v = tf.Variable(1.0)
        return v

    with assert_raises(ValueError):
        f(1.0)
    assert out() == "Caught expected exception \n  <class 'ValueError'>:\n"
    assert isinstance(caught[-1], ValueError)
    assert (
        "tf.function only supports singleton tf.Variables created on the first call. "
        "Make sure the tf.Variable is only created once or created outside tf.function. See "
        "https://www.tensorflow.org/guide/function#creating_tfvariables for more information."
    ) in str(caught[-1])

    class Count(tf.Module):
        def __init__(self):
            self.count = None

        @tf.function
        def __call__(self):
            if self.count is None:
                self.count = tf.Variable(0)
            return self.count.assign_add(1)

    c = Count()
    print(c())
    print(c())
    assert out() == "tf.Tensor(1, shape=(), dtype=int32)\ntf.Tensor(2, shape=(), dtype=int32)\n"


def test_debugging_with_run_functions_eagerly(out):
    @tf.function
    def f(x):
        print("Python print")
        return x + 1

    tf.config.run_functions_eagerly(True)
    try:
        f(tf.constant(1))
        f(tf.constant(1))
    finally:
        tf.config.run_functions_eagerly(False)
    f(tf.constant(1))
    f(tf.constant(1))
    assert out() == "Python print\n" * 3
