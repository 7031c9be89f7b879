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
``_components`` and it derives ``_with_components`` from the spec.
"""
from __future__ import annotations


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
# call with a ``CompositeTensor`` argument goes to the handler its class registered
# (``register_dispatch``), as TensorFlow's dispatch decorators do. Calls with tensors only go
# straight through.

DISPATCHABLE = frozenset({
    "add", "subtract", "multiply", "divide", "truediv", "floordiv", "floormod", "mod", "pow",
    "maximum", "minimum", "squared_difference", "less", "less_equal", "greater",
    "greater_equal", "logical_and", "logical_or", "logical_xor", "equal", "not_equal",
    "abs", "negative", "square", "sign", "tanh", "exp", "log", "sqrt", "rsqrt", "sigmoid",
    "sin", "cos", "floor", "ceil", "round", "logical_not", "cast",
    "reduce_sum", "reduce_mean", "reduce_max", "reduce_min", "reduce_prod", "reduce_any",
    "reduce_all"})

_HANDLERS: dict = {}  # api name -> [(class, handler)]


def register_dispatch(api_name: str, cls, handler) -> None:
    """Calls of ``api_name`` with an argument of class ``cls`` run ``handler`` instead."""
    if api_name not in DISPATCHABLE:
        raise ValueError(f"{api_name} is not a dispatchable API")
    _HANDLERS.setdefault(api_name, []).append((cls, handler))


def _dispatching(api_name: str, fn):
    import functools

    def find(values):
        for cls, handler in _HANDLERS.get(api_name, ()):
            for v in values:
                if isinstance(v, cls):
                    return handler
        return None

    @functools.wraps(fn)
    def wrapper(*args, **kwargs):
        for a in args:
            if isinstance(a, CompositeTensor):
                break
        else:
            if not kwargs or not any(isinstance(v, CompositeTensor) for v in kwargs.values()):
                return fn(*args, **kwargs)
        handler = find(list(args) + list(kwargs.values()))
        if handler is None:
            return fn(*args, **kwargs)
        return handler(*args, **kwargs)

    wrapper._dispatch_target = fn
    return wrapper


_WRAPPERS: dict = {}  # wrapped function -> its wrapper (tf.reduce_sum is tf.math.reduce_sum)


def dispatch_api(namespace: dict) -> None:
    """Wraps the dispatchable functions of a namespace (``tf``, ``tf.math``) in place."""
    for name in DISPATCHABLE:
        fn = namespace.get(name)
        if callable(fn) and not hasattr(fn, "_dispatch_target"):
            wrapper = _WRAPPERS.get(fn)
            if wrapper is None:
                wrapper = _WRAPPERS[fn] = _dispatching(name, fn)
            namespace[name] = wrapper
