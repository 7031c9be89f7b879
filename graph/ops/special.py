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
- ndtri (and so erfcinv): Winitzki's start written with log(y (2 - y)), Halley steps on
  erfc, so the far tail (p = 1e-300) keeps its digits.
- bessel_i0/i1 (and the exp(-|x|) scaled i0e/i1e): the power series up to |x| = 30,
  Hankel's asymptotic series beyond.
- betainc: the continued fraction of I_x(a, b) with the symmetry 1 - I_{1-x}(b, a).
- zeta (Hurwitz) by Euler-Maclaurin as Cephes does; polygamma from zeta and lgamma.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import time

import numpy as np

from graph.dtypes import bool_, float64
from graph.errors import DTypeNotSupportedError, InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity, same_dtype
from graph.ops.math import binary_rule, unary_rule
from graph.registry import register_op
from graph.shapes import TensorShape

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


def _c_library(name: str, fallback):
    """A kernel calling the C library's ``name`` (``namef`` on float32) on each element, as
    TensorFlow's kernels without a vectorized form do: its ``Lgamma`` is glibc's
    ``lgammaf``, exactly 0 at 1 and 2 (the float64 series here gives 3.6e-15) and unlike a
    float64 ``lgamma`` rounded once in a third of the last digits. ``fallback`` serves
    other dtypes, and every dtype where no C math library can be loaded."""
    try:
        libm = ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6")
        fns = {np.dtype(np.float32): (getattr(libm, name + "f"), ctypes.c_float),
               np.dtype(np.float64): (getattr(libm, name), ctypes.c_double)}
    except (OSError, AttributeError):
        return fallback
    for fn, c_type in fns.values():
        fn.restype, fn.argtypes = c_type, [c_type]

    def kernel(x):
        x = np.asarray(x)
        if x.dtype not in fns:
            return fallback(x)
        fn = fns[x.dtype][0]
        return np.array([fn(v) for v in x.reshape(-1).tolist()], x.dtype).reshape(x.shape)[()]
    kernel.__name__ = name
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


def igamma_grad_a(a, x):
    """dP(a, x)/da (TensorFlow's IgammaGradA): ``_igamma_parts``'s series and continued
    fraction differentiated along with their values (forward mode), so the derivative is as
    exact as the function. With f = x^a e^-x / Gamma(a): df/da = f (log x - digamma(a))."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    valid = (a > 0) & (x >= 0)
    a = np.where(valid, a, 1.0)
    x = np.where(valid, x, 1.0)
    log_x = np.log(np.where(x > 0, x, 1.0))
    front = np.where(x > 0, np.exp(a * log_x - x - lgamma(a)), 0.0)
    d_front = front * (log_x - digamma(a))
    use_series = x < a + 1

    term, d_term = 1 / a, -1 / a ** 2  # P = front * sum of terms
    total, d_total = term.copy(), d_term.copy()
    for n in range(1, 5000):
        ratio = x / (a + n)
        d_term = (d_term - term / (a + n)) * ratio
        term = term * ratio
        total, d_total = total + term, d_total + d_term
        if not np.any(use_series & ((np.abs(term) > np.abs(total) * 1e-17)
                                    | (np.abs(d_term) > np.abs(d_total) * 1e-17))):
            break
    d_p_series = d_front * total + front * d_total

    tiny = 1e-300  # Q = front * h, h by modified Lentz; d/da of each step alongside
    b = x + 1 - a  # (db/da = -1 at every step)
    safe_b = np.where(b == 0, tiny, b)
    c, d_c = np.full_like(x, 1 / tiny), np.zeros_like(x)
    d, d_d = 1 / safe_b, 1 / safe_b ** 2
    h, d_h = d.copy(), d_d.copy()
    for i in range(1, 5000):
        an, d_an = -i * (i - a), float(i)
        b = b + 2
        denominator = an * d + b
        small = np.abs(denominator) < tiny
        new_d = 1 / np.where(small, tiny, denominator)
        d_d = np.where(small, 0.0, -(d_an * d + an * d_d - 1) * new_d ** 2)
        d = new_d
        new_c = b + an / c
        d_c = np.where(np.abs(new_c) < tiny, 0.0, -1 + d_an / c - an * d_c / c ** 2)
        c = np.where(np.abs(new_c) < tiny, tiny, new_c)
        delta, d_delta = d * c, d_d * c + d * d_c
        h, d_h = h * delta, d_h * delta + h * d_delta
        if not np.any(~use_series & ((np.abs(delta - 1) > 1e-16)
                                     | (np.abs(d_delta) > np.abs(d_h / np.where(h == 0, 1, h))
                                        * 1e-16))):
            break
    d_q_fraction = d_front * h + front * d_h
    grad = np.where(use_series, d_p_series, -d_q_fraction)
    grad = np.where((x == 0) | (x == np.inf), 0.0, grad)
    return np.where(valid, grad, np.nan)


def igamma(a, x):
    return _igamma_parts(a, x)[0]


def igammac(a, x):
    return _igamma_parts(a, x)[1]


# -- ndtri (the normal quantile) ----------------------------------------------------------

def _erfcinv_small(y):
    """u with erfc(u) = y for 0 < y <= 1: Winitzki's start, its log(1 - t^2) written as
    log(y (2 - y)) so that tiny y keep their digits, then Halley steps on erfc."""
    a = 0.147
    ln = np.log(y) + np.log(2 - y)
    first = 2 / (np.pi * a) + ln / 2
    u = np.sqrt(np.maximum(np.sqrt(first * first - ln / a) - first, 0.0))
    for _ in range(4):
        f = _erf_parts(u)[1] - y
        slope = -2 / _SQRT_PI * np.exp(-u * u)
        u = u - f / (slope * (1 + u * f / slope))  # Halley's step: f'' = -2u f'
    return u


def ndtri(p):
    """The x with Phi(x) = p: -sqrt(2) erfcinv(2p), the tail solved on the small side."""
    y = 2 * np.asarray(p, np.float64)
    upper = y > 1
    small = np.where(upper, 2 - y, y)  # erfcinv(2 - y) = -erfcinv(y)
    inside = (small > 0) & (small <= 1)
    u = _erfcinv_small(np.where(inside, small, 1.0))
    u = np.where(upper, -u, u)
    x = -np.sqrt(2) * u
    x = np.where(y == 0, -np.inf, np.where(y == 2, np.inf, x + 0.0))  # (no -0.0)
    return np.where((y < 0) | (y > 2) | np.isnan(y), np.nan, x)


# -- modified Bessel functions I0, I1 ----------------------------------------------------------

_BESSEL_SERIES_LIMIT = 30.0


def _bessel_ie(x, order: int):
    """exp(-|x|) I_order(x) (order 0 or 1): the all-positive power series up to |x| = 30,
    Hankel's asymptotic series beyond (its error there is below e^-60)."""
    ax = np.abs(x)
    small = ax <= _BESSEL_SERIES_LIMIT
    xs = np.where(small, ax, 0.0)
    q = xs * xs / 4
    term = np.ones_like(xs) if order == 0 else xs / 2
    total = term.copy()
    for k in range(1, 120):
        term = term * q / (k * (k + order))
        total = total + term
    series = total * np.exp(-xs)
    xl = np.where(small, 1.0, ax)
    mu = 4.0 * order * order
    term = np.ones_like(xl)
    asym = term.copy()
    for k in range(1, 40):
        term = term * -(mu - (2 * k - 1) ** 2) / (k * 8 * xl)
        asym = asym + term
    asym = asym / np.sqrt(2 * np.pi * xl)
    out = np.where(small, series, asym)
    out = np.where(np.isinf(ax), 0.0, out)
    return np.where(x < 0, -out, out) if order == 1 else out


def bessel_i0e(x):
    return _bessel_ie(x, 0)


def bessel_i1e(x):
    return _bessel_ie(x, 1)


def bessel_i0(x):
    return _bessel_ie(x, 0) * np.exp(np.abs(x))


def bessel_i1(x):
    return _bessel_ie(x, 1) * np.exp(np.abs(x))


# -- regularized incomplete beta -----------------------------------------------------------

def _lbeta(a, b):
    return lgamma(a) + lgamma(b) - lgamma(a + b)


def _beta_fraction(a, b, x):
    """The continued fraction of I_x(a, b) (modified Lentz), for x < (a + 1) / (a + b + 2)."""
    tiny = 1e-300
    c = np.ones_like(x)
    d = 1 - (a + b) * x / (a + 1)
    d = 1 / np.where(np.abs(d) < tiny, tiny, d)
    h = d.copy()
    for m in range(1, 3000):
        m2 = 2 * m
        for an in (m * (b - m) * x / ((a + m2 - 1) * (a + m2)),
                   -(a + m) * (a + b + m) * x / ((a + m2) * (a + m2 + 1))):
            d = 1 + an * d
            d = 1 / np.where(np.abs(d) < tiny, tiny, d)
            c = 1 + an / c
            c = np.where(np.abs(c) < tiny, tiny, c)
            delta = c * d
            h = h * delta
        if not np.any(np.abs(delta - 1) > 1e-16):
            break
    return h


def betainc(a, b, x):
    """I_x(a, b) for a, b > 0 and 0 <= x <= 1 (else nan), by the continued fraction on
    the side where it converges, I_x(a, b) = 1 - I_{1-x}(b, a) on the other."""
    a, b, x = np.broadcast_arrays(a, b, x)
    valid = (a > 0) & (b > 0) & (x >= 0) & (x <= 1)
    flip = x > (a + 1) / (a + b + 2)
    a1 = np.where(valid, np.where(flip, b, a), 1.0)
    b1 = np.where(valid, np.where(flip, a, b), 1.0)
    x1 = np.where(valid, np.where(flip, 1 - x, x), 0.5)
    inner = (x1 > 0) & (x1 < 1)
    xs = np.where(inner, x1, 0.5)
    log_front = a1 * np.log(xs) + b1 * np.log1p(-xs) - _lbeta(a1, b1)
    part = np.where(inner, np.exp(log_front) * _beta_fraction(a1, b1, xs) / a1,
                    np.where(x1 >= 1, 1.0, 0.0))
    out = np.where(flip, 1 - part, part)
    return np.where(valid, out, np.nan)


# -- Hurwitz zeta and polygamma ----------------------------------------------------------------

# B_2j / (2j)! for j = 1..12 (Cephes' zeta: 9 shifted terms, then Euler-Maclaurin)
_ZETA_A = np.array([12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                    7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                    -4.5979787224074726105e15, 1.8152105401943546773e17,
                    -7.1661652561756670113e18])


def zeta(x, q):
    """The Hurwitz zeta function sum_k (k + q)^-x for x > 1 (q <= 0 only for integer x),
    as Cephes computes it: terms summed until q + k > 9, then Euler-Maclaurin. At a
    non-positive integer q it is inf for even x, nan for odd x (Eigen's choice)."""
    x, q = np.broadcast_arrays(np.asarray(x, np.float64), np.asarray(q, np.float64))
    integer_q = (q <= 0) & (q == np.floor(q))
    even_x = np.mod(x, 2) == 0
    pole = (x == 1) | (integer_q & even_x)
    bad = ((x < 1) | ((q <= 0) & (x != np.floor(x))) | (integer_q & ~even_x)
           | np.isnan(x) | np.isnan(q))
    ok = ~(pole | bad)
    xs, qs = np.where(ok, x, 2.0), np.where(ok, q, 1.0)
    w = qs.copy()
    last = w ** -xs
    total = last.copy()
    k = 0
    while k < 9 or np.any(w <= 9):
        more = (w <= 9) | (k < 9)
        w = np.where(more, w + 1, w)
        last = np.where(more, w ** -xs, last)
        total = np.where(more, total + last, total)
        k += 1
    # the last term w^-x was summed whole: the trapezoid takes half of it
    total = total + last * w / (xs - 1) - 0.5 * last
    factor = np.ones_like(xs)
    power = last
    for j in range(12):
        factor = factor * (xs + 2 * j)
        power = power / w
        total = total + factor * power / _ZETA_A[j]
        factor = factor * (xs + 2 * j + 1)
        power = power / w
    return np.where(pole, np.inf, np.where(bad, np.nan, total))


def polygamma(n, x):
    """psi^(n)(x): digamma for n = 0, (-1)^(n+1) n! zeta(n + 1, x) for integer n >= 1;
    nan for other n."""
    n, x = np.broadcast_arrays(np.asarray(n, np.float64), np.asarray(x, np.float64))
    integer = (n >= 0) & (n == np.floor(n))
    k = np.where(integer, n, 1.0)
    sign = np.where(np.mod(k, 2) == 0, -1.0, 1.0)  # (-1)^(n+1)
    higher = sign * np.exp(lgamma(k + 1)) * zeta(k + 1, x)
    out = np.where(n == 0, digamma(x), higher)
    return np.where(integer, out, np.nan)


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
    """Shifts as TensorFlow's kernel does: the shift clamped to [0, bits - 1] (``1 << -1``
    is 1 and ``1 << 40`` is the int32 sign bit), the bits of the value shifted."""
    def kernel(x, y):
        dtype = np.asarray(x).dtype
        y = np.clip(y, 0, dtype.itemsize * 8 - 1).astype(dtype, copy=False)
        return ufunc(x, y).astype(dtype, copy=False)
    return kernel


# -- registration ---------------------------------------------------------------------

_FLOAT_HINT = "Cast it to a float dtype first: tf.cast(x, tf.float32)."

_UNARY = {
    "Tan": np.tan, "Asin": np.arcsin, "Acos": np.arccos, "Atan": np.arctan,
    "Sinh": np.sinh, "Cosh": np.cosh, "Asinh": np.arcsinh, "Acosh": np.arccosh,
    "Atanh": np.arctanh, "Log1p": np.log1p, "Expm1": np.expm1, "Rint": np.rint,
    "Reciprocal": np.reciprocal,
    "Erf": _float64(erf), "Erfc": _float64(erfc), "Erfinv": _float64(erfinv),
    "Lgamma": _c_library("lgamma", _float64(lgamma)), "Digamma": _float64(digamma), "Ndtri": _float64(ndtri),
    "BesselI0": _float64(bessel_i0), "BesselI1": _float64(bessel_i1),
    "BesselI0e": _float64(bessel_i0e), "BesselI1e": _float64(bessel_i1e),
}
_PREDICATES = {"IsNan": np.isnan, "IsInf": np.isinf, "IsFinite": np.isfinite}
# name: (kernel, allowed kinds)
_BINARY = {
    "Atan2": (np.arctan2, "f"),
    "Xlogy": (_xlogy, "fc"), "Xlog1py": (_xlog1py, "fc"), "Xdivy": (_xdivy, "fc"),
    "DivNoNan": (_div_no_nan, "fc"), "MulNoNan": (_mul_no_nan, "fc"),
    "NextAfter": (np.nextafter, "f"),
    "Igamma": (_float64(igamma), "f"), "Igammac": (_float64(igammac), "f"),
    "IgammaGradA": (_float64(igamma_grad_a), "f"),
    "Zeta": (_float64(zeta), "f"), "Polygamma": (_float64(polygamma), "f"),
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
            raise DTypeNotSupportedError(
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


# -- timestamp ---------------------------------------------------------------------------

def _timestamp():
    return np.float64(time.time())


register_op("Timestamp", lambda inputs, attrs: [TensorType(float64, TensorShape([]))],
            _timestamp, stateful=True)


# -- betainc: three same-dtype inputs, each a scalar or of the one common shape ----------------

def _betainc_infer(inputs, attrs):
    expect_arity("Betainc", inputs, 3)
    dtype = same_dtype("Betainc", inputs)
    if dtype.name not in ("float32", "float64"):
        raise DTypeNotSupportedError(message=f"Betainc does not support {dtype.name} tensors "
                                           "(it takes float32 and float64 tensors).")
    shape = TensorShape([])
    for t, what in zip(inputs, "abx"):
        if t.shape.rank == 0:
            continue
        if shape.rank == 0:
            shape = t.shape
        elif not shape.is_compatible_with(t.shape):
            raise InvalidArgumentError(message=f"Shapes of a and {what} are inconsistent: "
                                               f"{shape} vs. {t.shape}")
        else:
            shape = shape.merge_with(t.shape)
    return [TensorType(dtype, shape)]


register_op("Betainc", _betainc_infer, _float64(betainc))


# -- invert_permutation ---------------------------------------------------------------------------

def _invert_permutation_infer(inputs, attrs):
    expect_arity("InvertPermutation", inputs, 1)
    x = inputs[0]
    if x.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(message=f"InvertPermutation does not support {x.dtype.name} "
                                           "tensors (it takes int32 and int64 tensors).")
    if x.shape.rank not in (None, 1):
        raise InvalidArgumentError(message="invert_permutation expects a 1D vector.")
    return [TensorType(x.dtype, TensorShape([x.shape[0] if x.shape.rank == 1 else None]))]


def _invert_permutation(x):
    n = x.shape[0]
    bad = (x < 0) | (x >= n)
    if bad.any():
        raise InvalidArgumentError(message=f"{x[bad][0]} is not between 0 and {n}")
    repeated = np.flatnonzero(np.bincount(x, minlength=n) > 1)
    if repeated.size:
        raise InvalidArgumentError(message=f"{repeated[0]} is duplicated in the input.")
    out = np.empty(n, dtype=x.dtype)
    out[x] = np.arange(n, dtype=x.dtype)
    return out


register_op("InvertPermutation", _invert_permutation_infer, _invert_permutation)
