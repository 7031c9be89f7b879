"""Indexing ops: ``GatherV2``, ``StridedSlice`` (``x[i]``, ``x[1:3]``, ``x[..., None]``),
``GatherNd``/``ScatterNd``/``TensorScatter*``, and the ops that compute indices
(``Unique``, ``ArgSort``, ``LowerBound``/``UpperBound``).

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
from graph.dtypes import int32
from graph.ops.array import (_array, _check_int_input, _dims, _error, _int, _normalize_axis,
                             _shape_value)
from graph.ops.infer import expect_arity, same_dtype
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
        name = f"indices[{','.join(map(str, where))}]" if where else "indices"
        raise _error(f"{name} = {int(indices[where])} is not in [0, {limit})")


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


# TensorStridedSliceUpdate: ``x`` with ``x[spec] = value`` (value broadcast to the slice);
# inputs are ``[x] + bounds + [value]``, so the spec's ("input", k) bounds read as in StridedSlice.
# What ``v[i:j].assign(value)`` writes into a variable.

def _slice_update_infer(inputs, attrs):
    x, value = inputs[0], inputs[-1]
    if value.dtype != x.dtype:
        raise TypeError(f"TensorStridedSliceUpdate: value must be {x.dtype.name}, got "
                        f"{value.dtype.name}")
    target = _strided_slice_infer(inputs[:-1], attrs)[0].shape
    vdims, tdims = _dims(value.shape), _dims(target)
    if vdims is not None and tdims is not None:
        fits = len(vdims) <= len(tdims) and all(
            v in (1, None) or t is None or v == t for v, t in zip(vdims[::-1], tdims[::-1]))
        if not fits:
            raise _error(f"Cannot broadcast input shape {list(value.shape.as_tuple())} into "
                         f"final shape {list(target.as_tuple())}")
    return [TensorType(x.dtype, x.shape)]


def _slice_update(x, *rest, spec):
    x = np.asarray(x)
    key = numpy_key(spec, rest[:-1], x.shape)
    out = x.copy()
    value = np.asarray(rest[-1])
    target = out[key].shape
    if value.ndim > len(target) or any(v not in (1, t) for v, t in
                                       zip(value.shape[::-1], target[::-1])):
        raise _error(f"Cannot broadcast input shape {list(value.shape)} into final shape "
                     f"{list(target)}")
    out[key] = value
    return out


register_op("GatherV2", _gather_infer, _gather, kernel_attrs=("batch_dims",))
register_op("StridedSlice", _strided_slice_infer, _strided_slice, kernel_attrs=("spec",))
register_op("TensorStridedSliceUpdate", _slice_update_infer, _slice_update,
            kernel_attrs=("spec",))


# -- GatherNd / ScatterNd / TensorScatter* -----------------------------------------------

def _nd_index_depth(op: str, indices) -> int | None:
    _check_int_input(op, indices, "indices")
    dims = _dims(indices.shape)
    if dims is not None and not dims:
        raise _error(f"{op}: indices must be at least a vector, got a scalar")
    return None if dims is None else dims[-1]


def _gather_nd_infer(inputs, attrs):
    expect_arity("GatherNd", inputs, 2)
    params, indices = inputs
    k = _nd_index_depth("GatherNd", indices)
    pdims, idims = _dims(params.shape), _dims(indices.shape)
    if pdims is not None and k is not None and k > len(pdims):
        raise _error(f"GatherNd: index innermost dimension length must be <= params rank; "
                     f"saw: {k} vs. {len(pdims)}")
    if pdims is None or idims is None or k is None:
        return [TensorType(params.dtype, TensorShape(None))]
    return [TensorType(params.dtype, TensorShape(idims[:-1] + pdims[k:]))]


def _flat_nd_indices(op: str, indices: np.ndarray, shape) -> tuple:
    """The rows of ``indices`` (the last axis indexes ``shape``) as a numpy index, checked."""
    k = indices.shape[-1]
    rows = indices.reshape(-1, k)
    bad = np.any((rows < 0) | (rows >= np.asarray(shape[:k], dtype=np.int64)), axis=1)
    if np.any(bad):
        i = int(np.argmax(bad))
        where = ",".join(map(str, np.unravel_index(i, indices.shape[:-1])))
        into = (f"param shape [{','.join(map(str, shape))}], node name: {op}" if op == "GatherNd"
                else f"shape [{','.join(map(str, shape))}]")
        raise _error(f"indices[{where}] = [{', '.join(map(str, rows[i]))}] does not index "
                     f"into {into}")
    return tuple(rows.T)


def _gather_nd(params, indices):
    params, indices = np.asarray(params), np.asarray(indices)
    k = indices.shape[-1]
    key = _flat_nd_indices("GatherNd", indices, params.shape)
    out = params[key] if k else np.broadcast_to(params, (rows_of(indices),) + params.shape)
    return _array(np.reshape(out, indices.shape[:-1] + params.shape[k:]), params.dtype)


def rows_of(indices: np.ndarray) -> int:
    return int(np.prod(indices.shape[:-1], dtype=np.int64))


def _check_updates(op: str, idims, udims, shape) -> None:
    """TensorFlow's rule: updates.shape == indices.shape[:-1] + shape[indices.shape[-1]:]."""
    if idims is None or udims is None or shape is None:
        return
    k = idims[-1]
    if k is not None and k > len(shape):
        raise _error(f"Index innermost dimension length must be <= output rank; saw: {k} vs. "
                     f"{len(shape)}")
    outer = len(idims) - 1

    def differ(xs, ys):
        return len(xs) != len(ys) or any(a is not None and b is not None and a != b
                                         for a, b in zip(xs, ys))
    if len(udims) < outer or differ(idims[:-1], udims[:outer]):
        raise _error(f"Outer dimensions of indices and update must match. Indices shape: "
                     f"{_shape_list(idims)}, updates shape:{_shape_list(udims)}")
    if k is not None and differ(shape[k:], udims[outer:]):
        raise _error(f"Inner dimensions of output shape must match inner dimensions of updates "
                     f"shape. Output: {_shape_list(shape)} updates: {_shape_list(udims)}")


def _shape_list(dims) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _scatter_nd_infer(inputs, attrs):
    expect_arity("ScatterNd", inputs, 3)
    indices, updates, shape_in = inputs
    _nd_index_depth("ScatterNd", indices)
    _check_int_input("ScatterNd", shape_in, "shape", rank=1)
    shape = _shape_value(shape_in)
    if shape is None:
        n = shape_in.shape[0] if shape_in.shape.rank == 1 else None
        return [TensorType(updates.dtype, TensorShape(None if n is None else [None] * n))]
    if None not in shape:
        _check_updates("ScatterNd", _dims(indices.shape), _dims(updates.shape), shape)
    return [TensorType(updates.dtype, TensorShape(shape))]


_SCATTER_UFUNCS = {"TensorScatterUpdate": None, "TensorScatterAdd": np.add,
                   "TensorScatterSub": np.subtract, "TensorScatterMin": np.minimum,
                   "TensorScatterMax": np.maximum}


def _scatter_into(op: str, out: np.ndarray, indices, updates, ufunc) -> np.ndarray:
    indices, updates = np.asarray(indices), np.asarray(updates)
    _check_updates(op, list(indices.shape), list(updates.shape), list(out.shape))
    k = indices.shape[-1]
    key = _flat_nd_indices(op, indices, out.shape)
    values = updates.reshape((rows_of(indices),) + out.shape[k:])
    if ufunc is None:
        out[key] = values
    else:
        ufunc.at(out, key, values)
    return out


def _scatter_nd(indices, updates, shape):
    updates = np.asarray(updates)
    dims = [int(d) for d in np.reshape(shape, -1)]
    return _scatter_into("ScatterNd", np.zeros(dims, dtype=updates.dtype), indices, updates,
                         np.add)


def _tensor_scatter_infer(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 3)
        tensor, indices, updates = inputs
        _nd_index_depth(op, indices)
        dtype = same_dtype(op, [tensor, updates])
        _check_updates(op, _dims(indices.shape), _dims(updates.shape), _dims(tensor.shape))
        return [TensorType(dtype, tensor.shape)]
    return infer


def _tensor_scatter(op: str):
    def kernel(tensor, indices, updates):
        return _scatter_into(op, np.array(tensor), indices, updates, _SCATTER_UFUNCS[op])
    return kernel


register_op("GatherNd", _gather_nd_infer, _gather_nd)
register_op("ScatterNd", _scatter_nd_infer, _scatter_nd)
for _op in _SCATTER_UFUNCS:
    register_op(_op, _tensor_scatter_infer(_op), _tensor_scatter(_op))


# -- Unique / UniqueWithCounts ------------------------------------------------------------

def _out_idx(op: str, attrs):
    dtype = attrs.get("out_idx", int32)
    if dtype.name not in ("int32", "int64"):
        raise _error(f"{op}: out_idx must be int32 or int64, got {dtype.name}")
    return dtype


def _unique_infer(op: str, n_outputs: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        if x.shape.rank not in (None, 1):
            raise _error("unique expects a 1D vector.")
        idx = _out_idx(op, attrs)
        types = [TensorType(x.dtype, TensorShape([None])),
                 TensorType(idx, x.shape if x.shape.rank == 1 else TensorShape([None]))]
        return types + [TensorType(idx, TensorShape([None]))] * (n_outputs - 2)
    return infer


def _unique_parts(x, out_idx):
    """Unique values in order of first occurrence (as TensorFlow), each index, the counts.
    NaNs never equal each other: each is a value of its own, as in TensorFlow."""
    x = np.asarray(x)
    if x.ndim != 1:
        raise _error("unique expects a 1D vector.")
    nan_apart = {"equal_nan": False} if x.dtype.kind in "fc" else {}
    _, first, inverse, counts = np.unique(x, return_index=True, return_inverse=True,
                                          return_counts=True, **nan_apart)
    order = np.argsort(first, kind="stable")
    rank = np.empty_like(order)
    rank[order] = np.arange(order.size)
    dtype = out_idx.numpy_dtype
    return (_array(x[first[order]], x.dtype), rank[inverse.reshape(-1)].astype(dtype),
            counts[order].astype(dtype))


def _unique(x, out_idx=int32):
    return _unique_parts(x, out_idx)[:2]


# -- ArgSort (sort/argsort) and LowerBound / UpperBound (searchsorted) ---------------------------

def _arg_sort_infer(inputs, attrs):
    """Not a TensorFlow op (TF sorts with TopKV2 of k = n): the stable order along the last axis."""
    expect_arity("ArgSort", inputs, 1)
    x = inputs[0]
    if x.dtype.is_string or x.dtype.is_bool:
        raise _error(f"ArgSort: sorting {x.dtype.name} tensors is not supported")
    if x.shape.rank == 0:
        raise _error("ArgSort: input must be at least 1-D")
    if attrs.get("direction") not in ("ASCENDING", "DESCENDING"):
        raise _error(f"ArgSort: direction must be ASCENDING or DESCENDING, got "
                     f"{attrs.get('direction')!r}")
    return [TensorType(int32, x.shape)]


def _arg_sort(x, direction):
    """Stable: equal values keep their order in either direction, as TopKV2 keeps them."""
    x = np.asarray(x)
    if direction == "ASCENDING":
        order = np.argsort(x, axis=-1, kind="stable")
    else:
        n = x.shape[-1]
        order = n - 1 - np.argsort(x[..., ::-1], axis=-1, kind="stable")[..., ::-1]
    return np.ascontiguousarray(order, dtype=np.int32)


def _bound_infer(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        sorted_inputs, values = inputs
        same_dtype(op, inputs)
        s, v = _dims(sorted_inputs.shape), _dims(values.shape)
        if s is not None and v is not None:
            if len(s) != len(v) or any(a is not None and b is not None and a != b
                                       for a, b in zip(s[:-1], v[:-1])):
                raise _error(f"{op}: Leading dim_size of both tensors must match: "
                             f"{sorted_inputs.shape} vs. {values.shape}")
        out = attrs.get("out_type", int32)
        if out.name not in ("int32", "int64"):
            raise _error(f"{op}: out_type must be int32 or int64, got {out.name}")
        return [TensorType(out, values.shape)]
    return infer


def _search_bound(side: str):
    def kernel(sorted_inputs, values, out_type=int32):
        s, v = np.asarray(sorted_inputs), np.asarray(values)
        if s.shape[:-1] != v.shape[:-1] or s.ndim != v.ndim:
            raise _error(f"Leading dim_size of both tensors must match: {list(s.shape)} vs. "
                         f"{list(v.shape)}")
        rows_s, rows_v = s.reshape(-1, s.shape[-1]), v.reshape(-1, v.shape[-1])
        out = np.empty(rows_v.shape, dtype=out_type.numpy_dtype)
        for i in range(rows_s.shape[0]):
            out[i] = np.searchsorted(rows_s[i], rows_v[i], side=side)
        return out.reshape(v.shape)
    return kernel


register_op("Unique", _unique_infer("Unique", 2), _unique, kernel_attrs=("out_idx",))
register_op("UniqueWithCounts", _unique_infer("UniqueWithCounts", 3), _unique_parts,
            kernel_attrs=("out_idx",))
register_op("ArgSort", _arg_sort_infer, _arg_sort, kernel_attrs=("direction",))
register_op("LowerBound", _bound_infer("LowerBound"), _search_bound("left"),
            kernel_attrs=("out_type",))
register_op("UpperBound", _bound_infer("UpperBound"), _search_bound("right"),
            kernel_attrs=("out_type",))
