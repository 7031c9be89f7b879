"""``tf.linalg`` ops under TensorFlow's names.

The decompositions, solves, determinants, einsum and the diagonal ops
record their own graph ops (``graph/ops/linalg.py``); the rest are written
as TensorFlow writes them in Python, as compositions of other ops
(``logdet`` from a Cholesky factor, ``lstsq`` from the normal equations,
``norm``, ``tensordot``, ``pinv``...), so their gradients come for free.
"""
from __future__ import annotations

import builtins
import collections

import numpy as np

from graph import dtypes
from graph.ops.linalg import parse_einsum
from runtime.ops import array_ops as A
from runtime.ops.array_ops import global_norm  # noqa: F401  (tf.linalg.global_norm)
from runtime.ops import math_ops as M
from runtime.ops.complex_ops import conj
from runtime.ops.control_flow import cond
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor

__all__ = ["eig", "eigvals", "einsum", "norm", "tensordot"]  # the names TensorFlow also has at top level (tf.X)

Qr = collections.namedtuple("Qr", ["q", "r"])
LogMatrixDeterminant = collections.namedtuple("LogMatrixDeterminant",
                                              ["sign", "log_abs_determinant"])


def _pair(a, b, name: str) -> tuple[Tensor, Tensor]:
    return M.operands(a, b, name)


# -- inverse, determinants ---------------------------------------------------------------

def inv(input, adjoint: bool = False, name=None) -> Tensor:  # noqa: A002  (TF's names)
    """``tf.linalg.inv``: the inverse of each square matrix (of its adjoint with ``adjoint``)."""
    return apply_op("MatrixInverse", [convert_to_tensor(input)], {"adjoint": bool(adjoint)},
                    name=name or "MatrixInverse")


def det(input, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.det``: the determinant of each square matrix (shape: the batch shape)."""
    return apply_op("MatrixDeterminant", [convert_to_tensor(input)],
                    name=name or "MatrixDeterminant")


def slogdet(input, name=None) -> LogMatrixDeterminant:  # noqa: A002
    """``tf.linalg.slogdet``: ``(sign, log|det|)``, stable where det over/underflows."""
    sign, log_abs = apply_op("LogMatrixDeterminant", [convert_to_tensor(input)],
                             name=name or "LogMatrixDeterminant")
    return LogMatrixDeterminant(sign, log_abs)


def logdet(matrix, name=None) -> Tensor:
    """``tf.linalg.logdet`` of Hermitian positive definite matrices: twice the log of the
    Cholesky factor's diagonal, summed (NaN when the matrix is not positive definite)."""
    chol = cholesky(matrix)
    return M.multiply(2.0, M.reduce_sum(M.log(diag_part(chol)), axis=-1), name=name or "logdet")


# -- Cholesky and solves ----------------------------------------------------------------------

def cholesky(input, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.cholesky``: the lower factor L with ``L L^H = input`` (reads the lower
    triangle); a matrix that is not positive definite gives NaNs, as in TensorFlow 2.21."""
    return apply_op("Cholesky", [convert_to_tensor(input)], name=name or "Cholesky")


def cholesky_solve(chol, rhs, name=None) -> Tensor:
    """``tf.linalg.cholesky_solve``: solves ``A X = rhs`` given A's Cholesky factor."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True, name=name)


def solve(matrix, rhs, adjoint: bool = False, name=None) -> Tensor:
    """``tf.linalg.solve``: ``X`` with ``matrix X = rhs``; equal ranks, no broadcasting."""
    a, b = _pair(matrix, rhs, "MatrixSolve")
    return apply_op("MatrixSolve", [a, b], {"adjoint": bool(adjoint)}, name=name or "MatrixSolve")


def triangular_solve(matrix, rhs, lower: bool = True, adjoint: bool = False,
                     name=None) -> Tensor:
    """``tf.linalg.triangular_solve``: reads only the lower (or upper) triangle; batch
    dimensions broadcast."""
    a, b = _pair(matrix, rhs, "MatrixTriangularSolve")
    return apply_op("MatrixTriangularSolve", [a, b],
                    {"lower": bool(lower), "adjoint": bool(adjoint)},
                    name=name or "MatrixTriangularSolve")


def lstsq(matrix, rhs, l2_regularizer=0.0, fast: bool = True, name=None) -> Tensor:
    """``tf.linalg.lstsq``: least squares. ``fast`` solves the (regularized) normal
    equations through a Cholesky factor, as TensorFlow composes it; ``fast=False`` is the
    minimum-norm solution of the MatrixSolveLs op."""
    a, b = _pair(matrix, rhs, "MatrixSolveLs")
    if not fast:
        l2 = convert_to_tensor(l2_regularizer, dtype=dtypes.float64)
        return apply_op("MatrixSolveLs", [a, b, l2], {"fast": False}, name=name or "MatrixSolveLs")
    l2 = None
    if isinstance(l2_regularizer, Tensor) or float(l2_regularizer) != 0:
        l2 = M.cast(l2_regularizer, a.dtype)
    rows, cols = _matrix_size(a)
    if isinstance(rows, int) and isinstance(cols, int):
        return _normal_equations(a, b, l2, rows >= cols, name)
    return cond(M.greater_equal(rows, cols), lambda: _normal_equations(a, b, l2, True, name),
                lambda: _normal_equations(a, b, l2, False, name))


def _matrix_size(a: Tensor):
    """The last two dimensions: ints when known statically, else int32 tensors."""
    dims = a.shape.as_tuple()[-2:] if a.shape.rank is not None else (None, None)
    if None not in dims:
        return dims
    shape = A.shape(a)
    return shape[-2], shape[-1]


def _normal_equations(a: Tensor, b: Tensor, l2, overdetermined: bool, name) -> Tensor:
    """Least squares through the Cholesky factor of ``A^H A`` (or ``A A^H`` when wide)."""
    gramian = M.matmul(a, a, adjoint_a=overdetermined, adjoint_b=not overdetermined)
    if l2 is not None:
        n = A.shape(gramian)[-1] if gramian.shape[-1] is None else gramian.shape[-1]
        gramian = M.add(gramian, M.multiply(l2, A.eye(n, dtype=a.dtype)))
    chol = cholesky(gramian)
    if overdetermined:
        return cholesky_solve(chol, M.matmul(a, b, adjoint_a=True), name=name)
    return M.matmul(a, cholesky_solve(chol, b), adjoint_a=True, name=name)


# -- decompositions ----------------------------------------------------------------------------

def qr(input, full_matrices: bool = False, name=None) -> Qr:  # noqa: A002
    """``tf.linalg.qr``: ``Qr(q, r)``; reduced unless ``full_matrices``."""
    q, r = apply_op("Qr", [convert_to_tensor(input)], {"full_matrices": bool(full_matrices)},
                    name=name or "Qr")
    return Qr(q, r)


def svd(tensor, full_matrices: bool = False, compute_uv: bool = True, name=None):
    """``tf.linalg.svd``: ``s`` (descending), or ``(s, u, v)`` with ``a = u diag(s) v^H``
    (TensorFlow's order, and ``v``, not ``v^H``)."""
    s, u, v = apply_op("Svd", [convert_to_tensor(tensor)],
                       {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)},
                       name=name or "Svd")
    return (s, u, v) if compute_uv else s


def eigh(tensor, name=None) -> tuple[Tensor, Tensor]:
    """``tf.linalg.eigh``: eigenvalues (ascending) and eigenvectors of self-adjoint
    matrices, reading the lower triangle."""
    return apply_op("SelfAdjointEigV2", [convert_to_tensor(tensor)], {"compute_v": True},
                    name=name or "SelfAdjointEigV2")


def eigvalsh(tensor, name=None) -> Tensor:
    """``tf.linalg.eigvalsh``: the eigenvalues of ``eigh`` only."""
    e, _ = apply_op("SelfAdjointEigV2", [convert_to_tensor(tensor)], {"compute_v": False},
                    name=name or "SelfAdjointEigV2")
    return e


def _eig(tensor, compute_v: bool, name):
    x = convert_to_tensor(tensor)
    if not (x.dtype.is_complex or x.dtype in (dtypes.float32, dtypes.float64)):
        raise TypeError(f"tf.linalg.eig takes float32, float64, complex64 or complex128 "
                        f"matrices, got {x.dtype.name}")
    out = dtypes.complex128 if x.dtype.real_dtype is dtypes.float64 else dtypes.complex64
    return apply_op("Eig", [x], {"Tout": out, "compute_v": compute_v}, name=name or "Eig")


def eig(tensor, name=None) -> tuple[Tensor, Tensor]:
    """``tf.linalg.eig``: complex eigenvalues and unit-norm eigenvectors (columns) of
    general square matrices."""
    return tuple(_eig(tensor, True, name))


def eigvals(tensor, name=None) -> Tensor:
    """``tf.linalg.eigvals``: the eigenvalues of ``eig`` only."""
    return _eig(tensor, False, name)[0]


def expm(input, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.expm``: the matrix exponential (Pade approximant with scaling and
    squaring)."""
    x = convert_to_tensor(input)
    if not x.dtype.is_floating:
        raise ValueError(f"tf.linalg.expm does not support matrices of type {x.dtype!r}")
    return apply_op("MatrixExponential", [x], name=name or "MatrixExponential")


def pinv(a, rcond=None, validate_args: bool = False, name=None) -> Tensor:
    """``tf.linalg.pinv``: the Moore-Penrose pseudo-inverse from an SVD; singular values
    below ``rcond * max(s)`` count as zero (default ``10 * max(rows, cols) * eps``)."""
    a = convert_to_tensor(a)
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}).")
    if rcond is None:
        eps = float(np.finfo(a.dtype.numpy_dtype).eps)
        rows, cols = _matrix_size(a)
        if isinstance(rows, int) and isinstance(cols, int):
            rcond = 10.0 * builtins.max(rows, cols) * eps
        else:
            rcond = M.multiply(M.cast(M.maximum(rows, cols), a.dtype), 10.0 * eps)
    s, u, v = svd(a, full_matrices=False, compute_uv=True)
    cutoff = M.multiply(M.cast(rcond, a.dtype) if isinstance(rcond, Tensor) else rcond,
                        M.reduce_max(s, axis=-1, keepdims=True))
    large = M.greater(s, cutoff)
    s_inv = M.where(large, M.truediv(1.0, M.where(large, s, A.ones_like(s))), A.zeros_like(s))
    return M.matmul(M.multiply(v, A.expand_dims(s_inv, -2)), u, adjoint_b=True,
                  name=name or "pinv")


# -- products -----------------------------------------------------------------------------------

def matvec(a, b, transpose_a: bool = False, adjoint_a: bool = False,
           a_is_sparse: bool = False, b_is_sparse: bool = False, name=None) -> Tensor:
    """``tf.linalg.matvec``: ``a @ b`` for (batches of) matrices ``a`` and vectors ``b``."""
    a, b = _pair(a, b, "MatVec")
    product = M.matmul(a, A.expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return A.squeeze(product, axis=-1, name=name)


def einsum(equation: str, *inputs, **kwargs) -> Tensor:
    """``tf.einsum``: numpy's notation (``...`` broadcasts; implicit output = the labels
    used once, sorted); a label must have the same size in every input."""
    name = kwargs.pop("name", None)
    kwargs.pop("optimize", None)
    if kwargs:
        raise TypeError(f"Invalid keyword arguments for einsum: {', '.join(kwargs)}")
    tensors = [convert_to_tensor(x) for x in inputs]
    parse_einsum(equation, len(tensors))  # TensorFlow's ValueErrors before any op
    return apply_op("Einsum", tensors, {"equation": equation}, name=name or "einsum")


def tensordot(a, b, axes, name=None) -> Tensor:
    """``tf.tensordot``: contracts ``a``'s axes with ``b``'s as one matrix product
    (transpose, reshape, MatMul, reshape), as TensorFlow writes it."""
    a, b = _pair(a, b, "Tensordot")
    a_axes, b_axes = _tensordot_axes(a, b, axes)
    a_matrix, a_free = _tensordot_reshape(a, a_axes, contract_last=True)
    b_matrix, b_free = _tensordot_reshape(b, b_axes, contract_last=False)
    product = M.matmul(a_matrix, b_matrix)
    if isinstance(a_free, list) and isinstance(b_free, list):
        return A.reshape(product, a_free + b_free, name=name or "Tensordot")
    shape = A.concat([_as_int_tensor(a_free), _as_int_tensor(b_free)], 0)
    return A.reshape(product, shape, name=name or "Tensordot")


def _as_int_tensor(dims) -> Tensor:
    return dims if isinstance(dims, Tensor) else convert_to_tensor(dims, dtype=dtypes.int32)


def _tensordot_axes(a: Tensor, b: Tensor, axes):
    if isinstance(axes, (int, np.integer)):
        axes = int(axes)
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        rank = a.shape.rank
        if rank is None:
            raise ValueError("tf.tensordot with an integer `axes` needs `a` of known rank")
        if axes > rank:
            raise ValueError(f"`axes` must not be larger than the number of dimensions of "
                             f"tensor {a}.  Received {axes}, vs tensor dimensions {rank}.")
        return list(range(rank - axes, rank)), list(range(axes))
    if isinstance(axes, Tensor):
        axes = np.asarray(axes.numpy()).tolist()
    if not isinstance(axes, (list, tuple)) or len(axes) != 2:
        raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
    a_axes, b_axes = axes
    if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
        a_axes, b_axes = [a_axes], [b_axes]
    a_axes, b_axes = [int(i) for i in a_axes], [int(i) for i in b_axes]
    if len(a_axes) != len(b_axes):
        raise ValueError(f"Different number of contraction axes `a` and `b`, "
                         f"{len(a_axes)} != {len(b_axes)}.")
    return a_axes, b_axes


def _tensordot_reshape(x: Tensor, axes: list[int], contract_last: bool):
    """``x`` as a matrix with the contracted axes last (or first), and its free dims
    (a list when known statically, else an int32 tensor)."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError("tf.tensordot needs inputs of known rank")
    axes = [i + rank if i < 0 else i for i in axes]
    free = [i for i in range(rank) if i not in axes]
    dims = x.shape.as_tuple()
    free_dims, axes_dims = [dims[i] for i in free], [dims[i] for i in axes]
    perm = free + axes if contract_last else axes + free
    moved = A.transpose(x, perm) if perm != list(range(rank)) else x
    if None not in free_dims and None not in axes_dims:
        n_free, n_axes = int(np.prod(free_dims)), int(np.prod(axes_dims))
        return A.reshape(moved, [n_free, n_axes] if contract_last else [n_axes, n_free]), \
            free_dims
    free_t = A.gather(A.shape(x), free)
    n_free = M.reduce_prod(free_t)
    return A.reshape(moved, A.stack([n_free, -1] if contract_last else [-1, n_free])), free_t


def cross(a, b, name=None) -> Tensor:
    """``tf.linalg.cross``: pairwise cross products of 3-vectors (same shapes, no
    broadcasting)."""
    a, b = _pair(a, b, "Cross")
    return apply_op("Cross", [a, b], name=name or "Cross")


# -- transposes, diagonals, bands ----------------------------------------------------------------

def matrix_transpose(a, name: str = "matrix_transpose", conjugate: bool = False) -> Tensor:
    """``tf.linalg.matrix_transpose``: swaps the last two dimensions."""
    x = convert_to_tensor(a)
    rank = x.shape.rank
    if rank is not None:
        if rank < 2:
            raise ValueError(f"Argument `a` should be a (batch) matrix with rank >= 2.  "
                             f"Received `a` = {x} with shape: {x.shape}")
        perm = list(range(rank - 2)) + [rank - 1, rank - 2]
    else:
        r = A.rank(x)
        perm = A.concat([A.range(M.subtract(r, 2)), A.stack([M.subtract(r, 1),
                                                           M.subtract(r, 2)])], 0)
    return A.transpose(x, perm, conjugate=conjugate, name=name)


def adjoint(matrix, name=None) -> Tensor:
    """``tf.linalg.adjoint``: the conjugate transpose of the last two dimensions."""
    return matrix_transpose(matrix, name=name or "adjoint", conjugate=True)


def _k_tensor(k) -> Tensor:
    return convert_to_tensor(k, dtype_hint=dtypes.int32)


def _padding(value, dtype) -> Tensor:
    """A padding value in ``dtype``: a Python number is cast, as TensorFlow casts it (the
    default 0 pads a bool matrix with False)."""
    if isinstance(value, (bool, int, float)) and not dtype.is_string:
        value = np.asarray(value).astype(dtype.numpy_dtype)
    return convert_to_tensor(value, dtype=dtype)


def diag(diagonal, name: str = "diag", k=0, num_rows=-1, num_cols=-1, padding_value=0,
         align: str = "RIGHT_LEFT") -> Tensor:
    """``tf.linalg.diag``: matrices with ``diagonal`` on diagonal ``k`` (or the band of
    diagonals ``k = (lo, hi)``), ``padding_value`` elsewhere."""
    d = convert_to_tensor(diagonal)
    pad = _padding(padding_value, d.dtype)
    rows = convert_to_tensor(num_rows, dtype_hint=dtypes.int32)
    cols = convert_to_tensor(num_cols, dtype_hint=dtypes.int32)
    return apply_op("MatrixDiagV3", [d, _k_tensor(k), rows, cols, pad], {"align": align},
                    name=name)


def diag_part(input, name: str = "diag_part", k=0, padding_value=0,  # noqa: A002
              align: str = "RIGHT_LEFT") -> Tensor:
    """``tf.linalg.diag_part``: diagonal ``k`` of each matrix (a band of diagonals for
    ``k = (lo, hi)``, shorter ones padded)."""
    x = convert_to_tensor(input)
    pad = convert_to_tensor(padding_value, dtype=x.dtype)
    return apply_op("MatrixDiagPartV3", [x, _k_tensor(k), pad], {"align": align}, name=name)


def set_diag(input, diagonal, name: str = "set_diag", k=0,  # noqa: A002
             align: str = "RIGHT_LEFT") -> Tensor:
    """``tf.linalg.set_diag``: ``input`` with diagonal ``k`` replaced by ``diagonal``."""
    x, d = _pair(input, diagonal, name)
    return apply_op("MatrixSetDiagV3", [x, d, _k_tensor(k)], {"align": align}, name=name)


def band_part(input, num_lower, num_upper, name=None) -> Tensor:  # noqa: A002
    """``tf.linalg.band_part``: keeps ``num_lower`` sub- and ``num_upper`` super-diagonals
    (negative: all of them), zeros the rest."""
    x = convert_to_tensor(input)
    lower = convert_to_tensor(num_lower, dtype_hint=dtypes.int64)
    upper = convert_to_tensor(num_upper, dtype_hint=dtypes.int64)
    return apply_op("MatrixBandPart", [x, lower, upper], name=name or "MatrixBandPart")


def trace(x, name=None) -> Tensor:
    """``tf.linalg.trace``: the sum of each matrix's main diagonal."""
    return M.reduce_sum(diag_part(x), axis=-1, name=name or "trace")


# -- norms -----------------------------------------------------------------------------------

_VECTOR_NORMS = ("euclidean", 1, 2, np.inf)
_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]


def _is_int(v) -> bool:
    return isinstance(v, (int, np.integer)) and not isinstance(v, bool)


def _check_norm_args(ord, axis):
    """``axis`` as None or a tuple; TensorFlow's ValueErrors for bad ``ord``/``axis``."""
    bad_axis = ValueError(f"'axis' must be None, an integer, or a tuple of 2 unique "
                          f"integers, got {axis}")
    if isinstance(axis, (tuple, list)) and len(axis) == 2:
        if not (_is_int(axis[0]) and _is_int(axis[1])) or axis[0] == axis[1]:
            raise bad_axis
        if not any(_same_ord(ord, o) for o in _MATRIX_NORMS):
            raise ValueError(f"'ord' must be a supported matrix norm in {_MATRIX_NORMS}, "
                             f"got {ord}")
        return tuple(int(a) for a in axis), True
    if not (axis is None or _is_int(axis)):
        raise bad_axis
    positive = isinstance(ord, (int, float, np.integer, np.floating)) and \
        not isinstance(ord, bool) and ord > 0
    if not positive and not any(_same_ord(ord, o) for o in _VECTOR_NORMS):
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return (None if axis is None else (int(axis),)), False


def _same_ord(ord, supported) -> bool:
    if isinstance(ord, str) or isinstance(supported, str):
        return ord == supported
    return not isinstance(ord, bool) and ord == supported


def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None) -> Tensor:  # noqa: A002
    """``tf.norm`` / ``tf.linalg.norm``: vector p-norms (any p > 0) over ``axis`` (None:
    the whole tensor as a vector), matrix norms (fro, 1, 2, inf) over two axes."""
    axis, is_matrix = _check_norm_args(ord, axis)
    x = convert_to_tensor(tensor)
    keepdims = bool(keepdims)
    if is_matrix and _same_ord(ord, 2):
        return _matrix_2_norm(x, axis, keepdims, name)
    if ord in ("euclidean", "fro") or _same_ord(ord, 2):
        result = M.sqrt(M.reduce_sum(M.multiply(x, conj(x)), axis, keepdims=True))
    else:
        result = M.abs(x)
        if _same_ord(ord, 1):
            result = M.reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix:
                result = M.reduce_max(result, axis[-1], keepdims=True)
        elif _same_ord(ord, np.inf):
            if is_matrix:
                result = M.reduce_sum(result, axis[1], keepdims=True)
            result = M.reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:
            p = float(ord)
            result = M.pow(M.reduce_sum(M.pow(result, p), axis, keepdims=True), 1.0 / p)
    if not keepdims:
        result = A.squeeze(result, axis)
    return A.identity(result, name=name or "norm")


def _matrix_2_norm(x: Tensor, axis: tuple, keepdims: bool, name) -> Tensor:
    """The largest singular value over the two ``axis`` dimensions."""
    rank = x.shape.rank
    if rank is None:
        raise ValueError("tf.norm with ord=2 over two axes needs an input of known rank")
    axes = [a + rank if a < 0 else a for a in axis]
    perm = [i for i in range(rank) if i not in axes] + axes
    s = svd(A.transpose(x, perm) if perm != list(range(rank)) else x, compute_uv=False)
    result = M.reduce_max(s, axis=-1)
    if keepdims:
        for a in sorted(axes):
            result = A.expand_dims(result, a)
    return A.identity(result, name=name or "norm")
