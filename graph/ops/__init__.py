"""The op library: importing this package registers every op."""
from graph.ops import core, math, control_flow  # noqa: F401
from graph.ops import array, state  # noqa: F401
from graph.ops import py_func  # noqa: F401
