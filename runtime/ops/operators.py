"""Installs Python operators on Tensor (``x + y``, ``x > 0``, ``-x``...)."""
from __future__ import annotations

from runtime.ops import math_ops
from runtime.tensor import Tensor


def _flip(fn):
    return lambda self, other: fn(other, self)


_BINARY = {
    "add": math_ops.add,
    "sub": math_ops.subtract,
    "mul": math_ops.multiply,
}
for _name, _fn in _BINARY.items():
    setattr(Tensor, f"__{_name}__", lambda self, other, _fn=_fn: _fn(self, other))
    setattr(Tensor, f"__r{_name}__", lambda self, other, _fn=_fn: _fn(other, self))

Tensor.__gt__ = lambda self, other: math_ops.greater(self, other)
Tensor.__ge__ = lambda self, other: math_ops.greater_equal(self, other)
Tensor.__lt__ = lambda self, other: math_ops.less(self, other)
Tensor.__le__ = lambda self, other: math_ops.less_equal(self, other)
Tensor.__neg__ = lambda self: math_ops.negative(self)
