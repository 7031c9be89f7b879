"""``tf.SparseTensor``: a tensor given by its nonzero entries.

``indices`` (int64, ``[N, rank]``), ``values`` (``[N]``) and ``dense_shape``
(int64, ``[rank]``). A composite value (runtime/composite.py) whose type is
a ``SparseTensorSpec(shape, dtype)``: functions, cond and while_loop carry it
as its three tensors. Its static ``shape`` is what the dense_shape tensor is
known to be (its value eagerly or when constant, else its length as the
rank), or what the spec says when it was built from one (a function's
argument).
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.shapes import TensorShape, as_shape
from runtime.composite import CompositeTensor
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.tensor_spec import TensorSpec, TypeSpec


def _where() -> str:
    origin = current_origin()
    return f" at {origin}" if origin is not None else ""


def _shape_from(dense_shape: Tensor) -> TensorShape:
    value = None
    if isinstance(dense_shape, EagerTensor):
        value = dense_shape.numpy()
    elif isinstance(dense_shape, SymbolicTensor) and dense_shape.value is not None:
        value = np.asarray(dense_shape.value)
    if value is not None:
        return TensorShape([None if d < 0 else int(d) for d in np.asarray(value).reshape(-1)])
    dims = dense_shape.shape.as_tuple()
    if dims is None or dims[0] is None:
        return TensorShape(None)
    return TensorShape([None] * dims[0])


def _int64(value, what: str) -> Tensor:
    """``value`` as an int64 tensor. A tensor of another dtype is ``convert_to_tensor``'s
    ValueError named after the argument, as TensorFlow words it."""
    try:
        return convert_to_tensor(value, dtype=dtypes.int64)
    except ValueError as e:
        if not isinstance(value, Tensor):
            raise
        raise ValueError(f"{what}: {e}{_where()}. Cast it with tf.cast({what}, tf.int64).") \
            from None


class SparseTensor(CompositeTensor):
    """``tf.SparseTensor(indices, values, dense_shape)``."""

    __slots__ = ("_indices", "_values", "_dense_shape", "_static_shape", "__weakref__")

    def __init__(self, indices, values, dense_shape):
        indices = _int64(indices, "indices")
        values = convert_to_tensor(values)
        dense_shape = _int64(dense_shape, "dense_shape")
        if indices.shape.rank not in (None, 2):
            raise ValueError(f"SparseTensor indices must be a matrix, got shape {indices.shape}"
                             f"{_where()}")
        if values.shape.rank not in (None, 1):
            raise ValueError(f"SparseTensor values must be a vector, got shape {values.shape}"
                             f"{_where()}")
        if dense_shape.shape.rank not in (None, 1):
            raise ValueError(f"SparseTensor dense_shape must be a vector, got shape "
                             f"{dense_shape.shape}{_where()}")
        n_i = indices.shape.as_tuple()[0] if indices.shape.rank == 2 else None
        n_v = values.shape.as_tuple()[0] if values.shape.rank == 1 else None
        if n_i is not None and n_v is not None and n_i != n_v:
            raise ValueError(f"SparseTensor has {n_i} indices but {n_v} values{_where()}")
        r_i = indices.shape.as_tuple()[1] if indices.shape.rank == 2 else None
        r_s = dense_shape.shape.as_tuple()[0] if dense_shape.shape.rank == 1 else None
        if r_i is not None and r_s is not None and r_i != r_s:
            raise ValueError(f"SparseTensor indices have rank {r_i} but dense_shape has "
                             f"{r_s} entries{_where()}")
        self._indices = indices
        self._values = values
        self._dense_shape = dense_shape
        self._static_shape = _shape_from(dense_shape)

    @classmethod
    def from_value(cls, value) -> "SparseTensor":
        if isinstance(value, SparseTensor):
            return value
        raise TypeError(f"Expected a SparseTensor, got {value!r}")

    def _with_static_shape(self, shape: TensorShape) -> "SparseTensor":
        self._static_shape = self._static_shape.merge_with(shape) \
            if self._static_shape.is_compatible_with(shape) else self._static_shape
        return self

    # -- parts ----------------------------------------------------------------------
    @property
    def indices(self) -> Tensor:
        return self._indices

    @property
    def values(self) -> Tensor:
        return self._values

    @property
    def dense_shape(self) -> Tensor:
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    @property
    def shape(self) -> TensorShape:
        return self._static_shape

    def get_shape(self) -> TensorShape:
        return self._static_shape

    def with_values(self, new_values) -> "SparseTensor":
        new = SparseTensor(self._indices, new_values, self._dense_shape)
        new._static_shape = self._static_shape
        return new

    # -- composite protocol ----------------------------------------------------------
    @property
    def _type_spec(self) -> "SparseTensorSpec":
        return SparseTensorSpec(self._static_shape, self.dtype)

    def _components(self) -> list:
        return [self._indices, self._values, self._dense_shape]

    def _with_components(self, tensors) -> "SparseTensor":
        indices, values, dense_shape = tensors
        return SparseTensor(indices, values, dense_shape)

    # -- printing -----------------------------------------------------------------------
    def __repr__(self) -> str:
        return (f"SparseTensor(indices={self._indices!s}, values={self._values!s}, "
                f"dense_shape={self._dense_shape!s})")

    __str__ = __repr__

    def _print_format(self, summarize: int):
        """For tf.print: a template whose ``{}`` slots its tensors fill, formatted as tensors."""
        return ("'SparseTensor(indices={}, values={}, shape={})'",
                [self._indices, self._values, self._dense_shape], False)

    def __bool__(self):
        raise TypeError("The truth value of a SparseTensor is ambiguous; convert it with "
                        "tf.sparse.to_dense first.")

    # -- sparse (op) dense: the dense operand broadcast to the entries (SparseDenseCwise*) ------
    def _with_dense(self, other, fn) -> "SparseTensor":
        from runtime.ops import array_ops
        dense = convert_to_tensor(other, dtype=self.dtype)
        a, b = self.shape, dense.shape
        if a.is_fully_defined() and b.is_fully_defined() and (
                b.rank > a.rank or any(y not in (1, x) for x, y in
                                       zip(a.as_tuple()[::-1], b.as_tuple()[::-1]))):
            raise InvalidArgumentError(
                message="SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                        f"incompatible shapes: [{','.join(map(str, a.as_tuple()))}] vs. "
                        f"[{','.join(map(str, b.as_tuple()))}]{_where()}")
        at_entries = array_ops.gather_nd(array_ops.broadcast_to(dense, self._dense_shape),
                                         self._indices)
        return self.with_values(fn(self._values, at_entries))

    def __mul__(self, other) -> "SparseTensor":
        from runtime.ops import math_ops
        return self._with_dense(other, math_ops.multiply)

    def __truediv__(self, other) -> "SparseTensor":
        from runtime.ops import math_ops
        return self._with_dense(other, math_ops.truediv)

    __div__ = __truediv__


class SparseTensorSpec(TypeSpec):
    """``tf.SparseTensorSpec(shape, dtype)``."""

    __slots__ = ("_shape", "_dtype")

    value_type = SparseTensor
    _component_names = ("indices", "values", "dense_shape")

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = as_shape(shape)
        self._dtype = as_dtype(dtype)

    @classmethod
    def from_value(cls, value: SparseTensor) -> "SparseTensorSpec":
        return value._type_spec

    @property
    def shape(self) -> TensorShape:
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    def _serialize(self) -> tuple:
        return (self._shape, self._dtype)

    @property
    def _component_specs(self) -> list:
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _from_components(self, tensors) -> SparseTensor:
        indices, values, dense_shape = tensors
        return SparseTensor(indices, values, dense_shape)._with_static_shape(self._shape)

    def _to_components(self, value) -> list:
        return value._components()

    def _with_shape(self, shape) -> "SparseTensorSpec":
        return SparseTensorSpec(shape, self._dtype)

    # -- as a dataset element: one variant component (graph/ops/sparse.py) ------------
    @property
    def _dataset_component(self) -> TensorSpec:
        return TensorSpec(None, dtypes.variant)

    def _from_variant(self, variant: Tensor) -> SparseTensor:
        indices, values, dense_shape = apply_op(
            "SparseFromVariants", [variant], {"dtype": self._dtype, "rank": self._shape.rank},
            name="SparseFromVariants")
        return SparseTensor(indices, values, dense_shape)._with_static_shape(self._shape)

    def _to_variant(self, value: SparseTensor, rows: bool = False) -> Tensor:
        """The element's variant: the whole tensor, or (``rows``) one item per row."""
        op = "SparseToVariants" if rows else "SparseToVariant"
        return apply_op(op, value._components(), name=op)
