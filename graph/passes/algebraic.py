"""Algebraic simplification, only where the result is bit-for-bit the same.

``x * 1``, ``1 * x``, ``x / 1``, ``x - 0`` become ``x``; so does ``x + 0``
for integers, and for floats only ``x + (-0.0)`` (because ``-0.0 + 0.0`` is
``+0.0``). The constant must not change the result's shape or dtype by
broadcasting: it is a scalar, or ``x``'s shape is fully known and equals the
result's.
"""
from __future__ import annotations

import numpy as np

from graph.ir import Graph, Node, Output
from graph.passes.rewrite import all_graphs, copy_graph, remove_nodes, replace_uses


def _all(value, target: float, negative_zero: bool | None = None) -> bool:
    array = np.asarray(value)  # (the methods, not np.all: a third of the cost on a scalar)
    if array.dtype.kind not in "iuf" or array.size == 0 or not (array == target).all():
        return False
    if negative_zero is not None and array.dtype.kind == "f":
        return bool((np.signbit(array) == negative_zero).all())
    return True


def _keeps_type(node: Node, x: Output, c: Output) -> bool:
    out = node.outputs[0]
    if out.dtype != x.dtype or out.dtype != c.dtype or out.shape != x.shape:
        return False
    return c.shape.rank == 0 or x.shape.is_fully_defined()


# op -> (the neutral constant, the sign a zero must have or None, whether it may come first)
_NEUTRAL = {
    "Mul": (1, None, True),
    "RealDiv": (1, None, False), "TrueDiv": (1, None, False), "Div": (1, None, False),
    "Sub": (0, False, False),
    "AddV2": (0, True, True), "Add": (0, True, True),
}


def simplified(node: Node) -> Output | None:
    """The input ``node`` can be replaced with, or None."""
    rule = _NEUTRAL.get(node.op)
    if rule is None or len(node.inputs) != 2 or len(node.outputs) != 1 or node.control_inputs:
        return None
    target, negative_zero, commutative = rule
    a, b = node.inputs
    for x, c in ((a, b), (b, a)) if commutative else ((a, b),):
        if c.node.op == "Const" and not x.dtype.is_string and _keeps_type(node, x, c) \
                and _all(c.node.attrs["value"], target, negative_zero):
            return x
    return None


def simplify_in_place(graph: Graph) -> bool:
    mapping: dict[Output, Output] = {}
    dead = []
    waited_on = {id(c) for n in graph.nodes for c in n.control_inputs}
    for node in graph.nodes:
        if mapping and any(i in mapping for i in node.inputs):
            node.inputs = [mapping.get(i, i) for i in node.inputs]
        x = simplified(node)
        if x is not None and id(node) not in waited_on:
            mapping[node.output(0)] = x
            dead.append(node)
    replace_uses(graph, mapping)
    remove_nodes(graph, dead)
    return bool(dead)


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= simplify_in_place(g)
    return changed


def simplify(graph: Graph) -> Graph:
    """A copy of ``graph`` with exact algebraic identities applied."""
    graph = copy_graph(graph)
    run(graph)
    return graph
