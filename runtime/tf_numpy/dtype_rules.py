"""tnp's dtypes and type promotion: numpy's rules (NEP 50) as TensorFlow applies them.

TensorFlow hands ``np.result_type`` the numpy dtypes of tensors and Python numbers as they
are (weak: ``int8 + 1`` stays int8, ``float32 + 1.5`` float32, ``int32 + 1.5`` float64);
with ``prefer_float32`` a Python float first becomes a numpy float32 (strong), so
``tnp.asarray(1.)`` is float32 but ``result_type(int32, 1.5)`` stays float64.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from graph.dtypes import DType, as_dtype
from graph.shapes import TensorShape
from runtime.tensor import Tensor

# tnp's dtype names are numpy's scalar types, as in TensorFlow.
bool_ = np.bool_
int8, int16, int32, int64 = np.int8, np.int16, np.int32, np.int64
uint8, uint16, uint32, uint64 = np.uint8, np.uint16, np.uint32, np.uint64
float16, float32, float64 = np.float16, np.float32, np.float64
complex64, complex128 = np.complex64, np.complex128
int_, float_, complex_ = np.int64, np.float64, np.complex128
object_, string_, unicode_ = np.object_, np.bytes_, np.str_
inexact = np.inexact

_flags = {"prefer_float32": False}


def is_prefer_float32() -> bool:
    return _flags["prefer_float32"]


def set_prefer_float32(value: bool) -> None:
    _flags["prefer_float32"] = bool(value)


def default_float_type() -> DType:
    """float64, or float32 under ``prefer_float32`` (what ``linspace``/``arange`` of
    Python floats give)."""
    return dtypes.float32 if is_prefer_float32() else dtypes.float64


def _numpy_form(x):
    """What ``np.result_type`` is asked about ``x``: a dtype, or a Python number as it is."""
    if isinstance(x, Tensor):
        return x.dtype.numpy_dtype
    if isinstance(x, DType):
        return x.numpy_dtype
    if isinstance(x, TensorShape):
        return np.int32
    if x.__class__ is float and is_prefer_float32():
        return np.float32(x)
    if x.__class__ is complex and is_prefer_float32():
        return np.complex64(x)
    if hasattr(x, "dtype") and isinstance(x.dtype, DType):  # a Variable
        return x.dtype.numpy_dtype
    return x


def _flat(args):
    for a in args:
        if isinstance(a, (list, tuple)):
            yield from _flat(a)
        else:
            yield a


def result_type(*arrays_and_dtypes) -> DType:
    """``tnp.result_type``: the DType numpy's promotion gives for the arguments."""
    forms = [_numpy_form(x) for x in _flat(arrays_and_dtypes)]
    if not forms:
        forms = [np.asarray([])]
    return as_dtype(np.result_type(*forms))


def to_dtype(dtype) -> DType | None:
    """A user's dtype argument (``tnp.float32``, ``float``, ``'int32'``, a DType) as a DType,
    read as numpy reads it (``float`` is float64, ``int`` int64)."""
    if dtype is None:
        return None
    if isinstance(dtype, DType):
        return dtype
    return result_type(dtype)


def issubdtype(arg1, arg2) -> bool:
    return np.issubdtype(_as_numpy(arg1), _as_numpy(arg2))


def _as_numpy(dtype):
    return dtype.numpy_dtype if isinstance(dtype, DType) else dtype


def finfo(dtype):
    """numpy's ``finfo`` of the dtype (a DType, numpy type or tensor)."""
    return np.finfo(_numpy_form(dtype) if not isinstance(dtype, type) else dtype)


def iinfo(dtype):
    return np.iinfo(_numpy_form(dtype) if not isinstance(dtype, type) else dtype)


def promote_types(type1, type2) -> np.dtype:
    """numpy's ``promote_types`` (a numpy dtype, as TensorFlow returns)."""
    return np.promote_types(_as_numpy(type1), _as_numpy(type2))
