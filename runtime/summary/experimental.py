"""``tf.summary.experimental``."""
from runtime.summary.core import get_step, set_step, summary_scope, write_raw_pb  # noqa: F401
