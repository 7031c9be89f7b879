"""``autograph saved show|run``: looking into and running a SavedModel from the shell."""
from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

import autograph as tf
from autograph import cli_saved


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.scale = tf.Variable(2.)
        self.sub = tf.Module()
        self.sub.steps = tf.Variable(0, trainable=False)

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def scaled(self, x):
        return x * self.scale

    @tf.function(input_signature=[tf.TensorSpec([], tf.int32, name="n"),
                                  tf.TensorSpec([2], tf.float32, name="v")])
    def both(self, n, v):
        return {"count": n + 1, "total": tf.reduce_sum(v)}

    @tf.function
    def offset(self, x, by=1):
        return x + by


@pytest.fixture(scope="module")
def export(tmp_path_factory):
    net = Net()
    net.offset(tf.constant([1, 2]))
    directory = str(tmp_path_factory.mktemp("cli") / "net")
    tf.saved_model.save(net, directory, signatures={"serving_default": net.scaled,
                                                    "both": net.both})
    return directory


def run(capsys, *argv):
    code = cli_saved.main([str(a) for a in argv])
    out, err = capsys.readouterr()
    return code, out, err


def test_show_lists_signatures_functions_and_variables(export, capsys):
    code, out, err = run(capsys, "show", export)
    assert code == 0, err
    assert out == f"""SavedModel at {export}

Signatures:
  serving_default:
    inputs:
      x: float32[?]
    outputs:
      output_0: float32[?]
  both:
    inputs:
      n: int32[]
      v: float32[2]
    outputs:
      count: int32[]
      total: float32[]

Functions:
  both(n: int32[], v: float32[2])
  offset(x: int32[2], by=1)
  scaled(x: float32[?])

Variables:
  scale: float32[]
  sub.steps: int32[] (not trainable)
"""


def test_run_a_signature(export, capsys, tmp_path):
    code, out, err = run(capsys, "run", export, "--input", "x=[1, 2.5]")
    assert code == 0, err
    assert out == ("output_0: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 5.], "
                   "dtype=float32)>\n")
    np.save(tmp_path / "v.npy", np.array([1., 2.], dtype=np.float32))
    code, out, err = run(capsys, "run", export, "--signature", "both", "--input", "n=4",
                         "--input", f"v=@{tmp_path / 'v.npy'}")
    assert code == 0, err
    assert out.splitlines() == ["count: <tf.Tensor: shape=(), dtype=int32, numpy=5>",
                                "total: <tf.Tensor: shape=(), dtype=float32, numpy=3.0>"]


@pytest.mark.parametrize("argv, fragment", [
    (["--signature", "nope", "--input", "x=1"], "no signature 'nope'"),
    (["--input", "y=[1.0]"], "unknown ['y']; missing ['x']"),
    (["--input", "x=__import__('os')"], "is not a Python literal"),
    (["--input", "x"], "should be NAME=VALUE"),
])
def test_run_usage_errors(export, capsys, argv, fragment):
    code, out, err = run(capsys, "run", export, *argv)
    assert code == 2 and out == ""
    assert len(err.splitlines()) == 1 and fragment in err


def test_run_and_load_failures_exit_1(export, capsys, tmp_path):
    code, _, err = run(capsys, "run", export, "--input", "x=[[1.0]]")
    assert code == 1 and "incompatible with input_signature" in err
    code, _, err = run(capsys, "show", str(tmp_path / "missing"))
    assert code == 1 and "SavedModel file does not exist" in err
    broken = tmp_path / "broken"
    broken.mkdir()
    (broken / "saved_model.json").write_text("{")
    code, _, err = run(capsys, "show", str(broken))
    assert code == 1 and "saved_model.json: invalid JSON" in err


def test_runs_as_a_program_in_a_directory_without_the_source(export, tmp_path):
    done = subprocess.run([sys.executable, "-m", "autograph.cli_saved", "run", export,
                           "--input", "x=[3.0]"], cwd=tmp_path, capture_output=True, text=True,
                          timeout=120, env=dict(os.environ, PYTHONPATH=""))
    assert done.returncode == 0, done.stderr
    assert "numpy=array([6.], dtype=float32)" in done.stdout
