"""Gradients of special functions, scans and segment ops."""
from __future__ import annotations
