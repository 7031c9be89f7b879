"""Products: ``dot``, ``matmul``, ``tensordot``, ``einsum``, ``inner``, ``outer``,
``cross``, ``vdot``, ``kron``, ``trace`` — operands promoted as numpy promotes them."""
from __future__ import annotations

from runtime.ops import array_ops, complex_ops, linalg_ops, math_ops
from runtime.tf_numpy.creation import asarray, diagonal, promote
from runtime.tf_numpy.reductions import sum as _sum
from runtime.tf_numpy.shaping import moveaxis


def _rank(t) -> int:
    if t.shape.rank is None:
        raise ValueError("tnp needs arrays of known rank here.")
    return t.shape.rank


def matmul(x1, x2):
    """numpy's ``matmul``: 1-D operands are a row/column vector whose axis is then dropped."""
    a, b = promote(x1, x2)
    ra, rb = _rank(a), _rank(b)
    if ra == 0 or rb == 0:
        raise ValueError("matmul: Input operand does not have enough dimensions")
    if ra == 1:
        a = array_ops.expand_dims(a, 0)
    if rb == 1:
        b = array_ops.expand_dims(b, 1)
    result = math_ops.matmul(a, b)
    if rb == 1:
        result = array_ops.squeeze(result, [-1])
    if ra == 1:
        result = array_ops.squeeze(result, [-2 if rb != 1 else -1])
    return result


def dot(a, b):
    """numpy's ``dot``: scalars multiply; else the last axis of ``a`` with the
    second-to-last of ``b`` (its only one when 1-D)."""
    a, b = promote(a, b)
    ra, rb = _rank(a), _rank(b)
    if ra == 0 or rb == 0:
        return a * b
    return linalg_ops.tensordot(a, b, [[ra - 1], [rb - 2 if rb >= 2 else 0]])


def tensordot(a, b, axes=2):
    a, b = promote(a, b)
    return linalg_ops.tensordot(a, b, axes)


def einsum(subscripts, *operands, casting: str = "safe", optimize=None):
    return linalg_ops.einsum(subscripts, *promote(*operands))


def inner(a, b):
    """Sum over the last axes of both."""
    a, b = promote(a, b)
    ra, rb = _rank(a), _rank(b)
    if ra == 0 or rb == 0:
        return a * b
    return linalg_ops.tensordot(a, b, [[ra - 1], [rb - 1]])


def outer(a, b):
    a, b = promote(a, b)
    return array_ops.reshape(a, [-1, 1]) * array_ops.reshape(b, [1, -1])


def vdot(a, b):
    """Dot product of the flattened arrays, the first conjugated."""
    a, b = promote(a, b)
    a = array_ops.reshape(a, [-1])
    if a.dtype.is_complex:
        a = complex_ops.conj(a)
    return linalg_ops.tensordot(a, array_ops.reshape(b, [-1]), 1)


def cross(a, b, axisa: int = -1, axisb: int = -1, axisc: int = -1, axis=None):
    """Cross product of 3-vectors along the last axis (broadcast)."""
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = promote(a, b)
    a, b = moveaxis(a, axisa, -1), moveaxis(b, axisb, -1)
    if a.shape[-1] != 3 or b.shape[-1] != 3:
        raise ValueError("incompatible dimensions for cross product (dimension must be 3)")
    a0, a1, a2 = array_ops.unstack(a, num=3, axis=-1)
    b0, b1, b2 = array_ops.unstack(b, num=3, axis=-1)
    c = array_ops.stack([a1 * b2 - a2 * b1, a2 * b0 - a0 * b2, a0 * b1 - a1 * b0], axis=-1)
    return moveaxis(c, -1, axisc)


def kron(a, b):
    """Kronecker product: every element of ``a`` times the whole ``b``."""
    a, b = promote(a, b)
    ra, rb = _rank(a), _rank(b)
    rank = max(ra, rb)
    a = array_ops.reshape(a, [1] * (rank - ra) + a.shape.as_list())
    b = array_ops.reshape(b, [1] * (rank - rb) + b.shape.as_list())
    # a[..., i, ...] * b interleaved: shape (a0, b0, a1, b1, ...) then merged
    a_exp = array_ops.reshape(a, [d for n in a.shape.as_list() for d in (n, 1)])
    b_exp = array_ops.reshape(b, [d for n in b.shape.as_list() for d in (1, n)])
    return array_ops.reshape(a_exp * b_exp, [x * y for x, y in zip(a.shape.as_list(),
                                                                   b.shape.as_list())])


def trace(a, offset: int = 0, axis1: int = 0, axis2: int = 1, dtype=None):
    """Sum of the ``offset`` diagonal of the ``axis1``/``axis2`` planes (int64 for small ints)."""
    return _sum(diagonal(asarray(a), offset, axis1, axis2), axis=-1, dtype=dtype)
