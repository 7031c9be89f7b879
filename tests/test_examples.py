"""Every script in examples/ prints exactly its checked-in output (examples/expected/NAME.txt).

A script runs as a user runs it: ``python -u NAME.py`` in examples/, with
stderr (where ``tf.print`` writes, as in TensorFlow) merged into stdout in
the order it was written. Nothing is normalised: scripts that draw random
numbers seed them. To record new outputs after an intended change, run
``AUTOGRAPH_UPDATE_EXPECTED=1 .venv/bin/python -m pytest tests/test_examples.py``
and review the diff.
"""
from __future__ import annotations

import os
import pathlib
import subprocess
import sys

import pytest

EXAMPLES = pathlib.Path(__file__).resolve().parent.parent / "examples"
EXPECTED = EXAMPLES / "expected"
SCRIPTS = sorted(p.stem for p in EXAMPLES.glob("*.py"))


def run_example(name: str) -> str:
    env = dict(os.environ, PYTHONUNBUFFERED="1", PYTHONHASHSEED="0")
    done = subprocess.run([sys.executable, "-u", f"{name}.py"], cwd=EXAMPLES, env=env,
                          stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True,
                          timeout=120)
    assert done.returncode == 0, f"examples/{name}.py failed:\n{done.stdout}"
    return done.stdout


def test_the_guide_examples_are_all_there():
    assert {"tanh_loop", "fizzbuzz", "dynamic_rnn", "retracing", "input_signature",
            "variables", "tour"} <= set(SCRIPTS)
    assert sorted(p.stem for p in EXPECTED.glob("*.txt")) == SCRIPTS


@pytest.mark.parametrize("name", SCRIPTS)
def test_example_output(name):
    output = run_example(name)
    expected_file = EXPECTED / f"{name}.txt"
    if os.environ.get("AUTOGRAPH_UPDATE_EXPECTED"):
        expected_file.write_text(output)
    assert output == expected_file.read_text()
