"""Gradients of the tf.nn ops."""
from __future__ import annotations
