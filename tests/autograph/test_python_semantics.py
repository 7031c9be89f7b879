"""Converted code keeps Python's semantics on code not written for the converter.

Each case once failed: it did not compile, returned a wrong value in silence, or took one
item too many from an iterator. They run converted on Python values (== plain Python) and,
where a tensor makes sense, staged.
"""
import numpy as np
import pytest

import autograph as tf
from autograph.impl.api import convert
from tests.autograph.helpers import assert_python_same, assert_staged_same


# -- a name assigned in both branches, used only within one iteration --------------------------

def local_to_iteration(xs):
    out = []
    for x in xs:
        if x > 0:
            y = x
        else:
            y = -x
        out.append(y)
    return out


def local_to_branch_then_state_of_a_later_if(c, d):
    if c:
        y = 1
        print(y)
    if d:
        y = 2
    else:
        y = 3
    return y


def local_to_iteration_nested(xs):
    tot = 0
    for x in xs:
        if x > 1:
            z = x
        else:
            z = 0
        for k in range(2):
            if k:
                w = z
            else:
                w = -z
            tot += w
    return tot


def assigned_before_loop_local_inside(xs):
    y = 10
    out = []
    for x in xs:
        if x:
            y = x
        else:
            y = -1
        out.append(y)
    return out


@pytest.mark.parametrize("fn,args", [
    (local_to_iteration, ([1, -2, 3],)),
    (local_to_branch_then_state_of_a_later_if, (1, 0)),
    (local_to_branch_then_state_of_a_later_if, (0, 1)),
    (local_to_iteration_nested, ([1, 2, 3],)),
    (assigned_before_loop_local_inside, ([0, 2, 0],)),
])
def test_names_local_to_a_generated_function_are_bound_there(fn, args):
    assert_python_same(fn, *args)


def test_name_local_to_a_staged_iteration():
    @tf.function
    def f(n):
        total = tf.constant(0)
        for i in tf.range(n):
            if i % 2 == 0:
                y = i
            else:
                y = -i
            total += y
        return total

    assert int(f(tf.constant(5))) == 0 - 1 + 2 - 3 + 4


# -- nested generators, coroutines and class bodies are left as they are ------------------------

def nested_generator(xs):
    def gen():
        for x in xs:
            if x:
                yield x * 2
    return list(gen())


def nested_generator_with_return(xs):
    def gen():
        for x in xs:
            if x > 2:
                return
            yield x
    return list(gen())


def nested_yielding_lambda(xs):
    g = (lambda: (yield from xs))()
    return list(g)


def nested_class_body(x):
    class A:
        k = 3
        v = k if x else -k
        w = k > 1 and k
    return A.v, A.w


@pytest.mark.parametrize("fn,args", [
    (nested_generator, ([1, 0, 3],)),
    (nested_generator_with_return, ([1, 2, 3, 1],)),
    (nested_yielding_lambda, ([4, 5],)),
    (nested_class_body, (1,)),
])
def test_scopes_left_as_they_are(fn, args):
    assert_python_same(fn, *args)


def test_nested_generator_body_is_not_converted():
    code = tf.autograph.to_code(nested_generator)
    assert "yield (x * 2)" in code
    assert code.count("ag__.for_stmt") == 0


# -- return inside try ----------------------------------------------------------------------

def return_inside_try(x):
    try:
        return int(x)
    except ValueError:
        pass
    raise ValueError("not a number")


def return_inside_try_in_loop(xs):
    for x in xs:
        try:
            return int(x)
        except ValueError:
            continue
    return -1


@pytest.mark.parametrize("fn,arg", [
    (return_inside_try, "12"), (return_inside_try, "zz"),
    (return_inside_try_in_loop, ["a", "b", "7"]), (return_inside_try_in_loop, ["a"]),
])
def test_return_value_evaluated_before_the_return_is_marked(fn, arg):
    assert_python_same(fn, arg)


# -- iterators shared across an early exit ---------------------------------------------------

def break_from_shared_iterator(it):
    for x in it:
        if x == 2:
            break
    return x


def return_from_shared_iterator(it):
    for x in it:
        if x == 2:
            return x
    return None


@pytest.mark.parametrize("fn", [break_from_shared_iterator, return_from_shared_iterator])
def test_early_exit_takes_no_extra_item(fn):
    it = iter([1, 2, 3, 4])
    assert convert(fn)(it) == 2
    assert next(it) == 3


# -- containers changed in place under a staged if or loop --------------------------------------

def item_with_negative_index(a):
    lst = [0, 0]
    if a > 0:
        lst[-1] += 1
    return lst[-1]


def item_with_computed_index(a):
    lst = [0, 0]
    j = 1
    if a > 0:
        lst[j] += 1
    else:
        lst[j - 1] = 5
    return lst[0] + lst[j]


def nested_item(a):
    grid = [[0, 0], [0, 0]]
    i = 1
    if a > 0:
        grid[i][0] = 7
    return grid[1][0]


@pytest.mark.parametrize("fn", [item_with_negative_index, item_with_computed_index,
                                nested_item])
@pytest.mark.parametrize("a", [-3, 3])
def test_item_written_in_one_branch_only(fn, a):
    assert_python_same(fn, a)
    assert_staged_same(fn, np.int32(a))


def test_item_written_in_staged_loop():
    @tf.function
    def f(n):
        d = {"k": tf.constant(1)}
        key = "k"
        for _ in tf.range(n):
            d[key] = d[key] * 2
        return d["k"]

    assert int(f(tf.constant(3))) == 8


def test_global_container_is_not_made_state():
    assert_python_same(_append_to_global, 2)
    assert _GLOBAL == [0, 2]


_GLOBAL = [0, 0]


def _append_to_global(j):
    for i in range(j):
        if i:
            _GLOBAL[i] = j
    return _GLOBAL[1]


# -- jumps inside try/except/else/finally --------------------------------------------------

def return_in_try_skips_else(a):
    try:
        return 0
    except ValueError:
        pass
    else:
        return a


def continue_in_try_skips_else(n):
    out = []
    for i in range(n):
        try:
            if i == 1:
                continue
            out.append(i)
        except ValueError:
            out.append(-1)
        else:
            out.append(10 + i)
        finally:
            out.append(100)
    return out


def continue_in_finally_overrides_break(n):
    y = 1
    for _ in range(n):
        try:
            break
        finally:
            y *= 2
            continue
    return y


def return_in_finally_swallows_exception(a):
    try:
        raise ValueError
    finally:
        return a


def return_in_finally_skips_rest(a, log):
    try:
        log.append(1)
    finally:
        if a:
            return 5
        log.append(2)
    return 6, log


def finally_with_only_continue(n):
    y = 0
    for i in range(n):
        try:
            y += i
        finally:
            continue
    return y


def continue_in_finally_overrides_return(n):
    for i in range(n):
        try:
            return i
        finally:
            if i < 2:
                continue
    return -1


def break_in_finally_overrides_return_and_exception(a):
    while True:
        try:
            if a > 1:
                return 1
            raise KeyError(a)
        finally:
            break
    return 2


def break_in_finally_inside_try_with_handler(xs):
    out = []
    for x in xs:
        try:
            out.append(int(x))
        except ValueError:
            out.append(None)
            raise
        finally:
            if x == "stop":
                break
    return out


@pytest.mark.parametrize("fn,args", [
    (return_in_try_skips_else, (3,)),
    (continue_in_try_skips_else, (3,)),
    (continue_in_finally_overrides_break, (3,)),
    (return_in_finally_swallows_exception, (4,)),
    (return_in_finally_skips_rest, (1, [])),
    (return_in_finally_skips_rest, (0, [])),
    (finally_with_only_continue, (4,)),
    (continue_in_finally_overrides_return, (4,)),
    (break_in_finally_overrides_return_and_exception, (2,)),
    (break_in_finally_overrides_return_and_exception, (0,)),
    (break_in_finally_inside_try_with_handler, (["1", "2", "stop", "3"],)),
    (break_in_finally_inside_try_with_handler, (["1", "x", "3"],)),
])
def test_jumps_in_try_statements(fn, args):
    assert_python_same(fn, *args)


# -- flags known to be false are Python values again -----------------------------------------

def test_break_on_python_condition_inside_try_in_staged_loop():
    @tf.function
    def f(n, k):
        s = tf.constant(0)
        for i in tf.range(n):
            try:
                if k > 2:
                    if k < 9:
                        break
                s += i
            except ValueError:
                pass
        return s

    assert [int(f(tf.constant(5), k)) for k in (3, 1, 10)] == [0, 10, 10]


def test_python_loop_after_a_staged_return_stays_python():
    traced = []

    @tf.function
    def f(x):
        if x > 0:
            return x
        lst = []
        for i in range(3):
            if i == 7:
                return x
            lst.append(i)
        traced.append(type(lst))
        return x + len(lst)

    assert [int(f(tf.constant(v))) for v in (3, -1)] == [3, 2]
    assert traced == [list]  # a Python list, not a staged TensorArray


def test_variable_undefined_only_in_a_returning_branch():
    @tf.function
    def f(x):
        if x > 10:
            return x
        else:
            z = x * 2
        return z + 1

    assert int(f(tf.constant(3))) == 7 and int(f(tf.constant(30))) == 30


# -- chained comparisons, and/or values, walrus operands ---------------------------------------

def chained_in_if(x, lo, hi):
    if lo < x <= hi:
        return 1
    return 0


def chained_values(x, lo, hi):
    return lo <= x < hi, x == x == lo, lo < hi > x != lo, not lo < x


def chained_in_while(x):
    while 0 <= x < 20:
        x += 7
    return x


def chained_in_ifexp(x, lo, hi):
    return x * 2 if lo < x < hi or x == hi else -x


def and_or_values(x, y):
    return (x and 5), (x or y), (x and y or 7), not x


@pytest.mark.parametrize("args", [(3, 1, 3), (0, 0, 3), (5, 1, 4), (-2, -2, -2)])
@pytest.mark.parametrize("fn", [chained_in_if, chained_values, chained_in_ifexp])
def test_chained_comparisons(fn, args):
    assert_python_same(fn, *args)
    assert_staged_same(fn, *(np.int32(a) for a in args))


@pytest.mark.parametrize("x", [-3, 0, 4, 19, 25])
def test_chained_comparison_in_staged_while(x):
    assert_python_same(chained_in_while, x)
    assert_staged_same(chained_in_while, np.int32(x))


@pytest.mark.parametrize("x,y", [(0, 3), (2, 0), (0, 0), (-1, 4)])
def test_and_or_give_an_operand_on_tensors(x, y):
    assert_python_same(and_or_values, x, y)
    assert_staged_same(and_or_values, np.int32(x), np.int32(y))


def test_and_or_of_two_dtypes_is_a_type_error():
    @tf.function
    def f(x):
        return x and 2.5

    with pytest.raises(TypeError, match="one dtype"):
        f(tf.constant(1))


_calls = []


def _noted(v):
    _calls.append(v)
    return v


def chain_evaluation_order(a):
    return _noted(0) < _noted(a) <= _noted(5) < _noted(9)


@pytest.mark.parametrize("a", [3, -1, 7])
def test_chained_comparison_evaluates_each_operand_once_in_order(a):
    _calls.clear()
    expected = chain_evaluation_order(a)
    plain = list(_calls)
    _calls.clear()
    assert convert(chain_evaluation_order)(a) == expected
    assert _calls == plain


def walrus_in_and(s):
    import re
    if (m := re.match(r"(\d+)", s)) and m.group(1):
        return int(m.group(1))
    return None


def walrus_in_comprehension_condition(xs):
    return [y for x in xs if (y := x * 2) > 2 and y < 8]


def walrus_in_later_operand(xs):
    out = []
    for x in xs:
        if x > 0 and (y := x * 3) > 4:
            out.append(y)
    return out


@pytest.mark.parametrize("fn,arg", [
    (walrus_in_and, "12x"), (walrus_in_and, "x"),
    (walrus_in_comprehension_condition, [1, 2, 3, 4]),
    (walrus_in_later_operand, [1, 2, -3, 5]),
])
def test_walrus_operands_keep_their_scope(fn, arg):
    assert_python_same(fn, arg)


# -- found by converting standard-library modules under their own tests --------------------------

def walrus_in_while_test(items):
    out = []
    while (c := items.pop()) != "x":
        out.append(c)
    return out, c


def annotated_in_branches(xs):
    for x in xs:
        if x:
            y: int = 1
        else:
            y: int = 2
    return y


def dict_display_with_unpacking(a):
    return {"k": 1, **a}


def return_inside_a_suppressing_with(d):
    import contextlib
    with contextlib.suppress(KeyError):
        return d["k"]
    return "missing"


def captured_builtin(s, len=len):
    return len(s)


@pytest.mark.parametrize("fn,make_args", [
    (walrus_in_while_test, lambda: (["x", "a", "b"],)),
    (annotated_in_branches, lambda: ([1, 0],)),
    (dict_display_with_unpacking, lambda: ({"z": 2},)),
    (return_inside_a_suppressing_with, lambda: ({},)),
    (return_inside_a_suppressing_with, lambda: ({"k": 3},)),
])
def test_stdlib_constructs(fn, make_args):
    assert convert(fn)(*make_args()) == fn(*make_args())


def test_a_captured_builtin_stays_the_captured_one(monkeypatch):
    import builtins
    converted = convert(captured_builtin)
    assert converted("warm") == 4
    monkeypatch.setattr(builtins, "len", lambda s: 99)
    assert converted("abc") == captured_builtin("abc") == 3


# -- a finally runs its own loops and guards whatever jump is pending -----------------------------

def loop_in_finally_returns_over_a_pending_return(x):
    c = 1
    try:
        try:
            return c
        finally:
            c = 0
    finally:
        w = 0
        while w < x:
            w += 1
            return c


def loop_with_break_in_finally_after_a_pending_break(n):
    out = []
    for i in range(n):
        try:
            if i == 1:
                break
        finally:
            for j in range(3):
                if j == 1:
                    break
                out.append((i, j))
    return out


@pytest.mark.parametrize("fn,args", [
    (loop_in_finally_returns_over_a_pending_return, (1,)),
    (loop_in_finally_returns_over_a_pending_return, (0,)),
    (loop_with_break_in_finally_after_a_pending_break, (3,)),
])
def test_finally_sees_its_own_jumps_only(fn, args):
    assert_python_same(fn, *args)


def nested_docstring(x):
    def inner(m):
        """Inner's docstring."""
        for i in range(m):
            if i > 1:
                return i
        return -1
    return inner.__doc__, inner(x)


def test_docstring_stays_first_in_converted_functions():
    assert_python_same(nested_docstring, 3)


def joins(p):
    import os
    return os.path.join(p, "x")


def test_frozen_stdlib_functions_run_as_they_are(recwarn):
    assert convert(joins)("a") == joins("a")
    assert not [w for w in recwarn if "could not convert" in str(w.message)]


def unbound_after_a_handler(x):
    try:
        t = 10 // x
    except ZeroDivisionError:
        if x > 5:
            return 0
    return t


def test_a_checked_read_in_generated_code_is_an_unbound_local_error():
    assert_python_same(unbound_after_a_handler, 2)
    with pytest.raises(UnboundLocalError, match="'t' is used before assignment"):
        convert(unbound_after_a_handler)(0)


# -- closures: state only where a closure can observe it -----------------------------------------

def def_and_lambda_in_a_branch(x):
    if x > 0:
        def h():
            return 3
        g = lambda: h()  # noqa: E731
        x = g()
    return x


def late_binding_in_a_loop(xs):
    fs = []
    for x in xs:
        if x > 0:
            k = x
            fs.append(lambda: k)
    return [f() for f in fs]


def closure_made_before_the_if(c):
    n = 1
    get = lambda: n  # noqa: E731
    if c:
        n = 2
    return get()


@pytest.mark.parametrize("fn,args", [
    (def_and_lambda_in_a_branch, (3,)), (late_binding_in_a_loop, ([1, 2, -1, 3],)),
    (closure_made_before_the_if, (1,)), (closure_made_before_the_if, (0,)),
])
def test_closures_see_what_python_shows_them(fn, args):
    assert_python_same(fn, *args)


def test_a_function_defined_in_a_staged_branch_is_not_carried():
    assert int(tf.function(def_and_lambda_in_a_branch)(tf.constant(3))) == 3


def test_a_function_defined_in_a_staged_loop_is_not_carried():
    @tf.function
    def f(x):
        s = 0
        for q in tf.range(x):
            if q > 0:
                def h():
                    return 3
                g = lambda: h()  # noqa: E731
                s += g()
        return s

    assert int(f(tf.constant(3))) == 6


# -- calls stay in the user's frame ----------------------------------------------------------------

def makes_a_namedtuple(x):
    import collections
    if x:
        pass
    return collections.namedtuple("Point", "x y").__module__


def test_library_calls_see_the_users_frame():
    assert convert(makes_a_namedtuple)(1) == makes_a_namedtuple(1) == __name__


def test_calls_keep_their_arguments_as_written():
    code = tf.autograph.to_code(makes_a_namedtuple)
    assert "ag__.converted(collections.namedtuple)('Point', 'x y').__module__" in code


def exec_defines_an_annotated_function():
    ns = {}
    exec("def k(x: int): pass", ns)
    return ns["k"].__annotations__


def test_converted_code_keeps_the_users_future_features():
    # (this module has no `from __future__ import annotations`; the converter's modules do)
    assert convert(exec_defines_an_annotated_function)() == {"x": int}


def staged_loop_in_try_whose_finally_breaks(x, n):
    acc = []
    for v in [x, n]:
        try:
            w = 0
            while w < n:
                w += 1
            acc.append(v)
        finally:
            break
    return len(acc)


def test_a_jump_in_finally_around_a_staged_loop():
    # the staged while inside `try` is staged (as TensorFlow stages it), and the `break`
    # in `finally` leaves the outer Python loop after its first item, as in Python
    assert_python_same(staged_loop_in_try_whose_finally_breaks, 3, 1)
    assert tf.function(staged_loop_in_try_whose_finally_breaks)(3, tf.constant(1)) == 1
