"""Calling a traced graph from the graph being built: its nodes are copied in, fed by the
caller's tensors (TensorFlow records a call op and its optimizer inlines it; copying at once
gives the same graph, and gradients and the passes see ordinary nodes).

Used for a ConcreteFunction called while another function is traced, and for the traces a
loaded SavedModel replays.
"""
from __future__ import annotations

import re

from graph.ir import Graph
from graph.registry import get_op
from runtime import context
from runtime.ops.core import as_graph_input
from runtime.tensor import SymbolicTensor


def call_graph(graph: Graph, inputs: list) -> list:
    """Copies ``graph``'s nodes into the graph being built, fed by ``inputs``; its outputs."""
    target = context.current_graph()
    mapping = {ph: as_graph_input(target, t) for ph, t in zip(graph.inputs, inputs)}
    _copy_nodes(graph, target, mapping)
    return [SymbolicTensor(mapping[o]) for o in graph.outputs]


def _copy_nodes(source: Graph, target: Graph, mapping: dict) -> None:
    """Copies the nodes of ``source`` not in ``mapping`` into ``target``, extending ``mapping``.

    The sub-graphs of control flow are copied too, nested in ``target``: a
    graph names the bodies it holds, so a trace that is saved again holds
    its own bodies rather than those of the graph it was copied from.
    """
    copies = {}
    for node in source.nodes:
        if node.op == "Placeholder" and node.output(0) in mapping:
            continue
        attrs = dict(node.attrs)
        for key in get_op(node.op).function_attrs:
            attrs[key] = _nested_copy(attrs[key], target, mapping)
        new = target.add_node(node.op, [mapping[i] for i in node.inputs], attrs,
                              name=node.name.rsplit("/", 1)[-1],
                              control_inputs=[copies[id(c)] for c in node.control_inputs],
                              origin=node.origin)
        copies[id(node)] = new
        for i in range(len(node.outputs)):
            mapping[node.output(i)] = new.output(i)


def _nested_copy(value, outer: Graph, outer_mapping: dict):
    if isinstance(value, (list, tuple)):
        return type(value)(_nested_copy(v, outer, outer_mapping) for v in value)
    if not isinstance(value, Graph):
        return value
    new = Graph(outer.new_function_name(re.sub(r"_\d+$", "", value.name)), outer=outer)
    outer.add_function(new)
    mapping: dict = {}
    _copy_nodes(value, new, mapping)
    new.inputs = [mapping[i] for i in value.inputs]
    new.outputs = [mapping[o] for o in value.outputs]
    new.captures = {outer_mapping[o]: mapping[i] for o, i in value.captures.items()
                    if o in outer_mapping}
    return new
