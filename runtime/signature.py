"""Binding call arguments to a Python signature, input signatures, signature printing.

``FunctionSpec`` canonicalizes a call (keywords to positions, defaults filled
in) so that ``f(1, b=2)`` and ``f(1, 2)`` share a trace; it has a fast path
for the common all-positional call. Input signatures (sequences of
``TensorSpec``) are checked and applied here, and concrete functions are
printed here, in the exact format of TensorFlow's guides.
"""
from __future__ import annotations

import inspect
import pprint

from graph.errors import InvalidArgumentError
from runtime import nest
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.composite import is_composite_tensor, type_spec_of
from runtime.tensor_spec import TensorSpec, TypeSpec


class InputSignatureError(ValueError, TypeError):
    """Arguments do not fit a Function's ``input_signature``.

    Both a ValueError (what the guides catch) and a TypeError (what
    TensorFlow 2.21 raises), so that code written for either works.
    """


class _CapturedDefault:
    """How TensorFlow prints a parameter's default value in a binding error."""

    def __repr__(self) -> str:
        return "<captured_default_value>"


_CAPTURED = _CapturedDefault()


class FunctionSpec:
    """The parameters of a Python function, for binding calls quickly."""

    def __init__(self, python_function, input_signature=None):
        try:
            sig = inspect.signature(python_function)
        except (TypeError, ValueError):  # builtins: treat as *args
            sig = inspect.Signature([inspect.Parameter("args", inspect.Parameter.VAR_POSITIONAL)])
        self.positional: list[str] = []
        self.defaults: dict[str, object] = {}
        self.kwonly: list[str] = []
        self.varargs: str | None = None
        self.varkw: str | None = None
        for p in sig.parameters.values():
            if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
                self.positional.append(p.name)
            elif p.kind == p.VAR_POSITIONAL:
                self.varargs = p.name
            elif p.kind == p.KEYWORD_ONLY:
                self.kwonly.append(p.name)
            else:
                self.varkw = p.name
            if p.default is not p.empty:
                self.defaults[p.name] = p.default
        self.n_positional = len(self.positional)
        # How many positional arguments a call binds as it is (-1: every call needs binding,
        # as keyword-only parameters must be checked or their defaults made part of the key).
        self.fast_arity = -1 if self.kwonly else self.n_positional
        self._text = str(sig.replace(
            parameters=[p.replace(annotation=p.empty, default=_CAPTURED if p.default is not p.empty
                                  else p.empty) for p in sig.parameters.values()],
            return_annotation=sig.empty))
        self._index = {n: i for i, n in enumerate(self.positional)}
        self.input_signature = None if input_signature is None else tuple(input_signature)
        if self.input_signature is not None and self.varkw is not None:
            raise TypeError("A function with **kwargs cannot have an input_signature: every "
                            "input must be described by a TensorSpec.")

    def bind(self, args: tuple, kwargs: dict, name: str = "function"):
        """Canonical (positional args, keyword-only/extra kwargs) of a call; a call that does
        not fit is TensorFlow's TypeError (Python's reason, the call and the signature)."""
        n = self.n_positional
        if not kwargs and len(args) == self.fast_arity:
            return args, {}
        if len(args) > n and self.varargs is None:
            raise self._binding_error("too many positional arguments", args, kwargs)
        out = list(args[:n])
        given = kwargs
        kwargs = dict(kwargs)
        for i in range(len(out), n):
            pname = self.positional[i]
            if pname in kwargs:
                out.append(kwargs.pop(pname))
            elif pname in self.defaults:
                out.append(self.defaults[pname])
            else:
                raise self._binding_error(f"missing a required argument: '{pname}'", args, given)
        for pname in self.positional[:len(args)]:
            if pname in kwargs:
                raise self._binding_error(f"multiple values for argument '{pname}'", args, given)
        extra = {}
        for pname in self.kwonly:
            if pname in kwargs:
                extra[pname] = kwargs.pop(pname)
            elif pname in self.defaults:
                extra[pname] = self.defaults[pname]
            else:
                raise self._binding_error(f"missing a required argument: '{pname}'", args, given)
        if kwargs:
            if self.varkw is None:
                raise self._binding_error(
                    f"got an unexpected keyword argument '{next(iter(kwargs))}'", args, given)
            extra.update(kwargs)
        return tuple(out) + tuple(args[n:]), extra

    def _binding_error(self, reason: str, args: tuple, kwargs: dict) -> TypeError:
        return TypeError(f"Binding inputs to tf.function failed due to `{reason}`. Received "
                         f"args: {tuple(args)!r} and kwargs: {kwargs!r} for signature: "
                         f"{self._text}.")

    def arg_names(self, n_args: int) -> list[str]:
        """Names of ``n_args`` canonical positional arguments (varargs: args_0, args_1...)."""
        names = list(self.positional[:n_args])
        for i in range(n_args - len(names)):
            names.append(f"{self.varargs or 'args'}_{i}")
        return names


# -- input signatures ------------------------------------------------------------------

def check_input_signature(input_signature):
    """Validates ``input_signature``: None or a (nested) sequence of TensorSpec / TypeSpec."""
    if input_signature is None:
        return None
    if not isinstance(input_signature, (list, tuple)):
        raise TypeError(f"input_signature must be either a tuple or a list of tf.TensorSpec "
                        f"objects, got {type(input_signature).__name__}: {input_signature!r}")
    for spec in nest.flatten(list(input_signature)):
        if not isinstance(spec, TypeSpec):
            raise TypeError(f"input_signature must be a possibly nested sequence of "
                            f"tf.TensorSpec objects, got {spec!r}")
    return tuple(input_signature)


def _signature_error(inputs, input_signature) -> InputSignatureError:
    ins = ",\n    ".join(str(i) for i in inputs)
    sig = ",\n    ".join(repr(s) for s in input_signature)
    return InputSignatureError(f"Python inputs incompatible with input_signature:\n"
                               f"  inputs: (\n    {ins})\n  input_signature: (\n    {sig}).")


def apply_input_signature(spec: FunctionSpec, args: tuple, kwargs: dict, name: str,
                          convert) -> tuple:
    """Checks a call against the input signature; returns the canonical tensor args.

    ``convert(value, dtype)`` turns a non-tensor value into a tensor.
    """
    signature = spec.input_signature
    given = list(args) + list(kwargs.values())
    try:
        bound, extra = spec.bind(args, kwargs, name)
    except TypeError:
        raise _signature_error(given, signature) from None
    if extra or len(bound) > len(signature):
        explicit = len(args) + len(kwargs)
        if extra or explicit > len(signature):
            raise _signature_error(given, signature)
    out = []
    for value, sig in zip(bound, signature):
        try:
            pairs = _pairs_up_to(sig, value)
        except ValueError:
            raise _signature_error(given, signature) from None
        leaves = []
        for leaf, leaf_spec in pairs:
            if isinstance(leaf, TypeSpec):  # get_concrete_function(spec): a spec that fits
                if not leaf_spec.is_compatible_with(leaf):
                    raise _signature_error(given, signature)
                leaves.append(leaf_spec)
                continue
            if not isinstance(leaf, Tensor) and not is_composite_tensor(leaf):
                try:
                    leaf = convert(leaf, leaf_spec.dtype)
                except (TypeError, ValueError):
                    raise _signature_error(given, signature) from None
            if not leaf_spec.is_compatible_with(leaf):
                raise _signature_error(given, signature)
            leaves.append(leaf)
        out.append(_pack_up_to(sig, value, iter(leaves)))
    if len(out) < len(signature):
        raise _signature_error(given, signature)
    return tuple(out)


def _pairs_up_to(sig, value) -> list:
    """(value leaf, spec) pairs: ``value`` flattened as deep as the signature goes (a list
    given for a TensorSpec is one leaf, converted to a tensor), ValueError when it does not fit."""
    if isinstance(sig, TypeSpec):
        return [(value, sig)]
    if isinstance(sig, dict):
        if not isinstance(value, dict) or sorted(value, key=repr) != sorted(sig, key=repr):
            raise ValueError("structure")
        return [p for k in nest._sorted_keys(sig) for p in _pairs_up_to(sig[k], value[k])]
    if not isinstance(value, (list, tuple)) or len(value) != len(sig):
        raise ValueError("structure")
    return [p for s, v in zip(sig, value) for p in _pairs_up_to(s, v)]


def _pack_up_to(sig, value, leaves):
    """``value`` with its leaves (down to the signature's) taken from ``leaves``."""
    if isinstance(sig, TypeSpec):
        return next(leaves)
    if isinstance(sig, dict):
        packed = {k: _pack_up_to(sig[k], value[k], leaves) for k in nest._sorted_keys(sig)}
        return type(value)((k, packed[k]) for k in value) if type(value) is dict else packed
    items = [_pack_up_to(s, v, leaves) for s, v in zip(sig, value)]
    if hasattr(value, "_fields"):
        return type(value)(*items)
    return type(value)(items) if type(value) in (list, tuple) else items


# -- printing ----------------------------------------------------------------------------

class _Marker:
    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def contains_spec(value) -> bool:
    return any(isinstance(v, TypeSpec) for v in nest.flatten(value))


def pretty_print_spec(spec) -> str:
    """One argument or result as TensorFlow prints it: ``int32 Tensor, shape=()``."""
    if isinstance(spec, TensorSpec):
        return f"{spec.dtype.name} Tensor, shape={spec.shape}"
    if isinstance(spec, TypeSpec):
        return repr(spec)
    if nest.is_nested(spec):
        pieces = nest.flatten(spec)
        markers = [_Marker(f"<{i + 1}>") for i in range(len(pieces))]
        result = pprint.pformat(nest.pack_sequence_as(spec, markers), width=10000)
        for marker, piece in zip(markers, pieces):
            result += f"\n      {marker.text}: {pretty_print_spec(piece)}"
        return result
    return repr(spec)


def output_spec(value):
    """TensorSpec of a (symbolic) output tensor; other values stay as they are."""
    if isinstance(value, (SymbolicTensor, EagerTensor)):
        return TensorSpec(value.shape, value.dtype)
    spec = type_spec_of(value)
    return value if spec is None else spec


def signature_summary(name: str, arg_names, arg_specs, kwarg_specs,
                      default_values: bool = False) -> str:
    """``pow(a, b=2)``: Python values show their traced value when default_values."""
    names = list(arg_names[:len(arg_specs)])
    if default_values:
        for i, spec in enumerate(arg_specs):
            if not contains_spec(spec):
                names[i] += f"={spec!r}"
    if kwarg_specs:
        names.append("*")
        for key, spec in kwarg_specs.items():
            names.append(key + (f"={spec!r}" if default_values and not contains_spec(spec)
                                else ""))
    return f"{name}({', '.join(names)})"


def pretty_signature(name: str, arg_names, arg_specs, kwarg_specs, structured_outputs) -> str:
    lines = [signature_summary(name, arg_names, arg_specs, kwarg_specs, default_values=True)]
    details = [f"    {n}: {pretty_print_spec(s)}" for n, s in zip(arg_names, arg_specs)
               if contains_spec(s)]
    details += [f"    {k}: {pretty_print_spec(kwarg_specs[k])}" for k in sorted(kwarg_specs)
                if contains_spec(kwarg_specs[k])]
    if details:
        lines.append("  Args:")
        lines.extend(details)
    lines.append("  Returns:")
    outputs = structured_outputs
    lines.append("    " + pretty_print_spec(nest.map_structure(output_spec, outputs)
                                            if nest.is_nested(outputs) else output_spec(outputs)))
    return "\n".join(lines)


# Where TensorFlow's runtime (C++ ``DataTypeString``) names a dtype otherwise than Python does.
_RUNTIME_DTYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def runtime_dtype_name(dtype) -> str:
    return _RUNTIME_DTYPE_NAMES.get(dtype.name, dtype.name)


def dtype_mismatch(function_name: str, index: int, expected, got) -> InvalidArgumentError:
    """TensorFlow's message for a concrete function fed a tensor of the wrong dtype."""
    return InvalidArgumentError(
        message=f"cannot compute {function_name} as input #{index}(zero-based) was expected to "
                f"be a {runtime_dtype_name(expected)} tensor but is a {runtime_dtype_name(got)} "
                f"tensor [Op:{function_name}]")


def variable_dtype_mismatch(function_name: str, expected, got) -> InvalidArgumentError:
    """TensorFlow's message for a concrete function given a Variable of another dtype."""
    return InvalidArgumentError(
        message=f"Trying to read variable with wrong dtype. Expected "
                f"{runtime_dtype_name(expected)} got {runtime_dtype_name(got)} "
                f"[Op:{function_name}]")
