"""``If`` -> ``lax.cond``, ``While`` -> ``lax.while_loop`` (graph/ops/control_flow.py).

Bodies are lowered by the same walk as the top graph. The plan's state
(variables, random key) goes into each body and comes back out, so an
assignment or a random draw inside a branch or a loop is part of the
program. A predicate known at compile time picks its branch directly.

A loop variable the body passes through unchanged (a captured tensor) is
not carried: the body closes over it, so a compile-time value stays one.
A TensorArray first written inside a branch or a loop gets its buffer
beforehand, shaped from an abstract evaluation (``jax.eval_shape``; only
then: each one traces the bodies again).

A loop that pushes onto a stack (a gradient's accumulators, runtime/gradients/
while_grads.py) needs room for every iteration. As under TensorFlow's XLA,
the trip count must be bounded at compile time: by ``maximum_iterations``
or by a condition on compile-time values (``for i in tf.range(10)``). The
bound is found by running, at compile time, each conjunct of the condition
and the loop variables it reads, while they stay compile-time values.
"""
from __future__ import annotations

import jax
from jax import lax

from graph.ir import Graph, Output
from graph.xla.lowering import Context, Unsupported, is_static, lower_graph, lowering
from graph.xla.tensor_list import ListBuffer, StackBuffer, allocate_like

MAX_UNROLLED_COUNT = 100_000  # iterations the compile-time trip count bound simulates at most


def _body(ctx: Context, graph: Graph):
    """``(args, state) -> (outputs, state)`` lowering ``graph`` in a context of its own."""
    def run(args, state):
        inner = Context(ctx.plan, state["vars"], state["key"])
        outs = lower_graph(inner, graph, list(args))
        return tuple(outs), inner.state
    return run


def _unmade(value) -> bool:
    """A TensorArray whose buffer is not made yet (its element shape comes from a write)."""
    return isinstance(value, ListBuffer) and value.data is None


def _padded(fn, shapes):
    """``fn`` giving a list that another branch writes (``shapes``) a buffer too."""
    def run(args, state):
        outs, state = fn(args, state)
        return tuple(allocate_like(o, *(s[i] for s in shapes)) for i, o in enumerate(outs)), state
    return run


def _result(node, outs):
    return outs[0] if len(node.outputs) == 1 else tuple(outs)


@lowering("If", "StatelessIf")
def _if(ctx, node, pred, *args):
    branches = [_body(ctx, node.attrs[a]) for a in ("then_branch", "else_branch")]
    if is_static(pred):
        outs, ctx.state = branches[0 if bool(pred) else 1](args, ctx.state)
        return _result(node, outs)
    if any(_unmade(a) for a in args):
        shapes = [jax.eval_shape(fn, args, ctx.state)[0] for fn in branches]
        branches = [_padded(fn, shapes) for fn in branches]
    try:
        outs, ctx.state = lax.cond(pred, *branches, args, ctx.state)
    except TypeError as e:
        raise Unsupported(node, f"its branches return different types ({e})") from None
    return _result(node, outs)


def _source(output: Output) -> Output:
    while output.node.op == "Identity" and output.node.inputs:
        output = output.node.inputs[0]
    return output


@lowering("While", "StatelessWhile")
def _while(ctx, node, *inputs):
    cond, body = node.attrs["cond"], node.attrs["body"]
    fixed = [_source(out) == inp for out, inp in zip(body.outputs, body.inputs)]
    carried = [i for i, f in enumerate(fixed) if not f]

    def full(values):
        it = iter(values)
        return [next(it) if not f else inputs[i] for i, f in enumerate(fixed)]

    run_body = _body(ctx, body)
    run_cond = _body(ctx, cond)

    def step(carry):
        values, state = carry
        outs, state = run_body(full(values), state)
        return tuple(outs[i] for i in carried), state

    def test(carry):
        values, state = carry
        return run_cond(full(values), state)[0][0]

    init = tuple(inputs[i] for i in carried)
    stacks = [k for k, v in enumerate(init) if isinstance(v, StackBuffer) and v.growable]
    if stacks:
        init = _with_room(ctx, node, init, stacks, step, carried, inputs)
    if any(map(_unmade, init)):
        shapes = jax.eval_shape(step, (init, ctx.state))[0]
        init = tuple(allocate_like(v, s) for v, s in zip(init, shapes))
    try:
        values, ctx.state = lax.while_loop(test, step, (init, ctx.state))
    except TypeError as e:
        raise Unsupported(node, f"a loop variable changes its shape or dtype across iterations, "
                                f"which XLA cannot compile ({e})") from None
    return _result(node, full(values))


def _with_room(ctx, node, init, stacks, step, carried, inputs):
    """``init`` with each stack the loop pushes onto given a slot per iteration."""
    bound = _trip_bound(ctx, node, inputs, carried)
    if bound is None:
        raise Unsupported(node, "a gradient through this loop keeps a value per iteration, so "
                                "XLA needs a bound on its trip count at compile time: give the "
                                "loop maximum_iterations (tf.while_loop(..., maximum_iterations"
                                "=n)) or a condition on compile-time values")
    shapes = jax.eval_shape(step, (init, ctx.state))[0]
    init = list(init)
    for k in stacks:
        init[k] = init[k].with_room(bound, shapes[k])
    return tuple(init)


def _conjuncts(output: Output) -> list[Output]:
    """The terms of a condition ``a and b and ...`` (LogicalAnd nodes, through Identity)."""
    output = _source(output)
    if output.node.op == "LogicalAnd":
        return [t for i in output.node.inputs for t in _conjuncts(i)]
    return [output]


def _trip_bound(ctx, node, inputs, carried) -> int | None:
    """A compile-time bound on the loop's iterations, or None: the trip count of the first
    conjunct of its condition that depends on compile-time loop variables only."""
    cond, body = node.attrs["cond"], node.attrs["body"]
    known = [i for i in carried if is_static(inputs[i])]
    for term in _conjuncts(cond.outputs[0]):
        scratch = Context(ctx.plan, ctx.state["vars"], ctx.state["key"])
        values = list(inputs)
        for count in range(MAX_UNROLLED_COUNT + 1):
            test = lower_graph(scratch, cond, values, [term])[0]
            if not is_static(test):
                break
            if not bool(test):
                return count
            updated = lower_graph(scratch, body, values, [body.outputs[i] for i in known])
            if not all(map(is_static, updated)):
                break
            for i, v in zip(known, updated):
                values[i] = v
    return None
