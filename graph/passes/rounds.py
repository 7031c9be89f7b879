"""The default pass pipeline, re-run only where a change can enable more work.

Running every pass on every graph until a round changes nothing costs a
whole extra round (a third of the optimization time of a typical traced
function) just to learn that nothing changes. Which changes can enable
further work in a later round is known pass by pass (the order is variable
reads, identity, algebraic, constant folding, CSE, hoisting, prune):

* merging repeated variable reads finishes in one walk before the others,
  which then merge what the merged reads fed;
* identity and NoOp removal, algebraic simplification and CSE finish their
  own work in one walk (each rewires later readers as it goes), and what
  they enable in the passes after them happens in the same round;
* constant folding makes new constants, which algebraic simplification
  and CSE may now use: the one walk below (``_local_passes``) meets them
  there already; a graph holding NoOps, whose passes run one after the
  other, runs again;
* hoisting adds nodes in front of a loop (foldable or mergeable there) and
  changes the loop's body and condition: all three run again;
* pruning a node that waited on another or held a sub-graph may free a node
  the other passes had to leave alone (a control input, a shared body): the
  graph runs again.

A graph that runs again takes the graph holding it along, because hoisting
out of a body is the holder's work. ``tests/graph/test_passes.py`` checks
that this reaches the same graph as re-running everything.

Identity removal, algebraic simplification, folding and CSE run as one walk
over a graph's nodes (``_local_passes``): creation order is a topological
order, so when a node is reached its inputs are final — an input just
folded is already a constant for the simplifications of its readers. The
walk reaches what the four passes reach in turn, so folding needs no round
of its own, and each graph is walked once instead of four times (tracing a
small function spends a third of its time optimizing).
"""
from __future__ import annotations

from graph.executor import inputs_only, schedule
from graph.ir import Graph
from graph.passes import algebraic, constant_folding, cse, hoisting, identity, prune
from graph.passes import variable_reads
from graph.passes.rewrite import (all_graphs, holds_plain_values, is_pure, removable_identity,
                                  replace_uses, subgraphs)
from graph.registry import get_op


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
    looping: list[Graph] = []  # (the local passes never add a loop)
    busy: list[Graph] = []
    for g in work:
        if inputs_only(g):
            continue  # (a branch passing values on): nothing to do, nothing to drop
        busy.append(g)
        ops = {n.op for n in g.nodes}
        if "ReadVariableOp" in ops:
            variable_reads.merge_reads_in_place(g)
        if "NoOp" in ops:  # (control edges move: pass by pass)
            identity.remove_identities_in_place(g)
            algebraic.simplify_in_place(g)
            if constant_folding.fold_in_place(g):
                again.add(id(g))
            cse.cse_in_place(g)
        else:
            _local_passes(g)
        if not ops.isdisjoint(hoisting.WHILE_OPS):
            looping.append(g)
    touched: list[Graph] = []
    if looping:  # (only a graph holding a loop hoists)
        shared = hoisting._shared_bodies(root, family)
        for g in looping:
            hoisting.hoist_in_place(g, shared, touched)
    again.update(id(g) for g in touched)
    for g in busy:
        structural: list = []
        prune.prune_in_place(g, structural)
        if structural:
            again.add(id(g))
    return again


def _local_passes(graph: Graph) -> None:
    """Identity removal, algebraic simplification, constant folding and CSE of ``graph``
    (which holds no NoOp) in one walk, with each pass's own rules."""
    nodes = graph.nodes
    waited_on = {id(c) for n in nodes for c in n.control_inputs}
    needed = None  # ids of the scheduled nodes (folding is non-strict), when first asked
    mapping: dict = {}
    sources: set[int] = set()  # ids of the nodes whose outputs ``mapping`` replaces
    removed: set[int] = set()
    seen: dict[tuple, object] = {}
    simplified, attr_key = algebraic.simplified, cse.attr_key
    fold_value, make_const = constant_folding.fold_value, constant_folding.make_const
    for node in nodes:
        inputs = node.inputs
        if sources:
            for i in inputs:
                if id(i.node) in sources and i in mapping:
                    inputs = node.inputs = [mapping.get(i, i) for i in inputs]
                    break
        op = node.op
        if op == "Placeholder":
            continue
        if op == "Identity" and removable_identity(node, waited_on):
            replaced = inputs[0]
        else:
            replaced = simplified(node) if len(inputs) == 2 and op != "Const" else None
            if replaced is not None and id(node) in waited_on:
                replaced = None
        if replaced is not None:
            mapping[node.output(0)] = replaced
            sources.add(id(node))
            removed.add(id(node))
            continue
        if op != "Const":
            for i in inputs:
                if i.node.op != "Const":
                    break
            else:  # every input is a constant (a loop: no generator per node)
                if needed is None:
                    needed = {id(n) for n in schedule(graph, graph.outputs)}
                value = fold_value(node) if id(node) in needed else None
                if value is not None:
                    make_const(node, value)
                    op, inputs = "Const", []
        opdef = get_op(op)
        if opdef.function_attrs or not is_pure(node) or not holds_plain_values(node):
            continue
        controls = node.control_inputs
        try:
            key = (op, tuple([(id(i.node), i.index) for i in inputs]),
                   tuple([id(c) for c in controls]) if controls else (), attr_key(node.attrs))
            first = seen.get(key)
        except TypeError:  # an unhashable attr: never merged
            continue
        if first is None:
            seen[key] = node
            continue
        for j in range(len(node.outputs)):
            mapping[node.output(j)] = first.output(j)
        sources.add(id(node))
        if id(node) not in waited_on:
            removed.add(id(node))
    if mapping:
        replace_uses(graph, mapping)
    if removed:
        graph.nodes = [n for n in nodes if id(n) not in removed]


def _with_holders(family: list[Graph], ids: set[int]) -> list[Graph]:
    """The graphs of ``family`` in ``ids`` or holding one of them, in family order."""
    chosen = set(ids)
    for g in family:
        if id(g) not in chosen and any(id(sub) in ids for n in g.nodes for sub in subgraphs(n)):
            chosen.add(id(g))
    return [g for g in family if id(g) in chosen]
