"""Gradients of sparse ops (graph/ops/sparse.py), as TensorFlow defines them.

A sparse tensor's gradient flows to its ``values`` (and to dense operands);
indices and shapes are integers and get none.
"""
from __future__ import annotations

from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op


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


NotDifferentiable("SparseFromDense", "SparseExpandDims", "SparseReorder", "SparseAdd",
                  "SparseConcat", "SparseSlice", "SparseReduceMax", "SparseReshape",
                  "SparseFillEmptyRows", "SparseSparseMaximum", "SparseSparseMinimum",
                  "SparseToVariant", "SparseToVariants", "SparseFromVariants")
