"""``tf.data.TFRecordDataset``, ``tf.data.FixedLengthRecordDataset`` and CSV: records of files.

The files are read when the dataset is iterated, by every pass (``graph/ops/records.py``).
Given ``num_parallel_reads``, files are interleaved one record at a time, as TensorFlow's
deterministic parallel interleave orders them.
"""
from __future__ import annotations

import csv
import glob
from collections import OrderedDict

import numpy as np

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


def _csv_default(value):
    """A record default: a dtype means a required field (an empty default) of that dtype."""
    if isinstance(value, dtypes.DType) or isinstance(value, type) and value in (int, float, str):
        return convert_to_tensor([], dtype=dtypes.as_dtype(value))
    return convert_to_tensor(value)


class CsvDataset(Dataset):
    """``tf.data.experimental.CsvDataset``: one tuple of scalars per CSV record, typed by
    ``record_defaults`` (a value, or a dtype for a required field); ``select_cols`` picks
    (increasing) columns, one default each."""

    def __init__(self, filenames, record_defaults, compression_type=None, buffer_size=None,
                 header=False, field_delim=",", use_quote_delim=True, na_value="",
                 select_cols=None, exclude_cols=None, name=None):
        if compression_type not in (None, ""):
            raise ValueError(f"CsvDataset reads uncompressed files only, got "
                             f"compression_type={compression_type!r}")
        if exclude_cols is not None:
            raise NotImplementedError("CsvDataset's exclude_cols is not supported")
        select_cols = [int(c) for c in select_cols or ()]
        if select_cols and len(select_cols) != len(record_defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])) or any(
                c < 0 for c in select_cols):
            raise ValueError("select_cols is not strictly increasing.")
        defaults = [_csv_default(d) for d in record_defaults]
        spec = tuple(TensorSpec(TensorShape([]), d.dtype) for d in defaults)
        attrs = {"header": bool(header), "field_delim": field_delim,
                 "use_quote_delim": bool(use_quote_delim), "na_value": na_value,
                 "select_cols": tuple(select_cols)}
        super().__init__("CSVDataset", [_filenames(filenames)] + defaults, attrs, spec,
                         "CSVDataset")

    def __repr__(self) -> str:
        return f"<CsvDatasetV2 element_spec={self.element_spec!r}>"


def _infer_dtype(value: str, previous):
    """The narrowest of int32, int64, float32, float64, string that holds ``value`` and
    every earlier value of the column (TensorFlow's make_csv_dataset inference)."""
    order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64, dtypes.string]
    start = 0 if previous is None else order.index(previous)
    for dtype in order[start:]:
        try:
            if dtype.is_integer and np.iinfo(dtype.numpy_dtype).min <= int(value) <= np.iinfo(
                    dtype.numpy_dtype).max:
                return dtype
            if dtype.is_floating and np.isfinite(dtype.numpy_dtype.type(float(value))):
                return dtype
        except ValueError:
            continue
        if dtype == dtypes.string:
            return dtype
    return dtypes.string


def _read_rows(filenames, field_delim, use_quote_delim, count):
    """The first ``count`` rows of the files (header included), read now, in Python."""
    quoting = csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE
    rows = []
    for name in filenames:
        with open(name, newline="") as f:
            for row in csv.reader(f, delimiter=field_delim, quoting=quoting):
                rows.append(row)
                if len(rows) >= count:
                    return rows
    return rows


def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    """``tf.data.experimental.make_csv_dataset``: batches of ``(features, label)`` (or of
    features) as OrderedDicts of columns; names come from the header and column dtypes are
    inferred from the first rows when not given, as TensorFlow reads them before building."""
    filenames = sorted(glob.glob(file_pattern)) if isinstance(file_pattern, str) else \
        sorted(f for p in file_pattern for f in glob.glob(p))
    if not filenames:
        raise ValueError(f"No files match `file_pattern` {file_pattern}.")
    if column_names is None:
        if not header:
            raise ValueError("Cannot infer column names without a header line.")
        column_names = _read_rows(filenames[:1], field_delim, use_quote_delim, 1)[0]
    column_names = list(column_names)
    if len(set(column_names)) != len(column_names):
        raise ValueError("Cannot have duplicate column names.")
    select = list(range(len(column_names)))
    if select_columns is not None:
        select = sorted(column_names.index(c) if isinstance(c, str) and c in column_names
                        else c for c in select_columns)
        if any(not isinstance(c, int) for c in select):
            raise ValueError("`select_columns` is not a subset of `column_names`")
    names = [column_names[c] for c in select]
    if label_name is not None and label_name not in names:
        raise ValueError(f"`label_name` provided must be one of the columns: {names}. "
                         f"Received: {label_name}.")
    if column_defaults is None:
        inferred = [None] * len(select)
        for row in _read_rows(filenames, field_delim, use_quote_delim,
                              num_rows_for_inference + bool(header))[bool(header):]:
            for j, c in enumerate(select):
                if c < len(row) and row[c] not in ("", na_value):
                    inferred[j] = _infer_dtype(row[c], inferred[j])
        column_defaults = [(dtypes.string if t is None else t).numpy_dtype.type(0)
                           if t != dtypes.string else "" for t in inferred]
    files = Dataset.from_tensor_slices(filenames)
    if shuffle:
        files = files.shuffle(len(filenames), seed=shuffle_seed)
    dataset = files.interleave(
        lambda f: CsvDataset(f, column_defaults, header=header, field_delim=field_delim,
                             use_quote_delim=use_quote_delim, na_value=na_value,
                             select_cols=select),
        cycle_length=num_parallel_reads or 1)
    if shuffle:
        dataset = dataset.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    dataset = dataset.repeat(num_epochs)
    dataset = dataset.batch(batch_size, drop_remainder=num_epochs is None)

    def to_dict(*columns):
        features = OrderedDict(zip(names, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    return dataset.map(to_dict).prefetch(prefetch_buffer_size or -1)
