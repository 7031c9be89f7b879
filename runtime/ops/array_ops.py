"""Array ops under TensorFlow's names, and ``Tensor.__getitem__``.

Each function converts its arguments, names the nodes the way TensorFlow
names them (``Reshape`` with its constant ``Reshape/shape``, ``transpose``
with ``transpose/perm``, ``strided_slice``...) and goes through
``apply_op``, so it runs eagerly or records a node depending on the context.

Like TensorFlow, ``shape``/``size``/``rank`` give a constant when the static
shape already answers the question: a staged graph then keeps static shapes
downstream (``tf.reshape(x, tf.shape(y))``).
"""
from __future__ import annotations

import builtins
from collections import namedtuple

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.errors import InvalidArgumentError
from graph.shapes import TensorShape
from runtime.context import building_stack as _building
from runtime.ops import math_ops as M
from runtime.ops.core import _const_name, apply_op, constant, convert_to_tensor, stack_nested
from runtime.ops.core import contains_tensor as _contains_tensor
from runtime.ops.core import is_tensor_like as _is_tensor_like
from runtime.ops.eager import NUMERIC_CHECKS as _NUMERIC_CHECKS
from runtime.ops.eager import RECORDERS as _RECORDERS
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, Tensor

_INDEX_TYPES = ("int32", "int64")


def _int_tensor(value, op_name: str, arg: str) -> Tensor:
    """A shape-like argument (int, list, TensorShape, tensor) as an int32/int64 tensor."""
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"{op_name}: {arg} {value} has unknown dimensions; pass a fully "
                             f"defined shape or a tensor (for example tf.shape(x))")
        value = value.as_list()
    if _is_tensor_like(value):
        return convert_to_tensor(value)
    return convert_to_tensor(value, dtype_hint=dtypes.int32, name=_const_name(op_name, arg))


def _same_dtype_tensors(values, dtype=None) -> list[Tensor]:
    """Converts ``values``; Python values take the dtype of the first tensor among them."""
    if dtype is None:
        for v in values:
            if _is_tensor_like(v):
                dtype = convert_to_tensor(v).dtype
                break
    if dtype is None:
        return [convert_to_tensor(v) for v in values]
    # a list holding tensors is packed in ``dtype``, its tensors cast (TensorFlow's
    # auto-packing under a required dtype); other Python values only take it as a hint
    return [convert_to_tensor(v) if _is_tensor_like(v) else
            stack_nested(v, dtype) if isinstance(v, (list, tuple)) and _contains_tensor(v) else
            convert_to_tensor(v, dtype_hint=dtype) for v in values]


# -- reshaping -----------------------------------------------------------------------

def reshape(tensor, shape, name: str | None = None) -> Tensor:
    """``tf.reshape``: one dimension of ``shape`` may be -1."""
    op_name = name or "Reshape"
    x = convert_to_tensor(tensor)
    return apply_op("Reshape", [x, _int_tensor(shape, op_name, "shape")], name=op_name)


def transpose(a, perm=None, conjugate: bool = False, name: str = "transpose") -> Tensor:
    """``tf.transpose``: permutes dimensions; reverses them when ``perm`` is None."""
    x = convert_to_tensor(a)
    if perm is None:
        if x.shape.rank is not None:
            perm = list(builtins.range(x.shape.rank - 1, -1, -1))
        else:
            r = rank(x)
            perm = range_(apply_op("Sub", [r, constant(1)], name="sub"), -1, -1)
    result = apply_op("Transpose", [x, _int_tensor(perm, name, "perm")], name=name)
    if conjugate and x.dtype.is_complex:
        return apply_op("Conj", [result], name="Conj")
    return result


def expand_dims(input, axis, name: str | None = None) -> Tensor:
    op_name = name or "ExpandDims"
    x = convert_to_tensor(input)
    return apply_op("ExpandDims", [x, _int_tensor(axis, op_name, "dim")], name=op_name)


def squeeze(input, axis=None, name: str | None = None) -> Tensor:
    """``tf.squeeze``: removes the given size-1 dimensions (all of them when None)."""
    x = convert_to_tensor(input)
    if axis is None:
        axes = []
    elif isinstance(axis, (list, tuple)):
        axes = [int(a) for a in axis]
    else:
        axes = [int(axis)]
    return apply_op("Squeeze", [x], attrs={"squeeze_dims": axes}, name=name or "Squeeze")


def tile(input, multiples, name: str | None = None) -> Tensor:
    op_name = name or "Tile"
    x = convert_to_tensor(input)
    return apply_op("Tile", [x, _int_tensor(multiples, op_name, "multiples")], name=op_name)


def identity(input, name: str | None = None) -> Tensor:
    return apply_op("Identity", [convert_to_tensor(input)], name=name or "Identity")


# -- joining and splitting ----------------------------------------------------------------

def concat(values, axis, name: str = "concat") -> Tensor:
    """``tf.concat``: joins tensors along an existing axis."""
    if not isinstance(values, (list, tuple)):
        values = [values]
    if len(values) == 1:
        return identity(values[0], name=name)
    tensors = _same_dtype_tensors(values)
    return apply_op("ConcatV2", tensors + [_int_tensor(axis, name, "axis")], name=name)


def stack(values, axis: int = 0, name: str = "stack") -> Tensor:
    """``tf.stack``: joins same-shaped tensors along a new axis."""
    if axis == 0 and not isinstance(values, (list, tuple)) and hasattr(values, "_as_tensor"):
        return convert_to_tensor(values)  # a staged list (TensorFlow converts first too)
    if axis == 0 and values and not any(_is_tensor_like(v) for v in values):
        return convert_to_tensor(list(values), name=name)  # (one constant: [1, 2.0] is float)
    tensors = _same_dtype_tensors(list(values))
    return apply_op("Pack", tensors, attrs={"axis": int(axis)}, name=name)


def unstack(value, num: int | None = None, axis: int = 0, name: str = "unstack") -> list:
    """``tf.unstack``: splits a tensor along ``axis`` into a list of tensors."""
    x = convert_to_tensor(value)
    if num is None:
        if x.shape.rank is None:
            raise ValueError(f"Cannot infer argument `num` from shape {x.shape} at "
                             f"{current_origin()}; pass num=")
        if not x.shape.rank:
            raise ValueError(f"Input shape axis {axis} must be in range [0, 0): tf.unstack "
                             "cannot unstack a scalar")
        num = x.shape[axis if -x.shape.rank <= axis < x.shape.rank else 0]
        if num is None:
            raise ValueError(f"Cannot infer argument `num` from shape {x.shape} at "
                             f"{current_origin()}; pass num=")
    result = apply_op("Unpack", [x], attrs={"num": int(num), "axis": int(axis)}, name=name)
    if result is None:
        return []
    return list(result) if isinstance(result, tuple) else [result]


# -- padding ---------------------------------------------------------------------------------

def pad(tensor, paddings, mode: str = "CONSTANT", constant_values=0, name: str | None = None):
    """``tf.pad``: ``paddings[i] = [before, after]`` values added around dimension ``i``.

    As in TensorFlow: ``CONSTANT`` with a Python zero is a ``Pad`` node, with
    another value a ``PadV2`` (the value converted to the tensor's dtype);
    ``REFLECT`` and ``SYMMETRIC`` are a ``MirrorPad``. The mode is not case
    sensitive. Known dimensions grow by constant paddings; the rest stay unknown.
    """
    mode = mode.upper() if isinstance(mode, str) else mode
    if mode == "CONSTANT":
        zero = not _is_tensor_like(constant_values) and np.ndim(constant_values) == 0 and \
            not isinstance(constant_values, (str, bytes)) and constant_values == 0
        op = "Pad" if zero else "PadV2"
    elif mode in ("REFLECT", "SYMMETRIC"):
        op = "MirrorPad"
    else:
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
                         f'or "SYMMETRIC". Received `mode` = {mode}')
    op_name = name or op
    x = convert_to_tensor(tensor) if _is_tensor_like(tensor) else \
        convert_to_tensor(tensor, name=_const_name(op_name, "input"))
    inputs = [x, _int_tensor(paddings, op_name, "paddings")]
    if op == "PadV2":
        if _is_tensor_like(constant_values):
            inputs.append(convert_to_tensor(constant_values, dtype=x.dtype))
        else:
            inputs.append(convert_to_tensor(constant_values, dtype=x.dtype,
                                            name=_const_name(op_name, "constant_values")))
    return apply_op(op, inputs, attrs={"mode": mode} if op == "MirrorPad" else None,
                    name=op_name)


# -- gathering -----------------------------------------------------------------------------

def gather(params, indices, validate_indices=None, axis=None, batch_dims: int = 0,
           name: str | None = None) -> Tensor:
    """``tf.gather``: picks slices of ``params`` along ``axis`` (out-of-range is an error)."""
    op_name = name or "GatherV2"
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    if batch_dims < 0:
        if i.shape.rank is None:
            raise ValueError("gather: a negative batch_dims needs indices of known rank")
        batch_dims += i.shape.rank
    if axis is None:
        axis = batch_dims
    return apply_op("GatherV2", [p, i, _int_tensor(axis, op_name, "axis")],
                    attrs={"batch_dims": int(batch_dims)}, name=op_name)


# -- shape queries ----------------------------------------------------------------------------

def shape(input, out_type=dtypes.int32, name: str | None = None) -> Tensor:
    """``tf.shape``: the dynamic shape as an int32 tensor (a constant when known statically)."""
    x = convert_to_tensor(input)
    out_type = as_dtype(out_type)
    if x.shape.is_fully_defined():
        return constant(x.shape.as_list(), dtype=out_type, name=name or "Shape")
    return apply_op("Shape", [x], attrs={"out_type": out_type}, name=name or "Shape")


def size(input, out_type=dtypes.int32, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    out_type = as_dtype(out_type)
    if x.shape.is_fully_defined():
        return constant(x.shape.num_elements(), dtype=out_type, name=name or "Size")
    return apply_op("Size", [x], attrs={"out_type": out_type}, name=name or "Size")


def rank(input, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    if x.shape.rank is not None:
        return constant(x.shape.rank, dtype=dtypes.int32, name=name or "Rank")
    return apply_op("Rank", [x], name=name or "Rank")


# -- creation ---------------------------------------------------------------------------------

def fill(dims, value, name: str | None = None) -> Tensor:
    op_name = name or "Fill"
    v = convert_to_tensor(value, name=_const_name(op_name, "value"))
    return apply_op("Fill", [_int_tensor(dims, op_name, "dims"), v], name=op_name)


def _static_dims(shape_value) -> list[int] | None:
    """The dims of a shape argument when it holds no symbolic tensor."""
    if isinstance(shape_value, TensorShape):
        return shape_value.as_list() if shape_value.is_fully_defined() else None
    if isinstance(shape_value, EagerTensor):
        return [int(d) for d in np.reshape(shape_value.numpy(), -1)]
    if _is_tensor_like(shape_value):
        return None
    if isinstance(shape_value, (int, np.integer)):
        return [int(shape_value)]
    if isinstance(shape_value, (list, tuple)) and not _contains_tensor(shape_value):
        return [int(d) for d in shape_value]
    return None


def _filled(shape_value, dtype, fill_value, name: str) -> Tensor:
    dtype = as_dtype(dtype)
    dims = _static_dims(shape_value)
    if dims is not None and np.prod(dims, dtype=np.int64) < 1000:
        if any(d < 0 for d in dims):
            raise ValueError(f"{name}: dimensions must be non-negative, got {dims}")
        return constant(np.full(dims, fill_value, dtype=dtype.numpy_dtype), dtype=dtype,
                        name=name)
    if dims is None and isinstance(shape_value, Tensor) and shape_value.shape.rank == 0:
        shape_value = reshape(shape_value, [-1])  # a scalar size is a vector of one, as in TF
    value = fill_value if dtype.is_string else np.asarray(fill_value).astype(dtype.numpy_dtype)
    return fill(dims if dims is not None else shape_value,
                constant(value, dtype=dtype, name=_const_name(name, "Const")), name=name)


def zeros(shape, dtype=dtypes.float32, name: str | None = None) -> Tensor:
    """``tf.zeros``: a constant for small static shapes, a ``Fill`` otherwise."""
    dtype = as_dtype(dtype)
    return _filled(shape, dtype, b"" if dtype.is_string else 0, name or "zeros")


def ones(shape, dtype=dtypes.float32, name: str | None = None) -> Tensor:
    return _filled(shape, dtype, 1, name or "ones")


def zeros_like(input, dtype=None, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    if dtype is not None and as_dtype(dtype) != x.dtype:
        return zeros(shape(x), dtype=dtype, name=name or "zeros_like")
    return apply_op("ZerosLike", [x], name=name or "zeros_like")


def ones_like(input, dtype=None, name: str | None = None) -> Tensor:
    x = convert_to_tensor(input)
    if dtype is not None and as_dtype(dtype) != x.dtype:
        return ones(shape(x), dtype=dtype, name=name or "ones_like")
    return apply_op("OnesLike", [x], name=name or "ones_like")


def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32,
        name: str | None = None) -> Tensor:
    """``tf.eye``: ``MatrixDiag`` of ones, or ``MatrixSetDiag`` on zeros when not square."""
    dtype = as_dtype(dtype)
    name = name or "eye"
    batch = list(batch_shape) if batch_shape is not None else []
    square = num_columns is None or (not _is_tensor_like(num_rows) and
                                     not _is_tensor_like(num_columns) and
                                     int(num_rows) == int(num_columns))
    if square:
        return apply_op("MatrixDiag", [ones(batch + [num_rows], dtype=dtype)], name=name)
    if _is_tensor_like(num_rows) or _is_tensor_like(num_columns):
        n = convert_to_tensor(num_rows, dtype_hint=dtypes.int32)
        m = convert_to_tensor(num_columns, dtype_hint=dtypes.int32)
        diag_size = apply_op("Minimum", [n, m], name="Minimum")
    else:
        diag_size = builtins.min(int(num_rows), int(num_columns))
    diag = ones(batch + [diag_size], dtype=dtype)
    return apply_op("MatrixSetDiag", [zeros(batch + [num_rows, num_columns], dtype=dtype), diag],
                    name=name)


_RANGE_HIERARCHY = ("int32", "int64", "float32", "float64")


def range_(start, limit=None, delta=1, dtype=None, name: str = "range") -> Tensor:
    """``tf.range(limit)`` / ``tf.range(start, limit, delta, dtype)``.

    Without ``dtype`` the widest argument dtype wins (int32 < int64 < float32
    < float64), so Python ints give int32 and any float gives float32.
    """
    if limit is None:
        start, limit = 0, start
    values = {"start": start, "limit": limit, "delta": delta}
    if dtype is None:
        kinds = [convert_to_tensor(v).dtype if _is_tensor_like(v) else dtypes.infer_dtype(v)
                 for v in values.values()]
        for kind in kinds:
            if kind.name not in _RANGE_HIERARCHY:
                raise TypeError(f"tf.range does not support {kind.name} arguments at "
                                f"{current_origin()}; use integers or floats")
        dtype = max(kinds, key=lambda d: _RANGE_HIERARCHY.index(d.name))
    dtype = as_dtype(dtype)
    args = []
    for arg, value in values.items():
        if _is_tensor_like(value):
            t = convert_to_tensor(value)
            args.append(t if t.dtype == dtype else _cast(t, dtype))
        else:
            args.append(convert_to_tensor(value, dtype=dtype, name=_const_name(name, arg)))
    return apply_op("Range", args, name=name)


def _cast(x: Tensor, dtype: DType) -> Tensor:
    from runtime.ops import math_ops
    cast = getattr(math_ops, "cast", None)
    if cast is None:
        raise TypeError(f"tf.range needs tf.cast to convert a {x.dtype.name} tensor to "
                        f"{dtype.name}; give all arguments the same dtype")
    return cast(x, dtype)


# -- reordering, splitting, slicing -------------------------------------------------------------

def reverse(tensor, axis, name: str | None = None) -> Tensor:
    """``tf.reverse``: flips the listed axes (a 1-D list; duplicates are an error)."""
    op_name = name or "ReverseV2"
    return apply_op("ReverseV2", [convert_to_tensor(tensor), _int_tensor(axis, op_name, "axis")],
                    name=op_name)


def roll(input, shift, axis, name: str | None = None) -> Tensor:
    """``tf.roll``: elements shifted cyclically; shifts on a repeated axis add up."""
    op_name = name or "Roll"
    return apply_op("Roll", [convert_to_tensor(input), _int_tensor(shift, op_name, "shift"),
                             _int_tensor(axis, op_name, "axis")], name=op_name)


def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None,
                     name: str | None = None) -> Tensor:
    """``tf.reverse_sequence``: in batch row ``i``, the first ``seq_lengths[i]`` elements along
    ``seq_axis`` reversed (a gather with batch_dims, so it is differentiable)."""
    x = convert_to_tensor(input)
    lengths = convert_to_tensor(seq_lengths, dtype_hint=dtypes.int64)
    rank = x.shape.rank
    if rank is None or seq_axis is None:
        raise ValueError("reverse_sequence needs an input of known rank and a seq_axis")
    seq_axis, batch_axis = int(seq_axis) % rank, int(batch_axis or 0) % rank
    if seq_axis == batch_axis:
        raise ValueError(f"batch_dim == seq_dim == {seq_axis}")
    perm = [batch_axis, seq_axis] + [d for d in builtins.range(rank)
                                     if d not in (batch_axis, seq_axis)]
    moved = transpose(x, perm)
    steps = range_(constant(0, dtype=lengths.dtype), shape(moved, out_type=lengths.dtype)[1])
    lens = expand_dims(lengths, 1)
    flipped = M.subtract(M.subtract(lens, 1), steps)
    index = M.where(M.less(steps, lens), flipped, M.add(steps, M.multiply(lens, 0)))
    out = gather(moved, index, axis=1, batch_dims=1)
    inverse = [perm.index(d) for d in builtins.range(rank)]
    return transpose(out, inverse, name=name or "ReverseSequence")


def slice(input_, begin, size, name: str | None = None) -> Tensor:  # noqa: A001
    """``tf.slice``: ``size[i]`` elements from ``begin[i]`` (-1: all the rest)."""
    op_name = name or "Slice"
    x = convert_to_tensor(input_)
    b = _int_tensor(begin, op_name, "begin")
    s = _int_tensor(size, op_name, "size") if _is_tensor_like(size) else \
        convert_to_tensor(size, dtype=b.dtype, name=_const_name(op_name, "size"))
    return apply_op("Slice", [x, b, s], name=op_name)


def split(value, num_or_size_splits, axis=0, num=None, name: str = "split") -> list:
    """``tf.split``: into ``n`` equal parts (``Split``) or parts of the given sizes (``SplitV``)."""
    x = convert_to_tensor(value)
    sizes = num_or_size_splits
    if _is_tensor_like(sizes) and convert_to_tensor(sizes).shape.rank == 0:
        sizes = _static_dims(convert_to_tensor(sizes))
        if sizes is None:
            raise ValueError("tf.split: a scalar num_or_size_splits must be known while tracing")
        sizes = sizes[0]
    if isinstance(sizes, (int, np.integer)) and not isinstance(sizes, bool):
        result = apply_op("Split", [_int_tensor(axis, name, "split_dim"), x],
                          attrs={"num_split": int(sizes)}, name=name)
        return list(result) if isinstance(result, tuple) else [result]
    sizes_t = _int_tensor(sizes, name, "size_splits")
    if num is None:
        n = sizes_t.shape[0] if sizes_t.shape.rank == 1 else None
        if n is None:
            raise ValueError(f"Cannot infer argument `num` from shape {sizes_t.shape}")
        num = n
    result = apply_op("SplitV", [x, sizes_t, _int_tensor(axis, name, "split_dim")],
                      attrs={"num_split": int(num)}, name=name)
    return list(result) if isinstance(result, tuple) else [result]


def ensure_shape(x, shape, name: str | None = None) -> Tensor:
    """``tf.ensure_shape``: checks the shape (None dims match anything) and refines it."""
    from graph.shapes import as_shape
    return apply_op("EnsureShape", [convert_to_tensor(x)], attrs={"shape": as_shape(shape)},
                    name=name or "EnsureShape")


def identity_n(input, name: str | None = None) -> list:
    """``tf.identity_n``: the identity of each tensor of a list."""
    tensors = [convert_to_tensor(t) for t in input]
    result = apply_op("IdentityN", tensors, name=name or "IdentityN")
    return list(result) if isinstance(result, tuple) else [result]


# -- broadcasting ----------------------------------------------------------------------------------

def broadcast_to(input, shape, name: str | None = None) -> Tensor:
    op_name = name or "BroadcastTo"
    return apply_op("BroadcastTo", [convert_to_tensor(input), _int_tensor(shape, op_name, "shape")],
                    name=op_name)


def broadcast_static_shape(shape_x, shape_y) -> TensorShape:
    """``tf.broadcast_static_shape``: the broadcast of two TensorShapes (ValueError if none)."""
    from graph.shapes import as_shape, broadcast_shapes
    x, y = as_shape(shape_x), as_shape(shape_y)
    try:
        return broadcast_shapes(x, y)
    except ValueError:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if "
                         "for each dimension pair they are either equal or one of them is 1. "
                         f"Received: {x} and {y}.") from None


def broadcast_dynamic_shape(shape_x, shape_y, name: str | None = None) -> Tensor:
    """``tf.broadcast_dynamic_shape``: the broadcast of two shape vectors (``BroadcastArgs``)."""
    op_name = name or "BroadcastArgs"
    x = _int_tensor(shape_x, op_name, "s0")
    y = convert_to_tensor(shape_y) if _is_tensor_like(shape_y) else \
        convert_to_tensor(shape_y, dtype=x.dtype, name=_const_name(op_name, "s1"))
    return apply_op("BroadcastArgs", [x, y], name=op_name)


def meshgrid(*args, **kwargs) -> list:
    """``tf.meshgrid``: N-D coordinate grids; ``indexing='xy'`` swaps the first two axes."""
    indexing = kwargs.pop("indexing", "xy")
    name = kwargs.pop("name", "meshgrid")
    if kwargs:
        raise TypeError(f"'{next(iter(kwargs))}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError(f"Argument `indexing` parameter must be either 'xy' or 'ij', "
                         f"got '{indexing}'")
    tensors = [reshape(convert_to_tensor(a), [-1]) for a in args]
    n = len(tensors)
    if n == 0:
        return []
    shapes = [[1] * i + [-1] + [1] * (n - i - 1) for i in builtins.range(n)]
    if indexing == "xy" and n > 1:
        shapes[0][:2], shapes[1][:2] = [1, -1], [-1, 1]
    sizes = [size(t) for t in tensors]
    if indexing == "xy" and n > 1:
        sizes[0], sizes[1] = sizes[1], sizes[0]
    full = stack(sizes)  # static sizes stay static: inference reads a Pack of constants
    return [broadcast_to(reshape(t, s), full, name=name) for t, s in zip(tensors, shapes)]


# -- clipping --------------------------------------------------------------------------------

def clip_by_value(t, clip_value_min, clip_value_max, name: str | None = None) -> Tensor:
    """``tf.clip_by_value``: ``minimum(maximum(t, min), max)``; the result keeps ``t``'s shape."""
    x = convert_to_tensor(t)
    clipped = M.maximum(M.minimum(x, clip_value_max), clip_value_min)
    if not x.shape.is_compatible_with(clipped.shape):
        raise ValueError(f"Shapes {x.shape} and {clipped.shape} are incompatible")
    return identity(clipped, name=name or "clip_by_value")


def _values_of(t):
    """The tensor a clip measures and scales: an IndexedSlices' rows (as TensorFlow's clips
    take them, duplicates not summed), else ``t`` itself."""
    from runtime.ops.type_ops import IndexedSlices
    return convert_to_tensor(t.values if isinstance(t, IndexedSlices) else t)


def _like_input(t, values):
    """``values`` in the form of ``t``: an IndexedSlices of them when ``t`` is one."""
    from runtime.ops.type_ops import IndexedSlices
    return IndexedSlices(values, t.indices, t.dense_shape) if isinstance(t, IndexedSlices) \
        else values


def clip_by_norm(t, clip_norm, axes=None, name: str | None = None):
    """``tf.clip_by_norm``: ``t * clip_norm / max(l2norm(t, axes), clip_norm)``; an
    IndexedSlices has its rows clipped."""
    x = _values_of(t)
    c = convert_to_tensor(clip_norm, dtype=x.dtype) if not _is_tensor_like(clip_norm) else \
        convert_to_tensor(clip_norm)
    l2sum = M.reduce_sum(M.multiply(x, x), axis=axes, keepdims=True)
    positive = M.greater(l2sum, 0)
    safe = M.where(positive, l2sum, ones_like(l2sum))
    norm = M.where(positive, M.sqrt(safe), l2sum)
    scaled = M.multiply(x, c)
    return _like_input(t, identity(M.divide(scaled, M.maximum(norm, c)),
                                   name=name or "clip_by_norm"))


def global_norm(t_list, name: str | None = None) -> Tensor:
    """``tf.linalg.global_norm``: the l2 norm of all the tensors together (None skipped)."""
    if not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list).__name__}.")
    squares = [M.reduce_sum(M.multiply(t, t)) for t in
               (_values_of(v) for v in t_list if v is not None)]
    if not squares:
        raise ValueError("tf.linalg.global_norm needs at least one tensor that is not None")
    return M.sqrt(M.add_n(squares) if len(squares) > 1 else squares[0],
                  name=name or "global_norm")


def clip_by_global_norm(t_list, clip_norm, use_norm=None, name: str | None = None):
    """``tf.clip_by_global_norm``: each tensor times ``clip_norm / max(global_norm, clip_norm)``.

    Returns ``(clipped list, global_norm)``; None entries stay None, and a
    non-finite global norm makes every value NaN, as in TensorFlow.
    """
    if not isinstance(t_list, (list, tuple)):
        raise TypeError("`t_list` should be a sequence of tensors. Received "
                        f"{type(t_list).__name__}.")
    norm = global_norm(t_list) if use_norm is None else convert_to_tensor(use_norm)
    c = convert_to_tensor(clip_norm, dtype=norm.dtype) if not _is_tensor_like(clip_norm) else \
        convert_to_tensor(clip_norm)
    scale = M.multiply(c, M.minimum(M.divide(1.0, norm), M.divide(1.0, c)))
    scale = M.add(scale, M.subtract(norm, norm))  # NaN when the norm is not finite
    clipped = []
    for t in t_list:
        if t is None:
            clipped.append(None)
            continue
        x = _values_of(t)
        clipped.append(_like_input(t, identity(M.multiply(x, M.cast(scale, x.dtype)))))
    return clipped, norm


# -- masks, repeats, one-hot -----------------------------------------------------------------------

def boolean_mask(tensor, mask, axis=None, name: str = "boolean_mask") -> Tensor:
    """``tf.boolean_mask``: the entries where ``mask`` (a bool tensor over dims
    ``axis .. axis + rank(mask)``) is true, flattened into one dimension.

    Composed as TensorFlow composes it (Reshape, Where, GatherV2), so the
    gradient is the gather's.
    """
    x = convert_to_tensor(tensor)
    m = convert_to_tensor(mask, dtype_hint=dtypes.bool_)
    if not m.dtype.is_bool:
        raise TypeError(f"boolean_mask: mask must be a bool tensor, got {m.dtype.name}")
    ndims_mask = m.shape.rank
    if ndims_mask is None:
        raise ValueError("Number of mask dimensions must be specified, even if some "
                         "dimensions are None.  E.g. shape=[None] is ok, but shape=None is not.")
    if ndims_mask == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    if x.shape.rank is not None and axis < 0:
        axis += x.shape.rank
    if x.shape.rank is not None:
        lead = TensorShape(list(x.shape.as_tuple())[axis:axis + ndims_mask])
        if not lead.is_compatible_with(m.shape):
            raise ValueError(f"Shapes {lead} and {m.shape} are incompatible")
    dims = shape(x)
    leading = M.reduce_prod(strided_slice(dims, builtins.slice(axis, axis + ndims_mask)))
    flat = reshape(x, concat([dims[:axis], reshape(leading, [1]), dims[axis + ndims_mask:]], 0))
    if x.shape.rank is not None:
        known = list(x.shape.as_tuple())
        lead_n = None if None in known[axis:axis + ndims_mask] else \
            int(np.prod(known[axis:axis + ndims_mask], dtype=np.int64))
        flat = ensure_shape(flat, known[:axis] + [lead_n] + known[axis + ndims_mask:])
    indices = squeeze(M.where(reshape(m, [-1])), axis=[1])
    return gather(flat, indices, axis=axis, name=name)


def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool_, name: str | None = None) -> Tensor:
    """``tf.sequence_mask``: ``mask[i..., j] = j < lengths[i...]`` (maxlen: the longest)."""
    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = M.maximum(M.reduce_max(lengths), constant(0, dtype=lengths.dtype))
    else:
        maxlen = convert_to_tensor(maxlen)
        if maxlen.shape.rank not in (None, 0):
            raise ValueError(f"Argument `maxlen` must be scalar for sequence_mask, received "
                             f"`maxlen` = {maxlen} with shape '{maxlen.shape}' instead")
    row = range_(constant(0, dtype=maxlen.dtype), maxlen, constant(1, dtype=maxlen.dtype))
    mask = M.less(row, M.cast(expand_dims(lengths, -1), maxlen.dtype))
    dtype = as_dtype(dtype)
    return mask if dtype.is_bool else M.cast(mask, dtype, name=name)


def repeat(input, repeats, axis=None, name: str | None = None) -> Tensor:
    """``tf.repeat``: each element (or slice along ``axis``) repeated ``repeats`` times.

    As TensorFlow composes it: a scalar ``repeats`` is a Tile and a Reshape;
    per-slice repeats tile every slice ``max(repeats)`` times and keep the
    first ``repeats[i]`` copies with a ``sequence_mask``.
    """
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    rank = x.shape.rank
    if rank == 0:
        raise ValueError("input must have rank at least 1")
    if rank is not None:
        axis = _normalize_axis(int(axis), rank)
    elif int(axis) < 0:  # (TensorFlow's get_positive_axis)
        raise ValueError(f"axis={axis} must be >= 0 when the rank of the input is unknown")
    axis = int(axis)
    r = convert_to_tensor(repeats, dtype_hint=dtypes.int32)
    expanded = expand_dims(x, axis + 1)

    def multiples(count):
        if rank is None:  # ones, and ``count`` at axis + 1, for a rank known when it runs
            return tensor_scatter_nd_update(M.cast(M.not_equal(shape(expanded), -1), r.dtype),
                                            [[axis + 1]], reshape(count, [1]))
        return stack([count if i == axis + 1 else constant(1, dtype=r.dtype)
                      for i in builtins.range(rank + 1)])
    if r.shape.rank == 0:
        tiled = tile(expanded, multiples(r))
        times = r.numpy() if isinstance(r, EagerTensor) else r.value  # None: computed
        if times is not None and x.shape.is_fully_defined():
            dims = x.shape.as_list()
            new_shape = dims[:axis] + [dims[axis] * int(times)] + dims[axis + 1:]
        else:
            dims = shape(x, out_type=r.dtype)
            new_shape = concat([dims[:axis], reshape(M.multiply(dims[axis], r), [1]),
                                dims[axis + 1:]], 0)
        return reshape(tiled, new_shape, name=name or "repeat")
    r = broadcast_to(r, shape(x, out_type=r.dtype)[axis:axis + 1])
    max_repeat = M.maximum(M.reduce_max(r), constant(0, dtype=r.dtype))
    tiled = tile(expanded, multiples(max_repeat))
    return boolean_mask(tiled, sequence_mask(r, max_repeat), axis=axis, name=name or "repeat")


def bitcast(input, type, name=None) -> Tensor:  # noqa: A002  (TensorFlow's names)
    """``tf.bitcast``: the same bytes as ``type``; a wider input gains a last dimension of
    the size ratio, a narrower one loses its last dimension (which must be that ratio)."""
    return apply_op("Bitcast", [convert_to_tensor(input)], attrs={"type": as_dtype(type)},
                    name=name or "Bitcast")


def _normalize_axis(axis: int, rank: int) -> int:
    if not -rank <= axis < rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
    return axis % rank


def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None,
            name: str | None = None) -> Tensor:
    """``tf.one_hot``: ``on_value`` where ``indices == j`` along a new ``axis`` (last by default).

    The dtype is ``dtype``, else that of ``on_value``/``off_value``, else
    float32; an index outside ``[0, depth)`` gives a row of ``off_value``.
    """
    op_name = name or "one_hot"
    on_t = convert_to_tensor(on_value) if _is_tensor_like(on_value) else None
    off_t = convert_to_tensor(off_value) if _is_tensor_like(off_value) else None
    given = [t.dtype for t in (on_t, off_t) if t is not None]
    if dtype is None:
        if given:
            dtype = given[0]
        else:
            plain = [v for v in (on_value, off_value) if v is not None]
            dtype = dtypes.infer_dtype(plain[0]) if plain else dtypes.float32
    dtype = as_dtype(dtype)
    if on_t is not None and off_t is not None and on_t.dtype != off_t.dtype:
        raise TypeError(f"dtype {on_t.dtype!r} of on_value does not match dtype "
                        f"{off_t.dtype!r} of off_value")
    for what, t in (("on_value", on_t), ("off_value", off_t)):
        if t is not None and t.dtype != dtype:
            raise TypeError(f"dtype {t.dtype!r} of {what} does not match dtype parameter "
                            f"{dtype!r}")
    on = on_t if on_t is not None else convert_to_tensor(1 if on_value is None else on_value,
                                                         dtype=dtype,
                                                         name=_const_name(op_name, "on_value"))
    off = off_t if off_t is not None else convert_to_tensor(0 if off_value is None else off_value,
                                                            dtype=dtype,
                                                            name=_const_name(op_name, "off_value"))
    idx = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    d = convert_to_tensor(depth, dtype_hint=dtypes.int32) if _is_tensor_like(depth) else \
        convert_to_tensor(depth, dtype=dtypes.int32, name=_const_name(op_name, "depth"))
    return apply_op("OneHot", [idx, d, on, off], attrs={"axis": -1 if axis is None else int(axis)},
                    name=op_name)


def linspace(start, stop, num, name: str | None = None, axis: int = 0) -> Tensor:
    """``tf.linspace``: ``num`` evenly spaced values from ``start`` to ``stop`` (both included).

    As TensorFlow's ``linspace_nd``: start and stop broadcast (the values
    run along ``axis``), inner values are ``start + i * (stop - start) / (num - 1)``
    and the last one is exactly ``stop``.
    """
    name = name or "linspace"
    start = convert_to_tensor(start)
    stop = convert_to_tensor(stop, dtype=start.dtype) if not _is_tensor_like(stop) else \
        convert_to_tensor(stop)
    if start.dtype != stop.dtype:
        raise TypeError(f"linspace: start and stop must have the same dtype, got "
                        f"{start.dtype.name} and {stop.dtype.name}")
    if start.dtype.is_integer:
        start, stop = M.cast(start, dtypes.float64), M.cast(stop, dtypes.float64)
    num = convert_to_tensor(num, dtype_hint=dtypes.int32)
    full = broadcast_static_shape(start.shape, stop.shape)
    # broadcast each to the other (adding zeros keeps unknown dimensions working)
    start = M.add(start, M.multiply(stop, 0.0)) if start.shape != full else start
    stop = M.add(stop, M.multiply(start, 0.0)) if stop.shape != full else stop
    expanded_start, expanded_stop = expand_dims(start, axis), expand_dims(stop, axis)
    one = constant(1, dtype=num.dtype)
    n_steps = M.maximum(M.subtract(num, one), one)
    delta = M.divide(M.subtract(expanded_stop, expanded_start), M.cast(n_steps, start.dtype))
    count = M.cast(M.maximum(num, constant(0, dtype=num.dtype)), dtypes.int32)
    if full.rank is not None:
        rank = full.rank + 1
        steps_shape = [1] * rank
        steps_shape[axis % rank] = -1
        sizes = stack([count if i == axis % rank else constant(-1)
                       for i in builtins.range(rank)])  # num == 0 or 1 keeps 0 or 1 values
        begin = zeros([rank], dtype=dtypes.int32)
    else:  # the same vectors, for a rank known only when the op runs
        rank = size(shape(expanded_start))
        at = reshape(M.floormod(constant(axis), rank), [1, 1])
        steps_shape = tensor_scatter_nd_update(fill([rank], 1), at, [-1])
        sizes = tensor_scatter_nd_update(fill([rank], -1), at, reshape(count, [1]))
        begin = fill([rank], 0)
    inner = reshape(M.cast(range_(one, M.maximum(n_steps, one), dtype=num.dtype), start.dtype),
                    steps_shape)
    middle = M.add(expanded_start, M.multiply(inner, delta))
    values = concat([expanded_start, middle, expanded_stop], axis)
    return slice(values, begin, sizes, name=name)


# -- sorting, unique, searchsorted -------------------------------------------------------------

def _sort_order(values, axis, direction: str, name: str):
    """The sort permutation of ``values`` along ``axis`` (moved last for ``ArgSort``)."""
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError(f"Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    x = convert_to_tensor(values)
    rank = x.shape.rank
    axis = int(axis)
    if rank is None:
        if axis != -1:
            raise ValueError("sort: the input must have a known rank to sort along an axis "
                             "other than the last (-1)")
        return x, apply_op("ArgSort", [x], attrs={"direction": direction}, name=name), None
    if not -rank <= axis < rank:
        raise ValueError(f"Invalid axis: {axis}")
    axis = axis + rank if axis < 0 else axis
    perm = None
    if axis != rank - 1:
        perm = list(builtins.range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = transpose(x, perm)
    order = apply_op("ArgSort", [x], attrs={"direction": direction}, name=name)
    return x, order, perm


def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None) -> Tensor:
    """``tf.argsort``: int32 indices that sort ``values`` (ties keep their order)."""
    _, order, perm = _sort_order(values, axis, direction, name or "argsort")
    return transpose(order, perm) if perm else order


def sort(values, axis=-1, direction="ASCENDING", name=None) -> Tensor:
    """``tf.sort``: the values gathered in sorted order (differentiable through the gather)."""
    x, order, perm = _sort_order(values, axis, direction, "ArgSort")
    if x.shape.rank in (None, 1):  # rows of the last axis, gathered as a batch of vectors
        # (a vector too: its gradient is then a dense tensor, as TensorFlow's top_k gives;
        # a vector is one row, so an empty one reshapes too)
        n = shape(x)[-1]
        rows = [reshape(t, stack([constant(1 if x.shape.rank == 1 else -1), n]))
                for t in (x, order)]
        return reshape(gather(*rows, axis=1, batch_dims=1), shape(x), name=name or "sort")
    batch = x.shape.rank - 1
    out = gather(x, order, axis=batch, batch_dims=batch, name=name or "sort")
    return transpose(out, perm) if perm else out


def unique(x, out_idx=dtypes.int32, name: str | None = None):
    """``tf.unique``: ``(y, idx)`` with y in order of first occurrence, ``x == gather(y, idx)``."""
    y, idx = apply_op("Unique", [convert_to_tensor(x)], attrs={"out_idx": as_dtype(out_idx)},
                      name=name or "Unique")
    return UniqueResult(y, idx)


def unique_with_counts(x, out_idx=dtypes.int32, name: str | None = None):
    """``tf.unique_with_counts``: ``(y, idx, count)``."""
    y, idx, count = apply_op("UniqueWithCounts", [convert_to_tensor(x)],
                             attrs={"out_idx": as_dtype(out_idx)},
                             name=name or "UniqueWithCounts")
    return UniqueWithCountsResult(y, idx, count)


def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32,
                 name: str | None = None) -> Tensor:
    """``tf.searchsorted``: insertion points of ``values`` in each innermost sorted row."""
    if side not in ("left", "right"):
        raise ValueError(f"Argument `side` must be either 'right' or 'left'. Received: "
                         f"`side` = '{side}'.")
    s = convert_to_tensor(sorted_sequence)
    v = convert_to_tensor(values) if _is_tensor_like(values) else \
        convert_to_tensor(values, dtype=s.dtype)
    op = "LowerBound" if side == "left" else "UpperBound"
    return apply_op(op, [s, v], attrs={"out_type": as_dtype(out_type)}, name=name or op)


UniqueResult = namedtuple("Unique", ["y", "idx"])
UniqueWithCountsResult = namedtuple("UniqueWithCounts", ["y", "idx", "count"])


# -- gather_nd / scatter ----------------------------------------------------------------------

def gather_nd(params, indices, batch_dims: int = 0, name: str | None = None) -> Tensor:
    """``tf.gather_nd``: slices of ``params`` at the index vectors in ``indices``' last axis."""
    p = convert_to_tensor(params)
    i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    if batch_dims:
        i = _with_batch_coordinates(i, int(batch_dims))
    return apply_op("GatherNd", [p, i], name=name or "GatherNd")


def _with_batch_coordinates(indices: Tensor, batch_dims: int) -> Tensor:
    """``indices`` with the coordinates of its leading ``batch_dims`` dims prepended."""
    if indices.shape.rank is None or indices.shape.rank <= batch_dims:
        raise ValueError(f"gather_nd: batch_dims ({batch_dims}) must be less than the rank of "
                         f"indices ({indices.shape.rank})")
    dims = shape(indices, out_type=indices.dtype)
    grids = meshgrid(*[range_(constant(0, dtype=indices.dtype), dims[k])
                       for k in builtins.range(batch_dims)], indexing="ij")
    inner = indices.shape.rank - batch_dims - 1
    coords = []
    for g in grids:
        for _ in builtins.range(inner):
            g = expand_dims(g, -1)
        coords.append(broadcast_to(g, dims[:-1]))
    return concat([stack(coords, axis=-1), indices], -1)


def scatter_nd(indices, updates, shape, name: str | None = None) -> Tensor:
    """``tf.scatter_nd``: ``updates`` summed into zeros of ``shape`` at ``indices``."""
    op_name = name or "ScatterNd"
    i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
    u = convert_to_tensor(updates)
    s = convert_to_tensor(shape) if _is_tensor_like(shape) else \
        convert_to_tensor(list(shape) if isinstance(shape, TensorShape) else shape,
                          dtype=i.dtype, name=_const_name(op_name, "shape"))
    return apply_op("ScatterNd", [i, u, s], name=op_name)


def _tensor_scatter(op: str, tf_name: str):
    def fn(tensor, indices, updates, name=None):
        t = convert_to_tensor(tensor)
        i = convert_to_tensor(indices, dtype_hint=dtypes.int32)
        u = convert_to_tensor(updates) if _is_tensor_like(updates) else \
            convert_to_tensor(updates, dtype=t.dtype)
        return apply_op(op, [t, i, u], name=name or op)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = f"``tf.{tf_name}``: a copy of ``tensor`` with ``updates`` combined at ``indices``."
    return fn


tensor_scatter_nd_update = _tensor_scatter("TensorScatterUpdate", "tensor_scatter_nd_update")
tensor_scatter_nd_add = _tensor_scatter("TensorScatterAdd", "tensor_scatter_nd_add")
tensor_scatter_nd_sub = _tensor_scatter("TensorScatterSub", "tensor_scatter_nd_sub")
tensor_scatter_nd_min = _tensor_scatter("TensorScatterMin", "tensor_scatter_nd_min")
tensor_scatter_nd_max = _tensor_scatter("TensorScatterMax", "tensor_scatter_nd_max")


# -- slicing: Tensor.__getitem__ ------------------------------------------------------------------

_INDEX_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                "tf.int32/tf.int64 tensors are valid indices, got {!r}")


def is_boolean_mask(key) -> bool:
    """A Python bool, or a bool tensor or numpy array, as the whole index: TensorFlow's
    ``x[key]`` is then ``tf.boolean_mask(x, key)`` (``x[x > 5]``)."""
    if isinstance(key, bool):
        return True
    if isinstance(key, Tensor):
        return key.dtype.is_bool
    return isinstance(key, np.ndarray) and key.dtype == np.bool_


def strided_slice_spec(key) -> tuple[tuple, list[Tensor]]:
    """Turns a Python index into a StridedSlice ``spec`` and its tensor-valued bounds. A
    list is read as a tuple (``x[[0, 1]]`` is ``x[0, 1]``, as in TensorFlow)."""
    items = tuple(key) if isinstance(key, (tuple, list)) else (key,)
    spec: list[tuple] = []
    bounds: list[Tensor] = []

    def bound(b):
        if b is None:
            return None
        if isinstance(b, (bool, np.bool_)):
            raise TypeError(_INDEX_ERROR.format(b))
        if isinstance(b, (int, np.integer)) or \
                (isinstance(b, np.ndarray) and b.ndim == 0 and b.dtype.kind in "iu"):
            return int(b)
        if not _is_tensor_like(b):
            raise TypeError(_INDEX_ERROR.format(b))
        t = convert_to_tensor(b)
        if t.dtype.name not in _INDEX_TYPES or t.shape.rank not in (None, 0):
            raise TypeError(_INDEX_ERROR.format(t))
        if isinstance(t, EagerTensor):
            return int(t.numpy())
        bounds.append(t)
        return ("input", len(bounds))

    for item in items:
        if item is Ellipsis:
            spec.append(("ellipsis",))
        elif item is None:
            spec.append(("newaxis",))
        elif isinstance(item, builtins.slice):
            if isinstance(item.step, (int, np.integer)) and item.step == 0:
                raise InvalidArgumentError(message=f"strides[{len(spec)}] must be non-zero")
            spec.append(("slice", bound(item.start), bound(item.stop), bound(item.step)))
        else:
            spec.append(("index", bound(item)))
    if sum(1 for s in spec if s[0] == "ellipsis") > 1:
        raise InvalidArgumentError(message="Multiple ellipses in slice spec not allowed")
    return tuple(spec), bounds


def strided_slice(tensor, key, name: str = "strided_slice") -> Tensor:
    """``tensor[key]``: basic Python indexing, with tensor-valued indices allowed; a
    boolean mask as the whole index selects with ``boolean_mask``, as TensorFlow does."""
    x = convert_to_tensor(tensor)
    if is_boolean_mask(key):
        return boolean_mask(x, key)
    spec, bounds = strided_slice_spec(key)
    return apply_op("StridedSlice", [x] + bounds, attrs={"spec": spec}, name=name)


def masked_strided_slice(input_, begin, end, strides=None, begin_mask=0, end_mask=0,
                         ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0, var=None,
                         name="StridedSlice") -> Tensor:
    """``tf.strided_slice``: ``begin``/``end``/``strides`` vectors and bit masks, read as the
    Python index they stand for (bit i of a mask applies to entry i). Their length must be
    static; their values may be tensors."""
    x = convert_to_tensor(input_)
    begin = convert_to_tensor(begin, dtype_hint=dtypes.int32)  # ([0, b]: numpy cannot size it)
    parts = [begin] + [convert_to_tensor(v, dtype_hint=dtypes.int32) for v in
                       (end, strides if strides is not None else [1] * _vector_length(begin))]
    n = _vector_length(parts[0])
    if any(_vector_length(p) != n for p in parts):
        raise ValueError(f"begin, end and strides must have the same length, got "
                         f"{[_vector_length(p) for p in parts]}")
    values = [p.numpy().tolist() if isinstance(p, EagerTensor) else
              [strided_slice(p, i) for i in builtins.range(n)] for p in parts]
    key = []
    for i, (b, e, s) in enumerate(zip(*values)):
        bit = 1 << i
        if ellipsis_mask & bit:
            key.append(Ellipsis)
        elif new_axis_mask & bit:
            key.append(None)
        elif shrink_axis_mask & bit:
            key.append(b)
        else:
            key.append(builtins.slice(None if begin_mask & bit else b,
                                      None if end_mask & bit else e, s))
    return strided_slice(x, tuple(key), name=name)


def _vector_length(v) -> int:
    shape = tuple(v.shape) if isinstance(v, Tensor) else np.shape(v)
    if len(shape) != 1 or shape[0] is None:
        raise ValueError(f"strided_slice needs begin, end and strides of static length, got "
                         f"shape {shape}")
    return int(shape[0])


def _getitem(self, key):
    if key.__class__ is int and self.__class__ is EagerTensor and not _building.graphs \
            and not _RECORDERS and not _NUMERIC_CHECKS:
        value = self._value  # ``xs[t]`` eagerly: numpy's view, as the StridedSlice kernel gives
        if value.__class__ is np.ndarray and value.ndim and -value.shape[0] <= key < value.shape[0]:
            item = value[key]
            if item.__class__ is np.ndarray or isinstance(item, np.generic):
                return EagerTensor(item, self._dtype)
    return strided_slice(self, key)


Tensor.__getitem__ = _getitem

range = range_  # the TensorFlow name; defined last so the module can use builtins.range
