"""Reductions and scans with numpy's ``axis``/``keepdims``/``dtype`` and result dtypes.

numpy accumulates small integers and bools in the default integer (``sum``/``prod``/
``cumsum`` of int32 are int64), averages integers in float64, and keeps the dtype for
``max``/``min``.
"""
from __future__ import annotations

from graph import dtypes
from runtime.ops import array_ops, complex_ops, math_ops, special_ops
from runtime.ops.control_flow import cond
from runtime.tf_numpy.creation import asarray, promote
from runtime.tf_numpy.elementwise import isclose
from runtime.tf_numpy.dtype_rules import to_dtype


def _accumulator_dtype(dtype):
    """numpy's: integers narrower than 64 bits (and bools) accumulate in (u)int64."""
    if dtype.is_bool:
        return dtypes.int64
    if dtype.is_integer and dtype.numpy_dtype.itemsize < 8:
        return dtypes.uint64 if dtype.is_unsigned else dtypes.int64
    return dtype


def _axis(axis):
    return list(axis) if isinstance(axis, tuple) else axis


def _accumulating(reduce_fn, name: str):
    def f(a, axis=None, dtype=None, keepdims: bool = False):
        a = asarray(a)
        dtype = to_dtype(dtype) or _accumulator_dtype(a.dtype)
        if a.dtype != dtype:
            a = math_ops.cast(a, dtype)
        return reduce_fn(a, axis=_axis(axis), keepdims=keepdims)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` (small integers and bools accumulate in int64)."
    return f


sum = _accumulating(math_ops.reduce_sum, "sum")  # noqa: A001
prod = _accumulating(math_ops.reduce_prod, "prod")


def _float_for_mean(a, dtype):
    dtype = to_dtype(dtype)
    if dtype is None:
        dtype = a.dtype if (a.dtype.is_floating or a.dtype.is_complex) else dtypes.float64
    return a if a.dtype == dtype else math_ops.cast(a, dtype)


def mean(a, axis=None, dtype=None, out=None, keepdims: bool = False):
    """numpy's ``mean``: integers and bools average in float64."""
    _no_out(out)
    a = _float_for_mean(asarray(a), dtype)
    return math_ops.reduce_mean(a, axis=_axis(axis), keepdims=keepdims)


def var(a, axis=None, dtype=None, out=None, ddof: int = 0, keepdims: bool = False):
    """numpy's ``var`` with ``ddof`` (delta degrees of freedom)."""
    _no_out(out)
    a = _float_for_mean(asarray(a), dtype)
    axis = _axis(axis)
    center = math_ops.reduce_mean(a, axis=axis, keepdims=True)
    centered = a - center
    if a.dtype.is_complex:
        squares = complex_ops.real(centered * complex_ops.conj(centered))
    else:
        squares = math_ops.square(centered)
    total = math_ops.reduce_sum(squares, axis=axis, keepdims=keepdims)
    count = math_ops.cast(array_ops.size(a), total.dtype) / math_ops.cast(
        array_ops.size(center), total.dtype)
    return total / (count - ddof)


def std(a, axis=None, dtype=None, out=None, ddof: int = 0, keepdims: bool = False):
    return math_ops.sqrt(var(a, axis=axis, dtype=dtype, out=out, ddof=ddof, keepdims=keepdims))


def _no_out(out):
    if out is not None:
        raise ValueError("Argument `out` is not supported: tensors are immutable.")


def _keeping(reduce_fn, name: str):
    def f(a, axis=None, keepdims: bool = False):
        return reduce_fn(asarray(a), axis=_axis(axis), keepdims=keepdims)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}``, keeping the input's dtype."
    return f


amax = max = _keeping(math_ops.reduce_max, "amax")  # noqa: A001
amin = min = _keeping(math_ops.reduce_min, "amin")  # noqa: A001


def _truth(reduce_fn, name: str):
    def f(a, axis=None, keepdims: bool = False):
        a = asarray(a)
        if not a.dtype.is_bool:
            a = math_ops.cast(a, dtypes.bool_)
        return reduce_fn(a, axis=_axis(axis), keepdims=keepdims)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` on the truth values."
    return f


all = _truth(math_ops.reduce_all, "all")  # noqa: A001
any = _truth(math_ops.reduce_any, "any")  # noqa: A001


def ptp(a, axis=None, keepdims: bool = False):
    return amax(a, axis, keepdims) - amin(a, axis, keepdims)


def count_nonzero(a, axis=None):
    return special_ops.count_nonzero(asarray(a), axis=_axis(axis), dtype=dtypes.int64)


def _arg(fn, name: str):
    def f(a, axis=None):
        a = asarray(a)
        if axis is None:
            a, axis = array_ops.reshape(a, [-1]), 0
        return fn(a, axis=axis, output_type=dtypes.int64)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}``: int64 indices, of the flattened array without ``axis``."
    return f


argmax = _arg(math_ops.argmax, "argmax")
argmin = _arg(math_ops.argmin, "argmin")


def _scan(fn, name: str):
    def f(a, axis=None, dtype=None):
        a = asarray(a)
        if axis is None:
            a, axis = array_ops.reshape(a, [-1]), 0
        dtype = to_dtype(dtype) or _accumulator_dtype(a.dtype)
        if a.dtype != dtype:
            a = math_ops.cast(a, dtype)
        return fn(a, axis=axis)
    f.__name__ = f.__qualname__ = name
    f.__doc__ = f"numpy's ``{name}`` (of the flattened array without ``axis``)."
    return f


cumsum = _scan(special_ops.cumsum, "cumsum")
cumprod = _scan(special_ops.cumprod, "cumprod")


def average(a, axis=None, weights=None, returned: bool = False):
    """numpy's ``average``: the weighted mean along ``axis``."""
    a = asarray(a)
    if weights is None:
        result = mean(a, axis=axis)
        total = math_ops.cast(array_ops.size(a), result.dtype) / math_ops.cast(
            array_ops.size(result), result.dtype)
        total = array_ops.fill(array_ops.shape(result), total)
    else:
        a, w = promote(_float_for_mean(a, None), weights)
        if w.shape.rank == 1 and a.shape.rank != 1 and axis is not None:
            shape = [1] * a.shape.rank
            shape[axis] = -1
            w = array_ops.reshape(w, shape)
        total = math_ops.reduce_sum(w + a * 0, axis=_axis(axis))
        result = math_ops.reduce_sum(a * w, axis=_axis(axis)) / total
    return (result, total) if returned else result


def _nan_to(a, value):
    a = asarray(a)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return a
    return math_ops.where(special_ops.is_nan(a), math_ops.cast(value, a.dtype) + a * 0, a)


def nansum(a, axis=None, dtype=None, keepdims: bool = False):
    """``sum`` counting NaNs as zero."""
    return sum(_nan_to(a, 0), axis=axis, dtype=dtype, keepdims=keepdims)


def nanprod(a, axis=None, dtype=None, keepdims: bool = False):
    """``prod`` counting NaNs as one."""
    return prod(_nan_to(a, 1), axis=axis, dtype=dtype, keepdims=keepdims)


def nanmean(a, axis=None, dtype=None, keepdims: bool = False):
    """The mean of the values that are not NaN."""
    a = _float_for_mean(asarray(a), dtype)
    if not (a.dtype.is_floating or a.dtype.is_complex):
        return mean(a, axis=axis, keepdims=keepdims)
    present = math_ops.cast(math_ops.logical_not(special_ops.is_nan(a)), a.dtype)
    total = math_ops.reduce_sum(_nan_to(a, 0), axis=_axis(axis), keepdims=keepdims)
    return total / math_ops.reduce_sum(present, axis=_axis(axis), keepdims=keepdims)


def allclose(a, b, rtol=1e-05, atol=1e-08, equal_nan: bool = False):
    return all(isclose(a, b, rtol=rtol, atol=atol, equal_nan=equal_nan))


def array_equal(a1, a2):
    """True when the shapes match and every element is equal (a bool tensor)."""
    a1, a2 = promote(a1, a2)
    if a1.shape.is_fully_defined() and a2.shape.is_fully_defined():
        if a1.shape.as_list() != a2.shape.as_list():
            return asarray(False)
        return all(math_ops.equal(a1, a2))
    same_shape = all(math_ops.equal(array_ops.shape(a1), array_ops.shape(a2))) \
        if a1.shape.rank == a2.shape.rank else asarray(False)
    return cond(same_shape, lambda: all(math_ops.equal(a1, a2)), lambda: asarray(False))
