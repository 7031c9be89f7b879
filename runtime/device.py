"""``tf.device``: device placement as a context manager and decorator."""
from __future__ import annotations

__all__: list[str] = []  # the names TensorFlow also has at top level (tf.X)
