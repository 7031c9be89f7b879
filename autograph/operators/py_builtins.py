"""Tensor-aware versions of Python builtins that converted code calls.

``converted`` routes ``range``, ``len``, ``enumerate``, ``zip``, ``map``,
``filter``, ``sorted``, ``int``, ``float`` and ``abs`` here. Python arguments keep Python's
behaviour exactly; symbolic tensors get what TensorFlow gives them; datasets
become dataset transformations (``enumerate(ds)`` is ``ds.enumerate()``), as in
TensorFlow -- Python's iteration of a dataset inside a graph would never end.
"""
from __future__ import annotations

import builtins
from dataclasses import dataclass
from typing import Any, Callable

import runtime
from graph.errors import GraphError
from runtime.errors import OperatorNotAllowedInGraphError
from runtime.origin import current_origin
from runtime.tensor import SymbolicTensor, Tensor
from runtime.tensor_array import StagedList, TensorArray


@dataclass(frozen=True)
class TensorRange:
    """``range(start, limit, delta)`` with a symbolic bound; ``for`` over it stages a loop."""

    start: Any
    limit: Any
    delta: Any

    def __iter__(self):  # (TensorFlow's is tf.range's tensor: iterating a symbolic one)
        raise OperatorNotAllowedInGraphError(
            f"range() over a symbolic tensor can only drive a `for` loop in converted code "
            f"(at {current_origin()}); use tf.range to make a tensor of the values.")

    def _as_tensor(self):
        """Used as a value (returned, given to an op), it is ``tf.range``'s tensor, as in
        TensorFlow, whose ``range`` of a tensor is ``tf.range``."""
        return runtime.range(self.start, self.limit, self.delta)


@dataclass(frozen=True)
class IndexedSource:
    """Something a staged loop walks by index: ``length`` and ``element(i)``."""

    length: Any
    element: Callable


def _any_symbolic(args) -> bool:
    return any(isinstance(a, SymbolicTensor) for a in args)


# The builtins as they were at import: a function that captured `len` (``def f(s, len=len)``)
# keeps calling that one even if the `builtins` module is patched later.
_PY_RANGE = builtins.range
_PY_LEN = builtins.len
_PY_ENUMERATE = builtins.enumerate
_PY_ZIP = builtins.zip
_PY_MAP = builtins.map
_PY_FILTER = builtins.filter
_PY_SORTED = builtins.sorted
_PY_INT = builtins.int
_PY_FLOAT = builtins.float
_PY_ABS = builtins.abs
_PY_PRINT = builtins.print


# Each override takes its arguments as the builtin does (positional-only where it has them):
# ``int(x=1)`` is a TypeError in Python, and stays one.

def range_(*args):
    if not _any_symbolic(args):
        return _PY_RANGE(*args)
    if len(args) == 1:
        return TensorRange(0, args[0], 1)
    if len(args) == 2:
        return TensorRange(args[0], args[1], 1)
    return TensorRange(*args)


class ScalarIterationError(ValueError, TypeError, GraphError):
    """A staged loop over a scalar tensor: TensorFlow's ValueError in a graph (its loop asks
    for the tensor's length), and the TypeError iterating one eagerly raises, so ``except``
    clauses written for either mode catch it."""


def _first_dim(t: SymbolicTensor):
    if t.shape.rank == 0:
        raise ScalarIterationError(
            f"Cannot iterate over a scalar tensor: len requires a non-scalar tensor, got one "
            f"of shape {t.shape} (at {current_origin()}).")
    if t.shape.rank is not None and t.shape[0] is not None:
        return t.shape[0]
    return runtime.shape(t)[0]


def indexed_source(value) -> IndexedSource | None:
    """How a staged loop walks ``value``, or None when it is a Python iterable."""
    if isinstance(value, IndexedSource):
        return value
    if isinstance(value, SymbolicTensor):
        return IndexedSource(_first_dim(value), lambda i: runtime.gather(value, i))
    return None


def len_(value, /):
    if isinstance(value, SymbolicTensor):
        if value.shape.rank == 0:  # (TensorFlow's ValueError; eagerly it is a TypeError)
            raise ValueError(f"len requires a non-scalar tensor, got one of shape "
                             f"{value.shape} (at {current_origin()}).")
        return _first_dim(value)
    if isinstance(value, (TensorArray, StagedList)):  # (a Python list a staged loop extends)
        return value.size()
    if _is_dataset(value):
        return _dataset_len(value)
    return _PY_LEN(value)


def _dataset_len(dataset):
    """The dataset's cardinality as an int64 tensor (in graphs too, where Python's ``len``
    cannot know it); asserts when running that it is finite and known, as TensorFlow does."""
    n = dataset.cardinality()
    known = runtime.logical_and(runtime.not_equal(n, -1), runtime.not_equal(n, -2))
    message = runtime.strings.join(["len requires dataset with definitive cardinality, got ",
                                    runtime.strings.as_string(n)])
    runtime.debugging.Assert(known, [message])  # (stateful: runs before the function returns)
    return n


def _is_dataset(value) -> bool:
    return isinstance(value, runtime.data.Dataset)


def enumerate_(iterable, start=0):
    if _is_dataset(iterable):
        return iterable.enumerate(start)
    source = indexed_source(iterable)
    if source is None:
        return _PY_ENUMERATE(iterable, start)
    return IndexedSource(source.length, lambda i: (i + start, source.element(i)))


def zip_(*iterables, **kwargs):
    if iterables and not kwargs and all(_is_dataset(it) for it in iterables):
        return runtime.data.Dataset.zip(iterables)
    sources = [indexed_source(it) for it in iterables]
    if all(s is None for s in sources):
        return _PY_ZIP(*iterables, **kwargs)
    if any(s is None for s in sources):
        raise TypeError(f"zip() of tensors and Python iterables cannot drive a staged loop "
                        f"(at {current_origin()}); convert the Python values with tf.constant.")
    length = sources[0].length
    for s in sources[1:]:
        length = runtime.minimum(length, s.length)
    return IndexedSource(length, lambda i: tuple(s.element(i) for s in sources))


def map_(fn, /, *iterables):
    if len(iterables) == 1 and _is_dataset(iterables[0]):
        return iterables[0].map(fn)
    if iterables and all(_is_dataset(it) for it in iterables):
        return runtime.data.Dataset.zip(iterables).map(fn)
    return _PY_MAP(fn, *iterables)


def filter_(fn, iterable, /):
    if _is_dataset(iterable):
        return iterable.filter(fn)
    return _PY_FILTER(fn, iterable)


def sorted_(iterable, /, *, key=None, reverse=False):
    """``sorted`` of a symbolic tensor sorts it in the graph, as TensorFlow does (a 1-D
    tensor; ``key`` maps each element); Python's iteration of it would be refused."""
    if not isinstance(iterable, SymbolicTensor):
        return _PY_SORTED(iterable, key=key, reverse=reverse)
    keys = iterable if key is None else runtime.vectorized_map(key, iterable)
    runtime.debugging.assert_rank(keys, 1, message="sort only supports only 1D tensors")
    keys = keys if keys.shape.rank == 1 else runtime.reshape(keys, [-1])  # (rank checked above)
    direction = "DESCENDING" if reverse else "ASCENDING"
    if key is None:
        return runtime.sort(keys, direction=direction)
    return runtime.gather(iterable, runtime.argsort(keys, direction=direction, stable=True))


_NO_BASE = object()


def int_(x=0, /, base=_NO_BASE):
    if base is _NO_BASE:
        if isinstance(x, Tensor):
            return runtime.cast(x, runtime.int32)
        return _PY_INT(x)
    return _PY_INT(x, base)


def float_(x=0.0, /):
    if isinstance(x, Tensor):
        return runtime.cast(x, runtime.float32)
    return _PY_FLOAT(x)


def abs_(x, /):
    if isinstance(x, Tensor):
        return runtime.abs(x)
    return _PY_ABS(x)


def print_(*objects, **kwargs):
    """``print``; with symbolic tensors among ``objects``, Python's print runs each time the
    graph runs, on their values (``Feature.BUILTIN_FUNCTIONS``; TensorFlow does the same
    through a py_func). Otherwise it prints now."""
    positions = [i for i, o in enumerate(objects) if isinstance(o, SymbolicTensor)]
    if not positions:
        return _PY_PRINT(*objects, **kwargs)
    kwargs.setdefault("flush", True)

    def print_values(*values):
        shown = list(objects)
        for i, v in zip(positions, values):
            v = v.numpy()
            shown[i] = v.decode("utf-8") if isinstance(v, bytes) else v
        _PY_PRINT(*shown, **kwargs)

    runtime.py_function(print_values, [objects[i] for i in positions], None, name="print")


BUILTIN_OVERRIDES = {
    builtins.print: print_,
    builtins.range: range_,
    builtins.len: len_,
    builtins.enumerate: enumerate_,
    builtins.zip: zip_,
    builtins.map: map_,
    builtins.filter: filter_,
    builtins.sorted: sorted_,
    builtins.int: int_,
    builtins.float: float_,
    builtins.abs: abs_,
}
