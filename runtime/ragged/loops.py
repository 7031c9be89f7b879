"""The staged ``for`` over the rows of a RaggedTensor: one while loop over the row index.

The loop state follows the rules of the staged loop over a dataset
(runtime/data/iterator.py, whose helpers it shares): a loop variable undefined
before the loop (first assigned in the body and used after it) is refused with
TensorFlow's ValueError — unlike ``tf.range`` and ``while`` loops, TensorFlow
does not type it from the body here (a return value would be a ``Deferred``
slot, but converted code refuses a ``return`` inside a staged loop before it
gets here, as TensorFlow does); a Python list the body appends to becomes a
staged list.
"""
from __future__ import annotations

from runtime.data.iterator import _conjunction, _install, _is_undefined, loop_start
from runtime.ops.control_flow import while_loop
from runtime.ops.core import constant
from runtime.tensor import Tensor


def staged_index_for(n: Tensor, element, extra_test, body, get_state, set_state,
                     symbol_names, opts) -> None:
    """``for i in range(n): body(element(i))`` as one while_loop, stopping early when
    ``extra_test()`` (a ``break`` or ``return``) is false."""
    names, init, start, carried = loop_start(get_state, symbol_names)

    def cond_fn(itr, *vals):
        _install(set_state, init, carried, vals)
        more = itr < n
        if extra_test is None:
            return more
        return _conjunction(more, extra_test())

    def body_fn(itr, *vals):
        _install(set_state, init, carried, vals)
        body(element(itr))
        now = tuple(get_state()) if get_state is not None else ()
        # (a return value the body has not set stays the Deferred slot it came in as)
        return [itr + 1] + [v if _is_undefined(now[i]) else now[i] for i, v in zip(carried, vals)]

    final = while_loop(cond_fn, body_fn, [constant(0, dtype=n.dtype)] + [start[i] for i in carried],
                       maximum_iterations=(opts or {}).get("maximum_iterations"),
                       loop_var_names=["itr"] + [names[i] for i in carried])
    _install(set_state, init, carried, list(final)[1:])
