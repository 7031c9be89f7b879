"""``tf.gradients``, ``tf.hessians``: derivatives of the graph being built, without a tape.

TensorFlow 2 keeps this TensorFlow 1 API for ``tf.function`` bodies. A graph's
nodes are the record of what ran, so the whole graph built so far is
differentiated (as ``GradientTape`` does for the spans it recorded).
"""
from __future__ import annotations

from runtime import context, nest
from runtime.gradients import graph_builder
from runtime.gradients.backprop import backprop, carries_gradient, key_of
from runtime.gradients.registry import VariableHandle
from runtime.gradients.tape import UnconnectedGradients, _encloses, _is_variable, _unconnected
from runtime.gradients.util import zeros_for
from runtime.ops import array_ops
from runtime.ops.core import as_graph_input, convert_to_tensor
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """The sum over ``ys`` of d(y)/d(x) for each of ``xs`` (weighted by ``grad_ys``), as
    tensors of the graph being built; None for an ``x`` no ``y`` depends on (or zeros with
    ``unconnected_gradients='zero'``). ``stop_gradients`` are held constant."""
    graph = context.current_graph()
    if graph is None:
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    unconnected = _unconnected(unconnected_gradients)
    records = graph_builder.records_in(graph, [(0, len(graph.nodes))])
    if stop_gradients is not None:
        stops = {key_of(_local(graph, convert_to_tensor(t))) for t in nest.flatten(stop_gradients)}
        records = [r for r in records if not any(o is not None and key_of(o) in stops
                                                 for o in r.outputs)]
    flat_ys = [_local(graph, convert_to_tensor(y)) for y in nest.flatten(ys)]
    flat_grad_ys = [None] * len(flat_ys) if grad_ys is None else nest.flatten(grad_ys)
    if len(flat_grad_ys) != len(flat_ys):
        raise ValueError(f"Passed {len(flat_grad_ys)} grad_ys for {len(flat_ys)} ys")
    seeds = [array_ops.ones_like(y) if g is None else convert_to_tensor(g, dtype=y.dtype)
             for y, g in zip(flat_ys, flat_grad_ys)]
    flat_xs = [x if _is_variable(x) else _local(graph, convert_to_tensor(x))
               for x in nest.flatten(xs)]
    grads = backprop(records, flat_ys, seeds, flat_xs, sparse=True)
    result = []
    for x, g in zip(flat_xs, grads):
        if g is None and unconnected is UnconnectedGradients.ZERO and carries_gradient(x):
            g = zeros_for(VariableHandle(x._resource, x.dtype, x.shape)) \
                if _is_variable(x) else array_ops.zeros_like(x)
        result.append(g)
    return result


def hessians(ys, xs, name="hessians", colocate_gradients_with_ops=False, gate_gradients=False,
             aggregation_method=None):
    """For each of ``xs``, the second derivatives of ``sum(ys)``, shaped ``x.shape + x.shape``
    (one ``tf.gradients`` per element of the first derivative: ``x`` needs a static shape)."""
    flat_xs = nest.flatten(xs)
    result = []
    for x, g in zip(flat_xs, gradients(ys, flat_xs)):
        if g is None:
            result.append(None)
            continue
        shape = x.shape.as_list()
        if not x.shape.is_fully_defined():
            raise ValueError(f"tf.hessians needs a source of static shape, got {x.shape}")
        flat = array_ops.reshape(convert_to_tensor(g), [-1])
        rows = [gradients(flat[i], x)[0] for i in range(flat.shape[0])]
        rows = [array_ops.zeros_like(x) if r is None else convert_to_tensor(r) for r in rows]
        result.append(array_ops.reshape(array_ops.stack(rows), shape + shape))
    return result


def _local(graph, t: Tensor) -> Tensor:
    """What ``graph``'s ops read for ``t``: an eager tensor's constant, an enclosing graph's
    tensor's capture."""
    if isinstance(t, EagerTensor) or (
            isinstance(t, SymbolicTensor) and _encloses(t._output.node.graph, graph)):
        return SymbolicTensor(as_graph_input(graph, t))
    return t
