"""The IR: a Graph of Nodes in creation order, each with typed outputs and an origin.

Control-flow bodies are Graphs too, kept by name in a function library that a
root graph shares with all of its sub-graphs, as TensorFlow keeps them.
"""
from __future__ import annotations

import itertools
from dataclasses import dataclass
from typing import Any

import numpy as np

from graph.dtypes import DType
from graph.errors import InvalidArgumentError, NotFoundError
from graph.registry import _REGISTRY, get_op
from graph.shapes import TensorShape, as_shape


@dataclass(frozen=True, slots=True)
class Origin:
    """Where a node came from in user code."""

    file: str
    line: int
    function: str = ""
    source: str = ""

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}"
        return f"{where} in {self.function}" if self.function else where


@dataclass(frozen=True, slots=True, init=False)
class TensorType:
    dtype: DType
    shape: TensorShape

    def __init__(self, dtype: DType, shape):  # (every node makes these: no dataclass init)
        _set_type_dtype(self, dtype)
        _set_type_shape(self, shape if shape.__class__ is TensorShape else as_shape(shape))

    def __str__(self) -> str:
        return f"{self.dtype.name}{list(self.shape.as_tuple()) if self.shape.rank is not None else '[?]'}"


_set_type_dtype = TensorType.__dict__["dtype"].__set__  # (slot setters: still frozen)
_set_type_shape = TensorType.__dict__["shape"].__set__


@dataclass(frozen=True, slots=True, init=False)
class Output:
    """One output of a node: what other nodes consume."""

    node: "Node"
    index: int

    def __init__(self, node: "Node", index: int):
        _set_output_node(self, node)
        _set_output_index(self, index)

    @property
    def type(self) -> TensorType:
        return self.node.outputs[self.index]

    @property
    def dtype(self) -> DType:
        return self.node.outputs[self.index].dtype

    @property
    def shape(self) -> TensorShape:
        return self.node.outputs[self.index].shape

    @property
    def value(self):
        """The constant value when this is the output of a Const, else None."""
        return self.node.attrs["value"] if self.node.op == "Const" else None

    @property
    def name(self) -> str:
        return f"{self.node.name}:{self.index}"

    @property
    def input_name(self) -> str:
        """How a consuming node lists this output (TensorFlow omits ':0')."""
        return self.node.name if self.index == 0 else f"{self.node.name}:{self.index}"

    def __repr__(self) -> str:
        return f"<Output {self.name} {self.type}>"


_set_output_node = Output.__dict__["node"].__set__
_set_output_index = Output.__dict__["index"].__set__


class Node:
    """One operation: op type, data and control inputs, attrs, typed outputs, origin."""

    __slots__ = ("graph", "name", "op", "inputs", "control_inputs", "attrs", "outputs", "origin")

    def __init__(self, graph, name, op, inputs, control_inputs, attrs, outputs, origin):
        self.graph: Graph = graph
        self.name: str = name
        self.op: str = op
        self.inputs: list[Output] = list(inputs)
        self.control_inputs: list[Node] = list(control_inputs)
        self.attrs: dict[str, Any] = attrs
        self.outputs: list[TensorType] = list(outputs)
        self.origin: Origin | None = origin

    def output(self, index: int = 0) -> Output:
        return Output(self, index)

    @property
    def type(self) -> str:
        """The op's name, as TensorFlow's ``Operation.type``."""
        return self.op

    def __repr__(self) -> str:
        ins = ", ".join(i.input_name for i in self.inputs)
        return f"<Node {self.name} = {self.op}({ins})>"


_new_node = Node.__new__
_function_ids = itertools.count(1)


class Graph:
    """A graph of nodes in creation order.

    ``inputs`` are the Placeholder outputs a caller feeds (in order); ``outputs``
    are what a call returns. ``captures`` maps outer-graph outputs to the
    placeholders standing for them inside a sub-graph.
    """

    def __init__(self, name: str = "graph", outer: "Graph | None" = None):
        self.name = name
        self.outer = outer
        self.nodes: list[Node] = []
        self.inputs: list[Output] = []
        self.outputs: list[Output] = []
        self.captures: dict[Output, Output] = {}
        self.library: dict[str, Graph] = outer.library if outer is not None else {}
        self._name_counts: dict[str, int] = {}
        self._used_names: set[str] = set()
        self._scopes: list[str] = []
        # A sub-graph (a branch, a loop body) starts in its caller's name scope with names
        # of its own, as TensorFlow's FuncGraphs do: a loop body's first argument is
        # ``while/Placeholder`` whatever its condition is called (``print`` shows it).
        if outer is not None:
            self._scopes = list(outer._scopes)

    # -- naming ---------------------------------------------------------
    def unique_name(self, base: str, mark_used: bool = True) -> str:
        """``base`` under the current name scope, made unique as TensorFlow does.

        Like ``Graph.unique_name`` in TensorFlow, names are compared without
        case (``add`` then ``Add`` gives ``Add_1``), the first free ``base_N``
        is taken, and the original capitalization is kept.
        """
        if self._scopes:
            base = "/".join(self._scopes) + "/" + base
        key = base.lower()
        used = self._used_names
        if key not in used:  # (a first use: its count stays 0, which is the default)
            if mark_used:
                used.add(key)
            return base
        count = self._name_counts.get(key, 0)
        name, name_key = base, key
        while name_key in used:
            count += 1
            name, name_key = f"{base}_{count}", f"{key}_{count}"
        if mark_used:
            self._name_counts[key] = count
            used.add(name_key)
        return name

    def mark_name_used(self, name: str) -> None:
        """Reserves ``name`` exactly (a restored graph's names, a scope's own node)."""
        self._used_names.add(name.lower())

    @property
    def scope_prefix(self) -> str:
        return "/".join(self._scopes) + "/" if self._scopes else ""

    @property
    def name_stack(self) -> str:
        """The current name scope without its trailing slash ("" at the top level)."""
        return "/".join(self._scopes)

    def push_scope(self, scope: str) -> str:
        """Opens a unique name scope (``cond``, ``cond_1``...); returns its name."""
        name = self.unique_name(scope)
        self._scopes.append(name.rsplit("/", 1)[-1])
        return name

    def pop_scope(self) -> None:
        self._scopes.pop()

    def enter_name_scope(self, name: str) -> tuple[str, list]:
        """``tf.name_scope(name)`` on this graph: returns (scope string, what to restore).

        TensorFlow's rules: an empty name resets to the top level (``""``); a
        name ending in ``/`` is an absolute scope re-entered as it is (``"a/"``);
        any other name opens a unique scope below the current one (``"a/"``,
        then ``"a_1/"``), reserving its name as a node name would be.
        """
        old = self._scopes
        if not name:
            self._scopes, returned = [], ""
        elif name[-1] == "/":
            stack = name[:-1]
            self._scopes, returned = ([stack] if stack else []), name
        else:
            stack = self.unique_name(name)
            self._scopes, returned = [stack], stack + "/"
        return returned, old

    def exit_name_scope(self, restore: list) -> None:
        """Restores the scope saved by ``enter_name_scope``."""
        self._scopes = restore

    def new_function_name(self, base: str) -> str:
        return f"{base}_{next(_function_ids)}"

    # -- building -------------------------------------------------------
    def add_node(self, op: str, inputs=(), attrs=None, name=None, control_inputs=(),
                 origin: Origin | None = None, exact_name: bool = False) -> Node:
        """Creates a node after inferring (and so checking) its output types."""
        opdef = _REGISTRY.get(op) or get_op(op)
        attrs = dict(attrs) if attrs else {}
        inputs = list(inputs)
        for i in inputs:
            if i.__class__ is not Output or i.node.graph is not self:
                self._check_input(op, i)
        try:
            outputs = opdef.infer(inputs.copy(), attrs)
        except InvalidArgumentError as e:
            raise type(e)(message=_with_origin(e.message, origin)) from None
        except (ValueError, TypeError) as e:
            raise InvalidArgumentError(message=_with_origin(f"{op}: {e}", origin)) from None
        if exact_name:  # a name the caller reserved (a scope's own node, a restored graph)
            self.mark_name_used(name)
        else:
            name = self.unique_name(name or op)
        node = _new_node(Node)  # (Node.__init__ would copy the fresh lists again)
        node.graph, node.name, node.op, node.inputs = self, name, op, inputs
        node.control_inputs = list(control_inputs) if control_inputs else []
        node.attrs, node.outputs, node.origin = attrs, list(outputs), origin
        self.nodes.append(node)
        return node

    def _check_input(self, op: str, i) -> None:
        if not isinstance(i, Output):
            raise TypeError(f"Input of {op} must be an Output, got {type(i).__name__}")
        if i.node.graph is not self:
            raise InvalidArgumentError(
                message=f"{op}: input {i.name} belongs to graph {i.node.graph.name!r}, "
                        f"not to {self.name!r}; capture it into this graph first")

    def add_function(self, graph: "Graph") -> str:
        self.library[graph.name] = graph
        return graph.name

    def function(self, name: str) -> "Graph":
        try:
            return self.library[name]
        except KeyError:
            raise NotFoundError(message=f"Function {name!r} is not in the graph's library") from None

    def get_operations(self) -> list[Node]:
        return list(self.nodes)

    def get_operation_by_name(self, name: str) -> Node:
        """The node named ``name``; TensorFlow's KeyError when there is none."""
        for node in self.nodes:
            if node.name == name:
                return node
        raise KeyError(f"The name {name!r} refers to an Operation not in the graph.")

    get_node = get_operation_by_name

    def __repr__(self) -> str:
        return f"<Graph {self.name!r}: {len(self.nodes)} nodes>"

    def as_graph_def(self):
        from graph.printing import as_graph_def
        return as_graph_def(self)


def _with_origin(message: str, origin: Origin | None) -> str:
    return f"{message}\n  at {origin}" if origin is not None else message


def constant_value(output: Output):
    """The value of ``output`` when it is known while building, else None."""
    value = output.value
    return None if value is None else np.asarray(value)
