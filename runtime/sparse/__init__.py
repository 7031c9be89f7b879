"""``tf.sparse`` and ``tf.SparseTensor``: tensors given by their nonzero entries.

``SparseTensor`` (sparse_tensor.py) is a composite value (runtime/composite.py):
functions, cond and while_loop carry it as its indices, values and dense shape.
Their gradients are in runtime/gradients/sparse_grads.py.
"""
from runtime.sparse.sparse_tensor import SparseTensor, SparseTensorSpec  # noqa: F401
from runtime.sparse.sparse_ops import expand_dims, from_dense, reorder, to_dense  # noqa: F401
from runtime.sparse.sparse_math import (add, concat, cross, cross_hashed, eye,  # noqa: F401
                                       fill_empty_rows,
                                       map_values, maximum, minimum, reduce_max, reduce_sum,
                                       bincount, reset_shape, reshape, retain,
                                       segment_mean, segment_sqrt_n, segment_sum, slice,
                                       softmax,
                                       sparse_dense_matmul,
                                       split,
                                       to_indicator, transpose)
