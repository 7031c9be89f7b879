"""The rest of ``tf.math``: special functions, scans, segment ops, counting."""
from __future__ import annotations

__all__: list[str] = []  # the names TensorFlow also has at top level (tf.X)
