"""The op library: importing this package registers every op."""
from graph.ops import core, math, complex, control_flow  # noqa: F401
from graph.ops import reduction, random, strings, logging  # noqa: F401
from graph.ops import array, indexing, state  # noqa: F401
from graph.ops import data, tensor_array  # noqa: F401
from graph.ops import py_func  # noqa: F401
from graph.ops import gradient_ops  # noqa: F401
from graph.ops import ragged, sparse  # noqa: F401
from graph.ops import nn, linalg, special, io, image, sets, spectral, unicode  # noqa: F401
from graph.ops import records, lookup, summary, audio  # noqa: F401
from graph.xla import call  # noqa: F401  (the call op of a jit_compile function; imports no JAX)
