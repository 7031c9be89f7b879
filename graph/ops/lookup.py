"""Hash tables (``tf.lookup``): a ``HashTable`` value kept in ``graph/resources.py``.

As with variables, a node names its table by the ``table`` attr (a resource id), never by a
Python object, so graphs built by ``tf.function`` read the table's current contents at every
run. The ops are stateful: a lookup after an insert sees it, in program order.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes, resources
from graph.errors import FailedPreconditionError, InvalidArgumentError
from graph.ir import TensorType
from graph.registry import register_op
from graph.shapes import TensorShape


class HashTable:
    """Keys (Python scalars: bytes, int, float) to values of one dtype."""

    def __init__(self, key_dtype, value_dtype, reserved: dict | None = None):
        self.key_dtype, self.value_dtype = key_dtype, value_dtype
        self.data: dict = {}
        self.reserved = reserved or {}  # key -> its role (a dense table's empty/deleted keys)

    def check_keys(self, keys: list) -> list:
        """``keys``, unless one is reserved (TensorFlow's DenseHashTable refuses those)."""
        for k in keys:
            role = self.reserved.get(k)
            if role is not None:
                raise InvalidArgumentError(
                    message=f"Using the {role} as a table key is not allowed")
        return keys

    def import_values(self, keys, values, check_duplicates: bool) -> None:
        keys, values = self.check_keys(_flat(keys)), _flat(values)
        if len(keys) != len(values):
            raise InvalidArgumentError(message=f"Expected shape [{len(keys)}] for value, got "
                                               f"[{len(values)}]")
        for k, v in zip(keys, values):
            old = self.data.get(k, _MISSING)
            if check_duplicates and old is not _MISSING and old != v:
                raise FailedPreconditionError(
                    message=f"HashTable has different value for same key. Key {_show(k)} has "
                            f"{_show(old)} and trying to add value {_show(v)}")
            self.data[k] = v


_MISSING = object()


def _flat(array) -> list:
    return np.asarray(array).reshape(-1).tolist()


def _show(value) -> str:
    return value.decode(errors="replace") if isinstance(value, bytes) else str(value)


def _table(rid) -> HashTable:
    table = resources.read(rid)
    if not isinstance(table, HashTable):
        raise InvalidArgumentError(message=f"Resource {rid} is not a lookup table")
    return table


def _as_array(values: list, dtype, shape) -> np.ndarray:
    if dtype.is_string:
        out = np.empty(len(values), dtype=object)
        out[:] = values
        return out.reshape(shape)
    return np.asarray(values, dtype=dtype.numpy_dtype).reshape(shape)


def _check_keys(op: str, keys, attrs) -> None:
    if keys.dtype is not attrs["key_dtype"]:
        raise InvalidArgumentError(message=f"{op}: the table's keys are "
                                           f"{attrs['key_dtype'].name}, got "
                                           f"{keys.dtype.name} keys")


def _find_infer(inputs, attrs):
    keys, default = inputs
    _check_keys("LookupTableFindV2", keys, attrs)
    if default.dtype is not attrs["value_dtype"]:
        raise InvalidArgumentError(message=f"LookupTableFindV2: default_value must be "
                                           f"{attrs['value_dtype'].name}, got "
                                           f"{default.dtype.name}")
    return [TensorType(attrs["value_dtype"], keys.shape)]


def _find(keys, default, table, key_dtype, value_dtype):
    found = _table(table)
    data, fallback = found.data, np.asarray(default).reshape(-1)[0]
    fallback = fallback.item() if isinstance(fallback, np.generic) else fallback
    keys = np.asarray(keys)
    return _as_array([data.get(k, fallback) for k in found.check_keys(_flat(keys))],
                     value_dtype, keys.shape)


def _export(table, key_dtype, value_dtype):
    data = _table(table).data
    return _as_array(list(data), key_dtype, [-1]), _as_array(list(data.values()), value_dtype,
                                                             [-1])


def _insert_infer(inputs, attrs):
    keys, values = inputs
    _check_keys("LookupTableInsertV2", keys, attrs)
    if values.dtype is not attrs["value_dtype"]:
        raise InvalidArgumentError(message=f"LookupTableInsertV2: values must be "
                                           f"{attrs['value_dtype'].name}, got "
                                           f"{values.dtype.name}")
    return []


def _insert(keys, values, table):
    _table(table).import_values(keys, values, check_duplicates=False)


def _remove_infer(inputs, attrs):
    _check_keys("LookupTableRemoveV2", inputs[0], attrs)
    return []


def _remove(keys, table):
    found = _table(table)
    for k in found.check_keys(_flat(keys)):
        found.data.pop(k, None)


register_op("LookupTableFindV2", _find_infer, _find,
            kernel_attrs=("table", "key_dtype", "value_dtype"), stateful=True)
register_op("LookupTableSizeV2", lambda i, a: [TensorType(dtypes.int64, TensorShape([]))],
            lambda table: np.int64(len(_table(table).data)), kernel_attrs=("table",),
            stateful=True)
register_op("LookupTableExportV2",
            lambda i, a: [TensorType(a["key_dtype"], TensorShape([None])),
                          TensorType(a["value_dtype"], TensorShape([None]))],
            _export, kernel_attrs=("table", "key_dtype", "value_dtype"), stateful=True)
register_op("LookupTableInsertV2", _insert_infer, _insert, kernel_attrs=("table",),
            stateful=True)
register_op("LookupTableRemoveV2", _remove_infer, _remove, kernel_attrs=("table",),
            stateful=True)
