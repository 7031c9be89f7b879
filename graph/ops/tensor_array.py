"""TensorList ops: the graph side of ``TensorArray``.

A TensorArray travels through a graph as one ``variant`` tensor (its
"flow") whose run-time value is a ``TensorListValue``: an immutable record
holding the elements in a persistent vector. Every write returns a new
value that shares all but one path of the old one (a 32-way trie), so a
loop of n writes costs O(n log n), never O(n^2), and an old flow still
reads its old contents: nothing is ever mutated in place.

Op names follow TensorFlow 2, which stages ``tf.TensorArray`` as TensorList
ops (``TensorListReserve``, ``TensorListSetItem``, ``TensorListStack``...).
The element shape each op is inferred with comes from an ``element_shape``
attr that the runtime ``TensorArray`` fills from what it learned while
tracing, so that ``stack()`` after a staged loop has a static shape.
"""
from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np

from graph import dtypes
from graph.dtypes import DType
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape, as_shape

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


class PersistentVector:
    """An immutable vector with O(log32 n) ``set``: a trie copied along one path.

    Empty slots hold None. Nodes are lists that are never changed once a
    vector refers to them.
    """

    __slots__ = ("size", "_shift", "_root")

    def __init__(self, size: int = 0, shift: int = 0, root: list | None = None):
        self.size = size
        self._shift = shift
        self._root = root if root is not None else [None] * _WIDTH

    @classmethod
    def from_list(cls, items: list) -> "PersistentVector":
        nodes = [list(items[i:i + _WIDTH]) for i in range(0, len(items), _WIDTH)] or [[]]
        shift = 0
        while len(nodes) > 1:
            nodes = [nodes[i:i + _WIDTH] for i in range(0, len(nodes), _WIDTH)]
            shift += _BITS
        root = nodes[0]
        return cls(len(items), shift, root + [None] * (_WIDTH - len(root)))

    def _capacity(self) -> int:
        return 1 << (self._shift + _BITS)

    def get(self, i: int):
        node = self._root
        for level in range(self._shift, 0, -_BITS):
            node = node[(i >> level) & _MASK]
            if node is None:
                return None
        return node[i & _MASK] if i & _MASK < len(node) else None

    def set(self, i: int, value) -> "PersistentVector":
        """A new vector with element ``i`` set (growing the size to ``i + 1`` if needed)."""
        root, shift = self._root, self._shift
        while i >= (1 << (shift + _BITS)):
            root = [root] + [None] * (_WIDTH - 1)
            shift += _BITS
        new_root = list(root)
        node = new_root
        for level in range(shift, 0, -_BITS):
            k = (i >> level) & _MASK
            child = node[k]
            child = list(child) if child is not None else [None] * _WIDTH
            if len(child) < _WIDTH:
                child += [None] * (_WIDTH - len(child))
            node[k] = child
            node = child
        if len(node) < _WIDTH:
            node += [None] * (_WIDTH - len(node))
        node[i & _MASK] = value
        return PersistentVector(max(self.size, i + 1), shift, new_root)

    def resized(self, size: int) -> "PersistentVector":
        if size >= self.size:
            return PersistentVector(size, self._shift, self._root)
        if self.size - size > _WIDTH:
            return PersistentVector.from_list(self.to_list()[:size])
        vec = self  # a pop: clear the dropped slots so that growing again shows None
        for i in range(size, self.size):
            vec = vec.set(i, None)
        return PersistentVector(size, vec._shift, vec._root)

    def to_list(self) -> list:
        out: list = []
        self._collect(self._root, self._shift, out)
        del out[self.size:]
        out += [None] * (self.size - len(out))
        return out

    def _collect(self, node, shift, out) -> None:
        if shift == 0:
            out.extend(node)
            out.extend([None] * (_WIDTH - len(node)))
            return
        for child in node:
            if len(out) >= self.size:
                return
            if child is None:
                out.extend([None] * (1 << shift))
            else:
                self._collect(child, shift - _BITS, out)


class _Cleared:
    """Marks an element that an eager ``read`` with clear_after_read removed."""

    def __repr__(self) -> str:
        return "<cleared>"


CLEARED = _Cleared()


@dataclass(frozen=True, slots=True, eq=False)
class TensorListValue:
    """The run-time value of a TensorArray flow: dtype, element shape, elements."""

    element_dtype: DType | None
    element_shape: TensorShape
    items: PersistentVector
    resizable: bool = True

    @property
    def size(self) -> int:
        return self.items.size

    def with_item(self, index: int, value) -> "TensorListValue":
        # direct construction: dataclasses.replace costs 1.5 µs, a third of a staged write
        return TensorListValue(self.element_dtype, self.element_shape,
                               self.items.set(index, value), self.resizable)

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
                           PersistentVector().resized(n), bool(resizable))


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
        lst = replace(lst, element_dtype=element_dtype)
    return lst.with_item(i, item)


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

    An element an eager ``read`` cleared (clear_after_read) is an error, not zeros.
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
    return _stacked(lst, lst.items.to_list(), element_dtype, element_shape)


def _gather(lst, indices, element_dtype=None, element_shape=None):
    lst = as_list_value(lst)
    indices = [_check_index(lst, i, "read from", False) for i in np.ravel(indices)]
    return _stacked(lst, [lst.items.get(i) for i in indices], element_dtype, element_shape,
                    indices)


def _from_tensor(tensor, element_dtype=None, element_shape=None):
    tensor = np.asarray(tensor)
    items = [tensor[i] for i in range(tensor.shape[0])]
    return TensorListValue(element_dtype, as_shape(tensor.shape[1:]),
                           PersistentVector.from_list(items))


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
    items = lst.items.to_list()
    if any(v is None for v in items):
        raise InvalidArgumentError(message="TensorArray.concat: every element must be written "
                                           "before concat()")
    _fill_unwritten(lst, items, element_dtype, element_shape)  # raises on cleared elements
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
                           PersistentVector.from_list(items))


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
    return replace(lst, items=lst.items.resized(lst.size - 1)), item


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
