"""Array ops: reshaping, joining, splitting, shape queries and creation.

Shape-like arguments (a new shape, a permutation, an axis, range bounds) are
*inputs*, as in TensorFlow, so that they may be computed at run time; when
such an input is a constant, inference uses its value and the output gets a
static shape. Kernels return arrays of exactly the inferred dtype.
Gathering and slicing live in ``graph.ops.indexing``.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import DType, int32
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity, same_dtype, static_value
from graph.registry import register_op
from graph.shapes import TensorShape


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _ints(inp) -> list[int] | None:
    """The value of an integer input known while building, as a flat list of ints, or None."""
    value = static_value(inp)
    if value is None:
        return None
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _int(inp) -> int | None:
    value = static_value(inp)
    return None if value is None else int(np.asarray(value).reshape(()))


def _shape_value(inp) -> list | None:
    """The value of a shape-like vector input, with None for the entries known only later.

    Like TensorFlow's partial shape evaluation (``constant_value_as_shape``): besides
    constants it sees through ``Pack`` of scalars (``tf.stack([n, 2])``), ``Shape`` of a
    partially known tensor, a slice of a shape and a ``ConcatV2`` of shapes, so
    ``tf.zeros([n, 2])`` keeps its static 2 and ``tf.concat([tf.shape(x)[:-1], [3]], 0)``
    keeps the known dimensions of ``x``.
    """
    values = _ints(inp)
    if values is not None:
        return values
    node = getattr(inp, "node", None)
    if node is None or inp.shape.rank != 1:
        return None
    if node.op == "Pack" and node.attrs.get("axis", 0) == 0 and \
            all(i.shape.rank == 0 for i in node.inputs):
        return [_int(i) for i in node.inputs]
    if node.op == "Shape" and node.inputs[0].shape.rank is not None:
        return list(node.inputs[0].shape.as_tuple())
    if node.op in ("Cast", "Identity"):
        return _shape_value(node.inputs[0])
    if node.op == "ConcatV2" and _int(node.inputs[-1]) in (0, -1):
        parts = [_shape_value(i) for i in node.inputs[:-1]]
        return None if any(p is None for p in parts) else [d for p in parts for d in p]
    if node.op == "StridedSlice" and len(node.attrs["spec"]) == 1 and \
            node.attrs["spec"][0][0] == "slice":
        bounds = [_int(node.inputs[b[1]]) if isinstance(b, (tuple, list)) else b
                  for b in node.attrs["spec"][0][1:]]
        known = all(b is not None or not isinstance(raw, (tuple, list))
                    for b, raw in zip(bounds, node.attrs["spec"][0][1:]))
        whole = _shape_value(node.inputs[0]) if known and bounds[2] != 0 else None
        return None if whole is None else whole[slice(*bounds)]
    return None


def _check_int_input(op: str, inp, what: str, rank: int | None = None) -> None:
    if not inp.dtype.is_integer or inp.dtype.is_bool:
        raise _error(f"{op}: {what} must be an int32 or int64 tensor, got {inp.dtype.name}")
    if rank is not None and inp.shape.rank not in (None, rank):
        kind = "a scalar" if rank == 0 else "a vector"
        raise _error(f"{op}: {what} must be {kind}, got shape {inp.shape}")


def _normalize_axis(op: str, axis: int, rank: int) -> int:
    """``axis`` in [-rank, rank) made non-negative; TensorFlow's message otherwise."""
    if not -rank <= axis < rank:
        raise _error(f"{op}: Expected axis in the range [{-rank}, {rank}), but got {axis}")
    return axis + rank if axis < 0 else axis


def _dims(shape: TensorShape) -> list | None:
    return None if shape.rank is None else list(shape.as_tuple())


def _array(value, dtype: np.dtype) -> np.ndarray:
    """``value`` as an ndarray of exactly ``dtype`` (0-d for scalars)."""
    if isinstance(value, np.ndarray) and value.dtype == dtype:
        return value
    return np.asarray(value, dtype=dtype)


# -- Reshape ---------------------------------------------------------------

def _validate_requested(requested: list) -> list[int]:
    """Checks the -1 and negative entries (None entries are not known yet)."""
    unknown = [i for i, d in enumerate(requested) if d == -1]
    if len(unknown) > 1:
        raise _error(f"Reshape: only one input size may be -1, not both {unknown[0]} and "
                     f"{unknown[1]}")
    for i, d in enumerate(requested):
        if d is not None and d < -1:
            raise _error(f"Reshape: Size {i} must be non-negative, not {d}")
    return unknown


def _resolve_shape(requested: list[int], size: int | None) -> list[int | None]:
    """Checks a requested shape (one -1 allowed) against ``size`` elements."""
    unknown = _validate_requested(requested)
    known = 1
    for d in requested:
        if d != -1:
            known *= d
    if size is None:
        return [None if d == -1 else d for d in requested]
    if unknown:
        if known == 0 or size % known:
            raise _error(f"Input to reshape is a tensor with {size} values, but the requested "
                         f"shape requires a multiple of {known}")
        return [size // known if d == -1 else d for d in requested]
    if known != size:
        raise _error(f"Input to reshape is a tensor with {size} values, but the requested "
                     f"shape has {known}")
    return list(requested)


def _reshape_infer(inputs, attrs):
    expect_arity("Reshape", inputs, 2)
    x, shape = inputs
    _check_int_input("Reshape", shape, "shape", rank=1)
    requested = _shape_value(shape)
    if requested is None:
        n = shape.shape[0] if shape.shape.rank == 1 else None
        return [TensorType(x.dtype, TensorShape(None if n is None else [None] * n))]
    if None in requested:
        _validate_requested(requested)
        return [TensorType(x.dtype, TensorShape([None if d == -1 else d for d in requested]))]
    return [TensorType(x.dtype, TensorShape(_resolve_shape(requested, x.shape.num_elements())))]


def _reshape(x, shape):
    x = np.asarray(x)
    dims = _resolve_shape([int(d) for d in np.reshape(shape, -1)], x.size)
    return x.reshape(dims)


# -- Transpose -------------------------------------------------------------

def _check_perm(perm: list[int], rank: int) -> None:
    if len(perm) != rank:
        raise _error(f"transpose expects a vector of size {rank}. But input(1) is a vector of "
                     f"size {len(perm)}")
    seen = [False] * rank
    for d in perm:
        if not 0 <= d < rank:
            raise _error(f"transpose: {d} is out of range [0 .. {rank})")
        seen[d] = True
    for i, ok in enumerate(seen):
        if not ok:
            raise _error(f"transpose: {i} is missing from {{{','.join(map(str, perm))}}}.")


def _transpose_infer(inputs, attrs):
    expect_arity("Transpose", inputs, 2)
    x, perm_in = inputs
    _check_int_input("Transpose", perm_in, "perm", rank=1)
    perm = _ints(perm_in)
    dims = _dims(x.shape)
    if perm is None or dims is None:
        rank = dims and len(dims)
        if rank is None and perm_in.shape.rank == 1:
            rank = perm_in.shape[0]
        return [TensorType(x.dtype, TensorShape(None if rank is None else [None] * rank))]
    _check_perm(perm, len(dims))
    return [TensorType(x.dtype, TensorShape([dims[p] for p in perm]))]


def _transpose(x, perm):
    x = np.asarray(x)
    perm = [int(p) for p in np.reshape(perm, -1)]
    _check_perm(perm, x.ndim)
    return np.ascontiguousarray(np.transpose(x, perm))


# -- ConcatV2 / Pack / Unpack -------------------------------------------------

def _concat_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error("ConcatV2 takes at least one value and an axis")
    values, axis_in = inputs[:-1], inputs[-1]
    _check_int_input("ConcatV2", axis_in, "axis", rank=0)
    dtype = same_dtype("ConcatV2", values)
    ranks = {v.shape.rank for v in values if v.shape.rank is not None}
    if len(ranks) > 1:
        raise _error(f"ConcatV2: Ranks of all input tensors should match: shapes "
                     f"{[str(v.shape) for v in values]}")
    if not ranks:
        return [TensorType(dtype, TensorShape(None))]
    rank = ranks.pop()
    if rank == 0:
        raise _error("ConcatV2: Can't concatenate scalars (use tf.stack instead)")
    axis = _int(axis_in)
    if axis is None:
        return [TensorType(dtype, TensorShape([None] * rank))]
    axis = _normalize_axis("ConcatV2", axis, rank)
    out: list = [None] * rank
    total = 0
    for v in values:
        if v.shape.rank is None:
            total = None
            continue
        for d, size in enumerate(v.shape.as_tuple()):
            if d == axis:
                total = None if total is None or size is None else total + size
            elif size is not None:
                if out[d] is not None and out[d] != size:
                    raise _error(
                        f"ConcatV2: Dimension {d} in both shapes must be equal: shapes "
                        f"{[str(v.shape) for v in values]} (concatenating along axis {axis})")
                out[d] = size
    out[axis] = total
    return [TensorType(dtype, TensorShape(out))]


def _concat(*args):
    values, axis = args[:-1], int(args[-1])
    return np.concatenate([np.asarray(v) for v in values], axis=axis)


def _pack_infer(inputs, attrs):
    if not inputs:
        raise _error("Pack (tf.stack) needs at least one value")
    dtype = same_dtype("Pack", inputs)
    shape = TensorShape(None)
    for v in inputs:
        if not shape.is_compatible_with(v.shape):
            raise _error(f"Pack: Shapes of all inputs must match: values[0].shape = "
                         f"{inputs[0].shape} != values[{inputs.index(v)}].shape = {v.shape}")
        shape = shape.merge_with(v.shape)
    if shape.rank is None:
        return [TensorType(dtype, TensorShape(None))]
    dims = list(shape.as_tuple())
    axis = _normalize_axis("Pack", attrs.get("axis", 0), len(dims) + 1)
    dims.insert(axis, len(inputs))
    return [TensorType(dtype, TensorShape(dims))]


def _pack(*values, axis=0):
    return np.stack([np.asarray(v) for v in values], axis=axis)


def _unpack_infer(inputs, attrs):
    expect_arity("Unpack", inputs, 1)
    x = inputs[0]
    num, axis = attrs["num"], attrs.get("axis", 0)
    dims = _dims(x.shape)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * num
    if not dims:
        raise _error("Unpack (tf.unstack): cannot unstack a scalar")
    axis = _normalize_axis("Unpack", axis, len(dims))
    if dims[axis] is not None and dims[axis] != num:
        raise _error(f"Unpack: Input shape axis {axis} must equal {num}, got shape {x.shape}")
    rest = TensorShape(dims[:axis] + dims[axis + 1:])
    return [TensorType(x.dtype, rest)] * num


def _unpack(x, num, axis=0):
    x = np.asarray(x)
    if x.shape[axis] != num:
        raise _error(f"Unpack: Input shape axis {axis} must equal {num}, got shape "
                     f"{list(x.shape)}")
    parts = tuple(_array(p, x.dtype) for p in np.moveaxis(x, axis, 0))
    return parts[0] if num == 1 else parts


# -- shape queries ------------------------------------------------------------------

def _out_type(op: str, attrs) -> DType:
    dtype = attrs.get("out_type", int32)
    if dtype.name not in ("int32", "int64"):
        raise _error(f"{op}: out_type must be int32 or int64, got {dtype.name}")
    return dtype


def _shape_infer(inputs, attrs):
    expect_arity("Shape", inputs, 1)
    rank = inputs[0].shape.rank
    return [TensorType(_out_type("Shape", attrs), TensorShape([rank]))]


def _size_infer(inputs, attrs):
    expect_arity("Size", inputs, 1)
    return [TensorType(_out_type("Size", attrs), TensorShape([]))]


def _rank_infer(inputs, attrs):
    expect_arity("Rank", inputs, 1)
    return [TensorType(int32, TensorShape([]))]


# -- creation ------------------------------------------------------------------------

def _fill_infer(inputs, attrs):
    expect_arity("Fill", inputs, 2)
    dims_in, value = inputs
    _check_int_input("Fill", dims_in, "dims", rank=1)
    if value.shape.rank not in (None, 0):
        raise _error(f"Fill: value must be a scalar, got shape {value.shape}")
    dims = _shape_value(dims_in)
    if dims is not None:
        for d in dims:
            if d is not None and d < 0:
                raise _error(f"Fill: dims must be non-negative, got {dims}")
        return [TensorType(value.dtype, TensorShape(dims))]
    n = dims_in.shape[0] if dims_in.shape.rank == 1 else None
    return [TensorType(value.dtype, TensorShape(None if n is None else [None] * n))]


def _fill(dims, value):
    value = np.asarray(value)
    dims = [int(d) for d in np.reshape(dims, -1)]
    if any(d < 0 for d in dims):
        raise _error(f"Fill: dims must be non-negative, got {dims}")
    return np.full(dims, value, dtype=value.dtype)


def _like_infer(inputs, attrs):
    expect_arity("ZerosLike", inputs, 1)
    return [TensorType(inputs[0].dtype, inputs[0].shape)]


def _zeros_like(x):
    x = np.asarray(x)
    if x.dtype == object:
        return np.full(x.shape, b"", dtype=object)
    return np.zeros_like(x)


def _ones_like(x):
    x = np.asarray(x)
    if x.dtype == object:
        raise _error("OnesLike is not defined for string tensors")
    return np.ones_like(x)


def _range_size(start, limit, delta) -> int:
    """TensorFlow's element count; floats are computed in their own dtype."""
    integer = np.asarray(start).dtype.kind in "iu"
    if integer:
        start, limit, delta = int(start), int(limit), int(delta)
    if delta == 0:
        raise _error(f"Requires delta != 0: {delta}")
    if delta > 0 and start > limit:
        raise _error(f"Requires start <= limit when delta > 0: {start}/{limit}")
    if delta < 0 and start < limit:
        raise _error(f"Requires start >= limit when delta < 0: {start}/{limit}")
    if integer:
        return (abs(limit - start) + abs(delta) - 1) // abs(delta)
    return int(np.ceil(abs((limit - start) / delta)))


def _range_infer(inputs, attrs):
    expect_arity("Range", inputs, 3)
    dtype = same_dtype("Range", inputs)
    if not dtype.is_real:
        raise _error(f"Range does not support {dtype.name} (use an integer or float dtype)")
    for name, inp in zip(("start", "limit", "delta"), inputs):
        if inp.shape.rank not in (None, 0):
            raise _error(f"Range: {name} must be a scalar, not shape {inp.shape}")
    values = [inp.value if not dtype.is_integer else static_value(inp) for inp in inputs]
    if any(v is None for v in values):
        return [TensorType(dtype, TensorShape([None]))]
    start, limit, delta = (np.asarray(v, dtype=dtype.numpy_dtype).reshape(())[()]
                           for v in values)
    return [TensorType(dtype, TensorShape([_range_size(start, limit, delta)]))]


def _range(start, limit, delta):
    dtype = np.asarray(start).dtype
    n = _range_size(*(np.asarray(v).reshape(())[()] for v in (start, limit, delta)))
    s, d = np.asarray(start).item(), np.asarray(delta).item()
    if dtype.kind == "f":  # TensorFlow accumulates ``val += delta`` in the dtype
        steps = np.full(n, d, dtype=dtype)
        if n:
            steps[0] = s
        return np.cumsum(steps, dtype=dtype)
    return np.arange(s, s + n * d, d, dtype=dtype)[:n]


def _matrix_diag_infer(inputs, attrs):
    expect_arity("MatrixDiag", inputs, 1)
    dims = _dims(inputs[0].shape)
    if dims is None:
        return [TensorType(inputs[0].dtype, TensorShape(None))]
    if not dims:
        raise _error("MatrixDiag: the diagonal must be at least 1-D")
    return [TensorType(inputs[0].dtype, TensorShape(dims + dims[-1:]))]


def _matrix_diag(diagonal):
    diagonal = np.asarray(diagonal)
    n = diagonal.shape[-1]
    out = np.zeros(diagonal.shape + (n,), dtype=diagonal.dtype)
    idx = np.arange(n)
    out[..., idx, idx] = diagonal
    return out


def _matrix_set_diag_infer(inputs, attrs):
    expect_arity("MatrixSetDiag", inputs, 2)
    dtype = same_dtype("MatrixSetDiag", inputs)
    matrix, diag = inputs
    if matrix.shape.rank is not None and matrix.shape.rank < 2:
        raise _error(f"MatrixSetDiag: input must be at least 2-D, got shape {matrix.shape}")
    return [TensorType(dtype, matrix.shape)]


def _matrix_set_diag(matrix, diagonal):
    matrix = np.array(matrix)
    n = min(matrix.shape[-2:])
    if np.shape(diagonal)[-1] != n:
        raise _error(f"MatrixSetDiag: diagonal must have {n} elements per matrix, got "
                     f"shape {list(np.shape(diagonal))}")
    idx = np.arange(n)
    matrix[..., idx, idx] = diagonal
    return matrix


# -- ExpandDims / Squeeze / Tile ---------------------------------------------------------

def _expand_dims_infer(inputs, attrs):
    expect_arity("ExpandDims", inputs, 2)
    x, axis_in = inputs
    _check_int_input("ExpandDims", axis_in, "axis")
    if axis_in.value is not None and np.size(axis_in.value) != 1:
        raise _error(f"ExpandDims: axis must be a single integer, got {axis_in.value}")
    dims, axis = _dims(x.shape), _int(axis_in)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))]
    if axis is None:
        return [TensorType(x.dtype, TensorShape([None] * (len(dims) + 1)))]
    axis = _normalize_axis("ExpandDims", axis, len(dims) + 1)
    return [TensorType(x.dtype, TensorShape(dims[:axis] + [1] + dims[axis:]))]


def _expand_dims(x, axis):
    x = np.asarray(x)
    axis = _normalize_axis("ExpandDims", int(np.reshape(axis, -1)[0]), x.ndim + 1)
    return np.expand_dims(x, axis)


def _squeeze_axes(dims: list, axes, strict: bool) -> list[int] | None:
    rank = len(dims)
    if not axes:
        if any(d is None for d in dims):
            return None  # which unknown dims are 1 is only known at run time
        return [i for i, d in enumerate(dims) if d == 1]
    out = []
    for a in axes:
        a = _normalize_axis("Squeeze", a, rank)
        if strict and dims[a] is not None and dims[a] != 1:
            raise _error(f"Can not squeeze dim[{a}], expected a dimension of 1, got {dims[a]}")
        out.append(a)
    return out


def _squeeze_infer(inputs, attrs):
    expect_arity("Squeeze", inputs, 1)
    x = inputs[0]
    dims = _dims(x.shape)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))]
    axes = _squeeze_axes(dims, list(attrs.get("squeeze_dims") or ()), strict=True)
    if axes is None:
        return [TensorType(x.dtype, TensorShape(None))]
    return [TensorType(x.dtype, TensorShape([d for i, d in enumerate(dims) if i not in axes]))]


def _squeeze(x, squeeze_dims=()):
    x = np.asarray(x)
    axes = _squeeze_axes(list(x.shape), list(squeeze_dims or ()), strict=True)
    return _array(np.squeeze(x, axis=tuple(axes)), x.dtype)


def _tile_infer(inputs, attrs):
    expect_arity("Tile", inputs, 2)
    x, mult_in = inputs
    _check_int_input("Tile", mult_in, "multiples", rank=1)
    dims, mult = _dims(x.shape), _ints(mult_in)
    if dims is not None and mult_in.shape.rank == 1 and mult_in.shape[0] not in (None, len(dims)):
        raise _error(f"Tile: Expected multiples argument to be a vector of length "
                     f"{len(dims)} but got length {mult_in.shape[0]}")
    if mult is not None and any(m < 0 for m in mult):
        raise _error(f"Tile: Expected multiples[i] >= 0, but got {mult}")
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))]
    if mult is None:
        return [TensorType(x.dtype, TensorShape([None] * len(dims)))]
    return [TensorType(x.dtype, TensorShape([None if d is None else d * m
                                              for d, m in zip(dims, mult)]))]


def _tile(x, multiples):
    x = np.asarray(x)
    mult = [int(m) for m in np.reshape(multiples, -1)]
    if len(mult) != x.ndim:
        raise _error(f"Tile: Expected multiples argument to be a vector of length {x.ndim} "
                     f"but got length {len(mult)}")
    return np.tile(x, mult) if x.ndim else x.copy()


# -- Pad / PadV2 / MirrorPad ------------------------------------------------------------

_MIRROR_MODES = {"REFLECT": 1, "SYMMETRIC": 0}  # how far a mirrored border stays from the edge


def _paddings_infer(op: str, x, paddings_in) -> TensorShape:
    """The padded shape: known dims grow by their constant paddings, the rest stay unknown."""
    _check_int_input(op, paddings_in, "paddings", rank=2)
    pshape = paddings_in.shape
    if pshape.rank == 2 and pshape[1] is not None and pshape[1] != 2:
        raise _error(f"{op}: paddings must be a matrix with 2 columns: {pshape}")
    rank = x.shape.rank
    n = pshape[0] if pshape.rank == 2 else None
    if rank is not None and n is not None and rank != n:
        raise _error(f"{op}: The first dimension of paddings must be the rank of inputs"
                     f"[{n},2] {x.shape}")
    if rank is None:
        rank = n
    if rank is None:
        return TensorShape(None)
    values = _ints(paddings_in)
    if values is None:
        return TensorShape([None] * rank)
    pairs = [(values[2 * i], values[2 * i + 1]) for i in range(rank)]
    for before, after in pairs:
        if before < 0 or after < 0:
            raise _error(f"{op}: Paddings must be non-negative: {before} {after}")
    dims = _dims(x.shape) or [None] * rank
    return TensorShape([None if d is None else d + b + a for d, (b, a) in zip(dims, pairs)])


def _pad_pairs(op: str, x: np.ndarray, paddings) -> list[tuple[int, int]]:
    p = np.asarray(paddings)
    if p.ndim != 2 or p.shape[1] != 2 or p.shape[0] != x.ndim:
        raise _error(f"{op}: The first dimension of paddings must be the rank of inputs"
                     f"{list(p.shape)} {list(x.shape)}")
    pairs = [(int(b), int(a)) for b, a in p]
    for before, after in pairs:
        if before < 0 or after < 0:
            raise _error(f"{op}: Paddings must be non-negative: {before} {after}")
    return pairs


def _pad_infer(inputs, attrs):
    expect_arity("Pad", inputs, 2)
    x, paddings = inputs
    return [TensorType(x.dtype, _paddings_infer("Pad", x, paddings))]


def _pad(x, paddings):
    x = np.asarray(x)
    pairs = _pad_pairs("Pad", x, paddings)
    fill = b"" if x.dtype == object else 0
    return _array(np.pad(x, pairs, mode="constant", constant_values=fill), x.dtype)


def _pad_v2_infer(inputs, attrs):
    expect_arity("PadV2", inputs, 3)
    x, paddings, value = inputs
    same_dtype("PadV2", [x, value])
    if value.shape.rank not in (None, 0):
        raise _error(f"PadV2: constant_values must be a scalar. Shape of constant_values "
                     f"was {value.shape}")
    return [TensorType(x.dtype, _paddings_infer("PadV2", x, paddings))]


def _pad_v2(x, paddings, constant_values):
    x = np.asarray(x)
    pairs = _pad_pairs("PadV2", x, paddings)
    value = np.asarray(constant_values)
    if value.ndim:
        raise _error(f"PadV2: constant_values must be a scalar. Shape of constant_values was "
                     f"{list(value.shape)}")
    out = np.full([d + b + a for d, (b, a) in zip(x.shape, pairs)], value[()], dtype=x.dtype)
    out[tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, pairs))] = x
    return out


def _mirror_mode(op: str, attrs) -> str:
    mode = attrs.get("mode")
    if mode not in _MIRROR_MODES:
        raise _error(f"{op}: mode must be REFLECT or SYMMETRIC, got {mode!r}")
    return mode


def _check_mirror(op: str, pairs, dims, mode: str) -> None:
    offset = _MIRROR_MODES[mode]
    for (before, after), d in zip(pairs, dims):
        if d is not None and not (before <= d - offset and after <= d - offset):
            raise _error(f"{op}: paddings must be less than the dimension size: {before}, "
                         f"{after} not less than {d}")


def _mirror_pad_infer(inputs, attrs):
    expect_arity("MirrorPad", inputs, 2)
    x, paddings = inputs
    mode = _mirror_mode("MirrorPad", attrs)
    shape = _paddings_infer("MirrorPad", x, paddings)
    values, dims = _ints(paddings), _dims(x.shape)
    if values is not None and dims is not None:
        _check_mirror("MirrorPad", [(values[2 * i], values[2 * i + 1]) for i in range(len(dims))],
                      dims, mode)
    return [TensorType(x.dtype, shape)]


def _mirror_pad(x, paddings, mode):
    x = np.asarray(x)
    pairs = _pad_pairs("MirrorPad", x, paddings)
    _check_mirror("MirrorPad", pairs, x.shape, mode)
    return _array(np.pad(x, pairs, mode="reflect" if mode == "REFLECT" else "symmetric"),
                  x.dtype)


def _mirror_pad_grad_infer(inputs, attrs):
    """The gradient of a MirrorPad: the padded borders folded back onto the input's shape."""
    expect_arity("MirrorPadGrad", inputs, 2)
    g, paddings_in = inputs
    _mirror_mode("MirrorPadGrad", attrs)
    _check_int_input("MirrorPadGrad", paddings_in, "paddings", rank=2)
    dims, values = _dims(g.shape), _ints(paddings_in)
    if dims is None:
        n = paddings_in.shape[0] if paddings_in.shape.rank == 2 else None
        return [TensorType(g.dtype, TensorShape(None if n is None else [None] * n))]
    if values is None:
        return [TensorType(g.dtype, TensorShape([None] * len(dims)))]
    return [TensorType(g.dtype, TensorShape(
        [None if d is None else d - values[2 * i] - values[2 * i + 1]
         for i, d in enumerate(dims)]))]


def _mirror_pad_grad(g, paddings, mode):
    g = np.asarray(g)
    offset = _MIRROR_MODES[mode]
    for axis, (before, after) in enumerate(_pad_pairs("MirrorPadGrad", g, paddings)):
        moved = np.moveaxis(g, axis, 0)
        n = moved.shape[0] - before - after
        out = np.array(moved[before:before + n])
        # left border position j mirrors input index before - j - 1 + offset, right border
        # position k (after the input) mirrors n - 1 - k - offset
        np.add.at(out, np.arange(before - 1 + offset, offset - 1, -1), moved[:before])
        np.add.at(out, np.arange(n - 1 - offset, n - 1 - offset - after, -1),
                  moved[before + n:])
        g = np.moveaxis(out, 0, axis)
    return np.ascontiguousarray(g)


register_op("Reshape", _reshape_infer, _reshape)
register_op("Transpose", _transpose_infer, _transpose)
register_op("ConcatV2", _concat_infer, _concat)
register_op("Pack", _pack_infer, _pack, kernel_attrs=("axis",))
register_op("Unpack", _unpack_infer, _unpack, kernel_attrs=("num", "axis"))
register_op("Shape", _shape_infer, lambda x, out_type: np.asarray(np.shape(x),
                                                                  dtype=out_type.numpy_dtype),
            kernel_attrs=("out_type",))
register_op("Size", _size_infer, lambda x, out_type: np.asarray(np.size(x),
                                                                dtype=out_type.numpy_dtype),
            kernel_attrs=("out_type",))
register_op("Rank", _rank_infer, lambda x: np.asarray(np.ndim(x), dtype=np.int32))
register_op("Fill", _fill_infer, _fill)
register_op("ZerosLike", _like_infer, _zeros_like)
register_op("OnesLike", _like_infer, _ones_like)
register_op("Range", _range_infer, _range)
register_op("MatrixDiag", _matrix_diag_infer, _matrix_diag)
register_op("MatrixSetDiag", _matrix_set_diag_infer, _matrix_set_diag)
register_op("ExpandDims", _expand_dims_infer, _expand_dims)
register_op("Squeeze", _squeeze_infer, _squeeze, kernel_attrs=("squeeze_dims",))
register_op("Tile", _tile_infer, _tile)
register_op("Pad", _pad_infer, _pad)
register_op("PadV2", _pad_v2_infer, _pad_v2)
register_op("MirrorPad", _mirror_pad_infer, _mirror_pad, kernel_attrs=("mode",))
register_op("MirrorPadGrad", _mirror_pad_grad_infer, _mirror_pad_grad, kernel_attrs=("mode",))


# -- reordering: ReverseV2 / Roll ------------------------------------------------------------

def _axes_of(op: str, axis_in, rank: int | None) -> list[int] | None:
    """A constant axis input (scalar or vector) made non-negative, or None when unknown."""
    axes = _ints(axis_in)
    if axes is None or rank is None:
        return None
    return [_normalize_axis(op, a, rank) for a in axes]


def _reverse_infer(inputs, attrs):
    expect_arity("ReverseV2", inputs, 2)
    x, axis_in = inputs
    _check_int_input("ReverseV2", axis_in, "axis", rank=1)
    axes = _axes_of("ReverseV2", axis_in, x.shape.rank)
    if axes is not None:
        _check_unique_axes(axes)
    return [TensorType(x.dtype, x.shape)]


def _check_unique_axes(axes: list[int]) -> None:
    for i, a in enumerate(axes):
        if a in axes[:i]:
            raise _error(f"axis {a} specified more than once.")


def _reverse(x, axis):
    x = np.asarray(x)
    axes = [_normalize_axis("ReverseV2", int(a), x.ndim) for a in np.reshape(axis, -1)]
    _check_unique_axes(axes)
    return np.ascontiguousarray(np.flip(x, tuple(axes))) if axes else x.copy()


def _roll_infer(inputs, attrs):
    expect_arity("Roll", inputs, 3)
    x, shift, axis = inputs
    _check_int_input("Roll", shift, "shift")
    _check_int_input("Roll", axis, "axis")
    if shift.shape.rank not in (None, 0, 1) or axis.shape.rank not in (None, 0, 1):
        raise _error("Roll: shift and axis must be scalars or vectors")
    if shift.shape.is_fully_defined() and axis.shape.is_fully_defined() and \
            shift.shape.num_elements() != axis.shape.num_elements():
        raise _error("shift and axis must have the same size")
    if x.shape.rank == 0:
        raise _error("Roll: input must be 1-D or higher")
    _axes_of("Roll", axis, x.shape.rank)
    return [TensorType(x.dtype, x.shape)]


def _roll(x, shift, axis):
    x = np.asarray(x)
    shifts, axes = np.reshape(shift, -1), np.reshape(axis, -1)
    if shifts.size != axes.size:
        raise _error("shift and axis must have the same size")
    axes = [_normalize_axis("Roll", int(a), x.ndim) for a in axes]
    return np.roll(x, [int(s) for s in shifts], axes) if axes else x.copy()


# -- BroadcastTo / BroadcastArgs -----------------------------------------------------------------

def _broadcast_to_dims(op: str, src: list, target: list) -> None:
    """TensorFlow's check that ``src`` broadcasts to exactly ``target`` (None: unknown)."""
    ok = len(src) <= len(target) and all(
        s is None or t is None or s in (1, t) for s, t in zip(reversed(src), reversed(target)))
    if not ok:
        raise _error(f"Incompatible shapes: {_shape_str(src)} vs. {_shape_str(target)}")


def _broadcast_to_infer(inputs, attrs):
    expect_arity("BroadcastTo", inputs, 2)
    x, shape_in = inputs
    _check_int_input("BroadcastTo", shape_in, "shape", rank=1)
    target = _shape_value(shape_in)
    if target is None:
        n = shape_in.shape[0] if shape_in.shape.rank == 1 else None
        return [TensorType(x.dtype, TensorShape(None if n is None else [None] * n))]
    dims = _dims(x.shape)
    if dims is not None:
        _broadcast_to_dims("BroadcastTo", dims, target)
        # an unknown target dimension is the input's where the input's is not 1
        target = [t if t is not None or i < len(target) - len(dims) else
                  (None if dims[i - len(target) + len(dims)] == 1 else
                   dims[i - len(target) + len(dims)]) for i, t in enumerate(target)]
    return [TensorType(x.dtype, TensorShape(target))]


def _broadcast_to(x, shape):
    x = np.asarray(x)
    target = [int(d) for d in np.reshape(shape, -1)]
    _broadcast_to_dims("BroadcastTo", list(x.shape), target)
    return np.array(np.broadcast_to(x, target))


def _broadcast_args_infer(inputs, attrs):
    expect_arity("BroadcastArgs", inputs, 2)
    dtype = same_dtype("BroadcastArgs", inputs)
    for s in inputs:
        _check_int_input("BroadcastArgs", s, "shape", rank=1)
    values = [_ints(s) for s in inputs]
    if None not in values:
        return [TensorType(dtype, TensorShape([len(_broadcast_args(*values))]))]
    lengths = [s.shape[0] if s.shape.rank == 1 else None for s in inputs]
    n = None if None in lengths else max(lengths)
    return [TensorType(dtype, TensorShape([n]))]


def _broadcast_args(s0, s1):
    x, y = [int(d) for d in np.reshape(s0, -1)], [int(d) for d in np.reshape(s1, -1)]
    n = max(len(x), len(y))
    a, b = [1] * (n - len(x)) + x, [1] * (n - len(y)) + y
    out = []
    for p, q in zip(a, b):
        if p != q and 1 not in (p, q):
            raise _error(f"Incompatible shapes: {_shape_str(x)} vs. {_shape_str(y)}")
        out.append(q if p == 1 else p)
    return np.asarray(out, dtype=np.asarray(s0).dtype)


# -- Split / SplitV / Slice -----------------------------------------------------------------

def _split_infer(inputs, attrs):
    expect_arity("Split", inputs, 2)
    axis_in, x = inputs
    _check_int_input("Split", axis_in, "axis", rank=0)
    num = attrs["num_split"]
    if num < 1:
        raise _error(f"Split: num_split must be >= 1, got {num}")
    dims, axis = _dims(x.shape), _int(axis_in)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * num
    if axis is None:
        return [TensorType(x.dtype, TensorShape([None] * len(dims)))] * num
    axis = _normalize_axis("Split", axis, len(dims))
    if dims[axis] is not None and dims[axis] % num:
        raise _error(f"Split: Number of ways to split should evenly divide the split "
                     f"dimension, but got split_dim {axis} (size = {dims[axis]}) and "
                     f"num_split {num}")
    part = dims[:axis] + [None if dims[axis] is None else dims[axis] // num] + dims[axis + 1:]
    return [TensorType(x.dtype, TensorShape(part))] * num


def _split(axis, x, num_split):
    x = np.asarray(x)
    axis = _normalize_axis("Split", int(axis), x.ndim)
    if x.shape[axis] % num_split:
        raise _error(f"Split: Number of ways to split should evenly divide the split "
                     f"dimension, but got split_dim {axis} (size = {x.shape[axis]}) and "
                     f"num_split {num_split}")
    parts = tuple(np.ascontiguousarray(p) for p in np.split(x, num_split, axis))
    return parts[0] if num_split == 1 else parts


def _split_sizes(sizes: list, total: int | None) -> list:
    """The sizes of a SplitV with its one -1 resolved (None where it is not known)."""
    if sizes.count(-1) > 1:
        raise _error(f"SplitV: Only one dimensions can have a value of -1. Second one "
                     f"found at dimension {[i for i, s in enumerate(sizes) if s == -1][1]}")
    if any(s is not None and s < -1 for s in sizes):
        raise _error(f"SplitV: Split sizes must be non-negative or -1, got {sizes}")
    known = sum(s for s in sizes if s is not None and s != -1)
    if total is None or None in sizes:
        return [None if s == -1 else s for s in sizes]
    if -1 in sizes:
        if known > total:
            raise _error(f"SplitV: The specified sizes ({sizes}) sum to more than the "
                         f"split dimension ({total})")
        return [total - known if s == -1 else s for s in sizes]
    if known != total:
        raise _error(f"SplitV: Determined shape must either match input shape along "
                     f"split_dim exactly if fully specified, or be less than the size of the "
                     f"input along split_dim if not fully specified.  Got: {known}")
    return sizes


def _split_v_infer(inputs, attrs):
    expect_arity("SplitV", inputs, 3)
    x, sizes_in, axis_in = inputs
    _check_int_input("SplitV", sizes_in, "size_splits", rank=1)
    _check_int_input("SplitV", axis_in, "axis", rank=0)
    num = attrs["num_split"]
    dims, axis = _dims(x.shape), _int(axis_in)
    if dims is None:
        return [TensorType(x.dtype, TensorShape(None))] * num
    if axis is None:
        return [TensorType(x.dtype, TensorShape([None] * len(dims)))] * num
    axis = _normalize_axis("SplitV", axis, len(dims))
    sizes = _shape_value(sizes_in) or [None] * num
    if len(sizes) != num:
        raise _error(f"SplitV: size_splits has {len(sizes)} entries for num_split {num}")
    sizes = _split_sizes(sizes, dims[axis])
    return [TensorType(x.dtype, TensorShape(dims[:axis] + [s] + dims[axis + 1:]))
            for s in sizes]


def _split_v(x, size_splits, axis, num_split):
    x = np.asarray(x)
    axis = _normalize_axis("SplitV", int(axis), x.ndim)
    sizes = _split_sizes([int(s) for s in np.reshape(size_splits, -1)], x.shape[axis])
    parts = tuple(np.ascontiguousarray(p)
                  for p in np.split(x, np.cumsum(sizes)[:-1].tolist(), axis))
    return parts[0] if num_split == 1 else parts


def _slice_bounds(begin: list, size: list, dims: list) -> list:
    """The output dims of a Slice (size -1: to the end); None where not known."""
    out = []
    for i, (b, s, d) in enumerate(zip(begin, size, dims)):
        out.append((None if d is None or b is None else d - b) if s == -1 else s)
        if b is None or d is None:
            continue
        if not 0 <= b <= d:
            raise _error(f"Expected begin[{i}] in [0, {d}], but got {b}")
        if s is not None and s != -1 and not 0 <= s <= d - b:
            raise _error(f"Expected size[{i}] in [0, {d - b}], but got {s}")
    return out


def _slice_infer(inputs, attrs):
    expect_arity("Slice", inputs, 3)
    x, begin_in, size_in = inputs
    same_dtype("Slice", [begin_in, size_in])
    _check_int_input("Slice", begin_in, "begin", rank=1)
    _check_int_input("Slice", size_in, "size", rank=1)
    dims = _dims(x.shape)
    n = begin_in.shape[0] if begin_in.shape.rank == 1 else None
    if dims is not None and n is not None and n != len(dims):
        raise _error(f"Slice: Expected begin and size arguments to be 1-D tensors of size "
                     f"{len(dims)}, but got shapes {begin_in.shape} and {size_in.shape} instead.")
    rank = len(dims) if dims is not None else n
    if rank is None:
        return [TensorType(x.dtype, TensorShape(None))]
    begin = _shape_value(begin_in) or [None] * rank
    size = _shape_value(size_in) or [None] * rank
    return [TensorType(x.dtype, TensorShape(_slice_bounds(begin, size, dims or [None] * rank)))]


def _slice(x, begin, size):
    x = np.asarray(x)
    begin, size = [int(b) for b in np.reshape(begin, -1)], [int(s) for s in np.reshape(size, -1)]
    if len(begin) != x.ndim or len(size) != x.ndim:
        raise _error(f"Slice: Expected begin and size arguments to be 1-D tensors of size "
                     f"{x.ndim}, but got shapes [{len(begin)}] and [{len(size)}] instead.")
    out = _slice_bounds(begin, size, list(x.shape))
    return np.ascontiguousarray(x[tuple(slice(b, b + s) for b, s in zip(begin, out))])


# -- EnsureShape / IdentityN ------------------------------------------------------------------

def _ensure_shape_infer(inputs, attrs):
    expect_arity("EnsureShape", inputs, 1)
    x, shape = inputs[0], attrs["shape"]
    if not x.shape.is_compatible_with(shape):
        raise _error(_ensure_message(x.shape.as_tuple(), shape))
    return [TensorType(x.dtype, x.shape.merge_with(shape))]


def _ensure_shape(x, shape):
    x = np.asarray(x)
    if not TensorShape(list(x.shape)).is_compatible_with(shape):
        raise _error(_ensure_message(x.shape, shape))
    return x


def _ensure_message(dims, shape: TensorShape) -> str:
    return (f"Shape of tensor input {_shape_str(dims)} is not compatible with expected shape "
            f"{_shape_str(shape.as_tuple())}.")


def _shape_str(dims) -> str:
    return "[" + ",".join("?" if d is None else str(d) for d in dims) + "]"


def _identity_n_infer(inputs, attrs):
    return [TensorType(i.dtype, i.shape) for i in inputs]


def _identity_n(*values):
    return values[0] if len(values) == 1 else tuple(values)


register_op("ReverseV2", _reverse_infer, _reverse)
register_op("Roll", _roll_infer, _roll)
register_op("BroadcastTo", _broadcast_to_infer, _broadcast_to)
register_op("BroadcastArgs", _broadcast_args_infer, _broadcast_args)
register_op("Split", _split_infer, _split, kernel_attrs=("num_split",))
register_op("SplitV", _split_v_infer, _split_v, kernel_attrs=("num_split",))
register_op("Slice", _slice_infer, _slice)
register_op("EnsureShape", _ensure_shape_infer, _ensure_shape, kernel_attrs=("shape",))
register_op("IdentityN", _identity_n_infer, _identity_n)


# -- OneHot ------------------------------------------------------------------------------

def _one_hot_infer(inputs, attrs):
    expect_arity("OneHot", inputs, 4)
    indices, depth_in, on, off = inputs
    _check_int_input("OneHot", indices, "indices")
    _check_int_input("OneHot", depth_in, "depth", rank=0)
    dtype = same_dtype("OneHot", [on, off])
    for what, v in (("on_value", on), ("off_value", off)):
        if v.shape.rank not in (None, 0):
            raise _error(f"OneHot: {what} must be a scalar, but got: {v.shape}")
    depth = _int(depth_in)
    if depth is not None and depth < 0:
        raise _error(f"OneHot: depth must be non-negative, got: {depth}")
    dims = _dims(indices.shape)
    if dims is None:
        return [TensorType(dtype, TensorShape(None))]
    axis = attrs.get("axis", -1)
    if not -1 <= axis <= len(dims):
        raise _error(f"OneHot: Expected axis to be -1 or between [0, {len(dims)}].  But "
                     f"received: {axis}")
    axis = len(dims) if axis == -1 else axis
    return [TensorType(dtype, TensorShape(dims[:axis] + [depth] + dims[axis:]))]


def _one_hot(indices, depth, on_value, off_value, axis=-1):
    indices = np.asarray(indices)
    on, off = np.asarray(on_value), np.asarray(off_value)
    depth = int(depth)
    if depth < 0:
        raise _error(f"OneHot: depth must be non-negative, got: {depth}")
    hot = indices[..., None] == np.arange(depth, dtype=indices.dtype)  # out of range: all off
    out = np.where(hot, on, off).astype(on.dtype, copy=False)
    return np.ascontiguousarray(np.moveaxis(out, -1, axis if axis != -1 else -1))


register_op("OneHot", _one_hot_infer, _one_hot, kernel_attrs=("axis",))
