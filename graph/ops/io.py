"""File and serialization ops (tf.io): read/write files, decode_raw, decode_csv, (de)serialize tensors."""
from __future__ import annotations
