"""TensorArrays (TensorList ops, graph/ops/tensor_array.py) as preallocated buffers.

A list whose size is known at compile time is one array ``[size, *element]``
updated in place (``.at[i].set``), carried through loops like any value. Its
buffer is made at the first write when the element shape is not known
before (``ListBuffer.data`` is None until then). Push/pop stacks (a While
gradient's accumulators) are ``StackBuffer``s sized by the loop's trip count
bound. Lists that grow at run time (``dynamic_size=True``) cannot be compiled.
"""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from graph.xla.lowering import Unsupported, lowering, static_value


@jax.tree_util.register_pytree_node_class
class ListBuffer:
    """A fixed-size TensorList: ``size`` elements of ``dtype`` in ``data`` (or not yet made)."""

    __slots__ = ("size", "dtype", "data")

    def __init__(self, size: int, dtype, data=None):
        self.size, self.dtype, self.data = size, np.dtype(dtype), data

    def tree_flatten(self):
        return ((self.data,) if self.data is not None else ()), (self.size, self.dtype)

    @classmethod
    def tree_unflatten(cls, aux, children):
        return cls(aux[0], aux[1], children[0] if children else None)

    def written(self, item_shape) -> jax.Array:
        if self.data is not None:
            return self.data
        return jnp.zeros((self.size, *item_shape), self.dtype)


def allocate_like(value, *templates):
    """``value`` with a zero buffer when it is an unmade list that a template has made."""
    if not isinstance(value, ListBuffer) or value.data is not None:
        return value
    for t in templates:
        if isinstance(t, ListBuffer) and t.data is not None:
            return ListBuffer(value.size, value.dtype, jnp.zeros(t.data.shape, t.data.dtype))
    return value


def _dtype(node):
    return node.attrs["element_dtype"].numpy_dtype


def _element_shape(node, lst: ListBuffer) -> tuple:
    if lst.data is not None:
        return lst.data.shape[1:]
    shape = node.attrs.get("element_shape")
    if shape is None or not shape.is_fully_defined():
        raise Unsupported(node, "a TensorArray read before any write needs a fully known "
                                "element_shape")
    return tuple(shape.as_tuple())


@lowering("TensorListReserve")
def _reserve(ctx, node, num_elements):
    if node.attrs.get("resizable", True):
        raise Unsupported(node, "a TensorArray with dynamic_size=True grows at run time; give "
                                "it a fixed size")
    size = int(static_value(num_elements, node, "the TensorArray size"))
    lst = ListBuffer(size, _dtype(node))
    shape = node.attrs.get("element_shape")
    if shape is not None and shape.is_fully_defined():
        lst.data = jnp.zeros((size, *shape.as_tuple()), lst.dtype)
    return lst


@lowering("TensorListFromTensor")
def _from_tensor(ctx, node, tensor):
    return ListBuffer(jnp.shape(tensor)[0], _dtype(node), jnp.asarray(tensor))


@lowering("TensorListSetItem")
def _set_item(ctx, node, lst, index, item):
    return ListBuffer(lst.size, lst.dtype, lst.written(jnp.shape(item)).at[index].set(item))


@lowering("TensorListScatterIntoExistingList")
def _scatter(ctx, node, lst, tensor, indices):
    data = lst.written(jnp.shape(tensor)[1:])
    return ListBuffer(lst.size, lst.dtype, data.at[indices].set(tensor))


@lowering("TensorListGetItem")
def _get_item(ctx, node, lst, index):
    return lst.written(_element_shape(node, lst))[index]


@lowering("TensorListStack")
def _stack(ctx, node, lst):
    return lst.written(_element_shape(node, lst))


@lowering("TensorListGather")
def _gather(ctx, node, lst, indices):
    return lst.written(_element_shape(node, lst))[indices]


@lowering("TensorListConcatV2")
def _concat(ctx, node, lst):
    data = lst.written(_element_shape(node, lst))
    return jnp.reshape(data, (-1, *data.shape[2:])), np.full(
        lst.size, data.shape[1] if data.ndim > 1 else 1, np.int64)


@lowering("TensorListLength")
def _length(ctx, node, lst):
    return lst.count if isinstance(lst, StackBuffer) else np.int32(lst.size)


@lowering("TensorListZerosLike")
def _zeros_like(ctx, node, lst):
    data = None if lst.data is None else jax.tree_util.tree_map(jnp.zeros_like, lst.data)
    if isinstance(lst, StackBuffer):  # (the gradient of a loop's accumulator)
        return StackBuffer(lst.dtype, data, lst.count)  # (its items' bound: unknown)
    return ListBuffer(lst.size, lst.dtype, data)


@lowering("TensorListBinaryAdd")
def _binary_add(ctx, node, a, b):
    if a.data is None or b.data is None:
        return a if b.data is None else b
    if isinstance(a, StackBuffer) != isinstance(b, StackBuffer) or \
            jax.tree_util.tree_structure(a.data) != jax.tree_util.tree_structure(b.data) or \
            any(x.shape != y.shape for x, y in zip(jax.tree_util.tree_leaves(a.data),
                                                   jax.tree_util.tree_leaves(b.data))):
        raise Unsupported(node, "it adds lists whose buffers differ in size")
    data = jax.tree_util.tree_map(jnp.add, a.data, b.data)
    if isinstance(a, StackBuffer):
        return StackBuffer(a.dtype, data, a.count)
    return ListBuffer(a.size, a.dtype, data)


# -- stacks: EmptyTensorList + PushBack/PopBack (a While gradient's accumulators) ----------

@jax.tree_util.register_pytree_node_class
class StackBuffer:
    """A TensorList used as a stack: ``data[:count]`` are its elements.

    Outside loops ``count`` is a Python int and a push appends to ``data`` (its
    size is known at compile time). A While that pushes onto it first gives it
    room for every iteration (control_flow.py bounds the trip count); in the
    loop ``count`` is a run-time value and a push writes in place. An element
    may itself be a stack (a nested loop's accumulators, which the outer loop
    keeps per iteration): ``data`` is then a StackBuffer of stacked leaves.

    ``bound`` is a compile-time upper bound of its items (None when unknown,
    ``NO_ITEMS`` before the first push): a stack of a nested loop's iteration
    counts gives the backward loops that count them down their trip bound.
    """

    __slots__ = ("dtype", "data", "count", "bound")

    def __init__(self, dtype, data=None, count=0, bound=None):
        self.dtype, self.data, self.count, self.bound = np.dtype(dtype), data, count, bound

    def tree_flatten(self):  # a compile-time count stays one (not a traced leaf)
        if self.growable:
            return (self.data,), (self.dtype, self.count, self.bound)
        return (self.data, self.count), (self.dtype, None, self.bound)

    @classmethod
    def tree_unflatten(cls, aux, children):
        dtype, count, bound = aux
        if count is None:
            return cls(dtype, *children, bound=bound)
        return cls(dtype, children[0], count, bound)

    @property
    def growable(self) -> bool:
        """Whether pushes append (its size known at compile time) rather than write in place."""
        return isinstance(self.count, int)

    def with_room(self, extra: int, pushed) -> "StackBuffer":
        """This stack with ``extra`` free slots and a run-time count, for a loop to push into
        (``pushed``: the abstract stack the loop body returns, for the elements' shapes)."""
        def room(leaf, kept):
            pad = jnp.zeros((extra, *leaf.shape[1:]), leaf.dtype)
            return pad if kept is None else jnp.concatenate([kept[:self.count], pad])
        kept = self.data if self.data is not None else jax.tree_util.tree_map(
            lambda leaf: None, pushed.data)
        data = jax.tree_util.tree_map(room, pushed.data, kept, is_leaf=lambda v: v is None)
        return StackBuffer(self.dtype, data, jnp.asarray(self.count, jnp.int32), pushed.bound)

    def push(self, item, bound=None) -> "StackBuffer":
        """This stack with ``item`` on top (``bound``: the item's upper bound, or None)."""
        if self.growable:
            data = jax.tree_util.tree_map(lambda x: x[None], item) if self.data is None else \
                jax.tree_util.tree_map(lambda d, x: jnp.concatenate([d[:self.count], x[None]]),
                                       self.data, item)
        else:
            data = jax.tree_util.tree_map(lambda d, x: d.at[self.count].set(x), self.data, item)
        both = None if bound is None or self.bound is None else max(self.bound, bound)
        return StackBuffer(self.dtype, data, self.count + 1, both)

    def pop(self):
        count = self.count - 1
        if self.growable:
            item = jax.tree_util.tree_map(lambda d: d[count], self.data)
        else:
            at = jnp.maximum(count, 0)
            item = jax.tree_util.tree_map(
                lambda d: lax.dynamic_index_in_dim(d, at, keepdims=False), self.data)
        return StackBuffer(self.dtype, self.data, count, self.bound), item


NO_ITEMS = float("-inf")  # the bound of a stack nothing was pushed onto


@lowering("EmptyTensorList")
def _empty(ctx, node):
    return StackBuffer(_dtype(node), bound=NO_ITEMS)


@lowering("TensorListPushBack")
def _push_back(ctx, node, stack, item):
    if not isinstance(stack, StackBuffer) or isinstance(item, ListBuffer) or \
            (isinstance(item, StackBuffer) and item.growable):
        raise Unsupported(node, "only stacks of tensors and of loop accumulators (a loop's "
                                "gradient) can be compiled")
    bound = None
    if not isinstance(item, StackBuffer):
        bound = _scalar_bound(ctx, item)
        item = jnp.asarray(item, stack.dtype)
    return stack.push(item, bound)


def _scalar_bound(ctx, value) -> int | None:
    """The compile-time upper bound of a scalar integer ``value``, or None."""
    bound = ctx.bound_of(value)
    if bound is None or np.shape(bound) != () or not np.issubdtype(np.asarray(bound).dtype,
                                                                     np.integer):
        return None
    return int(bound)


@lowering("TensorListPopBack")
def _pop_back(ctx, node, stack):
    if not isinstance(stack, StackBuffer):
        raise Unsupported(node, "popping from a TensorArray cannot be compiled")
    if stack.data is None:
        raise Unsupported(node, "it pops from a stack that is empty at compile time")
    rest, item = stack.pop()
    if stack.bound is not None and stack.bound != NO_ITEMS:
        ctx.bounds[id(item)] = (item, np.int64(stack.bound))
    return rest, item


@lowering("TensorListResize", "TensorListSplit")
def _dynamic(ctx, node, *args):
    raise Unsupported(node, "a TensorArray whose size is only known at run time cannot be "
                            "compiled")
