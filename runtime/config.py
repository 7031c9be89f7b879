"""``tf.config``: process-wide switches that change how Functions run.

``run_functions_eagerly(True)`` makes every Function call its original
Python function instead of tracing and running a graph: the debugging
switch the guides describe. It is read on every Function call, so it takes
effect at once, for Functions created before and after it is set.
"""
from __future__ import annotations


class _Flags:
    __slots__ = ("run_eagerly",)

    def __init__(self):
        self.run_eagerly = False


FLAGS = _Flags()


def run_functions_eagerly(run_eagerly: bool) -> None:
    """Runs every ``tf.function`` as plain Python (True) or as graphs again (False)."""
    FLAGS.run_eagerly = bool(run_eagerly)


def functions_run_eagerly() -> bool:
    """Whether ``run_functions_eagerly(True)`` is in force."""
    return FLAGS.run_eagerly


# TensorFlow 2.2's name for the same switch.
experimental_run_functions_eagerly = run_functions_eagerly
