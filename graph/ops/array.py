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
from graph.ops.infer import expect_arity, same_dtype
from graph.registry import register_op
from graph.shapes import TensorShape


def _error(message: str) -> InvalidArgumentError:
    return InvalidArgumentError(message=message)


def _ints(inp) -> list[int] | None:
    """The constant value of an integer input as a flat list of ints, or None."""
    value = inp.value
    if value is None:
        return None
    return [int(v) for v in np.asarray(value).reshape(-1)]


def _int(inp) -> int | None:
    value = inp.value
    return None if value is None else int(np.asarray(value).reshape(()))


def _shape_value(inp) -> list | None:
    """The value of a shape-like vector input, with None for the entries known only later.

    Like TensorFlow's ``constant_value_as_shape``: besides constants it sees
    through ``Pack`` of scalars (``tf.stack([n, 2])``) and ``Shape`` of a
    partially known tensor, so ``tf.zeros([n, 2])`` keeps its static 2.
    """
    values = _ints(inp)
    if values is not None:
        return values
    node = getattr(inp, "node", None)
    if node is None:
        return None
    if node.op == "Pack" and node.attrs.get("axis", 0) == 0 and \
            all(i.shape.rank == 0 for i in node.inputs):
        return [_int(i) for i in node.inputs]
    if node.op == "Shape" and node.inputs[0].shape.rank is not None:
        return list(node.inputs[0].shape.as_tuple())
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
    if not dtype.is_numeric:
        raise _error(f"Range does not support {dtype.name} (use an integer or float dtype)")
    for name, inp in zip(("start", "limit", "delta"), inputs):
        if inp.shape.rank not in (None, 0):
            raise _error(f"Range: {name} must be a scalar, not shape {inp.shape}")
    values = [inp.value for inp in inputs]
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
