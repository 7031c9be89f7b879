"""Exceptions in converted code: `assert` (Python's, or an Assert op for a tensor test), and
exceptions a `finally` that jumps may drop."""
from __future__ import annotations

import runtime
from runtime.ops.core import apply_op
from runtime.tensor import SymbolicTensor


def assert_stmt(expression1, expression2=None):
    """``assert expression1, expression2()``; the message thunk runs only when needed."""
    if isinstance(expression1, SymbolicTensor):
        message = "" if expression2 is None else expression2()
        assert_op = getattr(runtime, "Assert", None)
        data = [message] if not isinstance(message, (list, tuple)) else list(message)
        if assert_op is not None:
            return assert_op(expression1, data)
        return apply_op("Assert", [expression1] + [runtime.convert_to_tensor(d) for d in data],
                        attrs={"summarize": 3}, name="Assert")
    if not expression1:
        if expression2 is None:
            raise AssertionError()
        raise AssertionError(expression2())
    return None


def in_flight(exception: BaseException) -> BaseException:
    """An exception caught on its way through a ``try`` whose ``finally`` may jump (and so
    drop it, as Python does): returned, unless it is an error of staging itself (a
    StagingError, a conversion error), which no jump of the user's may silence."""
    from autograph.errors import ConversionError
    from runtime.errors import StagingError
    if isinstance(exception, (StagingError, ConversionError)):
        raise exception
    return exception  # (an UndefinedVariableError is the program's UnboundLocalError)
