"""``tf.io.encode_png`` / ``tf.io.decode_png`` (also ``tf.image.*``): the codec of
graph/ops/image.py, on the standard library's zlib."""
from __future__ import annotations

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def encode_png(image, compression=-1, name=None) -> Tensor:
    """A ``[height, width, channels]`` uint8/uint16 image as a PNG string scalar."""
    image = convert_to_tensor(image, name="image")
    return apply_op("EncodePng", [image], attrs={"compression": int(compression)},
                    name=name or "EncodePng")


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None) -> Tensor:
    """A PNG string as ``[height, width, channels]`` (0: the file's own channel count)."""
    contents = convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    dtype = as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"decode_png's dtype must be uint8 or uint16, got {dtype.name}")
    return apply_op("DecodePng", [contents], attrs={"channels": int(channels), "dtype": dtype},
                    name=name or "DecodePng")
