"""``jit_compile=True``: graphs lowered to JAX and compiled by XLA.

The IR, the passes and the schedule are the numpy executor's; only the last
step differs. ``compile_graph(graph, backend="xla")`` (graph/executor.py)
lands here: ``lowering.py`` walks the graph with one lowering per op (the
table ``LOWERINGS``, filled by one module per op family: ``math``,
``special``, ``complex``, ``spectral``, ``nn``, ``image``, ``linalg``,
``reduction``, ``array``, ``control_flow``, ``state``, ``tensor_list``,
``random`` (TensorFlow's XLA random values: ``philox``), ``logging``;
``unsupported`` says why the rest cannot be), ``plan.py`` compiles the result
with ``jax.jit``, once per value of the inputs an op needs as compile-time
constants (``constants``).

``call.py`` registers the op of a jit_compile function called from another
graph (no JAX needed for that).

JAX is an optional dependency (``pip install autograph-staging[xla]``): it
is imported here only, when a jit_compile Function first compiles.
"""
from __future__ import annotations

import importlib

INSTALL_HINT = ("tf.function(jit_compile=True) compiles with XLA through JAX, which is not "
                "installed. Install it with: pip install autograph-staging[xla]")
_FAMILIES = ("math", "special", "complex", "spectral", "nn", "image", "linalg", "reduction",
             "array", "control_flow", "state", "tensor_list", "random", "logging", "unsupported")


def require_jax():
    """Imports JAX and the lowerings; ImportError saying how to install the extra."""
    try:
        import jax
    except ImportError as e:
        raise ImportError(INSTALL_HINT) from e
    for family in _FAMILIES:
        importlib.import_module(f"graph.xla.{family}")
    return jax


def compile_xla(graph, fetches):
    """The ``XlaPlan`` of ``graph`` returning ``fetches``."""
    require_jax()
    from graph.xla.plan import XlaPlan
    return XlaPlan(graph, list(fetches))
