"""``tf.Module``: a named container that finds the Variables and sub-Modules it holds.

Tracking walks the object's attributes (and lists, tuples and dicts in
them) at the moment it is asked, as TensorFlow does, so variables created
lazily — ``if self.v is None: self.v = tf.Variable(0)`` inside a
tf.function — are found as soon as they exist.

The same walk names the edges of the object graph that checkpoints and
SavedModels record (``trackable_children``): attributes, list indices and
dict keys. A restore that finds no live object for a saved edge leaves a
deferred callback on the nearest object (``defer``); ``Module.__setattr__``
and an optimizer creating its slots call ``notify_changed``, which is how a
variable created after ``restore`` still gets its checkpointed value.
"""
from __future__ import annotations

import functools
import re

from runtime.name_scope import name_scope
from runtime.trace_type import is_variable


def _camel_to_snake(name: str) -> str:
    return re.sub(r"((?<=[a-z0-9])[A-Z]|(?!^)[A-Z](?=[a-z]))", r"_\1", name).lower()


class Module:
    """Base class for objects that own Variables (``tf.Module``)."""

    def __init__(self, name: str | None = None):
        if name is None:
            name = _camel_to_snake(type(self).__name__)
        elif not re.fullmatch(r"[A-Za-z_][A-Za-z0-9_]*", name):  # (TensorFlow's rule and words)
            raise ValueError(f"{name!r} is not a valid module name. Module names must be valid "
                             "Python identifiers (e.g. a valid class name).")
        self._name = name

    @property
    def name(self) -> str:
        # A subclass that forgot super().__init__() still gets a name.
        return self.__dict__.get("_name") or _camel_to_snake(type(self).__name__)

    @property
    def name_scope(self):
        """A ``tf.name_scope`` re-entering this module's absolute scope (``with m.name_scope:``)."""
        return name_scope(self.name + "/")

    @classmethod
    def with_name_scope(cls, method):
        """``@tf.Module.with_name_scope``: ``method`` runs in its module's name scope."""
        @functools.wraps(method)
        def method_with_name_scope(self, *args, **kwargs):
            with self.name_scope:
                return method(self, *args, **kwargs)
        return method_with_name_scope

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

    def __setattr__(self, name, value):
        object.__setattr__(self, name, value)
        if name != DEFERRED_ATTR and self.__dict__.get(DEFERRED_ATTR):
            notify_changed(self)

    def __repr__(self) -> str:
        return f"<{type(self).__module__}.{type(self).__name__} object at {id(self):#x}>"


# -- the object graph of checkpoints and SavedModels ------------------------------------------

DEFERRED_ATTR = "_deferred_restores"


def is_trackable(value, _open: frozenset = frozenset()) -> bool:
    """Can ``value`` hold state a checkpoint records (directly or inside containers)?"""
    if is_variable(value) or isinstance(value, Module) or hasattr(value, "_trackable_children"):
        return not isinstance(value, type)
    if isinstance(value, (dict, list, tuple)) and id(value) not in _open:
        inner = _open | {id(value)}  # a list holding itself is not walked forever
        items = value.values() if isinstance(value, dict) else value
        return any(is_trackable(v, inner) for v in items)
    return False


def trackable_children(obj) -> dict:
    """The named edges from ``obj`` to the trackable objects it holds, in a stable order.

    An object may name its own edges with ``_trackable_children()`` (optimizers,
    ``tf.train.Checkpoint``); Modules and other objects are walked by attribute,
    lists and tuples by index, dicts by key, as TensorFlow names them.
    """
    custom = getattr(obj, "_trackable_children", None)
    if custom is not None and not isinstance(obj, type):
        items = custom().items()
    elif isinstance(obj, dict):
        items = ((str(k), obj[k]) for k in sorted(obj, key=repr))
    elif isinstance(obj, (list, tuple)):
        items = ((str(i), v) for i, v in enumerate(obj))
    elif is_variable(obj) or not hasattr(obj, "__dict__"):
        return {}
    else:
        return attribute_children(obj)
    return {k: v for k, v in items if is_trackable(v)}


def attribute_children(obj) -> dict:
    """The trackable attributes of ``obj``, by name (what an object without its own
    ``_trackable_children`` is walked by)."""
    return {k: v for k, v in sorted(vars(obj).items())
            if not k.startswith("__") and k != DEFERRED_ATTR and is_trackable(v)}


def defer(obj, callback) -> None:
    """Calls ``callback(obj)`` whenever ``obj`` changes, until it returns True."""
    obj.__dict__.setdefault(DEFERRED_ATTR, []).append(callback)


def notify_changed(obj) -> None:
    """Runs the deferred callbacks of ``obj``; those that are done are dropped."""
    pending = obj.__dict__.get(DEFERRED_ATTR)
    if pending:
        obj.__dict__[DEFERRED_ATTR] = []  # callbacks may defer again while they run
        kept = [cb for cb in pending if not cb(obj)]
        obj.__dict__[DEFERRED_ATTR] = kept + obj.__dict__[DEFERRED_ATTR]


def _walk(root: Module, wanted) -> list:
    """What ``wanted`` picks, as TensorFlow's ``Module._flatten`` orders it: a module's own
    attributes (sorted by name, containers flattened) come before what its sub-modules hold,
    each sub-module's share whole, in the order they were found."""
    found, seen = [], {id(root)}

    def visit(value, modules: list):
        if id(value) in seen:
            return
        if wanted(value):
            seen.add(id(value))
            found.append(value)
        if isinstance(value, Module):
            seen.add(id(value))
            modules.append(value)
        elif isinstance(value, dict):
            seen.add(id(value))
            for k in sorted(value, key=repr):
                visit(value[k], modules)
        elif isinstance(value, (list, tuple)):
            seen.add(id(value))
            for v in value:
                visit(v, modules)

    def flatten(module):
        attrs, modules = vars(module), []
        for k in sorted(attrs):
            if not k.startswith("__") and k != DEFERRED_ATTR:
                visit(attrs[k], modules)
        for m in modules:
            flatten(m)

    flatten(root)
    return found
