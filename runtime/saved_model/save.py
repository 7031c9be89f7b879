"""``tf.saved_model.save``: an object's variables, functions and signatures as files.

The object tree is walked from the root as checkpoints walk it (attributes,
list indices, dict keys; ``runtime.module.trackable_children``), plus the
``tf.function``s held as attributes or methods. A function is saved with
every trace it has (tracing its ``input_signature`` first); a function never
traced is skipped with a warning, as TensorFlow skips it. Variables are
written as a checkpoint of the root (``variables/variables``), so
``tf.train.Checkpoint.restore`` reads a SavedModel too.

Signatures are exported as TensorFlow exports them: named by ``signatures``
(a function alone is ``serving_default``; without ``signatures``, the root's
one function with an input signature, or a loaded object's own signatures),
inputs named by their TensorSpec names or parameters, outputs by the keys of
a returned dict or else ``output_0``, ``output_1``... Everything is checked
(py_function, untracked variables, arguments that are not data) before a
file is written.
"""
from __future__ import annotations

import inspect
import os
import shutil
import warnings

from graph import serialize
from graph.printing import reachable_functions
from runtime.composite import is_composite_tensor
from runtime.concrete_function import ConcreteFunction
from runtime.function import Function, _Described
from runtime.module import trackable_children
from runtime.saved_model import format as fmt
from runtime.saved_model.restored import SignatureFunction
from runtime.tensor import SymbolicTensor
from runtime.tensor_spec import TensorSpec, TypeSpec
from runtime.trace_type import is_variable
from runtime.train import checkpoint_io, object_graph
from runtime.train.checkpoint import Checkpoint


def save(obj, export_dir, signatures=None, options=None) -> None:
    """Writes ``obj`` to directory ``export_dir`` (replacing what a previous save wrote there)."""
    export_dir = os.fspath(export_dir)
    saver = _Saver(obj)
    signature_docs = saver.signatures(signatures)
    concretes = [saver.describe_concrete(i, c) for i, c in enumerate(saver.concretes)]
    # Everything is checked; only now is a previous save in the directory replaced.
    for sub in (fmt.FUNCTIONS_DIR, "variables"):
        shutil.rmtree(os.path.join(export_dir, sub), ignore_errors=True)
    os.makedirs(export_dir, exist_ok=True)
    saver.write_variables(export_dir)
    for i, c in enumerate(saver.concretes):
        serialize.save(c.graph, os.path.join(export_dir, fmt.FUNCTIONS_DIR, str(i)),
                       resource_values=False)
    fmt.write_document(export_dir, {"objects": saver.objects_doc, "concretes": concretes,
                                    "signatures": signature_docs})


def _functions_of(obj) -> dict:
    """The tf.functions an object holds: instance attributes and methods of its class."""
    found = {}
    if isinstance(obj, (list, tuple, dict)) or is_variable(obj):
        return found
    for name in sorted(dir(type(obj))):
        if isinstance(inspect.getattr_static(type(obj), name, None), Function):
            found[name] = getattr(obj, name)
    attributes = dict(getattr(obj, "__dict__", {}))
    if isinstance(obj, Checkpoint):  # its public attributes live in its dependencies
        attributes.update(obj._children)
    for name, value in sorted(attributes.items()):
        if isinstance(value, Function) and not name.startswith("__"):
            found[name] = value
    return found


class _Saver:
    def __init__(self, root):
        self.root = root
        self.objects, self.index = [root], {id(root): 0}
        self.objects_doc: list[dict] = []
        self.concretes: list[ConcreteFunction] = []
        self.concrete_index: dict[int, int] = {}
        nodes, ck_objects = object_graph.build(root)
        self.checkpoint = (nodes, ck_objects)
        self.keys = {id(o): n.key for n, o in zip(nodes, ck_objects) if n.key is not None}
        i = 0
        while i < len(self.objects):
            self.objects_doc.append(self.describe(self.objects[i]))
            i += 1
        self.resources = {self.objects[i].resource_id: i for i, d in
                          enumerate(self.objects_doc) if d["kind"] == "variable"}

    def node_of(self, value) -> int:
        if id(value) not in self.index:
            self.index[id(value)] = len(self.objects)
            self.objects.append(value)
        return self.index[id(value)]

    def describe(self, obj) -> dict:
        if is_variable(obj):
            return {"kind": "variable", "key": self.keys[id(obj)],
                    "name": obj.name.rsplit(":", 1)[0], "dtype": obj.dtype.name,
                    "shape": None if obj.shape.rank is None else list(obj.shape.as_tuple()),
                    "trainable": bool(obj.trainable), "resource": obj.resource_id}
        if isinstance(obj, Function):
            return self.function(obj)
        kind = ("list" if isinstance(obj, list) else "tuple" if isinstance(obj, tuple)
                else "dict" if isinstance(obj, dict) else "object")
        children = [[name, self.node_of(child)] for name, child in
                    list(trackable_children(obj).items()) + self.traced_functions(obj)]
        doc = {"kind": kind, "children": children}
        if kind == "object":
            doc["class"] = type(obj).__name__
        return doc

    def traced_functions(self, obj) -> list:
        """The functions of ``obj`` that have traces (tracing input signatures now)."""
        found = []
        for name, fn in _functions_of(obj).items():
            if fn.input_signature is not None:
                fn.get_concrete_function()
            if fn._list_all_concrete_functions():
                found.append((name, fn))
            else:
                warnings.warn(f"Found untraced function {name!r}: it is not saved. Call it "
                              "or give it an input_signature before saving.", stacklevel=5)
        return found

    def function(self, fn: Function) -> dict:
        traces = fn._list_all_concrete_functions()
        spec = fn.function_spec
        defaults = {}
        for name, value in spec.defaults.items():
            try:
                defaults[name] = fmt.encode_structure(value, lambda v: None)
            except ValueError:
                continue  # a default that is not data: callers pass the argument explicitly
        signature = None if fn.input_signature is None else [
            fmt.encode_structure(s, _spec_leaf) for s in fn.input_signature]
        return {"kind": "function", "name": fn.__name__,
                "params": {"positional": spec.positional, "kwonly": spec.kwonly,
                           "varargs": spec.varargs, "varkw": spec.varkw, "defaults": defaults},
                "input_signature": signature,
                "concretes": [self.add_concrete(c) for c in traces]}

    def add_concrete(self, concrete: ConcreteFunction) -> int:
        if id(concrete) not in self.concrete_index:
            self.concrete_index[id(concrete)] = len(self.concretes)
            self.concretes.append(concrete)
        return self.concrete_index[id(concrete)]

    # -- signatures -------------------------------------------------------------------------
    def signatures(self, signatures) -> dict:
        if signatures is None:
            loaded = getattr(self.root, "__dict__", {}).get("signatures")
            found = [f for f in _functions_of(self.root).values()
                     if f.input_signature and _returns_tensors(f.get_concrete_function())]
            if isinstance(loaded, dict) and all(isinstance(f, SignatureFunction)
                                                for f in loaded.values()):
                signatures = {n: f.get_concrete_function() for n, f in loaded.items()}
            else:
                signatures = {"serving_default": found[0]} if len(found) == 1 else {}
        elif not isinstance(signatures, dict):
            signatures = {"serving_default": signatures}
        return {name: self.signature(name, f) for name, f in signatures.items()}

    def signature(self, name: str, f) -> dict:
        specs = None
        if isinstance(f, Function):
            if f.input_signature is None:
                raise ValueError(
                    f"Expected a TensorFlow function for which to generate a signature, but "
                    f"got {f!r}. Only `tf.functions` with an input signature or concrete "
                    "functions can be used as a signature.")
            specs, f = f.input_signature, f.get_concrete_function()
        elif not isinstance(f, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a "
                             f"signature, but got {f!r}.")
        elif f._function is not None and f._function.input_signature is not None:
            specs = f._function.input_signature
        pairs = list(zip(f._arg_names, f._arg_specs)) + list(f._kwarg_specs.items())
        if any(isinstance(leaf, TypeSpec) for _, s in pairs if isinstance(s, (list, tuple, dict))
               for leaf in fmt.leaves(s)):
            raise ValueError(f"Signature {name!r}: a signature function takes tensors as "
                             "separate arguments, not nested in lists or dicts")
        given = {} if specs is None else {n: s.name for n, s in zip(f._arg_names, specs)
                                          if isinstance(s, TensorSpec)}
        names = _flat_input_names([(given.get(n) or n, s) for n, s in pairs
                                   if isinstance(s, TypeSpec)])
        outputs = f.structured_outputs
        positions = {(o.node.name, o.index): i for i, o in enumerate(f.graph.outputs)}
        if isinstance(outputs, dict) and all(isinstance(k, str) for k in outputs) and all(
                _is_result(v) for v in outputs.values()):
            named = list(outputs.items())
        else:
            leaves = fmt.leaves(outputs)
            if not all(_is_result(t) for t in leaves):
                raise ValueError(f"Signature {name!r}: a signature function must return "
                                 f"tensors, got {outputs!r}")
            named = [(f"output_{i}", t) for i, t in enumerate(leaves)]
        out = [[n, _tensor_leaf(t, positions)] for n, t in named]
        return {"concrete": self.add_concrete(f), "inputs": [[n, i] for i, n in
                                                             enumerate(names)],
                "outputs": out}

    # -- writing ----------------------------------------------------------------------------
    def write_variables(self, export_dir: str) -> None:
        nodes, objects = self.checkpoint
        values = {i: object_graph.saved_value(o) for i, (o, n) in enumerate(zip(objects, nodes))
                  if n.key is not None}
        checkpoint_io.write(os.path.join(export_dir, fmt.VARIABLES_PREFIX), nodes, values)

    def describe_concrete(self, i: int, concrete: ConcreteFunction) -> dict:
        """The document entry of one trace, after checking that its graph can be saved."""
        graph = concrete.graph
        for g in [graph] + reachable_functions(graph):
            for node in g.nodes:
                if node.op == "EagerPyFunc":
                    raise ValueError(
                        f"Cannot save function {concrete.name!r}: its graph calls a Python "
                        f"function through tf.py_function (node {node.name!r}). A SavedModel "
                        "holds graphs only and never runs Python code on load; write that "
                        "part with TensorFlow ops instead.")
                rid = node.attrs.get(serialize.RESOURCE_ATTR)
                if isinstance(rid, int) and rid not in self.resources:
                    raise ValueError(
                        f"Cannot save function {concrete.name!r}: it references an 'untracked' "
                        f"resource (node {node.name!r}). TensorFlow objects (e.g. tf.Variable) "
                        "captured by functions must be 'tracked' by assigning them to an "
                        "attribute of a tracked object or assigned to an attribute of the main "
                        "object directly.")
        where = f"function {concrete.name!r}"
        try:
            args = [fmt.encode_structure(s, _spec_leaf) for s in concrete._arg_specs]
            kwargs = [[k, fmt.encode_structure(s, _spec_leaf)]
                      for k, s in concrete._kwarg_specs.items()]
            positions = {(o.node.name, o.index): k for k, o in enumerate(graph.outputs)}
            outputs = fmt.encode_structure(concrete.structured_outputs,
                                           lambda v: _tensor_leaf(v, positions))
        except ValueError as e:
            raise ValueError(f"Cannot save {where}: {e}") from None
        n_specs = sum(fmt.component_count(leaf) for leaf in
                      fmt.leaves([concrete._arg_specs, concrete._kwarg_specs])
                      if isinstance(leaf, TypeSpec))
        if n_specs != len(graph.inputs):
            raise ValueError(f"Cannot save {where}: its graph has {len(graph.inputs)} inputs "
                             f"but its signature {n_specs} tensors")
        return {"name": concrete.name, "dir": f"{fmt.FUNCTIONS_DIR}/{i}", "arg_names": list(concrete._arg_names),
                "args": args, "kwargs": kwargs, "outputs": outputs}


def _spec_leaf(value):
    if isinstance(value, TensorSpec):
        return fmt.encode_spec(value)
    if isinstance(value, TypeSpec):
        return fmt.encode_type_spec(value)
    if isinstance(value, _Described):
        raise ValueError(f"an argument {value!r} is not a tensor, a composite tensor or a "
                         "Python value (objects cannot be saved as arguments)")
    return None


def _tensor_leaf(value, positions):
    if isinstance(value, SymbolicTensor):
        return {"tensor": positions[(value._output.node.name, value._output.index)]}
    if is_composite_tensor(value):
        tensors = [_tensor_leaf(t, positions)["tensor"] for t in value._components()]
        return {"composite": {"typespec": fmt.encode_type_spec(value._type_spec)["typespec"],
                              "tensors": tensors}}
    return None


def _returns_tensors(concrete: ConcreteFunction) -> bool:
    """Can this trace be a signature found without being asked for? (TensorFlow skips a
    function returning nothing, such as a setter, when it looks for ``serving_default``.)"""
    leaves = fmt.leaves(concrete.structured_outputs)
    return bool(leaves) and all(_is_result(t) for t in leaves)


def _is_result(value) -> bool:
    return isinstance(value, SymbolicTensor) or is_composite_tensor(value)


def _flat_input_names(pairs) -> list[str]:
    """A signature's input names, as TensorFlow names its flattened graph inputs.

    A composite argument is its component tensors, named like the graph's
    placeholders: the argument's name, then ``name_1``, ``name_2``... (made
    unique across all inputs).
    """
    names: list[str] = []
    for base, spec in pairs:
        count = 1 if isinstance(spec, TensorSpec) else len(spec._component_specs)
        for _ in range(count):
            name, k = base, 0
            while name in names:
                k += 1
                name = f"{base}_{k}"
            names.append(name)
    return names
