"""Element types, named and defaulted the way TensorFlow does.

Strings are numpy object arrays holding ``bytes`` (TensorFlow strings are
byte strings: ``"a" + "a"`` is ``b'aa'``).
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from graph.errors import TensorConversionError
from graph.shapes import TensorShape


@dataclass(frozen=True, slots=True)
class DType:
    name: str
    numpy_dtype: np.dtype
    enum: str  # the DT_* name used in graph listings

    @property
    def as_numpy_dtype(self):
        return self.numpy_dtype.type

    @property
    def is_floating(self) -> bool:
        return self.numpy_dtype.kind == "f"

    @property
    def is_complex(self) -> bool:
        return self.numpy_dtype.kind == "c"

    @property
    def real_dtype(self) -> "DType":
        """The dtype of the real and imaginary parts (the dtype itself when not complex)."""
        return _BY_NUMPY[np.dtype(self.numpy_dtype.char.lower())] if self.is_complex else self

    @property
    def is_unsigned(self) -> bool:
        return self.numpy_dtype.kind == "u"

    @property
    def is_integer(self) -> bool:
        return self.numpy_dtype.kind in "iu"

    @property
    def is_bool(self) -> bool:
        return self.numpy_dtype.kind == "b"

    @property
    def is_string(self) -> bool:
        return self.name == "string"

    @property
    def is_numeric(self) -> bool:
        return self.is_floating or self.is_integer or self.is_complex

    @property
    def is_real(self) -> bool:
        """Floats and integers: what ordering ops (max, argmax, range...) take."""
        return self.is_floating or self.is_integer

    @property
    def min(self):
        self._check_ordered("minimum")
        return np.finfo(self.numpy_dtype).min if self.is_floating else np.iinfo(self.numpy_dtype).min

    @property
    def max(self):
        self._check_ordered("maximum")
        return np.finfo(self.numpy_dtype).max if self.is_floating else np.iinfo(self.numpy_dtype).max

    @property
    def size(self) -> int:
        """Bytes per element, as TensorFlow counts them (a string: 0, a resource handle: 1)."""
        return {"resource": 1, "string": 0}.get(self.name, self.numpy_dtype.itemsize)

    @property
    def as_datatype_enum(self) -> int:
        """TensorFlow's DataType number (DT_FLOAT = 1, DT_INT32 = 3...)."""
        return _DATATYPE_NUMBERS[self.enum]

    @property
    def base_dtype(self) -> "DType":
        """The dtype itself (TensorFlow's reference dtypes are gone in TF 2)."""
        return self

    @property
    def is_quantized(self) -> bool:
        return False

    @property
    def is_numpy_compatible(self) -> bool:
        return self.name not in ("resource", "variant")

    @property
    def limits(self) -> tuple:
        """TensorFlow's image value range of the dtype with its minimum clipped to 0: (0, max)
        for integers, (0, True) for bool, (0, 1) for float32/float64; ValueError otherwise."""
        if self.is_integer:
            return 0, int(np.iinfo(self.numpy_dtype).max)
        if self.is_bool:
            return 0, True
        if self.name in ("float32", "float64"):
            return 0, 1
        raise ValueError(f"{self} does not have defined limits.")

    def is_compatible_with(self, other) -> bool:
        """Whether a value of ``other`` fits this dtype: the same dtype."""
        return self == as_dtype(other)

    def _check_ordered(self, which: str) -> None:
        if not self.is_real:
            raise TypeError(f"Cannot find {which} value of {self} with type {self}.")

    def __reduce__(self):
        """Pickles by name, so an unpickled dtype is the same object (``dtype is string``)."""
        return as_dtype, (self.name,)

    def __eq__(self, other) -> bool:
        """As TensorFlow's: equal to what ``as_dtype`` makes the same dtype from
        (``tf.float32 == "float32"``, ``== np.float32``); unequal to anything else."""
        if other.__class__ is DType:
            return self is other or self.name == other.name
        if other is None:
            return False
        try:
            return self is as_dtype(other)
        except (TypeError, ValueError):
            return False

    def __repr__(self) -> str:
        return f"tf.{self.name}"

    def __str__(self) -> str:
        return f"<dtype: {self.name!r}>"  # as TensorFlow prints a dtype; repr stays tf.float32


def _make(name: str, np_dtype, enum: str) -> DType:
    return DType(name, np.dtype(np_dtype), enum)


float16 = _make("float16", np.float16, "DT_HALF")
float32 = _make("float32", np.float32, "DT_FLOAT")
float64 = _make("float64", np.float64, "DT_DOUBLE")
int8 = _make("int8", np.int8, "DT_INT8")
int16 = _make("int16", np.int16, "DT_INT16")
int32 = _make("int32", np.int32, "DT_INT32")
int64 = _make("int64", np.int64, "DT_INT64")
uint8 = _make("uint8", np.uint8, "DT_UINT8")
uint16 = _make("uint16", np.uint16, "DT_UINT16")
uint32 = _make("uint32", np.uint32, "DT_UINT32")
uint64 = _make("uint64", np.uint64, "DT_UINT64")
complex64 = _make("complex64", np.complex64, "DT_COMPLEX64")
complex128 = _make("complex128", np.complex128, "DT_COMPLEX128")
bool_ = _make("bool", np.bool_, "DT_BOOL")
string = _make("string", object, "DT_STRING")
resource = _make("resource", object, "DT_RESOURCE")
variant = _make("variant", object, "DT_VARIANT")

# TensorFlow's types.proto numbers for the DT_* names
_DATATYPE_NUMBERS = {
    "DT_FLOAT": 1, "DT_DOUBLE": 2, "DT_INT32": 3, "DT_UINT8": 4, "DT_INT16": 5, "DT_INT8": 6,
    "DT_STRING": 7, "DT_COMPLEX64": 8, "DT_INT64": 9, "DT_BOOL": 10, "DT_COMPLEX128": 18,
    "DT_HALF": 19, "DT_RESOURCE": 20, "DT_VARIANT": 21, "DT_UINT16": 17, "DT_UINT32": 22,
    "DT_UINT64": 23}
ALL = (float16, float32, float64, int8, int16, int32, int64, uint8, uint16, uint32, uint64,
       complex64, complex128, bool_, string, resource, variant)
_BY_NAME = {d.name: d for d in ALL}
_BY_NUMBER = {_DATATYPE_NUMBERS[d.enum]: d for d in ALL}
_BY_NAME.update({"float": float32, "double": float64, "half": float16})
_BY_ENUM = {d.enum: d for d in ALL}
_BY_NUMPY = {d.numpy_dtype: d for d in ALL if d.numpy_dtype != np.dtype(object)}


def as_dtype(value) -> DType:
    """Turns a DType, its name, a numpy dtype or a Python type into a DType."""
    if isinstance(value, DType):
        return value
    if isinstance(value, str):
        if value in _BY_NAME:
            return _BY_NAME[value]
        if value in _BY_ENUM:
            return _BY_ENUM[value]
        raise TypeError(f"Unknown dtype name {value!r}; expected one of {sorted(_BY_NAME)}")
    if value is bool:
        return bool_
    if value is int:
        return int32
    if value is float:
        return float32
    if type(value) is int and value in _BY_NUMBER:  # a DataType number (DType.as_datatype_enum)
        return _BY_NUMBER[value]
    if value is complex:  # TensorFlow maps no Python type to a complex dtype
        raise TypeError(f"Cannot convert the argument `type_value`: {value!r} to a "
                        "TensorFlow DType.")
    if value in (str, bytes):
        return string
    try:
        np_dtype = np.dtype(value)
    except TypeError:
        raise TypeError(f"Cannot interpret {value!r} as a dtype") from None
    if np_dtype.kind in "OSU":
        return string
    if np_dtype in _BY_NUMPY:
        return _BY_NUMPY[np_dtype]
    raise TypeError(f"Unsupported numpy dtype {np_dtype}")


def infer_dtype(value) -> DType:
    """The dtype TensorFlow gives a Python or numpy value: int→int32, float→float32."""
    if isinstance(value, np.ndarray) or isinstance(value, np.generic):
        return as_dtype(value.dtype)
    if isinstance(value, bool):
        return bool_
    if isinstance(value, int):
        if not -2**63 <= value < 2**63:
            raise TensorConversionError(
                "Can't convert Python sequence with out-of-range integer to Tensor.")
        return int32 if -2**31 <= value < 2**31 else int64
    if isinstance(value, float):
        return float32
    if isinstance(value, complex):
        return complex128
    if isinstance(value, (str, bytes)):
        return string
    if isinstance(value, TensorShape):  # converts as the list of its dimensions
        value = list(value)
    if isinstance(value, (list, tuple)):
        if not value:
            return float32
        kinds = [infer_dtype(v) for v in value]
        names = {k.name for k in kinds}  # (names: DType's dataclass __eq__ is slow)
        if "complex128" in names and kinds[0] is not complex128:  # TF never widens to complex
            raise ValueError("Can't convert Python sequence with mixed types to Tensor.")
        for candidate in (string, complex128, float32, int64, int32, bool_):
            if candidate.name in names:
                if candidate is string and len(names) > 1:
                    raise TensorConversionError(
                        "Can't convert Python sequence with mixed types to Tensor.")
                return candidate
        return kinds[0]
    raise unsupported_value(value)


def unsupported_value(value) -> "TensorConversionError":
    """TensorFlow's error for a value of a type no tensor is made of."""
    return TensorConversionError(f"Attempt to convert a value ({value!r}) with an unsupported "
                                 f"type ({type(value)}) to a Tensor.")


def to_bytes(value):
    return value.encode() if isinstance(value, str) else value


def as_array(value, dtype: DType) -> np.ndarray:
    """A numpy array of exactly ``dtype`` holding ``value`` (strings become bytes)."""
    if dtype is string:
        arr = np.asarray(value, dtype=object)
        if arr.ndim == 0:
            out = np.empty((), dtype=object)
            out[()] = to_bytes(arr[()])
            return out
        return np.vectorize(to_bytes, otypes=[object])(arr)
    if isinstance(value, TensorShape):
        value = list(value)
    if value.__class__ is float and dtype.numpy_dtype.kind == "f" and value == value \
            and abs(value) > float(np.finfo(dtype.numpy_dtype).max):
        with np.errstate(over="ignore"):  # (as TensorFlow: inf, and no numpy warning)
            return np.asarray(value, dtype=dtype.numpy_dtype)
    try:
        return np.asarray(value, dtype=dtype.numpy_dtype)
    except OverflowError:  # a Python int beyond a narrow integer dtype: it wraps, as in
        if dtype.numpy_dtype.kind not in "iu":  # TensorFlow (callers check the int64 range)
            raise
        return np.asarray(value, dtype=np.int64).astype(dtype.numpy_dtype)
    except ValueError:
        if isinstance(value, (list, tuple)):
            raise ValueError("Can't convert non-rectangular Python sequence to Tensor.") from None
        raise
