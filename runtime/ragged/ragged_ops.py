"""``tf.ragged.constant``, ``tf.ragged.map_flat_values``, and the op API on RaggedTensors.

Elementwise ops apply to the flat values (a RaggedTensor and a scalar, a
dense tensor broadcasting over the uniform inner dimensions, or two
RaggedTensors with the same row partition); reductions over a ragged axis
are in ragged_reductions.py. ``tf.add(rt, 1)`` reaches these through the
composite dispatch (runtime/composite.py).
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from runtime import composite
from runtime.ops import array_ops, math_ops
from runtime.ops.core import apply_op, constant as _dense_constant, convert_to_tensor
from runtime.ragged.ragged_tensor import RaggedTensor, _static_value, _where
from runtime.tensor import Tensor


# -- tf.ragged.constant -----------------------------------------------------------------------

def _scalar_and_max_depth(pylist):
    """(depth of the scalars or None when there is none, depth of the deepest list)."""
    if isinstance(pylist, (list, tuple)) or (isinstance(pylist, np.ndarray) and pylist.ndim):
        scalar_depth, max_depth = None, 1
        for child in pylist:
            d, m = _scalar_and_max_depth(child)
            if d is not None:
                if scalar_depth is not None and scalar_depth != d + 1:
                    raise ValueError("all scalar values must have the same nesting depth")
                scalar_depth = d + 1
            max_depth = max(max_depth, m + 1)
        return scalar_depth, max_depth
    return 0, 0


def _scalars(pylist):
    if isinstance(pylist, (list, tuple)):
        for child in pylist:
            yield from _scalars(child)
    elif not isinstance(pylist, np.ndarray):
        yield pylist


def _default_inner_shape(pylist, ragged_rank: int) -> tuple:
    """The uniform shape of the items ``ragged_rank`` levels down (checked to agree)."""
    values = list(pylist)
    for _ in range(ragged_rank):
        values = [v for row in values for v in row]
    shapes = {np.shape(v) for v in values}
    if len(shapes) > 1:
        raise ValueError(f"inner values have inconsistent shape: for ragged_rank="
                         f"{ragged_rank}, got shapes {sorted(shapes)}")
    return shapes.pop() if shapes else ()


def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """``tf.ragged.constant``: a RaggedTensor (or a Tensor, for flat lists) from nested lists."""
    if isinstance(pylist, RaggedTensor):
        raise TypeError("pylist may not be a RaggedTensor")
    if isinstance(pylist, Tensor):
        raise TypeError("pylist may not be a Tensor; use RaggedTensor.from_tensor")
    scalar_depth, max_depth = _scalar_and_max_depth(pylist)
    kinds = {isinstance(v, (str, bytes)) for v in _scalars(pylist)}
    if len(kinds) > 1:
        raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
    if scalar_depth is not None and max_depth > scalar_depth:
        raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than scalar "
                         "value nesting")
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank}: must be nonnegative")
    if ragged_rank is not None and scalar_depth is not None and scalar_depth <= ragged_rank:
        raise ValueError(f"pylist has scalar values depth {scalar_depth}, but ragged_rank="
                         f"{ragged_rank} requires scalar value depth greater than {ragged_rank}")
    if inner_shape is not None:
        inner_shape = tuple(inner_shape)
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (scalar_depth is not None and expected != scalar_depth) or \
                (scalar_depth is None and expected < max_depth):
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with inner_shape="
                             f"{inner_shape} and ragged_rank={ragged_rank}")
    if ragged_rank == 0 or (ragged_rank is None and (
            max_depth < 2 or (inner_shape is not None and max_depth - len(inner_shape) < 2))):
        return _dense_constant(pylist, dtype=dtype)
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _default_inner_shape(pylist, ragged_rank)
    if ragged_rank is None:
        ragged_rank = max(1, (max_depth if scalar_depth is None else scalar_depth)
                          - 1 - len(inner_shape))
    nested_splits = []
    values = list(pylist)
    for _ in range(ragged_rank):
        splits, flat = [0], []
        for row in values:
            if not isinstance(row, (list, tuple, np.ndarray)):
                raise ValueError(f"Invalid pylist={pylist!r}: expected a list at nesting depth "
                                 f"{len(nested_splits) + 1}")
            splits.append(splits[-1] + len(row))
            flat.extend(row)
        nested_splits.append(splits)
        values = flat
    if values:
        flat_values = _dense_constant(values, dtype=dtype)
        if tuple(flat_values.shape.as_tuple()[1:]) != tuple(inner_shape):
            flat_values = array_ops.reshape(flat_values, [len(values), *inner_shape])
    else:
        flat_values = _dense_constant(np.zeros((0,) + tuple(inner_shape),
                                               dtype=as_dtype(dtype or dtypes.float32).numpy_dtype
                                               if not as_dtype(dtype or dtypes.float32).is_string
                                               else object),
                                      dtype=dtype or dtypes.float32)
    splits_dtype = as_dtype(row_splits_dtype)
    result = flat_values
    for splits in reversed(nested_splits):
        result = RaggedTensor(result, _dense_constant(splits, dtype=splits_dtype), internal=True)
    return result


def range_(starts, limits=None, deltas=1, dtype=None, name=None,
           row_splits_dtype=dtypes.int64):
    """``tf.ragged.range``: row ``i`` is ``range(starts[i], limits[i], deltas[i])`` (scalars
    broadcast); one argument is the limits, starting at 0."""
    if limits is None:
        starts, limits = 0, starts
    args = [starts, limits, deltas]
    if dtype is None:
        tensors = [a for a in args if isinstance(a, Tensor)]
        dtype = tensors[0].dtype if tensors else None
        if dtype is None:
            floats = any(np.asarray(a).dtype.kind == "f" for a in args)
            dtype = dtypes.float32 if floats else dtypes.int32
    args = [math_ops.cast(a, dtype) if isinstance(a, Tensor) and a.dtype != as_dtype(dtype)
            else convert_to_tensor(a, dtype=dtype) for a in args]
    splits, values = apply_op("RaggedRange", args, {"Tsplits": as_dtype(row_splits_dtype)},
                              name=name or "RaggedRange")
    return RaggedTensor(values, splits, internal=True)


def map_flat_values(op, *args, **kwargs):
    """``op`` applied to the flat values of the RaggedTensor arguments (same partitions)."""
    partition = []

    def unwrap(v):
        if isinstance(v, RaggedTensor):
            partition.append(v)
            return v.flat_values
        if isinstance(v, (list, tuple)):
            return type(v)(unwrap(x) for x in v)
        if isinstance(v, dict):
            return {k: unwrap(x) for k, x in v.items()}
        return v

    args = unwrap(list(args))
    kwargs = unwrap(kwargs)
    if not partition:
        return op(*args, **kwargs)
    sizes = {rt.flat_values.shape.as_tuple()[0] for rt in partition
             if rt.flat_values.shape.rank is not None}
    if len(sizes - {None}) > 1:
        raise ValueError(f"Input RaggedTensors' flat_values must all have the same "
                         f"outer-dimension size.  Got sizes: {set(sizes - {None})}")
    for other in partition[1:]:
        _check_same_partition(partition[0], other)
    return partition[0].with_flat_values(op(*args, **kwargs))


def _check_same_partition(a: RaggedTensor, b: RaggedTensor) -> None:
    if a.ragged_rank != b.ragged_rank:  # (TensorFlow's splits assertion fails: x == y)
        raise InvalidArgumentError(
            message=f"Condition x == y did not hold: RaggedTensors of shapes {a.shape} and "
                    f"{b.shape} (ragged_rank {a.ragged_rank} and {b.ragged_rank}) cannot be "
                    f"combined elementwise{_where()}")
    for sa, sb in zip(a.nested_row_splits, b.nested_row_splits):
        va, vb = _static_value(sa), _static_value(sb)
        if va is not None and vb is not None and not np.array_equal(va, vb):
            raise InvalidArgumentError(
                message=f"Inputs must have identical ragged splits{_where()}: "
                        f"{va.tolist()} != {vb.tolist()}")


# -- elementwise ops --------------------------------------------------------------------------

def _binary_handler(fn):
    def handler(x, y, name=None):
        if isinstance(x, RaggedTensor) and isinstance(y, RaggedTensor):
            x, y = _same_ragged_rank(x, y), _same_ragged_rank(y, x)
            _check_same_partition(x, y)
            return x.with_flat_values(fn(x.flat_values, y.flat_values))
        rt, other, rt_first = (x, y, True) if isinstance(x, RaggedTensor) else (y, x, False)
        # (a Python number of another kind stays its own dtype: the op refuses the mix)
        other = _dense_operand(rt, convert_to_tensor(other, dtype_hint=rt.dtype))
        flat = rt.flat_values
        return rt.with_flat_values(fn(flat, other) if rt_first else fn(other, flat))
    return handler


def _same_ragged_rank(rt: RaggedTensor, other: RaggedTensor | None = None) -> RaggedTensor:
    """``rt`` with as many ragged dimensions as ``other`` when it has fewer and the same rank:
    its uniform inner dimensions become ragged ones (as TensorFlow aligns them)."""
    if other is None or rt.ragged_rank >= other.ragged_rank or rt.shape.rank is None \
            or rt.shape.rank != other.shape.rank:
        return rt
    flat = RaggedTensor.from_tensor(rt.flat_values, ragged_rank=other.ragged_rank - rt.ragged_rank,
                                    row_splits_dtype=rt.row_splits_dtype)
    return rt.with_flat_values(flat)


def _dense_operand(rt: RaggedTensor, dense: Tensor) -> Tensor:
    """``dense`` as an operand of ``rt.flat_values``, broadcasting as TensorFlow does: over the
    uniform inner dimensions, and with size-1 dimensions over the ragged ones (a dimension 0
    of size ``nrows`` spreads each row's value over the row)."""
    inner, rank, r = rt.flat_values.shape.rank, rt.shape.rank, dense.shape.rank
    if r is None or inner is None or r > rank:
        raise ValueError(f"Cannot combine a RaggedTensor of shape {rt.shape} with a dense "
                         f"tensor of shape {dense.shape} elementwise{_where()}")
    if r <= inner - 1:
        return dense
    k = rt.ragged_rank
    dims = [1] * (rank - r) + list(dense.shape.as_tuple())
    if dims[1:k + 1] != [1] * k:
        raise InvalidArgumentError(
            message=f"Cannot broadcast a dense tensor of shape {dense.shape} over the ragged "
                    f"dimensions of a RaggedTensor of shape {rt.shape}{_where()}: its size "
                    "there must be 1")
    nrows = rt._static_nrows()
    if dims[0] not in (1, None) and nrows is not None and dims[0] != nrows:
        raise InvalidArgumentError(
            message=f"Cannot broadcast a dense tensor of shape {dense.shape} with a "
                    f"RaggedTensor of shape {rt.shape}{_where()}: dimension 0 must be 1 or "
                    f"{nrows}")
    per_row = array_ops.reshape(dense, [-1 if dims[0] is None else dims[0]] + dims[k + 1:])
    if dims[0] == 1:
        return per_row[0]
    ids = rt.nested_value_rowids()
    top = ids[-1]
    for outer in reversed(ids[:-1]):
        top = array_ops.gather(outer, top)
    return array_ops.gather(per_row, top)


def _unary_handler(fn):
    def handler(x, name=None):
        return x.with_flat_values(fn(x.flat_values))
    return handler


def _cast_handler(x, dtype, name=None):
    return x.with_flat_values(math_ops.cast(x.flat_values, dtype))


for _name in composite.BINARY_ELEMENTWISE:
    composite.register_dispatch(_name, RaggedTensor, _binary_handler(getattr(math_ops, _name)))
for _name in (n for n in composite.UNARY_ELEMENTWISE if n != "cast"):  # (cast: a dtype)
    composite.register_dispatch(_name, RaggedTensor, _unary_handler(getattr(math_ops, _name)))
composite.register_dispatch("cast", RaggedTensor, _cast_handler)


def _operator(fn, reverse: bool = False):
    handler = _binary_handler(fn)
    if reverse:
        return lambda self, other: handler(other, self)
    return lambda self, other: handler(self, other)


for _dunder, _fn in (("add", math_ops.add), ("sub", math_ops.subtract),
                     ("mul", math_ops.multiply), ("truediv", math_ops.truediv),
                     ("floordiv", math_ops.floordiv), ("mod", math_ops.floormod),
                     ("pow", math_ops.pow), ("and", math_ops.logical_and),
                     ("or", math_ops.logical_or), ("xor", math_ops.logical_xor)):
    setattr(RaggedTensor, f"__{_dunder}__", _operator(_fn))
    setattr(RaggedTensor, f"__r{_dunder}__", _operator(_fn, reverse=True))
for _dunder, _fn in (("lt", math_ops.less), ("le", math_ops.less_equal),
                     ("gt", math_ops.greater), ("ge", math_ops.greater_equal)):
    setattr(RaggedTensor, f"__{_dunder}__", _operator(_fn))


def _equality(fn, when_incomparable: bool):
    """``==`` / ``!=``: elementwise as TensorFlow's (a value that cannot be compared, such as
    None, gives ``when_incomparable``)."""
    handler = _binary_handler(fn)

    def compare(self, other):
        if other is None:
            return when_incomparable
        try:
            return handler(self, other)
        except (TypeError, ValueError):
            return when_incomparable
    return compare


def _unhashable(self):
    raise TypeError("RaggedTensor is unhashable.")


RaggedTensor.__eq__ = _equality(math_ops.equal, False)
RaggedTensor.__ne__ = _equality(math_ops.not_equal, True)
RaggedTensor.__hash__ = _unhashable
