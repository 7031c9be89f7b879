"""Functional control flow: ``cond`` and ``while_loop``.

Eagerly they are plain Python. While a graph is being built they trace their
callables into library sub-graphs and record one If / While node; captured
outer tensors become extra inputs. Both branches, and every iteration, must
agree in structure and dtype; a loop variable whose shape changes across
iterations is relaxed to unknown dimensions and the loop is traced again.

A ``Deferred`` stands for a value whose type is learned from a trace (see
its docstring): AutoGraph uses it for a return value set inside a loop or in
one branch, so that the statement is traced once.
"""
from __future__ import annotations

from typing import Callable, Sequence

import numpy as np

from graph.errors import InvalidArgumentError
from graph.ir import Graph, Output, TensorType
from graph.registry import get_op
from graph.shapes import TensorShape, as_shape
from runtime import context, nest
from runtime.composite import (component_names, component_shapes, flatten_components,
                               is_composite, rebuild_components, spec_component_shapes)
from runtime.errors import StructureMismatchError
from runtime.ops.core import apply_op, as_graph_input, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


# -- values whose type a trace teaches ------------------------------------------

class Deferred:
    """A loop variable or branch result that has no value yet; its type comes from tracing.

    AutoGraph's return value, when a ``return`` sits inside a staged loop or in
    one branch of a staged ``if``, has no value before (or in the other branch),
    and nothing reads it there: a ``do_return`` flag guards every read. Its type
    is known only once the code that sets it has been traced. Rather than trace
    twice (once to learn the type, again from a placeholder of it), the slot is
    a ``Deferred``, allowed as an element of ``loop_vars`` (a list or tuple) and
    of a branch's result (a list or tuple):

    - ``while_loop`` passes it to ``cond`` and ``body`` as it is (no placeholder);
      when the body returns a value in its place, the loop variable takes that
      value's type, its initial value is ``make(value)`` in the outer graph, and
      ``cond`` and ``body`` get an input for it that they do not read. A body that
      returns the ``Deferred`` itself leaves the slot uncarried (the result holds
      the ``Deferred``).
    - ``cond`` fills a branch's ``Deferred`` with ``make(value of the other
      branch)``, built inside that branch; deferred in both, the result holds it.
      (``make`` may also return values of that branch's own graph, which it kept
      while traced: AutoGraph's true branch decides so whether a list it appended
      to stays a list, once the false branch shows its length.)

    ``make`` must build a value of the given value's structure and types (zeros)
    without reading it: it is called inside another graph than the value's.
    """

    __slots__ = ("make",)

    def __init__(self, make: Callable):
        self.make = make

    def __repr__(self) -> str:
        return "Deferred()"


def _graph_outputs(result) -> tuple[list, list]:
    """(flat outputs, per-leaf component counts) of a traced result; in the current graph."""
    leaves, counts = flatten_components(nest.flatten(result))
    outputs = [leaf if leaf is None or type(leaf) is Deferred else convert_to_tensor(leaf)
               for leaf in leaves]
    outputs = [t if t is None or type(t) is Deferred else apply_op("Identity", [t])
               for t in outputs]
    return outputs, counts


# -- tracing a callable into a sub-graph ----------------------------------------

class _Trace:
    """A callable traced into a sub-graph, with its flat outputs and their structure."""

    def __init__(self, graph: Graph, structure, outputs: list):
        self.graph = graph
        self.structure = structure  # nested result with leaves as returned
        self.outputs = outputs      # flat: SymbolicTensor of ``graph``, None, or a Deferred

    def fill(self, index: int, value) -> None:
        """Replaces the ``Deferred`` element ``index`` of the result by ``value``, built in
        this trace's graph (its outputs join the flat outputs where the Deferred was)."""
        result, counts = self.structure
        first_leaf = len(nest.flatten(list(result[:index])))
        start = sum(1 if c is None else c for c in counts[:first_leaf])
        with context.building(self.graph):
            outputs, new_counts = _graph_outputs(value)
        self.outputs[start:start + 1] = outputs
        counts[first_leaf:first_leaf + 1] = new_counts
        items = list(result)
        items[index] = value
        self.structure = (type(result)(items), counts)


def _is_deferred_at(result, index: int) -> bool:
    return type(result[index]) is Deferred


def _trace(fn: Callable, outer: Graph, base_name: str, arg_types: Sequence,
           arg_names: Sequence[str], pack_args: Callable) -> _Trace:
    """Traces ``fn`` into a new sub-graph; a ``Deferred`` in ``arg_types`` is passed as is."""
    graph = Graph(outer.new_function_name(base_name), outer=outer)
    with context.building(graph):
        args = []
        for t, n in zip(arg_types, arg_names):
            if type(t) is Deferred:
                args.append(t)
                continue
            node = graph.add_node("Placeholder", attrs={"dtype": t.dtype, "shape": t.shape},
                                  name=n)
            args.append(SymbolicTensor(node.output(0)))
        graph.inputs = [a._output for a in args if type(a) is not Deferred]
        result = fn(*pack_args(args))
        outputs, counts = _graph_outputs(result)
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

def _refuse_condition(got: str):
    raise InvalidArgumentError(  # (TensorFlow's error, when the graph is built)
        None, None, f"Input 'pred' passed {got} expected bool: the condition of tf.cond must "
        f"be a bool, at {current_origin()}; compare it explicitly (for example `x > 0`).")


def public_cond(pred, true_fn: Callable | None = None, false_fn: Callable | None = None,
                name: str | None = None, **kwargs):
    """``tf.cond`` as users call it: a Python bool ``pred`` while a graph is built is
    TensorFlow's TypeError (its ``if`` would choose a branch at trace time); eagerly it
    picks the branch, as there. The library's own calls use ``cond``."""
    if isinstance(pred, bool) and context.current_graph() is not None:
        raise TypeError(f"pred must not be a Python bool (got {pred}): tf.cond in a graph "
                        "takes a boolean tensor; use a Python `if` for a Python condition "
                        f"(at {current_origin()}).")
    return cond(pred, true_fn, false_fn, name, **kwargs)


def cond(pred, true_fn: Callable | None = None, false_fn: Callable | None = None,
         name: str | None = None, *, output_names: Sequence[str] | None = None):
    """``tf.cond``: ``true_fn()`` if ``pred`` else ``false_fn()``, staged when in a graph.

    ``output_names`` (used by autograph) names the flat outputs in error messages.
    """
    if true_fn is None or false_fn is None:
        raise TypeError("cond requires both true_fn and false_fn callables")
    graph = context.current_graph()
    if graph is not None and not isinstance(pred, (Tensor, bool, np.bool_)):
        _refuse_condition(type(pred).__name__)  # (a graph's cond takes it as a tensor)
    if not isinstance(pred, Tensor) or graph is None:
        if isinstance(pred, SymbolicTensor):
            from runtime.ops.core import leaked
            raise leaked(pred)
        return true_fn() if bool(pred) else false_fn()
    pred_t = convert_to_tensor(pred)
    if not pred_t.dtype.is_bool:
        _refuse_condition(pred_t.dtype.name)
    pred_ref = as_graph_input(graph, pred_t)
    scope = graph.push_scope(name or "cond")
    try:
        branches = [_trace(fn, graph, f"{scope.replace('/', '_')}_{kind}", [], [], lambda a: a)
                    for fn, kind in ((true_fn, "true"), (false_fn, "false"))]
    finally:
        graph.pop_scope()
    then_t, else_t = branches
    _fill_deferred_results(then_t, else_t)
    result, counts = then_t.structure
    output_names = component_names(nest.flatten(result), counts, output_names)
    output_types = _merge_branch_outputs(then_t, else_t, output_names)
    captured = _finish_inputs([then_t.graph, else_t.graph], leading=0)
    for t in branches:
        t.graph.outputs = [o._output for o in t.outputs if not _absent(o)]
        graph.add_function(t.graph)
    op = "If" if _is_stateful([then_t.graph, else_t.graph]) else "StatelessIf"
    node = graph.add_node(op, [pred_ref] + captured,
                          attrs={"then_branch": then_t.graph, "else_branch": else_t.graph,
                                 "output_types": output_types},
                          name=scope, exact_name=True, origin=current_origin())
    outs = iter(SymbolicTensor(node.output(i)) for i in range(len(output_types)))
    flat = [o if _absent(o) else next(outs) for o in then_t.outputs]
    result, counts = then_t.structure
    leaves = rebuild_components(nest.flatten(result), counts, flat)
    return nest.pack_sequence_as(result, leaves)


def _absent(output) -> bool:
    """No tensor: a None result, or a result deferred in both branches."""
    return output is None or type(output) is Deferred


def _fill_deferred_results(then_t: _Trace, else_t: _Trace) -> None:
    """Builds each branch's ``Deferred`` result from the other branch's value."""
    a, b = then_t.structure[0], else_t.structure[0]
    if not (isinstance(a, (list, tuple)) and isinstance(b, (list, tuple)) and len(a) == len(b)):
        return
    for i in range(len(a)):
        if _is_deferred_at(a, i) and not _is_deferred_at(b, i):
            then_t.fill(i, a[i].make(b[i]))
        elif _is_deferred_at(b, i) and not _is_deferred_at(a, i):
            else_t.fill(i, b[i].make(a[i]))


def _merge_branch_outputs(then_t: _Trace, else_t: _Trace, names) -> list[TensorType]:
    try:
        nest.assert_same_structure(then_t.structure[0], else_t.structure[0])
        same = then_t.structure[1] == else_t.structure[1]
    except (ValueError, TypeError):
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
        if _absent(a) != _absent(b):
            raise StructureMismatchError(
                f"{label} is None in one branch of the cond and a tensor in the other "
                f"at {current_origin()}; give it a value in both branches.")
        if _absent(a):
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
               loop_var_names: Sequence[str] | None = None, relax_shapes: bool = False):
    """``tf.while_loop``: repeats ``body`` while ``cond`` holds, staged when in a graph.

    A loop variable whose shape changes in the body needs a shape invariant, as in
    TensorFlow (ValueError otherwise); ``relax_shapes`` (not TensorFlow's: what its
    ``Dataset.reduce`` does for the loops AutoGraph stages over datasets) instead
    relaxes the changing dimensions and traces the body again.
    """
    as_args = (lambda v: tuple(v)) if isinstance(loop_vars, (list, tuple)) else (lambda v: (v,))
    graph = context.current_graph()
    if graph is None:
        return _eager_while(cond, body, loop_vars, as_args, maximum_iterations)
    return _staged_while(graph, cond, body, loop_vars, as_args, shape_invariants,
                         maximum_iterations, name or "while", loop_var_names, relax_shapes)


def _eager_while(cond, body, loop_vars, as_args, maximum_iterations):
    # As TensorFlow: Python numbers and arrays among the loop variables become tensors.
    loop_vars = nest.map_structure(
        lambda v: convert_to_tensor(v) if isinstance(
            v, (bool, int, float, complex, np.ndarray, np.generic)) else v, loop_vars)
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
                  name, names, relax_shapes=False):
    leaves = nest.flatten(loop_vars)
    flat, counts = flatten_components(leaves)
    names = component_names(leaves, counts, names)
    tensors = [v if type(v) is Deferred else convert_to_tensor(v) for v in flat]
    n_user = len(tensors)
    if maximum_iterations is not None:
        tensors.append(convert_to_tensor(maximum_iterations, dtype_hint="int32"))
        tensors.append(convert_to_tensor(0, dtype=tensors[-1].dtype))
    invariants = _shape_invariants(shape_invariants, loop_vars, counts, n_user)
    # (a composite's components start from its type's component shapes: a RaggedTensor's flat
    # values may change length in the body, as in TensorFlow, its row count may not)
    padding = [None] * (len(tensors) - n_user)
    start = [inv if inv is not None else spec_shape for inv, spec_shape in
             zip(invariants, spec_component_shapes(leaves, counts))] + padding
    types = [t if type(t) is Deferred else TensorType(t.dtype, s if s is not None else t.shape)
             for t, s in zip(tensors, start)]
    arg_names = [_placeholder_name(i) for i in range(n_user)] + \
        ["maximum_iterations", "loop_counter"][:len(tensors) - n_user]
    last_result = [None]

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
        _check_body_structure(_deferred_as(loop_vars, result), result, names)
        last_result[0] = result
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
            deferred = any(type(t) is Deferred for t in types[:n_user])
            outputs = body_t.outputs
            if deferred:  # the body's outputs of the other variables, where they stand
                outputs = [outputs[k] for k in _body_positions(loop_vars, last_result[0],
                                                               len(types))]
            relaxed = _relax(types, outputs, names, invariants, relax_shapes)
            if relaxed is not None:
                types = relaxed  # (deferred variables stay deferred: typed by the last trace)
                continue
            if deferred:
                resolved = _resolve_deferred(loop_vars, last_result[0], body_t.outputs, types,
                                             tensors, arg_names, names, invariants)
                if resolved is not None:
                    loop_vars, types, tensors, arg_names, names, invariants, added = resolved
                    leaves = nest.flatten(loop_vars)
                    flat, counts = flatten_components(leaves)
                    n_user = len(flat)
                    for t in (cond_t, body_t):
                        _add_inputs(t.graph, types, arg_names, added)
            break
    finally:
        graph.pop_scope()
    if len(cond_t.outputs) != 1 or cond_t.outputs[0] is None:
        raise StructureMismatchError(f"The loop condition must return one boolean at "
                                     f"{current_origin()}")
    cond_out = cond_t.outputs[0]
    if not cond_out.dtype.is_bool or cond_out.shape.rank not in (None, 0):
        raise InvalidArgumentError(  # (TensorFlow's error, when the graph is built)
            None, None, f"The loop condition must be a scalar bool, got {cond_out.dtype.name} tensor of "
            f"shape {cond_out.shape} at {current_origin()}")
    carried = [t for t in types if type(t) is not Deferred]
    captured = _finish_inputs([cond_t.graph, body_t.graph], leading=len(carried))
    cond_t.graph.outputs = [cond_out._output]
    body_t.graph.outputs = [o._output for o in body_t.outputs if type(o) is not Deferred] + \
        body_t.graph.inputs[len(carried):]
    for t in (cond_t, body_t):
        graph.add_function(t.graph)
    inputs = [as_graph_input(graph, t) for t in tensors if type(t) is not Deferred] + captured
    op = "While" if _is_stateful([cond_t.graph, body_t.graph]) else "StatelessWhile"
    node = graph.add_node(op, inputs,
                          attrs={"cond": cond_t.graph, "body": body_t.graph,
                                 "output_types": carried + [o.type for o in captured]},
                          name=scope, exact_name=True, origin=current_origin())
    node_outs = iter(SymbolicTensor(node.output(i)) for i in range(len(carried)))
    outs = [t if type(t) is Deferred else next(node_outs) for t in types[:n_user]]
    return nest.pack_sequence_as(loop_vars, rebuild_components(leaves, counts, outs))


def _deferred_as(loop_vars, result):
    """``loop_vars`` with each ``Deferred`` element replaced by the body's value for it."""
    if not (isinstance(loop_vars, (list, tuple)) and isinstance(result, (list, tuple))
            and len(loop_vars) == len(result)):
        return loop_vars
    if not any(type(v) is Deferred for v in loop_vars):
        return loop_vars
    return type(result)(r if type(v) is Deferred else v for v, r in zip(loop_vars, result))


def _body_positions(loop_vars, result, n_types: int) -> list[int]:
    """For each flat loop variable, the index of its value among the body's flat outputs
    (a ``Deferred`` variable's value may have several)."""
    positions, pos = [], 0
    if isinstance(loop_vars, (list, tuple)) and isinstance(result, (list, tuple)):
        for var, value in zip(loop_vars, result):
            width = len(flatten_components(nest.flatten(var))[0])
            n = width
            if type(var) is Deferred and type(value) is not Deferred:
                n = len(flatten_components(nest.flatten(value))[0])
            positions.extend(range(pos, pos + width))
            pos += n
    return positions + list(range(pos, pos + n_types - len(positions)))


def _resolve_deferred(loop_vars, result, body_outputs, types, tensors, arg_names, names,
                      invariants):
    """Carries each ``Deferred`` loop variable the body gave a value: its initial value is
    ``make(value)`` (in the outer graph), its type the body's result.

    Returns (loop_vars, types, tensors, arg_names, names, invariants, flat indices of the
    new inputs), or None when no Deferred got a value.
    """
    if not (isinstance(loop_vars, (list, tuple)) and isinstance(result, (list, tuple))):
        return None
    new_vars, new_types, new_tensors, new_names, new_inv, added = [], [], [], [], [], []
    pos = 0  # flat position in the old loop variables (= in the body outputs before it)
    out_pos = 0  # flat position in the body outputs
    changed = False
    for var, value in zip(loop_vars, result):
        width = len(flatten_components(nest.flatten(var))[0])
        if type(var) is Deferred and type(value) is not Deferred:
            init = var.make(value)
            init_flat = flatten_components(nest.flatten(init))[0]
            n = len(init_flat)
            new_tensors.extend(convert_to_tensor(v) for v in init_flat)
            label = names[pos] if names and pos < len(names) else f"loop variable {pos}"
            for j, out in enumerate(body_outputs[out_pos:out_pos + n]):
                added.append(len(new_types))
                new_types.append(TensorType(out.dtype, out.shape))
                new_names.append(label if n == 1 else f"{label}[{j}]")
                new_inv.append(None)
            new_vars.append(init)
            changed = True
        else:
            n = width
            new_vars.append(var)
            new_types.extend(types[pos:pos + n])
            new_tensors.extend(tensors[pos:pos + n])
            new_names.extend(_name_of(names, k, f"loop variable {k}") for k in range(pos, pos + n))
            new_inv.extend(invariants[pos:pos + n])
        pos += width
        out_pos += n
    if not changed:
        return None
    new_types.extend(types[pos:])  # maximum_iterations' counters
    new_tensors.extend(tensors[pos:])
    new_args = [_placeholder_name(k) for k in range(len(new_names))] + arg_names[pos:]
    rebuilt = type(loop_vars)(*new_vars) if hasattr(loop_vars, "_fields") else \
        type(loop_vars)(new_vars)
    return rebuilt, new_types, new_tensors, new_args, new_names, new_inv, added


def _add_inputs(graph: Graph, types, arg_names, added) -> None:
    """Gives a traced cond/body the inputs of newly carried loop variables (unread there)."""
    for k in added:
        index = sum(1 for t in types[:k] if type(t) is not Deferred)
        node = graph.add_node("Placeholder", attrs={"dtype": types[k].dtype,
                                                   "shape": types[k].shape}, name=arg_names[k])
        graph.nodes.pop()  # keep the inputs together at the front, in order
        at = graph.nodes.index(graph.inputs[index - 1].node) + 1 if index else 0
        graph.nodes.insert(at, node)
        graph.inputs.insert(index, node.output(0))


def _placeholder_name(i: int) -> str:
    """TensorFlow's name for the i-th loop variable inside a loop's body and condition: what
    ``print`` of a loop variable shows there (``while/Placeholder_1:0``)."""
    return "Placeholder" if i == 0 else f"Placeholder_{i}"


def _shape_invariants(shape_invariants, loop_vars, counts, n_user) -> list:
    """One shape (or None) per flat loop tensor. The invariant of a composite loop
    variable (a SparseTensor) is a shape of the value, turned into its components' shapes."""
    if shape_invariants is None:
        return [None] * n_user
    leaves = nest.flatten(loop_vars)
    per_leaf = _align_invariants(shape_invariants, loop_vars)
    if per_leaf is None or len(per_leaf) != len(leaves):
        raise ValueError("shape_invariants must have the same structure as loop_vars")
    out = []
    for leaf, count, inv in zip(leaves, counts, per_leaf):
        if count is None:
            out.append(None if inv is None else as_shape(inv))
        elif inv is None:
            out.extend([None] * count)
        else:
            out.extend(component_shapes(leaf, as_shape(inv)))
    if len(out) != n_user:
        raise ValueError("shape_invariants must have the same structure as loop_vars")
    return out


def _align_invariants(invariants, loop_vars):
    """The invariants per leaf of ``loop_vars`` (None for a whole nested variable means
    None for each of its leaves); None when the structures differ."""
    if not nest.is_nested(loop_vars):
        return [invariants]
    n = len(nest.flatten(loop_vars))
    if invariants is None:
        return [None] * n
    if isinstance(loop_vars, dict):
        if not isinstance(invariants, dict) or set(invariants) != set(loop_vars):
            return None
        keys = nest._sorted_keys(loop_vars)
        parts = [_align_invariants(invariants[k], loop_vars[k]) for k in keys]
    else:
        if not isinstance(invariants, (list, tuple)) or len(invariants) != len(loop_vars):
            return None
        parts = [_align_invariants(i, v) for i, v in zip(invariants, loop_vars)]
    if any(p is None for p in parts):
        return None
    return [x for p in parts for x in p]


def _check_body_structure(loop_vars, result, names) -> None:
    try:
        nest.assert_same_structure(loop_vars, result, check_types=False)
    except ValueError:
        raise StructureMismatchError(
            f"The loop body must return the same structure as the loop variables at "
            f"{current_origin()}.\n  loop variables: {loop_vars!r}\n  body returned:  {result!r}"
        ) from None
    for i, (var, value) in enumerate(zip(nest.flatten(loop_vars), nest.flatten(result))):
        if type(var) is Deferred or type(value) is Deferred:
            continue
        if is_composite(var) or is_composite(value):
            same = type(var) is type(value) and \
                len(var._components()) == len(value._components())
            if not same:
                raise StructureMismatchError(
                    f"Loop variable {i} is a {type(var).__name__} before the loop but the body "
                    f"returns a {type(value).__name__} for it (of another kind or structure) at "
                    f"{current_origin()}; a loop variable must keep its type.\n"
                    f"  before: {var!r}\n  after:  {value!r}")


def _relax(types, outputs, names, invariants, relax_shapes=False):
    """New loop types when a body output does not fit its input type and ``relax_shapes``,
    else None (a ValueError without a fitting shape invariant)."""
    changed = False
    new = list(types)
    for i, (t, out) in enumerate(zip(types, outputs)):
        if type(t) is Deferred:
            continue  # not carried: the body returned no value for it
        label = f"'{names[i]}'" if names and i < len(names) else f"loop variable {i}"
        if out is None:  # (TensorFlow: a ValueError, the loop cannot carry None)
            raise ValueError(
                f"{label} is a {t.dtype.name} tensor before the loop, but None after one "
                f"iteration, at {current_origin()}. A loop variable must keep its type: give "
                "it a tensor value on every iteration.")
        if out.dtype != t.dtype:
            raise StructureMismatchError(
                f"{label} has dtype {t.dtype.name} before the loop, but dtype {out.dtype.name} "
                f"after one iteration, at {out.op.origin or current_origin()}. A loop variable "
                "must keep its dtype: cast the new value with tf.cast, or give it the final "
                "dtype before the loop.")
        if not out.shape.is_subtype_of(t.shape):
            if i < len(invariants) and invariants[i] is not None:
                raise ValueError(
                    f"{label} has shape {out.shape} after one iteration, which does not fit its "
                    f"shape invariant {t.shape}. Loosen the invariant (use None dimensions).")
            if relax_shapes:
                new[i] = TensorType(t.dtype, t.shape.most_specific_compatible_shape(out.shape))
                changed = True
                continue
            raise ValueError(  # (TensorFlow's rule: no silent relaxation)
                f"{label} has shape {t.shape} before the loop, but shape {out.shape} after one "
                f"iteration, at {out.op.origin or current_origin()}. Use "
                "tf.autograph.experimental.set_loop_options to set shape invariants (or the "
                "shape_invariants argument of tf.while_loop), e.g. None for the dimensions that "
                "change.")
    return new if changed else None
