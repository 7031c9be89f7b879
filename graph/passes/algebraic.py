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


def _const(o: Output):
    return o.node.attrs["value"] if o.node.op == "Const" else None


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


def simplified(node: Node) -> Output | None:
    """The input ``node`` can be replaced with, or None."""
    if len(node.inputs) != 2 or len(node.outputs) != 1 or node.control_inputs:
        return None
    a, b = node.inputs
    candidates = []
    if node.op == "Mul":
        candidates = [(a, b, lambda v: _all(v, 1)), (b, a, lambda v: _all(v, 1))]
    elif node.op in ("RealDiv", "TrueDiv", "Div"):
        candidates = [(a, b, lambda v: _all(v, 1))]
    elif node.op == "Sub":
        candidates = [(a, b, lambda v: _all(v, 0, negative_zero=False))]
    elif node.op == "AddV2" or node.op == "Add":
        zero = lambda v: _all(v, 0, negative_zero=True)
        candidates = [(a, b, zero), (b, a, zero)]
    for x, c, test in candidates:
        value = _const(c)
        if value is not None and not x.dtype.is_string and _keeps_type(node, x, c) \
                and test(value):
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
