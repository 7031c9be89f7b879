"""The graph layer: IR, op registry, numpy kernels, passes, executor, save/load.

Imports numpy only. Knows nothing of Python functions, tracing or AST.
"""
__version__ = "0.1.0"

from graph import ops as _ops  # noqa: F401  (registers the op library)
from graph.dtypes import DType, as_dtype
from graph.errors import (GraphError, InvalidArgumentError, NotFoundError,
                          OpError, UnimplementedError)
from graph.executor import compile_graph
from graph.ir import Graph, Node, Origin, Output, TensorType
from graph.registry import OpDef, get_op, register_op
from graph.shapes import TensorShape

__all__ = [
    "DType", "as_dtype", "GraphError", "InvalidArgumentError", "NotFoundError",
    "OpError", "UnimplementedError", "compile_graph", "Graph", "Node", "Origin",
    "Output", "TensorType", "OpDef", "get_op", "register_op", "TensorShape",
]
