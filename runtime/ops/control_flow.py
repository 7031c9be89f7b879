"""Functional control flow: ``cond`` and ``while_loop``.

Eagerly they are plain Python. While a graph is being built they trace their
callables into library sub-graphs and record one If / While node; captured
outer tensors become extra inputs. Both branches, and every iteration, must
agree in structure and dtype; a loop variable whose shape changes across
iterations is relaxed to unknown dimensions and the loop is traced again.
"""
from __future__ import annotations

from typing import Callable, Sequence

from graph.ir import Graph, Output, TensorType
from graph.registry import get_op
from graph.shapes import TensorShape, as_shape
from runtime import context, nest
from runtime.composite import flatten_components, is_composite, rebuild_components
from runtime.errors import StructureMismatchError
from runtime.ops.core import apply_op, as_graph_input, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


# -- tracing a callable into a sub-graph ----------------------------------------

class _Trace:
    """A callable traced into a sub-graph, with its flat outputs and their structure."""

    def __init__(self, graph: Graph, structure, outputs: list):
        self.graph = graph
        self.structure = structure  # nested result with leaves as returned
        self.outputs = outputs      # flat: SymbolicTensor of ``graph`` or None


def _trace(fn: Callable, outer: Graph, base_name: str, arg_types: Sequence[TensorType],
           arg_names: Sequence[str], pack_args: Callable) -> _Trace:
    graph = Graph(outer.new_function_name(base_name), outer=outer)
    with context.building(graph):
        placeholders = []
        for t, n in zip(arg_types, arg_names):
            node = graph.add_node("Placeholder", attrs={"dtype": t.dtype, "shape": t.shape},
                                  name=n)
            placeholders.append(SymbolicTensor(node.output(0)))
        graph.inputs = [p._output for p in placeholders]
        result = fn(*pack_args(placeholders))
        leaves, counts = flatten_components(nest.flatten(result))
        outputs = [None if leaf is None else convert_to_tensor(leaf) for leaf in leaves]
        outputs = [None if t is None else apply_op("Identity", [t]) for t in outputs]
    return _Trace(graph, (result, counts), outputs)


def _finish_inputs(graphs: Sequence[Graph], leading: int) -> list[Output]:
    """Gives every graph the same capture inputs; returns the outer outputs to feed."""
    captured: list[Output] = []
    for g in graphs:
        for outer_output in g.captures:
            if outer_output not in captured:
                captured.append(outer_output)
    for g in graphs:
        for outer_output in captured:
            if outer_output not in g.captures:
                ph = g.add_node("Placeholder", attrs={"dtype": outer_output.dtype,
                                                      "shape": outer_output.shape},
                                name="unused_capture").output(0)
                g.captures[outer_output] = ph
        g.inputs = g.inputs[:leading] + [g.captures[o] for o in captured]
    return captured


def _is_stateful(graphs: Sequence[Graph]) -> bool:
    return any(get_op(n.op).stateful for g in graphs for n in g.nodes)


def _name_of(names, i: int, default: str) -> str:
    return names[i] if names and i < len(names) else default


# -- cond -------------------------------------------------------------------------

def cond(pred, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: str | None = None, *, output_names: Sequence[str] | None = None):
    """``tf.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``, staged when in a graph.

    ``output_names`` (used by autograph) names the flat outputs in error messages.
    """
    if true_fn is None or false_fn is None:
        raise TypeError("cond requires both true_fn and false_fn callables")
    graph = context.current_graph()
    if not isinstance(pred, Tensor) or graph is None:
        if isinstance(pred, SymbolicTensor):
            from runtime.ops.core import leaked
            raise leaked(pred)
        return true_fn() if bool(pred) else false_fn()
    pred_t = convert_to_tensor(pred)
    if not pred_t.dtype.is_bool:
        raise TypeError(f"The condition of tf.cond must be a bool tensor, got {pred_t.dtype.name} "
                        f"at {current_origin()}; compare it explicitly (for example `x > 0`).")
    pred_ref = as_graph_input(graph, pred_t)
    scope = graph.push_scope(name or "cond")
    try:
        branches = [_trace(fn, graph, f"{scope.replace('/', '_')}_{kind}", [], [], lambda a: a)
                    for fn, kind in ((true_fn, "true"), (false_fn, "false"))]
    finally:
        graph.pop_scope()
    then_t, else_t = branches
    output_types = _merge_branch_outputs(then_t, else_t, output_names)
    captured = _finish_inputs([then_t.graph, else_t.graph], leading=0)
    for t in branches:
        t.graph.outputs = [o._output for o in t.outputs if o is not None]
        graph.add_function(t.graph)
    op = "If" if _is_stateful([then_t.graph, else_t.graph]) else "StatelessIf"
    node = graph.add_node(op, [pred_ref] + captured,
                          attrs={"then_branch": then_t.graph, "else_branch": else_t.graph,
                                 "output_types": output_types},
                          name=scope, exact_name=True, origin=current_origin())
    outs = iter(SymbolicTensor(node.output(i)) for i in range(len(output_types)))
    flat = [None if o is None else next(outs) for o in then_t.outputs]
    result, counts = then_t.structure
    leaves = rebuild_components(nest.flatten(result), counts, flat)
    return nest.pack_sequence_as(result, leaves)


def _merge_branch_outputs(then_t: _Trace, else_t: _Trace, names) -> list[TensorType]:
    try:
        nest.assert_same_structure(then_t.structure[0], else_t.structure[0])
        same = then_t.structure[1] == else_t.structure[1]
    except ValueError:
        same = False
    if not same or len(then_t.outputs) != len(else_t.outputs):
        raise StructureMismatchError(
            f"true_fn and false_fn arguments to tf.cond must have the same number, type, and "
            f"overall structure of return values at {current_origin()}.\n"
            f"  true_fn returned:  {then_t.structure[0]!r}\n"
            f"  false_fn returned: {else_t.structure[0]!r}")
    types = []
    for i, (a, b) in enumerate(zip(then_t.outputs, else_t.outputs)):
        label = _name_of(names, i, f"output {i}")
        if (a is None) != (b is None):
            raise StructureMismatchError(
                f"{label} is None in one branch of the cond and a tensor in the other "
                f"at {current_origin()}; give it a value in both branches.")
        if a is None:
            continue
        if a.dtype != b.dtype:
            raise StructureMismatchError(
                f"{label} has dtype {a.dtype.name} in the true branch but {b.dtype.name} in the "
                f"false branch at {current_origin()}; both branches must produce the same dtype "
                "(use tf.cast).")
        types.append(TensorType(a.dtype, a.shape.most_specific_compatible_shape(b.shape)))
    return types


# -- while_loop ---------------------------------------------------------------------

def while_loop(cond: Callable, body: Callable, loop_vars, shape_invariants=None,
               parallel_iterations: int = 10, back_prop: bool = True, swap_memory: bool = False,
               maximum_iterations=None, name: str | None = None, *,
               loop_var_names: Sequence[str] | None = None):
    """``tf.while_loop``: repeats ``body`` while ``cond`` holds, staged when in a graph."""
    as_args = (lambda v: tuple(v)) if isinstance(loop_vars, (list, tuple)) else (lambda v: (v,))
    graph = context.current_graph()
    if graph is None:
        return _eager_while(cond, body, loop_vars, as_args, maximum_iterations)
    return _staged_while(graph, cond, body, loop_vars, as_args, shape_invariants,
                         maximum_iterations, name or "while", loop_var_names)


def _eager_while(cond, body, loop_vars, as_args, maximum_iterations):
    limit = None if maximum_iterations is None else int(maximum_iterations)
    count = 0
    while (limit is None or count < limit) and bool(cond(*as_args(loop_vars))):
        result = body(*as_args(loop_vars))
        if isinstance(loop_vars, (list, tuple)) and not isinstance(result, (list, tuple)):
            result = [result]
        loop_vars = nest.pack_sequence_as(loop_vars, nest.flatten(result)) \
            if isinstance(loop_vars, (list, tuple)) else result
        count += 1
    return loop_vars


def _staged_while(graph, cond, body, loop_vars, as_args, shape_invariants, maximum_iterations,
                  name, names):
    leaves = nest.flatten(loop_vars)
    flat, counts = flatten_components(leaves)
    tensors = [convert_to_tensor(v) for v in flat]
    n_user = len(tensors)
    if maximum_iterations is not None:
        tensors.append(convert_to_tensor(maximum_iterations, dtype_hint="int32"))
        tensors.append(convert_to_tensor(0, dtype=tensors[-1].dtype))
    invariants = _shape_invariants(shape_invariants, loop_vars, counts, n_user)
    types = [TensorType(t.dtype, inv if inv is not None else t.shape)
             for t, inv in zip(tensors, invariants + [None] * (len(tensors) - n_user))]
    arg_names = [_placeholder_name(names, i) for i in range(len(tensors))]

    def pack(flat_vals):
        user = rebuild_components(leaves, counts, list(flat_vals[:n_user]))
        return as_args(nest.pack_sequence_as(loop_vars, user))

    def cond_flat(*vals):
        result = cond(*pack(vals))
        if maximum_iterations is not None:
            from runtime.ops import math_ops
            result = math_ops.logical_and(math_ops.less(vals[-1], vals[-2]), result)
        return result

    def body_flat(*vals):
        result = body(*pack(vals))
        if isinstance(loop_vars, (list, tuple)) and not isinstance(result, (list, tuple)):
            result = [result]
        _check_body_structure(loop_vars, result, names)
        out, _ = flatten_components(nest.flatten(result))
        if maximum_iterations is not None:
            out = list(out) + [vals[-2], vals[-1] + 1]
        return out

    scope = graph.push_scope(name)
    try:
        for _ in range(len(types) + 2):  # each retrace relaxes at least one dimension
            cond_t = _trace(cond_flat, graph, f"{scope.replace('/', '_')}_cond", types, arg_names,
                            lambda a: a)
            body_t = _trace(body_flat, graph, f"{scope.replace('/', '_')}_body", types, arg_names,
                            lambda a: a)
            relaxed = _relax(types, body_t.outputs, names, invariants)
            if relaxed is None:
                break
            types = relaxed
    finally:
        graph.pop_scope()
    if len(cond_t.outputs) != 1 or cond_t.outputs[0] is None:
        raise StructureMismatchError(f"The loop condition must return one boolean at "
                                     f"{current_origin()}")
    cond_out = cond_t.outputs[0]
    if not cond_out.dtype.is_bool or cond_out.shape.rank not in (None, 0):
        raise TypeError(f"The loop condition must be a scalar bool, got {cond_out.dtype.name} "
                        f"tensor of shape {cond_out.shape} at {current_origin()}")
    captured = _finish_inputs([cond_t.graph, body_t.graph], leading=len(types))
    cond_t.graph.outputs = [cond_out._output]
    body_t.graph.outputs = [o._output for o in body_t.outputs] + \
        body_t.graph.inputs[len(types):]
    for t in (cond_t, body_t):
        graph.add_function(t.graph)
    inputs = [as_graph_input(graph, t) for t in tensors] + captured
    op = "While" if _is_stateful([cond_t.graph, body_t.graph]) else "StatelessWhile"
    node = graph.add_node(op, inputs,
                          attrs={"cond": cond_t.graph, "body": body_t.graph,
                                 "output_types": types + [o.type for o in captured]},
                          name=scope, exact_name=True, origin=current_origin())
    outs = [SymbolicTensor(node.output(i)) for i in range(n_user)]
    return nest.pack_sequence_as(loop_vars, rebuild_components(leaves, counts, outs))


def _placeholder_name(names, i: int) -> str:
    if names and i < len(names):
        return str(names[i]).replace(".", "_")
    return "loop_var" if i == 0 else f"loop_var_{i}"


def _shape_invariants(shape_invariants, loop_vars, counts, n_user) -> list:
    if shape_invariants is None:
        return [None] * n_user
    flat = nest.flatten(shape_invariants) if nest.is_nested(loop_vars) else [shape_invariants]
    if any(c is not None for c in counts) or len(flat) != n_user:
        raise ValueError("shape_invariants must have the same structure as loop_vars")
    return [None if s is None else as_shape(s) for s in flat]


def _check_body_structure(loop_vars, result, names) -> None:
    try:
        nest.assert_same_structure(loop_vars, result, check_types=False)
    except ValueError:
        raise StructureMismatchError(
            f"The loop body must return the same structure as the loop variables at "
            f"{current_origin()}.\n  loop variables: {loop_vars!r}\n  body returned:  {result!r}"
        ) from None


def _relax(types, outputs, names, invariants):
    """New loop types when a body output does not fit its input type, else None."""
    changed = False
    new = list(types)
    for i, (t, out) in enumerate(zip(types, outputs)):
        label = _name_of(names, i, f"loop variable {i}")
        if out.dtype != t.dtype:
            raise StructureMismatchError(
                f"{label} has dtype {t.dtype.name} before the loop but dtype {out.dtype.name} "
                f"after one iteration, at {out.op.origin or current_origin()}. A loop variable "
                "must keep its dtype: cast the new value with tf.cast, or give it the final "
                "dtype before the loop.")
        if not out.shape.is_subtype_of(t.shape):
            if i < len(invariants) and invariants[i] is not None:
                raise ValueError(
                    f"{label} has shape {out.shape} after one iteration, which does not fit its "
                    f"shape invariant {t.shape}. Loosen the invariant (use None dimensions).")
            new[i] = TensorType(t.dtype, t.shape.most_specific_compatible_shape(out.shape))
            changed = True
    return new if changed else None
