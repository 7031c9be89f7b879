"""Lowerings of linear-algebra ops (graph/ops/linalg.py): jnp.linalg / jax.scipy.linalg.

Shapes are static under XLA, so the diagonal ops place their diagonals with
the index arrays the numpy kernels use (``_diagonals``), as one gather or
scatter. Failures follow what XLA computes: a singular inverse or solve gives
inf/NaN instead of the numpy kernel's InvalidArgumentError (a compiled program
cannot raise), a matrix that is not positive definite gives the numpy
kernel's NaN-below-the-diagonal Cholesky factor.
"""
from __future__ import annotations

import jax.numpy as jnp
import jax.scipy.linalg as jsl
import numpy as np

from graph.ops.linalg import _diag_matrix_size, _diagonals, _k_range, _max_diag_len
from graph.xla.lowering import Unsupported, lowering, static_value


def _work(fn):
    """``fn`` computed in float32 for float16 inputs (LAPACK has no half precision)."""
    def run(ctx, node, a, *rest):
        if a.dtype == jnp.float16:
            a, rest = a.astype(jnp.float32), [r.astype(jnp.float32) for r in rest]
        return fn(node, a, *rest)
    return run


def _adjoint(a):
    return jnp.conj(jnp.swapaxes(a, -1, -2))


@lowering("Einsum")
def _einsum(ctx, node, *operands):
    return jnp.einsum(node.attrs["equation"], *operands)


@lowering("MatrixBandPart")
def _band_part(ctx, node, x, num_lower, num_upper):
    lower = int(static_value(num_lower, node, "num_lower"))
    upper = int(static_value(num_upper, node, "num_upper"))
    m, n = x.shape[-2:]
    rows, cols = jnp.arange(m)[:, None], jnp.arange(n)[None, :]
    keep = ((lower < 0) | (rows - cols <= lower)) & ((upper < 0) | (cols - rows <= upper))
    return jnp.where(keep, x, jnp.zeros((), x.dtype))


lowering("MatrixInverse")(_work(lambda node, a: jnp.linalg.inv(
    _adjoint(a) if node.attrs.get("adjoint") else a)))
lowering("MatrixDeterminant")(_work(lambda node, a: jnp.linalg.det(a)))
lowering("LogMatrixDeterminant")(_work(lambda node, a: tuple(jnp.linalg.slogdet(a))))
lowering("MatrixExponential")(_work(lambda node, a: jsl.expm(a)))
lowering("Cross")(lambda ctx, node, a, b: jnp.cross(a, b))


@lowering("Cholesky")
def _cholesky(ctx, node, a):
    factor = jnp.linalg.cholesky(a)
    failed = jnp.isnan(factor).any(axis=(-2, -1), keepdims=True)
    nan_lower = jnp.tril(jnp.full(a.shape[-2:], jnp.nan, a.dtype))
    return jnp.where(failed, nan_lower, factor)


@lowering("MatrixSolve")
def _solve(ctx, node, a, b):
    return jnp.linalg.solve(_adjoint(a) if node.attrs.get("adjoint") else a, b)


@lowering("MatrixTriangularSolve")
def _triangular_solve(ctx, node, a, b):
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    a = jnp.broadcast_to(a, batch + a.shape[-2:])
    b = jnp.broadcast_to(b, batch + b.shape[-2:])
    lower = bool(node.attrs.get("lower", True))
    return jsl.solve_triangular(a, b, lower=lower, trans="C" if node.attrs.get("adjoint") else 0)


@lowering("MatrixSolveLs")
def _solve_ls(ctx, node, a, b, l2_regularizer):
    if float(static_value(l2_regularizer, node, "l2_regularizer")) != 0:
        raise Unsupported(node, "a nonzero l2_regularizer is not supported")
    return jnp.matmul(jnp.linalg.pinv(a), b)


lowering("Qr")(_work(lambda node, a: tuple(jnp.linalg.qr(
    a, mode="complete" if node.attrs.get("full_matrices") else "reduced"))))


@lowering("Svd")
def _svd(ctx, node, a):
    if not node.attrs.get("compute_uv", True):
        empty = np.zeros((0,), a.dtype)
        return jnp.linalg.svd(a, compute_uv=False), empty, empty
    u, s, vh = jnp.linalg.svd(a, full_matrices=bool(node.attrs.get("full_matrices")))
    return s, u, _adjoint(vh)


@lowering("SelfAdjointEigV2")
def _eigh(ctx, node, a):
    e, v = jnp.linalg.eigh(a, UPLO="L", symmetrize_input=False)
    return (e, v) if node.attrs.get("compute_v", True) else (e, np.zeros((0,), a.dtype))


@lowering("Eig")
def _eig(ctx, node, a):
    dtype = node.outputs[0].dtype.numpy_dtype
    if not node.attrs.get("compute_v", True):
        return jnp.linalg.eigvals(a), np.zeros((0,), dtype)
    e, v = jnp.linalg.eig(a)
    return e, v


# -- diagonals (the V3 ops: a band of diagonals k = (lo, hi), aligned) -------------------

def _band(node, k):
    return _k_range(static_value(k, node, "the diagonal index k"))


@lowering("MatrixDiagPartV3")
def _diag_part(ctx, node, x, k, padding_value):
    lo, hi = _band(node, k)
    rows, cols = x.shape[-2:]
    out = jnp.full(x.shape[:-2] + (hi - lo + 1, _max_diag_len(rows, cols, lo, hi)),
                   padding_value, x.dtype)
    for i, r, c, pos in _diagonals(rows, cols, lo, hi, node.attrs.get("align", "RIGHT_LEFT")):
        out = out.at[..., i, pos].set(x[..., r, c])
    return out[..., 0, :] if lo == hi else out


def _place(out, diagonal, lo, hi, align):
    """``out`` with the packed ``diagonal`` (a band of ``hi - lo + 1``) written into it."""
    if lo == hi:
        diagonal = diagonal[..., None, :]
    rows, cols = out.shape[-2:]
    for i, r, c, pos in _diagonals(rows, cols, lo, hi, align):
        out = out.at[..., r, c].set(diagonal[..., i, pos])
    return out


@lowering("MatrixSetDiagV3")
def _set_diag(ctx, node, x, diagonal, k):
    lo, hi = _band(node, k)
    return _place(jnp.asarray(x), diagonal, lo, hi, node.attrs.get("align", "RIGHT_LEFT"))


@lowering("MatrixDiagV3")
def _diag(ctx, node, diagonal, k, num_rows, num_cols, padding_value):
    lo, hi = _band(node, k)
    rows, cols = _diag_matrix_size(diagonal.shape[-1], lo, hi,
                                   int(static_value(num_rows, node, "num_rows")),
                                   int(static_value(num_cols, node, "num_cols")))
    batch = diagonal.shape[:-1] if lo == hi else diagonal.shape[:-2]
    out = jnp.full(batch + (rows, cols), padding_value, diagonal.dtype)
    return _place(out, diagonal, lo, hi, node.attrs.get("align", "RIGHT_LEFT"))


@lowering("Lu")
def _lu(ctx, node, a):
    """TensorFlow's outputs: L and U packed in one matrix, and the permutation ``p`` with
    ``A[p] = L U``. A singular matrix is factored with its zero pivot (XLA cannot raise the
    numpy kernel's "not invertible")."""
    import jax
    work = a.astype(jnp.float32) if a.dtype == jnp.float16 else a
    lu, _, perm = jax.lax.linalg.lu(work)
    return lu.astype(a.dtype), perm


@lowering("MatrixSquareRoot")
def _sqrtm(ctx, node, a):
    """The principal square root by the Schur method (``jax.scipy.linalg.sqrtm``, CPU only);
    a real matrix without a real principal root (an eigenvalue on the negative real axis)
    gives nan, as the numpy kernel and TensorFlow do."""
    import jax
    if a.size == 0:
        return a
    root = jsl.sqrtm
    for _ in range(a.ndim - 2):
        root = jax.vmap(root)
    y = root(a.astype(jnp.float32) if a.dtype == jnp.float16 else a)
    if jnp.iscomplexobj(a):
        return y
    scale = jnp.max(jnp.abs(y), axis=(-2, -1), keepdims=True)
    tol = float(np.finfo(y.real.dtype).eps) ** 0.5
    imag = jnp.max(jnp.abs(y.imag), axis=(-2, -1), keepdims=True)
    return jnp.where(imag <= tol * scale, y.real, jnp.nan).astype(a.dtype)
