"""Lowerings of elementwise math, comparisons, matmul, select and cast (graph/ops/math.py)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from graph.xla.lowering import lowering

_ELEMENTWISE = {
    "AddV2": jnp.add, "Sub": jnp.subtract, "Mul": jnp.multiply, "RealDiv": jnp.true_divide,
    "FloorDiv": jnp.floor_divide, "FloorMod": jnp.remainder, "Pow": jnp.power,
    "Maximum": jnp.maximum, "Minimum": jnp.minimum,
    "SquaredDifference": lambda x, y: jnp.square(x - y),
    "BitwiseAnd": jnp.bitwise_and, "BitwiseOr": jnp.bitwise_or, "BitwiseXor": jnp.bitwise_xor,
    "Greater": jnp.greater, "GreaterEqual": jnp.greater_equal,
    "Less": jnp.less, "LessEqual": jnp.less_equal,
    "LogicalAnd": jnp.logical_and, "LogicalOr": jnp.logical_or, "LogicalNot": jnp.logical_not,
    "Neg": jnp.negative, "Abs": jnp.abs, "Square": jnp.square, "Sign": jnp.sign,
    "Relu": lambda x: jnp.maximum(x, jnp.zeros((), x.dtype)),
    "Tanh": jnp.tanh, "Exp": jnp.exp, "Log": jnp.log, "Sqrt": jnp.sqrt, "Rsqrt": lax.rsqrt,
    "Sigmoid": jax.nn.sigmoid, "Sin": jnp.sin, "Cos": jnp.cos, "Floor": jnp.floor,
    "Ceil": jnp.ceil, "Round": jnp.round,  # half to even, as TensorFlow rounds
    "Invert": jnp.invert,
    "SelectV2": jnp.where,
}


def _elementwise(fn):
    return lambda ctx, node, *xs: fn(*xs)


for _name, _fn in _ELEMENTWISE.items():
    lowering(_name)(_elementwise(_fn))


@lowering("Identity", "StopGradient")
def _identity(ctx, node, x):
    return lax.stop_gradient(x) if node.op == "StopGradient" else x


@lowering("Equal", "NotEqual")
def _equality(ctx, node, x, y):
    fn = jnp.equal if node.op == "Equal" else jnp.not_equal
    if not node.attrs.get("incompatible_shape_error", True):
        try:
            np.broadcast_shapes(jnp.shape(x), jnp.shape(y))
        except ValueError:  # shapes are static here: the answer is a constant
            return np.bool_(node.op == "NotEqual")
    return fn(x, y)


@lowering("MatMul", "BatchMatMulV2")
def _matmul(ctx, node, a, b):
    ta, tb = ("transpose_a", "transpose_b") if node.op == "MatMul" else ("adj_x", "adj_y")
    if node.attrs.get(ta):
        a = jnp.swapaxes(a, -1, -2)
    if node.attrs.get(tb):
        b = jnp.swapaxes(b, -1, -2)
    return jnp.matmul(a, b)


@lowering("Cast")
def _cast(ctx, node, x):
    return jnp.asarray(x).astype(node.outputs[0].dtype.numpy_dtype)
