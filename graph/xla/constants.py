"""Compile-time-constant arguments: the graph inputs a program is compiled for the values of.

TensorFlow's XLA compiles a function once per value of the arguments an op needs as a
compile-time constant (a TensorArray's size, ``tf.range``'s bounds, a slice's bounds, a
``reshape``'s shape: XlaCompiler's "must be constant" arguments), so
``tf.TensorArray(tf.float32, size=n)`` compiles with ``n`` an argument. The same here:
when a lowering needs a run-time value as a constant (``Unsupported(constant=True)``),
the plan compiles the program again with the integer graph inputs that value may come from
fed as numpy values, which the walk folds (lowering.py), and keeps one program per value
(plan.py).
"""
from __future__ import annotations

from graph.ir import Graph, Node
from graph.registry import get_op


def _holds(graph: Graph, node: Node) -> bool:
    """Whether ``node`` is in ``graph`` or in one of its nodes' bodies."""
    if node.graph is graph:
        return True
    return any(_holds(n.attrs[a], node) for n in graph.nodes for a in get_op(n.op).function_attrs)


def _enclosing(graph: Graph, node: Node) -> Node | None:
    """The node of ``graph`` that is ``node`` or holds it in a body (If, While, a call)."""
    if node.graph is graph:
        return node
    return next((n for n in graph.nodes for a in get_op(n.op).function_attrs
                 if _holds(n.attrs[a], node)), None)


def constant_sources(graph: Graph, *nodes: Node) -> set[int]:
    """Positions of the integer inputs of ``graph`` that ``nodes`` depend on (through the
    control-flow node holding one when it is in a body: an over-approximation, which only
    compiles for more values than needed)."""
    position = {id(o.node): k for k, o in enumerate(graph.inputs) if o.dtype.is_integer}
    found, seen = set(), set()
    todo = [t for t in (_enclosing(graph, n) for n in nodes) if t is not None]
    while todo:
        n = todo.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        if id(n) in position:
            found.add(position[id(n)])
        todo.extend(i.node for i in n.inputs)
        todo.extend(n.control_inputs)
    return found
