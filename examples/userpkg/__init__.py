"""A small user package, written as anyone would, to convert with ``autograph convert``.

``examples/tour.py`` converts it into a temporary directory, imports the
converted copy and runs it; ``tests/test_cli.py`` checks that the converted
copy gives the same results, and traces the same way, as the original with
every function decorated with ``tf.function``.
"""
from .core import Accumulator, collatz_steps, first_multiple, normalize, squash, sum_multiples
from .helpers import THRESHOLD, clip_to, fibonacci, describe

__all__ = ["Accumulator", "collatz_steps", "first_multiple", "normalize", "squash",
           "sum_multiples", "THRESHOLD", "clip_to", "fibonacci", "describe"]
