"""``Function`` and ``ConcreteFunction``: trace a Python function once per input type, then run graphs.

``Function.__call__`` computes the trace key of its arguments (see
``runtime.trace_type``) and looks it up: a hit runs the ``ConcreteFunction``'s
compiled plan directly, a miss traces the (converted) Python function into a
new Graph — placeholders named after the arguments, outputs behind
``Identity`` nodes — compiles it and caches it. A call with eager tensors only,
all positional (the common one), is looked up first by the tensors' interned
ValueSpecs (``_hits``): one short tuple of identity-hashed objects, no key built.

State follows TensorFlow's rules: eager tensors the function closes over
become constants at trace time, Variables are read live (their ops name the
variable by resource id), Variables may be created on the first trace only,
and a Function called while another graph is being built is traced on its own (once per
trace key, as TensorFlow traces a nested tf.function) and that trace copied into the caller's
graph. A Variable argument is traced by its type: another Variable of the same dtype, shape
and trainability reuses the trace, its graph compiled again with the other resource.

Threads: a cache hit takes no lock. A miss is coordinated per Function and
trace key (``_Flight``): concurrent first calls with the same key trace once
(the others wait and then use that trace), different keys trace at the same
time once the Function has traced before (its first trace, the one allowed to
create Variables, runs alone), and a wait that would close a cycle of threads
waiting for each other's traces (or the tracing thread calling itself) traces
instead of waiting, so no call can deadlock.
"""
from __future__ import annotations

import collections
import contextlib
import functools
import gc
import logging
import threading
import types
import weakref

import numpy as np

from graph import resources
from graph.dtypes import as_dtype
from graph.errors import InvalidArgumentError
from graph.executor import compile_graph
from graph.ir import Graph
from graph.passes import optimize as optimize_graph
from graph.shapes import TensorShape
from runtime import collector, context, nest
from runtime.composite import is_composite_tensor, type_spec_of
from runtime.config import FLAGS
from runtime.context import building_stack as _building
from runtime.errors import LeakedTensorError, StagingError
from runtime.ops.control_ops import get_logger
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.signature import FunctionSpec, apply_input_signature, check_input_signature
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor
from runtime.tensor_spec import TensorSpec
from runtime import trace_type as tt
from runtime.concrete_function import ConcreteFunction, feed_value

VARIABLE_CREATION_ERROR = (
    "tf.function only supports singleton tf.Variables created on the first call. Make sure the "
    "tf.Variable is only created once or created outside tf.function. See "
    "https://www.tensorflow.org/guide/function#creating_tfvariables for more information.")

# TensorFlow logs a warning when this many of the last calls traced (per Python function).
FREQUENT_TRACING_THRESHOLD = 5
FREQUENT_TRACING_HISTORY = 10
FREQUENT_TRACING_MAX_WARNINGS = 2  # per Python function, as TensorFlow's detector
_log = logging.getLogger("tensorflow")  # (users' filters for TensorFlow's logger apply)


class FunctionRecursionError(StagingError, RecursionError):
    """A Function called itself while being traced, in a way that would never end."""


# -- what is being traced right now (per thread) ---------------------------------------------

class _Active(threading.local):
    def __init__(self):
        self.traces: list[tuple[int, object]] = []   # (id of Function, key) being traced
        self.guards: list["_VariableGuard"] = []
        self.deferred: list[int] = []  # len(guards) where each `deferred_variables` began


_active = _Active()


class _VariableGuard:
    """Consulted by ``Variable.__init__`` while a Function traces: counts or forbids creation."""

    def __init__(self, allow: bool, function_name: str):
        self.allow = allow
        self.function_name = function_name
        self.created = 0
        self.variables: list = []

    def __call__(self, variable=None) -> bool:
        if not self.allow:
            origin = current_origin()
            where = f"\n  (variable created at {origin}, while tracing {self.function_name})" \
                if origin else ""
            raise ValueError(VARIABLE_CREATION_ERROR + where)
        self.created += 1
        if variable is not None:
            self.variables.append(variable)
        return True

    def uninitialized(self) -> bool:
        """Whether a variable made here waits for the trace's first run to get its value."""
        return any(not resources.exists(v._resource) for v in self.variables)


def on_variable_created(variable=None) -> bool:
    """Hook for ``Variable.__init__``: lets the Function being traced see (or refuse) it;
    inside ``deferred_variables``, the Function traced when it began (if any). True when a
    Function traces it (which can then give it an initial value computed from its inputs)."""
    guards = _active.guards
    depth = _active.deferred[-1] if _active.deferred else len(guards)
    return bool(depth) and guards[depth - 1](variable)


@contextlib.contextmanager
def deferred_variables():
    """Variables made here count as made where this began, not by the Functions traced in
    between: Keras 3 builds a layer by running its ``call`` on symbolic inputs with its
    variables created lazily (a StatelessScope), so a ``tf.function`` ``call`` first traced
    there does not retrace for them, while a Function already tracing around it does."""
    _active.deferred.append(len(_active.guards))
    try:
        yield
    finally:
        _active.deferred.pop()


_hooks: list = []  # runtime.variables._CREATION_HOOKS once found (imported on first trace)


def _install_variable_hook() -> None:
    hooks = _hooks[0] if _hooks else None
    if hooks is None:
        try:
            from runtime import variables
        except ImportError:
            return
        hooks = getattr(variables, "_CREATION_HOOKS", None)
        if hooks is None:
            return
        _hooks.append(hooks)
    if on_variable_created not in hooks:
        hooks.append(on_variable_created)


# -- traces in progress (shared by all threads) ---------------------------------------------

class _Landing:
    """``threading.Event`` for an event set exactly once, at a fifteenth of its cost (every
    trace makes one): a lock held from creation until ``set``; waiting is taking it in turn."""

    __slots__ = ("_lock", "_set")

    def __init__(self):
        self._set = False
        self._lock = threading.Lock()
        self._lock.acquire()

    def set(self) -> None:
        self._set = True
        self._lock.release()

    def is_set(self) -> bool:
        return self._set

    def wait(self) -> None:
        with self._lock:
            pass


class _Flight:
    """One trace being made by one thread: what other threads with a covered key wait for."""

    __slots__ = ("key", "owner", "done")

    def __init__(self, key, owner: int):
        self.key = key            # the trace key (calls whose key is a subtype wait for it)
        self.owner = owner        # threading.get_ident() of the tracing thread
        self.done = _Landing()


# Which flight each waiting thread waits for: a wait that would close a cycle (thread A waits
# for B's trace while B, inside that trace, waits for A's) traces instead. Only misses touch it.
_waits_lock = threading.RLock()
_waiting_for: dict = {}   # thread ident -> _Flight


def _wait_would_deadlock(flight: _Flight, me: int) -> bool:
    """True when ``flight``'s owner (transitively) waits for this thread. Hold ``_waits_lock``."""
    owner = flight.owner
    for _ in range(len(_waiting_for) + 1):
        if owner == me:
            return True
        waited = _waiting_for.get(owner)
        if waited is None or waited.done.is_set():
            return False
        owner = waited.owner
    return True  # a cycle not through this thread: never formed, but do not join it


def _wait_for(flight: _Flight, me: int) -> bool:
    """Waits until ``flight`` lands; False (at once) when waiting could deadlock."""
    with _waits_lock:
        if _wait_would_deadlock(flight, me):
            return False
        outer = _waiting_for.get(me)  # only a __del__ run while this thread waits sets one
        _waiting_for[me] = flight
    try:
        flight.done.wait()
    finally:
        with _waits_lock:
            if outer is None:
                del _waiting_for[me]
            else:
                _waiting_for[me] = outer
    return True


# -- the frequent-retracing warning -------------------------------------------------------

class _TracingDetector:
    """TensorFlow's frequent-tracing detector for one Python function, across its Function
    objects: the calls of the last traces (at most ``FREQUENT_TRACING_HISTORY`` calls
    back, counted per trace); when ``FREQUENT_TRACING_THRESHOLD`` of them traced, a new
    trace logs one warning (``FREQUENT_TRACING_MAX_WARNINGS`` in all)."""

    __slots__ = ("calls", "counted", "total", "per_trace", "warnings")

    def __init__(self):
        self.calls = 0  # every call (a plain counter: cache hits only increment it)
        self.counted = 0  # calls already attributed to a trace
        self.total = 0  # calls in the history
        self.per_trace: collections.deque = collections.deque()
        self.warnings = 0

    def traced(self, python_function, reason) -> None:
        """Counts a trace of ``python_function``; ``reason``: a string, or a callable wording
        it (see ``Function._explain``)."""
        since = self.calls - self.counted  # this call and the hits since the last trace
        self.counted = self.calls
        if since > 1:
            if self.per_trace:
                self.per_trace[-1] += since - 1
            else:
                self.per_trace.append(since - 1)
        self.per_trace.append(1)
        self.total += since
        while self.per_trace and self.total - self.per_trace[0] > FREQUENT_TRACING_HISTORY:
            self.total -= self.per_trace.popleft()
        if len(self.per_trace) < FREQUENT_TRACING_THRESHOLD or \
                self.warnings >= FREQUENT_TRACING_MAX_WARNINGS or \
                not _log.isEnabledFor(logging.WARNING):  # (then the reason is never worded)
            return
        self.warnings += 1
        get_logger().warning(
            f"{len(self.per_trace)} out of the last {self.total} calls to {python_function!r} "
            "triggered tf.function retracing. Tracing is expensive and the excessive number of "
            "tracings could be due to (1) creating @tf.function repeatedly in a loop, (2) "
            "passing tensors with different shapes, (3) passing Python objects instead of "
            "tensors. For (1), please define your @tf.function outside of the loop. For (2), "
            "@tf.function has reduce_retracing=True option that can avoid unnecessary "
            "retracing. For (3), please refer to "
            "https://www.tensorflow.org/guide/function#controlling_retracing and "
            "https://www.tensorflow.org/api_docs/python/tf/function for  more details. "
            f"(The latest retrace happened because "
            f"{reason if isinstance(reason, str) else reason()}.)")


_detectors: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _detector_for(python_function) -> _TracingDetector:
    root = getattr(python_function, "__func__", python_function)
    try:
        detector = _detectors.get(root)
        if detector is None:
            detector = _detectors[root] = _TracingDetector()
        return detector
    except TypeError:  # not weakly referenceable: one detector per Function
        return _TracingDetector()


class TraceRecord:
    """One entry of ``Function.trace_log``: which call traced, for what input, and why.

    ``call`` counts the calls of the Python function, across its Function objects (the
    frequent-retracing detector's count: one counter on the cache-hit path).

    The reason is worded when first read: most traces are never asked why."""

    __slots__ = ("call", "signature", "_reason")

    def __init__(self, call: int, signature: str, reason):
        self.call, self.signature, self._reason = call, signature, reason

    @property
    def reason(self) -> str:
        reason = self._reason
        if not isinstance(reason, str):
            reason = self._reason = reason()
        return reason

    def __eq__(self, other):
        if not isinstance(other, TraceRecord):
            return NotImplemented
        return (self.call, self.signature, self.reason) == \
            (other.call, other.signature, other.reason)

    def __hash__(self) -> int:
        return hash((self.call, self.signature, self.reason))

    def __repr__(self) -> str:
        return f"TraceRecord(call={self.call!r}, signature={self.signature!r}, " \
               f"reason={self.reason!r})"

    def __str__(self) -> str:
        return f"call {self.call}: traced {self.signature} because {self.reason}"


# -- Function ------------------------------------------------------------------------------

_HITS_LIMIT = 4096  # entries of a Function's ValueSpec table; dropped when full

class Function:
    """A Python function that runs as graphs: one trace per distinct input type."""

    def __init__(self, python_function, name: str | None = None, input_signature=None,
                 converter=None, reduce_retracing: bool = False, jit_compile=None,
                 optimize: bool = True):
        if not callable(python_function):
            raise TypeError(f"{python_function!r} is not a callable object")
        self._python_function = python_function
        self._name = name or getattr(python_function, "__name__", type(python_function).__name__)
        self._converter = converter
        self._converted = None
        self._input_signature = check_input_signature(input_signature)
        self._reduce_retracing = bool(reduce_retracing)
        self._jit_compile = bool(jit_compile)  # compile each trace with XLA (graph/xla)
        self._optimize = bool(optimize)   # run graph.passes.optimize before compiling
        self._spec_cache: FunctionSpec | None = None
        self._cache: dict = {}        # key -> ConcreteFunction (traced keys and memoized hits)
        self._hits: dict = {}         # ValueSpecs of an all-eager positional call -> its run
        self._traces: list = []       # (key, ConcreteFunction) in trace order
        # calls inlined into other traces: key -> (args, kwargs) as specs, traced on demand
        # (saving lists them, as TensorFlow keeps a trace for each)
        self._inline_calls: dict = {}
        # Misses only: guards _traces, _in_flight, the trace counts/log and the rebuilding of
        # _cache (hits read _cache without it: entries are complete when they are stored).
        # Never held while tracing; re-entrant in case a key's __eq__/__hash__ or a __del__ run
        # by the garbage collector calls this Function while the lock is held.
        self._lock = threading.RLock()
        self._in_flight: list[_Flight] = []
        self._signature_concrete: ConcreteFunction | None = None
        # A flat signature of TensorSpecs: (dtype, dims) per argument, for the fast check.
        self._flat_signature = None
        if self._input_signature is not None and all(
                isinstance(s, TensorSpec) for s in self._input_signature):
            self._flat_signature = [(s.dtype, s.shape.as_tuple()) for s in self._input_signature]
        self._traced_before = False
        self._trace_count = 0
        self._bound: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()
        self._detector = _detector_for(python_function)
        self.trace_log: list[TraceRecord] = []
        functools.update_wrapper(self, python_function, updated=())

    # -- public attributes -----------------------------------------------------------------
    @property
    def python_function(self):
        """The original Python function (what ``tf.autograph.to_code`` reads)."""
        return self._python_function

    @property
    def name(self) -> str:
        """The Python function's name (``tf.function(f).name == "f"``)."""
        return self._name

    @property
    def input_signature(self):
        return self._input_signature

    @property
    def function_spec(self) -> FunctionSpec:
        return self._spec

    @property
    def _spec(self) -> FunctionSpec:
        spec = self._spec_cache
        if spec is None:
            spec = self._spec_cache = _function_spec(self._python_function,
                                                     self._input_signature)
        return spec

    def experimental_get_tracing_count(self) -> int:
        """How many graphs this Function has traced."""
        return self._trace_count

    def __repr__(self) -> str:
        return f"<tf.function {self._name} at {id(self):#x}>"

    # -- methods: one Function (and cache) per instance --------------------------------------
    def __get__(self, instance, owner=None):
        if instance is None:
            return self
        try:
            bound = self._bound.get(instance)
        except TypeError:
            bound = None
        if bound is None:
            with self._lock:  # threads getting the method at once share one bound Function
                try:
                    bound = self._bound.get(instance)
                except TypeError:
                    pass
                if bound is None:
                    bound = self._bind(instance)
        return bound

    def _bind(self, instance) -> "Function":
        method = types.MethodType(self._python_function, instance)
        bound = Function(method, name=self._name, input_signature=self._input_signature,
                         converter=self._converter, reduce_retracing=self._reduce_retracing,
                         jit_compile=self._jit_compile, optimize=self._optimize)
        bound._unbound = self
        try:
            self._bound[instance] = bound
        except TypeError:
            pass
        return bound

    # -- calling ------------------------------------------------------------------------------
    def __call__(self, *args, **kwargs):
        if FLAGS.run_eagerly:
            return self._python_function(*args, **kwargs)
        graphs = _building.graphs  # (context.current_graph() without the call: the hit path)
        if graphs and graphs[-1] is not None:
            return self._call_inline(args, kwargs)
        self._detector.calls += 1
        if self._input_signature is not None:
            return self._call_with_signature(args, kwargs)
        if not kwargs:  # the common hit: eager tensors by position, keyed on their ValueSpecs
            n = len(args)  # (one or two tensors: the key without a list in between)
            if n == 1:
                a = args[0]
                if a.__class__ is EagerTensor:
                    run = self._hits.get((a._spec or a._value_spec(),))
                    if run is not None:
                        return run((a._value,))
            elif n == 2:
                a, b = args
                if a.__class__ is EagerTensor and b.__class__ is EagerTensor:
                    run = self._hits.get((a._spec or a._value_spec(), b._spec or b._value_spec()))
                    if run is not None:
                        return run((a._value, b._value))
            specs, feeds = [], []
            for a in args:
                if a.__class__ is EagerTensor:
                    specs.append(a._spec or a._value_spec())
                    feeds.append(a._value)
                elif a.__class__ is types.FunctionType and "__tf_tracing_type__" not in a.__dict__:
                    specs.append(weakref.ref(a))
                else:
                    break
            else:
                run = self._hits.get(tuple(specs))
                if run is not None:
                    return run(feeds)
        spec = self._spec_cache or self._spec  # (the property only on the first call)
        extra = None
        if kwargs or len(args) != spec.fast_arity:
            args, extra = spec.bind(args, kwargs, self._name)
        concrete, feeds = self._concrete_for_call(args, extra)
        if concrete._initializer is not None:
            return concrete._initialize(feeds)
        if extra is None:
            self._remember_hit(args, concrete)
        return concrete._run(feeds)

    def _concrete_for_call(self, args, extra) -> tuple:
        """The trace for a call's bound arguments (found, or traced now) and its feeds."""
        feeds: list = []
        key = tt.call_key(args, feeds)
        if extra:
            key += (tt.make_key(extra, feeds),)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._find_or_trace(key, args, extra or {}, "call")
        return concrete, feeds

    def _remember_hit(self, args, concrete) -> None:
        """Lets the next call with eager tensors of the same ValueSpecs (and nothing else, all
        positional) find ``concrete``'s runner in one lookup. The trace a key found stays right
        for it: tensor keys hold no weak references, so their traces are never forgotten."""
        specs = []
        for a in args:  # (numpy values only: their spec is their key's dtype and shape)
            if a.__class__ is types.FunctionType and "__tf_tracing_type__" not in a.__dict__:
                specs.append(weakref.ref(a))
                continue
            if a.__class__ is not EagerTensor or not isinstance(a._value, (np.ndarray, np.generic)):
                return
            specs.append(a._spec or a._value_spec())
        if len(self._hits) >= _HITS_LIMIT:
            self._hits = {}
        self._hits[tuple(specs)] = concrete._run

    def _call_with_signature(self, args, kwargs):
        concrete = self._signature_concrete
        if concrete is None:
            concrete = self._concrete_for_signature()
        flat = self._flat_signature
        if not kwargs and flat is not None and len(args) == len(flat):
            feeds = _fast_signature_feeds(args, flat)
            if feeds is not None:
                return concrete._run(feeds)
        tensors = apply_input_signature(self._spec, args, kwargs, self._name, _convert_to)
        feeds = [feed_value(t) for t in nest.flatten(list(tensors), expand_composites=True)]
        return concrete._run(feeds)

    def _call_inline(self, args, kwargs):
        """Called while another graph is built: as TensorFlow, trace this Function on its own
        (once per trace key: its Python runs once however often the caller calls it) and copy
        that trace into the caller's graph (a jit_compile Function: one call node of its
        trace, compiled by XLA on its own). A trace reading the caller's tensors (TensorFlow
        captures them as the call's inputs) runs its Python into the caller's graph instead."""
        try:
            if self._jit_compile:
                return self._call_compiled(args, kwargs)
            return self._call_trace(args, kwargs)
        except LeakedTensorError:
            pass
        if self._input_signature is not None:
            args = apply_input_signature(self._spec, args, kwargs, self._name, _convert_to)
            extra = {}
        else:
            args, extra = self._spec.bind(args, kwargs, self._name)
        feeds: list = []
        key = tuple([tt.make_key(a, feeds) for a in args]) + (tt.make_key(extra, feeds),)
        if self._input_signature is None and key not in self._inline_calls:
            self._inline_calls[key] = nest.map_structure(_spec_of_tensor, (args, extra))
        with self._tracing(key, args):
            return self._callable()(*args, **extra)

    def _call_trace(self, args, kwargs):
        """Copies the trace for these arguments (found, or traced now) into the graph being
        built (``ConcreteFunction._call_in_graph``)."""
        if self._input_signature is not None:
            args = apply_input_signature(self._spec, args, kwargs, self._name, _convert_to)
            concrete = self._signature_concrete or self._concrete_for_signature()
            return concrete._call_in_graph(args, {})
        args, extra = self._spec.bind(args, kwargs, self._name)
        concrete, _ = self._concrete_for_call(args, extra)
        return concrete._call_in_graph(args, extra)

    def _call_compiled(self, args, kwargs):
        """Records a call of this Function's trace for ``args`` into the graph being built, as
        TensorFlow does for a jit_compile function: a call node (graph/xla/call.py)."""
        from graph.xla.call import call_attrs, call_op
        if self._input_signature is not None:
            args = apply_input_signature(self._spec, args, kwargs, self._name, _convert_to)
            feeds = nest.flatten(list(args), expand_composites=True)
            concrete = self._signature_concrete or self._concrete_for_signature()
        else:
            args, extra = self._spec.bind(args, kwargs, self._name)
            concrete, feeds = self._concrete_for_call(args, extra)
        body = concrete.optimized_graph
        inputs = [f if isinstance(f, Tensor) else convert_to_tensor(f) for f in feeds]
        result = apply_op(call_op(body), inputs,
                          attrs=call_attrs(body, context.current_graph()))
        outs = iter((result,) if isinstance(result, SymbolicTensor) else result or ())
        structure = concrete.structured_outputs
        flat = [None if leaf is None else next(outs)
                for leaf in nest.flatten(structure, expand_composites=True)]
        return nest.pack_sequence_as(structure, flat, expand_composites=True)

    # -- finding or making a trace ------------------------------------------------------------
    def _find_or_trace(self, key, args, extra, why: str) -> "ConcreteFunction":
        """The trace for ``key`` (an earlier one it fits, or a new one): traced once however
        many threads ask at the same time.

        A thread whose key a trace in progress covers waits for it (while the Function has not
        traced yet, any trace in progress: the first trace, the one that may create Variables,
        runs alone) and looks again; when that trace failed, the next thread traces. A thread
        that would wait for itself — the same Function called again from inside its own trace
        (under ``init_scope``) — or for a thread that waits for it, traces instead.
        """
        signature = why == "input_signature"
        me = threading.get_ident()
        while True:
            with self._lock:
                found = self._signature_concrete if signature else self._best_trace(key)
                if found is not None:
                    return found
                blocking = self._blocking_flight(key)
                if blocking is None or blocking.owner == me:
                    trace_key, reason = self._plan_trace(key, why, signature)
                    flight = None
                    if blocking is None:
                        flight = _Flight(trace_key, me)
                        self._in_flight.append(flight)
                    break
            if not _wait_for(blocking, me):
                with self._lock:
                    trace_key, reason = self._plan_trace(key, why, signature)
                flight = None
                break
        return self._trace(trace_key, args, extra, reason, flight, key)

    def _best_trace(self, key):
        """The most specific trace ``key`` fits, or one made for other Variables of the same
        types (memoized in the cache), or None. Under _lock."""
        best_key, best = None, None
        for k, c in self._traces:
            if tt.call_is_subtype(key, k) and (best is None or tt.call_is_subtype(k, best_key)):
                best_key, best = k, c
        if best is None and tt.passes_variables(key):  # the same trace for other Variables
            for k, c in reversed(self._traces):  # of the same types
                renaming = tt.variable_renaming(key, k)
                if renaming is not None:
                    best = c._renamed(renaming)
                    break
        if best is not None:
            if len(self._cache) > 4096:
                self._cache = {k: c for k, c in self._traces}
            self._cache[key] = best
        return best

    def _blocking_flight(self, key):
        """The trace in progress a call with ``key`` waits for, or None. Under _lock."""
        flights = self._in_flight
        if not flights:
            return None
        if not self._traced_before:
            return flights[0]
        for flight in flights:
            if tt.call_is_subtype(key, flight.key):
                return flight
        return None

    def _plan_trace(self, key, why: str, signature: bool):
        """(trace key, reason) of a new trace for a call with ``key``. Under _lock."""
        if signature:
            return key, why
        self._forget_dead_traces()
        trace_key = key
        if self._reduce_retracing:
            for k, _ in reversed(self._traces):
                sup = tt.call_supertype(key, k)
                if sup is not None:
                    trace_key = sup
                    break
        return trace_key, self._explain(key, why)

    def _forget_dead_traces(self) -> None:
        """Drops traces keyed by objects that were deleted (their key can never match again)."""
        if any(not tt.call_is_alive(k) for k, _ in self._traces):
            self._traces = [(k, c) for k, c in self._traces if tt.call_is_alive(k)]
            self._cache = {k: c for k, c in self._cache.items() if tt.call_is_alive(k)}

    def _explain(self, key, why: str):
        """Why a call with ``key`` traces: a string, or for a retrace a callable wording it
        (the comparison with the last trace's key is only made when someone reads it)."""
        if why != "call":
            return why
        if not self._traces:
            if self._detector.per_trace:
                return ("a new tf.function was made for the same Python function (its first call "
                        "traces); create the tf.function once, outside the loop")
            return "it was the first call"
        # (holds the spec, not the Function: a trace log must not keep its Function alive)
        return functools.partial(_explain_change, self._spec, key, self._traces[-1][0])

    def _callable(self):
        """The function to trace: converted by autograph when a converter was given."""
        fn = self._converted
        if fn is None:
            fn = self._python_function
            if self._converter is not None:
                target = getattr(fn, "__func__", fn)
                converted = self._converter(target)
                if isinstance(fn, types.MethodType) and converted is not target:
                    converted = types.MethodType(converted, fn.__self__)
                elif converted is target:
                    converted = fn
                fn = converted
            self._converted = fn
        return fn

    class _TracingScope:
        """Marks a trace in progress (a recursive trace of the same key is an error). The
        outermost trace pauses the cyclic garbage collector (``runtime.collector``: its full
        collections were ~5% of a first call with a large program loaded)."""

        def __init__(self, function, key, args):
            self.function, self.token, self.args = function, (id(function), key), args
            self.paused_gc = False

        def __enter__(self):
            traces = _active.traces
            if self.token in traces:
                raise self.function._recursion_error(self.args)
            if not traces:
                self.paused_gc = collector.pause()
            traces.append(self.token)

        def __exit__(self, *exc):
            _active.traces.pop()
            if self.paused_gc:
                gc.enable()

    def _tracing(self, key, args):
        return Function._TracingScope(self, key, args)

    def _recursion_error(self, args) -> FunctionRecursionError:
        names = self._spec.arg_names(len(args))
        described = ", ".join(f"{n}: {_describe_value(a)}" for n, a in zip(names, args))
        return FunctionRecursionError(
            f"{self._name} calls itself while it is being traced, with arguments of the same "
            f"types ({described}), at {current_origin()}. Tracing would never end: a staged "
            "condition traces both of its branches, so the recursive branch is traced again and "
            "again. Recursive tf.functions are not supported; rewrite the recursion as a loop "
            "(a `while` over tensors, or tf.while_loop).")

    def _trace(self, key, args, extra, reason, flight: "_Flight | None" = None,
               call_key=None) -> "ConcreteFunction":
        """Traces ``key``, then records the trace and lands ``flight`` (also when tracing fails:
        nothing is cached then, and the threads waiting for it look again). ``reason``: what
        ``_explain`` gave (a string, or a callable wording a retrace's reason)."""
        first = not self._traced_before
        outermost = not _active.traces
        concrete = summary = None
        try:
            traces = 1
            with self._tracing(key, args):
                traced = self._trace_once(key, args, extra, allow_variables=first)
                if traced._variables_created:
                    # As TensorFlow does: trace again to check that later traces create none
                    # (both traces count, as in TensorFlow's experimental_get_tracing_count).
                    # A first trace that gives variables values from its inputs runs once.
                    initializer = traced if traced._initializes_variables else None
                    traced = self._trace_once(key, args, extra, allow_variables=False)
                    traced._initializer = initializer
                    traces = 2
            summary = traced._summary()
            concrete = traced  # only a trace that went through to the end is recorded
        except RecursionError as e:
            if isinstance(e, FunctionRecursionError) or not outermost:
                raise
            raise FunctionRecursionError(
                f"{self._name} recursed too deeply while being traced ({e}). Recursive "
                "tf.functions are not supported; rewrite the recursion as a loop.") from e
        finally:
            with self._lock:
                try:
                    if concrete is not None:
                        self._traced_before = True
                        self._trace_count += traces
                        self.trace_log.append(TraceRecord(self._detector.calls, summary, reason))
                        if reason == "input_signature":
                            self._signature_concrete = concrete
                        else:
                            self._traces.append((key, concrete))
                            self._cache[key] = concrete
                            if call_key is not None:
                                self._cache[call_key] = concrete
                finally:
                    if flight is not None:
                        self._in_flight.remove(flight)
                        flight.done.set()
        if reason != "get_concrete_function":
            self._detector.traced(self._python_function, reason)
        return concrete

    def _trace_once(self, key, args, extra, allow_variables: bool) -> "ConcreteFunction":
        spec = self._spec
        n_args = len(args)
        arg_names = spec.arg_names(n_args)
        graph = Graph(self._name)
        guard = _VariableGuard(allow_variables, self._name)
        _install_variable_hook()
        builder = _ArgumentBuilder(graph)
        _active.guards.append(guard)
        try:
            with context.building(graph):
                call_args = [builder.build(a, k, n) for a, k, n in zip(args, key, arg_names)]
                call_kwargs = {}
                if extra:
                    extra_key = dict(key[n_args][1])
                    call_kwargs = {n: builder.build(v, extra_key[n], n) for n, v in extra.items()}
                graph.inputs = [p._output for p in builder.placeholders]
                result = self._callable()(*call_args, **call_kwargs)
                structure, outputs = _close_outputs(result, self._name)
                graph.outputs = [t._output for t in outputs]
        finally:
            _active.guards.pop()
        # The traced graph stays as the user wrote it (``concrete.graph``, what gradients
        # replay and guides print); an optimized private copy is what runs.
        run_graph = optimize_graph(graph) if self._optimize else graph
        plan = compile_graph(run_graph, backend="xla" if self._jit_compile else "codegen")
        arg_specs = tuple(builder.signature_of(a, k, n) for a, k, n in zip(args, key, arg_names))
        kwarg_specs = {}
        if extra:
            extra_key = dict(key[n_args][1])
            kwarg_specs = {n: builder.signature_of(v, extra_key[n], n) for n, v in extra.items()}
        return ConcreteFunction(
            graph=graph, plan=plan, name=self._name, spec=spec, key=key, arg_names=arg_names,
            arg_specs=arg_specs, kwarg_specs=kwarg_specs, structured_outputs=structure,
            flat_inputs=builder.flat_inputs, variables_created=guard.created, function=self,
            optimized_graph=run_graph, initializes_variables=guard.uninitialized())

    # -- input signatures and concrete functions ---------------------------------------------
    def _concrete_for_signature(self) -> "ConcreteFunction":
        signature = self._input_signature
        spec = self._spec
        n_sig = len(signature)
        defaults = tuple(spec.defaults[n] for n in spec.positional[n_sig:] if n in spec.defaults)
        args = tuple(signature) + defaults
        feeds: list = []
        key = tuple(tt.make_key(a, feeds) for a in args)
        return self._find_or_trace(key, args, {}, "input_signature")

    def get_concrete_function(self, *args, **kwargs) -> "ConcreteFunction":
        """The trace for these arguments (tensors, TensorSpecs or Python values), tracing if needed."""
        if self._input_signature is not None:
            if args or kwargs:
                apply_input_signature(self._spec, tuple(_spec_as_value(a) for a in args),
                                      {k: _spec_as_value(v) for k, v in kwargs.items()},
                                      self._name, _convert_to)
            return self._signature_concrete or self._concrete_for_signature()
        args, extra = self._spec.bind(args, kwargs, self._name)
        feeds: list = []
        key = tuple([tt.make_key(a, feeds) for a in args])
        if extra:
            key += (tt.make_key(extra, feeds),)
        concrete = self._cache.get(key)
        if concrete is None:
            concrete = self._find_or_trace(key, args, extra, "get_concrete_function")
        return concrete

    def experimental_get_compiler_ir(self, *args, **kwargs):
        """TensorFlow's API: ``f.experimental_get_compiler_ir(x)(stage='hlo')`` is the text of
        the XLA program for these arguments ('hlo', 'stablehlo' or 'optimized_hlo'); the
        trace is compiled with XLA for it even when the Function does not use jit_compile."""
        try:
            concrete = self.get_concrete_function(*args, **kwargs)
        except InvalidArgumentError as e:  # (TensorFlow's error for a program XLA refuses)
            raise ValueError(f"Failed getting HLO text: '{e}'") from e
        feeds = concrete._flat_feeds_for(args, kwargs)

        def compiler_ir(stage: str = "hlo", device_name=None, platform_name=None):
            plan = concrete._plan
            try:
                if not hasattr(plan, "compiler_ir"):
                    plan = compile_graph(concrete.optimized_graph, backend="xla")
                return plan.compiler_ir(feeds, stage)
            except InvalidArgumentError as e:
                raise ValueError(f"Failed getting HLO text: '{e}'") from e
        return compiler_ir

    def pretty_printed_concrete_signatures(self, verbose: bool = True) -> str:
        """Every trace's signature, as the guides print them."""
        concretes = [c for _, c in self._traces]
        if self._signature_concrete is not None:
            concretes.insert(0, self._signature_concrete)
        return "\n\n".join(c.pretty_printed_signature(verbose) for c in concretes)

    def _list_all_concrete_functions(self) -> list:
        """Every trace, including one per call inlined into another function's trace."""
        while self._inline_calls:
            _, (args, extra) = self._inline_calls.popitem()
            self.get_concrete_function(*args, **extra)
        return ([self._signature_concrete] if self._signature_concrete else []) + \
            [c for _, c in self._traces]


def _explain_change(spec: FunctionSpec, key, old) -> str:
    """Which arguments of a call with trace key ``key`` differ from the last trace's ``old``."""
    n = len(spec.positional)
    names = spec.arg_names(max(len(key), len(old)))
    if len(old) != len(key):
        return f"it was called with {len(key)} arguments instead of {len(old)}"
    changes = []
    for i, (o, k) in enumerate(zip(old, key)):
        name = names[i] if i < n or spec.varargs else "keyword arguments"
        changes += tt.explain_change(name, o, k)
    return "; ".join(changes) if changes else "the arguments changed"


_specs: "weakref.WeakKeyDictionary" = weakref.WeakKeyDictionary()


def _function_spec(python_function, input_signature) -> FunctionSpec:
    """``FunctionSpec(python_function, input_signature)``, shared by the Functions made for the
    same plain function (``inspect.signature`` is a tenth of a small function's first trace)
    for as long as what the signature is read from stays the same."""
    if input_signature is not None or type(python_function) is not types.FunctionType:
        return FunctionSpec(python_function, input_signature)
    fn = python_function
    sources = (fn.__code__, fn.__defaults__, fn.__kwdefaults__,
               getattr(fn, "__wrapped__", None), getattr(fn, "__signature__", None))
    cached = _specs.get(fn)
    if cached is not None and all(a is b for a, b in zip(cached[0], sources)):
        return cached[1]
    spec = FunctionSpec(fn, None)
    _specs[fn] = (sources, spec)
    return spec


def _describe_value(value) -> str:
    if isinstance(value, Tensor):
        return f"{value.dtype.name} Tensor, shape={value.shape}"
    return repr(value)


def _fast_signature_feeds(args, flat):
    """Feeds for eager tensors that fit a flat input signature exactly; None when in doubt."""
    feeds = []
    for a, (dtype, dims) in zip(args, flat):
        if type(a) is not EagerTensor or a._dtype is not dtype:
            return None
        v = a._value
        if dims is not None:
            shape = getattr(v, "shape", ())
            if len(shape) != len(dims):
                return None
            for d, s in zip(dims, shape):
                if d is not None and d != s:
                    return None
        feeds.append(v)
    return feeds


def _convert_to(value, dtype):
    return convert_to_tensor(value, dtype=dtype)


def _spec_of_tensor(value):
    """A tensor's (or composite's) TypeSpec; any other value as it is."""
    if isinstance(value, Tensor):
        return TensorSpec(value.shape, value.dtype)
    spec = type_spec_of(value)
    return value if spec is None else spec


def _spec_as_value(value):
    """A TensorSpec given to get_concrete_function stands for a tensor of that type."""
    return value


# -- building the graph's arguments and results --------------------------------------------------

class _ArgumentBuilder:
    """Replaces the tensor leaves of the arguments by placeholders named after them."""

    def __init__(self, graph: Graph):
        self.graph = graph
        self.placeholders: list[SymbolicTensor] = []
        # ("tensor", name, dtype, shape) | ("variable", name, weakref, its trace key)
        self.flat_inputs: list[tuple] = []

    def build(self, value, key, name: str):
        tag = key[0]
        if tag == tt.TENSOR:
            name = _spec_name(value, name)
            dtype, shape = as_dtype(key[1]), TensorShape(key[2])
            node = self.graph.add_node(
                "Placeholder", attrs={"dtype": dtype, "shape": shape, "_user_specified_name": name},
                name=name)
            t = SymbolicTensor(node.output(0))
            self.placeholders.append(t)
            self.flat_inputs.append(("tensor", node.name, dtype, shape))
            return t
        if tag == tt.COMPOSITE:  # placeholders for the components, rebuilt by the spec
            spec = key[1]
            return spec._from_components([
                self.build(None, (tt.TENSOR, s.dtype.name, s.shape.as_tuple()), name)
                for s in spec._component_specs])
        if tag == tt.VARIABLE:
            self.flat_inputs.append(("variable", name, weakref.ref(value), key))
            return value
        if tag == tt.CUSTOM:  # TensorFlow traces with the TraceType's placeholder, if it has one
            try:
                return key[1].placeholder_value(tt.PlaceholderContext())
            except NotImplementedError:
                return value
        if tag in (tt.LIST, tt.TUPLE, tt.NAMEDTUPLE) and isinstance(value, (list, tuple)):
            parts = key[1] if tag != tt.NAMEDTUPLE else key[2]
            built = [self.build(v, k, name) for v, k in zip(value, parts)]
            if tag == tt.NAMEDTUPLE:
                return type(value)(*built)
            return type(value)(built) if type(value) in (list, tuple) else built
        if tag == tt.DICT and isinstance(value, dict):
            parts = dict(key[1])
            # (an OrderedDict stays one, as in TensorFlow; other dict kinds become dicts)
            kind = collections.OrderedDict if isinstance(value, collections.OrderedDict) \
                else dict
            return kind((k, self.build(value[k], parts[k], name)) for k in value)
        return value

    def signature_of(self, value, key, name: str):
        """The structured input signature of one argument: TensorSpecs for tensor leaves,
        named by their path in it (``d_b_0``: ``d["b"][0]``), as TensorFlow names them."""
        tag = key[0]
        if tag == tt.TENSOR:
            return TensorSpec(TensorShape(key[2]), as_dtype(key[1]), _spec_name(value, name))
        if tag == tt.COMPOSITE:
            return key[1]
        if tag in (tt.LIST, tt.TUPLE, tt.NAMEDTUPLE) and isinstance(value, (list, tuple)):
            parts = key[1] if tag != tt.NAMEDTUPLE else key[2]
            paths = value._fields if tag == tt.NAMEDTUPLE else range(len(value))
            built = [self.signature_of(v, k, f"{name}_{p}")
                     for v, k, p in zip(value, parts, paths)]
            return type(value)(*built) if tag == tt.NAMEDTUPLE else (
                tuple(built) if isinstance(value, tuple) else built)
        if tag == tt.DICT and isinstance(value, dict):
            parts = dict(key[1])
            return {k: self.signature_of(value[k], parts[k], f"{name}_{k}") for k in value}
        if tag in (tt.OBJECT, tt.VARIABLE, tt.CUSTOM):
            return _Described(repr(value))  # never keep the object alive through a trace
        return value


def _spec_name(value, name: str) -> str:
    """A TensorSpec's own name, when it has one, names its placeholder (as in TensorFlow)."""
    return value.name if isinstance(value, TensorSpec) and value.name else name


class _Described:
    """Stands for a traced Python object in a signature: prints as it did, holds nothing."""

    __slots__ = ("text",)

    def __init__(self, text: str):
        self.text = text

    def __repr__(self) -> str:
        return self.text


def _close_outputs(result, function_name: str):
    """Puts every returned tensor behind an Identity node; returns (structure, outputs)."""
    leaves = nest.flatten(result, expand_composites=True)
    outputs, symbolic = [], []
    for leaf in leaves:
        if leaf is None:
            symbolic.append(None)
            continue
        try:
            t = convert_to_tensor(leaf)
        except (TypeError, ValueError):
            raise TypeError(
                f"To be compatible with tf.function, Python functions must return zero or more "
                f"Tensors or ExtensionTypes or None values; in compilation of {function_name}, "
                f"found return value "
                f"of type {type(leaf).__name__}, which is not a Tensor: {leaf!r}.") from None
        out = apply_op("Identity", [t], name="Identity")
        outputs.append(out)
        symbolic.append(out)
    nested = nest.is_nested(result) or is_composite_tensor(result)
    structure = nest.pack_sequence_as(result, symbolic, expand_composites=True) if nested \
        else symbolic[0] if symbolic else result
    return structure, outputs
