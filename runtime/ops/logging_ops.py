"""``tf.print``, ``tf.debugging.Assert`` and the ``assert_*`` family.

tf.print builds a template from its arguments the way TensorFlow does:
Python strings are inlined as they are, other Python values through
``pprint.pformat``, and every tensor (also inside lists and dicts) becomes a
placeholder of one ``StringFormat`` node, whose string a ``PrintV2`` node
prints. A composite value (RaggedTensor, SparseTensor) gives its own template
and tensors (``_print_format``, see runtime/composite.py). Eagerly both run at once; in a graph they run each time the graph
runs. The stream is resolved when the print runs, so ``sys.stderr``
redirected later is honoured.
"""
from __future__ import annotations

import logging
import pprint
import sys

import numpy as np

from graph.errors import InvalidArgumentError
from runtime import context, nest
from runtime.ops import math_ops
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor

_LOG_FUNCTIONS = {logging.info: "log(info)", logging.warning: "log(warning)",
                  logging.error: "log(error)"}
_STREAM_NAMES = ("stderr", "stdout", "log(info)", "log(warning)", "log(error)")


def _stream_name(output_stream) -> str:
    if output_stream is None or output_stream is sys.stderr or output_stream is sys.__stderr__:
        return "stderr"
    if output_stream is sys.stdout or output_stream is sys.__stdout__:
        return "stdout"
    if output_stream in _LOG_FUNCTIONS:
        return _LOG_FUNCTIONS[output_stream]
    if isinstance(output_stream, str) and (output_stream in _STREAM_NAMES
                                           or output_stream.startswith("file://")):
        return output_stream
    raise ValueError(
        f"Unsupported output stream {output_stream!r} for tf.print (at {current_origin()}); "
        "use sys.stdout, sys.stderr, logging.info/warning/error or a 'file://<path>' string")


def _placeholder_for(text: str) -> str:
    placeholder, i = "{}", 0
    while placeholder in text:
        placeholder = "{%s}" % ("_" * (i + 1))
        i += 1
    return placeholder


def print_v2(*inputs, output_stream=None, summarize: int | None = 3, sep: str = " ",
             end: str = "\n", name=None) -> None:
    """``tf.print``: prints now when eager, each time the graph runs when staged."""
    stream = _stream_name(output_stream)
    summarize = -1 if summarize is None else int(summarize)
    tensor_like = math_ops.is_tensor_like
    if (len(inputs) == 1 and tensor_like(inputs[0])
            and convert_to_tensor(inputs[0]).dtype.is_string
            and convert_to_tensor(inputs[0]).shape.rank == 0):
        formatted = convert_to_tensor(inputs[0])
    else:
        tensor_free = nest.map_structure(
            lambda v: "" if tensor_like(v) or hasattr(v, "_print_format") else v, list(inputs))
        text = (" ".join(pprint.pformat(v) for v in tensor_free)
                + " ".join(str(v) for v in inputs if isinstance(v, str)))
        placeholder = _placeholder_for(text)
        verbatim = _placeholder_for(text + placeholder)  # where a string is inserted as it is
        templates, tensors, inserted = [], [], []
        for value in inputs:
            leaves = []
            for leaf in nest.flatten(value):
                if tensor_like(leaf):
                    tensors.append(convert_to_tensor(leaf))
                    leaves.append(placeholder)
                elif hasattr(leaf, "_print_format"):  # a composite: its template, its tensors
                    piece, parts, as_is = leaf._print_format(summarize)
                    (inserted if as_is else tensors).extend(convert_to_tensor(p) for p in parts)
                    slot = verbatim if as_is else placeholder
                    leaves.append(_Verbatim(piece.replace("{}", slot)))
                else:
                    leaves.append(leaf)
            if isinstance(value, str):
                templates.append(value)
            else:
                templates.append(pprint.pformat(nest.pack_sequence_as(value, leaves)))
        template = sep.join(templates).replace(repr(placeholder), placeholder)
        formatted = _format(template, placeholder, tensors, summarize, verbatim, inserted)
    apply_op("PrintV2", [formatted], {"output_stream": stream, "end": end},
             name=name or "PrintV2")


def _format(template: str, placeholder: str, tensors: list, summarize: int, verbatim: str,
            inserted: list):
    """One StringFormat of ``template``; where ``verbatim`` marks a slot, the next string of
    ``inserted`` is joined in as it is (not quoted as StringFormat shows strings)."""
    segments = template.split(verbatim) if inserted else [template]
    pieces, used = [], 0
    for i, segment in enumerate(segments):
        n = segment.count(placeholder)
        pieces.append(apply_op("StringFormat", tensors[used:used + n],
                               {"template": segment, "placeholder": placeholder,
                                "summarize": summarize}, name="StringFormat"))
        used += n
        if i < len(inserted):
            pieces.append(inserted[i])
    if len(pieces) == 1:
        return pieces[0]
    return apply_op("StringJoin", pieces, {"separator": ""}, name="StringJoin")


class _Verbatim:
    """A piece of template that pprint shows as it is (no quotes)."""

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


# -- Assert -----------------------------------------------------------------------

def _summarize_eager(t: EagerTensor, summarize: int) -> str:
    value = t.numpy()
    if np.ndim(value):
        flat = np.asarray(value).reshape(-1)
        n = flat.size if summarize < 0 else summarize
        items = [str(v) for v in flat[:n]]
        if len(items) < flat.size:
            items.append("...")
        return ", ".join(items)
    return str(value) if summarize != 0 else ""


def Assert(condition, data, summarize: int | None = None, name=None):  # noqa: N802  (TF's name)
    """``tf.debugging.Assert``: raises InvalidArgumentError with ``data`` when condition is false.

    Eagerly it checks at once; in a graph it records a stateful Assert node
    that checks each time the graph runs.
    """
    summarize = 3 if summarize is None else int(summarize)
    cond = convert_to_tensor(condition)
    data = [convert_to_tensor(d) for d in data]
    if context.current_graph() is None:
        if not np.all(cond.numpy()):
            summary = "\n".join(_summarize_eager(d, summarize) for d in data)
            raise InvalidArgumentError(
                message=f"Expected '{cond!s}' to be true. Summarized data: {summary}\n"
                        f"  at {current_origin()}")
        return None
    if cond.shape.rank not in (None, 0):
        cond = math_ops.reduce_all(cond)
    return apply_op("Assert", [cond] + data, {"summarize": summarize}, name=name or "Assert")


def _binary_assert(symbol: str, test, default_name: str):
    def check(x, y, message=None, summarize=None, name=None):
        name = name or default_name
        x, y = math_ops.operands(x, y, name)
        summarize = 3 if summarize is None else int(summarize)
        prefix = f"{message}\n" if message else ""
        if context.current_graph() is None:
            ok = test(x, y).numpy()
            if not np.all(ok):
                bad = np.argwhere(~np.broadcast_to(ok, np.shape(ok)))[:summarize]
                xv = np.broadcast_to(x.numpy(), np.shape(ok))
                yv = np.broadcast_to(y.numpy(), np.shape(ok))
                raise InvalidArgumentError(
                    message=f"{prefix}Condition x {symbol} y did not hold.\n"
                            f"Indices of first {len(bad)} different values:\n{bad}\n"
                            f"Corresponding x values:\n{np.array([xv[tuple(i)] for i in bad])}\n"
                            f"Corresponding y values:\n{np.array([yv[tuple(i)] for i in bad])}\n"
                            f"  at {current_origin()}")
            return None
        xv, yv = x.value, y.value  # both known while tracing: check now, like TF
        if xv is not None and yv is not None:
            with context.building(None):
                ok = test(convert_to_tensor(np.asarray(xv)), convert_to_tensor(np.asarray(yv)))
            if not np.all(ok.numpy()):
                raise InvalidArgumentError(
                    message=f"{prefix}Condition x {symbol} y did not hold: x = {np.asarray(xv)}, "
                            f"y = {np.asarray(yv)}\n  at {current_origin()}")
            return None
        data = ([message] if message else []) + [
            f"Condition x {symbol} y did not hold element-wise:",
            f"x ({_tensor_name(x)}) = ", x, f"y ({_tensor_name(y)}) = ", y]
        return Assert(math_ops.reduce_all(test(x, y)), data, summarize, name=name)
    check.__name__ = default_name
    return check


assert_equal = _binary_assert("==", math_ops.equal, "assert_equal")
assert_none_equal = _binary_assert("!=", math_ops.not_equal, "assert_none_equal")
assert_greater = _binary_assert(">", math_ops.greater, "assert_greater")
assert_greater_equal = _binary_assert(">=", math_ops.greater_equal, "assert_greater_equal")
assert_less = _binary_assert("<", math_ops.less, "assert_less")
assert_less_equal = _binary_assert("<=", math_ops.less_equal, "assert_less_equal")


def _sign_assert(symbol: str, test, default_name: str):
    def check(x, message=None, summarize=None, name=None):
        x = convert_to_tensor(x)
        zero = convert_to_tensor(0, dtype=x.dtype)
        return _binary_assert(symbol, test, name or default_name)(
            x, zero, message=message, summarize=summarize, name=name or default_name)
    check.__name__ = default_name
    return check


assert_positive = _sign_assert(">", math_ops.greater, "assert_positive")
assert_negative = _sign_assert("<", math_ops.less, "assert_negative")
assert_non_negative = _sign_assert(">=", math_ops.greater_equal, "assert_non_negative")
assert_non_positive = _sign_assert("<=", math_ops.less_equal, "assert_non_positive")


def _tensor_name(t) -> str:
    return t.name if isinstance(t, SymbolicTensor) else "Const:0"
