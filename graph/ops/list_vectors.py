"""The element stores behind a TensorList value: never changed where a value can see it.

A TensorList flow value must keep reading its own contents after later
writes produced new values from it (a loop may still hold an old flow, and
a captured eager list is shared by every run of a plan). Two stores give
that guarantee, both with the interface ``size``, ``get``, ``set``,
``resized``, ``to_list``; empty slots hold None:

* ``AppendVector`` serves the common pattern, writes in index order
  (``ta.write(i, x)`` for i = 0, 1, 2...): the elements sit in one Python
  list shared by every version along the lineage, each version seeing its
  first ``count`` of them. A write at the end of the shared list appends to
  it in place — O(1), no copy — which no existing version can see. Any other
  write (an overwrite, a gap, or a second write after the same version,
  where the shared list already runs past it) goes to a ``PersistentVector``
  copied once per version, so a lineage that leaves the pattern costs what
  it would have cost anyway.
* ``PersistentVector`` is a 32-way trie copied along one path per ``set``:
  O(log32 n) for any write pattern.
"""
from __future__ import annotations

_BITS = 5
_WIDTH = 1 << _BITS
_MASK = _WIDTH - 1


class PersistentVector:
    """An immutable vector with O(log32 n) ``set``: a trie copied along one path.

    Empty slots hold None. Nodes are lists that are never changed once a
    vector refers to them.
    """

    __slots__ = ("size", "_shift", "_root")

    def __init__(self, size: int = 0, shift: int = 0, root: list | None = None):
        self.size = size
        self._shift = shift
        self._root = root if root is not None else [None] * _WIDTH

    @classmethod
    def from_list(cls, items: list) -> "PersistentVector":
        nodes = [list(items[i:i + _WIDTH]) for i in range(0, len(items), _WIDTH)] or [[]]
        shift = 0
        while len(nodes) > 1:
            nodes = [nodes[i:i + _WIDTH] for i in range(0, len(nodes), _WIDTH)]
            shift += _BITS
        root = nodes[0]
        return cls(len(items), shift, root + [None] * (_WIDTH - len(root)))

    def get(self, i: int):
        if i >> (self._shift + _BITS):  # past the trie's capacity: a slot grown but never set
            return None
        node = self._root
        for level in range(self._shift, 0, -_BITS):
            node = node[(i >> level) & _MASK]
            if node is None:
                return None
        return node[i & _MASK] if i & _MASK < len(node) else None

    def set(self, i: int, value) -> "PersistentVector":
        """A new vector with element ``i`` set (growing the size to ``i + 1`` if needed)."""
        root, shift = self._root, self._shift
        while i >= (1 << (shift + _BITS)):
            root = [root] + [None] * (_WIDTH - 1)
            shift += _BITS
        new_root = list(root)
        node = new_root
        for level in range(shift, 0, -_BITS):
            k = (i >> level) & _MASK
            child = node[k]
            child = list(child) if child is not None else [None] * _WIDTH
            if len(child) < _WIDTH:
                child += [None] * (_WIDTH - len(child))
            node[k] = child
            node = child
        if len(node) < _WIDTH:
            node += [None] * (_WIDTH - len(node))
        node[i & _MASK] = value
        return PersistentVector(max(self.size, i + 1), shift, new_root)

    def resized(self, size: int) -> "PersistentVector":
        if size >= self.size:
            return PersistentVector(size, self._shift, self._root)
        if self.size - size > _WIDTH:
            return PersistentVector.from_list(self.to_list()[:size])
        vec = self  # a pop: clear the dropped slots so that growing again shows None
        for i in range(size, self.size):
            vec = vec.set(i, None)
        return PersistentVector(size, vec._shift, vec._root)

    def to_list(self) -> list:
        out: list = []
        self._collect(self._root, self._shift, out)
        del out[self.size:]
        out += [None] * (self.size - len(out))
        return out

    def _collect(self, node, shift, out) -> None:
        if shift == 0:
            out.extend(node)
            out.extend([None] * (_WIDTH - len(node)))
            return
        for child in node:
            if len(out) >= self.size:
                return
            if child is None:
                out.extend([None] * (1 << shift))
            else:
                self._collect(child, shift - _BITS, out)


class AppendVector:
    """Elements ``0..count-1`` are ``buf[:count]`` (``buf`` shared); ``count..size-1`` unset.

    ``buf`` only ever grows at its end, so what a version sees never
    changes. ``set(count, x)`` appends in place when ``buf`` ends at this
    version, and checks afterwards that its element landed at ``count``
    (another thread may have appended first; then the write copies).
    """

    __slots__ = ("size", "count", "buf", "_persistent")

    def __init__(self, buf: list, count: int, size: int):
        self.buf = buf
        self.count = count
        self.size = size
        self._persistent = None

    @classmethod
    def from_list(cls, items: list) -> "AppendVector":
        return cls(list(items), len(items), len(items))

    def get(self, i: int):
        return self.buf[i] if i < self.count else None

    def set(self, i: int, value):
        """A new vector with element ``i`` set (growing the size to ``i + 1`` if needed)."""
        buf = self.buf
        if i == self.count == len(buf):
            buf.append(value)
            if buf[i] is value:
                return AppendVector(buf, i + 1, self.size if i < self.size else i + 1)
        return self.persistent().set(i, value)

    def persistent(self) -> PersistentVector:
        """This vector's contents as a PersistentVector, copied once (later writes share it)."""
        if self._persistent is None:
            self._persistent = PersistentVector.from_list(self.to_list())
        return self._persistent

    def resized(self, size: int) -> "AppendVector":
        return AppendVector(self.buf, min(self.count, size), size)

    def to_list(self) -> list:
        out = self.buf[:self.count]
        out += [None] * (self.size - self.count)
        return out
