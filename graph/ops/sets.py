"""Set operations along the last dimension (``tf.sets``): TensorFlow's
DenseToDenseSetOperation, DenseToSparseSetOperation, SparseToSparseSetOperation and
SetSize.

A set is the values of one row of the last dimension (all of them for a dense input,
the present ones for a sparse input). The result is sparse: indices [n, rank] int64,
sorted values [n], dense shape [rank] int64 whose last dimension is the largest
result set.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import int32, int64
from graph.errors import DTypeNotSupportedError, InvalidArgumentError
from graph.ir import TensorType
from graph.registry import register_op
from graph.shapes import TensorShape

_SET_DTYPES = ("int8", "int16", "int32", "int64", "uint8", "uint16", "string")
_OPERATIONS = ("a-b", "b-a", "intersection", "union")


def _check_values(op: str, dtype) -> None:
    if dtype.name not in _SET_DTYPES:
        raise DTypeNotSupportedError(message=f"{op} does not support {dtype.name} values (it "
                                           f"takes {', '.join(_SET_DTYPES)}).")


def _dense_rank(op: str, t) -> int | None:
    rank = t.shape.rank
    if rank is not None and rank < 2:
        raise InvalidArgumentError(message=f"Shape {list(t.shape.as_tuple())} has rank "
                                           f"{rank} < 2")
    return rank


def _sparse_rank(op: str, indices, values, shape) -> int | None:
    _check_values(op, values.dtype)
    if shape.shape.rank == 1 and shape.shape[0] is not None:
        return shape.shape[0]
    return None


def _result(dtype, rank) -> list:
    return [TensorType(int64, TensorShape([None, rank])), TensorType(dtype, TensorShape([None])),
            TensorType(int64, TensorShape([rank]))]


def _check_operation(attrs) -> None:
    if attrs.get("set_operation") not in _OPERATIONS:
        raise InvalidArgumentError(message=f"Invalid set_operation "
                                           f"{attrs.get('set_operation')!r}")


def _same_dtype(a, b) -> None:
    if a != b:
        raise InvalidArgumentError(message=f"Types don't match, {a.name} vs {b.name}.")


def _ranks(r1, r2):
    if r1 is not None and r2 is not None and r1 != r2:
        raise InvalidArgumentError(message=f"Mismatched ranks {r1} vs {r2}")
    return r1 if r1 is not None else r2


def _dense_dense_infer(inputs, attrs):
    _check_operation(attrs)
    a, b = inputs
    _check_values("DenseToDenseSetOperation", a.dtype)
    _same_dtype(a.dtype, b.dtype)
    rank = _ranks(_dense_rank("DenseToDenseSetOperation", a),
                  _dense_rank("DenseToDenseSetOperation", b))
    return _result(a.dtype, rank)


def _dense_sparse_infer(inputs, attrs):
    _check_operation(attrs)
    a, bi, bv, bs = inputs
    _check_values("DenseToSparseSetOperation", a.dtype)
    _same_dtype(a.dtype, bv.dtype)
    rank = _ranks(_dense_rank("DenseToSparseSetOperation", a),
                  _sparse_rank("DenseToSparseSetOperation", bi, bv, bs))
    return _result(a.dtype, rank)


def _sparse_sparse_infer(inputs, attrs):
    _check_operation(attrs)
    ai, av, as_, bi, bv, bs = inputs
    _same_dtype(av.dtype, bv.dtype)
    rank = _ranks(_sparse_rank("SparseToSparseSetOperation", ai, av, as_),
                  _sparse_rank("SparseToSparseSetOperation", bi, bv, bs))
    return _result(av.dtype, rank)


def _set_size_infer(inputs, attrs):
    indices, values, shape = inputs
    rank = _sparse_rank("SetSize", indices, values, shape)
    return [TensorType(int32, TensorShape(None if rank is None else [None] * (rank - 1)))]


# -- kernels ----------------------------------------------------------------------------------------

def _dense_groups(x: np.ndarray):
    """(leading shape, {row prefix: set of values}) of a dense input."""
    if x.ndim < 2:
        raise InvalidArgumentError(message=f"Shape {list(x.shape)} has rank {x.ndim} < 2")
    lead = x.shape[:-1]
    rows = x.reshape(-1, x.shape[-1])
    return lead, {idx: set(rows[i].tolist())
                  for i, idx in enumerate(np.ndindex(*lead))}


def _sparse_groups(indices, values, shape):
    shape = tuple(int(d) for d in shape)
    if len(shape) < 2:
        raise InvalidArgumentError(message=f"Shape {list(shape)} has rank {len(shape)} < 2")
    groups: dict = {}
    for idx, v in zip(map(tuple, np.asarray(indices).tolist()), np.asarray(values).tolist()):
        groups.setdefault(idx[:-1], set()).add(v)
    return shape[:-1], groups


def _combine(op: str, lead_a, groups_a, lead_b, groups_b, dtype):
    if tuple(lead_a) != tuple(lead_b):
        raise InvalidArgumentError(message=f"Mismatched shapes {list(lead_a)} vs "
                                           f"{list(lead_b)}")
    indices, values, width = [], [], 0
    for prefix in np.ndindex(*lead_a):
        a, b = groups_a.get(prefix, set()), groups_b.get(prefix, set())
        result = sorted(a & b if op == "intersection" else a | b if op == "union"
                        else a - b if op == "a-b" else b - a)
        width = max(width, len(result))
        indices.extend(prefix + (j,) for j in range(len(result)))
        values.extend(result)
    rank = len(lead_a) + 1
    return (np.asarray(indices, np.int64).reshape(-1, rank), np.asarray(values, dtype),
            np.asarray(tuple(lead_a) + (width,), np.int64))


def _dtype_of(x) -> np.dtype:
    return np.asarray(x).dtype


def _dense_dense(a, b, set_operation="union"):
    return _combine(set_operation, *_dense_groups(a), *_dense_groups(b), _dtype_of(a))


def _dense_sparse(a, bi, bv, bs, set_operation="union"):
    return _combine(set_operation, *_dense_groups(a), *_sparse_groups(bi, bv, bs), _dtype_of(a))


def _sparse_sparse(ai, av, as_, bi, bv, bs, set_operation="union"):
    return _combine(set_operation, *_sparse_groups(ai, av, as_), *_sparse_groups(bi, bv, bs),
                    _dtype_of(av))


def _set_size(indices, values, shape):
    lead, groups = _sparse_groups(indices, values, shape)
    out = np.zeros(lead, np.int32)
    for prefix, members in groups.items():
        out[prefix] = len(members)
    return out


register_op("DenseToDenseSetOperation", _dense_dense_infer, _dense_dense,
            kernel_attrs=("set_operation",))
register_op("DenseToSparseSetOperation", _dense_sparse_infer, _dense_sparse,
            kernel_attrs=("set_operation",))
register_op("SparseToSparseSetOperation", _sparse_sparse_infer, _sparse_sparse,
            kernel_attrs=("set_operation",))
register_op("SetSize", _set_size_infer, _set_size)
