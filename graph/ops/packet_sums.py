"""Float sums and products added in the order TensorFlow's CPU kernels add them.

Floating-point addition is not associative, and numpy's pairwise summation
rounds differently from TensorFlow: ``reduce_sum`` of 8 or more float32
values printed another last digit for over half of random inputs. TensorFlow
first collapses the shape into runs of reduced and kept axes, then Eigen
evaluates (AVX packets of 32 bytes: 8 float32 or 4 float64 lanes):

- a reduced innermost run (``[kept, reduced]``, or everything): per row, lane
  accumulators over whole packets (four of them, combined in order, while 4
  packets fit), the remaining elements added one by one into a scalar, then
  ``scalar + horizontal sum of the lanes`` (halves folded: lo + hi...); a row
  longer than 1024 packets is split in two halves at a packet boundary of the
  flattened input, each summed so, recursively;
- a kept innermost run (``[reduced, kept]``, ``[kept, reduced, kept]``): the
  flattened outputs 8 at a time; 8 that lie in one row of kept values are one
  packet accumulating the reduced rows in order (four interleaved accumulators
  when there are 16 rows or more), any other output adds its column one element
  at a time;
- ``[reduced, kept, reduced]``: one element at a time, the last axis outermost;
- other patterns: the reduced axes moved last (a transpose), then as the first.

Only float32 and float64 go this way; one-thread evaluation is assumed (a full
reduction of a very large tensor is split over TensorFlow's threads, which
depend on the machine).
"""

from __future__ import annotations

import numpy as np

_LEAF = 1024      # packets per leaf of the tree reduction
_UNROLL = 4


def _lanes(dtype) -> int:
    return 32 // np.dtype(dtype).itemsize


def _fold(op, acc):
    """Eigen's predux: the lanes' halves combined until one is left."""
    while acc.shape[-1] > 1:
        h = acc.shape[-1] // 2
        acc = op(acc[..., :h], acc[..., h:])
    return acc[..., 0]


def _sequential(op, a, axis):
    """``a`` combined along ``axis`` strictly left to right from the identity (numpy's
    reduce is pairwise; 0.0 + -0.0 is 0.0, as in the kernels)."""
    a = np.moveaxis(a, axis, 0)
    acc = np.full(a.shape[1:], op.identity, a.dtype)
    for row in a:
        op(acc, row, out=acc)
    return acc


def _rows(op, a, start: int):
    """Reduces each row of 2-D ``a`` (row r starting at flat index start + r * n)."""
    rows, n = a.shape
    p = _lanes(a.dtype)
    if n > p * _LEAF:
        if rows > 1:
            return np.array([_rows(op, a[r:r + 1], start + r * n)[0] for r in range(rows)], a.dtype)
        split = p * -(-(start + -(-n // 2)) // p)
        left = min(split - start, n)
        out = _rows(op, a[:, :left], start)
        return op(out, _rows(op, a[:, left:], split)) if left < n else out
    whole = n // p * p
    if whole == 0:
        return _sequential(op, a, 1)
    packets = a[:, :whole].reshape(rows, whole // p, p)
    quads = whole // (_UNROLL * p) * _UNROLL if n >= _UNROLL * p else 0
    if quads:
        four = packets[:, :quads].reshape(rows, quads // _UNROLL, _UNROLL, p)
        acc = [_sequential(op, four[:, :, k], 1) for k in range(_UNROLL)]
        total = acc[0]
        for k in range(1, _UNROLL):
            total = op(total, acc[k])
        for k in range(quads, packets.shape[1]):
            total = op(total, packets[:, k])
    else:
        total = _sequential(op, packets, 1)
    return op(_sequential(op, a[:, whole:], 1), _fold(op, total))


def _packet_columns(op, block):
    """[reduced, 8 kept] ``block`` as one output packet accumulates it."""
    m = block.shape[0]
    if m < 16:
        return _sequential(op, block, 0)
    quads = m // _UNROLL * _UNROLL
    four = block[:quads].reshape(quads // _UNROLL, _UNROLL, block.shape[1])
    total = _sequential(op, four[:, 0], 0)
    for j in range(1, _UNROLL):
        total = op(total, _sequential(op, four[:, j], 0))
    for j in range(quads, m):
        total = op(total, block[j])
    return total


def _columns(op, a):
    """[outer, reduced, kept] ``a`` reduced over axis 1. The flattened outputs are
    evaluated 8 at a time; a group of 8 inside one row of kept values is a packet,
    any other output adds its column one element at a time."""
    b, m, k = a.shape
    p = _lanes(a.dtype)
    out = np.empty((b, k), a.dtype)
    done = np.zeros((b, k), bool)
    for o in range(0, b * k // p * p, p):
        r, j = divmod(o, k)
        if j + p <= k:
            out[r, j:j + p] = _packet_columns(op, a[r, :, j:j + p])
            done[r, j:j + p] = True
    if not done.all():
        rest = _sequential(op, a, 1)
        out[~done] = rest[~done]
    return out


def _runs(shape, axes):
    """TensorFlow's ReductionHelper: (collapsed shape, whether its first run is reduced)."""
    reduced = [i in axes for i in range(len(shape))]
    dims = [i for i, d in enumerate(shape) if d != 1]
    if not dims:
        return [1], True
    start = dims[0]
    flags, sizes = [reduced[start]], [shape[start]]
    prev = reduced[start]
    for i in range(start + 1, len(shape)):
        cur = prev if shape[i] == 1 else reduced[i]
        if cur != prev:
            flags.append(cur)
            sizes.append(shape[i])
        else:
            sizes[-1] *= shape[i]
        prev = cur
    return sizes, flags[0]


def reduce(op, x, axes):
    """``op`` (np.add or np.multiply) over ``axes`` of float ``x``; TensorFlow's result
    shape without kept dims (the caller reshapes)."""
    sizes, first_reduced = _runs(x.shape, set(axes))
    out_shape = [d for i, d in enumerate(x.shape) if i not in axes]
    flat = np.ascontiguousarray(x).reshape(sizes)
    if len(sizes) == 1 and first_reduced:
        result = _rows(op, flat.reshape(1, -1), 0)[0]
    elif len(sizes) == 2 and first_reduced:
        result = _columns(op, flat[None])[0]
    elif len(sizes) == 2:
        result = _rows(op, flat, 0)
    elif len(sizes) == 3 and not first_reduced:
        result = _columns(op, flat)
    elif len(sizes) == 3:  # [reduced, kept, reduced]: no packets, the last axis outermost
        result = _sequential(op, np.transpose(flat, (2, 0, 1)).reshape(-1, sizes[1]), 0)
    else:
        kept = [i for i in range(len(sizes)) if (i % 2 == 0) != first_reduced]
        gone = [i for i in range(len(sizes)) if (i % 2 == 0) == first_reduced]
        moved = np.transpose(flat, kept + gone)
        n_kept = int(np.prod([sizes[i] for i in kept]))
        result = _rows(op, np.ascontiguousarray(moved).reshape(n_kept, -1), 0)
    return np.asarray(result, x.dtype).reshape(out_shape)
