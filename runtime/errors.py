"""Errors raised by the runtime, under TensorFlow's names (``tf.errors.*``)."""
from graph.errors import (FailedPreconditionError, GraphError, GraphFormatError,  # noqa: F401
                          InvalidArgumentError, NotFoundError, OpError, UnimplementedError)
from graph.errors import DataLossError, OutOfRangeError  # noqa: F401


class OperatorNotAllowedInGraphError(TypeError, GraphError):
    """A symbolic tensor was used where Python needs a concrete value."""


class LeakedTensorError(TypeError, GraphError):
    """A symbolic tensor escaped the function that created it and was used later."""


class InaccessibleTensorError(ValueError, GraphError):
    """A tensor made inside a staged loop body or branch was used outside it, in the graph
    around it (TensorFlow's name and base class): the value exists only inside."""


class StagingError(GraphError):
    """Staged control flow was given values it cannot carry (mismatched branches...)."""


class StructureMismatchError(StagingError, TypeError):
    """Both branches of a cond, or every iteration of a loop, must agree in structure and dtype."""


class StagedValueError(StagingError, ValueError):
    """A staged ``if`` or loop cannot carry a value: None, or a variable that only some of its
    paths assign (TensorFlow raises ValueError for these)."""
