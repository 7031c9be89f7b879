"""Arithmetic, comparisons, logic, reductions and elementwise math under TF's names.

Every function runs eagerly or records a node (``apply_op`` decides). The
dtype rules are TensorFlow's: no implicit promotion between tensors; a
Python number or list takes the dtype of the tensor it meets (``x + 1`` on
float32 adds a float32 1), and a value that cannot be represented in it
(``int32_tensor + 1.5``) is a TypeError, never silently truncated.
"""
from __future__ import annotations

import builtins

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.errors import DTypeMismatchError, TensorConversionError
from runtime.context import current_graph
from runtime.composite import PLAIN_ARGS, dispatching, with_fast_path
from runtime.ops.core import (_const_name, apply_op, binary_operands, constant,
                               convert_to_tensor, is_tensor_like)
from runtime.ops.eager import binary_api, unary_api
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, Tensor


def _convert_like(value, dtype: DType, name: str) -> Tensor:
    """Converts a non-tensor operand to ``dtype`` as TensorFlow does: a numpy value is cast
    (``int32 * np.float64(2.5)`` is 2), a Python value must fit (``int32 * 2.5`` and
    ``int32 + 2.0`` are TypeErrors)."""
    if isinstance(value, (np.ndarray, np.generic)):
        src = np.asarray(value).dtype
        if (src.kind in "OSU") != dtype.is_string or (src.kind == "c" and not dtype.is_complex):
            raise TypeError(
                f"Cannot convert a numpy {src} value to a {dtype.name} tensor "
                f"(at {current_origin()}); convert it with tf.cast or use a {dtype.name} array")
        if src.kind not in "OSU" and src != dtype.numpy_dtype:
            with np.errstate(all="ignore"):  # (TensorFlow's cast wraps and truncates)
                value = np.asarray(value).astype(dtype.numpy_dtype)
        return convert_to_tensor(value, dtype_hint=dtype, name=name)
    try:
        return convert_to_tensor(value, dtype=dtype, name=name)
    except TensorConversionError:
        raise  # (no value of this type makes a tensor: TensorFlow's ValueError, as it is)
    except TypeError as e:  # (TensorFlow: InvalidArgumentError eagerly, TypeError in a graph)
        raise DTypeMismatchError(message=(
            f"{e} (at {current_origin()}): the other operand is a {dtype.name} tensor. "
            f"Write the value so it fits {dtype.name}, or tf.cast the tensor.")) from None


_NUMBERS = frozenset({bool, int, float})

# Eager operand tensors of Python numbers: ``x * 2.0`` in a loop converts 2.0 once. Keyed on
# (type, value, dtype name): the type keeps ``True`` and ``1`` apart. Float zeros are never
# stored (``0.0 == -0.0`` would share a key), nor NaN. Values are read-only 0-d arrays (numpy
# adds an array to a 0-d array faster than to a scalar). Only operands are shared, never
# what tf.constant returns: a user's tensors must stay distinct for tape.gradient.
_NUMBER_OPERANDS: dict = {}
_NUMBER_LIMIT = 1024  # entries; the table is dropped when full


def _number_like(value, dtype: DType, op_name: str, arg: str) -> Tensor:
    """``_convert_like`` for a Python number operand, eagerly shared via _NUMBER_OPERANDS."""
    if current_graph() is not None:
        return _convert_like(value, dtype, _const_name(op_name, arg))
    key = (value.__class__, value, dtype.name)
    t = _NUMBER_OPERANDS.get(key)
    if t is None:
        t = _convert_like(value, dtype, "Const")
        if value == value and (value or value.__class__ is not float) \
                and t.__class__ is EagerTensor:
            arr = np.array(t._value)
            arr.flags.writeable = False
            t = EagerTensor(arr, t._dtype)
            if len(_NUMBER_OPERANDS) >= _NUMBER_LIMIT:
                _NUMBER_OPERANDS.clear()
            _NUMBER_OPERANDS[key] = t
    return t


def operands(x, y, op_name: str) -> tuple[Tensor, Tensor]:
    """The two operands of a binary op as tensors; a Python value takes the tensor's dtype."""
    if isinstance(x, Tensor):  # the common cases first, eager or staged
        if isinstance(y, Tensor):
            return x, y
        if y.__class__ in _NUMBERS:  # x * 2.0
            return x, _number_like(y, x.dtype, op_name, "y")
    if is_tensor_like(x):
        x = convert_to_tensor(x)
    if is_tensor_like(y):
        y = convert_to_tensor(y)
    x_t, y_t = isinstance(x, Tensor), isinstance(y, Tensor)
    if x_t and not y_t:
        if y.__class__ in _NUMBERS:
            return x, _number_like(y, x.dtype, op_name, "y")
        return x, _convert_like(y, x.dtype, _const_name(op_name, "y"))
    if y_t and not x_t:
        if x.__class__ in _NUMBERS:
            return _number_like(x, y.dtype, op_name, "x"), y
        return _convert_like(x, y.dtype, _const_name(op_name, "x")), y
    return binary_operands(x, y, op_name)


# The elementwise APIs: ``unary_api``/``binary_api`` run an eager call on an EagerTensor (and
# an EagerTensor, or a Python number already in _NUMBER_OPERANDS) in one frame; every other
# call takes the reference path behind the composite dispatch check.

def _binary(op: str, default_name: str, tf_name: str | None = None):
    tf_name = tf_name or default_name.lower()

    def reference(x, y, name=None):
        name = name or default_name
        x, y = operands(x, y, name)
        return apply_op(op, [x, y], name=name)
    fn = binary_api(op, dispatching(tf_name, reference), _NUMBER_OPERANDS, PLAIN_ARGS)
    return _api(fn, reference, tf_name, f"Elementwise ``{op}`` with broadcasting")


def _unary(op: str, default_name: str, tf_name: str):
    def reference(x, name=None):
        return apply_op(op, [convert_to_tensor(x)], name=name or default_name)
    fn = unary_api(op, dispatching(tf_name, reference))
    return _api(fn, reference, tf_name, f"Elementwise ``{op}``")


def _api(fn, reference, tf_name: str, doc: str):
    fn.__name__ = fn.__qualname__ = reference.__name__ = reference.__qualname__ = tf_name
    fn.__doc__ = reference.__doc__ = f"{doc} (``tf.{tf_name}``)."
    return with_fast_path(tf_name, fn, reference)


# -- arithmetic --------------------------------------------------------------------

add = _binary("AddV2", "Add", "add")
subtract = _binary("Sub", "Sub", "subtract")
multiply = _binary("Mul", "Mul", "multiply")
maximum = _binary("Maximum", "Maximum", "maximum")
minimum = _binary("Minimum", "Minimum", "minimum")
floordiv = _binary("FloorDiv", "floordiv", "floordiv")
floormod = _binary("FloorMod", "FloorMod", "floormod")
mod = floormod
squared_difference = _binary("SquaredDifference", "SquaredDifference", "squared_difference")
bitwise_and = _binary("BitwiseAnd", "BitwiseAnd", "bitwise_and")
bitwise_or = _binary("BitwiseOr", "BitwiseOr", "bitwise_or")
bitwise_xor = _binary("BitwiseXor", "BitwiseXor", "bitwise_xor")


def pow(x, y, name=None) -> Tensor:  # noqa: A001  (TensorFlow's name)
    """``tf.pow``: x to the power y, elementwise; integer bases need non-negative powers."""
    name = name or "Pow"
    x, y = operands(x, y, name)
    return apply_op("Pow", [x, y], name=name)


_TRUEDIV_TYPES = {"int8": dtypes.float32, "uint8": dtypes.float32, "int16": dtypes.float32,
                  "uint16": dtypes.float32, "int32": dtypes.float64, "int64": dtypes.float64,
                  "uint32": dtypes.float64, "uint64": dtypes.float64}


def truediv(x, y, name=None) -> Tensor:
    """``x / y``; integers are first cast to float (int32 and int64 to float64) like TF."""
    name = name or "truediv"
    x, y = operands(x, y, name)
    if x.dtype != y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r} "
                        f"(at {current_origin()}); use tf.cast to make them match")
    target = _TRUEDIV_TYPES.get(x.dtype.name)
    if target is not None:
        x, y = cast(x, target), cast(y, target)
    return apply_op("RealDiv", [x, y], name=name)


def divide(x, y, name=None) -> Tensor:
    """``tf.divide``: the same as ``x / y``."""
    return truediv(x, y, name=name)


def realdiv(x, y, name=None) -> Tensor:
    x, y = operands(x, y, name or "RealDiv")
    return apply_op("RealDiv", [x, y], name=name or "RealDiv")


negative = _unary("Neg", "Neg", "negative")


def abs(x, name=None) -> Tensor:  # noqa: A001
    """``tf.abs``: Abs, or ComplexAbs (|x| in the parts' dtype) on complex tensors."""
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        return apply_op("ComplexAbs", [x], name=name or "ComplexAbs")
    return apply_op("Abs", [x], name=name or "Abs")


square = _unary("Square", "Square", "square")
sign = _unary("Sign", "Sign", "sign")
tanh = _unary("Tanh", "Tanh", "tanh")
exp = _unary("Exp", "Exp", "exp")
log = _unary("Log", "Log", "log")
sqrt = _unary("Sqrt", "Sqrt", "sqrt")
rsqrt = _unary("Rsqrt", "Rsqrt", "rsqrt")
sigmoid = _unary("Sigmoid", "Sigmoid", "sigmoid")
sin = _unary("Sin", "Sin", "sin")
cos = _unary("Cos", "Cos", "cos")
floor = _unary("Floor", "Floor", "floor")
ceil = _unary("Ceil", "Ceil", "ceil")
round = _unary("Round", "Round", "round")  # noqa: A001
relu = _unary("Relu", "Relu", "relu")
invert = _unary("Invert", "Invert", "invert")

# -- comparisons and logic ---------------------------------------------------------------

greater = _binary("Greater", "Greater", "greater")
greater_equal = _binary("GreaterEqual", "GreaterEqual", "greater_equal")
less = _binary("Less", "Less", "less")
less_equal = _binary("LessEqual", "LessEqual", "less_equal")
logical_and = _binary("LogicalAnd", "LogicalAnd", "logical_and")
logical_or = _binary("LogicalOr", "LogicalOr", "logical_or")
logical_not = _unary("LogicalNot", "LogicalNot", "logical_not")


def equal(x, y, name=None) -> Tensor:
    """``tf.equal``: elementwise x == y (numbers, bools and strings)."""
    name = name or "Equal"
    x, y = operands(x, y, name)
    return apply_op("Equal", [x, y], {"incompatible_shape_error": True}, name=name)


def not_equal(x, y, name=None) -> Tensor:
    name = name or "NotEqual"
    x, y = operands(x, y, name)
    return apply_op("NotEqual", [x, y], {"incompatible_shape_error": True}, name=name)


def logical_xor(x, y, name=None) -> Tensor:
    """TensorFlow composes xor as (x or y) and not (x and y)."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)), name=name or "LogicalXor")


# -- matmul, where, cast ------------------------------------------------------------

def matmul(a, b, transpose_a: bool = False, transpose_b: bool = False,
           adjoint_a: bool = False, adjoint_b: bool = False, a_is_sparse: bool = False,
           b_is_sparse: bool = False, output_type=None, grad_a: bool = False,
           grad_b: bool = False, name=None) -> Tensor:
    """``tf.matmul``: MatMul for two matrices, BatchMatMulV2 when either has batch dims.

    ``a_is_sparse``/``b_is_sparse``/``grad_a``/``grad_b`` are TensorFlow's kernel hints
    (same result). ``output_type`` (int32 for (u)int8 operands) multiplies the operands
    cast to it: the products accumulate in the wider type, as TensorFlow's do."""
    if output_type is not None:
        a, b = operands(a, b, name or "MatMul")
        output_type = dtypes.as_dtype(output_type)
        if output_type != a.dtype:
            if not (a.dtype in (dtypes.int8, dtypes.uint8) and output_type == dtypes.int32):
                raise TypeError(f"output_type={output_type.name} is only supported for int8 "
                                f"or uint8 operands and int32 output, got {a.dtype.name}")
            a, b = cast(a, output_type), cast(b, output_type)
    if transpose_a or transpose_b or adjoint_a or adjoint_b:
        return _matmul(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, name)
    return _plain_matmul(a, b, name)  # (two eager matrices: one lookup, np.matmul)


def _matmul(a, b, transpose_a, transpose_b, adjoint_a, adjoint_b, name) -> Tensor:
    name = name or "MatMul"
    a, b = operands(a, b, name)
    ta, tb = bool(transpose_a or adjoint_a), bool(transpose_b or adjoint_b)
    if _rank(a) == 2 and _rank(b) == 2:
        if a.dtype.is_complex:  # MatMul only transposes: an adjoint conjugates first
            a = apply_op("Conj", [a], name="Conj") if adjoint_a else a
            b = apply_op("Conj", [b], name="Conj") if adjoint_b else b
        return apply_op("MatMul", [a, b], {"transpose_a": ta, "transpose_b": tb}, name=name)
    return apply_op("BatchMatMulV2", [a, b], {"adj_x": ta, "adj_y": tb}, name=name)


# Nothing transposed: eager 2-D @ 2-D hits the MatMul entries the reference path made (a batch
# matmul's shapes never have one: it makes BatchMatMulV2 entries).
_plain_matmul = binary_api("MatMul", lambda a, b, name: _matmul(
    a, b, False, False, False, False, name), attrs={"transpose_a": False, "transpose_b": False})


def _rank(t: Tensor) -> int | None:
    """``t.shape.rank`` without building a TensorShape for an eager array."""
    if t.__class__ is EagerTensor:
        v = t._value
        if v.__class__ is np.ndarray:
            return v.ndim
    return t.shape.rank


def where(condition, x=None, y=None, name=None) -> Tensor:
    """``tf.where``: elements of x where condition holds, else of y (broadcasting).

    With only a condition, the int64 coordinates of its true elements.
    """
    condition = convert_to_tensor(condition, dtype_hint=dtypes.bool_)
    if x is None and y is None:
        return apply_op("Where", [condition], name=name or "Where")
    if x is None or y is None:
        raise ValueError(f"tf.where needs both x and y, or neither (at {current_origin()})")
    x, y = operands(x, y, name or "SelectV2")
    return apply_op("SelectV2", [condition, x, y], name=name or "SelectV2")


def cast(x, dtype, name=None) -> Tensor:
    """``tf.cast``: float to int truncates toward zero; nonzero becomes True."""
    dtype = as_dtype(dtype)
    if is_tensor_like(x):
        x = convert_to_tensor(x)
    elif isinstance(x, (np.ndarray, np.generic)) or not dtype.is_string:
        try:
            x = convert_to_tensor(x, dtype_hint=dtype if not _is_float_value(x) else None)
        except TypeError:
            x = convert_to_tensor(x)
    else:
        x = convert_to_tensor(x)
    if x.dtype == dtype:
        return x
    return apply_op("Cast", [x], {"SrcT": x.dtype, "DstT": dtype, "Truncate": False},
                    name=name or "Cast")


def saturate_cast(value, dtype, name=None) -> Tensor:
    """``tf.dtypes.saturate_cast``: ``value`` clamped to the range of ``dtype``, then cast.

    The bounds are the values of the input's type nearest to ``dtype``'s range from inside
    (float32 to int32 clamps at 2147483520), so the cast never overflows; complex to real
    keeps the real part, complex to complex clamps both parts.
    """
    from runtime.ops import complex_ops
    dtype = as_dtype(dtype)
    x = convert_to_tensor(value)
    if x.dtype.is_complex:
        if not dtype.is_complex:
            x = complex_ops.real(x)
        else:
            part = dtypes.float32 if dtype == dtypes.complex64 else dtypes.float64
            return complex_ops.complex(saturate_cast(complex_ops.real(x), part),
                                       saturate_cast(complex_ops.imag(x), part), name=name)
    low, high = _inner_limits(x.dtype, dtype)
    if low is not None:
        x = maximum(x, constant(low, dtype=x.dtype))
    if high is not None:
        x = minimum(x, constant(high, dtype=x.dtype))
    return cast(x, dtype, name=name or "saturate_cast")


def _inner_limits(src, dst):
    """dst's min and max as values of src rounded inward (None where src cannot pass them)."""
    if dst.is_bool or src.is_bool:
        return None, None
    limits = []
    for bound, inward in ((dst.min, np.inf), (dst.max, -np.inf)):
        outside = bound > src.max if inward < 0 else bound < src.min
        if outside or bound == (src.max if inward < 0 else src.min):
            limits.append(None)
            continue
        v = np.asarray(bound).astype(src.numpy_dtype)
        if src.is_floating and (float(v) > bound if inward < 0 else float(v) < bound):
            v = np.nextafter(v, np.asarray(inward, src.numpy_dtype))
        limits.append(v)
    return limits


def _is_float_value(value) -> bool:
    from runtime.ops.core import _leaves
    return builtins.any(isinstance(v, float) for v in _leaves(value))


# -- reductions ------------------------------------------------------------------------

def _static_axis(axis):
    """The axis argument as None or a tuple of ints; it must be known while tracing."""
    if axis is None:
        return None
    if is_tensor_like(axis):
        t = convert_to_tensor(axis)
        value = t.numpy() if isinstance(t, EagerTensor) else t.value
        if value is None:
            raise TypeError(
                f"The reduction axis must be known while tracing (at {current_origin()}); "
                "pass a Python int or list instead of a computed tensor")
        axis = np.asarray(value).tolist()
    if isinstance(axis, (int, np.integer)):
        return (int(axis),)
    if isinstance(axis, (list, tuple)):
        return tuple(int(a) for a in axis)
    raise TypeError(f"axis must be None, an int or a list of ints, got {axis!r}")


def _reduction(op: str, tf_name: str, bool_input: bool = False):
    def fn(input_tensor, axis=None, keepdims: bool = False, name=None):
        x = convert_to_tensor(input_tensor, dtype_hint=dtypes.bool_ if bool_input else None)
        return apply_op(op, [x], {"axis": _static_axis(axis), "keep_dims": bool(keepdims)},
                        name=name or op)
    fn.__name__ = fn.__qualname__ = tf_name
    fn.__doc__ = f"``tf.{tf_name}``: ``{op}`` over ``axis`` (None: all axes)."
    return fn


reduce_sum = _reduction("Sum", "reduce_sum")
reduce_mean = _reduction("Mean", "reduce_mean")
reduce_max = _reduction("Max", "reduce_max")
reduce_min = _reduction("Min", "reduce_min")
reduce_prod = _reduction("Prod", "reduce_prod")
reduce_any = _reduction("Any", "reduce_any", bool_input=True)
reduce_all = _reduction("All", "reduce_all", bool_input=True)


def _arg_reduction(op: str, tf_name: str):
    def fn(input, axis=None, output_type=dtypes.int64, name=None):
        x = convert_to_tensor(input)
        axes = _static_axis(0 if axis is None else axis)
        if len(axes) != 1:
            raise TypeError(f"{tf_name} takes one axis, got {axis!r}")
        return apply_op(op, [x], {"axis": axes[0], "output_type": as_dtype(output_type)},
                        name=name or op)
    fn.__name__ = fn.__qualname__ = tf_name
    return fn


argmax = _arg_reduction("ArgMax", "argmax")
argmin = _arg_reduction("ArgMin", "argmin")


def add_n(inputs, name=None) -> Tensor:
    """``tf.add_n``: the sum of a list of same-shape tensors."""
    inputs = list(inputs)
    if not inputs:
        raise ValueError("tf.add_n needs at least one input")
    total = convert_to_tensor(inputs[0])
    for t in inputs[1:]:
        total = add(total, t, name=name or "AddN")
    return total
