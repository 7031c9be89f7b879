"""Gradients of the tf.linalg ops, following TensorFlow's linalg_grad.py (real dtypes).

The compositions (logdet, lstsq, norm, tensordot, trace, pinv...) need none:
their gradients come from the ops they are made of.
"""
from __future__ import annotations

import string

from graph.ops.linalg import parse_einsum
from runtime.gradients.math_grads import conj
from runtime.gradients.registry import RegisterGradient
from runtime.gradients.util import reduce_to
from runtime.ops import array_ops as A
from runtime.ops import linalg_ops as L
from runtime.ops import math_ops as M
from runtime.origin import current_origin


@RegisterGradient("MatrixSolveLs")
def _matrix_solve_ls_grad(op, g):
    """The op only serves ``lstsq(fast=False)``, which TensorFlow does not differentiate
    (``fast=True`` is a composition and has gradients)."""
    raise ValueError("Gradient not defined for fast=False")


def _t(x):
    return L.matrix_transpose(x)


def _mm(a, b, **flags):
    return M.matmul(a, b, **flags)


def _zeros_if_none(g, like):
    return A.zeros_like(like) if g is None else g


# -- inverse, determinants, Cholesky, exponential -------------------------------------------

@RegisterGradient("MatrixInverse")
def _matrix_inverse_grad(op, g):
    """d(A^-1) = -A^-1 dA A^-1, so dA = -A^-T g A^-T (for ``adjoint``, the transpose)."""
    b = op.outputs[0]
    if op.attrs.get("adjoint"):
        return [M.negative(_mm(b, _mm(g, b, adjoint_a=True)))]
    return [M.negative(_mm(b, _mm(g, b, adjoint_b=True), adjoint_a=True))]


def _times_inverse_transpose(op, scale):
    """``scale[..., None, None] * A^-T``: the gradient of det and log|det|."""
    a = op.inputs[0]
    return M.multiply(A.expand_dims(A.expand_dims(scale, -1), -1), L.inv(a, adjoint=True))


@RegisterGradient("MatrixDeterminant")
def _matrix_determinant_grad(op, g):
    return [_times_inverse_transpose(op, M.multiply(g, op.outputs[0]))]


@RegisterGradient("LogMatrixDeterminant")
def _log_matrix_determinant_grad(op, g_sign, g_log_abs):
    if g_log_abs is None:
        return [None]
    return [_times_inverse_transpose(op, g_log_abs)]


@RegisterGradient("Cholesky")
def _cholesky_grad(op, g):
    """Murray 2016 (arXiv:1602.07527), as TensorFlow writes it."""
    chol = op.outputs[0]
    n = A.shape(chol)[-1] if chol.shape[-1] is None else chol.shape[-1]
    l_inverse = L.triangular_solve(chol, A.eye(n, dtype=chol.dtype))  # batch broadcasts
    middle = _mm(chol, g, adjoint_a=True)
    middle = L.set_diag(middle, M.multiply(0.5, L.diag_part(middle)))
    middle = L.band_part(middle, -1, 0)
    grad_a = _mm(_mm(l_inverse, middle, adjoint_a=True), l_inverse)
    return [M.multiply(0.5, M.add(grad_a, _t(grad_a)))]


@RegisterGradient("MatrixExponential")
def _matrix_exponential_grad(op, g):
    """The adjoint Frechet derivative: the upper-right block of ``expm([[A^T, g], [0, A^T]])``."""
    a = op.inputs[0]
    at = _t(a)
    top = A.concat([at, g], -1)
    bottom = A.concat([A.zeros_like(a), at], -1)
    big = L.expm(A.concat([top, bottom], -2))
    n = a.shape[-1]
    if n is None:
        raise NotImplementedError(f"The gradient of expm needs the matrix size known while "
                                  f"building the graph (at {current_origin()})")
    return [big[..., :n, n:]]


# -- solves -------------------------------------------------------------------------------------

def _solve_grads(op, g, solve):
    a, b = op.inputs
    c = op.outputs[0]
    adjoint = bool(op.attrs.get("adjoint"))
    grad_b = solve(a, g, not adjoint)
    if adjoint:
        grad_a = M.negative(_mm(c, grad_b, adjoint_b=True))
    else:
        grad_a = M.negative(_mm(grad_b, c, adjoint_b=True))
    return grad_a, grad_b


@RegisterGradient("MatrixSolve")
def _matrix_solve_grad(op, g):
    return list(_solve_grads(op, g, lambda a, r, adj: L.solve(a, r, adjoint=adj)))


@RegisterGradient("MatrixTriangularSolve")
def _matrix_triangular_solve_grad(op, g):
    lower = bool(op.attrs.get("lower", True))
    grad_a, grad_b = _solve_grads(
        op, g, lambda a, r, adj: L.triangular_solve(a, r, lower=lower, adjoint=adj))
    grad_a = L.band_part(grad_a, -1, 0) if lower else L.band_part(grad_a, 0, -1)
    a, b = op.inputs
    return [reduce_to(grad_a, a), reduce_to(grad_b, b)]


# -- decompositions -------------------------------------------------------------------------------

def _triangular_right_solve(x, r):
    """``x R^-H`` for upper-triangular ``R``."""
    return _t(L.triangular_solve(r, _t(x), lower=False, adjoint=False))


def _qr_grad_square_or_deep(q, r, dq, dr):
    qdq = _mm(q, dq, adjoint_a=True)
    qdq_ = M.subtract(qdq, _t(qdq))
    rdr = _mm(r, dr, adjoint_b=True)
    rdr_ = M.subtract(rdr, _t(rdr))
    tril = L.band_part(M.add(qdq_, rdr_), -1, 0)
    grad_a = _mm(q, M.add(dr, _triangular_right_solve(tril, r)))
    grad_b = _triangular_right_solve(M.subtract(dq, _mm(q, qdq)), r)
    return M.add(grad_a, grad_b)


@RegisterGradient("Qr")
def _qr_grad(op, dq, dr):
    """TensorFlow's QR gradient (Walter & Lehmann 2018); wide matrices split A = [X | Y]."""
    a = op.inputs[0]
    q, r = op.outputs
    dq, dr = _zeros_if_none(dq, q), _zeros_if_none(dr, r)
    m, n = (a.shape.as_tuple()[-2:] if a.shape.rank is not None else (None, None))
    if m is None or n is None:
        raise NotImplementedError(f"The QR gradient needs the matrix dimensions known while "
                                  f"building the graph (at {current_origin()})")
    if op.attrs.get("full_matrices") and m > n:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and "
                                  "full_matrices is true.")
    if m >= n:
        return [_qr_grad_square_or_deep(q, r, dq, dr)]
    y = a[..., :, m:]
    u = r[..., :, :m]
    dv = dr[..., :, m:]
    du = dr[..., :, :m]
    dy = _mm(q, dv)
    dx = _qr_grad_square_or_deep(q, u, M.add(dq, _mm(y, dv, adjoint_b=True)), du)
    return [A.concat([dx, dy], -1)]


def _safe_reciprocal(x, epsilon=1e-20):
    return M.multiply(x, M.truediv(1.0, M.add(M.multiply(x, x), epsilon)))


def _off_diagonal_reciprocals(e):
    """``1 / (e_j - e_i)`` off the diagonal, 0 on it."""
    diff = M.subtract(A.expand_dims(e, -2), A.expand_dims(e, -1))
    return L.set_diag(_safe_reciprocal(diff), A.zeros_like(e))


@RegisterGradient("SelfAdjointEigV2")
def _self_adjoint_eig_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    inner = L.diag(_zeros_if_none(grad_e, e))
    if op.attrs.get("compute_v", True):
        v = op.outputs[1]
        if grad_v is not None:
            f = _off_diagonal_reciprocals(e)
            inner = M.add(inner, M.multiply(f, _mm(v, grad_v, adjoint_a=True)))
    else:  # eigvalsh: the eigenvectors are computed for the gradient
        _, v = L.eigh(op.inputs[0])
    grad_a = _mm(v, _mm(inner, v, adjoint_b=True))
    # the op reads the lower triangle only: symmetrize, keep the lower triangle
    grad_a = L.band_part(M.add(grad_a, L.adjoint(grad_a)), -1, 0)
    return [L.set_diag(grad_a, M.multiply(0.5, L.diag_part(grad_a)))]


@RegisterGradient("Svd")
def _svd_grad(op, grad_s, grad_u, grad_v):
    """TensorFlow's SVD gradient (Townsend 2016); tall matrices go through A^T."""
    a = op.inputs[0]
    s, u, v = op.outputs
    grad_s_mat = L.diag(_zeros_if_none(grad_s, s))
    if not op.attrs.get("compute_uv", True):
        _, u, v = L.svd(a, compute_uv=True)
        return [_mm(u, _mm(grad_s_mat, v, adjoint_b=True))]
    m, n = (a.shape.as_tuple()[-2:] if a.shape.rank is not None else (None, None))
    if m is None or n is None:
        raise NotImplementedError("SVD gradient has not been implemented for input with "
                                  "unknown inner matrix shape.")
    full = bool(op.attrs.get("full_matrices"))
    grad_u, grad_v = _zeros_if_none(grad_u, u), _zeros_if_none(grad_v, v)
    use_adjoint = m > n
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if full and abs(m - n) > 1:
        raise NotImplementedError("svd gradient is not implemented for abs(m - n) > 1 when "
                                  "full_matrices is True")
    s_mat = L.diag(s)
    f = _off_diagonal_reciprocals(M.square(s))
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = M.multiply(f, _mm(u, grad_u, adjoint_a=True))
    f_v = M.multiply(f, _mm(v1, grad_v1, adjoint_a=True))
    term1_nouv = M.add(M.add(grad_s_mat, _mm(M.add(f_u, _t(f_u)), s_mat)),
                       _mm(s_mat, M.add(f_v, _t(f_v))))
    grad_a = _mm(u, _mm(term1_nouv, v1, adjoint_b=True))
    if m != n:
        gv1t = _t(grad_v1)
        term2_nous = M.subtract(gv1t, _mm(_mm(gv1t, v1), v1, adjoint_b=True))
        if full:
            v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
            term2_nous = M.subtract(term2_nous, _mm(_mm(v1, grad_v2, adjoint_a=True), v2,
                                                    adjoint_b=True))
        u_s_inv = _mm(u, L.diag(_safe_reciprocal(s)))
        grad_a = M.add(grad_a, _mm(u_s_inv, term2_nous))
    return [_t(grad_a) if use_adjoint else grad_a]


# -- einsum, cross ---------------------------------------------------------------------------------

def _labels(term: str, rank: int):
    """``(label, axis)`` of each labelled axis of an input of rank ``rank``."""
    head, dots, tail = term.partition("...")
    return [(c, i) for i, c in enumerate(head)] + \
        [(c, rank - len(tail) + i) for i, c in enumerate(tail)]


def _dim(x, axis: int):
    d = x.shape.as_tuple()[axis]
    return d if d is not None else A.shape(x)[axis]


@RegisterGradient("Einsum")
def _einsum_grad(op, g):
    """Each input's gradient is one einsum of the output gradient with the other inputs;
    labels only that input sums over come back through a ones factor, and a label
    repeated within an input (a diagonal) through identity factors."""
    terms, out = parse_einsum(op.attrs["equation"], len(op.inputs))
    used = set("".join(terms) + out)
    fresh = iter(c for c in string.ascii_letters if c not in used)
    grads = []
    for i, x in enumerate(op.inputs):
        if x.shape.rank is None:
            raise NotImplementedError(f"The gradient of einsum needs inputs of known rank "
                                      f"(at {current_origin()})")
        others = [t for j, t in enumerate(terms) if j != i]
        available = set(out + "".join(others))
        target, seen, factors, operands = [], set(), [], []
        head, dots, tail = terms[i].partition("...")
        missing = []
        for c, axis in _labels(terms[i], x.shape.rank):
            if c in seen:  # a repeated label: a fresh one tied to it by an identity
                f = next(fresh)
                factors.append(c + f)
                operands.append(A.eye(_dim(x, axis), dtype=x.dtype))
                target.append((axis, f))
                continue
            seen.add(c)
            target.append((axis, c))
            if c not in available:
                missing.append((c, axis))
        if missing:
            factors.append("".join(c for c, _ in missing))
            operands.append(A.ones([_dim(x, axis) for _, axis in missing], dtype=x.dtype))
        if dots and "..." not in out + "".join(others):
            raise NotImplementedError(f"The gradient of einsum {op.attrs['equation']!r} "
                                      f"(a '...' summed away) is not supported")
        labels = dict(target)
        n_head = len(head)
        t_head = "".join(labels[a] for a in range(n_head))
        t_tail = "".join(labels[a] for a in range(x.shape.rank - len(tail), x.shape.rank))
        equation = ",".join([out] + others + factors) + "->" + t_head + dots + t_tail
        other_inputs = [conj(t) for j, t in enumerate(op.inputs) if j != i]
        grad = L.einsum(equation, g, *other_inputs, *operands)
        grads.append(reduce_to(grad, x))
    return grads


@RegisterGradient("Cross")
def _cross_grad(op, g):
    a, b = op.inputs
    return [L.cross(b, g), L.cross(g, a)]


# -- diagonals and bands ---------------------------------------------------------------------

def _diag_attrs(op):
    return {"align": op.attrs.get("align", "RIGHT_LEFT")}


@RegisterGradient("MatrixDiagV3")
def _matrix_diag_grad(op, g):
    k = op.inputs[1]
    return [L.diag_part(g, k=k, **_diag_attrs(op)), None, None, None, None]


@RegisterGradient("MatrixDiagPartV3")
def _matrix_diag_part_grad(op, g):
    x, k = op.inputs[0], op.inputs[1]
    return [L.set_diag(A.zeros_like(x), g, k=k, **_diag_attrs(op)), None, None]


@RegisterGradient("MatrixSetDiagV3")
def _matrix_set_diag_grad(op, g):
    x, diagonal, k = op.inputs
    grad_x = L.set_diag(g, A.zeros_like(diagonal), k=k, **_diag_attrs(op))
    return [grad_x, L.diag_part(g, k=k, **_diag_attrs(op)), None]


@RegisterGradient("MatrixBandPart")
def _matrix_band_part_grad(op, g):
    _, lower, upper = op.inputs
    return [L.band_part(g, lower, upper), None, None]
