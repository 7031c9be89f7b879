"""``tf.name_scope``: prefixes the names of the nodes created inside it.

In a graph being built (a ``tf.function`` trace, a cond or loop body) the
scope is the graph's (``Graph.enter_name_scope``): ``with
tf.name_scope("a") as scope`` gives ``"a/"`` and the nodes inside are named
``a/Add``...; entering ``"a"`` again gives ``"a_1/"``; ``""`` resets to the top
level and ``"a/"`` re-enters that scope as it is. Names are checked there
as TensorFlow checks them (ValueError).

Eagerly nothing is named: the scope is only a per-thread string nested the
way TensorFlow nests it (``"a/b/"``, never made unique), which is what
``__enter__`` returns. A function traced inside an eager scope starts at
the top level, as in TensorFlow.

``tf.compat.v1.name_scope(name, default_name=None, values=None)`` is
``name_scope_v1``: the same in a graph, nothing at all (``None``) eagerly.
"""
from __future__ import annotations

import re
import threading

from runtime import context

__all__ = ["name_scope", "name_scope_v1"]

# TensorFlow's rules: a scope at the top level is an op name (no leading
# '_', '-', '/' or '\'); below it the first character is free.
_VALID_OP_NAME = re.compile(r"^[A-Za-z0-9.][A-Za-z0-9_.\\/>-]*$")
_VALID_SCOPE_NAME = re.compile(r"^[A-Za-z0-9_.\\/>-]*$")


class _EagerScope(threading.local):
    def __init__(self):
        self.name = ""


_eager = _EagerScope()


def current_eager_scope() -> str:
    """The eager name scope string of this thread (``"a/b/"``, ``""`` at the top)."""
    return _eager.name


def _check_graph_name(name: str, nested: bool) -> None:
    pattern = _VALID_SCOPE_NAME if nested else _VALID_OP_NAME
    if not pattern.match(name):
        raise ValueError(f"'{name}' is not a valid scope name. A scope name has to match the "
                         f"following pattern: {pattern.pattern}")


def _enter_graph_scope(graph, name: str):
    if name:
        _check_graph_name(name, nested=bool(graph.name_stack))
    return graph.enter_name_scope(name)


class name_scope:  # noqa: N801  (TensorFlow's name)
    """``tf.name_scope(name)``: a context manager opening a name scope.

    ``with tf.name_scope("outer") as scope:`` binds ``scope`` to ``"outer/"``
    (``"outer_1/"`` when a graph already holds that name).
    """

    __slots__ = ("_name", "_exits")

    def __init__(self, name):
        if not isinstance(name, str):
            raise ValueError("name for name_scope must be a string.")
        self._name = name
        self._exits = []

    @property
    def name(self) -> str:
        return self._name

    def __enter__(self) -> str:
        graph = context.current_graph()
        if graph is None:
            old = _eager.name
            name = self._name
            if not name:
                scope = ""
            elif name[-1] == "/":
                scope = name
            else:
                scope = old + name + "/"
            _eager.name = scope
            self._exits.append((None, old))
            return scope
        scope, restore = _enter_graph_scope(graph, self._name)
        self._exits.append((graph, restore))
        return scope

    def __exit__(self, *exc) -> bool:
        graph, restore = self._exits.pop()
        if graph is None:
            _eager.name = restore
        else:
            graph.exit_name_scope(restore)
        return False

    def __repr__(self) -> str:
        return f"name_scope({self._name!r})"


class name_scope_v1:  # noqa: N801
    """``tf.compat.v1.name_scope(name, default_name=None, values=None)``.

    In a graph: the scope ``name`` (or ``default_name`` when ``name`` is
    None; a ValueError when both are None); ``values`` is accepted and
    ignored, as inside a function. Eagerly a no-op whose ``__enter__`` gives
    None, as in TensorFlow.
    """

    __slots__ = ("_name", "_default_name", "_exits")

    def __init__(self, name, default_name=None, values=None):
        if not (default_name is None or isinstance(default_name, str)):
            raise TypeError(f"`default_name` type ({type(default_name)}) is not a string type. "
                            "You likely meant to pass this into the `values` kwarg.")
        self._name = default_name if name is None else name
        self._default_name = default_name
        self._exits = []

    @property
    def name(self):
        return self._name

    def __enter__(self):
        graph = context.current_graph()
        if graph is None:
            self._exits.append(None)
            return None
        if self._name is None:
            raise ValueError(f"At least one of name ({self._name}) and default_name "
                             f"({self._default_name}) must be provided.")
        name = self._name
        if not isinstance(name, str):
            name = name.decode() if isinstance(name, bytes) else str(name)
        scope, restore = _enter_graph_scope(graph, name)
        self._exits.append((graph, restore))
        return scope

    def __exit__(self, *exc) -> bool:
        entered = self._exits.pop()
        if entered is not None:
            graph, restore = entered
            graph.exit_name_scope(restore)
        return False
