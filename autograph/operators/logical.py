"""Lazy ``and``/``or``/``not`` and ``a if c else b`` that stage when a tensor decides.

``and_``/``or_`` take thunks so that the right operand is evaluated only
when Python would evaluate it; with a symbolic left operand the right one
is traced into a cond branch.
"""
from __future__ import annotations

import runtime
from runtime.ops.core import apply_op
from runtime.tensor import SymbolicTensor


def _as_bool_tensor(value):
    t = runtime.convert_to_tensor(value)
    if not t.dtype.is_bool:
        raise TypeError(f"A logical operator on tensors needs bool operands, got {t.dtype.name} "
                        "(compare it explicitly, for example `x > 0`).")
    return t


def and_(a, b):
    """``a() and b()``."""
    a_val = a()
    if isinstance(a_val, SymbolicTensor):
        return runtime.cond(_as_bool_tensor(a_val), lambda: _as_bool_tensor(b()), lambda: a_val)
    return a_val and b()


def or_(a, b):
    """``a() or b()``."""
    a_val = a()
    if isinstance(a_val, SymbolicTensor):
        return runtime.cond(_as_bool_tensor(a_val), lambda: a_val, lambda: _as_bool_tensor(b()))
    return a_val or b()


def not_(a):
    """``not a``; a tensor gives a LogicalNot."""
    if isinstance(a, SymbolicTensor):
        logical_not = getattr(runtime, "logical_not", None)
        if logical_not is not None:
            return logical_not(a)
        return apply_op("LogicalNot", [_as_bool_tensor(a)], name="LogicalNot")
    return not a


def if_exp(cond, if_true, if_false):
    """``if_true() if cond else if_false()``; a tensor ``cond`` stages a cond."""
    if isinstance(cond, SymbolicTensor):
        return runtime.cond(cond, if_true, if_false)
    return if_true() if cond else if_false()
