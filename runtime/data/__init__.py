"""``tf.data``: datasets and iterators (see dataset.py for how they are staged)."""
from types import SimpleNamespace

from runtime.data.dataset import (AUTOTUNE, INFINITE, UNKNOWN, Dataset,  # noqa: F401
                                  DatasetSpec,
                                  TextLineDataset, counter, dense_to_ragged_batch)
from runtime.data.iterator import OwnedIterator as Iterator  # noqa: F401
from runtime.data.structure import set_function_converter  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN

experimental = SimpleNamespace(AUTOTUNE=AUTOTUNE, Counter=counter,
                               dense_to_ragged_batch=dense_to_ragged_batch,
                               INFINITE_CARDINALITY=INFINITE, UNKNOWN_CARDINALITY=UNKNOWN)
