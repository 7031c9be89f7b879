"""Gradients of the resize ops (image_grad.py): each resize's transposed product, an op of
its own. ResizeArea has no gradient in TensorFlow, nor here."""
from __future__ import annotations

from runtime.gradients.registry import RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops.core import apply_op

def _attrs(op) -> dict:
    return {"align_corners": op.attrs["align_corners"],
            "half_pixel_centers": op.attrs["half_pixel_centers"]}


@RegisterGradient("ResizeBilinear")
def _resize_bilinear_grad(op, g):
    image = op.inputs[0]
    if not image.dtype.is_floating:
        return [None, None]
    return [apply_op("ResizeBilinearGrad", [g, image], attrs=_attrs(op)), None]


@RegisterGradient("ResizeBicubic")
def _resize_bicubic_grad(op, g):
    image = op.inputs[0]
    if not image.dtype.is_floating:
        return [None, None]
    return [apply_op("ResizeBicubicGrad", [g, image], attrs=_attrs(op)), None]


@RegisterGradient("ResizeNearestNeighbor")
def _resize_nearest_grad(op, g):
    size = A.shape(op.inputs[0])[1:3]
    return [apply_op("ResizeNearestNeighborGrad", [g, size], attrs=_attrs(op)), None]
