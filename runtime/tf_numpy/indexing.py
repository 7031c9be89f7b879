"""numpy's indexing for tensors under numpy behaviour: integer arrays and boolean masks
(``x[:, (True, False, True)]``, ``x[1, (0, 0, 1), idx]``) besides basic indexing.

A key with advanced items is split: the basic part (slices, ``None``, ``...``) is one
StridedSlice with ``:`` where the advanced items are, then the advanced items — integers,
broadcast together, a boolean mask counting as the integer arrays of its ``nonzero`` — are
one GatherNd over those dimensions moved to the front. As in numpy, the indexed dimensions
stay in place when the advanced items are adjacent in the key, else they come first; a
scalar integer is a basic index (its dimension is dropped first), as TensorFlow takes it.
Both ops have gradients.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.ops import array_ops, math_ops
from runtime.tensor import Tensor
from runtime.tf_numpy.creation import asarray


def _is_array_item(item) -> bool:
    if isinstance(item, (list, tuple, np.ndarray)):
        return True
    return isinstance(item, Tensor) and (item.shape.rank != 0 or item.dtype.is_bool)


def _is_int_item(item) -> bool:
    return isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)) or (
        isinstance(item, Tensor) and item.shape.rank == 0 and item.dtype.is_integer)


def getitem(tensor, key, basic_getitem):
    """``tensor[key]`` with numpy's rules; ``basic_getitem`` does basic indexing."""
    items = key if isinstance(key, tuple) else (key,)
    if not any(_is_array_item(item) for item in items):
        return basic_getitem(tensor, key)
    rank = tensor.shape.rank
    if rank is None:
        raise ValueError("Advanced indexing needs a tensor of known rank.")
    arrays = [asarray(i) if _is_array_item(i) else i for i in items]
    consumed = sum(a.shape.rank if isinstance(a, Tensor) and a.dtype.is_bool else
                   0 if a is None or a is Ellipsis else 1 for a in arrays)
    basic, advanced, out_dim, positions = [], [], 0, []
    for item in arrays:
        if item is Ellipsis:
            basic.append(Ellipsis)
            out_dim += rank - consumed
        elif _is_int_item(item):  # basic, as TensorFlow takes it: its dimension goes
            basic.append(item)
            continue
        elif item is None or isinstance(item, slice):
            basic.append(item)
            out_dim += 1
        elif isinstance(item, Tensor) and item.dtype.is_bool:
            coordinates = array_ops.unstack(math_ops.where(item), num=item.shape.rank, axis=1)
            for coordinate in coordinates:
                basic.append(slice(None))
                advanced.append((out_dim, coordinate))
                out_dim += 1
            positions.append(len(basic))
        elif isinstance(item, Tensor):
            basic.append(slice(None))
            advanced.append((out_dim, item))
            out_dim += 1
            positions.append(len(basic))
        else:
            raise IndexError(f"Only integers, slices (`:`), ellipsis (`...`), numpy.newaxis "
                             f"(`None`) and integer or boolean arrays are valid indices, "
                             f"got {item!r}")
    if Ellipsis not in basic:
        basic.append(Ellipsis)
    sliced = basic_getitem(tensor, tuple(basic))
    return _gather(sliced, advanced, adjacent=_adjacent(positions, basic))


def _adjacent(positions: list, basic: list) -> bool:
    """Whether the advanced items follow one another in the key (integers not counted)."""
    kept = [i for i, item in enumerate(basic, 1) if not _is_int_item(item)]
    order = [kept.index(p) for p in positions]
    return order == list(range(order[0], order[0] + len(order)))


def _gather(sliced, advanced, adjacent: bool):
    rank = sliced.shape.rank
    dims = [d for d, _ in advanced]
    shape = array_ops.shape(sliced, out_type=dtypes.int64)
    indices = []
    for d, index in advanced:
        index = math_ops.cast(index, dtypes.int64) if index.dtype != dtypes.int64 else index
        size = shape[d]
        indices.append(math_ops.where(math_ops.less(index, 0), index + size, index))
    common = array_ops.shape(indices[0], out_type=dtypes.int64)
    for index in indices[1:]:
        common = array_ops.broadcast_dynamic_shape(common, array_ops.shape(
            index, out_type=dtypes.int64))
    stacked = array_ops.stack([array_ops.broadcast_to(i, common) for i in indices], axis=-1)
    rest = [d for d in range(rank) if d not in dims]
    gathered = array_ops.gather_nd(array_ops.transpose(sliced, dims + rest), stacked)
    if not adjacent or dims[0] == 0:
        return gathered
    n_broadcast = gathered.shape.rank - len(rest)
    before = [n_broadcast + i for i in range(dims[0])]
    perm = before + list(range(n_broadcast)) + list(range(n_broadcast + dims[0],
                                                          gathered.shape.rank))
    return array_ops.transpose(gathered, perm)
