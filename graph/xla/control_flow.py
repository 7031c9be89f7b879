"""``If`` -> ``lax.cond``, ``While`` -> ``lax.while_loop`` (graph/ops/control_flow.py), and a
compiled function's call (graph/xla/call.py) -> its body, lowered into the caller's program.

Bodies are lowered by the same walk as the top graph. The plan's state
(variables, random key) goes into each body and comes back out, so an
assignment or a random draw inside a branch or a loop is part of the
program. A predicate known at compile time picks its branch directly.

A loop variable the body passes through unchanged (a captured tensor) is
not carried: the body closes over it, so a compile-time value stays one; so
do the branches of an ``If`` over its compile-time inputs.
A TensorArray first written inside a branch or a loop gets its buffer
beforehand, shaped from an abstract evaluation (``jax.eval_shape``; only
then: each one traces the bodies again).

A loop that pushes onto a stack (a gradient's accumulators, runtime/gradients/
while_grads.py) needs room for every iteration. As under TensorFlow's XLA,
the trip count must be bounded at compile time: by ``maximum_iterations``
or by a condition on compile-time values (``for i in tf.range(10)``). The
bound is found by running, at compile time, each conjunct of the condition
and the loop variables it reads, while they stay compile-time values. A
loop's iteration counter then has a bound too (``Context.bounds``), so the
backward loop counting it down — differentiated again for a second
derivative — is bounded by it.
"""
from __future__ import annotations

import jax
import numpy as np
from jax import lax

from graph.ir import Graph, Output
from graph.xla.lowering import Context, Unsupported, is_static, lower_graph, lowering
from graph.xla.tensor_list import ListBuffer, StackBuffer, allocate_like

MAX_UNROLLED_COUNT = 100_000  # iterations the compile-time trip count bound simulates at most


def _body(ctx: Context, graph: Graph):
    """``(args, state) -> (outputs, state)`` lowering ``graph`` in a context of its own."""
    def run(args, state):
        inner = ctx.inner(state)
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


def _closing_over_static(fn, args):
    """``fn`` taking only the run-time values of ``args`` (the compile-time ones are closed
    over, so a size or a shape stays a constant inside a branch), and those values."""
    static = [is_static(a) for a in args]

    def run(values, state):
        rest = iter(values)
        return fn([a if s else next(rest) for a, s in zip(args, static)], state)
    return run, tuple(a for a, s in zip(args, static) if not s)


@lowering("If", "StatelessIf")
def _if(ctx, node, pred, *args):
    branches = [_closing_over_static(_body(ctx, node.attrs[a]), args)
                for a in ("then_branch", "else_branch")]
    (_, args), branches = branches[0], [fn for fn, _ in branches]
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


@lowering("PartitionedCall", "StatefulPartitionedCall")
def _call(ctx, node, *args):
    outs, ctx.state = _body(ctx, node.attrs["f"])(args, ctx.state)
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
    bound = None
    if stacks:
        bound = _trip_bound(ctx, node, inputs, carried)
        init = _with_room(ctx, node, init, stacks, step, bound)
    if any(map(_unmade, init)):
        shapes = jax.eval_shape(step, (init, ctx.state))[0]
        init = tuple(allocate_like(v, s) for v, s in zip(init, shapes))
    try:
        values, ctx.state = lax.while_loop(test, step, (init, ctx.state))
    except TypeError as e:
        raise Unsupported(node, f"a loop variable changes its shape or dtype across iterations, "
                                f"which XLA cannot compile ({e})") from None
    results = full(values)
    _bound_counters(ctx, node, inputs, results, carried, bound)
    return _result(node, results)


def _with_room(ctx, node, init, stacks, step, bound):
    """``init`` with each stack the loop pushes onto given a slot per iteration."""
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


def _static_operand(ctx, graph: Graph, inputs, output: Output):
    """The compile-time value of ``output`` of ``graph`` (fed ``inputs``), or None."""
    value = lower_graph(ctx.inner(ctx.state), graph, list(inputs), [output])[0]
    return value if is_static(value) else None


def _stepped(ctx, body: Graph, inputs, i: int, ops) -> object | None:
    """The constant step ``s`` when the body updates loop variable ``i`` as ``x <op> s``."""
    update = _source(body.outputs[i]).node
    if update.op not in ops or _source(update.inputs[0]) != body.inputs[i]:
        return None
    return _static_operand(ctx, body, inputs, update.inputs[1])


def _countdown(ctx, node, inputs, term: Output) -> tuple[int, object] | None:
    """``(i, bound)`` when ``term`` is ``x > c`` (or ``>=``, ``c < x``, ``c <= x``) on loop
    variable ``x = inputs[i]``, which the body lowers by a positive constant and whose initial
    value has a compile-time upper ``bound``: the trip count only grows with ``x``, so the
    count from ``bound`` bounds it (a gradient's backward loop counting down the forward
    loop's iterations)."""
    cond, body = node.attrs["cond"], node.attrs["body"]
    test = term.node
    if test.op in ("Greater", "GreaterEqual"):
        x, c = test.inputs
    elif test.op in ("Less", "LessEqual"):
        c, x = test.inputs
    else:
        return None
    x = _source(x)
    if x not in cond.inputs or _static_operand(ctx, cond, inputs, c) is None:
        return None
    i = cond.inputs.index(x)
    step = _stepped(ctx, body, inputs, i, ("Sub",))
    bound = ctx.bound_of(inputs[i])
    if step is None or bound is None or not np.all(np.asarray(step) > 0):
        return None
    return i, np.asarray(bound, inputs[i].dtype)


def _bound_counters(ctx, node, inputs, results, carried, bound: int | None) -> None:
    """Records the bound of each iteration counter the loop returns (a scalar ``x += s``,
    ``s > 0``, from an initial value with a bound): what a backward loop counting it down
    needs. Without ``bound`` (a loop with no stacks) the trip bound is found on demand."""
    body = node.attrs["body"]
    trips = [bound]

    def trip_bound():
        if trips[0] is None:
            trips[0] = _trip_bound(ctx, node, inputs, carried)
        return trips[0]

    for i in carried:
        value = results[i]
        if is_static(value) or isinstance(value, (ListBuffer, StackBuffer)) or \
                value.shape != () or not np.issubdtype(np.dtype(value.dtype), np.integer):
            continue
        step = _stepped(ctx, body, inputs, i, ("AddV2", "Add"))
        if step is None or not np.all(np.asarray(step) > 0) or ctx.bound_of(inputs[i]) is None:
            continue

        def counted(i=i, step=step):
            n = trip_bound()
            return None if n is None else np.asarray(ctx.bound_of(inputs[i])) + step * n
        ctx.bounds[id(value)] = (value, counted)


def _trip_bound(ctx, node, inputs, carried) -> int | None:
    """A compile-time bound on the loop's iterations, or None: the trip count of the first
    conjunct of its condition that depends on compile-time loop variables only (a counted-down
    variable standing for its upper bound, see ``_countdown``)."""
    cond, body = node.attrs["cond"], node.attrs["body"]
    for term in _conjuncts(cond.outputs[0]):
        scratch = ctx.inner(ctx.state)
        values = list(inputs)
        counted = _countdown(ctx, node, inputs, term)
        if counted is not None:
            values[counted[0]] = counted[1]
        known = [i for i in carried if is_static(values[i])]
        for count in range(MAX_UNROLLED_COUNT + 1):
            test = lower_graph(scratch, cond, values, [term])[0]
            if not is_static(test):
                break
            if not bool(test):
                return count
            updated = lower_graph(scratch, body, values, [body.outputs[i] for i in known])
            for i, v in zip(known, updated):
                values[i] = v  # (one that stops being known is read by this term, or not)
            known = [i for i in known if is_static(values[i])]
    return None
