"""Python lists that converted code appends to: plain lists, or TensorArrays when staged.

The converter rewrites the statement ``l.append(x)`` (``l`` a local
variable) into ``l = ag__.list_append(l, x)``, so the list is an ordinary
variable that staged control flow carries. On a Python list,
``list_append`` is ``list.append`` (in place, same object): Python loops
keep Python semantics exactly. A staged loop whose state holds such a list
(the converter names them in ``lists=``) carries it as a ``LoopList``: a
dynamic TensorArray (``runtime.tensor_array.StagedList``) whose appends are
writes, and which becomes a tensor where a tensor is expected
(``tf.stack(l)``, ``tf.reduce_sum(l)``, ``return l``).

What a TensorArray cannot be is refused where it happens, naming the list
and the line: ``len(l)`` (unknown while tracing), ``l[i]``, iterating,
``pop``, ``+``, truth tests, and appending values of another dtype or shape.
"""
from __future__ import annotations

from graph.errors import InvalidArgumentError
from runtime.origin import current_origin
from runtime.tensor_array import StagedList, TensorArray


def _where() -> str:
    origin = current_origin()
    return f" at {origin}" if origin is not None else ""


class LoopList(StagedList):
    """A StagedList that knows it was a Python list and says so when misused.

    Appends are functional (``appended``): a staged branch or loop body must
    not change the value it started from, which the other branch (or the
    next trace) starts from too.
    """

    def appended(self, value) -> "LoopList":
        try:
            array = self._array.write(self._array.size(), value)
        except (InvalidArgumentError, ValueError, TypeError) as e:
            message = (f"Cannot append {value!r} to list '{self._name}'{_where()}: the list is "
                       f"appended to in staged (tensor-dependent) control flow, so it is staged "
                       f"as a TensorArray, whose elements must all have one dtype and shape "
                       f"({e}). Append values of one dtype and shape (tf.cast them), or collect "
                       "them in a tf.TensorArray you create.")
            if isinstance(e, InvalidArgumentError):
                raise InvalidArgumentError(message=message) from None
            raise type(e)(message) from None
        return LoopList(array, self._name)

    def _with_components(self, tensors) -> "LoopList":
        return LoopList(self._array._with_components(tensors), self._name)

    def _refuse(self, what: str, instead: str):
        return TypeError(
            f"{what} list '{self._name}'{_where()} is not possible: the list is appended to in "
            f"staged (tensor-dependent) control flow, so it is staged as a TensorArray whose "
            f"length is known only when the graph runs. {instead} Or collect the values in a "
            "tf.TensorArray and use its size()/read()/stack().")

    def __len__(self):
        raise self._refuse("len() of", f"Use tf.shape(tf.stack({self._name}))[0] for its length "
                                       "as a tensor.")

    def __bool__(self):
        raise self._refuse("Testing the truth of", f"Compare tf.size(tf.stack({self._name})) "
                                                   "with 0 instead.")

    def __iter__(self):
        raise self._refuse("Iterating over", f"Iterate over tf.stack({self._name}) instead.")

    def __contains__(self, item):
        raise self._refuse("`in` on", f"Test membership on tf.stack({self._name}) instead.")

    def __getitem__(self, index):
        raise self._refuse("Indexing", f"Index tf.stack({self._name}) instead.")

    def __setitem__(self, index, value):
        raise self._refuse("Assigning to an element of", "Append the values instead.")

    def __add__(self, other):
        raise self._refuse("`+` on", "Append the elements one by one instead.")

    __radd__ = __iadd__ = __mul__ = __rmul__ = __add__

    def __eq__(self, other):
        raise self._refuse("Comparing", f"Compare tf.stack({self._name}) instead.")

    __ne__ = __eq__
    __hash__ = object.__hash__

    def append(self, value) -> None:
        raise self._refuse("Calling .append of", f"Write `{self._name}.append(x)` as a statement "
                                                 "of its own (the converter stages that form).")

    def pop(self, index=-1):
        raise self._refuse("pop() on", f"Read elements of tf.stack({self._name}) instead.")

    def extend(self, values):
        raise self._refuse("extend() on", "Append the elements one by one instead.")

    insert = remove = clear = extend

    def __repr__(self) -> str:
        return f"<list '{self._name}' staged as {self._array!r}>"


def as_loop_list(value, name: str):
    """``value`` as staged control flow carries it: a Python list becomes a LoopList."""
    if type(value) is not list:
        return value
    try:
        return LoopList(StagedList.from_list(value, name).tensor_array, name)
    except (InvalidArgumentError, ValueError, TypeError) as e:
        raise TypeError(
            f"List '{name}' is appended to in staged (tensor-dependent) control flow{_where()}, "
            f"so it must be staged as a TensorArray, but its elements before that cannot be "
            f"({e}). Start it from elements of one dtype and shape (or empty), or use a "
            "tf.TensorArray.") from None


def list_append(target, value):
    """``target.append(value)`` as converted code writes it: ``l = list_append(l, value)``.

    A Python list is appended to in place and returned (plain Python semantics); a staged
    list returns its successor; any other object's ``append`` is called (converted).
    """
    if type(target) is list:
        target.append(value)
        return target
    if isinstance(target, StagedList):
        if not isinstance(target, LoopList):
            target = LoopList(target.tensor_array, target._name)
        return target.appended(value)
    if isinstance(target, TensorArray):
        return target.write(target.size(), value)
    from autograph.operators.call import converted_call
    converted_call(target.append, (value,))
    return target


def convert_state(get_state, set_state, names, lists) -> None:
    """Turns the Python lists among ``lists`` in the state into LoopLists, in place."""
    if not lists or get_state is None:
        return
    state = tuple(get_state())
    new = tuple(as_loop_list(v, n) if n in lists else v for n, v in zip(names, state))
    if any(a is not b for a, b in zip(new, state)):
        set_state(new)
