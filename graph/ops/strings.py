"""String ops and TensorFlow's text form of tensor values.

``summarize_value`` reproduces TensorFlow's ``Tensor::SummarizeValue``: the
``print_v2`` form is what ``tf.print`` / ``tf.strings.format`` show
(``[0.666458249 0.713946581 ... 0.184087753]``: nested brackets, the first
and last ``summarize`` entries of every dimension, floats with the fewest of
6 or 9 significant digits that round-trip, bools as 1/0, strings quoted);
the legacy form is what ``Assert`` messages show.

Strings are bytes held in numpy object arrays; every string kernel returns
an object array (0-d for a scalar), never a bare ``bytes``.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import as_dtype, string
from graph.errors import InvalidArgumentError
from graph.ir import TensorType
from graph.ops.infer import broadcast, expect_arity
from graph.registry import register_op
from graph.shapes import TensorShape


# -- text form of values ----------------------------------------------------------

def _format_float(v, digits: int, more: int, cast) -> str:
    if np.isnan(v):
        return "nan" if not np.signbit(v) else "-nan"
    if np.isinf(v):
        return "inf" if v > 0 else "-inf"
    text = format(float(v), f".{digits}g")
    if cast(float(text)) != v:
        text = format(float(v), f".{more}g")
    return text


def _escape(b: bytes) -> str:
    """absl::Utf8SafeCEscape: escapes quotes, backslashes and control bytes."""
    out = []
    for ch in b.decode("utf-8", errors="surrogateescape"):
        code = ord(ch)
        if ch == "\n":
            out.append("\\n")
        elif ch == "\r":
            out.append("\\r")
        elif ch == "\t":
            out.append("\\t")
        elif ch in "\"'\\":
            out.append("\\" + ch)
        elif 0xDC80 <= code <= 0xDCFF:  # an invalid UTF-8 byte
            out.append("\\%03o" % (code - 0xDC00))
        elif code < 0x20 or code == 0x7F:
            out.append("\\%03o" % code)
        else:
            out.append(ch)
    return "".join(out)


def format_element(v, print_v2: bool = True) -> str:
    """One element as TensorFlow's ``PrintOneElement`` writes it."""
    if isinstance(v, (bytes, str)):
        text = _escape(v if isinstance(v, bytes) else v.encode())
        return f'"{text}"' if print_v2 else text
    if isinstance(v, (bool, np.bool_)):
        return "1" if v else "0"
    if isinstance(v, (np.float64, float)):
        return _format_float(v, 15, 17, np.float64)
    if isinstance(v, (np.floating,)):  # float32 and float16 print as float32
        return _format_float(np.float32(v), 6, 9, np.float32)
    return str(int(v))


def _v2(arr: np.ndarray, n: int, index: tuple, out: list) -> None:
    dim = len(index)
    ndim = arr.ndim
    if dim == ndim:
        out.append(format_element(arr[index]))
        return
    out.append("[")
    count = arr.shape[dim]
    start_of_end = max(n, count - n)
    first = True
    for i in range(min(n, count)):
        if not first:
            out.append(_spacing(dim, ndim))
        first = False
        _v2(arr, n, index + (i,), out)
    if count > 2 * n:
        out.append(_spacing(dim, ndim))
        out.append("...")
    for i in range(start_of_end, count):
        out.append(_spacing(dim, ndim))
        _v2(arr, n, index + (i,), out)
    out.append("]")


def _spacing(dim: int, ndim: int) -> str:
    if dim == ndim - 1:
        return " "
    return "\n" * (ndim - dim - 1) + " " * (dim + 1)


def _legacy(arr: np.ndarray, limit: int) -> str:
    flat = arr.reshape(-1)
    out: list[str] = []
    counter = [0]

    def dim_text(dim: int, offset: int) -> None:
        count = arr.shape[dim]
        stride = int(np.prod(arr.shape[dim + 1:], dtype=np.int64))
        for i in range(count):
            if counter[0] >= limit:
                return
            if i > 0:
                out.append(" ")
            if dim < arr.ndim - 1:
                out.append("[")
                dim_text(dim + 1, offset + i * stride)
                out.append("]")
            else:
                out.append(format_element(flat[offset + i], print_v2=False))
                counter[0] += 1
    dim_text(0, 0)
    text = "".join(out)
    return text + "..." if flat.size > limit else text


def summarize_value(value, summarize: int = 3, print_v2: bool = True) -> str:
    """The text TensorFlow prints for a tensor value; ``summarize < 0`` prints all."""
    arr = np.asarray(value)
    if arr.ndim == 0:
        return format_element(arr[()], print_v2)
    limit = arr.size if summarize is None or summarize < 0 else summarize
    if not print_v2:
        return _legacy(arr, limit)
    out: list[str] = []
    _v2(arr, limit, (), out)
    return "".join(out)


def scalar_string(text) -> np.ndarray:
    out = np.empty((), dtype=object)
    out[()] = text.encode() if isinstance(text, str) else text
    return out


# -- StringFormat -----------------------------------------------------------------

def _format_infer(inputs, attrs):
    template, placeholder = attrs["template"], attrs.get("placeholder", "{}")
    count = template.count(placeholder)
    if count != len(inputs):
        raise InvalidArgumentError(
            message=f"StringFormat: {count} placeholders {placeholder!r} in template "
                    f"{template!r} but {len(inputs)} inputs; they must match")
    return [TensorType(string, TensorShape([]))]


def _string_format(*values, template, placeholder, summarize):
    pieces = template.split(placeholder)
    out = [pieces[0]]
    for value, piece in zip(values, pieces[1:]):
        out.append(summarize_value(value, summarize))
        out.append(piece)
    return scalar_string("".join(out))


register_op("StringFormat", _format_infer, _string_format,
            kernel_attrs=("template", "placeholder", "summarize"))


# -- elementwise string ops ---------------------------------------------------------

def _expect_string(op: str, x) -> None:
    if not x.dtype.is_string:
        raise InvalidArgumentError(
            message=f"{op} takes string tensors, got {x.dtype.name}; "
                    "use tf.strings.as_string to turn numbers into strings")


def _join_infer(inputs, attrs):
    if not inputs:
        raise InvalidArgumentError(message="StringJoin needs at least one input")
    shape = TensorShape([])
    for x in inputs:
        _expect_string("StringJoin", x)

        class _S:
            def __init__(self, s):
                self.shape = s
        shape = broadcast("StringJoin", _S(shape), x)
    return [TensorType(string, shape)]


def _string_join(*values, separator=""):
    sep = separator.encode() if isinstance(separator, str) else separator
    arrays = np.broadcast_arrays(*[np.asarray(v, dtype=object) for v in values])
    out = np.empty(arrays[0].shape, dtype=object)
    for idx in np.ndindex(out.shape):
        out[idx] = sep.join(a[idx] for a in arrays)
    return out


register_op("StringJoin", _join_infer, _string_join, kernel_attrs=("separator",))


def _unary_string(op: str, fn, result=string):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        _expect_string(op, inputs[0])
        return [TensorType(result, inputs[0].shape)]

    otype = object if result is string else result.numpy_dtype

    def kernel(x, **attrs):
        arr = np.asarray(x, dtype=object)
        out = np.empty(arr.shape, dtype=otype)
        for idx in np.ndindex(arr.shape):
            out[idx] = fn(arr[idx], **attrs)
        return out
    return infer, kernel


def _length(b: bytes, unit="BYTE"):
    return len(b.decode("utf-8", errors="replace")) if unit == "UTF8_CHAR" else len(b)


_infer, _kernel = _unary_string("StringLength", _length, as_dtype("int32"))
register_op("StringLength", _infer, _kernel, kernel_attrs=("unit",))
_infer, _kernel = _unary_string("StringUpper", lambda b: b.upper())
register_op("StringUpper", _infer, _kernel)
_infer, _kernel = _unary_string("StringLower", lambda b: b.lower())
register_op("StringLower", _infer, _kernel)


def _to_number_infer(inputs, attrs):
    expect_arity("StringToNumber", inputs, 1)
    _expect_string("StringToNumber", inputs[0])
    out = as_dtype(attrs["out_type"])
    if not out.is_numeric:
        raise InvalidArgumentError(message=f"StringToNumber: out_type must be numeric, got {out.name}")
    return [TensorType(out, inputs[0].shape)]


def _string_to_number(x, out_type):
    np_dtype = as_dtype(out_type).numpy_dtype
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=np_dtype)
    for idx in np.ndindex(arr.shape):
        text = arr[idx].decode(errors="replace").strip()
        try:
            out[idx] = int(text) if np_dtype.kind in "iu" else float(text)
        except ValueError:
            raise InvalidArgumentError(
                message=f"StringToNumberOp could not correctly convert string: {text}") from None
    return out


register_op("StringToNumber", _to_number_infer, _string_to_number, kernel_attrs=("out_type",))


def _as_string_infer(inputs, attrs):
    expect_arity("AsString", inputs, 1)
    x = inputs[0]
    if x.dtype.is_string:
        raise InvalidArgumentError(message="AsString takes numbers or bools; the input is already a string")
    return [TensorType(string, x.shape)]


def _as_string(x):
    arr = np.asarray(x)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        v = arr[idx]
        if arr.dtype.kind == "b":
            text = "true" if v else "false"
        elif arr.dtype.kind == "f":
            text = "%f" % v  # TensorFlow's AsString uses printf's %f by default
        else:
            text = str(int(v))
        out[idx] = text.encode()
    return out


register_op("AsString", _as_string_infer, _as_string)
