"""What every pass needs: copying a graph family, walking it, rewiring uses.

Passes never touch a graph a caller may still hold (a ConcreteFunction shows
its graph to users): ``copy_graph`` makes a private copy of a root graph and
every sub-graph it reaches, keeping names, attrs and origins, and the passes
then rewrite that copy in place.
"""
from __future__ import annotations

from typing import Iterable, Iterator

import numpy as np

from graph import dtypes
from graph.dtypes import DType
from graph.ir import Graph, Node, Output, TensorType, _set_output_index, _set_output_node
from graph.shapes import TensorShape
from graph.registry import get_op

# Ops that draw random numbers are registered stateful, but name them too so
# that a future stateless registration can never be folded or merged.
_RANDOM_WORDS = ("Random", "Multinomial", "Shuffle", "TruncatedNormal", "Dropout")


def is_random(node: Node) -> bool:
    return any(w in node.op for w in _RANDOM_WORDS)


_purity: dict[str, tuple[object, bool]] = {}  # op name -> (its OpDef, pure); passes ask often


def is_pure(node: Node) -> bool:
    """Same inputs always give the same values and nothing else happens."""
    opdef = get_op(node.op)
    known = _purity.get(node.op)
    if known is None or known[0] is not opdef:  # first sight, or the op was registered again
        known = _purity[node.op] = (opdef, not opdef.stateful and not is_random(node))
    return known[1]


_plain: dict[object, bool] = {}  # DType -> numeric, bool or string


def holds_plain_values(node: Node) -> bool:
    """Every output is a numeric, bool or string tensor (not a resource or variant)."""
    if not node.outputs:
        return False
    for t in node.outputs:
        dtype = t.dtype
        plain = _plain.get(dtype)
        if plain is None:
            plain = _plain[dtype] = dtype.is_numeric or dtype.is_bool or dtype.is_string
        if not plain:
            return False
    return True


def removable_identity(node: Node, waited_on) -> bool:
    """``node`` is an Identity its readers can bypass (read its input directly): it
    neither waits on anything nor is waited on (``waited_on``: ids), so no ordering
    changes."""
    return node.op == "Identity" and len(node.inputs) == 1 and not node.control_inputs \
        and id(node) not in waited_on


def graphs_in(value) -> Iterator[Graph]:
    """The Graphs inside an attr value."""
    if isinstance(value, Graph):
        yield value
    elif isinstance(value, (list, tuple)):
        for v in value:
            yield from graphs_in(v)
    elif isinstance(value, dict):
        for v in value.values():
            yield from graphs_in(v)


def map_graphs(value, mapping: dict[int, Graph]):
    """``value`` with every Graph replaced by ``mapping[id(graph)]`` (copied containers)."""
    if isinstance(value, Graph):
        return mapping.get(id(value), value)
    if isinstance(value, list):
        return [map_graphs(v, mapping) for v in value]
    if isinstance(value, tuple):
        return tuple(map_graphs(v, mapping) for v in value)
    if isinstance(value, dict):
        return {k: map_graphs(v, mapping) for k, v in value.items()}
    return value


_CONTAINERS = (list, tuple, dict)
# attr value types that never hold a Graph: one set lookup skips them
_LEAVES = frozenset({type(None), bool, int, float, str, bytes, np.ndarray, DType, TensorShape,
                     TensorType, *{d.numpy_dtype.type for d in dtypes.ALL}} - {np.object_})


def subgraphs(node: Node) -> list[Graph]:
    """The Graphs in ``node``'s attrs (this runs for every node of every pass: the common
    case, attrs of plain values only, is one test in C)."""
    attrs = node.attrs
    if not attrs or _LEAVES.issuperset(map(type, attrs.values())):
        return _NONE
    found = None
    for v in attrs.values():
        t = type(v)
        if t in _LEAVES:
            continue
        if t is Graph:
            if found is None:
                found = []
            found.append(v)
        elif t in _CONTAINERS or isinstance(v, _CONTAINERS):
            if not isinstance(v, dict) and _LEAVES.issuperset(map(type, v)):
                continue  # a list of plain values (a loop's output types)
            inner = list(graphs_in(v))
            if inner:
                found = (found or []) + inner
    return found or _NONE


_NONE: list = []  # shared empty result: callers only read it


def all_graphs(root: Graph) -> list[Graph]:
    """``root`` and every graph its nodes reach through attrs, innermost first."""
    return _family(root, None)


def _family(root: Graph, holders: dict | None, waited: set | None = None) -> list[Graph]:
    """``all_graphs(root)``; ``holders`` (if given) receives id(node) -> its sub-graphs for
    every node holding some (so a copy need not look at every node's attrs again), and
    ``waited`` (if given) the ids of the nodes some node waits on (a control input)."""
    order: list[Graph] = []
    seen: set[int] = set()

    def visit(g: Graph) -> None:
        seen.add(id(g))
        for node in g.nodes:
            if waited is not None and node.control_inputs:
                waited.update(map(id, node.control_inputs))
            subs = subgraphs(node)
            if subs:
                if holders is not None:
                    holders[id(node)] = subs
                for sub in subs:
                    if id(sub) not in seen:
                        visit(sub)
        order.append(g)
    visit(root)
    return order


def copy_graph(root: Graph, library: bool = True, family: list | None = None,
               identities: bool = True) -> Graph:
    """A deep copy of ``root``, its library and every sub-graph it reaches.

    Nodes keep their names and origins; attrs are copied with sub-graphs
    replaced by their copies; array values are shared (graphs never mutate them).
    ``library=False`` leaves out library graphs that no node reaches (traces
    that were discarded, such as a loop body retraced with relaxed shapes).
    ``family`` (a list, if given) receives ``all_graphs`` of the copy, which the
    walk here already knows (the passes would walk the copy again for it).
    ``identities=False`` leaves out the Identity nodes that identity removal
    drops (``removable_identity``): their readers read the copy of their input.
    Tracing puts an Identity behind every branch and loop-body result, a
    fifth of a traced function's nodes; the optimizer removes them first, and
    copying them only to drop them (and rewire their readers in a walk of its
    own) was a tenth of optimizing.
    Written for speed: it runs on every trace of an optimized tf.function.
    """
    holders: dict[int, list] = {}
    waited: set[int] | None = None if identities else set()
    graphs = _family(root, holders, waited)
    n_family = len(graphs)
    if library:
        seen = {id(g) for g in graphs}
        for g in root.library.values():
            if id(g) not in seen:
                for h in _family(g, holders):
                    if id(h) not in seen:
                        seen.add(id(h))
                        graphs.append(h)
    gmap: dict[int, Graph] = {}
    shared: dict[int, object] = {}  # id of a table -> its copy (graphs may share one)
    new_library: dict[str, Graph] = {}
    new_graph = Graph.__new__

    def fresh(table):
        made = shared.get(id(table))
        if made is None:
            made = shared[id(table)] = table.copy()
        return made

    root_library = root.library
    for g in graphs:
        new = new_graph(Graph)
        d = new.__dict__
        d.update(g.__dict__)
        d["nodes"], d["inputs"], d["outputs"], d["captures"] = [], [], [], {}
        d["library"] = new_library if g.library is root_library else fresh(g.library)
        d["_name_counts"] = fresh(g._name_counts)
        d["_used_names"] = fresh(g._used_names)
        d["_scopes"] = g._scopes.copy()
        gmap[id(g)] = new
    # id of an original node -> (its copy, the copy's output 0): inputs are looked up here
    copies: dict[int, tuple[Node, Output]] = {}
    get = copies.get
    new_node, new_output = Node.__new__, Output.__new__

    def out(o: Output) -> Output:
        found = get(id(o.node))
        if found is None:
            return o
        return Output(found[0], o.index) if o.index else found[1]

    for g in graphs:
        new = gmap[id(g)]
        append = new.nodes.append
        for node in g.nodes:
            # Node.__init__ copies its lists again, Output.__init__ is a frame: both inlined.
            ins = []
            for o in node.inputs:
                found = get(id(o.node))
                ins.append(o if found is None else found[1] if not o.index
                           else Output(found[0], o.index))
            if waited is not None and node.op == "Identity" and removable_identity(node, waited):
                copies[id(node)] = (None, ins[0])  # (its one output: index 0 only)
                continue
            controls = node.control_inputs
            copy = new_node(Node)
            copy.graph, copy.name, copy.op, copy.origin = new, node.name, node.op, node.origin
            copy.inputs = ins
            copy.control_inputs = [get(id(c), (c,))[0] for c in controls] if controls else []
            copy.attrs = map_graphs(node.attrs, gmap) if id(node) in holders \
                else node.attrs.copy()
            copy.outputs = node.outputs.copy()
            first = new_output(Output)
            _set_output_node(first, copy)
            _set_output_index(first, 0)
            copies[id(node)] = (copy, first)
            append(copy)
    for g in graphs:
        new = gmap[id(g)]
        new.outer = gmap.get(id(g.outer), g.outer) if g.outer is not None else None
        new.inputs = [out(i) for i in g.inputs]
        new.outputs = [out(o) for o in g.outputs]
        if g.captures:
            new.captures = {out(k): out(v) for k, v in g.captures.items()}
    for name, g in root_library.items():
        if library or id(g) in gmap:
            new_library[name] = gmap.get(id(g), g)
    if family is not None:  # (same nodes in the same order: the same walk order)
        family.extend(gmap[id(g)] for g in graphs[:n_family])
    return gmap[id(root)]


def replace_uses(graph: Graph, mapping: dict[Output, Output]) -> None:
    """Makes every reader of an output in ``mapping`` read its replacement instead.

    Covers node inputs and outputs of ``graph``, and the capture tables of
    its sub-graphs (which name outer outputs).
    """
    if not mapping:
        return

    def resolve(o: Output) -> Output:
        seen = 0
        while o in mapping and seen < 1000:
            o, seen = mapping[o], seen + 1
        return o

    sources = {id(o.node) for o in mapping}  # a cheap test before hashing Outputs
    for node in graph.nodes:
        for i in node.inputs:
            if id(i.node) in sources and i in mapping:
                node.inputs = [resolve(i) for i in node.inputs]
                break
        # Captures chain one level at a time (runtime.ops.core.capture), so only the
        # sub-graphs held by this graph's own nodes can name its outputs.
        for g in subgraphs(node):
            if g.captures and any(k in mapping for k in g.captures):
                g.captures = {resolve(k): v for k, v in g.captures.items()}
    graph.outputs = [resolve(o) for o in graph.outputs]


def remove_nodes(graph: Graph, dead: Iterable[Node]) -> None:
    dead_ids = {id(n) for n in dead}
    if dead_ids:
        graph.nodes = [n for n in graph.nodes if id(n) not in dead_ids]


def consumers(graph: Graph) -> dict[Output, list[Node]]:
    result: dict[Output, list[Node]] = {}
    for node in graph.nodes:
        for i in node.inputs:
            result.setdefault(i, []).append(node)
    return result


def control_dependents(graph: Graph) -> set[int]:
    """ids of nodes that some node lists as a control input."""
    return {id(c) for node in graph.nodes for c in node.control_inputs}
