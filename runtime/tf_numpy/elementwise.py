"""Elementwise tnp functions (numpy's ufuncs) on TensorFlow ops.

Operands are promoted as numpy promotes them (``dtype_rules``); functions that numpy
computes in floating point turn integer and bool inputs into float64.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import array_ops, complex_ops, math_ops, special_ops
from runtime.ops.control_flow import while_loop
from runtime.tf_numpy.creation import asarray, asarray_float, promote, zeros_like


def _float_unary(fn, name: str):
    def f(x):
        return fn(asarray_float(x))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}``; integers and bools are computed as float64."
    return f


def _same_unary(fn, name: str):
    def f(x):
        return fn(asarray(x))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}``, keeping the input's dtype."
    return f


def _binary(fn, name: str, to_float: bool = False):
    def f(x1, x2):
        x1, x2 = promote(x1, x2)
        if to_float and not (x1.dtype.is_floating or x1.dtype.is_complex):
            x1, x2 = math_ops.cast(x1, dtypes.float64), math_ops.cast(x2, dtypes.float64)
        return fn(x1, x2)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` with numpy's type promotion."
    return f


sqrt = _float_unary(math_ops.sqrt, "sqrt")
exp = _float_unary(math_ops.exp, "exp")
expm1 = _float_unary(special_ops.expm1, "expm1")
log = _float_unary(math_ops.log, "log")
log1p = _float_unary(special_ops.log1p, "log1p")
sin = _float_unary(math_ops.sin, "sin")
cos = _float_unary(math_ops.cos, "cos")
tan = _float_unary(special_ops.tan, "tan")
arcsin = _float_unary(special_ops.asin, "arcsin")
arccos = _float_unary(special_ops.acos, "arccos")
arctan = _float_unary(special_ops.atan, "arctan")
sinh = _float_unary(special_ops.sinh, "sinh")
cosh = _float_unary(special_ops.cosh, "cosh")
tanh = _float_unary(math_ops.tanh, "tanh")
arcsinh = _float_unary(special_ops.asinh, "arcsinh")
arccosh = _float_unary(special_ops.acosh, "arccosh")
arctanh = _float_unary(special_ops.atanh, "arctanh")
floor = _float_unary(math_ops.floor, "floor")
ceil = _float_unary(math_ops.ceil, "ceil")
exp2 = _float_unary(lambda x: math_ops.pow(asarray(2, x.dtype), x), "exp2")
log2 = _float_unary(lambda x: math_ops.log(x) / asarray(np.log(2.0), x.dtype), "log2")
log10 = _float_unary(lambda x: math_ops.log(x) / asarray(np.log(10.0), x.dtype), "log10")
cbrt = _float_unary(lambda x: math_ops.sign(x) * math_ops.pow(math_ops.abs(x),
                                                              asarray(1 / 3, x.dtype)), "cbrt")
deg2rad = _float_unary(lambda x: x * asarray(np.pi / 180, x.dtype), "deg2rad")
rad2deg = _float_unary(lambda x: x * asarray(180 / np.pi, x.dtype), "rad2deg")
fix = _float_unary(lambda x: math_ops.sign(x) * math_ops.floor(math_ops.abs(x)), "fix")
sinc = _float_unary(lambda x: math_ops.where(
    math_ops.equal(x, 0), asarray(1, x.dtype),
    math_ops.sin(x * asarray(np.pi, x.dtype))
    / math_ops.where(math_ops.equal(x, 0), asarray(1, x.dtype), x * asarray(np.pi, x.dtype))),
    "sinc")

absolute = abs = _same_unary(math_ops.abs, "absolute")  # noqa: A001
negative = _same_unary(math_ops.negative, "negative")
positive = _same_unary(lambda x: x, "positive")
sign = _same_unary(math_ops.sign, "sign")
square = _same_unary(math_ops.square, "square")
reciprocal = _same_unary(special_ops.reciprocal, "reciprocal")
conj = conjugate = _same_unary(complex_ops.conj, "conj")
logical_not = _same_unary(lambda x: math_ops.logical_not(math_ops.cast(x, dtypes.bool_)),
                          "logical_not")
bitwise_not = _same_unary(
    lambda x: math_ops.logical_not(x) if x.dtype.is_bool else math_ops.invert(x), "bitwise_not")


def around(a, decimals: int = 0):
    """Rounds half to even at ``decimals`` digits; integers with ``decimals >= 0`` unchanged."""
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        if decimals >= 0:
            return a
        scale = 10 ** -decimals
        work = math_ops.cast(a, dtypes.float64) / scale
        return math_ops.cast(special_ops.rint(work) * scale, a.dtype)
    scale = asarray(10.0 ** decimals, a.dtype)
    return special_ops.rint(a * scale) / scale




def real(val):
    val = asarray(val)
    return complex_ops.real(val) if val.dtype.is_complex else val


def imag(val):
    val = asarray(val)
    return complex_ops.imag(val) if val.dtype.is_complex else zeros_like(val)


def angle(z, deg: bool = False):
    z = asarray_float(z)
    result = complex_ops.angle(z) if z.dtype.is_complex else math_ops.where(
        math_ops.less(z, 0), asarray(np.pi, z.dtype), asarray(0, z.dtype))
    return result * asarray(180 / np.pi, result.dtype) if deg else result


def _constant_like(x, value: bool):
    return array_ops.fill(array_ops.shape(x), asarray(value))


def _float_predicate(fn, exact_value: bool, name: str):
    def f(x):
        x = asarray(x)
        if x.dtype.is_floating or x.dtype.is_complex:
            return fn(x)
        return _constant_like(x, exact_value)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` (always {exact_value} for integers and bools)."
    return f


isnan = _float_predicate(special_ops.is_nan, False, "isnan")
isinf = _float_predicate(special_ops.is_inf, False, "isinf")
isfinite = _float_predicate(special_ops.is_finite, True, "isfinite")
isposinf = _float_predicate(lambda x: math_ops.equal(x, np.inf), False, "isposinf")
isneginf = _float_predicate(lambda x: math_ops.equal(x, -np.inf), False, "isneginf")
signbit = _float_predicate(
    lambda x: math_ops.less(x, 0) | math_ops.less(math_ops.truediv(asarray(1, x.dtype), x), 0),
    False, "signbit")

add = _binary(math_ops.add, "add")
subtract = _binary(math_ops.subtract, "subtract")
multiply = _binary(math_ops.multiply, "multiply")
maximum = _binary(math_ops.maximum, "maximum")
minimum = _binary(math_ops.minimum, "minimum")
floor_divide = _binary(math_ops.floordiv, "floor_divide")
mod = remainder = _binary(math_ops.floormod, "mod")
power = _binary(math_ops.pow, "power")
float_power = _binary(math_ops.pow, "float_power", to_float=True)
true_divide = divide = _binary(math_ops.truediv, "true_divide", to_float=True)
arctan2 = _binary(special_ops.atan2, "arctan2", to_float=True)
hypot = _binary(lambda a, b: math_ops.sqrt(a * a + b * b), "hypot", to_float=True)
nextafter = _binary(special_ops.nextafter, "nextafter", to_float=True)
logaddexp = _binary(lambda a, b: math_ops.maximum(a, b) + special_ops.log1p(
    math_ops.exp(-math_ops.abs(a - b))), "logaddexp", to_float=True)
logaddexp2 = _binary(lambda a, b: math_ops.maximum(a, b) + special_ops.log1p(
    math_ops.pow(asarray(2, a.dtype), -math_ops.abs(a - b))) / asarray(np.log(2.0), a.dtype),
    "logaddexp2", to_float=True)
heaviside = _binary(lambda a, b: math_ops.where(
    math_ops.less(a, 0), asarray(0, a.dtype),
    math_ops.where(math_ops.greater(a, 0), asarray(1, a.dtype), b)), "heaviside", to_float=True)
equal = _binary(math_ops.equal, "equal")
not_equal = _binary(math_ops.not_equal, "not_equal")
less = _binary(math_ops.less, "less")
less_equal = _binary(math_ops.less_equal, "less_equal")
greater = _binary(math_ops.greater, "greater")
greater_equal = _binary(math_ops.greater_equal, "greater_equal")
bitwise_and = _binary(lambda a, b: math_ops.logical_and(a, b) if a.dtype.is_bool
                      else math_ops.bitwise_and(a, b), "bitwise_and")
bitwise_or = _binary(lambda a, b: math_ops.logical_or(a, b) if a.dtype.is_bool
                     else math_ops.bitwise_or(a, b), "bitwise_or")
bitwise_xor = _binary(lambda a, b: math_ops.logical_xor(a, b) if a.dtype.is_bool
                      else math_ops.bitwise_xor(a, b), "bitwise_xor")


def _logical(fn, name: str):
    def f(x1, x2):
        return fn(math_ops.cast(asarray(x1), dtypes.bool_), math_ops.cast(asarray(x2),
                                                                          dtypes.bool_))
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` on the truth values of the operands."
    return f


logical_and = _logical(math_ops.logical_and, "logical_and")
logical_or = _logical(math_ops.logical_or, "logical_or")
logical_xor = _logical(math_ops.logical_xor, "logical_xor")


def _gcd(a, b):
    """Euclid's algorithm as a while loop over the whole arrays."""
    a, b = math_ops.abs(a), math_ops.abs(b)
    a, b = a + b * 0, b + a * 0  # broadcast both
    zero = asarray(0, a.dtype)

    def body(x, y):
        safe = math_ops.where(math_ops.equal(y, zero), asarray(1, y.dtype), y)
        return (math_ops.where(math_ops.equal(y, zero), x, y),
                math_ops.where(math_ops.equal(y, zero), y, math_ops.floormod(x, safe)))
    return while_loop(lambda x, y: math_ops.reduce_any(math_ops.not_equal(y, zero)),
                      body, (a, b))[0]


gcd = _binary(_gcd, "gcd")
lcm = _binary(lambda a, b: math_ops.abs(a * b) // math_ops.where(
    math_ops.equal(_gcd(a, b), 0), asarray(1, a.dtype), _gcd(a, b)), "lcm")


def clip(a, a_min, a_max):
    """``tnp.clip``: the bounds promoted with ``a`` as numpy promotes them."""
    if a_min is None and a_max is None:
        raise ValueError("One of max or min must be given.")
    a = asarray(a)
    if a_min is not None:
        a = maximum(a, a_min)
    if a_max is not None:
        a = minimum(a, a_max)
    return a



fabs = _float_unary(math_ops.abs, "fabs")


def divmod(x1, x2):  # noqa: A001
    return floor_divide(x1, x2), mod(x1, x2)


def isclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    """``|a - b| <= atol + rtol * |b|`` (infinities equal only to themselves)."""
    a, b = promote(a, b)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        a, b = math_ops.cast(a, dtypes.float64), math_ops.cast(b, dtypes.float64)
    close = math_ops.less_equal(math_ops.abs(a - b),
                                asarray(atol, a.dtype.real_dtype) + asarray(
                                    rtol, a.dtype.real_dtype) * math_ops.abs(b))
    close = math_ops.logical_or(close, math_ops.equal(a, b))
    if equal_nan:
        close = math_ops.logical_or(close, math_ops.logical_and(isnan(a), isnan(b)))
    return close


def iscomplex(x):
    x = asarray(x)
    return math_ops.not_equal(imag(x), 0)


def isreal(x):
    x = asarray(x)
    return math_ops.equal(imag(x), 0)


def iscomplexobj(x) -> bool:
    return asarray(x).dtype.is_complex


def isrealobj(x) -> bool:
    return not iscomplexobj(x)


def polyval(p, x):
    """Horner's rule: ``p[0] * x**(n-1) + ... + p[n-1]``."""
    p, x = asarray(p), asarray(x)
    p, x = promote(p, x)
    result = zeros_like(x)
    for coefficient in array_ops.unstack(p, num=p.shape[0]):
        result = result * x + coefficient
    return result


__all__ = sorted(name for name, value in globals().items()
                 if not name.startswith("_") and callable(value)
                 and getattr(value, "__module__", None) == __name__)
