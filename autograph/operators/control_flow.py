"""``if``, ``while`` and ``for`` as functions: plain Python, or staged into the runtime.

Converted code calls these with the statement's parts as callables and the
statement's state (the variables it modifies that matter afterwards) behind
``get_state``/``set_state``. A Python (or eager) condition or iterable runs
the plain Python statement; a symbolic tensor records one cond / while_loop.
"""
from __future__ import annotations

import numpy as np

import runtime
from autograph.operators.contexts import check_inside_with
from autograph.operators.lists import LoopList, as_loop_list, convert_state
from autograph.operators.variables import Undefined, is_undefined
from runtime import context, nest
from runtime.composite import is_composite
from runtime.errors import StagingError
from runtime.ops.control_flow import Deferred
from runtime.origin import current_origin
from runtime.tensor import SymbolicTensor, Tensor


def _symbolic(value):
    """``value`` as a symbolic tensor when it is one (or a graph-side tensor-like), else None."""
    if isinstance(value, SymbolicTensor):
        return value
    if isinstance(value, LoopList):
        value.__bool__()  # raises: a staged list has no truth value while tracing
    if hasattr(value, "_as_tensor") and context.current_graph() is not None:
        converted = runtime.convert_to_tensor(value)
        if isinstance(converted, SymbolicTensor):
            return converted
    return None


def _flat_names(names, values) -> list[str]:
    out = []
    for name, value in zip(names, values):
        leaves = nest.flatten(value)
        out.extend([name] if len(leaves) == 1 else [f"{name}[{i}]" for i in range(len(leaves))])
    return out


# -- if ----------------------------------------------------------------------------------

def _refuse_inside_try(kind: str) -> None:
    raise StagingError(
        f"The `{kind}` at {current_origin()} depends on a tensor, so it is staged (both branches "
        "or the loop body are traced once), but it is inside a `try` with `except`: the "
        "handler would catch errors of tracing, not of running the graph, and the program "
        "would silently differ from the Python one. Move the try/except out of the function "
        "(around the call of the tf.function), or validate inputs with tf.debugging.assert_* "
        "ops.")


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
        _refuse_inside_try("if")
    if inside_with:
        check_inside_with("if", inside_with)
    _staged_if(_symbolic(cond), body, orelse, get_state, set_state, tuple(symbol_names),
               len(symbol_names) if nouts is None else nouts, lists)


def _staged_if(cond, body, orelse, get_state, set_state, names, nouts, lists=()):
    """One cond over the outputs. A Python list the branches append to stays a Python list
    (each branch appends to its own copy) when both branches leave it the same length;
    otherwise it is staged as a TensorArray (``LoopList``) in both branches. The true
    branch, traced first, cannot know which: its list is a ``Deferred`` slot that the cond
    fills, in the true branch's graph, once the false branch has been traced (see
    ``_list_slot``), so both branches are traced once.

    A return value set in one branch only is ``Deferred`` in the other: the cond
    builds it there as zeros of the setting branch's type, so both branches are
    traced once. Its ``do_return`` flag is false on that path, so the zeros are
    never read.
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

    def dead(which, name):
        """Whether ``name``'s value on the ``which`` branch is never read: the function's
        return value, or any variable on a branch that has returned."""
        return _is_return_value(name) or returned[which]

    returned = {}

    def branch(fn, which):
        def traced():
            if set_state is not None:
                set_state(fresh())
            if fn is not None:
                fn()
            outs = tuple(get_state())[:nouts] if get_state is not None else ()
            seen[which] = outs
            returned[which] = any(v is True and _is_return_flag(n)
                                  for n, v in zip(out_names, outs))
            if which == "true":
                graph = context.current_graph()
                return tuple(
                    ((_deferred_return() if dead("true", n) else None) if is_undefined(v)
                     else _list_slot(v, n, graph) if appended_list(i, v) else v)
                    for i, (n, v) in enumerate(zip(out_names, outs)))
            merged = []
            for i, (name, t, f) in enumerate(zip(out_names, seen["true"], outs)):
                if appended_list(i, f) and not (type(t) is list and len(t) == len(f)):
                    # (the true branch's list is staged too: by _list_slot, or already, by a
                    # staged statement inside the branch)
                    merged.append(as_loop_list(f, name))
                elif is_undefined(f) and dead("false", name) and (
                        dead("true", name) or not is_undefined(t)):
                    merged.append(_deferred_return())  # built from the true branch's value
                elif is_undefined(t):
                    merged.append(f if dead("true", name) else None)
                elif is_undefined(f):
                    merged.append(_placeholder_like(t))
                else:
                    _check_both_defined(name, t, f, where)
                    merged.append(f)
            return tuple(merged)
        return traced

    result = runtime.cond(cond, branch(body, "true"), branch(orelse, "false"),
                          output_names=_flat_names(out_names, init))
    final = list(init)
    for i, name in enumerate(out_names):
        t, f = seen["true"][i], seen["false"][i]
        if is_undefined(t) and is_undefined(f):
            final[i] = t
        elif dead("true" if is_undefined(t) else "false", name):
            final[i] = result[i]  # (zeros where it was not set: do_return guards the reads)
        elif is_undefined(t) or is_undefined(f):
            side = "else" if is_undefined(t) else "true"
            final[i] = Undefined(name, f"it is assigned only in the {side} branch of the `if` at "
                                       f"{where}, whose condition is a tensor")
        else:
            final[i] = result[i]
    if set_state is not None:
        set_state(tuple(final))


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


def _is_return_flag(name: str) -> bool:
    return name.startswith("do_return")


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
    if (t is None) != (f is None):
        side, other = ("true", "else") if t is None else ("else", "true")
        what = ("the function returns a value only in the " + other + " branch"
                if name == "retval_" else f"'{name}' is None in the {side} branch")
        raise StagingError(
            f"{what} of the `if` at {where}, whose condition is a tensor; both branches of a "
            f"staged `if` must produce a tensor of the same dtype "
            + ("(add a return to the other branch)." if name == "retval_"
               else f"(give '{name}' a tensor value in the {side} branch too)."))


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


def _deferred_return() -> Deferred:
    """A return value not set on this path: staged cond/while_loop build it as zeros of the
    type the code that sets it gives it, once that code has been traced."""
    return Deferred(_placeholder_like)


# -- loops ---------------------------------------------------------------------------------

class _LoopState:
    """Splits a loop's state into what the staged loop carries and what it cannot.

    A variable undefined before the loop is not carried: the body may assign
    it for its own use, and after the loop it stays undefined (the loop may
    run zero times), which ``ld`` reports if it is read. The function's return
    value is the exception: a ``return`` in the body sets it, so it is carried
    as a ``Deferred`` slot, which the staged while_loop types from the body's
    value once the body has been traced (once: no second trace to learn it).
    """

    def __init__(self, get_state, set_state, names, kind: str):
        self.get_state, self.set_state = get_state, set_state
        self.names = tuple(names)
        self.init = tuple(get_state()) if get_state is not None else ()
        self.where = current_origin()
        self.deferred = {i: _deferred_return() for i, v in enumerate(self.init)
                         if is_undefined(v) and _is_return_value(self.names[i])}
        self.carried = [i for i, v in enumerate(self.init)
                        if not is_undefined(v) or i in self.deferred]
        self.kind = kind
        for i in self.carried:
            if i not in self.deferred:
                self._check_carriable(self.names[i], self.init[i])

    def _check_carriable(self, name, value):
        for leaf in nest.flatten(value):
            if leaf is None and _is_return_value(name):
                raise StagingError(
                    f"The function returns from inside the {self.kind} loop at {self.where}, "
                    "which is staged because its condition is a tensor, but it may also return "
                    "None (it can end without a `return`); a staged loop must produce a tensor "
                    "on every path: end the function with a `return` of a tensor of the same "
                    "dtype.")
            if leaf is None:
                raise StagingError(
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
        return [self.deferred.get(i, self.init[i]) for i in self.carried]

    def carried_names(self):
        return _flat_names([self.names[i] for i in self.carried], self.carried_values())

    def _full(self, vals, reason):
        state = list(self.init)
        for i, v in enumerate(state):
            if is_undefined(v):
                state[i] = Undefined(self.names[i], reason)
        for i, v in zip(self.carried, vals):
            if type(v) is not Deferred:  # (a return value not set yet stays undefined)
                state[i] = v
        return tuple(state)

    def set_inside(self, vals):
        if self.set_state is not None:
            self.set_state(self._full(vals, f"it has no value before the staged {self.kind} loop "
                                            f"at {self.where}, and a staged loop only carries "
                                            "variables defined before it"))

    def get_carried(self):
        state = tuple(self.get_state()) if self.get_state is not None else ()
        return [self.deferred[i] if i in self.deferred and is_undefined(state[i]) else state[i]
                for i in self.carried]

    def set_after(self, vals):
        if self.set_state is not None:
            self.set_state(self._full(vals, f"it is first assigned inside the {self.kind} loop at "
                                            f"{self.where}, which is staged and may run zero "
                                            "times"))


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
            _refuse_inside_try("while")
        if inside_with:
            check_inside_with("while", inside_with)
        convert_state(get_state, set_state, symbol_names, lists)
        _staged_while(test, body, get_state, set_state, symbol_names, opts or {})
        return
    where = current_origin()
    while cond:
        body()
        cond = test()
        if type(cond) is SymbolicTensor or (type(cond) not in (bool, int)
                                            and _symbolic(cond) is not None):
            raise NotImplementedError(
                f"The condition of the while loop at {where} started as non-Tensor, then "
                "changed to Tensor. This may happen either because variables changed type, "
                "or when a break or return statement inside the loop depends on a Tensor "
                "condition. In both cases, changing to a TF loop should remove the error: "
                "make the loop condition a tensor from the start (for example "
                "`while tf.constant(True) and ...`), or keep the break/return condition a "
                "Python value.")


def _staged_while(test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "while")

    def cond_fn(*vals):
        state.set_inside(vals)
        return test()

    def body_fn(*vals):
        state.set_inside(vals)
        body()
        return state.get_carried()

    final = runtime.while_loop(
        cond_fn, body_fn, state.carried_values(),
        maximum_iterations=opts.get("maximum_iterations"),
        shape_invariants=_invariants(opts, state), loop_var_names=state.carried_names())
    state.set_after(final)


def _invariants(opts, state):
    given = dict(opts.get("shape_invariants", ()))
    if not given:
        return None
    by_name = {}
    for key, shape in given.items():
        by_name[key if isinstance(key, str) else id(key)] = shape
    out = []
    for i in state.carried:
        value = state.init[i]
        out.append(by_name.get(state.names[i], by_name.get(id(value))))
    return out if any(s is not None for s in out) else None


def for_stmt(iter_, extra_test, body, get_state=None, set_state=None, symbol_names=(),
             opts=None, *, inside_try=False, inside_with=0, lists=()):
    """``for x in iter_: body(x)``, stopping early when ``extra_test()`` is false.

    Python iterables and eager tensors loop in Python; a symbolic tensor (its
    first axis), ``range`` over tensors and ``tf.range`` stage a while_loop;
    objects with ``_autograph_for_stmt`` (datasets) stage themselves.
    """
    if inside_try and (isinstance(iter_, SymbolicTensor) or hasattr(iter_, "_autograph_for_stmt")
                       or type(iter_).__name__ in ("TensorRange", "IndexedSource")):
        _refuse_inside_try("for")
    hook = getattr(iter_, "_autograph_for_stmt", None)
    if inside_with and (isinstance(iter_, SymbolicTensor)
                        or type(iter_).__name__ in ("TensorRange", "IndexedSource")
                        or (hook is not None and not context.executing_eagerly())):
        check_inside_with("for", inside_with)
    if hook is not None:
        if not context.executing_eagerly():
            convert_state(get_state, set_state, symbol_names, lists)
        return hook(extra_test, body, get_state, set_state, symbol_names, opts or {})
    from autograph.operators.py_builtins import IndexedSource, TensorRange, indexed_source
    if lists and isinstance(iter_, (TensorRange, SymbolicTensor, IndexedSource)):
        convert_state(get_state, set_state, symbol_names, lists)  # the loop below is staged
    if isinstance(iter_, TensorRange):
        return _staged_range_for(iter_.start, iter_.limit, iter_.delta, extra_test, body,
                                 get_state, set_state, symbol_names, opts or {})
    if isinstance(iter_, SymbolicTensor) and iter_.op.op == "Range":
        start, limit, delta = (SymbolicTensor(o) for o in iter_.op.inputs[:3])
        return _staged_range_for(start, limit, delta, extra_test, body, get_state, set_state,
                                 symbol_names, opts or {})
    source = indexed_source(iter_)
    if source is not None:
        return _staged_indexed_for(source, extra_test, body, get_state, set_state,
                                   symbol_names, opts or {})
    _python_for(iter_, extra_test, body, get_state, set_state, symbol_names, lists)


def _python_for(iter_, extra_test, body, get_state, set_state, names, lists=()):
    it = iter(iter_)
    if extra_test is None:
        for item in it:
            body(item)
        return
    while True:  # the exit test comes before the next item is taken, as Python's break does
        keep_going = extra_test()
        if _symbolic(keep_going) is not None:
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

    final = runtime.while_loop(
        cond_fn, body_fn, [init_iterate] + state.carried_values(),
        maximum_iterations=opts.get("maximum_iterations"),
        loop_var_names=[iterate_name] + state.carried_names())
    state.set_after(final[1:])


def _staged_range_for(start, limit, delta, extra_test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "for")
    start = runtime.convert_to_tensor(start, dtype_hint="int32")
    limit = runtime.convert_to_tensor(limit, dtype_hint=start.dtype)
    if isinstance(delta, (int, np.integer)) and not isinstance(delta, bool):
        step = int(delta)
        if step == 0:
            raise ValueError(f"range() arg 3 must not be zero (at {state.where})")
        in_range = (lambda i: i < limit) if step > 0 else (lambda i: i > limit)
        delta = runtime.convert_to_tensor(step, dtype=start.dtype)
    else:
        delta = runtime.convert_to_tensor(delta, dtype_hint=start.dtype)
        in_range = lambda i: (limit - i) * delta > 0  # noqa: E731  (either sign of delta)
    _stage_loop(state, "for", start, "itr", in_range, lambda i: i, lambda i: i + delta,
                extra_test, body, opts)


def _staged_indexed_for(source, extra_test, body, get_state, set_state, names, opts):
    state = _LoopState(get_state, set_state, names, "for")
    length = source.length
    _stage_loop(state, "for", runtime.constant(0), "itr", lambda i: i < length, source.element,
                lambda i: i + 1, extra_test, body, opts)
