"""Test helper: run a function eagerly and staged, for differential tests.

``staged(fn, *args)`` traces ``fn`` into a Graph (every array/EagerTensor
argument becomes a Placeholder; other arguments stay Python values), then
runs the graph with both executor back ends and checks they agree. It
returns the codegen results as numpy values, in the structure ``fn`` returned.
"""
from __future__ import annotations

import numpy as np

import runtime as rt
from graph import Graph, compile_graph
from runtime import context, nest
from runtime.tensor import EagerTensor, SymbolicTensor


def _is_tensor_arg(a) -> bool:
    return isinstance(a, (np.ndarray, np.generic, EagerTensor))


def trace(fn, *args, name: str = "f"):
    """Traces ``fn`` into a new Graph; returns (graph, output structure)."""
    graph = Graph(name)
    feeds, call_args = [], []
    with context.building(graph):
        for i, a in enumerate(args):
            if _is_tensor_arg(a):
                value = a.value if isinstance(a, EagerTensor) else a
                dtype = a.dtype if isinstance(a, EagerTensor) else rt.as_dtype(np.asarray(a).dtype)
                node = graph.add_node("Placeholder",
                                      attrs={"dtype": dtype, "shape": rt.TensorShape(np.shape(value))},
                                      name=f"arg{i}")
                call_args.append(SymbolicTensor(node.output(0)))
                feeds.append(np.asarray(value) if np.ndim(value) else value)
                graph.inputs.append(node.output(0))
            else:
                call_args.append(a)
        result = fn(*call_args)
        flat = [rt.convert_to_tensor(r) for r in nest.flatten(result)]
        graph.outputs = [t._output for t in flat]
    return graph, result, feeds


def staged(fn, *args):
    graph, result, feeds = trace(fn, *args)
    fast = compile_graph(graph)(*feeds)
    ref = compile_graph(graph, backend="interpret")(*feeds)
    for a, b in zip(fast, ref):
        np.testing.assert_array_equal(np.asarray(a), np.asarray(b))
        assert np.asarray(a).dtype == np.asarray(b).dtype
    return nest.pack_sequence_as(result, list(fast))


def eager(fn, *args):
    """Runs ``fn`` eagerly with array arguments as EagerTensors; numpy results."""
    call_args = [rt.constant(a) if isinstance(a, (np.ndarray, np.generic)) else a for a in args]
    result = fn(*call_args)
    return nest.map_structure(lambda t: rt.convert_to_tensor(t).numpy(), result)


def assert_same(fn, *args, rtol=1e-6):
    """Eager and staged results of ``fn`` agree in value, dtype and shape."""
    e, s = eager(fn, *args), staged(fn, *args)
    for a, b in zip(nest.flatten(e), nest.flatten(s)):
        a, b = np.asarray(a), np.asarray(b)
        assert a.dtype == b.dtype, (a.dtype, b.dtype)
        assert a.shape == b.shape, (a.shape, b.shape)
        if a.dtype.kind in "fc":
            np.testing.assert_allclose(a, b, rtol=rtol)
        else:
            np.testing.assert_array_equal(a, b)
    return e
