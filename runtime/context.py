"""Which graph is being built, if any: a per-thread stack of building contexts.

``None`` on the stack means eager execution (what ``init_scope`` pushes).
"""
from __future__ import annotations

import threading

from graph.ir import Graph


class _Stack(threading.local):
    def __init__(self):
        self.graphs: list[Graph | None] = []


_stack = _Stack()
building_stack = _stack  # read directly on hot paths: current_graph() costs ~80 ns


def current_graph() -> Graph | None:
    """The graph ops are recorded into, or None when executing eagerly."""
    graphs = _stack.graphs
    return graphs[-1] if graphs else None


def executing_eagerly() -> bool:
    return current_graph() is None


class building:
    """Records ops into ``graph`` (or runs them eagerly for None) inside the block.

    A class, not a generator context manager: every traced branch and loop body
    enters one, and this costs a quarter as much."""

    __slots__ = ("graph",)

    def __init__(self, graph: Graph | None):
        self.graph = graph

    def __enter__(self) -> Graph | None:
        _stack.graphs.append(self.graph)
        return self.graph

    def __exit__(self, *exc) -> None:
        _stack.graphs.pop()


def init_scope() -> building:
    """Lifts the ops in the block out of every graph being built: they run eagerly.

    This is how state (Variables, their initial values) is created once,
    outside the function being traced.
    """
    return building(None)


def is_building(graph: Graph) -> bool:
    """True while ``graph`` or one of its sub-graphs is being built."""
    g = current_graph()
    while g is not None:
        if g is graph:
            return True
        g = g.outer
    return False
