"""``tf.sparse`` arithmetic and structure: add, sparse_dense_matmul, concat, slice,
transpose, map_values, retain, reset_shape, reduce_sum/max, cross/cross_hashed.

Ops with a data-dependent number of entries run one op of graph/ops/sparse.py
(TensorFlow's kernels of the same names); the others are compositions of dense
runtime ops on the components, so they stage and differentiate like any op.
"""
from __future__ import annotations

import builtins

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from runtime import nest
from runtime.ops import array_ops, logging_ops, math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ragged import ragged_more_ops
from runtime.ragged.ragged_tensor import _static_value
from runtime.sparse.sparse_ops import _check, reorder, to_dense
from runtime.sparse.sparse_tensor import SparseTensor
from runtime.tensor import Tensor


def _parts(sp: SparseTensor) -> list:
    return [sp.indices, sp.values, sp.dense_shape]


def add(a, b, threshold=0, name=None):
    """``tf.sparse.add``: sparse + sparse is sparse (entries whose sum has magnitude below
    ``threshold`` dropped); sparse + dense is dense."""
    if isinstance(a, SparseTensor) and isinstance(b, SparseTensor):
        thresh = convert_to_tensor(threshold, dtype=a.dtype.real_dtype)
        indices, values, shape = apply_op("SparseAdd", _parts(a) + _parts(b) + [thresh],
                                          name=name or "SparseAdd")
        return SparseTensor(indices, values, shape)._with_static_shape(a.shape)
    if isinstance(b, SparseTensor):
        a, b = b, a
    a = _check(a, "tf.sparse.add")
    dense = convert_to_tensor(b, dtype_hint=a.dtype)  # (another dtype: the op's error)
    return apply_op("SparseTensorDenseAdd", _parts(a) + [dense],
                    name=name or "SparseTensorDenseAdd")


def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """``tf.sparse.sparse_dense_matmul``: a matrix product where either side may be sparse."""
    if isinstance(b, SparseTensor):  # dense @ sparse = (sparse^T @ dense^T)^T
        a = convert_to_tensor(sp_a, dtype=b.dtype)
        out = sparse_dense_matmul(b, a, adjoint_a=not adjoint_b, adjoint_b=not adjoint_a)
        out = array_ops.transpose(out)
        return math_ops.conj(out) if b.dtype.is_complex else out
    sp = _check(sp_a, "tf.sparse.sparse_dense_matmul")
    dense = convert_to_tensor(b, dtype_hint=sp.dtype)  # (another dtype: the op's error)
    return apply_op("SparseTensorDenseMatMul", _parts(sp) + [dense],
                    {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)},
                    name=name or "SparseTensorDenseMatMul")


def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """``tf.sparse.concat``: entries of all inputs, offset along ``axis``, in row-major order.

    With ``expand_nonconcat_dims`` the other dimensions grow to the largest input's."""
    sps = [_check(sp, "tf.sparse.concat") for sp in sp_inputs]
    shapes = [sp.dense_shape for sp in sps]
    if expand_nonconcat_dims:
        widest = math_ops.reduce_max(array_ops.stack(shapes), axis=0)
        rank = sps[0].shape.rank
        a = axis % rank
        mask = convert_to_tensor([d == a for d in range(rank)])
        shapes = [math_ops.where(mask, s, widest) for s in shapes]
    inputs = [sp.indices for sp in sps] + [sp.values for sp in sps] + shapes
    indices, values, shape = apply_op("SparseConcat", inputs, {"concat_dim": int(axis)},
                                      name=name or "SparseConcat")
    return SparseTensor(indices, values, shape)


def slice(sp_input, start, size, name=None):  # noqa: A001  (TensorFlow's name)
    """``tf.sparse.slice``: the entries in ``[start, start + size)``, re-based at ``start``."""
    sp = _check(sp_input, "tf.sparse.slice")
    start = convert_to_tensor(start, dtype=dtypes.int64)
    size = convert_to_tensor(size, dtype=dtypes.int64)
    indices, values, shape = apply_op("SparseSlice", _parts(sp) + [start, size],
                                      name=name or "SparseSlice")
    return SparseTensor(indices, values, shape)


def transpose(sp_input, perm=None, name=None):
    """``tf.sparse.transpose``: indices and shape permuted, then reordered."""
    sp = _check(sp_input, "tf.sparse.transpose")
    rank = array_ops.size(sp.dense_shape) if sp.shape.rank is None else sp.shape.rank
    if perm is None:
        perm = array_ops.range_(rank - 1, -1, -1) if sp.shape.rank is None \
            else list(range(rank - 1, -1, -1))
    perm = convert_to_tensor(perm, dtype=dtypes.int64)
    indices = array_ops.gather(sp.indices, perm, axis=1)
    shape = array_ops.gather(sp.dense_shape, perm)
    return reorder(SparseTensor(indices, sp.values, shape), name=name)


def map_values(op, *args, **kwargs):
    """``tf.sparse.map_values``: ``op`` applied to the values of the SparseTensor arguments
    (which must share their indices); other arguments are passed unchanged."""
    sparse = [x for x in nest.flatten([args, kwargs], expand_composites=False)
              if isinstance(x, SparseTensor)]
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")

    def values_of(x):
        return x.values if isinstance(x, SparseTensor) else x
    new_args = [values_of(a) for a in args]
    new_kwargs = {k: values_of(v) for k, v in kwargs.items()}
    return sparse[0].with_values(op(*new_args, **new_kwargs))


def retain(sp_input, to_retain):
    """``tf.sparse.retain``: the entries where ``to_retain`` (a bool vector) is true."""
    sp = _check(sp_input, "tf.sparse.retain")
    keep = convert_to_tensor(to_retain, dtype=dtypes.bool_)
    if keep.shape.rank not in (None, 1):
        raise ValueError(f"Shape {keep.shape} must have rank 1")
    n, k = sp.values.shape.as_tuple()[0], keep.shape.as_tuple()
    if k is not None and None not in (n, k[0]) and n != k[0]:
        raise ValueError(f"Dimensions {n} and {k[0]} are not compatible")
    where = array_ops.reshape(math_ops.where(keep), [-1])
    out = SparseTensor(array_ops.gather(sp.indices, where), array_ops.gather(sp.values, where),
                       sp.dense_shape)
    return out._with_static_shape(sp.shape)


def reset_shape(sp_input, new_shape=None):
    """``tf.sparse.reset_shape``: the same entries in ``new_shape`` (no smaller than the
    current shape), or in the tight bounding box of the entries when it is None."""
    sp = _check(sp_input, "tf.sparse.reset_shape")
    if new_shape is None:
        bound = math_ops.reduce_max(sp.indices, axis=0) + 1  # (no entries: the int64 minimum)
        shape = math_ops.maximum(convert_to_tensor(0, dtype=dtypes.int64), bound)
        return SparseTensor(sp.indices, sp.values, shape)
    shape = math_ops.cast(convert_to_tensor(new_shape), dtypes.int64)
    if shape.shape.rank != 1:
        raise ValueError(f"Shape {shape.shape} must have rank 1")
    rank, given = sp.shape.rank, shape.shape.as_tuple()[0]
    if None not in (rank, given) and rank != given:
        raise ValueError(f"Dimensions {given} and {rank} are not compatible")
    wanted = _static_value(shape)
    if wanted is not None and sp.shape.is_fully_defined():
        current = np.array(sp.shape.as_list())
        if not np.all(current <= wanted):
            # (TensorFlow's message names the two shapes the other way round)
            raise ValueError("Requested new_shape should have dimension sizes >= "
                             f"sp_input.shape.  Found new_shape ({current}), sp_input.shape "
                             f"({wanted}).")
    else:
        logging_ops.assert_equal(array_ops.shape(sp.dense_shape), array_ops.shape(shape))
        logging_ops.assert_less_equal(sp.dense_shape, shape)
    return SparseTensor(sp.indices, sp.values, shape)


def cross(inputs, name=None, separator=None):
    """``tf.sparse.cross``: ``tf.ragged.cross`` of dense and sparse 2-D inputs, as a
    SparseTensor (numbers cast to int64 first, as TensorFlow casts them)."""
    return _cross(inputs, False, 0, None, name, separator)


def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """``tf.sparse.cross_hashed``: ``tf.ragged.cross_hashed`` as a SparseTensor."""
    return _cross(inputs, True, num_buckets, hash_key, name, None)


def _cross(inputs, hashed, num_buckets, hash_key, name, separator):
    if not isinstance(inputs, (tuple, list)):
        raise TypeError("Inputs must be a list")
    if not all(isinstance(t, (SparseTensor, Tensor)) for t in inputs):
        raise TypeError("All inputs must be Tensor or SparseTensor.")
    cast = [t if t.dtype in (dtypes.string, dtypes.int64) else
            (t.with_values(math_ops.cast(t.values, dtypes.int64)) if isinstance(t, SparseTensor)
             else math_ops.cast(t, dtypes.int64)) for t in inputs]
    out = ragged_more_ops._cross(cast, hashed, num_buckets, hash_key,
                                 name or ("SparseCrossHashed" if hashed else "SparseCrossV2"),
                                 "_X_" if separator is None else separator)
    return out.to_sparse()


def _reduction(op: str, default_name: str):
    def reduce(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
        sp = _check(sp_input, f"tf.sparse.{default_name}")
        if axis is None:
            axis = array_ops.range_(array_ops.size(sp.dense_shape)) if sp.shape.rank is None \
                else list(range(sp.shape.rank))
        axes = convert_to_tensor(axis, dtype=dtypes.int32)
        attrs = {"keep_dims": bool(keepdims)}
        if not output_is_sparse:
            return apply_op(op, _parts(sp) + [axes], attrs, name=name or op)
        indices, values, shape = apply_op(op + "Sparse", _parts(sp) + [axes], attrs,
                                          name=name or op + "Sparse")
        return SparseTensor(indices, values, shape)
    reduce.__name__ = default_name
    reduce.__doc__ = (f"``tf.sparse.{default_name}``: reduces the entries present (an output "
                      "no entry reaches is 0; ``output_is_sparse``: only the outputs some "
                      "entry reaches, as a SparseTensor).")
    return reduce


reduce_sum = _reduction("SparseReduceSum", "reduce_sum")
reduce_max = _reduction("SparseReduceMax", "reduce_max")


def reshape(sp_input, shape, name=None):
    """``tf.sparse.reshape``: the same entries in a dense shape with as many elements (one
    dimension may be -1)."""
    sp = _check(sp_input, "tf.sparse.reshape")
    new_shape = convert_to_tensor(shape, dtype=dtypes.int64)
    indices, dense_shape = apply_op("SparseReshape", [sp.indices, sp.dense_shape, new_shape],
                                    name=name or "SparseReshape")
    return SparseTensor(indices, sp.values, dense_shape)


def fill_empty_rows(sp_input, default_value, name=None):
    """``tf.sparse.fill_empty_rows``: ``(filled, empty_row_indicator)``, each empty row given
    one entry ``default_value`` in its first column."""
    sp = _check(sp_input, "tf.sparse.fill_empty_rows")
    default = convert_to_tensor(default_value, dtype=sp.dtype)
    indices, values, empty, _ = apply_op("SparseFillEmptyRows", _parts(sp) + [default],
                                         name=name or "SparseFillEmptyRows")
    return SparseTensor(indices, values, sp.dense_shape)._with_static_shape(sp.shape), empty


def _elementwise(op: str, what: str):
    def fn(sp_a, sp_b, name=None):
        a, b = _check(sp_a, what), _check(sp_b, what)
        indices, values = apply_op(op, _parts(a) + _parts(b), name=name or op)
        return SparseTensor(indices, values, a.dense_shape)._with_static_shape(a.shape)
    fn.__doc__ = (f"``{what}``: elementwise over the union of both tensors' entries (a missing "
                  "entry counts as zero).")
    return fn


maximum = _elementwise("SparseSparseMaximum", "tf.sparse.maximum")
minimum = _elementwise("SparseSparseMinimum", "tf.sparse.minimum")


def split(sp_input=None, num_split=None, axis=None, name=None):
    """``tf.sparse.split``: ``num_split`` slices along ``axis``; the first ``size % num_split``
    get one more row than the others."""
    sp = _check(sp_input, "tf.sparse.split")
    rank = sp.shape.rank
    if rank is None or not isinstance(axis, int):
        raise ValueError("tf.sparse.split needs a SparseTensor of known rank and a Python axis")
    axis = axis % rank
    dim = sp.dense_shape[axis]
    known = sp.shape.as_list()[axis]
    if known is not None and not 1 <= num_split <= known:
        raise InvalidArgumentError(message=f"Input num_split should be between 1 and the "
                                           f"splitting dimension size ({known}), got {num_split}")
    base, extra = dim // num_split, dim % num_split
    parts = []
    for k in range(num_split):
        size = base + math_ops.cast(k < extra, dtypes.int64)
        start = base * k + math_ops.minimum(convert_to_tensor(k, dtype=dtypes.int64), extra)
        one_hot = [d == axis for d in range(rank)]
        starts = math_ops.where(one_hot, array_ops.fill([rank], start),
                                array_ops.zeros([rank], dtypes.int64))
        sizes = math_ops.where(one_hot, array_ops.fill([rank], size), sp.dense_shape)
        parts.append(slice(sp, starts, sizes))
    return parts


def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None) -> SparseTensor:
    """``tf.sparse.eye``: ones on the diagonal of a ``[num_rows, num_columns]`` matrix."""
    rows = convert_to_tensor(num_rows, dtype=dtypes.int64)
    cols = rows if num_columns is None else convert_to_tensor(num_columns, dtype=dtypes.int64)
    diag = array_ops.range_(math_ops.minimum(rows, cols), dtype=dtypes.int64)
    return SparseTensor(array_ops.stack([diag, diag], axis=1),
                        array_ops.ones(array_ops.shape(diag), dtype=dtype),
                        array_ops.stack([rows, cols]))


def to_indicator(sp_input, vocab_size, name=None):
    """``tf.sparse.to_indicator``: a dense bool tensor ``[..., vocab_size]``, true at the ids
    (the values) of each row of the last dimension."""
    sp = _check(sp_input, "tf.sparse.to_indicator")
    ids = math_ops.cast(array_ops.reshape(sp.values, [-1, 1]), dtypes.int64)
    leading = array_ops.strided_slice(sp.indices, (builtins.slice(None), builtins.slice(0, -1)))
    shape = array_ops.concat([array_ops.strided_slice(sp.dense_shape, builtins.slice(0, -1)),
                              convert_to_tensor([vocab_size], dtype=dtypes.int64)], 0)
    marks = SparseTensor(array_ops.concat([leading, ids], 1),
                         array_ops.ones(array_ops.shape(ids)[:1], dtype=dtypes.bool_), shape)
    return to_dense(reorder(marks), default_value=False, validate_indices=False, name=name)


def softmax(sp_input, name=None) -> SparseTensor:
    """``tf.sparse.softmax``: a softmax over the entries present in each innermost row (the
    entries whose indices agree but for the last); absent entries take no part. As
    TensorFlow's, it expects indices in canonical order (``tf.sparse.reorder``). Written with
    segment ops on the values, so it stages and differentiates as they do."""
    from runtime.ops import special_ops
    from runtime.gradients.tape import stop_gradient
    sp = _check(sp_input, "tf.sparse.softmax")
    if sp.dtype not in (dtypes.float16, dtypes.float32, dtypes.float64):
        raise InvalidArgumentError(message=f"tf.sparse.softmax: Value for attr 'T' of "
                                   f"{sp.dtype.name} is not in the list of allowed values: "
                                   "half, float, double")
    if sp.shape.rank is not None and sp.shape.rank < 2:
        raise InvalidArgumentError(message=f"tf.sparse.softmax: Input should have rank >= 2, "
                                   f"but received shape: {sp.shape}")
    outer = sp.indices[:, :-1]
    starts = math_ops.reduce_any(math_ops.not_equal(outer[1:], outer[:-1]), axis=1)
    n = array_ops.shape(sp.values)[0]
    rows = special_ops.cumsum(array_ops.concat(
        [array_ops.zeros([1], dtypes.int32), math_ops.cast(starts, dtypes.int32)], 0))[:n]
    top = stop_gradient(special_ops.unsorted_segment_max(sp.values, rows, n))
    e = math_ops.exp(sp.values - array_ops.gather(top, rows))
    total = special_ops.unsorted_segment_sum(e, rows, n)
    return SparseTensor(sp.indices, e / array_ops.gather(total, rows), sp.dense_shape)


def _sparse_segment(kind: str):
    def segment(data, indices, segment_ids, num_segments=None, name=None,
                sparse_gradient=False):
        from runtime.ops import special_ops
        rows = array_ops.gather(data, indices)
        ids = convert_to_tensor(segment_ids)
        if num_segments is None:  # (TensorFlow's segment ids are sorted: the last one + 1)
            n = math_ops.maximum(math_ops.reduce_max(ids) + 1, 0)
        else:
            n = convert_to_tensor(num_segments, dtype=ids.dtype)
        sums = special_ops.unsorted_segment_sum(rows, ids, n)
        if kind == "sum":
            return sums
        counts = special_ops.unsorted_segment_sum(array_ops.ones_like(ids, dtype=sums.dtype),
                                                  ids, n)
        counts = math_ops.maximum(counts, convert_to_tensor(1, dtype=sums.dtype))
        if kind == "sqrt_n":
            counts = math_ops.sqrt(counts)
        inner = array_ops.concat([array_ops.shape(counts), array_ops.ones_like(
            array_ops.shape(sums)[1:])], 0)
        return sums / array_ops.reshape(counts, inner)
    segment.__name__ = f"segment_{kind}"
    segment.__doc__ = (f"``tf.sparse.segment_{kind}``: the {kind} of the rows ``data[indices]`` "
                       "per segment id (empty segments are 0).")
    return segment


segment_sum = _sparse_segment("sum")
segment_mean = _sparse_segment("mean")
segment_sqrt_n = _sparse_segment("sqrt_n")


def bincount(values, weights=None, axis=0, minlength=None, maxlength=None,
             binary_output: bool = False, name=None) -> SparseTensor:
    """``tf.sparse.bincount`` of a 1-D or 2-D tensor, RaggedTensor or SparseTensor: the bins
    that occur, as a SparseTensor (per row with ``axis=-1``) of counts of the input's dtype,
    or sums of ``weights`` (of the same kind as ``values``). Bins run to max(values, 0) + 1
    (at least ``minlength``, values at or past ``maxlength`` dropped), as TensorFlow's kernel
    counts them."""
    from runtime.ops import special_ops
    if binary_output and weights is not None:
        raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                         "Please specify only one.")
    x, rows, nrows, w = _bincount_entries(values, weights, axis)
    size = math_ops.maximum(math_ops.reduce_max(x), 0) + 1
    if minlength is not None:
        size = math_ops.maximum(size, math_ops.cast(minlength, x.dtype))
    if maxlength is not None:
        size = math_ops.minimum(size, math_ops.cast(maxlength, x.dtype))
    ids = x if rows is None else math_ops.cast(rows, x.dtype) * size + x
    keep = math_ops.logical_and(math_ops.less(x, size), math_ops.greater_equal(x, 0))
    ids = array_ops.boolean_mask(ids, keep)
    nrows = math_ops.cast(nrows, x.dtype)
    n = nrows * size
    present = special_ops.unsorted_segment_sum(array_ops.ones_like(ids), ids, n)
    where = array_ops.reshape(math_ops.where(math_ops.greater(present, 0)), [-1])
    if binary_output:
        counts = array_ops.ones_like(where, dtype=x.dtype)
    else:
        weight = array_ops.ones_like(ids) if w is None else array_ops.boolean_mask(w, keep)
        counts = array_ops.gather(special_ops.unsorted_segment_sum(weight, ids, n), where)
    size64 = math_ops.cast(size, dtypes.int64)
    cols = where % size64
    if rows is not None:
        indices = array_ops.stack([where // size64, cols], axis=1)
        shape = array_ops.stack([math_ops.cast(nrows, dtypes.int64), size64])
    else:
        indices, shape = array_ops.reshape(cols, [-1, 1]), array_ops.reshape(size64, [1])
    return SparseTensor(indices, counts, shape)


def _bincount_entries(values, weights, axis):
    """``(values, row of each value, number of rows, weights)`` of ``bincount``'s input, all
    flat; the rows are None (one row: the whole input) unless counting per row (``axis=-1``
    of a 2-D input)."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    kind = RaggedTensor if isinstance(values, RaggedTensor) else \
        SparseTensor if isinstance(values, SparseTensor) else None
    if kind is not None and weights is not None and not isinstance(weights, kind):
        raise ValueError(f"`weights` must be a {kind.__name__} if `values` is a "
                         f"{kind.__name__}. Received argument weights={weights!r} of type: "
                         f"{type(weights).__name__}.")
    if kind is RaggedTensor:
        x, rank = values.flat_values, values.shape.rank
        rows, nrows = values.value_rowids(), values.nrows()
        w = None if weights is None else weights.flat_values
    elif kind is SparseTensor:
        x, rank = values.values, values.shape.rank
        rows, nrows = values.indices[:, 0], values.dense_shape[0]
        w = None if weights is None else weights.values
    else:
        dense = convert_to_tensor(values)
        rank = dense.shape.rank
        if rank not in (1, 2):
            raise InvalidArgumentError(message=f"tf.sparse.bincount: Input must be a 1 or "
                                       f"2-dimensional tensor. Got rank {rank}")
        x = array_ops.reshape(dense, [-1])
        w = None if weights is None else array_ops.reshape(convert_to_tensor(weights), [-1])
        nrows = array_ops.shape(dense)[0]
        rows = array_ops.reshape(array_ops.range_(nrows)[:, None] * array_ops.ones_like(dense),
                                 [-1]) if rank == 2 else None
    if axis in (-1, 1) and rank == 2:
        return x, rows, nrows, w
    return x, None, 1, w
