"""Op records from graph nodes, and inlining a library graph to differentiate it.

In a graph the nodes are the record of what ran. A ReadVariableOp node
becomes a record whose input is the variable (a ``VariableHandle``), and an
If/While node also lists, as extra inputs, the variables its bodies read:
our graphs name variables by a resource attr instead of capturing a handle,
so this is how a gradient reaches a variable read inside a loop.

Gradients of If, While and function calls recompute the forward body from
its inputs (``inline``) and differentiate the copy. Recomputing is only
right when the body gives the same values again: a body that draws random
numbers or assigns variables is refused with an error naming the op.
"""
from __future__ import annotations

from graph.ir import Graph, Node
from graph.registry import get_op
from runtime import context
from runtime.gradients.registry import OpRecord, VariableHandle
from runtime.ops.core import as_graph_input
from runtime.tensor import SymbolicTensor

CONTROL_FLOW = ("If", "StatelessIf", "While", "StatelessWhile")
CALLS = ("PartitionedCall", "StatefulPartitionedCall")  # a jit_compile function's call node
# Stateful ops a recomputed body may hold: they give the same values again.
_REPLAYABLE = {"ReadVariableOp", "InitializeVariableOp", "If", "While", "StatefulPartitionedCall", "PrintV2", "Assert"}


def records_in(graph: Graph, spans) -> list[OpRecord]:
    """Records of the nodes of ``graph`` created in the ``[start, end)`` spans."""
    nodes = []
    for start, end in spans:
        nodes.extend(graph.nodes[start:end])
    return records_from_nodes(nodes)


def records_from_nodes(nodes, resolve=None) -> list[OpRecord]:
    """One record per node; ``resolve(output)`` gives the tensor standing for each
    output (default: the output itself, in its own graph)."""
    tensor = resolve or SymbolicTensor
    records = []
    for node in nodes:
        outputs = tuple(tensor(node.output(i)) for i in range(len(node.outputs)))
        if node.op == "ReadVariableOp":
            a = node.attrs
            inputs = (VariableHandle(a["resource"], a["dtype"], a["shape"]),)
        else:
            inputs = tuple(tensor(o) for o in node.inputs)
            if node.op in CONTROL_FLOW or node.op in CALLS:
                inputs += tuple(variables_read(node))
        records.append(OpRecord(node.op, inputs, outputs, node.attrs, node=node, resolve=resolve))
    return records


def copy_graph(graph: Graph) -> Graph:
    """A copy of library graph ``graph`` with its own nodes (sub-graphs stay shared).

    A differentiated while loop adds accumulators to its body: it first takes
    a private copy, so that no other node holding the same body (an inlined
    copy of the loop) changes with it.
    """
    outer = graph.outer
    new = Graph(outer.new_function_name(graph.name) if outer is not None else graph.name,
                outer=outer)
    mapping: dict = {}
    nodes: dict = {}
    for node in graph.nodes:
        copy = Node(new, node.name, node.op, [mapping[i] for i in node.inputs],
                    [nodes[id(c)] for c in node.control_inputs], dict(node.attrs),
                    list(node.outputs), node.origin)
        new.nodes.append(copy)
        nodes[id(node)] = copy
        for i in range(len(node.outputs)):
            mapping[node.output(i)] = copy.output(i)
    new.inputs = [mapping[i] for i in graph.inputs]
    new.outputs = [mapping[o] for o in graph.outputs]
    new.captures = {o: mapping[i] for o, i in graph.captures.items()}
    new.add_function(new)
    return new


def variables_read(node: Node) -> list[VariableHandle]:
    """The float variables read anywhere inside the sub-graphs of ``node``."""
    found: dict[int, VariableHandle] = {}
    seen: set[int] = set()

    def scan(graph: Graph) -> None:
        if id(graph) in seen:
            return
        seen.add(id(graph))
        for n in graph.nodes:
            if n.op == "ReadVariableOp" and (n.attrs["dtype"].is_floating
                                             or n.attrs["dtype"].is_complex):
                r = n.attrs["resource"]
                found.setdefault(r, VariableHandle(r, n.attrs["dtype"], n.attrs["shape"]))
            for name in get_op(n.op).function_attrs:
                scan(n.attrs[name])

    for name in get_op(node.op).function_attrs:
        scan(node.attrs[name])
    return list(found.values())


def check_replayable(graph: Graph, what: str, origin) -> None:
    """Refuses to recompute a body whose ops would not give the same values again."""
    for n in graph.nodes:
        opdef = get_op(n.op)
        if opdef.stateful and n.op not in _REPLAYABLE and n.op not in ("StatelessIf",
                                                                         "StatelessWhile"):
            where = f" at {origin}" if origin is not None else ""
            inner = f" (line {n.origin})" if n.origin is not None else ""
            raise NotImplementedError(
                f"Cannot differentiate through the {what}{where}: its body holds the stateful "
                f"op '{n.name}' ({n.op}){inner}, and the gradient recomputes the body. Move the "
                "op out of the differentiated code, or wrap its result in tf.stop_gradient "
                "outside the loop.")
        for name in opdef.function_attrs:
            check_replayable(n.attrs[name], what, origin)


def inline(graph: Graph, inputs) -> tuple[list, list[OpRecord]]:
    """Copies ``graph``'s nodes into the graph being built, fed by ``inputs``.

    Returns the copies of ``graph.outputs`` and the records of the copied
    nodes, ready to be differentiated. Ops without outputs (prints, asserts)
    are left out: the forward pass already ran them.
    """
    target = context.current_graph()
    mapping = {}
    for ph, t in zip(graph.inputs, inputs):
        mapping[ph] = as_graph_input(target, t)
    copied = []
    for node in graph.nodes:
        if node.op == "Placeholder" or not node.outputs:
            continue
        new = target.add_node(node.op, [mapping[i] for i in node.inputs], dict(node.attrs),
                              name=node.name.rsplit("/", 1)[-1], origin=node.origin)
        copied.append(new)
        for i in range(len(node.outputs)):
            mapping[node.output(i)] = new.output(i)
    outputs = [SymbolicTensor(mapping[o]) for o in graph.outputs]
    return outputs, records_from_nodes(copied)
