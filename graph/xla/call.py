"""A call of a jit_compile function from another graph: one node, compiled by XLA on its own.

TensorFlow records a ``tf.function(jit_compile=True)`` called while another
function is traced as a ``PartitionedCall`` (``StatefulPartitionedCall``
when its body holds a stateful op, as If/While choose) whose attr
``_XlaMustCompile`` is true, and compiles the callee as its own XLA cluster
whatever the caller runs on. The same here: the node holds the callee's graph
(attr ``f``); on the numpy back end its kernel is that graph's ``XlaPlan``
(built with the caller's plan, compiled by XLA at its first run); in a
caller that is compiled itself, the body is lowered into the caller's program
(graph/xla/control_flow.py), as TensorFlow merges nested clusters.

Registering the ops imports no JAX: ``compile_graph(..., backend="xla")``
imports it when a caller's plan is built.
"""
from __future__ import annotations

from graph.errors import InvalidArgumentError
from graph.ir import Graph, TensorType
from graph.passes.rewrite import copy_graph
from graph.registry import get_op, register_op

CALL_OPS = ("PartitionedCall", "StatefulPartitionedCall")


def _call_infer(inputs, attrs):
    body = attrs["f"]
    if len(body.inputs) != len(inputs):
        raise InvalidArgumentError(
            message=f"{body.name} takes {len(body.inputs)} inputs, but the call passes "
                    f"{len(inputs)}")
    for i, (given, placeholder) in enumerate(zip(inputs, body.inputs)):
        if given.dtype != placeholder.dtype or \
                not given.shape.is_compatible_with(placeholder.shape):
            raise InvalidArgumentError(
                message=f"{body.name}: input {i} must be a {placeholder.dtype.name} tensor of "
                        f"shape {placeholder.shape}, got {given.dtype.name} {given.shape}")
    return [TensorType(o.dtype, o.shape) for o in body.outputs]


def _build_call(node, compile_subgraph):
    """The callee's XLA plan, whatever back end the caller's plan has."""
    from graph.executor import compile_graph
    plan = compile_graph(node.attrs["f"], backend="xla")
    if len(node.outputs) == 1:
        return lambda *args: plan(*args)[0]
    return plan


for _name, _stateful in zip(CALL_OPS, (False, True)):
    register_op(_name, _call_infer, stateful=_stateful, build=_build_call, function_attrs=("f",))


def _stateful(graph: Graph, seen: set) -> bool:
    if id(graph) in seen:
        return False
    seen.add(id(graph))
    for node in graph.nodes:
        opdef = get_op(node.op)
        if opdef.stateful or any(_stateful(node.attrs[a], seen) for a in opdef.function_attrs):
            return True
    return False


def call_op(body: Graph) -> str:
    """The op calling ``body``: ``StatefulPartitionedCall`` when a stateful op is in it."""
    return CALL_OPS[1] if _stateful(body, set()) else CALL_OPS[0]


def call_attrs(body: Graph, caller: Graph) -> dict:
    """The attrs of a compiled call of ``body`` from ``caller``: a copy of ``body`` nested in
    ``caller``'s library (so it is saved, printed and copied with it, as a loop body is), and
    TensorFlow's ``_XlaMustCompile``."""
    family: list[Graph] = []
    copy = copy_graph(body, library=False, family=family)
    for g in family:  # (innermost first: the copy of ``body`` is last)
        if g.library is copy.library:
            g.library = caller.library
    copy.outer, copy.name = caller, caller.new_function_name(body.name)
    for g in family:
        caller.add_function(g)
    return {"f": copy, "_XlaMustCompile": True}
