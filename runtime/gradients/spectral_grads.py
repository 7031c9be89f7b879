"""Gradients of the FFT ops (graph/ops/spectral.py), as TensorFlow defines them."""
from __future__ import annotations

from graph.ops.spectral import INVERSE, RANK
from runtime.gradients.registry import RegisterGradient
from runtime.ops import array_ops as A, math_ops as M
from runtime.ops.core import apply_op


def _points(x, rank: int):
    """The number of points transformed (the product of the innermost ``rank`` sizes)."""
    return M.reduce_prod(A.shape(x)[-rank:])


def _grad_for(op: str):
    """As TensorFlow: the gradient of a transform is the inverse transform of the gradient,
    scaled by the number of points (FFT) or its reciprocal (IFFT)."""
    rank = RANK[op]

    def grad(node, g):
        size = M.cast(M.cast(_points(g, rank), g.dtype.real_dtype), g.dtype)
        back = apply_op(INVERSE[op], [g])
        return [M.multiply(back, size) if op.startswith("FFT") else M.divide(back, size)]
    return grad


for _name in RANK:
    RegisterGradient(_name)(_grad_for(_name))
