"""Gradients of If and While, built with ``cond`` and ``while_loop`` themselves.

If: an If on the same predicate whose branches recompute the forward branch
and differentiate it, so only the taken branch's gradient runs.

While: the loop is replayed once with every carried loop value written to a
TensorArray per iteration (its intermediates, kept per iteration), then a
reverse loop reads them back from the last iteration to the first,
recomputes that iteration's body and differentiates it. Loop inputs the body
passes through unchanged (captured tensors) accumulate their gradient
across iterations, and so do the variables the body reads.

Recursion gives nesting: a loop inside a branch inside a loop is inlined
with the body that holds it, and its own gradient function runs when the
enclosing body is differentiated.
"""
from __future__ import annotations

from graph import dtypes
from runtime.gradients.backprop import backprop, carries_gradient
from runtime.gradients.graph_builder import check_replayable, inline
from runtime.gradients.registry import RegisterGradient
from runtime.gradients.util import zeros_for
from runtime.ops import array_ops, math_ops
from runtime.ops.control_flow import cond, while_loop
from runtime.ops.core import constant


def _split_inputs(op):
    n = len(op.node.inputs)
    return list(op.inputs[:n]), list(op.inputs[n:])


def _seeds(op, grads) -> list:
    return [g if g is not None else (array_ops.zeros_like(o) if carries_gradient(o) else None)
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


@RegisterGradient("While")
@RegisterGradient("StatelessWhile")
def _while_grad(op, *grads, needed=None):
    from runtime.tensor_array import TensorArray
    node = op.node
    ins, handles = _split_inputs(op)
    n_node = len(ins)
    needed = needed or [True] * len(op.inputs)
    kept_handles = [k for k in range(len(handles)) if needed[n_node + k]]
    handles = [handles[k] for k in kept_handles]
    cond_graph, body_graph = node.attrs["cond"], node.attrs["body"]
    check_replayable(cond_graph, "while loop", node.origin)
    check_replayable(body_graph, "while loop", node.origin)
    n = len(ins)
    passthrough = [body_graph.outputs[j] is body_graph.inputs[j] for j in range(n)]
    carried = [j for j in range(n) if not passthrough[j]]
    # Carried values pass gradients between iterations; a passed-through capture only
    # needs one when the caller asked for it.
    wrt = [j for j in range(n) if carries_gradient(ins[j]) and (needed[j] or not passthrough[j])]
    if not wrt and not handles:
        return [None] * len(op.inputs)
    for j in carried:
        if ins[j].dtype in (dtypes.variant, dtypes.string):
            raise NotImplementedError(
                f"The gradient of the while loop at {node.origin} cannot replay a loop that "
                f"carries a {ins[j].dtype.name} value (loop variable {j}): stack the values "
                "after the loop, or compute them outside it.")
    types = node.outputs

    # 1. Replay the loop, keeping each iteration's carried values.
    def replay_cond(*vals):
        return inline(cond_graph, list(vals[:n]))[0][0]

    def replay_body(*vals):
        lv, arrays, k = list(vals[:n]), vals[n:-1], vals[-1]
        arrays = [a.write(k, lv[j]) for a, j in zip(arrays, carried)]
        outs, _ = inline(body_graph, lv)
        return outs + arrays + [k + 1]

    stacks = [TensorArray(ins[j].dtype, size=0, dynamic_size=True, clear_after_read=False,
                          element_shape=types[j].shape, name="gradients/accumulator")
              for j in carried]
    replayed = while_loop(replay_cond, replay_body, list(ins) + stacks + [constant(0)],
                          name="gradients/replay")
    stacks, count = replayed[n:-1], replayed[-1]
    stack_of = dict(zip(carried, stacks))
    seeds = _seeds(op, grads)

    # 2. Run it backward, one iteration at a time.
    def back_cond(i, *rest):
        return math_ops.greater_equal(i, 0)

    def back_body(i, *rest):
        g_lv, g_vars = list(rest[:len(wrt)]), list(rest[len(wrt):])
        lv = [stack_of[j].read(i) if j in stack_of else array_ops.identity(ins[j])
              for j in range(n)]
        body_seeds = [None] * n
        for k, j in enumerate(wrt):
            body_seeds[j] = g_lv[k]
        got = _differentiate(body_graph, lv, body_seeds, wrt, handles)
        new_vars = [math_ops.add(a, b) for a, b in zip(g_vars, got[len(wrt):])]
        return [math_ops.subtract(i, 1)] + got[:len(wrt)] + new_vars

    init = [seeds[j] if seeds[j] is not None else array_ops.zeros_like(ins[j]) for j in wrt]
    init_vars = [zeros_for(h) for h in handles]
    result = while_loop(back_cond, back_body, [math_ops.subtract(count, 1)] + init + init_vars,
                        name="gradients/while")
    out = [None] * n
    for k, j in enumerate(wrt):
        out[j] = result[1 + k]
    handle_grads = [None] * (len(op.inputs) - n_node)
    for k, g in zip(kept_handles, result[1 + len(wrt):]):
        handle_grads[k] = g
    return out + handle_grads


_while_grad.takes_needed = True
