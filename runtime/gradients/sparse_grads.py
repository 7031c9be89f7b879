"""Gradients of sparse ops (graph/ops/sparse.py), as TensorFlow defines them.

A sparse tensor's gradient flows to its ``values`` (and to dense operands);
indices and shapes are integers and get none.
"""
from __future__ import annotations

from graph import dtypes
from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op, constant


@RegisterGradient("SparseToDense")
def _sparse_to_dense_grad(op, g):
    indices, _, values, _ = op.inputs
    grad_values = A.gather_nd(g, indices)
    if values.shape.rank == 0:  # one value broadcast to every index
        grad_values = M.reduce_sum(grad_values)
    return [None, None, grad_values, M.reduce_sum(g) - M.reduce_sum(grad_values)]


@RegisterGradient("SparseTensorDenseAdd")
def _sparse_dense_add_grad(op, g):
    return [None, A.gather_nd(g, op.inputs[0]), None, g]


@RegisterGradient("SparseTensorDenseMatMul")
def _sparse_dense_matmul_grad(op, g):
    """d/dB = A^T g (sparse product again); d/d values[k] = g[row_k] . B[col_k] (adjoints
    swap rows and columns)."""
    indices, values, shape, b = op.inputs
    adj_a, adj_b = op.attrs["adjoint_a"], op.attrs["adjoint_b"]
    grad_b = _matmul(indices, values, shape, g, not adj_a)
    if adj_b:
        grad_b = A.transpose(grad_b)
    rows = A.gather(indices, 1 if adj_a else 0, axis=1)
    cols = A.gather(indices, 0 if adj_a else 1, axis=1)
    b_rows = A.gather(A.transpose(b) if adj_b else b, cols)
    grad_values = M.reduce_sum(A.gather(g, rows) * b_rows, axis=1)
    return [None, grad_values, None, grad_b]


def _matmul(indices, values, shape, dense, adjoint_a):
    return apply_op("SparseTensorDenseMatMul", [indices, values, shape, dense],
                    {"adjoint_a": bool(adjoint_a), "adjoint_b": False})


@RegisterGradient("SparseReduceSum")
def _sparse_reduce_sum_grad(op, g):
    """Each entry gets the gradient of the output it was summed into."""
    indices, _, shape, axes = op.inputs
    dense = A.broadcast_to(_keepdims(g, shape, axes), shape)
    return [None, A.gather_nd(dense, indices), None, None]


def _keepdims(g, shape, axes):
    """``g`` reshaped with the reduced axes kept as size 1."""
    rank = A.size(shape)
    axes = (axes + M.cast(rank, axes.dtype)) % M.cast(rank, axes.dtype)
    ones = A.ones_like(axes, dtype=shape.dtype)
    kept = A.tensor_scatter_nd_update(shape, A.reshape(axes, [-1, 1]), A.reshape(ones, [-1]))
    return A.reshape(g, kept)


# -- the ops that move entries: each input value gets the gradient of the entry it became --

@RegisterGradient("SparseReorder")
def _sparse_reorder_grad(op, grad_indices, grad_values):
    """Entry ``k`` went to the position the reorder of the entry ids ``0..n-1`` puts ``k``."""
    indices, _, shape = op.inputs
    n = A.shape(indices, out_type=dtypes.int64)[0]
    ids = A.range(constant(0, dtype=dtypes.int64), n)
    _, order = apply_op("SparseReorder", [indices, ids, shape], name="SparseReorder")
    return [None, A.scatter_nd(A.reshape(order, [-1, 1]), grad_values, [n]), None]


@RegisterGradient("SparseAdd")
def _sparse_add_grad(op, grad_indices, grad_values, grad_shape):
    a_indices, b_indices, sum_indices = op.inputs[0], op.inputs[3], op.outputs[0]
    a_grad, b_grad = apply_op("SparseAddGrad", [grad_values, a_indices, b_indices, sum_indices],
                              name="SparseAddGrad")
    return [None, a_grad, None, None, b_grad, None, None]


@RegisterGradient("SparseSlice")
def _sparse_slice_grad(op, grad_indices, grad_values, grad_shape):
    indices, start, output_indices = op.inputs[0], op.inputs[3], op.outputs[0]
    grad = apply_op("SparseSliceGrad", [grad_values, indices, start, output_indices],
                    name="SparseSliceGrad")
    return [None, grad, None, None, None]


@RegisterGradient("SparseFillEmptyRows")
def _sparse_fill_empty_rows_grad(op, grad_indices, grad_values, grad_empty, grad_map):
    """The kept entries' gradients go back to their values, the rest to ``default_value``."""
    reverse_index_map = op.outputs[3]
    d_values = A.gather(grad_values, reverse_index_map)
    d_default = M.reduce_sum(grad_values) - M.reduce_sum(d_values)
    return [None, d_values, None, d_default]


NotDifferentiable("SparseFromDense", "SparseExpandDims", "SparseConcat", "SparseReshape",
                  "SparseSparseMaximum", "SparseSparseMinimum",
                  "SparseToVariant", "SparseToVariants", "SparseFromVariants", "EditDistance")
