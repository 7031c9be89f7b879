"""``ConcreteFunction``: one trace of a Function — a Graph, its compiled plan, its signature.

Calling it runs the plan. Arguments are matched first against the flat
signature (the tensor inputs, by position or name) and then against the
structured one (the Python function's parameters, where Python values must
equal the traced ones), as TensorFlow does, with TensorFlow's messages.
Other Variables of the traced types may be passed: the trace's graph is
compiled again naming their resources (``_renamed``), never traced again.
"""
from __future__ import annotations

import itertools
import weakref

from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.executor import compile_graph
from graph.ir import Graph
from graph.passes import copy_graph
from graph.shapes import TensorShape
from runtime import context, nest
from runtime import trace_type as tt
from runtime.ops.core import convert_to_tensor
from runtime.signature import (FunctionSpec, dtype_mismatch, pretty_signature,
                               signature_summary, variable_dtype_mismatch)
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor

_inference_ids = itertools.count(1)

# ``(concrete_function, feeds, run) -> result`` while a GradientTape records: it runs the
# call and records it as one op (runtime.gradients.function_grads). Empty otherwise.
CALL_RECORDERS: list = []


def feed_value(t):
    if isinstance(t, EagerTensor):
        return t._value
    if isinstance(t, SymbolicTensor):
        from runtime.ops.core import leaked
        raise leaked(t)
    return t


# -- ConcreteFunction ----------------------------------------------------------------------------

class ConcreteFunction:
    """One trace: a Graph with a fixed input signature, and its compiled plan.

    ``graph`` is the graph as traced (TensorFlow's ``concrete.graph``: what the
    guides print and what gradients replay); ``optimized_graph`` is what the
    plan runs — an optimized copy (``graph.passes.optimize``) unless the
    Function was made with ``optimize=False``, in which case it is ``graph``.
    """

    def __init__(self, graph: Graph, plan, name: str, spec: FunctionSpec, key, arg_names,
                 arg_specs, kwarg_specs, structured_outputs, flat_inputs, variables_created=0,
                 function=None, optimized_graph: Graph | None = None,
                 initializes_variables: bool = False):
        self.graph = graph
        self.optimized_graph = graph if optimized_graph is None else optimized_graph
        self._plan = plan
        self._name = name
        self._inference_name = f"__inference_{name}_{next(_inference_ids)}"
        self._spec = spec
        self._key = key
        self._arg_names = list(arg_names)
        self._arg_specs = arg_specs
        self._kwarg_specs = kwarg_specs
        self.structured_outputs = structured_outputs
        self._flat_inputs = flat_inputs
        self._variables_created = variables_created
        # A first trace that assigns variables their initial values from its inputs (when they
        # hold none yet) and, on the trace after it, that first trace until it has run once.
        self._initializes_variables = initializes_variables
        self._initializer: ConcreteFunction | None = None
        self._function = function
        self._renamings: dict = {}  # resource ids passed instead -> ConcreteFunction
        self._run = self._make_runner()

    # -- the same trace for other Variables -------------------------------------------------
    def _renamed(self, mapping: dict) -> "ConcreteFunction":
        """This trace for other Variables of the same types (``mapping``: traced resource id ->
        Variable; see ``trace_type.variable_renaming``): the graph with their resources in
        place, compiled; nothing is traced again, as in TensorFlow, where a Variable argument
        is a resource input."""
        ident = tuple(sorted((r, v._resource) for r, v in mapping.items()))
        found = self._renamings.get(ident)
        if found is not None:
            return found
        resources = {r: v._resource for r, v in mapping.items()}
        graph = _renamed_graph(self.graph, resources)
        run_graph = graph if self.optimized_graph is self.graph else \
            _renamed_graph(self.optimized_graph, resources)
        jit = self._function is not None and self._function._jit_compile
        flat_inputs = [
            ("variable", p[1], weakref.ref(mapping[_resource(p)]),
             tt.make_key(mapping[_resource(p)], []))
            if p[0] == "variable" and _resource(p) in mapping else p for p in self._flat_inputs]
        renamed = ConcreteFunction(
            graph=graph, plan=compile_graph(run_graph, backend="xla" if jit else "codegen"),
            name=self._name, spec=self._spec, key=tt.renamed_key(self._key, mapping),
            arg_names=self._arg_names, arg_specs=self._arg_specs, kwarg_specs=self._kwarg_specs,
            structured_outputs=self.structured_outputs, flat_inputs=flat_inputs,
            function=self._function, optimized_graph=run_graph)
        if len(self._renamings) >= 64:  # (Variables come and go: keep the table small)
            self._renamings.clear()
        self._renamings[ident] = renamed
        return renamed

    # -- running ------------------------------------------------------------------------------
    def _recordable(self, run):
        def run_or_record(feeds):
            if CALL_RECORDERS:  # a GradientTape records this call as one op
                return CALL_RECORDERS[-1](self, feeds, run)
            return run(feeds)
        return run_or_record

    def _make_runner(self):
        """The cache-hit path: run the plan and wrap its values, nothing else."""
        plan = getattr(self._plan, "run", self._plan)  # (an XlaPlan's call, no method between)
        structure = self.structured_outputs
        dtypes = [o.dtype for o in self.graph.outputs]
        if isinstance(structure, SymbolicTensor):  # the common case in one frame
            dtype = dtypes[0]

            new = object.__new__

            def run_one(feeds):
                if CALL_RECORDERS:
                    return CALL_RECORDERS[-1](self, feeds, run_plain)
                result = new(EagerTensor)  # (EagerTensor(value, dtype) without its __init__ frame)
                result._value, result._dtype, result._spec = plan(*feeds)[0], dtype, None
                return result
            run_plain = lambda feeds: EagerTensor(plan(*feeds)[0], dtype)  # noqa: E731
            return run_one
        return self._recordable(self._make_structured_runner(plan, structure, dtypes))

    @staticmethod
    def _make_structured_runner(plan, structure, dtypes):
        if structure is None:
            def run_none(feeds):
                plan(*feeds)
                return None
            return run_none
        kind = type(structure)
        if kind in (tuple, list) and all(type(leaf) is SymbolicTensor for leaf in structure):
            def run_flat(feeds):  # `return a, b`: no packing walk (~2 us for three values)
                return kind(map(EagerTensor, plan(*feeds), dtypes))
            return run_flat
        template = nest.flatten(structure, expand_composites=True)
        pack = nest.pack_sequence_as

        def run(feeds):
            values = iter(plan(*feeds))
            it = iter(dtypes)
            flat = [None if leaf is None else EagerTensor(next(values), next(it))
                    for leaf in template]
            return pack(structure, flat, expand_composites=True)
        return run

    def _initialize(self, feeds):
        """Runs the first trace instead, once: it gives the variables made there the initial
        values computed from these inputs (TensorFlow: ``cond`` of their being initialized,
        choosing the first trace or this one)."""
        initializer, self._initializer = self._initializer, None
        try:
            return initializer._run(feeds)
        except BaseException:
            self._initializer = initializer
            raise

    def __call__(self, *args, **kwargs):
        if context.current_graph() is not None:
            return self._call_in_graph(args, kwargs)
        try:
            feeds = self._flat_feeds_for(args, kwargs)
        except _OtherVariables as other:
            return self._renamed(other.renaming)(*args, **kwargs)
        if self._initializer is not None:
            return self._initialize(feeds)
        return self._run(feeds)

    def _call_in_graph(self, args, kwargs):
        """Called while another function is traced: this trace's graph is copied into that
        one, fed by the caller's tensors (TensorFlow records it as a call)."""
        from runtime.graph_call import call_graph
        try:
            feeds = self._flat_feeds_for(args, kwargs, keep=True)
        except _OtherVariables as other:
            return self._renamed(other.renaming)._call_in_graph(args, kwargs)
        traced = self if self._initializer is None else self._initializer  # (assigns if empty)
        outputs = iter(call_graph(traced.graph, feeds))
        flat = [None if leaf is None else next(outputs) for leaf in
                nest.flatten(self.structured_outputs, expand_composites=True)]
        return nest.pack_sequence_as(self.structured_outputs, flat, expand_composites=True)

    def _flat_feeds_for(self, args, kwargs, keep: bool = False) -> list:
        """The plan's feeds for a call with these arguments (what ``__call__`` runs with); the
        tensors themselves with ``keep``."""
        try:
            return self._flat_feeds(args, kwargs, keep)
        except TypeError:
            return self._structured_feeds(args, kwargs, keep)

    def _flat_feeds(self, args, kwargs, keep: bool = False) -> list:
        params = self._flat_inputs
        names = [p[1] for p in params]
        if len(args) > len(params):
            raise TypeError(f"{self._flat_summary()} takes {len(params)} positional arguments, "
                            f"got {len(args)}.")
        unexpected = sorted(k for k in kwargs if k not in names[len(args):])
        if unexpected:
            raise TypeError(f"{self._flat_summary()} got unexpected keyword arguments: "
                            f"{', '.join(unexpected)}.")
        values = list(args) + [kwargs[n] for n in names[len(args):] if n in kwargs]
        if len(values) != len(params):
            missing = [n for n in names[len(values):]]
            raise TypeError(f"{self._flat_summary()} missing required arguments: "
                            f"{', '.join(missing)}.")
        feeds = []
        index = 0
        passed, traced = [], []  # the Variables given and those traced, as trace keys
        for value, param in zip(values, params):
            if param[0] == "variable":
                if value is not param[2]():
                    passed.append(tt.make_key(value, []))
                    traced.append(param[3])
                continue
            feeds.append(self._check_tensor(value, param, index, keep))
            index += 1
        if passed:
            renaming = tt.variable_renaming(tuple(passed), tuple(traced))
            if renaming is None:
                raise self._variable_mismatch(passed, traced)
            raise _OtherVariables(renaming)
        return feeds

    def _variable_mismatch(self, passed: list, traced: list) -> Exception:
        """Variables that cannot take the traced ones' places: one of another dtype is
        TensorFlow's read error, another shape or aliasing a TypeError."""
        for now, was in zip(passed, traced):
            if now[0] == tt.VARIABLE and now[2][0] != was[2][0]:
                return variable_dtype_mismatch(self._inference_name, as_dtype(was[2][0]),
                                               as_dtype(now[2][0]))
        return TypeError(f"{self._flat_summary()} was traced with Variables of other types or "
                         f"aliasing than {', '.join(map(tt.describe, passed))}")

    def _check_tensor(self, value, param, index: int, keep: bool = False):
        _, name, dtype, shape = param
        if not isinstance(value, Tensor):
            if tt.is_variable(value):
                value = value._as_tensor()
            else:
                try:
                    value = convert_to_tensor(value, dtype_hint=dtype)
                except (TypeError, ValueError) as e:
                    raise TypeError(f"{self._flat_summary()}: cannot convert {value!r} for "
                                    f"argument {name} to a {dtype.name} tensor: {e}") from None
        if value.dtype != dtype:
            raise dtype_mismatch(self._inference_name, index, dtype, value.dtype)
        if not shape.is_compatible_with(value.shape):
            raise InvalidArgumentError(
                message=f"cannot compute {self._inference_name} as input #{index}(zero-based) "
                        f"was expected to have shape {shape} but has shape {value.shape} "
                        f"[Op:{self._inference_name}]")
        return value if keep else feed_value(value)

    def _structured_feeds(self, args, kwargs, keep: bool = False) -> list:
        spec = self._spec
        n = len(self._arg_specs)
        bound = list(args[:n])
        kwargs = dict(kwargs)
        for name in self._arg_names[len(bound):n]:
            if name in kwargs:
                bound.append(kwargs.pop(name))
            else:
                bound.append(_TRACED)
        if len(args) > n:
            raise TypeError(f"{self._summary()} takes {n} positional arguments, got {len(args)}.")
        extra = {k: kwargs.pop(k) if k in kwargs else _TRACED for k in self._kwarg_specs}
        if kwargs:
            raise TypeError(f"{self._summary()} got unexpected keyword arguments: "
                            f"{', '.join(sorted(kwargs))}.")
        feeds: list = []
        for i, (value, name) in enumerate(zip(bound, self._arg_names)):
            self._match(value, self._key[i], name, feeds, keep)
        if self._kwarg_specs:
            extra_key = dict(self._key[len(self._arg_specs)][1])
            for k, v in extra.items():
                self._match(v, extra_key[k], k, feeds, keep)
        del spec
        return feeds

    def _match(self, value, key, path: str, feeds: list, keep: bool = False) -> None:
        """Checks one argument against its traced key; appends its tensors to ``feeds``."""
        tag = key[0]
        if value is _TRACED:
            if tag in (tt.LITERAL, tt.OBJECT, tt.CUSTOM, tt.VARIABLE):
                return
            raise TypeError(f"{self._summary()} missing required argument: {path}.")
        if tag == tt.TENSOR:
            param = ("tensor", path, as_dtype(key[1]), TensorShape(key[2]))
            feeds.append(self._check_tensor(value, param, len(feeds), keep))
            return
        if tag == tt.COMPOSITE:  # a composite value: its spec must fit, its components feed
            parts: list = []
            new = tt.make_key(value, parts)
            if not tt.is_subtype(new, key):
                raise self._mismatch(path, key, new)
            feeds.extend(parts if keep else [feed_value(p) for p in parts])
            return
        new = tt.make_key(value, [])
        if tag == tt.VARIABLE and new != key and new[0] == tt.VARIABLE:
            renaming = tt.variable_renaming((new,), (key,))
            if renaming is None:
                raise self._variable_mismatch([new], [key])
            raise _OtherVariables(renaming)  # another Variable of the traced type
        if tag in (tt.LIST, tt.TUPLE, tt.NAMEDTUPLE, tt.DICT) and new[0] == tag:
            if tag == tt.DICT:
                if sorted(value, key=repr) != sorted(dict(key[1]), key=repr):
                    raise self._mismatch(path, key, new)
                parts = dict(key[1])
                for k in tt._sorted_keys(value):
                    self._match(value[k], parts[k], f"{path}[{k!r}]", feeds, keep)
                return
            parts = key[1] if tag != tt.NAMEDTUPLE else key[2]
            if len(parts) != len(value):
                raise self._mismatch(path, key, new)
            for j, (v, k) in enumerate(zip(value, parts)):
                self._match(v, k, f"{path}[{j}]", feeds, keep)
            return
        if not tt.is_subtype(new, key):
            raise self._mismatch(path, key, new)

    def _mismatch(self, path: str, old, new) -> TypeError:
        def what(k):
            if k[0] == tt.LITERAL:
                return f"{k[1].__name__} value {k[2]!r}"
            return tt.describe(k)
        return TypeError(f"ConcreteFunction {self._summary()} was constructed with {what(old)} in "
                         f"{path}, but was called with {what(new)}.")

    # -- looking at it ------------------------------------------------------------------------
    @property
    def name(self) -> str:
        return self._inference_name

    @property
    def structured_input_signature(self):
        return (self._arg_specs, dict(self._kwarg_specs))

    @property
    def traced_graph(self) -> Graph:
        """The graph as traced, before optimization (the same object as ``graph``)."""
        return self.graph

    @property
    def inputs(self) -> list:
        return [SymbolicTensor(o) for o in self.graph.inputs]

    @property
    def outputs(self) -> list:
        return [SymbolicTensor(o) for o in self.graph.outputs]

    @property
    def output_dtypes(self):
        """The dtype of each returned tensor, in the structure of the outputs."""
        return nest.map_structure(lambda t: t.dtype if isinstance(t, Tensor) else t,
                                  self.structured_outputs)

    @property
    def output_shapes(self):
        """The static shape of each returned tensor, in the structure of the outputs."""
        return nest.map_structure(lambda t: t.shape if isinstance(t, Tensor) else t,
                                  self.structured_outputs)

    @property
    def variables(self) -> tuple:
        """The live Variables this trace reads or writes, in order of first use (TensorFlow's
        captured variables)."""
        from runtime.variables import _BY_RESOURCE
        passed = {_resource(p) for p in self._flat_inputs if p[0] == "variable"}  # (arguments)
        found = [_BY_RESOURCE.get(r) for r in _resources_used(self.graph, {}) if r not in passed]
        return tuple(v for v in found if v is not None)

    @property
    def trainable_variables(self) -> tuple:
        return tuple(v for v in self.variables if v.trainable)

    @property
    def function_spec(self) -> FunctionSpec:
        return self._spec

    @property
    def function_type(self):
        """The parameters with their trace types and the output type (TensorFlow's
        ``FunctionType``, an ``inspect.Signature``)."""
        from runtime.function_type import function_type
        return function_type(self._spec, self._arg_names, self._arg_specs, self._kwarg_specs,
                             self.structured_outputs)

    def _summary(self, default_values: bool = False) -> str:
        return signature_summary(self._name, self._arg_names, self._arg_specs,
                                 self._kwarg_specs, default_values)

    def _flat_summary(self) -> str:
        return f"{self._name}({', '.join(p[1] for p in self._flat_inputs)})"

    def pretty_printed_signature(self, verbose: bool = True) -> str:
        if not verbose:
            return self._summary(default_values=True)
        return pretty_signature(self._name, self._arg_names, self._arg_specs, self._kwarg_specs,
                                self.structured_outputs)

    def __str__(self) -> str:
        return "ConcreteFunction " + self.pretty_printed_signature()

    def __repr__(self) -> str:
        return f"<ConcreteFunction {self._summary(default_values=True)} at {id(self):#X}>"


def _resource(flat_input) -> int:
    """The resource id of a Variable input (``("variable", name, weakref, key)``)."""
    return flat_input[3][2][3]


class _OtherVariables(Exception):
    """A call passes other Variables of the types traced: run ``_renamed(renaming)``."""

    def __init__(self, renaming: dict):
        super().__init__(renaming)
        self.renaming = renaming


def _renamed_graph(graph: Graph, resources: dict) -> Graph:
    """A copy of ``graph`` (and its bodies) whose nodes name resources by ``resources``."""
    family: list = []
    copy = copy_graph(graph, family=family)
    for g in family:
        for node in g.nodes:
            resource = node.attrs.get("resource")
            if isinstance(resource, int) and resource in resources:
                node.attrs["resource"] = resources[resource]
    return copy


def _resources_used(graph: Graph, found: dict) -> dict:
    """The resource ids named by the nodes of ``graph`` and its bodies (``found``: in order)."""
    from graph.registry import get_op
    for node in graph.nodes:
        resource = node.attrs.get("resource")
        if isinstance(resource, int):
            found.setdefault(resource, None)
        for name in get_op(node.op).function_attrs:
            bodies = node.attrs[name]
            for body in bodies if isinstance(bodies, (list, tuple)) else (bodies,):
                if isinstance(body, Graph):
                    _resources_used(body, found)
    return found


class _Traced:
    def __repr__(self) -> str:
        return "<traced value>"


_TRACED = _Traced()
