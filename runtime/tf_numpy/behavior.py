"""``tnp.experimental_enable_numpy_behavior``: numpy's methods and indexing on tensors and
numpy's type promotion in Python operators (``int32 + float64`` and ``int32 + 1.5`` are
float64).

Until it is called, tensors keep TensorFlow's strict dtypes and have none of these methods.
The operators are reinstalled with a promoting step only when promotion is turned on, so
the default operators stay as fast as they are.
"""
from __future__ import annotations

import numpy as np

from runtime.ops import array_ops, math_ops, operators
from runtime.tensor import EagerTensor, Tensor
from runtime.tf_numpy import dtype_rules, elementwise, indexing, reductions, shaping
from runtime.tf_numpy.creation import asarray

_MODES = ("off", "legacy", "safe", "all")
_PLAIN = (bool, int, float, complex)


def experimental_enable_numpy_behavior(prefer_float32: bool = False,
                                       dtype_conversion_mode: str = "legacy") -> None:
    """Turns on numpy's methods on tensors and, in ``'legacy'`` mode, numpy's promotion in
    operators; ``prefer_float32`` makes Python floats float32 in tnp's type inference."""
    if dtype_conversion_mode not in _MODES:
        raise ValueError(f"The provided promotion mode {dtype_conversion_mode} does not exist. "
                         "Make sure the provided dtype conversion mode is one of the "
                         "followings: 'off', 'legacy', 'safe' or 'all'.")
    if dtype_conversion_mode in ("safe", "all"):
        raise NotImplementedError(
            f"dtype_conversion_mode={dtype_conversion_mode!r} (TensorFlow's auto dtype "
            "conversion lattice) is not implemented; use 'legacy' (numpy's promotion in "
            "operators) or 'off' (TensorFlow's strict dtypes).")
    dtype_rules.set_prefer_float32(prefer_float32)
    _install_methods(Tensor)
    operators.set_operand_promotion(promote_operands if dtype_conversion_mode == "legacy"
                                    else None)


def _is_operand(x) -> bool:
    return (isinstance(x, (Tensor, list, tuple)) or x.__class__ in _PLAIN
            or hasattr(x, "_as_tensor") or hasattr(x, "__array__") or hasattr(x, "dtype"))


def promote_operands(x, y):
    """Both operands as tensors of their numpy result type (tensors cast, other values
    converted as numpy converts them: an out-of-range Python int wraps, as in TensorFlow)."""
    if isinstance(x, Tensor) and isinstance(y, Tensor) and x.dtype == y.dtype:
        return x, y
    if not (_is_operand(x) and _is_operand(y)):
        return x, y  # a foreign object may take the reflected operator
    dtype = dtype_rules.result_type(x, y)
    return asarray(x, dtype), asarray(y, dtype)


# -- numpy's methods on tensors --------------------------------------------------------------

def _reshape(self, *newshape, order: str = "C"):
    if len(newshape) == 1 and not isinstance(newshape[0], int):
        newshape = newshape[0]
    return shaping.reshape(self, newshape, order=order)


def _astype(self, dtype):
    dtype = dtype_rules.to_dtype(dtype)
    return self if self.dtype == dtype else math_ops.cast(self, dtype)


def _size(self):
    n = self.shape.num_elements()
    return None if n is None else np.int64(n)


def _tolist(self):
    if not isinstance(self, EagerTensor):
        return self.numpy()  # raises TensorFlow's AttributeError for symbolic tensors
    return self._value.tolist()


_METHODS = {
    "T": property(lambda self: array_ops.transpose(self)),
    "data": property(lambda self: self),
    "size": property(_size),
    "__pos__": lambda self: self,
    "astype": _astype,
    "clip": lambda self, a_min, a_max: elementwise.clip(self, a_min, a_max),
    "flatten": lambda self, order="C": shaping.flatten(self, order),
    "max": lambda self, axis=None, keepdims=False: reductions.amax(self, axis, keepdims),
    "min": lambda self, axis=None, keepdims=False: reductions.amin(self, axis, keepdims),
    "mean": lambda self, axis=None, dtype=None, out=None, keepdims=False: reductions.mean(
        self, axis, dtype, out, keepdims),
    "ravel": lambda self: shaping.ravel(self),
    "reshape": _reshape,
    "tolist": _tolist,
    "transpose": lambda self, axes=None: shaping.transpose(self, axes),
}


def _disable_numpy_behavior() -> None:
    """Back to TensorFlow's defaults (tests use it; TensorFlow itself has no way back)."""
    dtype_rules.set_prefer_float32(False)
    operators.set_operand_promotion(None)
    for name in _METHODS:
        if Tensor.__dict__.get(name) is _METHODS[name]:
            delattr(Tensor, name)
    getitem = Tensor.__dict__["__getitem__"]
    if getattr(getitem, "_numpy_indexing", False):
        Tensor.__getitem__ = getitem._basic


def _install_methods(cls) -> None:
    for name, method in _METHODS.items():
        if name not in cls.__dict__:
            setattr(cls, name, method)
    basic = cls.__getitem__
    if getattr(basic, "_numpy_indexing", False):
        return

    def __getitem__(self, key):
        return indexing.getitem(self, key, basic)
    __getitem__._numpy_indexing = True
    __getitem__._basic = basic
    cls.__getitem__ = __getitem__
