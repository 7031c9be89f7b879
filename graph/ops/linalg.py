"""Linear-algebra ops (tf.linalg): decompositions, solves, determinants, einsum.

Every matrix op works on the last two dimensions and batches over the
leading ones (numpy's linalg is batched already). Where TensorFlow has a
half-precision CPU kernel (MatrixInverse, Qr, Einsum...) numpy has no LAPACK
for float16, so the kernel computes in float32 and casts back. Failures
are TensorFlow's: a singular MatrixInverse/MatrixSolve raises, a matrix
that is not positive definite gives a NaN Cholesky factor (what
TensorFlow 2.21's CPU kernel returns), a singular triangular solve gives
inf. The diagonal ops are the V3 ones: a band of diagonals ``k = (lo, hi)``
packed with TensorFlow's alignment (``RIGHT_LEFT`` by default). ``Lu`` is
Doolittle with partial pivoting over the whole batch at once (a zero pivot is
TensorFlow's "not invertible"); ``MatrixSquareRoot`` the scaled Denman-Beavers
iteration, nan where a real matrix has no real principal root.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import float16, float64, int32, int64
from graph.errors import (FailedPreconditionError, InvalidArgumentError, NotFoundError,
                          UnimplementedError)
from graph.ir import TensorType
from graph.ops.infer import expect_arity, same_dtype
from graph.registry import register_op
from graph.shapes import TensorShape, broadcast_shapes


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _fmt(dims) -> str:
    """A shape as TensorFlow's messages print it: ``[2,3]``."""
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


# -- checks shared by inference and kernels -------------------------------------------

_FLOAT_NAMES = "double, float, half, complex64, complex128"


# The ops whose complex kernels (and gradients, written with adjoints) are here too.
_COMPLEX_OPS = frozenset({"MatrixInverse", "MatrixDeterminant", "MatrixSolve", "SelfAdjointEigV2"})


def _check_float(op: str, x, half: bool = True) -> None:
    """Float inputs only (complex too for ``_COMPLEX_OPS``); ``half=False`` where TensorFlow
    has no float16 CPU kernel."""
    if not (x.dtype.is_floating or (x.dtype.is_complex and op in _COMPLEX_OPS)):
        raise _error(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
                     f"values: {_FLOAT_NAMES} ; NodeDef: {{{{node {op}}}}}. "
                     "Cast the input first: tf.cast(x, tf.float32).")
    if x.dtype == float16 and not half:
        raise NotFoundError(message=f"Could not find device for node: {{{{node {op}}}}} = "
                                    f"{op}[T=DT_HALF]: {op} has CPU kernels for float32 and "
                                    "float64 only; tf.cast the input to tf.float32.")


def _matrix_dims(op: str, x, index: int = 0, square: bool = True) -> list | None:
    """The static dims of a (batch of) matrix input; None for an unknown rank."""
    if x.shape.rank is None:
        return None
    dims = list(x.shape.as_tuple())
    _check_matrix_shape(op, dims, index, square)
    return dims


def _check_matrix_shape(op: str, dims, index: int = 0, square: bool = True) -> None:
    if len(dims) < 2:
        raise _error(f"Input tensor {index} must have rank >= 2, got {len(dims)}")
    if square and None not in dims[-2:] and dims[-1] != dims[-2]:
        raise _error("Input matrix must be square.")


def _square_value(op: str, a: np.ndarray) -> None:
    """The kernel's own check, for shapes that were unknown when the graph was built."""
    _check_matrix_shape(op, a.shape)


def _work(a: np.ndarray) -> np.ndarray:
    """numpy's LAPACK has no float16: such inputs are computed in float32."""
    return a.astype(np.float32) if a.dtype == np.float16 else a


def _float_matrix_rule(op: str, half: bool = True, batch_only: bool = False):
    """A square matrix in, same type out (or the batch shape, for determinants)."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        x = inputs[0]
        _check_float(op, x, half)
        dims = _matrix_dims(op, x)
        if dims is None:
            return [TensorType(x.dtype, TensorShape(None))]
        return [TensorType(x.dtype, TensorShape(dims[:-2] if batch_only else dims))]
    return infer


# -- inverse, determinants, Cholesky --------------------------------------------------------

def _inverse(a, adjoint=False):
    a = np.asarray(a)
    _square_value("MatrixInverse", a)
    x = _work(a)
    if adjoint:
        x = np.conj(np.swapaxes(x, -1, -2))
    if x.size == 0:
        return np.empty(a.shape, a.dtype)
    try:
        return np.linalg.inv(x).astype(a.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise _error("Input is not invertible.") from None


def _determinant(a):
    a = np.asarray(a)
    _square_value("MatrixDeterminant", a)
    return np.asarray(np.linalg.det(a), dtype=a.dtype)


def _log_determinant_infer(inputs, attrs):
    (t,) = _float_matrix_rule("LogMatrixDeterminant", half=False, batch_only=True)(inputs, attrs)
    return [t, t]


def _log_determinant(a):
    a = np.asarray(a)
    _square_value("LogMatrixDeterminant", a)
    sign, log_abs = np.linalg.slogdet(a)
    return np.asarray(sign, a.dtype), np.asarray(log_abs, a.dtype)


def _cholesky(a):
    """The lower factor; a matrix that is not positive definite gives NaNs below the
    diagonal and zeros above it, as TensorFlow's CPU kernel does."""
    a = np.asarray(a)
    _square_value("Cholesky", a)
    try:
        return np.linalg.cholesky(a)
    except np.linalg.LinAlgError:
        pass
    flat = a.reshape((-1,) + a.shape[-2:])
    out = np.empty_like(flat)
    failed = np.tril(np.full(a.shape[-2:], np.nan, a.dtype))
    for i, m in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(m)
        except np.linalg.LinAlgError:
            out[i] = failed
    return out.reshape(a.shape)


# -- solves -----------------------------------------------------------------------------------

def _solve_infer(inputs, attrs):
    expect_arity("MatrixSolve", inputs, 2)
    dtype = same_dtype("MatrixSolve", inputs)
    _check_float("MatrixSolve", inputs[0], half=False)
    a = _matrix_dims("MatrixSolve", inputs[0])
    b = inputs[1].shape.as_tuple() if inputs[1].shape.rank is not None else None
    if a is not None and b is not None and len(a) != len(b):
        raise _error("All input tensors must have the same rank.")
    b = _matrix_dims("MatrixSolve", inputs[1], 1, square=False)
    if a is None or b is None:
        return [TensorType(dtype, TensorShape(None))]
    _check_solve_shapes(a, b)
    batch = [p if p is not None else q for p, q in zip(a[:-2], b[:-2])]
    return [TensorType(dtype, TensorShape(batch + b[-2:]))]


def _check_solve_shapes(a, b) -> None:
    if len(a) != len(b):
        raise _error("All input tensors must have the same rank.")
    for p, q in zip(a[:-1], b[:-1]):
        if p is not None and q is not None and p != q:
            raise _error("Input matrix and rhs are incompatible.")


def _solve(a, b, adjoint=False):
    a, b = np.asarray(a), np.asarray(b)
    _square_value("MatrixSolve", a)
    _check_solve_shapes(list(a.shape), list(b.shape))
    if adjoint:
        a = np.conj(np.swapaxes(a, -1, -2))
    if a.size == 0 or b.size == 0:
        return np.zeros(b.shape, b.dtype)
    try:
        return np.linalg.solve(a, b).astype(b.dtype, copy=False)
    except np.linalg.LinAlgError:
        raise _error("Input matrix is not invertible.") from None


def _triangular_solve_infer(inputs, attrs):
    op = "MatrixTriangularSolve"
    expect_arity(op, inputs, 2)
    dtype = same_dtype(op, inputs)
    _check_float(op, inputs[0], half=False)
    a = _matrix_dims(op, inputs[0], square=False)
    b = _matrix_dims(op, inputs[1], 1, square=False)
    if a is None or b is None:
        return [TensorType(dtype, TensorShape(None))]
    _check_triangular_shapes(a, b)
    try:
        batch = broadcast_shapes(TensorShape(a[:-2]), TensorShape(b[:-2]))
    except ValueError:
        raise _error(f"{op}: batch dimensions {a[:-2]} and {b[:-2]} do not broadcast") from None
    return [TensorType(dtype, TensorShape(list(batch.as_tuple()) + b[-2:]))]


def _check_triangular_shapes(a, b) -> None:
    if None not in a[-2:] and a[-1] != a[-2]:
        raise _error(f"In[0] matrices in the last dimensions must be square "
                     f"({a[-1]} =/= {a[-2]})")
    if a[-1] is not None and b[-2] is not None and a[-1] != b[-2]:
        raise _error(f"In[0] mismatch In[1] shape: {a[-1]} vs. {b[-2]}: "
                     f"{_fmt(a)} {_fmt(b)}")


def _triangular_solve(a, b, lower=True, adjoint=False):
    """Forward/back substitution, batched: singular factors give inf/NaN, not an error."""
    a, b = np.asarray(a), np.asarray(b)
    _check_triangular_shapes(list(a.shape), list(b.shape))
    dtype = b.dtype
    tri = _work(np.tril(a) if lower else np.triu(a))
    if adjoint:
        tri, lower = np.swapaxes(tri, -1, -2), not lower
    batch = np.broadcast_shapes(a.shape[:-2], b.shape[:-2])
    tri = np.broadcast_to(tri, batch + a.shape[-2:])
    x = np.array(np.broadcast_to(_work(b), batch + b.shape[-2:]))
    n = a.shape[-1]
    for i in (range(n) if lower else range(n - 1, -1, -1)):
        done = slice(0, i) if lower else slice(i + 1, n)
        rest = np.matmul(tri[..., i:i + 1, done], x[..., done, :])[..., 0, :]
        x[..., i, :] = (x[..., i, :] - rest) / tri[..., i, i, None]
    return x.astype(dtype, copy=False)


def _lstsq_infer(inputs, attrs):
    op = "MatrixSolveLs"
    expect_arity(op, inputs, 3)
    dtype = same_dtype(op, inputs[:2])
    _check_float(op, inputs[0], half=False)
    if inputs[2].dtype != float64:
        raise _error(f"{op}: l2_regularizer must be a float64 scalar, got "
                     f"{inputs[2].dtype.name}")
    a = _matrix_dims(op, inputs[0], square=False)
    b = _matrix_dims(op, inputs[1], 1, square=False)
    if a is None or b is None:
        return [TensorType(dtype, TensorShape(None))]
    _check_solve_shapes(a, b)
    return [TensorType(dtype, TensorShape(b[:-2] + [a[-1], b[-1]]))]


def _lstsq(a, b, l2_regularizer, fast=True):
    """The minimum-norm least-squares solution (what ``fast=False`` computes)."""
    a, b = np.asarray(a), np.asarray(b)
    _check_solve_shapes(list(a.shape), list(b.shape))
    if float(l2_regularizer) != 0:
        raise UnimplementedError(message="MatrixSolveLs: fast=False with a nonzero "
                                         "l2_regularizer is not supported")
    return np.matmul(np.linalg.pinv(a), b).astype(b.dtype, copy=False)


# -- decompositions -------------------------------------------------------------------------

def _qr_infer(inputs, attrs):
    expect_arity("Qr", inputs, 1)
    x = inputs[0]
    _check_float("Qr", x)
    dims = _matrix_dims("Qr", x, square=False)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * 2
    m, n = dims[-2:]
    k = m if attrs.get("full_matrices") else (None if None in (m, n) else min(m, n))
    return [TensorType(x.dtype, TensorShape(dims[:-2] + [m, k])),
            TensorType(x.dtype, TensorShape(dims[:-2] + [k, n]))]


def _qr(a, full_matrices=False):
    a = np.asarray(a)
    q, r = np.linalg.qr(_work(a), mode="complete" if full_matrices else "reduced")
    return q.astype(a.dtype, copy=False), r.astype(a.dtype, copy=False)


def _svd_infer(inputs, attrs):
    expect_arity("Svd", inputs, 1)
    x = inputs[0]
    _check_float("Svd", x, half=False)
    dims = _matrix_dims("Svd", x, square=False)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * 3
    m, n = dims[-2:]
    k = None if None in (m, n) else min(m, n)
    s = TensorType(x.dtype, TensorShape(dims[:-2] + [k]))
    if not attrs.get("compute_uv", True):
        return [s, TensorType(x.dtype, TensorShape([0])), TensorType(x.dtype, TensorShape([0]))]
    full = attrs.get("full_matrices", False)
    return [s, TensorType(x.dtype, TensorShape(dims[:-2] + [m, m if full else k])),
            TensorType(x.dtype, TensorShape(dims[:-2] + [n, n if full else k]))]


def _svd(a, compute_uv=True, full_matrices=False):
    """TensorFlow's order and convention: ``s, u, v`` with ``a = u diag(s) v^H``."""
    a = np.asarray(a)
    if not compute_uv:
        empty = np.zeros((0,), a.dtype)
        return np.linalg.svd(a, compute_uv=False).astype(a.dtype, copy=False), empty, empty
    u, s, vh = np.linalg.svd(a, full_matrices=full_matrices)
    return s, u, np.swapaxes(vh, -1, -2).copy()


def _eigh_infer(inputs, attrs):
    expect_arity("SelfAdjointEigV2", inputs, 1)
    x = inputs[0]
    _check_float("SelfAdjointEigV2", x, half=False)
    dims = _matrix_dims("SelfAdjointEigV2", x)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * 2
    n = dims[-1] if dims[-1] is not None else dims[-2]
    v = dims[:-2] + [n, n] if attrs.get("compute_v", True) else [0]
    return [TensorType(x.dtype, TensorShape(dims[:-2] + [n])),
            TensorType(x.dtype, TensorShape(v))]


def _eigh(a, compute_v=True):
    """Eigenvalues ascending; only the lower triangle is read, as TensorFlow reads it."""
    a = np.asarray(a)
    _square_value("SelfAdjointEigV2", a)
    if not compute_v:
        return np.linalg.eigvalsh(a).astype(a.dtype, copy=False), np.zeros((0,), a.dtype)
    e, v = np.linalg.eigh(a)
    return e.astype(a.dtype, copy=False), v.astype(a.dtype, copy=False)


def _eig_infer(inputs, attrs):
    """General (non-symmetric) eigendecomposition: complex results of the pair dtype."""
    expect_arity("Eig", inputs, 1)
    x = inputs[0]
    out = attrs["Tout"]
    if x.dtype.is_complex or x.dtype.name in ("float32", "float64"):
        if out.real_dtype is not x.dtype.real_dtype or not out.is_complex:
            raise _error(f"Eig: Tout {out.name} does not match the input dtype {x.dtype.name}")
    else:
        raise _error(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
                     f"values: float, double, complex64, complex128 ; NodeDef: {{{{node Eig}}}}")
    dims = _matrix_dims("Eig", x)
    if dims is None:
        return [TensorType(out, TensorShape(None))] * 2
    n = dims[-1] if dims[-1] is not None else dims[-2]
    v = dims[:-2] + [n, n] if attrs.get("compute_v", True) else [0]
    return [TensorType(out, TensorShape(dims[:-2] + [n])), TensorType(out, TensorShape(v))]


def _eig(a, Tout, compute_v=True):
    """numpy's LAPACK geev; eigenvectors have unit norm, as Eigen's solver gives them."""
    a = np.asarray(a)
    _square_value("Eig", a)
    if not compute_v:
        return np.linalg.eigvals(a).astype(Tout.numpy_dtype), np.zeros((0,), Tout.numpy_dtype)
    e, v = np.linalg.eig(a)
    return e.astype(Tout.numpy_dtype), v.astype(Tout.numpy_dtype)


# -- the matrix exponential ------------------------------------------------------------------

_PADE13 = (64764752532480000., 32382376266240000., 7771770303897600., 1187353796428800.,
           129060195264000., 10559470521600., 670442572800., 33522128640., 1323241920.,
           40840800., 960960., 16380., 182., 1.)
_THETA13 = 5.371920351148152


def _expm(a):
    """Scaling and squaring with a degree-13 Pade approximant (Higham 2005), in float64."""
    a = np.asarray(a)
    _square_value("MatrixExponential", a)
    x = a.astype(np.float64)
    if x.size == 0:
        return np.empty(a.shape, a.dtype)
    norm = np.max(np.sum(np.abs(x), axis=-2), axis=-1)  # the 1-norm of each matrix
    squarings = np.maximum(0, np.ceil(np.log2(np.maximum(norm, 1e-300) / _THETA13))).astype(int)
    x = x / (2.0 ** squarings)[..., None, None]
    eye = np.broadcast_to(np.eye(a.shape[-1]), x.shape)
    b = _PADE13
    x2 = x @ x
    x4 = x2 @ x2
    x6 = x4 @ x2
    u = x @ (x6 @ (b[13] * x6 + b[11] * x4 + b[9] * x2) + b[7] * x6 + b[5] * x4
             + b[3] * x2 + b[1] * eye)
    v = x6 @ (b[12] * x6 + b[10] * x4 + b[8] * x2) + b[6] * x6 + b[4] * x4 + b[2] * x2 \
        + b[0] * eye
    r = np.linalg.solve(v - u, v + u)
    for s in range(int(squarings.max(initial=0))):
        more = (squarings > s)[..., None, None]
        r = np.where(more, r @ r, r)
    return r.astype(a.dtype)


# -- einsum -------------------------------------------------------------------------------------

def parse_einsum(equation: str, n_inputs: int):
    """``(input subscripts, output subscripts)`` with the implicit output made explicit;
    ``...`` stays as it is written. Raises TensorFlow's ValueErrors."""
    eq = equation.replace(" ", "")
    lhs, arrow, out = eq.partition("->")
    terms = lhs.split(",")
    if len(terms) != n_inputs:
        raise ValueError(f'Got {n_inputs} inputs for equation "{equation}", '
                         f"expecting {len(terms)}")
    labels = [c for t in terms for c in t.replace("...", "")]
    for c in labels + list(out.replace("...", "")):
        if not c.isalpha():
            raise ValueError(f"Invalid character {c!r} in equation {equation!r}: subscripts "
                             "are letters, with at most one '...' per term")
    if not arrow:
        once = sorted(c for c in set(labels) if labels.count(c) == 1)
        out = ("..." if "..." in lhs else "") + "".join(once)
    for c in out.replace("...", ""):
        if c not in labels:
            raise ValueError(f"Output subscripts contain the label {c} not present in the "
                             "input subscripts.")
    return terms, out


def _einsum_infer(inputs, attrs):
    terms, out = parse_einsum(attrs["equation"], len(inputs))
    dtype = same_dtype("Einsum", inputs)
    if not (dtype.is_floating or dtype.is_complex or dtype in (int32, int64)):
        raise NotFoundError(message=f"Could not find device for node: {{{{node Einsum}}}} = "
                                    f"Einsum[T={dtype.enum}]: Einsum takes float16, float32, "
                                    "float64, complex64, complex128, int32 and int64 tensors")
    shapes = [x.shape.as_tuple() if x.shape.rank is not None else None for x in inputs]
    if any(s is None for s in shapes):
        return [TensorType(dtype, TensorShape(None))]
    sizes, ellipsis = _einsum_sizes(terms, shapes)
    return [TensorType(dtype, TensorShape(_einsum_out_dims(out, sizes, ellipsis)))]


def _einsum_out_dims(out: str, sizes: dict, ellipsis: list) -> list:
    head, dots, tail = out.partition("...")
    return [sizes[c] for c in head] + (list(ellipsis) if dots else []) + [sizes[c] for c in tail]


def _einsum_sizes(terms, shapes):
    """Each label's size (None when unknown) and the broadcast ``...`` dims; a label must
    have one size wherever it appears (TensorFlow does not broadcast labelled dims)."""
    sizes: dict = {}
    ellipsis = TensorShape([])
    for i, (term, dims) in enumerate(zip(terms, shapes)):
        head, dots, tail = term.partition("...")
        n_labels = len(head) + len(tail)
        if (not dots and len(dims) != n_labels) or (dots and len(dims) < n_labels):
            raise _error(f"Expected input {i} to have rank {n_labels}"
                         f"{' at least' if dots else ''} but got: {len(dims)}")
        labelled = list(zip(head, dims[:len(head)])) + list(zip(tail, dims[len(dims) - len(tail):]))
        for axis, (c, d) in enumerate(labelled):
            known = sizes.get(c)
            if known is not None and d is not None and known != d:
                raise _error(f"Expected dimension {known} at axis {axis} of the input shaped "
                             f"{_fmt(dims)} but got dimension {d}")
            if known is None:
                sizes[c] = d
        if dots:
            middle = TensorShape(list(dims[len(head):len(dims) - len(tail)]))
            try:
                ellipsis = broadcast_shapes(ellipsis, middle)
            except ValueError:
                raise _error(f"Einsum: the '...' dimensions {list(middle.as_tuple())} of input "
                             f"{i} do not broadcast with {list(ellipsis.as_tuple())}") from None
    return sizes, list(ellipsis.as_tuple())


def _einsum(*operands, equation):
    terms, out = parse_einsum(equation, len(operands))
    _einsum_sizes(terms, [np.shape(x) for x in operands])
    dtype = np.asarray(operands[0]).dtype
    spec = ",".join(terms) + "->" + out
    arrays = [_work(np.asarray(x)) for x in operands]
    return np.asarray(np.einsum(spec, *arrays, optimize=len(arrays) > 2), dtype=dtype)


# -- cross product -------------------------------------------------------------------------------

def _cross_infer(inputs, attrs):
    expect_arity("Cross", inputs, 2)
    dtype = same_dtype("Cross", inputs)
    if not dtype.is_real:
        raise _error(f"Value for attr 'T' of {dtype.name} is not in the list of allowed "
                     "values: float, double, int32, uint8, int16, int8, int64, half")
    a, b = inputs[0].shape, inputs[1].shape
    if a.rank is not None and b.rank is not None:
        _check_cross(a.as_tuple(), b.as_tuple())
    return [TensorType(dtype, a.merge_with(b) if a.is_compatible_with(b) else a)]


def _check_cross(a, b) -> None:
    if len(a) != len(b) or any(p is not None and q is not None and p != q
                               for p, q in zip(a, b)):
        raise _error(f"Both inputs must be of same shape: {_fmt(a)} vs. {_fmt(b)}")
    if not a or (a[-1] is not None and a[-1] != 3):
        raise FailedPreconditionError(
            message="Cross-products are only defined for 3-element vectors.")


def _cross(a, b):
    a, b = np.asarray(a), np.asarray(b)
    _check_cross(a.shape, b.shape)
    return np.cross(a, b).astype(a.dtype, copy=False)


# -- diagonals and bands (MatrixDiagV3, MatrixDiagPartV3, MatrixSetDiagV3, MatrixBandPart) --

def _k_range(k) -> tuple[int, int]:
    k = np.asarray(k).reshape(-1).tolist()
    if not 1 <= len(k) <= 2:
        raise _error(f"diag_index must be a scalar or vector with 1 or 2 elements, got {k}")
    lo, hi = (k[0], k[0]) if len(k) == 1 else k
    if lo > hi:
        raise _error(f"lower_diag_index must not be larger than upper_diag_index: {lo} > {hi}")
    return int(lo), int(hi)


def _diag_len(rows: int, cols: int, k: int) -> int:
    return min(rows + min(0, k), cols - max(0, k))


def _diagonals(rows: int, cols: int, lo: int, hi: int, align: str):
    """For each diagonal from ``hi`` down to ``lo``: its row and column indices in the
    matrix and its positions in the packed diagonal of length ``max_len``."""
    max_len = max(_diag_len(rows, cols, k) for k in range(lo, hi + 1))
    sup, sub = align.split("_")
    for i, k in enumerate(range(hi, lo - 1, -1)):
        n = max(_diag_len(rows, cols, k), 0)
        t = np.arange(n)
        side = sup if k >= 0 else sub
        offset = max_len - n if side == "RIGHT" else 0
        yield i, max(0, -k) + t, max(0, k) + t, offset + t


def _check_k_bounds(rows, cols, lo, hi) -> None:
    if rows is not None and lo != 0 and not -rows < lo:
        raise _error(f"lower_diag_index is out of bound: {lo}. It must be between "
                     f"{-rows} and {cols}")
    if cols is not None and hi != 0 and not hi < cols:
        raise _error(f"upper_diag_index is out of bound: {hi}. It must be between "
                     f"{-rows if rows is not None else '-rows'} and {cols}")


def _max_diag_len(rows, cols, lo, hi):
    if rows is None or cols is None:
        return None
    return max(_diag_len(rows, cols, k) for k in range(lo, hi + 1))


def _diag_part_infer(inputs, attrs):
    op = "MatrixDiagPartV3"
    expect_arity(op, inputs, 3)
    x, k, pad = inputs
    _check_pad(op, x, pad)
    if x.shape.rank is None:
        return [TensorType(x.dtype, TensorShape(None))]
    dims = list(x.shape.as_tuple())
    if len(dims) < 2:
        raise _error(f"input must be at least 2-dim, received shape: {dims}")
    if k.value is None:
        return [TensorType(x.dtype, TensorShape(None))]
    lo, hi = _k_range(k.value)
    rows, cols = dims[-2:]
    _check_k_bounds(rows, cols, lo, hi)
    tail = [_max_diag_len(rows, cols, lo, hi)]
    if lo != hi:
        tail = [hi - lo + 1] + tail
    return [TensorType(x.dtype, TensorShape(dims[:-2] + tail))]


def _check_pad(op: str, x, pad) -> None:
    if pad.dtype != x.dtype:
        raise _error(f"{op}: padding_value must be a {x.dtype.name} scalar like the input, "
                     f"got {pad.dtype.name}")


def _diag_part(x, k, padding_value, align="RIGHT_LEFT"):
    x = np.asarray(x)
    if x.ndim < 2:
        raise _error(f"input must be at least 2-dim, received shape: {list(x.shape)}")
    lo, hi = _k_range(k)
    rows, cols = x.shape[-2:]
    _check_k_bounds(rows, cols, lo, hi)
    max_len = _max_diag_len(rows, cols, lo, hi)
    out = np.full(x.shape[:-2] + (hi - lo + 1, max_len), padding_value, x.dtype)
    for i, r, c, pos in _diagonals(rows, cols, lo, hi, align):
        out[..., i, pos] = x[..., r, c]
    return out[..., 0, :] if lo == hi else out


def _set_diag_infer(inputs, attrs):
    op = "MatrixSetDiagV3"
    expect_arity(op, inputs, 3)
    x, diag, k = inputs
    dtype = same_dtype(op, [x, diag])
    if x.shape.rank is not None:
        dims = list(x.shape.as_tuple())
        if len(dims) < 2:
            raise _error(f"input must be at least a matrix, received shape: {dims}")
        if k.value is not None and diag.shape.rank is not None:
            _check_set_diag_shape(dims, list(diag.shape.as_tuple()), *_k_range(k.value))
    return [TensorType(dtype, x.shape)]


def _check_set_diag_shape(dims: list, diag: list, lo: int, hi: int) -> None:
    """The diagonal's shape: the batch, [the number of diagonals,] the longest one."""
    rows, cols = dims[-2:]
    _check_k_bounds(rows, cols, lo, hi)
    want = dims[:-2] + ([hi - lo + 1] if lo != hi else []) + [_max_diag_len(rows, cols, lo, hi)]
    if len(diag) != len(want) or any(p is not None and q is not None and p != q
                                     for p, q in zip(diag, want)):
        raise _error("Either first dimensions of diagonal don't match input.shape[:-2], or "
                     "diagonal.shape[:-1] is not equal to the longests diagonal in range "
                     f"[lower_diag_index:upper_diag_index].\nInput shape: {dims}\n"
                     f"Diagonal shape: {diag}\nExpected diagonal shape: {want}")


def _set_diag(x, diagonal, k, align="RIGHT_LEFT"):
    x, diagonal = np.array(x), np.asarray(diagonal)
    if x.ndim < 2:
        raise _error(f"input must be at least a matrix, received shape: {list(x.shape)}")
    lo, hi = _k_range(k)
    _check_set_diag_shape(list(x.shape), list(diagonal.shape), lo, hi)
    if lo == hi:
        diagonal = diagonal[..., None, :]
    rows, cols = x.shape[-2:]
    for i, r, c, pos in _diagonals(rows, cols, lo, hi, align):
        x[..., r, c] = diagonal[..., i, pos]
    return x


def _diag_matrix_size(max_len: int, lo: int, hi: int, rows: int, cols: int):
    """TensorFlow's rule for the output size of MatrixDiagV3 (-1: as small as fits)."""
    min_rows = max_len - min(hi, 0)
    min_cols = max_len + max(lo, 0)
    if rows == -1 and cols == -1:
        rows = cols = max(min_rows, min_cols)
    elif rows == -1:
        rows = min_rows
    elif cols == -1:
        cols = min_cols
    if rows != min_rows and cols != min_cols:
        raise _error("The number of rows or columns is not consistent with the specified "
                     "d_lower, d_upper, and diagonal.")
    return rows, cols


def _diag_infer(inputs, attrs):
    op = "MatrixDiagV3"
    expect_arity(op, inputs, 5)
    d, k, num_rows, num_cols, pad = inputs
    _check_pad(op, d, pad)
    if d.shape.rank is None:
        return [TensorType(d.dtype, TensorShape(None))]
    dims = list(d.shape.as_tuple())
    if not dims:
        raise _error("diagonal must be at least 1-dim, received shape: []")
    if any(t.value is None for t in (k, num_rows, num_cols)):
        return [TensorType(d.dtype, TensorShape(None))]
    lo, hi = _k_range(k.value)
    batch = dims[:-1] if lo == hi else dims[:-2]
    if lo != hi and len(dims) < 2:
        raise _error(f"diagonal must be at least 2-dim for a range of diagonals, received "
                     f"shape: {dims}")
    if dims[-1] is None:
        return [TensorType(d.dtype, TensorShape(batch + [None, None]))]
    rows, cols = _diag_matrix_size(dims[-1], lo, hi, int(num_rows.value), int(num_cols.value))
    return [TensorType(d.dtype, TensorShape(batch + [rows, cols]))]


def _diag(diagonal, k, num_rows, num_cols, padding_value, align="RIGHT_LEFT"):
    diagonal = np.asarray(diagonal)
    if diagonal.ndim == 0:
        raise _error("diagonal must be at least 1-dim, received shape: []")
    lo, hi = _k_range(k)
    rows, cols = _diag_matrix_size(diagonal.shape[-1], lo, hi, int(num_rows), int(num_cols))
    if lo == hi:
        diagonal = diagonal[..., None, :]
    out = np.full(diagonal.shape[:-2] + (rows, cols), padding_value, diagonal.dtype)
    for i, r, c, pos in _diagonals(rows, cols, lo, hi, align):
        out[..., r, c] = diagonal[..., i, pos]
    return out


def _band_part_infer(inputs, attrs):
    expect_arity("MatrixBandPart", inputs, 3)
    x, lower, upper = inputs
    for t, what in ((lower, "num_lower"), (upper, "num_upper")):
        if t.dtype not in (int32, int64) or t.shape.rank not in (None, 0):
            raise _error(f"MatrixBandPart: {what} must be an int32 or int64 scalar, got a "
                         f"{t.dtype.name} tensor of shape {t.shape}")
    if x.shape.rank is not None and x.shape.rank < 2:
        raise _error(f"input must be at least 2-dim, received shape: {x.shape}")
    if x.shape.rank is not None:
        rows, cols = x.shape.as_tuple()[-2:]
        _check_band(rows, cols, lower.value, upper.value)
    return [TensorType(x.dtype, x.shape)]


def _check_band(rows, cols, lower, upper) -> None:
    if lower is not None and rows is not None and int(lower) > rows:
        raise _error(f"num_lower must be negative or less or equal to number of rows "
                     f"({rows}) got: {int(lower)}")
    if upper is not None and cols is not None and int(upper) > cols:
        raise _error(f"num_upper must be negative or less or equal to number of columns "
                     f"({cols}) got: {int(upper)}")


def _band_part(x, num_lower, num_upper):
    x = np.asarray(x)
    rows, cols = x.shape[-2:]
    _check_band(rows, cols, num_lower, num_upper)
    lower, upper = int(num_lower), int(num_upper)
    i, j = np.arange(rows)[:, None], np.arange(cols)[None, :]
    keep = ((lower < 0) | (i - j <= lower)) & ((upper < 0) | (j - i <= upper))
    return np.where(keep, x, np.zeros((), x.dtype))


# -- registration ---------------------------------------------------------------------------

register_op("MatrixInverse", _float_matrix_rule("MatrixInverse"), _inverse,
            kernel_attrs=("adjoint",))
register_op("MatrixDeterminant", _float_matrix_rule("MatrixDeterminant", half=False,
                                                    batch_only=True), _determinant)
register_op("LogMatrixDeterminant", _log_determinant_infer, _log_determinant)
register_op("Cholesky", _float_matrix_rule("Cholesky", half=False), _cholesky)
register_op("MatrixExponential", _float_matrix_rule("MatrixExponential"), _expm)
register_op("MatrixSolve", _solve_infer, _solve, kernel_attrs=("adjoint",))
register_op("MatrixTriangularSolve", _triangular_solve_infer, _triangular_solve,
            kernel_attrs=("lower", "adjoint"))
register_op("MatrixSolveLs", _lstsq_infer, _lstsq, kernel_attrs=("fast",))
register_op("Qr", _qr_infer, _qr, kernel_attrs=("full_matrices",))
register_op("Svd", _svd_infer, _svd, kernel_attrs=("compute_uv", "full_matrices"))
register_op("SelfAdjointEigV2", _eigh_infer, _eigh, kernel_attrs=("compute_v",))
register_op("Eig", _eig_infer, _eig, kernel_attrs=("Tout", "compute_v"))
register_op("Einsum", _einsum_infer, _einsum, kernel_attrs=("equation",))
register_op("Cross", _cross_infer, _cross)
register_op("MatrixDiagV3", _diag_infer, _diag, kernel_attrs=("align",))
register_op("MatrixDiagPartV3", _diag_part_infer, _diag_part, kernel_attrs=("align",))
register_op("MatrixSetDiagV3", _set_diag_infer, _set_diag, kernel_attrs=("align",))
register_op("MatrixBandPart", _band_part_infer, _band_part)


# -- LU factorization and matrix square root (tf.linalg.lu, tf.linalg.sqrtm) -----------------------

def _float_or_complex(op: str, x) -> None:
    if not (x.dtype.is_floating or x.dtype.is_complex):
        raise _error(f"Value for attr 'T' of {x.dtype.name} is not in the list of allowed "
                     f"values: {_FLOAT_NAMES} ; NodeDef: {{{{node {op}}}}}. "
                     "Cast the input first: tf.cast(x, tf.float32).")


def _lu_infer(inputs, attrs):
    expect_arity("Lu", inputs, 1)
    x = inputs[0]
    _float_or_complex("Lu", x)
    index_type = attrs.get("output_idx_type", int32)
    if index_type not in (int32, int64):
        raise _error(f"Lu: output_idx_type must be int32 or int64, got {index_type.name}")
    dims = _matrix_dims("Lu", x)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None)), TensorType(index_type, TensorShape(None))]
    return [TensorType(x.dtype, TensorShape(dims)), TensorType(index_type, TensorShape(dims[:-1]))]


def _lu(a, output_idx_type=int32):
    """Doolittle with partial pivoting over every matrix of the batch at once: P A = L U,
    L (unit diagonal) below the diagonal of the result, U on and above it; ``p[i]`` is
    the row of A that row i of P A is."""
    a = np.asarray(a)
    _square_value("Lu", a)
    lu = _work(a).copy()
    n = a.shape[-1]
    batch = lu.reshape((-1, n, n))
    perm = np.broadcast_to(np.arange(n), (batch.shape[0], n)).copy()
    rows = np.arange(batch.shape[0])
    for k in range(n):
        pivot = k + np.argmax(np.abs(batch[:, k:, k]), axis=1)
        if np.any(batch[rows, pivot, k] == 0):
            raise _error("Input is not invertible.")
        batch[rows, k], batch[rows, pivot] = batch[rows, pivot].copy(), batch[rows, k].copy()
        perm[rows, k], perm[rows, pivot] = perm[rows, pivot], perm[rows, k].copy()
        batch[:, k + 1:, k] /= batch[:, k:k + 1, k]
        batch[:, k + 1:, k + 1:] -= batch[:, k + 1:, k:k + 1] * batch[:, k:k + 1, k + 1:]
    out = batch.reshape(a.shape).astype(a.dtype, copy=False)
    return out, perm.reshape(a.shape[:-1]).astype(output_idx_type.numpy_dtype)


def _sqrtm(a):
    """The principal square root by the scaled Denman-Beavers iteration (Y -> sqrt(A),
    Z -> its inverse), in double precision; a matrix with an eigenvalue on the closed
    negative real axis has no principal root: nan, as TensorFlow returns."""
    a = np.asarray(a)
    _square_value("MatrixSquareRoot", a)
    n = a.shape[-1]
    if a.size == 0:
        return np.empty(a.shape, a.dtype)
    work = a.astype(np.complex128 if a.dtype.kind == "c" else np.float64)
    if work.ndim > 2:  # each matrix alone: one without a root must not spoil its batch
        roots = [_sqrtm(m) for m in work.reshape(-1, n, n)]
        return np.stack(roots).reshape(a.shape).astype(a.dtype, copy=False)
    y, z = work.copy(), np.eye(n, dtype=work.dtype)
    with np.errstate(all="ignore"):
        for _ in range(60):
            try:
                y_inv, z_inv = np.linalg.inv(y), np.linalg.inv(z)
            except np.linalg.LinAlgError:
                return np.full(a.shape, np.nan, a.dtype)
            # determinant scaling keeps the early steps from overshooting
            det = np.abs(np.linalg.det(y) * np.linalg.det(z)) ** (-1 / (2 * n))
            det = np.where(np.isfinite(det) & (det > 0), det, 1.0)[..., None, None]
            y_next = 0.5 * (det * y + z_inv / det)
            z = 0.5 * (det * z + y_inv / det)
            done = np.max(np.abs(y_next - y)) <= 1e-15 * max(np.max(np.abs(y_next)), 1e-300)
            y = y_next
            if done:
                break
        residual = np.abs(y @ y - work).max(axis=(-2, -1), keepdims=True)
        scale = np.abs(work).max(axis=(-2, -1), keepdims=True)
        bad = ~(residual <= 1e-8 * np.maximum(scale, 1.0))
    if work.dtype.kind != "c":
        y = np.where(bad, np.nan, y)
    return y.astype(a.dtype, copy=False)


def _sqrtm_infer(inputs, attrs):
    expect_arity("MatrixSquareRoot", inputs, 1)
    x = inputs[0]
    _float_or_complex("MatrixSquareRoot", x)
    dims = _matrix_dims("MatrixSquareRoot", x)
    return [TensorType(x.dtype, TensorShape(None if dims is None else dims))]


register_op("Lu", _lu_infer, _lu, kernel_attrs=("output_idx_type",))
register_op("MatrixSquareRoot", _sqrtm_infer, _sqrtm)
