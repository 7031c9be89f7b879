"""The RaggedTensor targets of array, string, nn and functional APIs (``tf.tile(rt, ...)``,
``tf.strings.substr(rt, ...)``, ``tf.map_fn(f, rt)``...), registered on the composite
dispatch (runtime/composite.py) as TensorFlow's ragged_dispatch registers them.

Ops on the values alone (string ops, ``one_hot``, ``embedding_lookup``) run on the flat
values; ops on several values (``where``, ``strings.join``) need one row partition, as
``map_flat_values`` does; ops on the layout (``tile``, ``reverse``, ``expand_dims``,
``squeeze``) rebuild row splits with ``RaggedRange`` and gathers. ``map_fn`` carries each row
as one variant (the dataset mechanism, RaggedTensorSpec._to_variant), so ``fn`` may return
rows of any length.
"""
from __future__ import annotations

import abc

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from runtime import composite, nest
from runtime.ops import array_ops, functional_ops, math_ops, nn_ops, string_ops
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.ragged.ragged_ops import _dense_operand, map_flat_values
from runtime.ragged.ragged_tensor import (RaggedTensor, RaggedTensorSpec, _gather_rows,
                                          _static_value, _where)
from runtime.tensor import Tensor


def _on_values(fn):
    """A target for APIs whose first argument is elementwise and the rest are options."""
    def handler(input, *args, **kwargs):  # noqa: A002
        return input.with_flat_values(fn(input.flat_values, *args, **kwargs))
    return handler


for _name in ("substr", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_hash_bucket",
              "to_number", "length", "upper", "lower", "strip", "regex_full_match",
              "regex_replace", "as_string"):
    composite.register_dispatch(_name, RaggedTensor, _on_values(getattr(string_ops, _name)))


def _join(inputs, separator: str = "", name=None):
    return map_flat_values(string_ops.join, list(inputs), separator=separator)


composite.register_dispatch("join", RaggedTensor, _join)


def _where_ragged(condition, x=None, y=None, name=None):
    """Elementwise choice on one partition (dense operands broadcast as in ``rt + dense``);
    with only ``condition``, the coordinates of its true values (those of the padded dense
    tensor)."""
    if x is None and y is None:
        cond = condition.to_tensor() if isinstance(condition, RaggedTensor) else condition
        return math_ops.where(cond)
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    rt = next(v for v in (condition, x, y) if isinstance(v, RaggedTensor))
    hint = next((v.dtype for v in (x, y) if isinstance(v, (RaggedTensor, Tensor))), None)

    def operand(v, dtype_hint):
        if isinstance(v, RaggedTensor):
            return v
        return _dense_operand(rt, convert_to_tensor(v, dtype_hint=dtype_hint))
    return map_flat_values(math_ops.where, operand(condition, dtypes.bool_), operand(x, hint),
                           operand(y, hint))


composite.register_dispatch("where", RaggedTensor, _where_ragged)


def _one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    k = indices.ragged_rank
    if axis is not None and axis >= 0:
        if axis <= k:
            raise ValueError(f"axis ({axis}) must be greater than indices.ragged_rank ({k}).")
        axis -= k
    return indices.with_flat_values(array_ops.one_hot(indices.flat_values, depth, on_value,
                                                      off_value, axis, dtype))


composite.register_dispatch("one_hot", RaggedTensor, _one_hot)


def _embedding_lookup(params, ids, max_norm=None, name=None):
    if isinstance(params, RaggedTensor):
        raise TypeError("embedding_lookup: params must be a dense tensor")
    return ids.with_flat_values(nn_ops.embedding_lookup(params, ids.flat_values, max_norm))


composite.register_dispatch("embedding_lookup", RaggedTensor, _embedding_lookup)


def _rank(input, name=None):  # noqa: A002
    rank = input.shape.rank
    if rank is None:
        return array_ops.rank(input.flat_values) + constant(input.ragged_rank)
    return constant(rank, dtype=dtypes.int32)


composite.register_dispatch("rank", RaggedTensor, _rank)


# -- layout -------------------------------------------------------------------------------------

def _axis(axis, rank, what: str) -> int:
    value = axis if isinstance(axis, (int, np.integer)) else _static_value(convert_to_tensor(axis))
    if value is None:
        raise ValueError(f"{what} of a RaggedTensor needs a static axis{_where()}")
    a = int(np.asarray(value).reshape(()))
    if rank is not None:
        if not -rank <= a < rank:
            raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
        a = a % rank
    elif a < 0:
        raise ValueError(f"{what} of a RaggedTensor of unknown rank needs axis >= 0")
    return a


def _expand_dims(input, axis, name=None):  # noqa: A002
    """A new size-1 dimension at ``axis``: ``rt[:, ..., tf.newaxis]``."""
    rank = input.shape.rank
    a = _axis(axis, None if rank is None else rank + 1, "expand_dims")
    return input[(slice(None),) * a + (None,)]


composite.register_dispatch("expand_dims", RaggedTensor, _expand_dims)


def _squeeze(input, axis=None, name=None):  # noqa: A002
    """Removes size-1 dimensions: uniform ones from the flat values, a ragged one whose rows
    all have length 1 by dropping its row splits (checked when the lengths are known while
    building; staged with unknown lengths, the caller vouches for them)."""
    if axis is None:
        raise ValueError("Ragged.squeeze must have an axis argument.")
    axes = axis if isinstance(axis, (list, tuple)) else [axis]
    rank = input.shape.rank
    axes = sorted({_axis(a, rank, "squeeze") for a in axes}, reverse=True)
    k = input.ragged_rank
    if 0 in axes:
        raise ValueError("Ragged.squeeze does not support squeezing the outermost dimension.")
    flat, splits = input.flat_values, list(input.nested_row_splits)
    dense_axes = [a - k for a in axes if a > k]
    if dense_axes:
        flat = array_ops.squeeze(flat, dense_axes)
    for a in (a for a in axes if a <= k):
        lengths = _static_value(splits[a - 1][1:] - splits[a - 1][:-1])
        if lengths is not None and np.any(lengths != 1):
            raise InvalidArgumentError(
                message=f"The ragged dimension {a} cannot be squeezed: its rows have lengths "
                        f"{lengths.tolist()}, not all 1{_where()}")
        del splits[a - 1]
    return RaggedTensor._from_nested(flat, splits) if splits else flat


composite.register_dispatch("squeeze", RaggedTensor, _squeeze)


def _reverse_rows(x) -> "RaggedTensor | Tensor":
    """The rows of ``x`` in reverse order."""
    if not isinstance(x, RaggedTensor):
        return array_ops.reverse(x, [0])
    n = x.nrows()
    one = constant(1, dtype=n.dtype)
    return _gather_rows(x, array_ops.range(n - one, -one, -one))


def _reverse_within_rows(rt: RaggedTensor) -> RaggedTensor:
    """Each row of ``rt`` with its items in reverse order."""
    starts, limits = rt.row_starts(), rt.row_limits()
    one = constant(1, dtype=starts.dtype)
    _, index = apply_op("RaggedRange", [limits - one, starts - one, -one],
                        {"Tsplits": rt.row_splits_dtype}, name="RaggedRange")
    return rt.with_values(_gather_rows(rt.values, index))


def _reverse_at(x, axis: int):
    if axis == 0:
        return _reverse_rows(x)
    if not isinstance(x, RaggedTensor):
        return array_ops.reverse(x, [axis])
    if axis == 1:
        return _reverse_within_rows(x)
    return x.with_values(_reverse_at(x.values, axis - 1))


def _reverse(tensor, axis, name=None):
    rank = tensor.shape.rank
    if isinstance(axis, (list, tuple)):
        axes = axis
    else:
        value = _static_value(convert_to_tensor(axis))
        if value is None:
            raise ValueError(f"reverse of a RaggedTensor needs a static axis{_where()}")
        axes = np.asarray(value).reshape(-1).tolist()
    result = tensor
    for a in sorted({_axis(a, rank, "reverse") for a in axes}):
        result = _reverse_at(result, a)
    return result


composite.register_dispatch("reverse", RaggedTensor, _reverse)


def _tile(input, multiples, name=None):  # noqa: A002
    """Each dimension repeated ``multiples[d]`` times: rows of a ragged dimension repeat
    their items within the row, as TensorFlow's ragged tile does."""
    m = _static_value(convert_to_tensor(multiples, dtype_hint=dtypes.int64))
    rank = input.shape.rank
    if m is None:
        raise ValueError(f"tile of a RaggedTensor needs static multiples{_where()}")
    m = [int(v) for v in np.asarray(m).reshape(-1)]
    if rank is not None and len(m) != rank:
        raise ValueError(f"multiples must have {rank} elements (the rank of the input), got "
                         f"{len(m)}")
    return _tile_rows(_tile_inner(input, m), m[0])


def _tile_rows(x, times: int):
    if times == 1:
        return x
    if not isinstance(x, RaggedTensor):
        return array_ops.tile(x, [times] + [1] * (x.shape.rank - 1))
    n = x.nrows()
    return _gather_rows(x, array_ops.tile(array_ops.range(constant(0, dtype=n.dtype), n),
                                          [times]))


def _tile_inner(x, m: list):
    """``x`` with every dimension but the first tiled (``m[0]`` is ignored)."""
    if not isinstance(x, RaggedTensor):
        return array_ops.tile(x, [1] + m[1:]) if any(v != 1 for v in m[1:]) else x
    values = _tile_inner(x.values, m[1:])
    times = m[1]
    if times == 1:
        return x.with_values(values)
    starts, limits = x.row_starts(), x.row_limits()
    dt = starts.dtype
    copies = array_ops.range(constant(0, dtype=dt), x.nrows() * constant(times, dtype=dt))
    row = math_ops.floordiv(copies, constant(times, dtype=dt))
    splits, index = apply_op("RaggedRange", [array_ops.gather(starts, row),
                                             array_ops.gather(limits, row),
                                             constant(1, dtype=dt)],
                             {"Tsplits": x.row_splits_dtype}, name="RaggedRange")
    return RaggedTensor(_gather_rows(values, index), splits[::times], internal=True)


composite.register_dispatch("tile", RaggedTensor, _tile)


# -- map_fn -------------------------------------------------------------------------------------

def _map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
            infer_shape=True, name=None, fn_output_signature=None):
    """``map_fn`` over RaggedTensor ``elems`` (or returning RaggedTensors): ragged values cross
    the loop as one variant per row, rebuilt on each side by their spec."""
    signature = dtype if fn_output_signature is None else fn_output_signature
    in_flat = nest.flatten(elems)
    in_specs = [v._type_spec._unbatch() if isinstance(v, RaggedTensor) else None
                for v in in_flat]
    if signature is None:
        signature = nest.pack_sequence_as(elems, [
            s if s is not None else v.dtype for s, v in zip(in_specs, in_flat)])
    out_flat = nest.flatten(signature)
    out_ragged = [isinstance(s, RaggedTensorSpec) for s in out_flat]
    carried = [RaggedTensorSpec._to_variant(v, rows=True) if s is not None else v
               for s, v in zip(in_specs, in_flat)]
    carried_sig = [dtypes.variant if r else s for s, r in zip(out_flat, out_ragged)]

    def row_fn(row):
        row = row if isinstance(row, (list, tuple)) else [row]
        args = [s._from_variant(r) if s is not None else r for s, r in zip(in_specs, row)]
        result = fn(nest.pack_sequence_as(elems, args))
        nest.assert_same_structure(signature, result, check_types=False)
        return [_row_variant(s, v) if r else v
                for s, v, r in zip(out_flat, nest.flatten(result), out_ragged)]

    out = functional_ops.map_fn(row_fn, carried, fn_output_signature=carried_sig, name=name)
    return nest.pack_sequence_as(signature, [
        s._batch(None)._from_variant(v) if r else v
        for s, v, r in zip(out_flat, out, out_ragged)])


def _row_variant(spec: RaggedTensorSpec, value):
    if not isinstance(value, RaggedTensor):
        value = convert_to_tensor(value, dtype=spec.dtype)
        if value.shape.rank == 0:
            raise InvalidArgumentError(
                message=f"Ragged values must have rank >= 1: map_fn's fn returned a scalar where "
                        f"{spec} rows were expected{_where()}; give fn_output_signature")
    return RaggedTensorSpec._to_variant(value)


class _RaggedArgument(abc.ABC):
    """A RaggedTensor ``elems`` or a RaggedTensorSpec ``fn_output_signature``: one dispatch
    registration for both, so a call holding each matches once."""


_RaggedArgument.register(RaggedTensor)
_RaggedArgument.register(RaggedTensorSpec)
composite.register_dispatch("map_fn", _RaggedArgument, _map_fn)
