"""``if``, ``while`` and ``for`` as functions: plain Python, or staged into the runtime.

Converted code calls these with the statement's parts as callables and the
statement's state (the variables it modifies that matter afterwards) behind
``get_state``/``set_state``. A Python (or eager) condition or iterable runs
the plain Python statement; a symbolic tensor records one cond / while_loop.
"""
from __future__ import annotations

import math
from contextlib import contextmanager

import numpy as np

import runtime
from autograph.operators.contexts import check_inside_with
from autograph.operators.lists import LoopList, as_loop_list, convert_state
from autograph.operators.variables import Undefined, is_undefined
from runtime import context, nest
from runtime.composite import is_composite
from runtime.errors import StagedValueError, StagingError
from runtime.ops.control_flow import Deferred
from runtime.origin import current_origin
from runtime.tensor import SymbolicTensor, Tensor


def _symbolic(value):
    """``value`` as a symbolic tensor when it is one (or a graph-side tensor-like), else None."""
    if isinstance(value, SymbolicTensor):
        return value
    if isinstance(value, LoopList):
        value.__bool__()  # raises: a staged list has no truth value while tracing
    # (the protocols are looked up on the type: an object's own ``__getattr__`` -- a mock, a
    # proxy -- may answer any name, or raise, where Python's ``if``/``for`` never asks)
    if hasattr(type(value), "_as_tensor") and context.current_graph() is not None:
        converted = runtime.convert_to_tensor(value)
        if isinstance(converted, SymbolicTensor):
            return converted
    return None


def _check_condition(cond: SymbolicTensor, statement: str) -> SymbolicTensor:
    """A staged ``if``/``while`` needs a scalar bool: TensorFlow's ValueError, at the
    statement, for another dtype or shape (``if x:`` on an int tensor is ambiguous). As in
    TensorFlow, a bool tensor that may hold one element (shape ``(1,)``, ``(1, None)``) is
    reshaped to a scalar (the Transformer tutorial's ``if predicted_id == end``)."""
    dims = cond.shape.as_list() if cond.shape.rank else []
    if not cond.dtype.is_bool or math.prod(d for d in dims if d is not None) > 1:
        raise ValueError(
            f"condition of {statement} expected to be `tf.bool` scalar, got {cond!r} (at "
            f"{current_origin()}); compare it explicitly (for example `x > 0` or "
            "`tf.reduce_any(x)`).")
    if cond.shape.rank:
        cond = runtime.reshape(cond, [])
    return cond


def _flat_names(names, values) -> list[str]:
    out = []
    for name, value in zip(names, values):
        leaves = nest.flatten(value)
        out.extend([name] if len(leaves) == 1 else [f"{name}[{i}]" for i in range(len(leaves))])
    return out


# -- if ----------------------------------------------------------------------------------

_WARNED_TRY: set = set()


def _note_inside_try(kind: str) -> None:
    """Staged control flow inside ``try``/``except`` is staged, as TensorFlow stages it:
    the handler catches errors of tracing only, never those raised when the graph runs
    (TensorFlow's reference tests expect exactly that). Said once per place, since the
    program then differs from the Python one where the body would raise."""
    where = current_origin()
    if where in _WARNED_TRY:
        return
    _WARNED_TRY.add(where)
    runtime.get_logger().warning(
        "The `%s` at %s depends on a tensor, so it is staged, and it is inside a `try` with "
        "`except`: the handler catches errors raised while tracing, not errors raised when "
        "the graph runs. Move the try/except around the call of the tf.function, or check "
        "values with tf.debugging.assert_* ops.", kind, where)


def if_stmt(cond, body, orelse=None, get_state=None, set_state=None, symbol_names=(),
            nouts=None, *, inside_try=False, inside_with=0, lists=()):
    """``if cond: body() else: orelse()``; a tensor ``cond`` stages a cond over the state.

    ``symbol_names`` names what ``get_state`` returns; the first ``nouts`` of
    them are outputs (used after the statement), the rest are only restored
    between the traced branches. ``lists`` names the state variables the
    statement appends to (see ``lists.py``).
    """
    if type(cond) is not SymbolicTensor and (type(cond) in (bool, int) or _symbolic(cond) is None):
        if cond:
            if body is not None:
                body()
        elif orelse is not None:
            orelse()
        return
    if inside_try:
        _note_inside_try("if")
    if inside_with:
        check_inside_with("if", inside_with)
    with _kept_on_error(get_state, set_state):
        _staged_if(_check_condition(_symbolic(cond), "if statement"), body, orelse, get_state, set_state, tuple(symbol_names),
                   len(symbol_names) if nouts is None else nouts, lists)


@contextmanager
def _kept_on_error(get_state, set_state):
    """Staging a statement that fails leaves its variables as they were before it:
    a ``finally`` running during the error sees those values, not a symbolic tensor
    of a branch or loop body, which would hide the error behind a leaked tensor."""
    if get_state is None or set_state is None:
        yield
        return
    before = tuple(get_state())
    try:
        yield
    except BaseException:
        set_state(before)
        raise


def _staged_if(cond, body, orelse, get_state, set_state, names, nouts, lists=()):
    """One cond over the outputs. A Python list the branches append to stays a Python list
    (each branch appends to its own copy) when both branches leave it the same length;
    otherwise it is staged as a TensorArray (``LoopList``) in both branches. The true
    branch, traced first, cannot know which: its list is a ``Deferred`` slot that the cond
    fills, in the true branch's graph, once the false branch has been traced (see
    ``_list_slot``), so both branches are traced once.

    A variable used after the statement (or the return value) must be set in both
    branches or in neither, as TensorFlow requires (``StagedValueError``, a ValueError).
    """
    init = tuple(get_state()) if get_state is not None else ()
    out_names = names[:nouts]
    where = current_origin()
    seen = {}

    def fresh():  # each branch changes its own copy of the containers in the state
        return tuple(_copy_containers(v) for v in init)

    def appended_list(i, value):
        """A Python list before the statement that the branches append to, and still one."""
        return out_names[i] in lists and type(init[i]) is list and type(value) is list

    def branch(fn, which):
        def traced():
            if set_state is not None:
                set_state(fresh())
            if fn is not None:
                fn()
            outs = tuple(get_state())[:nouts] if get_state is not None else ()
            seen[which] = outs
            if which == "true":
                graph = context.current_graph()
                return tuple(None if is_undefined(v)
                             else _list_slot(v, n, graph) if appended_list(i, v) else v
                             for i, (n, v) in enumerate(zip(out_names, outs)))
            merged = []
            for i, (name, t, f) in enumerate(zip(out_names, seen["true"], outs)):
                if is_undefined(t) != is_undefined(f):
                    _refuse_one_sided(name, "main" if is_undefined(t) else "else", where)
                if is_undefined(t) and is_undefined(f) and _is_return_value(name):
                    raise StagedValueError(
                        f"the main branch must also have a return statement: the `if` at "
                        f"{where} holds a `return`, but neither branch returned when traced "
                        "(a Python condition kept it out), and its condition is a tensor, so "
                        "both branches must return a tensor of the same dtype.")
                if appended_list(i, f) and not (type(t) is list and len(t) == len(f)):
                    # (the true branch's list is staged too: by _list_slot, or already, by a
                    # staged statement inside the branch)
                    merged.append(as_loop_list(f, name))
                elif is_undefined(f):
                    merged.append(None)
                else:
                    _check_both_defined(name, t, f, where)
                    merged.append(f)
            return tuple(merged)
        return traced

    result = runtime.cond(cond, branch(body, "true"), branch(orelse, "false"),
                          output_names=_flat_names(out_names, init))
    final = list(init)
    for i, name in enumerate(out_names):
        t = seen["true"][i]
        if is_undefined(t) and not is_undefined(init[i]):  # (`del` in both branches)
            _refuse_one_sided(name, "main", where)
        final[i] = t if is_undefined(t) else result[i]
    if set_state is not None:
        set_state(tuple(final))


def _refuse_one_sided(name, missing, where):
    other = "else" if missing == "main" else "main"
    if _is_return_value(name):
        raise StagedValueError(
            f"the {missing} branch must also have a return statement: the {other} branch of "
            f"the `if` at {where} returns, and its condition is a tensor, so both branches "
            "must return a tensor of the same dtype.")
    raise StagedValueError(
        f"'{name}' must also be initialized in the {missing} branch: the {other} branch of the "
        f"`if` at {where} assigns it and it is used after the `if`, whose condition is a "
        f"tensor, so both branches must give it a value. Assign '{name}' before the `if` or "
        f"in the {missing} branch too.")


def _copy_containers(value):
    """``value`` with its lists, dicts and numpy arrays copied (nested ones too): a branch
    that changes a container in place (``lst[i] = x``, ``l.append(x)``) must not change
    what the other branch and the code after a staged ``if`` see."""
    kind = type(value)
    if kind is list:
        return [_copy_containers(v) for v in value]
    if kind is dict:
        return {k: _copy_containers(v) for k, v in value.items()}
    if kind is tuple:
        return tuple(_copy_containers(v) for v in value)
    if kind is np.ndarray:
        return value.copy()
    return value


def _is_return_value(name: str) -> bool:
    return name.startswith("retval_")


def _list_slot(items: list, name: str, graph) -> Deferred:
    """The true branch's result for a Python list it appended to, decided once the false
    branch has been traced: the list as it is when the false branch leaves its list the
    same length, else the list staged as a TensorArray, built in the true branch's
    ``graph`` (the false branch stages its own)."""
    def make(other):
        if type(other) is list:
            return items
        with context.building(graph):
            return as_loop_list(items, name)
    return Deferred(make)


def _check_both_defined(name, t, f, where):
    for value, side in ((t, "main"), (f, "else")):
        if value is None and _is_return_value(name):
            raise StagedValueError(
                f"the {side} branch must also have a return statement: the `if` at {where} "
                "has a tensor condition, so both of its branches must return a tensor of the "
                "same dtype, but on the path through its " + side + " branch the function "
                "returns None (or ends without a return).")
        if value is None:
            raise StagedValueError(
                f"'{name}' is None at the end of the {side} branch of the `if` at {where}, "
                "whose condition is a tensor; both branches of a staged `if` must produce a "
                f"tensor of the same dtype: give '{name}' a tensor value.")


def _placeholder_like(value):
    """Zeros of ``value``'s structure and types, in the graph being built: a stand-in for a
    value that is never read where it stands (a return value on a path that has not
    returned, a variable the other branch does not define).

    Only dtypes and shapes are read: ``value`` may belong to another graph (the other
    branch, the loop body); a Python value is converted eagerly to learn them.
    """
    def zeros(v):
        if is_composite(v):
            return v
        if not isinstance(v, Tensor):
            with context.init_scope():
                v = runtime.convert_to_tensor(v)
        dims = [0 if d is None else d for d in (v.shape.as_tuple() if v.shape.rank else ())]
        if v.dtype.is_string:
            return runtime.constant(np.full(dims, b"", dtype=object), dtype=v.dtype)
        return runtime.constant(np.zeros(dims, dtype=v.dtype.numpy_dtype), dtype=v.dtype)
    return nest.map_structure(zeros, value)


def _deferred_value() -> Deferred:
    """A loop variable with no value before the loop: the staged while_loop builds it as
    zeros of the type the body gives it, once the body has been traced."""
    return Deferred(_placeholder_like)


def _refuse_return(names) -> None:
    if any(_is_return_value(n) for n in names):
        raise _return_refusal(current_origin())


def _return_refusal(where) -> NotImplementedError:
    return NotImplementedError(
        f"a return statement cannot be placed inside this TensorFlow loop (at "
        f"{where}); this may happen if a return statement depends on a static "
        "Python condition such as a hyperparameter. As in TensorFlow, a staged loop cannot "
        "return: break out of it and return after the loop.")


# -- loops ---------------------------------------------------------------------------------

class _LoopState:
    """A staged loop's state, as TensorFlow carries it.

    A variable undefined before the loop that the body assigns is carried from zeros of
    the type the body gives it (a ``Deferred`` slot: the body is traced once); since those
    zeros are not a value of the program, a flag records whether the loop ran, and after
    the loop an assert fails if it did not ("loop must iterate at least once to
    initialize"). A variable that is None before the loop is typed from the body the same
    way, as TensorFlow does (it stays None when the body leaves it alone). So is the return
    value of a ``return`` that the body reaches whatever the tensors are (under Python
    conditions only); one that a tensor decides is refused (``staging``), as in TensorFlow.
    """

    def __init__(self, get_state, set_state, names, kind: str):
        self.get_state, self.set_state = get_state, set_state
        self.names = tuple(names)
        self.init = tuple(get_state()) if get_state is not None else ()
        self.where = current_origin()
        self.deferred = {i: _deferred_value() for i, v in enumerate(self.init)
                         if is_undefined(v) or v is None}
        self.carried = list(range(len(self.init)))
        self.kind = kind
        for i in self.carried:
            if i not in self.deferred:
                self._check_carriable(self.names[i], self.init[i])

    @contextmanager
    def staging(self):
        """Around the staged loop: when a ``return`` in it has no value before it, a body
        that cannot be staged (an ``if`` that returns on one path only: a ``return`` the
        tensors decide; an inner loop refusing its own) is TensorFlow's refusal of a
        return in a loop, as TensorFlow reports it."""
        try:
            yield
        except (ValueError, TypeError, KeyError, UnboundLocalError) as e:
            if any(_is_return_value(self.names[i]) for i in self.deferred):
                raise _return_refusal(self.where) from e  # (the body's own error: the cause)
            raise

    def start_target_at(self, target: str | None, start) -> None:
        """A range loop's target undefined before the loop starts at the range's start, as
        in TensorFlow (``opts['iterate_names']``): an empty range leaves it there."""
        for i in [i for i in self.deferred if self.names[i] == target]:
            if is_undefined(self.init[i]):
                del self.deferred[i]
                self.init = self.init[:i] + (start,) + self.init[i + 1:]

    def _check_carriable(self, name, value):
        for leaf in nest.flatten(value):
            if leaf is None:
                raise StagedValueError(
                    f"'{name}' is None before the {self.kind} loop at {self.where}, and the loop "
                    f"is staged because its condition is a tensor; a loop variable must be a "
                    f"tensor: give '{name}' an initial tensor value before the loop.")
            if isinstance(leaf, Tensor) or is_composite(leaf) or hasattr(leaf, "_as_tensor"):
                continue
            try:
                with context.init_scope():  # (a check: no node in the graph being built)
                    runtime.convert_to_tensor(leaf)
            except (TypeError, ValueError) as e:
                raise StagingError(
                    f"'{name}' is modified in the {self.kind} loop at {self.where}, which is "
                    f"staged because its condition is a tensor, but its value {leaf!r} cannot be "
                    f"a tensor ({e}). Keep only tensors in variables a staged loop modifies (use "
                    "tf.TensorArray instead of a Python list).") from None

    def carried_values(self):
        values = [self.deferred.get(i, self.init[i]) for i in self.carried]
        return values + [False] if self.deferred else values  # (+ whether the loop ran)

    def carried_names(self):
        names = _flat_names([self.names[i] for i in self.carried], self.carried_values())
        return names + ["loop_ran"] if self.deferred else names

    def _full(self, vals, reason):
        state = list(self.init)
        for i, v in enumerate(state):
            if is_undefined(v):
                state[i] = Undefined(self.names[i], reason)
        for i, v in zip(self.carried, vals):
            if type(v) is not Deferred:  # (a variable the body does not assign stays undefined)
                state[i] = v
        return tuple(state)

    def set_inside(self, vals):
        if self.set_state is not None:
            self.set_state(self._full(vals, f"it has no value before the staged {self.kind} loop "
                                            f"at {self.where}, and its first iteration reads "
                                            "it before assigning it"))

    def get_carried(self):
        state = tuple(self.get_state()) if self.get_state is not None else ()
        values = [self.deferred[i] if i in self.deferred and _unset(state[i]) else state[i]
                  for i in self.carried]
        for i, v in zip(self.carried, values):
            if is_undefined(v):  # (`del` without a new value)
                raise StagedValueError(
                    f"'{self.names[i]}' has no value at the end of an iteration of the staged "
                    f"{self.kind} loop at {self.where} (the body deletes it), but the loop "
                    "carries it into the next iteration and out of the loop: assign it a new "
                    "value after the `del`, or do not delete it.")
        return values + [True] if self.deferred else values

    def set_after(self, vals):
        vals = list(vals)
        if self.deferred:
            ran = vals.pop()
            for i in self.deferred:
                if type(vals[self.carried.index(i)]) is not Deferred:
                    runtime.Assert(ran, [f"loop must iterate at least once to initialize "
                                         f"{self.names[i]}"], name="Assert")
                elif _is_return_value(self.names[i]):
                    raise StagedValueError(
                        "the return value from a TensorFlow loop may only be a Tensor, int, "
                        "float, bool or a list, tuple or dict thereof; got no value: the "
                        f"`return` in the staged {self.kind} loop at {self.where} never ran "
                        "when the loop was traced (a Python condition kept it out). Return "
                        "after the loop instead.")
        if self.set_state is not None:
            self.set_state(self._full(vals, f"it is first assigned inside the {self.kind} loop at "
                                            f"{self.where}, which is staged and may run zero "
                                            "times"))


def _unset(value) -> bool:
    return value is None or is_undefined(value)


def while_stmt(test, body, get_state=None, set_state=None, symbol_names=(), opts=None, *,
               inside_try=False, inside_with=0, lists=()):
    """``while test(): body()``; a tensor test stages a while_loop over the state.

    A loop that starts in Python and whose test becomes a tensor (a variable turned into a
    tensor by a staged ``if``, a ``break`` on a tensor condition) is refused, as
    TensorFlow refuses it: its iterations so far ran in Python and cannot be staged.
    """
    cond = test()
    if type(cond) is SymbolicTensor or (type(cond) not in (bool, int)
                                        and _symbolic(cond) is not None):
        if inside_try:
            _note_inside_try("while")
        if inside_with:
            check_inside_with("while", inside_with)
        _check_condition(_symbolic(cond), "while loop")
        with _kept_on_error(get_state, set_state):
            convert_state(get_state, set_state, symbol_names, lists)
            _staged_while(test, body, get_state, set_state, symbol_names, opts or {})
        return
    while cond:  # (no frame walk for the loop's origin unless the error needs it)
        body()
        cond = test()
        if type(cond) is SymbolicTensor or (type(cond) not in (bool, int)
                                            and _symbolic(cond) is not None):
            raise NotImplementedError(
                f"The condition of while loop started as non-Tensor, then changed to Tensor "
                f"(the loop at {current_origin()}). This may happen either because variables changed type, "
                "or when a break or return statement inside the loop depends on a Tensor "
                "condition. In both cases, changing to a TF loop should remove the error: "
                "make the loop condition a tensor from the start (for example "
                "`while tf.constant(True) and ...`), or keep the break/return condition a "
                "Python value.")


def _staged_while(test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "while")

    def cond_fn(*vals):
        state.set_inside(vals)
        cond = test()
        symbolic = _symbolic(cond)
        return cond if symbolic is None else _check_condition(symbolic, "while loop")

    def body_fn(*vals):
        state.set_inside(vals)
        body()
        return state.get_carried()

    with state.staging():
        final = runtime.while_loop(
            cond_fn, body_fn, state.carried_values(),
            maximum_iterations=opts.get("maximum_iterations"),
            shape_invariants=_invariants(opts, state), loop_var_names=state.carried_names())
    state.set_after(final)


def _invariants(opts, state):
    """``set_loop_options(shape_invariants=[(var, shape), ...])`` per carried value: each
    variable is named by its value before the loop (or by its name)."""
    given = list(opts.get("shape_invariants", ()))
    if not given:
        return None
    out = []
    for i in state.carried:
        value, found = state.init[i], None
        for key, shape in given:
            if key is value or (isinstance(key, str) and key == state.names[i]):
                found = shape
        out.append(found)
    if state.deferred:
        out.append(None)  # (whether the loop ran)
    return out if any(s is not None for s in out) else None


def for_stmt(iter_, extra_test, body, get_state=None, set_state=None, symbol_names=(),
             opts=None, *, inside_try=False, inside_with=0, lists=()):
    """``for x in iter_: body(x)``, stopping early when ``extra_test()`` is false.

    Python iterables and eager tensors loop in Python; a symbolic tensor (its
    first axis), ``range`` over tensors and ``tf.range`` stage a while_loop;
    objects with ``_autograph_for_stmt`` (datasets) stage themselves.
    """
    hook = iter_._autograph_for_stmt if hasattr(type(iter_), "_autograph_for_stmt") else None
    if inside_try and (isinstance(iter_, SymbolicTensor) or hook is not None
                       or type(iter_).__name__ in ("TensorRange", "IndexedSource")):
        _note_inside_try("for")
    if inside_with and (isinstance(iter_, SymbolicTensor)
                        or type(iter_).__name__ in ("TensorRange", "IndexedSource")
                        or (hook is not None and not context.executing_eagerly())):
        check_inside_with("for", inside_with)
    if hook is not None:
        if context.executing_eagerly():
            return hook(extra_test, body, get_state, set_state, symbol_names, opts or {})
        with _kept_on_error(get_state, set_state):
            _refuse_return(symbol_names)
            convert_state(get_state, set_state, symbol_names, lists)
            return hook(extra_test, body, get_state, set_state, symbol_names, opts or {})
    from autograph.operators.py_builtins import IndexedSource, TensorRange
    if isinstance(iter_, (TensorRange, SymbolicTensor, IndexedSource)):
        with _kept_on_error(get_state, set_state):
            if lists:
                convert_state(get_state, set_state, symbol_names, lists)
            return _staged_for(iter_, extra_test, body, get_state, set_state, symbol_names,
                               opts or {})
    _python_for(iter_, extra_test, body, get_state, set_state, symbol_names, lists)


def _staged_for(iter_, extra_test, body, get_state, set_state, symbol_names, opts):
    from autograph.operators.py_builtins import TensorRange, indexed_source
    if isinstance(iter_, TensorRange):
        return _staged_range_for(iter_.start, iter_.limit, iter_.delta, extra_test, body,
                                 get_state, set_state, symbol_names, opts)
    if isinstance(iter_, SymbolicTensor) and iter_.op.op == "Range":
        start, limit, delta = (SymbolicTensor(o) for o in iter_.op.inputs[:3])
        return _staged_range_for(start, limit, delta, extra_test, body, get_state, set_state,
                                 symbol_names, opts)
    return _staged_indexed_for(indexed_source(iter_), extra_test, body, get_state, set_state,
                               symbol_names, opts)


def _python_for(iter_, extra_test, body, get_state, set_state, names, lists=()):
    it = iter(iter_)
    if extra_test is None:
        for item in it:
            body(item)
        return
    while True:  # the exit test comes before the next item is taken, as Python's break does
        keep_going = extra_test()
        if keep_going.__class__ is not bool and _symbolic(keep_going) is not None:
            raise NotImplementedError(
                f"break and return statements which depend on a TF condition are not supported "
                f"in Python for loops (the loop at {current_origin()} iterates over a "
                f"{type(iter_).__name__}, so it runs in Python). Did you intend to make it a "
                "TF loop? Iterate over a tensor or tf.range instead, or make the break/return "
                "condition a Python value.")
        if not keep_going:
            return
        try:
            item = next(it)
        except StopIteration:
            return
        body(item)


def _stage_loop(state, kind, init_iterate, iterate_name, in_range, element, advance,
                extra_test, body, opts):
    def cond_fn(itr, *vals):
        state.set_inside(vals)
        ok = in_range(itr)
        if extra_test is None:
            return ok
        from autograph.operators.logical import and_
        return and_(ok, extra_test)

    def body_fn(itr, *vals):
        state.set_inside(vals)
        body(element(itr))
        return [advance(itr)] + state.get_carried()

    invariants = _invariants(opts, state)
    with state.staging():
        final = runtime.while_loop(
            cond_fn, body_fn, [init_iterate] + state.carried_values(),
            maximum_iterations=opts.get("maximum_iterations"),
            shape_invariants=None if invariants is None else [None] + invariants,
            loop_var_names=[iterate_name] + state.carried_names())
    state.set_after(final[1:])


def _staged_range_for(start, limit, delta, extra_test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "for")
    start = runtime.convert_to_tensor(start, dtype_hint="int32")
    limit = runtime.convert_to_tensor(limit, dtype_hint=start.dtype)
    known = delta.value if isinstance(delta, Tensor) else None
    if known is not None and np.ndim(known) == 0 and np.asarray(known).dtype.kind in "iu":
        delta = int(known)  # tf.range(1, n + 1): a constant step compares, never multiplies
    if isinstance(delta, (int, np.integer)) and not isinstance(delta, bool):
        step = int(delta)
        if step == 0:
            raise ValueError(f"range() arg 3 must not be zero (at {state.where})")
        in_range = (lambda i: i < limit) if step > 0 else (lambda i: i > limit)
        delta = runtime.convert_to_tensor(step, dtype=start.dtype)
    else:
        delta = runtime.convert_to_tensor(delta, dtype_hint=start.dtype)
        in_range = lambda i: (limit - i) * delta > 0  # noqa: E731  (either sign of delta)
    state.start_target_at(opts.get("iterate_names"), start)
    _stage_loop(state, "for", start, "itr", in_range, lambda i: i, lambda i: i + delta,
                extra_test, body, opts)


def _staged_indexed_for(source, extra_test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "for")
    length = source.length
    _stage_loop(state, "for", runtime.constant(0), "itr", lambda i: i < length, source.element,
                lambda i: i + 1, extra_test, body, opts)
