"""``tf.io.encode_png`` / ``tf.io.decode_png`` / ``decode_image`` / ``is_jpeg`` (also
``tf.image.*``): the codec of graph/ops/image.py, on the standard library's zlib."""
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


def decode_image(contents, channels=None, dtype=dtypes.uint8, name=None,
                 expand_animations=True) -> Tensor:
    """``tf.io.decode_image``: an image file's contents as ``[height, width, channels]``
    (uint8, uint16, or float32 in [0, 1]); the format is found from its first bytes."""
    contents = convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    dtype = as_dtype(dtype)
    return apply_op("DecodeImage", [contents],
                    attrs={"channels": int(channels or 0), "dtype": dtype,
                           "expand_animations": bool(expand_animations)},
                    name=name or "decode_image")


def is_jpeg(contents, name=None) -> Tensor:
    """``tf.io.is_jpeg``: whether the contents start as a JPEG file does."""
    from runtime.ops import math_ops, string_ops
    contents = convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    return math_ops.equal(string_ops.substr(contents, 0, 3), b"\xff\xd8\xff",
                          name=name or "is_jpeg")


def decode_png(contents, channels=0, dtype=dtypes.uint8, name=None) -> Tensor:
    """A PNG string as ``[height, width, channels]`` (0: the file's own channel count)."""
    contents = convert_to_tensor(contents, dtype=dtypes.string, name="contents")
    dtype = as_dtype(dtype)
    if dtype not in (dtypes.uint8, dtypes.uint16):
        raise TypeError(f"decode_png's dtype must be uint8 or uint16, got {dtype.name}")
    return apply_op("DecodePng", [contents], attrs={"channels": int(channels), "dtype": dtype},
                    name=name or "DecodePng")
