"""Differences found by differential fuzzing of generated programs (TensorFlow 2.21 vs this
project, and converted vs plain Python); expected values are what TensorFlow and Python give."""
from autograph.impl.api import convert


def _loop_in_finally_feeds_outer_finally(x, n):
    try:
        try:
            if c:  # noqa: F821  (unbound here: the exception leaves through both `finally`s)
                pass
        finally:
            b = n
            for _ in range(x):
                c = 5
        c = b
    finally:
        return b, c  # noqa: B012


def test_a_loop_in_a_try_carries_what_an_outer_finally_reads():
    # the loop's `c` is dead on the normal path (`c = b` follows) but live on the exception's
    assert _loop_in_finally_feeds_outer_finally(2, 3) == (3, 5)
    assert convert(_loop_in_finally_feeds_outer_finally)(2, 3) == (3, 5)
