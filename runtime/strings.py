"""``tf.strings``: string formatting, joining and conversion."""
from runtime.ops.string_ops import (as_string, format, join, length, lower,  # noqa: F401
                                    to_number, upper)
