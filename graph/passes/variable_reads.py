"""Repeated variable reads: a read that no write can have come before gives the earlier value.

A ``ReadVariableOp`` is stateful only so that it keeps its place among the
assignments (the executor keeps stateful ops in creation order). Two reads of
one variable with no op between them that could write it give the same value,
so the later one's readers take the earlier one's output, and CSE then merges
the pure ops computed from both: an optimizer step reads its iteration count
and learning rate once per variable and computes the same bias correction
from them each time. (A read nobody uses is not scheduled at all:
``executor.schedule``.)

An op that could write the variable is an assignment to it, or any stateful
op that names no variable (a call, a stateful loop or branch, a py_function,
a random op: they are not looked into).
"""
from __future__ import annotations

from graph.ir import Graph
from graph.passes.rewrite import all_graphs, replace_uses
from graph.registry import get_op

_READ = "ReadVariableOp"
_WRITES_NOTHING = frozenset({"PrintV2", "Assert", "NoOp"})  # stateful, but touch no variable


def merge_reads_in_place(graph: Graph) -> bool:
    """Merges ``graph``'s repeated reads (not its sub-graphs'); True when it changed."""
    latest: dict[int, object] = {}  # resource id -> the output of its read still valid
    mapping: dict = {}
    removed: set[int] = set()
    waited_on = None
    for node in graph.nodes:
        op = node.op
        if op == _READ:
            resource = node.attrs["resource"]
            first = latest.get(resource)
            if first is None or node.control_inputs:
                latest[resource] = node.output(0)
                continue
            if waited_on is None:
                waited_on = {id(c) for n in graph.nodes for c in n.control_inputs}
            if id(node) in waited_on:
                continue
            mapping[node.output(0)] = first
            removed.add(id(node))
        elif latest and op not in _WRITES_NOTHING and (opdef := get_op(op)).stateful:
            resource = node.attrs.get("resource")
            if resource is None or "resource" not in opdef.kernel_attrs:
                latest.clear()  # (it may write any variable)
            else:
                latest.pop(resource, None)
    if not mapping:
        return False
    replace_uses(graph, mapping)
    graph.nodes = [n for n in graph.nodes if id(n) not in removed]
    return True


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= merge_reads_in_place(g)
    return changed
