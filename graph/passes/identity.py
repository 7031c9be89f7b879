"""Identity and NoOp removal.

An Identity passes its input on unchanged, so its readers can read the input
directly. A NoOp only orders things: the nodes that wait on it wait on its
own control inputs instead. Nodes that others wait on (control inputs) or
that wait on something themselves are kept, so ordering never changes.
"""
from __future__ import annotations

from graph.ir import Graph, Output
from graph.passes.rewrite import (all_graphs, control_dependents, copy_graph, remove_nodes,
                                  removable_identity, replace_uses)


def remove_identities_in_place(graph: Graph) -> bool:
    waited_on = control_dependents(graph)
    mapping: dict[Output, Output] = {}
    dead = []
    for node in graph.nodes:
        if removable_identity(node, waited_on):
            mapping[node.output(0)] = node.inputs[0]
            dead.append(node)
    for node in graph.nodes:
        if node.op == "NoOp" and not node.inputs:
            dead.append(node)
    noops = {id(n): n for n in dead if n.op == "NoOp"}
    if noops:
        for node in graph.nodes:
            if any(id(c) in noops for c in node.control_inputs):
                node.control_inputs = _expand(node.control_inputs, noops)
    replace_uses(graph, mapping)
    remove_nodes(graph, dead)
    return bool(dead)


def _expand(controls, noops):
    """Control inputs with every NoOp replaced by its own control inputs."""
    result, stack = [], list(reversed(controls))
    while stack:
        c = stack.pop()
        if id(c) in noops:
            stack.extend(reversed(c.control_inputs))
        elif all(c is not r for r in result):
            result.append(c)
    return result


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= remove_identities_in_place(g)
    return changed


def remove_identities(graph: Graph) -> Graph:
    """A copy of ``graph`` without Identity and NoOp nodes."""
    graph = copy_graph(graph)
    run(graph)
    return graph
