"""Lowerings of the complex FFTs (graph/ops/spectral.py): ``jnp.fft`` over the innermost axes."""
from __future__ import annotations

import jax.numpy as jnp

from graph.ops.spectral import RANK
from graph.xla.lowering import lowering


def _fft(ctx, node, x):
    axes = tuple(range(-RANK[node.op], 0))
    if x.size == 0:
        return x
    return (jnp.fft.ifftn if node.op.startswith("I") else jnp.fft.fftn)(x, axes=axes)


lowering(*RANK)(_fft)
