"""`del` of a variable a loop carries: Python's semantics on Python loops (the next
iteration's read raises UnboundLocalError), staged when it gets a new value, and a clear
error when a staged loop would carry no value. Conversion used to refuse any such loop."""
import pytest

import autograph as tf
from autograph.impl.api import convert


def deleted_then_reassigned(x, n):
    z = x
    for i in range(n):
        z = z + 1
        del z
        z = x * 2
    return z


def deleted_then_read_next_iteration(x, n):
    z = x
    for i in range(n):
        z = z + 1
        del z
    return 0


def deleted_in_while(x, n):
    z = x
    i = 0
    while i < n:
        i += 1
        if i > 1:
            del z
            z = i * 10
    return z


@pytest.mark.parametrize("fn", [deleted_then_reassigned, deleted_in_while])
@pytest.mark.parametrize("n", [0, 1, 3])
def test_python_loops_keep_pythons_result(fn, n):
    assert convert(fn)(5, n) == fn(5, n)
    assert int(tf.function(fn)(5, n)) == fn(5, n)


def test_a_read_after_del_in_the_previous_iteration_is_unbound_local_error():
    assert convert(deleted_then_read_next_iteration)(5, 1) == 0
    with pytest.raises(UnboundLocalError):
        deleted_then_read_next_iteration(5, 2)
    with pytest.raises(UnboundLocalError):
        convert(deleted_then_read_next_iteration)(5, 2)


@pytest.mark.parametrize("fn", [deleted_then_reassigned, deleted_in_while])
def test_staged_loops_with_a_deleted_and_reassigned_variable(fn):
    for n in (0, 1, 3):
        assert int(tf.function(fn)(tf.constant(5), tf.constant(n))) == fn(5, n)


def test_a_staged_loop_carrying_a_deleted_variable_is_a_clear_value_error():
    def staged(x, n):
        z = x
        for i in tf.range(n):
            z = z + 1
            del z
        return x
    with pytest.raises(ValueError, match=r"'z' has no value at the end of an iteration of the "
                                         r"staged for loop at .*test_loops_del_s9.py"):
        tf.function(staged)(tf.constant(1), tf.constant(3))
