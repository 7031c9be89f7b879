"""Python operators for tensors and tensor-likes (``x + y``, ``x > 0``, ``-x``, ``a @ b``...).

``install_operators(cls)`` puts them on a class; Tensor gets them at import,
Variable calls it too. Operands go through ``math_ops.operands``, so any
value ``convert_to_tensor`` accepts works on either side (a Variable via
``_as_tensor``), and a Python number takes the tensor's dtype.

``==``/``!=`` are elementwise as in TensorFlow 2 (shapes that do not
broadcast give a scalar False/True); comparing with None or with an object
that is no tensor value gives False/True instead of raising. ``& | ^ ~`` are
logical on bools and bitwise on integers.

``tnp.experimental_enable_numpy_behavior()`` reinstalls them with numpy's operand
promotion (``set_operand_promotion``).
"""
from __future__ import annotations

import numpy as np

from runtime.ops import math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor

_PLAIN_VALUES = (bool, int, float, complex, str, bytes, list, tuple, np.ndarray, np.generic)


def _defer(other, reflected: str) -> bool:
    """True when ``other`` is a foreign object that may implement the reflected operator."""
    return (not isinstance(other, _PLAIN_VALUES) and not math_ops.is_tensor_like(other)
            and hasattr(type(other), reflected))


def _binary(fn, op_name: str, dunder: str, promote=None):
    """The forward and reflected operator for ``fn(x, y, name=...)``; ``promote(x, y)``
    (numpy behaviour) converts the operands first."""
    if promote is not None:
        fn = _promoting(fn, promote)

    def forward(self, other):
        try:
            return fn(self, other, name=op_name)
        except (TypeError, ValueError):
            if _defer(other, f"__r{dunder}__"):
                return NotImplemented
            raise

    def reflected(self, other):
        try:
            return fn(other, self, name=op_name)
        except (TypeError, ValueError):
            if _defer(other, f"__{dunder}__"):
                return NotImplemented
            raise
    return forward, reflected


def _promoting(fn, promote):
    def promoted(x, y, name=None):
        x, y = promote(x, y)
        return fn(x, y, name=name)
    return promoted


def _bool_dtype(x, y) -> bool:
    for v in (x, y):
        if math_ops.is_tensor_like(v):
            return convert_to_tensor(v).dtype.is_bool
    return isinstance(x, bool)


def _and(x, y, name=None):
    return (math_ops.logical_and if _bool_dtype(x, y) else math_ops.bitwise_and)(x, y, name=name)


def _or(x, y, name=None):
    return (math_ops.logical_or if _bool_dtype(x, y) else math_ops.bitwise_or)(x, y, name=name)


def _xor(x, y, name=None):
    if _bool_dtype(x, y):
        return math_ops.logical_xor(x, y, name=name)
    return math_ops.bitwise_xor(x, y, name=name)


def _invert(x):
    t = convert_to_tensor(x)
    return math_ops.logical_not(t) if t.dtype.is_bool else math_ops.invert(t)


def _equality(op: str, when_incomparable: bool, promote=None):
    def compare(self, other):
        if other is None:
            return when_incomparable
        try:
            if promote is not None:
                self, other = promote(self, other)
            x, y = math_ops.operands(self, other, op)
        except (TypeError, ValueError):
            return when_incomparable
        return apply_op(op, [x, y], {"incompatible_shape_error": False}, name=op)
    return compare


_BINARY = {  # dunder: (function, node name)
    "add": (math_ops.add, "add"),
    "sub": (math_ops.subtract, "sub"),
    "mul": (math_ops.multiply, "mul"),
    "truediv": (math_ops.truediv, "truediv"),
    "floordiv": (math_ops.floordiv, "floordiv"),
    "mod": (math_ops.floormod, "mod"),
    "pow": (math_ops.pow, "pow"),
    "matmul": (math_ops.matmul, "matmul"),
    "and": (_and, "and"),
    "or": (_or, "or"),
    "xor": (_xor, "xor"),
}
_COMPARISONS = {"lt": math_ops.less, "le": math_ops.less_equal,
                "gt": math_ops.greater, "ge": math_ops.greater_equal}


_INSTALLED: list = []   # the classes that have the operators
_PROMOTION: list = [None]   # numpy behaviour's operand promotion, when turned on


def install_operators(cls) -> None:
    """Defines Python's arithmetic, comparison and logical operators on ``cls``."""
    if cls not in _INSTALLED:
        _INSTALLED.append(cls)
    promote = _PROMOTION[0]
    for dunder, (fn, op_name) in _BINARY.items():
        forward, reflected = _binary(fn, op_name, dunder, promote)
        setattr(cls, f"__{dunder}__", forward)
        setattr(cls, f"__r{dunder}__", reflected)
    for dunder, fn in _COMPARISONS.items():
        setattr(cls, f"__{dunder}__", _binary(fn, None, dunder, promote)[0])
    cls.__eq__ = _equality("Equal", False, promote)
    cls.__ne__ = _equality("NotEqual", True, promote)
    cls.__neg__ = lambda self: math_ops.negative(self)
    cls.__abs__ = lambda self: math_ops.abs(self)
    cls.__invert__ = _invert


def set_operand_promotion(promote) -> None:
    """Reinstalls the operators, converting operands with ``promote(x, y)`` first (numpy
    behaviour), or as TensorFlow does when None: the default operators carry no extra step."""
    _PROMOTION[0] = promote
    for cls in _INSTALLED:
        install_operators(cls)


install_operators(Tensor)
