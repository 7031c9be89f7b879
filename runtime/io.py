"""``tf.io``: files, raw bytes, CSV and serialized tensors."""
from __future__ import annotations
