"""EagerPyFunc: runs a Python callable when the graph runs (``tf.py_function``).

NOT SERIALIZABLE: the ``func`` attr holds a Python callable, the one
exception to the rule that attrs are plain data. A graph with this op can be
run and printed, but saving it must fail (graph.serialize rejects callables).
The callable takes and returns numpy values; runtime.py_function wraps the
user's function (tensors in, dtype conversion out) before it gets here, so
this layer stays numpy-only.
"""
from __future__ import annotations

from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.registry import register_op
from graph.shapes import TensorShape


def _py_func_infer(inputs, attrs):
    if not callable(attrs.get("func")):
        raise InvalidArgumentError(message="EagerPyFunc needs a callable `func` attr")
    return [TensorType(dtype, TensorShape(None)) for dtype in attrs["Tout"]]


def _py_func(*values, func, Tout):
    results = func(*values)
    if not Tout:
        return ()
    if len(Tout) == 1:
        return results[0]
    return tuple(results)


register_op("EagerPyFunc", _py_func_infer, _py_func, kernel_attrs=("func", "Tout"),
            stateful=True)
