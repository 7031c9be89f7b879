"""``tf.data.NumpyIterator`` (what ``Dataset.as_numpy_iterator`` returns) and
``tf.data.experimental.from_list``: the numpy side of a dataset, in and out."""
from __future__ import annotations

from runtime import context, nest
from runtime.data import structure
from runtime.data.iterator import OwnedIterator
from runtime.ops.array_ops import stack


class NumpyIterator:
    """Iterates a dataset, giving each element with its tensors as numpy values."""

    def __init__(self, dataset):
        if not context.executing_eagerly():
            raise RuntimeError("`tf.data.Dataset.as_numpy_iterator()` is only supported in "
                               "eager mode.")
        self._iterator = OwnedIterator(dataset)

    def __iter__(self):
        return self

    def __next__(self):
        element = next(self._iterator)
        return structure.pack(element, [t.numpy() for t in structure.flatten(element)])

    next = __next__

    def __repr__(self) -> str:
        return f"NumpyIterator(iterator={self._iterator!r})"


def from_list(elements, name=None):
    """A dataset of ``elements`` (a non-empty list of values of one structure), in order."""
    from runtime.data.dataset import Dataset
    elements = list(elements)
    if not elements:
        raise ValueError("Invalid `elements`. `elements` should not be empty. If you want an "
                         "empty dataset, use `tf.data.Dataset.range(0)`.")
    elements = [structure.to_tensors(e) for e in elements]  # (lists are tensors here)
    first = elements[0]
    for element in elements[1:]:
        nest.assert_same_structure(first, element)
    columns = zip(*(structure.flatten(e) for e in elements))
    return Dataset.from_tensor_slices(structure.pack(first, [stack(list(c)) for c in columns]))
