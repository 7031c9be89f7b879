"""Sparse ops: the kernels behind ``tf.SparseTensor`` (runtime/sparse/).

A sparse tensor is ``indices`` (int64, ``[N, rank]``), ``values`` (``[N]``) and
``dense_shape`` (int64, ``[rank]``). Names and input orders follow TensorFlow:

- ``SparseToDense(indices, dense_shape, values, default_value)``;
- ``SparseFromDense(tensor)`` → ``(indices, values, dense_shape)``: the nonzero entries
  in row-major order;
- ``SparseExpandDims(indices, dense_shape, axis)`` → ``(indices, dense_shape)``: a new
  dimension of size 1 at ``axis`` (``-rank-1 <= axis <= rank``);
- ``SparseReorder(indices, values, dense_shape)`` → ``(indices, values)`` in row-major
  order.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.array import _check_int_input, _int, _shape_value
from graph.registry import register_op
from graph.shapes import TensorShape


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _rank_of(dense_shape) -> int | None:
    return None if dense_shape.shape.rank != 1 else dense_shape.shape.as_tuple()[0]


def _check_sparse(op: str, indices, dense_shape) -> None:
    _check_int_input(op, indices, "indices", rank=2)
    _check_int_input(op, dense_shape, "dense_shape", rank=1)


# -- SparseToDense ----------------------------------------------------------------------------

def _to_dense_infer(inputs, attrs):
    if len(inputs) != 4:
        raise _error(f"SparseToDense takes 4 inputs, got {len(inputs)}")
    indices, dense_shape, values, default = inputs
    _check_sparse("SparseToDense", indices, dense_shape)
    if default.dtype != values.dtype:
        raise _error(f"SparseToDense: default_value must be {values.dtype.name}, got "
                     f"{default.dtype.name}")
    dims = _shape_value(dense_shape)
    if dims is None:
        rank = _rank_of(dense_shape)
        return [TensorType(values.dtype, TensorShape(None if rank is None else [None] * rank))]
    return [TensorType(values.dtype, TensorShape(dims))]


def _to_dense(indices, dense_shape, values, default_value, validate_indices=True):
    indices = np.asarray(indices, dtype=np.int64).reshape(-1, np.size(dense_shape))
    shape = tuple(int(d) for d in np.asarray(dense_shape).reshape(-1))
    values = np.asarray(values)
    out = np.empty(shape, dtype=values.dtype)
    out[...] = np.asarray(default_value, dtype=values.dtype)
    if indices.shape[0] == 0:
        return out
    if np.any(indices < 0) or np.any(indices >= np.asarray(shape, dtype=np.int64)):
        bad = indices[np.any((indices < 0) | (indices >= np.asarray(shape)), axis=1)][0]
        raise _error(f"SparseToDense: indices[{bad.tolist()}] is out of bounds of dense shape "
                     f"{list(shape)}")
    if validate_indices and indices.shape[0] > 1:
        flat = np.ravel_multi_index(indices.T, shape) if shape else np.zeros(len(indices))
        if np.any(np.diff(flat) <= 0):
            i = int(np.argmax(np.diff(flat) <= 0)) + 1
            what = "repeated" if flat[i] == flat[i - 1] else "out of order"
            raise _error(f"SparseToDense: indices[{i}] = {indices[i].tolist()} is {what}. Many "
                         "sparse ops require sorted indices; use tf.sparse.reorder to create a "
                         "correctly ordered copy.")
    vals = np.broadcast_to(values, (indices.shape[0],)) if values.ndim == 0 else values
    out[tuple(indices.T)] = vals
    return out


register_op("SparseToDense", _to_dense_infer, _to_dense, kernel_attrs=("validate_indices",))


# -- SparseFromDense --------------------------------------------------------------------------

def _from_dense_infer(inputs, attrs):
    if len(inputs) != 1:
        raise _error(f"SparseFromDense takes 1 input, got {len(inputs)}")
    (tensor,) = inputs
    rank = tensor.shape.rank
    return [TensorType(dtypes.int64, TensorShape([None, rank])),
            TensorType(tensor.dtype, TensorShape([None])),
            TensorType(dtypes.int64, TensorShape([rank]))]


def _from_dense(tensor):
    tensor = np.asarray(tensor)
    if tensor.dtype == object:
        mask = tensor != b""
    else:
        mask = tensor != 0
    indices = np.argwhere(mask).astype(np.int64).reshape(-1, tensor.ndim)
    return indices, tensor[mask], np.asarray(tensor.shape, dtype=np.int64)


register_op("SparseFromDense", _from_dense_infer, _from_dense)


# -- SparseExpandDims -------------------------------------------------------------------------

def _expand_dims_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"SparseExpandDims takes 3 inputs, got {len(inputs)}")
    indices, dense_shape, axis = inputs
    _check_sparse("SparseExpandDims", indices, dense_shape)
    _check_int_input("SparseExpandDims", axis, "axis", rank=0)
    rank = _rank_of(dense_shape)
    a = _int(axis)
    if rank is not None and a is not None and not -rank - 1 <= a <= rank:
        raise _error(f"SparseExpandDims: axis {a} is out of range for a rank {rank} SparseTensor "
                     f"(expected -{rank + 1} <= axis <= {rank})")
    new_rank = None if rank is None else rank + 1
    n = None if indices.shape.rank != 2 else indices.shape.as_tuple()[0]
    return [TensorType(indices.dtype, TensorShape([n, new_rank])),
            TensorType(dense_shape.dtype, TensorShape([new_rank]))]


def _expand_dims(indices, dense_shape, axis):
    dense_shape = np.asarray(dense_shape)
    rank = dense_shape.shape[0]
    a = int(axis)
    if not -rank - 1 <= a <= rank:
        raise _error(f"SparseExpandDims: axis {a} is out of range for a rank {rank} SparseTensor "
                     f"(expected -{rank + 1} <= axis <= {rank})")
    if a < 0:
        a += rank + 1
    indices = np.asarray(indices).reshape(-1, rank)
    new_indices = np.insert(indices, a, 0, axis=1).astype(indices.dtype)
    new_shape = np.insert(dense_shape, a, 1).astype(dense_shape.dtype)
    return new_indices, new_shape


register_op("SparseExpandDims", _expand_dims_infer, _expand_dims)


# -- SparseReorder ----------------------------------------------------------------------------

def _reorder_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"SparseReorder takes 3 inputs, got {len(inputs)}")
    indices, values, dense_shape = inputs
    _check_sparse("SparseReorder", indices, dense_shape)
    return [TensorType(indices.dtype, indices.shape), TensorType(values.dtype, values.shape)]


def _reorder(indices, values, dense_shape):
    indices = np.asarray(indices)
    values = np.asarray(values)
    if indices.shape[0] <= 1:
        return indices.copy(), values.copy()
    order = np.lexsort(indices.T[::-1])
    return indices[order], values[order]


register_op("SparseReorder", _reorder_infer, _reorder)
