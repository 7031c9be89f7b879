"""Gradients of the tf.linalg ops."""
from __future__ import annotations
