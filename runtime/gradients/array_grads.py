"""Gradients of array ops: reshaping, joining, splitting, gathering and slicing.

A gather's gradient is the gathered rows added back into zeros of the
params' shape (``UnsortedSegmentSum``): TensorFlow's IndexedSlices,
accumulated densely. A slice's gradient is ``StridedSliceGrad``: the
gradient written into zeros of the sliced input's shape.
"""
from __future__ import annotations

from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import reduce_to, static_ints
from runtime.ops import array_ops as A
from runtime.ops import linalg_ops as L
from runtime.ops import math_ops as M
from runtime.ops.core import apply_op
from runtime.origin import current_origin


def _like(g, x):
    """``g`` reshaped to ``x``'s shape (the static shape when known)."""
    if x.shape.is_fully_defined():
        if g.shape == x.shape:
            return g
        return A.reshape(g, x.shape.as_list())
    return A.reshape(g, A.shape(x))


@RegisterGradient("Reshape")
def _reshape_grad(op, g):
    return [_like(g, op.inputs[0]), None]


@RegisterGradient("ExpandDims")
def _expand_dims_grad(op, g):
    return [_like(g, op.inputs[0]), None]


@RegisterGradient("Squeeze")
def _squeeze_grad(op, g):
    return [_like(g, op.inputs[0])]


@RegisterGradient("Transpose")
def _transpose_grad(op, g):
    perm = static_ints(op.inputs[1], "permutation of a transpose")
    inverse = [0] * len(perm)
    for i, p in enumerate(perm):
        inverse[p] = i
    return [A.transpose(g, inverse), None]


def _axis(axis: int, rank: int | None) -> int:
    if axis >= 0:
        return axis
    if rank is None:
        raise NotImplementedError(f"a negative axis needs an input of known rank "
                                  f"(at {current_origin()})")
    return axis + rank


@RegisterGradient("ConcatV2")
def _concat_grad(op, g):
    values = op.inputs[:-1]
    axis = _axis(static_ints(op.inputs[-1], "axis of a concat")[0], g.shape.rank)
    grads = []
    start = 0
    for x in values:
        size = x.shape[axis] if x.shape.rank is not None else None
        if size is None:
            size = A.shape(x)[axis]
        stop = start + size if isinstance(start, int) and isinstance(size, int) else \
            M.add(start, size)
        grads.append(A.strided_slice(g, (slice(None),) * axis + (slice(start, stop),)))
        start = stop
    return grads + [None]


@RegisterGradient("Pack")
def _pack_grad(op, g):
    return A.unstack(g, num=len(op.inputs), axis=op.attrs.get("axis", 0))


@RegisterGradient("Unpack")
def _unpack_grad(op, *grads):
    parts = [A.zeros_like(o) if gi is None else gi for gi, o in zip(grads, op.outputs)]
    return [A.stack(parts, axis=op.attrs.get("axis", 0))]


@RegisterGradient("Tile")
def _tile_grad(op, g):
    """g reshaped to interleaved [multiple, dim] pairs and summed over the multiples."""
    x, multiples = op.inputs
    rank = x.shape.rank
    if rank is None:
        rank = multiples.shape[0] if multiples.shape.rank == 1 else None
    if rank is None:
        raise NotImplementedError(f"The gradient of tf.tile needs an input of known rank "
                                  f"(at {current_origin()})")
    split = A.reshape(A.transpose(A.stack([multiples, A.shape(x, out_type=multiples.dtype)])),
                      [-1])
    summed = M.reduce_sum(A.reshape(g, split), axis=list(range(0, 2 * rank, 2)))
    return [_like(summed, x), None]


@RegisterGradient("GatherV2")
def _gather_grad(op, g):
    params, indices, axis_t = op.inputs
    rank = params.shape.rank
    axis = _axis(static_ints(axis_t, "axis of a gather")[0], rank)
    batch_dims = op.attrs.get("batch_dims", 0)
    if batch_dims:
        return [_batch_gather_grad(params, indices, g, axis, batch_dims), None, None]
    if axis == 0:  # the gathered rows: TensorFlow's IndexedSlices
        return [_rows(params, g, indices), None, None]
    n_idx = indices.shape.rank
    if n_idx is None or g.shape.rank is None:
        raise NotImplementedError(f"The gradient of tf.gather needs indices and params of "
                                  f"known rank (at {current_origin()})")
    g_rank = g.shape.rank
    idx_axes = list(range(axis, axis + n_idx))
    perm = idx_axes + [i for i in range(g_rank) if i not in idx_axes]
    moved = A.transpose(g, perm) if perm != list(range(g_rank)) else g
    num = params.shape[axis] if params.shape[axis] is not None else A.shape(params)[axis]
    if isinstance(num, int):
        num = _int32(num)
    summed = apply_op("UnsortedSegmentSum", [moved, indices, num], name="UnsortedSegmentSum")
    if axis:
        p_rank = summed.shape.rank
        back = list(range(1, axis + 1)) + [0] + list(range(axis + 1, p_rank))
        summed = A.transpose(summed, back)
    return [summed, None, None]


def _batch_gather_grad(params, indices, g, axis: int, batch_dims: int):
    """With ``axis == batch_dims``, g's rows scattered back at (batch coordinates, index)."""
    if axis != batch_dims:
        raise NotImplementedError(f"The gradient of tf.gather with batch_dims < axis is not "
                                  f"supported (at {current_origin()})")
    coords = A._with_batch_coordinates(A.expand_dims(indices, -1), batch_dims)
    return A.scatter_nd(coords, g, A.shape(params, out_type=indices.dtype))


def _int32(value: int):
    from graph import dtypes
    from runtime.ops.core import constant
    return constant(value, dtype=dtypes.int32)


@RegisterGradient("StridedSlice")
def _strided_slice_grad(op, g):
    x, bounds = op.inputs[0], list(op.inputs[1:])
    shape = A.shape(x)
    grad = apply_op("StridedSliceGrad", [shape, g] + bounds, attrs={"spec": op.attrs["spec"]},
                    name="StridedSliceGrad")
    return [grad] + [None] * len(bounds)


@RegisterGradient("StridedSliceGrad")
def _strided_slice_grad_grad(op, g):
    """The slice's gradient is linear in ``dy``: its own gradient slices ``g`` the same way
    (what second derivatives through ``x[i]`` need)."""
    bounds = list(op.inputs[2:])
    dy = apply_op("StridedSlice", [g] + bounds, attrs={"spec": op.attrs["spec"]},
                  name="StridedSlice")
    return [None, dy] + [None] * len(bounds)


@RegisterGradient("TensorStridedSliceUpdate")
def _strided_slice_update_grad(op, g):
    """``x`` gets ``g`` outside the slice; ``value`` the slice of ``g``, summed over the
    dimensions it was broadcast along."""
    bounds, value = list(op.inputs[1:-1]), op.inputs[-1]
    spec = {"spec": op.attrs["spec"]}
    zero = A.zeros([], dtype=g.dtype)
    dx = apply_op("TensorStridedSliceUpdate", [g] + bounds + [zero], attrs=spec)
    dvalue = reduce_to(apply_op("StridedSlice", [g] + bounds, attrs=spec), value)
    return [dx] + [None] * len(bounds) + [dvalue]


@RegisterGradient("Pad")
@RegisterGradient("PadV2")
def _pad_grad(op, g):
    """The gradient of a pad is the input's window of ``g``; the fill value gets none.

    ``g[before:dim - after]`` per dimension: with constant paddings the
    slice bounds are Python ints, otherwise scalars read from the paddings.
    """
    x, paddings = op.inputs[0], op.inputs[1]
    rank = x.shape.rank
    if rank is None and paddings.shape.rank == 2:
        rank = paddings.shape[0]
    if rank is None:
        raise NotImplementedError(f"The gradient of tf.pad needs an input of known rank "
                                  f"(at {current_origin()})")
    try:
        flat = static_ints(paddings, "paddings")
        key = tuple(slice(flat[2 * i], -flat[2 * i + 1] or None) for i in range(rank))
    except NotImplementedError:
        g_shape = A.shape(g, out_type=paddings.dtype)
        key = tuple(slice(paddings[i, 0], g_shape[i] - paddings[i, 1]) for i in range(rank))
    x_grad = A.strided_slice(g, key)
    return [x_grad, None] + [None] * (len(op.inputs) - 2)


@RegisterGradient("MirrorPad")
def _mirror_pad_grad(op, g):
    grad = apply_op("MirrorPadGrad", [g, op.inputs[1]], attrs={"mode": op.attrs["mode"]},
                    name="MirrorPadGrad")
    return [grad, None]


@RegisterGradient("MirrorPadGrad")
def _mirror_pad_grad_grad(op, g):
    return [A.pad(g, op.inputs[1], mode=op.attrs["mode"]), None]


NotDifferentiable("ArgSort", "Unique", "UniqueWithCounts", "LowerBound", "UpperBound",
                  "BroadcastArgs", "OneHot")


@RegisterGradient("ReverseV2")
def _reverse_grad(op, g):
    return [A.reverse(g, op.inputs[1]), None]


@RegisterGradient("Roll")
def _roll_grad(op, g):
    return [A.roll(g, M.negative(op.inputs[1]), op.inputs[2]), None, None]


@RegisterGradient("Split")
def _split_grad(op, *grads):
    return [None, _concat_parts(grads, op.outputs, op.inputs[0])]


@RegisterGradient("SplitV")
def _split_v_grad(op, *grads):
    return [_concat_parts(grads, op.outputs, op.inputs[2]), None, None]


def _concat_parts(grads, outputs, axis):
    parts = [A.zeros_like(o) if g is None else g for g, o in zip(grads, outputs)]
    return A.concat(parts, axis) if len(parts) > 1 else A.identity(parts[0])


@RegisterGradient("Slice")
def _slice_grad(op, g):
    """The gradient written into zeros of the input's shape: a Pad by begin and the rest."""
    x, begin = op.inputs[0], op.inputs[1]
    after = M.subtract(M.subtract(A.shape(x, out_type=begin.dtype),
                                  A.shape(g, out_type=begin.dtype)), begin)
    paddings = A.stack([begin, after], axis=1)
    return [A.pad(g, paddings), None, None]


@RegisterGradient("BroadcastTo")
def _broadcast_to_grad(op, g):
    return [reduce_to(g, op.inputs[0]), None]


@RegisterGradient("EnsureShape")
def _ensure_shape_grad(op, g):
    return [g]


@RegisterGradient("IdentityN")
def _identity_n_grad(op, *grads):
    return list(grads)


@RegisterGradient("GatherNd")
def _gather_nd_grad(op, g):
    params, indices = op.inputs
    if indices.shape.rank == 2 and indices.shape[-1] == 1:  # whole rows, as TensorFlow
        return [_rows(params, g, A.squeeze(indices, [-1])), None]
    return [A.scatter_nd(indices, g, A.shape(params, out_type=indices.dtype)), None]


def _rows(params, g, indices):
    """The gradient of gathering rows ``indices`` of ``params``: an IndexedSlices of the
    rows' gradients ``g`` (summed into zeros only where an op needs a dense tensor)."""
    from runtime.ops.type_ops import IndexedSlices
    shape = A.shape(params)
    if params.shape.rank is not None and params.shape[1:].is_fully_defined():
        rows = [-1] + params.shape.as_list()[1:]
    else:
        rows = A.concat([[-1], shape[1:]], 0)
    return IndexedSlices(A.reshape(g, rows), A.reshape(indices, [-1]), shape)


@RegisterGradient("ScatterNd")
def _scatter_nd_grad(op, g):
    return [None, A.gather_nd(g, op.inputs[0]), None]


@RegisterGradient("TensorScatterUpdate")
def _tensor_scatter_update_grad(op, g):
    indices, updates = op.inputs[1], op.inputs[2]
    return [A.tensor_scatter_nd_update(g, indices, A.zeros_like(updates)), None,
            A.gather_nd(g, indices)]


@RegisterGradient("TensorScatterAdd")
def _tensor_scatter_add_grad(op, g):
    return [g, None, A.gather_nd(g, op.inputs[1])]


@RegisterGradient("TensorScatterSub")
def _tensor_scatter_sub_grad(op, g):
    return [g, None, M.negative(A.gather_nd(g, op.inputs[1]))]


@RegisterGradient("TensorScatterMin")
@RegisterGradient("TensorScatterMax")
def _tensor_scatter_min_max_grad(op, g):
    """As TensorFlow: the gradient is shared among the elements equal to the result."""
    x, indices, y = op.inputs
    out = op.outputs[0]
    x_hit = M.cast(M.equal(x, out), g.dtype)
    y_hit = M.cast(M.equal(y, A.gather_nd(out, indices)), g.dtype)
    hits = M.add(x_hit, A.scatter_nd(indices, y_hit, A.shape(x, out_type=indices.dtype)))
    share = M.divide(g, hits)
    return [M.multiply(share, x_hit), None, M.multiply(A.gather_nd(share, indices), y_hit)]


@RegisterGradient("MatrixDiag")
def _matrix_diag_grad(op, g):
    return [L.diag_part(g)]


@RegisterGradient("MatrixSetDiag")
def _matrix_set_diag_grad(op, g):
    _, d = op.inputs
    return [L.set_diag(g, A.zeros_like(d)), L.diag_part(g)]
