"""Helpers for core.py: a constant, a function called from converted code, and two
functions the converter leaves alone (a generator, and one marked do_not_convert)."""
import autograph as tf

THRESHOLD = 1.0  # squash() stops once the sum is at most this


def clip_to(x, bound):
    """Elementwise min(x, bound); a Python bound of None leaves x as it is."""
    if bound is None:
        return x
    return tf.minimum(x, bound)


def fibonacci(n):
    """The first n Fibonacci numbers (a generator: it stays plain Python)."""
    a, b = 0, 1
    for _ in range(n):
        yield a
        a, b = b, a + b


@tf.autograph.experimental.do_not_convert
def describe(x):
    """A one-line description of a tensor, computed in plain Python."""
    return f"{x.dtype.name}{list(x.shape)}"
