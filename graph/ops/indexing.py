"""Indexing ops: ``GatherV2`` and ``StridedSlice`` (``x[i]``, ``x[1:3]``, ``x[..., None]``).

``StridedSlice`` does not take TensorFlow's begin/end/strides tensors and
bit masks; its ``spec`` attr describes each index item directly (see
``slice_spec_items``), and the tensor-valued bounds of an ``x[i:j]`` are
extra inputs referenced by position. That keeps ``x[i]``, ``x[::-1]``,
``x[..., None]`` and ``x[i:j]`` with loop-carried ``i``/``j`` one op whose
attr reads like the Python it came from, and an out-of-range index is
reported with the index and the dimension, as TensorFlow reports it.
"""
from __future__ import annotations

import numpy as np

from graph.ir import TensorType
from graph.ops.array import _array, _check_int_input, _dims, _error, _int, _normalize_axis
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape


# -- GatherV2 ------------------------------------------------------------------

def _gather_infer(inputs, attrs):
    expect_arity("GatherV2", inputs, 3)
    params, indices, axis_in = inputs
    _check_int_input("GatherV2", indices, "indices")
    _check_int_input("GatherV2", axis_in, "axis", rank=0)
    batch_dims = attrs.get("batch_dims", 0)
    pdims, idims = _dims(params.shape), _dims(indices.shape)
    axis = _int(axis_in)
    if pdims is not None and axis is not None:
        if not pdims:
            raise _error("GatherV2: params must be at least 1 dimensional")
        axis = _normalize_axis("GatherV2", axis, len(pdims))
    if idims is not None and batch_dims > len(idims):
        raise _error(f"GatherV2: batch_dims ({batch_dims}) must be <= rank(indices) "
                     f"({len(idims)})")
    if axis is not None and batch_dims > axis:
        raise _error(f"GatherV2: batch_dims ({batch_dims}) must be <= axis ({axis})")
    if pdims is None or idims is None:
        return [TensorType(params.dtype, TensorShape(None))]
    if axis is None:
        return [TensorType(params.dtype, TensorShape([None] * (len(pdims) + len(idims) - 1
                                                                - batch_dims)))]
    # Index bounds are checked by the kernel, when the op runs: an unused gather
    # that would fail must not stop the graph from being built (non-strict execution).
    out = pdims[:axis] + idims[batch_dims:] + pdims[axis + 1:]
    return [TensorType(params.dtype, TensorShape(out))]


def _check_indices(indices: np.ndarray, limit: int) -> None:
    bad = (indices < 0) | (indices >= limit)
    if np.any(bad):
        where = tuple(int(i) for i in np.argwhere(bad)[0])
        pos = ",".join(map(str, where))
        raise _error(f"indices[{pos}] = {int(indices[where])} is not in [0, {limit})")


def _gather(params, indices, axis, batch_dims=0):
    params, indices = np.asarray(params), np.asarray(indices)
    axis = int(axis)
    axis = axis + params.ndim if axis < 0 else axis
    _check_indices(indices, params.shape[axis])
    if batch_dims == 0:
        return _array(np.take(params, indices, axis=axis), params.dtype)
    out_shape = params.shape[:axis] + indices.shape[batch_dims:] + params.shape[axis + 1:]
    out = np.empty(out_shape, dtype=params.dtype)
    for i in range(params.shape[0]):
        out[i] = _gather(params[i], indices[i], axis - 1, batch_dims - 1)
    return out


# -- StridedSlice ----------------------------------------------------------------
#
# spec: a tuple with one item per index item, each one of
#   ("index", b)                 x[b]       removes the dimension
#   ("slice", b, b, b)           x[b:b:b]   start, stop, step
#   ("ellipsis",)                x[...]
#   ("newaxis",)                 x[None]
# where a bound b is None, an int, or ("input", k): the value of input k (k >= 1).

def slice_spec_items(spec) -> list[tuple]:
    """Validates a StridedSlice spec; returns its items as tuples."""
    items = [tuple(item) for item in spec]
    if sum(1 for item in items if item[0] == "ellipsis") > 1:
        raise _error("StridedSlice: an index can only have a single ellipsis ('...')")
    for item in items:
        if item[0] not in ("index", "slice", "ellipsis", "newaxis"):
            raise _error(f"StridedSlice: unknown index item {item!r}")
    return items


def _bound(b, inputs):
    if isinstance(b, (tuple, list)):
        return _int(inputs[b[1]])  # None while it is not known
    return b


def _consumed(items) -> int:
    return sum(1 for item in items if item[0] in ("index", "slice"))


def _check_index(index: int, dim: int | None, axis: int) -> None:
    if dim is not None and not -dim <= index < dim:
        raise _error(f"slice index {index} of dimension {axis} out of bounds.")


def _strided_slice_infer(inputs, attrs):
    x, bounds = inputs[0], inputs[1:]
    for b in bounds:
        _check_int_input("StridedSlice", b, "a tensor index", rank=0)
    items = slice_spec_items(attrs["spec"])
    dims = _dims(x.shape)
    if dims is None:  # the trailing dimensions an index leaves are unknown too
        return [TensorType(x.dtype, TensorShape(None))]
    n_used = _consumed(items)
    if n_used > len(dims):
        raise _error(f"Index out of range using input dim {len(dims)}; input has only "
                     f"{len(dims)} dims")
    if not any(item[0] == "ellipsis" for item in items):
        items = items + [("ellipsis",)]
    out: list = []
    axis = 0
    for item in items:
        kind = item[0]
        if kind == "newaxis":
            out.append(1)
        elif kind == "ellipsis":
            skip = len(dims) - n_used
            out.extend(dims[axis:axis + skip])
            axis += skip
        elif kind == "index":
            index = _bound(item[1], inputs)
            if index is not None:
                _check_index(index, dims[axis], axis)
            axis += 1
        else:
            start, stop, step = (_bound(b, inputs) for b in item[1:])
            if step == 0:
                raise _error("StridedSlice: slice step cannot be zero")
            known = all(b is not None or not isinstance(raw, (tuple, list))
                        for b, raw in zip((start, stop, step), item[1:]))
            dim = dims[axis]
            out.append(len(range(*slice(start, stop, step).indices(dim)))
                       if known and dim is not None else None)
            axis += 1
    return [TensorType(x.dtype, TensorShape(out))]


def numpy_key(spec, bounds, shape) -> tuple:
    """The numpy index a StridedSlice ``spec`` means for an array of ``shape``.

    ``bounds`` are the values of the op's extra inputs (tensor-valued bounds).
    Shared by StridedSlice and its gradient so both read a spec the same way.
    """
    items = slice_spec_items(spec)
    n_used = _consumed(items)
    ndim = len(shape)
    if n_used > ndim:
        raise _error(f"Index out of range using input dim {ndim}; input has only "
                     f"{ndim} dims")

    def bound(b):
        return int(bounds[b[1] - 1]) if isinstance(b, (tuple, list)) else b

    key, axis = [], 0
    for item in items:
        kind = item[0]
        if kind == "newaxis":
            key.append(None)
        elif kind == "ellipsis":
            key.append(Ellipsis)
            axis += ndim - n_used
        elif kind == "index":
            index = bound(item[1])
            _check_index(index, shape[axis], axis)
            key.append(index)
            axis += 1
        else:
            start, stop, step = (bound(b) for b in item[1:])
            if step == 0:
                raise _error("StridedSlice: slice step cannot be zero")
            key.append(slice(start, stop, step))
            axis += 1
    return tuple(key)


def _strided_slice(x, *bounds, spec):
    x = np.asarray(x)
    return _array(x[numpy_key(spec, bounds, x.shape)], x.dtype)


register_op("GatherV2", _gather_infer, _gather, kernel_attrs=("batch_dims",))
register_op("StridedSlice", _strided_slice_infer, _strided_slice, kernel_attrs=("spec",))
