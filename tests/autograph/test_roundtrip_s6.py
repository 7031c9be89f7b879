"""Converted code does what the original does: cases found by converting PyPI packages.

``python -m tests.roundtrip.pypi SRC --package PKG`` converts a package's source tree and runs
the package's own pytest suite against it; each function here is the smallest form of a
difference it found (the package named), and failed converted before the fix.
"""
import sys

import pytest

from autograph.impl.api import convert
from tests.autograph.helpers import assert_python_same


# -- calls that read the function's namespace: locals(), vars(), dir(), eval(s) -------------

def format_spec(spec):
    # parse.extract_format: the values assigned in branches reach the caller only through
    # `return locals()` (they were dropped as dead, and the converter's names leaked in)
    fill = align = None
    if spec[0] in "<>=^":
        align = spec[0]
        spec = spec[1:]
    elif len(spec) > 1 and spec[1] in "<>=^":
        fill = spec[0]
        align = spec[1]
        spec = spec[2:]
    width = ""
    while spec and spec[0].isdigit():
        width += spec[0]
        spec = spec[1:]
    type = spec
    return locals()


def names_seen_by_vars_and_dir(c):
    if c:
        late = 3
    for i in range(2):
        if i == c:
            hit = i
    return vars(), dir()


def eval_reads_a_branch_value(c):
    a = 1
    if c:
        a = 2
    return eval("a")


def exec_and_eval_see_no_unassigned_name(c):
    if c:
        q = 5
    try:
        return eval("q")
    except NameError:
        return "unassigned"


def locals_in_a_loop(xs):
    out = []
    total = 0
    for x in xs:
        if x > 1:
            total += x
        out.append(sorted(k for k in locals() if k != "out"))
    return out, total


def locals_of_a_closure(c):
    k = 1

    def inner():
        return k
    if c:
        k = 2
    return locals()["k"], sorted(locals()), inner()


@pytest.mark.parametrize("spec", ["<", "x^10d", "05.2f", ">", "s"])
def test_locals_returned_after_branches(spec):
    assert_python_same(format_spec, spec)


@pytest.mark.parametrize("fn", [names_seen_by_vars_and_dir, eval_reads_a_branch_value,
                                exec_and_eval_see_no_unassigned_name, locals_of_a_closure])
@pytest.mark.parametrize("c", [0, 1])
def test_namespace_readers(fn, c):
    assert_python_same(fn, c)


def test_locals_in_a_loop():
    assert_python_same(locals_in_a_loop, [0, 2, 1, 3])


def locals_in_order(c):
    a = None
    if c:
        a = 2
    for i in range(2):
        if i:
            b = i  # (converted, `b` gets its placeholder before the loop: before `i`)
    return list(locals().items()), list(vars())


@pytest.mark.parametrize("c", [0, 1])
def test_locals_keep_the_order_of_the_function_as_written(c):
    assert_python_same(locals_in_order, c)


# -- the operators never need sys._getframe on Python values ----------------------------------

def counts_down(n):
    out = []
    while n > 0:
        out.append(n)
        n -= 1
    return out


def test_python_loops_run_without_sys_getframe(monkeypatch):
    # attrs' test_missing_sys_getframe: a Python `while` walked the stack for its origin
    converted = convert(counts_down)
    monkeypatch.delattr(sys, "_getframe")
    assert converted(3) == [3, 2, 1]


# -- a function made by exec() that wraps another: its own code runs, not the wrapped one's ---

def dispatched(x):
    return "the wrapped function"


def _exec_made_wrapper():
    # decorator.FunctionMaker: a `<decorator-gen-N>` function with no source, and
    # `__wrapped__` set to the function it dispatches for (which has the same name)
    namespace = {}
    exec("def dispatched(x):\n    return 'the wrapper'\n", namespace)
    wrapper = namespace["dispatched"]
    wrapper.__wrapped__ = dispatched
    return wrapper


WRAPPER = _exec_made_wrapper()


def calls_the_wrapper(x):
    return WRAPPER(x)


@pytest.mark.filterwarnings("ignore:AutoGraph could not convert")
def test_source_is_never_taken_from_the_wrapped_function():
    # inspect.getsourcelines(fn) follows __wrapped__: the wrapper ran the wrapped one's code
    assert assert_python_same(calls_the_wrapper, 1) == "the wrapper"


# -- run on Python values, a callee that cannot be converted runs as it is, without a warning --

def _exec_made_callee():
    namespace = {}
    exec("def made_by_exec(x):\n    return x + 1\n", namespace)
    return namespace["made_by_exec"]


MADE_BY_EXEC = _exec_made_callee()


def calls_a_function_made_by_exec(x):
    return MADE_BY_EXEC(x)


def test_no_warning_for_an_unconvertible_callee_on_python_values():
    # toolz's tests call functions made by exec() under `filterwarnings = error`: the
    # "could not convert" warning, given eagerly, failed them
    import warnings
    converted = convert(calls_a_function_made_by_exec)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert converted(1) == 2


def test_a_lambda_that_cannot_be_told_apart_runs_as_written_with_a_warning():
    # TensorFlow warns "could not transform ... will run it as-is" and runs it; we raised
    import autograph as tf
    def call(fn):
        return fn()
    with pytest.warns(UserWarning, match="could not transform"):
        assert int(call(lambda: tf.function(lambda: tf.constant(2**40, tf.int32))())) == 0


def test_a_one_element_condition_is_reshaped_as_in_tensorflow():
    import autograph as tf

    @tf.function
    def stop(ids, end):
        if ids[:, -1:] == end:  # shape (1, 1): the Transformer tutorial's test
            return 1
        return 0
    assert int(stop(tf.constant([[3, 5]]), tf.constant(5))) == 1
    assert int(stop(tf.constant([[3, 4]]), tf.constant(5))) == 0

    @tf.function
    def ambiguous(x):
        if x > 0:
            return 1
        return 0
    with pytest.raises(ValueError, match="expected to be `tf.bool` scalar"):
        ambiguous(tf.constant([1, 2]))


def test_converted_code_reports_the_original_name():
    import sys
    from autograph.impl.api import convert

    def callback():
        return sys._getframe().f_code.co_name
    assert convert(callback)() == "callback"
