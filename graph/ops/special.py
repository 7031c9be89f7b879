"""Elementwise ops of ``tf.math`` beyond arithmetic: trigonometry, special functions,
safe divisions, float predicates and bit shifts.

numpy has no erf, lgamma, digamma, erfinv or incomplete gamma ufunc, so they are
written here vectorized, computed in float64 and cast back to the input dtype:
- erf/erfc: the all-positive series erf(x) = 2x/sqrt(pi) e^-x^2 sum (2x^2)^n/(2n+1)!!
  for |x| < 1, the continued fraction of erfc beyond; about 1e-15 relative.
- lgamma/digamma: recurrence up to x >= 15 then Stirling's / the asymptotic series,
  reflection for x < 0; about 1e-15 absolute (lgamma's relative error grows near its
  zeros at 1 and 2).
- erfinv: Winitzki's approximation refined by two Halley steps on erf (erfc in the
  tails, where 1 - |y| is exact); about 1e-15 relative.
- igamma/igammac: the power series (x < a + 1) or Legendre's continued fraction,
  iterated until every element converged; about 1e-14 relative.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import bool_
from graph.errors import InvalidArgumentError
from graph.ops.math import binary_rule, unary_rule
from graph.registry import register_op

_SQRT_PI = np.sqrt(np.pi)
_LOG_SQRT_2PI = 0.5 * np.log(2 * np.pi)


def _float64(fn):
    """A kernel computing ``fn`` in float64 and returning the input's dtype."""
    def kernel(*args):
        dtype = np.result_type(*args)
        with np.errstate(all="ignore"):
            out = fn(*(np.asarray(a, np.float64) for a in args))
        return np.asarray(out).astype(dtype, copy=False)
    kernel.__name__ = fn.__name__
    return kernel


# -- erf, erfc, erfinv ---------------------------------------------------------------

def _erf_series(x):
    """erf(x) for |x| < 1: every term is positive, so nothing cancels."""
    x2 = 2 * x * x
    term = np.ones_like(x)
    total = np.ones_like(x)
    for n in range(1, 30):
        term = term * x2 / (2 * n + 1)
        total = total + term
    return 2 / _SQRT_PI * x * np.exp(-x * x) * total


def _erfc_fraction(x):
    """erfc(x) for x >= 1: exp(-x^2)/sqrt(pi) / (x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))."""
    tail = x
    for n in range(250, 0, -1):
        tail = x + (n / 2) / tail
    return np.exp(-x * x) / _SQRT_PI / tail


def _erf_parts(x):
    """(erf(x), erfc(x)) with each accurate where it is small; each formula runs
    only on the elements it serves."""
    x = np.asarray(x, np.float64)
    erf, erfc = np.empty_like(x), np.empty_like(x)
    small = np.abs(x) < 1
    s = _erf_series(x[small])
    erf[small], erfc[small] = s, 1 - s
    large = ~small & ~np.isnan(x)
    xl = x[large]
    c = _erfc_fraction(np.abs(xl))  # erfc(|x|)
    erf[large] = np.sign(xl) * (1 - c)
    erfc[large] = np.where(xl > 0, c, 2 - c)
    nan = np.isnan(x)
    erf[nan], erfc[nan] = x[nan], x[nan]
    return erf, erfc


def erf(x):
    return _erf_parts(x)[0]


def erfc(x):
    return _erf_parts(x)[1]


def erfinv(y):
    t = np.abs(y)
    a = 0.147
    ln = np.log1p(-t * t)
    first = 2 / (np.pi * a) + ln / 2
    u = np.sqrt(np.sqrt(first * first - ln / a) - first)  # Winitzki: 2e-3 relative
    u = np.where(t < 1e-4, t * (_SQRT_PI / 2), u)  # erf(u) ~ 2u/sqrt(pi) near 0
    tail = t > 0.5
    for _ in range(2):
        e, c = _erf_parts(u)
        # f(u) = erf(u) - t, written with erfc in the tail where 1 - t is exact
        f = np.where(tail, (1 - t) - c, e - t)
        slope = 2 / _SQRT_PI * np.exp(-u * u)
        u = u - f / (slope * (1 + u * f / slope))  # Halley's step: f'' = -2u f'
    u = np.where(t == 1, np.inf, np.where(t == 0, 0.0, u))
    return np.where((t > 1) | np.isnan(y), np.nan, np.copysign(u, y))


# -- lgamma, digamma -------------------------------------------------------------------

_SHIFT = 15.0


def _shifted(x):
    """(z, product): z = x + k >= 15 and the product x (x+1) ... (x+k-1), for x > 0."""
    z, product = x.copy(), np.ones_like(x)
    for _ in range(int(_SHIFT)):
        low = z < _SHIFT
        product = np.where(low, product * z, product)
        z = np.where(low, z + 1, z)
    return z, product


def _lgamma_positive(x):
    z, product = _shifted(x)
    r = 1 / (z * z)
    series = (1 / 12 - r * (1 / 360 - r * (1 / 1260 - r * (1 / 1680 - r / 1188)))) / z
    return (z - 0.5) * np.log(z) - z + _LOG_SQRT_2PI + series - np.log(product)


def lgamma(x):
    negative = x < 0
    pos = _lgamma_positive(np.where(negative, 1 - x, np.where(x == 0, 1.0, x)))
    frac = x - np.round(x)  # |sin(pi x)| = |sin(pi frac)|, frac exact and in [-1/2, 1/2]
    reflected = np.log(np.pi / np.abs(np.sin(np.pi * frac))) - pos
    out = np.where(negative, reflected, pos)
    pole = (x <= 0) & (frac == 0)
    return np.where(pole | np.isinf(x), np.inf, np.where(np.isnan(x), x, out))


def _digamma_positive(x):
    z, total = x.copy(), np.zeros_like(x)
    for _ in range(int(_SHIFT)):
        low = z < _SHIFT
        total = np.where(low, total + 1 / z, total)
        z = np.where(low, z + 1, z)
    r = 1 / (z * z)
    series = r * (1 / 12 - r * (1 / 120 - r * (1 / 252 - r * (1 / 240 - r / 132))))
    return np.log(z) - 0.5 / z - series - total


def digamma(x):
    negative = x < 0
    pos = _digamma_positive(np.where(negative, 1 - x, np.where(x == 0, 1.0, x)))
    frac = x - np.round(x)  # tan has period pi: exact reduction
    reflected = pos - np.pi / np.tan(np.pi * frac)
    out = np.where(negative, reflected, pos)
    pole = (x <= 0) & (frac == 0)
    out = np.where(x == np.inf, np.inf, out)
    return np.where(pole | (x == -np.inf) | np.isnan(x), np.nan, out)


# -- igamma, igammac ------------------------------------------------------------------

def _igamma_parts(a, x):
    """(P(a, x), Q(a, x)), the regularized lower and upper incomplete gamma functions."""
    a, x = np.broadcast_arrays(a, x)
    valid = (a > 0) & (x >= 0)
    a = np.where(valid, a, 1.0)
    x = np.where(valid, x, 1.0)
    log_front = a * np.log(np.where(x > 0, x, 1.0)) - x - lgamma(a)
    front = np.where(x > 0, np.exp(log_front), 0.0)
    use_series = x < a + 1

    # series: P = front * sum_n x^n / (a (a+1) ... (a+n))
    term = 1 / a
    total = term.copy()
    n = 0
    while n < 5000:
        n += 1
        term = term * x / (a + n)
        total = total + term
        if not np.any(use_series & (np.abs(term) > np.abs(total) * 1e-17)):
            break
    p_series = front * total

    # continued fraction for Q (modified Lentz)
    tiny = 1e-300
    b = x + 1 - a
    c = np.full_like(x, 1 / tiny)
    d = 1 / np.where(b == 0, tiny, b)
    h = d.copy()
    for i in range(1, 5000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = 1 / np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        delta = d * c
        h = h * delta
        if not np.any(~use_series & (np.abs(delta - 1) > 1e-16)):
            break
    q_fraction = front * h

    p = np.where(use_series, p_series, 1 - q_fraction)
    q = np.where(use_series, 1 - p_series, q_fraction)
    p = np.where(x == np.inf, 1.0, p)
    q = np.where(x == np.inf, 0.0, q)
    return np.where(valid, p, np.nan), np.where(valid, q, np.nan)


def igamma(a, x):
    return _igamma_parts(a, x)[0]


def igammac(a, x):
    return _igamma_parts(a, x)[1]


# -- safe and truncating divisions ---------------------------------------------------------

def _xlogy(x, y):
    return np.where(x == 0, np.zeros_like(x), x * np.log(y))


def _xlog1py(x, y):
    return np.where(x == 0, np.zeros_like(x), x * np.log1p(y))


def _xdivy(x, y):
    return np.where(x == 0, np.zeros_like(x), x / y)


def _div_no_nan(x, y):
    return np.where(y == 0, np.zeros_like(x), x / np.where(y == 0, np.ones_like(y), y))


def _mul_no_nan(x, y):
    return np.where(y == 0, np.zeros_like(x), x * y)


def _check_int_divisor(y) -> None:
    if np.asarray(y).dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError(message="Integer division by zero")


def _truncate_div(x, y):
    if np.asarray(x).dtype.kind == "f":
        return np.trunc(np.true_divide(x, y))
    _check_int_divisor(y)
    q = np.floor_divide(x, y)
    # floor and truncation differ when the signs differ and the division is inexact
    return q + ((np.remainder(x, y) != 0) & ((x < 0) != (y < 0)))


def _truncate_mod(x, y):
    if np.asarray(x).dtype.kind != "f":
        _check_int_divisor(y)
    return np.fmod(x, y)


def _shift(ufunc):
    """Shifts as C++ does on the value's bits; TF leaves shifts past the width undefined."""
    def kernel(x, y):
        return ufunc(x, y).astype(np.asarray(x).dtype, copy=False)
    return kernel


# -- registration ---------------------------------------------------------------------

_FLOAT_HINT = "Cast it to a float dtype first: tf.cast(x, tf.float32)."

_UNARY = {
    "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos, "Atan": np.arctan,
    "Sinh": np.sinh, "Cosh": np.cosh, "Asinh": np.arcsinh, "Acosh": np.arccosh,
    "Atanh": np.arctanh, "Log1p": np.log1p, "Expm1": np.expm1, "Rint": np.rint,
    "Reciprocal": np.reciprocal,
    "Erf": _float64(erf), "Erfc": _float64(erfc), "Erfinv": _float64(erfinv),
    "Lgamma": _float64(lgamma), "Digamma": _float64(digamma),
}
_PREDICATES = {"IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite}
# name: (kernel, allowed kinds)
_BINARY = {
    "Atan2": (np.arctan2, "f"),
    "Xlogy": (_xlogy, "fc"), "Xlog1py": (_xlog1py, "fc"), "Xdivy": (_xdivy, "fc"),
    "DivNoNan": (_div_no_nan, "fc"), "MulNoNan": (_mul_no_nan, "fc"),
    "NextAfter": (np.nextafter, "f"),
    "Igamma": (_float64(igamma), "f"), "Igammac": (_float64(igammac), "f"),
    "TruncateDiv": (_truncate_div, "fi"), "TruncateMod": (_truncate_mod, "fi"),
    "LeftShift": (_shift(np.left_shift), "i"), "RightShift": (_shift(np.right_shift), "i"),
}


def _predicate_rule(op: str):
    rule = unary_rule(op, "f", _FLOAT_HINT)

    def infer(inputs, attrs):
        (t,) = rule(inputs, attrs)
        return [type(t)(bool_, t.shape)]
    return infer


def _nextafter_rule():
    rule = binary_rule("NextAfter", "f")

    def infer(inputs, attrs):
        if inputs and inputs[0].dtype.name == "float16":
            raise InvalidArgumentError(
                message="NextAfter does not support float16 tensors (it takes float32 and "
                        "float64 tensors).")
        return rule(inputs, attrs)
    return infer


_COMPLEX_TOO = {"Tan", "Asin", "Acos", "Atan", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh",
                "Log1p", "Expm1", "Reciprocal"}  # TensorFlow also has complex kernels for these

for _name, _kernel in _UNARY.items():
    register_op(_name, unary_rule(_name, "fc" if _name in _COMPLEX_TOO else "f", _FLOAT_HINT),
                _kernel)
for _name, _kernel in _PREDICATES.items():
    register_op(_name, _predicate_rule(_name), _kernel)
for _name, (_kernel, _allowed) in _BINARY.items():
    rule = _nextafter_rule() if _name == "NextAfter" else \
        binary_rule(_name, _allowed, hint=_FLOAT_HINT if _allowed == "f" else "")
    register_op(_name, rule, _kernel)
