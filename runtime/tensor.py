"""Tensors: eager (wraps a numpy value) or symbolic (an output of a node being built).

Python operators (``+``, ``<``, ``x[1:3]``...) are installed on ``Tensor`` by
``runtime.ops.operators`` so that this module stays free of op definitions.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import DType
from graph.ir import Graph, Output
from graph.shapes import TensorShape, as_shape
from runtime.errors import OperatorNotAllowedInGraphError


class Tensor:
    """Base of eager and symbolic tensors (``tf.Tensor``)."""

    __slots__ = ("__weakref__",)
    __array_priority__ = 100  # numpy defers ``ndarray + Tensor`` to Tensor.__radd__

    @property
    def ndim(self) -> int | None:
        return self.shape.rank

    def get_shape(self) -> TensorShape:
        return self.shape

    def set_shape(self, shape) -> None:
        """TensorFlow's ``set_shape``: a shape that does not fit the known one is a
        ValueError (an eager tensor's shape is fully known: nothing to narrow)."""
        shape = as_shape(shape)
        if not self.shape.is_compatible_with(shape):
            raise ValueError(f"Tensor's shape {self.shape} is not compatible with supplied "
                             f"shape {shape}.")
        self._narrow(self.shape.merge_with(shape))

    def _narrow(self, shape: TensorShape) -> None:
        pass

    def ref(self):
        return _TensorRef(self)

    @property
    def _keras_mask(self):
        """The Keras mask a layer attached to this tensor, or None (what Keras code reads)."""
        from runtime.keras.layers.base import get_keras_mask
        return get_keras_mask(self)

    def __hash__(self):
        raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")


class _TensorRef:
    __slots__ = ("_tensor",)

    def __init__(self, tensor):
        self._tensor = tensor

    def deref(self):
        return self._tensor

    def __hash__(self):
        return id(self._tensor)

    def __eq__(self, other):
        return isinstance(other, _TensorRef) and other._tensor is self._tensor


class ValueSpec:
    """The dtype name and shape of eager values, interned (``value_spec``): equal pairs are
    one object, hashed and compared by identity, so the eager fast paths key their tables
    on it at the cost of an attribute read (``runtime/ops/eager.py``)."""

    __slots__ = ("dtype", "shape", "_tensor_shape")

    def __init__(self, dtype: str, shape: tuple):
        self.dtype = dtype    # the DType's name
        self.shape = shape    # a tuple of ints
        self._tensor_shape = None

    @property
    def tensor_shape(self) -> TensorShape:
        shape = self._tensor_shape
        if shape is None:
            shape = self._tensor_shape = TensorShape(self.shape)
        return shape

    def __repr__(self) -> str:
        return f"ValueSpec({self.dtype}, {self.shape})"


_VALUE_SPECS: dict = {}
_VALUE_SPEC_LIMIT = 4096  # entries; dropped when full (older specs stay valid, only unshared)


def value_spec(dtype: str, shape: tuple) -> ValueSpec:
    """The one ValueSpec of ``(dtype name, shape)`` (while the table is not dropped)."""
    key = (dtype, shape)
    spec = _VALUE_SPECS.get(key)
    if spec is None:
        if len(_VALUE_SPECS) >= _VALUE_SPEC_LIMIT:
            _VALUE_SPECS.clear()
        spec = _VALUE_SPECS[key] = ValueSpec(dtype, shape)
    return spec


class EagerTensor(Tensor):
    """A concrete value: a numpy array or scalar of exactly ``dtype``.

    ``spec``: its ValueSpec when the maker knows it (an eager fast path does), else made on
    first use."""

    __slots__ = ("_value", "_dtype", "_spec")

    def __init__(self, value, dtype: DType, spec: ValueSpec | None = None):
        self._value = value
        self._dtype = dtype
        self._spec = spec

    def _value_spec(self) -> ValueSpec:
        spec = self._spec
        if spec is None:
            v = self._value
            spec = self._spec = value_spec(self._dtype.name, v.shape if v.__class__ is np.ndarray
                                           else np.shape(v))
        return spec

    @property
    def dtype(self) -> DType:
        return self._dtype

    @property
    def shape(self) -> TensorShape:
        return (self._spec or self._value_spec()).tensor_shape

    @property
    def value(self):
        return self._value

    @property
    def device(self) -> str:
        return "/job:localhost/replica:0/task:0/device:CPU:0"

    backing_device = device  # (where the value's memory is: the same one CPU)

    def numpy(self):
        value = self._value
        if isinstance(value, np.ndarray) and value.ndim == 0:
            return value[()]  # TensorFlow returns numpy scalars for 0-d tensors
        return value

    def __array__(self, dtype=None, copy=None):
        arr = np.asarray(self._value)
        return arr if dtype is None else arr.astype(dtype)

    def __bool__(self) -> bool:
        return bool(self._value)

    def __index__(self) -> int:
        if not self._dtype.is_integer:
            raise TypeError(f"Only integer tensors can be used as an index, got {self._dtype.name}")
        return int(self._value)

    def __int__(self) -> int:
        return int(self._value)

    def __float__(self) -> float:
        return float(self._value)

    def __len__(self) -> int:
        shape = np.shape(self._value)
        if not shape:
            raise TypeError("Scalar tensor has no `len()`")
        return shape[0]

    def __iter__(self):
        if not np.shape(self._value):
            raise TypeError("Cannot iterate over a scalar tensor.")
        return (EagerTensor(v, self._dtype) for v in self._value)

    def __str__(self) -> str:
        return f"tf.Tensor({_numpy_text(self)}, shape={self.shape}, dtype={self._dtype.name})"

    def __repr__(self) -> str:
        return (f"<tf.Tensor: shape={self.shape}, dtype={self._dtype.name}, "
                f"numpy={_numpy_text(self, is_repr=True)}>")

    def __format__(self, format_spec: str) -> str:
        # TensorFlow formats the numpy value: f"{loss:2.5f}", and f"{t}" is str(t.numpy())
        return format(self.numpy(), format_spec)


def _numpy_text(tensor: EagerTensor, is_repr: bool = False) -> str:
    value = tensor.numpy()
    if isinstance(value, np.ndarray):
        text = repr(value) if is_repr else str(value)
        return "\n" + text if "\n" in text else text  # as TensorFlow lays out matrices
    if isinstance(value, bytes):
        return repr(value)
    # TensorFlow 2.21 (numpy 2) writes a scalar's repr as its Python value's: a float32 0.1
    # shows all the digits of the double it is (0.10000000149011612); str stays numpy's 0.1
    return repr(value.item()) if is_repr and hasattr(value, "item") else str(value)


class SymbolicTensor(Tensor):
    """An output of a node in a graph being built; it has no value yet."""

    __slots__ = ("_output",)

    def __init__(self, output: Output):
        self._output = output

    @property
    def dtype(self) -> DType:
        return self._output.dtype

    @property
    def shape(self) -> TensorShape:
        return self._output.shape

    @property
    def graph(self) -> Graph:
        return self._output.node.graph

    def _narrow(self, shape: TensorShape) -> None:
        """Later uses of this tensor see ``shape``: an EnsureShape node stands for it."""
        if shape != self.shape:
            from runtime.ops import array_ops
            self._output = array_ops.ensure_shape(self, shape)._output

    @property
    def op(self):
        return self._output.node

    @property
    def name(self) -> str:
        return self._output.name

    @property
    def value(self):
        """The constant value when known while building, else None."""
        return self._output.value

    def numpy(self):
        # TensorFlow's symbolic tensors have no ``numpy``: same exception and message (the
        # guides print it), with the explanation attached as a note.
        err = AttributeError("'Tensor' object has no attribute 'numpy'")
        err.add_note(f"{self} is symbolic: it has no value while the function is being traced "
                     "(or it leaked out of a tf.function). Return it from the tf.function to "
                     "get its value, or use tf.print to see it.")
        raise err

    def __bool__(self):
        raise OperatorNotAllowedInGraphError(
            f"Using a symbolic `tf.Tensor` ({self.name}) as a Python `bool` is not allowed "
            f"{_where(self)}. Let autograph convert the function (tf.function with "
            "autograph=True converts `if`/`while` on tensors), or use tf.cond / tf.while_loop.")

    def __index__(self):
        raise OperatorNotAllowedInGraphError(
            f"A symbolic `tf.Tensor` ({self.name}) cannot be used as a Python integer "
            f"{_where(self)}. Use tensor ops (tf.gather, slicing) instead.")

    def __len__(self):
        raise TypeError(
            f"len is not well defined for a symbolic Tensor ({self.name}) {_where(self)}. "
            "Use tf.shape(x)[0] or x.shape[0] for the static length.")

    def __iter__(self):
        # TensorFlow refuses Python iteration of any symbolic tensor, even of known length
        # (sum(t), sorted(t), a, b = t): a converted `for x in t` stages a loop instead.
        raise OperatorNotAllowedInGraphError(
            f"Iterating over a symbolic `tf.Tensor` ({self.name}) is not allowed {_where(self)}. "
            "Let autograph convert the loop (`for x in tensor` in a tf.function), index it "
            "(t[0]), or use tf.unstack / tf.while_loop.")

    def __array__(self, dtype=None, copy=None):
        # TensorFlow's exception type and message: numpy functions need values, which a
        # tensor being traced does not have.
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error may "
            "indicate that you're trying to pass a Tensor to a NumPy call, which is not supported.")

    def __str__(self) -> str:  # (TensorFlow leaves out a shape of unknown rank)
        shape = "" if self.shape.rank is None else f"shape={self.shape}, "
        return f'Tensor("{self.name}", {shape}dtype={self.dtype.name})'

    def __repr__(self) -> str:
        return f"<tf.Tensor '{self.name}' shape={self.shape} dtype={self.dtype.name}>"


def _where(tensor: SymbolicTensor) -> str:
    origin = tensor.op.origin
    return f"at {origin}" if origin is not None else "in this graph"
