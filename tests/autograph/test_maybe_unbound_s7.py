"""State that only some paths bind (an ``except`` handler) before staged control flow.

Found by diffing generated programs against TensorFlow 2.21: the staged statement's
``get_state`` read the unbound variable and raised a NameError naming no line of the
program (TensorFlow 2.21 raises that NameError too for ``_handler_binds``; plain Python
runs it, and so does the converted function now).
"""
import pytest

import autograph as tf
from autograph.impl.api import convert


def _handler_binds(x, c):
    try:
        if c:
            raise ValueError()
    except ValueError:
        y = 1
    if x > 0:
        y = 2
    else:
        y = 3
    return y


def _return_in_handler_in_finally(x, b):
    try:
        pass
    finally:
        try:
            pass
        except ValueError:
            return 1
        if b > 3:
            return 2
    return 3


@pytest.mark.parametrize("c", [True, False])
@pytest.mark.parametrize("x", [5, -1])
def test_variable_bound_in_a_handler_only_is_state_of_a_staged_if(x, c):
    expected = _handler_binds(x, c)
    assert convert(_handler_binds)(x, c) == expected
    assert int(tf.function(_handler_binds)(tf.constant(x), c)) == expected


def test_variable_bound_in_a_handler_only_keeps_its_value_in_python():
    def f(c):
        try:
            if c:
                raise ValueError()
        except ValueError:
            y = 1
        if c:
            y += 1
        return y
    assert convert(f)(True) == 2
    with pytest.raises(UnboundLocalError):
        convert(f)(False)


def test_return_in_a_handler_inside_finally_then_a_staged_return_is_refused_clearly():
    assert convert(_return_in_handler_in_finally)(0, 5) == 2
    with pytest.raises(ValueError, match="else branch must also have a return statement"):
        tf.function(_return_in_handler_in_finally)(tf.constant(0), tf.constant(5))
