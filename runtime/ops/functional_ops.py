"""Higher-order ops: map_fn, scan, foldl/foldr, vectorized_map."""
from __future__ import annotations

__all__: list[str] = []  # the names TensorFlow also has at top level (tf.X)
