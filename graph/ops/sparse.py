"""Sparse ops: the kernels behind ``tf.SparseTensor`` (runtime/sparse/).

A sparse tensor is ``indices`` (int64, ``[N, rank]``), ``values`` (``[N]``) and
``dense_shape`` (int64, ``[rank]``). Names and input orders follow TensorFlow:

- ``SparseToDense(indices, dense_shape, values, default_value)``;
- ``SparseFromDense(tensor)`` → ``(indices, values, dense_shape)``: the nonzero entries
  in row-major order;
- ``SparseExpandDims(indices, dense_shape, axis)`` → ``(indices, dense_shape)``: a new
  dimension of size 1 at ``axis`` (``-rank-1 <= axis <= rank``);
- ``SparseReorder(indices, values, dense_shape)`` → ``(indices, values)`` in row-major
  order;
- ``EditDistance(hyp_indices, hyp_values, hyp_shape, truth_indices, truth_values,
  truth_shape)`` → the Levenshtein distance of the sequences along the last dimension;
- ``SparseAddGrad(grad, a_indices, b_indices, sum_indices)`` and
  ``SparseSliceGrad(grad, indices, start, output_indices)``: the gradient of each input
  entry, matched to the output entry at the same index.
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
        i = int(np.argmax(np.any((indices < 0) | (indices >= np.asarray(shape)), axis=1)))
        raise _error(f"SparseToDense: indices[{i}] = [{','.join(map(str, indices[i]))}] is out "
                     f"of bounds: need 0 <= index < [{','.join(map(str, shape))}]")
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


# -- arithmetic and structure: SparseAdd, SparseTensorDenseAdd, SparseTensorDenseMatMul,
#    SparseConcat, SparseSlice, SparseReduceSum/Max -----------------------------------------
# Inputs that together make one sparse tensor come as (indices, values, dense_shape), as in
# TensorFlow. Results with a data-dependent number of entries have an unknown first dimension.

def _sparse_types(indices, values, rank) -> list:
    return [TensorType(dtypes.int64, TensorShape([None, rank])),
            TensorType(values.dtype, TensorShape([None])),
            TensorType(dtypes.int64, TensorShape([rank]))]


def _same_values_dtype(op: str, a, b, position: int) -> None:
    if a.dtype != b.dtype:
        raise _error(f"cannot compute {op} as input #{position}(zero-based) was expected to be a "
                     f"{a.dtype.name} tensor but is a {b.dtype.name} tensor")


def _match_shapes(op: str, a_shape, b_shape) -> None:
    a, b = np.asarray(a_shape), np.asarray(b_shape)
    if a.shape != b.shape:
        raise _error(f"{op}: Operands do not have the same ranks; got {a.size} and {b.size}")
    for d, (x, y) in enumerate(zip(a.tolist(), b.tolist())):
        if x != y:
            raise _error(f"Operands' shapes do not match: got {x} and {y} for dimension {d}")


def _flat_ids(indices, shape) -> np.ndarray:
    """Row-major positions of ``indices`` in ``shape`` (their canonical order)."""
    if len(shape) == 0:
        return np.zeros(len(indices), dtype=np.int64)
    return np.ravel_multi_index(np.asarray(indices, dtype=np.int64).T, tuple(int(d) for d in shape))


def _add_infer(inputs, attrs):
    if len(inputs) != 7:
        raise _error(f"SparseAdd takes 7 inputs, got {len(inputs)}")
    a_i, a_v, a_s, b_i, b_v, b_s, _ = inputs
    _check_sparse("SparseAdd", a_i, a_s)
    _check_sparse("SparseAdd", b_i, b_s)
    _same_values_dtype("SparseAdd", a_v, b_v, 4)
    return _sparse_types(a_i, a_v, _rank_of(a_s) if _rank_of(a_s) is not None else _rank_of(b_s))


def _add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    _match_shapes("SparseAdd", a_shape, b_shape)
    rank = np.size(a_shape)
    indices = np.concatenate([np.reshape(a_indices, (-1, rank)),
                              np.reshape(b_indices, (-1, rank))]).astype(np.int64)
    values = np.concatenate([np.asarray(a_values), np.asarray(b_values)])
    ids = _flat_ids(indices, a_shape)
    unique, first, inverse, counts = np.unique(ids, return_index=True, return_inverse=True,
                                               return_counts=True)
    sums = np.zeros(len(unique), dtype=values.dtype)
    np.add.at(sums, inverse.reshape(-1), values)
    # as TensorFlow's kernel: only a sum of two entries is compared with ``thresh``
    keep = (counts == 1) | (np.abs(sums) >= np.asarray(thresh))
    return indices[first][keep], sums[keep], np.asarray(a_shape, dtype=np.int64).copy()


register_op("SparseAdd", _add_infer, _add)


def _dense_add_infer(inputs, attrs):
    if len(inputs) != 4:
        raise _error(f"SparseTensorDenseAdd takes 4 inputs, got {len(inputs)}")
    indices, values, shape, b = inputs
    _check_sparse("SparseTensorDenseAdd", indices, shape)
    _same_values_dtype("SparseTensorDenseAdd", values, b, 3)
    return [TensorType(b.dtype, b.shape)]


def _dense_add(indices, values, shape, b):
    b = np.asarray(b)
    a_shape = tuple(np.asarray(shape).tolist())
    if len(a_shape) == b.ndim and a_shape != b.shape:
        d = next(d for d, (x, y) in enumerate(zip(a_shape, b.shape)) if x != y)
        raise _error(f"Dimension {d} does not equal (no broadcasting is supported): sparse side "
                     f"{a_shape[d]} vs dense side {b.shape[d]}")
    if a_shape != b.shape:
        raise _error(f"Dimensions of A and B must match: a_shape = {np.asarray(shape).tolist()}, "
                     f"b.shape = {list(b.shape)}")
    out = b.copy()
    np.add.at(out, tuple(np.asarray(indices, dtype=np.int64).reshape(-1, b.ndim).T), values)
    return out


register_op("SparseTensorDenseAdd", _dense_add_infer, _dense_add)


def _matmul_infer(inputs, attrs):
    if len(inputs) != 4:
        raise _error(f"SparseTensorDenseMatMul takes 4 inputs, got {len(inputs)}")
    indices, values, shape, b = inputs
    _check_sparse("SparseTensorDenseMatMul", indices, shape)
    _same_values_dtype("SparseTensorDenseMatMul", values, b, 3)
    if b.shape.rank not in (None, 2):
        raise _error(f"Tensor 'b' is not a matrix: shape {b.shape}")
    a_dims = _shape_value(shape)
    rows = None if a_dims is None else a_dims[1 if attrs.get("adjoint_a") else 0]
    cols = None if b.shape.rank is None else b.shape.as_tuple()[0 if attrs.get("adjoint_b") else 1]
    return [TensorType(values.dtype, TensorShape([rows, cols]))]


def _matmul(indices, values, shape, b, adjoint_a=False, adjoint_b=False):
    a_shape = [int(d) for d in np.asarray(shape).tolist()]
    if len(a_shape) != 2:
        raise _error(f"Tensor 'a_shape' is not a vector of length 2: got {a_shape}")
    indices = np.asarray(indices, dtype=np.int64).reshape(-1, 2)
    values, b = np.asarray(values), np.asarray(b)
    if adjoint_a:
        indices, a_shape, values = indices[:, ::-1], a_shape[::-1], np.conj(values)
    if adjoint_b:
        b = np.conj(b.T)
    if a_shape[1] != b.shape[0]:
        raise _error(f"Cannot multiply A and B because inner dimension does not match: "
                     f"{a_shape[1]} vs. {b.shape[0]}.  Did you forget a transpose?  Dimensions "
                     f"of A: [{a_shape[0]}, {a_shape[1]}).  Dimensions of B: "
                     f"[{b.shape[0]},{b.shape[1]}]")
    for column, bound, what in ((0, a_shape[0], "m"), (1, a_shape[1], "k")):
        bad = np.flatnonzero((indices[:, column] < 0) | (indices[:, column] >= bound))
        if bad.size:
            i = int(bad[0])
            position = column if not adjoint_a else 1 - column
            raise _error(f"{what} ({indices[i, column]}) from index[{i},{position}] out of "
                         f"bounds (>={bound})")
    out = np.zeros((a_shape[0], b.shape[1]), dtype=values.dtype)
    np.add.at(out, indices[:, 0], values[:, None] * b[indices[:, 1]])
    return out


register_op("SparseTensorDenseMatMul", _matmul_infer, _matmul,
            kernel_attrs=("adjoint_a", "adjoint_b"))


def _concat_infer(inputs, attrs):
    n = len(inputs) // 3
    if n < 2 or len(inputs) != 3 * n:
        raise _error(f"SparseConcat takes N >= 2 sparse tensors (3 inputs each), got "
                     f"{len(inputs)} inputs")
    for k in range(1, n):
        _same_values_dtype("SparseConcat", inputs[n], inputs[n + k], n + k)
    for k in range(n):
        _check_sparse("SparseConcat", inputs[k], inputs[2 * n + k])
    return _sparse_types(inputs[0], inputs[n], _rank_of(inputs[2 * n]))


def _concat(*inputs, concat_dim):
    n = len(inputs) // 3
    shapes = [np.asarray(s, dtype=np.int64) for s in inputs[2 * n:]]
    rank = shapes[0].size
    if not -rank <= concat_dim < rank:
        raise _error(f"Concat dimension must be in range [{-rank}, {rank}), got {concat_dim}")
    axis = concat_dim % rank
    for k, s in enumerate(shapes[1:], 1):
        if s.size != rank:
            raise _error(f"Ranks of all input tensors must match: expected {rank} but got "
                         f"{s.size} at position {k}")
        for d in range(rank):
            if d != axis and s[d] != shapes[0][d]:
                raise _error(f"Input shapes must match: expected {shapes[0][d]} for dimension "
                             f"{d} but got {s[d]} at position {k}")
    offsets = np.cumsum([0] + [int(s[axis]) for s in shapes[:-1]])
    parts = []
    for k in range(n):
        idx = np.asarray(inputs[k], dtype=np.int64).reshape(-1, rank).copy()
        idx[:, axis] += offsets[k]
        parts.append(idx)
    indices = np.concatenate(parts)
    values = np.concatenate([np.asarray(v) for v in inputs[n:2 * n]])
    out_shape = shapes[0].copy()
    out_shape[axis] = sum(int(s[axis]) for s in shapes)
    order = np.argsort(_flat_ids(indices, out_shape), kind="stable")
    return indices[order], values[order], out_shape


register_op("SparseConcat", _concat_infer, _concat, kernel_attrs=("concat_dim",))


def _slice_infer(inputs, attrs):
    if len(inputs) != 5:
        raise _error(f"SparseSlice takes 5 inputs, got {len(inputs)}")
    indices, values, shape, start, size = inputs
    _check_sparse("SparseSlice", indices, shape)
    _check_int_input("SparseSlice", start, "start", rank=1)
    _check_int_input("SparseSlice", size, "size", rank=1)
    return _sparse_types(indices, values, _rank_of(shape))


def _slice(indices, values, shape, start, size):
    shape = np.asarray(shape, dtype=np.int64)
    rank = shape.size
    for what, v in (("start", start), ("size", size)):
        if np.size(v) != rank:
            raise _error(f"Expected {what} to be a vector of length {rank} but got length "
                         f"{np.size(v)}")
    start = np.minimum(np.asarray(start, dtype=np.int64), shape)
    stop = np.minimum(start + np.asarray(size, dtype=np.int64), shape)
    indices = np.asarray(indices, dtype=np.int64).reshape(-1, rank)
    keep = np.all((indices >= start) & (indices < stop), axis=1)
    return indices[keep] - start, np.asarray(values)[keep], stop - start


register_op("SparseSlice", _slice_infer, _slice)


# -- gradients of the ops that select entries: each input entry gets the gradient of the
# output entry at the same index (zero when it has none), as TensorFlow's *Grad kernels.

def _matched_gradient(grad, from_indices, to_indices):
    """``grad`` (one value per ``to_indices`` row) at each row of ``from_indices``."""
    grad = np.asarray(grad)
    a = np.asarray(from_indices, dtype=np.int64)
    b = np.asarray(to_indices, dtype=np.int64).reshape(-1, a.shape[1] if a.ndim == 2 else 0)
    out = np.zeros(a.shape[0], dtype=grad.dtype)
    if a.shape[0] == 0 or b.shape[0] == 0:
        return out
    _, ids = np.unique(np.concatenate([b, a]), axis=0, return_inverse=True)
    ids = ids.reshape(-1)
    where = np.full(ids.max() + 1, -1)
    where[ids[:b.shape[0]]] = np.arange(b.shape[0])
    found = where[ids[b.shape[0]:]]
    out[found >= 0] = grad[found[found >= 0]]
    return out


def _dim0(t):
    return None if t.shape.rank is None else t.shape.as_tuple()[0]


def _add_grad_infer(inputs, attrs):
    grad, a_indices, b_indices, _ = inputs
    return [TensorType(grad.dtype, TensorShape([_dim0(a_indices)])),
            TensorType(grad.dtype, TensorShape([_dim0(b_indices)]))]


def _add_grad(grad, a_indices, b_indices, sum_indices):
    return (_matched_gradient(grad, a_indices, sum_indices),
            _matched_gradient(grad, b_indices, sum_indices))


def _slice_grad_infer(inputs, attrs):
    grad, indices, _, _ = inputs
    return [TensorType(grad.dtype, TensorShape([_dim0(indices)]))]


def _slice_grad(grad, indices, start, output_indices):
    shifted = np.asarray(output_indices, dtype=np.int64) + np.asarray(start, dtype=np.int64)
    return _matched_gradient(grad, indices, shifted)


register_op("SparseAddGrad", _add_grad_infer, _add_grad)
register_op("SparseSliceGrad", _slice_grad_infer, _slice_grad)


def _reduce_inputs(op: str, inputs):
    """A sparse reduction's checked inputs: (indices, values, dims, axes), the last two
    known values or None."""
    if len(inputs) != 4:
        raise _error(f"{op} takes 4 inputs, got {len(inputs)}")
    indices, values, shape, axes = inputs
    _check_sparse(op, indices, shape)
    _check_int_input(op, axes, "reduction_axes")
    return indices, values, _shape_value(shape), _shape_value(axes)


def _reduce_infer(op: str):
    def infer(inputs, attrs):
        _, values, dims, axes_value = _reduce_inputs(op, inputs)
        if dims is None or axes_value is None or None in dims:
            return [TensorType(values.dtype, TensorShape(None))]
        return [TensorType(values.dtype, TensorShape(_reduced_shape(op, dims, axes_value,
                                                                     attrs.get("keep_dims"))))]
    return infer


def _reduced_axes(op: str, rank: int, axes) -> list:
    out = []
    for a in np.asarray(axes).reshape(-1).tolist():
        if not -rank <= a < rank:
            raise _error(f"{op}: Invalid reduction dimension {a}, for input with {rank} "
                         "dimensions.")
        out.append(a % rank)
    return sorted(set(out))


def _reduced_shape(op: str, dims, axes, keep_dims) -> list:
    axes = _reduced_axes(op, len(dims), axes)
    return [1 if d in axes else n for d, n in enumerate(dims) if keep_dims or d not in axes]


def _reduce_groups(ufunc, op: str, indices, values, shape, axes):
    """``(out_dims, ids, acc)``: the reduced dense shape, the row-major positions (sorted) in
    it that entries reach, and each one's reduction of the entries present."""
    dims = [int(d) for d in np.asarray(shape).tolist()]
    kept = [d for d in range(len(dims)) if d not in _reduced_axes(op, len(dims), axes)]
    values = np.asarray(values)
    out_dims = [dims[d] for d in kept]
    idx = np.asarray(indices, dtype=np.int64).reshape(-1, len(dims))[:, kept]
    unique, inverse = np.unique(_flat_ids(idx, out_dims), return_inverse=True)
    inverse = inverse.reshape(-1)
    acc = np.zeros(len(unique), dtype=values.dtype)
    first = np.zeros(len(unique), dtype=np.int64)
    first[inverse[::-1]] = np.arange(len(inverse))[::-1]
    acc[:] = values[first]  # start from each group's first value (max needs no identity)
    rest = np.ones(len(inverse), dtype=bool)
    rest[first] = False
    ufunc.at(acc, inverse[rest], values[rest])
    return out_dims, unique, acc


def _reduce_kernel(ufunc, op: str):
    """Reduces the entries present only (an output no entry reaches is zero, as in TF)."""
    def kernel(indices, values, shape, axes, keep_dims=False):
        out_dims, ids, acc = _reduce_groups(ufunc, op, indices, values, shape, axes)
        out = np.zeros(out_dims, dtype=acc.dtype)
        out.reshape(-1)[ids] = acc
        if keep_dims:
            out = out.reshape(_reduced_shape(op, np.asarray(shape).tolist(), axes, True))
        return out
    return kernel


def _reduce_sparse_infer(op: str):
    def infer(inputs, attrs):
        indices, values, dims, axes_value = _reduce_inputs(op, inputs)
        rank = None if dims is None or axes_value is None else \
            len(_reduced_shape(op, [0] * len(dims), axes_value, attrs.get("keep_dims")))
        return _sparse_types(indices, values, rank)
    return infer


def _reduce_sparse_kernel(ufunc, op: str):
    """The reductions that some entry reaches, as a sparse tensor in canonical order (with
    ``keep_dims`` the reduced dimensions stay, of size 1 and index 0)."""
    def kernel(indices, values, shape, axes, keep_dims=False):
        out_dims, ids, acc = _reduce_groups(ufunc, op, indices, values, shape, axes)
        if keep_dims:
            out_dims = _reduced_shape(op, np.asarray(shape).tolist(), axes, True)
        out_indices = np.stack(np.unravel_index(ids, out_dims), axis=1) if out_dims else \
            np.zeros((len(ids), 0), dtype=np.int64)
        return (out_indices.astype(np.int64).reshape(len(ids), len(out_dims)), acc,
                np.asarray(out_dims, dtype=np.int64))
    return kernel


for _op, _ufunc in (("SparseReduceSum", np.add), ("SparseReduceMax", np.maximum)):
    register_op(_op, _reduce_infer(_op), _reduce_kernel(_ufunc, _op), kernel_attrs=("keep_dims",))
    register_op(_op + "Sparse", _reduce_sparse_infer(_op + "Sparse"),
                _reduce_sparse_kernel(_ufunc, _op + "Sparse"), kernel_attrs=("keep_dims",))


# -- sparse tensors as dataset elements: SparseToVariant(s), SparseFromVariants ---------------
# A dataset carries a sparse element as one ``variant`` component whose items are
# ``SparseValue`` items, so batching stacks them and unbatching splits
# them like any component (TensorFlow serializes sparse elements to variants likewise).
# ``SparseFromVariants`` reads a variant of any shape S as one sparse tensor of shape
# S + (the largest dense shape of the items), the way ``tf.io.deserialize_many_sparse`` does;
# its ``rank`` attr is that result's rank (None: taken from the items).

class SparseValue:
    """One sparse tensor as a variant item (a class, so numpy keeps it whole in arrays)."""
    __slots__ = ("indices", "values", "dense_shape")

    def __init__(self, indices, values, dense_shape):
        self.indices = np.asarray(indices, dtype=np.int64)
        self.values = np.asarray(values)
        self.dense_shape = np.asarray(dense_shape, dtype=np.int64)

    def __iter__(self):
        return iter((self.indices, self.values, self.dense_shape))


def _to_variant_infer(op: str):
    def infer(inputs, attrs):
        if len(inputs) != 3:
            raise _error(f"{op} takes 3 inputs, got {len(inputs)}")
        indices, values, dense_shape = inputs
        _check_sparse(op, indices, dense_shape)
        return [TensorType(dtypes.variant, TensorShape([] if op == "SparseToVariant" else [None]))]
    return infer


def _to_variant(indices, values, dense_shape):
    out = np.empty((), dtype=object)
    out[()] = SparseValue(indices, values, dense_shape)
    return out


def _to_variants(indices, values, dense_shape):
    """One triple per row (index along the first dimension) of a rank >= 1 sparse tensor."""
    indices, values, dense_shape = SparseValue(indices, values, dense_shape)
    if dense_shape.size == 0:
        raise _error("Cannot slice a scalar SparseTensor into rows")
    indices = indices.reshape(-1, dense_shape.size)
    out = np.empty(int(dense_shape[0]), dtype=object)
    rows = indices[:, 0]
    for i in range(out.size):
        mine = rows == i
        out[i] = SparseValue(indices[mine, 1:], values[mine], dense_shape[1:].copy())
    return out


register_op("SparseToVariant", _to_variant_infer("SparseToVariant"), _to_variant)
register_op("SparseToVariants", _to_variant_infer("SparseToVariants"), _to_variants)


def _from_variants_infer(inputs, attrs):
    if len(inputs) != 1 or inputs[0].dtype != dtypes.variant:
        raise _error("SparseFromVariants takes one variant tensor")
    rank = attrs["rank"]
    return [TensorType(dtypes.int64, TensorShape([None, rank])),
            TensorType(attrs["dtype"], TensorShape([None])),
            TensorType(dtypes.int64, TensorShape([rank]))]


def _from_variants(variants, dtype, rank):
    variants = np.asarray(variants, dtype=object)
    items = variants.reshape(-1)
    if rank is None:
        rank = variants.ndim + (items[0].dense_shape.size if items.size else 0)
    rank -= variants.ndim  # the rank of each item
    inner = np.zeros(rank, dtype=np.int64)
    for _, _, shape in items:
        if shape.size != rank:
            raise _error(f"Inconsistent rank across SparseTensors: rank prior to SparseTensor "
                         f"was: {rank} but rank of this SparseTensor is: {shape.size}")
        inner = np.maximum(inner, shape)
    outer = np.array(variants.shape, dtype=np.int64)
    positions = np.array(np.unravel_index(np.arange(items.size), variants.shape),
                         dtype=np.int64).T.reshape(items.size, outer.size) if outer.size \
        else np.zeros((items.size, 0), dtype=np.int64)
    parts = [np.concatenate([np.repeat(positions[k:k + 1], len(v), axis=0),
                             idx.reshape(-1, rank)], axis=1)
             for k, (idx, v, _) in enumerate(items)]
    indices = np.concatenate(parts) if parts else np.zeros((0, outer.size + rank), np.int64)
    values = np.concatenate([v for _, v, _ in items]) if items.size else \
        np.zeros(0, dtype=dtype.numpy_dtype)
    return indices, values.astype(dtype.numpy_dtype, copy=False), np.concatenate([outer, inner])


register_op("SparseFromVariants", _from_variants_infer, _from_variants,
            kernel_attrs=("dtype", "rank"))


# -- SparseReshape, SparseFillEmptyRows, SparseSparseMaximum/Minimum ----------------------------

def _reshape_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"SparseReshape takes 3 inputs, got {len(inputs)}")
    indices, shape, new_shape = inputs
    _check_sparse("SparseReshape", indices, shape)
    _check_int_input("SparseReshape", new_shape, "new_shape", rank=1)
    rank = None if new_shape.shape.rank is None else new_shape.shape.as_tuple()[0]
    return [TensorType(dtypes.int64, TensorShape([indices.shape[0] if indices.shape.rank == 2
                                                  else None, rank])),
            TensorType(dtypes.int64, TensorShape([rank]))]


def _reshape(indices, shape, new_shape):
    shape = np.asarray(shape, dtype=np.int64)
    new = np.asarray(new_shape, dtype=np.int64).copy()
    unknown = np.flatnonzero(new == -1)
    if unknown.size > 1:
        raise _error(f"only one output dimension may be -1, not both {unknown[0]} and "
                     f"{unknown[1]}")
    total = int(np.prod(shape))
    known = int(np.prod(new[new != -1]))
    if unknown.size:
        if known == 0 or total % known:
            raise _error(f"Input to reshape is a tensor with {total} dense values, but the "
                         f"requested shape requires a multiple of {known}. input_shape="
                         f"[{','.join(map(str, shape))}] output_shape=[{','.join(map(str, new))}]")
        new[unknown[0]] = total // known
    elif known != total:
        raise _error(f"Input to reshape is a tensor with {total} dense values, but the requested "
                     f"shape has {known}. input_shape=[{','.join(map(str, shape))}] output_shape="
                     f"[{','.join(map(str, new))}]")
    flat = _flat_ids(np.asarray(indices).reshape(-1, shape.size), shape)
    out = np.array(np.unravel_index(flat, tuple(new)), dtype=np.int64).T if new.size else \
        np.zeros((flat.size, 0), dtype=np.int64)
    return out.reshape(flat.size, new.size), new


register_op("SparseReshape", _reshape_infer, _reshape)


def _fill_empty_rows_infer(inputs, attrs):
    if len(inputs) != 4:
        raise _error(f"SparseFillEmptyRows takes 4 inputs, got {len(inputs)}")
    indices, values, shape, default = inputs
    _check_sparse("SparseFillEmptyRows", indices, shape)
    _same_values_dtype("SparseFillEmptyRows", values, default, 3)
    if default.shape.rank not in (None, 0):
        raise _error(f"SparseFillEmptyRows: default_value must be a scalar, got {default.shape}")
    dims = _shape_value(shape)
    return [TensorType(dtypes.int64, TensorShape([None, _rank_of(shape)])),
            TensorType(values.dtype, TensorShape([None])),
            TensorType(dtypes.bool_, TensorShape([None if dims is None else dims[0]])),
            TensorType(dtypes.int64, TensorShape([values.shape[0] if values.shape.rank == 1
                                                  else None]))]


def _fill_empty_rows(indices, values, shape, default_value):
    """Each empty row gets one entry ``[row, 0, ...] = default_value``; entries stay in row
    order (stable within a row)."""
    shape = np.asarray(shape, dtype=np.int64)
    indices = np.asarray(indices, dtype=np.int64).reshape(-1, shape.size)
    values = np.asarray(values)
    rows = int(shape[0])
    empty = np.ones(rows, dtype=bool)
    empty[indices[:, 0]] = False
    fill = np.zeros((int(empty.sum()), shape.size), dtype=np.int64)
    fill[:, 0] = np.flatnonzero(empty)
    all_indices = np.concatenate([indices, fill])
    all_values = np.concatenate([values, np.full(len(fill), default_value, dtype=values.dtype)])
    order = np.argsort(all_indices[:, 0], kind="stable")
    reverse = np.empty(len(all_indices), dtype=np.int64)
    reverse[order] = np.arange(len(all_indices))
    return all_indices[order], all_values[order], empty, reverse[:len(indices)]


register_op("SparseFillEmptyRows", _fill_empty_rows_infer, _fill_empty_rows)


def _sparse_sparse_infer(op: str):
    def infer(inputs, attrs):
        if len(inputs) != 6:
            raise _error(f"{op} takes 6 inputs, got {len(inputs)}")
        a_i, a_v, a_s, b_i, b_v, b_s = inputs
        _check_sparse(op, a_i, a_s)
        _check_sparse(op, b_i, b_s)
        _same_values_dtype(op, a_v, b_v, 4)
        return _sparse_types(a_i, a_v, _rank_of(a_s))[:2]
    return infer


def _sparse_sparse_kernel(ufunc, op: str):
    """``ufunc`` on the union of both entries, a missing entry counting as zero."""
    def kernel(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        _match_shapes(op, a_shape, b_shape)
        rank = np.size(a_shape)
        a_indices = np.asarray(a_indices, dtype=np.int64).reshape(-1, rank)
        b_indices = np.asarray(b_indices, dtype=np.int64).reshape(-1, rank)
        a_ids, b_ids = _flat_ids(a_indices, a_shape), _flat_ids(b_indices, a_shape)
        ids, first = np.unique(np.concatenate([a_ids, b_ids]), return_index=True)
        indices = np.concatenate([a_indices, b_indices])[first]
        dtype = np.asarray(a_values).dtype
        a_dense, b_dense = np.zeros(len(ids), dtype), np.zeros(len(ids), dtype)
        a_dense[np.searchsorted(ids, a_ids)] = a_values
        b_dense[np.searchsorted(ids, b_ids)] = b_values
        return indices, ufunc(a_dense, b_dense)
    return kernel


for _op, _ufunc in (("SparseSparseMaximum", np.maximum), ("SparseSparseMinimum", np.minimum)):
    register_op(_op, _sparse_sparse_infer(_op), _sparse_sparse_kernel(_ufunc, _op))


# -- EditDistance -----------------------------------------------------------------------------

def _edit_distance_infer(inputs, attrs):
    if len(inputs) != 6:
        raise _error(f"EditDistance takes 6 inputs, got {len(inputs)}")
    if inputs[1].dtype != inputs[4].dtype:
        raise _error(f"cannot compute EditDistance as input #4(zero-based) was expected to be a "
                     f"{inputs[1].dtype.name} tensor but is a {inputs[4].dtype.name} tensor")
    hyp, truth = _shape_value(inputs[2]), _shape_value(inputs[5])
    if hyp is None or truth is None:
        n = inputs[2].shape[0] if inputs[2].shape.rank == 1 else None
        return [TensorType(dtypes.float32, TensorShape(None if n is None else [None] * (n - 1)))]
    if len(hyp) != len(truth):
        raise _error(f"EditDistance: hypothesis and truth must have the same rank, got "
                     f"{len(hyp)} and {len(truth)}")
    dims = [None if a is None or b is None else max(a, b) for a, b in zip(hyp[:-1], truth[:-1])]
    return [TensorType(dtypes.float32, TensorShape(dims))]


def _sequences(indices, values, rank: int) -> dict:
    """The values of each sequence (all but the last index), in the order of the last."""
    indices = np.asarray(indices, dtype=np.int64).reshape(len(values), rank)
    out: dict = {}
    for k in np.lexsort(indices.T[::-1]):
        out.setdefault(tuple(indices[k, :-1]), []).append(values[k])
    return out


def _levenshtein(a: list, b: list) -> int:
    row = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        prev, row[0] = row[0], i
        for j, y in enumerate(b, 1):
            prev, row[j] = row[j], min(row[j] + 1, row[j - 1] + 1, prev + (x != y))
    return row[-1]


def _edit_distance(hyp_indices, hyp_values, hyp_shape, truth_indices, truth_values,
                   truth_shape, normalize):
    hyp = _sequences(hyp_indices, list(np.asarray(hyp_values)), len(hyp_shape))
    truth = _sequences(truth_indices, list(np.asarray(truth_values)), len(truth_shape))
    shape = np.maximum(np.asarray(hyp_shape)[:-1], np.asarray(truth_shape)[:-1])
    out = np.zeros(shape, dtype=np.float32)
    for loc in np.ndindex(*shape):
        h, t = hyp.get(loc, []), truth.get(loc, [])
        d = float(_levenshtein(h, t))
        if normalize:  # an empty truth: 0 when the hypothesis is empty too, else inf
            d = d / len(t) if t else (np.inf if h else 0.0)
        out[loc] = d
    return out


register_op("EditDistance", _edit_distance_infer, _edit_distance, kernel_attrs=("normalize",))
