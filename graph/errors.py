"""Errors of the graph layer, named as TensorFlow's ``tf.errors`` names them.

Every error can carry the origin (user file:line) of the node that raised it,
so that messages point at user code, not at generated code.
"""
from __future__ import annotations


class GraphError(Exception):
    """Base of every error raised by this project."""


class OpError(GraphError):
    """An op failed while the graph ran (TensorFlow's ``tf.errors.OpError``)."""

    def __init__(self, node_def=None, op=None, message: str = ""):
        super().__init__(message)
        self.node_def = node_def
        self.op = op
        self.message = message

    def __str__(self) -> str:
        return self.message


class InvalidArgumentError(OpError, ValueError):
    """An op got an argument it cannot work with (wrong dtype, shape, value)."""


class DTypeMismatchError(InvalidArgumentError, TypeError):
    """Operands of different dtypes: TensorFlow's InvalidArgumentError when an op runs
    eagerly, its TypeError when a graph is built; this is both."""


class DTypeNotSupportedError(InvalidArgumentError, TypeError):
    """An op given a dtype it does not take (``sqrt`` of int32): TensorFlow's
    InvalidArgumentError when the op runs eagerly, its TypeError when a graph is built
    ("not in list of allowed values"); this is both."""


class NotFoundError(OpError, LookupError):
    """Something named does not exist (an op type, a file, a resource)."""


class UnimplementedError(OpError, NotImplementedError):
    """The operation is not supported."""


class FailedPreconditionError(OpError):
    """State was not ready (for example an uninitialized variable)."""


class OutOfRangeError(OpError):
    """An iterator or queue has no more elements (``tf.errors.OutOfRangeError``)."""


class DataLossError(OpError):
    """Unrecoverable data loss or corruption (``tf.errors.DataLossError``)."""


class TensorConversionError(GraphError, ValueError, TypeError):
    """A Python value that cannot become a tensor. TensorFlow raises ValueError eagerly and
    TypeError while building a graph; this is both, so either handler catches it."""


class GraphFormatError(GraphError, ValueError):
    """A saved graph file is malformed, truncated or from an unknown producer."""
