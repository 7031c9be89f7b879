"""Datasets drawing from other datasets: ``random``, ``choose_from_datasets``,
``sample_from_datasets``, ``rejection_resample``, written as TensorFlow writes them (a random
dataset batched in pairs gives each draw's stateless-multinomial seed), so that a seed gives
TensorFlow's order."""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.shapes import TensorShape
from runtime.data import structure
from runtime.ops import array_ops, math_ops, random_ops
from runtime.ops.core import convert_to_tensor
from runtime.tensor import SymbolicTensor
from runtime.tensor_spec import TensorSpec


def random(seed=None, rerandomize_each_iteration=None):
    """``Dataset.random``: endless pseudo-random int64s (uint32 words), seeded as TensorFlow
    seeds ops; the same sequence on every pass."""
    from runtime.data.dataset import Dataset
    seed, seed2 = random_ops.get_seed(seed)
    return Dataset("RandomDataset", [convert_to_tensor(seed, dtype=dtypes.int64),
                                     convert_to_tensor(seed2, dtype=dtypes.int64)], {},
                   TensorSpec(TensorShape([]), dtypes.int64), "RandomDataset")


def _common_spec(datasets):
    """The most specific element spec every dataset's elements fit (same structure and
    dtypes; a dimension the datasets disagree on becomes unknown)."""
    first = datasets[0].element_spec
    flat = structure.flatten(first)
    for i, d in enumerate(datasets[1:], 1):
        other = structure.flatten(d.element_spec)
        if len(other) != len(flat) or any(type(a) is not TensorSpec or type(b) is not TensorSpec
                                           or a.dtype != b.dtype for a, b in zip(flat, other)):
            raise TypeError(f"Invalid `datasets`. `datasets` must have compatible element "
                            f"specs.\n Dataset 0 element_spec={first}.\nDataset {i} "
                            f"element_spec={d.element_spec}.")
        flat = [TensorSpec(TensorShape(a.shape).most_specific_compatible_shape(
            TensorShape(b.shape)), a.dtype) for a, b in zip(flat, other)]
    return structure.pack(first, flat)


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    """Element ``i`` is the next element of ``datasets[choice]`` for the ``i``-th choice."""
    from runtime.data.dataset import Dataset
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not isinstance(choice_dataset, Dataset):
        raise TypeError(f"Invalid `choice_dataset`. `choice_dataset` should be a "
                        f"`tf.data.Dataset` but is {type(choice_dataset)}.")
    spec = choice_dataset.element_spec
    if type(spec) is not TensorSpec or spec.dtype != dtypes.int64 or \
            not TensorShape(spec.shape).is_compatible_with(TensorShape([])):
        raise TypeError(f"Invalid `choice_dataset`. Elements of `choice_dataset` must be "
                        f"scalar `tf.int64` tensors but are {spec}.")
    return Dataset("DirectedInterleaveDataset", [choice_dataset] + datasets,
                   {"stop_on_empty_dataset": bool(stop_on_empty_dataset)},
                   _common_spec(datasets), "DirectedInterleaveDataset")


def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                         rerandomize_each_iteration=None):
    """Each element from ``datasets[i]`` with probability ``weights[i]`` (uniform without
    weights; a Dataset of weights gives one weight vector per draw);
    ``stop_on_empty_dataset`` ends at the first input that runs out."""
    from runtime.data.dataset import Dataset
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if isinstance(weights, Dataset):   # one weight vector per draw
        _common_spec(datasets)
        seeds = random(seed).batch(2)
        selector = Dataset.zip((weights.map(lambda *p: math_ops.log(p)), seeds)).map(
            lambda logits, s: array_ops.squeeze(random_ops.stateless_categorical(logits, 1, s),
                                                [0, 1]))
        return choose_from_datasets(datasets, selector, stop_on_empty_dataset)
    if weights is None:
        logits = convert_to_tensor([[1.0] * len(datasets)], dtype=dtypes.float32)
    else:
        weights = convert_to_tensor(weights, dtype_hint=dtypes.float32)
        if weights.dtype not in (dtypes.float32, dtypes.float64):
            raise TypeError(f"Invalid `weights`. `weights` type must be either `tf.float32` "
                            f"or `tf.float64` but is {weights.dtype!r}.")
        if not TensorShape(weights.shape).is_compatible_with(TensorShape([len(datasets)])):
            raise ValueError(f"Invalid `weights`. The shape of `weights` should be compatible "
                             f"with `[len(datasets)]` but is {weights.shape}.")
        logits = array_ops.expand_dims(math_ops.log(weights), 0)
    _common_spec(datasets)
    if len(datasets) == 1:
        return datasets[0]

    def select(seeds):
        return array_ops.squeeze(random_ops.stateless_categorical(logits, 1, seeds), [0, 1])
    selector = random(seed).batch(2).map(select)
    return choose_from_datasets(datasets, selector, stop_on_empty_dataset)


def _acceptance_probs_with_mixing(initial, target):
    """Per-class acceptance probabilities, and the probability of taking an element of the
    original data unfiltered (TensorFlow's mixing rule)."""
    ratio = target / (initial + np.finfo(initial.dtype.numpy_dtype).tiny)
    low, high = math_ops.reduce_min(ratio), math_ops.reduce_max(ratio)
    return (ratio - low) / (high - low), low


def _estimate_initial_dist(target, class_values, batch_size=32, smoothing=10):
    """The running class distribution of ``class_values`` (counts start at ``smoothing``),
    updated every ``batch_size`` elements, one per element."""
    num_classes = int(target.shape[0])

    def update(seen, classes):
        seen = seen + math_ops.reduce_sum(
            array_ops.one_hot(classes, num_classes, dtype=dtypes.int64), 0)
        dist = math_ops.cast(seen / math_ops.reduce_sum(seen), dtypes.float32)
        return seen, array_ops.tile(array_ops.expand_dims(dist, 0), [batch_size, 1])
    return class_values.batch(batch_size).scan(
        array_ops.fill([num_classes], np.int64(smoothing)), update).unbatch()


def rejection_resample(dataset, class_func, target_dist, initial_dist=None, seed=None):
    """``(class, element)`` pairs whose classes follow ``target_dist``: elements are kept
    with their class's acceptance probability, mixed with unfiltered ones (TensorFlow's
    resampler, written as it writes it)."""
    from runtime.data.dataset import Dataset
    target = math_ops.cast(convert_to_tensor(target_dist), dtypes.float32)

    def with_class(*x):
        return (class_func(*x), x[0]) if len(x) == 1 else (class_func(*x), x)
    if initial_dist is not None:
        initial = math_ops.cast(convert_to_tensor(initial_dist), dtypes.float32)
        accept, prob_original = _acceptance_probs_with_mixing(initial, target)
        initial_ds = Dataset.from_tensors(initial).repeat()
        accept_ds = Dataset.from_tensors(accept).repeat()
        prob_original_ds = Dataset.from_tensors(prob_original).repeat()
        static = None if isinstance(initial, SymbolicTensor) or isinstance(
            target, SymbolicTensor) else np.min(target.numpy() / initial.numpy())
    else:
        initial_ds = _estimate_initial_dist(target, dataset.map(class_func))
        mixed = initial_ds.map(lambda initial: _acceptance_probs_with_mixing(initial, target))
        accept_ds = mixed.map(lambda accept, _: accept)
        prob_original_ds = mixed.map(lambda _, prob: prob)
        static = None

    def gather_and_copy(accept, data):
        value = class_func(*data) if isinstance(data, tuple) else class_func(data)
        return value, array_ops.gather(accept, value), data

    def keep(unused_class, p, unused_data):
        return random_ops.uniform([], seed=seed, dtype=p.dtype) < p
    filtered = Dataset.zip((accept_ds, dataset)).map(gather_and_copy).filter(keep).map(
        lambda value, _, data: (value, data)).prefetch(3)
    if static == 1:
        return dataset.map(with_class)
    if static == 0:
        return filtered
    return sample_from_datasets(
        [dataset.map(with_class), filtered],
        weights=prob_original_ds.map(lambda prob: [(prob, 1.0 - prob)]),
        seed=seed, stop_on_empty_dataset=True)
