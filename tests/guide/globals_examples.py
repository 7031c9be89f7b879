"""Guide examples that use module globals, kept in a real module so autograph can read them.

Each function runs one example verbatim; ``global`` lines make the names the
guide's notebook keeps at top level module globals here too.
"""
import autograph as tf
from tests.guide.helpers import assert_raises

x = None
foo = None


def leaking_tensors():
    global x
    x = None

    @tf.function
    def leaky_function(a):
        global x
        x = a + 1  # Bad - leaks local tensor
        return a + 2

    correct_a = leaky_function(tf.constant(1))

    print(correct_a.numpy())  # Good - value obtained from function's returns
    try:
        x.numpy()  # Bad - tensor leaked from inside the function, cannot be used here
    except AttributeError as expected:
        print(expected)

    @tf.function
    def leaky_function(a):
        global x
        x = a + 1  # Bad - leaks local tensor
        return x  # Good - uses local tensor

    correct_a = leaky_function(tf.constant(1))

    print(correct_a.numpy())  # Good - value obtained from function's returns
    try:
        x.numpy()  # Bad - tensor leaked from inside the function, cannot be used here
    except AttributeError as expected:
        print(expected)

    @tf.function
    def captures_leaked_tensor(b):
        b += x  # Bad - `x` is leaked from `leaky_function`
        return b

    with assert_raises(TypeError):
        captures_leaked_tensor(tf.constant(2))


def python_globals():
    global foo

    @tf.function
    def buggy_add():
        return 1 + foo

    @tf.function
    def recommended_add(foo):
        return 1 + foo

    foo = 1
    print("Buggy:", buggy_add())
    print("Correct:", recommended_add(foo))
    print("Updating the value of `foo` to 100!")
    foo = 100
    print("Buggy:", buggy_add())  # Did not change!
    print("Correct:", recommended_add(foo))

    @tf.function
    def variable_add():
        return 1 + foo

    foo = tf.Variable(1)
    print("Variable:", variable_add())
    print("Updating the value of `foo` to 100!")
    foo.assign(100)
    print("Variable:", variable_add())
