"""Lowerings of shape, joining, creation and indexing ops (graph/ops/array.py, indexing.py).

Shape-like inputs (a new shape, a permutation, an axis, paddings, range
bounds) must be compile-time constants under XLA; ``static_value`` raises
the unsupported-operation error when one is computed at run time.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from graph.errors import InvalidArgumentError
from graph.ops.indexing import numpy_key, slice_spec_items
from graph.xla.lowering import Unsupported, is_static, lowering, static_value


def _ints(value, node, what) -> list[int]:
    return [int(v) for v in static_value(value, node, what).reshape(-1)]


@lowering("Reshape")
def _reshape(ctx, node, x, shape):
    return jnp.reshape(x, _ints(shape, node, "the new shape"))


@lowering("Transpose")
def _transpose(ctx, node, x, perm):
    return jnp.transpose(x, _ints(perm, node, "the permutation"))


@lowering("ConcatV2")
def _concat(ctx, node, *args):
    *values, axis = args
    return jnp.concatenate(values, axis=_ints(axis, node, "the axis")[0])


@lowering("Pack")
def _pack(ctx, node, *values):
    return jnp.stack(values, axis=node.attrs.get("axis", 0))


@lowering("Unpack")
def _unpack(ctx, node, x):
    parts = tuple(jnp.moveaxis(x, node.attrs.get("axis", 0), 0))
    return parts[0] if len(node.outputs) == 1 else parts


@lowering("Shape", "Size", "Rank")
def _shape_query(ctx, node, x):  # shapes are static under XLA: the answer is a constant
    shape = jnp.shape(x)
    value = {"Shape": shape, "Size": int(np.prod(shape)), "Rank": len(shape)}[node.op]
    return np.asarray(value, dtype=node.outputs[0].dtype.numpy_dtype)


@lowering("Fill")
def _fill(ctx, node, dims, value):
    return jnp.full(_ints(dims, node, "the dims"), value)


@lowering("ZerosLike", "OnesLike")
def _like(ctx, node, x):
    return (jnp.zeros_like if node.op == "ZerosLike" else jnp.ones_like)(x)


@lowering("Range")
def _range(ctx, node, start, limit, delta):  # reached only when a bound is a run-time value
    raise Unsupported(node, "the range's bounds set its size, so they must be compile-time "
                            "constants", constant=True)


@lowering("MatrixDiag")
def _matrix_diag(ctx, node, diagonal):
    n = diagonal.shape[-1]
    return diagonal[..., None] * jnp.eye(n, dtype=diagonal.dtype)


@lowering("MatrixSetDiag")
def _matrix_set_diag(ctx, node, matrix, diagonal):
    n = min(matrix.shape[-2:])
    idx = np.arange(n)
    return jnp.asarray(matrix).at[..., idx, idx].set(diagonal)


@lowering("ExpandDims")
def _expand_dims(ctx, node, x, axis):
    return jnp.expand_dims(x, _ints(axis, node, "the axis")[0])


@lowering("Squeeze")
def _squeeze(ctx, node, x):
    dims = node.attrs.get("squeeze_dims") or ()
    axes = tuple(dims) if dims else tuple(i for i, d in enumerate(jnp.shape(x)) if d == 1)
    return jnp.squeeze(x, axis=axes)


@lowering("Tile")
def _tile(ctx, node, x, multiples):
    return jnp.tile(x, _ints(multiples, node, "the multiples"))


def _pairs(paddings, node):
    return [tuple(p) for p in static_value(paddings, node, "the paddings").astype(int).tolist()]


@lowering("Pad", "PadV2")
def _pad(ctx, node, x, paddings, value=None):
    pairs = _pairs(paddings, node)
    return jnp.pad(x, pairs, constant_values=0 if value is None else value)


@lowering("MirrorPad")
def _mirror_pad(ctx, node, x, paddings):
    mode = str(node.attrs["mode"]).lower()
    return jnp.pad(x, _pairs(paddings, node), mode=mode)


# -- indexing -------------------------------------------------------------------------

def _gather(params, indices, axis: int, batch_dims: int):
    if batch_dims == 0:  # out-of-range indices are clamped, as XLA's gather does
        return jnp.take(params, indices, axis=axis, mode="clip")
    return jax.vmap(lambda p, i: _gather(p, i, axis - 1, batch_dims - 1))(params, indices)


@lowering("GatherV2")
def _gather_v2(ctx, node, params, indices, axis):
    axis = _ints(axis, node, "the axis")[0]
    axis = axis + len(jnp.shape(params)) if axis < 0 else axis
    return _gather(params, indices, axis, node.attrs.get("batch_dims", 0))


@lowering("StridedSlice")
def _strided_slice(ctx, node, x, *bounds):
    return _slice(ctx, node, x, bounds, node.outputs[0].shape.as_tuple())


@lowering("TensorStridedSliceUpdate")
def _strided_slice_update(ctx, node, x, *rest):
    """``v[key].assign(value)``: the value broadcast into the (statically bounded) slice."""
    bounds = [int(static_value(b, node, "a slice bound")) for b in rest[:-1]]
    key = numpy_key(node.attrs["spec"], bounds, jnp.shape(x))
    return x.at[key].set(jnp.broadcast_to(rest[-1], jnp.shape(x[key])))


def _slice(ctx, node, x, bounds, out_dims):
    """Applies the spec's items one axis at a time. A bound computed from the function's
    integer arguments is a compile-time constant, as TensorFlow's XLA makes StridedSlice's
    bounds (so an index out of range is its error); one computed in a loop is not: a slice
    with such a bound becomes a ``dynamic_slice`` of the statically known length
    (``out_dims``, step 1), an index a clamped gather, as XLA needs."""
    items = slice_spec_items(node.attrs["spec"])
    used = sum(1 for item in items if item[0] in ("index", "slice"))
    sources = [i.node for i in node.inputs[len(node.inputs) - len(bounds):]]

    def bound(b):
        if not isinstance(b, (tuple, list)):
            return b
        value = bounds[b[1] - 1]
        if not is_static(value) and ctx.plan.can_make_constant([sources[b[1] - 1]]):
            raise Unsupported(node, "its bounds come from the function's arguments: they are "
                                    "compile-time constants", constant=True,
                              sources=[sources[b[1] - 1]])
        return value

    rank = jnp.ndim(x)
    pos, consumed, dim = 0, 0, 0  # dim: the input's axis an item applies to
    for item in items:
        kind = item[0]
        lead = (slice(None),) * pos
        if kind == "newaxis":
            x = jnp.expand_dims(x, pos)
            pos += 1
            continue
        if kind == "ellipsis":
            pos = jnp.ndim(x) - (used - consumed)
            dim = rank - (used - consumed)
            continue
        consumed += 1
        dim += 1
        if kind == "index":
            index = bound(item[1])
            if is_static(index) and not -x.shape[pos] <= int(index) < x.shape[pos]:
                shown = int(index) + x.shape[pos] if index < 0 else int(index)  # XLA's message
                raise InvalidArgumentError(
                    message=f"slice index {shown} of dimension {dim - 1} out of bounds.")
            x = x[lead + (index,)]
            continue
        start, stop, step = (bound(b) for b in item[1:])
        if all(v is None or isinstance(v, int) or is_static(v) for v in (start, stop, step)):
            x = x[lead + (slice(*(None if v is None else int(v) for v in (start, stop, step))),)]
        else:
            size = out_dims[pos] if out_dims is not None else None
            if size is None or not (step is None or (is_static(step) and int(step) == 1)):
                raise Unsupported(node, "a slice with run-time bounds needs a static length "
                                        "and step 1", constant=True)
            dim = jnp.shape(x)[pos]
            if start is None:
                start = stop - size if stop is not None else 0
            start = jnp.where(start < 0, start + dim, start)
            x = lax.dynamic_slice_in_dim(x, start, size, axis=pos)
        pos += 1
    return x


@lowering("StridedSliceGrad")
def _strided_slice_grad(ctx, node, shape, dy, *bounds):
    """``dy`` scattered into zeros of the input's shape: the slice's transpose (vjp)."""
    zeros = jnp.zeros(_ints(shape, node, "the input's shape"), dy.dtype)
    dims = jnp.shape(dy)
    primal, transpose = jax.vjp(lambda t: _slice(ctx, node, t, bounds, dims), zeros)
    return transpose(jnp.reshape(dy, primal.shape))[0]


@lowering("UnsortedSegmentSum")
def _segment_sum(ctx, node, data, segment_ids, num_segments):
    n = _ints(num_segments, node, "num_segments")[0]
    ids = jnp.reshape(segment_ids, (-1,))
    rows = jnp.reshape(data, (ids.shape[0],) + tuple(jnp.shape(data)[jnp.ndim(segment_ids):]))
    return jax.ops.segment_sum(rows, ids, num_segments=n)


# -- more shape ops -------------------------------------------------------------------

@lowering("ReverseV2")
def _reverse(ctx, node, x, axis):
    return jnp.flip(x, tuple(_ints(axis, node, "the axis")))


@lowering("Roll")
def _roll(ctx, node, x, shift, axis):
    return jnp.roll(x, tuple(_ints(shift, node, "the shift")), tuple(_ints(axis, node, "the axis")))


@lowering("BroadcastTo")
def _broadcast_to(ctx, node, x, shape):
    return jnp.broadcast_to(x, _ints(shape, node, "the shape"))


@lowering("EnsureShape", "IdentityN")
def _pass_through(ctx, node, *values):
    return values[0] if len(node.outputs) == 1 else tuple(values)


@lowering("Split")
def _split(ctx, node, axis, x):
    parts = jnp.split(x, node.attrs["num_split"], axis=_ints(axis, node, "the axis")[0])
    return parts[0] if len(parts) == 1 else tuple(parts)


@lowering("SplitV")
def _split_v(ctx, node, x, size_splits, axis):
    axis = _ints(axis, node, "the axis")[0]
    sizes = _ints(size_splits, node, "the sizes")
    if -1 in sizes:
        sizes[sizes.index(-1)] = jnp.shape(x)[axis] - (sum(sizes) + 1)
    parts = jnp.split(x, np.cumsum(sizes)[:-1].tolist(), axis=axis)
    return parts[0] if len(parts) == 1 else tuple(parts)


@lowering("Slice")
def _slice_op(ctx, node, x, begin, size):
    sizes = _ints(size, node, "the size")
    if is_static(begin):
        starts = [int(b) for b in np.reshape(begin, -1)]
        sizes = [d - b if s == -1 else s for s, b, d in zip(sizes, starts, jnp.shape(x))]
        return lax.slice(x, starts, [b + s for b, s in zip(starts, sizes)])
    if -1 in sizes:
        raise Unsupported(node, "a slice with a run-time begin needs an explicit size",
                          constant=True)
    return lax.dynamic_slice(x, list(jnp.reshape(begin, (-1,))), sizes)


@lowering("OneHot")
def _one_hot(ctx, node, indices, depth, on_value, off_value):
    n = _ints(depth, node, "the depth")[0]
    hot = jax.nn.one_hot(indices, n, axis=node.attrs.get("axis", -1), dtype=jnp.bool_)
    return jnp.where(hot, on_value, off_value)


@lowering("GatherNd")
def _gather_nd(ctx, node, params, indices):
    """Out-of-range indices are clamped, as XLA's gather does (a negative one to 0, not
    counted from the end)."""
    k = jnp.shape(indices)[-1]
    if not k:
        return jnp.broadcast_to(params, jnp.shape(indices)[:-1] + jnp.shape(params))
    rows = jnp.moveaxis(indices, -1, 0)
    return params[tuple(jnp.clip(r, 0, d - 1) for r, d in zip(rows, jnp.shape(params)))]


def _scatter_key(indices, shape):
    """The index arrays of an nd scatter; a negative index is moved out of range, so XLA drops
    its update as it drops every out-of-range one (a compiled program cannot raise)."""
    rows = jnp.moveaxis(indices, -1, 0)
    return tuple(jnp.where(r < 0, d, r) for r, d in zip(rows, shape))


@lowering("ScatterNd")
def _scatter_nd(ctx, node, indices, updates, shape):
    zeros = jnp.zeros(_ints(shape, node, "the shape"), updates.dtype)
    return zeros.at[_scatter_key(indices, zeros.shape)].add(updates, mode="drop")


_TENSOR_SCATTER = {"TensorScatterUpdate": lambda ref, u: ref.set(u, mode="drop"),
                   "TensorScatterAdd": lambda ref, u: ref.add(u, mode="drop"),
                   "TensorScatterSub": lambda ref, u: ref.add(-u, mode="drop"),
                   "TensorScatterMin": lambda ref, u: ref.min(u, mode="drop"),
                   "TensorScatterMax": lambda ref, u: ref.max(u, mode="drop")}


@lowering(*_TENSOR_SCATTER)
def _tensor_scatter(ctx, node, tensor, indices, updates):
    tensor = jnp.asarray(tensor)
    return _TENSOR_SCATTER[node.op](tensor.at[_scatter_key(indices, tensor.shape)], updates)


# -- sorting and searching ---------------------------------------------------------------

def _total_order(x):
    """Integer keys ordering floats as XLA's sort and TopK compare them: -nan < -inf < ...
    < -0.0 < 0.0 < ... < inf < nan (the sign bit flips the other bits' order)."""
    if not jnp.issubdtype(x.dtype, jnp.floating):
        return x
    bits = lax.bitcast_convert_type(x, np.dtype(f"int{x.dtype.itemsize * 8}"))
    return bits ^ ((bits >> (x.dtype.itemsize * 8 - 1)) & np.iinfo(bits.dtype).max)


@lowering("ArgSort")
def _arg_sort(ctx, node, x):
    """Stable in both directions: equal values keep their order (the numpy kernel's rule);
    floats in XLA's total order, as TensorFlow's TopKV2 under XLA sorts them."""
    x = _total_order(x)
    if node.attrs["direction"] == "ASCENDING":
        return jnp.argsort(x, axis=-1, stable=True)
    n = x.shape[-1]
    return n - 1 - jnp.flip(jnp.argsort(jnp.flip(x, -1), axis=-1, stable=True), -1)


@lowering("LowerBound", "UpperBound")
def _search_bound(ctx, node, sorted_inputs, values):
    side = "left" if node.op == "LowerBound" else "right"
    rows_s = jnp.reshape(sorted_inputs, (-1, sorted_inputs.shape[-1]))
    rows_v = jnp.reshape(values, (-1, values.shape[-1]))
    found = jax.vmap(lambda s, v: jnp.searchsorted(s, v, side=side))(rows_s, rows_v)
    return jnp.reshape(found, values.shape)


# -- ops whose output size depends on values -----------------------------------------------

@lowering("BroadcastArgs")
def _broadcast_args(ctx, node, s0, s1):  # reached only when a shape is a run-time value
    raise Unsupported(node, "the shapes it broadcasts must be compile-time constants",
                      constant=True)


@lowering("MirrorPadGrad")
def _mirror_pad_grad(ctx, node, g, paddings):
    """The transpose (vjp) of MirrorPad on the unpadded shape."""
    pairs = _pairs(paddings, node)
    shape = tuple(d - a - b for d, (a, b) in zip(g.shape, pairs))
    mode = str(node.attrs["mode"]).lower()
    pad = lambda x: jnp.pad(x, pairs, mode=mode)  # noqa: E731
    return jax.vjp(pad, jnp.zeros(shape, g.dtype))[1](g)[0]
