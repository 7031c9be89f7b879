"""Lowerings of the special math functions (graph/ops/special.py): elementwise, one line each."""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax
from jax.scipy import special as sp

from graph.xla.lowering import half_in_float32, lowering


def _no_nan(fn):
    """``fn(x, y)``, but 0 wherever ``y == 0`` (TensorFlow's DivNoNan/MulNoNan)."""
    return lambda x, y: jnp.where(y == 0, jnp.zeros((), x.dtype), fn(x, jnp.where(y == 0, 1, y)))


def _truncate_div(x, y):
    if jnp.issubdtype(x.dtype, jnp.integer):
        return lax.div(x, y)  # C semantics: toward zero
    return jnp.trunc(x / y)


_FUNCTIONS = {
    "Acos": jnp.arccos, "Acosh": jnp.arccosh, "Asin": jnp.arcsin, "Asinh": jnp.arcsinh,
    "Atan": jnp.arctan, "Atanh": jnp.arctanh, "Cosh": jnp.cosh, "Sinh": jnp.sinh, "Tan": jnp.tan,
    "Erf": sp.erf, "Erfc": sp.erfc, "Erfinv": sp.erfinv, "Expm1": jnp.expm1, "Log1p": jnp.log1p,
    "Lgamma": sp.gammaln, "Digamma": sp.digamma, "Reciprocal": jnp.reciprocal, "Rint": jnp.rint,
    "IsFinite": jnp.isfinite, "IsInf": jnp.isinf, "IsNan": jnp.isnan,
    "Atan2": jnp.arctan2, "NextAfter": jnp.nextafter,
    "Xlogy": lambda x, y: jnp.where(x == 0, jnp.zeros((), x.dtype), x * jnp.log(y)),
    "Xlog1py": lambda x, y: jnp.where(x == 0, jnp.zeros((), x.dtype), x * jnp.log1p(y)),
    "Xdivy": lambda x, y: jnp.where(x == 0, jnp.zeros((), x.dtype), x / y),
    "DivNoNan": _no_nan(jnp.true_divide), "MulNoNan": _no_nan(jnp.multiply),
    "Igamma": sp.gammainc, "Igammac": sp.gammaincc, "IgammaGradA": lax.igamma_grad_a,
    "TruncateDiv": _truncate_div, "TruncateMod": lax.rem,
    "LeftShift": jnp.left_shift, "RightShift": jnp.right_shift,
}

for _name, _fn in _FUNCTIONS.items():
    lowering(_name)((lambda fn: lambda ctx, node, *xs: fn(*xs))(_fn))


# -- Bessel, incomplete beta, ndtri, zeta, polygamma: jax.scipy.special --------------------------
# The numpy kernels compute in float64 and cast back; these compute in the input's precision
# (float16 in float32), with the kernels' values at the edges (nan outside the domains).

def _polygamma(n, x):
    """jax's polygamma takes integer orders only; TensorFlow's is nan for the others."""
    integer = (n >= 0) & (n == jnp.floor(n))
    order = jnp.where(integer, n, 1).astype(jnp.int32)
    return jnp.where(integer, sp.polygamma(order, x).astype(x.dtype), jnp.nan)


def _zeta(x, q):
    """Hurwitz zeta with the numpy kernel's (Eigen's) poles: at a non-positive integer q,
    inf for even x, nan for odd x; inf at x == 1; nan where x < 1."""
    integer_q = (q <= 0) & (q == jnp.floor(q))
    even_x = jnp.mod(x, 2) == 0
    pole = (x == 1) | (integer_q & even_x)
    bad = (x < 1) | ((q <= 0) & (x != jnp.floor(x))) | (integer_q & ~even_x)
    ok = ~(pole | bad)
    value = sp.zeta(jnp.where(ok, x, 2), jnp.where(ok, q, 1))
    return jnp.where(pole, jnp.inf, jnp.where(bad | jnp.isnan(x) | jnp.isnan(q), jnp.nan, value))


def _betainc(a, b, x):
    """I_x(a, b), nan outside finite a, b > 0 and 0 <= x <= 1, as TensorFlow (JAX gives 0/1
    at some of them)."""
    valid = (a > 0) & (b > 0) & jnp.isfinite(a) & jnp.isfinite(b) & (x >= 0) & (x <= 1)
    return jnp.where(valid, sp.betainc(a, b, x), jnp.nan)


_SCIPY = {
    "BesselI0": sp.i0, "BesselI0e": sp.i0e, "BesselI1": sp.i1, "BesselI1e": sp.i1e,
    "Ndtri": sp.ndtri, "Polygamma": _polygamma, "Zeta": _zeta, "Betainc": _betainc,
}

for _name, _fn in _SCIPY.items():
    lowering(_name)((lambda fn: lambda ctx, node, *xs: fn(*jnp.broadcast_arrays(*xs)))(
        half_in_float32(_fn)))


@lowering("InvertPermutation")
def _invert_permutation(ctx, node, x):
    """``out[x[i]] = i``. A compiled program cannot raise: an index out of range is dropped
    (XLA's scatter semantics), where the numpy kernel reports it."""
    return jnp.zeros_like(x).at[x].set(jnp.arange(x.shape[0], dtype=x.dtype), mode="drop")
