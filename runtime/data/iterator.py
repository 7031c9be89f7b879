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

    def _autograph_for_stmt(self, extra_test, body, get_state, set_state, symbol_names, opts):
        if context.executing_eagerly():
            for element in self:
                if extra_test is not None and not extra_test():
                    break
                body(element)
            return
        staged_for(self._handle(), self._spec, extra_test, body, get_state, set_state,
                   symbol_names, opts)

    def __del__(self):
        if getattr(self, "_rid", None) is not None:
            resources.delete(self._rid)

    def __repr__(self) -> str:
        return f"<OwnedIterator element_spec={self._spec!r}>"


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
        if leaf is None:
            raise TypeError(
                f"'{name}' is None before the staged loop over a dataset at {current_origin()}; "
                f"a loop variable must be a tensor: give '{name}' an initial tensor value.")
        if isinstance(leaf, Tensor) or is_composite(leaf) or hasattr(leaf, "_as_tensor"):
            continue
        try:
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


class _ReturnValueSetInLoop(Exception):
    """Internal: a ``return`` inside the loop set the function's return value; carry it."""

    def __init__(self, index: int, value):
        super().__init__(index)
        self.index, self.value = index, value


def _zeros_like(value):
    """A placeholder of ``value``'s type; it is never read (the return flag stays false)."""
    def zeros(v):
        if is_composite(v):
            return v
        t = convert_to_tensor(v)
        dims = [0 if d is None else d for d in (t.shape.as_list() if t.shape.rank else [])]
        fill = np.full(dims, b"", dtype=object) if t.dtype.is_string else \
            np.zeros(dims, dtype=t.dtype.numpy_dtype)
        return constant(fill, dtype=t.dtype)
    return nest.map_structure(zeros, value)


def staged_for(handle, spec, extra_test, body, get_state, set_state, symbol_names, opts):
    """One while_loop running ``body(element)`` for each element the iterator ``handle`` yields.

    Loop state comes from ``get_state()``; a variable undefined before the loop is not
    carried, except the function's return value (``retval_...``) when a ``return`` in the
    body sets it: the loop is then traced again carrying it from a zero placeholder.
    """
    names = list(symbol_names or ())
    init = tuple(get_state()) if get_state is not None else ()
    names += [f"loop_var_{i}" for i in range(len(names), len(init))]
    start = list(init)
    carried = [i for i, v in enumerate(init) if not _is_undefined(v)]
    for i in carried:
        start[i] = _carriable(names[i], init[i])
    graph = context.current_graph()
    while True:
        mark = len(graph.nodes)
        try:
            final = _staged_loop(handle, spec, extra_test, body, get_state, set_state, names,
                                 start, carried, opts)
            break
        except _ReturnValueSetInLoop as missing:
            del graph.nodes[mark:]  # drop the first fetch of this attempt: it is stateful
            start[missing.index] = _zeros_like(missing.value)
            carried = sorted(carried + [missing.index])
    _install(set_state, start, carried, final)


def _install(set_state, start, carried, vals):
    if set_state is not None:
        state = list(start)
        for i, v in zip(carried, vals):
            state[i] = v
        set_state(tuple(state))


def _staged_loop(handle, spec, extra_test, body, get_state, set_state, names, start, carried,
                 opts):
    """while more and extra_test(): has, x = try_get_next(); if has: body(x).

    The element is fetched only once the loop has decided to go on, so a ``break``
    leaves the rest of a shared iterator unconsumed.
    """
    from runtime.ops.control_flow import cond, while_loop
    attrs = {"output_types": structure.flat_types(spec),
             "output_shapes": structure.flat_shapes(spec)}

    def cond_fn(more, *vals):
        _install(set_state, start, carried, vals)
        if extra_test is None:
            return more
        return _conjunction(more, extra_test())

    def body_fn(more, *vals):
        fetched = apply_op("IteratorTryGetNext", [handle], attrs, name="IteratorTryGetNext")
        has_next, element = fetched[0], list(fetched[1:])

        def run_body():
            _install(set_state, start, carried, vals)
            body(structure.pack(spec, element))
            now = tuple(get_state()) if get_state is not None else ()
            for i, value in enumerate(now):
                if (i not in carried and names[i].startswith("retval_")
                        and not _is_undefined(value)):
                    raise _ReturnValueSetInLoop(i, value)
            return [now[i] for i in carried]
        new = cond(has_next, run_body, lambda: list(vals), name="has_next")
        return [has_next] + list(new or [])

    final = while_loop(cond_fn, body_fn, [convert_to_tensor(True)] + [start[i] for i in carried],
                       maximum_iterations=(opts or {}).get("maximum_iterations"),
                       loop_var_names=["more"] + [names[i] for i in carried])
    return list(final)[1:]
