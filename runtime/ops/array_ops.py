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

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.shapes import TensorShape
from runtime import context
from runtime.ops.core import _const_name, apply_op, constant, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, Tensor

_INDEX_TYPES = ("int32", "int64")


def _is_tensor_like(value) -> bool:
    return isinstance(value, Tensor) or hasattr(value, "_as_tensor")


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
    return apply_op("Transpose", [x, _int_tensor(perm, name, "perm")], name=name)


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


def stack_nested(value, dtype=None) -> Tensor:
    """Packs a nested list holding tensors into one tensor (``tf.constant([x, 1])``).

    As TensorFlow's auto-packing: without ``dtype``, Python values take the
    dtype of the first tensor found (depth first) and a tensor of another
    dtype is an error; a ``dtype`` other than that first tensor's casts every
    tensor in the list to it (``tf.concat([v_int32, [i_int64]], 0)`` packs
    ``[i]`` as int32).
    """
    inferred = _first_dtype(value)
    if dtype is None:
        return _pack_nested(value, inferred, cast=False)
    dtype = as_dtype(dtype)
    return _pack_nested(value, dtype, cast=inferred is not None and inferred != dtype)


def _first_dtype(value) -> DType | None:
    if isinstance(value, (list, tuple)):
        for v in value:
            found = _first_dtype(v)
            if found is not None:
                return found
        return None
    return convert_to_tensor(value).dtype if _is_tensor_like(value) else None


def _contains_tensor(value) -> bool:
    if isinstance(value, (list, tuple)):
        return any(_contains_tensor(v) for v in value)
    return _is_tensor_like(value)


def _pack_nested(value, dtype: DType | None, cast: bool) -> Tensor:
    if isinstance(value, (list, tuple)) and _contains_tensor(value):
        elements = [_pack_nested(v, dtype, cast) for v in value]
        return apply_op("Pack", elements, attrs={"axis": 0}, name="packed")
    if _is_tensor_like(value):
        t = convert_to_tensor(value)
        if dtype is not None and t.dtype != dtype:
            if cast:
                return _cast(t, dtype)
            raise TypeError(f"Cannot convert a list containing a tensor of dtype {t.dtype.name} "
                            f"to {dtype.name} (Tensor is: {t!r})")
        return t
    return convert_to_tensor(value, dtype=dtype)


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
    return fill(dims if dims is not None else shape_value,
                constant(fill_value, dtype=dtype, name=_const_name(name, "Const")), name=name)


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


# -- slicing: Tensor.__getitem__ ------------------------------------------------------------------

_INDEX_ERROR = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
                "tf.int32/tf.int64 tensors are valid indices, got {!r}")


def strided_slice_spec(key) -> tuple[tuple, list[Tensor]]:
    """Turns a Python index into a StridedSlice ``spec`` and its tensor-valued bounds."""
    items = key if isinstance(key, tuple) else (key,)
    spec: list[tuple] = []
    bounds: list[Tensor] = []

    def bound(b):
        if b is None:
            return None
        if isinstance(b, (bool, np.bool_)):
            raise TypeError(_INDEX_ERROR.format(b))
        if isinstance(b, (int, np.integer)):
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
        elif isinstance(item, slice):
            if isinstance(item.step, (int, np.integer)) and item.step == 0:
                raise ValueError("slice step cannot be zero")
            spec.append(("slice", bound(item.start), bound(item.stop), bound(item.step)))
        else:
            spec.append(("index", bound(item)))
    if sum(1 for s in spec if s[0] == "ellipsis") > 1:
        raise ValueError(f"An index can only have a single ellipsis ('...'), got {key!r}")
    return tuple(spec), bounds


def strided_slice(tensor, key, name: str = "strided_slice") -> Tensor:
    """``tensor[key]``: basic Python indexing, with tensor-valued indices allowed."""
    x = convert_to_tensor(tensor)
    spec, bounds = strided_slice_spec(key)
    return apply_op("StridedSlice", [x] + bounds, attrs={"spec": spec}, name=name)


def _getitem(self, key):
    return strided_slice(self, key)


Tensor.__getitem__ = _getitem

range = range_  # the TensorFlow name; defined last so the module can use builtins.range
