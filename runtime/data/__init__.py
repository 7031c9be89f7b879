"""``tf.data``: datasets and iterators (see dataset.py for how they are staged)."""
from types import SimpleNamespace

from runtime.data.dataset import (AUTOTUNE, INFINITE, UNKNOWN, Dataset,  # noqa: F401
                                  DatasetSpec, assert_cardinality,
                                  TextLineDataset, counter, dense_to_ragged_batch)
from runtime.data.iterator import OwnedIterator as Iterator  # noqa: F401
from runtime.data.numpy_iterator import NumpyIterator, from_list  # noqa: F401
from runtime.data.optional import Optional
from runtime.data.options import (AutoShardPolicy, AutotuneAlgorithm,  # noqa: F401
                                  AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                                  OptimizationOptions, Options, ThreadingOptions)
from runtime.data.readers import (CsvDataset, FixedLengthRecordDataset,  # noqa: F401
                                  TFRecordDataset, make_csv_dataset)
from runtime.data.structure import set_function_converter  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN



def _as_transformation(method: str):
    """``tf.data.experimental.X(...)``: ``Dataset.X`` as a function for ``Dataset.apply``."""
    def transformation(*args, **kwargs):
        return lambda dataset: getattr(dataset, method)(*args, **kwargs)
    transformation.__name__ = method
    return transformation


def _shuffle_and_repeat(buffer_size, count=None, seed=None):
    """(deprecated in TensorFlow) ``shuffle`` then ``repeat``."""
    return lambda dataset: dataset.shuffle(buffer_size, seed).repeat(count)


def _map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                   num_parallel_calls=None):
    """(deprecated in TensorFlow) ``map`` then ``batch``."""
    return lambda dataset: dataset.map(map_func).batch(batch_size, drop_remainder)


def _parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                         buffer_output_elements=None, prefetch_input_elements=None):
    """(deprecated in TensorFlow) ``interleave`` (in its deterministic order)."""
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length)


experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, Counter=counter, CsvDataset=CsvDataset,
                               from_list=from_list,
                               bucket_by_sequence_length=_as_transformation(
                                   "bucket_by_sequence_length"),
                               group_by_window=_as_transformation("group_by_window"),
                               take_while=_as_transformation("take_while"),
                               unbatch=_as_transformation("unbatch"),
                               dense_to_sparse_batch=_as_transformation("sparse_batch"),
                               assert_cardinality=assert_cardinality,
                               shuffle_and_repeat=_shuffle_and_repeat,
                               map_and_batch=_map_and_batch,
                               parallel_interleave=_parallel_interleave,
                               get_structure=lambda dataset_or_iterator:
                               dataset_or_iterator.element_spec,
                               get_next_as_optional=lambda iterator:
                               iterator.get_next_as_optional(),
                               Optional=Optional,
                               scan=_as_transformation("scan"),
                               unique=_as_transformation("unique"),
                               rejection_resample=_as_transformation("rejection_resample"),
                               enumerate_dataset=_as_transformation("enumerate"),
                               cardinality=lambda dataset: dataset.cardinality(),
                               get_single_element=lambda dataset: dataset.get_single_element(),
                               RandomDataset=Dataset.random,
                               choose_from_datasets=lambda datasets, choice_dataset,
                               stop_on_empty_dataset=False: Dataset.choose_from_datasets(
                                   datasets, choice_dataset, stop_on_empty_dataset),
                               sample_from_datasets=Dataset.sample_from_datasets,
                               make_csv_dataset=make_csv_dataset,
                               AutoShardPolicy=AutoShardPolicy,
                               AutotuneAlgorithm=AutotuneAlgorithm,
                               AutotuneOptions=AutotuneOptions,
                               DistributeOptions=DistributeOptions,
                               ExternalStatePolicy=ExternalStatePolicy,
                               OptimizationOptions=OptimizationOptions,
                               ThreadingOptions=ThreadingOptions,
                               dense_to_ragged_batch=dense_to_ragged_batch,
                               INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN)
