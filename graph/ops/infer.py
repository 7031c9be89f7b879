"""Shared shape/dtype inference rules for op definitions."""
from __future__ import annotations

import numpy as np

from graph.dtypes import DType, bool_
from graph.errors import DTypeMismatchError, DTypeNotSupportedError, InvalidArgumentError
from graph.ir import TensorType
from graph.shapes import TensorShape, broadcast_shapes


def expect_arity(op: str, inputs, n: int) -> None:
    if len(inputs) != n:
        raise InvalidArgumentError(message=f"{op} takes {n} inputs, got {len(inputs)}")


def same_dtype(op: str, inputs) -> DType:
    """The common dtype of ``inputs``; TensorFlow never converts implicitly."""
    dtype = inputs[0].dtype
    for i in inputs[1:]:
        if i.dtype != dtype:
            raise DTypeMismatchError(
                message=f"{op}: cannot compute {op} as input #1 was expected to be a "
                        f"{dtype.name} tensor but is a {i.dtype.name} tensor. "
                        f"Use tf.cast to make both operands the same dtype.")
    return dtype


def check_dtype(op: str, x, allowed: str) -> None:
    """``allowed`` is a set of kinds: f float, i integer, b bool, s string, c complex."""
    d = x.dtype
    kind = ("s" if d.is_string else "b" if d.is_bool else "f" if d.is_floating
            else "c" if d.is_complex else "i")
    if kind not in allowed:
        names = {"f": "float", "i": "integer", "b": "bool", "s": "string", "c": "complex"}
        raise DTypeNotSupportedError(
            message=f"{op} does not support {d.name} tensors "
                    f"(it takes {', '.join(names[k] for k in allowed)})")


def broadcast(op: str, a, b) -> TensorShape:
    try:
        return broadcast_shapes(a.shape, b.shape)
    except ValueError:
        raise InvalidArgumentError(
            message=f"{op}: Incompatible shapes: {a.shape.as_tuple()} vs. {b.shape.as_tuple()}"
        ) from None


def binary(allowed: str = "fi", result: DType | None = None):
    """Inference for a broadcasting binary op on two same-dtype inputs."""
    def infer(inputs, attrs, op="binary"):
        expect_arity(op, inputs, 2)
        dtype = same_dtype(op, inputs)
        check_dtype(op, inputs[0], allowed)
        return [TensorType(result or dtype, broadcast(op, inputs[0], inputs[1]))]
    return infer


def unary(allowed: str = "fi", result: DType | None = None):
    def infer(inputs, attrs, op="unary"):
        expect_arity(op, inputs, 1)
        check_dtype(op, inputs[0], allowed)
        return [TensorType(result or inputs[0].dtype, inputs[0].shape)]
    return infer


def named(op: str, rule):
    """Binds an op name into a rule so that its messages name the op."""
    return lambda inputs, attrs: rule(inputs, attrs, op=op)


COMPARISON = binary("fib", bool_)


# Integer ops small enough to evaluate while building, as TensorFlow's shape inference
# evaluates a shape argument's constant sub-graph (``tf.range(tf.size(x) + 1)`` has a static
# length when x's shape is known) while ``tf.get_static_value`` still says None.
_FOLDABLE = frozenset({"Shape", "Size", "Rank", "Add", "AddV2", "Sub", "Mul", "FloorDiv",
                       "FloorMod", "Maximum", "Minimum", "Neg", "Abs", "StridedSlice", "Pack",
                       "ConcatV2", "Cast", "Identity", "Reshape", "ExpandDims", "Squeeze"})
_FOLD_DEPTH = 8
_FOLD_SIZE = 64


def static_value(inp, depth: int = _FOLD_DEPTH):
    """The value of integer input ``inp`` when known now: a constant's, or that of a small
    integer computation on constants and known shapes; else None."""
    value = inp.value
    if value is not None or depth == 0:
        return value
    node = getattr(inp, "node", None)
    if node is None or node.op not in _FOLDABLE or not inp.dtype.is_integer:
        return None
    if node.op in ("Shape", "Size", "Rank"):
        shape = node.inputs[0].shape
        if node.op == "Rank":
            return None if shape.rank is None else np.asarray(shape.rank, inp.dtype.numpy_dtype)
        if not shape.is_fully_defined():
            return None
        dims = shape.as_list()
        return np.asarray(dims if node.op == "Shape" else int(np.prod(dims, dtype=np.int64)),
                          inp.dtype.numpy_dtype)
    values = []
    for i in node.inputs:
        v = static_value(i, depth - 1)
        if v is None or np.size(v) > _FOLD_SIZE:
            return None
        values.append(v)
    from graph.registry import get_op
    try:
        result = get_op(node.op).run_eager(values, node.attrs)
    except Exception:  # an error is for the run to report, with its context
        return None
    return result[inp.index] if isinstance(result, (tuple, list)) else result
