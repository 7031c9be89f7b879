"""More of ``tf.linalg``: the LU factorization and what TensorFlow builds on it in Python
(``lu_solve``, ``lu_reconstruct``, ``lu_matrix_inverse``), ``sqrtm``, ``matrix_rank``,
``normalize``, the tridiagonal solve and product, ``tensor_diag`` / ``tensor_diag_part``.

``Lu`` and ``MatrixSquareRoot`` are graph ops (graph/ops/linalg.py); the rest compose
existing ops. The tridiagonal ops build the dense matrix and use ``solve`` / ``matmul``:
the same results as TensorFlow's dedicated kernels, with gradients from the ops they
use. As in TensorFlow, ``Lu`` has no gradient; ``sqrtm``'s solves the Sylvester
equation S^H X + X S^H = G (as a Kronecker system: small matrices).
"""
from __future__ import annotations

import collections

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from runtime.gradients.registry import RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops.complex_ops import conj
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.linalg_ops import (adjoint, band_part, diag, diag_part, einsum,
                                    matrix_transpose, norm, set_diag, solve, svd,
                                    triangular_solve)
from runtime.ops.nn_ops import l2_normalize  # noqa: F401  (tf.linalg.l2_normalize)
from runtime.tensor import Tensor

__all__ = ["matrix_square_root"]  # the name TensorFlow also has at top level (tf.X)

Lu = collections.namedtuple("Lu", ["lu", "p"])


def lu(input, output_idx_type=dtypes.int32, name=None) -> Lu:  # noqa: A002
    """``tf.linalg.lu``: P A = L U with partial pivoting, L (unit diagonal) and U packed
    in ``lu``, the permutation as row indices ``p``."""
    x = convert_to_tensor(input)
    packed, perm = apply_op("Lu", [x], {"output_idx_type": as_dtype(output_idx_type)},
                            name=name or "Lu")
    return Lu(packed, perm)


def _factors(lower_upper: Tensor):
    """(L with its unit diagonal, U) from the packed factorization."""
    lower = set_diag(band_part(lower_upper, -1, 0),
                     A.ones_like(diag_part(lower_upper)))
    return lower, band_part(lower_upper, 0, -1)


def _permutation_matrix(perm: Tensor, dtype) -> Tensor:
    """P with P[i, perm[i]] = 1, so that P A takes row perm[i] of A to row i."""
    return A.one_hot(perm, A.shape(perm)[-1], dtype=dtype)


def lu_reconstruct(lower_upper, perm, validate_args: bool = False, name=None) -> Tensor:
    """``tf.linalg.lu_reconstruct``: A = P^T L U from ``lu``'s outputs."""
    lower_upper = convert_to_tensor(lower_upper)
    lower, upper = _factors(lower_upper)
    return M.matmul(_permutation_matrix(convert_to_tensor(perm), lower_upper.dtype),
                    M.matmul(lower, upper), transpose_a=True, name=name or "lu_reconstruct")


def lu_solve(lower_upper, perm, rhs, validate_args: bool = False, name=None) -> Tensor:
    """``tf.linalg.lu_solve``: X with A X = rhs, by two triangular solves of P rhs."""
    lower_upper = convert_to_tensor(lower_upper)
    rhs = convert_to_tensor(rhs, dtype=lower_upper.dtype)
    lower, upper = _factors(lower_upper)
    permuted = M.matmul(_permutation_matrix(convert_to_tensor(perm), lower_upper.dtype), rhs)
    y = triangular_solve(lower, permuted, lower=True)
    return triangular_solve(upper, y, lower=False, name=name or "lu_solve")


def lu_matrix_inverse(lower_upper, perm, validate_args: bool = False, name=None) -> Tensor:
    """``tf.linalg.lu_matrix_inverse``: A^-1 from ``lu``'s outputs."""
    lower_upper = convert_to_tensor(lower_upper)
    n = A.shape(lower_upper)[-1]
    eye = A.eye(n, batch_shape=A.shape(lower_upper)[:-2], dtype=lower_upper.dtype)
    return lu_solve(lower_upper, perm, eye, name=name or "lu_matrix_inverse")


def sqrtm(input, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.sqrtm``: the principal square root S (S S = A) of each matrix; nan for
    a real matrix without a real principal root."""
    return apply_op("MatrixSquareRoot", [convert_to_tensor(input)],
                    name=name or "MatrixSquareRoot")


matrix_square_root = sqrtm  # tf.matrix_square_root


@RegisterGradient("MatrixSquareRoot")
def _sqrtm_grad(op, g):
    # dS solves S dS + dS S = dA, so the gradient X solves S^H X + X S^H = G; with rows
    # flattened, vec(M X) = (M kron I) vec(X) and vec(X M) = (I kron M^T) vec(X).
    s_h = adjoint(op.outputs[0])
    n = A.shape(s_h)[-1]
    eye = A.eye(n, dtype=s_h.dtype)
    system = M.add(einsum("...ik,jl->...ijkl", s_h, eye),
                   einsum("ik,...lj->...ijkl", eye, s_h))
    batch = A.shape(s_h)[:-2]
    flat = A.reshape(system, A.concat([batch, [n * n, n * n]], 0))
    x = solve(flat, A.reshape(g, A.concat([batch, [n * n, 1]], 0)))
    return [A.reshape(x, A.shape(g))]


def matrix_rank(a, tol=None, validate_args: bool = False, name=None) -> Tensor:
    """``tf.linalg.matrix_rank``: how many singular values exceed ``tol`` (default
    max(s) * max(rows, cols) * eps)."""
    a = convert_to_tensor(a)
    s = svd(a, compute_uv=False)
    if tol is None:
        eps = float(np.finfo(s.dtype.numpy_dtype).eps)
        dims = A.shape(a)[-2:]
        size = M.cast(M.reduce_max(dims), s.dtype)
        tol = M.multiply(M.multiply(M.reduce_max(s, axis=-1, keepdims=True), size), eps)
    else:
        tol = convert_to_tensor(tol, dtype=s.dtype)
    return M.reduce_sum(M.cast(M.greater(s, tol), dtypes.int32), axis=-1,
                        name=name or "matrix_rank")


def normalize(tensor, ord="euclidean", axis=None, name=None):  # noqa: A002
    """``tf.linalg.normalize``: (tensor / its norm, the norm kept with reduced dims)."""
    x = convert_to_tensor(tensor)
    n = norm(x, ord=ord, axis=axis, keepdims=True)
    return M.divide(x, M.cast(n, x.dtype), name=name or "normalize"), n


# -- tridiagonal systems --------------------------------------------------------------------------

def _tridiagonal_dense(diagonals, diagonals_format: str) -> Tensor:
    """The dense matrices of tridiagonal ``diagonals`` in TensorFlow's formats:
    ``compact`` [..., 3, M] (superdiagonal, diagonal, subdiagonal; super[-1] and
    sub[0] unused), ``sequence`` (the three as a tuple), ``matrix`` [..., M, M]."""
    if diagonals_format == "matrix":
        return convert_to_tensor(diagonals)
    if diagonals_format == "compact":
        d = convert_to_tensor(diagonals)
        if d.shape.rank is not None and (d.shape.rank < 2 or d.shape[-2] not in (None, 3)):
            raise ValueError(f"Expected diagonals to have shape [..., 3, M], got {d.shape}")
        upper, main, lower = d[..., 0, :], d[..., 1, :], d[..., 2, :]
    elif diagonals_format == "sequence":
        if not isinstance(diagonals, (list, tuple)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        upper = convert_to_tensor(diagonals[0])
        main = convert_to_tensor(diagonals[1], dtype=upper.dtype)
        lower = convert_to_tensor(diagonals[2], dtype=upper.dtype)
    else:
        raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")
    return M.add(M.add(diag(main), diag(upper[..., :-1], k=1)), diag(lower[..., 1:], k=-1))


def tridiagonal_solve(diagonals, rhs, diagonals_format: str = "compact",
                      transpose_rhs: bool = False, conjugate_rhs: bool = False, name=None,
                      partial_pivoting: bool = True, perturb_singular: bool = False) -> Tensor:
    """``tf.linalg.tridiagonal_solve``: X with T X = rhs; ``rhs`` [..., M, K] or [..., M]
    (``transpose_rhs``: [..., K, M])."""
    matrix = _tridiagonal_dense(diagonals, diagonals_format)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    if conjugate_rhs:
        rhs = conj(rhs)
    vector = rhs.shape.rank is not None and rhs.shape.rank == matrix.shape.rank - 1 \
        and not transpose_rhs
    if vector:
        rhs = A.expand_dims(rhs, -1)
    elif transpose_rhs:
        rhs = matrix_transpose(rhs)
    x = solve(matrix, rhs)
    return A.squeeze(x, [-1], name=name or "tridiagonal_solve") if vector else x


def tridiagonal_matmul(diagonals, rhs, diagonals_format: str = "compact", name=None) -> Tensor:
    """``tf.linalg.tridiagonal_matmul``: T @ rhs for rhs [..., M, N]."""
    matrix = _tridiagonal_dense(diagonals, diagonals_format)
    rhs = convert_to_tensor(rhs, dtype=matrix.dtype)
    if rhs.shape.rank is not None and matrix.shape.rank is not None \
            and rhs.shape.rank != matrix.shape.rank:
        raise InvalidArgumentError(message="All input tensors must have the same rank.")
    return M.matmul(matrix, rhs, name=name or "tridiagonal_matmul")


# -- tensor diagonals ---------------------------------------------------------------------------------

def tensor_diag(diagonal, name=None) -> Tensor:
    """``tf.linalg.tensor_diag``: output[i1..ik, i1..ik] = diagonal[i1..ik], zero elsewhere."""
    d = convert_to_tensor(diagonal)
    shape = A.shape(d)
    return A.reshape(diag(A.reshape(d, [-1])), A.concat([shape, shape], 0),
                     name=name or "Diag")


def tensor_diag_part(input, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.tensor_diag_part``: the inverse of ``tensor_diag`` for an input of
    shape [D1..Dk, D1..Dk]."""
    x = convert_to_tensor(input)
    rank = x.shape.rank
    if rank is None:
        raise ValueError("tensor_diag_part needs an input of known rank")
    dims = x.shape.as_list()
    half = rank // 2
    if rank % 2 or any(a is not None and b is not None and a != b
                       for a, b in zip(dims[:half], dims[half:])):
        raise InvalidArgumentError(message=f"Invalid shape {x.shape}: dimensions do not match "
                                           f"(expected [D1..Dk, D1..Dk], rank {rank})")
    inner = A.shape(x)[:half]
    n = M.reduce_prod(inner)
    return A.reshape(diag_part(A.reshape(x, A.stack([n, n]))), inner, name=name or "DiagPart")
