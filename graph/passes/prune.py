"""Pruning: drop every node that no output and no stateful op needs.

The executor prunes its schedule the same way at run time; pruning the
graph itself makes the optimized graph that users inspect show only what
runs, and keeps the other passes from working on dead code.
"""
from __future__ import annotations

from graph.executor import schedule
from graph.ir import Graph
from graph.passes.rewrite import all_graphs, copy_graph, subgraphs


def prune_in_place(graph: Graph, structural: list | None = None) -> bool:
    """Prunes ``graph`` (not its sub-graphs); True when it removed something.

    ``structural`` (if given) receives the removed nodes that waited on other
    nodes or held sub-graphs: removing them can let other passes do more.
    """
    keep = {id(n) for n in schedule(graph, graph.outputs)}
    keep.update(id(i.node) for i in graph.inputs)
    if len(keep) >= len(graph.nodes):
        return False
    if structural is not None:
        structural.extend(n for n in graph.nodes if id(n) not in keep
                          and (n.control_inputs or subgraphs(n)))
    graph.nodes = [n for n in graph.nodes if id(n) in keep]
    graph.captures = {k: v for k, v in graph.captures.items() if id(v.node) in keep}
    return True


def prune_library(root: Graph, family: list[Graph] | None = None) -> None:
    """Forgets library functions that no node of the root's family (``all_graphs(root)``,
    if the caller has it) refers to anymore."""
    reachable = {id(g) for g in (all_graphs(root) if family is None else family)}
    for name in [n for n, g in root.library.items() if id(g) not in reachable]:
        del root.library[name]


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= prune_in_place(g)
    prune_library(root)
    return changed


def prune(graph: Graph) -> Graph:
    """A pruned copy of ``graph`` (and of its sub-graphs)."""
    graph = copy_graph(graph)
    run(graph)
    return graph

