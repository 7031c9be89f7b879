"""``XlaPlan``: a graph lowered to one JAX function, compiled once by ``jax.jit``.

The plan has the numpy plan's interface (call it with one value per graph
input, get a tuple of numpy values). State crosses the call explicitly, as
XLA requires: the variables the graph reads or assigns are extra arguments
and their final values extra results, written back after the call; random
ops draw from a key passed in (derived from the call count, so seeded ops
repeat the same sequence in every program run) and threaded through the
program. Control-flow lowerings carry that state (``Context.state``).
Results come back in as few buffers as possible (``outputs.Layout``).
An op needing a run-time value as a constant makes the plan compile one program
per value of the integer inputs it comes from (constants.py), as TensorFlow's
XLA does.

JAX runs in 32-bit mode unless told otherwise. A graph with a 64-bit value
anywhere is traced, compiled and called inside ``jax.enable_x64(True)``, a
context manager local to the thread, so int64/float64 stay 64-bit without
changing the user's JAX config. Other graphs skip it: under a changed
config, a jitted call leaves JAX's fast C++ dispatch path (~10 us a call).
"""
from __future__ import annotations

import functools
import itertools
import os

import numpy as np

from graph import resources
from graph.errors import InvalidArgumentError
from graph.ir import Graph, Output
from graph.registry import get_op
from graph.xla.constants import constant_sources
from graph.xla.lowering import (Context, Unsupported, lower_graph, unsupported_error,
                                unsupported_nodes)
from graph.xla.outputs import Layout
from graph.xla.random import RANDOM_OPS

_VARIABLE_OPS = frozenset({"ReadVariableOp", "AssignVariableOp", "AssignAddVariableOp",
                           "AssignSubVariableOp"})


def _without_jax_note(e: InvalidArgumentError) -> InvalidArgumentError:
    """``e`` (an error the compiler reports, raised while JAX traced) without the note JAX
    adds about its hidden frames: the message is TensorFlow's."""
    notes = getattr(e, "__notes__", None)
    if notes:
        e.__notes__ = [n for n in notes if "JAX" not in n]
    return e


_STAGES = ("hlo", "hlo_serialized", "optimized_hlo", "optimized_hlo_serialized",
           "optimized_hlo_dot", "stablehlo")


class _NeedsConstants(Exception):
    """Raised while tracing: the graph inputs at ``positions`` must be compile-time constants."""

    def __init__(self, positions: set[int]):
        super().__init__(sorted(positions))
        self.positions = positions


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
        self._constant: tuple[int, ...] = ()  # inputs compiled as constants (constants.py)
        self._specializations: dict = {}  # their values -> the program jitted for them
        # ``run(*feeds)`` is the call itself (``plan(*feeds)`` without the method in between,
        # for callers on the cache-hit path: ConcreteFunction).
        self.run = self._stateful_call if self._resources or self._random else self._pure_call()

    # -- the traced program ---------------------------------------------------------------
    def _program(self, feeds, variables, key, constants=None):
        """The traced program; ``constants`` (position -> numpy value) replace those inputs,
        the others come in ``feeds``."""
        if constants:
            rest = iter(feeds)
            feeds = [constants[k] if k in constants else next(rest)
                     for k in range(self._n_inputs)]
        ctx = Context(self, dict(zip(self._resources, variables)), key)
        try:
            outs = lower_graph(ctx, self.graph, list(feeds), self.fetches)
        except Unsupported as e:
            if e.constant:
                wanted = constant_sources(self.graph, *e.sources) - set(self._constant)
                if wanted:
                    raise _NeedsConstants(wanted) from None
            raise unsupported_error(self.graph.name, [(e.node, e.reason)]) from None
        return self._layout.pack(outs), tuple(ctx.state["vars"][r] for r in self._written)

    # -- compile-time-constant inputs -----------------------------------------------------
    def can_make_constant(self, nodes) -> bool:
        """Whether a value that ``nodes`` of the top graph compute would be a compile-time
        constant if the program were compiled for the values of more of the graph's inputs."""
        return all(n.graph is self.graph for n in nodes) and \
            bool(constant_sources(self.graph, *nodes) - set(self._constant))

    def _add_constants(self, positions: set[int]):
        self._constant = tuple(sorted(set(self._constant) | positions))
        self._specializations.clear()

    def _specialized(self, feeds):
        """The program compiled for the values ``feeds`` gives the constant inputs, and the
        other feeds."""
        constants = {k: np.asarray(feeds[k]) for k in self._constant}
        key = tuple((v.dtype.str, v.shape, v.tobytes()) for v in constants.values())
        jitted = self._specializations.get(key)
        if jitted is None:
            jitted = self._specializations[key] = self._jax.jit(
                functools.partial(self._program, constants=constants))
        return jitted, tuple(f for k, f in enumerate(feeds) if k not in constants)

    def _call_specialized(self, feeds, count: int | None = None):
        """A call once some inputs are compile-time constants (found while tracing)."""
        self._check_count(feeds)
        if count is None and self._random:
            count = next(self._calls)
        while True:
            jitted, rest = self._specialized(feeds)
            try:
                return self._execute(jitted, self._arguments(rest, count))
            except _NeedsConstants as e:
                self._add_constants(e.positions)

    # -- calls ----------------------------------------------------------------------------
    def _check_count(self, feeds):
        if len(feeds) != self._n_inputs:
            raise InvalidArgumentError(
                message=f"Graph {self.graph.name!r} takes {self._n_inputs} inputs, "
                        f"got {len(feeds)}")

    def _arguments(self, feeds, count: int | None = None):
        """The jitted program's arguments: feeds, the variables' values, the random key."""
        variables = tuple(np.asarray(resources.read(r)) for r in self._resources)
        key = None
        if self._random:
            count = next(self._calls) if count is None else count
            key = np.array([0, count & 0xFFFFFFFF], dtype=np.uint32)
        return tuple(feeds), variables, key

    def _execute(self, jitted, args):
        """Runs ``jitted`` on ``args`` and writes the variables it assigns back."""
        try:
            if self._x64:
                with self._jax.enable_x64(True):
                    outs, written = jitted(*args)
            else:
                outs, written = jitted(*args)
        except InvalidArgumentError as e:
            raise _without_jax_note(e) from None
        for r, value in zip(self._written, written):
            resources.write(r, np.asarray(value))
        return self._layout.unpack(outs)

    def __call__(self, *feeds):
        return self.run(*feeds)

    def _pure_call(self):
        """The call of a program without state: feeds in, numpy values out."""
        jitted = self._jax.jit(lambda *feeds: self._program(feeds, (), None)[0])
        n, unpack, check = self._n_inputs, self._layout.unpack, self._check_count
        x64 = self._jax.enable_x64 if self._x64 else None

        def call(*feeds):
            if len(feeds) != n:
                check(feeds)  # raises
            if self._constant:
                return self._call_specialized(feeds)
            try:
                if x64 is None:
                    return unpack(jitted(*feeds))
                with x64(True):
                    return unpack(jitted(*feeds))
            except _NeedsConstants as e:
                self._add_constants(e.positions)
                return self._call_specialized(feeds)
            except InvalidArgumentError as e:
                raise _without_jax_note(e) from None
        return call

    def _stateful_call(self, *feeds):
        if self._constant:
            return self._call_specialized(feeds)
        self._check_count(feeds)
        args = self._arguments(feeds)
        try:
            return self._execute(self._jitted, args)
        except _NeedsConstants as e:
            self._add_constants(e.positions)
            return self._call_specialized(feeds, None if args[2] is None else int(args[2][1]))

    @property
    def fn(self):
        """The raw callable (the numpy plan's attribute): the plan itself."""
        return self

    # -- looking at the program -----------------------------------------------------------
    def compiler_ir(self, feeds, stage: str = "hlo") -> str | bytes:
        """The program for these inputs: ``stage`` 'hlo' or 'optimized_hlo' (text),
        'hlo_serialized' or 'optimized_hlo_serialized' (an HloModuleProto's bytes), as
        TensorFlow's; also 'stablehlo' (JAX's text)."""
        if stage not in _STAGES:
            raise ValueError(f"Invalid stage selected: {stage!r}. Valid values are: 'hlo', "
                             "'hlo_serialized', 'optimized_hlo', 'optimized_hlo_serialized', "
                             "'optimized_hlo_dot'")
        if stage == "optimized_hlo_dot":
            raise NotImplementedError("experimental_get_compiler_ir(stage='optimized_hlo_dot'): "
                                      "the Graphviz form is not available here")
        self._check_count(feeds)
        while True:
            jitted, rest = self._specialized(feeds) if self._constant else (self._jitted, feeds)
            args = self._arguments(rest, count=0)  # no call: the random sequence stays put
            try:
                with self._jax.enable_x64(self._x64):
                    lowered = jitted.lower(*args)
                    if stage == "hlo":
                        return lowered.as_text(dialect="hlo")
                    if stage == "stablehlo":
                        return lowered.as_text()
                    if stage == "hlo_serialized":
                        return lowered.compiler_ir("hlo").as_serialized_hlo_module_proto()
                    compiled = lowered.compile()
                    if stage == "optimized_hlo":
                        return compiled.as_text()
                    module = compiled.runtime_executable().hlo_modules()[0]
                    return module.as_serialized_hlo_module_proto()
            except _NeedsConstants as e:
                self._add_constants(e.positions)
