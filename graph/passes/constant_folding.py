"""Constant folding: a pure node whose inputs are all constants becomes a Const.

The value is computed with the op's own registry kernel, so folding can
never disagree with running. Stateful and random ops are never folded;
nodes that fail, that produce something other than a plain tensor, or whose
value is larger than ``MAX_BYTES`` are left to run (and fail) at run time, so
non-strict semantics are kept. The folded node keeps its name and origin.
"""
from __future__ import annotations

import numpy as np

from graph.executor import check_value, schedule
from graph.ir import Graph, Node, TensorType
from graph.passes.rewrite import all_graphs, copy_graph, holds_plain_values, is_pure
from graph.registry import get_op

MAX_BYTES = 1 << 20


def fold_value(node: Node):
    """The value ``node`` computes from its constant inputs, or None when it must run."""
    opdef = get_op(node.op)
    if node.op in ("Const", "Placeholder") or opdef.function_attrs or not node.inputs \
            and opdef.build is not None:
        return None
    if len(node.outputs) != 1 or not is_pure(node) or not holds_plain_values(node):
        return None
    if any(i.node.op != "Const" for i in node.inputs):
        return None
    try:
        kernel = opdef.make_kernel(node, None)
        with np.errstate(all="ignore"):
            value = kernel(*[i.node.attrs["value"] for i in node.inputs])
        check_value(value, node, 0)
        array = np.array(value, dtype=node.outputs[0].dtype.numpy_dtype)
    except Exception:  # left for run time, where the error (if any) is reported
        return None
    if array.nbytes > MAX_BYTES:
        return None
    return array


def make_const(node: Node, value: np.ndarray) -> None:
    """Turns ``node`` into a Const holding ``value`` (its name, origin and control inputs stay)."""
    dtype = node.outputs[0].dtype
    node.op, node.inputs = "Const", []
    value.flags.writeable = False  # shared by every run: nobody may change it
    node.attrs = {"dtype": dtype, "value": value}
    node.outputs = [TensorType(dtype, value.shape)]


def fold_in_place(graph: Graph) -> bool:
    changed = False
    for node in schedule(graph, graph.outputs):
        value = fold_value(node)
        if value is not None:
            make_const(node, value)
            changed = True
    return changed


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= fold_in_place(g)
    return changed


def fold_constants(graph: Graph) -> Graph:
    """A copy of ``graph`` with constant sub-expressions computed once."""
    graph = copy_graph(graph)
    run(graph)
    return graph
