"""Ops that only gradients need: StopGradient, StridedSliceGrad, UnsortedSegmentSum, and
the TensorList ops of loop accumulators and list gradients (see below).

They live in the graph layer (not in runtime/gradients) so that a saved
graph holding a gradient still loads in a process that never imported the
runtime. Names follow TensorFlow; ``StridedSliceGrad`` takes our
``StridedSlice`` spec attr instead of TensorFlow's begin/end/strides masks.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.array import _check_int_input, _error, _ints, _shape_value
from graph.ops.indexing import numpy_key, slice_spec_items
from graph.ops.infer import expect_arity
from graph.ops.tensor_array import CLEARED, PersistentVector, TensorListValue, as_list_value
from graph.registry import register_op
from graph.shapes import TensorShape, as_shape


def _stop_gradient_infer(inputs, attrs):
    if len(inputs) != 1:
        raise _error(f"StopGradient takes 1 input, got {len(inputs)}")
    return [TensorType(inputs[0].dtype, inputs[0].shape)]


# -- StridedSliceGrad: scatter dy back into zeros of the sliced input's shape ------------

def _shape_from(op: str, shape_in) -> TensorShape:
    _check_int_input(op, shape_in, "shape", rank=1)
    dims = _shape_value(shape_in)
    if dims is not None:
        return TensorShape(dims)
    n = shape_in.shape.as_tuple()[0] if shape_in.shape.rank == 1 else None
    return TensorShape(None if n is None else [None] * n)


def _strided_slice_grad_infer(inputs, attrs):
    if len(inputs) < 2:
        raise _error("StridedSliceGrad takes the input's shape, dy and the slice bounds")
    slice_spec_items(attrs["spec"])
    return [TensorType(inputs[1].dtype, _shape_from("StridedSliceGrad", inputs[0]))]


def _strided_slice_grad(shape, dy, *bounds, spec):
    dy = np.asarray(dy)
    out = np.zeros(tuple(int(d) for d in np.asarray(shape)), dtype=dy.dtype)
    key = numpy_key(spec, bounds, out.shape)
    out[key] = dy.reshape(out[key].shape)
    return out


# -- UnsortedSegmentSum: rows of data added into num_segments rows -----------------------

def _segment_sum_infer(inputs, attrs):
    if len(inputs) != 3:
        raise _error(f"UnsortedSegmentSum takes 3 inputs, got {len(inputs)}")
    data, ids, num = inputs
    _check_int_input("UnsortedSegmentSum", ids, "segment_ids")
    _check_int_input("UnsortedSegmentSum", num, "num_segments", rank=0)
    n = _ints(num)
    count = n[0] if n else None
    if data.shape.rank is None or ids.shape.rank is None:
        return [TensorType(data.dtype, TensorShape(None))]
    tail = data.shape.as_tuple()[ids.shape.rank:]
    return [TensorType(data.dtype, TensorShape([count, *tail]))]


def _segment_sum(data, segment_ids, num_segments):
    data, ids = np.asarray(data), np.asarray(segment_ids)
    n = int(num_segments)
    bad = ids >= n
    if np.any(bad):
        raise _error(f"UnsortedSegmentSum: segment_ids[{np.argwhere(bad)[0].tolist()}] = "
                     f"{int(ids[bad][0])} is out of range [0, {n})")
    out = np.zeros((n,) + data.shape[ids.ndim:], dtype=data.dtype)
    keep = ids >= 0  # TensorFlow drops the rows of negative ids
    np.add.at(out, ids[keep], data[keep])
    return out


register_op("StopGradient", _stop_gradient_infer, lambda x: x)
register_op("StridedSliceGrad", _strided_slice_grad_infer, _strided_slice_grad,
            kernel_attrs=("spec",))
register_op("UnsortedSegmentSum", _segment_sum_infer, _segment_sum)


# -- TensorList ops for gradients: accumulators, zeros, sums ------------------------------
#
# A differentiated while loop pushes the values its gradient needs onto
# accumulators (``EmptyTensorList`` + ``TensorListPushBack`` in the forward
# body) and pops them in the backward loop (``TensorListPopBack``), as
# TensorFlow's while_v2 does. An accumulator is a ``ListStack``: cons cells,
# so a push or a pop costs one small object and never copies. The gradient of
# a TensorList is a TensorList whose unset elements are zeros
# (``TensorListZerosLike``); two gradients of one list add element by element
# (``TensorListBinaryAdd``, what TensorFlow's AddN does for a variant).

class ListStack:
    """A TensorList value grown and shrunk only at its end, in O(1) and without copying.

    Elements live in nested pairs ``(last, rest)``. Any other list op sees it
    through ``as_tensor_list`` (graph/ops/tensor_array.as_list_value), which
    copies it into a ``TensorListValue`` once.
    """

    __slots__ = ("element_dtype", "element_shape", "size", "_cells")

    def __init__(self, element_dtype, element_shape: TensorShape, size: int = 0, cells=None):
        self.element_dtype = element_dtype
        self.element_shape = element_shape
        self.size = size
        self._cells = cells

    def push_back(self, item) -> "ListStack":
        return ListStack(self.element_dtype, self.element_shape, self.size + 1, (item, self._cells))

    def pop_back(self) -> tuple:
        if not self.size:
            raise InvalidArgumentError(message="Trying to pop from an empty list")
        item, rest = self._cells
        return ListStack(self.element_dtype, self.element_shape, self.size - 1, rest), item

    def items(self) -> list:
        out, cells = [], self._cells
        while cells is not None:
            out.append(cells[0])
            cells = cells[1]
        out.reverse()
        return out

    def as_tensor_list(self) -> TensorListValue:
        return TensorListValue(self.element_dtype, self.element_shape,
                               PersistentVector.from_list(self.items()))

    def __repr__(self) -> str:
        dtype = self.element_dtype.name if self.element_dtype else "?"
        return f"<TensorList of {self.size} {dtype} elements>"


def _variant_out(inputs=None, attrs=None):
    return [TensorType(dtypes.variant, TensorShape([]))]


def _expect_list(op: str, x) -> None:
    if x.dtype is not dtypes.variant:
        raise InvalidArgumentError(
            message=f"{op}: expected a TensorList (variant), got a {x.dtype.name} tensor")


def _empty_list_infer(inputs, attrs):
    expect_arity("EmptyTensorList", inputs, 0)
    if attrs.get("element_dtype") is None:
        raise InvalidArgumentError(message="EmptyTensorList needs an element_dtype attr")
    return _variant_out()


def _empty_list(element_dtype=None, element_shape=None):
    return ListStack(element_dtype, as_shape(element_shape))


def _push_back_infer(inputs, attrs):
    expect_arity("TensorListPushBack", inputs, 2)
    _expect_list("TensorListPushBack", inputs[0])
    dtype = attrs.get("element_dtype")
    if dtype is not None and inputs[1].dtype != dtype:
        raise InvalidArgumentError(
            message=f"TensorListPushBack: the list holds {dtype.name} elements but the pushed "
                    f"value is a {inputs[1].dtype.name} tensor; cast it with tf.cast first.")
    return _variant_out()


def _push_back(lst, item):
    if type(lst) is ListStack:  # the accumulator of a differentiated loop: the hot path
        return ListStack(lst.element_dtype, lst.element_shape, lst.size + 1, (item, lst._cells))
    lst = as_list_value(lst)
    if not lst.element_shape.is_compatible_with(np.shape(item)):
        raise InvalidArgumentError(
            message=f"Could not push back to a TensorList: the value shape is "
                    f"{TensorShape(np.shape(item))} which is incompatible with the list's "
                    f"element shape {lst.element_shape}")
    return lst.with_item(lst.size, item)


def _unary_list_infer(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        _expect_list(op, inputs[0])
        return _variant_out()
    return infer


def _uniform_shape(items: list):
    """The one shape of the written elements, or None when they differ (or none is written)."""
    shapes = {np.shape(v) for v in items if v is not None and v is not CLEARED}
    return shapes.pop() if len(shapes) == 1 else None


def _zeros_like_list(lst):
    """A list of the same length whose elements all read as zeros of their element's shape.

    Unset elements with a known common shape cost nothing; only a list whose
    elements differ in shape (``split``) gets explicit zeros, one per element.
    """
    lst = as_list_value(lst)
    shape = lst.element_shape
    if shape.is_fully_defined():
        return TensorListValue(lst.element_dtype, shape, PersistentVector().resized(lst.size))
    items = lst.items.to_list()
    common = _uniform_shape(items)
    if common is not None or not any(v is not None for v in items):
        known = TensorShape(common) if common is not None else shape
        return TensorListValue(lst.element_dtype, known, PersistentVector().resized(lst.size))
    zeros = [None if v is None or v is CLEARED else np.zeros_like(np.asarray(v))
             for v in items]
    return TensorListValue(lst.element_dtype, shape, PersistentVector.from_list(zeros))


def _binary_add_infer(inputs, attrs):
    expect_arity("TensorListBinaryAdd", inputs, 2)
    _expect_list("TensorListBinaryAdd", inputs[0])
    _expect_list("TensorListBinaryAdd", inputs[1])
    return _variant_out()


def _binary_add(a, b):
    """Element-wise sum of two gradient lists; an unset element counts as zero."""
    a, b = as_list_value(a), as_list_value(b)
    xs, ys = a.items.to_list(), b.items.to_list()
    n = max(len(xs), len(ys))
    xs += [None] * (n - len(xs))
    ys += [None] * (n - len(ys))
    out = []
    for x, y in zip(xs, ys):
        if x is None or x is CLEARED:
            out.append(None if y is CLEARED else y)
        elif y is None or y is CLEARED:
            out.append(x)
        else:
            if np.shape(x) != np.shape(y):
                raise InvalidArgumentError(
                    message=f"TensorListBinaryAdd: elements of shapes {np.shape(x)} and "
                            f"{np.shape(y)} cannot be added")
            out.append(np.add(x, y))
    shape = a.element_shape.merge_with(b.element_shape) \
        if a.element_shape.is_compatible_with(b.element_shape) else a.element_shape
    return TensorListValue(a.element_dtype or b.element_dtype, shape,
                           PersistentVector.from_list(out))


def _resize_infer(inputs, attrs):
    expect_arity("TensorListResize", inputs, 2)
    _expect_list("TensorListResize", inputs[0])
    _check_int_input("TensorListResize", inputs[1], "size", rank=0)
    return _variant_out()


def _resize(lst, size):
    lst = as_list_value(lst)
    n = int(size)
    if n < 0:
        raise InvalidArgumentError(message=f"TensorListResize: size must be >= 0, got {n}")
    return TensorListValue(lst.element_dtype, lst.element_shape, lst.items.resized(n),
                           lst.resizable)


register_op("EmptyTensorList", _empty_list_infer, _empty_list,
            kernel_attrs=("element_dtype", "element_shape"))
register_op("TensorListPushBack", _push_back_infer, _push_back)
register_op("TensorListZerosLike", _unary_list_infer("TensorListZerosLike"), _zeros_like_list)
register_op("TensorListBinaryAdd", _binary_add_infer, _binary_add)
register_op("TensorListResize", _resize_infer, _resize)
