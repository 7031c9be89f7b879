"""Errors raised by the runtime, under TensorFlow's names (``tf.errors.*``)."""
from graph.errors import (FailedPreconditionError, GraphError, GraphFormatError,  # noqa: F401
                          InvalidArgumentError, NotFoundError, OpError, UnimplementedError)
from graph.errors import DataLossError, OutOfRangeError  # noqa: F401

# TensorFlow's status codes (``tf.errors.OK`` ... ``tf.errors.UNAUTHENTICATED``).
OK = 0
CANCELLED = 1
UNKNOWN = 2
INVALID_ARGUMENT = 3
DEADLINE_EXCEEDED = 4
NOT_FOUND = 5
ALREADY_EXISTS = 6
PERMISSION_DENIED = 7
RESOURCE_EXHAUSTED = 8
FAILED_PRECONDITION = 9
ABORTED = 10
OUT_OF_RANGE = 11
UNIMPLEMENTED = 12
INTERNAL = 13
UNAVAILABLE = 14
DATA_LOSS = 15
UNAUTHENTICATED = 16


class CancelledError(OpError):
    """An operation or step was cancelled."""


class UnknownError(OpError):
    """An error no other class describes."""


class DeadlineExceededError(OpError):
    """A deadline expired before the operation could complete."""


class AlreadyExistsError(OpError):
    """An entity to be created already exists."""


class PermissionDeniedError(OpError):
    """The caller may not run the operation."""


class UnauthenticatedError(OpError):
    """The request has no valid authentication credentials."""


class ResourceExhaustedError(OpError):
    """Some resource (memory, a quota) has been exhausted."""


class AbortedError(OpError):
    """The operation was aborted, typically by a concurrent action."""


class InternalError(OpError):
    """An invariant of the system was broken."""


class UnavailableError(OpError):
    """The runtime is currently unavailable."""


_CLASSES = {CANCELLED: CancelledError, UNKNOWN: UnknownError,
            INVALID_ARGUMENT: InvalidArgumentError, DEADLINE_EXCEEDED: DeadlineExceededError,
            NOT_FOUND: NotFoundError, ALREADY_EXISTS: AlreadyExistsError,
            PERMISSION_DENIED: PermissionDeniedError,
            RESOURCE_EXHAUSTED: ResourceExhaustedError,
            FAILED_PRECONDITION: FailedPreconditionError, ABORTED: AbortedError,
            OUT_OF_RANGE: OutOfRangeError, UNIMPLEMENTED: UnimplementedError,
            INTERNAL: InternalError, UNAVAILABLE: UnavailableError, DATA_LOSS: DataLossError,
            UNAUTHENTICATED: UnauthenticatedError}
for _code, _cls in _CLASSES.items():
    _cls.error_code = _code  # TensorFlow's ``OpError.error_code`` (classes of graph.errors too)
OpError.error_code = UNKNOWN



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
