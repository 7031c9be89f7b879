"""Loop-invariant code motion: compute once before a While what every iteration recomputes.

A body node is invariant when each input is a loop variable the body passes
through unchanged (a capture), a constant, or another invariant node. Such a
node moves into the outer graph in front of the While (keeping its name and
origin); its value enters the loop as one more pass-through loop variable.

Hoisting runs the node even when the loop runs zero times, so only nodes that
cannot fail on inputs of their inferred types move: pure elementwise ufuncs
and a few shape-checked ops, with fully known input shapes. Stateful and
random nodes never move.
"""
from __future__ import annotations

import numpy as np

from graph.ir import Graph, Node, Output, TensorType
from graph.passes.rewrite import (all_graphs, control_dependents, copy_graph,
                                  holds_plain_values, is_pure, replace_uses, subgraphs)
from graph.registry import get_op

WHILE_OPS = ("While", "StatelessWhile")
# ops that cannot fail once inference accepted their fully known input shapes
_SAFE_OPS = frozenset({"MatMul", "BatchMatMulV2", "Cast", "Sigmoid", "Relu", "Transpose",
                       "SquaredDifference", "Identity"})


def _through_identities(o: Output) -> Output:
    while o.node.op == "Identity" and len(o.node.inputs) == 1:
        o = o.node.inputs[0]
    return o


def can_hoist(node: Node) -> bool:
    opdef = get_op(node.op)
    if node.op in ("Placeholder", "Const") or opdef.function_attrs or node.control_inputs:
        return False
    if not is_pure(node) or not holds_plain_values(node):
        return False
    if not all(i.shape.is_fully_defined() for i in node.inputs):
        return False
    if node.op in _SAFE_OPS:
        return True
    try:
        kernel = opdef.make_kernel(node, None)
    except Exception:
        return False
    return isinstance(kernel, np.ufunc) and not any(
        i.dtype.is_string for i in node.inputs)


def _placeholder(graph: Graph, like: Output, base: str) -> Output:
    t = like.type
    node = Node(graph, graph.unique_name(base), "Placeholder", [], [],
                {"dtype": t.dtype, "shape": t.shape}, [TensorType(t.dtype, t.shape)], None)
    graph.nodes.insert(0, node)
    return node.output(0)


def hoist_from(graph: Graph, loop: Node) -> bool:
    """Moves the invariant nodes of ``loop``'s body in front of it; True if any moved."""
    body, cond = loop.attrs["body"], loop.attrs["cond"]
    outer_of: dict[Output, Output] = {}
    for i, (inp, out) in enumerate(zip(body.inputs, body.outputs)):
        if _through_identities(out) == inp:
            outer_of[inp] = loop.inputs[i]
    if not outer_of:
        return False
    waited_on = control_dependents(body)
    moved: list[Node] = []
    moved_ids: set[int] = set()
    for node in body.nodes:  # (the inputs first: ``can_hoist`` may build a kernel)
        if id(node) in waited_on:
            continue
        if all(i in outer_of or i.node.op == "Const" or id(i.node) in moved_ids
               for i in node.inputs) and can_hoist(node):
            moved.append(node)
            moved_ids.add(id(node))
    if not moved or all(all(i.node.op == "Const" for i in n.inputs) for n in moved):
        return False  # constant-only work is constant folding's job
    position = next(k for k, n in enumerate(graph.nodes) if n is loop)
    new_nodes: list[Node] = []
    consts: dict[int, Output] = {}
    for node in moved:
        inputs = []
        for i in node.inputs:
            if i in outer_of:
                inputs.append(outer_of[i])
            elif i.node.op == "Const":
                if id(i.node) not in consts:
                    c = i.node
                    copy = Node(graph, graph.unique_name(c.name.rsplit("/", 1)[-1]), "Const", [],
                                [], dict(c.attrs), list(c.outputs), c.origin)
                    new_nodes.append(copy)
                    consts[id(c)] = copy.output(0)
                inputs.append(consts[id(i.node)])
            else:
                inputs.append(i)  # an earlier moved node: already outer
        node.inputs, node.graph = inputs, graph
        new_nodes.append(node)
    graph.nodes[position:position] = new_nodes
    body.nodes = [n for n in body.nodes if id(n) not in moved_ids]
    used = {i for n in body.nodes for i in n.inputs} | set(body.outputs)
    for g in all_graphs(body):
        used.update(g.captures)
    mapping: dict[Output, Output] = {}
    for node in moved:
        for j in range(len(node.outputs)):
            o = node.output(j)
            if o not in used:
                continue
            inner = _placeholder(body, o, "hoisted")
            _placeholder_for_cond = _placeholder(cond, o, "hoisted")
            body.inputs.append(inner)
            body.outputs.append(inner)
            body.captures[o] = inner
            cond.inputs.append(_placeholder_for_cond)
            loop.inputs.append(o)
            loop.outputs.append(o.type)
            if "output_types" in loop.attrs:
                loop.attrs["output_types"] = list(loop.attrs["output_types"]) + [o.type]
            mapping[o] = inner
    replace_uses(body, mapping)
    return True


def hoist_in_place(graph: Graph, shared: set[int], touched: list | None = None) -> bool:
    """Hoists from the loops of ``graph``; ``touched`` (if given) receives every graph
    that changed (``graph`` and the loops' bodies and conditions)."""
    changed = False
    for node in list(graph.nodes):
        if node.op in WHILE_OPS and id(node.attrs["body"]) not in shared \
                and id(node.attrs["cond"]) not in shared:
            if hoist_from(graph, node):
                changed = True
                if touched is not None:
                    touched += [graph, node.attrs["body"], node.attrs["cond"]]
    return changed


def _shared_bodies(root: Graph, graphs: list[Graph] | None = None) -> set[int]:
    """ids of sub-graphs that more than one node refers to (never rewritten)."""
    count: dict[int, int] = {}
    for g in all_graphs(root) if graphs is None else graphs:
        for node in g.nodes:
            for sub in subgraphs(node):
                count[id(sub)] = count.get(id(sub), 0) + 1
    return {k for k, v in count.items() if v > 1}


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Hoists in ``root``'s family (``graphs``: its graphs innermost first, if known)."""
    graphs = all_graphs(root) if graphs is None else graphs
    shared = _shared_bodies(root, graphs)
    changed = False
    for g in graphs:  # innermost first: inner loops hoist into outer bodies
        changed |= hoist_in_place(g, shared)
    return changed


def hoist_loop_invariants(graph: Graph) -> Graph:
    """A copy of ``graph`` with loop-invariant body nodes moved in front of their loops."""
    graph = copy_graph(graph)
    run(graph)
    return graph
