"""``tf.sparse`` and ``tf.SparseTensor``: tensors given by their nonzero entries.

``SparseTensor`` (sparse_tensor.py) is a composite value (runtime/composite.py):
functions, cond and while_loop carry it as its indices, values and dense shape.
"""
from runtime.sparse.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: F401
from runtime.sparse.sparse_ops import expand_dims, from_dense, reorder, to_dense  # noqa: F401
from runtime.sparse.sparse_math import (add, concat, eye, fill_empty_rows,  # noqa: F401
                                       map_values, maximum, minimum, reduce_max, reduce_sum,
                                       bincount, reshape, retain, slice, softmax,
                                       sparse_dense_matmul,
                                       split,
                                       to_indicator, transpose)
