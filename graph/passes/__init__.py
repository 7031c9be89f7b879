"""Graph optimization passes, each in its own module, and the driver ``optimize``.

Every pass keeps node names and origins (errors still point at the user's
line) and works on a private copy: ``optimize`` never changes the graph it is
given, which a ConcreteFunction may still be showing to users.

Each pass module has ``run(root, graphs=None) -> bool`` (rewrites a graph
family it owns, in place; True when something changed; ``graphs`` saves it
walking the family again) and a public function returning a
rewritten copy (``prune``, ``fold_constants``, ...).
"""
from __future__ import annotations

from typing import Callable, Sequence

from graph.ir import Graph
from graph.passes import algebraic, constant_folding, cse, hoisting, identity, prune as _prune
from graph.passes import variable_reads
from graph.passes import rounds
from graph.passes.algebraic import simplify
from graph.passes.constant_folding import fold_constants
from graph.passes.cse import eliminate_common_subexpressions
from graph.passes.hoisting import hoist_loop_invariants
from graph.passes.identity import remove_identities
from graph.passes.prune import prune
from graph.passes.rewrite import all_graphs, copy_graph

Pass = Callable[[Graph], bool]

DEFAULT: tuple[Pass, ...] = (
    variable_reads.run,    # first: a merged read lets the others merge what it feeds
    identity.run,          # exposes pass-through loop variables and aliases
    algebraic.run,
    constant_folding.run,
    cse.run,
    hoisting.run,
    _prune.run,            # last: drops what the others left unused
)
PASSES: dict[str, Pass] = {
    "variable_reads": variable_reads.run, "identity": identity.run, "algebraic": algebraic.run, "constant_folding": constant_folding.run,
    "cse": cse.run, "hoisting": hoisting.run, "prune": _prune.run,
}  # by name, for callers that let users pick passes
MAX_ROUNDS = 4
_TAKES_GRAPHS = frozenset(PASSES.values())  # passes whose run accepts the family's graphs


def optimize(graph: Graph, passes: Sequence[Pass] = DEFAULT) -> Graph:
    """An optimized copy of ``graph``: ``passes`` run in order until nothing changes.

    Library graphs that nothing reaches are not copied (pruning would drop them).
    The default passes run through ``rounds.run_default``, which re-runs only
    where a change can enable more work; a custom list re-runs every pass on
    every graph until a round changes nothing.
    """
    family: list[Graph] = []
    if tuple(passes) == DEFAULT:  # (identity removal, the first local pass, starts in the copy)
        graph = copy_graph(graph, library=False, family=family, identities=False)
        rounds.run_default(graph, MAX_ROUNDS, family)
        return graph
    graph = copy_graph(graph, library=False, family=family)
    for _ in range(MAX_ROUNDS):
        # No pass adds or drops sub-graphs except prune (last): one walk serves a round.
        graphs = all_graphs(graph)
        changed = False
        for run in passes:
            changed |= bool(run(graph, graphs) if run in _TAKES_GRAPHS else run(graph))
        if not changed:
            break
    return graph


__all__ = ["optimize", "DEFAULT", "PASSES", "copy_graph", "prune", "fold_constants",
           "eliminate_common_subexpressions", "remove_identities", "simplify",
           "hoist_loop_invariants"]
