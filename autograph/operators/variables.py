"""Placeholders for variables that have no value yet, and the checked load ``ld``.

Converted control flow needs a binding for every variable it carries, even
one that the user's code assigns only later (``set_state`` declares it
``nonlocal``). Such a variable starts as ``Undefined(name)``; ``ld`` turns a
read of it into a clear error naming the variable and the line.
"""
from __future__ import annotations

from runtime.origin import current_origin


class Undefined:
    """The value of a variable that is not (or not on every path) assigned.

    ``reason`` says why, when staged control flow made it undefined (for
    example "it is assigned only in the true branch of the `if` at f.py:3").
    """

    __slots__ = ("symbol_name", "reason")

    def __init__(self, symbol_name: str, reason: str | None = None):
        self.symbol_name = symbol_name
        self.reason = reason

    def __repr__(self) -> str:
        return f"Undefined({self.symbol_name!r})"

    def error(self) -> UnboundLocalError:
        # Python's own type, exactly: native and converted code must raise the same type.
        origin = current_origin()
        where = f" at {origin}" if origin is not None else ""
        if self.reason is None:
            return UnboundLocalError(
                f"local variable '{self.symbol_name}' is used before assignment{where}.")
        return UnboundLocalError(
            f"'{self.symbol_name}' is used{where}, but {self.reason}, so it has no value on "
            f"every path. Assign '{self.symbol_name}' before that statement (or on every "
            "branch) to give it a value on every path.")


def is_undefined(value) -> bool:
    return type(value) is Undefined


def ld(value):
    """Loads a variable that may be undefined: returns it, or raises a clear error."""
    if type(value) is Undefined:
        raise value.error()
    return value


def ldu(load, name: str):
    """Loads a composite symbol (``x['b']``, ``obj.attr``) that may not exist yet: its value,
    or ``Undefined(name)`` when the key, attribute or item is missing (state of converted
    control flow that only some paths create)."""
    try:
        return load()
    except (NameError, KeyError, AttributeError, IndexError):
        return Undefined(name)
