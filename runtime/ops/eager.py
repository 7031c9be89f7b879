"""Running one op eagerly: inference, the registry kernel, the result as EagerTensors.

An eager op pays for its inference on every call, though a loop calls the
same op on the same dtypes and shapes again and again, and inference built
``TensorShape``s and ran shape rules only to learn the output dtypes. So the
inference result (the output dtypes, plus the op's kernel and keyword
arguments) is cached per key ``(op, input dtypes and shapes, attrs)``, with
shapes as plain tuples and attrs frozen with their types (``1`` and
``True`` are different keys).

An inference may also read its inputs' constant values (``Range``, integer
``FloorDiv``...). A cache miss therefore runs the inference on *probes*:
stand-ins with the same dtype, shape and value that note which values were
read. An inference that read none depends only on the key and is cached. One
that read some is cached per value of those inputs when they are small
numeric arrays (under the key ``(key, their bytes)``), and not at all otherwise.
Inference is a pure function of what it reads, so a hit gives what running
it would give. The kernel cached is the one a graph node of the same types
would run (an op's stateless ``build``, given a view of the call as a node:
``np.matmul`` rather than the generic kernel with its transpose arguments);
a build reading input values is keyed on them the same way. Errors are never
cached: a probe that raises (a genuine error, or an inference asking for more
than a probe offers) sends the call down the uncached path, which runs the
inference on the real inputs and raises exactly as before.

The elementwise APIs and ``tf.matmul``'s common case are made here (``unary_api``,
``binary_api``): an eager call on EagerTensors that nothing watches is one frame,
one lookup in the API's own table (keyed on the inputs' interned ValueSpecs) and one
kernel call, whose result carries its ValueSpec to the next op; the rest takes the API's
reference path.
"""
from __future__ import annotations

import numpy as np

from graph.dtypes import DType
from graph.errors import InvalidArgumentError
from graph.registry import _QUIET, get_op
from graph.shapes import TensorShape
# the per-thread stack of graphs being built: empty means eager with no init_scope, the one
# state the fast paths take (a stack holding None, init_scope's eager, takes the general path)
from runtime.context import building_stack as _building
from runtime.errors import InaccessibleTensorError, LeakedTensorError
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, value_spec

# Callbacks ``(op, inputs, attrs, result)`` told of every eager op while a GradientTape
# records; empty otherwise, so the untaped path costs one truthiness test (``core.apply_op``).
RECORDERS: list = []
# Checks ``(op, result)`` run after every op while tf.debugging.enable_check_numerics is on
# (runtime/debugging.py); empty otherwise, so it costs one truthiness test.
NUMERIC_CHECKS: list = []

_CACHE: dict = {}
_CACHE_LIMIT = 8192   # entries; the whole cache is dropped when it is full
_OP_LIMIT = 1024      # entries of one op type: past it the op runs uncached until a drop
_PER_OP: dict = {}    # op type -> entries it holds in _CACHE
_VALUE_KEY_LIMIT = 64  # elements: larger values read by an inference are not keyed on
# what a kernel or inference raises for bad arguments (InvalidArgumentError is a ValueError)
_KERNEL_ERRORS = (ValueError, IndexError, TypeError, FloatingPointError, ZeroDivisionError)


class _Entry:
    """A cached inference: what to call and how to wrap its result.

    ``single`` is the output dtype of a kernel taking no keyword arguments and giving one
    output (the common op: ``unary_api``/``binary_api`` run it inline), else None; ``shape``
    its output shape when inference knows it all (the fast paths give it to the result);
    ``quiet``: the kernel must run under a silenced error state (see ``_silent``).
    """

    __slots__ = ("kernel", "kwargs", "dtypes", "single", "shape", "quiet")

    def __init__(self, kernel, kwargs: dict, types: list, inputs: list):
        self.kernel = kernel
        self.quiet = not _silent(kernel, inputs)
        self.kwargs = kwargs
        self.dtypes = tuple(t.dtype for t in types)
        self.single = self.dtypes[0] if len(types) == 1 and not kwargs else None
        shape = types[0].shape if self.single is not None else None
        self.shape = shape.as_tuple() if shape is not None and shape.is_fully_defined() \
            else None


# numpy kernels whose integer and bool array loops never set floating-point flags (integer
# wrap-around is silent outside numpy's scalar arithmetic; division and remainder by zero are
# what warns, and they are not here): on such inputs they need no silenced error state.
_SILENT_ON_INTEGERS = frozenset({
    np.add, np.subtract, np.multiply, np.negative, np.square, np.maximum, np.minimum,
    np.matmul, np.less, np.less_equal, np.greater, np.greater_equal, np.equal, np.not_equal,
    np.bitwise_and, np.bitwise_or, np.bitwise_xor, np.invert, np.logical_and, np.logical_or,
    np.logical_not})


def _silent(kernel, inputs) -> bool:
    """True when ``kernel`` cannot warn on ``inputs``: integers or bools, one of them of rank
    >= 1 (so an array loop runs: numpy's scalar arithmetic, run when every input may be a
    numpy scalar, warns on overflow)."""
    try:
        if kernel not in _SILENT_ON_INTEGERS:
            return False
    except TypeError:  # an unhashable callable
        return False
    return all(t.dtype.numpy_dtype.kind in "biu" for t in inputs) \
        and any(t.shape.rank for t in inputs)


class _NeedsValues:
    """The inference for this key read the values of inputs ``indices``: key on them too."""

    __slots__ = ("indices",)

    def __init__(self, indices: tuple):
        self.indices = indices


_UNCACHEABLE = object()  # the inference for this key failed on probes: always run it

# numpy's floating-point warnings, silenced around each kernel as call_quietly does (inlined
# here: it is the hot path): numpy 2's error-state context variable set and reset.
if _QUIET is not None:
    _set_quiet, _reset_quiet, _QUIET_STATE = _QUIET[0].set, _QUIET[0].reset, _QUIET[1]
else:  # numpy 1: the global error state, restored after the kernel
    _set_quiet, _reset_quiet, _QUIET_STATE = np.seterr, lambda old: np.seterr(**old), "ignore"


def clear_cache() -> None:
    """Forgets every cached inference (tests; a re-registered op)."""
    _CACHE.clear()
    _PER_OP.clear()
    for table in _TABLES:
        table.clear()


def run_eager(op: str, inputs, attrs: dict):
    """Runs ``op`` now on eager ``inputs``: one EagerTensor, a tuple of them, or None.

    The key (op, each input's dtype name and shape, frozen attrs), one lookup, the kernel
    under silenced floating-point warnings, the result wrapped (the common one- and
    two-input ops skip this frame: ``unary_api``, ``binary_api``).
    """
    key = [op]
    for t in inputs:
        if t.__class__ is not EagerTensor:
            return _run_uncached(op, inputs, attrs)
        key.append(t._dtype.name)
        key.append(_shape(t))
    key = tuple(key)
    values = [t._value for t in inputs]
    if attrs:
        frozen = freeze_attrs(attrs)
        if frozen is None:
            return _run_uncached(op, inputs, attrs)
        key += (frozen,)
    entry = _CACHE.get(key)
    if entry.__class__ is not _Entry:
        entry = _miss(op, inputs, attrs, values, key, entry)
        if entry is None:
            return _run_uncached(op, inputs, attrs)
    token = _set_quiet(_QUIET_STATE)
    try:
        result = entry.kernel(*values, **entry.kwargs) if entry.kwargs else entry.kernel(*values)
    except _KERNEL_ERRORS as e:
        raise _user_error(op, e) from None
    finally:
        _reset_quiet(token)
    out = entry.dtypes
    if len(out) == 1:
        return EagerTensor(result, out[0])
    if not out:
        return None
    return tuple(EagerTensor(v, d) for v, d in zip(result, out))


# -- the fast paths of the elementwise APIs ----------------------------------------------
#
# ``tf.add(x, y)`` on eager tensors in one frame: the checks that nothing watches the op (no
# graph being built, no tape, no numeric checks), one lookup, the kernel, the result. Each API
# has its own table, keyed on what varies between its calls: the inputs' interned ValueSpecs
# (dtype and shape, hashed by identity), or for a Python number operand its class and value.
# A hit is ``(kernel, output dtype, operand value, output ValueSpec, quiet)``: the key is
# short, holds neither the op nor its attrs, ``x * 2.0`` needs one lookup, the result carries
# its spec to the next op, and an integer kernel that cannot warn skips the error state. A table learns only what _CACHE holds (``_learn``) and is dropped with it.
# Anything else (a miss, a several-output or keyword-taking kernel, a tape, a graph, a
# composite argument) calls ``general``, the API's reference path, which goes through
# run_eager and fills _CACHE. The kernel call is written out here as in run_eager (one frame
# less per op is the point).

_TABLES: list = []   # every API's table (cleared by clear_cache)
_TABLE_LIMIT = 256   # entries of one table: it is dropped when full


def _table() -> dict:
    table: dict = {}
    _TABLES.append(table)
    return table


def _learn(table: dict, local, key: tuple, operand=None):
    """``table[local]``, made from ``_CACHE[key]`` when that is a plain one-output entry;
    else None (the caller takes its reference path, which fills _CACHE)."""
    entry = _CACHE.get(key)
    if entry.__class__ is not _Entry or entry.single is None:
        return None
    if len(table) >= _TABLE_LIMIT:
        table.clear()
    spec = None if entry.shape is None else value_spec(entry.single.name, entry.shape)
    hit = table[local] = (entry.kernel, entry.single, operand, spec, entry.quiet)
    return hit


def unary_api(op: str, general):
    """The public function ``fn(x, name=None)`` of a one-input op without attrs."""
    table = _table()

    def fn(x, name=None):
        if x.__class__ is EagerTensor and not _building.graphs and not RECORDERS \
                and not NUMERIC_CHECKS:
            s = x._spec or x._value_spec()
            hit = table.get(s) or _learn(table, s, (op, s.dtype, s.shape))
            if hit is not None:
                if hit[4]:
                    token = _set_quiet(_QUIET_STATE)
                    try:
                        result = hit[0](x._value)
                    except _KERNEL_ERRORS as e:
                        raise _user_error(op, e) from None
                    finally:
                        _reset_quiet(token)
                else:  # (integer kernels that cannot warn)
                    try:
                        result = hit[0](x._value)
                    except _KERNEL_ERRORS as e:
                        raise _user_error(op, e) from None
                return EagerTensor(result, hit[1], hit[3])
        return general(x, name)
    return fn


def binary_api(op: str, general, numbers: dict | None = None, plain=(),
               attrs: dict | None = None):
    """The public function ``fn(x, y, name=None)`` of a two-input op.

    ``y`` may also be a Python number of a class in ``plain`` found in ``numbers`` (operand
    tensors by ``(class, value, dtype name)``, made by the reference path); ``attrs``: the
    op's constant attrs, frozen once into the _CACHE key.
    """
    table = _table()
    frozen = (freeze_attrs(attrs),) if attrs else ()

    def fn(x, y, name=None):
        if x.__class__ is EagerTensor and not _building.graphs and not RECORDERS \
                and not NUMERIC_CHECKS:
            s, c = x._spec or x._value_spec(), y.__class__
            if c is EagerTensor:
                b, t = y._value, y._spec or y._value_spec()
                local = (s, t)
                hit = table.get(local) or _learn(
                    table, local, (op, s.dtype, s.shape, t.dtype, t.shape) + frozen)
            elif c in plain:  # (a float zero or NaN is never in numbers, so never here)
                local = (s, c, y)
                hit = table.get(local)
                if hit is None:
                    t = numbers.get((c, y, s.dtype))
                    if t is not None:
                        hit = _learn(table, local, (op, s.dtype, s.shape, t._dtype.name,
                                                    _shape(t)) + frozen, t._value)
                if hit is not None:
                    b = hit[2]
            else:
                hit = None
            if hit is not None:
                if hit[4]:
                    token = _set_quiet(_QUIET_STATE)
                    try:
                        result = hit[0](x._value, b)
                    except _KERNEL_ERRORS as e:
                        raise _user_error(op, e) from None
                    finally:
                        _reset_quiet(token)
                else:  # (integer kernels that cannot warn)
                    try:
                        result = hit[0](x._value, b)
                    except _KERNEL_ERRORS as e:
                        raise _user_error(op, e) from None
                return EagerTensor(result, hit[1], hit[3])
        return general(x, y, name)
    return fn


def _user_error(op: str, e: Exception) -> InvalidArgumentError:
    """A kernel's error as TensorFlow's InvalidArgumentError, at the user's line."""
    if not isinstance(e, InvalidArgumentError):
        e = InvalidArgumentError(message=f"{op}: {e}")
    return at_user_line(e)


def _shape(t: EagerTensor) -> tuple:
    """The shape of an eager value as a plain tuple (a numpy scalar's is ``()``)."""
    v = t._value
    return v.shape if v.__class__ is np.ndarray or isinstance(v, np.generic) \
        else t.shape.as_tuple()


def _run_uncached(op: str, inputs, attrs: dict):
    """The reference path: inference on the real inputs every time."""
    for t in inputs:
        if isinstance(t, SymbolicTensor):
            raise leaked(t)
    opdef = get_op(op)
    try:
        types = opdef.infer(inputs, attrs)
        result = opdef.run_eager([t._value for t in inputs], attrs)
    except _KERNEL_ERRORS as e:
        raise _user_error(op, e) from None
    n = len(types)
    if n == 1:
        return EagerTensor(result, types[0].dtype)
    if n == 0:
        return None
    return tuple(EagerTensor(v, t.dtype) for v, t in zip(result, types))


# -- the cache ---------------------------------------------------------------------------

class _Probe:
    """An input as inference sees it (dtype, shape, value), noting reads of its value."""

    __slots__ = ("dtype", "shape", "_value", "_index", "_reads")

    def __init__(self, t: EagerTensor, index: int, reads: set):
        self.dtype = t._dtype
        self.shape = t.shape
        self._value = t._value
        self._index = index
        self._reads = reads

    @property
    def value(self):
        self._reads.add(self._index)
        return self._value


class _NodeView:
    """What an op's ``build`` reads of a graph node, for an eager call: the inputs are
    probes, so a build that reads an input's value keys the entry on it like inference."""

    __slots__ = ("inputs", "attrs", "outputs")

    def __init__(self, inputs: list, attrs: dict, outputs: list):
        self.inputs, self.attrs, self.outputs = inputs, attrs, outputs


def _miss(op, inputs, attrs, values, key, entry):
    """Infers on probes and caches what can be cached; None: run the uncached path."""
    if entry is _UNCACHEABLE or _PER_OP.get(op, 0) >= _OP_LIMIT:
        return None  # (a random op under a global seed has new seed attrs on every call)
    allowed = None
    if entry is not None:  # _NeedsValues: the key continues with those inputs' values
        allowed = entry.indices
        value_key = _value_key(values, allowed)
        if value_key is None:
            return None
        found = _CACHE.get((key, value_key))
        if found is not None:
            return found
    opdef = get_op(op)
    if opdef.kernel is None:  # the uncached path raises that it cannot run eagerly
        return None
    reads: set = set()
    probes = [_Probe(t, i, reads) for i, t in enumerate(inputs)]
    try:
        types = opdef.infer(probes, attrs)
        kernel, kwargs = opdef.kernel, {a: attrs[a] for a in opdef.kernel_attrs}
    except Exception:  # noqa: BLE001 (the real inference raises it again, or succeeds)
        if allowed is None:
            _store(op, key, _UNCACHEABLE)
        return None
    if opdef.build is not None and not opdef.stateful and not opdef.function_attrs:
        try:  # the kernel a graph node of these types would run (np.matmul, np.add...)
            kernel, kwargs = opdef.build(_NodeView(probes, attrs, types), None), {}
        except Exception:  # noqa: BLE001 (a build needing a real graph node: the plain kernel)
            pass
    new = _Entry(kernel, kwargs, types, probes)
    if not reads and allowed is None:
        _store(op, key, new)
        return new
    if allowed is None:
        allowed = tuple(sorted(reads))
        _store(op, key, _NeedsValues(allowed))
    elif not reads <= set(allowed):
        return None  # this path read other values than the key holds: not cacheable
    value_key = _value_key(values, allowed)
    if value_key is not None:
        _store(op, (key, value_key), new)
    return new


def _store(op: str, key: tuple, entry) -> None:
    if len(_CACHE) >= _CACHE_LIMIT:
        clear_cache()
    _CACHE[key] = entry
    _PER_OP[op] = _PER_OP.get(op, 0) + 1


def _value_key(values, indices) -> tuple | None:
    """The bytes of small numeric input values, or None when one is not such a value."""
    key = []
    for i in indices:
        v = values[i]
        if not isinstance(v, (np.ndarray, np.generic)) or v.dtype.kind not in "biuf" \
                or v.size > _VALUE_KEY_LIMIT:
            return None
        key.append(v.tobytes())
    return tuple(key)


_ATOMS = frozenset({bool, int, float, str, bytes, type(None)})


class _Unfreezable(Exception):
    pass


def freeze_attrs(attrs: dict) -> tuple | None:
    """Attrs as a hashable key that keeps each value's type; None for arrays and the like.

    Flat: ``name, type, value`` for a Python scalar, ``name, frozen`` otherwise
    (a frozen value is a tuple, never a type, so the two cannot be confused).
    """
    key = []
    for k, v in attrs.items():
        c = v.__class__
        if c in _ATOMS:
            key += (k, c, v)
            continue
        try:
            key += (k, _freeze(v))
        except _Unfreezable:
            return None
    return tuple(key)


_PLAIN = frozenset({int, str, type(None)})  # no other type's values equal theirs


def _freeze(v) -> tuple:
    """``(type, value)``, recursively; a plain tuple (see ``_plain``) stays as it is.

    A frozen value starts with a type, a plain tuple never does: they cannot be equal.
    """
    c = v.__class__
    if c in _ATOMS:
        return (c, v)
    if c is tuple:
        if _plain(v):
            return v  # StridedSlice's (("index", 3),): the common case
        return (c, tuple([_freeze(e) for e in v]))
    if c is list:
        return (c, tuple([_freeze(e) for e in v]))
    if c is DType:
        return (c, v.name)
    if c is TensorShape:
        return (c, v.as_tuple())
    raise _Unfreezable


def _plain(v: tuple) -> bool:
    """True for a tuple of ints, strings, None and such tuples (no bools, no floats)."""
    for e in v:
        c = e.__class__
        if c not in _PLAIN and (c is not tuple or not _plain(e)):
            return False
    return True


# -- errors ------------------------------------------------------------------------------

def at_user_line(err: InvalidArgumentError) -> InvalidArgumentError:
    """Adds the user's file:line to an error of an eagerly run op (found only on failure)."""
    origin = current_origin()
    if origin is not None and str(origin) not in err.message:
        err.message = f"{err.message}\n  at {origin}"
        err.args = (err.message,)
    return err


def leaked(t: SymbolicTensor, graph=None) -> LeakedTensorError | InaccessibleTensorError:
    """The error for ``t`` used where it does not live: in ``graph``, around the loop body or
    branch that made it (InaccessibleTensorError, a ValueError, as TensorFlow), or after
    its function's trace (a TypeError)."""
    inner = t._output.node.graph
    while graph is not None and inner is not None and inner is not graph:
        inner = inner.outer
    origin = t.op.origin
    where = f" (created at {origin})" if origin else ""
    if graph is not None and inner is graph:
        return InaccessibleTensorError(
            f"{t} is out of scope and cannot be used here: it was made inside a staged loop "
            f"body or branch{where} and exists only there. Carry "
            "it out as a loop variable or a branch result (assign it to a variable the loop or "
            "`if` sets), or collect values in a tf.TensorArray.")
    return LeakedTensorError(  # (TensorFlow's first words, then what happened and what to do)
        f"{t} is out of scope and cannot be used here. It is a symbolic tensor of graph "
        f"{t.graph.name!r}{where} that escaped the function "
        "being traced and is used outside it. Symbolic tensors only live while their function "
        "is traced: return the value from the function instead of storing it in a global, a "
        "list or an attribute, or store it in a tf.Variable.")
