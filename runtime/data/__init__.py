"""``tf.data``: datasets and iterators (see dataset.py for how they are staged)."""
from runtime.data.dataset import AUTOTUNE, INFINITE, UNKNOWN, Dataset  # noqa: F401
from runtime.data.iterator import OwnedIterator as Iterator  # noqa: F401
from runtime.data.structure import set_function_converter  # noqa: F401

INFINITE_CARDINALITY = INFINITE
UNKNOWN_CARDINALITY = UNKNOWN
