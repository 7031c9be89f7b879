"""``tf.lookup``: hash tables from keys to values, used eagerly and inside ``tf.function``.

A table is a resource (``graph/ops/lookup.py``): it is created and filled eagerly (under
``init_scope``, also when made during a trace), and the graphs that use it name it by id, as
they name variables. ``StaticVocabularyTable`` is TensorFlow's composition: out-of-vocabulary
keys go to ``size + Fingerprint64(key as string) % num_oov_buckets`` (FarmHash, so the bucket
numbers are TensorFlow's).
"""
from __future__ import annotations

import enum
from types import SimpleNamespace
import weakref

import numpy as np

from graph import dtypes, resources
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.ops.lookup import HashTable
from runtime.context import current_graph, init_scope
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import SymbolicTensor


class TextFileIndex(enum.IntEnum):
    """``tf.lookup.TextFileIndex``: a key or value taken from the whole line or its number."""
    WHOLE_LINE = -2
    LINE_NUMBER = -1


class KeyValueTensorInitializer:
    """``tf.lookup.KeyValueTensorInitializer``: a table's contents from two tensors."""

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        with init_scope():
            self._keys = convert_to_tensor(keys, dtype=key_dtype)
            self._values = convert_to_tensor(values, dtype=value_dtype)
        if isinstance(self._keys, SymbolicTensor) or isinstance(self._values, SymbolicTensor):
            raise ValueError("KeyValueTensorInitializer needs keys and values known when the "
                             "table is made: create the table outside the function")
        if self._keys.shape.num_elements() != self._values.shape.num_elements():
            raise ValueError(f"Shapes {self._keys.shape} and {self._values.shape} are "
                             "incompatible")
        self.key_dtype, self.value_dtype = self._keys.dtype, self._values.dtype

    def _contents(self):
        return self._keys.numpy(), self._values.numpy()


class TextFileInitializer:
    """``tf.lookup.TextFileInitializer``: keys and values from the columns of a text file
    (``delimiter``-separated; ``TextFileIndex.WHOLE_LINE`` / ``LINE_NUMBER`` instead of a
    column), read when the table is made."""

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        self.key_dtype, self.value_dtype = as_dtype(key_dtype), as_dtype(value_dtype)
        for index, dtype, what in ((key_index, self.key_dtype, "key"),
                                   (value_index, self.value_dtype, "value")):
            if index < -2:
                raise ValueError(f"Invalid {what}_index {index}.")
            if index == TextFileIndex.LINE_NUMBER and dtype not in (dtypes.int32,
                                                                    dtypes.int64):
                raise ValueError(f"Signature mismatch. Keys must be dtype int64, got "
                                 f"{dtype.name}." if what == "key" else
                                 f"Signature mismatch. Values must be dtype int64, got "
                                 f"{dtype.name}.")
        self._filename = filename.numpy().decode() if hasattr(filename, "numpy") \
            else str(filename)
        self._key_index, self._value_index = int(key_index), int(value_index)
        self._vocab_size, self._delimiter = vocab_size, delimiter
        self._offset = int(value_index_offset)

    def _contents(self):
        with open(self._filename, "rb") as f:
            lines = f.read().decode().splitlines()
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise ValueError(f"Invalid vocab_size in {self._filename}: expected "
                                 f"{self._vocab_size} lines, got {len(lines)}")
            lines = lines[:self._vocab_size]
        keys = [self._column(n, line, self._key_index, self.key_dtype, 0)
                for n, line in enumerate(lines)]
        values = [self._column(n, line, self._value_index, self.value_dtype, self._offset)
                  for n, line in enumerate(lines)]
        return _array(keys, self.key_dtype), _array(values, self.value_dtype)

    def _column(self, number, line, index, dtype, offset):
        if index == TextFileIndex.LINE_NUMBER:
            return number + offset
        text = line if index == TextFileIndex.WHOLE_LINE else _field(
            line, self._delimiter, index, self._filename, number)
        if dtype.is_string:
            return text.encode()
        return float(text) if dtype.is_floating else int(text)


def _field(line, delimiter, index, filename, number):
    fields = line.split(delimiter)
    if index >= len(fields):
        raise ValueError(f"Invalid number of columns in {filename} line {number} ({line}) "
                         f"should have at least {index + 1} columns")
    return fields[index]


def _array(values, dtype):
    if dtype.is_string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out
    return np.asarray(values, dtype=dtype.numpy_dtype)


class _Table:
    """A table resource and the ops that read and change it."""

    def __init__(self, key_dtype, value_dtype, default_value, name=None):
        self._key_dtype, self._value_dtype = as_dtype(key_dtype), as_dtype(value_dtype)
        with init_scope():
            try:
                self._default = convert_to_tensor(default_value, dtype=self._value_dtype)
            except (TypeError, ValueError):
                raise TypeError(f"Cannot convert {default_value!r} to EagerTensor of dtype "
                                f"{self._value_dtype.name}") from None
        self._rid = resources.new_resource(HashTable(self._key_dtype, self._value_dtype))
        # a table made while tracing lives as long as the graph that names it
        owner = current_graph() or self
        while getattr(owner, "outer", None) is not None:
            owner = owner.outer
        weakref.finalize(owner, resources.delete, self._rid)
        self._name = name

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return self._value_dtype

    @property
    def default_value(self):
        return self._default

    @property
    def name(self):
        return self._name

    def _attrs(self) -> dict:
        return {"table": self._rid, "key_dtype": self._key_dtype,
                "value_dtype": self._value_dtype}

    def _keys(self, keys, what: str = "keys"):
        keys = convert_to_tensor(keys, dtype_hint=self._key_dtype)
        if keys.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `{what}` must be {self._key_dtype}, "
                            f"received: {keys.dtype}")
        return keys

    def lookup(self, keys, name=None):
        """The value of each key (``default_value`` where absent); a SparseTensor or
        RaggedTensor of keys gives the same composite of values."""
        composite = _composite(keys)
        if composite is not None:
            return composite(self.lookup(keys.values if hasattr(keys, "indices")
                                         else keys.flat_values, name))
        return apply_op("LookupTableFindV2", [self._keys(keys), self._default], self._attrs(),
                        name=name or "LookupTableFindV2")

    def __getitem__(self, keys):
        return self.lookup(keys)

    def size(self, name=None):
        return apply_op("LookupTableSizeV2", [], {"table": self._rid},
                        name=name or "LookupTableSizeV2")

    def export(self, name=None):
        """(keys, values) of the table, in the order they were added."""
        return apply_op("LookupTableExportV2", [], self._attrs(),
                        name=name or "LookupTableExportV2")


def _composite(keys):
    """The rebuilder of a SparseTensor / RaggedTensor of keys from new values, else None."""
    from runtime.ragged.ragged_tensor import RaggedTensor
    from runtime.sparse.sparse_tensor import SparseTensor
    if isinstance(keys, SparseTensor):
        return keys.with_values
    if isinstance(keys, RaggedTensor):
        return keys.with_flat_values
    return None


class StaticHashTable(_Table):
    """``tf.lookup.StaticHashTable``: a table filled once by its initializer."""

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        super().__init__(initializer.key_dtype, initializer.value_dtype, default_value, name)
        keys, values = initializer._contents()
        resources.read(self._rid).import_values(keys, values, check_duplicates=True)
        self._initializer = initializer

    @property
    def initializer(self):
        return self._initializer


class StaticVocabularyTable:
    """``tf.lookup.StaticVocabularyTable``: ids of a vocabulary (int64 values), and for
    out-of-vocabulary keys one of ``num_oov_buckets`` ids after it, by FarmHash."""

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer is not None and initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                            f"{initializer.value_dtype}.")
        self._num_oov_buckets = int(num_oov_buckets)
        self._table = None if initializer is None else StaticHashTable(initializer, -1)
        key_dtype = dtypes.string if initializer is None else initializer.key_dtype
        self._key_dtype = as_dtype(lookup_key_dtype or key_dtype)
        self._name = name

    @property
    def key_dtype(self):
        return self._key_dtype

    @property
    def value_dtype(self):
        return dtypes.int64

    @property
    def name(self):
        return self._name

    def size(self, name=None):
        from runtime.ops.math_ops import add
        n = convert_to_tensor(self._num_oov_buckets, dtype=dtypes.int64)
        return n if self._table is None else add(self._table.size(), n)

    def lookup(self, keys, name=None):
        from runtime.ops.math_ops import add, cast, not_equal, where
        from runtime.ops.string_ops import as_string, to_hash_bucket_fast
        composite = _composite(keys)
        if composite is not None:
            return composite(self.lookup(keys.values if hasattr(keys, "indices")
                                         else keys.flat_values, name))
        values = convert_to_tensor(keys, dtype_hint=self._key_dtype)
        if values.dtype != self._key_dtype:
            raise TypeError(f"Dtype of argument `keys` must be {self._key_dtype}, "
                            f"received: {values.dtype}")
        if self._table is not None and self._table.key_dtype == dtypes.int64:
            values = cast(values, dtypes.int64)
        text = values if values.dtype.is_string else as_string(values)
        buckets = to_hash_bucket_fast(text, self._num_oov_buckets)
        if self._table is None:
            return buckets
        ids = self._table.lookup(values)
        return where(not_equal(ids, self._table.default_value),
                     ids, add(buckets, self._table.size()))

    def __getitem__(self, keys):
        return self.lookup(keys)


class MutableHashTable(_Table):
    """``tf.lookup.experimental.MutableHashTable``: a table changed by ``insert``/``remove``
    (in program order, also inside ``tf.function``)."""

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        super().__init__(key_dtype, value_dtype, default_value, name)

    def insert(self, keys, values, name=None):
        values = convert_to_tensor(values, dtype_hint=self._value_dtype)
        if values.dtype != self._value_dtype:
            raise TypeError(f"Dtype of argument `values` must be {self._value_dtype}, "
                            f"received: {values.dtype}")
        return apply_op("LookupTableInsertV2", [self._keys(keys), values],
                        {"table": self._rid, "key_dtype": self._key_dtype,
                         "value_dtype": self._value_dtype}, name=name or "LookupTableInsertV2")

    def remove(self, keys, name=None):
        return apply_op("LookupTableRemoveV2", [self._keys(keys)],
                        {"table": self._rid, "key_dtype": self._key_dtype},
                        name=name or "LookupTableRemoveV2")


class DenseHashTable(MutableHashTable):
    """``tf.lookup.experimental.DenseHashTable``: a MutableHashTable whose ``empty_key`` and
    ``deleted_key`` may never be used as keys (TensorFlow's open addressing reserves them).
    ``export`` gives the entries in the order they were added, not TensorFlow's buckets."""

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        key_dtype = as_dtype(key_dtype)
        with init_scope():
            empty = convert_to_tensor(empty_key, dtype=key_dtype)
            deleted = convert_to_tensor(deleted_key, dtype=key_dtype)
        if empty.shape.rank != 0 or deleted.shape.rank != 0:
            raise InvalidArgumentError(message="DenseHashTable: empty_key and deleted_key must "
                                               "be scalars here (vector keys are not supported)")
        empty, deleted = _array([empty.numpy()], key_dtype)[0], \
            _array([deleted.numpy()], key_dtype)[0]
        empty, deleted = (k.item() if isinstance(k, np.generic) else k for k in (empty, deleted))
        if empty == deleted:
            raise InvalidArgumentError(message="Empty and deleted keys cannot be equal")
        super().__init__(key_dtype, value_dtype, default_value, name)
        resources.read(self._rid).reserved.update({empty: "empty_key", deleted: "deleted_key"})

    def insert_or_assign(self, keys, values, name=None):
        return self.insert(keys, values, name)

    def erase(self, keys, name=None):
        return self.remove(keys, name)


experimental = SimpleNamespace(MutableHashTable=MutableHashTable, DenseHashTable=DenseHashTable)
