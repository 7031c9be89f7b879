"""Gradients of the complex-number ops, as TensorFlow's math_grad.py defines them.

A real function of a complex ``z = x + iy`` gets the gradient ``dL/dx + i dL/dy``
(so ``real`` sends ``g`` back as ``g + 0j`` and ``imag`` as ``0 + gj``), and ``complex``
splits its gradient into those two parts again.
"""
from __future__ import annotations

from runtime.gradients.registry import RegisterGradient
from runtime.gradients.util import reduce_to
from runtime.ops import math_ops as M
from runtime.ops import complex_ops as C
from runtime.ops.array_ops import zeros_like


@RegisterGradient("Complex")
def _complex_grad(op, g):
    real, imag = op.inputs
    return [reduce_to(C.real(g), real), reduce_to(C.imag(g), imag)]


@RegisterGradient("Real")
def _real_grad(op, g):
    return [C.complex(g, zeros_like(g))]


@RegisterGradient("Imag")
def _imag_grad(op, g):
    return [C.complex(zeros_like(g), g)]


@RegisterGradient("Conj")
def _conj_grad(op, g):
    return [C.conj(g)]


@RegisterGradient("ComplexAbs")
def _complex_abs_grad(op, g):
    """g * z / |z|: the direction of z scaled by g (0 at z == 0, as Sign gives)."""
    z = op.inputs[0]
    return [M.multiply(C.complex(g, zeros_like(g)), M.sign(z))]


@RegisterGradient("Angle")
def _angle_grad(op, g):
    """angle = atan2(y, x): d/dx = -y/|z|^2, d/dy = x/|z|^2, packed as -1/conj(z)... times i."""
    z = op.inputs[0]
    x, y = C.real(z), C.imag(z)
    r2 = M.add(M.square(x), M.square(y))
    scale = M.realdiv(g, r2)
    return [C.complex(M.negative(M.multiply(y, scale)), M.multiply(x, scale))]
