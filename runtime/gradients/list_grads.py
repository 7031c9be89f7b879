"""Gradients of the TensorList ops that stage ``tf.TensorArray``.

The gradient of a TensorList (a ``variant`` flow) is another TensorList of
the same length holding the gradient of each element; an element nobody
gave a gradient reads as zeros (``TensorListZerosLike``), and two gradients
of one list add element by element (``TensorListBinaryAdd``, through
``util.add``). Each rule is TensorFlow's (list_ops.py): a read's gradient
writes into a zero list, a write's gradient reads the element back and
zeroes it in the list passed on, stack and unstack are each other's
gradient, and so are push and pop.

Gather's gradient adds the rows of repeated indices (TensorFlow's scatter
keeps only the last); a scatter with repeated indices still hands every
repeat the gradient of the element, as TensorFlow does.
"""
from __future__ import annotations

from graph.shapes import TensorShape
from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import zeros_for
from runtime.ops import array_ops as A
from runtime.ops.core import apply_op

NotDifferentiable("TensorListReserve", "TensorListLength", "EmptyTensorList",
                  "TensorListZerosLike")


def _dtype(op, x=None):
    return op.attrs.get("element_dtype") or (x.dtype if x is not None else None)


def _tail_shape(x):
    """The element shape of a tensor stacked along axis 0 (x's shape without its first dim)."""
    if x.shape.rank is None:
        return x.shape
    return TensorShape(x.shape.as_list()[1:])


def _length(lst):
    return apply_op("TensorListLength", [lst], name="TensorListLength")


def _zeros_list(lst):
    return zeros_for(lst)


def _zeros_item(item):
    """Zeros shaped like a list element, without reading the element when its shape is known."""
    if item.shape.is_fully_defined():
        return A.zeros(item.shape.as_list(), dtype=item.dtype)
    return A.zeros_like(item)


def _set_item(lst, index, item, dtype, resize=False):
    return apply_op("TensorListSetItem", [lst, index, item],
                    attrs={"element_dtype": dtype, "resize_if_index_out_of_bounds": resize},
                    name="TensorListSetItem")


def _get_item(lst, index, dtype, shape):
    return apply_op("TensorListGetItem", [lst, index],
                    attrs={"element_dtype": dtype, "element_shape": shape},
                    name="TensorListGetItem")


@RegisterGradient("TensorListSetItem")
def _set_item_grad(op, dlist):
    lst, index, item = op.inputs
    dtype = _dtype(op, item)
    list_grad = _set_item(dlist, index, _zeros_item(item), dtype)
    if op.attrs.get("resize_if_index_out_of_bounds"):  # the write may have grown the list
        list_grad = apply_op("TensorListResize", [list_grad, _length(lst)],
                             name="TensorListResize")
    return [list_grad, None, _get_item(dlist, index, dtype, item.shape)]


@RegisterGradient("TensorListGetItem")
def _get_item_grad(op, g):
    lst, index = op.inputs
    return [_set_item(_zeros_list(lst), index, g, _dtype(op, g)), None]


@RegisterGradient("TensorListStack")
def _stack_grad(op, g):
    return [apply_op("TensorListFromTensor", [g],
                     attrs={"element_dtype": _dtype(op, g), "element_shape": _tail_shape(g)},
                     name="TensorListFromTensor")]


@RegisterGradient("TensorListFromTensor")
def _from_tensor_grad(op, dlist):
    (tensor,) = op.inputs
    n = tensor.shape[0] if tensor.shape.rank is not None else None
    return [apply_op("TensorListStack", [dlist],
                     attrs={"element_dtype": tensor.dtype, "element_shape": _tail_shape(tensor),
                            "num_elements": -1 if n is None else n},
                     name="TensorListStack")]


@RegisterGradient("TensorListGather")
def _gather_grad(op, g):
    lst, indices = op.inputs
    rows = apply_op("UnsortedSegmentSum", [g, indices, _length(lst)], name="UnsortedSegmentSum")
    return [apply_op("TensorListFromTensor", [rows],
                     attrs={"element_dtype": g.dtype, "element_shape": _tail_shape(g)},
                     name="TensorListFromTensor"), None]


@RegisterGradient("TensorListScatterIntoExistingList")
def _scatter_grad(op, dlist):
    lst, tensor, indices = op.inputs
    list_grad = apply_op("TensorListScatterIntoExistingList",
                         [dlist, A.zeros_like(tensor), indices],
                         attrs={"element_dtype": tensor.dtype,
                                "resize_if_index_out_of_bounds": False},
                         name="TensorListScatter")
    if op.attrs.get("resize_if_index_out_of_bounds"):
        list_grad = apply_op("TensorListResize", [list_grad, _length(lst)],
                             name="TensorListResize")
    tensor_grad = apply_op("TensorListGather", [dlist, indices],
                           attrs={"element_dtype": tensor.dtype,
                                  "element_shape": _tail_shape(tensor)},
                           name="TensorListGather")
    return [list_grad, tensor_grad, None]


@RegisterGradient("TensorListConcatV2")
def _concat_grad(op, g, _lengths_grad=None):
    lengths = op.outputs[1]
    return [apply_op("TensorListSplit", [g, lengths],
                     attrs={"element_dtype": g.dtype,
                            "element_shape": op.attrs.get("element_shape")},
                     name="TensorListSplit")]


@RegisterGradient("TensorListSplit")
def _split_grad(op, dlist):
    tensor, lengths = op.inputs
    attrs = {"element_dtype": tensor.dtype, "element_shape": op.attrs.get("element_shape")}
    # Elements nobody gave a gradient are unset in dlist and may differ in length: add
    # dlist to explicit zero pieces so that concat sees every element.
    zeros = apply_op("TensorListSplit", [A.zeros_like(tensor), lengths], attrs=attrs,
                     name="TensorListSplit")
    full = apply_op("TensorListBinaryAdd", [zeros, dlist], name="TensorListBinaryAdd")
    value, _ = apply_op("TensorListConcatV2", [full], attrs=attrs, name="TensorListConcat")
    return [value, None]


@RegisterGradient("TensorListPopBack")
def _pop_back_grad(op, dlist, ditem):
    rest, item = op.outputs
    if dlist is None:
        dlist = _zeros_list(rest)
    if ditem is None:
        ditem = _zeros_item(item)
    return [apply_op("TensorListPushBack", [dlist, ditem], attrs={"element_dtype": item.dtype},
                     name="TensorListPushBack")]


@RegisterGradient("TensorListPushBack")
def _push_back_grad(op, dlist):
    _, item = op.inputs
    rest, ditem = apply_op("TensorListPopBack", [dlist],
                           attrs={"element_dtype": item.dtype, "element_shape": item.shape},
                           name="TensorListPopBack")
    return [rest, ditem]


@RegisterGradient("TensorListBinaryAdd")
def _binary_add_grad(op, g):
    return [g, g]


@RegisterGradient("TensorListResize")
def _resize_grad(op, g):
    lst, _ = op.inputs
    return [apply_op("TensorListResize", [g, _length(lst)], name="TensorListResize"), None]
