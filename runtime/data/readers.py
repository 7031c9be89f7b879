"""``tf.data.TFRecordDataset`` and ``tf.data.FixedLengthRecordDataset``: records of files.

The files are read when the dataset is iterated, by every pass (``graph/ops/records.py``).
Given ``num_parallel_reads``, files are interleaved one record at a time, as TensorFlow's
deterministic parallel interleave orders them.
"""
from __future__ import annotations

from graph import dtypes
from graph.shapes import TensorShape
from runtime.data.dataset import Dataset
from runtime.io import _compression
from runtime.ops.array_ops import reshape
from runtime.ops.core import convert_to_tensor
from runtime.tensor_spec import TensorSpec

_DEFAULT_BUFFER = 256 * 1024


def _filenames(filenames):
    names = convert_to_tensor(filenames, dtype=dtypes.string)
    if names.shape.rank not in (None, 0, 1):
        raise TypeError("`filenames` must be a `tf.Tensor` of `tf.string` of rank 0 or 1")
    return names


def _int64(value, default):
    return convert_to_tensor(default if value is None else value, dtype=dtypes.int64)


class _FileDataset(Dataset):
    """A dataset of the records of files: each file whole before the next, or (given
    ``num_parallel_reads``, or a dataset of file names) interleaved one record at a time."""

    _OP = ""

    def __init__(self, filenames, sizes, compression_type, num_parallel_reads):
        compression = convert_to_tensor(_compression(compression_type), dtype=dtypes.string)
        spec = TensorSpec(TensorShape([]), dtypes.string)
        if not isinstance(filenames, Dataset) and num_parallel_reads is None:
            super().__init__(self._OP, [_filenames(filenames)] + sizes + [compression], {},
                             spec, self._OP)
            return
        if not isinstance(filenames, Dataset):
            filenames = Dataset.from_tensor_slices(reshape(_filenames(filenames), [-1]))
        inner = filenames.interleave(
            lambda f: Dataset(self._OP, [f] + sizes + [compression], {}, spec, self._OP),
            cycle_length=num_parallel_reads, block_length=1)
        super().__init__(inner._op, inner._inputs, inner._attrs, spec, self._OP)

    def __repr__(self) -> str:
        return f"<{self._OP}V2 element_spec={self.element_spec!r}>"


class TFRecordDataset(_FileDataset):
    """``tf.data.TFRecordDataset``: the records of TFRecord files, as scalar strings."""

    _OP = "TFRecordDataset"

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        super().__init__(filenames, [_int64(buffer_size, _DEFAULT_BUFFER)], compression_type,
                         num_parallel_reads)


class FixedLengthRecordDataset(_FileDataset):
    """``tf.data.FixedLengthRecordDataset``: each file cut into ``record_bytes`` records,
    after ``header_bytes`` and before ``footer_bytes``."""

    _OP = "FixedLengthRecordDataset"

    def __init__(self, filenames, record_bytes, header_bytes=None, footer_bytes=None,
                 buffer_size=None, compression_type=None, num_parallel_reads=None, name=None):
        sizes = [_int64(header_bytes, 0), _int64(record_bytes, 0), _int64(footer_bytes, 0),
                 _int64(buffer_size, _DEFAULT_BUFFER)]
        super().__init__(filenames, sizes, compression_type, num_parallel_reads)
