"""``tf.experimental.ExtensionType``: user-defined records of tensors.

A subclass declares its fields as annotations (``values: tf.Tensor``,
``shape: tf.TensorShape``, ``name: str``, ``Tuple[tf.Tensor, ...]``,
``Mapping[str, tf.Tensor]``, ``Optional``/``Union``, RaggedTensor,
SparseTensor and other ExtensionTypes). The class gets TensorFlow's generated
``__init__`` (binding, conversion of each value to its field type, then
``__validate__``), immutability outside the constructor, ``__repr__``,
``__eq__`` (a boolean tensor when the types agree, else ``False``) and a
nested ``Spec`` class: the value's static type.

An ExtensionType is a composite tensor (runtime/composite.py): its
components are the tensors of its fields (nested composites expanded, in
field order, mappings by sorted key) and its ``_type_spec`` holds the
fields' specs plus its Python fields. So it is a ``tf.function`` argument
keyed by that spec (equal field dtypes/shapes reuse one trace; Python
fields are part of the type), a returned value, a ``cond``/``while_loop``
value, a ``nest`` structure under ``expand_composites`` and an
``input_signature`` entry, with no code about it in those places.
"""
from __future__ import annotations

import collections.abc
import inspect
import threading
import types
import typing

from graph.dtypes import DType, as_dtype
from graph.shapes import TensorShape, as_shape
from runtime.composite import (CompositeTensor, dispatch_for_api,  # noqa: F401 (tf.experimental)
                               dispatch_for_binary_elementwise_apis,
                               dispatch_for_unary_elementwise_apis, unregister_dispatch_for)
from runtime.tensor import Tensor
from runtime.tensor_spec import TensorSpec, TypeSpec

__all__ = ["ExtensionType", "ExtensionTypeSpec", "BatchableExtensionType",
           "BatchableExtensionTypeSpec", "dispatch_for_api",
           "dispatch_for_binary_elementwise_apis", "dispatch_for_unary_elementwise_apis",
           "unregister_dispatch_for"]


class _NoDefault:
    def __repr__(self) -> str:
        return "ExtensionTypeField.NO_DEFAULT"


class ExtensionTypeField(typing.NamedTuple):
    """One declared field: its name, annotation and default (``NO_DEFAULT`` if none)."""

    name: str
    value_type: typing.Any
    default: typing.Any


ExtensionTypeField.NO_DEFAULT = _NoDefault()


class ImmutableDict(collections.abc.Mapping):
    """The value of a ``Mapping`` field: read-only, hashable when its values are."""

    __slots__ = ("_data",)

    def __init__(self, data=()):
        self._data = dict(data)

    def __getitem__(self, key):
        return self._data[key]

    def __iter__(self):
        return iter(self._data)

    def __len__(self) -> int:
        return len(self._data)

    def __hash__(self) -> int:
        return hash(tuple(sorted(self._data.items(), key=lambda kv: repr(kv[0]))))

    def __eq__(self, other) -> bool:
        return isinstance(other, collections.abc.Mapping) and self._data == dict(other)

    def __repr__(self) -> str:
        return f"ImmutableDict({self._data!r})"


def _sorted_keys(mapping) -> list:
    try:
        return sorted(mapping)
    except TypeError:
        return sorted(mapping, key=repr)


# -- field types ------------------------------------------------------------------------------

_PYTHON_TYPES = (int, float, str, bytes, bool, type(None))
_UNIONS = (typing.Union, types.UnionType)  # Optional[X], Union[X, Y], X | Y


def _is_composite_class(tp) -> bool:
    return isinstance(tp, type) and issubclass(tp, CompositeTensor)


def _check_annotation(tp) -> None:
    """Raises TypeError for an annotation TensorFlow does not accept as a field type."""
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in _UNIONS:
        for a in args:
            _check_annotation(a)
        return
    if origin in (tuple, collections.abc.Mapping, dict):
        for a in args:
            if a is not Ellipsis:
                _check_annotation(a)
        return
    if tp is None or tp in _PYTHON_TYPES or tp in (Tensor, TensorShape, DType):
        return
    if _is_composite_class(tp):
        return
    name = getattr(tp, "__name__", repr(tp))
    raise TypeError(f"Unsupported type annotation {name!r}")


def _type_name(tp) -> str:
    return "NoneType" if tp is None else getattr(tp, "__name__", repr(tp))


def _convert(value, tp, path: str, for_spec: bool):
    """``value`` as a field of type ``tp``; with ``for_spec`` its static form (specs for tensors).

    Raises TypeError ``"path: expected 'T', got 'U'"`` as TensorFlow does.
    """
    origin, args = typing.get_origin(tp), typing.get_args(tp)
    if origin in _UNIONS:
        for a in args:
            try:
                return _convert(value, a, path, for_spec)
            except (TypeError, ValueError):
                continue
        raise TypeError(f"{path}: expected {tp!r}, got {type(value).__name__!r}")
    if origin is tuple:
        if not isinstance(value, (tuple, list)):
            raise TypeError(f"{path}: expected 'tuple', got {type(value).__name__!r}")
        if len(args) == 2 and args[1] is Ellipsis:
            types = [args[0]] * len(value)
        else:
            if len(args) != len(value):
                raise TypeError(f"{path}: expected a tuple of {len(args)} values, got "
                                f"{len(value)}")
            types = list(args)
        return tuple(_convert(v, t, f"{path}[{i}]", for_spec)
                     for i, (v, t) in enumerate(zip(value, types)))
    if origin in (collections.abc.Mapping, dict):
        if not isinstance(value, collections.abc.Mapping):
            raise TypeError(f"{path}: expected 'Mapping', got {type(value).__name__!r}")
        kt, vt = args if args else (typing.Any, typing.Any)
        return ImmutableDict((_convert(k, kt, f"{path}", for_spec),
                              _convert(v, vt, f"{path}[{k!r}]", for_spec))
                             for k, v in value.items())
    if tp is typing.Any:
        return value
    if tp is None or tp is type(None):
        if value is not None:
            raise TypeError(f"{path}: expected 'NoneType', got {type(value).__name__!r}")
        return None
    if tp is Tensor:
        return _convert_tensor(value, path, for_spec)
    if tp is TensorShape:
        try:
            return as_shape(value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'TensorShape', got "
                            f"{type(value).__name__!r}") from None
    if tp is DType:
        try:
            return as_dtype(value)
        except (TypeError, ValueError):
            raise TypeError(f"{path}: expected 'DType', got {type(value).__name__!r}") from None
    if _is_composite_class(tp):
        if for_spec:
            if isinstance(value, TypeSpec) and _value_type_fits(value, tp):
                return value
            if isinstance(value, tp):
                return value._type_spec
            raise TypeError(f"{path}: expected '{tp.__name__}.Spec', got "
                            f"{type(value).__name__!r}")
        if not isinstance(value, tp):
            raise TypeError(f"{path}: expected {tp.__name__!r}, got {type(value).__name__!r}")
        return value
    if not isinstance(value, tp):
        raise TypeError(f"{path}: expected {_type_name(tp)!r}, got {type(value).__name__!r}")
    return value


def _value_type_fits(spec, tp) -> bool:
    vt = getattr(spec, "value_type", None)
    return isinstance(vt, type) and issubclass(vt, tp)


def _convert_tensor(value, path: str, for_spec: bool):
    from runtime.ops.core import convert_to_tensor
    if for_spec:
        if isinstance(value, TensorSpec):
            return value
        if isinstance(value, Tensor):
            return TensorSpec(value.shape, value.dtype)
        raise TypeError(f"{path}: expected 'TensorSpec', got {type(value).__name__!r}")
    if isinstance(value, Tensor):
        return value
    if isinstance(value, CompositeTensor) or isinstance(value, TypeSpec):
        raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}")
    try:
        return convert_to_tensor(value)
    except (TypeError, ValueError) as e:
        raise TypeError(f"{path}: expected a Tensor, got {type(value).__name__!r}") from e


def _fields_of(cls) -> tuple:
    """The declared fields of ``cls`` and its ExtensionType bases, in declaration order."""
    fields: dict = {}
    for klass in reversed(cls.__mro__):
        if klass in (ExtensionType, object) or not issubclass(klass, ExtensionType):
            continue
        raw = klass.__dict__.get("__annotations__", {})
        if not raw:
            continue
        try:
            hints = typing.get_type_hints(klass)
        except Exception:  # a forward reference not resolvable here: the raw annotations
            hints = raw
        for name in raw:
            tp = hints.get(name, raw[name])
            if typing.get_origin(tp) is typing.ClassVar or name.startswith("_tf_extension"):
                continue
            try:
                _check_annotation(tp)
            except TypeError as e:
                raise TypeError(f"In field {name!r}: {e}") from e
            default = klass.__dict__.get(name, ExtensionTypeField.NO_DEFAULT)
            fields[name] = ExtensionTypeField(name, tp, default)
    return tuple(fields.values())


def _signature(fields) -> inspect.Signature:
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    for f in fields:
        default = inspect.Parameter.empty if f.default is ExtensionTypeField.NO_DEFAULT \
            else f.default
        params.append(inspect.Parameter(f.name, inspect.Parameter.POSITIONAL_OR_KEYWORD,
                                        default=default))
    return inspect.Signature(params)


def _bind(cls, instance, args, kwargs) -> dict:
    bound = cls._tf_extension_type_signature.bind(instance, *args, **kwargs)
    bound.apply_defaults()
    values = dict(bound.arguments)
    del values["self"]
    return values


# -- components: one walk over field values or field specs -----------------------------------

def _value_components(value, out: list) -> None:
    if isinstance(value, Tensor):
        out.append(value)
    elif isinstance(value, CompositeTensor):
        out.extend(value._components())
    elif isinstance(value, tuple):
        for v in value:
            _value_components(v, out)
    elif isinstance(value, ImmutableDict):
        for k in _sorted_keys(value):
            _value_components(value[k], out)


def _spec_components(spec, out: list) -> None:
    if isinstance(spec, TypeSpec):
        out.extend(spec._component_specs)
    elif isinstance(spec, tuple):
        for s in spec:
            _spec_components(s, out)
    elif isinstance(spec, ImmutableDict):
        for k in _sorted_keys(spec):
            _spec_components(spec[k], out)


def _rebuild(spec, tensors):
    """The field value of type ``spec`` standing on the next tensors of iterator ``tensors``."""
    if isinstance(spec, TensorSpec):
        return next(tensors)
    if isinstance(spec, TypeSpec):
        return spec._from_components([next(tensors) for _ in spec._component_specs])
    if isinstance(spec, tuple):
        return tuple(_rebuild(s, tensors) for s in spec)
    if isinstance(spec, ImmutableDict):
        built = {k: _rebuild(spec[k], tensors) for k in _sorted_keys(spec)}
        return ImmutableDict((k, built[k]) for k in spec)
    return spec


def _spec_repr(value) -> str:
    if isinstance(value, ImmutableDict):
        return repr(dict(value))
    return repr(value)


# -- registered names: how a SavedModel finds a class without importing code ----------------

_REGISTERED: dict = {}  # ``__name__`` given in a class body -> the latest class of that name


def registered_name(cls) -> str | None:
    """The name ``cls`` is saved under (``__name__ = 'pkg.Type'`` in its body, as TensorFlow)."""
    name = cls.__dict__.get("__name__")
    return name if isinstance(name, str) and _REGISTERED.get(name) is cls else None


def lookup_registered(name: str):
    """The ExtensionType class registered as ``name`` in this program, or None."""
    return _REGISTERED.get(name)


# -- the value class --------------------------------------------------------------------------

_constructing = threading.local()  # ids of instances whose custom __init__ is running


def _in_constructor(obj) -> bool:
    return id(obj) in getattr(_constructing, "ids", ())


class ExtensionType(CompositeTensor):
    """Base of user-defined composite types (``tf.experimental.ExtensionType``)."""

    _tf_extension_type_field_list: tuple = ()

    def __init_subclass__(cls, **kwargs):
        super().__init_subclass__(**kwargs)
        fields = _fields_of(cls)
        cls._tf_extension_type_field_list = fields
        cls._tf_extension_type_signature = _signature(fields)
        custom = cls.__dict__.get("__init__")
        if custom is None:
            cls.__init__ = _generated_init
            cls.__init__.__signature__ = cls._tf_extension_type_signature
        else:
            cls.__init__ = _wrap_custom_init(custom)
        _add_spec_class(cls)
        name = cls.__dict__.get("__name__")
        if isinstance(name, str):
            _REGISTERED[name] = cls

    # -- construction ----------------------------------------------------------------
    @classmethod
    def _tf_extension_type_fields(cls) -> tuple:
        return cls._tf_extension_type_field_list

    def _tf_extension_type_convert_fields(self, values: dict) -> None:
        for f in self._tf_extension_type_field_list:
            object.__setattr__(self, f.name, _convert(values[f.name], f.value_type, f.name,
                                                      for_spec=False))

    @classmethod
    def _tf_extension_type_from_fields(cls, values: dict):
        """An instance holding ``values`` as they are (no conversion, no ``__validate__``)."""
        obj = object.__new__(cls)
        obj.__dict__.update(values)
        return obj

    def __setattr__(self, name, value):
        if _in_constructor(self):
            object.__setattr__(self, name, value)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor "
                             "of ExtensionType.")

    def __delattr__(self, name):
        if _in_constructor(self):
            object.__delattr__(self, name)
            return
        raise AttributeError(f"Cannot mutate attribute `{name}` outside the custom constructor "
                             "of ExtensionType.")

    # -- the composite protocol ----------------------------------------------------------
    @property
    def _type_spec(self) -> "ExtensionTypeSpec":
        spec = self.Spec.__new__(self.Spec)
        for f in self._tf_extension_type_field_list:
            object.__setattr__(spec, f.name, _convert(self.__dict__[f.name], f.value_type,
                                                      f.name, for_spec=True))
        return spec

    def _components(self) -> list:
        out: list = []
        for f in self._tf_extension_type_field_list:
            _value_components(self.__dict__[f.name], out)
        return out

    # -- Python protocols -------------------------------------------------------------------
    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={self.__dict__[f.name]!r}"
                           for f in self._tf_extension_type_field_list)
        return f"{type(self).__name__}({fields})"

    def __eq__(self, other):
        """A boolean tensor when both have the same type, else ``False`` (as TensorFlow)."""
        if type(self) is not type(other) or self._type_spec != other._type_spec:
            return False
        return _components_equal(self._components(), other._components())

    def __ne__(self, other):
        from runtime.ops import math_ops
        eq = self.__eq__(other)
        return math_ops.logical_not(eq) if isinstance(eq, Tensor) else not eq

    __hash__ = None


def _components_equal(xs: list, ys: list):
    from runtime.ops import array_ops, math_ops
    from runtime.ops.control_flow import cond
    from runtime.ops.core import constant
    conditions = []
    for x, y in zip(xs, ys):
        if x.shape.is_fully_defined() and y.shape.is_fully_defined():
            conditions.append(math_ops.reduce_all(math_ops.equal(x, y)))
            continue
        same_shape = math_ops.reduce_all(math_ops.equal(array_ops.shape(x), array_ops.shape(y)))
        conditions.append(cond(same_shape,
                               lambda x=x, y=y: math_ops.reduce_all(math_ops.equal(x, y)),
                               lambda: constant(False)))
    if not conditions:
        return constant(True)
    return math_ops.reduce_all(array_ops.stack(conditions))


def _generated_init(self, *args, **kwargs):
    values = _bind(type(self), self, args, kwargs)
    self._tf_extension_type_convert_fields(values)
    validate = getattr(self, "__validate__", None)
    if validate is not None:
        validate()


def _wrap_custom_init(init):
    import functools

    @functools.wraps(init)
    def __init__(self, *args, **kwargs):
        ids = getattr(_constructing, "ids", None)
        if ids is None:
            ids = _constructing.ids = set()
        ids.add(id(self))
        try:
            init(self, *args, **kwargs)
        finally:
            ids.discard(id(self))
        values = dict(self.__dict__)
        for f in self._tf_extension_type_field_list:
            if f.name not in values:
                if f.default is ExtensionTypeField.NO_DEFAULT:
                    raise ValueError(f"Custom constructor of {type(self).__name__} did not set "
                                     f"field {f.name!r}")
                values[f.name] = f.default
        self._tf_extension_type_convert_fields(values)
        validate = getattr(self, "__validate__", None)
        if validate is not None:
            validate()
    return __init__


# -- the type -----------------------------------------------------------------------------------

class ExtensionTypeSpec(TypeSpec):
    """The static type of an ExtensionType value: ``MaskedTensor.Spec(values=..., mask=...)``.

    Fields hold specs where the value holds tensors (``TensorSpec``, ``RaggedTensorSpec``,
    nested ``Spec``\\ s) and the Python fields as they are; the trace type of a value.
    """

    value_type = None

    def __init__(self, *args, **kwargs):
        cls = self.value_type
        if cls is None:
            raise TypeError("ExtensionTypeSpec is abstract: use the Spec of an ExtensionType")
        values = _bind(cls, self, args, kwargs)
        for f in cls._tf_extension_type_field_list:
            object.__setattr__(self, f.name, _convert(values[f.name], f.value_type, f.name,
                                                      for_spec=True))

    @classmethod
    def from_value(cls, value) -> "ExtensionTypeSpec":
        return value._type_spec

    def __setattr__(self, name, value):
        raise AttributeError(f"Cannot mutate attribute `{name}` of a TypeSpec")

    def _fields(self) -> tuple:
        return self.value_type._tf_extension_type_field_list

    def _serialize(self) -> tuple:
        return tuple(self.__dict__[f.name] for f in self._fields())

    @property
    def _component_specs(self) -> list:
        out: list = []
        for f in self._fields():
            _spec_components(self.__dict__[f.name], out)
        return out

    def _from_components(self, tensors):
        it = iter(list(tensors))
        values = {f.name: _rebuild(self.__dict__[f.name], it) for f in self._fields()}
        return self.value_type._tf_extension_type_from_fields(values)

    def _to_components(self, value) -> list:
        return value._components()

    def component_names(self, base: str) -> list[str]:
        out: list = []
        for f in self._fields():
            out.extend(_names(self.__dict__[f.name], f"{base}.{f.name}"))
        return out

    def __repr__(self) -> str:
        fields = ", ".join(f"{f.name}={_spec_repr(self.__dict__[f.name])}"
                           for f in self._fields())
        return f"{type(self).__qualname__}({fields})"


def _names(spec, base: str) -> list:
    if isinstance(spec, TensorSpec):
        return [base]
    if isinstance(spec, TypeSpec):
        return spec.component_names(base)
    if isinstance(spec, tuple):
        return [n for i, s in enumerate(spec) for n in _names(s, f"{base}.{i}")]
    if isinstance(spec, ImmutableDict):
        return [n for k in _sorted_keys(spec) for n in _names(spec[k], f"{base}.{k}")]
    return []


def _add_spec_class(cls) -> None:
    """``cls.Spec``: a subclass of the parent type's Spec with the methods of a ``Spec`` the
    class body declares (as TensorFlow builds it)."""
    parent = next((getattr(b, "Spec", None) for b in cls.__mro__[1:]
                   if isinstance(getattr(b, "Spec", None), type)
                   and issubclass(b.Spec, ExtensionTypeSpec)), ExtensionTypeSpec)
    declared = cls.__dict__.get("Spec")
    body = {}
    if isinstance(declared, type):
        body = {k: v for k, v in declared.__dict__.items()
                if k not in ("__dict__", "__weakref__")}
    body.update(value_type=cls, __qualname__=f"{cls.__qualname__}.Spec",
                __module__=cls.__module__)
    type.__setattr__(cls, "Spec", type("Spec", (parent,), body))


# -- batchable types and datasets ---------------------------------------------------------------

class BatchableExtensionTypeSpec(ExtensionTypeSpec):
    """The Spec of a ``BatchableExtensionType``: batching batches each tensor field."""


class BatchableExtensionType(ExtensionType):
    """An ExtensionType that datasets batch and unbatch field by field
    (``tf.experimental.BatchableExtensionType``): a batch of values is one value whose tensor
    fields gain a leading dimension (a RaggedTensor field a ragged one), Python fields staying."""


type.__setattr__(BatchableExtensionType, "Spec", BatchableExtensionTypeSpec)


def field_parts(ext) -> list:
    """The parts of an ExtensionType value (or Spec) that stand on tensors, in component order:
    its tensor and composite fields, tuples and mappings walked, Python fields left out. A
    dataset carries an ExtensionType as these parts (``runtime.data.structure``)."""
    spec = ext if isinstance(ext, ExtensionTypeSpec) else ext._type_spec
    out: list = []
    for f in spec._fields():
        _parts(spec.__dict__[f.name], ext.__dict__[f.name], out)
    return out


def _parts(spec, value, out: list) -> None:
    if isinstance(spec, TypeSpec):
        out.append(value)
    elif isinstance(spec, tuple):
        for s, v in zip(spec, value):
            _parts(s, v, out)
    elif isinstance(spec, ImmutableDict):
        for k in _sorted_keys(spec):
            _parts(spec[k], value[k], out)


def from_field_parts(template, parts: list):
    """``template`` (a value or Spec) with its ``field_parts`` replaced by ``parts``: a Spec when
    the parts are specs, else a value (no conversion, no ``__validate__``: as TensorFlow
    rebuilds values from their components)."""
    spec = template if isinstance(template, ExtensionTypeSpec) else template._type_spec
    as_spec = all(isinstance(p, TypeSpec) for p in parts) if parts else \
        isinstance(template, ExtensionTypeSpec)
    it = iter(parts)
    values = {f.name: _replace(spec.__dict__[f.name], it) for f in spec._fields()}
    if not as_spec:
        return spec.value_type._tf_extension_type_from_fields(values)
    out = type(spec).__new__(type(spec))
    for name, value in values.items():
        object.__setattr__(out, name, value)
    return out


def _replace(spec, parts):
    if isinstance(spec, TypeSpec):
        return next(parts)
    if isinstance(spec, tuple):
        return tuple(_replace(s, parts) for s in spec)
    if isinstance(spec, ImmutableDict):
        built = {k: _replace(spec[k], parts) for k in _sorted_keys(spec)}
        return ImmutableDict((k, built[k]) for k in spec)
    return spec


def check_batchable(spec) -> None:
    """Raises TensorFlow's AttributeError when ``spec`` is a Spec that cannot be batched."""
    if isinstance(spec, ExtensionTypeSpec) and not isinstance(spec, BatchableExtensionTypeSpec):
        raise AttributeError(f"'{type(spec).__qualname__}' object has no attribute '_batch': "
                             f"to batch or unbatch {spec.value_type.__name__} values, derive it "
                             "from tf.experimental.BatchableExtensionType")
