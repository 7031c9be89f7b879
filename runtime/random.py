"""``tf.random``: uniform and normal samples, and ``set_seed``."""
from runtime.ops.random_ops import get_seed, normal, set_seed, uniform  # noqa: F401
