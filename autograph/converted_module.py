"""What a module written by ``autograph convert`` imports at run time (as ``agm__``).

A converted module holds functions whose bodies are already converted
(they call ``ag__.if_stmt`` and friends). ``converted`` marks them so the
converter never converts them a second time (``tf.function`` and
``ag__.converted_call`` both check the mark); ``function`` is
``tf.function`` for such a function, so that calling it traces and caches
exactly as the original decorated with ``tf.function`` would. ``source_map``
points errors and graph nodes at the user's original file and line, not at
the generated one.

This module is small on purpose: importing a converted module must not pull
in the converter (gast, the passes).
"""
from __future__ import annotations

import linecache
import os

from graph.ir import Origin
from runtime.origin import register_source_map


def converted(fn):
    """Marks ``fn`` as converted code: run it as it is, never convert it again."""
    fn.__ag_converted__ = True
    return fn


def function(fn=None, **options):
    """``tf.function`` for an already-converted ``fn`` (also ``@function(...)``)."""
    from autograph.function import function as tf_function

    if fn is None:
        return lambda f: function(f, **options)
    return tf_function(converted(fn), **options)


def source_map(generated_file: str, original: str, blocks) -> None:
    """Registers where the lines of ``generated_file`` came from.

    ``blocks`` holds ``(function qualname, first generated line, [original
    line of each generated line])`` per converted function; ``original`` is
    the user's file, relative to the generated file's directory (the
    converted tree may move as a whole, the original then just not found).
    """
    here = os.path.dirname(os.path.abspath(generated_file))
    original = os.path.normpath(os.path.join(here, original))
    mapping = {}
    for qualname, first, lines in blocks:
        for offset, line in enumerate(lines):
            if line:
                text = linecache.getline(original, line).strip()
                mapping[first + offset] = Origin(original, line, qualname, text)
    register_source_map(generated_file, mapping)
    register_source_map(os.path.abspath(generated_file), mapping)
