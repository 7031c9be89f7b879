"""Trace keys: what about a call's arguments decides which trace serves it.

A key is a plain hashable tuple built in one pass over the arguments, so the
cache-hit path of a Function is a dict lookup. Each leaf of the arguments
becomes one small tuple whose first item is a tag:

* tensor (eager, numpy array, TensorSpec): ``(TENSOR, dtype name, dims)``,
  dims a tuple with None for unknown dimensions, or None for unknown rank;
* composite value with a ``_type_spec`` (RaggedTensor, SparseTensor), or a
  ``TypeSpec`` itself: ``(COMPOSITE, spec)`` — the spec (see runtime/composite.py);
  its component tensors are the feeds;
* Variable: ``(VARIABLE, WeakKey(variable))`` — its identity; a trace made for one
  Variable serves another of the same type with the resource renamed
  (``variable_renaming``), as TensorFlow traces Variables by type;
* Python primitive: ``(LITERAL, type, value)`` — its value; numbers Python calls
  equal share a key (``1``, ``1.0`` and ``True``: see ``_NumberType``);
* list / tuple / namedtuple / dict: the keys of their leaves (dict keys sorted);
* an object with ``__tf_tracing_type__``: ``(CUSTOM, what it returns)``;
* anything else: ``(OBJECT, WeakKey(obj))`` — equality and hash of the object,
  held weakly so that a dead object's trace is never matched by a new one (an
  unhashable object is TensorFlow's TypeError).

``is_subtype`` and ``common_supertype`` give the partial order TensorFlow's
TraceTypes have: a fixed dimension is a subtype of an unknown one, which is
what input signatures and ``reduce_retracing`` use.
"""
from __future__ import annotations

import weakref
from types import FunctionType

import numpy as np

from graph.dtypes import as_array, as_dtype, infer_dtype
from graph.shapes import TensorShape
from runtime import context
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.composite import type_spec_of
from runtime.tensor_spec import TensorSpec, TypeSpec

TENSOR = "tensor"
COMPOSITE = "composite"
VARIABLE = "variable"
LITERAL = "literal"
LIST = "list"
TUPLE = "tuple"
NAMEDTUPLE = "namedtuple"
DICT = "dict"
CUSTOM = "custom"
OBJECT = "object"

_LITERALS = (type(None), bool, int, float, str, bytes, complex, type(Ellipsis))


class _NumberType:
    """The type slot of a number's literal key. TensorFlow's Literal trace type compares
    values only, so ``f(1)``, ``f(1.0)`` and ``f(True)`` share one trace (the later calls
    run the trace made for the first); this marker is equal for every number type, and
    its ``__name__`` is the argument's own type, for messages."""

    def __init__(self, t: type):
        self.type, self.__name__ = t, t.__name__

    def __eq__(self, other) -> bool:
        return isinstance(other, _NumberType)

    def __hash__(self) -> int:
        return hash(_NumberType)

    def __repr__(self) -> str:
        return f"<number type {self.__name__}>"


_NUMBER_TYPES = {t: _NumberType(t) for t in (bool, int, float, complex)}


class TraceType:
    """Base for user trace types (``tf.types.experimental.TraceType``).

    An object's ``__tf_tracing_type__(context)`` returns one of these; two
    calls share a trace when their types are equal (``__eq__``/``__hash__``),
    or when one is a subtype of a traced one.
    """

    def is_subtype_of(self, other: "TraceType") -> bool:
        return self == other

    def most_specific_common_supertype(self, others) -> "TraceType | None":
        return self if all(self == o for o in others) else None

    def placeholder_value(self, placeholder_context=None):
        """The value the traced function receives for this argument (not overridden: the
        argument itself)."""
        raise NotImplementedError


class TracingContext:
    """Passed to ``__tf_tracing_type__``; carries nothing yet (TensorFlow's has an alias map)."""


class PlaceholderContext:
    """Passed to ``TraceType.placeholder_value``; carries nothing yet."""


_CONTEXT = TracingContext()


class WeakKey:
    """Hashable stand-in for an object, holding it weakly.

    Equal to another WeakKey only while both objects are alive and are the
    same object, or compare equal. Objects that cannot be weakly referenced
    are held strongly (so their id is never reused while the key lives).
    """

    __slots__ = ("_ref", "_hash", "__weakref__")

    def __init__(self, obj):
        try:
            self._hash = hash(obj)
            by_identity = False
        except TypeError:
            self._hash = id(obj)
            by_identity = True
        try:
            ref = weakref.ref(obj)
        except TypeError:
            ref = (lambda o: (lambda: o))(obj)
        self._ref = (ref, by_identity)

    def get(self):
        return self._ref[0]()

    @property
    def alive(self) -> bool:
        return self._ref[0]() is not None

    def __hash__(self) -> int:
        return self._hash

    def __eq__(self, other) -> bool:
        if not isinstance(other, WeakKey) or self._hash != other._hash:
            return False
        a, b = self._ref[0](), other._ref[0]()
        if a is None or b is None:
            return False
        if a is b:
            return True
        if self._ref[1] or other._ref[1]:
            return False
        try:
            return bool(a == b)
        except Exception:  # an __eq__ that returns arrays or raises: fall back to identity
            return False

    def __repr__(self) -> str:
        obj = self.get()
        return f"WeakKey({'<dead>' if obj is None else describe_object(obj)})"


def _variable_class():
    try:
        from runtime.variables import Variable
    except ImportError:  # variables not available yet: nothing is a Variable
        return ()
    return Variable


_VARIABLE_CLASS = None


def is_variable(value) -> bool:
    global _VARIABLE_CLASS
    if _VARIABLE_CLASS is None or _VARIABLE_CLASS == ():
        _VARIABLE_CLASS = _variable_class()
    return bool(_VARIABLE_CLASS) and isinstance(value, _VARIABLE_CLASS)


def make_key(value, feeds: list):
    """The trace key of ``value``; appends the values of its tensor leaves to ``feeds``."""
    t = type(value)
    if t is EagerTensor:
        v = value._value
        feeds.append(v)
        return (TENSOR, value._dtype.name, getattr(v, "shape", ()))
    if t in _LITERALS:
        return (LITERAL, _NUMBER_TYPES.get(t, t), value)
    if t is list:
        return (LIST, tuple([make_key(v, feeds) for v in value]))
    if t is tuple:
        return (TUPLE, tuple([make_key(v, feeds) for v in value]))
    if t is dict:
        return (DICT, tuple([(k, make_key(value[k], feeds)) for k in _sorted_keys(value)]))
    if t is FunctionType and "__tf_tracing_type__" not in value.__dict__:
        return (OBJECT, WeakKey(value))  # a callable argument: dynamic_rnn(rnn_step, ...)
    return _make_key_slow(value, feeds)


def call_key(args, feeds: list) -> tuple:
    """The trace key of a call's positional ``args`` (``make_key`` of each, in one loop:
    the cache-hit path of a Function, where eager tensors are the common argument)."""
    key = []
    for a in args:
        if a.__class__ is EagerTensor:
            v = a._value
            feeds.append(v)
            key.append((TENSOR, a._dtype.name, getattr(v, "shape", ())))
        else:
            key.append(make_key(a, feeds))
    return tuple(key)


def _make_key_slow(value, feeds: list):
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        dtype = infer_dtype(value)
        feeds.append(as_array(value, dtype))
        return (TENSOR, dtype.name, np.shape(value))
    if isinstance(value, SymbolicTensor):
        if context.current_graph() is None:  # called eagerly with a tensor of a finished trace
            from runtime.ops.core import leaked
            raise leaked(value)
        feeds.append(value)
        return (TENSOR, value.dtype.name, value.shape.as_tuple())
    if isinstance(value, TensorSpec):
        feeds.append(value)
        return (TENSOR, value.dtype.name, value.shape.as_tuple())
    if isinstance(value, Tensor):  # another Tensor kind: key by dtype and shape
        feeds.append(value)
        return (TENSOR, value.dtype.name, value.shape.as_tuple())
    spec = type_spec_of(value)
    if spec is not None:
        for c in value._components():
            feeds.append(c._value if type(c) is EagerTensor else c)
        return (COMPOSITE, spec)
    if isinstance(value, TypeSpec):  # (a TensorSpec is handled above)
        feeds.extend(value._component_specs)
        return (COMPOSITE, value)
    if is_variable(value):
        return (VARIABLE, WeakKey(value), variable_type(value))
    tracing_type = getattr(value, "__tf_tracing_type__", None)
    if tracing_type is not None:
        return (CUSTOM, tracing_type(_CONTEXT))
    if isinstance(value, tuple) and hasattr(value, "_fields"):
        return (NAMEDTUPLE, type(value), tuple([make_key(v, feeds) for v in value]))
    if isinstance(value, dict):
        return (DICT, tuple([(k, make_key(value[k], feeds)) for k in _sorted_keys(value)]))
    if isinstance(value, (list, tuple)):
        tag = LIST if isinstance(value, list) else TUPLE
        return (tag, tuple([make_key(v, feeds) for v in value]))
    try:
        hash(value)
    except TypeError:  # (a dataclass with eq=True: equal objects could change between calls)
        raise TypeError(
            f"Could not generate a generic TraceType for {value!r}.Please verify that it is "
            "immutable/hashable. Otherwise, consider implementing the Tracing Protocol for "
            "it.") from None
    return (OBJECT, WeakKey(value))


def _sorted_keys(d: dict):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


# -- the partial order --------------------------------------------------------------

def is_subtype(a, b) -> bool:
    """True when a call with key ``a`` can run the trace made for key ``b``."""
    if a == b:
        return True
    tag = a[0]
    if tag != b[0]:
        return False
    if tag == TENSOR:
        return a[1] == b[1] and _dims_fit(a[2], b[2])
    if tag in (LIST, TUPLE):
        return len(a[1]) == len(b[1]) and all(is_subtype(x, y) for x, y in zip(a[1], b[1]))
    if tag == NAMEDTUPLE:
        return (a[1] is b[1] and len(a[2]) == len(b[2])
                and all(is_subtype(x, y) for x, y in zip(a[2], b[2])))
    if tag == DICT:
        return ([k for k, _ in a[1]] == [k for k, _ in b[1]]
                and all(is_subtype(x, y) for (_, x), (_, y) in zip(a[1], b[1])))
    if tag in (CUSTOM, COMPOSITE):
        try:
            return bool(a[1].is_subtype_of(b[1]))
        except Exception:
            return False
    return False


def _dims_fit(dims, traced) -> bool:
    """``TensorShape(dims).is_subtype_of(TensorShape(traced))`` on the key's dims tuples
    (a miss compares the call with every trace: no shapes are built)."""
    if traced is None:
        return True
    if dims is None or len(dims) != len(traced):
        return False
    for d, t in zip(dims, traced):
        if t is not None and d != t:
            return False
    return True


def common_supertype(a, b):
    """The most specific key that both ``a`` and ``b`` are subtypes of, or None."""
    if a == b:
        return a
    tag = a[0]
    if tag != b[0]:
        return None
    if tag == TENSOR:
        if a[1] != b[1]:
            return None
        return (TENSOR, a[1], TensorShape(a[2]).most_specific_compatible_shape(
            TensorShape(b[2])).as_tuple())
    if tag in (LIST, TUPLE):
        if len(a[1]) != len(b[1]):
            return None
        parts = [common_supertype(x, y) for x, y in zip(a[1], b[1])]
        return None if None in parts else (tag, tuple(parts))
    if tag == NAMEDTUPLE:
        if a[1] is not b[1] or len(a[2]) != len(b[2]):
            return None
        parts = [common_supertype(x, y) for x, y in zip(a[2], b[2])]
        return None if None in parts else (tag, a[1], tuple(parts))
    if tag == DICT:
        if [k for k, _ in a[1]] != [k for k, _ in b[1]]:
            return None
        parts = [(k, common_supertype(x, y)) for (k, x), (_, y) in zip(a[1], b[1])]
        return None if any(p is None for _, p in parts) else (tag, tuple(parts))
    if tag == VARIABLE:  # (one type: the new call's Variable, which the trace will read)
        return a if _is_variable_key(a) and _is_variable_key(b) and a[2][:3] == b[2][:3] \
            else None
    if tag in (CUSTOM, COMPOSITE):
        try:
            sup = a[1].most_specific_common_supertype([b[1]])
        except Exception:
            return None
        return None if sup is None else (tag, sup)
    return None


def is_alive(key) -> bool:
    """False when the key names an object that no longer exists (a trace for a deleted
    Variable stays: it serves other Variables of its type)."""
    tag = key[0]
    if tag == OBJECT:
        return key[1].alive
    if tag in (LIST, TUPLE):
        return all(is_alive(k) for k in key[1])
    if tag == NAMEDTUPLE:
        return all(is_alive(k) for k in key[2])
    if tag == DICT:
        return all(is_alive(k) for _, k in key[1])
    return True


# -- traces shared by Variables of one type ----------------------------------------------

def variable_type(variable) -> tuple:
    """What a trace for ``variable`` needs of it: (dtype, dims, trainable, resource id)."""
    return (variable.dtype.name, variable.shape.as_tuple(), variable.trainable,
            variable._resource)


def variable_renaming(new, old):
    """TensorFlow traces a Variable argument by its type (dtype, shape, trainable, and which
    other arguments it aliases), not its identity: for call keys that differ only in which
    such Variables they pass, {resource id of each traced Variable: the Variable passed now}.
    None when the keys differ otherwise (or not at all)."""
    pairs: list = []
    if not _pair_variables(new, old, pairs):
        return None
    forward: dict = {}
    backward: dict = {}
    for was, now in pairs:
        if forward.setdefault(was, now._resource) != now._resource or \
                backward.setdefault(now._resource, was) != was:
            return None  # aliased differently: f(a, a) is not f(a, b)
    if all(was == now._resource for was, now in pairs):
        return None
    return {was: now for was, now in pairs}


def passes_variables(key) -> bool:
    """Whether a call key holds a Variable (only such calls can reuse a trace made for
    other Variables: a miss without any skips that search)."""
    if type(key) is not tuple:
        return False
    if _is_variable_key(key):
        return True
    return any(passes_variables(k) for k in key)


def renamed_key(key, renaming: dict):
    """``key`` with the Variables of ``renaming`` (see ``variable_renaming``) put in."""
    if type(key) is not tuple:
        return key
    if len(key) == 3 and key[0] == VARIABLE and type(key[1]) is WeakKey:
        variable = renaming.get(key[2][3])
        return key if variable is None else make_key(variable, [])
    return tuple(renamed_key(k, renaming) for k in key)


def _pair_variables(a, b, pairs: list) -> bool:
    """Walks keys ``a`` (new) and ``b`` (traced) in step: ``a`` fits ``b`` (``is_subtype``)
    but for Variables of one type, whose (traced resource id, new Variable) pairs go to
    ``pairs``."""
    if type(a) is not tuple or type(b) is not tuple or len(a) != len(b):
        return a == b
    if _is_variable_key(a):
        if not _is_variable_key(b) or a[2][:3] != b[2][:3]:
            return False
        now = a[1].get()
        pairs.append((b[2][3], now))
        return now is not None
    if _is_typed_key(a):
        return is_subtype(a, b)
    return all(_pair_variables(x, y, pairs) for x, y in zip(a, b))


def _is_variable_key(k) -> bool:
    return len(k) == 3 and k[0] == VARIABLE and type(k[1]) is WeakKey


def _is_typed_key(k) -> bool:
    """A tensor, composite or custom leaf key (whose subtypes fit its traces)."""
    if k[0] == TENSOR:
        return len(k) == 3 and type(k[1]) is str and (k[2] is None or type(k[2]) is tuple)
    return k[0] in (COMPOSITE, CUSTOM) and len(k) == 2 and type(k[1]) is not tuple


# -- explaining keys to people ---------------------------------------------------------

def describe_object(obj) -> str:
    return f"{type(obj).__name__} object at {id(obj):#x}"


def describe(key) -> str:
    """A short description of one argument's key (for retracing messages)."""
    tag = key[0]
    if tag == TENSOR:
        return f"{key[1]} Tensor, shape={TensorShape(key[2])}"
    if tag == LITERAL:
        return f"Python {key[1].__name__} {key[2]!r}"
    if tag == VARIABLE:
        dtype, dims, trainable, _ = key[2]
        return f"{dtype} Variable, shape={TensorShape(dims)}" + \
            ("" if trainable else ", not trainable")
    if tag in (LIST, TUPLE):
        return f"{tag} of {len(key[1])}"
    if tag == NAMEDTUPLE:
        return f"{key[1].__name__} of {len(key[2])}"
    if tag == DICT:
        return f"dict with keys {[k for k, _ in key[1]]}"
    if tag in (CUSTOM, COMPOSITE):
        return f"{key[1]!r}"
    obj = key[1].get()
    return "a deleted object" if obj is None else describe_object(obj)


def explain_change(name: str, old, new) -> list[str]:
    """Why key ``new`` of argument ``name`` missed the trace made for ``old``."""
    if old == new:
        return []
    tag = new[0]
    if tag != old[0]:
        hint = "; pass a tensor to reuse the trace" if old[0] == LITERAL or new[0] == LITERAL else ""
        return [f"{name}: {describe(old)} → {describe(new)}{hint}"]
    if tag == TENSOR:
        if old[1] != new[1]:
            return [f"{name}: dtype {old[1]} → {new[1]}"]
        return [f"{name}: shape {TensorShape(old[2])} → {TensorShape(new[2])}; use "
                "reduce_retracing=True or an input_signature with None dimensions to reuse "
                "the trace"]
    if tag == LITERAL:
        return [f"{name}: {describe(old)} → {new[2]!r}; pass a tensor to reuse the trace"]
    if tag in (LIST, TUPLE, NAMEDTUPLE):
        o, n = (old[1], new[1]) if tag != NAMEDTUPLE else (old[2], new[2])
        if len(o) != len(n) or (tag == NAMEDTUPLE and old[1] is not new[1]):
            return [f"{name}: {describe(old)} → {describe(new)}"]
        out = []
        for i, (x, y) in enumerate(zip(o, n)):
            out += explain_change(f"{name}[{i}]", x, y)
        return out
    if tag == DICT:
        if [k for k, _ in old[1]] != [k for k, _ in new[1]]:
            return [f"{name}: {describe(old)} → {describe(new)}"]
        out = []
        for (k, x), (_, y) in zip(old[1], new[1]):
            out += explain_change(f"{name}[{k!r}]", x, y)
        return out
    if tag == VARIABLE:
        return [f"{name}: {describe(old)} → {describe(new)} (a trace serves the Variables of "
                "one dtype, shape and trainability, aliased alike)"]
    if tag == OBJECT:
        return [f"{name}: another object ({describe(new)}); each distinct object gets its own "
                "trace — give its class __tf_tracing_type__ to share traces"]
    return [f"{name}: {describe(old)} → {describe(new)}"]


def spec_of(key, name: str | None = None):
    """TensorSpec for a TENSOR key (None for other kinds)."""
    if key[0] != TENSOR:
        return None
    return TensorSpec(TensorShape(key[2]), as_dtype(key[1]), name)


# ``tf.types.experimental.TraceType``: where user code finds the protocol's base class.
class _Namespace:
    def __init__(self, **entries):
        self.__dict__.update(entries)


types = _Namespace(experimental=_Namespace(TraceType=TraceType, TracingContext=TracingContext,
                                           PlaceholderContext=PlaceholderContext))


# -- whole calls: a call's key is a tuple of per-argument keys ------------------------------

def call_is_subtype(a: tuple, b: tuple) -> bool:
    return a == b or is_subtype((TUPLE, a), (TUPLE, b))


def call_supertype(a: tuple, b: tuple):
    sup = common_supertype((TUPLE, a), (TUPLE, b))
    return None if sup is None else sup[1]


def call_is_alive(key: tuple) -> bool:
    return is_alive((TUPLE, key))
