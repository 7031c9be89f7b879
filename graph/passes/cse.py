"""Common-subexpression elimination: one node per (op, inputs, attrs).

Two pure nodes with the same op type, the same inputs (after earlier
merges), the same control inputs and equal attrs compute the same values,
so the later one is dropped and its readers read the earlier one (whose
origin is kept). Stateful and random ops are never merged: each call must
happen. Control flow ops are left alone (their bodies differ by identity).
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import DType
from graph.ir import Graph, Output, TensorType
from graph.passes.rewrite import (all_graphs, copy_graph, holds_plain_values, is_pure,
                                  remove_nodes, replace_uses)
from graph.registry import get_op
from graph.shapes import TensorShape

_MAX_KEY_BYTES = 1 << 16  # larger constants are compared by identity only
_OBJECT = np.dtype(object)


_PLAIN = frozenset({type(None), bool, int, float, str, bytes})


def attr_key(value):
    """A hashable stand-in for an attr value: equal keys mean equal attrs."""
    kind = type(value)
    if kind in _PLAIN:
        return (kind.__name__, value)
    if kind is dict:  # (a node's attrs: every node asks)
        if not value:
            return ("dict", ())
        return ("dict", tuple(sorted([(str(k), attr_key(v)) for k, v in value.items()])))
    if kind is np.ndarray:  # (every Const's value)
        return _array_key(value)
    if kind is DType:  # (every Const's dtype)
        return ("dtype", value.name)
    if value is None or isinstance(value, (bool, int, float, str, bytes)):
        return (type(value).__name__, value)
    if isinstance(value, DType):
        return ("dtype", value.name)
    if isinstance(value, TensorShape):
        return ("shape", value.as_tuple())
    if isinstance(value, TensorType):
        return ("type", value.dtype.name, value.shape.as_tuple())
    if isinstance(value, (np.ndarray, np.generic)):
        return _array_key(np.asarray(value))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__, tuple(attr_key(v) for v in value))
    if isinstance(value, dict):
        return ("dict", tuple(sorted((str(k), attr_key(v)) for k, v in value.items())))
    return ("id", id(value))


def _array_key(array: np.ndarray):
    """An array's key: its dtype (the object: ``dtype.str`` builds a string each time, the
    cost of the rest of the key together), shape and bytes."""
    dtype = array.dtype
    if dtype == _OBJECT:
        return ("objects", array.shape, tuple(array.ravel().tolist()))
    if array.nbytes > _MAX_KEY_BYTES:
        return ("id", id(array))
    return ("array", dtype, array.shape, array.tobytes())


def cse_in_place(graph: Graph) -> bool:
    seen: dict[tuple, object] = {}
    mapping: dict[Output, Output] = {}
    dead = []
    for node in graph.nodes:
        if mapping and any(i in mapping for i in node.inputs):
            node.inputs = [mapping.get(i, i) for i in node.inputs]
        if node.op == "Placeholder" or get_op(node.op).function_attrs or \
                not is_pure(node) or not holds_plain_values(node):
            continue
        try:
            key = (node.op, tuple((id(i.node), i.index) for i in node.inputs),
                   tuple(id(c) for c in node.control_inputs),
                   attr_key(node.attrs))
            hash(key)
        except TypeError:
            continue
        first = seen.get(key)
        if first is None:
            seen[key] = node
            continue
        for j in range(len(node.outputs)):
            mapping[node.output(j)] = first.output(j)
        dead.append(node)
    dependents = {id(c) for n in graph.nodes for c in n.control_inputs}
    dead = [n for n in dead if id(n) not in dependents]
    replace_uses(graph, mapping)
    remove_nodes(graph, dead)
    return bool(dead)


def run(root: Graph, graphs: list[Graph] | None = None) -> bool:
    """Rewrites ``root``'s family in place (``graphs``: its graphs, when the caller has them)."""
    changed = False
    for g in all_graphs(root) if graphs is None else graphs:
        changed |= cse_in_place(g)
    return changed


def eliminate_common_subexpressions(graph: Graph) -> Graph:
    """A copy of ``graph`` where repeated pure computations happen once."""
    graph = copy_graph(graph)
    run(graph)
    return graph
