"""``tf.GradientTape``: records what runs inside it, then differentiates backward.

Eagerly the tape keeps an ``OpRecord`` for every op one of whose inputs it
is already tracking (a watched tensor, a read of a watched variable, or the
output of a recorded op), told of each op by the one-line hook in
``runtime.ops.core.apply_op`` and of each variable read by
``runtime.variables.READ_HOOKS``. While a graph is being built (inside a
tf.function) the graph itself is the record: the tape remembers which span
of the graph's nodes was created while it recorded, and ``gradient`` adds
the gradient nodes to the same graph.

Nested tapes give higher derivatives: a tape computing a gradient stops
recording itself, while an outer tape goes on recording the gradient ops.
"""
from __future__ import annotations

import enum
from contextlib import contextmanager

from graph.ir import Graph
from runtime import context, nest
from runtime.ops.control_ops import get_logger
from runtime.gradients import graph_builder
from runtime.gradients.backprop import backprop, carries_gradient, key_of
from runtime.gradients.registry import (_GRADIENTS, _NOT_DIFFERENTIABLE, OpRecord,
                                        VariableHandle)
from runtime.gradients.util import dense, zeros_for
from runtime.ops import array_ops
from runtime.ops import core as _core
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, SymbolicTensor, Tensor


def _encloses(outer: Graph, graph: Graph) -> bool:
    """Whether ``outer`` is a graph enclosing sub-graph ``graph`` (not ``graph`` itself)."""
    g = graph.outer
    while g is not None:
        if g is outer:
            return True
        g = g.outer
    return False


class UnconnectedGradients(enum.Enum):
    """What ``gradient`` gives a source the target does not depend on."""

    NONE = "none"
    ZERO = "zero"


_recording: list["GradientTape"] = []  # tapes recording now, innermost last


def _on_op(op, inputs, attrs, result) -> None:
    for tape in _recording:
        tape._record_op(op, inputs, attrs, result)


def _on_read(variable, tensor) -> None:
    for tape in _recording:
        tape._record_read(variable, tensor)


def _on_call(concrete, feeds, run):
    result = run(feeds)
    for tape in list(_recording):
        tape._record_call(concrete, feeds, result)
    return result


def _hook_lists() -> list[tuple[list, object]]:
    from runtime import concrete_function, variables
    return [(_core.RECORDERS, _on_op), (variables.READ_HOOKS, _on_read),
            (concrete_function.CALL_RECORDERS, _on_call)]


def _activate(tape: "GradientTape") -> None:
    if not _recording:
        for hooks, fn in _hook_lists():
            hooks.append(fn)
    _recording.append(tape)


def _deactivate(tape: "GradientTape") -> None:
    _recording.remove(tape)
    if not _recording:
        for hooks, fn in _hook_lists():
            hooks.remove(fn)


def recording_tapes() -> list["GradientTape"]:
    """The tapes recording now, outermost first."""
    return list(_recording)


def _is_variable(x) -> bool:
    return hasattr(x, "_resource") and hasattr(x, "_as_tensor") and not isinstance(x, Tensor)


class GradientTape:
    """Records operations for automatic differentiation (``tf.GradientTape``)."""

    def __init__(self, persistent: bool = False, watch_accessed_variables: bool = True):
        self._persistent = bool(persistent)
        self._watch_accessed = bool(watch_accessed_variables)
        self._graph: Graph | None = None
        self._records: list[OpRecord] = []
        self._on_tape: dict = {}          # eager: id -> tensor the tape tracks
        self._by_value: dict = {}         # eager: id(value) -> tracked tensor (for calls)
        self._call_reads: set = set()     # resources read by recorded tf.function calls
        self._watched: dict = {}          # graph: key -> watched tensor
        self._variables: dict = {}        # resource id -> watched Variable
        self._intervals: list[list] = []  # graph: spans of recorded nodes (see _mark)
        self._is_recording = False
        self._used = False
        self._entered = False  # (TensorFlow has no tape to ask until the `with` block)

    def _check_usable(self) -> None:
        if not self._entered or (self._used and not self._persistent):
            raise RuntimeError("A non-persistent GradientTape can only be used to compute one "
                               "set of gradients (or jacobians)")

    # -- recording ----------------------------------------------------------------
    def __enter__(self) -> "GradientTape":
        if self._is_recording:
            raise ValueError("This GradientTape is already recording; a tape can only be "
                             "entered once at a time.")
        if self._used and not self._persistent:
            self.reset()  # (TensorFlow starts a new tape: the used one is gone)
        self._graph = context.current_graph()
        self._entered = True
        self._start()
        return self

    def __exit__(self, *exc) -> None:
        if self._is_recording:
            self._stop()

    def _start(self) -> None:
        if self._graph is not None:
            self._intervals.append([self._mark(), None])
        _activate(self)
        self._is_recording = True

    def _stop(self) -> None:
        if self._graph is not None and self._intervals and self._intervals[-1][1] is None:
            self._intervals[-1][1] = self._mark()
        _deactivate(self)
        self._is_recording = False

    @contextmanager
    def stop_recording(self):
        """Ops run in this block are not recorded (``with tape.stop_recording():``)."""
        if not self._is_recording:
            raise ValueError("Tape.stop_recording() can only be used while the tape is "
                             "recording (inside its `with` block).")
        self._stop()
        try:
            yield
        finally:
            self._start()

    def reset(self) -> None:
        """Forgets everything recorded so far (the tape keeps recording if it was)."""
        was = self._is_recording
        if was:
            self._stop()
        self._records, self._on_tape, self._watched, self._by_value = [], {}, {}, {}
        self._call_reads = set()
        self._variables, self._intervals, self._used = {}, [], False
        if was:
            self._start()

    def watch(self, tensor) -> None:
        """Makes the tape track ``tensor`` (a tensor, a variable, or a structure of them)."""
        for t in nest.flatten(tensor):
            if _is_variable(t):
                self._variables[t._resource] = t
                continue
            if not isinstance(t, Tensor):
                raise ValueError(f"Passed in object {t!r} of type {type(t).__name__!r}, not "
                                 "tf.Tensor or tf.Variable, to GradientTape.watch")
            if not carries_gradient(t):  # TensorFlow only warns: no gradient comes anyway
                get_logger().warning("The dtype of the watched tensor must be floating (e.g. "
                             f"tf.float32), got {t.dtype!r}")
                continue
            t = self._local(t)
            if isinstance(t, EagerTensor):
                self._track(t)
            else:
                self._watched[key_of(t)] = t

    def _local(self, t):
        """What the ops of this tape's graph read for ``t``: an eager tensor's constant, an
        enclosing graph's tensor's capture (a tape in a loop body or a map_fn)."""
        if self._graph is None or not isinstance(t, Tensor):
            return t
        if isinstance(t, EagerTensor) or (
                isinstance(t, SymbolicTensor) and _encloses(t._output.node.graph, self._graph)):
            return SymbolicTensor(_core.as_graph_input(self._graph, t))
        return t

    def watched_variables(self) -> tuple:
        """The variables watched, with the trainable ones tf.function calls read."""
        found = dict(self._variables)
        if self._watch_accessed:
            from runtime.variables import variable_of
            for r in self._call_reads:
                v = variable_of(r)
                if v is not None and v.trainable:
                    found.setdefault(r, v)
        return tuple(found.values())

    def _record_op(self, op, inputs, attrs, result) -> None:
        if self._graph is not None:
            return
        on = self._on_tape
        for t in inputs:
            if id(t) in on:
                break
        else:
            return
        origin = None
        if op not in _GRADIENTS and "_gradient_op_type" not in attrs:
            if op in _NOT_DIFFERENTIABLE:
                return
            origin = current_origin()  # for the error if a gradient is asked of it
        if result.__class__ is EagerTensor:
            outputs = (result,)
        else:
            outputs = (result,) if isinstance(result, Tensor) else (() if result is None
                                                                    else tuple(result))
        self._records.append(OpRecord(op, tuple(inputs), outputs, attrs, origin=origin))
        by_value = self._by_value
        for o in outputs:
            if o.__class__ is EagerTensor:  # carries_gradient and _track, inlined: once per op
                dtype = o._dtype
                if dtype.numpy_dtype.kind in "fc" or dtype.name == "variant":
                    on[id(o)] = o
                    by_value[id(o._value)] = o
            elif carries_gradient(o):
                self._track(o)

    def _track(self, t) -> None:
        self._on_tape[id(t)] = t
        self._by_value[id(t._value)] = t

    def _record_call(self, concrete, feeds, result) -> None:
        """A tf.function called eagerly: one record, differentiated by a generated graph."""
        if self._graph is not None:
            return
        from runtime.gradients.function_grads import flat_outputs, variables_of
        inputs, hit = [], False
        for f, ph in zip(feeds, concrete.graph.inputs):
            t = self._by_value.get(id(f))
            if t is not None and t._value is f:
                hit = True
            else:
                t = EagerTensor(f, ph.dtype)
            inputs.append(t)
        handles = variables_of(concrete)
        if not hit and not handles:
            return
        self._call_reads.update(h.resource for h in handles)
        outputs = flat_outputs(result)
        self._records.append(OpRecord("PartitionedCall", tuple(inputs) + tuple(handles),
                                      outputs, {"f": concrete, "feeds": list(feeds)}))
        for o in outputs:
            if carries_gradient(o):
                self._track(o)

    def _record_read(self, variable, tensor) -> None:
        r = variable._resource
        if r not in self._variables:
            if not (self._watch_accessed and variable.trainable):
                return
            self._variables[r] = variable
        if self._graph is not None or isinstance(tensor, SymbolicTensor):
            return  # in a graph, the ReadVariableOp node is the record
        if not carries_gradient(tensor):
            return
        handle = VariableHandle(r, variable.dtype, variable.shape)
        self._records.append(OpRecord("ReadVariableOp", (handle,), (tensor,), {}))
        self._track(tensor)

    # -- differentiating ----------------------------------------------------------------
    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients=UnconnectedGradients.NONE):
        """d(target)/d(sources): a structure like ``sources`` of gradients (or None)."""
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        flat_sources = nest.flatten(sources)
        for s in flat_sources:
            if not (_is_variable(s) or isinstance(s, Tensor)):
                raise ValueError(f"GradientTape.gradient: sources must be tensors or variables, "
                                 f"got {s!r} of type {type(s).__name__} at {current_origin()}")
        flat_targets = nest.flatten(target)
        targets = [t._as_tensor() if _is_variable(t) else convert_to_tensor(t)
                   for t in flat_targets]
        if output_gradients is None:
            seeds = [None] * len(targets)
        else:
            seeds = [None if g is None else convert_to_tensor(g)
                     for g in nest.flatten(output_gradients)]
            if len(seeds) != len(targets):
                raise ValueError("output_gradients must have one gradient per target")
        seeds = [array_ops.ones_like(t) if g is None else g for t, g in zip(targets, seeds)]
        # A variable target is itself: d(v)/d(v) = 1, as TensorFlow gives, not the gradient
        # of a fresh read of it (which nothing recorded).
        targets = [VariableHandle(v._resource, v.dtype, v.shape) if _is_variable(v) else t
                   for v, t in zip(flat_targets, targets)]
        self._used = True
        was = self._is_recording
        if was:
            self._stop()
        try:
            grads = self._gradient(targets, seeds, flat_sources)
        finally:
            if was:
                self._start()
        if not self._persistent:
            self._records, self._on_tape, self._by_value = [], {}, {}
        result = []
        for s, g in zip(flat_sources, grads):
            if g is None and unconnected is UnconnectedGradients.ZERO:
                g = zeros_for(VariableHandle(s._resource, s.dtype, s.shape)) \
                    if _is_variable(s) else array_ops.zeros_like(s)
            result.append(g)
        return nest.pack_sequence_as(sources, result)

    def _gradient(self, targets, seeds, sources) -> list:
        """Backprop from ``targets``; a source that is itself a target gets its seed
        even when the tape does not watch it (TensorFlow's ``gradient(x, x)`` is 1)."""
        target_keys = {key_of(t) for t in targets}
        if self._graph is None:
            records = self._records
            tracks = self._tracks
        else:
            records = graph_builder.records_in(self._graph, self._spans())
            tracked = self._graph_tracked(records)
            sources = [self._local(s) for s in sources]

            def tracks(s):
                return self._variables_tracked(s) if _is_variable(s) else key_of(s) in tracked
        active = [s for s in sources if tracks(s) or key_of(s) in target_keys]
        grads = backprop(records, targets, seeds, active, sparse=True) if active else []
        found = {key_of(s): g for s, g in zip(active, grads)}
        return [found.get(key_of(s)) if carries_gradient(s) else None for s in sources]

    def _tracks(self, s) -> bool:
        if _is_variable(s):
            return s._resource in self._variables or (
                s._resource in self._call_reads and self._watch_accessed and s.trainable)
        return id(s) in self._on_tape

    def _variables_tracked(self, v) -> bool:
        return v._resource in self._variables or (self._watch_accessed and v.trainable)

    def _graph_tracked(self, records) -> set:
        """What this tape watches in its graph, as TensorFlow's rule has it: the tensors it
        was asked to watch, and what recorded ops compute from them or from variables."""
        tracked = set(self._watched)
        watch_all = self._watch_accessed
        variables = self._variables
        for r in records:
            for i in r.inputs:
                if (i.resource in variables or watch_all) if isinstance(i, VariableHandle) \
                        else key_of(i) in tracked:
                    tracked.update(key_of(o) for o in r.outputs)
                    break
        return tracked

    def _spans(self) -> list[tuple[int, int]]:
        end = len(self._graph.nodes)
        nodes = self._graph.nodes
        where = {id(n): i for i, n in enumerate(nodes)}

        def index(mark) -> int:
            count, last = mark
            if last is None:
                return 0
            i = where.get(id(last))
            return count if i is None else i + 1
        return [(index(a), len(nodes) if b is None else index(b)) for a, b in self._intervals]

    def _mark(self) -> tuple:
        """Where the graph ends now: its length and its last node.

        A span is kept by its bounding nodes, not only by indices: the
        gradient of a while loop inserts its accumulators' initial values
        just before the loop, which shifts the indices of later nodes.
        """
        nodes = self._graph.nodes
        return (len(nodes), nodes[-1] if nodes else None)

    def jacobian(self, target, sources, unconnected_gradients=UnconnectedGradients.NONE,
                 parallel_iterations=None, experimental_use_pfor: bool = True):
        """d(target)/d(source) shaped target.shape + source.shape: one gradient per element."""
        self._check_usable()
        unconnected = _unconnected(unconnected_gradients)
        target = convert_to_tensor(target)
        if not target.shape.is_fully_defined():
            raise ValueError(f"GradientTape.jacobian needs a target of known shape, got "
                             f"{target.shape} at {current_origin()}")
        n = target.shape.num_elements()
        flat_sources = nest.flatten(sources)
        rows: list[list] = [[] for _ in flat_sources]
        persistent, self._persistent = self._persistent, True
        try:
            for i in range(n):
                seed = array_ops.reshape(_one_hot(i, n, target.dtype), target.shape.as_list())
                for j, g in enumerate(self.gradient(target, flat_sources, output_gradients=seed)):
                    rows[j].append(dense(g))
        finally:
            self._persistent = persistent
        result = []
        for s, r in zip(flat_sources, rows):
            shape = target.shape.as_list() + list(s.shape.as_list())
            if all(g is None for g in r):
                result.append(array_ops.zeros(shape, dtype=s.dtype)
                              if unconnected is UnconnectedGradients.ZERO else None)
                continue
            r = [array_ops.zeros_like(s) if g is None else g for g in r]
            result.append(array_ops.reshape(array_ops.stack(r), shape))
        return nest.pack_sequence_as(sources, result)

    def batch_jacobian(self, target, source, unconnected_gradients=UnconnectedGradients.NONE,
                       parallel_iterations=None, experimental_use_pfor: bool = True):
        """d(target[i])/d(source[i]) per example i: shaped ``[b] + target.shape[1:] +
        source.shape[1:]``, assuming examples do not depend on each other (as TensorFlow)."""
        self._check_usable()
        _unconnected(unconnected_gradients)  # validated only: unconnected is zeros here
        target = convert_to_tensor(target)
        if not target.shape.is_fully_defined() or target.shape.rank < 1:
            raise ValueError(f"GradientTape.batch_jacobian needs a target of known shape with "
                             f"a batch dimension, got {target.shape} at {current_origin()}")
        if source.shape.rank is None or source.shape.rank < 1 or \
                not target.shape[:1].is_compatible_with(source.shape[:1]):
            raise ValueError(f"GradientTape.batch_jacobian: target {target.shape} and source "
                             f"{source.shape} must share their first (batch) dimension")
        dims = target.shape.as_list()
        per_example = 1
        for d in dims[1:]:
            per_example *= d
        rows = []
        persistent, self._persistent = self._persistent, True
        try:
            for j in range(per_example):  # d(sum over the batch of element j) per example
                seed = array_ops.reshape(
                    array_ops.tile(array_ops.reshape(_one_hot(j, per_example, target.dtype),
                                                     [1, per_example]), [dims[0], 1]), dims)
                rows.append(dense(self.gradient(target, source, output_gradients=seed)))
        finally:
            self._persistent = persistent
        shape = dims + source.shape.as_list()[1:]
        if all(g is None for g in rows):  # zeros whatever ``unconnected_gradients`` says,
            return array_ops.zeros(shape, dtype=target.dtype)  # as TensorFlow (compatibility)
        rows = [array_ops.zeros_like(source) if g is None else g for g in rows]
        return array_ops.reshape(array_ops.stack(rows, axis=1), shape)


def _one_hot(i: int, n: int, dtype):
    import numpy as np
    from runtime.ops.core import constant
    value = np.zeros(n, dtype=dtype.numpy_dtype)
    value[i] = 1
    return constant(value, dtype=dtype)


def _unconnected(value) -> UnconnectedGradients:
    if isinstance(value, UnconnectedGradients):
        return value
    try:
        return UnconnectedGradients(value)
    except ValueError:
        raise ValueError(f"Unknown value for unconnected_gradients: {value!r}; use 'none' or "
                         "'zero' (tf.UnconnectedGradients.NONE / ZERO)") from None


def stop_gradient(input, name: str | None = None):
    """``tf.stop_gradient``: the same value, but no gradient flows back through it."""
    return apply_op("StopGradient", [convert_to_tensor(input)], name=name or "StopGradient")
