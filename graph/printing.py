"""Text views of a graph: a TensorFlow-style GraphDef, a compact listing, Graphviz DOT.

``as_graph_def`` builds small records shaped like TensorFlow's protos
(``GraphDef.node[i].name/.op/.input/.attr``, ``library.function[j]``) so that
code and habits written against ``graph.as_graph_def()`` carry over, and
``str()`` of any record prints protobuf text format the way TensorFlow does.
Our attrs are mapped onto TensorFlow's attr names where there is a natural
counterpart (``T``, ``Tout``, ``output_shapes``...). The records are a view
for reading: they are not parsed back (``graph.serialize`` saves graphs).

``format_graph`` is the one-line-per-node listing the CLI shows, and
``to_dot`` draws control-flow bodies as nested clusters.
"""
from __future__ import annotations

import os
import re
from dataclasses import dataclass, field, fields

import numpy as np

from graph.dtypes import DType
from graph.ir import Graph, Node, Output, TensorType
from graph.shapes import TensorShape

PRODUCER = 1        # bumped with graph.serialize.FORMAT_VERSION
MIN_CONSUMER = 1
_INLINE_VALUES = 16  # constants with more elements print as tensor_content bytes


# -- proto-like records -----------------------------------------------------------

class _Text:
    """Mixin: ``str()`` prints protobuf text format."""

    def __str__(self) -> str:
        return "".join(_message_lines(self, 0))


@dataclass(frozen=True, slots=True)
class Dim(_Text):
    size: int  # -1 for an unknown dimension, as TensorFlow writes it


@dataclass(frozen=True, slots=True)
class TensorShapeProto(_Text):
    dim: list = field(default_factory=list)
    unknown_rank: bool = False


@dataclass(frozen=True, slots=True)
class TensorProto(_Text):
    dtype: DType
    tensor_shape: TensorShapeProto
    tensor_content: bytes = b""
    half_val: list = field(default_factory=list)
    float_val: list = field(default_factory=list)
    double_val: list = field(default_factory=list)
    int_val: list = field(default_factory=list)
    string_val: list = field(default_factory=list)
    scomplex_val: list = field(default_factory=list)
    int64_val: list = field(default_factory=list)
    bool_val: list = field(default_factory=list)
    dcomplex_val: list = field(default_factory=list)
    uint32_val: list = field(default_factory=list)
    uint64_val: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class NameAttrList(_Text):
    name: str


@dataclass(frozen=True, slots=True)
class ListValue(_Text):
    s: list = field(default_factory=list)
    i: list = field(default_factory=list)
    f: list = field(default_factory=list)
    b: list = field(default_factory=list)
    type: list = field(default_factory=list)
    shape: list = field(default_factory=list)
    tensor: list = field(default_factory=list)
    func: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class AttrValue(_Text):
    """One of its fields is set, as in TensorFlow's ``AttrValue`` oneof."""

    s: bytes | None = None
    i: int | None = None
    f: float | None = None
    b: bool | None = None
    type: DType | None = None
    shape: TensorShapeProto | None = None
    tensor: TensorProto | None = None
    list: ListValue | None = None
    func: NameAttrList | None = None


@dataclass(frozen=True, slots=True)
class NodeDef(_Text):
    name: str
    op: str
    input: list = field(default_factory=list)
    device: str = ""
    attr: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ArgDef(_Text):
    name: str
    type: DType


@dataclass(frozen=True, slots=True)
class OpSignature(_Text):
    name: str
    input_arg: list = field(default_factory=list)
    output_arg: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class FunctionDef(_Text):
    signature: OpSignature
    node_def: list = field(default_factory=list)
    ret: dict = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class FunctionDefLibrary(_Text):
    function: list = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class VersionDef(_Text):
    producer: int = PRODUCER
    min_consumer: int = MIN_CONSUMER


@dataclass(frozen=True, slots=True)
class GraphDef(_Text):
    node: list = field(default_factory=list)
    library: FunctionDefLibrary = field(default_factory=FunctionDefLibrary)
    versions: VersionDef = field(default_factory=VersionDef)


# -- protobuf text format ------------------------------------------------------------

def _message_lines(msg, depth: int):
    """Yields the text-format lines of a record's set fields, in declaration order."""
    pad = "  " * depth
    for f in fields(msg):
        value = getattr(msg, f.name)
        if isinstance(value, dict):  # a proto map: entries sorted by key
            for key in sorted(value):
                yield f"{pad}{f.name} {{\n"
                yield f"{pad}  key: {_scalar(key)}\n"
                yield from _field_lines("value", value[key], depth + 1)
                yield f"{pad}}}\n"
        elif isinstance(value, list):
            for item in value:
                yield from _field_lines(f.name, item, depth)
        elif _is_set(f.name, value):
            yield from _field_lines(f.name, value, depth)


def _is_set(name: str, value) -> bool:
    if value is None:
        return False
    if name in ("device", "tensor_content", "unknown_rank"):
        return bool(value)  # proto3 default values are not printed
    if name == "library":
        return bool(value.function)  # TensorFlow leaves an empty library out
    return True


def _field_lines(name: str, value, depth: int):
    pad = "  " * depth
    if isinstance(value, _Text):
        yield f"{pad}{name} {{\n"
        yield from _message_lines(value, depth + 1)
        yield f"{pad}}}\n"
    else:
        yield f"{pad}{name}: {_scalar(value)}\n"


def _scalar(value) -> str:
    if isinstance(value, DType):
        return value.enum
    if isinstance(value, (bool, np.bool_)):
        return "true" if value else "false"
    if isinstance(value, (str, bytes)):
        return '"' + c_escape(value) + '"'
    if isinstance(value, (float, np.floating)):
        return _float_text(value)
    return str(int(value))


def _float_text(value) -> str:
    """The shortest text that reads back as the same float (``1``, ``0.1``, ``nan``)."""
    text = str(value if isinstance(value, np.floating) else np.float64(value))
    return text[:-2] if text.endswith(".0") else text


def c_escape(value: str | bytes) -> str:
    """Escapes bytes the way protobuf text format does (octal for non-printables)."""
    data = value.encode("utf-8") if isinstance(value, str) else bytes(value)
    out = []
    for byte in data:
        ch = chr(byte)
        if ch in _ESCAPES:
            out.append(_ESCAPES[ch])
        elif 0x20 <= byte < 0x7F:
            out.append(ch)
        else:
            out.append(f"\\{byte:03o}")
    return "".join(out)


_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "'": "\\'", "\\": "\\\\"}


# -- building a GraphDef ----------------------------------------------------------------

def as_graph_def(graph: Graph) -> GraphDef:
    """A TensorFlow-style GraphDef of ``graph`` and of every sub-graph it reaches."""
    user_names = {o.node.name for o in graph.inputs}
    nodes = [_node_def(n, _graph_input_name, n.name in user_names) for n in graph.nodes]
    functions = [_function_def(g) for g in sorted(reachable_functions(graph),
                                                  key=lambda g: g.name)]
    return GraphDef(node=nodes, library=FunctionDefLibrary(function=functions))


def reachable_functions(graph: Graph) -> list[Graph]:
    """Library sub-graphs used by ``graph``'s nodes, transitively, in first-use order."""
    seen: dict[int, Graph] = {}
    stack = [graph]
    while stack:
        g = stack.pop(0)
        for node in g.nodes:
            for sub in _subgraphs(node.attrs.values()):
                if id(sub) not in seen and sub is not graph:
                    seen[id(sub)] = sub
                    stack.append(sub)
    return list(seen.values())


def _subgraphs(values):
    for v in values:
        if isinstance(v, Graph):
            yield v
        elif isinstance(v, (list, tuple)):
            yield from _subgraphs(v)
        elif isinstance(v, dict):
            yield from _subgraphs(v.values())


def _graph_input_name(output: Output) -> str:
    return output.input_name


def _node_def(node: Node, input_name, user_specified: bool = False) -> NodeDef:
    inputs = [input_name(i) for i in node.inputs]
    inputs += ["^" + c.name for c in node.control_inputs]
    attrs = {k: a for k, a in ((k, _attr_value(v)) for k, v in _tf_attrs(node).items())
             if a is not None}
    if user_specified:
        attrs["_user_specified_name"] = AttrValue(s=node.name.encode())
    return NodeDef(name=node.name, op=node.op, input=inputs, attr=attrs)


_IF_OPS = ("If", "StatelessIf")
_WHILE_OPS = ("While", "StatelessWhile")


def _tf_attrs(node: Node) -> dict:
    """``node``'s attrs under TensorFlow's attr names."""
    attrs = dict(node.attrs)
    out_types = attrs.pop("output_types", None) if node.op in _IF_OPS + _WHILE_OPS else None
    if node.op in _IF_OPS:
        attrs["Tcond"] = node.inputs[0].dtype
        attrs["Tin"] = [i.dtype for i in node.inputs[1:]]
        attrs["Tout"] = [t.dtype for t in node.outputs]
    elif node.op in _WHILE_OPS:
        attrs["T"] = [i.dtype for i in node.inputs]
    elif node.inputs and "T" not in attrs and node.op not in ("Placeholder", "Const"):
        dtypes = {i.dtype for i in node.inputs}
        if len(dtypes) == 1:
            attrs["T"] = node.inputs[0].dtype
    if out_types is not None:
        attrs["output_shapes"] = [t.shape for t in node.outputs]
    return attrs


def _attr_value(value) -> AttrValue | None:
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        return AttrValue(b=bool(value))
    if isinstance(value, int):
        return AttrValue(i=int(value))
    if isinstance(value, float):
        return AttrValue(f=value)
    if isinstance(value, str):
        return AttrValue(s=value.encode())
    if isinstance(value, bytes):
        return AttrValue(s=value)
    if isinstance(value, DType):
        return AttrValue(type=value)
    if isinstance(value, TensorShape):
        return AttrValue(shape=_shape_proto(value))
    if isinstance(value, TensorType):
        return AttrValue(type=value.dtype)
    if isinstance(value, (np.ndarray, np.generic)):
        return AttrValue(tensor=tensor_proto(np.asarray(value)))
    if isinstance(value, Graph):
        return AttrValue(func=NameAttrList(value.name))
    if isinstance(value, (list, tuple)):
        listed = _list_value(value)
        if listed is not None:
            return AttrValue(list=listed)
    return AttrValue(s=repr(value).encode())  # no TensorFlow counterpart: show it as text


def _list_value(values) -> ListValue | None:
    """A ListValue when all items have one kind TensorFlow lists can hold, else None."""
    items = [_attr_value(v) for v in values]
    if any(a is None or a.list is not None for a in items):
        return None
    kinds = {next(f.name for f in fields(a) if getattr(a, f.name) is not None) for a in items}
    if len(kinds) > 1:
        return None
    if not kinds:
        return ListValue()
    kind = kinds.pop()
    return ListValue(**{kind: [getattr(a, kind) for a in items]})


def _shape_proto(shape: TensorShape) -> TensorShapeProto:
    if shape.rank is None:
        return TensorShapeProto(unknown_rank=True)
    return TensorShapeProto(dim=[Dim(-1 if d is None else d) for d in shape.as_tuple()])


_VALUE_FIELDS = {"float16": "half_val", "float32": "float_val", "float64": "double_val",
                 "int8": "int_val", "int16": "int_val", "int32": "int_val", "uint8": "int_val",
                 "int64": "int64_val", "bool": "bool_val", "string": "string_val",
                 "uint16": "int_val", "uint32": "uint32_val", "uint64": "uint64_val",
                 "complex64": "scomplex_val", "complex128": "dcomplex_val"}


def tensor_proto(value: np.ndarray) -> TensorProto:
    """A TensorProto of ``value``: small tensors list their values, big ones their bytes."""
    from graph.dtypes import as_dtype

    dtype = as_dtype(value.dtype)
    shape = _shape_proto(TensorShape(value.shape))
    field_name = _VALUE_FIELDS.get(dtype.name)
    if field_name is None:
        return TensorProto(dtype, shape, string_val=[repr(value).encode()])
    flat = value.reshape(-1)
    if field_name == "string_val":
        return TensorProto(dtype, shape, string_val=[_as_bytes(v) for v in flat])
    if flat.size > _INLINE_VALUES:
        return TensorProto(dtype, shape, tensor_content=np.ascontiguousarray(flat).tobytes())
    if field_name == "half_val":
        return TensorProto(dtype, shape, half_val=[int(v) for v in flat.view(np.uint16)])
    if field_name == "bool_val":
        return TensorProto(dtype, shape, bool_val=[bool(v) for v in flat])
    if field_name in ("int_val", "int64_val", "uint32_val", "uint64_val"):
        return TensorProto(dtype, shape, **{field_name: [int(v) for v in flat]})
    if field_name in ("scomplex_val", "dcomplex_val"):  # real and imaginary parts, interleaved
        return TensorProto(dtype, shape, **{field_name: list(flat.view(flat.real.dtype))})
    return TensorProto(dtype, shape, **{field_name: list(flat)})


def _as_bytes(v) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode()


# -- functions -----------------------------------------------------------------------------

def _arg_name(name: str, used: set[str]) -> str:
    """A valid, unique TensorFlow argument name from a node name (``cond/x`` → ``cond_x``)."""
    base = re.sub(r"[^a-z0-9_]", "_", name.lower())
    if not base or not base[0].isalpha():
        base = "arg_" + base
    candidate, n = base, 0
    while candidate in used:
        n += 1
        candidate = f"{base}_{n}"
    used.add(candidate)
    return candidate


def _function_def(graph: Graph) -> FunctionDef:
    used: set[str] = set()
    arg_of = {o: _arg_name(o.node.name, used) for o in graph.inputs}

    def input_name(output: Output) -> str:
        if output in arg_of:
            return arg_of[output]
        return f"{output.node.name}:output:{output.index}"

    input_args = [ArgDef(arg_of[o], o.dtype) for o in graph.inputs]
    output_args, ret = [], {}
    for o in graph.outputs:
        name = _arg_name(o.node.name, used)
        output_args.append(ArgDef(name, o.dtype))
        ret[name] = input_name(o)
    nodes = [_node_def(n, input_name) for n in graph.nodes
             if not (n.op == "Placeholder" and n.output(0) in arg_of)]
    return FunctionDef(OpSignature(graph.name, input_args, output_args), nodes, ret)


# -- compact listing --------------------------------------------------------------------------

_REDUNDANT = {"Placeholder": ("dtype", "shape"), "Const": ("dtype",)}


def format_graph(graph: Graph) -> str:
    """One line per node (``name = Op(inputs) : dtype[shape]  # file:line``), sub-graphs after.

    Each control-flow body is listed after the graph that uses it, indented
    one level deeper, with its inputs, outputs and captured outer values.
    """
    lines: list[str] = []
    _list_graph(graph, "graph", 0, lines, set())
    return "\n".join(lines) + "\n"


def _list_graph(graph: Graph, kind: str, depth: int, lines: list[str], done: set[int]) -> None:
    pad = "  " * depth
    ins = ", ".join(f"{o.input_name}: {o.type}" for o in graph.inputs)
    outs = ", ".join(o.input_name for o in graph.outputs)
    lines.append(f"{pad}{kind} {graph.name}({ins}) -> ({outs})")
    if graph.captures:
        caps = ", ".join(f"{outer.input_name} -> {inner.input_name}"
                         for outer, inner in graph.captures.items())
        lines.append(f"{pad}  captures: {caps}")
    for node in graph.nodes:
        lines.append(pad + "  " + format_node(node))
    for node in graph.nodes:
        for sub in _subgraphs(node.attrs.values()):
            if id(sub) not in done:
                done.add(id(sub))
                _list_graph(sub, "function", depth + 1, lines, done)


def format_node(node: Node) -> str:
    """``name = Op(inputs, attr=value) : dtype[shape]  # file:line`` for one node."""
    args = [i.input_name for i in node.inputs] + ["^" + c.name for c in node.control_inputs]
    skip = _REDUNDANT.get(node.op, ()) + ("output_types",)
    args += [f"{k}={_short(v)}" for k, v in node.attrs.items() if k not in skip]
    text = f"{node.name} = {node.op}({', '.join(args)})"
    if len(node.outputs) == 1:
        text += f" : {node.outputs[0]}"
    elif node.outputs:
        text += " : (" + ", ".join(str(t) for t in node.outputs) + ")"
    if node.origin is not None:
        text += f"  # {os.path.basename(node.origin.file)}:{node.origin.line}"
    return text


def _short(value, limit: int = 40) -> str:
    if isinstance(value, Graph):
        text = value.name
    elif isinstance(value, DType):
        text = value.name
    elif isinstance(value, TensorShape):
        text = "?" if value.rank is None else str(list(value.as_tuple()))
    elif isinstance(value, (np.ndarray, np.generic)):
        text = np.array2string(np.asarray(value), threshold=6, separator=" ")
        text = " ".join(text.split())
    elif isinstance(value, (list, tuple)):
        inner = ", ".join(_short(v, limit) for v in value)
        text = f"[{inner}]" if isinstance(value, list) else f"({inner}{',' if len(value) == 1 else ''})"
    else:
        text = repr(value)
    return text if len(text) <= limit else text[:limit - 3] + "..."


# -- Graphviz DOT ---------------------------------------------------------------------------------

def dot_quote(text: str) -> str:
    """A DOT double-quoted string holding ``text`` (newlines become ``\\n`` line breaks)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def to_dot(graph: Graph) -> str:
    """Graphviz DOT: one box per node, edges for data (solid) and control (dashed) inputs,
    each control-flow body a cluster (nested as the bodies nest), dotted edges from a
    control-flow node to its bodies and from captured outer values to their placeholders."""
    lines = ["digraph " + dot_quote(graph.name) + " {",
             "  compound=true;",
             '  node [shape=box, fontname="Helvetica", fontsize=10];',
             '  edge [fontname="Helvetica", fontsize=9];']
    ids: dict[tuple[int, str], str] = {}
    edges: list[str] = []
    _dot_graph(graph, None, 1, lines, edges, ids, set())
    lines += ["  " + e for e in edges]
    lines.append("}")
    return "\n".join(lines) + "\n"


def _dot_id(ids: dict, graph: Graph, node: Node, root: bool) -> str:
    key = (id(graph), node.name)
    if key not in ids:
        ids[key] = node.name if root else f"{graph.name}/{node.name}"
    return ids[key]


def _dot_graph(graph: Graph, header: str | None, depth: int, lines: list[str], edges: list[str],
               ids: dict, done: set[int]) -> None:
    pad = "  " * depth
    root = header is None
    if header is not None:
        lines.append(f"{pad}{dot_quote(header)} [label={dot_quote(graph.name)}, shape=folder];")
    for node in graph.nodes:
        nid = _dot_id(ids, graph, node, root)
        label = f"{node.name}\n{node.op}"
        if len(node.outputs) == 1:
            label += f"\n{node.outputs[0]}"
        style = ", style=rounded" if node.op == "Placeholder" else ""
        lines.append(f"{pad}{dot_quote(nid)} [label={dot_quote(label)}{style}];")
        for i in node.inputs:
            src = dot_quote(_dot_id(ids, graph, i.node, root))
            attrs = f" [label={dot_quote(str(i.index))}]" if len(i.node.outputs) > 1 else ""
            edges.append(f"{src} -> {dot_quote(nid)}{attrs};")
        for c in node.control_inputs:
            edges.append(f"{dot_quote(_dot_id(ids, graph, c, root))} -> {dot_quote(nid)} "
                         "[style=dashed];")
    for node in graph.nodes:
        for attr, sub in _named_subgraphs(node.attrs):
            if id(sub) in done:
                continue
            done.add(id(sub))
            sub_header = f"function:{sub.name}"
            lines.append(f"{pad}subgraph {dot_quote('cluster_' + sub.name)} {{")
            lines.append(f"{pad}  label={dot_quote(sub.name)};")
            _dot_graph(sub, sub_header, depth + 1, lines, edges, ids, done)
            lines.append(f"{pad}}}")
            edges.append(f"{dot_quote(_dot_id(ids, graph, node, root))} -> "
                         f"{dot_quote(sub_header)} [style=dotted, label={dot_quote(attr)}];")
            for outer, inner in sub.captures.items():
                if outer.node.graph is graph:
                    edges.append(
                        f"{dot_quote(_dot_id(ids, graph, outer.node, root))} -> "
                        f"{dot_quote(_dot_id(ids, sub, inner.node, False))} "
                        f"[style=dotted, color=gray, label={dot_quote('capture')}];")


def _named_subgraphs(attrs: dict):
    for name, value in attrs.items():
        for sub in _subgraphs([value]):
            yield name, sub
