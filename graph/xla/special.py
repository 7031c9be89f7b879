"""Lowerings of the special math functions (graph/ops/special.py): elementwise, one line each."""
from __future__ import annotations

import jax.numpy as jnp
from jax import lax
from jax.scipy import special as sp

from graph.xla.lowering import lowering


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
    "Igamma": sp.gammainc, "Igammac": sp.gammaincc,
    "TruncateDiv": _truncate_div, "TruncateMod": lax.rem,
    "LeftShift": jnp.left_shift, "RightShift": jnp.right_shift,
}

for _name, _fn in _FUNCTIONS.items():
    lowering(_name)((lambda fn: lambda ctx, node, *xs: fn(*xs))(_fn))
