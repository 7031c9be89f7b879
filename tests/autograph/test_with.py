"""``with`` around staged control flow: this library's context managers span it, others
are refused with both lines named; Python conditions inside any ``with`` keep Python
semantics (the converted ``with`` enters and exits exactly like the plain one)."""
import contextlib
import inspect
import os
import re

import numpy as np
import pytest

import autograph as tf
from autograph.impl.api import convert, to_code
from runtime.errors import StagingError
from tests.staging import staged

HERE = os.path.abspath(__file__)


def where(fn, marker: str) -> str:
    lines, start = inspect.getsourcelines(fn)
    for i, text in enumerate(lines):
        if marker in text:
            return re.escape(f"{HERE}:{start + i}")
    raise AssertionError(marker)


class Recorder:
    """A user context manager that logs enter/exit and may swallow errors."""

    def __init__(self, log, swallow=False):
        self.log, self.swallow = log, swallow

    def __enter__(self):
        self.log.append("enter")
        return self

    def __exit__(self, *exc):
        self.log.append("exit" if exc[0] is None else f"exit {exc[0].__name__}")
        return self.swallow


def if_in_suppress(x):
    y = 0
    with contextlib.suppress(ValueError):  # the-with
        if x > 0:  # the-if
            y = x
    return y


def while_in_user_manager(x, log):
    with Recorder(log):  # the-with
        while x < 10:  # the-while
            x = x * 2
    return x


def for_in_inner_manager(n):
    total = 0
    with tf.GradientTape():
        with contextlib.suppress(KeyError):  # the-with
            for i in tf.range(n):  # the-for
                total += i
    return total


@pytest.mark.parametrize("fn, args, kind", [
    (if_in_suppress, (np.int32(3),), "if"),
    (while_in_user_manager, (np.int32(3), []), "while"),
    (for_in_inner_manager, (np.int32(3),), "for"),
])
def test_staged_control_flow_inside_a_foreign_with_is_refused(fn, args, kind):
    with pytest.raises(StagingError) as info:
        staged(convert(fn), *args)
    msg = str(info.value)
    assert f"The `{kind}` at" in msg
    assert re.search(where(fn, f"the-{kind}"), msg), msg
    assert re.search(where(fn, "the-with"), msg), msg
    assert "Move the `with` out of the function" in msg


def test_python_conditions_inside_with_keep_python_semantics():
    assert convert(if_in_suppress)(3) == if_in_suppress(3) == 3
    log_converted, log_plain = [], []
    assert convert(while_in_user_manager)(3, log_converted) == \
        while_in_user_manager(3, log_plain) == 12
    assert log_converted == log_plain == ["enter", "exit"]
    assert int(convert(for_in_inner_manager)(3)) == 3


def swallowing(x, log):
    with Recorder(log, swallow=True) as r:
        if x > 0:
            raise ValueError("swallowed")
        x = -1
    return x, r is not None


def not_a_manager(x):
    with 42:
        if x:
            x = 1
    return x


def test_converted_with_enters_exits_and_swallows_like_python():
    log_converted, log_plain = [], []
    assert convert(swallowing)(1, log_converted) == swallowing(1, log_plain) == (1, True)
    assert log_converted == log_plain == ["enter", "exit ValueError"]
    with pytest.raises(TypeError, match="context manager protocol"):
        convert(not_a_manager)(1)


def tape_around_branch(x):
    x = tf.cast(x, tf.float32)
    with tf.GradientTape() as tape:
        tape.watch(x)
        if x > 0:
            y = x * x
        else:
            y = -x
    return tape.gradient(y, x)


def nullcontext_around_loop(x):
    with contextlib.nullcontext(), tf.init_scope():
        pass
    with contextlib.nullcontext() as nothing:
        while x < 10:
            x = x * 2
    return x, nothing is None


def test_library_managers_span_staged_code():
    assert staged(convert(tape_around_branch), np.int32(3)) == 6.0
    assert staged(convert(tape_around_branch), np.int32(-3)) == -1.0
    assert staged(convert(nullcontext_around_loop), np.int32(3))[0] == 12


def test_to_code_wraps_only_withs_around_control_flow():
    code = to_code(if_in_suppress)
    assert "with ag__.with_context(ag__.converted(contextlib.suppress)" in code
    assert "inside_with=1" in code
    code = to_code(nullcontext_around_loop)
    assert code.count("with_context") == 1  # the first `with` holds no control flow
    code = to_code(for_in_inner_manager)
    assert "inside_with=2" in code
