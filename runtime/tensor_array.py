"""``tf.TensorArray``: a growable array of tensors that staged loops can carry.

A TensorArray is not a tensor. It stands on one ``variant`` tensor, its
*flow*, whose value is an immutable TensorList (graph/ops/tensor_array.py),
and it crosses ``cond``/``while_loop`` through the composite protocol
(``_components`` / ``_with_components``). Every op on it runs eagerly or is
recorded, like any other op, so eager and staged code share one
implementation.

What tracing learns about the elements (their dtype and shape) is kept in
an ``_ElementSpec`` shared by every TensorArray derived from the same one,
as TensorFlow shares ``_element_shape``: the shape of a value written
inside a loop body is known to the TensorArray that comes out of the loop,
so that ``stack()`` after a staged loop has a static shape.

Eagerly, ``write`` updates the TensorArray in place and returns it (as
TensorFlow's eager TensorArray does); while building a graph it returns a
new TensorArray on the new flow, and the result must be used.

``StagedList`` is what the converter turns a Python list into when a staged
loop appends to it (see its docstring).
"""
from __future__ import annotations

from typing import Sequence

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError, OutOfRangeError
from graph.ops.tensor_array import CLEARED
from graph.shapes import TensorShape, as_shape
from runtime import context
from runtime.ops.core import RECORDERS, apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


class _ElementSpec:
    """Element dtype and shape as far as known; shared along a TensorArray's history."""

    __slots__ = ("dtype", "shape", "infer_shape")

    def __init__(self, dtype, shape: TensorShape, infer_shape: bool):
        self.dtype = dtype
        self.shape = shape
        self.infer_shape = infer_shape


def _static_int(t) -> int | None:
    """The value of a scalar integer known now (Python int, eager or constant tensor)."""
    if isinstance(t, bool):
        return None
    if isinstance(t, int):
        return t
    if isinstance(t, EagerTensor):
        return int(t.value)
    if isinstance(t, SymbolicTensor) and t.value is not None:
        return int(t.value)
    return None


def _where() -> str:
    origin = current_origin()
    return f" at {origin}" if origin is not None else ""


class TensorArray:
    """``tf.TensorArray(dtype, size, dynamic_size, clear_after_read, element_shape...)``."""

    def __init__(self, dtype, size=None, dynamic_size=None, clear_after_read=None,
                 tensor_array_name=None, handle=None, flow=None, infer_shape: bool = True,
                 element_shape=None, colocate_with_first_write_call: bool = True, name=None):
        self._dynamic_size = bool(dynamic_size)
        self._clear_after_read = True if clear_after_read is None else bool(clear_after_read)
        self._spec = _ElementSpec(None if dtype is None else as_dtype(dtype),
                                  as_shape(element_shape), bool(infer_shape))
        if flow is not None:
            self._flow = flow
            self._static_size = None
            return
        if handle is not None:
            raise ValueError("TensorArray(handle=...) is TensorFlow 1 API; pass flow= instead")
        if size is None:
            if not self._dynamic_size:
                raise ValueError("Size must be provided if handle is not provided"
                                 f"{_where()}: pass size=, or dynamic_size=True")
            size = 0
        size_t = convert_to_tensor(size, dtype_hint=dtypes.int32)
        if not size_t.dtype.is_integer or size_t.shape.rank not in (None, 0):
            raise TypeError(f"TensorArray size must be a scalar integer, got {size_t!r}{_where()}")
        self._static_size = _static_int(size if not isinstance(size, Tensor) else size_t)
        self._flow = apply_op("TensorListReserve", [size_t],
                              attrs={"element_dtype": self._spec.dtype,
                                     "element_shape": self._spec.shape,
                                     "resizable": self._dynamic_size},
                              name=name or "TensorArrayV2")

    # -- properties ---------------------------------------------------------------
    @property
    def flow(self) -> Tensor:
        return self._flow

    @property
    def handle(self):
        return None

    @property
    def dtype(self):
        return self._spec.dtype

    @property
    def element_shape(self) -> TensorShape:
        return self._spec.shape

    @property
    def dynamic_size(self) -> bool:
        return self._dynamic_size

    def __repr__(self) -> str:
        dtype = self.dtype.name if self.dtype is not None else "?"
        return f"<TensorArray dtype={dtype} element_shape={self.element_shape}>"

    # -- composite protocol (loop state) ------------------------------------------
    def _components(self) -> list:
        return [self._flow]

    def _with_components(self, tensors: Sequence) -> "TensorArray":
        (flow,) = tensors
        return self._derive(flow, None if self._dynamic_size else self._static_size)

    def _derive(self, flow, static_size) -> "TensorArray":
        new = object.__new__(type(self))
        new.__dict__.update(self.__dict__)
        new._flow = flow
        new._static_size = static_size
        return new

    def _updated(self, flow, static_size) -> "TensorArray":
        """Eagerly: this TensorArray, changed in place. Staged: a new one on ``flow``."""
        if context.executing_eagerly():
            self._flow = flow
            self._static_size = static_size
            return self
        return self._derive(flow, static_size)

    # -- element checks -------------------------------------------------------------
    def _convert(self, value, what: str) -> Tensor:
        value = convert_to_tensor(value, dtype_hint=self._spec.dtype)
        if self._spec.dtype is None:
            self._spec.dtype = value.dtype
        elif value.dtype != self._spec.dtype:
            raise InvalidArgumentError(
                message=f"TensorArray dtype is {self._spec.dtype.name} but Op is trying to "
                        f"{what} dtype {value.dtype.name}{_where()}. Cast the value with "
                        "tf.cast, or create the TensorArray with the value's dtype.")
        return value

    def _merge_shape(self, shape: TensorShape, what: str) -> None:
        spec = self._spec
        if not spec.shape.is_compatible_with(shape):
            raise ValueError(
                f"Could not {what} because the value shape is {shape} which is incompatible "
                f"with the TensorArray's inferred element shape: {spec.shape} (consider "
                f"setting infer_shape=False){_where()}")
        if spec.infer_shape:
            spec.shape = spec.shape.merge_with(shape)

    def _attrs(self, **extra) -> dict:
        attrs = {"element_dtype": self._spec.dtype, "element_shape": self._spec.shape}
        attrs.update(extra)
        return attrs

    def _need_dtype(self) -> None:
        if self._spec.dtype is None:
            raise ValueError(f"The element dtype of this TensorArray is unknown{_where()}: "
                             "nothing was written to it. Give it a dtype.")

    # -- API ----------------------------------------------------------------------------
    def write(self, index, value, name=None) -> "TensorArray":
        """Element ``index`` set to ``value``; use the returned TensorArray."""
        index_t = convert_to_tensor(index, dtype_hint=dtypes.int32)
        value = self._convert(value, "write")
        i = _static_int(index if not isinstance(index, Tensor) else index_t)
        self._merge_shape(value.shape, f"write to TensorArray index {i if i is not None else ''}"
                          .rstrip())
        if (i is not None and self._static_size is not None and i >= self._static_size
                and not self._dynamic_size):  # (TensorFlow: OutOfRangeError when it runs eagerly)
            error = OutOfRangeError if context.executing_eagerly() else InvalidArgumentError
            raise error(
                message=f"Tried to write to index {i} but array is not resizeable and size is: "
                        f"{self._static_size}{_where()}. Create the TensorArray with "
                        "dynamic_size=True to let it grow.")
        flow = apply_op("TensorListSetItem", [self._flow, index_t, value],
                        attrs={"element_dtype": self._spec.dtype,
                               "resize_if_index_out_of_bounds": self._dynamic_size},
                        name=name or "TensorArrayV2Write")
        size = self._static_size
        if self._dynamic_size:
            size = None if i is None or size is None else max(size, i + 1)
        return self._updated(flow, size)

    def read(self, index, name=None) -> Tensor:
        self._need_dtype()
        index_t = convert_to_tensor(index, dtype_hint=dtypes.int32)
        if isinstance(self._flow, EagerTensor) and isinstance(index_t, EagerTensor):
            i, size = int(index_t.value), self._flow.value.size
            if not 0 <= i < size:  # (TensorFlow: OutOfRangeError eagerly, as for a write)
                raise OutOfRangeError(message=f"Tried to read from index {i} but array size "
                                              f"is: {size}{_where()}")
        value = apply_op("TensorListGetItem", [self._flow, index_t], attrs=self._attrs(),
                         name=name or "TensorArrayV2Read")
        if self._clear_after_read and isinstance(self._flow, EagerTensor):
            flow_value = self._flow.value
            cleared = EagerTensor(flow_value.with_item(int(index_t.value), CLEARED),
                                  dtypes.variant)
            if RECORDERS:  # a GradientTape sees the cleared list as the same list (Identity)
                RECORDERS[-1]("Identity", [self._flow], {}, cleared)
            self._flow = cleared
        return value

    def stack(self, name=None) -> Tensor:
        """All elements stacked into one tensor of shape [size] + element_shape."""
        self._need_dtype()
        if isinstance(self._flow, EagerTensor) and not self.element_shape.is_fully_defined() \
                and int(self.size().numpy()) == 0:  # (TensorFlow's eager TensorArray gives
            return convert_to_tensor([], dtype=self.dtype)  # its empty list as a tensor)
        n = self._static_size if self._static_size is not None else -1
        return apply_op("TensorListStack", [self._flow], attrs=self._attrs(num_elements=n),
                        name=name or "TensorArrayV2Stack")

    def gather(self, indices, name=None) -> Tensor:
        self._need_dtype()
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
        return apply_op("TensorListGather", [self._flow, indices], attrs=self._attrs(),
                        name=name or "TensorArrayV2Gather")

    def concat(self, name=None) -> Tensor:
        """Elements concatenated along their first dimension."""
        self._need_dtype()
        value, _ = apply_op("TensorListConcatV2", [self._flow], attrs=self._attrs(),
                            name=name or "TensorArrayV2Concat")
        return value

    def unstack(self, value, name=None) -> "TensorArray":
        """A TensorArray whose element i is ``value[i]``."""
        value = self._convert(value, "unstack")
        if value.shape.rank == 0:
            raise ValueError(f"TensorArray.unstack needs a tensor of rank >= 1, got a scalar"
                             f"{_where()}")
        n = value.shape[0] if value.shape.rank is not None else None
        if (not self._dynamic_size and n is not None and self._static_size is not None
                and n != self._static_size):
            raise ValueError(f"Cannot unstack {n} elements into a TensorArray of size "
                             f"{self._static_size}{_where()}; create it with size={n} or "
                             "dynamic_size=True")
        if value.shape.rank is not None:
            self._merge_shape(TensorShape(value.shape.as_list()[1:]), "unstack into TensorArray")
        flow = apply_op("TensorListFromTensor", [value], attrs=self._attrs(),
                        name=name or "TensorArrayUnstack")
        return self._updated(flow, n)

    def scatter(self, indices, value, name=None) -> "TensorArray":
        """Element ``indices[k]`` set to ``value[k]`` for every k."""
        value = self._convert(value, "scatter")
        indices = convert_to_tensor(indices, dtype_hint=dtypes.int32)
        if value.shape.rank is not None and value.shape.rank > 0:
            self._merge_shape(TensorShape(value.shape.as_list()[1:]), "scatter into TensorArray")
        flow = apply_op("TensorListScatterIntoExistingList", [self._flow, value, indices],
                        attrs={"element_dtype": self._spec.dtype,
                               "resize_if_index_out_of_bounds": self._dynamic_size},
                        name=name or "TensorArrayScatter")
        return self._updated(flow, self._static_size if not self._dynamic_size else None)

    def split(self, value, lengths, name=None) -> "TensorArray":
        """Element i is the i-th piece of ``value`` cut along axis 0 by ``lengths``."""
        value = self._convert(value, "split")
        lengths = convert_to_tensor(lengths, dtype_hint=dtypes.int64)
        n = lengths.shape[0] if lengths.shape.rank == 1 else None
        if value.shape.rank is not None and value.shape.rank > 0:
            self._merge_shape(TensorShape([None] + value.shape.as_list()[1:]),
                              "split into TensorArray")
        flow = apply_op("TensorListSplit", [value, lengths], attrs=self._attrs(),
                        name=name or "TensorArraySplit")
        return self._updated(flow, n)

    def size(self, name=None) -> Tensor:
        return apply_op("TensorListLength", [self._flow], name=name or "TensorArrayV2Size")

    def identity(self) -> "TensorArray":
        return self._derive(apply_op("Identity", [self._flow]), self._static_size)

    def close(self, name=None) -> None:
        return None


class StagedList:
    """A Python list that a staged loop appends to, staged as a dynamic TensorArray.

    For the converter: when a list is loop state of a staged loop and the
    body only appends to it (or pops, reads ``l[i]``), replace the list by
    ``StagedList.from_list(l, name)`` before the loop; the body's
    ``l.append(x)`` then records a write, and after the loop ``l`` converts to
    a tensor wherever a tensor is expected (``tf.stack(l)``, ``tf.reduce_sum(l)``,
    ``convert_to_tensor``) via ``_as_tensor``. The element dtype may stay
    unknown until the first append is traced (``l = []`` before the loop).
    Python-only uses (``len(l)``, iteration, mixed types) raise errors that
    name the list and suggest a TensorArray.
    """

    def __init__(self, array: TensorArray, name: str = "list"):
        self._array = array
        self._name = name

    @classmethod
    def from_list(cls, values: list, name: str = "list", element_dtype=None,
                  element_shape=None) -> "StagedList":
        values = list(values)
        array = TensorArray(element_dtype, size=0, dynamic_size=True, element_shape=element_shape)
        if values:
            for i, v in enumerate(values):
                array = array.write(i, v)
        return cls(array, name)

    @property
    def dtype(self):
        return self._array.dtype

    @property
    def tensor_array(self) -> TensorArray:
        return self._array

    def append(self, value) -> None:
        """In place; inside staged branches prefer ``list_append`` (functional)."""
        self._array = self.appended(value)._array

    def appended(self, value) -> "StagedList":
        """A new StagedList with ``value`` at the end (this one is unchanged when staged)."""
        try:
            return StagedList(self._array.write(self._array.size(), value), self._name)
        except (InvalidArgumentError, ValueError) as e:
            message = (f"Cannot append to list {self._name!r} inside a staged loop: {e}. "
                       "Elements of a list built in a staged loop must share one dtype and "
                       "shape; use a tf.TensorArray to control them.")
            if isinstance(e, InvalidArgumentError):
                raise InvalidArgumentError(message=message) from None
            raise ValueError(message) from None

    def popped(self):
        """(a new StagedList without the last element, that element)."""
        self._array._need_dtype()
        flow, item = apply_op("TensorListPopBack", [self._array.flow],
                              attrs=self._array._attrs(), name="TensorListPopBack")
        return StagedList(self._array._derive(flow, None), self._name), item

    def pop(self):
        rest, item = self.popped()
        self._array = rest._array
        return item

    def __getitem__(self, index):
        if isinstance(index, slice):
            raise TypeError(f"Slicing list {self._name!r} is not supported inside a staged loop; "
                            "stack it first (tf.stack) and slice the tensor.")
        return self._array.read(index)

    def size(self) -> Tensor:
        return self._array.size()

    def stack(self) -> Tensor:
        return self._array.stack()

    def _as_tensor(self) -> Tensor:
        return self._array.stack()

    def __len__(self):
        raise TypeError(f"len() of list {self._name!r} is not known while tracing: it was "
                        "appended to in a staged loop. Use tf.size / tf.shape(tf.stack(l))[0], "
                        "or a tf.TensorArray and its size().")

    def __iter__(self):
        raise TypeError(f"Iterating over list {self._name!r} in Python is not possible after a "
                        "staged loop appended to it; iterate over tf.stack(l) instead, or use a "
                        "tf.TensorArray.")

    def _components(self) -> list:
        return [self._array.flow]

    def _with_components(self, tensors: Sequence) -> "StagedList":
        return StagedList(self._array._with_components(tensors), self._name)

    def __repr__(self) -> str:
        return f"<StagedList {self._name!r} of {self._array!r}>"


def list_append(target, value):
    """``target.append(value)`` in functional form, for converted code: ``l = list_append(l, x)``.

    A Python list is appended to in place (and returned); a StagedList or
    TensorArray returns its successor, which is what staged code must carry.
    """
    if isinstance(target, StagedList):
        return target.appended(value)
    if isinstance(target, TensorArray):
        return target.write(target.size(), value)
    target.append(value)
    return target


def list_pop(target):
    """``(target_without_last, last)``, the functional ``target.pop()``."""
    if isinstance(target, StagedList):
        return target.popped()
    return target, target.pop()


def as_staged_list(value, name: str = "list"):
    """What a staged loop carries for ``value``: a Python list becomes a StagedList."""
    if isinstance(value, list):
        return StagedList.from_list(value, name)
    return value
