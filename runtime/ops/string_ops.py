"""``tf.strings``: format, join, length, upper/lower, to_number, as_string.

Strings are byte strings (numpy object arrays of ``bytes``), as in TensorFlow.
"""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops import math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def _string(value) -> Tensor:
    return convert_to_tensor(value, dtype_hint=dtypes.string)


def format(template: str, inputs, placeholder: str = "{}", summarize: int = 3,  # noqa: A001
           name=None) -> Tensor:
    """``tf.strings.format``: fills each placeholder with a tensor's tf.print text."""
    if math_ops.is_tensor_like(inputs) or not isinstance(inputs, (list, tuple)):
        inputs = [inputs]
    tensors = [convert_to_tensor(t) for t in inputs]
    return apply_op("StringFormat", tensors,
                    {"template": template, "placeholder": placeholder,
                     "summarize": -1 if summarize is None else int(summarize)},
                    name=name or "StringFormat")


def join(inputs, separator: str = "", name=None) -> Tensor:
    """``tf.strings.join``: elementwise concatenation of string tensors (broadcasting)."""
    return apply_op("StringJoin", [_string(t) for t in inputs], {"separator": separator},
                    name=name or "StringJoin")


def length(input, unit: str = "BYTE", name=None) -> Tensor:  # noqa: A002
    """``tf.strings.length``: bytes (or UTF-8 characters with unit='UTF8_CHAR')."""
    if unit not in ("BYTE", "UTF8_CHAR"):
        raise ValueError(f"unit must be 'BYTE' or 'UTF8_CHAR', got {unit!r}")
    return apply_op("StringLength", [_string(input)], {"unit": unit}, name=name or "StringLength")


def upper(input, encoding: str = "", name=None) -> Tensor:  # noqa: A002
    return apply_op("StringUpper", [_string(input)], name=name or "StringUpper")


def lower(input, encoding: str = "", name=None) -> Tensor:  # noqa: A002
    return apply_op("StringLower", [_string(input)], name=name or "StringLower")


def to_number(string_tensor, out_type=dtypes.float32, name=None) -> Tensor:
    """``tf.strings.to_number``: parses numbers; a malformed string is an InvalidArgumentError."""
    return apply_op("StringToNumber", [_string(string_tensor)], {"out_type": as_dtype(out_type)},
                    name=name or "StringToNumber")


def as_string(input, name=None) -> Tensor:  # noqa: A002
    """``tf.strings.as_string``: numbers and bools to their text."""
    return apply_op("AsString", [convert_to_tensor(input)], name=name or "AsString")
