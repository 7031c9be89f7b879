"""``tf.train.Checkpoint``: save the variables of an object graph, restore them by path.

Restoring walks the checkpoint's object graph and the live objects together
from the root, edge by edge (attribute names, list indices, dict keys), as
TensorFlow matches them. A saved edge with no live object yet is deferred on
the nearest live object (``runtime.module.defer``): when that object later
gains the attribute — a layer building its weights, an optimizer creating
its slots — the value is restored then (restore-on-create).
"""
from __future__ import annotations

import os
import weakref

import numpy as np

from runtime import context
from runtime.module import defer, is_trackable, notify_changed, trackable_children
from runtime.trace_type import is_variable
from runtime.train import checkpoint_io, object_graph
from runtime.train.data_structures import wrap


class Checkpoint:
    """Groups trackable objects (Modules, Variables, optimizers...) to save and restore them."""

    def __init__(self, root=None, **kwargs):
        children = dict(sorted(kwargs.items()))  # (by name, as TensorFlow orders them)
        if root is not None:
            _check_trackable("root", root)
            for name, child in trackable_children(root).items():
                children.setdefault(name, child)
        for name, value in kwargs.items():
            _check_trackable(name, value)
        object.__setattr__(self, "_children", {k: wrap(self, v) for k, v in children.items()})
        object.__setattr__(self, "_save_counter", None)

    def _trackable_children(self) -> dict:
        out = dict(self._children)
        if self._save_counter is not None:
            out["save_counter"] = self._save_counter
        return out

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        raise AttributeError(f"'Checkpoint' object has no attribute {name!r}")

    def __setattr__(self, name, value):
        """``ckpt.x = v`` adds (or replaces) a dependency, as on TensorFlow's AutoTrackable;
        a restore waiting for ``x`` takes it."""
        if name.startswith("_"):
            object.__setattr__(self, name, value)
            return
        self._children[name] = wrap(self, value)
        notify_changed(self)

    def __delattr__(self, name):
        if name in self.__dict__.get("_children", {}):
            del self._children[name]
        else:
            object.__delattr__(self, name)

    @property
    def save_counter(self):
        """How many times ``save`` ran (an int64 Variable, created on first use)."""
        if self._save_counter is None:
            from runtime.variables import Variable
            with context.init_scope():
                self._save_counter = Variable(np.int64(0), trainable=False, name="save_counter")
            notify_changed(self)
        return self._save_counter

    # -- saving ------------------------------------------------------------------------------
    def write(self, file_prefix, options=None) -> str:
        """Writes exactly ``file_prefix`` (no numbering, no state file, no save_counter unless
        ``save`` or ``restore`` made it, as in TensorFlow)."""
        nodes, objects = object_graph.build(self)
        values = {i: object_graph.saved_value(obj) for i, (obj, node) in
                  enumerate(zip(objects, nodes)) if node.key is not None}
        return checkpoint_io.write(os.fspath(file_prefix), nodes, values)

    def save(self, file_prefix, options=None) -> str:
        """Writes ``file_prefix-N`` (N counts the saves) and records it as the latest."""
        with context.init_scope():
            number = int(self.save_counter.assign_add(np.int64(1)).numpy())
        path = self.write(f"{os.fspath(file_prefix)}-{number}")
        directory = os.path.dirname(os.path.abspath(path))
        checkpoint_io.write_state(directory, os.path.abspath(path), [os.path.abspath(path)])
        return path

    # -- restoring ---------------------------------------------------------------------------
    def restore(self, save_path, options=None):
        """Restores what matches now and what is created later; returns a load status.

        ``save_path`` is a prefix, a directory (its latest checkpoint) or a
        SavedModel directory (its variables); None restores nothing.
        """
        if save_path is None:
            return InitializationOnlyStatus()
        path = os.fspath(save_path)
        saved_model_variables = os.path.join(path, "variables", "variables")
        if os.path.isfile(saved_model_variables + checkpoint_io.INDEX_SUFFIX):
            path = saved_model_variables
        prefix = checkpoint_io.resolve(path)
        data = checkpoint_io.read(prefix)
        _ = self.save_counter
        return _Restore(data, self).start()

    def read(self, save_path, options=None):
        """Restores from exactly ``save_path`` (as written by ``write``)."""
        return _Restore(checkpoint_io.read(os.fspath(save_path)), self).start()


def _check_trackable(name: str, value) -> None:
    if not is_trackable(value) and not isinstance(value, (list, tuple, dict)):
        raise ValueError(f"`Checkpoint` was expecting {name} to be a trackable object (an "
                         f"object derived from `Trackable`), got {value!r}. If you believe "
                         "this object should be trackable (i.e. it is part of the TensorFlow "
                         "Python API and manages state), please open an issue.")


# -- matching a checkpoint with live objects ---------------------------------------------------

class _Restore:
    """One restore: the matched nodes, and the edges still waiting for their object."""

    def __init__(self, data, root):
        self.data = data
        self.root = root
        self.matched: dict[int, object] = {}       # node id -> live object
        self.pending: list = []                    # [weakref(owner), path, node id]

    def start(self) -> "CheckpointLoadStatus":
        self.match(0, self.root, self.root, ())
        return CheckpointLoadStatus(self)

    def match(self, node_id: int, live, owner, path: tuple) -> None:
        if node_id in self.matched:
            return
        self.matched[node_id] = live
        node = self.data.nodes[node_id]
        if node.key is not None:
            _restore_value(live, self.data.values[node_id], node.key)
        if hasattr(live, "__dict__") and not is_variable(live):
            owner, path = live, ()
        children = trackable_children(live)
        for name, child_id in node.children:
            if name in children:
                self.match(child_id, children[name], owner, path + (name,))
            elif hasattr(owner, "__dict__"):
                self.wait(owner, path + (name,), child_id)

    def wait(self, owner, path: tuple, node_id: int) -> None:
        if not any(o() is owner for o, _, _ in self.pending):
            defer(owner, self.retry)
        self.pending.append((weakref.ref(owner), path, node_id))

    def retry(self, _changed=None) -> bool:
        """Matches the waiting edges whose objects now exist; True when none is left."""
        waiting, self.pending = self.pending, []
        for ref, path, node_id in waiting:
            owner = ref()
            if owner is None:
                continue
            live, found_owner, rest = owner, owner, ()
            for name in path:
                children = trackable_children(live)
                if name not in children:
                    live = None
                    break
                live = children[name]
                rest += (name,)
                if hasattr(live, "__dict__") and not is_variable(live):
                    found_owner, rest = live, ()
            if live is None:
                self.pending.append((ref, path, node_id))
            else:
                self.match(node_id, live, found_owner, rest)
        return not self.pending

    # -- what the status reports ---------------------------------------------------------------
    def unmatched_nodes(self) -> list[int]:
        """Checkpoint objects never matched, variables first."""
        nodes = [i for i, n in enumerate(self.data.nodes)
                 if i not in self.matched and (n.key is not None or n.children)]
        return sorted(nodes, key=lambda i: self.data.nodes[i].key is None)

    def unmatched_objects(self) -> list:
        _, objects = object_graph.build(self.root)
        matched = {id(o) for o in self.matched.values()}
        # (lists and dicts are walked, not matched: an optimizer's `_variables` is a new list
        # each time it is asked for)
        return [o for o in objects if id(o) not in matched
                and not isinstance(o, (list, tuple, dict))]


def _restore_value(live, value: np.ndarray, key: str) -> None:
    """Gives ``live`` its checkpointed ``value``: a variable's, or an object's own state."""
    if is_variable(live):
        _assign(live, value, key)
    elif key.rsplit("/", 1)[-1] == getattr(live, "_checkpoint_state_name", None):
        with context.init_scope():
            live._restore_checkpoint_state(value)
    else:
        raise ValueError(f"The checkpoint holds a value at {key}, but the object there is a "
                         f"{type(live).__name__}")


def _assign(var, value: np.ndarray, key: str) -> None:
    if not var.shape.is_compatible_with(value.shape):
        raise ValueError(f"Received incompatible tensor with shape {value.shape} when attempting "
                         f"to restore variable with shape {var.shape} and name {key}.")
    if value.dtype != var.dtype.numpy_dtype:
        raise TypeError(f"The checkpoint value of {key} has dtype {value.dtype}, but the "
                        f"variable {var.name} has dtype {var.dtype.name}.")
    with context.init_scope():
        var.assign(value)


class CheckpointLoadStatus:
    """What ``Checkpoint.restore`` returns: checks of how well the checkpoint matched."""

    def __init__(self, restore: _Restore):
        self._restore = restore

    def assert_consumed(self):
        """Every checkpointed value was restored and every live object got a value."""
        r = self._restore
        nodes = r.unmatched_nodes()
        if nodes:
            where = object_graph.describe_path(r.data.nodes, nodes[0])
            more = f" (and {len(nodes) - 1} more)" if len(nodes) > 1 else ""
            raise AssertionError(f"Unresolved object in checkpoint {where}: "
                                 f"{self._describe(nodes[0])}{more}")
        self.assert_existing_objects_matched()
        return self

    def assert_existing_objects_matched(self):
        """Every object that exists now was matched with the checkpoint."""
        missing = self._restore.unmatched_objects()
        if missing:
            raise AssertionError(f"Object not assigned a value from checkpoint: {missing[0]!r}"
                                 + (f" (and {len(missing) - 1} more)" if len(missing) > 1
                                    else ""))
        return self

    def assert_nontrivial_match(self):
        """Something besides the root was matched."""
        r = self._restore
        if not any(r.data.nodes[i].key is not None and r.matched[i] is not r.root._save_counter
                   for i in r.matched if i):
            raise AssertionError("Nothing except the root object matched a checkpointed value. "
                                 "Typically this means that the checkpoint does not match the "
                                 "Python program.")
        return self

    def expect_partial(self):
        """Says that a partial restore is intended (nothing is reported about it)."""
        return self

    def _describe(self, node_id: int) -> str:
        node = self._restore.data.nodes[node_id]
        if node.key is not None:
            return f"the value {node.key!r}"
        names = ", ".join(n for n, _ in node.children)
        return f"an object with children [{names}]"


class InitializationOnlyStatus:
    """The status of ``restore(None)``: nothing is restored."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    assert_existing_objects_matched = assert_consumed

    def assert_nontrivial_match(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    def expect_partial(self):
        return self
