"""``tf.Module``: a named container that finds the Variables and sub-Modules it holds.

Tracking walks the object's attributes (and lists, tuples and dicts in
them) at the moment it is asked, as TensorFlow does, so variables created
lazily — ``if self.v is None: self.v = tf.Variable(0)`` inside a
tf.function — are found as soon as they exist.
"""
from __future__ import annotations

import re

from runtime.trace_type import is_variable


def _camel_to_snake(name: str) -> str:
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


class Module:
    """Base class for objects that own Variables (``tf.Module``)."""

    def __init__(self, name: str | None = None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_.\-/]*", name):
            raise ValueError(f"{name!r} is not a valid module name: use letters, digits and "
                             "underscores, starting with a letter or underscore.")
        self._name = name

    @property
    def name(self) -> str:
        # A subclass that forgot super().__init__() still gets a name.
        return self.__dict__.get("_name") or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self) -> str:
        return self.name + "/"

    @property
    def variables(self) -> tuple:
        """Every Variable held by this module and its sub-modules, each once."""
        return tuple(_walk(self, is_variable))

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if getattr(v, "trainable", True))

    @property
    def non_trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if not getattr(v, "trainable", True))

    @property
    def submodules(self) -> tuple:
        """Every Module reachable from this one (not including itself)."""
        return tuple(_walk(self, lambda o: isinstance(o, Module)))

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


def _walk(root: Module, wanted) -> list:
    found, seen = [], {id(root)}

    def visit(value):
        if id(value) in seen:
            return
        if wanted(value):
            seen.add(id(value))
            found.append(value)
        if isinstance(value, Module):
            seen.add(id(value))
            for k in sorted(vars(value)):
                if not k.startswith("__"):
                    visit(vars(value)[k])
        elif isinstance(value, dict):
            seen.add(id(value))
            for k in sorted(value, key=repr):
                visit(value[k])
        elif isinstance(value, (list, tuple)):
            seen.add(id(value))
            for v in value:
                visit(v)

    for k in sorted(vars(root)):
        if not k.startswith("__"):
            visit(vars(root)[k])
    return found
