"""Linear-algebra ops (tf.linalg): decompositions, solves, determinants, einsum."""
from __future__ import annotations
