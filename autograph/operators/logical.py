"""Lazy ``and``/``or``/``not``, chained comparisons and ``a if c else b`` that stage when a
tensor decides.

``and_``/``or_`` take the left operand's value and a thunk of the right one, so that
the right one is evaluated only when Python would evaluate it; with a symbolic left
operand it is traced into a cond branch.
"""
from __future__ import annotations

import operator

import runtime
from runtime.tensor import SymbolicTensor


def _truthy(value):
    """Python's truth of each element of a tensor: itself for bools, else ``!= 0`` (``!= ""``)."""
    if value.dtype.is_bool:
        return value
    if value.dtype.is_string:
        return runtime.not_equal(value, "")
    return runtime.not_equal(value, runtime.zeros_like(value))


def _like(a, value, op: str):
    """``value`` (the other operand of ``a and value``) as a tensor of ``a``'s dtype."""
    t = runtime.convert_to_tensor(value, dtype_hint=a.dtype)
    if t.dtype != a.dtype:
        raise TypeError(f"`{op}` on tensors gives one of its operands, so both must have one "
                        f"dtype, got {a.dtype.name} and {t.dtype.name}. Cast one of them (or "
                        "compare explicitly, for example `x > 0`).")
    return t


def and_(a, b):
    """``a and b()``: ``b`` is a thunk, evaluated only where Python would evaluate it.

    A symbolic ``a`` stages a cond with Python's value semantics: where ``a`` is truthy the
    result is ``b()``, else ``a`` (for bools, the logical and).
    """
    if isinstance(a, SymbolicTensor):
        return runtime.cond(_truthy(a), lambda: _like(a, b(), "and"), lambda: a)
    return a and b()


def or_(a, b):
    """``a or b()``; a symbolic ``a`` gives ``a`` where it is truthy, else ``b()``."""
    if isinstance(a, SymbolicTensor):
        return runtime.cond(_truthy(a), lambda: a, lambda: _like(a, b(), "or"))
    return a or b()


def not_(a):
    """``not a``; a tensor gives a LogicalNot of its truth."""
    if isinstance(a, SymbolicTensor):
        return runtime.logical_not(_truthy(a))
    return not a


_COMPARISONS = {
    "<": operator.lt, "<=": operator.le, ">": operator.gt, ">=": operator.ge,
    "==": operator.eq, "!=": operator.ne, "is": operator.is_, "is not": operator.is_not,
    "in": lambda a, b: a in b, "not in": lambda a, b: a not in b,
}


def compare_chain(left, op: str, right, *rest):
    """``left op right op2 rest[1]() ...``: Python's chained comparison, each operand evaluated
    once and in order (the later ones are thunks). A tensor comparison result stages the
    rest in a cond: the chain is the logical and of its pairwise comparisons."""
    result = _COMPARISONS[op](left, right)
    if not rest:
        return result
    return and_(result, lambda: compare_chain(right, rest[0], rest[1](), *rest[2:]))


def if_exp(cond, if_true, if_false):
    """``if_true() if cond else if_false()``; a tensor ``cond`` stages a cond."""
    if isinstance(cond, SymbolicTensor):
        return runtime.cond(cond, if_true, if_false)
    return if_true() if cond else if_false()
