"""Gradient of While: the forward loop keeps what the gradient reads, a reverse loop pops it.

As TensorFlow's while_v2 does, the forward loop itself is extended: every
body value the gradient of one iteration reads (a matmul's operands, a
tanh's output, the index of a TensorArray read...) is pushed onto an
accumulator (``EmptyTensorList`` + ``TensorListPushBack``, O(1) per push)
carried as an extra loop variable, and an extra counter counts the
iterations. The gradient is a second While that runs the counter down,
pops one iteration's values from each accumulator and differentiates the
body once more with those values standing for its tensors: the forward
loop runs once and nothing is recomputed.

Which values to keep is learnt by a dry run: the body's gradient is built
once in a scratch graph where every body value is a placeholder, and the
placeholders its nodes read are the values to accumulate (loop-invariant
inputs and constants are read from outside instead). The real backward
body is then built with those values popped; any other value is a stand-in
from a throwaway graph, so a gradient that would read a value the dry run
did not see fails loudly instead of computing with the wrong thing.

Loops nest: the gradient of a loop inside the body adds accumulators to the
inner loop (in the outer loop's private copy of its body), and their final
stacks are body values the outer loop accumulates in turn. The backward
loop carries TensorLists (its accumulators) too, so a tape watching the
gradient computation differentiates it again: second derivatives.

Only loop variables whose gradient can be non-zero are carried backward (a
fixpoint over the body's dependencies from the seeded outputs); captured
inputs and the variables the body reads sum their gradient over iterations.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from graph import dtypes
from graph.ir import Graph, Node, Output, TensorType
from graph.registry import get_op
from graph.shapes import TensorShape
from runtime import context
from runtime.gradients.backprop import backprop, carries_gradient
from runtime.gradients.graph_builder import copy_graph, records_from_nodes, variables_read
from runtime.gradients.registry import RegisterGradient, VariableHandle
from runtime.gradients.util import add, zeros_for
from runtime.ops import array_ops, math_ops
from runtime.ops.control_flow import while_loop
from runtime.ops.core import apply_op
from runtime.tensor import SymbolicTensor


@dataclass(frozen=True)
class _Plan:
    """What one gradient of a loop needs, found by the dry run."""

    carried: tuple        # loop variables whose gradient flows from iteration to iteration
    through: tuple        # passed-through inputs (captures) that get a gradient
    handles: tuple        # variables read by the body that get a gradient
    needed: tuple         # body values to accumulate in the forward loop (Outputs)
    consts: frozenset     # body constants the gradient reads


@dataclass
class _LoopState:
    """The accumulators added to one While node so far (kept on its private body graph)."""

    body: Graph
    accumulated: dict = field(default_factory=dict)  # body Output -> node output index
    counter: int | None = None                       # node output counting iterations
    plans: dict = field(default_factory=dict)


def _state(node: Node) -> _LoopState:
    body = node.attrs["body"]
    state = getattr(body, "_while_gradient_state", None)
    if state is None or state.body is not body:  # (a graph copied with its attributes)
        # The node is about to change: give it bodies nobody else holds.
        body = node.attrs["body"] = copy_graph(body)
        node.attrs["cond"] = copy_graph(node.attrs["cond"])
        state = body._while_gradient_state = _LoopState(body)
    return state


# -- which values the gradient reads ------------------------------------------------------

def _dependencies(body: Graph) -> dict:
    """For each body value: the loop-variable indices and ("var", resource) it depends on."""
    deps: dict = {ph: frozenset([j]) for j, ph in enumerate(body.inputs)}
    empty: frozenset = frozenset()
    for node in body.nodes:
        if node.op == "Placeholder":
            continue
        d = empty.union(*[deps.get(i, empty) for i in node.inputs])
        if node.op == "ReadVariableOp":
            d = d | {("var", node.attrs["resource"])}
        elif get_op(node.op).function_attrs:
            d = d | {("var", h.resource) for h in variables_read(node)}
        for k in range(len(node.outputs)):
            deps[node.output(k)] = d
    return deps


class _Resolver:
    """Maps body values to the tensors standing for them where a gradient is built.

    ``values`` holds what is really available (popped accumulators, outer
    tensors for passed-through inputs). Constants the gradient reads are
    copied into the graph being built. Anything else is a stand-in of the
    right type in ``stand_ins``: a placeholder (or a constant, so that static
    values stay known) that the gradient may inspect but never compute with.
    """

    def __init__(self, values: dict, consts, stand_ins: Graph):
        self.values = values
        self.consts = consts  # None: every constant is copied (the dry run)
        self.stand_ins = stand_ins
        self.made: dict = {}

    def __call__(self, output: Output):
        t = self.made.get(output)
        if t is None:
            t = self.values.get(output)
            if t is None:
                node = output.node
                if node.op == "Const":
                    copy_into = context.current_graph() if (
                        self.consts is None or output in self.consts) else self.stand_ins
                    t = SymbolicTensor(copy_into.add_node(
                        "Const", attrs=dict(node.attrs),
                        name=node.name.rsplit("/", 1)[-1]).output(0))
                else:
                    t = SymbolicTensor(self.stand_ins.add_node(
                        "Placeholder", attrs={"dtype": output.dtype, "shape": output.shape},
                        name="stand_in").output(0))
            self.made[output] = t
        return t


def _plan(node: Node, state: _LoopState, seeded: list, needed_in: list, handles: list,
          carries: list) -> _Plan:
    key = (tuple(seeded), tuple(needed_in), tuple(h.resource for h in handles))
    plan = state.plans.get(key)
    if plan is not None:
        return plan
    body = node.attrs["body"]
    n = len(body.inputs)
    passthrough = [body.outputs[j] == body.inputs[j] for j in range(n)]
    deps = _dependencies(body)
    flowing = {j for j in range(n) if seeded[j] and not passthrough[j] and carries[j]}
    changed = True
    while changed:  # a loop variable's gradient flows if it reaches one that flows
        changed = False
        reach = set().union(*[deps[body.outputs[k]] for k in flowing]) if flowing else set()
        for j in reach:
            if isinstance(j, int) and j not in flowing and not passthrough[j] and carries[j]:
                flowing.add(j)
                changed = True
    reach = set().union(*[deps[body.outputs[k]] for k in flowing]) if flowing else set()
    carried = tuple(sorted(flowing))
    through = tuple(j for j in range(n) if passthrough[j] and carries[j] and needed_in[j]
                    and (seeded[j] or j in reach))
    kept = tuple(h for h in handles if ("var", h.resource) in reach)
    if not carried:
        plan = _Plan(carried, through, (), (), frozenset())
    else:
        plan = _dry_run(body, carried, through, kept, passthrough)
    state.plans[key] = plan
    return plan


def _dry_run(body: Graph, carried, through, handles, passthrough) -> _Plan:
    """Builds one iteration's gradient on placeholders; the ones it reads are the plan."""
    scratch = Graph("gradients_dry_run")
    with context.building(scratch):
        resolve = _Resolver({}, None, scratch)
        records = records_from_nodes([n for n in body.nodes if n.op != "Placeholder"], resolve)
        seeds = [SymbolicTensor(scratch.add_node(
            "Placeholder", attrs={"dtype": body.outputs[k].dtype,
                                  "shape": body.outputs[k].shape}).output(0))
            for k in carried]
        targets = [resolve(body.outputs[k]) for k in carried]
        sources = [resolve(body.inputs[j]) for j in carried + through] + list(handles)
        grads = backprop(records, targets, seeds, sources)
    read = {i for n in scratch.nodes for i in n.inputs}
    read.update(g._output for g in grads if isinstance(g, SymbolicTensor))
    inputs = {ph: j for j, ph in enumerate(body.inputs)}
    needed, consts = [], set()
    for value, t in resolve.made.items():
        if t._output not in read:
            continue
        if value.node.op == "Const":
            consts.add(value)
        elif not (value in inputs and passthrough[inputs[value]]):
            needed.append(value)
    for j, g in zip(carried, grads):  # a gradient that may be None is replaced by zeros
        if g is None and body.inputs[j] not in needed:  # shaped like the input
            needed.append(body.inputs[j])
    return _Plan(carried, through, tuple(handles), tuple(needed), frozenset(consts))


# -- extending the forward loop ---------------------------------------------------------

def _accumulate(node: Node, state: _LoopState, values) -> None:
    """Adds an accumulator to ``node`` for each of ``values`` it lacks, and the counter."""
    missing = [v for v in values if v not in state.accumulated]
    if not missing and state.counter is not None:
        return
    graph, body, cond = node.graph, node.attrs["body"], node.attrs["cond"]
    mark = len(graph.nodes)
    inits = []
    if state.counter is None:
        zero = graph.add_node("Const", attrs={"dtype": dtypes.int32,
                                              "value": np.array(0, np.int32)},
                              name="gradients/iterations")
        ph = _add_loop_var(body, cond, dtypes.int32, TensorShape([]), "iterations")
        one = body.add_node("Const", attrs={"dtype": dtypes.int32, "value": np.array(1, np.int32)},
                            name="gradients/one")
        step = body.add_node("AddV2", [ph, one.output(0)], name="gradients/iterations")
        body.outputs.append(step.output(0))
        inits.append((zero.output(0), TensorType(dtypes.int32, TensorShape([]))))
        state.counter = len(node.outputs) + len(inits) - 1
    for value in missing:
        attrs = {"element_dtype": value.dtype, "element_shape": value.shape}
        empty = graph.add_node("EmptyTensorList", attrs=attrs, name="gradients/accumulator")
        ph = _add_loop_var(body, cond, dtypes.variant, TensorShape([]), "accumulator")
        push = body.add_node("TensorListPushBack", [ph, value],
                             attrs={"element_dtype": value.dtype}, name="gradients/accumulate")
        body.outputs.append(push.output(0))
        inits.append((empty.output(0), TensorType(dtypes.variant, TensorShape([]))))
        state.accumulated[value] = len(node.outputs) + len(inits) - 1
    # The initial values must come before the loop in the graph's (creation) order.
    new_nodes = graph.nodes[mark:]
    del graph.nodes[mark:]
    position = graph.nodes.index(node)
    graph.nodes[position:position] = new_nodes
    for init, t in inits:
        node.inputs.append(init)
        node.outputs.append(t)
    node.attrs["output_types"] = list(node.outputs)


def _add_loop_var(body: Graph, cond: Graph, dtype, shape, name: str) -> Output:
    for g in (body, cond):
        ph = g.add_node("Placeholder", attrs={"dtype": dtype, "shape": shape},
                        name=f"gradients_{name}").output(0)
        g.inputs.append(ph)
    return body.inputs[-1]


# -- the gradient -----------------------------------------------------------------------

def _static_zeros(t):
    """Zeros like ``t``, from its static shape when known (so ``t`` itself is not read)."""
    if t.dtype is not dtypes.variant and t.shape.is_fully_defined():
        return array_ops.zeros(t.shape.as_list(), dtype=t.dtype)
    return zeros_for(t)


@RegisterGradient("While")
@RegisterGradient("StatelessWhile")
def _while_grad(op, *grads, needed=None):
    node = op.node
    tensor = op.resolve or SymbolicTensor
    handles_all = [h for h in op.inputs if isinstance(h, VariableHandle)]
    n_rec = len(op.inputs) - len(handles_all)  # loop variables the record knows of
    needed = list(needed) if needed is not None else [True] * len(op.inputs)
    state = _state(node)
    body = node.attrs["body"]
    n = len(body.inputs)
    ins = [op.inputs[j] if j < n_rec else tensor(node.inputs[j]) for j in range(n)]
    handles = [h for h, k in zip(handles_all, needed[n_rec:]) if k]
    seeded = [j < len(grads) and grads[j] is not None for j in range(n)]
    carries = [carries_gradient(t) for t in ins]
    plan = _plan(node, state, seeded, needed[:n_rec] + [False] * (n - n_rec), handles, carries)
    if not plan.carried and not plan.through:
        return [None] * len(op.inputs)
    _accumulate(node, state, plan.needed)
    count = tensor(node.output(state.counter))
    accumulators = [tensor(node.output(state.accumulated[v])) for v in plan.needed]
    passthrough = {body.inputs[j]: ins[j] for j in range(n)
                   if body.outputs[j] == body.inputs[j]}

    def seed(j):
        return grads[j] if seeded[j] else _static_zeros(tensor(node.output(j)))

    init_carried = [seed(j) for j in plan.carried]
    init_through = [grads[j] if seeded[j] else zeros_for(ins[j]) for j in plan.through]
    init_handles = [zeros_for(h) for h in plan.handles]
    k_c, k_t, k_h = len(init_carried), len(init_through), len(init_handles)

    def back_cond(i, *rest):
        return math_ops.greater(i, 0)

    def back_body(i, *rest):
        g_carried = list(rest[:k_c])
        g_through = list(rest[k_c:k_c + k_t])
        g_handles = list(rest[k_c + k_t:k_c + k_t + k_h])
        stacks = rest[k_c + k_t + k_h:]
        values, popped = dict(passthrough), []
        for stack, v in zip(stacks, plan.needed):
            rest_stack, values[v] = apply_op(
                "TensorListPopBack", [stack],
                attrs={"element_dtype": v.dtype, "element_shape": v.shape},
                name="TensorListPopBack")
            popped.append(rest_stack)
        resolve = _Resolver(values, plan.consts, Graph("gradients_stand_ins"))
        records = records_from_nodes([nd for nd in body.nodes if nd.op != "Placeholder"],
                                     resolve)
        targets = [resolve(body.outputs[j]) for j in plan.carried]
        sources = [resolve(body.inputs[j]) for j in plan.carried + plan.through] + \
            list(plan.handles)
        got = backprop(records, targets, g_carried, sources)
        new_carried = [g if g is not None else zeros_for(resolve(body.inputs[j]))
                       for j, g in zip(plan.carried, got[:k_c])]
        new_through = [a if g is None else add(a, g)
                       for a, g in zip(g_through, got[k_c:k_c + k_t])]
        new_handles = [a if g is None else add(a, g)
                       for a, g in zip(g_handles, got[k_c + k_t:])]
        return [math_ops.subtract(i, 1)] + new_carried + new_through + new_handles + popped

    result = while_loop(back_cond, back_body,
                        [count] + init_carried + init_through + init_handles + accumulators,
                        name="gradients/while")
    out = [None] * len(op.inputs)
    for k, j in enumerate(plan.carried):
        if j < n_rec:
            out[j] = result[1 + k]
    for k, j in enumerate(plan.through):
        out[j] = result[1 + k_c + k]
    by_resource = {h.resource: result[1 + k_c + k_t + k] for k, h in enumerate(plan.handles)}
    for k, h in enumerate(handles_all):
        if h.resource in by_resource:
            out[n_rec + k] = by_resource[h.resource]
    return out


_while_grad.takes_needed = True
