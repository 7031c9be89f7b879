"""``tf.keras.utils`` dataset helpers, built as Keras builds them so that seeded calls give
TensorFlow's elements in TensorFlow's order:

* ``timeseries_dataset_from_array``: sliding windows over an array as a ``tf.data``
  pipeline (start positions shuffled by NumPy's ``RandomState(seed)``, then the dataset
  shuffled with the same seed);
* ``split_dataset``: a small in-memory dataset read into a list of samples (shuffled by
  Python's ``random`` seeded with ``seed``), cut in two and rebuilt with
  ``from_tensor_slices`` (re-batched like a batched input dataset).
"""
from __future__ import annotations

import random

import numpy as np

from runtime import nest
from runtime.data.dataset import Dataset
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.tensor import Tensor

AUTOTUNE = -1


def _check_positive(name, value, length):
    if value <= 0:
        raise ValueError(f"`{name}` must be higher than 0. Received: {name}={value}")
    if value >= length:
        raise ValueError(f"`{name}` must be lower than the length of the data. Received: "
                         f"{name}={value}, for data of length {length}")


def _check_range(start_index, end_index, length):
    if start_index:
        if start_index < 0:
            raise ValueError(f"`start_index` must be 0 or greater. Received: "
                             f"start_index={start_index}")
        if start_index >= length:
            raise ValueError(f"`start_index` must be lower than the length of the data. "
                             f"Received: start_index={start_index}, for data of length {length}")
    if end_index:
        if start_index and end_index <= start_index:
            raise ValueError(f"`end_index` must be higher than `start_index`. Received: "
                             f"start_index={start_index}, and end_index={end_index} ")
        if end_index >= length:
            raise ValueError(f"`end_index` must be lower than the length of the data. "
                             f"Received: end_index={end_index}, for data of length {length}")
        if end_index <= 0:
            raise ValueError(f"`end_index` must be higher than 0. Received: "
                             f"end_index={end_index}")


def timeseries_dataset_from_array(data, targets, sequence_length, sequence_stride=1,
                                  sampling_rate=1, batch_size=128, shuffle=False, seed=None,
                                  start_index=None, end_index=None):
    """Windows ``data[i : i + sequence_length * sampling_rate : sampling_rate]`` for ``i`` every
    ``sequence_stride`` steps (with ``targets[i]`` when targets are given), in batches."""
    _check_range(start_index, end_index, len(data))
    _check_positive("sampling_rate", sampling_rate, len(data))
    _check_positive("sequence_stride", sequence_stride, len(data))
    start_index = start_index or 0
    end_index = len(data) if end_index is None else end_index
    num_seqs = end_index - start_index - (sequence_length - 1) * sampling_rate
    if targets is not None:
        num_seqs = min(num_seqs, len(targets))
    index_dtype = "int32" if num_seqs < 2147483647 else "int64"
    starts = np.arange(0, num_seqs, sequence_stride, dtype=index_dtype)
    if shuffle:
        if seed is None:
            seed = np.random.randint(1e6)
        np.random.RandomState(seed).shuffle(starts)
    span = np.asarray(sequence_length * sampling_rate, index_dtype)
    rate = np.asarray(sampling_rate, index_dtype)
    positions = Dataset.from_tensor_slices(starts)
    windows = Dataset.zip((Dataset.from_tensors(data[start_index:end_index]).repeat(),
                           positions)).map(
        lambda steps, i: A.gather(steps, A.range_(i, M.add(i, span), rate)))
    dataset = windows
    if targets is not None:
        target_ds = Dataset.zip((Dataset.from_tensors(targets[start_index:end_index]).repeat(),
                                 positions)).map(A.gather)
        dataset = Dataset.zip((windows, target_ds))
    dataset = dataset.prefetch(AUTOTUNE)
    if batch_size is not None:
        if shuffle:
            dataset = dataset.shuffle(buffer_size=batch_size * 8, seed=seed)
        return dataset.batch(batch_size)
    if shuffle:
        dataset = dataset.shuffle(buffer_size=1024, seed=seed)
    return dataset


def _sample_source(dataset):
    """The samples of a tuple / list of arrays (zipped), an array (rows) or a dataset
    (unbatched when it was batched)."""
    if isinstance(dataset, (list, tuple)):
        kind = "list" if isinstance(dataset, list) else "tuple"
        if not dataset:
            raise ValueError(f"Received an empty list dataset.Please provide a non-empty {kind} "
                             "of arrays.")
        for i, element in enumerate(dataset):
            if not isinstance(element, np.ndarray):
                raise ValueError(f"Expected a {kind} of `numpy.ndarray` objects,Received: "
                                 f"{type(element)} at index {i}.")
            if element.shape[0] != dataset[0].shape[0]:
                raise ValueError(
                    f"Received a {kind} of NumPy arrays with different lengths.Mismatch found "
                    f"at index {i}, Expected shape={dataset[0].shape} Received "
                    f"shape={element.shape}.Please provide a {kind} of NumPy arrays of the "
                    "same length.")
        return zip(*dataset)
    if isinstance(dataset, Dataset):
        return dataset.unbatch() if _batch_size(dataset) is not None else dataset
    return iter(dataset)


def _batch_size(dataset):
    """The batch size of a dataset made by ``batch`` (Keras's ``is_batched``), else None."""
    return dataset._inputs[1] if dataset._kind == "BatchDataset" else None


def _samples(dataset) -> list:
    samples, shape = [], None
    for i, sample in enumerate(_sample_source(dataset)):
        if i == 0 and isinstance(sample, (np.ndarray, Tensor)):
            shape = np.array(sample).shape
        elif shape is not None and np.array(sample).shape != shape:
            raise ValueError(f"All `dataset` samples must have same shape, Expected shape: "
                             f"{shape} Received shape: {np.array(sample).shape} at index "
                             f"{i - 1}.")
        samples.append(sample)
    if not samples:
        raise ValueError("Received an empty dataset. Argument `dataset` must be a non-empty "
                         "list/tuple of `numpy.ndarray` objects or `tf.data.Dataset` objects.")
    return samples


def _split_sizes(left_size, right_size, total):
    """Keras's rules: ints are counts (in ``(0, total)``), floats fractions (in ``(0, 1)``);
    a missing side takes the rest; neither side may be empty."""
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if size is not None and type(size) not in (int, float):
            raise TypeError(f"Invalid `{name}` Type. Expected: int or float or None, Received: "
                            f"type({name})={type(size)}.")
    if left_size == 0 and right_size == 0:
        raise ValueError("Both `left_size` and `right_size` are zero. At least one of the "
                         "split sizes must be non-zero.")
    for name, size in (("left_size", left_size), ("right_size", right_size)):
        if (type(size) is int and (size <= 0 or size >= total)) or \
                (type(size) is float and (size <= 0 or size >= 1)):
            raise ValueError(f"`{name}` should be either a positive integer smaller than "
                             f"{total}, or a float within the range `[0, 1]`. Received: "
                             f"{name}={size}")
    if type(left_size) is float and type(right_size) is float and left_size + right_size > 1:
        raise ValueError("The sum of `left_size` and `right_size` is greater than 1. It must "
                         "be less than or equal to 1.")
    left = round(left_size * total) if type(left_size) is float else left_size
    right = round(right_size * total) if type(right_size) is float else right_size
    left = total - right if left is None else left
    right = total - left if right is None else right
    if left + right > total:
        raise ValueError(f"The sum of `left_size` and `right_size` should be smaller than the "
                         f"{total}. Received: left_size + right_size = {float(left + right)}"
                         f"and total_length = {total}")
    for size, side in ((left, "left"), (right, "right")):
        if size == 0:
            raise ValueError(f"With `dataset` of length={total}, `left_size`={float(left)} and "
                             f"`right_size`={float(right)}.Resulting {side} side dataset split "
                             "will be empty. Adjust any of the aforementioned parameters")
    return int(left), int(right)


def _restored(samples, dataset):
    """The samples as ``from_tensor_slices`` input: component-wise stacked arrays (tuples
    where the samples were lists or tuples); an array's rows stay a list."""
    if not isinstance(dataset, (list, tuple, Dataset)):
        return samples
    first = samples[0]
    flat = [nest.flatten(sample) for sample in samples]
    columns = [np.array(column) for column in zip(*flat)]
    packed = nest.pack_sequence_as(first, columns)
    return _tuples(packed)


def _tuples(value):
    if isinstance(value, (list, tuple)):
        return tuple(_tuples(v) for v in value)
    if isinstance(value, dict):
        return {k: _tuples(v) for k, v in value.items()}
    return value


def split_dataset(dataset, left_size=None, right_size=None, shuffle=False, seed=None,
                  preferred_backend=None):
    """Two datasets: the first ``left_size`` samples and the last ``right_size`` ones (sizes
    as counts or fractions; one may be omitted)."""
    if not isinstance(dataset, (list, tuple, np.ndarray, Dataset)):
        raise TypeError(f"Unsupported dataset type: {type(dataset)}")
    if left_size is None and right_size is None:
        raise ValueError("At least one of the `left_size` or `right_size` must be specified. "
                         "Received: left_size=None and right_size=None")
    samples = _samples(dataset)
    if shuffle:
        if seed is None:
            seed = random.randint(0, int(1e6))
        random.seed(seed)
        random.shuffle(samples)
    left, right = _split_sizes(left_size, right_size, len(samples))
    splits = [Dataset.from_tensor_slices(_restored(part, dataset))
              for part in (samples[:left], samples[-right:])]
    size = _batch_size(dataset) if isinstance(dataset, Dataset) else None
    if size is not None:
        splits = [split.batch(size) for split in splits]
    return tuple(split.prefetch(AUTOTUNE) for split in splits)
