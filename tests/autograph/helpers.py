"""Differential helpers: converted == plain Python, in Python and staged into a graph."""
from __future__ import annotations

import contextlib
import io

import numpy as np

from autograph.impl.api import convert
from tests.staging import staged


def run_captured(fn, *args):
    """(result or raised exception type, stdout) of ``fn(*args)``."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            result = fn(*args)
        except Exception as e:  # noqa: BLE001
            result = type(e)
    return result, out.getvalue()


def assert_python_same(fn, *args, features=None):
    """The converted function, run on Python values, gives the same result and output."""
    expected = run_captured(fn, *args)
    got = run_captured(convert(fn, experimental_optional_features=features), *args)
    if isinstance(expected[0], type) and issubclass(expected[0], BaseException):
        # the converted function fails the same way (a subclass with a better message is ok)
        assert isinstance(got[0], type) and issubclass(got[0], expected[0]), (fn.__name__, got)
        assert got[1] == expected[1]
        return expected[0]
    assert got == expected, (fn.__name__, args, got, expected)
    return expected[0]


def assert_staged_same(fn, *args, features=None):
    """The converted function staged with numpy args as placeholders equals plain Python."""
    expected = fn(*[a.item() if isinstance(a, np.generic) else a for a in args])
    got = staged(convert(fn, experimental_optional_features=features), *args)
    flat_e = expected if isinstance(expected, (tuple, list)) else [expected]
    flat_g = got if isinstance(got, (tuple, list)) else [got]
    assert len(flat_e) == len(flat_g)
    for e, g in zip(flat_e, flat_g):
        np.testing.assert_allclose(np.asarray(g), np.asarray(e), rtol=1e-5,
                                   err_msg=f"{fn.__name__}{args}")
    return got
