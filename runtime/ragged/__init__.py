"""``tf.ragged`` and ``tf.RaggedTensor``: tensors whose rows have different lengths.

``RaggedTensor`` (ragged_tensor.py) is a composite value (runtime/composite.py):
functions, cond and while_loop carry it as its flat values and row splits.
``constant`` and ``map_flat_values`` are ``tf.ragged.constant`` and
``tf.ragged.map_flat_values``, ``range`` and ``stack`` are ``tf.ragged.range`` and
``tf.ragged.stack``; importing ragged_ops and ragged_array_ops registers the
RaggedTensor handlers of ``tf.add``, ``tf.reduce_sum``, ``tf.concat``... and its
operators; ragged_grads the gradients of the ragged ops.
"""
from runtime.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: F401
from runtime.ragged.ragged_ops import constant, map_flat_values, range_ as range  # noqa: F401
from runtime.ragged import ragged_grads  # noqa: F401  (gradients of the ragged ops)
from runtime.ragged.ragged_array_ops import ragged_stack as stack  # noqa: F401
