"""``tf.dtypes``: the element types, ``DType``, ``as_dtype`` and ``cast`` as a namespace."""
from graph.dtypes import (DType, as_dtype, bool_ as bool, float16, float32, float64,  # noqa: F401
                          int8, int16, int32, int64, resource, string, uint8, variant)
from runtime.ops.math_ops import cast  # noqa: F401

double = float64
half = float16

__all__ = ["DType", "as_dtype", "bool", "cast", "double", "float16", "float32", "float64",
           "half", "int8", "int16", "int32", "int64", "resource", "string", "uint8", "variant"]
