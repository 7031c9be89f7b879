"""``Dataset.save`` / ``Dataset.load``: a dataset's elements and element_spec kept in a
directory, as flat elements (numpy values and variant items) pickled by
``graph/ops/data.py`` — readable by this project, not TensorFlow's snapshot format.
Loading unpickles: load only directories you (or this program) wrote."""
from __future__ import annotations

import os
import pickle

from graph.errors import NotFoundError
from graph.ops.data import as_object, write_elements
from runtime import context

_SPEC, _ELEMENTS = "element_spec.pkl", "elements.pkl"


def _path(path) -> str:
    return path.numpy().decode() if hasattr(path, "numpy") else os.fspath(path)


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None) -> None:
    """Runs ``dataset`` once and writes its elements under the directory ``path``."""
    if not context.executing_eagerly():
        raise RuntimeError("Dataset.save runs eagerly: call it outside tf.function")
    path = _path(path)
    os.makedirs(path, exist_ok=True)
    write_elements(os.path.join(path, _ELEMENTS),
                   list(as_object(dataset._variant().numpy()).iterate()))
    with open(os.path.join(path, _SPEC), "wb") as f:
        pickle.dump(dataset.element_spec, f)  # (a DType pickles by name: the same object back)


def load(path, element_spec=None, compression=None, reader_func=None):
    """The dataset ``save`` wrote to ``path`` (a LoadDataset op naming the file, read again
    at every pass)."""
    from runtime.data.dataset import Dataset
    path = _path(path)
    elements = os.path.join(path, _ELEMENTS)
    if not os.path.exists(elements):
        raise NotFoundError(message=f"Could not find a saved dataset in {path}")
    if element_spec is None:
        with open(os.path.join(path, _SPEC), "rb") as f:
            element_spec = pickle.load(f)
    return Dataset("LoadDataset", [], {"path": elements}, element_spec, "LoadDataset")
