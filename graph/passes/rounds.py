"""The default pass pipeline, re-run only where a change can enable more work.

Running every pass on every graph until a round changes nothing costs a
whole extra round (a third of the optimization time of a typical traced
function) just to learn that nothing changes. Which changes can enable
further work in a later round is known pass by pass (the order is identity,
algebraic, constant folding, CSE, hoisting, prune):

* identity and NoOp removal, algebraic simplification and CSE finish their
  own work in one walk (each rewires later readers as it goes), and what
  they enable in the passes after them happens in the same round;
* constant folding makes new constants, which algebraic simplification
  (earlier in the round) may now remove: the graph runs again;
* hoisting adds nodes in front of a loop (foldable or mergeable there) and
  changes the loop's body and condition: all three run again;
* pruning a node that waited on another or held a sub-graph may free a node
  the other passes had to leave alone (a control input, a shared body): the
  graph runs again.

A graph that runs again takes the graph holding it along, because hoisting
out of a body is the holder's work. ``tests/graph/test_passes.py`` checks
that this reaches the same graph as re-running everything.
"""
from __future__ import annotations

from graph.ir import Graph
from graph.passes import algebraic, constant_folding, cse, hoisting, identity, prune
from graph.passes.rewrite import all_graphs, subgraphs


def run_default(root: Graph, max_rounds: int, family: list[Graph] | None = None) -> None:
    """Optimizes ``root``'s family (``all_graphs(root)``, if the caller has it) in place
    with the default passes."""
    family = all_graphs(root) if family is None else family
    work = family
    for _ in range(max_rounds):
        again = _round(root, family, work)
        family = all_graphs(root) if again else family  # (a round without `again` kept it)
        if not again:
            break
        work = _with_holders(family, again)
    prune.prune_library(root, family)


def _round(root: Graph, family: list[Graph], work: list[Graph]) -> set[int]:
    """One round over ``work`` (innermost first); the ids of graphs to run again."""
    again: set[int] = set()
    for g in work:
        identity.remove_identities_in_place(g)
    for g in work:
        algebraic.simplify_in_place(g)
    for g in work:
        if constant_folding.fold_in_place(g):
            again.add(id(g))
    for g in work:
        cse.cse_in_place(g)
    touched: list[Graph] = []
    if any(n.op in hoisting.WHILE_OPS for g in work for n in g.nodes):  # (else nothing to hoist)
        shared = hoisting._shared_bodies(root, family)
        for g in work:
            hoisting.hoist_in_place(g, shared, touched)
    again.update(id(g) for g in touched)
    for g in work:
        structural: list = []
        prune.prune_in_place(g, structural)
        if structural:
            again.add(id(g))
    return again


def _with_holders(family: list[Graph], ids: set[int]) -> list[Graph]:
    """The graphs of ``family`` in ``ids`` or holding one of them, in family order."""
    chosen = set(ids)
    for g in family:
        if id(g) not in chosen and any(id(sub) in ids for n in g.nodes for sub in subgraphs(n)):
            chosen.add(id(g))
    return [g for g in family if id(g) in chosen]
