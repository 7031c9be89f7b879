"""Elementwise arithmetic and comparisons: broadcasting, TensorFlow dtype rules."""
from __future__ import annotations

import numpy as np

from graph.ops.infer import COMPARISON, binary, named, unary
from graph.registry import register_op

# name: (numpy kernel, inference rule)
_BINARY = {
    "AddV2": (np.add, binary("fis")),
    "Sub": (np.subtract, binary("fi")),
    "Mul": (np.multiply, binary("fi")),
    "Maximum": (np.maximum, binary("fi")),
    "Minimum": (np.minimum, binary("fi")),
    "Greater": (np.greater, COMPARISON),
    "GreaterEqual": (np.greater_equal, COMPARISON),
    "Less": (np.less, COMPARISON),
    "LessEqual": (np.less_equal, COMPARISON),
}

_UNARY = {
    "Neg": (np.negative, unary("fi")),
    "Tanh": (np.tanh, unary("f")),
}

for _name, (_kernel, _rule) in _BINARY.items():
    register_op(_name, named(_name, _rule), _kernel)
for _name, (_kernel, _rule) in _UNARY.items():
    register_op(_name, named(_name, _rule), _kernel)
