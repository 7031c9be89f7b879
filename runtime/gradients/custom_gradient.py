"""``tf.custom_gradient``: a function that supplies its own gradient.

``f(*x)`` returns ``(y, grad_fn)``. Its own ops run unrecorded (eagerly the
tapes pause; in a graph they fall outside every tape's spans) and one
``IdentityN`` of ``y + x + variable reads`` stands for the whole call, as in
TensorFlow: its gradient calls ``grad_fn`` and gives nothing to ``y``'s own
ops. The gradient function rides on the op's ``_gradient_op_type`` attr —
the callable itself for an eager record (never saved), a key into
``_OVERRIDES`` for a graph node, whose attrs stay plain data.
"""
from __future__ import annotations

import functools
import inspect
import itertools
from contextlib import contextmanager

from runtime import context, nest, variables
from runtime.gradients import tape as tape_lib
from runtime.gradients.registry import register_override
from runtime.ops import array_ops
from runtime.ops.core import RECORDERS, apply_op, convert_to_tensor
from runtime.tensor import EagerTensor

_ids = itertools.count(1)


def custom_gradient(f=None):
    """Decorator: ``f`` returns ``(result, grad_fn)``; gradients of ``result`` come from
    ``grad_fn(*upstream)`` (``grad_fn(*upstream, variables=...)`` when ``f`` reads
    variables, returning ``(input_grads, variable_grads)``)."""
    if f is None:
        return custom_gradient

    @functools.wraps(f)
    def decorated(*args, **kwargs):
        return _call(f, args, kwargs)
    return decorated


def _call(f, args, kwargs):
    args = nest.map_structure(
        lambda a: a if isinstance(a, variables.Variable) else convert_to_tensor(a), args)
    read: dict[int, variables.Variable] = {}
    with _paused_tapes(), _watching_reads(read):
        result, grad_fn = f(*args, **kwargs)
    flat_args = nest.flatten(args)  # a Variable passed in is an input, as in TensorFlow
    used = [v for v in read.values() if all(v is not a for a in flat_args)]
    if used and "variables" not in inspect.signature(grad_fn).parameters \
            and not _takes_var_kwargs(grad_fn):
        raise TypeError("If using @custom_gradient with a function that uses variables, then "
                        "grad_fn must accept a keyword argument 'variables'.")
    flat_result = [convert_to_tensor(r) for r in nest.flatten(result)]
    flat_args = [convert_to_tensor(a) for a in flat_args]
    reads = [v.read_value() for v in used]
    inputs = flat_result + flat_args + reads
    n_out, n_args = len(flat_result), len(flat_args)

    def gradient(op, *upstream):
        upstream = [array_ops.zeros_like(r) if g is None else g
                    for g, r in zip(upstream[:n_out], op.inputs[:n_out])]
        if used:
            input_grads, var_grads = grad_fn(*upstream, variables=used)
        else:
            input_grads, var_grads = grad_fn(*upstream), []
        input_grads = list(input_grads) if isinstance(input_grads, (list, tuple)) \
            else [input_grads]
        if len(input_grads) != n_args:
            raise ValueError(f"custom_gradient function {f.__name__!r} has {n_args} tensor "
                             f"inputs but its grad_fn returned {len(input_grads)} gradients")
        return [None] * n_out + input_grads + list(var_grads)

    outputs = _identity_n(inputs, gradient)
    return nest.pack_sequence_as(result, list(outputs[:n_out]))


def _identity_n(inputs, gradient):
    if context.current_graph() is not None:
        key = f"CustomGradient-{next(_ids)}"
        register_override(key, gradient)
        return apply_op("IdentityN", inputs, {"_gradient_op_type": key}, name="IdentityN")
    outputs = tuple(EagerTensor(t._value, t.dtype) for t in inputs)
    for record in list(RECORDERS):
        record("IdentityN", inputs, {"_gradient_op_type": gradient}, outputs)
    return outputs


def _takes_var_kwargs(fn) -> bool:
    return any(p.kind is inspect.Parameter.VAR_KEYWORD
               for p in inspect.signature(fn).parameters.values())


@contextmanager
def _paused_tapes():
    """No tape records ``f``'s own ops: only the IdentityN standing for them."""
    paused = [t for t in tape_lib.recording_tapes()]
    for t in paused:
        t._stop()
    try:
        yield
    finally:
        for t in reversed(paused):
            t._start()


@contextmanager
def _watching_reads(found: dict):
    def on_read(variable, tensor):
        found.setdefault(variable._resource, variable)
    variables.READ_HOOKS.append(on_read)
    try:
        yield
    finally:
        variables.READ_HOOKS.remove(on_read)


def recompute_grad(f):
    """``f`` whose gradient recomputes its forward pass instead of keeping it
    (``tf.recompute_grad``): same values and gradients, less memory kept."""
    @custom_gradient
    def recomputing(*args):
        result = f(*args)

        def grad(*upstream, variables=None):
            from runtime.gradients.tape import GradientTape
            with GradientTape() as tape:
                tape.watch(list(args))
                again = f(*args)
            sources = list(args) + list(variables or [])
            grads = tape.gradient(again, sources, output_gradients=list(upstream))
            n = len(args)
            return (grads[:n], grads[n:]) if variables is not None else grads[:n]
        return result, grad

    return functools.wraps(f)(recomputing)


def grad_pass_through(f):
    """``tf.grad_pass_through``: ``f``'s value, with the gradient of the identity (a
    straight-through estimator, e.g. for ``tf.round``); variables ``f`` reads get None."""
    @custom_gradient
    def passing(*args):
        def grad(*upstream, variables=None):
            if variables is not None:
                return upstream, [None] * len(variables)
            return upstream
        return f(*args), grad

    return functools.wraps(f)(passing)
