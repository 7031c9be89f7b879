"""Element structures of datasets, and tracing of the functions datasets apply.

tf.data nests elements in tuples, dicts and namedtuples; a Python *list* is
not a structure but data (``from_tensor_slices([1, 2, 3])`` slices one
tensor), exactly as in TensorFlow. Flat component order is the order of
``runtime.nest`` (dict keys sorted). An ExtensionType value (or its Spec) is
a structure too, of its tensor-carrying fields (``field_parts``), so a dataset
batches it field by field (a ``BatchableExtensionType``) with no code of its own.

Functions given to ``map``/``filter`` are traced once into a graph (so a
Python ``print`` in them runs once, as in TensorFlow), and that graph runs
for every element, eagerly or inside a staged loop. ``set_function_converter``
lets the autograph layer convert them first (``if``/``for`` on tensors).
"""
from __future__ import annotations

from typing import Callable

import numpy as np

from graph.dtypes import DType, as_dtype
from graph.ir import Graph
from graph.shapes import TensorShape, as_shape
from runtime import context
from runtime.extension_type import (ExtensionType, ExtensionTypeSpec, check_batchable,
                                    field_parts, from_field_parts)
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.tensor_spec import TensorSpec

_converter: Callable | None = None


def set_function_converter(convert: Callable | None) -> None:
    """Installs ``convert(fn) -> fn`` applied to map/filter/reduce functions before tracing."""
    global _converter
    _converter = convert


def is_structure(value) -> bool:
    return isinstance(value, (tuple, dict))


def flatten(value) -> list:
    """Leaves of a dataset structure (lists are leaves)."""
    if isinstance(value, dict):
        return [leaf for k in _keys(value) for leaf in flatten(value[k])]
    if isinstance(value, tuple):
        return [leaf for v in value for leaf in flatten(v)]
    if isinstance(value, (ExtensionType, ExtensionTypeSpec)):
        return [leaf for v in field_parts(value) for leaf in flatten(v)]
    return [value]


def check_batch(spec) -> None:
    """Raises (as TensorFlow) when ``spec`` holds an ExtensionType that is not batchable."""
    if isinstance(spec, dict):
        for v in spec.values():
            check_batch(v)
    elif isinstance(spec, tuple):
        for v in spec:
            check_batch(v)
    elif isinstance(spec, ExtensionTypeSpec):
        check_batchable(spec)
        for v in field_parts(spec):
            check_batch(v)


def pack(structure, flat: list):
    """Rebuilds ``structure`` (specs or values) with the leaves ``flat``."""
    it = iter(flat)

    def build(s):
        if isinstance(s, dict):
            built = {k: build(s[k]) for k in _keys(s)}
            return type(s)((k, built[k]) for k in s)
        if isinstance(s, tuple):
            values = [build(v) for v in s]
            return type(s)(*values) if hasattr(s, "_fields") else tuple(values)
        if isinstance(s, (ExtensionType, ExtensionTypeSpec)):
            return from_field_parts(s, [build(p) for p in field_parts(s)])
        leaf = next(it)
        if isinstance(leaf, Tensor) and hasattr(s, "_from_variant"):
            return s._from_variant(leaf)  # a DatasetSpec leaf: the element is a dataset
        return leaf
    return build(structure)


def flatten_up_to(structure, value, what: str) -> list:
    """Leaves of ``value`` following ``structure``; a list may stand for a tuple."""
    if isinstance(structure, dict):
        if not isinstance(value, dict) or set(value) != set(structure):
            raise TypeError(f"{what} did not match the expected structure {structure!r}: "
                            f"got {value!r}")
        return [leaf for k in _keys(structure) for leaf in flatten_up_to(structure[k], value[k],
                                                                          what)]
    if isinstance(structure, tuple):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            raise TypeError(f"{what} did not match the expected structure. The expected "
                            f"structure was {_describe(structure)}, but the yielded element "
                            f"was {value!r}.")
        return [leaf for s, v in zip(structure, value) for leaf in flatten_up_to(s, v, what)]
    return [value]


def _describe(structure) -> str:
    if isinstance(structure, TensorSpec):
        return repr(structure.dtype)
    if isinstance(structure, tuple):
        return "(" + ", ".join(_describe(s) for s in structure) + ")"
    return repr(structure)


def _keys(d: dict):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def _as_variant(leaf) -> bool:
    """Whether a dataset carries ``leaf`` as one variant: a composite tensor whose spec says
    how (``_to_variant``, ``_from_variant``, ``_dataset_component``; SparseTensorSpec)."""
    return hasattr(getattr(leaf, "_type_spec", None), "_to_variant")


def to_tensors(value):
    """The structure with every leaf converted to a tensor (lists become tensors); a
    composite such as a SparseTensor stays itself (``components`` gives what is carried)."""
    leaves = flatten(value)
    for leaf in leaves:
        if leaf is None:
            raise TypeError(f"A dataset element cannot contain None: {value!r}")
    return pack(value, [leaf if _as_variant(leaf) else convert_to_tensor(leaf)
                        for leaf in leaves])


def components(value, rows: bool = False) -> list:
    """The flat tensors a dataset carries for an element: a composite is one variant
    (``rows``: one item per row, as ``from_tensor_slices`` and ``unbatch`` need)."""
    return [t._type_spec._to_variant(t, rows) if _as_variant(t) else t for t in flatten(value)]


def components_as(spec, value) -> list:
    """``components`` of ``value`` read as ``spec``: a leaf whose spec is carried as a variant
    is encoded even when it reads as a plain tensor (a ragged_rank 0 RaggedTensorSpec)."""
    return [s._to_variant(v) if hasattr(s, "_to_variant") else v
            for s, v in zip(flatten(spec), flatten(value))]


def spec_of(value):
    """The element spec of a structure of tensors (and composites)."""
    return pack(value, [t._type_spec if _as_variant(t) else TensorSpec(t.shape, t.dtype)
                        for t in flatten(value)])


def component_specs(spec) -> list[TensorSpec]:
    """The specs of the flat tensors a dataset carries (a sparse leaf: one variant)."""
    return [getattr(s, "_dataset_component", s) for s in flatten(spec)]


def flat_types(spec) -> list[DType]:
    return [s.dtype for s in component_specs(spec)]


def flat_shapes(spec) -> list[TensorShape]:
    return [s.shape for s in component_specs(spec)]


def eager_value(value, dtype: DType) -> EagerTensor:
    """An eager tensor on a kernel's value, with the value conventions of ``constant``."""
    if dtype.is_string and not isinstance(value, np.ndarray):
        arr = np.empty((), dtype=object)
        arr[()] = value
        value = arr
    return EagerTensor(value, dtype)


def normalize_spec(structure) -> object:
    """Specs given as dtypes (``output_types``), TensorSpecs or composite specs
    (RaggedTensorSpec, SparseTensorSpec), as a structure of specs."""
    return pack(structure, [s if isinstance(s, TensorSpec) or hasattr(s, "_to_variant")
                            else TensorSpec(None, as_dtype(s)) for s in flatten(structure)])


def with_shapes(types, shapes):
    """Combines ``output_types`` and ``output_shapes`` structures into TensorSpecs."""
    flat_t = flatten(types)
    flat_s = [None] * len(flat_t) if shapes is None else _flatten_shapes(shapes, types)
    if len(flat_s) != len(flat_t):
        raise ValueError(f"output_shapes {shapes!r} does not match output_types {types!r}")
    return pack(types, [TensorSpec(as_shape(s), as_dtype(t)) for t, s in zip(flat_t, flat_s)])


def _flatten_shapes(shapes, types) -> list:
    if isinstance(types, dict):
        return [s for k in _keys(types) for s in _flatten_shapes(shapes[k], types[k])]
    if isinstance(types, tuple):
        return [s for t, sh in zip(types, shapes) for s in _flatten_shapes(sh, t)]
    return [shapes]


class TracedFunction:
    """A user function traced for a dataset: graph, output spec, captured outer tensors."""

    def __init__(self, graph: Graph, output_spec, captured: list):
        self.graph = graph
        self.output_spec = output_spec
        self.captured = captured


def trace(fn: Callable, element_spec, name: str, extra_specs=()) -> TracedFunction:
    """Traces ``fn(element)`` (a tuple element is unpacked into arguments, as tf.data does).

    ``extra_specs`` are leading arguments before the element (reduce's state).
    """
    if _converter is not None:
        fn = _converter(fn)
    outer = context.current_graph()
    graph = Graph(name, outer=outer)
    graph.name = graph.new_function_name(name)
    specs = list(extra_specs) + [element_spec]
    with context.building(graph):
        args = []
        for spec in specs:
            flat = [SymbolicTensor(graph.add_node(
                        "Placeholder", attrs={"dtype": s.dtype, "shape": s.shape},
                        name="args").output(0)) for s in component_specs(spec)]
            graph.inputs.extend(t._output for t in flat)
            args.append(pack(spec, flat))
        element = args[-1]
        call_args = args[:-1] + (list(element) if type(element) is tuple else [element])
        result = fn(*call_args)
        if isinstance(result, list):  # a list return is a tuple structure in tf.data
            result = tuple(result)
        result = to_tensors(result)
        outputs = [apply_op("Identity", [t]) for t in components(result)]
    graph.outputs = [t._output for t in outputs]
    captured_outer = list(graph.captures)
    graph.inputs = graph.inputs + [graph.captures[o] for o in captured_outer]
    captured = [SymbolicTensor(o) for o in captured_outer]
    return TracedFunction(graph, spec_of(result), captured)


def is_tensor(value) -> bool:
    return isinstance(value, Tensor)
