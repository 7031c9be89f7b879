"""Dataset and iterator ops: input pipelines as graph nodes.

A dataset travels through a graph as one ``variant`` tensor whose run-time
value is a ``DatasetValue``: an immutable description of a pipeline that can
start any number of independent iterations (``iterate()``), like
TensorFlow's dataset variants. Building a pipeline is cheap and lazy; data
flows only when an iterator pulls it. Elements are flat tuples of numpy
values (the runtime packs them into the user's structure).

The graph holds the pipeline's construction ops (``TensorSliceDataset``,
``MapDataset`` with its traced function as a library sub-graph...), so a
loop over a dataset is one node whatever the amount of data, and every graph
run starts from the beginning of the data.

What is materialized: ``TensorSliceDataset`` and ``TensorDataset`` hold
their tensors (a constant in the graph when they came from Python data,
exactly as TensorFlow bundles them); ``RangeDataset`` holds three numbers;
``GeneratorDataset`` holds no data at all: its ``token`` attr names a Python
callable in this process (``register_generator``), which makes it the one
op here that a saved graph cannot carry to another process.

Iterators are ``resource`` tensors whose value is a mutable
``IteratorState``: ``IteratorFromDataset`` starts one per graph run,
``IteratorHandle`` names one that outlives runs (``iter(dataset)`` created
outside a function, kept in graph/resources.py like a variable).
"""
from __future__ import annotations

import csv
import itertools
import os
import pickle
import weakref
from typing import Callable, Iterator

import numpy as np

from graph import dtypes, resources
from graph.dtypes import as_array
from graph.errors import (DataLossError, FailedPreconditionError, InvalidArgumentError,
                          NotFoundError, OutOfRangeError)
from graph.ir import TensorType
from graph.ops.random import philox_blocks
from graph.ops.sparse import SparseValue
from graph.registry import register_op
from graph.shapes import TensorShape, as_shape

INFINITE = -1


class DatasetValue:
    """A pipeline description; ``iterate()`` starts a fresh pass over its elements."""

    name = "Dataset"

    def iterate(self) -> Iterator[tuple]:
        raise NotImplementedError

    def cardinality(self) -> int:
        """Number of elements, INFINITE (-1) or UNKNOWN (-2)."""
        return -2

    def __repr__(self) -> str:
        return f"<{self.name}>"


class _Slices(DatasetValue):
    name = "TensorSliceDataset"

    def __init__(self, components):
        self.components = [np.asarray(c) if not isinstance(c, np.ndarray) else c
                           for c in components]
        lengths = {c.shape[0] if c.ndim else None for c in self.components}
        if None in lengths:
            raise InvalidArgumentError(message="from_tensor_slices needs tensors of rank >= 1 "
                                               "to slice along their first dimension")
        if len(lengths) > 1:
            a, b = sorted(lengths)[:2]
            raise InvalidArgumentError(
                message=f"Dimensions {a} and {b} are not compatible: every component of "
                        "from_tensor_slices must have the same first dimension")
        self.n = lengths.pop() if lengths else 0

    def iterate(self):
        comps = self.components
        for i in range(self.n):
            yield tuple(c[i] for c in comps)

    def cardinality(self):
        return self.n


class _Tensors(DatasetValue):
    name = "TensorDataset"

    def __init__(self, components):
        self.components = tuple(components)

    def iterate(self):
        yield self.components

    def cardinality(self):
        return 1


class _TextLines(DatasetValue):
    """The lines of each file in turn, without their line endings (\\n or \\r\\n)."""
    name = "TextLineDataset"

    def __init__(self, filenames):
        self.filenames = [bytes(f) for f in np.asarray(filenames, dtype=object).reshape(-1)]

    def iterate(self):
        for filename in self.filenames:
            try:
                with open(filename, "rb") as f:
                    for line in f:
                        yield (np.asarray(line.rstrip(b"\n").removesuffix(b"\r"), dtype=object),)
            except OSError as e:
                raise NotFoundError(message=f"{filename.decode(errors='replace')}; "
                                            f"{e.strerror or 'No such file or directory'}") from e


class _CsvRecords(DatasetValue):
    """The records of CSV files, one tuple of scalars per line after ``header``: fields
    ``select_cols`` (all when empty; then a line must have exactly one per default) parsed
    as their default's dtype; an empty field (or ``na_value``) takes the default, and is an
    error when the default is empty (required)."""
    name = "CSVDataset"

    def __init__(self, filenames, *defaults, header, field_delim, use_quote_delim, na_value,
                 select_cols):
        self.filenames = [bytes(f) for f in np.asarray(filenames, dtype=object).reshape(-1)]
        self.defaults = [np.asarray(d) for d in defaults]
        self.header, self.na_value = bool(header), na_value
        self.select_cols = list(select_cols)
        self.reader_args = dict(delimiter=field_delim, quoting=csv.QUOTE_MINIMAL
                                if use_quote_delim else csv.QUOTE_NONE)

    def _fields(self, fields: list) -> list:
        if not self.select_cols:
            if len(fields) != len(self.defaults):
                raise InvalidArgumentError(message=f"Expect {len(self.defaults)} fields but "
                                                   f"have {len(fields)} in record")
            return fields
        if len(fields) <= self.select_cols[-1]:
            present = sum(c < len(fields) for c in self.select_cols)
            raise InvalidArgumentError(message=f"Expect {len(self.select_cols)} fields but "
                                               f"have {present} in record")
        return [fields[c] for c in self.select_cols]

    def _parse(self, j: int, field: str):
        default = self.defaults[j]
        if field in ("", self.na_value):
            if default.size == 0:
                raise InvalidArgumentError(message=f"Field {j} is required but missing in record!")
            return default.reshape(-1)[0]
        if default.dtype == object:
            return np.asarray(field.encode(), dtype=object)
        try:
            return default.dtype.type(int(field) if default.dtype.kind == "i" else float(field))
        except (ValueError, OverflowError):
            raise InvalidArgumentError(message=f"Field {j} in record is not a valid "
                                               f"{default.dtype.name}: {field}") from None

    def iterate(self):
        for filename in self.filenames:
            try:
                with open(filename, "r", newline="") as f:
                    rows = csv.reader(f, **self.reader_args)
                    if self.header:
                        next(rows, None)
                    for fields in rows:
                        yield tuple(self._parse(j, field)
                                    for j, field in enumerate(self._fields(fields or [""])))
            except OSError as e:
                raise NotFoundError(message=f"{filename.decode(errors='replace')}; "
                                            f"{e.strerror or 'No such file or directory'}") from e


class _Range(DatasetValue):
    name = "RangeDataset"

    def __init__(self, start, stop, step, dtype):
        self.start, self.stop, self.step = int(start), int(stop), int(step)
        if self.step == 0:
            raise InvalidArgumentError(message="Dataset.range: step must not be 0")
        self.dtype = dtype

    def iterate(self):
        t = self.dtype.numpy_dtype.type
        for v in range(self.start, self.stop, self.step):
            yield (t(v),)

    def cardinality(self):
        return len(range(self.start, self.stop, self.step))


class _Count(DatasetValue):
    """start, start+step, ... without end (what ``enumerate`` zips with; ``Counter``)."""

    name = "RangeDataset"

    def __init__(self, start, step=np.int64(1)):
        self.start, self.step, self.dtype = int(start), int(step), np.asarray(start).dtype

    def iterate(self):
        for v in itertools.count(self.start, self.step):
            yield (np.asarray(v, dtype=self.dtype),)

    def cardinality(self):
        return INFINITE


_GENERATORS: dict[int, Callable] = {}
_generator_tokens = itertools.count(1)


def register_generator(fn: Callable) -> int:
    """Keeps a Python callable that yields flat element tuples; returns its token."""
    token = next(_generator_tokens)
    _GENERATORS[token] = fn
    return token


def _check_element(values, types, shapes, where: str) -> tuple:
    if len(values) != len(types):
        raise InvalidArgumentError(
            message=f"{where} produced an element with {len(values)} components, but "
                    f"{len(types)} were declared")
    out = []
    for v, t, s in zip(values, types, shapes):
        try:
            arr = as_array(v, t)
        except (TypeError, ValueError) as e:
            raise InvalidArgumentError(
                message=f"{where} produced {v!r}, which cannot be converted to {t.name}: {e}"
            ) from None
        given = np.asarray(v)
        kind = given.dtype.kind if given.size else None  # ([] is any dtype's empty list)
        # numpy floats truncate to integers as TensorFlow's conversion does; Python floats
        # and numbers for strings (or strings for numbers) are refused, as there
        if (t.is_integer or t.is_bool) and kind == "f" and not isinstance(v, (np.ndarray,
                                                                             np.generic)):
            raise InvalidArgumentError(
                message=f"{where} produced a float value {v!r} where {t.name} was declared")
        if kind is not None and (t is dtypes.string) != (kind in "SUO") and \
                t is not dtypes.variant:
            raise InvalidArgumentError(
                message=f"{where} produced {v!r} where {t.name} was declared")
        if not as_shape(s).is_compatible_with(arr.shape):
            raise InvalidArgumentError(
                message=f"{where} yielded an element of shape {TensorShape(arr.shape)} where an "
                        f"element of shape {as_shape(s)} was expected.")
        out.append(arr[()] if arr.ndim == 0 and t is not dtypes.string else arr)
    return tuple(out)


class _Generator(DatasetValue):
    name = "FlatMapDataset"

    def __init__(self, token, types, shapes):
        if token not in _GENERATORS:
            raise InvalidArgumentError(
                message=f"GeneratorDataset {token}: its Python generator is not registered in "
                        "this process (a from_generator dataset cannot be saved and restored)")
        self.fn, self.types, self.shapes = _GENERATORS[token], list(types), list(shapes)

    def iterate(self):
        for flat in self.fn():
            yield _check_element(flat, self.types, self.shapes, "`generator`")


class _Map(DatasetValue):
    name = "MapDataset"

    def __init__(self, source, fn, captured):
        self.source, self.fn, self.captured = source, fn, tuple(captured)

    def iterate(self):
        fn, captured = self.fn, self.captured
        for element in self.source.iterate():
            yield tuple(fn(*element, *captured))

    def cardinality(self):
        return self.source.cardinality()


class _FlatMap(DatasetValue):
    """The elements of the dataset ``fn`` makes of each element, one dataset after another."""
    name = "FlatMapDataset"

    def __init__(self, source, fn, captured):
        self.source, self.fn, self.captured = source, fn, tuple(captured)

    def iterate(self):
        fn, captured = self.fn, self.captured
        for element in self.source.iterate():
            yield from as_object(fn(*element, *captured)[0]).iterate()


class _Interleave(DatasetValue):
    """TensorFlow's interleave: ``cycle_length`` inner datasets open at once, ``block_length``
    elements from each in turn; a slot whose dataset ends is refilled when next visited."""
    name = "InterleaveDataset"

    def __init__(self, source, fn, captured, cycle_length, block_length):
        self.source, self.fn, self.captured = source, fn, tuple(captured)
        self.cycle, self.block = int(cycle_length), int(block_length)
        if self.cycle <= 0 or self.block <= 0:
            raise InvalidArgumentError(message="cycle_length and block_length must be positive")

    def iterate(self):
        inputs = self.source.iterate()

        def open_next():
            for element in inputs:
                return as_object(self.fn(*element, *self.captured)[0]).iterate()
            return None
        slots: list = [None] * self.cycle  # opened lazily, refilled when next visited
        k = block = num_open = 0
        end_of_input = False
        while not end_of_input or num_open:
            if slots[k] is not None:
                element = next(slots[k], None)
                if element is not None:
                    block += 1
                    if block == self.block:
                        block, k = 0, (k + 1) % self.cycle
                    yield element
                    continue
                slots[k], num_open = None, num_open - 1
            elif not end_of_input:
                slots[k] = open_next()
                if slots[k] is None:
                    end_of_input = True
                else:
                    num_open += 1
                continue
            block, k = 0, (k + 1) % self.cycle


class _Listed(DatasetValue):
    """Elements held in a list (one window of ``Dataset.window``)."""
    name = "VariantDataset"

    def __init__(self, elements: list):
        self.elements = elements

    def iterate(self):
        yield from self.elements

    def cardinality(self):
        return len(self.elements)


class _GroupByWindow(DatasetValue):
    """``group_by_window`` over elements ``(key, window_size, *element)``: each key's
    elements gather until their window is full, then ``fn(key, window)`` gives a dataset
    whose elements follow; at the end the partial windows go in increasing key order."""
    name = "GroupByWindowDataset"

    def __init__(self, source, fn, captured):
        self.source, self.fn, self.captured = source, fn, tuple(captured)

    def _reduce(self, key, window):
        return as_object(self.fn(np.int64(key), _Listed(window), *self.captured)[0]).iterate()

    def iterate(self):
        groups: dict = {}
        for key, size, *element in self.source.iterate():
            if size <= 0:
                raise InvalidArgumentError(message=f"Window size must be greater than zero, "
                                                   f"but got {size}.")
            window = groups.setdefault(int(key), [])
            window.append(tuple(element))
            if len(window) >= size:
                del groups[int(key)]
                yield from self._reduce(key, window)
        for key in sorted(groups):
            yield from self._reduce(key, groups[key])


class _Window(DatasetValue):
    """Windows of ``size`` elements ``stride`` apart, starting every ``shift`` elements; each
    element is one dataset per component. Reads the input lazily (it may be infinite)."""
    name = "WindowDataset"

    def __init__(self, source, size, shift, stride, drop_remainder):
        self.source, self.drop = source, bool(drop_remainder)
        self.size, self.shift, self.stride = int(size), int(shift), int(stride)
        for what, v in (("size", self.size), ("shift", self.shift), ("stride", self.stride)):
            if v <= 0:
                raise InvalidArgumentError(message=f"Window {what} must be greater than zero.")

    def iterate(self):
        it = self.source.iterate()
        buf: list = []
        base = start = 0  # buf[0] is input element number ``base``
        exhausted = False
        while True:
            last = start + (self.size - 1) * self.stride
            while not exhausted and base + len(buf) <= last:
                element = next(it, None)
                if element is None:
                    exhausted = True
                else:
                    buf.append(element)
            picked = [buf[i - base] for i in range(start, last + 1, self.stride)
                      if i < base + len(buf)]
            if not picked or (self.drop and len(picked) < self.size):
                return
            yield tuple(_Listed([(e[c],) for e in picked]) for c in range(len(picked[0])))
            start += self.shift
            drop = min(start - base, len(buf))
            del buf[:drop]
            base += drop
            while base < start and not exhausted:
                if next(it, None) is None:
                    exhausted = True
                else:
                    base += 1


class _Shard(DatasetValue):
    """Every ``num_shards``-th element, starting at ``index``."""
    name = "ShardDataset"

    def __init__(self, source, num_shards, index):
        self.source, self.num, self.index = source, int(num_shards), int(index)
        if self.num <= 0:
            raise InvalidArgumentError(message=f"Number of shards must be greater than zero "
                                               f"(currently num_shards = {self.num}).")
        if not 0 <= self.index < self.num:
            raise InvalidArgumentError(message=f"Index must be between 0 and {self.num - 1} "
                                               f"(currently index = {self.index}).")

    def iterate(self):
        return itertools.islice(self.source.iterate(), self.index, None, self.num)

    def cardinality(self):
        n = self.source.cardinality()
        return n if n < 0 else n // self.num + (1 if self.index < n % self.num else 0)


def write_elements(path: str, elements: list) -> None:
    """Stores flat elements (numpy values and variant items) in the file ``path``."""
    with open(path, "wb") as f:
        pickle.dump(elements, f, protocol=pickle.HIGHEST_PROTOCOL)


def read_elements(path: str) -> list:
    with open(path, "rb") as f:
        return pickle.load(f)


class _AssertCardinality(DatasetValue):
    """The input's elements, failing when there are not exactly ``count`` of them (so its
    cardinality is ``count``)."""
    name = "AssertCardinalityDataset"

    def __init__(self, source, count):
        self.source, self.count = source, int(count)

    def _error(self, seen: str):
        s = "" if self.count == 1 else "s"
        return FailedPreconditionError(message=f"Input dataset was expected to contain "
                                               f"{self.count} element{s} but contained {seen}.")

    def iterate(self):
        n = 0
        for element in self.source.iterate():
            n += 1
            if n > self.count:
                raise self._error(f"at least {n} element{'' if n == 1 else 's'}")
            yield element
        if n < self.count:
            raise self._error(f"only {n} element{'' if n == 1 else 's'}")

    def cardinality(self):
        return self.count


class _Loaded(DatasetValue):
    """The elements ``Dataset.save`` wrote to the file ``path`` (read at every pass)."""
    name = "LoadDataset"

    def __init__(self, path):
        if not os.path.exists(path):
            raise NotFoundError(message=f"Could not find a saved dataset in {path}")
        self.path = path

    def iterate(self):
        yield from read_elements(self.path)

    def cardinality(self):
        return len(read_elements(self.path))


class _Cache(DatasetValue):
    """The input's elements, read once: the first complete pass is kept in memory (or, with
    a ``filename``, in the file ``filename.index``, which any later pass of any dataset
    caching to it reads) and later passes replay it; a pass left unfinished keeps nothing,
    as in TensorFlow."""
    name = "CacheDataset"

    def __init__(self, source, filename=""):
        self.source, self.cached = source, None
        self.file = str(as_object(filename).decode() if isinstance(
            as_object(filename), bytes) else as_object(filename))
        self.file = self.file + ".index" if self.file else ""

    def iterate(self):
        if self.cached is None and self.file and os.path.exists(self.file):
            self.cached = read_elements(self.file)
        if self.cached is not None:
            yield from self.cached
            return
        seen = []
        for element in self.source.iterate():
            seen.append(element)
            yield element
        if self.file:
            write_elements(self.file, seen)
        self.cached = seen

    def cardinality(self):
        return self.source.cardinality()


class _Scan(DatasetValue):
    """``fn(state..., element...) -> (new state..., output...)`` over the elements; the
    first ``n_state`` of ``captured`` start the state."""
    name = "ScanDataset"

    def __init__(self, source, fn, captured, n_state):
        self.source, self.fn = source, fn
        self.initial, self.captured = tuple(captured[:n_state]), tuple(captured[n_state:])

    def iterate(self):
        state = self.initial
        for element in self.source.iterate():
            out = tuple(self.fn(*state, *element, *self.captured))
            state, result = out[:len(state)], out[len(state):]
            yield result

    def cardinality(self):
        return self.source.cardinality()


def _single_element(dataset, output_types, output_shapes):
    """The one element of ``dataset`` (TensorFlow's DatasetToSingleElement)."""
    it = as_object(dataset).iterate()
    element = next(it, None)
    if element is None:
        raise InvalidArgumentError(message="Dataset was empty.")
    if next(it, None) is not None:
        raise InvalidArgumentError(message="Dataset had more than one element.")
    return element[0] if len(output_types) == 1 else element


class _Filter(DatasetValue):
    name = "FilterDataset"

    def __init__(self, source, fn, captured):
        self.source, self.fn, self.captured = source, fn, tuple(captured)

    def iterate(self):
        fn, captured = self.fn, self.captured
        for element in self.source.iterate():
            if fn(*element, *captured)[0]:
                yield element


class _TakeWhile(_Filter):
    """The elements before the first one ``fn`` rejects."""
    name = "TakeWhileDataset"

    def iterate(self):
        fn, captured = self.fn, self.captured
        for element in self.source.iterate():
            if not fn(*element, *captured)[0]:
                return
            yield element


class _Batch(DatasetValue):
    name = "BatchDataset"

    def __init__(self, source, batch_size, drop_remainder):
        self.source, self.size, self.drop = source, int(batch_size), bool(drop_remainder)
        if self.size <= 0:
            raise InvalidArgumentError(message=f"Dataset.batch: batch_size must be greater than "
                                               f"zero, got {self.size}")

    def iterate(self):
        batch = []
        for element in self.source.iterate():
            batch.append(element)
            if len(batch) == self.size:
                yield self._stack(batch)
                batch = []
        if batch and not self.drop:
            yield self._stack(batch)

    def _stack(self, batch: list) -> tuple:
        return _stack_batch(batch)

    def cardinality(self):
        n = self.source.cardinality()
        if n < 0:
            return n
        return n // self.size if self.drop else -(-n // self.size)


class _DenseToSparseBatch(_Batch):
    """Batches of elements (one tensor each, every entry kept, zeros too) as one sparse
    tensor of dense shape ``[n] + row_shape``."""
    name = "DenseToSparseBatchDataset"

    def __init__(self, source, batch_size, row_shape):
        super().__init__(source, batch_size, False)
        self.row_shape = [int(d) for d in np.asarray(row_shape).reshape(-1)]

    def _stack(self, batch: list) -> tuple:
        row, show = self.row_shape, lambda dims: "[" + ",".join(str(d) for d in dims) + "]"
        indices, values = [], []
        for b, (element,) in enumerate(batch):
            x = np.asarray(element)
            if x.ndim != len(row):
                raise InvalidArgumentError(
                    message=f"Input element had shape ({show(x.shape)}) that is incompatible "
                            f"with the row shape ({show(row)}).")
            if any(d > r for d, r in zip(x.shape, row)):
                raise DataLossError(message=f"Input element had shape ({show(x.shape)}) that is "
                                            f"larger than the row shape ({show(row)}).")
            at = np.indices(x.shape).reshape(x.ndim, -1).T
            indices.append(np.concatenate([np.full((len(at), 1), b), at], axis=1))
            values.append(x.reshape(-1))
        return (SparseValue(np.concatenate(indices).astype(np.int64), np.concatenate(values),
                            [len(batch)] + row),)


def _stack_batch(batch: list) -> tuple:
    out = []
    for k in range(len(batch[0])):
        parts = [np.asarray(e[k]) for e in batch]
        first = parts[0].shape
        for j, p in enumerate(parts):
            if p.shape != first:
                raise InvalidArgumentError(
                    message=f"Cannot batch tensors with different shapes in component {k}. "
                            f"First element had shape {list(first)} and element {j} had shape "
                            f"{list(p.shape)}.")
        out.append(np.stack(parts))
    return tuple(out)


class _PaddedBatch(_Batch):
    """Batches elements padded to ``shapes`` (None: the largest in the batch) with ``values``."""
    name = "PaddedBatchDataset"

    def __init__(self, source, batch_size, drop_remainder, shapes, values):
        super().__init__(source, batch_size, drop_remainder)
        self.shapes, self.values = shapes, values

    def _stack(self, batch: list) -> tuple:
        out = []
        for k, (shape, pad) in enumerate(zip(self.shapes, self.values)):
            parts = [np.asarray(e[k]) for e in batch]
            if any(p.ndim != len(shape) for p in parts):
                raise InvalidArgumentError(
                    message=f"Cannot pad component {k}: the padded shape {list(shape)} has "
                            f"rank {len(shape)} but an element has shape "
                            f"{list(parts[0].shape)}")
            dims = [max(p.shape[d] for p in parts) if n is None else n
                    for d, n in enumerate(shape)]
            if any(p.shape[d] > dims[d] for p in parts for d in range(len(dims))):
                raise DataLossError(message="Attempted to pad to a smaller size than the input "
                                            "element.")
            full = np.full([len(parts)] + dims, pad, dtype=parts[0].dtype)
            for j, p in enumerate(parts):
                full[(j,) + tuple(slice(0, n) for n in p.shape)] = p
            out.append(full)
        return tuple(out)


class _Unbatch(DatasetValue):
    """The rows of each element (components split along their first dimension)."""
    name = "UnbatchDataset"

    def __init__(self, source):
        self.source = source

    def iterate(self):
        for element in self.source.iterate():
            rows = {np.shape(c)[0] for c in element}
            if len(rows) != 1:
                raise InvalidArgumentError(
                    message="Input element must have the same batch size in each component. "
                            f"Component 0 had size {np.shape(element[0])[0]} but another "
                            f"component had size {sorted(rows - {np.shape(element[0])[0]})[0]}.")
            for i in range(rows.pop()):
                yield tuple(np.asarray(c)[i] for c in element)


class _Unique(DatasetValue):
    """Each scalar element the first time it comes (``Dataset.unique``)."""
    name = "UniqueDataset"

    def __init__(self, source):
        self.source = source

    def iterate(self):
        seen = set()
        for element in self.source.iterate():
            value = np.asarray(element[0])
            if value.ndim:
                raise InvalidArgumentError(
                    message=f"Unique elements must be scalars, got an element of shape "
                            f"{list(value.shape)}")
            key = value.item()
            if key not in seen:
                seen.add(key)
                yield element


class _Take(DatasetValue):
    name = "TakeDataset"

    def __init__(self, source, count):
        self.source, self.count = source, int(count)

    def iterate(self):
        it = self.source.iterate()
        return it if self.count < 0 else itertools.islice(it, self.count)

    def cardinality(self):
        n = self.source.cardinality()
        if self.count < 0:
            return n
        return self.count if n == INFINITE else (min(n, self.count) if n >= 0 else n)


class _Skip(DatasetValue):
    name = "SkipDataset"

    def __init__(self, source, count):
        self.source, self.count = source, int(count)

    def iterate(self):
        it = self.source.iterate()
        if self.count < 0:
            for _ in it:
                pass
            return iter(())
        return itertools.islice(it, self.count, None)

    def cardinality(self):
        n = self.source.cardinality()
        if n < 0:
            return n
        return 0 if self.count < 0 else max(n - self.count, 0)


class _Shuffle(DatasetValue):
    """TensorFlow's shuffle, value for value: a ring buffer of ``buffer_size`` refilled before
    each draw; the element at a random offset (Philox bits ``% count``) is produced and its
    slot takes the oldest element. Each pass's Philox seeds are the next two words of a seed
    stream made from (seed, seed2) (TF's RandomSeedGenerator), or (seed, seed2) themselves
    when not reshuffling; (0, 0) means fresh entropy."""

    name = "ShuffleDataset"

    def __init__(self, source, buffer_size, seed, seed2, reshuffle):
        self.source, self.buffer_size = source, int(buffer_size)
        if self.buffer_size <= 0:
            raise InvalidArgumentError(message="Dataset.shuffle: buffer_size must be greater than "
                                               f"zero, got {self.buffer_size}")
        seed, seed2 = int(seed), int(seed2)
        if seed == 0 and seed2 == 0:
            seed, seed2 = (int(v) for v in np.random.default_rng().integers(
                1, 1 << 63, size=2, dtype=np.int64))
        self.seeds, self.reshuffle = (seed, seed2), bool(reshuffle)
        self._seed_words = _uint32_stream(seed, seed2)
        self._words: list[int] = []  # the seed stream's words drawn so far
        self.passes = 0  # passes started: pass k takes words 2k and 2k+1 (a checkpointed
        # iterator replays its pass with the count it started at)

    def iterate(self):
        seeds = self._pass_seeds() if self.reshuffle else self.seeds
        draws = _uint32_stream(*seeds)
        size = self.buffer_size
        buffer: list = [None] * size
        start = end = 0  # buffer[start % size .. end % size) holds the waiting elements
        source = self.source.iterate()
        exhausted = False
        while True:
            while not exhausted and end - start < size:
                element = next(source, None)
                if element is None:
                    exhausted = True
                else:
                    buffer[end % size] = element
                    end += 1
            if start == end:
                return
            index = (start + next(draws) % (end - start)) % size
            element = buffer[index]
            buffer[index], buffer[start % size] = buffer[start % size], None
            start += 1
            yield element

    def _pass_seeds(self) -> tuple[int, int]:
        k, words = self.passes, self._words
        self.passes += 1
        while len(words) < 2 * k + 2:
            words.append(next(self._seed_words))
        return words[2 * k], words[2 * k + 1]

    def cardinality(self):
        return self.source.cardinality()


def _uint32_stream(seed: int, seed2: int) -> Iterator[int]:
    """Philox words for key ``seed`` and counter ``[0, seed2]``, one at a time."""
    key, high = seed & 0xFFFFFFFFFFFFFFFF, seed2 & 0xFFFFFFFFFFFFFFFF
    for block in itertools.count():
        yield from (int(w) for w in philox_blocks(key, (block, high), 1)[0])


class _RandomInts(DatasetValue):
    """``Dataset.random``: Philox words for (seed, seed2) as int64s, the same on every pass
    (TensorFlow's RandomDataset without rerandomizing); (0, 0) means fresh entropy."""
    name = "RandomDataset"

    def __init__(self, seed, seed2):
        self.seeds = (int(seed), int(seed2))
        if self.seeds == (0, 0):
            self.seeds = tuple(int(v) for v in np.random.default_rng().integers(
                1, 1 << 63, size=2, dtype=np.int64))

    def iterate(self):
        for word in _uint32_stream(*self.seeds):
            yield (np.int64(word),)

    def cardinality(self):
        return INFINITE


class _DirectedInterleave(DatasetValue):
    """``choose_from_datasets``: the next element of ``datasets[i]`` for each ``i`` of the
    selector; an exhausted input ends the whole (``stop_on_empty_dataset``) or is skipped."""
    name = "DirectedInterleaveDataset"

    def __init__(self, selector, datasets, stop_on_empty_dataset):
        self.selector, self.datasets = selector, datasets
        self.stop_on_empty = bool(stop_on_empty_dataset)

    def iterate(self):
        inputs = [d.iterate() for d in self.datasets]
        active = len(inputs)
        for (index,) in self.selector.iterate():
            if not 0 <= index < len(inputs):
                raise InvalidArgumentError(message=f"Selector index out of range: {index} >= "
                                                   f"{len(inputs)}")
            if inputs[index] is None:
                continue
            element = next(inputs[index], None)
            if element is not None:
                yield element
                continue
            if self.stop_on_empty:
                return
            inputs[index], active = None, active - 1
            if not active:
                return


class _Zip(DatasetValue):
    name = "ZipDataset"

    def __init__(self, sources):
        self.sources = list(sources)

    def iterate(self):
        for parts in zip(*(s.iterate() for s in self.sources)):
            yield tuple(v for p in parts for v in p)

    def cardinality(self):
        ns = [s.cardinality() for s in self.sources]
        finite = [n for n in ns if n >= 0]
        if finite:
            return min(finite)
        return -2 if -2 in ns else INFINITE


class _Concatenate(DatasetValue):
    name = "ConcatenateDataset"

    def __init__(self, first, second):
        self.first, self.second = first, second

    def iterate(self):
        return itertools.chain(self.first.iterate(), self.second.iterate())

    def cardinality(self):
        a, b = self.first.cardinality(), self.second.cardinality()
        if a == INFINITE or b == INFINITE:
            return INFINITE
        return a + b if a >= 0 and b >= 0 else -2


class _Repeat(DatasetValue):
    name = "RepeatDataset"

    def __init__(self, source, count):
        self.source, self.count = source, int(count)

    def iterate(self):
        passes = itertools.count() if self.count < 0 else range(self.count)
        for _ in passes:
            empty = True
            for element in self.source.iterate():
                empty = False
                yield element
            if empty:
                return

    def cardinality(self):
        n = self.source.cardinality()
        if self.count < 0:
            return 0 if n == 0 else INFINITE
        return n * self.count if n >= 0 else n


class IteratorState:
    """One pass over a dataset; ``next()`` returns the next flat element or None.

    Its position is how many elements it gave and the pass counts of the
    pipeline's shuffles when it started: ``restore`` replays that pass to the
    same point (a checkpointed ``tf.data.Iterator``), which gives the same
    elements as long as the pipeline's functions are deterministic.
    """

    def __init__(self, dataset: DatasetValue):
        self.dataset = dataset
        self._it = None
        self._done = False
        self.consumed = 0
        self._start: list[int] | None = None  # the shuffles' pass counts at the first next()

    def next(self):
        if self._done:
            return None
        if self._it is None:
            self._start = [node.passes for node in _shuffles(self.dataset)]
            self._it = iter(self.dataset.iterate())
        try:
            element = next(self._it)
        except StopIteration:
            self._done = True
            self._it = None
            return None
        self.consumed += 1
        return element

    def position(self) -> tuple[int, list[int]]:
        """(elements given, the shuffles' pass counts when the pass started)."""
        start = self._start
        return self.consumed, [n.passes for n in _shuffles(self.dataset)] if start is None \
            else start

    def restore(self, consumed: int, start: list[int]) -> None:
        """Moves to ``position()`` ``(consumed, start)`` by replaying the pass from its start
        (the shuffles' pass counts end where that replay leaves them)."""
        shuffles = _shuffles(self.dataset)
        if len(start) != len(shuffles):
            raise InvalidArgumentError(message=(
                f"The checkpointed iterator state is for a pipeline with {len(start)} shuffles, "
                f"this iterator's pipeline has {len(shuffles)}: restore it into an iterator "
                "over the same dataset."))
        for node, count in zip(shuffles, start):  # (their state is restored too, as in
            node.passes = count                   # TensorFlow: later passes replay as well)
        self._it, self._done, self.consumed = None, False, 0
        while self.consumed < consumed and self.next() is not None:
            pass


def _shuffles(dataset: DatasetValue) -> list:
    """The reshuffling shuffles of a pipeline, in a fixed (depth-first) order."""
    found, seen, stack = [], set(), [dataset]
    while stack:
        node = stack.pop()
        if id(node) in seen:
            continue
        seen.add(id(node))
        if isinstance(node, _Shuffle) and node.reshuffle:
            found.append(node)
        for value in reversed(list(vars(node).values())):
            if isinstance(value, DatasetValue):
                stack.append(value)
            elif isinstance(value, (list, tuple)):
                stack.extend(v for v in reversed(value) if isinstance(v, DatasetValue))
    return found

    def __repr__(self) -> str:
        return f"<Iterator over {self.dataset!r}>"


def as_object(value):
    """Unwraps the 0-d object array an eager variant becomes when captured as a Const."""
    if isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 0:
        return value[()]
    return value


# -- inference -------------------------------------------------------------------

def _variant(inputs=None, attrs=None):
    return [TensorType(dtypes.variant, TensorShape([]))]


def _resource(inputs=None, attrs=None):
    return [TensorType(dtypes.resource, TensorShape([]))]


def _expect(op: str, x, dtype, what: str = "input 0") -> None:
    if x.dtype is not dtype:
        raise InvalidArgumentError(
            message=f"{op}: {what} must be a {dtype.name} tensor, got {x.dtype.name}")


def _expect_scalar(op: str, x, kind: str, what: str) -> None:
    ok = x.dtype.is_integer if kind == "int" else x.dtype.is_string if kind == "string" \
        else x.dtype.is_bool
    if not ok or x.shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message=f"{op}: {what} must be a scalar {kind}, got {x.dtype.name} tensor of shape "
                    f"{x.shape}")


def _slices_infer(inputs, attrs):
    firsts = set()
    for x in inputs:
        if x.shape.rank == 0:
            raise InvalidArgumentError(
                message="Unbatching a tensor is only supported for rank >= 1 "
                        "(from_tensor_slices got a scalar component)")
        if x.shape.rank is not None and x.shape[0] is not None:
            firsts.add(x.shape[0])
    if len(firsts) > 1:
        a, b = sorted(firsts)[:2]
        raise InvalidArgumentError(message=f"Dimensions {a} and {b} are not compatible: every "
                                           "component of from_tensor_slices must have the same "
                                           "first dimension")
    return _variant()


def _text_lines_infer(inputs, attrs):
    if len(inputs) != 1 or not inputs[0].dtype.is_string or inputs[0].shape.rank not in (
            None, 0, 1):
        raise InvalidArgumentError(message="TextLineDataset: `filenames` must be a string scalar "
                                           "or vector")
    return _variant()


def _csv_infer(inputs, attrs):
    _text_lines_infer(inputs[:1], attrs)
    for i, d in enumerate(inputs[1:]):
        if d.shape.rank not in (None, 0, 1) or d.dtype.name not in (
                "float32", "float64", "int32", "int64", "string"):
            raise InvalidArgumentError(message=f"CSVDataset: record_defaults[{i}] must be a "
                                               "scalar or empty vector of float, int or string")
    return _variant()


def _random_dataset_infer(inputs, attrs):
    for x, what in zip(inputs, ("seed", "seed2")):
        _expect_scalar("RandomDataset", x, "int", what)
    return _variant()


def _directed_interleave_infer(inputs, attrs):
    if len(inputs) < 2:
        raise InvalidArgumentError(message="DirectedInterleaveDataset needs a selector and at "
                                           "least one input dataset")
    return _datasets_infer("DirectedInterleaveDataset")(inputs, attrs)


def _range_infer(inputs, attrs):
    for x, what in zip(inputs, ("start", "stop", "step")):
        _expect_scalar("RangeDataset", x, "int", what)
    return _variant()


def _unary_dataset_infer(op: str, scalars=()):
    def infer(inputs, attrs):
        _expect(op, inputs[0], dtypes.variant)
        for x, (kind, what) in zip(inputs[1:], scalars):
            _expect_scalar(op, x, kind, what)
        return _variant()
    return infer


def _datasets_infer(op: str):
    def infer(inputs, attrs):
        for i, x in enumerate(inputs):
            _expect(op, x, dtypes.variant, f"input {i}")
        return _variant()
    return infer


def _element_types(attrs) -> list[TensorType]:
    return [TensorType(t, as_shape(s)) for t, s in zip(attrs["output_types"],
                                                       attrs["output_shapes"])]


def _get_next_infer(inputs, attrs):
    _expect("IteratorGetNext", inputs[0], dtypes.resource)
    return _element_types(attrs)


def _try_get_next_infer(inputs, attrs):
    _expect("IteratorTryGetNext", inputs[0], dtypes.resource)
    return [TensorType(dtypes.bool_, TensorShape([]))] + _element_types(attrs)


# -- kernels ------------------------------------------------------------------------

def _function_kernel(make: Callable):
    """A kernel for ops with a traced function attr ``f``: eager (compiled once) and staged."""
    compiled: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()

    def eager(dataset, *captured, f):
        fn = compiled.get(f)
        if fn is None:
            from graph.executor import compile_graph
            fn = compiled[f] = compile_graph(f).fn
        return make(as_object(dataset), fn, captured)

    def build(node, compile_subgraph):
        fn = compile_subgraph(node.attrs["f"])
        return lambda dataset, *captured: make(as_object(dataset), fn, captured)
    return eager, build


def _iterator_from_dataset(dataset):
    return IteratorState(as_object(dataset))


def _iterator_handle(resource_id):
    state = resources.read(resource_id)
    if not isinstance(state, IteratorState):
        raise InvalidArgumentError(message=f"Resource {resource_id} is not an iterator")
    return state


def _get_next(iterator, output_types, output_shapes):
    element = as_object(iterator).next()
    if element is None:
        raise OutOfRangeError(message="End of sequence")
    return element[0] if len(output_types) == 1 else element


def _placeholder_value(dtype, shape):
    shape = as_shape(shape)
    dims = [] if shape.rank is None else [0 if d is None else d for d in shape.as_list()]
    if dtype is dtypes.string:
        return np.full(dims, b"", dtype=object)
    value = np.zeros(dims, dtype=dtype.numpy_dtype)
    return value[()] if value.ndim == 0 else value


def _try_get_next(iterator, output_types, output_shapes):
    """(True, element...) or, at the end, (False, zeros standing in for an element)."""
    element = as_object(iterator).next()
    if element is None:
        return (np.bool_(False),) + tuple(_placeholder_value(t, s)
                                          for t, s in zip(output_types, output_shapes))
    return (np.bool_(True),) + tuple(element)


register_op("TensorSliceDataset", _slices_infer, lambda *c: _Slices(c))
register_op("TensorDataset", lambda i, a: _variant(), lambda *c: _Tensors(c))
register_op("RangeDataset", _range_infer,
                  lambda start, stop, step, output_type: _Range(start, stop, step, output_type),
                  kernel_attrs=("output_type",))
register_op("CounterDataset", lambda i, a: _variant(), _Count)
register_op("GeneratorDataset", lambda i, a: _variant(),
                  lambda token, output_types, output_shapes:
                  _Generator(token, output_types, output_shapes),
                  kernel_attrs=("token", "output_types", "output_shapes"))
def _function_dataset_infer(op: str):
    def infer(inputs, attrs):
        _expect(op, inputs[0], dtypes.variant)
        return _variant()
    return infer


for _op, _make in (("MapDataset", _Map), ("FilterDataset", _Filter),
                  ("TakeWhileDataset", _TakeWhile),
                  ("FlatMapDataset", _FlatMap), ("GroupByWindowDataset", _GroupByWindow)):
    _eager, _build = _function_kernel(_make)
    register_op(_op, _function_dataset_infer(_op), _eager, kernel_attrs=("f",), build=_build,
                function_attrs=("f",))
_eager, _build = _function_kernel(
    lambda d, fn, captured: _Scan(d, fn, captured[:-1], int(captured[-1])))
register_op("ScanDataset", _function_dataset_infer("ScanDataset"), _eager,
            kernel_attrs=("f",), build=_build, function_attrs=("f",))
register_op("ShardDataset", _unary_dataset_infer(
    "ShardDataset", (("int", "num_shards"), ("int", "index"))),
    lambda d, n, i: _Shard(as_object(d), n, i))
register_op("CacheDataset", _unary_dataset_infer("CacheDataset"),
            lambda d: _Cache(as_object(d)))
register_op("AssertCardinalityDataset", _unary_dataset_infer(
    "AssertCardinalityDataset", (("int", "cardinality"),)),
    lambda d, count: _AssertCardinality(as_object(d), count))
register_op("DenseToSparseBatchDataset", _unary_dataset_infer(
    "DenseToSparseBatchDataset", (("int", "batch_size"),)),
    lambda d, size, row_shape: _DenseToSparseBatch(as_object(d), size, row_shape))
register_op("LoadDataset", _variant, lambda path: _Loaded(path), kernel_attrs=("path",))
register_op("CacheDatasetV2", _unary_dataset_infer("CacheDatasetV2", (("string", "filename"),)),
            lambda d, filename: _Cache(as_object(d), filename))
register_op("DatasetCardinality", lambda i, a: [TensorType(dtypes.int64, TensorShape([]))],
            lambda d: np.int64(as_object(d).cardinality()))
register_op("DatasetToSingleElement", lambda i, a: _element_types(a), _single_element,
            kernel_attrs=("output_types", "output_shapes"))
_eager, _build = _function_kernel(
    lambda d, fn, captured: _Interleave(d, fn, captured[:-2], captured[-2], captured[-1]))
register_op("InterleaveDataset", _function_dataset_infer("InterleaveDataset"), _eager,
            kernel_attrs=("f",), build=_build, function_attrs=("f",))
register_op("BatchDatasetV2", _unary_dataset_infer(
    "BatchDatasetV2", (("int", "batch_size"), ("bool", "drop_remainder"))),
    lambda d, n, drop: _Batch(as_object(d), n, drop))
register_op("PaddedBatchDatasetV2", _unary_dataset_infer(
    "PaddedBatchDatasetV2", (("int", "batch_size"), ("bool", "drop_remainder"))),
    lambda d, n, drop, *values, padded_shapes: _PaddedBatch(
        as_object(d), n, drop, padded_shapes, [np.asarray(v) for v in values]),
    kernel_attrs=("padded_shapes",))
register_op("UnbatchDataset", _unary_dataset_infer("UnbatchDataset"),
            lambda d: _Unbatch(as_object(d)))
register_op("TextLineDataset", _text_lines_infer, lambda filenames: _TextLines(filenames))
register_op("CSVDataset", _csv_infer, lambda filenames, *defaults, **attrs: _CsvRecords(
    filenames, *defaults, **attrs), kernel_attrs=("header", "field_delim", "use_quote_delim",
                                                  "na_value", "select_cols"))
register_op("WindowDataset", _unary_dataset_infer("WindowDataset", (
    ("int", "size"), ("int", "shift"), ("int", "stride"), ("bool", "drop_remainder"))),
    lambda d, size, shift, stride, drop: _Window(as_object(d), size, shift, stride, drop))
register_op("UniqueDataset", _unary_dataset_infer("UniqueDataset"),
            lambda d: _Unique(as_object(d)))
register_op("TakeDataset", _unary_dataset_infer("TakeDataset", (("int", "count"),)),
                  lambda d, n: _Take(as_object(d), n))
register_op("SkipDataset", _unary_dataset_infer("SkipDataset", (("int", "count"),)),
                  lambda d, n: _Skip(as_object(d), n))
register_op("RepeatDataset", _unary_dataset_infer("RepeatDataset", (("int", "count"),)),
                  lambda d, n: _Repeat(as_object(d), n))
register_op("RandomDataset", _random_dataset_infer, _RandomInts)
register_op("DirectedInterleaveDataset", _directed_interleave_infer,
            lambda selector, *datasets, stop_on_empty_dataset: _DirectedInterleave(
                as_object(selector), [as_object(d) for d in datasets], stop_on_empty_dataset),
            kernel_attrs=("stop_on_empty_dataset",))
register_op("ShuffleDataset", _unary_dataset_infer(
    "ShuffleDataset", (("int", "buffer_size"), ("int", "seed"), ("int", "seed2"))),
    lambda d, n, seed, seed2, reshuffle_each_iteration: _Shuffle(
        as_object(d), n, seed, seed2, reshuffle_each_iteration),
    kernel_attrs=("reshuffle_each_iteration",))
register_op("PrefetchDataset", _unary_dataset_infer(
    "PrefetchDataset", (("int", "buffer_size"),)), lambda d, n: as_object(d))
register_op("OptionsDataset", _unary_dataset_infer("OptionsDataset"), lambda d: as_object(d))
register_op("ZipDataset", _datasets_infer("ZipDataset"),
                  lambda *ds: _Zip([as_object(d) for d in ds]))
register_op("ConcatenateDataset", _datasets_infer("ConcatenateDataset"),
                  lambda a, b: _Concatenate(as_object(a), as_object(b)))

register_op("IteratorFromDataset",
            lambda i, a: (_expect("IteratorFromDataset", i[0], dtypes.variant), _resource())[1],
            _iterator_from_dataset, stateful=True)
register_op("IteratorHandle", _resource, _iterator_handle, kernel_attrs=("resource_id",),
            stateful=True)
register_op("IteratorGetNext", _get_next_infer, _get_next,
            kernel_attrs=("output_types", "output_shapes"), stateful=True)
register_op("IteratorTryGetNext", _try_get_next_infer, _try_get_next,
            kernel_attrs=("output_types", "output_shapes"), stateful=True)
