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

import weakref
from typing import Callable

import numpy as np

from graph import dtypes
from graph.ops.data import register_generator
from graph.shapes import TensorShape
from runtime import context
from runtime.data import structure
from runtime.data.iterator import OwnedIterator, staged_for
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
        return f"<{self._kind} element_spec={self._element_spec!r}>"

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
        """Number of elements (INFINITE = -1, UNKNOWN = -2); known only eagerly."""
        if not context.executing_eagerly():
            return convert_to_tensor(np.int64(UNKNOWN))
        value = self._variant().value
        return convert_to_tensor(np.int64(value.cardinality()))

    # -- iteration --------------------------------------------------------------------------
    def __iter__(self) -> OwnedIterator:
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        if not context.executing_eagerly():
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in "
                               "eager mode; inside a function, loop over the dataset itself.")
        for element in self:
            yield structure.pack(element, [t.numpy() for t in structure.flatten(element)])

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
        flat = structure.flatten(values)
        for t in flat:
            if t.shape.rank == 0:
                raise ValueError(f"Unbatching a tensor is only supported for rank >= 1, got "
                                 f"{t!r} (from_tensor_slices slices along the first dimension; "
                                 "use from_tensors for a single element)")
        spec = structure.pack(values, [TensorSpec(t.shape[1:], t.dtype) for t in flat])
        return Dataset("TensorSliceDataset", flat, {}, spec, "TensorSliceDataset")

    @staticmethod
    def from_tensors(tensors, name=None) -> "Dataset":
        values = structure.to_tensors(tensors)
        return Dataset("TensorDataset", structure.flatten(values), {}, structure.spec_of(values),
                       "TensorDataset")

    @staticmethod
    def range(*args, output_type=dtypes.int64, name=None) -> "Dataset":
        """Like Python's ``range``; elements are int64 unless ``output_type`` says otherwise."""
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

        def flat_elements():
            for element in generator(*call_args):
                yield structure.flatten_up_to(spec, element, "`generator` yielded an element "
                                                             "that")
        token = register_generator(flat_elements)
        return Dataset("GeneratorDataset", [],
                       {"token": token, "output_types": structure.flat_types(spec),
                        "output_shapes": structure.flat_shapes(spec)}, spec, "FlatMapDataset")

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
        traced = structure.trace(map_func, self._element_spec, "Dataset_map")
        return Dataset("MapDataset", [self] + traced.captured, {"f": traced.graph},
                       traced.output_spec, "MapDataset")

    def filter(self, predicate: Callable, name=None) -> "Dataset":
        traced = structure.trace(predicate, self._element_spec, "Dataset_filter")
        out = traced.output_spec
        if not isinstance(out, TensorSpec) or not out.dtype.is_bool or out.shape.rank not in (0,
                                                                                              None):
            raise ValueError(f"Invalid `predicate`. `predicate` must return a `tf.bool` scalar "
                             f"tensor, but its return type was {out!r}.")
        return Dataset("FilterDataset", [self] + traced.captured, {"f": traced.graph},
                       self._element_spec, "FilterDataset")

    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None) -> "Dataset":
        size = convert_to_tensor(batch_size, dtype_hint=dtypes.int64)
        drop = convert_to_tensor(drop_remainder, dtype=dtypes.bool_)
        static = _static(size) if _static(drop) else None
        spec = structure.pack(self._element_spec, [
            TensorSpec(TensorShape([static] + (s.shape.as_list() if s.shape.rank is not None
                                               else [])) if s.shape.rank is not None
                       else TensorShape(None), s.dtype)
            for s in structure.flatten(self._element_spec)])
        return Dataset("BatchDatasetV2", [self, size, drop], {}, spec, "BatchDataset")

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
        """TensorFlow's buffered shuffle; a ``seed`` makes the first pass reproducible."""
        inputs = [self, convert_to_tensor(buffer_size, dtype_hint=dtypes.int64),
                  convert_to_tensor(-1 if seed is None else seed, dtype_hint=dtypes.int64)]
        reshuffle = True if reshuffle_each_iteration is None else bool(reshuffle_each_iteration)
        return Dataset("ShuffleDataset", inputs, {"reshuffle_each_iteration": reshuffle},
                       self._element_spec, "ShuffleDataset")

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

    def _unary(self, op: str, count) -> "Dataset":
        return Dataset(op, [self, convert_to_tensor(count, dtype_hint=dtypes.int64)], {},
                       self._element_spec, op)


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
