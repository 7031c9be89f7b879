"""The lists and dicts a ``tf.train.Checkpoint`` attribute holds (TensorFlow's ``ListWrapper``,
``_DictWrapper``): containers that tell their owner when they change.

A restore waiting for ``ckpt.listed[0]`` is resumed when the list gains that item (``defer`` /
``notify_changed`` in ``runtime.module``), so ``ckpt.listed = []`` then
``ckpt.listed.append(v)`` restores ``v`` as TensorFlow does.
"""
from __future__ import annotations

import weakref

from runtime.module import notify_changed


def wrap(owner, value):
    """``value`` with its lists and dicts (also nested ones) replaced by wrappers of ``owner``."""
    if isinstance(value, (ListWrapper, _DictWrapper)):
        return value
    if isinstance(value, list):
        return ListWrapper(owner, value)
    if isinstance(value, dict):
        return _DictWrapper(owner, value)
    return value


class _Tracked:
    """Mixin: mutating methods wrap new items and notify the owner afterwards."""

    def _changed(self):
        owner = self._owner()
        if owner is not None:
            notify_changed(owner)


def _mutator(base, method):
    original = getattr(base, method)

    def mutate(self, *args):
        result = original(self, *args)
        self._changed()
        return result
    mutate.__name__ = method
    return mutate


class ListWrapper(_Tracked, list):
    """A list attribute of a Checkpoint."""

    def __init__(self, owner, items=()):
        self._owner = weakref.ref(owner)
        list.__init__(self, (wrap(owner, v) for v in items))

    def append(self, value):
        list.append(self, wrap(self._owner(), value))
        self._changed()

    def extend(self, values):
        list.extend(self, (wrap(self._owner(), v) for v in values))
        self._changed()

    def insert(self, index, value):
        list.insert(self, index, wrap(self._owner(), value))
        self._changed()

    def __setitem__(self, index, value):
        if isinstance(index, slice):
            value = [wrap(self._owner(), v) for v in value]
        else:
            value = wrap(self._owner(), value)
        list.__setitem__(self, index, value)
        self._changed()

    def __iadd__(self, values):
        self.extend(values)
        return self

    for _name in ("__delitem__", "pop", "remove", "clear", "sort", "reverse"):
        locals()[_name] = _mutator(list, _name)
    del _name

    def __repr__(self):
        return f"ListWrapper({list.__repr__(self)})"


class _DictWrapper(_Tracked, dict):
    """A dict attribute of a Checkpoint."""

    def __init__(self, owner, items=()):
        self._owner = weakref.ref(owner)
        dict.__init__(self, {k: wrap(owner, v) for k, v in dict(items).items()})

    def __setitem__(self, key, value):
        dict.__setitem__(self, key, wrap(self._owner(), value))
        self._changed()

    def update(self, *args, **kwargs):
        for k, v in dict(*args, **kwargs).items():
            dict.__setitem__(self, k, wrap(self._owner(), v))
        self._changed()

    def setdefault(self, key, default=None):
        if key not in self:
            self[key] = default
        return dict.__getitem__(self, key)

    for _name in ("__delitem__", "pop", "popitem", "clear"):
        locals()[_name] = _mutator(dict, _name)
    del _name

    def __repr__(self):
        return f"_DictWrapper({dict.__repr__(self)})"
