"""What a module written by ``autograph convert`` imports at run time (as ``_agm__``).

A converted module holds functions whose bodies are already converted
(they call ``ag__.if_stmt`` and friends, importing ``autograph.operators``
as the local ``ag__``). ``converted`` marks them so the converter never
converts them a second time (``tf.function`` and ``ag__.converted``
both check the mark); ``function`` is ``tf.function`` for such a function
(``autograph convert --wrap-all``), so that calling it traces and caches
exactly as the original decorated with ``tf.function`` would. ``source_map``
points errors and graph nodes at the user's original file and line, not at
the generated one. The module binds this one as ``_agm__`` for its
decorators and source map, and deletes the name at its end.

This module is small on purpose: importing a converted module must not pull
in the converter (gast, the passes).
"""
from __future__ import annotations

import inspect
import linecache
import os

from graph.ir import Origin
from runtime.function import Function as _RuntimeFunction
from runtime.origin import register_source_map


def converted(fn):
    """Marks ``fn`` as converted code: run it as it is, never convert it again."""
    fn.__ag_converted__ = True
    return fn


class Function(_RuntimeFunction):
    """The Function of a converted module's function or method (named ``Function`` too: it is
    one, ``type(f).__name__`` reads the same).

    A method called through its class with ``self`` by keyword
    (``Class.method(self=obj, x=1)``), which the original module allows,
    cannot reach ``Function.__call__(self, *args, **kwargs)``: its own
    ``self`` takes the name. Such a call is bound to the function's
    parameters first, and passed on positionally.
    """

    __slots__ = ()  # the same layout as Function: ``function`` sets __class__ to this

    def __call__(self, /, *args, **kwargs):
        if "self" in kwargs:
            args, kwargs = self._positional(args, kwargs)
        return _RuntimeFunction.__call__(self, *args, **kwargs)

    def get_concrete_function(self, /, *args, **kwargs):
        if "self" in kwargs:
            args, kwargs = self._positional(args, kwargs)
        return _RuntimeFunction.get_concrete_function(self, *args, **kwargs)

    def _positional(self, args, kwargs):
        bound = inspect.signature(self.python_function).bind(*args, **kwargs)
        if "self" in bound.kwargs:  # a `self` that only **kwargs takes
            raise TypeError(f"{self.__name__}() cannot take a keyword argument named 'self' "
                            "in its **kwargs as a tf.function")
        return bound.args, bound.kwargs


def function(fn=None, **options):
    """``tf.function`` for an already-converted ``fn`` (also ``@function(...)``, with
    ``tf.function``'s options)."""
    from autograph.function import function as tf_function

    if fn is None:
        return lambda f: function(f, **options)
    made = tf_function(converted(fn), **options)
    # Made by tf.function itself (its options, its converter), then given the one method
    # that differs: the subclass adds no state, so the object is a complete Function of it.
    made.__class__ = Function
    return made


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
