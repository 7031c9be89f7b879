"""How a compiled program's results travel back to numpy, in as few device buffers as possible.

Every buffer a jitted call returns costs on the host: JAX wraps it in an
``Array`` (~1 us) and ``np.asarray`` reads it (~1.5 us). So the small
results of one dtype whose shapes inference knows are flattened into one
buffer inside the program (a copy of a few elements) and split on the host
into views and numpy scalars — what the numpy backend returns for 0-d
values. Large results (a copy would cost more than a buffer) and results of
unknown shape come back as buffers of their own.

``Layout.pack`` runs while JAX traces; ``Layout.unpack`` is a function
generated once per plan: ``results -> tuple of numpy values``.
"""
from __future__ import annotations

import numpy as np

from graph.ir import TensorType

PACK_LIMIT = 4096  # elements of one packed buffer: above it a copy costs more than a buffer


def _packable(t: TensorType) -> bool:
    return (t.shape.is_fully_defined() and t.dtype.numpy_dtype.kind in "biufc"
            and t.shape.num_elements() <= PACK_LIMIT)


class Layout:
    """Which results share a buffer: ``groups`` (lists of result indices of one dtype), then
    one buffer per ``loose`` result, in that order."""

    def __init__(self, types: list[TensorType]):
        by_dtype: dict[np.dtype, list[int]] = {}
        for i, t in enumerate(types):
            if _packable(t):
                by_dtype.setdefault(t.dtype.numpy_dtype, []).append(i)
        self.groups: list[list[int]] = []
        for members in by_dtype.values():
            group: list[int] = []
            size = 0
            for i in members:
                n = types[i].shape.num_elements()
                if size + n > PACK_LIMIT:
                    self.groups.append(group)
                    group, size = [], 0
                group.append(i)
                size += n
            self.groups.append(group)
        self.groups = [g for g in self.groups if len(g) > 1]
        grouped = {i for g in self.groups for i in g}
        self.loose = [i for i in range(len(types)) if i not in grouped]
        self.types = types
        self.unpack = self._unpacker()

    @property
    def n_buffers(self) -> int:
        return len(self.groups) + len(self.loose)

    def pack(self, results):
        """The program's buffers for ``results`` (traced values or compile-time numpy)."""
        import jax.numpy as jnp
        for group in self.groups:
            for i in group:
                if np.shape(results[i]) != self.types[i].shape.as_tuple():
                    raise ValueError(f"Result {i} has shape {np.shape(results[i])}, but "
                                     f"inference gave {self.types[i]}")
        buffers = [jnp.concatenate([jnp.ravel(jnp.asarray(results[i],
                                                          self.types[i].dtype.numpy_dtype))
                                    for i in group]) for group in self.groups]
        buffers += [results[i] for i in self.loose]
        return buffers[0] if len(buffers) == 1 else tuple(buffers)

    def _unpacker(self):
        """``unpack(buffers)`` (one buffer: the buffer itself) -> the results as numpy."""
        n = self.n_buffers
        names = [f"r{k}" for k in range(n)]
        lines = [f"def unpack({names[0]}):" if n == 1 else "def unpack(buffers):"]
        if n > 1:
            lines.append(f"    {', '.join(names)}, = buffers")
        expr: dict[int, str] = {}
        for k, group in enumerate(self.groups):
            lines.append(f"    b{k} = asarray(r{k})")
            offset = 0
            for i in group:
                shape = self.types[i].shape.as_tuple()
                size = self.types[i].shape.num_elements()
                expr[i] = (f"b{k}[{offset}]" if shape == () else
                           f"b{k}[{offset}:{offset + size}].reshape({shape!r})")
                offset += size
        for k, i in enumerate(self.loose, start=len(self.groups)):
            expr[i] = f"asarray(r{k})"
        items = "".join(f"{expr[i]}, " for i in range(len(self.types)))
        lines.append(f"    return ({items})")
        namespace = {"asarray": np.asarray}
        exec(compile("\n".join(lines), "<xla outputs>", "exec"), namespace)
        return namespace["unpack"]
