"""``tf.nn`` ops under TensorFlow's names."""
from __future__ import annotations

__all__: list[str] = []  # the names TensorFlow also has at top level (tf.X)
