"""Errors raised by the converter and by converted code.

Every message says what happened, where in the user's code (file:line) and
what to write instead. They derive from ``graph.errors.GraphError`` so that
``except GraphError`` catches everything this project raises.
"""
from __future__ import annotations

from graph.errors import GraphError
from runtime.errors import StagingError  # noqa: F401  (re-exported: staged control flow errors)
from runtime.errors import *  # noqa: F401,F403  (``tf.errors`` is this module: TF's names too)


class AutoGraphError(GraphError):
    """Base of the converter's errors."""


class ConversionError(AutoGraphError):
    """A function cannot be converted (no source, unsupported construct...)."""


class SourceUnavailableError(ConversionError):
    """The function has no source to convert (exec, eval, an interactive prompt)."""


class UnsupportedConstructError(ConversionError, NotImplementedError):
    """The function uses a construct the converter cannot turn into a graph (``yield``,
    ``del`` of a variable a loop carries): Python's ``NotImplementedError`` convention."""


class UndefinedVariableError(AutoGraphError, UnboundLocalError):
    """A variable is read where it may not have been assigned.

    Raised by ``ag__.ld`` for a name that is assigned in only one branch of a
    tensor-dependent ``if``, or first assigned inside a staged loop that may
    run zero times. It is an ``UnboundLocalError`` so that converted code
    fails like the plain Python function would.
    """
