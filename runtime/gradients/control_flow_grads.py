"""Gradient of If, built with ``cond`` itself (While's is in while_grads.py).

An If on the same predicate whose branches recompute the forward branch and
differentiate it, so only the taken branch's gradient runs. A loop inside a
branch is recomputed with it, and its own gradient (which accumulates its
intermediates in that recomputed copy) runs inside the gradient branch.
"""
from __future__ import annotations

from runtime.gradients.backprop import backprop, carries_gradient
from runtime.gradients.graph_builder import check_replayable, inline
from runtime.gradients.registry import RegisterGradient
from runtime.gradients.util import zeros_for
from runtime.ops import array_ops
from runtime.ops.control_flow import cond


def _split_inputs(op):
    n = len(op.node.inputs)
    return list(op.inputs[:n]), list(op.inputs[n:])


def _seeds(op, grads) -> list:
    return [g if g is not None else (zeros_for(o) if carries_gradient(o) else None)
            for g, o in zip(grads, op.outputs)]


def _differentiate(graph, inputs, seeds, wrt, handles, extra_sources=()):
    """Inlines ``graph`` on ``inputs`` and returns d(outputs . seeds)/d(inputs[wrt], handles)."""
    outs, records = inline(graph, inputs)
    targets = [o for o, s in zip(outs, seeds) if s is not None]
    target_seeds = [s for s in seeds if s is not None]
    sources = [inputs[i] for i in wrt] + list(handles)
    grads = backprop(records, targets, target_seeds, sources)
    return [g if g is not None else zeros_for(s) for g, s in zip(grads, sources)]


@RegisterGradient("If")
@RegisterGradient("StatelessIf")
def _if_grad(op, *grads, needed=None):
    node = op.node
    node_inputs, handles = _split_inputs(op)
    pred, ins = node_inputs[0], node_inputs[1:]
    needed = needed or [True] * len(op.inputs)
    wrt = [i for i, t in enumerate(ins) if carries_gradient(t) and needed[1 + i]]
    n_node = len(node_inputs)
    handles = [h for k, h in enumerate(handles) if needed[n_node + k]]
    kept_handles = [k for k in range(len(op.inputs) - n_node) if needed[n_node + k]]
    if not wrt and not handles:
        return [None] * len(op.inputs)
    seeds = _seeds(op, grads)
    for branch in ("then_branch", "else_branch"):
        check_replayable(node.attrs[branch], "tf.cond", node.origin)

    def branch_fn(graph):
        def fn():
            local = [array_ops.identity(t) for t in ins]  # captured into the branch
            return _differentiate(graph, local, seeds, wrt, handles)
        return fn

    result = cond(pred, branch_fn(node.attrs["then_branch"]), branch_fn(node.attrs["else_branch"]),
                  name="gradients/cond")
    result = list(result) if isinstance(result, (list, tuple)) else [result]
    out = [None] * len(ins)
    for k, i in enumerate(wrt):
        out[i] = result[k]
    handle_grads = [None] * (len(op.inputs) - n_node)
    for k, g in zip(kept_handles, result[len(wrt):]):
        handle_grads[k] = g
    return [None] + out + handle_grads


_if_grad.takes_needed = True
