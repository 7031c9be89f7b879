"""Hypothesis writes programs from the constructs that broke the converter on real code.

``real_code_programs.py`` holds the grammar: names local to one loop iteration, jumps in
try/except/else/finally, list and dict items at computed indices, closures over loop
variables, iterators shared across early exits, nested generators, chained comparisons
with and/or/not, and ``:=``, mixed and nested up to depth 3.

- ``test_real_code_program_converted_on_python_values``: the whole grammar, run as plain
  Python and converted on Python values: the same result, printed output and exception
  type (a subclass with a better message is fine).
- ``test_real_code_program_staged``: the stageable int subset, run as plain Python,
  converted on Python values (as above) and converted + staged with ``x`` and ``n`` as
  int32 tensors: the same values. Refusals accepted: what TensorFlow refuses
  (``TF_REFUSALS``), and the StagingError for staged control flow in a ``try`` whose
  ``finally`` jumps, in programs the grammar marks as such.

Hypothesis's shrinking is off (it takes minutes on these programs); a failure reports
the program reduced by lines (``real_code_programs.shrink``) and the program drawn. The
programs are derandomized for CI; ``AUTOGRAPH_FUZZ=1`` draws new ones (which still finds
bugs: see the open issues).
"""
import os
import re

import numpy as np
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from autograph.impl.api import convert
from graph.errors import InvalidArgumentError
from runtime.errors import StagingError
from tests.autograph.helpers import run_captured
from tests.autograph.real_code_programs import REFUSABLE, load, programs, shrink
from tests.staging import staged

# TensorFlow's rules for staged control flow (tests/autograph/test_tf_rules.py).
TF_REFUSALS = re.compile(
    "return statement cannot be placed inside this TensorFlow loop|not supported in Python "
    "for loops|started as non-Tensor|must also have a return statement|must also be "
    "initialized|loop must iterate at least once|return value from a TensorFlow loop may only be")

# Derandomized (the same programs on every run, so CI is deterministic); set
# AUTOGRAPH_FUZZ=1 to explore new programs by hand.
SETTINGS = settings(max_examples=200, deadline=None,
                    derandomize=not os.environ.get("AUTOGRAPH_FUZZ"),
                    phases=[Phase.explicit, Phase.reuse, Phase.generate],
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large,
                                           HealthCheck.filter_too_much])


def _raised(value):
    return isinstance(value, type) and issubclass(value, BaseException)


def _name(value):
    return value.__name__ if _raised(value) else "a value"


def python_mismatch(source, *args):
    """(kind, message) of how the converted program differs from plain Python on Python
    values, or None. The kind names the failure without its values."""
    fn = load(source)
    (e_value, e_out) = run_captured(fn, *args)
    (g_value, g_out) = run_captured(convert(fn), *args)
    if _raised(e_value):
        if not (_raised(g_value) and issubclass(g_value, e_value)):
            return (f"Python raised {e_value.__name__}, converted {_name(g_value)}",
                    f"Python raised {e_value.__name__}, converted gave {g_value!r}")
    elif g_value != e_value:
        return (f"Python returned, converted {_name(g_value)}",
                f"Python returned {e_value!r}, converted gave {g_value!r}")
    if g_out != e_out:
        return ("printed output differs",
                f"Python printed {e_out!r}, converted printed {g_out!r}")
    return None


def staged_mismatch(source, x, n):
    """(kind, message) of how the staged program differs from plain Python, or None."""
    fn = load(source)
    expected, _ = run_captured(fn, x, n)
    if _raised(expected):  # the grammar keeps stageable programs from raising
        return ("raised in Python",
                f"the stageable program raised {expected.__name__} in plain Python")
    found = python_mismatch(source, x, n)
    if found:
        return found
    try:
        got = staged(convert(fn), np.int32(x), np.int32(n))
    except Exception as e:  # noqa: BLE001
        if isinstance(e, StagingError) and REFUSABLE in source and "inside a `try`" in str(e):
            return None
        if isinstance(e, (NotImplementedError, ValueError, InvalidArgumentError)) \
                and TF_REFUSALS.search(str(e)):
            return None  # what TensorFlow refuses too (its reference tests define these)
        last = str(e).strip().splitlines()[-1].strip() if str(e).strip() else ""
        gist = re.sub(r"<[^>]*>|'[^']*'|\d+", "", last)[:80]  # no names, places, numbers
        return (f"staging raised {type(e).__name__} ({gist})",
                f"staging raised {type(e).__name__}: {last}")
    got = tuple(int(v) for v in got)
    if got != expected:
        return "staged values differ", f"Python returned {expected}, staged gave {got}"
    return None


def _report(check, source, args, found):
    kind, message = found

    def fails_the_same_way(candidate):
        again = check(candidate, *args)
        return again is not None and again[0] == kind

    small = shrink(source, fails_the_same_way)
    return (f"{message}\nargs={args}\n--- the program reduced by lines:\n{small}"
            f"--- as drawn:\n{source}")


@SETTINGS
@given(programs(staged=False), st.integers(-3, 6), st.integers(0, 4),
       st.lists(st.integers(-2, 5), max_size=4))
def test_real_code_program_converted_on_python_values(source, x, n, xs):
    args = (x, n, tuple(xs))
    check = lambda s, x, n, xs: python_mismatch(s, x, n, list(xs))  # noqa: E731
    found = check(source, *args)
    assert found is None, _report(check, source, args, found)


@SETTINGS
@given(programs(staged=True), st.integers(-3, 6), st.integers(0, 4))
def test_real_code_program_staged(source, x, n):
    found = staged_mismatch(source, x, n)
    assert found is None, _report(staged_mismatch, source, (x, n), found)
