"""Flattening and rebuilding nested structures (lists, tuples, dicts, namedtuples).

Dicts flatten in sorted key order, as TensorFlow's ``tf.nest`` does, so that
two dicts with the same keys in another order have the same structure.

With ``expand_composites=True`` a composite tensor (RaggedTensor,
SparseTensor, ExtensionType: see ``runtime.composite``) is a structure of its
component tensors: flattening yields them, packing rebuilds the composite
from new ones (``_with_components``); a ``TypeSpec`` of one is the structure
of its component specs (packing calls ``_from_components``), as in TensorFlow.
"""
from __future__ import annotations

from runtime.composite import component_count, is_composite_tensor, type_spec_of
from runtime.tensor_spec import TensorSpec, TypeSpec


def _is_composite_spec(value) -> bool:
    return isinstance(value, TypeSpec) and not isinstance(value, TensorSpec)


def is_nested(value) -> bool:
    return isinstance(value, (list, tuple, dict))


def _sorted_keys(d: dict):
    try:
        return sorted(d)
    except TypeError:
        return sorted(d, key=repr)


def flatten(structure, expand_composites: bool = False) -> list:
    out: list = []
    _flatten_into(structure, out, expand_composites)
    return out


def _flatten_into(s, out: list, expand: bool) -> None:
    if isinstance(s, dict):
        for k in _sorted_keys(s):
            _flatten_into(s[k], out, expand)
    elif isinstance(s, (list, tuple)):
        for v in s:
            _flatten_into(v, out, expand)
    elif expand and is_composite_tensor(s):
        out.extend(s._components())
    elif expand and _is_composite_spec(s):
        out.extend(s._component_specs)
    else:
        out.append(s)


def pack_sequence_as(structure, flat, expand_composites: bool = False):
    flat = list(flat)
    result, used = _pack(structure, flat, 0, expand_composites)
    if used != len(flat):
        raise ValueError(f"Structure had {used} leaves but {len(flat)} values were given")
    return result


def _pack(s, flat, i, expand: bool = False):
    if isinstance(s, dict):
        items = {}
        for k in _sorted_keys(s):
            items[k], i = _pack(s[k], flat, i, expand)
        return type(s)((k, items[k]) for k in s), i
    if isinstance(s, (list, tuple)):
        values = []
        for v in s:
            packed, i = _pack(v, flat, i, expand)
            values.append(packed)
        if isinstance(s, tuple) and hasattr(s, "_fields"):
            return type(s)(*values), i
        return type(s)(values), i
    if expand and (is_composite_tensor(s) or _is_composite_spec(s)):
        n = component_count(s) if not isinstance(s, TypeSpec) else len(s._component_specs)
        if i + n > len(flat):
            raise ValueError("Not enough values to pack into the structure")
        parts = flat[i:i + n]
        return (s._from_components(parts) if isinstance(s, TypeSpec)
                else s._with_components(parts)), i + n
    if i >= len(flat):
        raise ValueError("Not enough values to pack into the structure")
    return flat[i], i + 1


def map_structure(fn, *structures, expand_composites: bool = False):
    flats = [flatten(s, expand_composites) for s in structures]
    for s in structures[1:]:
        assert_same_structure(structures[0], s)
    return pack_sequence_as(structures[0], [fn(*xs) for xs in zip(*flats)], expand_composites)


def structure_signature(s, check_types: bool = True, expand_composites: bool = False):
    """A hashable description of the nesting (leaves replaced by '.').

    With ``check_types=False`` a list and a tuple of the same length match; with
    ``expand_composites`` a composite (or its spec) is its type and component count.
    """
    if isinstance(s, dict):
        return ("dict", tuple((k, structure_signature(s[k], check_types, expand_composites))
                              for k in _sorted_keys(s)))
    if isinstance(s, (list, tuple)):
        kind = type(s).__name__ if check_types or hasattr(s, "_fields") else "sequence"
        return (kind, tuple(structure_signature(v, check_types, expand_composites) for v in s))
    if expand_composites:
        spec = s if _is_composite_spec(s) else type_spec_of(s)
        if spec is not None:
            return ("composite", type(spec).__qualname__, len(spec._component_specs))
    return "."


def assert_same_structure(a, b, check_types: bool = True,
                          expand_composites: bool = False) -> None:
    if structure_signature(a, check_types, expand_composites) != \
            structure_signature(b, check_types, expand_composites):
        # (as TensorFlow: the same nesting in other sequence types is a TypeError)
        error = TypeError if check_types and structure_signature(a, False, expand_composites) \
            == structure_signature(b, False, expand_composites) else ValueError
        raise error(f"The two structures don't have the same nested structure.\n\n"
                    f"First structure: {a!r}\n\nSecond structure: {b!r}")
