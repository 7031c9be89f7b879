"""Numeric functions with data-dependent control flow (the guides' examples, as a library)."""
import autograph as tf

from .helpers import THRESHOLD, clip_to


def squash(x):
    """tanh until the sum is at most THRESHOLD: the guide's while loop."""
    # Each step shrinks every element towards 0.
    while tf.reduce_sum(x) > THRESHOLD:
        x = tf.tanh(x)
    return x


def collatz_steps(n):
    """How many Collatz steps take n to 1."""
    steps = 0
    while n > 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps


def sum_multiples(n, bound=None):
    """Sum of the numbers below n that are multiples of 3 or 5, clipped to bound."""
    total = 0
    for i in tf.range(n):
        if i % 3 != 0 and i % 5 != 0:
            continue
        total += i
    return clip_to(total, bound)


def first_multiple(x, k):
    """The first element of x that is a multiple of k, or -1."""
    found = -1
    for v in x:
        if v % k == 0:
            found = v
            break
    return found


@tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
def normalize(x):
    """x scaled to a maximum of 1 (x unchanged when its maximum is not positive)."""
    top = tf.reduce_max(x)
    return x / top if top > 0 else x


class Accumulator(tf.Module):
    """Adds up the positive values it is given, in a Variable."""

    def __init__(self):
        super().__init__()
        self.total = tf.Variable(0.0)

    def add(self, x):
        """Adds x when it is positive; returns the running total."""
        if x > 0:
            self.total.assign_add(x)
        return self.total.read_value()
