"""``tf.saved_model.load``: rebuild the saved object tree from data only.

Every file is checked first (``format.read_document``: digests and the
document's checksum), then the variables are created from the checkpoint,
the graphs are loaded onto them (``graph.serialize.load`` with the new
resources), and the objects are built: a module becomes a ``_UserObject``
(a ``tf.Module``), lists, tuples and dicts stay containers, functions become
``RestoredFunction``s. Only when all of this succeeded is the root returned.
"""
from __future__ import annotations

import os

from graph import serialize
from graph.dtypes import as_dtype
from graph.shapes import TensorShape
from runtime.module import Module
from runtime.saved_model import format as fmt
from runtime.saved_model.restored import (CompositeOutput, Output, RestoredFunction,
                                          SavedTrace, SignatureFunction, python_signature)
from runtime.tensor_spec import TypeSpec
from runtime.train import checkpoint_io


class _UserObject(Module):
    """A module restored from a SavedModel: its attributes are what was saved."""

    def __call__(self, *args, **kwargs):
        # Python finds ``obj(...)`` on the type: a saved ``__call__`` is an instance attribute.
        call = self.__dict__.get("__call__")
        if call is None:
            raise TypeError("'_UserObject' object is not callable: the saved object had no "
                            "traced __call__ tf.function")
        return call(*args, **kwargs)


def load(export_dir, tags=None, options=None):
    """Loads the object saved in ``export_dir``; nothing from the files is executed."""
    export_dir = os.fspath(export_dir)
    doc = fmt.read_document(export_dir)
    return _Loader(export_dir, doc).load()


class _Loader:
    def __init__(self, export_dir: str, doc: dict):
        self.dir = export_dir
        self.file = os.path.join(export_dir, fmt.DOCUMENT)
        self.doc = doc
        self.where = self.file
        self.built: dict[int, object] = {}

    def fail(self, what: str) -> fmt.SavedModelFormatError:
        return fmt.SavedModelFormatError(f"{self.where}: {what}")

    def field(self, doc, key: str, kind, optional: bool = False):
        if not isinstance(doc, dict) or (key not in doc and not optional):
            raise self.fail(f"missing field {key!r}")
        value = doc.get(key)
        if value is None and optional:
            return None
        if not isinstance(value, kind) or (kind is int and isinstance(value, bool)):
            raise self.fail(f"field {key!r} should be a {getattr(kind, '__name__', kind)}")
        return value

    def load(self):
        self.objects = self.field(self.doc, "objects", list)
        if not self.objects or self.objects[0].get("kind") != "object":
            raise self.fail("the first saved object (the root) should be an object")
        resource_map = self.variables()
        traces = [self.trace(i, c, resource_map) for i, c in
                  enumerate(self.field(self.doc, "concretes", list))]
        self.traces = traces
        root = self.build(0)
        signatures = {}
        for name, sig in self.field(self.doc, "signatures", dict).items():
            self.where = f"{self.file}: signature {name!r}"
            signatures[name] = self.signature(name, sig, traces)
        self.where = self.file
        root.__dict__["signatures"] = signatures
        return root

    # -- variables ---------------------------------------------------------------------------
    def variables(self) -> dict[int, int]:
        from runtime.variables import Variable
        data = checkpoint_io.read(os.path.join(self.dir, fmt.VARIABLES_PREFIX))
        by_key = data.by_key()
        resource_map = {}
        for i, entry in enumerate(self.objects):
            self.where = f"{self.file}: object {i}"
            if not isinstance(entry, dict):
                raise self.fail("should be a JSON object")
            if entry.get("kind") != "variable":
                continue
            key = self.field(entry, "key", str)
            if key not in by_key:
                raise self.fail(f"variable {key!r} is not in the variables checkpoint")
            value = data.values[by_key[key]]
            try:
                dtype = as_dtype(self.field(entry, "dtype", str))
                shape = TensorShape(self.field(entry, "shape", list, optional=True))
            except (TypeError, ValueError) as e:
                raise self.fail(f"bad dtype or shape: {e}") from None
            if dtype != data.dtypes[by_key[key]] or not shape.is_compatible_with(value.shape):
                raise self.fail(f"variable {key!r} should be {dtype.name}{shape}, the checkpoint "
                                f"holds {data.dtypes[by_key[key]].name}{list(value.shape)}")
            var = Variable(value, trainable=bool(entry.get("trainable", True)),
                           name=self.field(entry, "name", str), dtype=dtype, shape=shape)
            self.built[i] = var
            resource_map[self.field(entry, "resource", int)] = var.resource_id
        self.where = self.file
        return resource_map

    # -- functions ---------------------------------------------------------------------------
    def trace(self, i: int, doc: dict, resource_map: dict) -> SavedTrace:
        self.where = f"{self.file}: concrete function {i}"
        rel = self.field(doc, "dir", str)
        if rel != f"{fmt.FUNCTIONS_DIR}/{i}":
            raise self.fail(f"directory {rel!r} should be '{fmt.FUNCTIONS_DIR}/{i}'")
        graph = serialize.load(os.path.join(self.dir, fmt.FUNCTIONS_DIR, str(i)), resource_map)
        arg_names = self.field(doc, "arg_names", list)
        args = [self.structure(a) for a in self.field(doc, "args", list)]
        kwargs = []
        for pair in self.field(doc, "kwargs", list):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise self.fail(f"keyword argument {pair!r} should be [name, structure]")
            kwargs.append((pair[0], self.structure(pair[1])))
        if len(arg_names) != len(args) or not all(isinstance(n, str) for n in arg_names):
            raise self.fail("'arg_names' should name each positional argument")
        n_specs = sum(fmt.component_count(s) for s in fmt.leaves([args, [s for _, s in kwargs]])
                      if isinstance(s, (TypeSpec, fmt.UnknownTypeSpec)))
        if n_specs != len(graph.inputs):
            raise self.fail(f"the signature has {n_specs} tensors but the graph "
                            f"{len(graph.inputs)} inputs")
        outputs = self.structure(doc.get("outputs"), len(graph.outputs))
        return SavedTrace(graph, arg_names, args, kwargs, outputs)

    def structure(self, doc, n_outputs: int | None = None):
        def leaf(tag, body):
            if tag == "spec" and n_outputs is None:
                return fmt.decode_spec(body, self.fail)
            if tag == "typespec" and n_outputs is None:
                return fmt.decode_type_spec(body, self.fail)
            if tag == "tensor" and n_outputs is not None and isinstance(body, int) \
                    and 0 <= body < n_outputs:
                return Output(body)
            if tag == "composite" and n_outputs is not None and isinstance(body, dict):
                spec = fmt.decode_type_spec(body.get("typespec"), self.fail)
                tensors = body.get("tensors")
                if not (isinstance(tensors, list) and len(tensors) == fmt.component_count(spec)
                        and all(isinstance(k, int) and 0 <= k < n_outputs for k in tensors)):
                    raise self.fail(f"bad composite result {body!r}")
                return CompositeOutput(spec, [Output(k) for k in tensors])
            raise self.fail(f"bad {tag!r} entry {body!r}")
        return fmt.decode_structure(doc, leaf, self.fail)

    def function(self, i: int, entry: dict) -> RestoredFunction:
        params = self.field(entry, "params", dict)
        try:
            defaults = {k: fmt.decode_structure(v, self.no_leaf, self.fail)
                        for k, v in params["defaults"].items()}
            signature = python_signature(dict(params, defaults=defaults))
        except (KeyError, TypeError, ValueError, AttributeError) as e:
            raise self.fail(f"bad parameters {params!r}: {e}") from None
        traces = []
        for c in self.field(entry, "concretes", list):
            if not isinstance(c, int) or not 0 <= c < len(self.traces):
                raise self.fail(f"names concrete function {c!r}, which is not in the file")
            traces.append(self.traces[c])
        raw_sig = self.field(entry, "input_signature", list, optional=True)
        input_signature = None if raw_sig is None else [self.structure(s) for s in raw_sig]
        if any(isinstance(s, fmt.UnknownTypeSpec) for s in fmt.leaves(input_signature or [])):
            input_signature = None  # calls then name the missing type (RestoredFunction)
        return RestoredFunction(self.field(entry, "name", str), signature, traces,
                                input_signature)

    def no_leaf(self, tag, body):
        raise self.fail(f"a default value cannot hold a {tag!r}")

    def signature(self, name: str, doc: dict, traces: list) -> SignatureFunction:
        c = self.field(doc, "concrete", int)
        if not 0 <= c < len(traces):
            raise self.fail(f"names concrete function {c}, which is not in the file")
        trace = traces[c]
        inputs = self.field(doc, "inputs", list)
        if len(inputs) != len(trace.graph.inputs) or not all(
                isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) and p[1] == k
                for k, p in enumerate(inputs)) or len({p[0] for p in inputs}) != len(inputs):
            raise self.fail("its inputs should name each input of its graph once, in order")
        outputs = []
        for pair in self.field(doc, "outputs", list):
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)):
                raise self.fail(f"output {pair!r} should be [name, result]")
            result = pair[1]
            if isinstance(result, int) and not isinstance(result, bool):
                result = {"tensor": result}  # files written before composite results
            result = self.structure(result, len(trace.graph.outputs))
            if not isinstance(result, (Output, CompositeOutput)):
                raise self.fail(f"bad output {pair!r}")
            outputs.append((pair[0], result))
        return SignatureFunction(name, trace.graph, [p[0] for p in inputs], outputs)

    # -- objects -----------------------------------------------------------------------------
    def build(self, i: int):
        if i in self.built:
            return self.built[i]
        self.where = f"{self.file}: object {i}"
        entry = self.objects[i]
        kind = entry.get("kind")
        if kind == "function":
            obj = self.built[i] = self.function(i, entry)
            return obj
        children = self.field(entry, "children", list)
        for pair in children:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and isinstance(pair[1], int) and 0 <= pair[1] < len(self.objects)):
                raise self.fail(f"child {pair!r} should be [name, object id]")
        if kind == "object":
            obj = self.built[i] = _UserObject.__new__(_UserObject)
            obj.__dict__["_name"] = "_user_object"
            for name, c in children:
                if isinstance(getattr(type(obj), name, None), property):
                    raise self.fail(f"attribute {name!r} would hide tf.Module's property")
                obj.__dict__[name] = self.build(c)
        elif kind in ("list", "dict"):
            obj = self.built[i] = [] if kind == "list" else {}
            for name, c in children:
                if kind == "list":
                    obj.append(self.build(c))
                else:
                    obj[name] = self.build(c)
        elif kind == "tuple":
            self.built[i] = None  # a tuple that contains itself cannot be rebuilt
            obj = self.built[i] = tuple(self.build(c) for _, c in children)
        else:
            raise self.fail(f"unknown object kind {kind!r}")
        return obj
