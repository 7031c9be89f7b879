"""Lowerings of the complex-number ops (graph/ops/complex.py): elementwise, one line each."""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax

from graph.xla.lowering import lowering

_FUNCTIONS = {
    "Complex": lambda re, im: lax.complex(*jnp.broadcast_arrays(re, im)), "Real": jnp.real, "Imag": jnp.imag, "Angle": jnp.angle,
    "ComplexAbs": jnp.abs, "Conj": jnp.conj,
}

for _name, _fn in _FUNCTIONS.items():
    lowering(_name)((lambda fn: lambda ctx, node, *xs: fn(*xs))(_fn))
