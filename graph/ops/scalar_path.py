"""float32 ``exp`` and ``log`` on small arrays, rounded as TensorFlow's CPU kernels round them.

TensorFlow's element-wise kernels are Eigen expressions evaluated in packets of 8
floats; the elements of an array too small for one packet (scalars, a 2x2 softmax: what
programs print) go through the C library's ``expf``/``logf``, which round correctly.
numpy's SIMD float32 ``exp`` does not: it is one unit in the last place off for ~40% of
inputs, so ``tf.exp(1.0)`` would print ``2.718282`` where TensorFlow prints
``2.7182817``. Computing in float64 and rounding once gives the correctly rounded value
(sampled against TensorFlow 2.21: >99.8% equal, against ~60% for numpy's float32).

Only arrays of fewer than 8 elements take this path (a cast each way, ~1 µs); larger ones
keep numpy's ufunc, which the generated code calls directly and writes in place: the
packet polynomial TensorFlow uses there costs ~20 numpy calls to reproduce.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes

PACKET = 8  # float32 elements per AVX packet in TensorFlow's CPU kernels

_F32, _F64 = np.dtype(np.float32), np.float64


def rounded(ufunc):
    """``ufunc`` computed in float64 and rounded to float32 once (for float32 inputs)."""
    def kernel(x):
        return ufunc(x.astype(_F64)).astype(_F32)
    kernel.__name__ = f"{ufunc.__name__}_rounded"
    return kernel


def checked(ufunc):
    """``ufunc``, rounded as TensorFlow's scalar path when given a float32 array (or numpy
    scalar) of fewer than ``PACKET`` elements: for values whose size is not known in advance."""
    exact = rounded(ufunc)

    def kernel(x):
        if getattr(x, "dtype", None) == _F32 and x.size < PACKET:
            return exact(x)
        return ufunc(x)
    kernel.__name__ = ufunc.__name__
    return kernel


def build(ufunc):
    """The graph kernel of a node applying ``ufunc``: the bare ufunc unless its float32 result
    may have fewer than ``PACKET`` elements (the generated code's in-place fast paths need
    the ufunc itself)."""
    exact, either = rounded(ufunc), checked(ufunc)

    def build_kernel(node, compile_subgraph):
        out = node.outputs[0]
        if out.dtype is not dtypes.float32:
            return ufunc
        n = out.shape.num_elements()
        if n is None:
            return either
        return exact if n < PACKET else ufunc
    return build_kernel
