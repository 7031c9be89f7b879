"""The differential suite: every program converted == plain Python (result and stdout),
and staged into a graph with tensor arguments == plain Python."""
import numpy as np
import pytest

from tests.autograph.helpers import assert_python_same, assert_staged_same
from tests.autograph.programs import PROGRAMS, REFUSED

PY_CASES = [pytest.param(fn, args, id=f"{fn.__name__}{args}")
            for fn, inputs, _ in PROGRAMS for args in inputs]
STAGED_CASES = [pytest.param(fn, args, id=f"{fn.__name__}{args}")
                for fn, inputs, staged in PROGRAMS if staged is True for args in inputs]
REFUSED_CASES = [pytest.param(fn, args, id=f"{fn.__name__}{args}")
                 for fn, inputs, staged in PROGRAMS if staged == REFUSED for args in inputs]


def _tensor(v):
    return np.float32(v) if isinstance(v, float) else np.int32(v)


@pytest.mark.parametrize("fn,args", PY_CASES)
def test_python_values(fn, args):
    assert_python_same(fn, *args)


@pytest.mark.parametrize("fn,args", STAGED_CASES)
def test_staged(fn, args):
    assert_staged_same(fn, *[_tensor(a) for a in args])


@pytest.mark.parametrize("fn,args", REFUSED_CASES)
def test_python_loop_breaking_on_a_tensor_is_refused(fn, args):
    with pytest.raises((NotImplementedError, ValueError),
                       match="not supported in Python for loops|started as non-Tensor|"
                             "return statement cannot be placed inside this TensorFlow loop|"
                             "must also have a return statement"):
        assert_staged_same(fn, *[_tensor(a) for a in args])


def test_suite_is_large():
    assert len(PY_CASES) + len(STAGED_CASES) >= 200
