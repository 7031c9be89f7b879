"""``tf.ragged`` and ``tf.RaggedTensor``: tensors whose rows have different lengths.

``RaggedTensor`` (ragged_tensor.py) is a composite value (runtime/composite.py):
functions, cond and while_loop carry it as its flat values and row splits.
``constant`` and ``map_flat_values`` are ``tf.ragged.constant`` and
``tf.ragged.map_flat_values``, ``range`` and ``stack`` are ``tf.ragged.range`` and
``tf.ragged.stack``; importing ragged_ops, ragged_reductions, ragged_array_ops and
ragged_dispatch registers the RaggedTensor targets of ``tf.add``, ``tf.reduce_sum``,
``tf.concat``, ``tf.tile``, ``tf.strings.substr``, ``tf.map_fn``... (and the operators),
dynamic_ragged_shape that of ``tf.shape`` (its ``row_partitions`` are row_partition's
``RowPartition``s); ragged_more_ops holds ``rt.merge_dims``, ``boolean_mask``, ``cross``,
``cross_hashed`` and the segment-id conversions; ragged_grads the gradients of the ragged ops.
"""
from runtime.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: F401
from runtime.ragged.ragged_ops import constant, map_flat_values, range_ as range  # noqa: F401
from runtime.ragged import ragged_grads  # noqa: F401  (gradients of the ragged ops)
from runtime.ragged import ragged_reductions  # noqa: F401  (tf.reduce_*(rt) handlers)
from runtime.ragged import ragged_dispatch  # noqa: F401  (tf.tile(rt), tf.strings.*(rt)...)
from runtime.ragged.dynamic_ragged_shape import DynamicRaggedShape  # noqa: F401  (tf.shape(rt))
from runtime.ragged.ragged_array_ops import ragged_stack as stack  # noqa: F401
from runtime.ragged.ragged_more_ops import (boolean_mask, cross, cross_hashed,  # noqa: F401
                                            row_splits_to_segment_ids,
                                            segment_ids_to_row_splits,
                                            stack_dynamic_partitions)
