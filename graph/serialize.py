"""Portable save/load of a graph: a directory with ``graph.json`` and ``.npy`` files.

Why this format: a saved graph must load and run in a fresh process with no
user code present, and loading a file from elsewhere must never execute
anything from it. So the file holds only data — JSON for the structure and
``np.save(allow_pickle=False)`` arrays for tensor values — and loading
rebuilds every node through ``Graph.add_node``, so that op inference checks
the file exactly as it checks a graph being traced. Never pickle.

``graph.json`` holds the format name and version, the root graph and every
library sub-graph it reaches (nodes in creation order with op, name, data and
control inputs, attrs, output types and origin; inputs, outputs, captures),
and the values of the variables the graph refers to (attr ``resource``: an
id into ``graph.resources``). Loading creates fresh resources holding the
saved values and remaps the ids, so a loaded graph never touches the state
of the graph it was saved from.

Attr values are encoded as plain JSON where JSON is unambiguous (None,
bool, int, finite float, str, list) and as one-key tagged objects otherwise
(``{"tuple": [...]}``, ``{"dtype": "int32"}``, ``{"function": "cond_true_1"}``,
``{"array": "a3.npy", "dtype": "<f4", "shape": [2]}``...). String arrays are
stored as fixed-width bytes and restored as object arrays of ``bytes``.
"""
from __future__ import annotations

import base64
import json
import math
import os
from dataclasses import dataclass
from typing import Any

import numpy as np

from graph import resources
from graph.dtypes import DType, as_dtype
from graph.errors import GraphFormatError, NotFoundError, OpError
from graph.ir import Graph, Node, Origin, Output, TensorType
from graph.printing import reachable_functions
from graph.registry import get_op
from graph.shapes import TensorShape

FORMAT_NAME = "autograph-graph"
FORMAT_VERSION = 1
GRAPH_FILE = "graph.json"
RESOURCE_ATTR = "resource"


# -- saving ------------------------------------------------------------------------

def save(graph: Graph, path: str | os.PathLike, resource_values: bool = True) -> None:
    """Writes ``graph`` and every sub-graph it uses into directory ``path``.

    ``graph.json`` is written last (atomically), so an interrupted save never
    leaves a complete-looking graph with missing arrays. A graph that is itself
    a sub-graph is saved as a root: its captures of outer values are dropped.
    With ``resource_values=False`` only the ids of the variables are written:
    their values are kept elsewhere (a SavedModel's checkpoint) and ``load``
    is given the resources to use instead (``resource_map``).
    """
    path = os.fspath(path)
    os.makedirs(path, exist_ok=True)
    writer = _Writer(path, resource_values)
    functions = reachable_functions(graph)
    saved = {id(graph)} | {id(g) for g in functions}
    doc = {
        "format": FORMAT_NAME,
        "version": FORMAT_VERSION,
        "graph": writer.graph(graph, outer=None, is_root=True),
        "library": [writer.graph(g, outer=_outer_name(g, graph, saved), is_root=False)
                    for g in functions],
        "resources": writer.resources(),
    }
    tmp = os.path.join(path, GRAPH_FILE + ".tmp")
    with open(tmp, "w", encoding="utf-8") as f:
        json.dump(doc, f, indent=1, allow_nan=False)
    os.replace(tmp, os.path.join(path, GRAPH_FILE))


def _outer_name(g: Graph, root: Graph, saved: set[int]) -> str | None:
    """The saved graph ``g`` is nested in (None for the root)."""
    if g.outer is None or id(g.outer) not in saved:
        raise ValueError(f"Cannot save sub-graph {g.name!r}: the graph it is nested in "
                         f"({getattr(g.outer, 'name', None)!r}) is not part of {root.name!r}")
    return None if g.outer is root else g.outer.name


class _Writer:
    def __init__(self, path: str, resource_values: bool = True):
        self.path = path
        self.resource_values = resource_values
        self.n_arrays = 0
        self.resource_ids: list[int] = []
        self.where = ""

    def graph(self, graph: Graph, outer: str | None, is_root: bool) -> dict:
        captures = [] if is_root else [[_ref(o), _ref(i)] for o, i in graph.captures.items()]
        return {
            "name": graph.name,
            "outer": outer,
            "nodes": [self.node(n) for n in graph.nodes],
            "inputs": [_ref(o) for o in graph.inputs],
            "outputs": [_ref(o) for o in graph.outputs],
            "captures": captures,
        }

    def node(self, node: Node) -> dict:
        attrs = {}
        for key, value in node.attrs.items():
            self.where = f"attr {key!r} of node {node.name!r} in graph {node.graph.name!r}"
            if key == RESOURCE_ATTR and isinstance(value, int) and not isinstance(value, bool):
                self.note_resource(value)
            attrs[key] = self.value(value)
        origin = node.origin
        return {
            "name": node.name,
            "op": node.op,
            "inputs": [_ref(i) for i in node.inputs],
            "control_inputs": [c.name for c in node.control_inputs],
            "attrs": attrs,
            "outputs": [_type(t) for t in node.outputs],
            "origin": None if origin is None else {
                "file": origin.file, "line": origin.line,
                "function": origin.function, "source": origin.source},
        }

    def note_resource(self, rid: int) -> None:
        if rid not in self.resource_ids:
            if self.resource_values and not resources.exists(rid):
                resources.read(rid)  # raises FailedPreconditionError saying why
            self.resource_ids.append(rid)

    def resources(self) -> list[dict]:
        out = []
        for rid in self.resource_ids:
            self.where = f"the value of variable resource {rid}"
            out.append({"id": rid, "value": self.value(resources.read(rid))}
                       if self.resource_values else {"id": rid})
        return out

    def value(self, v) -> Any:
        if v is None or isinstance(v, (bool, str)):
            return v
        if isinstance(v, np.generic):  # before int/float: np.float64 is a float
            return {"scalar": self.array(np.asarray(v))}
        if isinstance(v, int):
            return v
        if isinstance(v, float):
            return v if math.isfinite(v) else {"float": repr(v)}
        if isinstance(v, bytes):
            return {"bytes": base64.b64encode(v).decode("ascii")}
        if isinstance(v, DType):
            return {"dtype": v.name}
        if isinstance(v, TensorShape):
            return {"shape": _dims(v)}
        if isinstance(v, TensorType):
            return {"tensor_type": _type(v)}
        if isinstance(v, np.ndarray):
            return self.array(v)
        if isinstance(v, Graph):
            return {"function": v.name}
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if isinstance(v, tuple):
            return {"tuple": [self.value(x) for x in v]}
        if isinstance(v, dict):
            return {"dict": [[self.value(k), self.value(x)] for k, x in v.items()]}
        raise TypeError(f"Cannot save {self.where}: a value of type {type(v).__name__} is not "
                        "one of the attr kinds a graph may hold (None, bool, int, float, str, "
                        "bytes, DType, TensorShape, TensorType, numpy array, Graph, list, "
                        "tuple, dict)")

    def array(self, arr: np.ndarray) -> dict:
        entry: dict[str, Any] = {"shape": list(arr.shape)}
        if arr.dtype == np.dtype(object):
            data, lengths = self._string_array(arr)
            entry["dtype"] = "string"
            if lengths is not None:
                entry["lengths"] = self.write(lengths)
        elif arr.dtype.kind in "biufc":
            data = arr
            entry["dtype"] = arr.dtype.str
        else:
            raise TypeError(f"Cannot save {self.where}: arrays of numpy dtype {arr.dtype} are "
                            "not supported (numbers, bools and object arrays of bytes are)")
        entry["array"] = self.write(data)
        return entry

    def _string_array(self, arr: np.ndarray):
        """Fixed-width bytes, plus the lengths when a value ends in NUL (numpy strips those)."""
        flat = arr.reshape(-1)
        for x in flat:
            if not isinstance(x, bytes):
                raise TypeError(f"Cannot save {self.where}: a string array holds a "
                                f"{type(x).__name__} ({x!r}); string tensors hold bytes")
        width = max([len(x) for x in flat] + [1])
        data = np.array(list(flat), dtype=f"S{width}").reshape(arr.shape)
        if any(x.endswith(b"\0") for x in flat):
            return data, np.array([len(x) for x in flat], dtype=np.int64).reshape(arr.shape)
        return data, None

    def write(self, arr: np.ndarray) -> str:
        name = f"a{self.n_arrays}.npy"
        self.n_arrays += 1
        np.save(os.path.join(self.path, name), arr, allow_pickle=False)
        return name


def _ref(o: Output) -> list:
    return [o.node.name, o.index]


def _dims(shape: TensorShape):
    return None if shape.rank is None else list(shape.as_tuple())


def _type(t: TensorType) -> dict:
    return {"dtype": t.dtype.name, "shape": _dims(t.shape)}


# -- loading ---------------------------------------------------------------------------

def load(path: str | os.PathLike, resource_map: dict[int, int] | None = None) -> Graph:
    """Reads a graph written by ``save``; raises GraphFormatError naming what is wrong.

    Raises NotFoundError when the graph uses an op type this version does not
    know. Nothing in the files is executed: they are parsed as JSON and as
    ``.npy`` arrays without pickle, and every node is re-checked by inference.
    ``resource_map`` (saved id -> existing resource id) makes the graph use
    existing variables instead of fresh ones holding the saved values; every
    variable the graph names must then be in it.
    """
    path = os.fspath(path)
    if os.path.basename(path) == GRAPH_FILE and os.path.isfile(path):
        path = os.path.dirname(path) or "."
    return _Loader(path, resource_map).load()


@dataclass
class _Pending:
    """A graph created but whose nodes are not built yet."""

    graph: Graph
    doc: dict
    state: str = "new"  # "new" -> "building" -> "built"


class _Loader:
    def __init__(self, path: str, external: dict[int, int] | None = None):
        self.path = path
        self.external = external
        self.file = os.path.join(path, GRAPH_FILE)
        self.where = self.file
        self.graphs: dict[str, _Pending] = {}
        self.resource_map: dict[int, int] = {}
        self.saved_resources: dict[int, Any] = {}

    def fail(self, what: str) -> GraphFormatError:
        return GraphFormatError(f"{self.where}: {what}")

    # -- document ----------------------------------------------------------------
    def load(self) -> Graph:
        doc = self.read_json()
        self.check_header(doc)
        root_doc = self.field(doc, "graph", dict)
        library = self.field(doc, "library", list)
        self.saved_resources = self.read_resources(self.field(doc, "resources", list))
        root = Graph(self.field(root_doc, "name", str))
        self.graphs[root.name] = _Pending(root, root_doc)
        self.create_library(root, library)
        for pending in list(self.graphs.values()):
            self.build(pending)
        for pending in self.graphs.values():
            self.connect_captures(pending)
        return root

    def read_json(self) -> dict:
        try:
            with open(self.file, encoding="utf-8") as f:
                text = f.read()
        except FileNotFoundError:
            raise self.fail("no such file: the directory does not hold a saved graph "
                            "(save one with graph.serialize.save)") from None
        except (OSError, UnicodeDecodeError) as e:
            raise self.fail(f"cannot read the file: {e}") from None
        try:
            doc = json.loads(text)
        except json.JSONDecodeError as e:
            raise self.fail(f"invalid JSON (truncated or corrupt file?): {e}") from None
        if not isinstance(doc, dict):
            raise self.fail(f"expected a JSON object at the top level, got {_kind(doc)}")
        return doc

    def check_header(self, doc: dict) -> None:
        fmt = doc.get("format")
        if fmt != FORMAT_NAME:
            raise self.fail(f"not a saved graph: format is {fmt!r}, expected {FORMAT_NAME!r}")
        version = doc.get("version")
        if version != FORMAT_VERSION:
            raise self.fail(f"unsupported format version {version!r}: this version reads "
                            f"version {FORMAT_VERSION} only; save the graph again with a "
                            "matching version")

    def field(self, doc: dict, key: str, kind: type, optional: bool = False):
        if not isinstance(doc, dict):
            raise self.fail(f"expected a JSON object, got {_kind(doc)}")
        if key not in doc:
            if optional:
                return None
            raise self.fail(f"missing field {key!r}")
        value = doc[key]
        ok = isinstance(value, kind) and not (kind is int and isinstance(value, bool))
        if not ok:
            raise self.fail(f"field {key!r} should be a {_kind_name(kind)}, got {_kind(value)}")
        return value

    def read_resources(self, entries: list) -> dict[int, Any]:
        out = {}
        for entry in entries:
            self.where = f"{self.file}: resources"
            rid = self.field(entry, "id", int)
            self.where = f"{self.file}: resource {rid}"
            value = self.field(entry, "value", object, optional=self.external is not None)
            if value is not None:
                out[rid] = self.value(value)
        self.where = self.file
        return out

    # -- graphs -------------------------------------------------------------------
    def create_library(self, root: Graph, library: list) -> None:
        """Creates every library graph after the graph it is nested in."""
        docs = {}
        for doc in library:
            self.where = f"{self.file}: library"
            name = self.field(doc, "name", str)
            if name in docs or name == root.name:
                raise self.fail(f"two graphs are named {name!r}")
            docs[name] = doc
        remaining = list(docs)
        while remaining:
            progressed = False
            for name in list(remaining):
                self.where = f"{self.file}: function {name!r}"
                outer_name = docs[name].get("outer")
                if outer_name is None:
                    outer = root
                elif outer_name in self.graphs:
                    outer = self.graphs[outer_name].graph
                elif outer_name in docs:
                    continue
                else:
                    raise self.fail(f"is nested in graph {outer_name!r}, which is not in the file")
                g = Graph(name, outer=outer)
                root.library[name] = g
                self.graphs[name] = _Pending(g, docs[name])
                remaining.remove(name)
                progressed = True
            if not progressed:
                raise self.fail(f"functions {remaining} are nested in each other in a cycle")
        self.where = self.file

    def build(self, pending: _Pending) -> None:
        """Builds ``pending``'s nodes, after building the functions they use."""
        if pending.state == "built":
            return
        g = pending.graph
        if pending.state == "building":
            raise GraphFormatError(f"{self.file}: function {g.name!r} uses itself (recursion)")
        pending.state = "building"
        kind = "graph" if g.outer is None else "function"
        self.where = f"{self.file}: {kind} {g.name!r}"
        nodes = self.field(pending.doc, "nodes", list)
        refs = list(_function_refs(nodes))
        for name in refs:
            if name not in self.graphs:
                raise self.fail(f"a node uses function {name!r}, which is not in the file")
        for name in refs:
            self.build(self.graphs[name])
        by_name: dict[str, Node] = {}
        for doc in nodes:
            node = self.node(g, doc, by_name, kind)
            by_name[node.name] = node
        self.where = f"{self.file}: {kind} {g.name!r}"
        g.inputs = [self.ref(r, by_name, g, "inputs") for r in
                    self.field(pending.doc, "inputs", list)]
        g.outputs = [self.ref(r, by_name, g, "outputs") for r in
                     self.field(pending.doc, "outputs", list)]
        pending.state = "built"

    def node(self, g: Graph, doc: dict, by_name: dict, kind: str) -> Node:
        self.where = f"{self.file}: {kind} {g.name!r}"
        name = self.field(doc, "name", str)
        self.where = f"{self.file}: node {name!r} in {kind} {g.name!r}"
        if name in by_name:
            raise self.fail("a node of this name already exists in the graph")
        op = self.field(doc, "op", str)
        try:
            get_op(op)
        except NotFoundError:
            raise NotFoundError(message=f"{self.where}: op type {op!r} is not registered. The "
                                        "graph uses an op this version does not know.") from None
        inputs = [self.ref(r, by_name, g, "input") for r in self.field(doc, "inputs", list)]
        controls = []
        for c in self.field(doc, "control_inputs", list):
            if not isinstance(c, str) or c not in by_name:
                raise self.fail(f"control input {c!r} names no earlier node of the graph")
            controls.append(by_name[c])
        attrs = {}
        for key, value in self.field(doc, "attrs", dict).items():
            attrs[key] = self.attr(name, key, value)
        origin = self.origin(doc.get("origin"))
        try:
            node = g.add_node(op, inputs, attrs, name=name, control_inputs=controls,
                              origin=origin, exact_name=True)
        except (OpError, ValueError, TypeError, KeyError, IndexError) as e:
            raise self.fail(f"the node does not check: {e}") from None
        self.check_outputs(node, self.field(doc, "outputs", list))
        return node

    def attr(self, node_name: str, key: str, value) -> Any:
        where = self.where
        self.where = f"{where}, attr {key!r}"
        decoded = self.value(value)
        if key == RESOURCE_ATTR and isinstance(decoded, int) and not isinstance(decoded, bool):
            decoded = self.resource(decoded)
        self.where = where
        return decoded

    def resource(self, rid: int) -> int:
        if self.external is not None:
            if rid not in self.external:
                raise self.fail(f"refers to variable resource {rid}, which is not one of the "
                                "variables saved with the graph")
            return self.external[rid]
        if rid not in self.resource_map:
            if rid not in self.saved_resources:
                raise self.fail(f"refers to variable resource {rid}, whose value is not in "
                                "the file's resources")
            self.resource_map[rid] = resources.new_resource(self.saved_resources[rid])
        return self.resource_map[rid]

    def origin(self, doc) -> Origin | None:
        if doc is None:
            return None
        try:
            return Origin(self.field(doc, "file", str), self.field(doc, "line", int),
                          self.field(doc, "function", str), self.field(doc, "source", str))
        except GraphFormatError as e:
            raise self.fail(f"bad origin: {e}") from None

    def check_outputs(self, node: Node, saved: list) -> None:
        types = [self.tensor_type(t) for t in saved]
        same = len(types) == len(node.outputs) and all(
            a.dtype == b.dtype and a.shape.is_compatible_with(b.shape)
            for a, b in zip(types, node.outputs))
        if not same:
            raise self.fail(f"the file says the node outputs "
                            f"[{', '.join(map(str, types))}], but its inputs and attrs give "
                            f"[{', '.join(map(str, node.outputs))}]")

    def ref(self, doc, by_name: dict, g: Graph, what: str) -> Output:
        if (not isinstance(doc, list) or len(doc) != 2 or not isinstance(doc[0], str)
                or not isinstance(doc[1], int) or isinstance(doc[1], bool)):
            raise self.fail(f"{what} {doc!r} should be [node name, output index]")
        name, index = doc
        node = by_name.get(name)
        if node is None:
            raise self.fail(f"{what} {name}:{index} names a node that does not exist in "
                            f"graph {g.name!r} (or comes after this point)")
        if not 0 <= index < len(node.outputs):
            raise self.fail(f"{what} {name}:{index}: node {name!r} has only "
                            f"{len(node.outputs)} outputs")
        return node.output(index)

    def connect_captures(self, pending: _Pending) -> None:
        g = pending.graph
        self.where = f"{self.file}: captures of {g.name!r}"
        pairs = self.field(pending.doc, "captures", list)
        if pairs and g.outer is None:
            raise self.fail("the root graph cannot capture values: it has no outer graph")
        inner_nodes = {n.name: n for n in g.nodes}
        outer_nodes = {n.name: n for n in g.outer.nodes} if g.outer is not None else {}
        for pair in pairs:
            if not isinstance(pair, list) or len(pair) != 2:
                raise self.fail(f"capture {pair!r} should be [outer output, inner placeholder]")
            outer = self.ref(pair[0], outer_nodes, g.outer, "captured value")
            inner = self.ref(pair[1], inner_nodes, g, "capture placeholder")
            g.captures[outer] = inner

    # -- values -----------------------------------------------------------------------
    def value(self, v) -> Any:
        if v is None or isinstance(v, (bool, str, int, float)):
            return v
        if isinstance(v, list):
            return [self.value(x) for x in v]
        if not isinstance(v, dict):
            raise self.fail(f"a value of unknown kind: {_kind(v)}")
        tag = _tag_of(v)
        if tag is None:
            raise self.fail(f"a value of unknown kind {sorted(v)!r} (expected one of "
                            f"{', '.join(_TAGS)})")
        body = v[tag]
        try:
            if tag == "tuple":
                return tuple(self.value(x) for x in _expect(body, list))
            if tag == "dict":
                return {_hashable(self.value(k)): self.value(x) for k, x in
                        (_expect(p, list, 2) for p in _expect(body, list))}
            if tag == "bytes":
                return base64.b64decode(_expect(body, str), validate=True)
            if tag == "float":
                if body not in ("nan", "inf", "-inf"):
                    raise ValueError(f"{body!r} is not nan, inf or -inf")
                return float(body)
            if tag == "dtype":
                return as_dtype(_expect(body, str))
            if tag == "shape":
                return _shape(body)
            if tag == "tensor_type":
                return self.tensor_type(body)
            if tag == "function":
                return self.function(_expect(body, str))
            if tag == "array":
                return self.array(v)
            if tag == "scalar":
                return self.array(_expect(body, dict))[()]
        except GraphFormatError:
            raise
        except (ValueError, TypeError, KeyError) as e:
            raise self.fail(f"bad {tag!r} value {body!r}: {e}") from None
        raise AssertionError(tag)

    def tensor_type(self, doc) -> TensorType:
        try:
            return TensorType(as_dtype(_expect(doc["dtype"], str)), _shape(doc["shape"]))
        except (ValueError, TypeError, KeyError) as e:
            raise self.fail(f"bad tensor type {doc!r}: {e}") from None

    def function(self, name: str) -> Graph:
        pending = self.graphs.get(name)
        if pending is None:
            raise self.fail(f"uses function {name!r}, which is not in the file")
        return pending.graph

    def array(self, entry: dict) -> np.ndarray:
        name = _expect(entry["array"], str)
        shape = tuple(_expect(entry["shape"], list))
        dtype = _expect(entry["dtype"], str)
        data = self.read_npy(name)
        if dtype == "string":
            if data.dtype.kind != "S" or data.shape != shape:
                raise self.fail(f"{name} holds {data.dtype}{list(data.shape)}, expected "
                                f"fixed-width bytes of shape {list(shape)}")
            return self.strings(data, entry.get("lengths"))
        if data.dtype.str != dtype or data.shape != shape:
            raise self.fail(f"{name} holds {data.dtype.str}{list(data.shape)}, but graph.json "
                            f"says {dtype}{list(shape)}: the file is corrupt or was replaced")
        return data

    def strings(self, data: np.ndarray, lengths_file) -> np.ndarray:
        out = np.empty(data.shape, dtype=object)
        if lengths_file is None:
            for idx, x in np.ndenumerate(data):
                out[idx] = bytes(x)
            return out
        lengths = self.read_npy(_expect(lengths_file, str))
        width = data.dtype.itemsize
        if lengths.shape != data.shape or lengths.dtype.kind != "i" or (
                lengths.size and (lengths.min() < 0 or lengths.max() > width)):
            raise self.fail(f"{lengths_file} does not hold the lengths of the strings")
        raw = np.ascontiguousarray(data).view(np.uint8).reshape(data.shape + (width,))
        for idx in np.ndindex(data.shape):
            out[idx] = raw[idx][:int(lengths[idx])].tobytes()
        return out

    def read_npy(self, name: str) -> np.ndarray:
        if os.path.basename(name) != name or name in ("", ".", ".."):
            raise self.fail(f"array file {name!r} is not a plain file name in the directory")
        file = os.path.join(self.path, name)
        try:
            data = np.load(file, allow_pickle=False)
        except FileNotFoundError:
            raise self.fail(f"array file {file} is missing") from None
        except Exception as e:  # numpy raises many kinds for a damaged file
            raise self.fail(f"array file {file} is truncated or corrupt "
                            f"({type(e).__name__}: {e})") from None
        if not isinstance(data, np.ndarray):
            raise self.fail(f"array file {file} does not hold one array")
        return data


_TAGS = ("tuple", "dict", "bytes", "float", "dtype", "shape", "tensor_type", "function",
         "array", "scalar")


_ARRAY_KEYS = {"array", "dtype", "shape", "lengths"}


def _tag_of(v: dict) -> str | None:
    """The kind of a tagged value: its one key, or "array" for an array entry."""
    if "array" in v:
        return "array" if set(v) <= _ARRAY_KEYS else None
    if len(v) == 1:
        (key,) = v
        return key if key in _TAGS else None
    return None


def _function_refs(value):
    """Names of functions referenced anywhere in a JSON document (``{"function": name}``)."""
    if isinstance(value, dict):
        if "function" in value and isinstance(value["function"], str) and len(value) == 1:
            yield value["function"]
        else:
            for v in value.values():
                yield from _function_refs(v)
    elif isinstance(value, list):
        for v in value:
            yield from _function_refs(v)


def _expect(value, kind: type, length: int | None = None):
    if not isinstance(value, kind) or (length is not None and len(value) != length):
        raise TypeError(f"expected a {_kind_name(kind)}"
                        f"{'' if length is None else f' of length {length}'}, got {_kind(value)}")
    return value


def _shape(dims) -> TensorShape:
    if dims is None:
        return TensorShape(None)
    for d in _expect(dims, list):
        if d is not None and (not isinstance(d, int) or isinstance(d, bool) or d < 0):
            raise ValueError(f"bad dimension {d!r}")
    return TensorShape(dims)


def _hashable(key):
    if isinstance(key, list):
        raise TypeError("a dict key cannot be a list")
    return key


def _kind(value) -> str:
    return {dict: "an object", list: "an array", str: "a string", bool: "a boolean",
            int: "an integer", float: "a number", type(None): "null"}.get(type(value),
                                                                         type(value).__name__)


def _kind_name(kind: type) -> str:
    return {dict: "JSON object", list: "JSON array", str: "string", int: "integer",
            object: "value"}.get(kind, kind.__name__)
