"""``tf.nn``."""
from runtime.ops.nn_ops import *  # noqa: F401,F403
