"""``tf.ragged`` and ``tf.RaggedTensor``: tensors whose rows have different lengths.

``RaggedTensor`` (ragged_tensor.py) is a composite value (runtime/composite.py):
functions, cond and while_loop carry it as its flat values and row splits.
``constant`` and ``map_flat_values`` are ``tf.ragged.constant`` and
``tf.ragged.map_flat_values``; importing ragged_ops also registers the
RaggedTensor handlers of ``tf.add``, ``tf.reduce_sum``... and its operators.
"""
from runtime.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec  # noqa: F401
from runtime.ragged.ragged_ops import constant, map_flat_values  # noqa: F401
