"""Checkpoint files: ``PREFIX.index`` (JSON) and ``PREFIX.data-00000-of-00001`` (.npz).

The index holds the object graph and, per variable, its key, dtype, shape and
the name of its array in the data file, plus the SHA-256 of the data file and
a checksum of its own content:
a data file that was truncated, replaced or edited, or that belongs to
another index, is an error naming the file, never a silent partial restore.
The data file is an uncompressed ``.npz`` read with ``allow_pickle=False``.
Strings are stored as fixed-width bytes with their lengths. The data file is
written first and the index last, each atomically, so an interrupted write
never leaves a complete-looking checkpoint.

``tf.train.latest_checkpoint`` reads the ``checkpoint`` state file TensorFlow
writes next to the checkpoints (``model_checkpoint_path: "ckpt-3"``).
"""
from __future__ import annotations

import hashlib
import io
import json
import os
import zipfile

import numpy as np

from graph.dtypes import as_dtype
from graph.errors import GraphFormatError, NotFoundError
from runtime.train.object_graph import OBJECT_GRAPH_KEY, ObjectNode

FORMAT_NAME = "autograph-checkpoint"
FORMAT_VERSION = 1
DATA_SUFFIX = ".data-00000-of-00001"
INDEX_SUFFIX = ".index"
STATE_FILE = "checkpoint"


class CheckpointFormatError(GraphFormatError):
    """A checkpoint file is missing a part, truncated, corrupt or hand-edited."""


# -- writing ---------------------------------------------------------------------------------

def write(prefix: str, nodes: list[ObjectNode], values: dict[int, np.ndarray]) -> str:
    """Writes the checkpoint of ``nodes``; ``values`` maps a variable's node id to its value."""
    prefix = os.fspath(prefix)
    directory = os.path.dirname(prefix)
    if directory:
        os.makedirs(directory, exist_ok=True)
    arrays, docs = {}, []
    for i, node in enumerate(nodes):
        doc = {"children": [[n, c] for n, c in node.children]}
        if node.key is not None:
            value = np.asarray(values[i])
            name = f"v{i}"
            dtype = _store(arrays, name, value)
            doc["variable"] = {"key": node.key, "array": name, "dtype": dtype,
                               "shape": list(value.shape)}
        docs.append(doc)
    buffer = io.BytesIO()
    np.savez(buffer, **arrays)
    data = buffer.getvalue()
    _write_atomically(prefix + DATA_SUFFIX, data)
    index = {"format": FORMAT_NAME, "version": FORMAT_VERSION,
             "data": os.path.basename(prefix + DATA_SUFFIX),
             "sha256": hashlib.sha256(data).hexdigest(), "nodes": docs}
    index["checksum"] = _checksum(index)
    _write_atomically(prefix + INDEX_SUFFIX, json.dumps(index, indent=1).encode("utf-8"))
    return prefix


def _checksum(index: dict) -> str:
    body = {k: v for k, v in index.items() if k != "checksum"}
    return hashlib.sha256(json.dumps(body, sort_keys=True).encode("utf-8")).hexdigest()


def _store(arrays: dict, name: str, value: np.ndarray) -> str:
    if value.dtype == np.dtype(object):  # tf.string: bytes of any length, NULs included
        flat = [bytes(x) for x in value.reshape(-1)]
        width = max([len(x) for x in flat] + [1])
        arrays[name] = np.array(flat, dtype=f"S{width}").reshape(value.shape)
        arrays[name + "_lengths"] = np.array([len(x) for x in flat],
                                             dtype=np.int64).reshape(value.shape)
        return "string"
    arrays[name] = value
    return as_dtype(value.dtype).name


def _write_atomically(path: str, data: bytes) -> None:
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        f.write(data)
    os.replace(tmp, path)


def remove(prefix: str) -> None:
    for suffix in (INDEX_SUFFIX, DATA_SUFFIX):
        if os.path.exists(prefix + suffix):
            os.remove(prefix + suffix)


# -- reading ---------------------------------------------------------------------------------

class CheckpointData:
    """A checkpoint read and checked in full: its object graph and every value."""

    def __init__(self, prefix: str, nodes: list[ObjectNode], values: dict[int, np.ndarray],
                 dtypes: dict[int, object], index_text: str):
        self.prefix = prefix
        self.nodes = nodes
        self.values = values   # node id -> numpy value
        self.dtypes = dtypes   # node id -> DType
        self.index_text = index_text

    def by_key(self) -> dict[str, int]:
        return {n.key: i for i, n in enumerate(self.nodes) if n.key is not None}


def read(prefix: str) -> CheckpointData:
    """Reads checkpoint ``prefix``; NotFoundError if absent, CheckpointFormatError if damaged."""
    prefix = os.fspath(prefix)
    index_file = prefix + INDEX_SUFFIX
    try:
        with open(index_file, "rb") as f:
            raw = f.read()
    except FileNotFoundError:
        raise NotFoundError(message=(
            f"Failed to find any matching files for {prefix}: there is no {index_file}. Please "
            "double-check that the path is correct. You may be missing the checkpoint suffix "
            "(e.g. the '-1' in 'path/to/ckpt-1').")) from None
    return _Reader(prefix, index_file).read(raw)


class _Reader:
    def __init__(self, prefix: str, index_file: str):
        self.prefix = prefix
        self.index_file = index_file

    def fail(self, what: str, file: str | None = None) -> CheckpointFormatError:
        return CheckpointFormatError(f"{file or self.index_file}: {what}")

    def read(self, raw: bytes) -> CheckpointData:
        try:
            text = raw.decode("utf-8")
            doc = json.loads(text)
        except (UnicodeDecodeError, json.JSONDecodeError) as e:
            raise self.fail(f"invalid JSON (truncated or corrupt file?): {e}") from None
        if not isinstance(doc, dict) or doc.get("format") != FORMAT_NAME:
            raise self.fail(f"not a checkpoint index: expected format {FORMAT_NAME!r}")
        if doc.get("version") != FORMAT_VERSION:
            raise self.fail(f"unsupported checkpoint version {doc.get('version')!r}; this "
                            f"version reads version {FORMAT_VERSION}")
        if doc.get("checksum") != _checksum(doc):
            raise self.fail("the content does not match its checksum: the file was edited by "
                            "hand or damaged")
        data_name = doc.get("data")
        if data_name != os.path.basename(self.prefix + DATA_SUFFIX):
            raise self.fail(f"names data file {data_name!r}, expected "
                            f"{os.path.basename(self.prefix + DATA_SUFFIX)!r}")
        arrays = self.read_data(self.prefix + DATA_SUFFIX, doc.get("sha256"))
        raw_nodes = doc.get("nodes")
        if not isinstance(raw_nodes, list) or not raw_nodes:
            raise self.fail("field 'nodes' should be a non-empty list of objects")
        nodes, values, dtypes = [], {}, {}
        for i, entry in enumerate(raw_nodes):
            node, value = self.node(i, entry, len(raw_nodes), arrays)
            nodes.append(node)
            if value is not None:
                values[i], dtypes[i] = value
        return CheckpointData(self.prefix, nodes, values, dtypes, text)

    def read_data(self, file: str, digest) -> dict[str, np.ndarray]:
        try:
            with open(file, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise self.fail("the data file is missing (the checkpoint is incomplete)",
                            file) from None
        if not isinstance(digest, str) or hashlib.sha256(data).hexdigest() != digest:
            raise self.fail("the file does not match the SHA-256 recorded in "
                            f"{os.path.basename(self.index_file)}: it is truncated, corrupt, "
                            "edited, or from another checkpoint", file)
        try:
            with np.load(io.BytesIO(data), allow_pickle=False) as npz:
                return {k: npz[k] for k in npz.files}
        except (ValueError, OSError, zipfile.BadZipFile, EOFError) as e:
            raise self.fail(f"cannot read the arrays: {e}", file) from None

    def node(self, i: int, entry, n: int, arrays: dict):
        where = f"node {i}"
        if not isinstance(entry, dict) or not isinstance(entry.get("children"), list):
            raise self.fail(f"{where} should be an object with a 'children' list")
        children = []
        for pair in entry["children"]:
            if not (isinstance(pair, list) and len(pair) == 2 and isinstance(pair[0], str)
                    and _is_index(pair[1], n)):
                raise self.fail(f"{where}: child {pair!r} should be [name, node id < {n}]")
            children.append((pair[0], pair[1]))
        node = ObjectNode(children, None)
        var = entry.get("variable")
        if var is None:
            return node, None
        try:
            key, name, dtype_name, shape = var["key"], var["array"], var["dtype"], var["shape"]
            dtype = as_dtype(dtype_name)
        except (TypeError, KeyError, ValueError) as e:
            raise self.fail(f"{where}: bad variable entry {var!r} ({e})") from None
        if not isinstance(key, str) or name not in arrays:
            raise self.fail(f"{where}: variable {key!r} has no array {name!r} in the data file")
        value = arrays[name]
        if dtype_name == "string":
            value = _strings(value, arrays.get(name + "_lengths"))
            if value is None:
                raise self.fail(f"{where}: string variable {key!r} is damaged")
        elif value.dtype != dtype.numpy_dtype:
            raise self.fail(f"{where}: variable {key!r} holds {value.dtype}, the index says "
                            f"{dtype_name}")
        if not isinstance(shape, list) or list(value.shape) != shape:
            raise self.fail(f"{where}: variable {key!r} has shape {list(value.shape)}, the "
                            f"index says {shape!r}")
        node.key = key
        return node, (value, dtype)


def _is_index(v, n: int) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < n


def _strings(data: np.ndarray, lengths):
    if data.dtype.kind != "S" or lengths is None or lengths.shape != data.shape:
        return None
    out = np.empty(data.shape, dtype=object)
    for idx in np.ndindex(data.shape):
        raw = bytes(data[idx]).ljust(data.dtype.itemsize, b"\0")
        out[idx] = raw[:int(lengths[idx])]
    return out


# -- the state file and the public readers -----------------------------------------------------

def write_state(directory: str, latest: str, all_paths: list[str],
                timestamps: list[float] | None = None, last_preserved: float | None = None):
    """Writes the ``checkpoint`` file as TensorFlow does (paths relative to ``directory``)."""
    rel = lambda p: os.path.relpath(p, directory)  # noqa: E731
    lines = [f'model_checkpoint_path: "{rel(latest)}"']
    lines += [f'all_model_checkpoint_paths: "{rel(p)}"' for p in all_paths]
    lines += [f"all_model_checkpoint_timestamps: {t!r}" for t in timestamps or []]
    if last_preserved is not None:
        lines.append(f"last_preserved_timestamp: {last_preserved!r}")
    _write_atomically(os.path.join(directory, STATE_FILE), ("\n".join(lines) + "\n").encode())


def read_state(directory: str) -> dict | None:
    """The parsed ``checkpoint`` file of ``directory`` (absolute paths), or None."""
    try:
        with open(os.path.join(directory, STATE_FILE), encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return None
    state: dict = {"latest": None, "all": [], "timestamps": [], "last_preserved": None}
    for line in lines:
        key, _, value = line.partition(":")
        value = value.strip()
        if key in ("model_checkpoint_path", "all_model_checkpoint_paths"):
            path = value.strip('"')
            path = path if os.path.isabs(path) else os.path.join(directory, path)
            if key == "model_checkpoint_path":
                state["latest"] = path
            else:
                state["all"].append(path)
        elif key in ("all_model_checkpoint_timestamps", "last_preserved_timestamp"):
            try:
                number = float(value)
            except ValueError:
                continue
            if key == "last_preserved_timestamp":
                state["last_preserved"] = number
            else:
                state["timestamps"].append(number)
    return state


def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint in ``checkpoint_dir``, or None (``tf.train``)."""
    state = read_state(os.fspath(checkpoint_dir))
    if state is None or state["latest"] is None:
        return None
    prefix = state["latest"]
    return prefix if os.path.exists(prefix + INDEX_SUFFIX) else None


def resolve(ckpt_dir_or_file) -> str:
    """A checkpoint prefix from a prefix or a directory (its latest checkpoint)."""
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}")
        return latest
    return path


class CheckpointReader:
    """``tf.train.load_checkpoint``: reads values by key."""

    def __init__(self, prefix: str):
        self._data = read(prefix)
        self._keys = self._data.by_key()

    def get_tensor(self, key: str):
        if key == OBJECT_GRAPH_KEY:
            return self._data.index_text.encode("utf-8")
        if key not in self._keys:
            raise NotFoundError(message=f"Key {key} not found in checkpoint")
        return np.copy(self._data.values[self._keys[key]])

    def has_tensor(self, key: str) -> bool:
        return key in self._keys or key == OBJECT_GRAPH_KEY

    def get_variable_to_shape_map(self) -> dict:
        out = {k: list(self._data.values[i].shape) for k, i in self._keys.items()}
        out[OBJECT_GRAPH_KEY] = []
        return out

    def get_variable_to_dtype_map(self) -> dict:
        from graph import dtypes
        out = {k: self._data.dtypes[i] for k, i in self._keys.items()}
        out[OBJECT_GRAPH_KEY] = dtypes.string
        return out


def load_checkpoint(ckpt_dir_or_file) -> CheckpointReader:
    return CheckpointReader(resolve(ckpt_dir_or_file))


def load_variable(ckpt_dir_or_file, name: str):
    """``tf.train.load_variable``: the numpy value saved under ``name`` (a trailing ``:0``
    is dropped, as TensorFlow drops it)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)


def list_variables(ckpt_dir_or_file) -> list:
    """Sorted ``(key, shape)`` of every value in the checkpoint, as ``tf.train`` lists them."""
    shapes = load_checkpoint(ckpt_dir_or_file).get_variable_to_shape_map()
    return sorted(shapes.items())
