"""Array creation (``tnp.asarray``, ``zeros``, ``arange``, ``linspace``, ``eye``, ``tri``...)
and the conversion every tnp function applies to its arguments (``asarray``, ``promote``).

Python values take numpy's dtypes (``tnp.asarray(1)`` is int64, ``1.`` float64, or float32
under ``prefer_float32``); tensors keep theirs.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import array_ops, linalg_ops, math_ops
from runtime.ops.core import constant, convert_to_tensor
from runtime.tensor import SymbolicTensor, Tensor
from runtime.tf_numpy import dtype_rules
from runtime.tf_numpy.dtype_rules import result_type, to_dtype


def _holds_symbolic(value) -> bool:
    if isinstance(value, SymbolicTensor):
        return True
    return isinstance(value, (list, tuple)) and any(_holds_symbolic(v) for v in value)


def _numpy_value(value):
    """A Python value as numpy makes it, with floats float32 under ``prefer_float32``."""
    arr = np.asarray(value)
    if dtype_rules.is_prefer_float32() and not isinstance(value, (np.ndarray, np.generic)):
        arr = arr.astype({"f": np.float32, "c": np.complex64}.get(arr.dtype.kind, arr.dtype),
                         copy=False)
    return arr


def asarray(a, dtype=None) -> Tensor:
    """``tnp.asarray``: ``a`` as a tensor (a tensor of that dtype is returned as it is)."""
    dtype = to_dtype(dtype)
    if isinstance(a, Tensor) or hasattr(a, "_as_tensor"):
        t = convert_to_tensor(a)
        return t if dtype is None or t.dtype == dtype else math_ops.cast(t, dtype)
    if _holds_symbolic(a):  # a list holding staged tensors: stack them, promoted
        items = [asarray(v) for v in a]
        common = dtype or result_type(*items)
        return array_ops.stack([math_ops.cast(v, common) if v.dtype != common else v
                                for v in items])
    arr = _numpy_value(a)
    if dtype is not None and arr.dtype.kind not in "OSU":
        with np.errstate(all="ignore"):
            arr = arr.astype(dtype.numpy_dtype)
    return constant(arr)


def array(val, dtype=None, copy: bool = True, ndmin: int = 0) -> Tensor:
    """``tnp.array``: ``asarray`` that copies (an Identity) and pads the rank to ``ndmin``."""
    t = asarray(val, dtype)
    if copy and t is val:
        t = array_ops.identity(t)
    missing = ndmin - (t.shape.rank or 0)
    if missing > 0:
        t = array_ops.reshape(t, [1] * missing + list(_shape_list(t)))
    return t


def _shape_list(t: Tensor):
    if t.shape.is_fully_defined():
        return t.shape.as_list()
    return array_ops.unstack(array_ops.shape(t), num=t.shape.rank)


def promote(*values):
    """The values as tensors of their common tnp result type."""
    common = result_type(*values)
    return [asarray(v, common) for v in values]


def asarray_float(x, dtype=None) -> Tensor:
    """``x`` as a tensor that is floating or complex: numpy's float functions turn integers
    and bools into float64."""
    t = asarray(x, dtype)
    if t.dtype.is_integer or t.dtype.is_bool:
        t = math_ops.cast(t, dtypes.float64)
    return t


def _shape_arg(shape):
    if isinstance(shape, (int, np.integer)):
        return [int(shape)]
    return shape


def _filled(shape, value, dtype):
    return array_ops.fill(_shape_arg(shape), asarray(value, dtype))


def zeros(shape, dtype=float) -> Tensor:
    return _filled(shape, 0, to_dtype(dtype))


def ones(shape, dtype=float) -> Tensor:
    return _filled(shape, 1, to_dtype(dtype))


def empty(shape, dtype=float) -> Tensor:
    """Like numpy's, with defined contents: zeros (as TensorFlow's)."""
    return zeros(shape, dtype)


def full(shape, fill_value, dtype=None) -> Tensor:
    value = asarray(fill_value, dtype)
    return array_ops.broadcast_to(value, _shape_arg(shape))


def _like(a, value, dtype, shape):
    a = asarray(a)
    dtype = to_dtype(dtype) or a.dtype
    if shape is not None:
        return _filled(shape, value, dtype)
    return array_ops.fill(array_ops.shape(a), asarray(value, dtype))


def zeros_like(a, dtype=None, shape=None) -> Tensor:
    return _like(a, 0, dtype, shape)


def ones_like(a, dtype=None, shape=None) -> Tensor:
    return _like(a, 1, dtype, shape)


def empty_like(a, dtype=None, shape=None) -> Tensor:
    return _like(a, 0, dtype, shape)


def full_like(a, fill_value, dtype=None, shape=None) -> Tensor:
    a = asarray(a)
    value = asarray(fill_value, to_dtype(dtype) or a.dtype)
    return array_ops.broadcast_to(value, _shape_arg(shape) if shape is not None
                                  else array_ops.shape(a))


def arange(start, stop=None, step=1, dtype=None) -> Tensor:
    """``tnp.arange``: the dtype numpy gives the bounds (int64, float64) unless given; values
    are counted in the bounds' type, then cast (``arange(1, 2.5, .5, dtype=int)`` is
    ``[1, 1, 2]``)."""
    if stop is None:
        start, stop = 0, start
    work = result_type(start, stop, step)
    dtype = to_dtype(dtype) or work
    if work.is_floating:
        work = dtypes.float64
    values = array_ops.range_(asarray(start, work), asarray(stop, work), asarray(step, work))
    return values if work == dtype else math_ops.cast(values, dtype)


def linspace(start, stop, num: int = 50, endpoint: bool = True, retstep: bool = False,
             dtype=None, axis: int = 0):
    """``tnp.linspace`` (float64 unless ``prefer_float32`` or ``dtype`` says otherwise)."""
    dtype = to_dtype(dtype) or result_type(start, stop, float(num))
    work = dtype if dtype.is_floating or dtype.is_complex else dtypes.float64
    start, stop = asarray(start, work), asarray(stop, work)
    if num < 0:
        raise ValueError(f"Number of samples, {num}, must be non-negative.")
    divisor = (num - 1) if endpoint else num
    step = (stop - start) / divisor if divisor > 0 else stop * np.nan
    if endpoint and num > 1:
        values = array_ops.linspace(start, stop, num, axis=axis)
    else:
        offsets = math_ops.cast(array_ops.range_(num), work)
        offsets = array_ops.reshape(offsets, [-1] + [1] * (start.shape.rank or 0))
        values = start + offsets * (stop - start) / max(divisor, 1)
        if axis != 0:
            values = _moveaxis_first(values, axis)
    if work != dtype:
        values = math_ops.cast(math_ops.floor(values) if dtype.is_integer else values, dtype)
    return (values, step) if retstep else values


def _moveaxis_first(values, axis: int):
    rank = values.shape.rank
    axis = axis % rank
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return array_ops.transpose(values, perm)


def logspace(start, stop, num: int = 50, endpoint: bool = True, base=10.0, dtype=None,
             axis: int = 0) -> Tensor:
    dtype = to_dtype(dtype) or result_type(start, stop, float(num))
    work = dtype if dtype.is_floating else dtypes.float64
    exponents = linspace(start, stop, num, endpoint=endpoint, dtype=work, axis=axis)
    values = math_ops.pow(asarray(base, work), exponents)
    return values if work == dtype else math_ops.cast(values, dtype)


def geomspace(start, stop, num: int = 50, endpoint: bool = True, dtype=None,
              axis: int = 0) -> Tensor:
    dtype = to_dtype(dtype) or result_type(start, stop, float(num))
    work = dtype if dtype.is_floating else dtypes.float64
    start, stop = asarray(start, work), asarray(stop, work)
    exponents = linspace(math_ops.log(start) / np.log(10.0), math_ops.log(stop) / np.log(10.0),
                         num, endpoint=endpoint, dtype=work, axis=axis)
    values = math_ops.pow(asarray(10.0, work), exponents)
    return values if work == dtype else math_ops.cast(values, dtype)


def eye(N: int, M: int | None = None, k: int = 0, dtype=float) -> Tensor:
    """``tnp.eye``: ones on the ``k``-th diagonal of an N x M matrix."""
    dtype = to_dtype(dtype)
    M = N if M is None else M
    rows = array_ops.reshape(array_ops.range_(N), [N, 1])
    cols = array_ops.reshape(array_ops.range_(M), [1, M])
    return math_ops.cast(math_ops.equal(cols - rows, k), dtype)


def identity(n: int, dtype=float) -> Tensor:
    return eye(n, dtype=dtype)


def tri(N: int, M: int | None = None, k: int = 0, dtype=float) -> Tensor:
    """Ones at and below the ``k``-th diagonal."""
    dtype = to_dtype(dtype)
    M = N if M is None else M
    rows = array_ops.reshape(array_ops.range_(N), [N, 1])
    cols = array_ops.reshape(array_ops.range_(M), [1, M])
    return math_ops.cast(math_ops.less_equal(cols - rows, k), dtype)


def _band_mask(m: Tensor, k: int, lower: bool) -> Tensor:
    shape = array_ops.shape(m)
    n_rows, n_cols = shape[-2], shape[-1]
    rows = array_ops.reshape(array_ops.range_(n_rows), [-1, 1])
    cols = array_ops.reshape(array_ops.range_(n_cols), [1, -1])
    return (math_ops.less_equal if lower else math_ops.greater_equal)(cols - rows, k)


def tril(m, k: int = 0) -> Tensor:
    m = asarray(m)
    if m.shape.rank is not None and m.shape.rank < 2:
        raise ValueError(f"Argument to tril must have rank at least 2, got {m.shape.rank}")
    return math_ops.where(_band_mask(m, k, True), m, zeros_like(m))


def triu(m, k: int = 0) -> Tensor:
    m = asarray(m)
    if m.shape.rank is not None and m.shape.rank < 2:
        raise ValueError(f"Argument to triu must have rank at least 2, got {m.shape.rank}")
    return math_ops.where(_band_mask(m, k, False), m, zeros_like(m))


def diag(v, k: int = 0) -> Tensor:
    """numpy's ``diag``: a 1-D ``v`` becomes a matrix, a 2-D one gives its diagonal."""
    v = asarray(v)
    rank = v.shape.rank
    if rank == 1:
        return linalg_ops.diag(v, k=k)
    if rank == 2:
        return linalg_ops.diag_part(v, k=k)
    raise ValueError(f"Input to diag must be 1-d or 2-d, got rank {rank}.")


def diagflat(v, k: int = 0) -> Tensor:
    return diag(array_ops.reshape(asarray(v), [-1]), k)


def diagonal(a, offset: int = 0, axis1: int = 0, axis2: int = 1) -> Tensor:
    """The ``offset`` diagonal of the ``axis1``/``axis2`` planes, as the last axis."""
    a = asarray(a)
    rank = a.shape.rank
    axis1, axis2 = axis1 % rank, axis2 % rank
    rest = [i for i in range(rank) if i not in (axis1, axis2)]
    return linalg_ops.diag_part(array_ops.transpose(a, rest + [axis1, axis2]), k=offset)


asanyarray = ascontiguousarray = asarray


def diag_indices(n: int, ndim: int = 2) -> tuple:
    if n < 0:
        raise ValueError(f"n argument to diag_indices must be nonnegative, got {n}")
    index = array_ops.range_(n)
    return (index,) * ndim


def meshgrid(*xi, copy: bool = True, sparse: bool = False, indexing: str = "xy") -> list:
    """Coordinate matrices from coordinate vectors (``indexing='xy'`` swaps the first two)."""
    if indexing not in ("xy", "ij"):
        raise ValueError("Valid values for `indexing` are 'xy' and 'ij'.")
    vectors = [array_ops.reshape(t, [-1]) for t in promote(*xi)] if xi else []
    n = len(vectors)
    out = []
    for i, v in enumerate(vectors):
        shape = [1] * n
        axis = (1 - i if i < 2 else i) if indexing == "xy" and n > 1 else i
        shape[axis] = -1
        out.append(array_ops.reshape(v, shape))
    if sparse:
        return out
    target = array_ops.shape(out[0])
    for t in out[1:]:
        target = array_ops.broadcast_dynamic_shape(target, array_ops.shape(t))
    return [array_ops.broadcast_to(t, target) for t in out]


def vander(x, N: int | None = None, increasing: bool = False) -> Tensor:
    """Columns are powers of ``x`` (decreasing unless ``increasing``)."""
    x = asarray(x)
    if x.shape.rank != 1:
        raise ValueError(f"x must be a one-dimensional array, got rank {x.shape.rank}")
    N = x.shape[0] if N is None else N
    powers = array_ops.range_(N)
    if not increasing:
        powers = N - 1 - powers
    powers = math_ops.cast(powers, x.dtype) if not x.dtype.is_bool else powers
    return math_ops.pow(array_ops.reshape(x, [-1, 1]), array_ops.reshape(powers, [1, -1]))


def ix_(*args) -> list:
    """Open mesh of index vectors (boolean ones become their true positions)."""
    n = len(args)
    out = []
    for i, a in enumerate(args):
        a = asarray(a)
        if a.shape.rank != 1:
            raise ValueError("Cross index must be 1 dimensional")
        if a.dtype.is_bool:
            a = array_ops.reshape(math_ops.where(a), [-1])
        shape = [1] * n
        shape[i] = -1
        out.append(array_ops.reshape(a, shape))
    return out
