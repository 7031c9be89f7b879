"""to_code of the guide's examples matches the checked-in golden files.

Regenerate after an intended change with ``AUTOGRAPH_REGOLD=1 pytest tests/autograph/test_golden.py``
and read the diff: it is the change users will see.
"""
import os

import pytest

import autograph as tf
import autograph.operators as ag__
from tests.autograph import guide_examples

GOLDEN = os.path.join(os.path.dirname(__file__), "golden")


@pytest.mark.parametrize("name", ["f", "fizzbuzz", "simple_relu"])
def test_to_code_golden(name):
    fn = getattr(guide_examples, name)
    code = tf.autograph.to_code(fn)
    path = os.path.join(GOLDEN, f"{name}.py.txt")
    if os.environ.get("AUTOGRAPH_REGOLD"):
        with open(path, "w") as f:
            f.write(code)
    with open(path) as f:
        assert code == f.read()


@pytest.mark.parametrize("name", ["f", "fizzbuzz", "simple_relu"])
def test_to_code_is_stable_and_reexecutes(name):
    fn = getattr(guide_examples, name)
    code = tf.autograph.to_code(fn)
    assert tf.autograph.to_code(fn) == code
    ns = {"ag__": ag__, "tf": tf}
    exec(compile(code, f"<{name}>", "exec"), ns)
    assert callable(ns[f"tf__{name}"])
    for boilerplate in ("FunctionScope", "try:", "except", "fscope", "UndefinedReturnValue"):
        assert boilerplate not in code


def test_simple_relu_runs_from_to_code():
    ns = {"ag__": ag__, "tf": tf}
    exec(tf.autograph.to_code(guide_examples.simple_relu), ns)
    assert ns["tf__simple_relu"](tf.constant(3)).numpy() == 3
    assert ns["tf__simple_relu"](-3) == 0
