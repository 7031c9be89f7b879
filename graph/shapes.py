"""Static shapes whose rank or dimensions may be unknown (``None``)."""
from __future__ import annotations

from typing import Iterable


class TensorShape:
    """A possibly partially known shape, printed the way TensorFlow prints it."""

    __slots__ = ("_dims",)

    def __init__(self, dims: Iterable[int | None] | None):
        if dims.__class__ is tuple:  # (a numpy shape: plain ints, kept as they are)
            for d in dims:
                if d.__class__ is not int:
                    break
            else:
                self._dims = dims
                return
        if isinstance(dims, TensorShape):
            dims = dims._dims
        if dims is None:
            self._dims = None
        else:
            self._dims = tuple([None if d is None else int(d) for d in dims])

    # -- introspection --------------------------------------------------
    @property
    def dims(self):
        return None if self._dims is None else list(self._dims)

    @property
    def rank(self) -> int | None:
        return None if self._dims is None else len(self._dims)

    ndims = rank

    def as_list(self) -> list:
        if self._dims is None:
            raise ValueError("as_list() is not defined on an unknown TensorShape.")
        return list(self._dims)

    def as_tuple(self):
        return self._dims

    def is_fully_defined(self) -> bool:
        return self._dims is not None and None not in self._dims

    def num_elements(self) -> int | None:
        if not self.is_fully_defined():
            return None
        n = 1
        for d in self._dims:
            n *= d
        return n

    # -- compatibility --------------------------------------------------
    def assert_is_compatible_with(self, other) -> None:
        """Raises ValueError unless ``other`` could be the same shape (TensorFlow's message)."""
        if not self.is_compatible_with(as_shape(other)):
            raise ValueError(f"Shapes {self} and {other} are incompatible")

    def is_compatible_with(self, other) -> bool:
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return True
        if len(self._dims) != len(other._dims):
            return False
        return all(a is None or b is None or a == b for a, b in zip(self._dims, other._dims))

    def is_subtype_of(self, other) -> bool:
        """True when every value of this shape also fits ``other``."""
        other = as_shape(other)
        if other._dims is None:
            return True
        if self._dims is None or len(self._dims) != len(other._dims):
            return False
        return all(b is None or a == b for a, b in zip(self._dims, other._dims))

    def most_specific_compatible_shape(self, other) -> "TensorShape":
        """The most specific shape that both this and ``other`` fit (unknown where they differ)."""
        other = as_shape(other)
        if self._dims is None or other._dims is None or len(self._dims) != len(other._dims):
            return TensorShape(None)
        return TensorShape([a if a == b else None for a, b in zip(self._dims, other._dims)])

    def merge_with(self, other) -> "TensorShape":
        other = as_shape(other)
        if not self.is_compatible_with(other):
            raise ValueError(f"Shapes {self} and {other} are not compatible")
        if self._dims is None:
            return other
        if other._dims is None:
            return self
        return TensorShape([a if a is not None else b for a, b in zip(self._dims, other._dims)])

    def most_specific_common_supertype(self, others) -> "TensorShape":
        """The most specific shape that this and every shape of ``others`` fit."""
        shape = self
        for other in others:
            shape = shape.most_specific_compatible_shape(other)
        return shape

    def concatenate(self, other) -> "TensorShape":
        """This shape's dimensions followed by ``other``'s (unknown if either rank is)."""
        other = as_shape(other)
        if self._dims is None or other._dims is None:
            return TensorShape(None)
        return TensorShape(self._dims + other._dims)

    def __add__(self, other) -> "TensorShape":
        """``shape + [3]`` concatenates, as TensorFlow's TensorShape does."""
        return self.concatenate(other)

    def __radd__(self, other) -> "TensorShape":
        return as_shape(other).concatenate(self)

    # -- rank checks (ValueError with TensorFlow's messages) ------------------
    def with_rank(self, rank: int) -> "TensorShape":
        """This shape, known to have ``rank`` dimensions (unknown dims if its rank was)."""
        if self._dims is None:
            return TensorShape([None] * rank)
        if len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")
        return self

    def with_rank_at_least(self, rank: int) -> "TensorShape":
        if self._dims is not None and len(self._dims) < rank:
            raise ValueError(f"Shape {self} must have rank at least {rank}")
        return self

    def with_rank_at_most(self, rank: int) -> "TensorShape":
        if self._dims is not None and len(self._dims) > rank:
            raise ValueError(f"Shape {self} must have rank at most {rank}")
        return self

    def assert_has_rank(self, rank: int) -> None:
        if self._dims is not None and len(self._dims) != rank:
            raise ValueError(f"Shape {self} must have rank {rank}")

    def assert_same_rank(self, other) -> None:
        other = as_shape(other)
        if self._dims is not None and other._dims is not None and \
                len(self._dims) != len(other._dims):
            raise ValueError(f"Shapes {self} and {other} must have the same rank")

    def assert_is_fully_defined(self) -> None:
        if not self.is_fully_defined():
            raise ValueError(f"Shape {self} is not fully defined")

    # -- python protocol ------------------------------------------------
    def __len__(self) -> int:
        if self._dims is None:
            raise ValueError("Cannot take the length of a shape with unknown rank.")
        return len(self._dims)

    def __iter__(self):
        if self._dims is None:
            raise ValueError("Cannot iterate over a shape with unknown rank.")
        return iter(self._dims)

    def __getitem__(self, key):
        if self._dims is None:
            return TensorShape(None) if isinstance(key, slice) else None
        if isinstance(key, slice):
            return TensorShape(self._dims[key])
        return self._dims[key]

    def __eq__(self, other) -> bool:
        try:
            other = as_shape(other)
        except (TypeError, ValueError):
            return NotImplemented
        return self._dims == other._dims

    def __hash__(self) -> int:
        return hash(self._dims)

    def __bool__(self) -> bool:
        return self._dims is not None

    def __str__(self) -> str:
        if self._dims is None:
            return "<unknown>"
        if len(self._dims) == 1:
            return f"({self._dims[0]},)"
        return "(" + ", ".join(str(d) for d in self._dims) + ")"

    def __repr__(self) -> str:
        if self._dims is None:
            return "TensorShape(None)"
        return f"TensorShape({list(self._dims)})"


def as_shape(value) -> TensorShape:
    if isinstance(value, TensorShape):
        return value
    if value is None:
        return TensorShape(None)
    if isinstance(value, int):
        return TensorShape([value])
    return TensorShape(value if value.__class__ is tuple else list(value))


def broadcast_shapes(a: TensorShape, b: TensorShape) -> TensorShape:
    """Numpy broadcasting on static shapes; raises ValueError when incompatible."""
    x, y = a._dims, b._dims
    if x is None or y is None:
        return TensorShape(None)
    if x == y or not y:  # (shapes are immutable: the common cases return an operand)
        return a
    if not x:
        return b
    x, y = list(x), list(y)
    n = max(len(x), len(y))
    x = [1] * (n - len(x)) + x
    y = [1] * (n - len(y)) + y
    out = []
    for p, q in zip(x, y):
        if p == 1:
            out.append(q)
        elif q == 1:
            out.append(p)
        elif p is None or q is None:
            out.append(p if q is None else q)
        elif p == q:
            out.append(p)
        else:
            raise ValueError(f"Incompatible shapes: {a} vs. {b}")
    shape = _new_shape(TensorShape)  # (the dims are ints or None already)
    shape._dims = tuple(out)
    return shape


_new_shape = object.__new__
