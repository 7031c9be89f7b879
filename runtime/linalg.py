"""``tf.linalg``."""
from runtime.ops.linalg_ops import *  # noqa: F401,F403
