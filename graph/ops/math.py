"""Elementwise arithmetic, comparisons, logic, MatMul, SelectV2/Where and Cast.

TensorFlow never converts dtypes implicitly: both operands of a binary op
must have the same dtype (the runtime gives Python numbers the tensor's
dtype before recording the op). Each kernel returns exactly the inferred
numpy dtype; plain numpy ufuncs already do for same-dtype inputs, so most
kernels are the ufunc itself (no per-call wrapper: per-op overhead matters).
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype, bool_, int64
from graph.errors import DTypeNotSupportedError, InvalidArgumentError, UnimplementedError
from graph.ir import TensorType
from graph.ops.infer import broadcast, expect_arity, same_dtype
from graph.registry import register_op
from graph.shapes import TensorShape

# Allowed-kind letters; "n" (signed integers) and "w" (int32, int64) narrow "i" for the ops
# TensorFlow defines on fewer integer types (Neg, Abs, Sign, Pow; SquaredDifference).
_KIND_NAMES = {"f": "float", "i": "integer", "n": "signed integer", "w": "int32, int64",
               "b": "bool", "s": "string", "c": "complex"}


def _kind(dtype: DType) -> str:
    return ("s" if dtype.is_string else "b" if dtype.is_bool else "f" if dtype.is_floating
            else "c" if dtype.is_complex else "i")


def _allows(dtype: DType, allowed: str) -> bool:
    kind = _kind(dtype)
    return kind in allowed or kind == "i" and (
        "n" in allowed and not dtype.is_unsigned
        or "w" in allowed and dtype.name in ("int32", "int64"))


def _check_kind(op: str, x, allowed: str, hint: str = "") -> None:
    if not _allows(x.dtype, allowed):
        takes = ", ".join(_KIND_NAMES[k] for k in allowed)
        raise DTypeNotSupportedError(
            message=f"{op} does not support {x.dtype.name} tensors (it takes {takes} tensors)."
                    + (f" {hint}" if hint else ""))


# -- inference rules ------------------------------------------------------------

def binary_rule(op: str, allowed: str, result: DType | None = None, hint: str = ""):
    """A broadcasting op on two same-dtype inputs."""
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        dtype = same_dtype(op, inputs)
        _check_kind(op, inputs[0], allowed, hint)
        return [TensorType(result or dtype, broadcast(op, inputs[0], inputs[1]))]
    return infer


def unary_rule(op: str, allowed: str, hint: str = ""):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        _check_kind(op, inputs[0], allowed, hint)
        return [TensorType(inputs[0].dtype, inputs[0].shape)]
    return infer


def _equality_rule(op: str):
    """Equal/NotEqual; with ``incompatible_shape_error=False`` (what ``==`` uses)
    shapes that do not broadcast give a scalar False/True instead of an error."""
    strict = binary_rule(op, "fibsc", bool_)

    def infer(inputs, attrs):
        if attrs.get("incompatible_shape_error", True):
            return strict(inputs, attrs)
        expect_arity(op, inputs, 2)
        same_dtype(op, inputs)
        a, b = inputs[0].shape, inputs[1].shape
        try:
            shape = broadcast(op, inputs[0], inputs[1])
        except InvalidArgumentError:  # known not to broadcast: the scalar answer
            return [TensorType(bool_, TensorShape([]))]
        if a.rank is None or b.rank is None or not _surely_broadcasts(a, b):
            return [TensorType(bool_, TensorShape(None))]  # decided when it runs
        return [TensorType(bool_, shape)]
    return infer


def _surely_broadcasts(a: TensorShape, b: TensorShape) -> bool:
    """True when shapes broadcast whatever values their unknown dimensions take."""
    for p, q in zip(reversed(a.as_tuple()), reversed(b.as_tuple())):
        if not (p == 1 or q == 1 or (p is not None and p == q)):
            return False
    return True


# -- kernels that need more than a ufunc -------------------------------------------

def _string_result(value):
    """String kernels return object arrays; a 0-d result stays a 0-d object array."""
    if isinstance(value, np.ndarray):
        return value
    out = np.empty((), dtype=object)
    out[()] = value
    return out


def _add(x, y):
    result = np.add(x, y)
    if isinstance(result, (bytes, str)) or (isinstance(result, np.ndarray) and result.dtype == object):
        return _string_result(result)
    return result


def _check_int_divisor(y) -> None:
    if np.asarray(y).dtype.kind in "iu" and not np.all(y):
        raise InvalidArgumentError(message="Integer division by zero")


def _floordiv(x, y):
    if np.asarray(y).dtype.kind == "f":
        return _floordiv_float(x, y)
    _check_int_divisor(y)
    return np.floor_divide(x, y)


def _floordiv_float(x, y):
    """TensorFlow's float FloorDiv is floor(x / y): ``inf // 2`` is inf and ``3. // -inf``
    is -0.0, where numpy (and Python) give nan and -1.0."""
    return np.floor(np.true_divide(x, y))


def _floormod(x, y):
    if np.asarray(y).dtype.kind == "f":
        return _floormod_float(x, y)
    _check_int_divisor(y)
    return np.remainder(x, y)


def _floormod_float(x, y):
    """TensorFlow's float FloorMod: fmod, moved to the divisor's sign; a zero keeps the sign
    of ``x`` (``-4. % 2.`` is -0.0), where numpy gives the divisor's sign."""
    mod = np.fmod(x, y)
    return np.where((mod != 0) & ((y < 0) != (mod < 0)), mod + y, mod)


def _pow(x, y):
    if np.asarray(y).dtype.kind in "iu" and np.any(np.asarray(y) < 0):
        raise InvalidArgumentError(
            message="Integers to negative integer powers are not allowed. "
                    "Cast the base to a float dtype first (tf.cast(x, tf.float32)).")
    if np.iscomplexobj(x):
        return np.exp(y * np.log(x))  # std::pow on complex, as TensorFlow's kernel rounds it
    return np.power(x, y)


def _equality(ufunc, mismatch: bool):
    def kernel(x, y, incompatible_shape_error=True):
        if incompatible_shape_error:
            return ufunc(x, y)
        try:
            np.broadcast_shapes(np.shape(x), np.shape(y))
        except ValueError:
            return np.bool_(mismatch)
        return ufunc(x, y)
    return kernel


def _sigmoid(x):
    if np.iscomplexobj(x):  # no overflow-safe split on the complex plane
        return 1 / (1 + np.exp(-x))
    # exp of a non-positive number never overflows; both halves keep x's dtype.
    e = np.exp(-np.abs(x))
    return np.where(np.asarray(x) >= 0, 1 / (1 + e), e / (1 + e)).astype(np.asarray(x).dtype)


def _squared_difference(x, y):
    d = np.subtract(x, y)
    return d * np.conj(d)  # TensorFlow's (x - y) * conj(x - y): real-valued for complex too


def _sign(x):
    """x / |x| on complex numbers (0 at 0), as TensorFlow defines Sign there."""
    if not np.iscomplexobj(x):
        return np.sign(x)
    a = np.abs(x)
    return np.where(a == 0, 0, x / np.where(a == 0, 1, a)).astype(np.asarray(x).dtype)


def _relu(x):
    return np.maximum(x, 0)


def _round(x):
    """Half to even, as TensorFlow rounds; integers are already round."""
    return np.rint(x) if np.asarray(x).dtype.kind == "f" else np.asarray(x).copy()


_TRUTH = {"LogicalAnd": np.logical_and, "LogicalOr": np.logical_or}


# -- registration -----------------------------------------------------------------

_FLOAT_HINT = "Cast it to a float dtype first: tf.cast(x, tf.float32)."
_DIV_HINT = ("For integers use tf.math.truediv or `/` (casts int32 to float64 like TF) "
             "or tf.math.floordiv (`//`).")

# name: (kernel, allowed kinds, hint)
_BINARY = {
    "AddV2": (_add, "fisc", ""),
    "Sub": (np.subtract, "fic", ""),
    "Mul": (np.multiply, "fic", ""),
    "RealDiv": (np.true_divide, "fc", _DIV_HINT),
    "FloorDiv": (_floordiv, "fi", ""),
    "FloorMod": (_floormod, "fi", ""),
    "Pow": (_pow, "fnc", ""),
    "Maximum": (np.maximum, "fi", ""),
    "Minimum": (np.minimum, "fi", ""),
    "SquaredDifference": (_squared_difference, "fwc", ""),
    "BitwiseAnd": (np.bitwise_and, "i", ""),
    "BitwiseOr": (np.bitwise_or, "i", ""),
    "BitwiseXor": (np.bitwise_xor, "i", ""),
}
_COMPARISONS = {
    "Greater": np.greater, "GreaterEqual": np.greater_equal,
    "Less": np.less, "LessEqual": np.less_equal,
}
_UNARY = {
    "Neg": (np.negative, "fnc", ""),
    "Abs": (np.abs, "fn", ""),
    "Square": (np.square, "fic", ""),
    "Sign": (_sign, "fnc", ""),
    "Relu": (_relu, "fi", ""),
    "Tanh": (np.tanh, "fc", _FLOAT_HINT),
    "Exp": (np.exp, "fc", _FLOAT_HINT),
    "Log": (np.log, "fc", _FLOAT_HINT),
    "Sqrt": (np.sqrt, "fc", _FLOAT_HINT),
    "Rsqrt": (lambda x: 1 / np.sqrt(x), "fc", _FLOAT_HINT),
    "Sigmoid": (_sigmoid, "fc", _FLOAT_HINT),
    "Sin": (np.sin, "fc", _FLOAT_HINT),
    "Cos": (np.cos, "fc", _FLOAT_HINT),
    "Floor": (np.floor, "f", _FLOAT_HINT),
    "Ceil": (np.ceil, "f", _FLOAT_HINT),
    "Round": (_round, "fi", ""),
    "Invert": (np.invert, "i", ""),
}

def _build_add(node, compile_subgraph):
    return _add if node.outputs[0].dtype.is_string else np.add


def _build_checked_division(ufunc, checked):
    """The bare ufunc when the divisor can never be an integer zero (floats, or a
    nonzero constant): on loop counters the check costs more than the op itself."""
    def build(node, compile_subgraph):
        y = node.inputs[1]
        if y.dtype.is_floating:
            return _FLOAT_DIVISION[ufunc]
        if y.value is not None and np.all(np.asarray(y.value) != 0):
            return ufunc
        return checked
    return build


def _build_equality(ufunc, kernel):
    """The bare ufunc unless shapes may fail to broadcast with incompatible_shape_error=False."""
    def build(node, compile_subgraph):
        strict = node.attrs.get("incompatible_shape_error", True)
        a, b = node.inputs[0].shape, node.inputs[1].shape
        if not strict and a.is_fully_defined() and b.is_fully_defined():
            try:
                np.broadcast_shapes(a.as_tuple(), b.as_tuple())
                strict = True
            except ValueError:
                pass
        if strict:
            return ufunc
        return lambda x, y: kernel(x, y, incompatible_shape_error=False)
    return build


_FLOAT_DIVISION = {np.floor_divide: _floordiv_float, np.remainder: _floormod_float}
_DIVISION_BUILDS = {"FloorDiv": _build_checked_division(np.floor_divide, _floordiv),
                    "FloorMod": _build_checked_division(np.remainder, _floormod)}


for _name, (_kernel, _allowed, _hint) in _BINARY.items():
    register_op(_name, binary_rule(_name, _allowed, hint=_hint), _kernel,
                build=_build_add if _name == "AddV2" else _DIVISION_BUILDS.get(_name))
for _name, _kernel in _COMPARISONS.items():
    register_op(_name, binary_rule(_name, "fi", bool_), _kernel)
for _name, (_kernel, _allowed, _hint) in _UNARY.items():
    register_op(_name, unary_rule(_name, _allowed, _hint), _kernel)
for _name, _kernel in _TRUTH.items():
    register_op(_name, binary_rule(_name, "b"), _kernel)
register_op("LogicalNot", unary_rule("LogicalNot", "b"), np.logical_not)
register_op("Equal", _equality_rule("Equal"), _equality(np.equal, False),
            kernel_attrs=("incompatible_shape_error",),
            build=_build_equality(np.equal, _equality(np.equal, False)))
register_op("NotEqual", _equality_rule("NotEqual"), _equality(np.not_equal, True),
            kernel_attrs=("incompatible_shape_error",),
            build=_build_equality(np.not_equal, _equality(np.not_equal, True)))


# -- MatMul / BatchMatMulV2 ---------------------------------------------------------

def _matmul_rule(op: str, ta: str, tb: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        a, b = inputs
        dtype = same_dtype(op, inputs)
        _check_kind(op, a, "fic")
        if a.shape.rank is None or b.shape.rank is None:
            return [TensorType(dtype, TensorShape(None))]
        if a.shape.rank < 2 or b.shape.rank < 2:
            raise InvalidArgumentError(
                message=f"{op} needs inputs of rank >= 2, got shapes {a.shape} and {b.shape}. "
                        "Use tf.reshape or x[tf.newaxis] to make a vector a matrix, or "
                        "tf.reduce_sum(x * y) for a dot product.")
        ad, bd = list(a.shape.as_tuple()), list(b.shape.as_tuple())
        if attrs.get(ta):
            ad[-2], ad[-1] = ad[-1], ad[-2]
        if attrs.get(tb):
            bd[-2], bd[-1] = bd[-1], bd[-2]
        if ad[-1] is not None and bd[-2] is not None and ad[-1] != bd[-2]:
            raise InvalidArgumentError(
                message=f"Matrix size-incompatible: In[0]: {list(a.shape.as_tuple())}, "
                        f"In[1]: {list(b.shape.as_tuple())} (the inner dimensions {ad[-1]} and "
                        f"{bd[-2]} must be equal{'; check transpose_a/transpose_b' if op == 'MatMul' else ''})")
        try:
            from graph.shapes import broadcast_shapes
            batch = broadcast_shapes(TensorShape(ad[:-2]), TensorShape(bd[:-2]))
        except ValueError:
            raise InvalidArgumentError(
                message=f"{op}: batch dimensions {ad[:-2]} and {bd[:-2]} do not broadcast") from None
        return [TensorType(dtype, TensorShape(list(batch.as_tuple()) + [ad[-2], bd[-1]]))]
    return infer


def _matmul(a, b, transpose_a=False, transpose_b=False):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


_DOT_DTYPES = frozenset({"float32", "float64", "complex64", "complex128"})  # BLAS's types
_DOT_MAX_ELEMENTS = 8192  # (the executor reuses no buffer this small: see graph/executor.py)


def _small_blas_product(node) -> bool:
    """Two matrices of a BLAS dtype whose product has a known size under _DOT_MAX_ELEMENTS.

    ``np.dot`` runs those ~0.3 µs faster than ``np.matmul`` (the same BLAS call behind less
    dispatch), which is most of a small product's time; larger ones stay ``np.matmul``, a
    ufunc whose fresh result the executor may write an elementwise result into.
    """
    a, b = node.inputs
    n = node.outputs[0].shape.num_elements()
    return a.shape.rank == 2 and b.shape.rank == 2 and a.dtype.name in _DOT_DTYPES \
        and n is not None and n < _DOT_MAX_ELEMENTS


def _build_matmul(ta: str, tb: str):
    def build(node, compile_subgraph):
        t_a, t_b = bool(node.attrs.get(ta)), bool(node.attrs.get(tb))
        if ta == "adj_x" and (t_a or t_b) and node.inputs[0].dtype.is_complex:
            return lambda a, b: _batch_matmul(a, b, t_a, t_b)
        if _small_blas_product(node):
            if not (t_a or t_b):
                return np.dot
            return lambda a, b: np.dot(a.T if t_a else a, b.T if t_b else b)
        if not (t_a or t_b):
            return np.matmul  # the hot path: no wrapper at all
        return lambda a, b: _matmul(a, b, t_a, t_b)
    return build


def _batch_matmul(a, b, adj_x=False, adj_y=False):
    """adj_x/adj_y are adjoints: conjugate transposes on complex matrices."""
    if adj_x and np.iscomplexobj(a):
        a = np.conj(a)
    if adj_y and np.iscomplexobj(b):
        b = np.conj(b)
    return _matmul(a, b, adj_x, adj_y)


register_op("MatMul", _matmul_rule("MatMul", "transpose_a", "transpose_b"), _matmul,
            kernel_attrs=("transpose_a", "transpose_b"),
            build=_build_matmul("transpose_a", "transpose_b"))
register_op("BatchMatMulV2", _matmul_rule("BatchMatMulV2", "adj_x", "adj_y"), _batch_matmul,
            kernel_attrs=("adj_x", "adj_y"), build=_build_matmul("adj_x", "adj_y"))


# -- SelectV2 / Where ------------------------------------------------------------------

def _select_infer(inputs, attrs):
    expect_arity("SelectV2", inputs, 3)
    cond, t, e = inputs
    if not cond.dtype.is_bool:
        raise InvalidArgumentError(
            message=f"SelectV2: the condition must be a bool tensor, got {cond.dtype.name}. "
                    "Compare it first (x > 0) or tf.cast it to tf.bool.")
    dtype = same_dtype("SelectV2", [t, e])

    class _S:  # broadcast() takes objects with .shape
        def __init__(self, shape):
            self.shape = shape
    shape = broadcast("SelectV2", t, e)
    shape = broadcast("SelectV2", cond, _S(shape))
    return [TensorType(dtype, shape)]


def _where_infer(inputs, attrs):
    expect_arity("Where", inputs, 1)
    rank = inputs[0].shape.rank
    return [TensorType(int64, TensorShape([None, rank]))]


def _where(cond):
    return np.argwhere(np.asarray(cond).astype(bool, copy=False)).astype(np.int64)


register_op("SelectV2", _select_infer, np.where)
register_op("Where", _where_infer, _where)


# -- Cast ----------------------------------------------------------------------------

def _cast_infer(inputs, attrs):
    expect_arity("Cast", inputs, 1)
    src, dst = inputs[0].dtype, as_dtype(attrs["DstT"])
    if src.is_string != dst.is_string:
        fix = "tf.strings.to_number" if src.is_string else "tf.strings.as_string"
        raise UnimplementedError(
            message=f"Cast {src.name} to {dst.name} is not supported; use {fix} instead.")
    if dst in (dtypes.resource, dtypes.variant) or src in (dtypes.resource, dtypes.variant):
        raise InvalidArgumentError(message=f"Cast {src.name} to {dst.name} is not supported")
    return [TensorType(dst, inputs[0].shape)]


def _cast(x, DstT):
    if DstT.is_string:
        return x
    if np.iscomplexobj(x) and not DstT.is_complex:
        x = np.real(x)  # TensorFlow keeps the real part
    return np.asarray(x).astype(DstT.numpy_dtype)


register_op("Cast", _cast_infer, _cast, kernel_attrs=("DstT",))


# -- Bitcast: the same bytes read as another type (``tf.bitcast``) ----------------------------

def _bitcast_sizes(inputs, attrs):
    src, dst = inputs[0].dtype, as_dtype(attrs["type"])
    for what, dt in (("T", src), ("type", dst)):
        if dt.is_bool or dt.is_string or dt in (dtypes.resource, dtypes.variant):
            raise InvalidArgumentError(
                message=f"Value for attr '{what}' of {dt.name} is not in the list of allowed "
                        "values: the numeric types")
    return np.dtype(src.numpy_dtype).itemsize, np.dtype(dst.numpy_dtype).itemsize


def _bitcast_infer(inputs, attrs):
    expect_arity("Bitcast", inputs, 1)
    size_in, size_out = _bitcast_sizes(inputs, attrs)
    dims = None if inputs[0].shape.rank is None else list(inputs[0].shape.as_tuple())
    if dims is not None and size_in > size_out:
        dims.append(size_in // size_out)
    elif dims is not None and size_in < size_out:
        ratio = size_out // size_in
        if not dims or dims[-1] not in (ratio, None):
            raise InvalidArgumentError(message=f"Cannot bitcast from {ratio} to "
                                               f"{dims[-1] if dims else 0}")
        dims.pop()
    return [TensorType(as_dtype(attrs["type"]), TensorShape(dims))]


def _bitcast(x, type):
    a, out = np.asarray(x), np.dtype(type.numpy_dtype)
    a = a if a.flags.c_contiguous else a.copy()  # (ascontiguousarray makes scalars 1-d)
    if a.dtype.itemsize > out.itemsize:
        return a.reshape(a.shape + (1,)).view(out)
    if a.dtype.itemsize < out.itemsize:
        ratio = out.itemsize // a.dtype.itemsize
        if a.ndim == 0 or a.shape[-1] != ratio:
            raise InvalidArgumentError(message=f"Cannot bitcast from {ratio} to "
                                               f"{a.shape[-1] if a.ndim else 0}")
        return a.view(out).reshape(a.shape[:-1])
    return a.view(out)


register_op("Bitcast", _bitcast_infer, _bitcast, kernel_attrs=("type",))
