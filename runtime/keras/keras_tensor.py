"""Keras 3's symbolic tensors: what ``tf.keras.Input`` returns and what a layer (or an
operator such as ``x + y``, ``x[:, 0]``) called on them returns.

A ``KerasTensor`` has a shape and a dtype, no value, and remembers the call that made it
(``_keras_history``: the operation, which of its calls, which of its outputs). The call is a
``Node``: the operation and its arguments, KerasTensors kept in place, so that a functional
model can make it again on real tensors. The output shapes come from running the call once
on placeholders in a scratch graph (its ops are thrown away; a layer builds its weights
there, in call order, as Keras builds them). A TensorFlow function given a KerasTensor
raises Keras's ValueError: only layers and operators take them.
"""
from __future__ import annotations

import operator

from graph import dtypes
from graph.dtypes import as_dtype
from graph.ir import Graph
from graph.shapes import as_shape
from runtime import context, nest
from runtime.tensor import SymbolicTensor, Tensor


def _base():
    """The layer base module (it imports this one, so it is looked up when used)."""
    from runtime.keras.layers import base
    return base


_NOT_A_TF_INPUT = (
    "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
    "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
    "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
    "operation (from the namespaces `keras.layers` and `keras.ops`). You are likely doing "
    "something like:\n\n```\nx = Input(...)\n...\ntf_fn(x)  # Invalid.\n```\n\nWhat you "
    "should do instead is wrap `tf_fn` in a layer:\n\n```\nclass MyLayer(Layer):\n    def "
    "call(self, x):\n        return tf_fn(x)\n\nx = MyLayer()(x)\n```\n")


def scratch_input(graph: Graph, dtype, shape) -> SymbolicTensor:
    """A placeholder input of a scratch graph, on which a layer's call builds its weights."""
    node = graph.add_node("Placeholder", attrs={"dtype": as_dtype(dtype), "shape": as_shape(shape)},
                          name="inputs")
    return SymbolicTensor(node.output(0))


def _operator(name, fn, swap=False):
    def method(self, *other):
        args = (other[0], self) if swap else (self,) + other
        return Operation(fn, name)(*args)
    method.__name__ = name
    return method


class KerasTensor:
    """The shape and dtype of a model's input, or of what a layer makes from it; no value."""

    def __init__(self, shape, dtype=dtypes.float32, name=None):
        self.shape = None if shape is None else tuple(shape)
        self.dtype = as_dtype(dtype).name  # (a string, as Keras 3's)
        self.name = name or _base().unique_name("keras_tensor")
        self._keras_history = None  # (operation, node index, tensor index)
        self._mask = None  # (dtype, shape) of the Keras mask the real tensor will carry

    @property
    def ndim(self):
        return None if self.shape is None else len(self.shape)

    def _as_tensor(self):  # (what convert_to_tensor asks of tensor-likes)
        raise ValueError(_NOT_A_TF_INPUT)

    def __array__(self, *args, **kwargs):
        raise ValueError(_NOT_A_TF_INPUT)

    __array_ufunc__ = None  # (numpy defers: ``np.float32(2) * x`` is ``x.__rmul__``)

    def __iter__(self):
        raise NotImplementedError("Iterating over a symbolic KerasTensor is not supported.")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean.")

    def __repr__(self):
        return (f"<KerasTensor shape={self.shape}, dtype={self.dtype}, sparse=False, "
                f"ragged=False, name={self.name}>")

    # Keras 3's operators: each records a call of an operation, named as Keras names it,
    # which runs TensorFlow's operator on the real tensors (TensorFlow's dtype rules).
    __add__ = _operator("add", operator.add)
    __radd__ = _operator("add", operator.add, swap=True)
    __sub__ = _operator("subtract", operator.sub)
    __rsub__ = _operator("subtract", operator.sub, swap=True)
    __mul__ = _operator("multiply", operator.mul)
    __rmul__ = _operator("multiply", operator.mul, swap=True)
    __truediv__ = _operator("true_divide", operator.truediv)
    __rtruediv__ = _operator("true_divide", operator.truediv, swap=True)
    __floordiv__ = _operator("floor_divide", operator.floordiv)
    __rfloordiv__ = _operator("floor_divide", operator.floordiv, swap=True)
    __mod__ = _operator("mod", operator.mod)
    __rmod__ = _operator("mod", operator.mod, swap=True)
    __pow__ = _operator("power", operator.pow)
    __rpow__ = _operator("power", operator.pow, swap=True)
    __matmul__ = _operator("matmul", operator.matmul)
    __rmatmul__ = _operator("matmul", operator.matmul, swap=True)
    __neg__ = _operator("negative", operator.neg)
    __abs__ = _operator("absolute", operator.abs)
    __lt__ = _operator("less", operator.lt)
    __le__ = _operator("less_equal", operator.le)
    __gt__ = _operator("greater", operator.gt)
    __ge__ = _operator("greater_equal", operator.ge)
    __ne__ = _operator("not_equal", operator.ne)  # (no __eq__: KerasTensors stay hashable)
    __and__ = _operator("logical_and", operator.and_)
    __rand__ = _operator("logical_and", operator.and_, swap=True)
    __or__ = _operator("logical_or", operator.or_)
    __ror__ = _operator("logical_or", operator.or_, swap=True)
    __xor__ = _operator("logical_xor", operator.xor)
    __rxor__ = _operator("logical_xor", operator.xor, swap=True)
    __invert__ = _operator("logical_not", operator.invert)
    __getitem__ = _operator("get_item", operator.getitem)


def has_keras_tensor(structure) -> bool:
    return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))


class Node:
    """One call of an operation: its arguments (KerasTensors in place), what it returned
    (``results``, KerasTensors in place) and the KerasTensors among them (``outputs``)."""

    def __init__(self, operation, args=(), kwargs=None, outputs=()):
        self.operation, self.args, self.kwargs = operation, tuple(args), dict(kwargs or {})
        self.inputs = [x for x in nest.flatten((self.args, self.kwargs))
                       if isinstance(x, KerasTensor)]
        self.results = outputs
        self.outputs = [x for x in nest.flatten(outputs) if isinstance(x, KerasTensor)]
        self.is_input = not self.inputs
        nodes = operation.__dict__.setdefault("_inbound_nodes", [])
        for i, x in enumerate(self.outputs):
            x._keras_history = (operation, len(nodes), i)
        nodes.append(self)

    def fill_in(self, values: dict):
        """The call's arguments with each KerasTensor replaced by ``values[id(tensor)]``."""
        return nest.map_structure(
            lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
            (self.args, self.kwargs))


class Operation:
    """A TensorFlow function recorded on KerasTensors (``x + y``, ``x[:, 0]``), named as
    Keras 3 names its operations (``add``, ``get_item_1``)."""

    def __init__(self, fn, kind):
        self.fn, self.kind, self.name = fn, kind, _base().unique_name(kind)

    def __call__(self, *args, **kwargs):
        if has_keras_tensor((args, kwargs)):
            return symbolic_call(self, args, kwargs)
        return self.fn(*args, **kwargs)

    def __repr__(self):
        return f"<Operation name={self.name}>"


def symbolic_call(operation, args, kwargs):
    """``operation(*args, **kwargs)`` on KerasTensors: runs it on placeholders in a scratch
    graph (building a layer's weights) and returns KerasTensors of the results' shapes and
    dtypes, the call recorded as their history."""
    base = _base()
    scratch = Graph("functional")

    def placeholder(x):
        if not isinstance(x, KerasTensor):
            return x
        value = scratch_input(scratch, x.dtype, x.shape)
        if x._mask is not None:
            base._set_keras_mask(value, scratch_input(scratch, *x._mask))
        return value

    with context.building(scratch):
        outputs = operation(*nest.map_structure(placeholder, list(args)),
                            **nest.map_structure(placeholder, dict(kwargs)))
    if isinstance(operation, base.Layer):
        operation._clear_losses()  # (the scratch graph's tensors)

    def symbolic(value):
        if not isinstance(value, Tensor):
            return value
        shape = value.shape
        result = KerasTensor(None if shape.rank is None else shape.as_list(), value.dtype)
        mask = base.get_keras_mask(value)
        if isinstance(mask, Tensor):
            result._mask = (mask.dtype, mask.shape.as_list() if mask.shape.rank is not None
                            else None)
        return result
    outputs = nest.map_structure(symbolic, outputs)
    Node(operation, args, kwargs, outputs)
    return outputs
