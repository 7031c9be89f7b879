"""``XlaPlan``: a graph lowered to one JAX function, compiled once by ``jax.jit``.

The plan has the numpy plan's interface (call it with one value per graph
input, get a tuple of numpy values). State crosses the call explicitly, as
XLA requires: the variables the graph reads or assigns are extra arguments
and their final values extra results, written back after the call; random
ops draw from a key passed in (derived from the call count, so seeded ops
repeat the same sequence in every program run) and threaded through the
program. Control-flow lowerings carry that state (``Context.state``).
Results come back in as few buffers as possible (``outputs.Layout``).

JAX runs in 32-bit mode unless told otherwise. A graph with a 64-bit value
anywhere is traced, compiled and called inside ``jax.enable_x64(True)``, a
context manager local to the thread, so int64/float64 stay 64-bit without
changing the user's JAX config. Other graphs skip it: under a changed
config, a jitted call leaves JAX's fast C++ dispatch path (~10 us a call).
"""
from __future__ import annotations

import itertools
import os

import numpy as np

from graph import resources
from graph.errors import InvalidArgumentError
from graph.ir import Graph, Output
from graph.registry import get_op
from graph.xla.lowering import (Context, Unsupported, lower_graph, unsupported_error,
                                unsupported_nodes)
from graph.xla.outputs import Layout
from graph.xla.random import RANDOM_OPS

_VARIABLE_OPS = frozenset({"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                           "AssignSubVariableOp"})


def _walk(graph: Graph):
    """Every node of ``graph`` and of its control-flow bodies."""
    for node in graph.nodes:
        yield node
        for attr in get_op(node.op).function_attrs:
            yield from _walk(node.attrs[attr])


class XlaPlan:
    """A compiled graph running as one XLA program: call it with one value per graph input."""

    backend = "xla"  # what compile_graph was asked for (gradient graphs follow it)

    def __init__(self, graph: Graph, fetches: list[Output]):
        import jax
        self._jax = jax
        self.graph = graph
        self.fetches = fetches
        self.source = ""
        found = unsupported_nodes(graph, fetches)
        if found:
            raise unsupported_error(graph.name, found)
        nodes = list(_walk(graph))
        self._resources = sorted({n.attrs["resource"] for n in nodes if n.op in _VARIABLE_OPS})
        self._written = sorted({n.attrs["resource"] for n in nodes if n.op.startswith("Assign")})
        self._random = any(n.op in RANDOM_OPS for n in nodes)
        self._x64 = any(
            t.dtype.numpy_dtype.itemsize == 8 for n in nodes
            for t in n.outputs if t.dtype.numpy_dtype != np.dtype(object))
        self.salt = int.from_bytes(os.urandom(4), "little") >> 1  # for unseeded random ops
        self._calls = itertools.count()
        self._n_inputs = len(graph.inputs)
        self._layout = Layout([f.type for f in fetches])
        self._jitted = jax.jit(self._program)
        # ``run(*feeds)`` is the call itself (``plan(*feeds)`` without the method in between,
        # for callers on the cache-hit path: ConcreteFunction).
        self.run = self._stateful_call if self._resources or self._random else self._pure_call()

    # -- the traced program ---------------------------------------------------------------
    def _program(self, feeds, variables, key):
        ctx = Context(self, dict(zip(self._resources, variables)), key)
        try:
            outs = lower_graph(ctx, self.graph, list(feeds), self.fetches)
        except Unsupported as e:
            raise unsupported_error(self.graph.name, [(e.node, e.reason)]) from None
        return self._layout.pack(outs), tuple(ctx.state["vars"][r] for r in self._written)

    def _arguments(self, feeds, count: int | None = None):
        if len(feeds) != self._n_inputs:
            raise InvalidArgumentError(
                message=f"Graph {self.graph.name!r} takes {self._n_inputs} inputs, "
                        f"got {len(feeds)}")
        variables = tuple(np.asarray(resources.read(r)) for r in self._resources)
        key = None
        if self._random:
            count = next(self._calls) if count is None else count
            key = np.array([0, count & 0xFFFFFFFF], dtype=np.uint32)
        return tuple(feeds), variables, key

    def __call__(self, *feeds):
        return self.run(*feeds)

    def _pure_call(self):
        """The call of a program without state: feeds in, numpy values out."""
        jitted = self._jax.jit(lambda *feeds: self._program(feeds, (), None)[0])
        n, unpack, check = self._n_inputs, self._layout.unpack, self._arguments
        if self._x64:
            x64 = self._jax.enable_x64

            def call_x64(*feeds):
                if len(feeds) != n:
                    check(feeds)  # raises
                with x64(True):
                    return unpack(jitted(*feeds))
            return call_x64

        def call(*feeds):
            if len(feeds) != n:
                check(feeds)  # raises
            return unpack(jitted(*feeds))
        return call

    def _stateful_call(self, *feeds):
        args = self._arguments(feeds)
        if self._x64:
            with self._jax.enable_x64(True):
                outs, written = self._jitted(*args)
        else:
            outs, written = self._jitted(*args)
        for r, value in zip(self._written, written):
            resources.write(r, np.asarray(value))
        return self._layout.unpack(outs)

    @property
    def fn(self):
        """The raw callable (the numpy plan's attribute): the plan itself."""
        return self

    # -- looking at the program -----------------------------------------------------------
    def compiler_ir(self, feeds, stage: str = "hlo") -> str:
        """The program's text for these inputs: ``stage`` 'hlo', 'stablehlo' or 'optimized_hlo'."""
        args = self._arguments(feeds, count=0)  # no call: the random sequence stays put
        with self._jax.enable_x64(self._x64):
            lowered = self._jitted.lower(*args)
            if stage == "hlo":
                return lowered.as_text(dialect="hlo")
            if stage == "stablehlo":
                return lowered.as_text()
            if stage == "optimized_hlo":
                return lowered.compile().as_text()
        raise ValueError(f"Unknown compiler IR stage {stage!r}; use 'hlo', 'stablehlo' or "
                         "'optimized_hlo'")
