"""Helpers shared by gradient functions: summing, zeros, undoing broadcasting.

All of them are written with runtime ops, so they run eagerly or record
nodes like the gradient functions that call them.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.gradients.registry import VariableHandle
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor


def is_sparse(g) -> bool:
    """Whether ``g`` is an IndexedSlices (the gradient of a gather's params)."""
    from runtime.ops.type_ops import IndexedSlices
    return isinstance(g, IndexedSlices)


def dense(g):
    """``g`` as a tensor: an IndexedSlices' rows summed into zeros (TensorFlow densifies a
    sparse gradient so when an op that is not a pass-through receives it)."""
    return g._as_tensor() if is_sparse(g) else g


def add_all(grads: list):
    """The sum of several gradients of one tensor (element-wise for TensorLists).

    Sparse gradients (IndexedSlices) stay sparse when all are, their rows concatenated, as
    TensorFlow aggregates them; a mix is summed densely."""
    if all(is_sparse(g) for g in grads):
        from runtime.ops.type_ops import IndexedSlices
        indices = [g.indices for g in grads]
        if len({i.dtype for i in indices}) > 1:
            indices = [math_ops.cast(i, dtypes.int64) for i in indices]
        return IndexedSlices(array_ops.concat([g.values for g in grads], 0),
                             array_ops.concat(indices, 0), grads[0].dense_shape)
    grads = [dense(g) for g in grads]
    total = grads[0]
    for g in grads[1:]:
        total = add(total, g)
    return total


def add(a, b):
    """``a + b`` for two gradients of one tensor; a TensorList's add element by element."""
    if a.dtype is dtypes.variant:
        return apply_op("TensorListBinaryAdd", [a, b], name="TensorListBinaryAdd")
    return math_ops.add(a, b)


def zeros_for(x):
    """A zero gradient shaped like ``x`` (a tensor, a TensorList or a variable handle)."""
    if isinstance(x, VariableHandle):
        if x.shape.is_fully_defined():
            return array_ops.zeros(x.shape.as_list(), dtype=x.dtype)
        raise ValueError("a zero gradient for a variable of unknown shape is not supported")
    if x.dtype is dtypes.variant:
        return apply_op("TensorListZerosLike", [x], name="TensorListZerosLike")
    return array_ops.zeros_like(x)


def static_value(t):
    """The value of ``t`` when it is known now (eager, or a constant), else None."""
    if isinstance(t, EagerTensor):
        return np.asarray(t.value)
    if isinstance(t, SymbolicTensor):
        value = t.value
        return None if value is None else np.asarray(value)
    return None


def static_ints(t, what: str) -> list[int]:
    value = static_value(t)
    if value is None:
        raise NotImplementedError(
            f"The gradient needs the {what} to be known while building the graph (at "
            f"{current_origin()}); pass a Python value instead of a computed tensor.")
    return [int(v) for v in np.reshape(value, -1)]


def reduce_to(g, x):
    """Sums ``g`` (the gradient of a broadcast result) back to the shape of input ``x``."""
    gs, xs = g.shape, x.shape
    if xs.rank is None:
        return g
    if gs.rank is None:
        raise NotImplementedError(
            f"Cannot reduce a gradient of unknown rank to shape {xs} at {current_origin()}: "
            "give the function's inputs a known rank (an input_signature with a shape).")
    gd, xd = gs.as_tuple(), xs.as_tuple()
    if gd == xd and xs.is_fully_defined():
        return g
    lead = len(gd) - len(xd)
    if lead < 0:
        raise ValueError(f"gradient of shape {gs} cannot be reduced to shape {xs}")
    axes = list(range(lead))
    dynamic = []
    for i, d in enumerate(xd):
        gdim = gd[lead + i]
        if d == 1 and gdim != 1:
            axes.append(lead + i)
        elif d is None and gdim != 1:
            dynamic.append(i)
    for i in dynamic:  # a dimension that may or may not have been broadcast from 1
        summed = math_ops.reduce_sum(g, axis=lead + i, keepdims=True)
        dim = array_ops.shape(x)[i]
        g = math_ops.where(math_ops.equal(dim, 1), summed, g)
        g = array_ops.strided_slice(g, (slice(None),) * (lead + i) + (slice(0, dim),))
    if axes:
        g = math_ops.reduce_sum(g, axis=axes, keepdims=True)
    if lead or axes or dynamic:
        g = array_ops.reshape(g, array_ops.shape(x))
    return g


def reduced_shape_grad(g, x, axis, keep_dims: bool):
    """``g`` (a reduction's gradient) broadcast back to ``x``'s shape."""
    rank = x.shape.rank
    if not keep_dims and axis is None and rank is None:  # a scalar: broadcasts to any rank
        return math_ops.add(g, array_ops.zeros_like(x))
    if not keep_dims:
        if axis is None:
            axes = list(range(rank)) if rank is not None else None
        else:
            axes = sorted(a % rank for a in axis) if rank is not None else None
        if axes is None:
            raise NotImplementedError(
                f"The gradient of a reduction over an input of unknown rank is not supported "
                f"(at {current_origin()}).")
        if x.shape.is_fully_defined():
            kept = [1 if i in axes else d for i, d in enumerate(x.shape.as_tuple())]
            g = array_ops.reshape(g, kept)
        else:
            for a in axes:
                g = array_ops.expand_dims(g, a)
    return math_ops.add(g, array_ops.zeros_like(x)) if g.shape != x.shape or \
        not x.shape.is_fully_defined() else g
