"""Elementwise special functions, scans, segment reductions and counting ops (tf.math)."""
from __future__ import annotations
