"""The composite protocol: values that stand on tensors without being one.

A TensorArray, a RaggedTensor, a SparseTensor or a Dataset is not a tensor,
but it is made of tensors, its *components*, and it can be rebuilt from
others of the same types. Every place of the runtime that moves values
across a graph boundary does it through this protocol and never asks which
kind of value it has:

- ``_components()`` — the component tensors, in a fixed order;
- ``_with_components(tensors)`` — a value of the same kind standing on
  ``tensors`` (the rest — static facts the tensors do not carry — from
  ``self``, or derived from the tensors' types);
- ``_type_spec`` (optional) — the value's static type, a ``TypeSpec``
  (runtime/tensor_spec.py): the specs of its components, ``_from_components``
  to rebuild a value from tensors alone, and a subtype order.

Who uses what:

- ``cond`` / ``while_loop`` carry a composite as its components
  (``flatten_components`` / ``rebuild_components``). A loop variable's
  components start from the component shapes of its type (a RaggedTensor's
  flat values may change length in the body, its row count may not, as in
  TensorFlow); a shape invariant given for a composite is a shape of the value,
  turned into component shapes by ``spec._with_shape`` (``component_shapes``);
- ``nest.flatten(..., expand_composites=True)`` / ``pack_sequence_as`` expand
  and rebuild composites that have a ``_type_spec`` (composite *tensors*): a
  Function's returned values go through it, so a RaggedTensor returned from a
  graph comes back as an eager RaggedTensor;
- trace keys (runtime/trace_type.py) key a value with a ``_type_spec`` by
  that spec, and a Function's placeholders for it are the spec's component
  specs rebuilt with ``_from_components``; input signatures take TypeSpecs;
- signature printing shows the spec;
- ``tf.print`` asks a composite for ``_print_format(summarize)``: a template with
  ``{}`` slots, the tensors that fill them when the print runs, and whether they
  are strings to insert as they are (else they are formatted as tensors are).

A value without ``_type_spec`` (a TensorArray, a Dataset, a staged Python
list) still crosses cond and while_loop; as a function argument it is keyed
by identity, and returned from a function it converts to a tensor or fails.

``CompositeTensor`` is a convenient base class: give ``_type_spec`` and
``_components`` and it derives ``_with_components`` from the spec. User types
(``tf.experimental.ExtensionType``, runtime/extension_type.py) are such
composites, so they go everywhere the runtime's own do.
"""
from __future__ import annotations

from runtime.tensor import EagerTensor, SymbolicTensor


class CompositeTensor:
    """Base for values made of tensors with a static ``_type_spec`` (``tf.CompositeTensor``)."""

    __slots__ = ()

    @property
    def _type_spec(self):
        raise NotImplementedError

    def _components(self) -> list:
        return self._type_spec._to_components(self)

    def _with_components(self, tensors):
        return self._type_spec._from_components(list(tensors))


def is_composite(value) -> bool:
    return hasattr(value, "_components") and hasattr(value, "_with_components")


def is_composite_tensor(value) -> bool:
    """A composite with a static type (``_type_spec``): RaggedTensor, SparseTensor. These
    cross function boundaries as their components (arguments, returned values)."""
    return is_composite(value) and getattr(value, "_type_spec", None) is not None


def type_spec_of(value):
    """The ``TypeSpec`` of a composite value that has one, else None."""
    if not is_composite(value):
        return None
    return getattr(value, "_type_spec", None)


def component_count(value) -> int:
    spec = type_spec_of(value)
    if spec is not None:
        return len(spec._component_specs)
    return len(value._components())


def flatten_components(leaves: list) -> tuple[list, list]:
    """Expands composite leaves into tensors; returns (tensors, per-leaf counts)."""
    flat, counts = [], []
    for leaf in leaves:
        if is_composite(leaf):
            parts = list(leaf._components())
            flat.extend(parts)
            counts.append(len(parts))
        else:
            flat.append(leaf)
            counts.append(None)
    return flat, counts


def rebuild_components(templates: list, counts: list, flat: list) -> list:
    out, i = [], 0
    for template, count in zip(templates, counts):
        if count is None:
            out.append(flat[i])
            i += 1
        else:
            out.append(template._with_components(flat[i:i + count]))
            i += count
    return out


def component_names(leaves: list, counts: list, names) -> list | None:
    """Per-component names from per-leaf ``names`` (``v.values``, ``v.row_splits``...).

    ``names`` already per component (as many as the components) are kept.
    """
    if not names:
        return names
    names = list(names)
    n_flat = sum(1 if c is None else c for c in counts)
    if len(names) == n_flat or len(names) < len(leaves):
        return names
    out = []
    for name, leaf, count in zip(names, leaves, counts):
        if count is None:
            out.append(name)
            continue
        spec = type_spec_of(leaf)
        parts = spec.component_names(str(name)) if spec is not None else \
            [f"{name}.{j}" for j in range(count)]
        if len(parts) != count:
            parts = [f"{name}.{j}" for j in range(count)]
        out.extend(parts)
    return out + names[len(leaves):]


def spec_component_shapes(leaves: list, counts: list) -> list:
    """Per flat component: the shape its composite's type gives it (``_type_spec``), or None
    (a tensor, or a composite without a type: its component's own shape)."""
    out = []
    for leaf, count in zip(leaves, counts):
        if count is None:
            out.append(None)
            continue
        spec = type_spec_of(leaf)
        out.extend([None] * count if spec is None else
                   [s.shape for s in spec._component_specs])
    return out


def component_shapes(value, shape) -> list:
    """The component shapes that a shape invariant ``shape`` of composite ``value`` means."""
    spec = type_spec_of(value)
    if spec is None:
        raise ValueError(f"A shape invariant was given for {value!r}, which has no shape; give "
                         "None for it.")
    return [s.shape for s in spec._with_shape(shape)._component_specs]


# -- the public op API on composite values ----------------------------------------------------
#
# ``tf.add(rt, 1)``, ``tf.math.sqrt(sp)``, ``tf.reduce_sum(rt, axis=1)``: the functions of the
# op API do not know composites; the names users call are wrapped (``dispatch_api``) so that a
# call with a ``CompositeTensor`` argument (or an argument of a type a user dispatches on) goes
# to the one registered target whose types match, as TensorFlow's dispatch does: the runtime's
# own types register with ``register_dispatch``, users with ``tf.experimental.dispatch_for_api``
# and the elementwise decorators. Calls with tensors only go straight through.

UNARY_ELEMENTWISE = ("abs", "negative", "square", "sign", "tanh", "exp", "log", "sqrt", "rsqrt",
                     "sigmoid", "sin", "cos", "floor", "ceil", "round", "logical_not", "cast")
BINARY_ELEMENTWISE = ("add", "subtract", "multiply", "divide", "truediv", "floordiv",
                      "floormod", "mod", "pow", "maximum", "minimum", "squared_difference",
                      "less", "less_equal", "greater", "greater_equal", "logical_and",
                      "logical_or", "logical_xor", "equal", "not_equal")
DISPATCHABLE = frozenset(UNARY_ELEMENTWISE + BINARY_ELEMENTWISE + (
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
    "reduce_all", "reduce_std", "reduce_variance", "concat", "stack", "gather", "zeros_like",
    "ones_like", "size", "shape", "rank", "where", "one_hot", "tile", "expand_dims", "squeeze",
    "reverse", "map_fn", "embedding_lookup", "zeros", "ones", "broadcast_to",
    # tf.strings
    "substr", "to_hash_bucket_fast", "to_hash_bucket_strong", "to_hash_bucket", "to_number",
    "length", "upper", "lower", "strip", "regex_full_match", "regex_replace", "as_string",
    "join", "reduce_join"))

_HANDLERS: dict = {}  # api name -> [(matches(args, kwargs), handler, registered target)]
_DISPATCH_TYPES: tuple = (CompositeTensor,)  # an argument of these types looks for a target


def register_dispatch(api_name: str, cls, handler) -> None:
    """Calls of ``api_name`` with an argument of class ``cls`` (a composite, or a type spec
    such as ``map_fn``'s ``fn_output_signature=tf.RaggedTensorSpec(...)``) run ``handler``."""
    global _DISPATCH_TYPES
    if api_name not in DISPATCHABLE:
        raise ValueError(f"{api_name} is not a dispatchable API")
    if not issubclass(cls, _DISPATCH_TYPES):
        _DISPATCH_TYPES = _DISPATCH_TYPES + (cls,)
        PLAIN_ARGS.difference_update([c for c in list(PLAIN_ARGS) if issubclass(c, cls)])

    def holds(v):
        return isinstance(v, cls) or (type(v) in (list, tuple)
                                      and any(isinstance(x, cls) for x in v))

    def matches(args, kwargs):
        return any(holds(v) for v in args) or any(holds(v) for v in kwargs.values())
    _HANDLERS.setdefault(api_name, []).append((matches, handler, handler))


# Argument classes that never dispatch, tested by identity before the isinstance scans (tf.add
# on tensors and numbers is the common call); registering a type drops its bases from it.
PLAIN_ARGS: set = {EagerTensor, SymbolicTensor, int, float, bool}


def _has_dispatch_type(values) -> bool:
    for v in values:
        if v.__class__ in PLAIN_ARGS:
            continue
        if isinstance(v, _DISPATCH_TYPES):
            return True
        if type(v) in (list, tuple) and any(isinstance(x, _DISPATCH_TYPES) for x in v):
            return True
    return False


def dispatching(api_name: str, fn):
    """``fn`` behind the dispatch check of API ``api_name`` (what ``dispatch_api`` installs)."""
    import functools

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        if not _has_dispatch_type(args) and not (kwargs and _has_dispatch_type(kwargs.values())):
            return fn(*args, **kwargs)
        found = [(h, t) for m, h, t in _HANDLERS.get(api_name, ()) if m(args, kwargs)]
        if not found:
            return fn(*args, **kwargs)
        if len(found) > 1:
            raise ValueError(f"Multiple dispatch targets that were registered with "
                             f"tf.dispatch_for ({found[0][1]} and {found[1][1]}) match the "
                             f"arguments to {api_name}")
        return found[0][0](*args, **kwargs)

    wrapper._dispatch_target = fn
    wrapper._dispatch_name = api_name
    return wrapper


_WRAPPERS: dict = {}  # wrapped function -> its wrapper (tf.reduce_sum is tf.math.reduce_sum)


def with_fast_path(api_name: str, fast, reference):
    """Marks ``fast`` as API ``api_name``, dispatching by itself: it runs plain arguments
    (classes in ``PLAIN_ARGS``) at once and passes every other call to
    ``dispatching(api_name, reference)``, so a common eager op pays no wrapper."""
    fast._dispatch_target = reference
    fast._dispatch_name = api_name
    return fast


def dispatch_api(namespace: dict) -> None:
    """Wraps the dispatchable functions of a namespace (``tf``, ``tf.math``) in place."""
    for name in DISPATCHABLE:
        fn = namespace.get(name)
        if hasattr(fn, "_dispatch_target"):  # wrapped already, or dispatching by itself
            _WRAPPERS.setdefault(fn, fn)
        elif callable(fn):
            wrapper = _WRAPPERS.get(fn)
            if wrapper is None:
                wrapper = _WRAPPERS[fn] = dispatching(name, fn)
            namespace[name] = wrapper


# -- tf.experimental.dispatch_for_* : user dispatch targets ---------------------------------

def _api_of(api):
    """(name, public wrapper, signature) of an API that supports dispatch."""
    import inspect
    wrapper = api if hasattr(api, "_dispatch_target") else _WRAPPERS.get(api)
    if wrapper is None:
        raise ValueError(f"{api!r} does not support dispatch.")
    return wrapper._dispatch_name, wrapper, inspect.signature(wrapper._dispatch_target)


def _type_matches(value, tp) -> bool:
    """isinstance for the annotations TensorFlow's dispatch accepts (Union, Optional, List)."""
    import collections.abc
    import types
    import typing
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in (typing.Union, types.UnionType):
        return any(_type_matches(value, a) for a in args)
    if tp is None or tp is type(None):
        return value is None
    if origin in (list, tuple, collections.abc.Sequence, collections.abc.Iterable):
        return isinstance(value, (list, tuple)) and all(
            _type_matches(v, args[0]) for v in value if args)
    if tp is typing.Any:
        return True
    return isinstance(value, tp)


def _classes_in(tp) -> list:
    import typing
    if isinstance(tp, type):
        return [tp]
    return [c for a in typing.get_args(tp) for c in _classes_in(a)]


def _register(api_name: str, sig, types: dict, handler, target) -> None:
    global _DISPATCH_TYPES

    def matches(args, kwargs):
        try:
            bound = sig.bind(*args, **kwargs)
        except TypeError:
            return False
        return all(_type_matches(bound.arguments.get(name), tp) for name, tp in types.items())
    _HANDLERS.setdefault(api_name, []).append((matches, handler, target))
    from runtime.tensor import Tensor
    new = [c for tp in types.values() for c in _classes_in(tp)
           if c not in (Tensor, type(None)) and not issubclass(c, _DISPATCH_TYPES)]
    _DISPATCH_TYPES = _DISPATCH_TYPES + tuple(dict.fromkeys(new))
    PLAIN_ARGS.difference_update([c for c in list(PLAIN_ARGS) if issubclass(c, _DISPATCH_TYPES)])


def dispatch_for_api(api, *signatures):
    """``@tf.experimental.dispatch_for_api(tf.math.add)``: ``api`` called with arguments of the
    target's annotated types (or of one of ``signatures``, dicts of parameter -> type) runs
    the target instead. The target has the API's parameters."""
    import inspect
    name, _, api_sig = _api_of(api)

    def decorator(target):
        target_sig = inspect.signature(target)
        if list(target_sig.parameters) != list(api_sig.parameters):
            raise ValueError(f"Dispatch function's signature {target_sig} does not match API's "
                             f"signature {api_sig}.")
        sigs = list(signatures) or [{p.name: p.annotation for p in
                                     target_sig.parameters.values()
                                     if p.annotation is not inspect.Parameter.empty}]
        for types in sigs:
            unknown = set(types) - set(api_sig.parameters)
            if unknown:
                raise ValueError(f"Dispatch signature {types} names parameters "
                                 f"{sorted(unknown)} that {name} does not have.")
            _register(name, api_sig, dict(types), target, target)
        return target
    return decorator


def _elementwise(api_names, types):
    import functools

    def decorator(target):
        for name in api_names:
            wrapper = _wrappers_by_name().get(name)
            if wrapper is None:
                continue
            _, _, sig = _api_of(wrapper)
            params = list(sig.parameters)
            operands = params[:len(types)]

            def handler(*args, _wrapper=wrapper, _sig=sig, _operands=operands, **kwargs):
                bound = _sig.bind(*args, **kwargs)
                values = [bound.arguments.pop(p) for p in _operands]
                api_func = functools.partial(_wrapper, **bound.arguments) \
                    if bound.arguments else _wrapper
                return target(api_func, *values)
            _register(name, sig, dict(zip(operands, types)), handler, target)
        return target
    return decorator


def _wrappers_by_name() -> dict:
    return {w._dispatch_name: w for w in _WRAPPERS.values()}


def dispatch_for_unary_elementwise_apis(x_type):
    """``handler(api_func, x)`` for every unary elementwise API called with ``x`` of
    ``x_type``; ``api_func`` is the API with its other arguments bound."""
    return _elementwise(UNARY_ELEMENTWISE, (x_type,))


def dispatch_for_binary_elementwise_apis(x_type, y_type):
    """``handler(api_func, x, y)`` for every binary elementwise API called with ``x`` of
    ``x_type`` and ``y`` of ``y_type``."""
    return _elementwise(BINARY_ELEMENTWISE, (x_type, y_type))


def unregister_dispatch_for(target) -> None:
    """Removes every dispatch registered for ``target``."""
    found = False
    for name, entries in _HANDLERS.items():
        kept = [e for e in entries if e[2] is not target]
        found = found or len(kept) != len(entries)
        _HANDLERS[name] = kept
    if not found:
        raise ValueError(f"Function {target} was not registered using a `@dispatch_for_*` "
                         "decorator.")
