"""``Dataset.bucket_by_sequence_length``: ``group_by_window`` keyed by length bucket, each
window padded-batched (written as TensorFlow writes it, so its values are TensorFlow's);
``Dataset.rebatch``: the unbatched elements grouped by their output batch."""
from __future__ import annotations

from typing import Callable

import numpy as np

from graph import dtypes
from graph.shapes import TensorShape
from runtime.data import structure
from runtime.ops import array_ops, math_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.logging_ops import assert_less


def _check(bucket_boundaries, bucket_batch_sizes):
    if len(bucket_batch_sizes) != len(bucket_boundaries) + 1:
        raise ValueError(f"`len(bucket_batch_sizes)` must equal `len(bucket_boundaries) + 1` "
                         f"but `len(bucket_batch_sizes)={len(bucket_batch_sizes)}` and "
                         f"`len(bucket_boundaries)={len(bucket_boundaries)}`.")
    if list(bucket_boundaries) != sorted(bucket_boundaries):
        raise ValueError(f"`bucket_boundaries` must be sorted. Received: {bucket_boundaries}")


def bucket_by_sequence_length(dataset, element_length_func: Callable, bucket_boundaries,
                              bucket_batch_sizes, padded_shapes=None, padding_values=None,
                              pad_to_bucket_boundary=False, no_padding=False,
                              drop_remainder=False):
    """Elements whose ``element_length_func`` falls in ``[boundary[i-1], boundary[i])`` are
    batched ``bucket_batch_sizes[i]`` at a time, padded to the longest (or, with
    ``pad_to_bucket_boundary``, to ``boundary[i] - 1``; then no length may reach the last
    boundary)."""
    _check(bucket_boundaries, bucket_batch_sizes)
    boundaries = convert_to_tensor(list(bucket_boundaries), dtype=dtypes.int64)
    batch_sizes = convert_to_tensor(list(bucket_batch_sizes), dtype=dtypes.int64)

    def bucket_id(*element):
        # the boundaries are int32, as TensorFlow's: a length of another dtype is a TypeError
        below = math_ops.less_equal(convert_to_tensor(list(bucket_boundaries), dtypes.int32),
                                    element_length_func(*element))
        return math_ops.reduce_sum(math_ops.cast(below, dtypes.int64))

    def batching(bucket, window):
        size = array_ops.gather(batch_sizes, bucket)
        if no_padding:
            return window.batch(size, drop_remainder=drop_remainder)
        batched = window.padded_batch(size, padded_shapes, padding_values,
                                      drop_remainder=drop_remainder)
        if not pad_to_bucket_boundary:
            return batched
        return batched.map(lambda *b: _pad_to_boundary(window.element_spec, b, bucket,
                                                       boundaries, padding_values))

    return dataset.group_by_window(bucket_id, batching,
                                   window_size_func=lambda b: array_ops.gather(batch_sizes, b))


def _pad_to_boundary(element_spec, batch, bucket, boundaries, padding_values):
    """Pads each unknown dimension of a padded batch to its bucket's ``boundary - 1``."""
    last = int(boundaries.shape[0])
    # an Assert is stateful: the traced map function runs it before its results
    assert_less(bucket, convert_to_tensor(last, dtype=dtypes.int64),
                message="When pad_to_bucket_boundary=True, elements must have length < "
                        "max(bucket_boundaries).")
    target = array_ops.gather(boundaries, math_ops.minimum(bucket, last - 1)) - 1
    specs = structure.flatten(element_spec)
    values = [None] * len(specs) if padding_values is None else \
        structure.flatten_up_to(element_spec, padding_values, "padding_values")
    flat = structure.flatten(batch if len(batch) != 1 else batch[0])
    padded = []
    for spec, value, component in zip(specs, values, flat):
        shape = array_ops.shape(component, out_type=dtypes.int64)
        paddings = [[0, 0]] + [
            [0, (target - shape[i + 1]) if d is None else 0]
            for i, d in enumerate(TensorShape(spec.shape).as_list())]
        fill = (b"" if spec.dtype.is_string else 0) if value is None else value
        padded.append(array_ops.pad(component, paddings, constant_values=fill))
    return structure.pack(batch if len(batch) != 1 else batch[0], padded)


def rebatch(dataset, batch_size, drop_remainder=False):
    """``unbatch`` then batches of ``batch_size``; a list of sizes is used in turn: element
    ``i`` goes to the batch its position in the cycle of sizes says (``group_by_window``
    emits each batch as soon as it is full, so in order). The batch dimension is static
    only with ``drop_remainder`` and one size (TensorFlow's element_spec)."""
    if any(s.shape.rank == 0 for s in structure.flatten(dataset.element_spec)):
        raise ValueError("Invalid `batch_sizes`. Expected dataset with rank of >= 1 but found "
                         "a dataset with scalar elements. Fix the issue by adding the `batch` "
                         "transformation to the dataset.")
    sizes = [int(s) for s in np.ravel(batch_size)]
    if any(s <= 0 for s in sizes):
        raise ValueError(f"Invalid `batch_size`: every batch size must be positive, got "
                         f"{batch_size}.")
    rows = dataset.unbatch()
    if len(set(sizes)) == 1:
        return rows.batch(sizes[0], drop_remainder=drop_remainder)
    ends = convert_to_tensor(np.cumsum(sizes), dtype=dtypes.int64)
    size_of = convert_to_tensor(sizes, dtype=dtypes.int64)
    cycle = sum(sizes)

    def batch_id(i, *element):
        turn = math_ops.reduce_sum(math_ops.cast(math_ops.less_equal(ends, i % cycle),
                                                 dtypes.int64))
        return (i // cycle) * len(sizes) + turn

    def batching(key, window):
        size = array_ops.gather(size_of, key % len(sizes))
        return window.map(lambda i, *element: element if len(element) != 1 else element[0]) \
            .batch(size, drop_remainder=drop_remainder)

    return rows.enumerate().group_by_window(
        batch_id, batching,
        window_size_func=lambda key: array_ops.gather(size_of, key % len(sizes)))
