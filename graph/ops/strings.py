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

import base64
import functools
import re

import numpy as np

from graph.dtypes import as_dtype, string
from graph.errors import InvalidArgumentError
from graph.farmhash import fingerprint64
from graph.ir import TensorType
from graph.ops.infer import broadcast, expect_arity
from graph.ops.string_hash import hash64, siphash24
from graph.registry import register_op
from graph.shapes import TensorShape, broadcast_shapes


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
    if isinstance(v, (np.complexfloating, complex)):
        return "?"  # TensorFlow's PrintOneElement has no case for complex numbers
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
    # (TensorFlow's SummarizeValue: at most as many as there are, so an empty tensor
    # with rows prints "[" "...]" around its row spacing, as TensorFlow does)
    limit = arr.size if summarize is None or summarize < 0 else min(summarize, arr.size)
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
    """UTF8_CHAR counts the bytes that are not continuation bytes, as TensorFlow does."""
    return len(b) - sum((c & 0xC0) == 0x80 for c in b) if unit == "UTF8_CHAR" else len(b)


_infer, _kernel = _unary_string("StringLength", _length, as_dtype("int32"))
register_op("StringLength", _infer, _kernel, kernel_attrs=("unit",))
def _case(method: str):
    """ASCII-only by default; with encoding 'utf-8' every Unicode letter, as TF's ICU path."""
    def convert(b: bytes, encoding=""):
        if encoding.lower().replace("-", "") == "utf8":
            return getattr(b.decode("utf-8", errors="surrogateescape"), method)().encode(
                "utf-8", errors="surrogateescape")
        return getattr(b, method)()
    return convert


_infer, _kernel = _unary_string("StringUpper", _case("upper"))
register_op("StringUpper", _infer, _kernel, kernel_attrs=("encoding",))
_infer, _kernel = _unary_string("StringLower", _case("lower"))
register_op("StringLower", _infer, _kernel, kernel_attrs=("encoding",))
_infer, _kernel = _unary_string("StringStrip", lambda b: b.strip())
register_op("StringStrip", _infer, _kernel)


def _encode_base64(b: bytes, pad=False) -> bytes:
    """Web-safe base64 (``-`` and ``_``), '=' padding only when ``pad``."""
    out = base64.urlsafe_b64encode(b)
    return out if pad else out.rstrip(b"=")


def _decode_base64(b: bytes) -> bytes:
    """Web-safe base64, padded or not; other characters are TensorFlow's error."""
    text = b.rstrip(b"=")
    if text.strip(b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_") or \
            len(text) % 4 == 1:
        raise InvalidArgumentError(message="Invalid character found in base64.")
    return base64.urlsafe_b64decode(text + b"=" * (-len(text) % 4))


_infer, _kernel = _unary_string("EncodeBase64", _encode_base64)
register_op("EncodeBase64", _infer, _kernel, kernel_attrs=("pad",))
_infer, _kernel = _unary_string("DecodeBase64", _decode_base64)
register_op("DecodeBase64", _infer, _kernel)


def _to_number_infer(inputs, attrs):
    expect_arity("StringToNumber", inputs, 1)
    _expect_string("StringToNumber", inputs[0])
    out = as_dtype(attrs["out_type"])
    if not out.is_real:
        raise InvalidArgumentError(message=f"StringToNumber: out_type must be numeric, got {out.name}")
    return [TensorType(out, inputs[0].shape)]


def _parse_float(text: str) -> float:
    """strtod's forms: decimal, exponent, inf/nan and hexadecimal (0x10 -> 16)."""
    if text.lower().lstrip("+-").startswith("0x"):
        return float.fromhex(text)
    return float(text)


def _string_to_number(x, out_type):
    np_dtype = as_dtype(out_type).numpy_dtype
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=np_dtype)
    for idx in np.ndindex(arr.shape):
        text = arr[idx].decode(errors="replace").strip()
        try:
            out[idx] = int(text) if np_dtype.kind in "iu" else _parse_float(text)
        except (ValueError, OverflowError):
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


def _as_string(x, precision=-1, scientific=False, shortest=False, width=-1, fill=""):
    """printf formatting as TensorFlow's AsString builds it (``%{fill}{width}.{precision}f``,
    ``g`` when ``shortest``, ``e`` when ``scientific``)."""
    arr = np.asarray(x)
    kind = arr.dtype.kind
    spec = "%" + (fill if fill else "") + (str(width) if width > -1 else "")
    if kind == "f":
        spec += (f".{precision}" if precision > -1 else "") + (
            "g" if shortest else "e" if scientific else "f")
    elif kind in "iu":
        spec += "d"
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        v = arr[idx]
        if kind == "b":
            text = "true" if v else "false"
        elif kind == "c":
            text = "(%s,%s)" % (_as_string(v.real, precision, scientific, shortest)[()].decode(),
                                _as_string(v.imag, precision, scientific, shortest)[()].decode())
        else:  # (``shortest`` is ``%g``: six significant digits by default, as TensorFlow)
            text = spec % (int(v) if kind in "iu" else float(v))
        out[idx] = text.encode()
    return out


register_op("AsString", _as_string_infer, _as_string,
            kernel_attrs=("precision", "scientific", "shortest", "width", "fill"))


# -- splitting: a flat values vector and int64 row splits (a RaggedTensor's components) -----

def _split_whitespace(b: bytes, maxsplit: int) -> list:
    """TensorFlow's: after ``maxsplit`` pieces, the rest (its leading whitespace dropped)
    is one more piece, even when empty (``"a "`` → ``["a", ""]`` for 1); 0 keeps ``b``."""
    if maxsplit < 0:
        return b.split()
    if maxsplit == 0:
        return [b]
    pieces = b.split(None, maxsplit)
    return pieces + [b""] if len(pieces) == maxsplit else pieces


def _split(b: bytes, sep=b"", maxsplit=-1) -> list:
    """``StringSplitV2``: an empty ``sep`` splits on runs of whitespace, dropping empty pieces."""
    sep = sep.encode() if isinstance(sep, str) else sep
    if not sep:
        return _split_whitespace(b, maxsplit)
    return b.split(sep, maxsplit)


def _register_splitter(op: str, piece_fn, values_dtype, attrs=()):
    """``op``: a 1-D string tensor to (values, row_splits), each row ``piece_fn``'s list."""
    def infer(inputs, node_attrs):
        expect_arity(op, inputs, 1)
        _expect_string(op, inputs[0])
        shape = inputs[0].shape
        if shape.rank is not None and shape.rank != 1:
            raise InvalidArgumentError(message=f"{op}: input must be a vector, got shape {shape}")
        n = shape[0] if shape.rank == 1 else None
        return [TensorType(values_dtype, TensorShape([None])),
                TensorType(as_dtype("int64"), TensorShape([None if n is None else n + 1]))]

    np_dtype = object if values_dtype is string else values_dtype.numpy_dtype

    def kernel(x, **kwargs):
        rows = [piece_fn(b, **kwargs) for b in np.asarray(x, dtype=object).reshape(-1)]
        splits = np.zeros(len(rows) + 1, dtype=np.int64)
        np.cumsum([len(r) for r in rows], out=splits[1:])
        flat = [p for r in rows for p in r]
        values = _object_list(flat) if np_dtype is object else np.array(flat, dtype=np_dtype)
        return values, splits
    register_op(op, infer, kernel, kernel_attrs=tuple(attrs))


def _object_list(items: list) -> np.ndarray:
    out = np.empty(len(items), dtype=object)
    out[:] = items
    return out


_register_splitter("StringSplitV2", _split, string, ("sep", "maxsplit"))
_register_splitter("StringBytesSplit", lambda b: [b[i:i + 1] for i in range(len(b))], string)


def _encode_infer(inputs, attrs):
    expect_arity("UnicodeEncode", inputs, 2)
    values, splits = inputs
    if values.dtype.name != "int32":
        raise InvalidArgumentError(message=f"UnicodeEncode: code points must be int32, got "
                                           f"{values.dtype.name}")
    n = splits.shape[0] if splits.shape.rank == 1 else None
    return [TensorType(string, TensorShape([None if n is None else n - 1]))]


def _unicode_encode(values, splits, errors="replace", replacement_char=65533):
    values, splits = np.asarray(values), np.asarray(splits)
    out = np.empty(max(len(splits) - 1, 0), dtype=object)
    for i in range(len(out)):
        chars = []
        for code in values[splits[i]:splits[i + 1]]:
            if not (0 <= code <= 0x10FFFF) or 0xD800 <= code <= 0xDFFF:
                if errors == "strict":
                    raise InvalidArgumentError(
                        message=f"Invalid code point {int(code)} for UTF-8 encoding")
                if errors == "ignore":
                    continue
                code = replacement_char
            chars.append(chr(int(code)))
        out[i] = "".join(chars).encode("utf-8")
    return out


register_op("UnicodeEncode", _encode_infer, _unicode_encode,
            kernel_attrs=("errors", "replacement_char"))


# -- substrings, regular expressions, hashing ------------------------------------------------

def _substr_infer(inputs, attrs):
    expect_arity("Substr", inputs, 3)
    _expect_string("Substr", inputs[0])
    pos, length = inputs[1], inputs[2]
    if pos.dtype != length.dtype or pos.dtype.name not in ("int32", "int64"):
        raise InvalidArgumentError(message=f"Substr: pos and len must be int32 or int64 of one "
                                           f"dtype, got {pos.dtype.name} and {length.dtype.name}")
    try:
        shape = broadcast_shapes(broadcast_shapes(inputs[0].shape, pos.shape), length.shape)
    except ValueError:
        raise InvalidArgumentError(message=f"Substr: incompatible shapes {inputs[0].shape}, "
                                           f"{pos.shape} and {length.shape}") from None
    return [TensorType(string, shape)]


def _substr(x, pos, length, unit="BYTE"):
    arrays = np.broadcast_arrays(np.asarray(x, dtype=object), np.asarray(pos), np.asarray(length))
    out = np.empty(arrays[0].shape, dtype=object)
    for idx in np.ndindex(out.shape):
        b, p, n = arrays[0][idx], int(arrays[1][idx]), int(arrays[2][idx])
        seq = b.decode("utf-8", errors="surrogateescape") if unit == "UTF8_CHAR" else b
        size = len(seq)
        if p > size or p < -size:
            where = f" at index {idx[0] if len(idx) == 1 else list(idx)}" if idx else ""
            raise InvalidArgumentError(message=f"pos {p} out of range for string {b!r}{where}")
        start = p if p >= 0 else size + p
        piece = seq[start:start + max(n, 0)]
        out[idx] = piece.encode("utf-8", errors="surrogateescape") if unit == "UTF8_CHAR" \
            else piece
    return out


register_op("Substr", _substr_infer, _substr, kernel_attrs=("unit",))


@functools.lru_cache(maxsize=256)
def _regex(pattern: bytes):
    try:
        return re.compile(pattern)
    except re.error as e:
        raise InvalidArgumentError(message=f"Invalid pattern: {pattern.decode(errors='replace')}, "
                                           f"error: {e}") from None


def _regex_infer(op: str, n: int, result):
    def infer(inputs, attrs):
        expect_arity(op, inputs, n)
        for t in inputs:
            _expect_string(op, t)
        for t in inputs[1:]:
            if t.shape.rank not in (None, 0):
                raise InvalidArgumentError(message=f"{op}: the pattern and rewrite must be "
                                                   f"scalars, got shape {t.shape}")
        return [TensorType(result, inputs[0].shape)]
    return infer


def _regex_full_match(x, pattern):
    rx = _regex(np.asarray(pattern, dtype=object)[()])
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=bool)
    for idx in np.ndindex(arr.shape):
        out[idx] = rx.fullmatch(arr[idx]) is not None
    return out


def _rewriter(rewrite: bytes):
    """RE2's rewrite string as a function of a match giving (text, valid): ``\\0``-``\\9``
    insert groups (0: the whole match), ``\\\\`` a backslash; the text stops at any other
    backslash, which makes it invalid (RE2 logs it and does not raise)."""
    pieces = []
    for p in re.split(rb"(\\.?)", rewrite, flags=re.S):
        if not p.startswith(b"\\"):
            pieces.append((None, p))
        elif p[1:].isdigit():
            pieces.append((int(p[1:]), None))
        elif p == b"\\\\":
            pieces.append((None, b"\\"))
        else:
            pieces.append((None, None))  # an invalid escape: the rewrite ends here
            break

    def rewrite_match(m):
        out = []
        for group, text in pieces:
            if group is None and text is None:
                return b"".join(out), False
            out.append(text if group is None else (m.group(group) or b""))
        return b"".join(out), True
    rewrite_match.max_group = max([g for g, _ in pieces if g is not None], default=0)
    return rewrite_match


def _rune_length(b: bytes, i: int) -> int:
    lead = b[i]
    return 1 if lead < 0xC0 else 2 if lead < 0xE0 else 3 if lead < 0xF0 else 4


def _re2_replace(rx, rewrite, b: bytes, replace_global: bool) -> bytes:
    """RE2's Replace / GlobalReplace: unlike Python's ``re.sub``, an empty match right where
    the previous match ended is skipped (``a*`` on ``aaa`` gives one replacement, not two).
    A rewrite naming a group the pattern lacks changes nothing; an invalid one changes
    nothing in Replace and puts its text up to the bad escape in GlobalReplace."""
    if rewrite.max_group > rx.groups:
        return b
    out, p, last_end, n = [], 0, -1, len(b)
    while p <= n:
        m = rx.search(b, p)
        if m is None:
            break
        start, end = m.span()
        out.append(b[p:start])
        if start == end and start == last_end:
            if start == n:
                break
            step = min(_rune_length(b, start), n - start)
            out.append(b[start:start + step])
            p = start + step
            continue
        text, valid = rewrite(m)
        if not (valid or replace_global):
            return b
        out.append(text)
        p = last_end = end
        if not replace_global:
            break
    out.append(b[p:])
    return b"".join(out)


def _regex_replace(x, pattern, rewrite, replace_global=True):
    rx = _regex(np.asarray(pattern, dtype=object)[()])
    rewrite = _rewriter(np.asarray(rewrite, dtype=object)[()])
    arr = np.asarray(x, dtype=object)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(arr.shape):
        out[idx] = _re2_replace(rx, rewrite, arr[idx], replace_global)
    return out


register_op("RegexFullMatch", _regex_infer("RegexFullMatch", 2, as_dtype("bool")),
            _regex_full_match)
register_op("RegexReplace", _regex_infer("RegexReplace", 3, string), _regex_replace,
            kernel_attrs=("replace_global",))


def _hash_infer(op: str):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 1)
        _expect_string(op, inputs[0])
        if int(attrs["num_buckets"]) < 1:
            raise InvalidArgumentError(message=f"{op}: num_buckets must be >= 1")
        return [TensorType(as_dtype("int64"), inputs[0].shape)]
    return infer


def _buckets(hash64):
    """The kernel putting each string in bucket ``hash64(s[, key]) % num_buckets``."""
    def kernel(x, num_buckets, key=None):
        arr = np.asarray(x, dtype=object)
        out = np.empty(arr.shape, dtype=np.int64)
        extra = () if key is None else (key,)
        for idx in np.ndindex(arr.shape):
            out[idx] = hash64(arr[idx], *extra) % int(num_buckets)
        return out
    return kernel


# TensorFlow's hashes: FarmHash Fingerprint64, SipHash-2-4 and Hash64 (the same buckets)
register_op("StringToHashBucketFast", _hash_infer("StringToHashBucketFast"),
            _buckets(fingerprint64), kernel_attrs=("num_buckets",))
register_op("StringToHashBucketStrong", _hash_infer("StringToHashBucketStrong"),
            _buckets(siphash24), kernel_attrs=("num_buckets", "key"))
register_op("StringToHashBucket", _hash_infer("StringToHashBucket"), _buckets(hash64),
            kernel_attrs=("num_buckets",))


def _reduce_join_infer(inputs, attrs):
    expect_arity("ReduceJoin", inputs, 1)
    _expect_string("ReduceJoin", inputs[0])
    shape, axes, keep = inputs[0].shape, attrs["axis"], attrs["keep_dims"]
    if shape.rank is None:
        return [TensorType(string, TensorShape(None))]
    rank = shape.rank
    axes = range(rank) if axes is None else [a + rank if a < 0 else a for a in axes]
    for a in axes:
        if not 0 <= a < rank:
            raise InvalidArgumentError(message=f"Invalid reduction dimension {a} for input "
                                               f"with {rank} dimension(s)")
    dims = [1 if i in axes else d for i, d in enumerate(shape.as_tuple())
            if keep or i not in axes]
    return [TensorType(string, TensorShape(dims))]


def _reduce_join(x, axis, keep_dims, separator=""):
    arr = np.asarray(x, dtype=object)
    axes = tuple(range(arr.ndim)) if axis is None else tuple(a % arr.ndim for a in axis)
    sep = separator.encode() if isinstance(separator, str) else separator
    moved = np.moveaxis(arr, axes, tuple(range(arr.ndim - len(axes), arr.ndim)))
    kept = moved.shape[:arr.ndim - len(axes)]
    flat = moved.reshape(kept + (int(np.prod(moved.shape[len(kept):], dtype=np.int64)),))
    out = np.empty(kept, dtype=object)
    for idx in np.ndindex(kept):
        out[idx] = sep.join(flat[idx])
    if keep_dims:
        out = out.reshape([1 if i in axes else n for i, n in enumerate(arr.shape)])
    return out


register_op("ReduceJoin", _reduce_join_infer, _reduce_join,
            kernel_attrs=("axis", "keep_dims", "separator"))


# -- Fingerprint ----------------------------------------------------------------------------

def _fingerprint_infer(inputs, attrs):
    (data,) = inputs
    if data.shape.rank == 0:
        raise InvalidArgumentError(message=f"`data` should have at least one dimension: "
                                           f"{list(data.shape)}")
    batch = data.shape[0] if data.shape.rank is not None else None
    return [TensorType(as_dtype("uint8"), TensorShape([batch, 8]))]


def _fingerprint(data, method):
    """TensorFlow's Fingerprint: per row, FarmHash Fingerprint64 of the row's bytes (of its
    strings' own fingerprints when a row holds several strings), as 8 little-endian bytes."""
    if method != b"farmhash64" and method != "farmhash64":
        raise InvalidArgumentError(message=f"Unsupported fingerprint method: {method!r}")
    data = np.asarray(data)
    rows = data.reshape(data.shape[0], int(np.prod(data.shape[1:])))
    out = np.empty((data.shape[0], 8), np.uint8)
    for i, row in enumerate(rows):
        if data.dtype != object:
            fp = fingerprint64(np.ascontiguousarray(row).tobytes())
        elif len(row) == 1:
            fp = fingerprint64(row[0])
        else:
            fp = fingerprint64(b"".join(fingerprint64(s).to_bytes(8, "little") for s in row))
        out[i] = np.frombuffer(fp.to_bytes(8, "little"), np.uint8)
    return out


register_op("Fingerprint", _fingerprint_infer, _fingerprint, kernel_attrs=("method",))

