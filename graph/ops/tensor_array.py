"""TensorList ops: the graph side of ``TensorArray``.

A TensorArray travels through a graph as one ``variant`` tensor (its
"flow") whose run-time value is a ``TensorListValue``: an immutable record
holding the elements in a store that no write changes where an existing
value can see it (graph/ops/list_vectors.py). Writes in index order append
to a list shared along the lineage, O(1); any other write pattern costs
O(log n) in a persistent trie. So a loop of n writes never costs O(n^2),
and an old flow still reads its old contents.

Op names follow TensorFlow 2, which stages ``tf.TensorArray`` as TensorList
ops (``TensorListReserve``, ``TensorListSetItem``, ``TensorListStack``...).
The element shape each op is inferred with comes from an ``element_shape``
attr that the runtime ``TensorArray`` fills from what it learned while
tracing, so that ``stack()`` after a staged loop has a static shape.
"""
from __future__ import annotations

import sys
from sys import getrefcount
from typing import Callable

import numpy as np

from graph import dtypes
from graph.dtypes import DType
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.ops.list_vectors import AppendVector, PersistentVector  # noqa: F401 (re-exported)
from graph.registry import register_op
from graph.shapes import TensorShape, as_shape

class _Cleared:
    """Marks an element that an eager ``read`` with clear_after_read removed."""

    def __repr__(self) -> str:
        return "<cleared>"


CLEARED = _Cleared()


class TensorListValue:
    """The run-time value of a TensorArray flow: dtype, element shape, elements.

    A record that is never changed once made (a plain slots class rather than
    a frozen dataclass: construction is half the cost of a staged write, and
    a frozen dataclass's ``__init__`` takes 0.5 µs). ``items`` is an
    ``AppendVector`` or a ``PersistentVector`` (graph/ops/list_vectors.py).
    """

    __slots__ = ("element_dtype", "element_shape", "items", "resizable")

    def __init__(self, element_dtype: DType | None, element_shape: TensorShape, items,
                 resizable: bool = True):
        self.element_dtype = element_dtype
        self.element_shape = element_shape
        self.items = items
        self.resizable = resizable

    @property
    def size(self) -> int:
        return self.items.size

    def with_item(self, index: int, value) -> "TensorListValue":
        return TensorListValue(self.element_dtype, self.element_shape,
                               self.items.set(index, value), self.resizable)

    def with_items(self, items) -> "TensorListValue":
        return TensorListValue(self.element_dtype, self.element_shape, items, self.resizable)

    def __repr__(self) -> str:
        dtype = self.element_dtype.name if self.element_dtype else "?"
        return f"<TensorList of {self.size} {dtype} elements>"


def as_list_value(value) -> TensorListValue:
    """Unwraps the 0-d object array a captured eager flow becomes in a Const."""
    if isinstance(value, np.ndarray) and value.dtype == object and value.ndim == 0:
        value = value[()]
    if not isinstance(value, TensorListValue) and hasattr(value, "as_tensor_list"):
        value = value.as_tensor_list()  # a loop accumulator (graph/ops/gradient_ops.ListStack)
    if not isinstance(value, TensorListValue):
        raise InvalidArgumentError(message=f"Expected a TensorList (TensorArray flow), got "
                                           f"{type(value).__name__}")
    return value


# -- inference helpers -------------------------------------------------------------

def _expect_list(op: str, x) -> None:
    if x.dtype is not dtypes.variant:
        raise InvalidArgumentError(
            message=f"{op}: input 0 must be a TensorList (variant), got a {x.dtype.name} tensor")


def _expect_scalar_int(op: str, x, what: str) -> None:
    if not x.dtype.is_integer or x.shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message=f"{op}: {what} must be a scalar integer, got {x.dtype.name} tensor of "
                    f"shape {x.shape}")


def _expect_dtype(op: str, x, attrs) -> None:
    dtype = attrs.get("element_dtype")
    if dtype is not None and x.dtype != dtype:
        raise InvalidArgumentError(
            message=f"TensorArray dtype is {dtype.name} but Op is trying to write dtype "
                    f"{x.dtype.name} ({op}). Cast the value with tf.cast first.")


def _variant_out(inputs, attrs):
    return [TensorType(dtypes.variant, TensorShape([]))]


def _reserve_infer(inputs, attrs):
    expect_arity("TensorListReserve", inputs, 1)
    _expect_scalar_int("TensorListReserve", inputs[0], "num_elements")
    return _variant_out(inputs, attrs)


def _set_item_infer(inputs, attrs):
    expect_arity("TensorListSetItem", inputs, 3)
    _expect_list("TensorListSetItem", inputs[0])
    _expect_scalar_int("TensorListSetItem", inputs[1], "index")
    _expect_dtype("TensorListSetItem", inputs[2], attrs)
    return _variant_out(inputs, attrs)


def _element_type(attrs, leading=()) -> TensorType:
    dtype = attrs["element_dtype"]
    if dtype is None:
        raise InvalidArgumentError(
            message="The element dtype of this TensorArray is unknown: nothing was written to "
                    "it while tracing. Give the TensorArray a dtype.")
    shape = as_shape(attrs.get("element_shape"))
    if shape.rank is None:
        return TensorType(dtype, TensorShape(None))
    return TensorType(dtype, TensorShape(list(leading) + shape.as_list()))


def _get_item_infer(inputs, attrs):
    expect_arity("TensorListGetItem", inputs, 2)
    _expect_list("TensorListGetItem", inputs[0])
    _expect_scalar_int("TensorListGetItem", inputs[1], "index")
    return [_element_type(attrs)]


def _stack_infer(inputs, attrs):
    expect_arity("TensorListStack", inputs, 1)
    _expect_list("TensorListStack", inputs[0])
    n = attrs.get("num_elements", -1)
    return [_element_type(attrs, [None if n is None or n < 0 else n])]


def _gather_infer(inputs, attrs):
    expect_arity("TensorListGather", inputs, 2)
    _expect_list("TensorListGather", inputs[0])
    idx = inputs[1]
    if not idx.dtype.is_integer or idx.shape.rank not in (None, 1):
        raise InvalidArgumentError(
            message=f"TensorListGather: indices must be a vector of integers, got "
                    f"{idx.dtype.name} tensor of shape {idx.shape}")
    n = idx.shape[0] if idx.shape.rank == 1 else None
    return [_element_type(attrs, [n])]


def _from_tensor_infer(inputs, attrs):
    expect_arity("TensorListFromTensor", inputs, 1)
    if inputs[0].shape.rank == 0:
        raise InvalidArgumentError(
            message="TensorArray.unstack needs a tensor of rank >= 1, got a scalar")
    _expect_dtype("TensorListFromTensor", inputs[0], attrs)
    return _variant_out(inputs, attrs)


def _scatter_infer(inputs, attrs):
    expect_arity("TensorListScatterIntoExistingList", inputs, 3)
    _expect_list("TensorListScatterIntoExistingList", inputs[0])
    _expect_dtype("TensorListScatterIntoExistingList", inputs[1], attrs)
    idx = inputs[2]
    if not idx.dtype.is_integer or idx.shape.rank not in (None, 1):
        raise InvalidArgumentError(
            message=f"TensorArray.scatter: indices must be a vector of integers, got "
                    f"{idx.dtype.name} tensor of shape {idx.shape}")
    value = inputs[1]
    if value.shape.rank == 0:
        raise InvalidArgumentError(message="TensorArray.scatter needs a value of rank >= 1")
    if (idx.shape.rank == 1 and value.shape.rank is not None and idx.shape[0] is not None
            and value.shape[0] is not None and idx.shape[0] != value.shape[0]):
        raise InvalidArgumentError(
            message=f"TensorArray.scatter: {idx.shape[0]} indices but the value has "
                    f"{value.shape[0]} rows")
    return _variant_out(inputs, attrs)


def _concat_infer(inputs, attrs):
    expect_arity("TensorListConcatV2", inputs, 1)
    _expect_list("TensorListConcatV2", inputs[0])
    t = _element_type(attrs)
    shape = t.shape if t.shape.rank is None else TensorShape([None] + t.shape.as_list()[1:])
    if t.shape.rank == 0:
        raise InvalidArgumentError(message="TensorArray.concat needs elements of rank >= 1; "
                                           "use stack() for scalars")
    return [TensorType(t.dtype, shape), TensorType(dtypes.int64, TensorShape([None]))]


def _split_infer(inputs, attrs):
    expect_arity("TensorListSplit", inputs, 2)
    _expect_dtype("TensorListSplit", inputs[0], attrs)
    if inputs[0].shape.rank == 0:
        raise InvalidArgumentError(message="TensorArray.split needs a value of rank >= 1")
    return _variant_out(inputs, attrs)


def _length_infer(inputs, attrs):
    expect_arity("TensorListLength", inputs, 1)
    _expect_list("TensorListLength", inputs[0])
    return [TensorType(dtypes.int32, TensorShape([]))]


# -- kernels -------------------------------------------------------------------------

def _reserve(num_elements, element_dtype=None, element_shape=None, resizable=True):
    n = int(num_elements)
    if n < 0:
        raise InvalidArgumentError(message=f"TensorArray size must be >= 0, got {n}")
    return TensorListValue(element_dtype, as_shape(element_shape),
                           AppendVector([], 0, n), bool(resizable))


def _check_index(lst: TensorListValue, index: int, verb: str, grow: bool) -> int:
    i = int(index)
    if i < 0:
        raise InvalidArgumentError(message=f"Tried to {verb} index {i}: TensorArray indices "
                                           "must be non-negative")
    if i >= lst.size and not grow:
        if verb == "read from":
            raise InvalidArgumentError(
                message=f"Tried to read from index {i} but array size is: {lst.size}")
        raise InvalidArgumentError(
            message=f"Tried to {verb} index {i} but array is not resizeable and size is: "
                    f"{lst.size}. Create the TensorArray with dynamic_size=True to let it grow.")
    return i


def _check_item(lst: TensorListValue, item) -> None:
    shape = np.shape(item)
    if shape == lst.element_shape.as_tuple():  # the common case, without building a TensorShape
        return
    if not lst.element_shape.is_compatible_with(shape):
        raise InvalidArgumentError(
            message=f"Could not write to TensorArray: the value shape is {TensorShape(shape)} "
                    f"which is incompatible with the TensorArray's element shape "
                    f"{lst.element_shape}")


def _set_item(lst, index, item, element_dtype=None, resize_if_index_out_of_bounds=False):
    lst = as_list_value(lst)
    i = _check_index(lst, index, "write to", resize_if_index_out_of_bounds and lst.resizable)
    _check_item(lst, item)
    if lst.element_dtype is None and element_dtype is not None:
        lst = TensorListValue(element_dtype, lst.element_shape, lst.items, lst.resizable)
    return lst.with_item(i, item)


def append_kernel(element_dtype: DType | None, grow: bool, item_shape: TensorShape,
                  owned: bool = False) -> Callable:
    """``TensorListSetItem`` for generated code, where an in-order write is an append.

    The general kernel checks the index and the item's shape on every write
    (~1.7 µs). Here an item whose static shape is fully defined is checked
    once per list lineage instead: every list along a lineage holds the same
    element-shape object, and the last one found compatible is remembered.
    A write at the end of an ``AppendVector`` that ends at this list then
    costs one append and two small records, made without running their
    ``__init__`` (which would double the cost of a staged write); anything
    else (another write pattern, an unknown item shape, a gradient
    accumulator, a captured list) runs the general kernel. The interpreter
    always runs the general kernel, so the tests compare the two.

    ``owned``: the generated code's slot holding the list dies at this write
    (the plan never reads that value again). When, besides, nothing else
    holds the list or its store (``_unique_count``), no one can ever see the old
    value, so the append updates the two records in place instead of making
    new ones: a staged loop's write then costs what ``list.append`` costs.
    """
    static = item_shape.as_tuple() if item_shape.is_fully_defined() else None
    proven = object()  # an element shape known compatible with ``static`` (none yet)
    new = object.__new__
    in_place = owned and _UNIQUE is not None
    unique = _UNIQUE

    def set_item(lst, index, item):
        nonlocal proven
        if type(lst) is TensorListValue:
            if lst.element_shape is proven:
                items = lst.items
                if type(items) is AppendVector:
                    buf = items.buf
                    i = items.count
                    size = items.size
                    if index == i == len(buf) and (i < size or grow and lst.resizable):
                        buf.append(item)
                        if buf[i] is item:  # no other thread appended first
                            if in_place and getrefcount(lst) <= unique and \
                                    getrefcount(items) <= unique:
                                items.count, items._persistent = i + 1, None
                                if i >= size:
                                    items.size = i + 1
                                if lst.element_dtype is None:
                                    lst.element_dtype = element_dtype
                                return lst
                            vec = new(AppendVector)
                            vec.buf, vec.count, vec._persistent = buf, i + 1, None
                            vec.size = size if i < size else i + 1
                            out = new(TensorListValue)
                            dtype = lst.element_dtype
                            out.element_dtype = element_dtype if dtype is None else dtype
                            out.element_shape, out.items, out.resizable = proven, vec, lst.resizable
                            return out
            elif static is not None and lst.element_shape.is_compatible_with(static):
                proven = lst.element_shape
        return _set_item(lst, index, item, element_dtype, grow)
    return set_item


def _unique_count() -> int | None:
    """What ``getrefcount`` reports, inside ``set_item``, for a list (and for its store)
    that only the calling slot holds; None where counts cannot prove that.

    In ``v = k(v, i, x)`` the list is held by the caller's slot and by
    ``set_item``'s argument (plus ``getrefcount``'s own); its store by the list
    and ``set_item``'s local ``items``. Any other holder (another slot, a
    container, a caller's tensor) adds one. CPython 3.14 passes borrowed
    stack references that counts do not show, and a free-threaded build may
    defer counts: there the in-place path is off.
    """
    if sys.implementation.name != "cpython" or sys.version_info >= (3, 14) or \
            not getattr(sys, "_is_gil_enabled", lambda: True)():
        return None
    return 3


_UNIQUE = _unique_count()


def _zeros(dtype: DType, shape) -> np.ndarray:
    if dtype is dtypes.string:
        return np.full(shape, b"", dtype=object)
    return np.zeros(shape, dtype=dtype.numpy_dtype)


def _element_shape_of(lst: TensorListValue, items: list, attr_shape) -> tuple:
    """The one shape every element has (written ones must agree)."""
    shapes = {np.shape(v) for v in items if v is not None and v is not CLEARED}
    if len(shapes) > 1:
        raise InvalidArgumentError(
            message=f"TensorArray elements have different shapes {sorted(shapes)}; stack() and "
                    "gather() need elements of one shape (use concat() for differing first "
                    "dimensions)")
    if shapes:
        return shapes.pop()
    known = lst.element_shape.merge_with(as_shape(attr_shape)) \
        if lst.element_shape.is_compatible_with(as_shape(attr_shape)) else lst.element_shape
    if not known.is_fully_defined():
        raise InvalidArgumentError(
            message=f"TensorArray has no written element to take a shape from, and its element "
                    f"shape {known} is not fully defined. Give the TensorArray an element_shape "
                    "or write to it first.")
    return tuple(known.as_list())


def _fill_unwritten(lst, items: list, element_dtype, element_shape, indices=None) -> list:
    """Unwritten elements read as zeros of the common element shape (TensorFlow does so).

    An element an eager ``read`` cleared (clear_after_read) is an error, not zeros: TensorFlow's
    eager TensorArray gives zeros there, which hides a bug rather than computing anything.
    """
    for k, v in enumerate(items):
        if v is CLEARED:
            i = k if indices is None else int(indices[k])
            raise InvalidArgumentError(
                message=f"Could not read index {i} twice because it was cleared after a "
                        "previous read (perhaps try setting clear_after_read = false?)")
    if any(v is None for v in items):
        written = [v for v in lst.items.to_list() if v is not None and v is not CLEARED]
        zero = _zeros(element_dtype or lst.element_dtype,
                      _element_shape_of(lst, written, element_shape))
        items = [zero if v is None else v for v in items]
    return items


def _stacked(lst, items, element_dtype, element_shape, indices=None):
    dtype = element_dtype or lst.element_dtype
    if not items:
        written = [v for v in lst.items.to_list() if v is not None and v is not CLEARED]
        return _zeros(dtype, (0,) + _element_shape_of(lst, written, element_shape))
    items = _fill_unwritten(lst, items, element_dtype, element_shape, indices)
    _element_shape_of(lst, items, element_shape)  # raises unless all shapes agree
    return np.stack([np.asarray(v) for v in items]).astype(dtype.numpy_dtype, copy=False)


def _get_item(lst, index, element_dtype=None, element_shape=None):
    lst = as_list_value(lst)
    i = _check_index(lst, index, "read from", False)
    return _fill_unwritten(lst, [lst.items.get(i)], element_dtype, element_shape, [i])[0]


def _stack(lst, element_dtype=None, element_shape=None, num_elements=-1):
    lst = as_list_value(lst)
    vec = lst.items
    if type(vec) is AppendVector and vec.count == vec.size > 0:  # all written, none cleared
        try:
            out = np.stack(vec.buf[:vec.count])
        except ValueError:
            pass  # elements of different shapes: the general path says so
        else:
            return out.astype((element_dtype or lst.element_dtype).numpy_dtype, copy=False)
    return _stacked(lst, vec.to_list(), element_dtype, element_shape)


def _gather(lst, indices, element_dtype=None, element_shape=None):
    lst = as_list_value(lst)
    indices = [_check_index(lst, i, "read from", False) for i in np.ravel(indices)]
    return _stacked(lst, [lst.items.get(i) for i in indices], element_dtype, element_shape,
                    indices)


def _from_tensor(tensor, element_dtype=None, element_shape=None):
    tensor = np.asarray(tensor)
    items = [tensor[i] for i in range(tensor.shape[0])]
    return TensorListValue(element_dtype, as_shape(tensor.shape[1:]), AppendVector.from_list(items))


def _scatter(lst, tensor, indices, element_dtype=None, resize_if_index_out_of_bounds=False):
    lst = as_list_value(lst)
    tensor = np.asarray(tensor)
    indices = np.ravel(indices)
    if len(indices) != tensor.shape[0]:
        raise InvalidArgumentError(message=f"TensorArray.scatter: {len(indices)} indices but "
                                           f"the value has {tensor.shape[0]} rows")
    for k, i in enumerate(indices):
        i = _check_index(lst, i, "write to", resize_if_index_out_of_bounds and lst.resizable)
        _check_item(lst, tensor[k])
        lst = lst.with_item(i, tensor[k])
    return lst


def _concat(lst, element_dtype=None, element_shape=None):
    lst = as_list_value(lst)
    items = _fill_unwritten(lst, lst.items.to_list(), element_dtype, element_shape)
    dtype = element_dtype or lst.element_dtype
    lengths = np.array([np.shape(v)[0] for v in items], dtype=np.int64)
    if not items:
        shape = as_shape(element_shape)
        if shape.rank is None or not TensorShape(shape.as_list()[1:]).is_fully_defined():
            raise InvalidArgumentError(
                message="TensorArray has size zero, but element shape is not fully defined; "
                        "cannot concat an empty TensorArray")
        return _zeros(dtype, [0] + shape.as_list()[1:]), lengths
    return np.concatenate([np.asarray(v) for v in items]).astype(dtype.numpy_dtype,
                                                                 copy=False), lengths


def _split(tensor, lengths, element_dtype=None, element_shape=None):
    tensor = np.asarray(tensor)
    lengths = np.ravel(lengths).astype(np.int64)
    if lengths.sum() != tensor.shape[0] or (lengths < 0).any():
        raise InvalidArgumentError(
            message=f"TensorArray.split: lengths {lengths.tolist()} must be non-negative and sum "
                    f"to the value's first dimension {tensor.shape[0]}")
    bounds = np.concatenate([[0], np.cumsum(lengths)])
    items = [tensor[bounds[i]:bounds[i + 1]] for i in range(len(lengths))]
    return TensorListValue(element_dtype, TensorShape([None] + list(tensor.shape[1:])),
                           AppendVector.from_list(items))


def _length(lst):
    return np.int32(as_list_value(lst).size)


def _pop_back_infer(inputs, attrs):
    expect_arity("TensorListPopBack", inputs, 1)
    _expect_list("TensorListPopBack", inputs[0])
    return _variant_out(inputs, attrs) + [_element_type(attrs)]


def _pop_back(lst, element_dtype=None, element_shape=None):
    if type(lst) is not TensorListValue and hasattr(lst, "pop_back"):
        return lst.pop_back()  # a loop accumulator: O(1), its elements are all set
    lst = as_list_value(lst)
    if lst.size == 0:
        raise InvalidArgumentError(message="Trying to pop from an empty list")
    item = _fill_unwritten(lst, [lst.items.get(lst.size - 1)], element_dtype, element_shape)[0]
    return lst.with_items(lst.items.resized(lst.size - 1)), item


_DT = ("element_dtype",)
register_op("TensorListReserve", _reserve_infer, _reserve,
            kernel_attrs=("element_dtype", "element_shape", "resizable"))
register_op("TensorListSetItem", _set_item_infer, _set_item,
            kernel_attrs=_DT + ("resize_if_index_out_of_bounds",))
register_op("TensorListGetItem", _get_item_infer, _get_item,
            kernel_attrs=_DT + ("element_shape",))
register_op("TensorListStack", _stack_infer, _stack,
            kernel_attrs=_DT + ("element_shape", "num_elements"))
register_op("TensorListGather", _gather_infer, _gather, kernel_attrs=_DT + ("element_shape",))
register_op("TensorListFromTensor", _from_tensor_infer, _from_tensor,
            kernel_attrs=_DT + ("element_shape",))
register_op("TensorListScatterIntoExistingList", _scatter_infer, _scatter,
            kernel_attrs=_DT + ("resize_if_index_out_of_bounds",))
register_op("TensorListConcatV2", _concat_infer, _concat, kernel_attrs=_DT + ("element_shape",))
register_op("TensorListSplit", _split_infer, _split, kernel_attrs=_DT + ("element_shape",))
register_op("TensorListLength", _length_infer, _length)
register_op("TensorListPopBack", _pop_back_infer, _pop_back, kernel_attrs=_DT + ("element_shape",))
