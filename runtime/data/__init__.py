"""``tf.data``: datasets and iterators (see dataset.py for how they are staged)."""
from types import SimpleNamespace

from runtime.data.dataset import (AUTOTUNE, INFINITE, UNKNOWN, Dataset,  # noqa: F401
                                  DatasetSpec,
                                  TextLineDataset, counter, dense_to_ragged_batch)
from runtime.data.iterator import OwnedIterator as Iterator  # noqa: F401
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


experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, Counter=counter, CsvDataset=CsvDataset,
                               bucket_by_sequence_length=_as_transformation(
                                   "bucket_by_sequence_length"),
                               group_by_window=_as_transformation("group_by_window"),
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
