"""``tf.RaggedTensor``: a tensor whose rows have different lengths.

A RaggedTensor is ``values`` (a Tensor, or a RaggedTensor for more ragged
dimensions) cut into rows by ``row_splits`` (int64 by default): row ``i`` is
``values[row_splits[i]:row_splits[i + 1]]``. It is a composite value
(runtime/composite.py): its components are ``[flat_values, *nested_row_splits]``
and its type is a ``RaggedTensorSpec``, so it crosses function boundaries,
cond and while_loop like any tensor, with no code specific to it there.

Every operation is built from ops (graph/ops/ragged.py and the array ops),
so it runs eagerly or is recorded into the graph being built alike.
``for row in rt`` in converted code is one while loop over ``nrows()``
(``_autograph_for_stmt``).
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.shapes import TensorShape, as_shape
from runtime import context
from runtime.composite import CompositeTensor
from runtime.ops import array_ops, logging_ops, math_ops
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.tensor_spec import TensorSpec, TypeSpec

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


def _where() -> str:
    origin = current_origin()
    return f" at {origin}" if origin is not None else ""


def _static_value(t):
    """The numpy value of ``t`` when known now (eager, or a constant while tracing), else None."""
    if isinstance(t, EagerTensor):
        return t.numpy()
    if isinstance(t, SymbolicTensor) and t.value is not None:
        return np.asarray(t.value)
    return None


class RowKeyError(InvalidArgumentError, IndexError):
    """A Python row index past a known row count: TensorFlow's IndexError (also the
    InvalidArgumentError a tensor index gets, as this project raised it before)."""


def _convert_values(values, dtype=None):
    if isinstance(values, RaggedTensor):
        if dtype is not None and values.dtype != as_dtype(dtype):
            raise TypeError(f"values has dtype {values.dtype.name}, expected "
                            f"{as_dtype(dtype).name}")
        return values
    return convert_to_tensor(values, dtype=dtype)


def _convert_partition(t, what: str, dtype=None) -> Tensor:
    """A row partition tensor (splits, lengths, row ids) as an int32/int64 vector."""
    if isinstance(t, Tensor):
        out = t
    else:
        try:
            out = convert_to_tensor(t, dtype_hint=dtypes.int64)
        except TypeError:   # (floats, strings: the dtype check below names the problem)
            out = convert_to_tensor(t)
    if out.dtype not in _SPLITS_DTYPES:
        raise ValueError(f"{what} must have dtype int32 or int64, got {out.dtype.name}"
                         f"{_where()}")
    if dtype is not None and out.dtype != as_dtype(dtype):
        out = math_ops.cast(out, dtype)
    if out.shape.rank not in (None, 1):
        raise ValueError(f"{what} must be a vector, got shape {out.shape}{_where()}")
    return out


def _default_of(dtype):
    if dtype.is_string:
        return constant(b"", dtype=dtype)
    if dtype.is_bool:
        return constant(False, dtype=dtype)
    return constant(0, dtype=dtype)


class RaggedTensor(CompositeTensor):
    """Rows of different lengths: ``tf.ragged.constant([[1, 2], [3]])``.

    Build one with ``tf.ragged.constant`` or the ``from_*`` factories; the
    constructor is private, as in TensorFlow.
    """

    __slots__ = ("_values", "_row_splits", "_uniform_row_length", "__weakref__")

    def __init__(self, values, row_splits, internal: bool = False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the factory "
                             "methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_splits
        self._uniform_row_length = uniform_row_length  # (a scalar when every row has it)

    # -- factories ----------------------------------------------------------------
    @classmethod
    def _make(cls, values, row_splits, validate: bool = False) -> "RaggedTensor":
        if isinstance(values, RaggedTensor) and values.row_splits.dtype != row_splits.dtype:
            raise ValueError(f"row_splits dtype {row_splits.dtype.name} differs from the values' "
                             f"row_splits dtype {values.row_splits.dtype.name}; use "
                             "RaggedTensor.with_row_splits_dtype to make them agree")
        if not isinstance(values, RaggedTensor) and values.shape.rank == 0:
            raise InvalidArgumentError(  # (TensorFlow's strided slice of the values fails)
                message=f"values must have rank >= 1, got a scalar{_where()}")
        if validate:
            _validate_splits(row_splits, values)
        return cls(values, row_splits, internal=True)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate: bool = True):
        values = _convert_values(values)
        splits = _convert_partition(row_splits, "row_splits")
        return cls._make(values, _match_splits_dtype(splits, values), validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate: bool = True):
        values = _convert_values(values)
        lengths = _convert_partition(row_lengths, "row_lengths")
        splits = apply_op("RaggedRowSplitsFromLengths", [lengths], name="RowPartitionFromLengths")
        return cls._make(values, _match_splits_dtype(splits, values), validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None,
                          validate: bool = True):
        values = _convert_values(values)
        rowids = _convert_partition(value_rowids, "value_rowids")
        n = convert_to_tensor(-1 if nrows is None else nrows, dtype=rowids.dtype)
        splits = apply_op("RaggedRowSplitsFromRowIds", [rowids, n], name="RowPartitionFromRowIds")
        return cls._make(values, _match_splits_dtype(splits, values), validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate: bool = True):
        """Row ``i`` starts at ``row_starts[i]``; the last row ends with the values."""
        values = _convert_values(values)
        starts = _convert_partition(row_starts, "row_starts")
        n = _nvals(values, starts.dtype)
        return cls.from_row_splits(values, array_ops.concat([starts, n[None]], 0),
                                   validate=validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate: bool = True):
        """Row ``i`` ends at ``row_limits[i]``; the first row starts at 0."""
        values = _convert_values(values)
        limits = _convert_partition(row_limits, "row_limits")
        zero = constant([0], dtype=limits.dtype)
        return cls.from_row_splits(values, array_ops.concat([zero, limits], 0),
                                   validate=validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Rows of ``uniform_row_length`` values each: a ragged dimension of known size, which
        ``shape`` shows and ``uniform_row_length`` returns."""
        values = _convert_values(values)
        length = convert_to_tensor(uniform_row_length, dtype_hint=dtypes.int64)
        if values.__class__ is RaggedTensor:
            length = math_ops.cast(length, values.row_splits_dtype)
        elif length.dtype not in _SPLITS_DTYPES:
            raise TypeError(f"uniform_row_length must be int32 or int64, got "
                            f"{length.dtype.name}")
        if length.shape.rank not in (None, 0):
            raise ValueError(f"uniform_row_length must be a scalar, got shape {length.shape}")
        dt = length.dtype
        nvals = _nvals(values, dt)
        zero = constant(0, dtype=dt)
        if nrows is None:
            one = constant(1, dtype=dt)
            n = math_ops.floordiv(nvals, math_ops.maximum(length, one))
            n = math_ops.where(math_ops.equal(length, zero), zero, n)
        else:
            n = convert_to_tensor(nrows, dtype=dt)
        lv, nv, vv = _static_value(length), _static_value(n), _static_value(nvals)
        if validate and None not in (lv, nv, vv) and int(lv) * int(nv) != int(vv):
            raise ValueError(f"uniform_row_length={int(lv)} times nrows={int(nv)} must equal "
                             f"nvals={int(vv)}")
        splits = array_ops.range(zero, n + constant(1, dtype=dt)) * length
        return cls(values, splits, internal=True, uniform_row_length=length)

    @property
    def uniform_row_length(self):
        """The length of every row when the rows were built uniform, else None."""
        return self._uniform_row_length

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor (indices in row-major order) as ragged rows; each
        row's column indices must be 0, 1, 2... (right-ragged), as TensorFlow checks."""
        if st_input.indices.shape.rank is not None and st_input.indices.shape[1] not in (None, 2):
            raise ValueError(f"rank(st_input) must be 2, got {st_input.indices.shape[1]}")
        dtype = as_dtype(row_splits_dtype)
        rt = cls._rows_of_sparse(st_input, dtype)
        rowids = rt.value_rowids()
        position = array_ops.range_(array_ops.shape(rowids, out_type=dtype)[0], dtype=dtype) \
            - array_ops.gather(rt.row_splits, rowids)
        columns = math_ops.cast(st_input.indices[:, 1], dtype)
        logging_ops.Assert(math_ops.reduce_all(math_ops.equal(columns, position)),
                           ["SparseTensor is not right-ragged"])
        return rt

    @classmethod
    def _rows_of_sparse(cls, st_input, dtype):
        """Each row's values in index order, whatever their columns (``tf.ragged.cross``)."""
        rowids = math_ops.cast(st_input.indices[:, 0], dtype)
        return cls.from_value_rowids(st_input.values, rowids,
                                     math_ops.cast(st_input.dense_shape[0], dtype),
                                     validate=False)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None,
                               validate: bool = True):
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = _convert_values(flat_values)
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None,
                                validate: bool = True):
        result = _convert_values(flat_values)
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate: bool = True):
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        result = _convert_values(flat_values)
        for ids, n in reversed(list(zip(rowids, nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank: int = 1, name=None,
                    row_splits_dtype=dtypes.int64):
        """Each row of ``tensor`` becomes a row; ``lengths`` or ``padding`` trims rows."""
        if lengths is not None and padding is not None:
            raise ValueError("Specify lengths or padding, but not both")
        tensor = convert_to_tensor(tensor)
        ragged_rank = int(ragged_rank)
        if ragged_rank <= 0:
            raise ValueError(f"ragged_rank must be greater than 0; got {ragged_rank}")
        if tensor.shape.rank is not None and tensor.shape.rank <= ragged_rank:
            raise ValueError(f"ragged_rank must be less than the rank of tensor ("
                             f"{tensor.shape.rank}); got {ragged_rank}")
        inputs, mode = [tensor], "uniform"
        if lengths is not None:
            inputs.append(_convert_partition(lengths, "lengths"))
            mode = "lengths"
        elif padding is not None:
            inputs.append(convert_to_tensor(padding, dtype=tensor.dtype))
            mode = "padding"
        out = apply_op("RaggedFromDense", inputs,
                       {"ragged_rank": ragged_rank, "mode": mode,
                        "splits_dtype": as_dtype(row_splits_dtype)}, name="RaggedFromTensor")
        flat_values, nested = out[0], list(out[1:])
        return cls._from_nested(flat_values, nested)

    @classmethod
    def _from_nested(cls, flat_values, nested_row_splits) -> "RaggedTensor":
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls(result, splits, internal=True)
        return result

    # -- structure ----------------------------------------------------------------------
    @property
    def values(self):
        return self._values

    @property
    def row_splits(self) -> Tensor:
        return self._row_splits

    @property
    def flat_values(self) -> Tensor:
        v = self._values
        while isinstance(v, RaggedTensor):
            v = v._values
        return v

    @property
    def nested_row_splits(self) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt._row_splits)
            rt = rt._values
        return tuple(out)

    @property
    def ragged_rank(self) -> int:
        v = self._values
        return 1 + (v.ragged_rank if isinstance(v, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    def _static_nrows(self) -> int | None:
        dims = self._row_splits.shape.as_tuple()
        return None if dims is None or dims[0] is None else dims[0] - 1

    @property
    def shape(self) -> TensorShape:
        inner = self.flat_values.shape
        if inner.rank is None:
            return TensorShape(None)
        dims, rt = [self._static_nrows()], self
        while isinstance(rt, RaggedTensor):
            length = None if rt._uniform_row_length is None else \
                _static_value(rt._uniform_row_length)
            dims.append(None if length is None else int(length))
            rt = rt._values
        return TensorShape(dims + list(inner.as_tuple()[1:]))

    def get_shape(self) -> TensorShape:
        return self.shape

    @property
    def _type_spec(self) -> "RaggedTensorSpec":
        return RaggedTensorSpec(self.shape, self.dtype, self.ragged_rank, self.row_splits_dtype)

    def _components(self) -> list:
        return [self.flat_values, *self.nested_row_splits]

    def _with_components(self, tensors) -> "RaggedTensor":
        return self._type_spec._from_components(tensors)

    # -- row partition queries ----------------------------------------------------------------
    def nrows(self, out_type=None, name=None) -> Tensor:
        out_type = self.row_splits_dtype if out_type is None else as_dtype(out_type)
        n = self._static_nrows()
        if n is not None:
            return constant(n, dtype=out_type)
        size = array_ops.shape(self._row_splits, out_type=out_type)[0]
        return size - constant(1, dtype=out_type)

    def row_starts(self, name=None) -> Tensor:
        return self._row_splits[:-1]

    def row_limits(self, name=None) -> Tensor:
        return self._row_splits[1:]

    def row_lengths(self, axis: int = 1, name=None):
        if axis == 0:  # (TensorFlow's: the number of rows)
            return self.nrows()
        if axis < 0:
            axis += self.shape.rank if self.shape.rank is not None else 0
        if axis == 1:
            return self._row_splits[1:] - self._row_splits[:-1]
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.row_lengths(axis - 1))
        raise ValueError(f"axis {axis} is not a ragged dimension of {self._type_spec}")

    def nested_row_lengths(self, name=None) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.row_lengths())
            rt = rt._values
        return tuple(out)

    def value_rowids(self, name=None) -> Tensor:
        return apply_op("RaggedSplitsToRowIds", [self._row_splits], name="RaggedValueRowIds")

    def nested_value_rowids(self, name=None) -> tuple:
        out, rt = [], self
        while isinstance(rt, RaggedTensor):
            out.append(rt.value_rowids())
            rt = rt._values
        return tuple(out)

    def bounding_shape(self, axis=None, name=None, out_type=None) -> Tensor:
        dense = self.to_tensor()
        shape = array_ops.shape(dense, out_type=out_type or self.row_splits_dtype)
        return shape if axis is None else shape[axis]

    # -- new values on the same partition -----------------------------------------------------
    def with_values(self, new_values) -> "RaggedTensor":
        new_values = _convert_values(new_values)
        return RaggedTensor(new_values, self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values) -> "RaggedTensor":
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype) -> "RaggedTensor":
        dtype = as_dtype(dtype)
        if dtype not in _SPLITS_DTYPES:
            raise ValueError(f"dtype must be int32 or int64, got {dtype.name}")
        if dtype == self.row_splits_dtype:
            return self
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        return RaggedTensor(values, math_ops.cast(self._row_splits, dtype), internal=True)

    # -- conversion ---------------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None) -> Tensor:
        """The rows padded with ``default_value`` (zeros) to a dense tensor."""
        dtype = self.dtype
        default = _default_of(dtype) if default_value is None else \
            convert_to_tensor(default_value, dtype=dtype)
        shape = as_shape(shape)
        if shape.rank is not None and self.shape.rank is not None and shape.rank != self.shape.rank:
            raise InvalidArgumentError(
                message=f"rt_input.shape and shape={list(shape.as_tuple())} are incompatible: "
                        f"rt_input.rank = {self.shape.rank} but shape.rank = {shape.rank}")
        return apply_op("RaggedToDense", [self.flat_values, default, *self.nested_row_splits],
                        {"shape": shape}, name=name or "RaggedToTensor")

    def to_sparse(self, name=None):
        """The SparseTensor of the same values, at their positions in the bounding shape."""
        from runtime.sparse import SparseTensor
        indices, values, shape = apply_op("RaggedToSparse",
                                          [self.flat_values, *self.nested_row_splits],
                                          name=name or "RaggedToSparse")
        return SparseTensor(indices, values, shape)

    def _eager(self, what: str) -> None:
        if not all(isinstance(t, EagerTensor) for t in self._components()):
            raise ValueError(f"{what} can only be used in eager mode.")

    def to_list(self) -> list:
        self._eager("to_list")
        splits = self._row_splits.numpy().tolist()
        values = self._values
        if isinstance(values, RaggedTensor):
            return [values[splits[i]:splits[i + 1]].to_list() for i in range(len(splits) - 1)]
        items = values.numpy().tolist()
        return [items[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]

    def numpy(self):
        """The rows as numpy arrays: one array when they have one length, else an object array."""
        self._eager("numpy")
        values = self._values.numpy()
        splits = self._row_splits.numpy()
        rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
        if not rows:
            return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
        if any(len(row) != len(rows[0]) for row in rows):
            out = np.empty(len(rows), dtype=object)
            for i, row in enumerate(rows):
                out[i] = row
            return out
        if values.dtype == object and isinstance(self._values, RaggedTensor):
            out = np.empty((len(rows), len(rows[0])), dtype=object)
            for i, row in enumerate(rows):
                for j, item in enumerate(row):
                    out[i, j] = item
            return out
        return np.array(rows)

    def __repr__(self) -> str:
        if all(isinstance(t, EagerTensor) for t in self._components()):
            with np.printoptions(formatter={"all": _formatter}):
                text = _formatter(self.numpy())
            return f"<tf.RaggedTensor {text}>"
        return f"tf.RaggedTensor(values={self._values}, row_splits={self._row_splits})"

    __str__ = __repr__

    # -- indexing -----------------------------------------------------------------------------
    def __getitem__(self, key):
        """TensorFlow's ragged indexing: a row index or slice (any step) per dimension, ``...``
        and ``tf.newaxis``; inner ragged dimensions may be sliced but not indexed
        (``rt[:, 1:]``, not ``rt[:, 0]``), uniform inner ones both."""
        keys = list(key) if isinstance(key, tuple) else [key]
        if any(k is Ellipsis for k in keys):
            keys = _expand_ellipsis(keys, self.shape.rank)
        return _getitem(self, keys)

    def _row(self, index):
        """Row ``index``: a Tensor (ragged_rank 1) or a RaggedTensor."""
        splits = self._row_splits
        if isinstance(index, (bool, np.bool_)):
            raise TypeError(f"RaggedTensor indices must be integers, got {index!r}")
        if isinstance(index, (int, np.integer)):
            i = int(index)
            n = self._static_nrows()
            if n is not None and not -n <= i < n:
                raise RowKeyError(message=f"Row key {i} out of bounds{_where()}: the "
                                          f"RaggedTensor has {n} rows")
            start, limit = (splits[i], splits[i + 1]) if i >= 0 else (splits[i - 1], splits[i])
            return self._values[start:limit]
        i = convert_to_tensor(index)
        if not i.dtype.is_integer or i.dtype.is_bool or i.shape.rank not in (None, 0):
            raise TypeError(f"RaggedTensor indices must be integer scalars, got {i!r}")
        value = _static_value(i)
        if value is not None:
            return self._row(int(value))
        if i.dtype != splits.dtype:
            i = math_ops.cast(i, splits.dtype)
        i = math_ops.where(math_ops.less(i, constant(0, dtype=i.dtype)), i + self.nrows(), i)
        return self._values[splits[i]:splits[i + 1]]

    def _row_slice(self, key: slice):
        step = _static_step(key.step)
        if step != 1:
            n = self.nrows()
            begin = _slice_bound(key.start, n, step, True)
            end = _slice_bound(key.stop, n, step, False)
            return _gather_rows(self, array_ops.range(begin, end, constant(step, dtype=n.dtype)))
        splits = self._row_splits
        n = self._static_nrows()
        start, stop = key.start, key.stop
        start_v = start if start is None or isinstance(start, (int, np.integer)) else \
            _static_value(convert_to_tensor(start))
        stop_v = stop if stop is None or isinstance(stop, (int, np.integer)) else \
            _static_value(convert_to_tensor(stop))
        static = (start is None or start_v is not None) and (stop is None or stop_v is not None)
        if n is not None and static:
            a, b, _ = slice(None if start is None else int(start_v),
                            None if stop is None else int(stop_v)).indices(n)
            b = max(a, b)
            new_splits = splits[a:b + 1]
            first, last = splits[a], splits[b]
        else:
            nrows = self.nrows()
            a = _bound(start, nrows, 0)
            b = math_ops.maximum(_bound(stop, nrows, None), a)
            new_splits = splits[a:b + 1]
            first, last = splits[a], splits[b]
        values = self._values[first:last]
        return RaggedTensor(values, new_splits - first, internal=True)

    # -- iteration ----------------------------------------------------------------------------
    def __iter__(self):
        if not all(isinstance(t, EagerTensor) for t in self._components()):
            raise TypeError(
                f"Iterating over a symbolic tf.RaggedTensor is not allowed{_where()}: the number "
                "of rows is known only when the graph runs. Use a for loop in a tf.function "
                "(AutoGraph stages it), or tf.while_loop over rt.nrows().")
        n = int(self._row_splits.shape[0]) - 1
        return (self._row(i) for i in range(n))

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        """``for row in rt`` of converted code: Python eagerly, one while loop when staged."""
        if context.executing_eagerly():
            for row in self:
                if extra_test is not None and not extra_test():
                    break
                body(row)
            return
        from runtime.ragged.loops import staged_index_for
        staged_index_for(self.nrows(), self._row, extra_test, body, get_state, set_state,
                         symbol_names, opts)

    def _print_format(self, summarize: int):
        """For tf.print: ``[[1, 2], [3]]``, one string inserted as it is."""
        text = apply_op("RaggedTensorToString", [self.flat_values, *self.nested_row_splits],
                        {"summarize": int(summarize)}, name="RaggedTensorToString")
        return "{}", [text], True

    def __bool__(self):
        raise TypeError("The truth value of a RaggedTensor is ambiguous; reduce it first "
                        "(tf.reduce_any / tf.reduce_all).")

    # -- elementwise operators (on the flat values) -------------------------------------------
    def __neg__(self):
        return self.with_flat_values(math_ops.negative(self.flat_values))

    def __abs__(self):
        return self.with_flat_values(math_ops.abs(self.flat_values))

    def __invert__(self):
        return self.with_flat_values(math_ops.logical_not(self.flat_values))


def _expand_ellipsis(keys: list, rank) -> list:
    at = [i for i, k in enumerate(keys) if k is Ellipsis]
    if len(at) > 1:
        raise ValueError("Cannot use multiple ellipses in a RaggedTensor index")
    i = at[0]
    if rank is None:
        if i != len(keys) - 1:
            raise ValueError("Cannot use an ellipsis before other indices of a RaggedTensor of "
                             "unknown rank")
        return keys[:i]
    used = sum(1 for k in keys if k is not None and k is not Ellipsis)
    return keys[:i] + [slice(None)] * (rank - used) + keys[i + 1:]


def _getitem(x, keys: list):
    """``x[keys]`` for a RaggedTensor (or the dense tensor a row of one is)."""
    if not keys:
        return x
    if not isinstance(x, RaggedTensor):
        return x[tuple(keys)]
    key, rest = keys[0], keys[1:]
    if key is None:  # tf.newaxis: one row holding the result
        inner = _getitem(x, rest)
        if not isinstance(inner, RaggedTensor):
            return array_ops.expand_dims(inner, 0)
        dtype = inner.row_splits_dtype
        n = inner.nrows()
        return RaggedTensor(inner, array_ops.stack([constant(0, dtype=dtype), n]),
                            internal=True, uniform_row_length=n)
    if isinstance(key, slice):
        return _inner_getitem(x._row_slice(key), rest)
    row = x._row(key)
    return _getitem(row, rest)


def _inner_getitem(x, keys: list):
    """``x[:, keys...]``: ``keys`` applied to every row of ``x``."""
    if not keys:
        return x
    if not isinstance(x, RaggedTensor):
        return x[(slice(None),) + tuple(keys)]
    key, rest = keys[0], keys[1:]
    if key is None:  # every row becomes a row of one row
        inner = _inner_getitem(x, rest)
        n = inner.nrows()
        return RaggedTensor(inner, array_ops.range(constant(0, dtype=n.dtype), n + 1),
                            internal=True, uniform_row_length=constant(1, dtype=n.dtype))
    if isinstance(key, slice):
        if key.start is None and key.stop is None and key.step is None:
            return x.with_values(_inner_getitem(x.values, rest))
        sliced = _slice_columns(x, key)
        return sliced.with_values(_inner_getitem(sliced.values, rest))
    raise ValueError("Cannot index into an inner ragged dimension.")


def _static_step(step) -> int:
    if step is None:
        return 1
    value = step if isinstance(step, (int, np.integer)) else _static_value(convert_to_tensor(step))
    if value is None:
        raise NotImplementedError(f"Slicing a RaggedTensor with a step that is not known "
                                  f"statically ({step!r}){_where()}")
    if int(value) == 0:
        raise ValueError("slice step cannot be zero")
    return int(value)


def _slice_bound(value, length: Tensor, step: int, is_start: bool) -> Tensor:
    """Python's slice bound ``value`` for sequences of ``length`` (a scalar or one per row),
    vectorized: clipped into [0, length] (step > 0) or [-1, length - 1] (step < 0)."""
    lower = constant(-1 if step < 0 else 0, dtype=length.dtype)
    upper = length - 1 if step < 0 else length
    if value is None:
        return upper if is_start == (step < 0) else lower + array_ops.zeros_like(length)
    v = convert_to_tensor(value)
    if v.dtype != length.dtype:
        v = math_ops.cast(v, length.dtype)
    return math_ops.where(math_ops.less(v, constant(0, dtype=v.dtype)),
                          math_ops.maximum(v + length, lower), math_ops.minimum(v, upper))


def _slice_columns(rt: "RaggedTensor", key: slice) -> "RaggedTensor":
    """``rt[:, key]`` on the ragged dimension 1: each row sliced as a Python list is."""
    step = _static_step(key.step)
    starts, limits = rt.row_starts(), rt.row_limits()
    lengths = limits - starts
    begin = _slice_bound(key.start, lengths, step, True)
    end = _slice_bound(key.stop, lengths, step, False)
    splits, index = apply_op("RaggedRange", [starts + begin, starts + end,
                                             constant(step, dtype=starts.dtype)],
                             {"Tsplits": rt.row_splits_dtype}, name="RaggedRange")
    return RaggedTensor(_gather_rows(rt.values, index), splits, internal=True)


def _gather_rows(x, index: Tensor):
    """The rows ``index`` of ``x`` (a RaggedTensor or a dense tensor), in that order."""
    if not isinstance(x, RaggedTensor):
        return array_ops.gather(x, index)
    starts = array_ops.gather(x.row_starts(), index)
    limits = array_ops.gather(x.row_limits(), index)
    splits, inner = apply_op("RaggedRange", [starts, limits, constant(1, dtype=starts.dtype)],
                             {"Tsplits": x.row_splits_dtype}, name="RaggedRange")
    return RaggedTensor(_gather_rows(x.values, inner), splits, internal=True)


def _bound(value, nrows: Tensor, default):
    """A slice bound as a tensor in [0, nrows] (negative counts from the end)."""
    if value is None:
        return constant(0, dtype=nrows.dtype) if default == 0 else nrows
    v = convert_to_tensor(value)
    if v.dtype != nrows.dtype:
        v = math_ops.cast(v, nrows.dtype)
    zero = constant(0, dtype=nrows.dtype)
    v = math_ops.where(math_ops.less(v, zero), v + nrows, v)
    return math_ops.minimum(math_ops.maximum(v, zero), nrows)


def _nvals(values, dtype) -> Tensor:
    """The number of rows of ``values`` (a Tensor or a RaggedTensor) as a ``dtype`` scalar."""
    if isinstance(values, RaggedTensor):
        return math_ops.cast(values.nrows(), dtype)
    return array_ops.shape(values, out_type=dtype)[0]


def _match_splits_dtype(splits: Tensor, values) -> Tensor:
    if isinstance(values, RaggedTensor) and values.row_splits_dtype != splits.dtype:
        return math_ops.cast(splits, values.row_splits_dtype)
    return splits


def _validate_splits(splits: Tensor, values) -> None:
    """Checks the splits now when their values are known (eagerly, or constants); against
    the number of ``values`` unless they are None (a RowPartition alone)."""
    s = _static_value(splits)
    if s is None:
        return
    if s.ndim != 1 or s.size == 0:
        raise InvalidArgumentError(message=f"row_splits must be a non-empty vector, got {s}"
                                           f"{_where()}")
    if s[0] != 0:
        raise InvalidArgumentError(message=f"Arguments to from_row_splits do not form a valid "
                                           f"RaggedTensor: first element of row_splits must be "
                                           f"zero, got {s.tolist()}{_where()}")
    if np.any(np.diff(s) < 0):
        raise InvalidArgumentError(message=f"Arguments to from_row_splits do not form a valid "
                                           f"RaggedTensor: row_splits must be sorted in "
                                           f"ascending order, got {s.tolist()}{_where()}")
    if values is None:
        return
    if isinstance(values, RaggedTensor):
        n = values._static_nrows()
    else:
        dims = values.shape.as_tuple()
        n = None if not dims else dims[0]
    if n is not None and s[-1] != n:
        raise InvalidArgumentError(message=f"Arguments to from_row_splits do not form a valid "
                                           f"RaggedTensor: last element of row_splits ({s[-1]}) "
                                           f"must equal the number of values ({n}){_where()}")


def _formatter(x):
    """TensorFlow's ragged repr: numpy's text with elements separated by commas."""
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())
    return str(x)


# -- the type ---------------------------------------------------------------------------------

class RaggedTensorSpec(TypeSpec):
    """``tf.RaggedTensorSpec(shape, dtype, ragged_rank, row_splits_dtype)``."""

    __slots__ = ("_shape", "_dtype", "_ragged_rank", "_row_splits_dtype", "_flat_values_spec")

    value_type = RaggedTensor
    _component_names = ("flat_values", "row_splits")

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = as_shape(shape)
        self._dtype = as_dtype(dtype)
        self._row_splits_dtype = as_dtype(row_splits_dtype)
        if self._row_splits_dtype not in _SPLITS_DTYPES:
            raise ValueError(f"row_splits_dtype must be int32 or int64, got "
                             f"{self._row_splits_dtype.name}")
        if flat_values_spec is not None:
            if dtype is not dtypes.float32 and as_dtype(dtype) != flat_values_spec.dtype:
                raise ValueError("dtype and flat_values_spec.dtype are inconsistent")
            self._dtype = flat_values_spec.dtype
        self._flat_values_spec = flat_values_spec
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        ragged_rank = int(ragged_rank)
        if rank is not None and not 0 <= ragged_rank < rank:
            raise ValueError(f"ragged_rank must be in [0, {rank}), got {ragged_rank}")
        if ragged_rank < 0:
            raise ValueError(f"ragged_rank must be non-negative, got {ragged_rank}")
        self._ragged_rank = ragged_rank  # (0: the values are dense tensors, as TensorFlow's)

    @classmethod
    def from_value(cls, value: RaggedTensor) -> "RaggedTensorSpec":
        return value._type_spec

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ragged_rank(self) -> int:
        return self._ragged_rank

    @property
    def row_splits_dtype(self):
        return self._row_splits_dtype

    @property
    def flat_values_spec(self):
        return self._flat_values_spec

    def _serialize(self) -> tuple:
        fields = (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)
        return fields if self._flat_values_spec is None else fields + (self._flat_values_spec,)

    @property
    def _component_specs(self) -> list:
        k = self._ragged_rank
        if k == 0:
            return [TensorSpec(self._shape, self._dtype)]
        if self._flat_values_spec is not None:
            values_spec = self._flat_values_spec
        elif self._shape.rank is None:
            values_spec = TensorSpec(None, self._dtype)
        else:
            values_spec = TensorSpec([None] + list(self._shape.as_tuple()[k + 1:]), self._dtype)
        outer = None if self._shape.rank is None else self._shape.as_tuple()[0]
        specs = [values_spec, TensorSpec([None if outer is None else outer + 1],
                                         self._row_splits_dtype)]
        specs += [TensorSpec([None], self._row_splits_dtype) for _ in range(k - 1)]
        return specs

    def component_names(self, base: str) -> list[str]:
        k = self._ragged_rank
        splits = ["row_splits"] if k == 1 else [f"row_splits_{j}" for j in range(k)]
        return [f"{base}.flat_values"] + [f"{base}.{s}" for s in splits]

    def _from_components(self, tensors) -> RaggedTensor:
        """The value on ``tensors``; a ragged dimension of known size in the spec's shape is a
        uniform row length, as TensorFlow rebuilds it."""
        tensors = list(tensors)
        result = tensors[0]
        dims = self._shape.as_tuple()
        for level in reversed(range(1, len(tensors))):
            splits = tensors[level]
            size = None if dims is None else dims[level]
            length = None if size is None else constant(size, dtype=splits.dtype)
            result = RaggedTensor(result, splits, internal=True, uniform_row_length=length)
        return result

    def _to_components(self, value) -> list:
        return value._components() if isinstance(value, RaggedTensor) else [value]

    def _with_shape(self, shape) -> "RaggedTensorSpec":
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    # -- as a dataset element: one variant component (graph/ops/ragged.py) ------------------
    def _batch(self, batch_size) -> "RaggedTensorSpec":
        """The type of a batch of ``batch_size`` (None: unknown) values of this type."""
        shape = TensorShape(None) if self._shape.rank is None else \
            TensorShape([batch_size] + list(self._shape.as_tuple()))
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank + 1,
                                self._row_splits_dtype)

    def _unbatch(self) -> "RaggedTensorSpec":
        """The type of the rows of a value of this type (ragged_rank 0: dense rows)."""
        shape = TensorShape(None) if self._shape.rank is None else \
            TensorShape(self._shape.as_tuple()[1:])
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank - 1,
                                self._row_splits_dtype)

    @property
    def _dataset_component(self) -> TensorSpec:
        return TensorSpec(None, dtypes.variant)

    def _from_variant(self, variant: Tensor):
        flat = self._component_specs[0].shape
        out = apply_op("RaggedFromVariants", [variant],
                       {"dtype": self._dtype, "ragged_rank": self._ragged_rank,
                        "splits_dtype": self._row_splits_dtype, "flat_shape": flat},
                       name="RaggedFromVariants")
        out = list(out) if isinstance(out, (list, tuple)) else [out]
        return self._from_components(out)

    @staticmethod
    def _to_variant(value, rows: bool = False) -> Tensor:
        """The element's variant: the whole value, or (``rows``) one item per row."""
        parts = value._components() if isinstance(value, RaggedTensor) else [value]
        return apply_op("RaggedToVariant", parts, {"rows": bool(rows)}, name="RaggedToVariant")
