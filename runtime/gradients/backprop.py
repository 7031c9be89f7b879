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

import contextlib
from typing import Sequence

import numpy as np

from graph import dtypes
from runtime import context
from runtime.gradients.eager_grads import NUMPY_GRADIENTS
from runtime.gradients.registry import OpRecord, VariableHandle, get_gradient, override_of
from runtime.gradients.util import add_all, dense, is_sparse
from runtime.ops.core import RECORDERS
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


_NO_CONTEXT = contextlib.nullcontext()


class NoGradientError(LookupError):
    """An op on the path from a source to a target has no gradient function."""


def key_of(x):
    """A hashable identity for a tensor, a variable or a variable handle."""
    if type(x) is EagerTensor:
        return id(x)
    if isinstance(x, SymbolicTensor):
        return x._output
    if isinstance(x, VariableHandle):
        return ("var", x.resource)
    resource = getattr(x, "_resource", None)
    if resource is not None and not isinstance(x, Tensor):  # a Variable
        return ("var", resource)
    return id(x)


def carries_gradient(x) -> bool:
    """Float and complex tensors and variable handles carry gradients; ints, bools and strings
    do not."""
    dtype = getattr(x, "dtype", None)
    return dtype is not None and (dtype.is_floating or dtype.is_complex
                                  or dtype.name == "variant")


_PASS_THROUGH = ("Identity", "ReadVariableOp")  # ops a sparse gradient passes unchanged


def _sum(grads: list, fast: bool = False):
    if len(grads) == 1:
        return grads[0]
    if fast and grads[0].dtype is not dtypes.variant and not any(map(is_sparse, grads)):
        total = grads[0]._value + grads[1]._value  # a new array: the rest add in place
        for g in grads[2:]:
            value = g._value
            if np.shape(value) != np.shape(total):
                total = total + value
            else:
                total += value
        return EagerTensor(total, grads[0].dtype)
    if all(map(is_sparse, grads)):  # in the order their ops ran, as TensorFlow concatenates
        grads = grads[::-1]         # (they were collected walking backward)
    return add_all(grads)


def _numpy_gradient(fn, record: OpRecord, out_grads: list, needed: list) -> list:
    """Runs a numpy gradient function (eager_grads.py) and wraps its values exactly typed."""
    values = fn(record, [None if g is None else g._value for g in out_grads], needed)
    grads = []
    for v, i in zip(values, record.inputs):
        if v is None:
            grads.append(None)
            continue
        dtype = i.dtype
        if dtype is not dtypes.variant and v.dtype != dtype.numpy_dtype:
            v = np.asarray(v, dtype=dtype.numpy_dtype)
        grads.append(EagerTensor(v, dtype))
    return grads


def backprop(records: Sequence[OpRecord], targets: Sequence, target_grads: Sequence,
             sources: Sequence, sparse: bool = False) -> list:
    """Gradients of ``sum(targets . target_grads)`` with respect to each source (or None).

    With ``sparse`` a source whose gradient comes only from gathers gets an IndexedSlices, as
    ``GradientTape.gradient`` gives in TensorFlow; otherwise every gradient is a tensor.

    Eagerly, when nothing records the gradient computation (no tape recording,
    no graph being built), ops with a numpy gradient (eager_grads.py) skip
    ``apply_op``: the fast path of an eager tape.
    """
    fast = context.current_graph() is None and not RECORDERS and \
        all(type(g) is EagerTensor for g in target_grads if g is not None)
    source_keys = {key_of(s) for s in sources if carries_gradient(s)}
    reached = set(source_keys)  # keys of tensors that carry a gradient from a source
    live = []
    for record in records:  # forward: which records depend on a source
        in_keys = [key_of(i) for i in record.inputs]
        for k in in_keys:
            if k in reached:
                break
        else:
            continue
        out_keys = [None if o is None else key_of(o) for o in record.outputs]
        live.append((record, in_keys, out_keys))
        for o, k in zip(record.outputs, out_keys):
            if k is not None and carries_gradient(o):
                reached.add(k)
    pending: dict = {}
    for t, g in zip(targets, target_grads):
        k = key_of(t)
        if k in reached and g is not None:
            pending.setdefault(k, []).append(g)
    with np.errstate(all="ignore") if fast else _NO_CONTEXT:  # as eager kernels are silent
        _backward(live, pending, reached, source_keys, fast)
        result = []
        for s in sources:
            gs = pending.get(key_of(s))
            g = _sum(gs, fast) if gs else None
            result.append(g if sparse else dense(g))
    return result


def _backward(live: list, pending: dict, reached: set, source_keys: set, fast: bool) -> None:
    """Walks the live records backward, moving gradients from outputs to inputs."""
    for record, in_keys, out_keys in reversed(live):
        out_grads = []
        any_grad = False
        for k in out_keys:
            gs = pending.get(k)
            if gs:
                out_grads.append(gs[0] if len(gs) == 1 else _sum(gs, fast))
                any_grad = True
                if k not in source_keys:
                    del pending[k]
            else:
                out_grads.append(None)
        if not any_grad:
            continue
        if any(map(is_sparse, out_grads)):
            if record.op in _PASS_THROUGH:
                in_grads = out_grads[:1] * len(record.inputs)
                _add_pending(pending, in_keys, in_grads, [k in reached for k in in_keys])
                continue
            out_grads = [dense(g) for g in out_grads]
        needed = [k in reached for k in in_keys]
        override = override_of(record.attrs)
        fast_fn = NUMPY_GRADIENTS.get(record.op) if fast and override is None else None
        if fast_fn is not None:  # fast: every gradient so far is an EagerTensor
            in_grads = _numpy_gradient(fast_fn, record, out_grads, needed)
        else:
            fn = override or _gradient_function(record)
            if fn is None:
                continue
            if getattr(fn, "takes_needed", False):  # skip gradients nobody uses
                in_grads = fn(record, *out_grads, needed=needed)
            else:
                in_grads = fn(record, *out_grads)
        if len(in_grads) != len(record.inputs):
            raise ValueError(f"The gradient of {record.op} returned {len(in_grads)} gradients "
                             f"for {len(record.inputs)} inputs")
        _add_pending(pending, in_keys, in_grads, needed)


def _add_pending(pending: dict, in_keys: list, in_grads: list, needed: list) -> None:
    for k, g, need in zip(in_keys, in_grads, needed):
        if need and g is not None:
            gs = pending.get(k)
            if gs is None:
                pending[k] = [g]
            else:
                gs.append(g)


def _gradient_function(record: OpRecord):
    try:
        return get_gradient(record.op)
    except LookupError:
        pass
    node = record.node
    if node is None:  # eagerly TensorFlow says just this; where the op ran goes in a note
        error = LookupError(f"gradient registry has no entry for: {record.op}")
        if record.origin is not None:
            error.add_note(f"The op {record.op} ran at {record.origin}; wrap its input in "
                           "tf.stop_gradient if no gradient should flow through it.")
        raise error
    name, origin = node.name, node.origin
    where = f" at {origin}" if origin is not None else ""
    raise NoGradientError(
        f"No gradient defined for operation '{name}' (op type: {record.op}){where}. Wrap the "
        "input of that op in tf.stop_gradient if no gradient should flow through it, or "
        "compute the value differently.")
