"""A tf.function called eagerly under a tape: one recorded op, a generated gradient graph.

The call is recorded as a ``PartitionedCall`` record whose inputs are the
call's tensors and the variables the function's graph reads. Its gradient is
a second graph, built once per concrete function and cached: it takes the
forward inputs and one gradient per float output, recomputes the forward
graph and differentiates it (``graph_builder.inline``), and returns the
gradients of the float inputs and of the variables. The executor compiles it
once like any other graph.
"""
from __future__ import annotations

import weakref

import numpy as np

from graph.executor import compile_graph
from graph.ir import Graph
from graph.xla.call import call_attrs, call_op
from runtime import context, nest
from runtime.concrete_function import CALL_RECORDERS
from runtime.gradients.backprop import backprop, carries_gradient
from runtime.gradients.graph_builder import check_replayable, inline, variables_read
from runtime.gradients.registry import RegisterGradient, VariableHandle
from runtime.gradients.util import zeros_for
from runtime.tensor import EagerTensor, SymbolicTensor

_BACKWARD: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def variables_of(concrete) -> list[VariableHandle]:
    cached = getattr(concrete, "_gradient_variables", None)
    if cached is None:
        from graph.registry import get_op
        found: dict[int, VariableHandle] = {}
        for n in concrete.graph.nodes:
            if n.op == "ReadVariableOp" and (n.attrs["dtype"].is_floating
                                             or n.attrs["dtype"].is_complex):
                r = n.attrs["resource"]
                found.setdefault(r, VariableHandle(r, n.attrs["dtype"], n.attrs["shape"]))
            elif get_op(n.op).function_attrs:
                for h in variables_read(n):
                    found.setdefault(h.resource, h)
        cached = list(found.values())
        concrete._gradient_variables = cached
    return cached


def _backward(concrete):
    """The compiled gradient graph of ``concrete`` (built on first use)."""
    entry = _BACKWARD.get(concrete)
    if entry is not None:
        return entry
    fwd = concrete.graph
    check_replayable(fwd, f"tf.function {concrete.name}", None)
    handles = variables_of(concrete)
    graph = Graph(f"__backward_{concrete.name}")
    with context.building(graph):
        inputs = []
        for i, ph in enumerate(fwd.inputs):
            node = graph.add_node("Placeholder", attrs={"dtype": ph.dtype, "shape": ph.shape},
                                  name=f"input_{i}")
            inputs.append(SymbolicTensor(node.output(0)))
        outs, records = inline(fwd, inputs)
        float_outs = [o for o in outs if carries_gradient(o)]
        seeds = []
        for i, o in enumerate(float_outs):
            node = graph.add_node("Placeholder", attrs={"dtype": o.dtype, "shape": o.shape},
                                  name=f"grad_{i}")
            seeds.append(SymbolicTensor(node.output(0)))
        wrt = [t for t in inputs if carries_gradient(t)]
        sources = wrt + handles
        grads = backprop(records, float_outs, seeds, sources) if sources else []
        from runtime.ops import array_ops
        results = [array_ops.identity(g if g is not None else zeros_for(s))
                   for g, s in zip(grads, sources)]
    graph.inputs = [t._output for t in inputs + seeds]
    graph.outputs = [t._output for t in results]
    entry = _Backward(graph, [carries_gradient(t) for t in inputs],
                      [carries_gradient(o) for o in outs], [r.dtype for r in results],
                      backend=getattr(concrete._plan, "backend", "codegen"))
    _BACKWARD[concrete] = entry
    return entry


class _Backward:
    """The compiled gradient graph of one concrete function.

    It has what a concrete function shows a tape (``graph``, ``name``), so an
    outer tape that is still recording while an inner one differentiates
    records the gradient call as one op too, and differentiates it the same
    way: gradients of gradients of a tf.function call.
    """

    def __init__(self, graph: Graph, input_mask, output_mask, result_dtypes,
                 backend: str = "codegen"):
        self.graph = graph
        self.name = graph.name
        self._plan = compile_graph(graph, backend=backend)  # (xla for a jit_compile function)
        self.input_mask, self.output_mask = input_mask, output_mask
        self._dtypes = result_dtypes

    def run(self, feeds) -> list:
        return [EagerTensor(v, d) for v, d in zip(self._plan(*feeds), self._dtypes)]


@RegisterGradient("PartitionedCall")
def _call_grad(op, *grads):
    if op.node is not None:  # a staged call of a jit_compile function (graph/xla/call.py)
        return _staged_call_grad(op, *grads)
    backward = _backward(op.attrs["f"])
    n_in = len(op.attrs["feeds"])
    float_outs = [o for o, keep in zip(op.outputs, backward.output_mask) if keep]
    seeds = [g for g, keep in zip(grads, backward.output_mask) if keep]
    feeds = list(op.attrs["feeds"]) + [
        np.zeros(o.shape.as_tuple(), o.dtype.numpy_dtype) if g is None else g._value
        for g, o in zip(seeds, float_outs)]
    if CALL_RECORDERS:  # an outer tape records this gradient call, as it did the forward one
        results = CALL_RECORDERS[-1](backward, feeds, backward.run)
    else:
        results = backward.run(feeds)
    it = iter(results)
    in_grads = [next(it) if keep else None for keep in backward.input_mask][:n_in]
    return in_grads + list(it)


def flat_outputs(result) -> tuple:
    return tuple(t for t in nest.flatten(result) if t is not None)


@RegisterGradient("StatefulPartitionedCall")
def _staged_call_grad(op, *grads):
    """A call node's gradient: a second compiled call, of a graph that recomputes the body
    and differentiates it (TensorFlow compiles a jit_compile function's gradient too)."""
    from runtime.gradients.control_flow_grads import _differentiate, _seeds, _split_inputs
    from runtime.ops import array_ops
    from runtime.ops.core import apply_op
    node = op.node
    body = node.attrs["f"]
    ins, handles = _split_inputs(op)
    wrt = [i for i, t in enumerate(ins) if carries_gradient(t)]
    if not wrt and not handles:
        return [None] * len(op.inputs)
    check_replayable(body, "tf.function", node.origin)
    seeds = _seeds(op, grads)
    graph = Graph(f"__backward_{body.name}")
    with context.building(graph):
        inputs = [_placeholder(graph, t, f"input_{i}") for i, t in enumerate(ins)]
        given = [_placeholder(graph, s, f"grad_{i}") if s is not None else None
                 for i, s in enumerate(seeds)]
        results = [array_ops.identity(g) for g in
                   _differentiate(body, inputs, given, wrt, handles)]
    graph.inputs = [t._output for t in inputs + [g for g in given if g is not None]]
    graph.outputs = [t._output for t in results]
    results = apply_op(call_op(graph), list(ins) + [s for s in seeds if s is not None],
                       attrs=call_attrs(graph, context.current_graph()))
    results = [results] if isinstance(results, SymbolicTensor) else list(results)
    in_grads = [None] * len(ins)
    for k, i in enumerate(wrt):
        in_grads[i] = results[k]
    return in_grads + results[len(wrt):]


def _placeholder(graph: Graph, like, name: str) -> SymbolicTensor:
    node = graph.add_node("Placeholder", attrs={"dtype": like.dtype, "shape": like.shape},
                          name=name)
    return SymbolicTensor(node.output(0))
