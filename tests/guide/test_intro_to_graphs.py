"""The "Introduction to graphs and tf.function" guide, with ``import autograph as tf``."""
import textwrap

import numpy as np
import pytest

import autograph as tf



def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_using_graphs():
    # Define a Python function.
    def a_regular_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    # `a_function_that_uses_a_graph` is a TensorFlow `Function`.
    a_function_that_uses_a_graph = tf.function(a_regular_function)

    # Make some tensors.
    x1 = tf.constant([[1.0, 2.0]])
    y1 = tf.constant([[2.0], [3.0]])
    b1 = tf.constant(4.0)

    orig_value = a_regular_function(x1, y1, b1).numpy()
    # Call a `Function` like a Python function.
    tf_function_value = a_function_that_uses_a_graph(x1, y1, b1).numpy()
    assert (orig_value == tf_function_value)


def test_function_applies_to_inner_functions():
    def inner_function(x, y, b):
        x = tf.matmul(x, y)
        x = x + b
        return x

    # Use the decorator to make `outer_function` a `Function`.
    @tf.function
    def outer_function(x):
        y = tf.constant([[2.0], [3.0]])
        b = tf.constant(4.0)

        return inner_function(x, y, b)

    # Note that the callable will create a graph that
    # includes `inner_function` as well as `outer_function`.
    assert repr(outer_function(tf.constant([[1.0, 2.0]])).numpy()) == \
        "array([[12.]], dtype=float32)"


def test_converting_python_functions_to_graphs(out):
    def simple_relu(x):
        if tf.greater(x, 0):
            return x
        else:
            return 0

    # `tf_simple_relu` is a TensorFlow `Function` that wraps `simple_relu`.
    tf_simple_relu = tf.function(simple_relu)

    print("First branch, with graph:", tf_simple_relu(tf.constant(1)).numpy())
    print("Second branch, with graph:", tf_simple_relu(tf.constant(-1)).numpy())
    assert out() == "First branch, with graph: 1\nSecond branch, with graph: 0\n"
    graph = tf_simple_relu.get_concrete_function(tf.constant(1)).graph
    assert [n.name for n in graph.as_graph_def().node][:3] == ["x", "Greater/y", "Greater"]


def test_polymorphism_one_function_many_graphs(out):
    @tf.function
    def my_relu(x):
        return tf.maximum(0., x)

    # `my_relu` creates new graphs as it observes more signatures.
    print(my_relu(tf.constant(5.5)))
    print(my_relu([1, -1]))
    print(my_relu(tf.constant([3., -3.])))
    assert out() == expect("""
        tf.Tensor(5.5, shape=(), dtype=float32)
        tf.Tensor([1. 0.], shape=(2,), dtype=float32)
        tf.Tensor([3. 0.], shape=(2,), dtype=float32)
        """)
    # These two calls do *not* create new graphs.
    print(my_relu(tf.constant(-2.5)))  # Signature matches `tf.constant(5.5)`.
    print(my_relu(tf.constant([-1., 1.])))  # Signature matches `tf.constant([3., -3.])`.
    assert out() == expect("""
        tf.Tensor(0.0, shape=(), dtype=float32)
        tf.Tensor([0. 1.], shape=(2,), dtype=float32)
        """)
    assert my_relu.experimental_get_tracing_count() == 3
    # There are three `ConcreteFunction`s (one for each graph) in `my_relu`.
    # The `ConcreteFunction` also knows the return type and shape!
    print(my_relu.pretty_printed_concrete_signatures())
    assert out() == expect("""
        my_relu(x)
          Args:
            x: float32 Tensor, shape=()
          Returns:
            float32 Tensor, shape=()

        my_relu(x=[1, -1])
          Returns:
            float32 Tensor, shape=(2,)

        my_relu(x)
          Args:
            x: float32 Tensor, shape=(2,)
          Returns:
            float32 Tensor, shape=(2,)
        """)


def test_graph_execution_vs_eager_execution(out):
    @tf.function
    def get_MSE(y_true, y_pred):
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    y_true = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    y_pred = tf.random.uniform([5], maxval=10, dtype=tf.int32)
    expected = int(np.mean((y_true.numpy() - y_pred.numpy()) ** 2))
    graph_result = get_MSE(y_true, y_pred)
    assert graph_result.dtype == tf.int32 and int(graph_result) == expected

    tf.config.run_functions_eagerly(True)
    try:
        assert int(get_MSE(y_true, y_pred)) == expected
    finally:
        # Don't forget to set it back when you are done.
        tf.config.run_functions_eagerly(False)

    @tf.function
    def get_MSE(y_true, y_pred):
        print("Calculating MSE!")
        sq_diff = tf.pow(y_true - y_pred, 2)
        return tf.reduce_mean(sq_diff)

    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    error = get_MSE(y_true, y_pred)
    assert out() == "Calculating MSE!\n"

    # Now, globally set everything to run eagerly to force eager execution.
    tf.config.run_functions_eagerly(True)
    try:
        # Observe what is printed below.
        error = get_MSE(y_true, y_pred)
        error = get_MSE(y_true, y_pred)
        error = get_MSE(y_true, y_pred)
    finally:
        tf.config.run_functions_eagerly(False)
    assert int(error) == expected
    assert out() == "Calculating MSE!\nCalculating MSE!\nCalculating MSE!\n"


def test_non_strict_execution(out):
    def unused_return_eager(x):
        # Get index 1 will fail when `len(x) == 1`
        tf.gather(x, [1])  # unused
        return x

    try:
        print(unused_return_eager(tf.constant([0.0])))
    except tf.errors.InvalidArgumentError as e:
        # All operations are run during eager execution so an error is raised.
        print(f'{type(e).__name__}: {e}')
    assert out().startswith("InvalidArgumentError: ")

    @tf.function
    def unused_return_graph(x):
        tf.gather(x, [1])  # unused
        return x

    # Only needed operations are run during graph exection. The error is not raised.
    print(unused_return_graph(tf.constant([0.0])))
    assert out() == "tf.Tensor([0.], shape=(1,), dtype=float32)\n"


def test_seeing_the_speed_up():
    x = tf.random.uniform(shape=[10, 10], minval=-1, maxval=2, dtype=tf.dtypes.int32
                          if hasattr(tf, "dtypes") else tf.int32)

    def power(x, y):
        result = tf.eye(10, dtype=tf.int32)
        for _ in range(y):
            result = tf.matmul(x, result)
        return result

    power_as_graph = tf.function(power)
    # (the speed itself is measured in benchmarks/, never asserted in a test)
    np.testing.assert_array_equal(power(x, 100).numpy(), power_as_graph(x, 100).numpy())


def test_when_is_a_function_tracing(out):
    @tf.function
    def a_function_with_python_side_effect(x):
        print("Tracing!")  # An eager-only side effect.
        return x * x + tf.constant(2)

    # This is traced the first time.
    print(a_function_with_python_side_effect(tf.constant(2)))
    # The second time through, you won't see the side effect.
    print(a_function_with_python_side_effect(tf.constant(3)))
    # This retraces each time the Python argument changes,
    # as a Python argument could be an epoch count or other
    # hyperparameter.
    print(a_function_with_python_side_effect(2))
    print(a_function_with_python_side_effect(3))
    assert out() == expect("""
        Tracing!
        tf.Tensor(6, shape=(), dtype=int32)
        tf.Tensor(11, shape=(), dtype=int32)
        Tracing!
        tf.Tensor(6, shape=(), dtype=int32)
        Tracing!
        tf.Tensor(11, shape=(), dtype=int32)
        """)
