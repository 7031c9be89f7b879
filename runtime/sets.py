"""``tf.sets``: intersection, union, difference and size of the sets along the last
dimension of dense or sparse tensors (graph ops in graph/ops/sets.py); results are
SparseTensors, as in TensorFlow."""
from __future__ import annotations

import graph.ops.sets  # noqa: F401  (registers the set ops)
from graph import dtypes
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.sparse import SparseTensor

__all__ = ["difference", "intersection", "size", "union"]

_SET_DTYPES = frozenset({dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8,
                         dtypes.uint16, dtypes.string})


def _operand(value, what: str):
    x = value if isinstance(value, SparseTensor) else convert_to_tensor(value)
    if x.dtype not in _SET_DTYPES:
        names = ", ".join(sorted(d.name for d in _SET_DTYPES))
        raise TypeError(f"'{what}' has invalid dtype `{x.dtype!r}` not in supported dtypes: "
                        f"{names}.")
    return x


def _set_operation(a, b, operation: str, validate_indices: bool) -> SparseTensor:
    a, b = _operand(a, "a"), _operand(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype!r} vs {b.dtype!r}.")
    if isinstance(a, SparseTensor) and not isinstance(b, SparseTensor):
        # (dense, sparse) is the op TensorFlow has: swap, and the difference with it
        a, b = b, a
        operation = {"a-b": "b-a", "b-a": "a-b"}.get(operation, operation)
    attrs = {"set_operation": operation, "validate_indices": bool(validate_indices)}
    if isinstance(a, SparseTensor):
        inputs = [a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape]
        op = "SparseToSparseSetOperation"
    elif isinstance(b, SparseTensor):
        inputs, op = [a, b.indices, b.values, b.dense_shape], "DenseToSparseSetOperation"
    else:
        inputs, op = [a, b], "DenseToDenseSetOperation"
    indices, values, shape = apply_op(op, inputs, attrs, name=op)
    return SparseTensor(indices, values, shape)


def intersection(a, b, validate_indices: bool = True) -> SparseTensor:
    """``tf.sets.intersection``: the values in both sets of each row."""
    return _set_operation(a, b, "intersection", validate_indices)


def union(a, b, validate_indices: bool = True) -> SparseTensor:
    """``tf.sets.union``: the values in either set of each row."""
    return _set_operation(a, b, "union", validate_indices)


def difference(a, b, aminusb: bool = True, validate_indices: bool = True) -> SparseTensor:
    """``tf.sets.difference``: a - b per row (b - a with ``aminusb=False``)."""
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


def size(a, validate_indices: bool = True):
    """``tf.sets.size``: how many distinct values each row of sparse ``a`` has (int32)."""
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a!r}.")
    _operand(a, "a")
    return apply_op("SetSize", [a.indices, a.values, a.dense_shape],
                    {"validate_indices": bool(validate_indices)}, name="SetSize")
