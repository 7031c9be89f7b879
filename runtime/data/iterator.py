"""Iterators over datasets, and the staged ``for`` loop over one.

``iter(dataset)`` is state, like a Variable: created eagerly, its position
lives in graph/resources.py under a resource id, and ``next(iterator)``
inside a traced function records an ``IteratorGetNext`` on that resource,
so every run of the graph consumes the next element (the guide's
``good_consume_next`` prints 1, 2, 3). Created inside a function, it is an
``IteratorFromDataset`` node: a fresh pass on every run.

``staged_for`` is the one While loop that a ``for`` over a dataset or an
iterator becomes: the loop carries ``has_next``, the element fetched ahead,
and the user's loop variables; ``extra_test`` (``break``/``return``) ends it.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes, resources
from graph.errors import OutOfRangeError
from graph.ops.data import IteratorState
from runtime import context, nest
from runtime.composite import is_composite
from runtime.data import structure
from runtime.ops.control_flow import Deferred
from runtime.ops.core import apply_op, constant, convert_to_tensor
from runtime.origin import current_origin
from runtime.tensor import EagerTensor, Tensor


class OwnedIterator:
    """``tf.data.Iterator``: ``next()`` gives the next element, eagerly or on each graph run."""

    def __init__(self, dataset):
        self._spec = dataset.element_spec
        self._rid = None
        if context.executing_eagerly():
            self._state = IteratorState(dataset._variant().value)
            self._graph_handle = None
        else:
            self._state = None
            self._graph_handle = apply_op("IteratorFromDataset", [dataset._variant()],
                                          name="IteratorFromDataset")

    @property
    def element_spec(self):
        return self._spec

    def _handle(self) -> Tensor:
        """The iterator as a resource tensor where it is used."""
        if self._graph_handle is not None:
            return self._graph_handle
        if context.executing_eagerly():
            return EagerTensor(self._state, dtypes.resource)
        if self._rid is None:
            self._rid = resources.new_resource(self._state)
        return apply_op("IteratorHandle", [], {"resource_id": self._rid}, name="IteratorHandle")

    def _attrs(self) -> dict:
        return {"output_types": structure.flat_types(self._spec),
                "output_shapes": structure.flat_shapes(self._spec)}

    def __iter__(self) -> "OwnedIterator":
        return self

    def __next__(self):
        try:
            return self.get_next()
        except OutOfRangeError:
            if context.executing_eagerly():
                raise StopIteration from None
            raise

    def get_next(self, name=None):
        """The next element; raises OutOfRangeError at the end (when the graph runs, if staged)."""
        if self._state is not None and context.executing_eagerly():
            flat = self._state.next()
            if flat is None:
                raise OutOfRangeError(message="End of sequence")
            types = structure.flat_types(self._spec)
            return structure.pack(self._spec, [structure.eager_value(v, t)
                                               for v, t in zip(flat, types)])
        out = apply_op("IteratorGetNext", [self._handle()], self._attrs(), name="IteratorGetNext")
        flat = list(out) if isinstance(out, tuple) else [out]
        return structure.pack(self._spec, flat)

    def get_next_as_optional(self):
        """The next element as a ``tf.experimental.Optional``: empty at the end of the data."""
        from runtime.data.optional import Optional
        if self._state is not None and context.executing_eagerly():
            try:
                return Optional.from_value(self.get_next())
            except OutOfRangeError:
                return Optional.empty(self._spec)
        fetched = apply_op("IteratorTryGetNext", [self._handle()], self._attrs(),
                           name="IteratorTryGetNext")
        return Optional(fetched[0], structure.pack(self._spec, list(fetched[1:])), self._spec)

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        if context.executing_eagerly():
            for element in self:
                if extra_test is not None and not extra_test():
                    break
                body(element)
            return
        staged_for(self._handle(), self._spec, extra_test, body, get_state, set_state,
                   symbol_names, opts)

    # -- checkpoints (``tf.train.Checkpoint(iterator=it)``: ``.ATTRIBUTES/ITERATOR_STATE``) --
    _checkpoint_state_name = "ITERATOR_STATE"

    def _trackable_children(self) -> dict:
        return {}

    def _checkpoint_state(self) -> np.ndarray:
        """The position as 3 strings (a format tag, elements given, the shuffles' pass counts
        at the start); TensorFlow's ITERATOR_STATE is 3 strings too."""
        if self._state is None:
            raise ValueError("An iterator created inside a tf.function cannot be saved in a "
                             "checkpoint: create it eagerly, with iter(dataset), outside.")
        consumed, start = self._state.position()
        return np.array([_STATE_TAG, str(consumed).encode(),
                         ",".join(map(str, start)).encode()], dtype=object)

    def _restore_checkpoint_state(self, value) -> None:
        value = [bytes(v) for v in np.asarray(value, dtype=object).reshape(-1)]
        if self._state is None or len(value) != 3 or value[0] != _STATE_TAG:
            raise ValueError("The checkpoint's ITERATOR_STATE was not written by this project's "
                             "tf.data.Iterator (or the iterator was created inside a "
                             "tf.function); restore it into an iterator made with iter(dataset).")
        start = [int(v) for v in value[2].split(b",")] if value[2] else []
        self._state.restore(int(value[1]), start)

    def __del__(self):
        if getattr(self, "_rid", None) is not None:
            resources.delete(self._rid)

    def __repr__(self) -> str:
        return f"<OwnedIterator element_spec={self._spec!r}>"


_STATE_TAG = b"autograph.data.Iterator/1"


def _is_undefined(value) -> bool:
    """autograph's Undefined (a variable with no value yet), known by name across layers."""
    return type(value).__name__ == "Undefined"


def _carriable(name: str, value):
    """The loop-state value a staged loop can carry, converting a Python list to a StagedList."""
    if isinstance(value, list):
        from runtime.tensor_array import StagedList
        try:
            return StagedList.from_list(value, name)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"'{name}' is a Python list modified in a staged loop over a dataset at "
                f"{current_origin()}, and its elements cannot be staged as a TensorArray ({e}). "
                "Use a tf.TensorArray for values collected in the loop.") from None
    for leaf in nest.flatten(value):
        if leaf is None and _is_return_value(name):
            raise TypeError(
                f"The function returns from inside the staged loop over a dataset at "
                f"{current_origin()}, but it may also return None (it can end without a "
                "`return`); a staged loop must produce a tensor on every path: end the "
                "function with a `return` of a tensor of the same dtype.")
        if leaf is None:
            raise TypeError(
                f"'{name}' is None before the staged loop over a dataset at {current_origin()}; "
                f"a loop variable must be a tensor: give '{name}' an initial tensor value.")
        if isinstance(leaf, Tensor) or is_composite(leaf) or hasattr(leaf, "_as_tensor"):
            continue
        try:
            with context.init_scope():  # (a check: no node in the graph being built)
                convert_to_tensor(leaf)
        except (TypeError, ValueError) as e:
            raise TypeError(
                f"'{name}' is modified in a staged loop over a dataset at {current_origin()}, "
                f"but its value {leaf!r} cannot be a tensor ({e}). Keep only tensors in "
                "variables the loop modifies (tf.TensorArray for collections).") from None
    return value


def _conjunction(has_next, more):
    if not isinstance(more, Tensor):
        return has_next if more else convert_to_tensor(False)
    from runtime.ops import math_ops
    return math_ops.logical_and(has_next, more)


def _zeros_like(value):
    """Zeros of ``value``'s structure and types, in the graph being built: the initial value
    of a return value carried by the loop, never read (the return flag guards it).

    Only dtypes and shapes are read: ``value`` belongs to the loop body's graph; a Python
    value is converted eagerly to learn them (no node in the graph being built).
    """
    def zeros(v):
        if is_composite(v):
            return v
        if not isinstance(v, Tensor):
            with context.init_scope():
                v = convert_to_tensor(v)
        dims = [0 if d is None else d for d in (v.shape.as_list() if v.shape.rank else [])]
        fill = np.full(dims, b"", dtype=object) if v.dtype.is_string else \
            np.zeros(dims, dtype=v.dtype.numpy_dtype)
        return constant(fill, dtype=v.dtype)
    return nest.map_structure(zeros, value)


def _is_return_value(name: str) -> bool:
    return name.startswith("retval_")


def loop_start(get_state, symbol_names):
    """(names, values before the loop, the loop's initial values, which of them are carried)
    for a staged loop over a dataset, an iterator or a ragged tensor's rows.

    A variable of the loop's state undefined before it (first assigned in the body) is
    TensorFlow's ValueError, as its dataset loops refuse it (a return value is exempt)."""
    names = list(symbol_names or ())
    init = tuple(get_state()) if get_state is not None else ()
    names += [f"loop_var_{i}" for i in range(len(names), len(init))]
    for name, value in zip(names, init):
        if _is_undefined(value) and not _is_return_value(name):
            raise ValueError(f"'{name}' must be defined before the loop")
    start = list(init)
    carried = [i for i, v in enumerate(init)
               if not _is_undefined(v) or _is_return_value(names[i])]
    for i in carried:
        start[i] = Deferred(_zeros_like) if _is_undefined(init[i]) else \
            _carriable(names[i], init[i])
    return names, init, start, carried


def staged_for(handle, spec, extra_test, body, get_state, set_state, symbol_names, opts):
    """One while_loop running ``body(element)`` for each element the iterator ``handle`` yields.

    Loop state comes from ``get_state()`` (``loop_start``); a variable undefined before the
    loop is refused, except a return value (``retval_...``), which would be a ``Deferred``
    slot typed from the one trace of the body — but converted code refuses a ``return``
    inside a staged loop before it gets here, as TensorFlow does.
    """
    names, init, start, carried = loop_start(get_state, symbol_names)
    final = _staged_loop(handle, spec, extra_test, body, get_state, set_state, names, init,
                         start, carried, opts)
    _install(set_state, init, carried, final)


def _install(set_state, init, carried, vals):
    """Sets the state: ``vals`` for the carried variables, except a return value not set
    yet (still ``Deferred``), which keeps its undefined value from ``init``."""
    if set_state is not None:
        state = list(init)
        for i, v in zip(carried, vals):
            if type(v) is not Deferred:
                state[i] = v
        set_state(tuple(state))


def _staged_loop(handle, spec, extra_test, body, get_state, set_state, names, init, start,
                 carried, opts):
    """while more and extra_test(): has, x = try_get_next(); if has: body(x).

    The element is fetched only once the loop has decided to go on, so a ``break``
    leaves the rest of a shared iterator unconsumed.
    """
    from runtime.ops.control_flow import cond, while_loop
    attrs = {"output_types": structure.flat_types(spec),
             "output_shapes": structure.flat_shapes(spec)}

    def cond_fn(more, *vals):
        _install(set_state, init, carried, vals)
        if extra_test is None:
            return more
        return _conjunction(more, extra_test())

    def body_fn(more, *vals):
        fetched = apply_op("IteratorTryGetNext", [handle], attrs, name="IteratorTryGetNext")
        has_next, element = fetched[0], list(fetched[1:])

        def run_body():
            _install(set_state, init, carried, vals)
            body(structure.pack(spec, element))
            now = tuple(get_state()) if get_state is not None else ()
            # (a return value the body has not set stays the Deferred slot it came in as)
            return [v if _is_undefined(now[i]) else now[i] for i, v in zip(carried, vals)]
        new = cond(has_next, run_body, lambda: list(vals), name="has_next")
        return [has_next] + list(new or [])

    final = while_loop(cond_fn, body_fn, [convert_to_tensor(True)] + [start[i] for i in carried],
                       maximum_iterations=(opts or {}).get("maximum_iterations"),
                       loop_var_names=["more"] + [names[i] for i in carried],
                       relax_shapes=True)  # (as TensorFlow's Dataset.reduce relaxes them)
    return list(final)[1:]
