"""Staged control flow follows TensorFlow's rules where TensorFlow's reference tests define
them: what it accepts gives its values, what it refuses raises its exception type."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError


# -- shapes of loop variables ------------------------------------------------------------------

def grows(n):
    t = tf.zeros([1])
    i = 0
    while i < n:
        t = tf.concat([t, t], 0)
        i += 1
    return t


def grows_with_invariant(n):
    t = tf.zeros([1])
    i = 0
    while i < n:
        tf.autograph.experimental.set_loop_options(shape_invariants=[(t, tf.TensorShape([None]))])
        t = tf.concat([t, t], 0)
        i += 1
    return t


def grows_in_range_loop(n):
    v = tf.constant([1])
    for i in tf.range(n):
        tf.autograph.experimental.set_loop_options(
            shape_invariants=[(v, tf.TensorShape([None]))], maximum_iterations=2)
        v = tf.concat([v, [i]], 0)
    return v


def runs_forever_if_relaxed():
    t = tf.constant([1])
    while tf.constant(True):
        t = tf.constant([1, 1])
    return t


def test_a_shape_change_needs_a_shape_invariant():
    with pytest.raises(ValueError, match=r"'t' has shape \(1,\) before the loop, but shape "
                                         r"\(2,\) after one iteration.*set_loop_options"):
        tf.function(grows)(tf.constant(3))
    with pytest.raises(ValueError, match="'t' has shape"):  # fails at trace time: no hang
        tf.function(runs_forever_if_relaxed)()


def test_set_loop_options_declares_shape_invariants_and_maximum_iterations():
    assert tf.function(grows_with_invariant)(tf.constant(3)).shape == (8,)
    np.testing.assert_array_equal(tf.function(grows_in_range_loop)(tf.constant(5)).numpy(),
                                  [1, 0, 1])


def test_a_dtype_change_is_a_type_error():
    def f(n):
        t = tf.constant(1)
        i = 0
        while i < n:
            t = tf.constant(1.0)
            i += 1
        return t
    with pytest.raises(TypeError, match="'t' has dtype int32 before the loop, but dtype "
                                        "float32 after one iteration"):
        tf.function(f)(tf.constant(2))


def test_dataset_loops_relax_shapes_as_dataset_reduce_does():
    @tf.function
    def total(ds):
        loss = tf.constant(0)
        for x, y in ds:
            loss += tf.abs(y - x)
        return loss
    gen = tf.data.Dataset.from_generator(lambda: [(1, 4)] * 10, (tf.int32, tf.int32))
    assert int(total(gen)) == 30


# -- variables created in a staged loop ----------------------------------------------------------

def creates(n):
    i = 0
    while i < n:
        v = tf.zeros([1, 2]) + tf.cast(i, tf.float32)
        i += 1
    return v


def test_variable_created_in_a_loop_needs_one_iteration():
    np.testing.assert_array_equal(tf.function(creates)(tf.constant(2)).numpy(), [[1.0, 1.0]])
    with pytest.raises(InvalidArgumentError, match="loop must iterate at least once to "
                                                   "initialize v"):
        tf.function(creates)(tf.constant(0))
    with pytest.raises(UnboundLocalError, match="'v' is used before assignment"):
        tf.function(creates)(0)


# -- composite names that only some paths create -------------------------------------------------

def item_in_one_branch(a):
    x = {"a": a}
    if x["a"] > 0:
        x["b"] = 1
    return x


def item_in_a_loop(n, x):
    y = {}
    for i in range(n):
        x -= i
        y["a"] = x
    return y


@pytest.mark.parametrize("a", [0, 1])
def test_item_created_in_one_branch_on_python_values(a):
    assert tf.function(item_in_one_branch)(a) == {"a": a, **({"b": 1} if a else {})}


def test_item_created_in_one_staged_branch_must_be_set_in_both():
    with pytest.raises(ValueError, match=r"'x\['b'\]' must also be initialized in the else"):
        tf.function(item_in_one_branch)(tf.constant(1))


def test_item_created_in_a_staged_loop():
    assert int(tf.function(item_in_a_loop)(tf.constant(3), 0)["a"]) == -3
    assert tf.function(item_in_a_loop)(0, 0) == {}
    with pytest.raises(InvalidArgumentError,
                       match=r"loop must iterate at least once to initialize y\[\\'a\\'\]"):
        tf.function(item_in_a_loop)(tf.constant(0), 0)


# -- variables deleted or None in staged branches ------------------------------------------------

def deletes_in_both(c):
    i = 1
    if c:
        del i
    else:
        del i
    return i


def none_in_a_branch(c):
    i = 0
    if c:
        i = None
    return i


def test_deleted_in_both_branches():
    with pytest.raises(UnboundLocalError, match="'i'"):
        tf.function(deletes_in_both)(True)
    with pytest.raises(ValueError, match="'i' must also be initialized"):
        tf.function(deletes_in_both)(tf.constant(True))


def test_none_in_a_staged_branch_is_a_value_error():
    with pytest.raises(ValueError, match="'i' is None"):
        tf.function(none_in_a_branch)(tf.constant(True))
    assert tf.function(none_in_a_branch)(True) is None


def _returns_in_try_finally(x):
    a = x
    try:
        if x > 5:
            return a
        a = a + 1
    finally:
        a += 0
    return a


def _loop_fails_in_try_finally(x):
    a = x
    try:
        while a < 10:
            a = a + tf.constant(1.5)  # a dtype change: the staged loop is refused
    finally:
        a += 0
    return a


@pytest.mark.parametrize("fn, error, message", [
    (_returns_in_try_finally, ValueError, "else branch must also have a return statement"),
    (_loop_fails_in_try_finally, InvalidArgumentError, "AddV2"),
])
def test_a_failing_staged_statement_leaves_its_variables_as_before(fn, error, message):
    """A `finally` running while staging fails saw a branch's symbolic tensor, so a
    LeakedTensorError hid the real error."""
    with pytest.raises(error, match=message) as info:
        tf.function(fn)(tf.constant(3))
    assert "LeakedTensorError" not in str(info.value)
