"""Shape and arrangement functions (``reshape``, ``concatenate``, ``split``, ``flip``,
``roll``, ``where``, ``take``, ``sort``...) with numpy's argument conventions."""
from __future__ import annotations

import builtins

import numpy as np

from graph import dtypes
from runtime.ops import array_ops, math_ops
from runtime.tensor import Tensor
from runtime.tf_numpy.creation import asarray, promote


def _rank(a: Tensor) -> int:
    rank = a.shape.rank
    if rank is None:
        raise ValueError("tnp needs arrays of known rank here.")
    return rank


def _axis_of(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise np.exceptions.AxisError(f"axis {axis} is out of bounds for array of dimension "
                                      f"{rank}")
    return axis % rank


def shape(a) -> tuple:
    return tuple(asarray(a).shape.as_list())


def ndim(a) -> int:
    return _rank(asarray(a))


def size(a, axis=None):
    a = asarray(a)
    if axis is not None:
        return a.shape.as_list()[axis]
    n = a.shape.num_elements()
    return n if n is not None else array_ops.size(a, out_type=dtypes.int64)


def reshape(a, newshape, order: str = "C") -> Tensor:
    if order not in ("C", "F"):
        raise ValueError(f"Unsupported order argument {order}")
    a = asarray(a)
    if isinstance(newshape, (int, np.integer)):
        newshape = [int(newshape)]
    if order == "F":
        rank = _rank(a)
        flat = array_ops.reshape(array_ops.transpose(a, list(range(rank - 1, -1, -1))), [-1])
        out = array_ops.reshape(flat, list(newshape)[::-1])
        return array_ops.transpose(out, list(range(len(newshape) - 1, -1, -1)))
    return array_ops.reshape(a, newshape)


def ravel(a) -> Tensor:
    return array_ops.reshape(asarray(a), [-1])


def transpose(a, axes=None) -> Tensor:
    return array_ops.transpose(asarray(a), None if axes is None else list(axes))


def moveaxis(a, source, destination) -> Tensor:
    a = asarray(a)
    rank = _rank(a)
    source = [_axis_of(s, rank) for s in np.atleast_1d(source)]
    destination = [_axis_of(d, rank) for d in np.atleast_1d(destination)]
    if len(source) != len(destination):
        raise ValueError("`source` and `destination` arguments must have the same number of "
                         "elements")
    order = [i for i in range(rank) if i not in source]
    for d, s in sorted(zip(destination, source)):
        order.insert(d, s)
    return array_ops.transpose(a, order)


def swapaxes(a, axis1: int, axis2: int) -> Tensor:
    a = asarray(a)
    rank = _rank(a)
    perm = list(range(rank))
    i, j = _axis_of(axis1, rank), _axis_of(axis2, rank)
    perm[i], perm[j] = perm[j], perm[i]
    return array_ops.transpose(a, perm)


def expand_dims(a, axis) -> Tensor:
    a = asarray(a)
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(axis)
    rank = _rank(a) + len(axes)
    for ax in sorted(_axis_of(ax, rank) for ax in axes):
        a = array_ops.expand_dims(a, ax)
    return a


def squeeze(a, axis=None) -> Tensor:
    return array_ops.squeeze(asarray(a), axis)


def atleast_1d(*arys):
    return _atleast(arys, 1)


def atleast_2d(*arys):
    return _atleast(arys, 2)


def atleast_3d(*arys):
    return _atleast(arys, 3)


def _atleast(arys, n: int):
    out = []
    for a in arys:
        a = asarray(a)
        rank = _rank(a)
        if rank < n:
            if n == 3 and rank == 2:
                a = array_ops.expand_dims(a, 2)
            elif n == 3 and rank == 1:
                a = array_ops.expand_dims(array_ops.expand_dims(a, 0), 2)
            else:
                a = array_ops.reshape(a, [1] * (n - rank) + a.shape.as_list())
        out.append(a)
    return out[0] if len(out) == 1 else out


def concatenate(arys, axis: int = 0) -> Tensor:
    arys = promote(*arys)
    if axis is None:
        arys, axis = [ravel(a) for a in arys], 0
    return array_ops.concat(arys, axis)


def stack(arrays, axis: int = 0) -> Tensor:
    return array_ops.stack(promote(*arrays), axis)


def hstack(tup) -> Tensor:
    arrays = atleast_1d(*tup)
    arrays = arrays if isinstance(arrays, list) else [arrays]
    return concatenate(arrays, 0 if _rank(arrays[0]) == 1 else 1)


def vstack(tup) -> Tensor:
    arrays = atleast_2d(*tup)
    return concatenate(arrays if isinstance(arrays, list) else [arrays], 0)


def dstack(tup) -> Tensor:
    arrays = atleast_3d(*tup)
    return concatenate(arrays if isinstance(arrays, list) else [arrays], 2)


def _split_sizes(length: int, indices_or_sections, even: bool) -> list:
    if isinstance(indices_or_sections, (int, np.integer)):
        n = int(indices_or_sections)
        if even and length % n:
            raise ValueError("array split does not result in an equal division")
        q, r = divmod(length, n)
        return [q + 1] * r + [q] * (n - r)
    bounds = [0] + [builtins.min(builtins.max(int(i), 0), length) for i in indices_or_sections]
    bounds.append(length)
    return [builtins.max(b - a, 0) for a, b in zip(bounds[:-1], bounds[1:])]


def split(ary, indices_or_sections, axis: int = 0) -> list:
    """numpy's ``split``: equal sections, or cuts at the given indices."""
    return _split(ary, indices_or_sections, axis, even=True)


def array_split(ary, indices_or_sections, axis: int = 0) -> list:
    return _split(ary, indices_or_sections, axis, even=False)


def _split(ary, indices_or_sections, axis, even):
    a = asarray(ary)
    axis = _axis_of(axis, _rank(a))
    length = a.shape[axis]
    if length is None:
        raise ValueError("split needs a statically known length along the axis.")
    sizes = _split_sizes(length, indices_or_sections, even)
    return list(array_ops.split(a, sizes, axis=axis))


def hsplit(ary, indices_or_sections):
    a = asarray(ary)
    return split(a, indices_or_sections, 0 if _rank(a) == 1 else 1)


def vsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 0)


def dsplit(ary, indices_or_sections):
    return split(ary, indices_or_sections, 2)


def tile(a, reps) -> Tensor:
    a = asarray(a)
    reps = [int(reps)] if isinstance(reps, (int, np.integer)) else list(reps)
    rank = _rank(a)
    if len(reps) > rank:
        a = array_ops.reshape(a, [1] * (len(reps) - rank) + a.shape.as_list())
    else:
        reps = [1] * (rank - len(reps)) + reps
    return array_ops.tile(a, reps)


def repeat(a, repeats, axis=None) -> Tensor:
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return array_ops.repeat(a, repeats, axis=axis)


def flip(m, axis=None) -> Tensor:
    m = asarray(m)
    rank = _rank(m)
    if axis is None:
        axes = list(range(rank))
    else:
        axes = [_axis_of(ax, rank) for ax in np.atleast_1d(axis)]
    return array_ops.reverse(m, axes) if axes else m


def fliplr(m) -> Tensor:
    return flip(m, 1)


def flipud(m) -> Tensor:
    return flip(m, 0)


def roll(a, shift, axis=None) -> Tensor:
    a = asarray(a)
    if axis is None:
        return array_ops.reshape(array_ops.roll(ravel(a), shift, 0), array_ops.shape(a))
    return array_ops.roll(a, shift, axis)


def rot90(m, k: int = 1, axes=(0, 1)) -> Tensor:
    """Rotates by 90 degrees ``k`` times in the plane of ``axes`` (first towards second)."""
    m = asarray(m)
    k %= 4
    a0, a1 = axes
    if k == 0:
        return m
    if k == 2:
        return flip(flip(m, a0), a1)
    if k == 1:
        return swapaxes(flip(m, a1), a0, a1)
    return flip(swapaxes(m, a0, a1), a1)


def broadcast_to(array, shape) -> Tensor:
    shape = [int(shape)] if isinstance(shape, (int, np.integer)) else shape
    return array_ops.broadcast_to(asarray(array), shape)


def broadcast_arrays(*args, subok: bool = False) -> list:
    tensors = [asarray(a) for a in args]
    target = array_ops.shape(tensors[0])
    for t in tensors[1:]:
        target = array_ops.broadcast_dynamic_shape(target, array_ops.shape(t))
    return [array_ops.broadcast_to(t, target) for t in tensors]


def where(condition, x=None, y=None):
    """``where(c, x, y)`` picks elementwise (x and y promoted); ``where(c)`` is ``nonzero``."""
    condition = asarray(condition)
    if not condition.dtype.is_bool:
        condition = math_ops.cast(condition, dtypes.bool_)
    if x is None and y is None:
        return nonzero(condition)
    if x is None or y is None:
        raise ValueError("Both x and y must be ndarrays, or both must be None.")
    x, y = promote(x, y)
    return math_ops.where(condition, x, y)


def nonzero(a) -> tuple:
    a = asarray(a)
    if not a.dtype.is_bool:
        a = math_ops.cast(a, dtypes.bool_)
    indices = math_ops.where(a)
    return tuple(array_ops.unstack(indices, num=_rank(a), axis=1))


def take(a, indices, axis=None, out=None, mode: str = "clip") -> Tensor:
    """numpy's ``take`` with TensorFlow's default ``mode='clip'`` (indices clipped into
    range); ``'wrap'`` wraps them, ``'raise'`` fails on an out-of-range index."""
    if out is not None:
        raise ValueError("Argument `out` is not supported: tensors are immutable.")
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    indices = asarray(indices)
    if mode in ("clip", "wrap"):
        length = math_ops.cast(array_ops.shape(a, out_type=indices.dtype)[axis], indices.dtype)
        if mode == "clip":
            indices = math_ops.minimum(math_ops.maximum(indices, 0), length - 1)
        else:
            indices = math_ops.floormod(indices, length)
    elif mode != "raise":
        raise ValueError(f"mode should be None, 'raise', 'clip' or 'wrap'; got {mode}")
    return array_ops.gather(a, indices, axis=axis)


def take_along_axis(arr, indices, axis) -> Tensor:
    """numpy's ``take_along_axis``: ``indices`` broadcast against ``arr`` but on ``axis``."""
    arr, indices = asarray(arr), asarray(indices)
    if axis is None:
        arr, axis = ravel(arr), 0
    rank = _rank(arr)
    axis = _axis_of(axis, rank)
    arr_shape = array_ops.shape(arr, out_type=dtypes.int64)
    idx_shape = array_ops.shape(indices, out_type=dtypes.int64)
    parts = array_ops.unstack(array_ops.broadcast_dynamic_shape(arr_shape, idx_shape), num=rank)
    idx_parts = array_ops.unstack(idx_shape, num=rank)
    target = array_ops.stack([idx_parts[i] if i == axis else parts[i] for i in range(rank)])
    indices = array_ops.broadcast_to(math_ops.cast(indices, dtypes.int64), target)
    arr_parts = array_ops.unstack(arr_shape, num=rank)
    arr = array_ops.broadcast_to(arr, array_ops.stack(
        [arr_parts[i] if i == axis else parts[i] for i in range(rank)]))
    perm = [i for i in range(rank) if i != axis] + [axis]
    gathered = array_ops.gather(array_ops.transpose(arr, perm),
                                array_ops.transpose(indices, perm), batch_dims=rank - 1)
    inverse = list(np.argsort(perm))
    return array_ops.transpose(gathered, inverse)


def sort(a, axis: int = -1, kind: str = "quicksort", order=None) -> Tensor:
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return array_ops.sort(a, axis=axis)


def argsort(a, axis: int = -1, kind: str = "quicksort", order=None) -> Tensor:
    """Stable ascending indices (int64) along ``axis``."""
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    return math_ops.cast(array_ops.argsort(a, axis=axis, stable=True), dtypes.int64)


def unique(a) -> Tensor:
    """The sorted unique values of the flattened array."""
    values, _ = array_ops.unique(ravel(a))
    return array_ops.sort(values) if values.dtype.is_numeric else values


def append(arr, values, axis=None) -> Tensor:
    if axis is None:
        return concatenate([ravel(arr), ravel(values)], 0)
    return concatenate([arr, values], axis)


def pad(array, pad_width, mode: str = "constant", constant_values=0) -> Tensor:
    a = asarray(array)
    rank = _rank(a)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64).reshape(-1, 2)
                             if np.ndim(pad_width) else np.full((1, 2), pad_width), (rank, 2))
    if mode != "constant":
        return array_ops.pad(a, widths.tolist(), mode=mode.upper())
    return array_ops.pad(a, widths.tolist(), constant_values=asarray(constant_values, a.dtype))


def flatten(a, order: str = "C") -> Tensor:
    return reshape(a, [-1], order=order)


def compress(condition, a, axis=None) -> Tensor:
    """The slices of ``a`` along ``axis`` where ``condition`` is true."""
    condition = asarray(condition)
    if not condition.dtype.is_bool:
        condition = math_ops.cast(condition, dtypes.bool_)
    a = asarray(a)
    if axis is None:
        a, axis = ravel(a), 0
    length = a.shape[axis]
    if length is not None and condition.shape[0] is not None and condition.shape[0] < length:
        condition = array_ops.concat([condition, array_ops.fill(
            [length - condition.shape[0]], asarray(False))], 0)
    return array_ops.boolean_mask(a, condition, axis=axis)


def diff(a, n: int = 1, axis: int = -1) -> Tensor:
    """The ``n``-th differences along ``axis`` (``!=`` for bools, as numpy)."""
    a = asarray(a)
    if n < 0:
        raise ValueError(f"order must be non-negative but got {n}")
    rank = _rank(a)
    axis = _axis_of(axis, rank)
    for _ in range(n):
        upper = [slice(None)] * rank
        lower = [slice(None)] * rank
        upper[axis], lower[axis] = slice(1, None), slice(None, -1)
        hi, lo = a[tuple(upper)], a[tuple(lower)]
        a = math_ops.not_equal(hi, lo) if a.dtype.is_bool else hi - lo
    return a


def select(condlist, choicelist, default=0) -> Tensor:
    """For each element, the choice of the first true condition, else ``default``."""
    if len(condlist) != len(choicelist):
        raise ValueError("list of cases must be same length as list of conditions")
    choices = promote(*choicelist, default)
    result = choices[-1]
    for condition, choice in reversed(list(zip(condlist, choices[:-1]))):
        condition = asarray(condition)
        result = math_ops.where(condition, choice, result)
    return result
