"""``tf.data.Dataset``: input pipelines that run eagerly and inside staged loops.

A Dataset is a recipe (a dataset op, its input datasets and tensors, its
attrs) plus an element spec. Its ``variant`` tensor is built where it is
used: once eagerly (a pipeline value ready to iterate), and once per graph
that uses it, by recording the recipe's ops into that graph. So a dataset
created outside a function and looped over inside it is part of the graph
as a few construction nodes (data from Python as one constant, a generator
as a token), never unrolled: the graph does not grow with the data.

``for x in dataset`` in converted code calls ``_autograph_for_stmt``: a
Python loop eagerly, one ``while_loop`` over an iterator when staged.
"""
from __future__ import annotations

import os
import warnings
import weakref
from typing import Callable

import numpy as np

from graph import dtypes
from graph.errors import InvalidArgumentError
from graph.ops.data import register_generator
from graph.shapes import TensorShape
from runtime import context
from runtime.data import structure
from runtime.data.iterator import OwnedIterator, staged_for
from runtime.ops import random_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.tensor_spec import TensorSpec

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2


class Dataset:
    """A sequence of elements (structures of tensors) described by ``element_spec``."""

    def __init__(self, op: str | None, inputs: list, attrs: dict, element_spec,
                 kind: str, variant: Tensor | None = None):
        self._op, self._inputs, self._attrs = op, list(inputs), dict(attrs)
        self._element_spec = element_spec
        self._kind = kind
        self._given_variant = variant  # a dataset that stands on a given tensor
        self._eager_variant: Tensor | None = None
        self._graph_variants: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self._variant()  # builds now, so that bad arguments fail at construction

    # -- the variant tensor, built where it is used -----------------------------------
    def _variant(self) -> Tensor:
        if self._given_variant is not None:
            return self._given_variant
        graph = context.current_graph()
        if graph is None:
            if self._eager_variant is None:
                self._eager_variant = self._build(None)
            return self._eager_variant
        built = self._graph_variants.get(graph)
        if built is None:
            built = self._graph_variants[graph] = self._build(graph)
        return built

    def _build(self, graph) -> Tensor:
        inputs = [i._variant() if isinstance(i, Dataset) else i for i in self._inputs]
        if graph is not None:
            for f in _function_attrs(self._attrs):
                graph.add_function(f)
                for name, sub in f.library.items():
                    graph.library.setdefault(name, sub)
        return apply_op(self._op, inputs, self._attrs, name=self._op)

    # -- composite protocol (datasets as function arguments) ---------------------------
    @property
    def _type_spec(self) -> "DatasetSpec":
        """A tf.function traces a dataset argument by its element spec, as TensorFlow does:
        another dataset of the same spec is fed to the same trace as its variant."""
        return DatasetSpec(self._element_spec)

    def _components(self) -> list:
        return [self._variant()]

    def _with_components(self, tensors) -> "Dataset":
        (variant,) = tensors
        return Dataset(None, [], {}, self._element_spec, self._kind, variant=variant)

    # -- description --------------------------------------------------------------------
    @property
    def element_spec(self):
        return self._element_spec

    def __repr__(self) -> str:
        return f"<_{self._kind} element_spec={self._element_spec!r}>"  # TF's class names

    def __bool__(self) -> bool:
        return True

    def __len__(self) -> int:
        if not context.executing_eagerly():
            raise TypeError("`tf.data.Dataset` only supports `len` in eager mode. Use "
                            "`tf.data.Dataset.cardinality()` instead.")
        n = int(self.cardinality().numpy())
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def cardinality(self) -> Tensor:
        """Number of elements as an int64 scalar (INFINITE = -1, UNKNOWN = -2)."""
        return apply_op("DatasetCardinality", [self._variant()], name="DatasetCardinality")

    # -- iteration --------------------------------------------------------------------------
    def __iter__(self) -> OwnedIterator:
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """A ``tf.data.NumpyIterator`` over this dataset (eagerly only)."""
        from runtime.data.numpy_iterator import NumpyIterator
        return NumpyIterator(self)

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        """``for x in dataset`` of converted code: Python eagerly, one While when staged."""
        if context.executing_eagerly():
            for element in self:
                if extra_test is not None and not extra_test():
                    break
                body(element)
            return
        handle = apply_op("IteratorFromDataset", [self._variant()], name="IteratorFromDataset")
        staged_for(handle, self._element_spec, extra_test, body, get_state, set_state,
                   symbol_names, opts)

    def reduce(self, initial_state, reduce_func: Callable):
        """``reduce_func(state, element)`` folded over the dataset (one While when staged)."""
        state = [structure.to_tensors(initial_state)]

        def body(element):
            new = structure.to_tensors(reduce_func(state[0], element))
            state[0] = new

        def set_state(values):
            state[0] = values[0]
        self._autograph_for_stmt(None, body, lambda: (state[0],), set_state, ("state",), {})
        return state[0]

    # -- sources ----------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None) -> "Dataset":
        values = structure.to_tensors(tensors)
        structure.check_batch(structure.spec_of(values))
        flat = structure.flatten(values)
        for t in flat:
            if t.shape.rank == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, got "
                                 f"{t!r} (from_tensor_slices slices along the first dimension; "
                                 "use from_tensors for a single element)")
        spec = structure.pack(values, [_unbatched(structure.spec_of(t)) for t in flat])
        return Dataset("TensorSliceDataset", structure.components(values, rows=True), {}, spec,
                       "TensorSliceDataset")

    @staticmethod
    def from_tensors(tensors, name=None) -> "Dataset":
        values = structure.to_tensors(tensors)
        return Dataset("TensorDataset", structure.components(values), {},
                       structure.spec_of(values), "TensorDataset")

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None, **ignored) -> "Dataset":
        """Like Python's ``range``; elements are int64 unless ``output_type`` says otherwise.

        Other keywords are ignored, as TensorFlow ignores them: ``range(3, dtype=tf.int32)``
        runs there (and gives int64), so programs pass it.
        """
        if not 1 <= len(args) <= 3:
            raise TypeError(f"Dataset.range takes 1 to 3 arguments, got {len(args)}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else \
            (args[0], args[1], args[2] if len(args) == 3 else 1)
        inputs = [convert_to_tensor(v, dtype_hint=dtypes.int64) for v in (start, stop, step)]
        output_type = dtypes.as_dtype(output_type)
        return Dataset("RangeDataset", inputs, {"output_type": output_type},
                       TensorSpec(TensorShape([]), output_type), "RangeDataset")

    @staticmethod
    def from_generator(generator: Callable, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None) -> "Dataset":
        """Elements from calling ``generator(*args)`` at every pass (Python, not serializable)."""
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("The `output_types` and `output_shapes` arguments can not be "
                                "used together with the `output_signature` argument.")
            spec = structure.normalize_spec(output_signature)
        elif output_types is None:
            raise TypeError("The `output_types` argument can not be None when "
                            "`output_signature` is None.")
        else:
            spec = structure.with_shapes(output_types, output_shapes)
        call_args = tuple(_python_arg(a) for a in (args or ()))

        leaves = structure.flatten(spec)

        def flat_elements():
            for element in generator(*call_args):
                yield [_generated(s, v) for s, v in zip(leaves, structure.flatten_up_to(
                    spec, element, "`generator` yielded an element that"))]
        token = register_generator(flat_elements)
        return Dataset("GeneratorDataset", [],
                       {"token": token, "output_types": structure.flat_types(spec),
                        "output_shapes": structure.flat_shapes(spec)}, spec, "FlatMapDataset")

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None) -> "Dataset":
        """The files matching ``file_pattern`` (a glob, or a list of them), shuffled unless
        ``shuffle=False`` (then sorted); InvalidArgumentError when none matches."""
        from runtime.io import matching_files
        from runtime.ops import array_ops, math_ops, string_ops
        from runtime.ops.logging_ops import Assert
        pattern = convert_to_tensor(file_pattern, dtype=dtypes.string)
        matched = matching_files(pattern)
        count = array_ops.shape(matched, out_type=dtypes.int64)[0]
        Assert(math_ops.greater(count, 0), [
            "No files matched pattern: ",
            string_ops.reduce_join(pattern, separator=", ")])
        dataset = Dataset.from_tensor_slices(matched)
        if shuffle is None or shuffle:
            dataset = dataset.shuffle(math_ops.maximum(count, 1), seed=seed)
        return dataset

    def save(self, path, compression=None, shard_func=None, checkpoint_args=None) -> None:
        """Writes the elements to the directory ``path`` (``runtime/data/persistence.py``)."""
        from runtime.data.persistence import save
        save(self, path, compression, shard_func, checkpoint_args)

    @staticmethod
    def load(path, element_spec=None, compression=None, reader_func=None) -> "Dataset":
        """The dataset ``save`` wrote to ``path``."""
        from runtime.data.persistence import load
        return load(path, element_spec, compression, reader_func)

    @staticmethod
    def counter(start=0, step=1, dtype=dtypes.int64, name=None) -> "Dataset":
        """``start``, ``start + step``, ... without end."""
        return counter(start, step, dtype)

    @staticmethod
    def random(seed=None, rerandomize_each_iteration=None, name=None) -> "Dataset":
        """Endless pseudo-random int64s (``runtime/data/sampling.py``)."""
        from runtime.data.sampling import random
        return random(seed, rerandomize_each_iteration)

    @staticmethod
    def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True
                             ) -> "Dataset":
        """Elements of ``datasets`` in the order ``choice_dataset`` names them."""
        from runtime.data.sampling import choose_from_datasets
        return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)

    @staticmethod
    def sample_from_datasets(datasets, weights=None, seed=None, stop_on_empty_dataset=False,
                             rerandomize_each_iteration=None) -> "Dataset":
        """Elements of ``datasets`` drawn at random with ``weights``."""
        from runtime.data.sampling import sample_from_datasets
        return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                                    rerandomize_each_iteration)

    @staticmethod
    def zip(*datasets, name=None) -> "Dataset":
        """Elements are structures of one element of each dataset (shortest wins)."""
        nested = datasets[0] if len(datasets) == 1 and not isinstance(datasets[0], Dataset) \
            else tuple(datasets)
        leaves = structure.flatten(nested)
        if not leaves or not all(isinstance(d, Dataset) for d in leaves):
            raise TypeError(f"Dataset.zip takes datasets (or a tuple/dict of them), got "
                            f"{nested!r}")
        spec = structure.pack(nested, [d.element_spec for d in leaves])
        return Dataset("ZipDataset", leaves, {}, spec, "ZipDataset")

    # -- transformations ----------------------------------------------------------------------
    def map(self, map_func: Callable, num_parallel_calls=None, deterministic=None,
            name=None) -> "Dataset":
        _check_deterministic(deterministic, num_parallel_calls)
        return self._mapped(map_func)

    def _mapped(self, map_func: Callable, spec=None) -> "Dataset":
        """``map``; a given ``spec`` says what the flat tensors ``map_func`` returns are."""
        traced = structure.trace(map_func, self._element_spec, "Dataset_map")
        return Dataset("MapDataset", [self] + traced.captured, {"f": traced.graph},
                       traced.output_spec if spec is None else spec, "MapDataset")

    def filter(self, predicate: Callable, name=None) -> "Dataset":
        return self._predicated("FilterDataset", predicate, "Dataset_filter")

    def take_while(self, predicate: Callable, name=None) -> "Dataset":
        """The elements up to (not including) the first one ``predicate`` rejects."""
        return self._predicated("TakeWhileDataset", predicate, "Dataset_take_while")

    def _predicated(self, op: str, predicate: Callable, fn_name: str) -> "Dataset":
        traced = structure.trace(predicate, self._element_spec, fn_name)
        out = traced.output_spec
        if not isinstance(out, TensorSpec) or not out.dtype.is_bool or out.shape.rank not in (0,
                                                                                              None):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor, but its return type was {out!r}.")
        return Dataset(op, [self] + traced.captured, {"f": traced.graph}, self._element_spec, op)

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None) -> "Dataset":
        size = convert_to_tensor(batch_size, dtype_hint=dtypes.int64)
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool_)
        static = _static(size) if _static(drop) else None
        structure.check_batch(self._element_spec)
        spec = structure.pack(self._element_spec, [
            _batched(s, static) for s in structure.flatten(self._element_spec)])
        return Dataset("BatchDatasetV2", [self, size, drop], {}, spec, "BatchDataset")

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None) -> "Dataset":
        """Batches of elements padded to ``padded_shapes`` (default: each component's shape;
        a None dimension pads to the longest in the batch) with ``padding_values`` (0, b"")."""
        specs = structure.flatten(self._element_spec)
        for spec in specs:
            if not isinstance(spec, TensorSpec):
                raise TypeError(f"`padded_batch` is only supported for datasets that produce "
                                f"tensor elements but type spec of elements in the input "
                                f"dataset is not a subclass of TensorSpec: `{spec!r}`.")
        if any(s.shape.rank is None for s in specs) and padded_shapes is None:
            raise ValueError("You must provide `padded_shapes` argument because component has "
                             "unknown rank.")
        shapes = [s.shape for s in specs] if padded_shapes is None else [
            TensorShape(p) for p in structure.flatten_up_to(self._element_spec, padded_shapes,
                                                            "padded_shapes")]
        for spec, shape in zip(specs, shapes):
            if not _can_pad(spec.shape, shape):
                raise ValueError(f"The padded shape {shape} is not compatible with the shape "
                                 f"{spec.shape} of the corresponding input component.")
        values = [None] * len(specs) if padding_values is None else \
            structure.flatten_up_to(self._element_spec, padding_values, "padding_values")
        pads = [convert_to_tensor((b"" if s.dtype.is_string else 0) if v is None else v,
                                  dtype=s.dtype) for s, v in zip(specs, values)]
        size = convert_to_tensor(batch_size, dtype_hint=dtypes.int64)
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool_)
        static = _static(size) if _static(drop) else None
        spec = structure.pack(self._element_spec, [
            TensorSpec(TensorShape([static] + shape.as_list()), s.dtype)
            for s, shape in zip(specs, shapes)])
        attrs = {"padded_shapes": tuple(tuple(shape.as_list()) for shape in shapes)}
        return Dataset("PaddedBatchDatasetV2", [self, size, drop] + pads, attrs, spec,
                       "PaddedBatchDataset")

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None) -> "Dataset":
        """``batch`` where elements may differ in shape: a component whose shape has unknown
        dimensions becomes ragged up to its last unknown one (a RaggedTensor of
        ``ragged_rank`` = that axis, carried as one variant), so the batch stacks it as one
        more ragged dimension. Components of known shape batch as ``batch`` does."""
        from runtime.ragged.ragged_tensor import RaggedTensor, RaggedTensorSpec

        def ragged_rank(s):
            if type(s) is not TensorSpec or s.shape.rank is None or \
                    s.shape.is_fully_defined():
                return None
            return max(i for i, d in enumerate(s.shape.as_list()) if d is None)

        specs = structure.flatten(self._element_spec)
        ranks = [ragged_rank(s) for s in specs]
        if any(k is not None for k in ranks):
            out_specs = [s if k is None else
                         RaggedTensorSpec(s.shape, s.dtype, k, row_splits_dtype)
                         for s, k in zip(specs, ranks)]

            def to_ragged(*x):
                leaves = structure.flatten(x[0] if len(x) == 1 else x)
                return [structure.components(t)[0] if k is None else RaggedTensorSpec._to_variant(
                    t if k == 0 else RaggedTensor.from_tensor(
                        t, ragged_rank=k, row_splits_dtype=row_splits_dtype))
                    for t, k in zip(leaves, ranks)]
            source = self._mapped(to_ragged, structure.pack(self._element_spec, out_specs))
        else:
            source = self
        return source.batch(batch_size, drop_remainder)

    def rebatch(self, batch_size, drop_remainder=False, name=None) -> "Dataset":
        """The elements of the batches regrouped in batches of ``batch_size`` (a list: the
        sizes in turn) across input batch boundaries (``runtime/data/grouping.py``)."""
        from runtime.data.grouping import rebatch
        return rebatch(self, batch_size, drop_remainder)

    def sparse_batch(self, batch_size, row_shape, name=None) -> "Dataset":
        """Batches of elements as SparseTensors of dense shape ``[n] + row_shape`` holding
        every entry of each element (which must fit ``row_shape``)."""
        from runtime.sparse.sparse_tensor import SparseTensorSpec
        spec = self._element_spec
        if not isinstance(spec, TensorSpec) or isinstance(spec, DatasetSpec):
            raise TypeError(f"`sparse_batch` needs elements that are one tensor, got {spec!r}")
        row = convert_to_tensor(row_shape, dtype=dtypes.int64)
        static = row.numpy() if isinstance(row, EagerTensor) else getattr(row, "value", None)
        dims = None if static is None else np.asarray(static).reshape(-1).tolist()
        for d in dims or ():
            if d < 0:
                raise ValueError(f"Dimension {d} must be >= 0")
        shape = TensorShape(None) if dims is None else TensorShape([None] + dims)
        return Dataset("DenseToSparseBatchDataset",
                       [self, convert_to_tensor(batch_size, dtype=dtypes.int64), row], {},
                       SparseTensorSpec(shape, spec.dtype), "DenseToSparseBatchDataset")

    def unbatch(self, name=None) -> "Dataset":
        """The rows of each element: every component is split along its first dimension."""
        structure.check_batch(self._element_spec)
        specs = structure.flatten(self._element_spec)
        if any(s.shape.rank == 0 for s in specs):
            raise ValueError("Cannot unbatch an input with scalar components.")
        spec = structure.pack(self._element_spec, [_unbatched(s) for s in specs])
        source = self
        if any(hasattr(s, "_to_variant") for s in specs):
            # a sparse element may be one variant item (made by a map): one item per row
            source = self._mapped(lambda *x: structure.components(
                x[0] if len(x) == 1 else x, rows=True), self._element_spec)
        return Dataset("UnbatchDataset", [source], {}, spec, "UnbatchDataset")

    def apply(self, transformation_func: Callable) -> "Dataset":
        """``transformation_func(self)``, which must return a Dataset."""
        out = transformation_func(self)
        if not isinstance(out, Dataset):
            raise TypeError(f"`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(out)}.")
        return out

    def _trace_dataset_fn(self, map_func: Callable, name: str):
        """Traces ``map_func`` (element -> Dataset) into a function returning its variant."""
        made = []

        def variant_of(*args):
            ds = map_func(*args)
            if not isinstance(ds, Dataset):
                raise TypeError(f"The `map_func` argument must return a `Dataset` object. Got "
                                f"{type(ds)!r}.")
            made.append(ds.element_spec)
            return ds._variant()
        traced = structure.trace(variant_of, self._element_spec, name)
        return traced, made[0]

    def flat_map(self, map_func: Callable, name=None) -> "Dataset":
        """The elements of ``map_func(element)`` (a Dataset) for each element, in order."""
        traced, spec = self._trace_dataset_fn(map_func, "Dataset_flat_map")
        return Dataset("FlatMapDataset", [self] + traced.captured, {"f": traced.graph}, spec,
                       "FlatMapDataset")

    def interleave(self, map_func: Callable, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None) -> "Dataset":
        """``cycle_length`` datasets of ``map_func`` read in turn, ``block_length`` elements
        each (cycle_length defaults to the number of CPU cores, as TensorFlow's AUTOTUNE)."""
        _check_deterministic(deterministic, num_parallel_calls)
        traced, spec = self._trace_dataset_fn(map_func, "Dataset_interleave")
        if cycle_length is None or cycle_length == AUTOTUNE:
            cycle_length = os.cpu_count() or 1
        sizes = [convert_to_tensor(cycle_length, dtype=dtypes.int64),
                 convert_to_tensor(1 if block_length is None else block_length,
                                   dtype=dtypes.int64)]
        return Dataset("InterleaveDataset", [self] + traced.captured + sizes,
                       {"f": traced.graph}, spec, "InterleaveDataset")

    def group_by_window(self, key_func: Callable, reduce_func: Callable, window_size=None,
                        window_size_func: Callable | None = None, name=None) -> "Dataset":
        """Elements grouped by ``key_func`` (an int64 scalar) into windows of ``window_size``
        (or ``window_size_func(key)``), each window turned into a dataset by
        ``reduce_func(key, window)``; partial windows come last, by increasing key."""
        if (window_size is None) == (window_size_func is None):
            raise ValueError("Either the `window_size` argument or the `window_size_func` "
                             "argument must be specified.")
        if window_size_func is None:
            def window_size_func(key):
                return convert_to_tensor(window_size, dtype=dtypes.int64)

        def keyed(*element):
            key = convert_to_tensor(key_func(*element))
            if key.dtype != dtypes.int64 or key.shape.rank != 0:
                raise ValueError(f"`key_func` must return a single tf.int64 scalar tensor. "
                                 f"Got type={key.dtype.name} and shape={key.shape}")
            size = convert_to_tensor(window_size_func(key))
            if size.dtype != dtypes.int64 or size.shape.rank != 0:
                raise ValueError("`window_size_func` must return a single tf.int64 scalar "
                                 "tensor.")
            # the element's own components (a RaggedTensorSpec of ragged_rank 0 reads as a
            # dense tensor but is carried as a variant)
            return [key, size] + structure.components_as(
                self._element_spec, element[0] if len(element) == 1 else element)
        scalar = TensorSpec(TensorShape([]), dtypes.int64)
        keyed_ds = self._mapped(keyed, (scalar, scalar, self._element_spec))
        window_spec = DatasetSpec(self._element_spec)
        made = []

        def variant_of(key, window):
            ds = reduce_func(key, window)
            if not isinstance(ds, Dataset):
                raise TypeError(f"`reduce_func` must return a `Dataset` object. Got "
                                f"{type(ds)!r}.")
            made.append(ds.element_spec)
            return ds._variant()
        traced = structure.trace(variant_of, (TensorSpec(TensorShape([]), dtypes.int64),
                                              window_spec), "Dataset_group_by_window")
        return Dataset("GroupByWindowDataset", [keyed_ds] + traced.captured,
                       {"f": traced.graph}, made[0], "GroupByWindowDataset")

    def bucket_by_sequence_length(self, element_length_func: Callable, bucket_boundaries,
                                  bucket_batch_sizes, padded_shapes=None, padding_values=None,
                                  pad_to_bucket_boundary=False, no_padding=False,
                                  drop_remainder=False, name=None) -> "Dataset":
        """Batches of elements of similar length (``runtime/data/grouping.py``)."""
        from runtime.data.grouping import bucket_by_sequence_length
        return bucket_by_sequence_length(self, element_length_func, bucket_boundaries,
                                         bucket_batch_sizes, padded_shapes, padding_values,
                                         pad_to_bucket_boundary, no_padding, drop_remainder)

    def rejection_resample(self, class_func: Callable, target_dist, initial_dist=None,
                           seed=None, name=None) -> "Dataset":
        """``(class, element)`` pairs resampled to ``target_dist`` (``sampling.py``)."""
        from runtime.data.sampling import rejection_resample
        return rejection_resample(self, class_func, target_dist, initial_dist, seed)

    def window(self, size, shift=None, stride=1, drop_remainder=False,
               name=None) -> "Dataset":
        """Datasets of ``size`` elements ``stride`` apart, a new one every ``shift`` (default
        ``size``) elements; a structured element gives a structure of datasets."""
        sizes = [convert_to_tensor(v, dtype=dtypes.int64)
                 for v in (size, size if shift is None else shift, stride)]
        spec = structure.pack(self._element_spec, [
            DatasetSpec(s) for s in structure.flatten(self._element_spec)])
        return Dataset("WindowDataset", [self] + sizes + [
            convert_to_tensor(drop_remainder, dtype=dtypes.bool_)], {}, spec, "WindowDataset")

    def shard(self, num_shards, index, name=None) -> "Dataset":
        """Every ``num_shards``-th element, starting at element ``index``."""
        return Dataset("ShardDataset", [self, convert_to_tensor(num_shards, dtype=dtypes.int64),
                                        convert_to_tensor(index, dtype=dtypes.int64)], {},
                       self._element_spec, "ShardDataset")

    def cache(self, filename="", name=None) -> "Dataset":
        """The elements kept by the first complete pass (in memory, or in the file
        ``filename.index`` that later passes and other datasets caching to it read)."""
        if isinstance(filename, str) and not filename:
            return Dataset("CacheDataset", [self], {}, self._element_spec, "CacheDataset")
        return Dataset("CacheDatasetV2", [self, convert_to_tensor(filename, dtype=dtypes.string)],
                       {}, self._element_spec, "CacheDataset")

    def scan(self, initial_state, scan_func: Callable, name=None) -> "Dataset":
        """``scan_func(state, element) -> (new_state, output)`` over the elements: a map
        that carries ``state`` (whose structure and dtypes must stay the same)."""
        state = structure.to_tensors(initial_state)
        state_spec = structure.spec_of(state)
        traced = structure.trace(lambda *args: _scan_step(scan_func, state_spec, *args),
                                 self._element_spec, "Dataset_scan", (state_spec,))
        flat_state = structure.components(state)
        out_spec = traced.output_spec[1]
        return Dataset("ScanDataset", [self] + flat_state + traced.captured + [
            convert_to_tensor(len(flat_state), dtype=dtypes.int64)], {"f": traced.graph},
            out_spec, "ScanDataset")

    def get_single_element(self, name=None):
        """The dataset's only element (InvalidArgumentError when it has none or several)."""
        spec = self._element_spec
        out = apply_op("DatasetToSingleElement", [self._variant()],
                       {"output_types": structure.flat_types(spec),
                        "output_shapes": structure.flat_shapes(spec)},
                       name="DatasetToSingleElement")
        return structure.pack(spec, list(out) if isinstance(out, tuple) else [out])

    def take(self, count, name=None) -> "Dataset":
        return self._unary("TakeDataset", count)

    def skip(self, count, name=None) -> "Dataset":
        return self._unary("SkipDataset", count)

    def repeat(self, count=None, name=None) -> "Dataset":
        return self._unary("RepeatDataset", -1 if count is None else count)

    def prefetch(self, buffer_size, name=None) -> "Dataset":
        """Does nothing here (there is no background work to overlap), kept for the API."""
        return self._unary("PrefetchDataset", buffer_size)

    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=None,
                name=None) -> "Dataset":
        """TensorFlow's buffered shuffle, with its seeds (``tf.random.set_seed``'s rules) and
        values: a ``seed`` makes the passes repeat from one program run to the next."""
        seed, seed2 = random_ops.get_seed(seed)
        inputs = [self, convert_to_tensor(buffer_size, dtype_hint=dtypes.int64),
                  convert_to_tensor(seed, dtype=dtypes.int64),
                  convert_to_tensor(seed2, dtype=dtypes.int64)]
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return Dataset("ShuffleDataset", inputs, {"reshuffle_each_iteration": reshuffle},
                       self._element_spec, "ShuffleDataset")

    def unique(self, name=None) -> "Dataset":
        """The elements (scalars of one int32, int64 or string component), each once, in the
        order they first come."""
        flat = structure.flatten(self._element_spec)
        if len(flat) != 1:
            raise InvalidArgumentError(
                message="UniqueDataset only supports inputs with a single component.")
        if flat[0].dtype not in (dtypes.int32, dtypes.int64, dtypes.string):
            raise TypeError(f"`tf.data.Dataset.unique` does not support type <dtype: "
                            f"'{flat[0].dtype.name}'> -- only `tf.int32`, `tf.int64`, and "
                            "`tf.string` are supported.")
        return Dataset("UniqueDataset", [self], {}, self._element_spec, "UniqueDataset")

    def enumerate(self, start=0, name=None) -> "Dataset":
        counter = Dataset("CounterDataset", [convert_to_tensor(start, dtype=dtypes.int64)], {},
                          TensorSpec(TensorShape([]), dtypes.int64), "RangeDataset")
        return Dataset.zip((counter, self))

    def concatenate(self, dataset: "Dataset", name=None) -> "Dataset":
        a, b = self._element_spec, dataset.element_spec
        fa, fb = structure.flatten(a), structure.flatten(b)
        try:
            structure.pack(a, fb)
            same = len(fa) == len(fb) and all(x.dtype == y.dtype for x, y in zip(fa, fb))
        except (StopIteration, TypeError):
            same = False
        if not same:
            raise TypeError(f"Incompatible dataset elements:\n  {a!r} vs.\n  {b!r}")
        spec = structure.pack(a, [TensorSpec(x.shape.most_specific_compatible_shape(y.shape),
                                             x.dtype) for x, y in zip(fa, fb)])
        return Dataset("ConcatenateDataset", [self, dataset], {}, spec, "ConcatenateDataset")

    def with_options(self, options, name=None) -> "Dataset":
        """This dataset carrying ``options`` (merged over the options it has, later wins)."""
        from runtime.data.options import Options
        if not isinstance(options, Options):
            raise TypeError(f"`options` must be a `tf.data.Options`, got {options!r}")
        out = Dataset("OptionsDataset", [self], {}, self._element_spec, "OptionsDataset")
        out._own_options = options
        return out

    def options(self):
        """The ``tf.data.Options`` of this dataset: its inputs' merged with its own."""
        from runtime.data.options import Options
        merged = Options()
        for i in self._inputs:
            if isinstance(i, Dataset):
                merged = merged.merge(i.options())
        own = getattr(self, "_own_options", None)
        return merged if own is None else merged.merge(own)

    def _unary(self, op: str, count) -> "Dataset":
        return Dataset(op, [self, convert_to_tensor(count, dtype_hint=dtypes.int64)], {},
                       self._element_spec, op)


class DatasetSpec(TensorSpec):
    """``tf.data.DatasetSpec``: the type of a dataset-valued element (one ``variant``)."""

    def __init__(self, element_spec, dataset_shape=()):
        super().__init__(TensorShape(dataset_shape), dtypes.variant)
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    def _from_variant(self, variant: Tensor) -> Dataset:
        return Dataset(None, [], {}, self._element_spec, "VariantDataset", variant=variant)

    # -- as the TypeSpec of a Dataset argument: one variant component -------------------
    value_type = Dataset

    def _serialize(self) -> tuple:
        return (self._element_spec, self.shape)

    @property
    def _component_specs(self) -> list:
        return [TensorSpec(self.shape, dtypes.variant)]

    def _from_components(self, tensors) -> Dataset:
        (variant,) = tensors
        return self._from_variant(variant)

    def _to_components(self, value) -> list:
        return [value._variant()]

    def is_subtype_of(self, other) -> bool:
        """Only the same element spec: a trace for one kind of element serves no other."""
        return self == other

    def most_specific_common_supertype(self, others):
        return self if all(o == self for o in others) else None

    def __eq__(self, other) -> bool:
        return isinstance(other, DatasetSpec) and other._element_spec == self._element_spec

    def __hash__(self) -> int:
        return hash(("DatasetSpec", repr(self._element_spec)))

    def __repr__(self) -> str:
        return f"DatasetSpec({self._element_spec!r}, TensorShape({self.shape.as_list()}))"

    __str__ = __repr__


class TextLineDataset(Dataset):
    """``tf.data.TextLineDataset``: the lines of text files (without line endings), file by
    file. Files are read when iterated, by every pass."""

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        if compression_type not in (None, ""):
            raise ValueError(f"TextLineDataset reads uncompressed files only, got "
                             f"compression_type={compression_type!r}")
        names = convert_to_tensor(filenames, dtype=dtypes.string)
        if names.shape.rank not in (None, 0, 1):
            raise TypeError("`filenames` must be a `tf.Tensor` of `tf.string` of rank 0 or 1")
        super().__init__("TextLineDataset", [names], {}, TensorSpec(TensorShape([]),
                                                                     dtypes.string),
                         "TextLineDataset")

    def __repr__(self) -> str:
        return f"<TextLineDatasetV2 element_spec={self.element_spec!r}>"


def assert_cardinality(expected_cardinality):
    """``tf.data.experimental.assert_cardinality``: a transformation whose dataset reports
    ``expected_cardinality`` and fails (FailedPreconditionError) when it has another count."""
    def apply(dataset: Dataset) -> Dataset:
        count = convert_to_tensor(expected_cardinality, dtype=dtypes.int64)
        return Dataset("AssertCardinalityDataset", [dataset, count], {}, dataset.element_spec,
                       "AssertCardinalityDataset")
    return apply


def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """``tf.data.experimental.dense_to_ragged_batch``: ``Dataset.ragged_batch`` for ``apply``."""
    return lambda dataset: dataset.ragged_batch(batch_size, drop_remainder, row_splits_dtype)


def counter(start=0, step=1, dtype=dtypes.int64, name=None) -> Dataset:
    """``tf.data.experimental.Counter``: ``start``, ``start + step``, ... without end."""
    dtype = dtypes.as_dtype(dtype)
    start = convert_to_tensor(start, dtype=dtype)
    step = convert_to_tensor(step, dtype=dtype)
    return Dataset("CounterDataset", [start, step], {}, TensorSpec(TensorShape([]), dtype),
                   "CounterDataset")


def _scan_step(scan_func: Callable, state_spec, state, *element):
    """One scan step, checking that the new state keeps the state's structure and dtypes."""
    result = scan_func(state, *element)
    if not isinstance(result, (tuple, list)) or len(result) != 2:
        raise TypeError(f"The scan function must return a pair (new_state, output), got "
                        f"{result!r}")
    new_state, output = result
    new_spec = structure.spec_of(structure.to_tensors(new_state))
    old, new = structure.flatten(state_spec), structure.flatten(new_spec)
    if len(old) != len(new) or any(a.dtype != b.dtype for a, b in zip(old, new)):
        raise TypeError(f"The element types for the new state must match the initial state. "
                        f"Expected {state_spec!r}; got {new_spec!r}.")
    return new_state, output


def _generated(spec, value):
    """A generator's value for a leaf of its signature: a composite (RaggedTensor,
    SparseTensor) must fit its spec and goes on as its variant item."""
    if not hasattr(spec, "_to_variant"):
        return value
    got = getattr(value, "_type_spec", None)
    if got is None or not spec.is_compatible_with(got):
        if got is None and isinstance(value, Tensor):
            got = TensorSpec(value.shape, value.dtype)
        if got is None:
            raise InvalidArgumentError(
                message=f"TypeError: `generator` yielded an element that did not match the "
                        f"expected structure. The expected structure was {spec!r}, but the "
                        f"yielded element was {value!r}.")
        raise InvalidArgumentError(message=f"TypeError: `generator` yielded an element of "
                                           f"{got!r} where an element of {spec!r} was expected.")
    with context.init_scope():
        item = spec._to_variant(value).numpy()
    return item[()] if isinstance(item, np.ndarray) else item


def _check_deterministic(deterministic, num_parallel_calls) -> None:
    """TensorFlow's warning: ``deterministic`` only orders parallel calls."""
    if deterministic is not None and num_parallel_calls is None:
        warnings.warn("The `deterministic` argument has no effect unless the "
                      "`num_parallel_calls` argument is specified.")


def _batched(spec, batch_size):
    """The spec of a batch of ``batch_size`` (None: unknown) elements of ``spec``: a
    composite's spec says (``_batch``: a RaggedTensorSpec gains a ragged dimension), else the
    shape gains a dimension."""
    if hasattr(spec, "_batch"):
        return spec._batch(batch_size)
    shape = TensorShape(None) if spec.shape.rank is None else \
        TensorShape([batch_size] + spec.shape.as_list())
    return spec._with_shape(shape) if hasattr(spec, "_to_variant") else \
        TensorSpec(shape, spec.dtype)


def _unbatched(spec):
    """The spec of the rows of elements of ``spec`` (``_unbatch`` for composites that have it)."""
    if hasattr(spec, "_unbatch"):
        return spec._unbatch()
    shape = TensorShape(None) if spec.shape.rank is None else \
        TensorShape(spec.shape.as_list()[1:])
    return spec._with_shape(shape) if hasattr(spec, "_to_variant") else \
        TensorSpec(shape, spec.dtype)


def _can_pad(shape: TensorShape, padded: TensorShape) -> bool:
    """Whether elements of ``shape`` fit in ``padded`` (same rank, no known dim larger)."""
    if shape.rank is None or padded.rank is None:
        return True
    return shape.rank == padded.rank and all(
        d is None or p is None or d <= p for d, p in zip(shape.as_list(), padded.as_list()))


def _function_attrs(attrs: dict) -> list:
    from graph.ir import Graph
    return [v for v in attrs.values() if isinstance(v, Graph)]


def _static(t):
    if isinstance(t, EagerTensor):
        return t.numpy().item()
    if isinstance(t, SymbolicTensor) and t.value is not None:
        return np.asarray(t.value).item()
    return None


def _python_arg(a):
    if isinstance(a, SymbolicTensor):
        raise TypeError("from_generator(args=...) needs values known when the dataset is "
                        "created; it got a symbolic tensor. Create the dataset outside the "
                        "function, or pass Python values.")
    if isinstance(a, EagerTensor):
        return a.numpy()
    return a
