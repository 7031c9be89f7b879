"""``tf.data``: datasets and iterators (see dataset.py for how they are staged)."""
from types import SimpleNamespace

from runtime.data.dataset import (AUTOTUNE, INFINITE, UNKNOWN, Dataset,  # noqa: F401
                                  DatasetSpec,
                                  TextLineDataset, counter, dense_to_ragged_batch)
from runtime.data.iterator import OwnedIterator as Iterator  # noqa: F401
from runtime.data.options import (AutoShardPolicy, AutotuneAlgorithm,  # noqa: F401
                                  AutotuneOptions, DistributeOptions, ExternalStatePolicy,
                                  OptimizationOptions, Options, ThreadingOptions)
from runtime.data.readers import FixedLengthRecordDataset, TFRecordDataset  # noqa: F401
from runtime.data.structure import set_function_converter  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN

experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, Counter=counter,
                               AutoShardPolicy=AutoShardPolicy,
                               AutotuneAlgorithm=AutotuneAlgorithm,
                               AutotuneOptions=AutotuneOptions,
                               DistributeOptions=DistributeOptions,
                               ExternalStatePolicy=ExternalStatePolicy,
                               OptimizationOptions=OptimizationOptions,
                               ThreadingOptions=ThreadingOptions,
                               dense_to_ragged_batch=dense_to_ragged_batch,
                               INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN)
