"""Values that travel through staged control flow as a list of tensors.

A TensorArray, for example, is not a tensor but must be loop state. Such a
class implements ``_components()`` (its tensors) and
``_with_components(tensors)`` (a copy standing on new tensors); cond and
while_loop flatten it to its components and rebuild it on the other side.
"""
from __future__ import annotations


def is_composite(value) -> bool:
    return hasattr(value, "_components") and hasattr(value, "_with_components")


def flatten_components(leaves: list) -> tuple[list, list]:
    """Expands composite leaves into tensors; returns (tensors, per-leaf counts)."""
    flat, counts = [], []
    for leaf in leaves:
        if is_composite(leaf):
            parts = list(leaf._components())
            flat.extend(parts)
            counts.append(len(parts))
        else:
            flat.append(leaf)
            counts.append(None)
    return flat, counts


def rebuild_components(templates: list, counts: list, flat: list) -> list:
    out, i = [], 0
    for template, count in zip(templates, counts):
        if count is None:
            out.append(flat[i])
            i += 1
        else:
            out.append(template._with_components(flat[i:i + count]))
            i += count
    return out
