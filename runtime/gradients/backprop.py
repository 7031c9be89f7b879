"""Reverse accumulation over a list of op records: the heart of every gradient.

The eager tape and the graph gradient builder both reduce their work to a
list of ``OpRecord``s in execution order, the targets with their seed
gradients, and the sources. ``backprop`` walks the records backward once,
calling each op's gradient function with the summed gradients of its
outputs and adding what it returns into the gradients of its inputs.

Only float tensors (and the variant flows of TensorLists) carry gradients,
as in TensorFlow: an integer or boolean source gets None.
"""
from __future__ import annotations

from typing import Sequence

from runtime.gradients.registry import OpRecord, VariableHandle, get_gradient
from runtime.tensor import SymbolicTensor, Tensor


class NoGradientError(LookupError):
    """An op on the path from a source to a target has no gradient function."""


def key_of(x):
    """A hashable identity for a tensor, a variable or a variable handle."""
    if isinstance(x, SymbolicTensor):
        return x._output
    if isinstance(x, VariableHandle):
        return ("var", x.resource)
    resource = getattr(x, "_resource", None)
    if resource is not None and not isinstance(x, Tensor):  # a Variable
        return ("var", resource)
    return id(x)


def carries_gradient(x) -> bool:
    """Float tensors and variable handles carry gradients; ints, bools and strings do not."""
    dtype = getattr(x, "dtype", None)
    return dtype is not None and (dtype.is_floating or dtype.name == "variant")


def _sum(grads: list):
    if len(grads) == 1:
        return grads[0]
    from runtime.gradients.util import add_all
    return add_all(grads)


def backprop(records: Sequence[OpRecord], targets: Sequence, target_grads: Sequence,
             sources: Sequence) -> list:
    """Gradients of ``sum(targets . target_grads)`` with respect to each source (or None)."""
    source_keys = {key_of(s) for s in sources}
    reached = set(source_keys)
    live = []
    for record in records:  # forward: which records depend on a source
        if any(key_of(i) in reached for i in record.inputs):
            live.append(record)
            for o in record.outputs:
                if o is not None and carries_gradient(o):
                    reached.add(key_of(o))
    pending: dict = {}
    for t, g in zip(targets, target_grads):
        k = key_of(t)
        if k in reached and g is not None:
            pending.setdefault(k, []).append(g)
    for record in reversed(live):
        out_grads = []
        any_grad = False
        for o in record.outputs:
            gs = pending.get(key_of(o)) if o is not None else None
            if gs:
                out_grads.append(_sum(gs))
                any_grad = True
                if key_of(o) not in source_keys:
                    del pending[key_of(o)]
            else:
                out_grads.append(None)
        if not any_grad:
            continue
        fn = _gradient_function(record)
        if fn is None:
            continue
        if getattr(fn, "takes_needed", False):  # control flow: skip gradients nobody uses
            in_grads = fn(record, *out_grads, needed=[key_of(i) in reached for i in record.inputs])
        else:
            in_grads = fn(record, *out_grads)
        if len(in_grads) != len(record.inputs):
            raise ValueError(f"The gradient of {record.op} returned {len(in_grads)} gradients "
                             f"for {len(record.inputs)} inputs")
        for i, g in zip(record.inputs, in_grads):
            if g is None or not carries_gradient(i):
                continue
            k = key_of(i)
            if k in reached:
                pending.setdefault(k, []).append(g)
    result = []
    for s in sources:
        gs = pending.get(key_of(s))
        result.append(_sum(gs) if gs else None)
    return result


def _gradient_function(record: OpRecord):
    try:
        return get_gradient(record.op)
    except LookupError:
        pass
    node = record.node
    name = node.name if node is not None else record.op
    origin = node.origin if node is not None else record.origin
    where = f" at {origin}" if origin is not None else ""
    raise NoGradientError(
        f"No gradient defined for operation '{name}' (op type: {record.op}){where}. Wrap the "
        "input of that op in tf.stop_gradient if no gradient should flow through it, or "
        "compute the value differently.")
