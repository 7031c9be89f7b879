"""The tf.function API page's examples (without Keras and tf.compat.v1)."""
import numpy as np
import pytest

import autograph as tf



def f(x, y):
    return tf.reduce_mean(tf.multiply(x ** 2, 3) + y)


def test_example_usage():
    g = tf.function(f)

    x = tf.constant([[2.0, 3.0]])
    y = tf.constant([[3.0, -2.0]])

    # `f` and `g` will return the same value, but `g` will be executed as a
    # TensorFlow graph.
    assert f(x, y).numpy() == g(x, y).numpy()

    # Tensors and tf.Variables used by the Python function are captured in the
    # graph.
    @tf.function
    def h():
        return f(x, y)

    assert (h().numpy() == f(x, y).numpy()).all()


def test_data_dependent_control_flow():
    @tf.function
    def g(x):
        if tf.reduce_sum(x) > 0:
            return x * x
        else:
            return -x // 2

    assert g(tf.constant([1, 2])).numpy().tolist() == [1, 4]
    assert g(tf.constant([-3, -2])).numpy().tolist() == [1, 1]
    assert g.experimental_get_tracing_count() == 1


def test_side_effects_with_py_function():
    v = tf.Variable(0)
    seen = []

    @tf.function
    def g(x):
        for i in x:
            v.assign(i)                                          # Works
            tf.py_function(lambda i: seen.append(int(i)), [i], [])  # Works
        return v.read_value()

    assert int(g(tf.constant([1, 2, 3]))) == 3
    assert int(g(tf.constant([4, 5, 6]))) == 6
    assert seen == [1, 2, 3, 4, 5, 6]


def test_python_numbers_retrace_tensors_do_not():
    g = tf.function(lambda x: x + 1)
    g(2)
    g(3)
    assert g.experimental_get_tracing_count() == 2
    h = tf.function(lambda x: x + 1)
    h(tf.constant(2))
    h(tf.constant(3))
    assert h.experimental_get_tracing_count() == 1


def test_referencing_variables():
    c = tf.Variable(0)

    @tf.function
    def f(x):
        c.assign_add(1)
        return x + tf.cast(c, tf.float32)

    assert int(c) == 0
    assert f(1.0) == 2.0
    assert int(c) == 1
    assert f(1.0) == 3.0
    assert int(c) == 2


def test_methods_use_their_own_variables():
    class Dense(object):
        def __init__(self):
            self.W = tf.Variable(tf.random.uniform((10, 10)))
            self.b = tf.Variable(tf.zeros(10))

        @tf.function
        def compute(self, x):
            return tf.matmul(x, self.W) + self.b

    d1 = Dense()
    d2 = Dense()
    x = tf.random.uniform((10, 10))
    # d1 and d2 are using distinct variables
    assert not (d1.compute(x).numpy() == d2.compute(x).numpy()).all()


def test_input_signatures():
    @tf.function
    def f(x):
        return x + 1

    scalar = tf.constant(1.0)
    vector = tf.constant([1.0, 1.0])
    matrix = tf.constant([[3.0]])

    f(scalar)
    f(vector)
    f(matrix)
    assert f.experimental_get_tracing_count() == 3

    @tf.function(input_signature=[tf.TensorSpec(shape=None, dtype=tf.float32)])
    def f(x):
        return x + 1

    f(scalar)
    f(vector)
    f(matrix)
    assert f.experimental_get_tracing_count() == 1
    assert f(2.0).numpy() == 3.0  # converted to the specified TensorSpec


def test_numpy_values_are_constants_in_the_graph():
    def add_noise():
        return tf.eye(5) + np.random.randn(5, 5).astype(np.float32)

    traced = tf.function(add_noise)
    assert not np.array_equal(add_noise().numpy(), add_noise().numpy())
    np.testing.assert_array_equal(traced().numpy(), traced().numpy())


def test_invalid_input_signature_is_a_type_error():
    with pytest.raises(TypeError):
        tf.function(lambda x: x, input_signature=tf.TensorSpec(None, tf.float32))
