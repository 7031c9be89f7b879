"""Higher-order ops: map_fn, scan, foldl/foldr, vectorized_map.

Each is one ``while_loop`` over the leading dimension of its (nested)
``elems``, read from and written to TensorArrays, as TensorFlow builds them:
staged, that is ONE While node whatever the length (nothing is unrolled), and
eagerly the same loop runs as a Python loop. Gradients come from the While
and TensorList gradients, so every op here is differentiable.
"""
from __future__ import annotations

from graph import Graph, dtypes
from graph.dtypes import DType
from graph.shapes import TensorShape
from runtime import context, nest
from runtime.ops import array_ops as A
from runtime.ops.control_flow import while_loop
from runtime.ops.core import constant, convert_to_tensor
from runtime.tensor_array import TensorArray
from runtime.tensor_spec import TensorSpec

__all__ = ["foldl", "foldr", "map_fn", "scan", "vectorized_map"]


# -- shared: elems as TensorArrays, the loop length ----------------------------------------

def _flat_elems(elems, what: str = "elems") -> list:
    flat = [convert_to_tensor(e) for e in nest.flatten(elems)]
    if not flat:
        raise ValueError(f"{what} must be a Tensor or (possibly nested) sequence of Tensors. "
                         f"Got {elems!r}, which does not contain any Tensors.")
    for e in flat:
        if e.shape.rank == 0:
            raise ValueError("Elements in elems must be 1+ dimensional Tensors, not scalars")
    return flat


def _length(flat: list):
    """The common leading dimension: a Python int when static, else a scalar tensor."""
    static = {e.shape[0] for e in flat if e.shape.rank is not None} - {None}
    if len(static) > 1:
        raise ValueError(f"Elements in elems must have the same size along the first "
                         f"dimension, got {sorted(static)}")
    if static:
        return static.pop()
    return A.shape(flat[0])[0]


def _input_arrays(flat: list, n) -> list[TensorArray]:
    return [TensorArray(e.dtype, size=n, element_shape=e.shape[1:] if e.shape.rank else None)
            .unstack(e) for e in flat]


def _stacked(arrays: list[TensorArray], n) -> list:
    """The stacked outputs, with the static leading dimension when ``n`` is known."""
    out = []
    for ta in arrays:
        t = ta.stack()
        if isinstance(n, int) and t.shape.rank is not None and t.shape[0] is None:
            t = A.ensure_shape(t, [n] + t.shape.as_list()[1:])
        out.append(t)
    return out


def _specs(signature, elems_flat: list, elems):
    """``fn_output_signature`` as (structure, flat list of (dtype, shape))."""
    if signature is None:
        return elems, [(e.dtype, TensorShape(None)) for e in elems_flat]
    flat = nest.flatten(signature)
    specs = []
    for s in flat:
        if isinstance(s, TensorSpec):
            specs.append((s.dtype, s.shape))
        elif isinstance(s, (DType, str, type)) or hasattr(s, "as_numpy_dtype"):
            specs.append((dtypes.as_dtype(s), TensorShape(None)))
        else:
            raise TypeError(f"fn_output_signature must be a tf.DType, tf.TensorSpec or a "
                            f"(nested) structure of them, got {s!r}")
    return signature, specs


def _flat_result(structure, result) -> list:
    nest.assert_same_structure(structure, result, check_types=False)
    return nest.flatten(result)


# -- map_fn, vectorized_map --------------------------------------------------------------------

def map_fn(fn, elems, dtype=None, parallel_iterations=None, back_prop=True, swap_memory=False,
           infer_shape=True, name=None, fn_output_signature=None):
    """``tf.map_fn``: ``fn`` applied to each slice ``elems[i]``, results stacked.

    ``elems`` may be a nested structure (``fn`` gets the same structure of
    slices); without ``fn_output_signature`` (``dtype`` is its deprecated
    name) ``fn`` must return the structure and dtypes of ``elems``.
    """
    if fn_output_signature is None:
        fn_output_signature = dtype
    flat = _flat_elems(elems)
    structure, specs = _specs(fn_output_signature, flat, elems)
    n = _length(flat)
    inputs = _input_arrays(flat, n)
    outputs = [TensorArray(d, size=n, element_shape=s, infer_shape=infer_shape)
               for d, s in specs]

    def body(i, arrays):
        x = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        values = _flat_result(structure, fn(x))
        return i + 1, [ta.write(i, v) for ta, v in zip(arrays, values)]

    _, outputs = while_loop(lambda i, _: i < n, body, (constant(0), outputs),
                            maximum_iterations=n, name=name or "map")
    return nest.pack_sequence_as(structure, _stacked(outputs, n))


def vectorized_map(fn, elems, fallback_to_while_loop=True, warn=True):
    """``tf.vectorized_map``: the results of ``map_fn``, with the output signature inferred.

    TensorFlow vectorizes ``fn`` (pfor) and falls back to a while loop; this
    always runs the loop. Staged, ``fn``'s output types are learnt by tracing it
    once on one element's placeholders (a graph that is then dropped).
    """
    flat = _flat_elems(elems)
    if context.current_graph() is None:
        n = _length(flat)
        n = int(n) if not isinstance(n, int) else n
        results = [fn(nest.pack_sequence_as(elems, [e[i] for e in flat])) for i in range(n)]
        if not results:
            raise ValueError("vectorized_map needs at least one element to infer its outputs")
        leaves = [nest.flatten(r) for r in results]
        stacked = [A.stack([row[k] for row in leaves]) for k in range(len(leaves[0]))]
        return nest.pack_sequence_as(results[0], stacked)
    signature = _traced_signature(fn, elems, flat)
    return map_fn(fn, elems, fn_output_signature=signature)


def _traced_signature(fn, elems, flat):
    """The TensorSpecs of ``fn``'s result on one element, traced into a throwaway graph."""
    scratch = Graph("vectorized_map_signature", outer=context.current_graph())
    with context.building(scratch):
        x = [e[0] for e in flat]
        result = fn(nest.pack_sequence_as(elems, x))
        return nest.map_structure(
            lambda t: TensorSpec(convert_to_tensor(t).shape, convert_to_tensor(t).dtype), result)


# -- scan, foldl, foldr --------------------------------------------------------------------------

def _accumulator(initializer, flat, reverse: bool, n):
    """(structure, flat initial value, first index): elems' first slice when no initializer."""
    if initializer is not None:
        return initializer, [convert_to_tensor(a) for a in nest.flatten(initializer)], \
            (n - 1 if reverse else 0)
    first = n - 1 if reverse else 0
    return None, [e[first] for e in flat], (first - 1 if reverse else 1)


def _steps(start, n, reverse: bool):
    """Loop condition and step over ``start .. n-1`` or ``start .. 0``."""
    if reverse:
        return (lambda i: i >= 0), -1
    return (lambda i: i < n), 1


def scan(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
         infer_shape=True, reverse=False, name=None):
    """``tf.scan``: the accumulators ``a_i = fn(a_{i-1}, elems[i])``, stacked.

    Without ``initializer`` the first slice of ``elems`` starts the
    accumulator (and is the first output); ``reverse`` runs from the end.
    """
    flat = _flat_elems(elems)
    n = _length(flat)
    inputs = _input_arrays(flat, n)
    structure, acc, start = _accumulator(initializer, flat, reverse, n)
    if structure is None:
        structure = elems
    outputs = [TensorArray(a.dtype, size=n, element_shape=a.shape, infer_shape=infer_shape)
               for a in acc]
    if initializer is None:
        outputs = [ta.write(n - 1 if reverse else 0, a) for ta, a in zip(outputs, acc)]
    test, step = _steps(start, n, reverse)

    def body(i, a, arrays):
        x = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        new = _flat_result(structure, fn(nest.pack_sequence_as(structure, a), x))
        new = [_like_acc(v, old) for v, old in zip(new, a)]
        return i + step, new, [ta.write(i, v) for ta, v in zip(arrays, new)]

    _, _, outputs = while_loop(lambda i, a, arrays: test(i), body,
                               (constant(start) if isinstance(start, int) else start, acc,
                                outputs), name=name or "scan")
    return nest.pack_sequence_as(structure, _stacked(outputs, n))


def _like_acc(value, old):
    """A new accumulator value as a tensor; a Python number takes the accumulator's dtype."""
    if isinstance(value, (int, float, bool)):
        return convert_to_tensor(value, dtype=old.dtype)
    return convert_to_tensor(value)


def _fold(fn, elems, initializer, reverse: bool, name: str):
    flat = _flat_elems(elems)
    n = _length(flat)
    if isinstance(n, int) and n == 0 and initializer is None:
        raise ValueError("elems must have at least one element when there is no initializer")
    inputs = _input_arrays(flat, n)
    structure, acc, start = _accumulator(initializer, flat, reverse, n)
    if structure is None:
        structure = elems
    test, step = _steps(start, n, reverse)

    def body(i, a):
        x = nest.pack_sequence_as(elems, [ta.read(i) for ta in inputs])
        new = _flat_result(structure, fn(nest.pack_sequence_as(structure, a), x))
        return i + step, [_like_acc(v, old) for v, old in zip(new, a)]

    _, acc = while_loop(lambda i, a: test(i), body,
                        (constant(start) if isinstance(start, int) else start, acc),
                        name=name)
    return nest.pack_sequence_as(structure, acc)


def foldl(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """``tf.foldl``: ``fn(...fn(fn(init, elems[0]), elems[1])..., elems[n-1])``."""
    return _fold(fn, elems, initializer, False, name or "foldl")


def foldr(fn, elems, initializer=None, parallel_iterations=10, back_prop=True, swap_memory=False,
          name=None):
    """``tf.foldr``: the fold from the last element down to the first."""
    return _fold(fn, elems, initializer, True, name or "foldr")

