"""``tf.dtypes``: the element types, ``DType``, ``as_dtype`` and ``cast`` as a namespace."""
from graph.dtypes import (DType, as_dtype, bool_ as bool, float16, float32, float64,  # noqa: F401
                          int8, int16, int32, int64, resource, string, uint8, uint16, uint32,
                          uint64, complex64, complex128, variant)
from runtime.ops.complex_ops import complex  # noqa: F401
from runtime.ops.math_ops import cast, saturate_cast  # noqa: F401

double = float64
half = float16

__all__ = ["DType", "as_dtype", "bool", "cast", "complex", "complex64", "complex128", "double",
           "float16", "float32", "float64", "half", "int8", "int16", "int32", "int64", "resource",
           "saturate_cast", "string", "uint8", "uint16", "uint32", "uint64", "variant"]
