"""float32 exp, log, tanh and sigmoid rounded as TensorFlow's CPU kernels round them.

numpy's float32 transcendental functions are not what TensorFlow prints: its
SIMD ``exp`` is off by one unit in the last place for ~40% of inputs, so
``tf.exp(1.0)`` would print ``2.718282`` where TensorFlow prints ``2.7182817``.
TensorFlow's element-wise kernels are Eigen expressions evaluated in packets of
8 floats (AVX, no FMA in the published CPU build): the packet code is a
Cephes-style polynomial, written out below in float32 numpy (every multiply and
add rounded separately, as without FMA), and the ``n % 8`` elements left after
the last whole packet of the flattened array go through the scalar function
(the C library's ``expf``..., called through ctypes). ``tanh`` uses the polynomial for every element, scalars included.
Kernels run with denormals flushed to zero (inputs and results).

The public functions take any array or scalar; only float32 goes this way (other
dtypes keep numpy's function).
"""

from __future__ import annotations

import ctypes
import ctypes.util

import numpy as np

_f32 = np.float32
_PACKET = 8                      # floats per AVX packet
_TINY = np.finfo(np.float32).tiny  # below it a result is flushed to zero


def _madd(a, b, c):
    """Eigen's pmadd without FMA: a multiply and an add, each rounded to float32."""
    return np.add(np.multiply(a, b, dtype=_f32), c, dtype=_f32)


def _flush(y):
    """Denormal results become (signed) zero, as under the kernels' FTZ mode."""
    return np.where(np.abs(y) < _TINY, y * _f32(0), y)


def _exp_reduce(x):
    """x = m*ln(2) + r with |r| <= ln(2)/2: (m, r), ln(2) subtracted in two parts."""
    m = np.floor(_madd(x, _f32(1.44269504088896341), _f32(0.5)))
    r = _madd(m, _f32(-0.693359375), x)
    return m, _madd(m, _f32(2.12194440e-4), r)


def _ldexp(y, m):
    return np.ldexp(y, m.astype(np.int32)).astype(_f32, copy=False)


def _exp_packet(x):
    x = np.minimum(x, _f32(88.723))
    m, r = _exp_reduce(x)
    r2 = r * r
    even = _madd(r2, _f32(1.37449637986719608306884765625e-3), _f32(4.166965186595916748046875e-2))
    odd = _madd(r2, _f32(8.36894474923610687255859375e-3), _f32(0.16666518151760101318359375))
    even = _madd(r2, even, _f32(0.49999988079071044921875))
    y = _madd(r2, _madd(r, odd, even), r + _f32(1))
    return _ldexp(y, m)


def _exp_packet_checked(x0):
    y = np.maximum(_exp_packet(x0), x0)
    return np.where(x0 < _f32(-104), _f32(0), y)


def _log_packet(x0):
    mant, e = np.frexp(x0)
    e = e.astype(_f32)
    small = mant < _f32(0.707106781186547524)
    x = (mant - _f32(1)) + np.where(small, mant, _f32(0))
    e = e - small.astype(_f32)
    p = _madd(_madd(_f32(0.18256296349849254), x, _f32(1.0000000190281063)), x, _f32(1.0000000190281136))
    q = _madd(_madd(_madd(_f32(0.049616247954120038), x, _f32(0.59923249590823520)), x,
                    _f32(1.4999999999999927)), x, _f32(1.0))
    y = _madd(e, _f32(0.693147180559945309), np.divide(x * p, q, dtype=_f32))
    y = np.where(x0 == np.inf, x0, y)
    y = np.where(x0 == 0, _f32(-np.inf), y)
    return np.where((x0 < 0) | np.isnan(x0), _f32(np.nan), y)


def _sigmoid_packet(x0):
    """Eigen's float logistic: exp(x/2) squared, so no step is ever denormal."""
    x = np.minimum(x0, _f32(16.6355324)) * _f32(0.5)
    m, r = _exp_reduce(x)
    r2 = r * r
    even = _madd(r2, _f32(4.1898667812347412109375e-2), _f32(0.49999141693115234375))
    odd = _madd(r2, _f32(8.33471305668354034423828125e-3), _f32(0.16666877269744873046875))
    e = _ldexp(_madd(r2, _madd(r, odd, even), r + _f32(1)), m)
    e = e * e
    return np.where(x0 < _f32(-104), _f32(0), np.divide(e, _f32(1) + e, dtype=_f32))


def _libm(name, fn):
    """The C library's float function (``expf``...), which TensorFlow's scalar path calls
    (not always correctly rounded: ``log1pf(6)`` is one unit above ``log(7)``); where no C
    math library can be loaded, ``fn`` in float64 rounded once. It is only ever called on
    the at most 7 elements after the last packet, so one ctypes call each is cheap."""
    try:
        c_fn = getattr(ctypes.CDLL(ctypes.util.find_library("m") or "libm.so.6"), name)
    except (OSError, AttributeError):
        return lambda x: fn(x.astype(np.float64)).astype(_f32)
    c_fn.restype, c_fn.argtypes = ctypes.c_float, [ctypes.c_float]
    return lambda x: np.array([c_fn(v) for v in x.tolist()], _f32)


_expf = _libm("expf", np.exp)


def _sigmoid_scalar(x):
    e = _expf(np.minimum(x, _f32(16.6355324)))
    return np.divide(e, _f32(1) + e, dtype=_f32)


def _log1p_packet(x):
    """Kahan's log1p over the packet log, as Eigen's generic_log1p."""
    xp1 = x + _f32(1)
    log1 = _log_packet(xp1)
    exact = (xp1 == _f32(1)) | (xp1 == log1)
    return np.where(exact, x, x * np.divide(log1, xp1 - _f32(1), dtype=_f32))


def _expm1_packet(x):
    """Kahan's expm1 over the packet exp and log, as Eigen's generic_expm1."""
    u = _exp_packet_checked(x)
    um1 = u - _f32(1)
    logu = _log_packet(u)
    y = np.where(logu == u, u, um1 * np.divide(x, logu, dtype=_f32))
    return np.where(u == _f32(1), x, np.where(um1 == _f32(-1), _f32(-1), y))


def _tanh(x):
    """Eigen's [9/8] rational approximation (clamped where it reaches exactly 1)."""
    c = _f32(7.90738964080810547)
    x = np.clip(_flush(x), -c, c)
    x2 = x * x
    p = _madd(_madd(_madd(_f32(1.394553628e-8), x2, _f32(2.102733560e-5)), x2, _f32(3.520756727e-3)),
              x2, _f32(1.340216100e-1))
    q = _madd(_madd(_madd(_madd(_f32(8.015776984e-7), x2, _f32(3.326951409e-4)), x2, _f32(2.597254514e-2)),
                    x2, _f32(4.673548340e-1)), x2, _f32(1.0))
    return _flush(np.divide(_madd(x2 * x, p, x), q, dtype=_f32))


def packets(packet, scalar):
    """``f(array)``: ``packet`` over the flattened array's whole packets of 8, ``scalar``
    over the rest, as Eigen's vectorized evaluation splits one contiguous range."""
    def apply(x):
        flat = x.reshape(-1)
        whole = flat.size - flat.size % _PACKET
        out = np.empty(flat.size, _f32)
        if whole:
            out[:whole] = packet(_flush(flat[:whole]))
        if whole < flat.size:
            out[whole:] = scalar(flat[whole:])
        return _flush(out).reshape(x.shape)
    return apply


def float32_only(fn, fallback):
    """``fn`` on float32 arrays and scalars, ``fallback`` (numpy's function) on the rest."""
    def kernel(x):
        a = np.asarray(x)
        if a.dtype != np.float32:
            return fallback(x)
        with np.errstate(all="ignore"):
            out = fn(a)
        return out if a.ndim else _f32(out)
    kernel.__name__ = getattr(fallback, "__name__", "kernel")
    return kernel


exp = float32_only(packets(_exp_packet_checked, _expf), np.exp)
log = float32_only(packets(_log_packet, _libm("logf", np.log)), np.log)
log1p = float32_only(packets(_log1p_packet, _libm("log1pf", np.log1p)), np.log1p)
expm1 = float32_only(packets(_expm1_packet, _libm("expm1f", np.expm1)), np.expm1)
tanh = float32_only(_tanh, np.tanh)
sigmoid32 = packets(_sigmoid_packet, _sigmoid_scalar)  # math.py wraps it with its own fallback
