"""``tf.sparse``: conversion to and from dense tensors, ``expand_dims``, ``reorder``.

Each runs one op of graph/ops/sparse.py, eagerly or recorded alike. Unary
elementwise ops that keep zeros (``tf.abs``, ``tf.math.negative``, ``tf.cast``...)
apply to a SparseTensor's values through the composite dispatch.
"""
from __future__ import annotations

from graph import dtypes
from runtime import composite
from runtime.ops import math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.sparse.sparse_tensor import SparseTensor, _where


def _check(sp_input, what: str) -> SparseTensor:
    if not isinstance(sp_input, SparseTensor):
        raise TypeError(f"{what} expects a SparseTensor, got {type(sp_input).__name__}"
                        f"{_where()}")
    return sp_input


def edit_distance(hypothesis, truth, normalize: bool = True, name: str = "edit_distance"):
    """``tf.edit_distance``: the Levenshtein distance between the sequences (along the last
    dimension) of two SparseTensors, divided by the truth's length when ``normalize``."""
    if not isinstance(hypothesis, SparseTensor):
        raise TypeError("Hypothesis must be a SparseTensor.")
    if not isinstance(truth, SparseTensor):
        raise TypeError("Truth must be a SparseTensor.")
    return apply_op("EditDistance", [hypothesis.indices, hypothesis.values,
                                     hypothesis.dense_shape, truth.indices, truth.values,
                                     truth.dense_shape], attrs={"normalize": bool(normalize)},
                    name=name)


def to_dense(sp_input, default_value=None, validate_indices: bool = True, name=None):
    """``tf.sparse.to_dense``: the dense tensor, ``default_value`` (zero) where no entry is."""
    sp = _check(sp_input, "tf.sparse.to_dense")
    dtype = sp.dtype
    if default_value is None:
        default_value = b"" if dtype.is_string else False if dtype.is_bool else 0
    default = convert_to_tensor(default_value, dtype=dtype)
    return apply_op("SparseToDense", [sp.indices, sp.dense_shape, sp.values, default],
                    {"validate_indices": bool(validate_indices)}, name=name or "SparseToDense")


def from_dense(tensor, name=None) -> SparseTensor:
    """``tf.sparse.from_dense``: the nonzero entries of ``tensor``, in row-major order."""
    t = convert_to_tensor(tensor)
    indices, values, dense_shape = apply_op("SparseFromDense", [t], name=name or "dense_to_sparse")
    out = SparseTensor(indices, values, dense_shape)
    return out._with_static_shape(t.shape)


def expand_dims(sp_input, axis=None, name=None) -> SparseTensor:
    """``tf.sparse.expand_dims``: a dimension of size 1 inserted at ``axis`` (default 0)."""
    sp = _check(sp_input, "tf.sparse.expand_dims")
    axis_t = convert_to_tensor(0 if axis is None else axis, dtype_hint=dtypes.int32)
    indices, dense_shape = apply_op("SparseExpandDims", [sp.indices, sp.dense_shape, axis_t],
                                    name=name or "ExpandDims")
    out = SparseTensor(indices, sp.values, dense_shape)
    shape, a = sp.shape, 0 if axis is None else axis
    if shape.rank is not None and isinstance(a, int):  # (the dense shape's value may be unknown)
        a = a + shape.rank + 1 if a < 0 else a
        dims = list(shape.as_tuple())
        out._with_static_shape(dims[:a] + [1] + dims[a:])
    return out


def reorder(sp_input, name=None) -> SparseTensor:
    """``tf.sparse.reorder``: the same entries in canonical row-major order."""
    sp = _check(sp_input, "tf.sparse.reorder")
    indices, values = apply_op("SparseReorder", [sp.indices, sp.values, sp.dense_shape],
                               name=name or "SparseReorder")
    out = SparseTensor(indices, values, sp.dense_shape)
    return out._with_static_shape(sp.shape)


# -- elementwise ops that keep zeros, on the values -----------------------------------------------

def _unary_handler(fn):
    def handler(x, name=None):
        return x.with_values(fn(x.values))
    return handler


for _name in ("abs", "negative", "square", "sign", "sqrt", "floor", "ceil", "round", "sin",
              "tanh"):
    composite.register_dispatch(_name, SparseTensor, _unary_handler(getattr(math_ops, _name)))
composite.register_dispatch(
    "cast", SparseTensor, lambda x, dtype, name=None: x.with_values(math_ops.cast(x.values, dtype)))
