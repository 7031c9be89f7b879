"""Gradients of elementwise math, MatMul, reductions, Cast and SelectV2.

Each follows TensorFlow's math_grad.py: a broadcasting op sums its
gradient back to each input's shape (``reduce_to``), and functions of the
output (tanh, sigmoid, exp, sqrt) reuse the output rather than recompute.
On complex tensors the gradient of a holomorphic ``f`` is ``g * conj(f'(z))``,
TensorFlow's convention (``conj`` adds no op on real tensors).
"""
from __future__ import annotations

from runtime.gradients.registry import NotDifferentiable, RegisterGradient
from runtime.gradients.util import reduce_to, reduced_shape_grad
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import special_ops as S
from runtime.ops.core import apply_op


def conj(x):
    """conj(x) on complex tensors, ``x`` itself otherwise (no op recorded)."""
    return apply_op("Conj", [x], name="Conj") if x.dtype.is_complex else x

NotDifferentiable(
    "Bitcast", "Greater", "GreaterEqual", "Less", "LessEqual", "Equal", "NotEqual", "LogicalAnd",
    "LogicalOr", "LogicalNot", "ArgMax", "ArgMin", "Any", "All", "Where", "FloorDiv",
    "BitwiseAnd", "BitwiseOr", "BitwiseXor", "Invert", "Floor", "Ceil", "Round",
    "ZerosLike", "OnesLike", "Shape", "Size", "Rank", "Range", "Fill", "Const",
    "StopGradient", "RandomUniform", "RandomStandardNormal", "TruncatedNormal",
    "StatelessRandomUniformV2", "StatelessRandomNormalV2", "PrintV2", "Assert", "NoOp",
    "AssignVariableOp", "AssignAddVariableOp",
    "AssignSubVariableOp", "InitializeVariableOp", "Placeholder")


def _binary(record, gx, gy):
    x, y = record.inputs
    return [None if gx is None else reduce_to(gx, x), None if gy is None else reduce_to(gy, y)]


def _takes_needed(fn):
    """Marks a gradient function that skips the input gradients nobody asked for:
    backprop passes ``needed`` (one flag per input) to it."""
    fn.takes_needed = True
    return fn


_BOTH = (True, True)


# -- binary arithmetic ---------------------------------------------------------------

@RegisterGradient("AddV2")
@_takes_needed
def _add_grad(op, g, needed=_BOTH):
    return _binary(op, g if needed[0] else None, g if needed[1] else None)


@RegisterGradient("Sub")
@_takes_needed
def _sub_grad(op, g, needed=_BOTH):
    return _binary(op, g if needed[0] else None, M.negative(g) if needed[1] else None)


@RegisterGradient("Mul")
@_takes_needed
def _mul_grad(op, g, needed=_BOTH):
    x, y = op.inputs
    return _binary(op, M.multiply(g, conj(y)) if needed[0] else None,
                   M.multiply(g, conj(x)) if needed[1] else None)


@RegisterGradient("RealDiv")
@_takes_needed
def _div_grad(op, g, needed=_BOTH):
    x, y = op.inputs
    gx = M.realdiv(g, conj(y)) if needed[0] else None
    gy = M.negative(M.multiply(g, conj(M.realdiv(M.realdiv(x, y), y)))) if needed[1] else None
    return _binary(op, gx, gy)


@RegisterGradient("Pow")
def _pow_grad(op, g):
    x, y = op.inputs
    z = op.outputs[0]
    gx = M.multiply(g, conj(M.multiply(y, M.pow(x, M.subtract(y, 1)))))
    # log x where it is defined: x > 0, or x != 0 on complex numbers
    positive = M.not_equal(x, 0) if x.dtype.is_complex else M.greater(x, 0)
    safe_x = M.where(positive, x, A.ones_like(x))
    log_x = M.where(positive, M.log(safe_x), A.zeros_like(x))
    gy = M.multiply(g, conj(M.multiply(z, log_x)))
    return _binary(op, gx, gy)


def _select_mask(op, g, pick_x):
    x, y = op.inputs
    zeros = A.zeros_like(g)
    g_full = M.add(g, zeros) if g.shape != pick_x.shape else g
    return _binary(op, M.where(pick_x, g_full, zeros), M.where(pick_x, zeros, g_full))


@RegisterGradient("Maximum")
def _maximum_grad(op, g):
    x, y = op.inputs
    return _select_mask(op, g, M.greater_equal(x, y))


@RegisterGradient("Minimum")
def _minimum_grad(op, g):
    x, y = op.inputs
    return _select_mask(op, g, M.less_equal(x, y))


@RegisterGradient("SquaredDifference")
def _squared_difference_grad(op, g):
    x, y = op.inputs
    d = M.multiply(M.multiply(g, 2.0), M.subtract(x, y))
    return _binary(op, d, M.negative(d))


@RegisterGradient("FloorMod")
def _floor_mod_grad(op, g):
    x, y = op.inputs
    return _binary(op, g, M.multiply(M.negative(g), M.floor(M.realdiv(x, y))))


# -- unary ------------------------------------------------------------------------

@RegisterGradient("Neg")
def _neg_grad(op, g):
    return [M.negative(g)]


@RegisterGradient("Abs")
def _abs_grad(op, g):
    return [M.multiply(g, M.sign(op.inputs[0]))]


@RegisterGradient("Square")
def _square_grad(op, g):
    return [M.multiply(g, M.multiply(conj(op.inputs[0]), 2.0))]


@RegisterGradient("Sign")
def _sign_grad(op, g):
    return [A.zeros_like(op.inputs[0])]


@RegisterGradient("Relu")
def _relu_grad(op, g):
    y = op.outputs[0]
    return [M.where(M.greater(y, 0), g, A.zeros_like(g))]


@RegisterGradient("Tanh")
def _tanh_grad(op, g):
    y = op.outputs[0]
    return [M.multiply(g, conj(M.subtract(1.0, M.square(y))))]


@RegisterGradient("Sigmoid")
def _sigmoid_grad(op, g):
    y = op.outputs[0]
    return [M.multiply(g, conj(M.multiply(y, M.subtract(1.0, y))))]


@RegisterGradient("Exp")
def _exp_grad(op, g):
    return [M.multiply(g, conj(op.outputs[0]))]


@RegisterGradient("Log")
def _log_grad(op, g):
    return [M.realdiv(g, conj(op.inputs[0]))]


# TensorFlow's SqrtGrad, RsqrtGrad and ReciprocalGrad kernels give 0 where the incoming
# gradient is 0, even where the derivative is inf or nan (``tf.where(x > 0, tf.sqrt(x), 0.)``
# then has 0 gradients at x <= 0): a MulNoNan by g does the same.

@RegisterGradient("Sqrt")
def _sqrt_grad(op, g):
    return [S.multiply_no_nan(M.realdiv(0.5, conj(op.outputs[0])), g)]


@RegisterGradient("Rsqrt")
def _rsqrt_grad(op, g):
    y = op.outputs[0]
    return [S.multiply_no_nan(M.multiply(conj(M.multiply(y, M.square(y))), -0.5), g)]


@RegisterGradient("Sin")
def _sin_grad(op, g):
    return [M.multiply(g, conj(M.cos(op.inputs[0])))]


@RegisterGradient("Cos")
def _cos_grad(op, g):
    return [M.negative(M.multiply(g, conj(M.sin(op.inputs[0]))))]


@RegisterGradient("Identity")
def _identity_grad(op, g):
    return [g]


@RegisterGradient("ReadVariableOp")
def _read_variable_grad(op, g):
    return [g] * len(op.inputs)


@RegisterGradient("Cast")
def _cast_grad(op, g):
    src = op.inputs[0]
    if not (src.dtype.is_floating or src.dtype.is_complex) or not (
            op.outputs[0].dtype.is_floating or op.outputs[0].dtype.is_complex):
        return [None]
    return [M.cast(g, src.dtype)]


@RegisterGradient("SelectV2")
def _select_grad(op, g):
    c, x, y = op.inputs
    zeros = A.zeros_like(g)
    return [None, reduce_to(M.where(c, g, zeros), x), reduce_to(M.where(c, zeros, g), y)]


# -- MatMul ---------------------------------------------------------------------------

def _mm(a, b, ta, tb, batch):
    if batch:
        return M.matmul(a, b, adjoint_a=ta, adjoint_b=tb)
    return M.matmul(a, b, transpose_a=ta, transpose_b=tb)


# (first operand, second operand, transpose flags) of each input's gradient, per
# (transpose_a, transpose_b) of the forward matmul; "g" is the output's gradient.
_MATMUL_RULES = {
    (False, False): (("g", "b", False, True), ("a", "g", True, False)),
    (False, True): (("g", "b", False, False), ("g", "a", True, False)),
    (True, False): (("b", "g", False, True), ("a", "g", False, False)),
    (True, True): (("b", "g", True, True), ("g", "a", True, True)),
}


def _matmul_grads(op, g, ta: bool, tb: bool, batch: bool, needed):
    a, b = op.inputs
    # MatMul only transposes, so complex inputs are conjugated here; BatchMatMulV2's
    # adjoints conjugate by themselves
    named = {"a": a, "b": b, "g": g} if batch else {"a": conj(a), "b": conj(b), "g": g}
    grads = []
    for (x, y, tx, ty), x_in, need in zip(_MATMUL_RULES[(ta, tb)], (a, b), needed):
        if not need:
            grads.append(None)
            continue
        grad = _mm(named[x], named[y], tx, ty, batch)
        grads.append(reduce_to(grad, x_in) if batch else grad)
    return grads


@RegisterGradient("MatMul")
@_takes_needed
def _matmul_grad(op, g, needed=_BOTH):
    return _matmul_grads(op, g, bool(op.attrs.get("transpose_a")),
                         bool(op.attrs.get("transpose_b")), False, needed)


@RegisterGradient("BatchMatMulV2")
@_takes_needed
def _batch_matmul_grad(op, g, needed=_BOTH):
    return _matmul_grads(op, g, bool(op.attrs.get("adj_x")), bool(op.attrs.get("adj_y")), True,
                         needed)


# -- reductions -----------------------------------------------------------------------

def _axes(op):
    axis = op.attrs.get("axis")
    return None if axis is None else tuple(axis)


@RegisterGradient("Sum")
def _sum_grad(op, g):
    x = op.inputs[0]
    return [reduced_shape_grad(g, x, _axes(op), op.attrs.get("keep_dims", False))]


def _count(x, y):
    """How many input elements went into each output element of a reduction."""
    if x.shape.is_fully_defined() and y.shape.is_fully_defined():
        return max(x.shape.num_elements(), 1) // max(y.shape.num_elements(), 1)
    n = M.cast(A.size(x), x.dtype)
    return M.realdiv(n, M.maximum(M.cast(A.size(y), x.dtype), 1.0))


@RegisterGradient("Mean")
def _mean_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    full = reduced_shape_grad(g, x, _axes(op), op.attrs.get("keep_dims", False))
    count = _count(x, y)
    if isinstance(count, int):
        return [M.multiply(full, 1.0 / count)]
    return [M.realdiv(full, count)]


def _extreme_grad(op, g):
    x, y = op.inputs[0], op.outputs[0]
    axes, keep = _axes(op), op.attrs.get("keep_dims", False)
    y_full = reduced_shape_grad(y, x, axes, keep)
    hit = M.cast(M.equal(x, y_full), x.dtype)
    count = reduced_shape_grad(M.reduce_sum(hit, axis=axes, keepdims=keep), x, axes, keep)
    return [M.multiply(M.realdiv(hit, count), reduced_shape_grad(g, x, axes, keep))]


RegisterGradient("Max")(_extreme_grad)
RegisterGradient("Min")(_extreme_grad)


@RegisterGradient("Prod")
def _prod_grad(op, g):
    # d(prod)/dx_i = prod of the others: the product of everything before i times the
    # product of everything after i, which stays right when some x_j are zero.
    x, y = op.inputs[0], op.outputs[0]
    axes, keep = _axes(op), op.attrs.get("keep_dims", False)
    if axes is None or x.shape.rank is None:
        rank = x.shape.rank
        if rank is None:
            raise NotImplementedError("The gradient of reduce_prod needs an input of known rank")
        axes = tuple(range(rank))
    rank = x.shape.rank
    axes = sorted(a % rank for a in axes)
    others = [i for i in range(rank) if i not in axes]
    perm = others + axes
    xt = A.transpose(x, perm)
    if not x.shape.is_fully_defined():
        raise NotImplementedError("The gradient of reduce_prod needs an input of known shape")
    dims = x.shape.as_tuple()
    kept = [dims[i] for i in others]
    n = 1
    for a in axes:
        n *= dims[a]
    if n > 64:  # the quotient is cheaper for long reductions; exact while no x_i is 0
        return [M.multiply(conj(M.realdiv(reduced_shape_grad(y, x, tuple(axes), keep), x)),
                           reduced_shape_grad(g, x, tuple(axes), keep))]
    flat = A.reshape(xt, [-1 if not kept else int(_prod(kept)), n])
    ones = A.ones_like(flat[:, :1])
    before = _cumprod_exclusive(flat, ones, n, reverse=False)
    after = _cumprod_exclusive(flat, ones, n, reverse=True)
    partial = M.multiply(before, after)
    partial = A.reshape(partial, [dims[i] for i in perm])
    inverse = [perm.index(i) for i in range(rank)]
    partial = A.transpose(partial, inverse)
    del y
    return [M.multiply(conj(partial), reduced_shape_grad(g, x, tuple(axes), keep))]


def _prod(values):
    out = 1
    for v in values:
        out *= v
    return out


def _cumprod_exclusive(flat, ones, n: int, reverse: bool):
    """Column j: the product of columns before j (after j when ``reverse``)."""
    columns = [None] * n
    running = ones
    order = range(n - 1, -1, -1) if reverse else range(n)
    for j in order:
        columns[j] = running
        running = M.multiply(running, flat[:, j:j + 1])
    return A.concat(columns, axis=1) if n > 1 else columns[0]
