"""Gradients of the ragged ops (graph/ops/ragged.py), for the values of ragged tensors.

Row partitions are integers and get no gradient; the values' gradient of a
per-row reduction is the row's gradient gathered back to each value (by its
row id, or its position in the row for a reduction across rows), and the one
of ``RaggedToDense`` is the padded gradient read back at the values'
positions (``RaggedDenseValues``, an IndexedSlices as TensorFlow's), the rest going to
``default_value``.
"""
from __future__ import annotations

from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op
from runtime.ops.type_ops import IndexedSlices

NotDifferentiable("RaggedRowSplitsFromLengths", "RaggedRowSplitsFromRowIds",
                  "RaggedSplitsToRowIds", "RaggedTensorToString", "RaggedRange",
                  "RaggedToVariant", "RaggedFromVariants", "RaggedCross", "RaggedReduceJoin")


def _segment_ids(splits, axis: str):
    """For each value: its row (``axis`` "rows") or its position in its row ("columns")."""
    rowids = apply_op("RaggedSplitsToRowIds", [splits], name="RaggedValueRowIds")
    if axis == "rows":
        return rowids
    n = A.shape(rowids, out_type=splits.dtype)[0]
    return A.range(M.cast(0, splits.dtype), n) - A.gather(splits, rowids)


@RegisterGradient("RaggedReduce")
def _ragged_reduce_grad(op, g):
    data, splits = op.inputs
    reducer, axis = op.attrs["reducer"], op.attrs["axis"]
    ids = _segment_ids(splits, axis)
    spread = A.gather(g, ids)
    if reducer == "sum":
        return [spread, None]
    out = A.gather(op.outputs[0], ids)
    if reducer == "prod":
        return [spread * out / data, None]
    # max / min: the gradient is shared by the values equal to the result, as TensorFlow does
    chosen = M.cast(M.equal(data, out), data.dtype)
    ties = apply_op("RaggedReduce", [chosen, splits], {"reducer": "sum", "axis": axis},
                    name="RaggedReduceTies")
    return [spread * chosen / A.gather(ties, ids), None]


@RegisterGradient("RaggedToDense")
def _ragged_to_dense_grad(op, g):
    values, default, splits = op.inputs[0], op.inputs[1], list(op.inputs[2:])
    values_grad = apply_op("RaggedDenseValues", [g, *splits], name="RaggedDenseValues")
    mask = apply_op("RaggedToDense", [A.ones_like(values), A.zeros_like(default), *splits],
                    {"shape": op.attrs.get("shape")}, name="RaggedMask")
    padded = g * (M.cast(1, g.dtype) - mask)
    lead = padded.shape.rank - (default.shape.rank or 0) if padded.shape.rank is not None \
        else None
    if default.shape.rank == 0 or lead is None:
        default_grad = M.reduce_sum(padded)
    else:
        default_grad = M.reduce_sum(padded, axis=list(range(lead)))
    # TensorFlow gives the values an IndexedSlices gradient (int32 indices of the values)
    shape = A.shape(values)
    values_grad = IndexedSlices(values_grad, A.range(shape[0]), shape)
    return [values_grad, default_grad] + [None] * len(splits)


def _scatter_back(dense, splits, g):
    """Values' gradient ``g`` put at their places in zeros shaped like ``dense``."""
    shape = dense.shape if dense.shape.is_fully_defined() else None
    back = apply_op("RaggedToDense", [g, M.cast(0, g.dtype), *splits], {"shape": shape},
                    name="RaggedToDense")
    if shape is None:  # ``dense`` may be larger than the values' bounding shape
        grow = A.shape(dense, out_type=splits[0].dtype) - A.shape(back, out_type=splits[0].dtype)
        back = A.pad(back, A.stack([A.zeros_like(grow), grow], axis=1))
    return back


@RegisterGradient("RaggedDenseValues")
def _ragged_dense_values_grad(op, g):
    splits = list(op.inputs[1:])
    return [_scatter_back(op.inputs[0], splits, g)] + [None] * len(splits)


@RegisterGradient("RaggedFromDense")
def _ragged_from_dense_grad(op, g, *splits_grads):
    back = _scatter_back(op.inputs[0], list(op.outputs[1:]), g)
    return [back] + [None] * (len(op.inputs) - 1)


@RegisterGradient("RaggedToSparse")
def _ragged_to_sparse_grad(op, g_indices, g_values, g_shape):
    rest = [None] * (len(op.inputs) - 1)
    if g_values is None:
        return [None] + rest
    return [A.reshape(g_values, A.shape(op.inputs[0]))] + rest
