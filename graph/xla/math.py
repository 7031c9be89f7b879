"""Lowerings of elementwise math, comparisons, matmul, select and cast (graph/ops/math.py)."""
from __future__ import annotations

import jax
import jax.numpy as jnp
import numpy as np
from jax import lax

from graph.xla.lowering import half_in_float32, lowering

_ELEMENTWISE = {
    "AddV2": jnp.add, "Sub": jnp.subtract, "Mul": jnp.multiply,
    # (JAX divides float16 by a broadcast value as a product with its reciprocal)
    "RealDiv": half_in_float32(jnp.true_divide),

    "Maximum": jnp.maximum, "Minimum": jnp.minimum,
    "SquaredDifference": lambda x, y: jnp.square(x - y),
    "BitwiseAnd": jnp.bitwise_and, "BitwiseOr": jnp.bitwise_or, "BitwiseXor": jnp.bitwise_xor,
    "Greater": jnp.greater, "GreaterEqual": jnp.greater_equal,
    "Less": jnp.less, "LessEqual": jnp.less_equal,
    "LogicalAnd": jnp.logical_and, "LogicalOr": jnp.logical_or, "LogicalNot": jnp.logical_not,
    "Neg": jnp.negative, "Abs": jnp.abs, "Square": jnp.square, "Sign": jnp.sign,
    "Relu": lambda x: jnp.maximum(x, jnp.zeros((), x.dtype)),
    "Tanh": jnp.tanh, "Exp": jnp.exp, "Log": jnp.log, "Sqrt": jnp.sqrt, "Rsqrt": lax.rsqrt,
    "Sin": jnp.sin, "Cos": jnp.cos, "Floor": jnp.floor,
    "Ceil": jnp.ceil, "Round": jnp.round,  # half to even, as TensorFlow rounds
    "Invert": jnp.invert,
    "SelectV2": jnp.where,
}


@lowering("Sigmoid")
def _sigmoid(ctx, node, x):
    """XLA's logistic: ``1 / (1 + exp(-x))``, a float16 one rounded after each step."""
    if x.dtype != jnp.float16:
        return jax.nn.sigmoid(x)
    exp, add, div = (half_in_float32(f) for f in (jnp.exp, jnp.add, jnp.divide))
    one = jnp.ones((), x.dtype)
    return div(one, add(one, exp(-x)))


def _floor_div(x, y):
    """TensorFlow's XLA FloorDiv: floor(x / y) for floats (``1e-30 // -1e30`` is -0.0, not
    numpy's -1); for signed ints the truncating quotient moved down where the signs differ
    and a remainder is left, on XLA's division (x / 0 is -1, MIN / -1 is MIN)."""
    x, y = jnp.broadcast_arrays(x, y)
    if jnp.issubdtype(x.dtype, jnp.floating):
        return jnp.floor(x / y)
    quotient = lax.div(x, y)
    if jnp.issubdtype(x.dtype, jnp.unsignedinteger):
        return quotient
    zero = jnp.zeros((), x.dtype)
    down = ((x < zero) != (y < zero)) & (lax.rem(x, y) != zero)
    return jnp.where(down, quotient - jnp.ones((), x.dtype), quotient)


def _floor_mod(x, y):
    """TensorFlow's XLA FloorMod: the truncating remainder plus y where it is nonzero and its
    sign differs from y's (x % 0 is x, as XLA's remainder)."""
    x, y = jnp.broadcast_arrays(x, y)
    rem = lax.rem(x, y)
    zero = jnp.zeros((), x.dtype)
    return jnp.where((rem != zero) & ((rem < zero) != (y < zero)), rem + y, rem)


def _pow(x, y):
    """XLA's power; for integers (jnp's loops ignore a negative exponent): wrapping
    products by squaring, and for a negative exponent 1 for 1, +-1 for -1 by parity, else 0."""
    if not jnp.issubdtype(x.dtype, jnp.integer):
        return jnp.power(x, y)
    x, y = jnp.broadcast_arrays(x, y)
    one, zero = jnp.ones((), x.dtype), jnp.zeros((), x.dtype)

    def square(_, carry):
        acc, base, k = carry
        return jnp.where(k & one, acc * base, acc), base * base, k >> one
    k = jnp.where(y < zero, zero, y)
    acc = lax.fori_loop(0, x.dtype.itemsize * 8, square, (jnp.ones_like(x), x, k))[0]
    if jnp.issubdtype(x.dtype, jnp.unsignedinteger):
        return acc
    odd = (y & one) != zero
    negative = jnp.where(x == one, one, jnp.where(x == -one, jnp.where(odd, -one, one), zero))
    return jnp.where(y < zero, negative, acc)


_ELEMENTWISE.update(FloorDiv=_floor_div, FloorMod=_floor_mod, Pow=_pow)


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
