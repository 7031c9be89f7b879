"""Compiles a graph once into a plan and runs that plan many times.

Two interchangeable back ends share one schedule:

* ``codegen`` (default) writes the schedule as one Python function that calls
  each node's kernel directly and deletes every intermediate after its last
  use (the torch.fx approach): no dispatch loop at run time.
* ``interpret`` walks the schedule node by node and checks every value
  against its inferred type. It is the reference the compiled path is tested
  against.

The schedule is non-strict: it keeps only the nodes that the fetched outputs
or a stateful op need, in creation order, so stateful ops keep program order
and an unused failing op never runs.
"""
from __future__ import annotations

import itertools
import sys
from typing import Callable, Sequence

import numpy as np

from graph.errors import GraphError, InvalidArgumentError, OpError
from graph.ir import Graph, Node, Output
from graph.registry import get_op

_plan_ids = itertools.count()


def schedule(graph: Graph, fetches: Sequence[Output]) -> list[Node]:
    """The nodes needed for ``fetches`` and for every stateful op, in creation order."""
    needed: set[int] = set()
    stack = [o.node for o in fetches]
    stack += [n for n in graph.nodes if get_op(n.op).stateful]
    while stack:
        node = stack.pop()
        if id(node) in needed:
            continue
        needed.add(id(node))
        stack.extend(i.node for i in node.inputs)
        stack.extend(node.control_inputs)
    return [n for n in graph.nodes if id(n) in needed]


class Plan:
    """A compiled graph: call it with one value per graph input."""

    def __init__(self, graph: Graph, fetches: list[Output], fn: Callable,
                 source: str = "", line_nodes: dict | None = None, filename: str = ""):
        self.graph = graph
        self.fetches = fetches
        self.fn = fn  # raw callable returning a tuple; errors not mapped
        self.source = source
        self._line_nodes = line_nodes or {}
        self._filename = filename

    def __call__(self, *feeds):
        if len(feeds) != len(self.graph.inputs):
            raise InvalidArgumentError(
                message=f"Graph {self.graph.name!r} takes {len(self.graph.inputs)} inputs, "
                        f"got {len(feeds)}")
        try:
            return self.fn(*feeds)
        except GraphError as e:
            node = self._failing_node(e)
            if isinstance(e, OpError) and node is not None and not getattr(e, "_located", False):
                raise _locate(e, node) from None
            raise
        except Exception as e:  # a numpy kernel failed: report it as TensorFlow would
            node = self._failing_node(e)
            if node is None:
                raise
            err = InvalidArgumentError(message=f"{type(e).__name__}: {e}")
            raise _locate(err, node) from e

    def _failing_node(self, exc: BaseException):
        """The node whose generated line raised ``exc`` (innermost plan wins)."""
        tb = exc.__traceback__
        found = None
        while tb is not None:
            if tb.tb_frame.f_code.co_filename == self._filename:
                found = self._line_nodes.get(tb.tb_lineno, found)
            tb = tb.tb_next
        return found


def _locate(err: OpError, node: Node) -> OpError:
    where = f" (op {node.name!r} of type {node.op}"
    where += f", defined at {node.origin})" if node.origin else ")"
    err.message = f"{err.message}{where}"
    err.args = (err.message,)
    err.op = node
    err._located = True
    return err


def compile_graph(graph: Graph, fetches: Sequence[Output] | None = None,
                  backend: str = "codegen") -> Plan:
    """Compiles ``graph`` into a Plan returning ``fetches`` (default: graph.outputs)."""
    fetches = list(graph.outputs if fetches is None else fetches)
    if backend == "codegen":
        return _Codegen(graph, fetches).plan()
    if backend == "interpret":
        return _interpreter_plan(graph, fetches)
    raise ValueError(f"Unknown executor backend {backend!r}; use 'codegen' or 'interpret'")


class _SubgraphCompiler:
    """Compiles library sub-graphs once per plan, with the parent's back end."""

    def __init__(self, backend: str):
        self.backend = backend
        self._cache: dict[int, Callable] = {}

    def __call__(self, graph: Graph) -> Callable:
        key = id(graph)
        if key not in self._cache:
            plan = compile_graph(graph, backend=self.backend)
            self._cache[key] = plan.fn
        return self._cache[key]


class _Codegen:
    def __init__(self, graph: Graph, fetches: list[Output]):
        self.graph = graph
        self.fetches = fetches
        self.namespace: dict[str, object] = {}
        self.names: dict[Output, str] = {}

    def plan(self) -> Plan:
        graph, fetches = self.graph, self.fetches
        nodes = schedule(graph, fetches)
        compile_sub = _SubgraphCompiler("codegen")
        params = []
        for i, inp in enumerate(graph.inputs):
            self.names[inp] = f"a{i}"
            params.append(f"a{i}")
        body: list[tuple[str, Node | None]] = []
        last_use = self._last_uses(nodes)
        for idx, node in enumerate(nodes):
            if node.op == "Placeholder":
                if node.output(0) not in self.names:
                    raise InvalidArgumentError(
                        message=f"Placeholder {node.name!r} is needed but is not an input of "
                                f"graph {graph.name!r}")
                continue
            if node.op == "Const":
                self._bind(f"c{idx}", node.attrs["value"], node.output(0))
                continue
            kname = f"k{idx}"
            self.namespace[kname] = get_op(node.op).make_kernel(node, compile_sub)
            args = ", ".join(self.names[i] for i in node.inputs)
            n_out = len(node.outputs)
            if n_out == 0:
                body.append((f"{kname}({args})", node))
            elif n_out == 1:
                self.names[node.output(0)] = f"t{idx}"
                body.append((f"t{idx} = {kname}({args})", node))
            else:
                targets = [f"t{idx}_{j}" for j in range(n_out)]
                for j, t in enumerate(targets):
                    self.names[node.output(j)] = t
                body.append((", ".join(targets) + f", = {kname}({args})", node))
            dead = [self.names[o] for o in last_use.get(idx, ())
                    if o in self.names and self.names[o].startswith("t")]
            if dead:
                body.append(("del " + ", ".join(sorted(set(dead))), None))
        ret = ", ".join(self.names[f] for f in fetches)
        body.append((f"return ({ret}{',' if len(fetches) == 1 else ''})", None))

        plan_id = next(_plan_ids)
        filename = f"<graph {graph.name} #{plan_id}>"
        lines = [f"def plan({', '.join(params)}):"]
        line_nodes = {}
        for text, node in body:
            lines.append("    " + text)
            if node is not None:
                line_nodes[len(lines)] = node
        source = "\n".join(lines) + "\n"
        code = compile(source, filename, "exec")
        exec(code, self.namespace)
        return Plan(graph, fetches, self.namespace["plan"], source, line_nodes, filename)

    def _bind(self, name, value, output):
        self.namespace[name] = value
        self.names[output] = name

    def _last_uses(self, nodes: list[Node]) -> dict[int, list[Output]]:
        """For each schedule index, the outputs whose last consumer it is."""
        fetched = set(self.fetches)
        last: dict[Output, int] = {}
        for idx, node in enumerate(nodes):
            for i in node.inputs:
                last[i] = idx
            for j in range(len(node.outputs)):  # unused outputs die at once
                last.setdefault(node.output(j), idx)
        out: dict[int, list[Output]] = {}
        for o, idx in last.items():
            if o not in fetched:
                out.setdefault(idx, []).append(o)
        return out


def _interpreter_plan(graph: Graph, fetches: list[Output]) -> Plan:
    nodes = schedule(graph, fetches)
    compile_sub = _SubgraphCompiler("interpret")
    kernels = {id(n): get_op(n.op).make_kernel(n, compile_sub)
               for n in nodes if n.op not in ("Placeholder", "Const")}
    inputs = list(graph.inputs)

    def run(*feeds):
        env: dict[Output, object] = dict(zip(inputs, feeds))
        for node in nodes:
            if node.op == "Placeholder":
                continue
            if node.op == "Const":
                env[node.output(0)] = node.attrs["value"]
                continue
            try:
                result = kernels[id(node)](*[env[i] for i in node.inputs])
            except OpError as e:
                if getattr(e, "_located", False):
                    raise
                raise _locate(e, node) from None
            except Exception as e:
                raise _locate(InvalidArgumentError(message=f"{type(e).__name__}: {e}"), node) from e
            values = (result,) if len(node.outputs) == 1 else tuple(result)
            for j, value in enumerate(values):
                check_value(value, node, j)
                env[node.output(j)] = value
        return tuple(env[f] for f in fetches)

    return Plan(graph, fetches, run, "", {}, "<interpreter>")


def check_value(value, node: Node, index: int) -> None:
    """Raises when a kernel's result disagrees with its node's inferred type."""
    expected = node.outputs[index]
    dtype = getattr(value, "dtype", None)
    if expected.dtype.numpy_dtype == np.dtype(object):
        ok_dtype = dtype == np.dtype(object) or isinstance(value, (bytes, object))
    else:
        ok_dtype = dtype == expected.dtype.numpy_dtype
    shape = np.shape(value)
    if not ok_dtype or not expected.shape.is_compatible_with(shape):
        raise AssertionError(
            f"Kernel of {node.op} ({node.name}) output {index} produced "
            f"{dtype}{list(shape)}, but inference said {expected}")
