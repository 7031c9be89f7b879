"""Functions rebuilt from saved graphs: tf.functions whose body replays a loaded graph.

A restored function is a real ``Function`` (so it traces, caches, inlines
into other functions and records under a GradientTape like any other) whose
Python body is not user code: it picks the saved trace matching its
arguments and copies that trace's graph into the graph being built
(``call_graph``). Arguments that match no saved trace are a ValueError
listing the saved options, as TensorFlow reports them.
"""
from __future__ import annotations

import inspect
import keyword

import numpy as np

from graph.errors import InvalidArgumentError
from graph.executor import compile_graph
from graph.ir import Graph
from runtime import context
from runtime.composite import type_spec_of
from runtime.function import Function
from runtime.graph_call import call_graph
from runtime.ops.core import convert_to_tensor
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.saved_model.format import UnknownTypeSpec, leaves
from runtime.tensor_spec import TensorSpec, TypeSpec


class Output:
    """Stands for the k-th output of a saved graph in a saved result structure."""

    __slots__ = ("index",)

    def __init__(self, index: int):
        self.index = index


class CompositeOutput:
    """A composite result of a saved graph: its type and the outputs of its components."""

    __slots__ = ("spec", "outputs")

    def __init__(self, spec, outputs: list):
        self.spec = spec
        self.outputs = outputs


class SavedTrace:
    """One saved trace: its graph, argument structure (TensorSpec leaves) and results."""

    def __init__(self, graph: Graph, arg_names: list, args: list, kwargs: list, outputs):
        self.graph = graph
        self.arg_names = arg_names
        self.args = args          # one structure per positional argument
        self.kwargs = kwargs      # [(name, structure)]
        self.outputs = outputs    # structure with Output / CompositeOutput leaves
        self._plan = None
        # ExtensionTypes the loading program does not define: this trace cannot be called
        self.unknown = [s for s in leaves([args, [s for _, s in kwargs], outputs])
                        if isinstance(s, UnknownTypeSpec) or (
                            isinstance(s, CompositeOutput) and isinstance(s.spec,
                                                                          UnknownTypeSpec))]

    def match(self, values: dict) -> list | None:
        """The flat tensors for ``values`` (argument name -> value), or None if they do not fit."""
        flat: list = []
        pairs = list(zip(self.arg_names, self.args)) + list(self.kwargs)
        for name, structure in pairs:
            if name not in values or not _fits(structure, values[name], flat):
                return None
        return flat if len(values) == len(pairs) else None

    def run(self, flat: list):
        """Copies the graph into the graph being built (or runs it eagerly); packs the results."""
        if context.current_graph() is None:
            if self._plan is None:
                self._plan = compile_graph(self.graph)
            values = self._plan(*[np.asarray(t._value) for t in flat])
            outputs = [EagerTensor(v, o.dtype) for v, o in zip(values, self.graph.outputs)]
        else:
            outputs = call_graph(self.graph, flat)
        return _pack(self.outputs, outputs)

    def describe(self) -> str:
        args = "".join(f"\n    * {s!r}" for s in self.args)
        kwargs = {k: s for k, s in self.kwargs}
        return f"  Positional arguments ({len(self.args)} total):{args}\n  Keyword arguments: " \
               f"{kwargs}"


def _fits(structure, value, flat: list) -> bool:
    if isinstance(structure, TypeSpec) and not isinstance(structure, TensorSpec):
        spec = type_spec_of(value)
        if spec is None or not spec.is_subtype_of(structure):
            return False
        flat.extend(value._components())
        return True
    if isinstance(structure, TensorSpec):
        if not isinstance(value, Tensor):
            if isinstance(value, (str, bytes)) and not structure.dtype.name == "string":
                return False
            try:
                value = convert_to_tensor(value, dtype=structure.dtype)
            except (TypeError, ValueError):
                return False
        if value.dtype != structure.dtype or not structure.shape.is_compatible_with(value.shape):
            return False
        flat.append(value)
        return True
    if isinstance(structure, (list, tuple)):
        return (isinstance(value, (list, tuple)) and len(value) == len(structure)
                and all(_fits(s, v, flat) for s, v in zip(structure, value)))
    if isinstance(structure, dict):
        return (isinstance(value, dict) and set(value) == set(structure)
                and all(_fits(structure[k], value[k], flat) for k in structure))
    return type(value) is type(structure) and value == structure


def _pack(structure, outputs: list):
    if isinstance(structure, Output):
        return outputs[structure.index]
    if isinstance(structure, CompositeOutput):
        return structure.spec._from_components([outputs[o.index] for o in structure.outputs])
    if isinstance(structure, (list, tuple)):
        return type(structure)(_pack(s, outputs) for s in structure)
    if isinstance(structure, dict):
        return {k: _pack(v, outputs) for k, v in structure.items()}
    return structure


# -- restored functions ------------------------------------------------------------------------

class RestoredFunction(Function):
    """A loaded ``tf.function``: callable with the argument types it was saved with."""

    def __init__(self, name: str, signature: inspect.Signature, traces: list[SavedTrace],
                 input_signature=None):
        self._saved_traces = traces
        self._saved_signature = signature

        def restored_function_body(*args, **kwargs):
            return self._call_saved(args, kwargs)

        restored_function_body.__signature__ = signature
        restored_function_body.__name__ = name
        super().__init__(restored_function_body, name=name, input_signature=input_signature)

    def _call_saved(self, args, kwargs):
        names = list(self._saved_signature.parameters)
        positional = [n for n, p in self._saved_signature.parameters.items()
                      if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
        values = dict(zip(positional, args))
        varargs = next((n for n, p in self._saved_signature.parameters.items()
                        if p.kind == p.VAR_POSITIONAL), None)
        for i, extra in enumerate(args[len(positional):]):
            values[f"{varargs or 'args'}_{i}"] = extra
        values.update(kwargs)
        for trace in self._saved_traces:
            flat = None if trace.unknown else trace.match(values)
            if flat is not None:
                return trace.run(flat)
        unknown = [t.unknown[0] for t in self._saved_traces if t.unknown]
        if unknown:
            spec = unknown[0].spec if isinstance(unknown[0], CompositeOutput) else unknown[0]
            raise spec.error(self.__name__)
        got_args = "".join(f"\n    * {_describe(a)}" for a in args)
        options = "\n\n".join(f"Option {i + 1}:\n{t.describe()}"
                              for i, t in enumerate(self._saved_traces))
        raise ValueError(
            "Could not find matching concrete function to call loaded from the SavedModel. "
            f"Got:\n  Positional arguments ({len(args)} total):{got_args}\n  Keyword arguments: "
            f"{ {k: _describe(v) for k, v in kwargs.items()} }\n\n Expected these arguments to "
            f"match one of the following {len(self._saved_traces)} option(s):\n\n{options}"
            f"\n(function {self.__name__!r}, parameters {names})")

    def _list_all_concrete_functions(self) -> list:
        """Every saved trace, traced again (what saving this function again writes)."""
        if self.input_signature is not None:
            self.get_concrete_function()
        else:
            for trace in self._saved_traces:
                if not trace.unknown:  # a type this program lacks cannot be traced again
                    self.get_concrete_function(*trace.args, **dict(trace.kwargs))
        return super()._list_all_concrete_functions()


def _describe(value) -> str:
    if isinstance(value, SymbolicTensor):
        return f"TensorSpec(shape={value.shape}, dtype=tf.{value.dtype.name}, name=None)"
    return repr(value)


def python_signature(params: dict) -> inspect.Signature:
    """The Python signature of a saved function, from its saved parameter description."""
    P = inspect.Parameter
    defaults = params["defaults"]
    out = [P(n, P.POSITIONAL_OR_KEYWORD, **({"default": defaults[n]} if n in defaults else {}))
           for n in params["positional"]]
    if params["varargs"]:
        out.append(P(params["varargs"], P.VAR_POSITIONAL))
    out += [P(n, P.KEYWORD_ONLY, **({"default": defaults[n]} if n in defaults else {}))
            for n in params["kwonly"]]
    if params["varkw"]:
        out.append(P(params["varkw"], P.VAR_KEYWORD))
    return inspect.Signature(out)


# -- signatures ---------------------------------------------------------------------------------

class SignatureFunction:
    """``loaded.signatures[name]``: takes the named tensor inputs, returns a dict of outputs."""

    def __init__(self, name: str, graph: Graph, inputs: list[str], outputs: list):
        """``outputs``: ``(name, Output | CompositeOutput)`` pairs; composites come back whole,
        as TensorFlow returns them, while composite inputs are fed as their components."""
        self._name = name
        self._inputs = inputs
        specs = [TensorSpec(i.shape, i.dtype, n) for i, n in zip(graph.inputs, inputs)]
        params = [_identifier(n, i) for i, n in enumerate(inputs)]
        P = inspect.Parameter
        signature = inspect.Signature([P(p, P.POSITIONAL_OR_KEYWORD) for p in params])
        graph_trace = SavedTrace(graph, params, specs, [], dict(outputs))
        self._output_specs = {n: r.spec if isinstance(r, CompositeOutput) else TensorSpec(
            graph.outputs[r.index].shape, graph.outputs[r.index].dtype, n) for n, r in outputs}
        self._input_specs = specs
        self._function = RestoredFunction(name, signature, [graph_trace], input_signature=specs)

    @property
    def structured_input_signature(self):
        return (), {s.name: s for s in self._input_specs}

    @property
    def structured_outputs(self) -> dict:
        return dict(self._output_specs)

    @property
    def inputs(self) -> list:
        return list(self._input_specs)

    def get_concrete_function(self):
        return self._function.get_concrete_function()

    def __call__(self, *args, **kwargs):
        if len(args) > len(self._inputs):
            raise TypeError(f"Signature {self._name!r} takes {len(self._inputs)} inputs "
                            f"({', '.join(self._inputs)}), got {len(args)} positional arguments")
        values = dict(zip(self._inputs, args))
        for k, v in kwargs.items():
            if k not in self._inputs:
                raise TypeError(f"Signature {self._name!r} got an unexpected keyword argument "
                                f"{k!r}; its inputs are {self._inputs}")
            if k in values:
                raise TypeError(f"Signature {self._name!r} got multiple values for {k!r}")
            values[k] = v
        missing = [n for n in self._inputs if n not in values]
        if missing:
            raise TypeError(f"Signature {self._name!r} is missing the inputs {missing}; its "
                            f"inputs are {self._inputs}")
        for i, (n, spec) in enumerate(zip(self._inputs, self._input_specs)):
            if isinstance(values[n], Tensor) and values[n].dtype != spec.dtype:
                # TensorFlow feeds tensors to the signature's graph as they are: the call fails
                raise InvalidArgumentError(message=(
                    f"cannot compute {self._name} as input #{i}(zero-based) was expected to "
                    f"be a {spec.dtype.name} tensor but is a {values[n].dtype.name} tensor"))
        return self._function(*[values[n] for n in self._inputs])

    def __repr__(self) -> str:
        return f"<signature {self._name!r}: inputs {self._inputs}, outputs " \
               f"{list(self._output_specs)}>"


def _identifier(name: str, i: int) -> str:
    return name if name.isidentifier() and not keyword.iskeyword(name) else f"input_{i}"
