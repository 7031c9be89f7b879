"""Lowerings of the image ops (graph/ops/image.py): contrast, resizing, crops, box drawing.

Every resize is the numpy kernel's separable product with the same per-axis weight
matrices (``_axis_weights``, built at compile time: the output size must be a
compile-time constant), so compiled values equal the numpy backend's. Crops and box
drawing read box coordinates known only at run time: their sampling positions are
computed in the program, in float32 as the numpy kernels compute them. A compiled
program cannot raise, so a ``box_index`` out of range is clamped (XLA's gather)
where the numpy kernel reports it.
"""
from __future__ import annotations

import jax.numpy as jnp
import numpy as np
from jax import lax

from graph.errors import InvalidArgumentError
from graph.ops.image import _DEFAULT_BOX_COLORS, _axis_weights, _position_weights
from graph.xla.lowering import Unsupported, lowering, static_value


@lowering("AdjustContrastv2")
def _adjust_contrast(ctx, node, images, factor):
    mean = jnp.mean(images, axis=(-3, -2), keepdims=True)
    return (images - mean) * factor + mean


# -- resizing ------------------------------------------------------------------------------

_METHODS = {"ResizeBilinear": "bilinear", "ResizeNearestNeighbor": "nearest",
            "ResizeBicubic": "bicubic", "ResizeArea": "area", "ResizeBilinearGrad": "bilinear",
            "ResizeNearestNeighborGrad": "nearest", "ResizeBicubicGrad": "bicubic"}


def _size(node, size) -> tuple[int, int]:
    height, width = (int(v) for v in static_value(size, node, "the output size"))
    return height, width


def _weights(node, in_size: int, out_size: int) -> np.ndarray:
    """The [out_size, in_size] weights of one axis, with the node's method and attrs."""
    return _axis_weights(_METHODS[node.op], in_size, out_size,
                         bool(node.attrs.get("align_corners", False)),
                         bool(node.attrs.get("half_pixel_centers", False)))


@lowering("ResizeBilinear", "ResizeNearestNeighbor", "ResizeBicubic", "ResizeArea")
def _resize(ctx, node, images, size):
    height, width = _size(node, size)
    wy = _weights(node, images.shape[1], height)
    wx = _weights(node, images.shape[2], width)
    if node.op == "ResizeNearestNeighbor":  # a selection: exact in every dtype
        return images[:, wy.argmax(axis=1)][:, :, wx.argmax(axis=1)]
    return jnp.einsum("yh,bhwc,xw->byxc", wy, images.astype(jnp.float32), wx)


@lowering("ResizeBilinearGrad", "ResizeNearestNeighborGrad", "ResizeBicubicGrad")
def _resize_grad(ctx, node, grads, original):
    """The transposed product; the input's size is the second input's shape (or, for the
    nearest method, its value)."""
    if node.op == "ResizeNearestNeighborGrad":
        (height, width), dtype = _size(node, original), grads.dtype
    else:
        (height, width), dtype = original.shape[1:3], original.dtype
    wy = _weights(node, height, grads.shape[1])
    wx = _weights(node, width, grads.shape[2])
    return jnp.einsum("yh,byxc,xw->bhwc", wy, grads.astype(jnp.float32), wx).astype(dtype)


# -- crop_and_resize and its gradients -------------------------------------------------------

def _crop_axis(boxes, size: int, in_size: int, axis: int, method: str):
    """Per box and output position: (low index, high index, lerp, inside the image), as the
    numpy kernel's ``_crop_sampling`` computes them (TensorFlow's corner-aligned grid)."""
    start, end = boxes[:, axis], boxes[:, axis + 2]
    last = np.float32(in_size - 1)
    if size > 1:
        scale = (end - start) * last / np.float32(size - 1)
        pos = start[:, None] * last + np.arange(size, dtype=np.float32)[None, :] * scale[:, None]
    else:
        pos = (np.float32(0.5) * (start + end) * last)[:, None]
    inside = (pos >= 0) & (pos <= last)
    safe = jnp.where(inside, pos, np.float32(0))
    if method == "nearest":
        near = jnp.floor(safe + np.float32(0.5)).astype(jnp.int32)
        return near, near, jnp.zeros_like(safe), inside
    low = jnp.floor(safe)
    return low.astype(jnp.int32), jnp.ceil(safe).astype(jnp.int32), safe - low, inside


def _crop_plan(image_shape, boxes, crop_size, method):
    boxes = jnp.asarray(boxes, jnp.float32)
    return (_crop_axis(boxes, crop_size[0], image_shape[1], 0, method),
            _crop_axis(boxes, crop_size[1], image_shape[2], 1, method))


def _corners(image, box_index, ys, xs):
    """The image at the four corners around each sample: [boxes, crop_h, crop_w, depth] each."""
    b = box_index[:, None, None]

    def at(yy, xx):
        return image[b, yy[:, :, None], xx[:, None, :]]
    (y0, y1, _, _), (x0, x1, _, _) = ys, xs
    return at(y0, x0), at(y0, x1), at(y1, x0), at(y1, x1)


def _inside(ys, xs):
    return (ys[3][:, :, None] & xs[3][:, None, :])[..., None]


@lowering("CropAndResize")
def _crop_and_resize(ctx, node, image, boxes, box_index, crop_size):
    method = node.attrs.get("method", "bilinear")
    ys, xs = _crop_plan(image.shape, boxes, _size(node, crop_size), method)
    tl, tr, bl, br = _corners(image.astype(jnp.float32), box_index, ys, xs)
    lx, ly = xs[2][:, None, :, None], ys[2][:, :, None, None]
    top = tl + (tr - tl) * lx
    bottom = bl + (br - bl) * lx
    out = top + (bottom - top) * ly
    fill = np.float32(node.attrs.get("extrapolation_value", 0.0))
    return jnp.where(_inside(ys, xs), out, fill)


@lowering("CropAndResizeGradImage")
def _crop_grad_image(ctx, node, grads, boxes, box_index, image_size):
    """Each sample's gradient added back to the four pixels it read."""
    shape = tuple(int(v) for v in static_value(image_size, node, "image_size"))
    ys, xs = _crop_plan(shape, boxes, grads.shape[1:3], node.attrs.get("method", "bilinear"))
    (y0, y1, ly, _), (x0, x1, lx, _) = ys, xs
    g = jnp.where(_inside(ys, xs), grads.astype(jnp.float32), np.float32(0))
    b = box_index[:, None, None]
    wy, wx = ly[:, :, None, None], lx[:, None, :, None]
    out = jnp.zeros(shape, jnp.float32)
    for yy, xx, w in ((y0, x0, (1 - wy) * (1 - wx)), (y0, x1, (1 - wy) * wx),
                      (y1, x0, wy * (1 - wx)), (y1, x1, wy * wx)):
        out = out.at[b, yy[:, :, None], xx[:, None, :]].add(g * w)
    return out


@lowering("CropAndResizeGradBoxes")
def _crop_grad_boxes(ctx, node, grads, image, boxes, box_index):
    """The image's local slope at each bilinear sample times the gradient (TensorFlow uses
    the bilinear slopes for the nearest method too)."""
    _, crop_h, crop_w, _ = grads.shape
    height, width = image.shape[1:3]
    grads = grads.astype(jnp.float32)
    ys, xs = _crop_plan(image.shape, boxes, (crop_h, crop_w), "bilinear")
    tl, tr, bl, br = _corners(image.astype(jnp.float32), box_index, ys, xs)
    wy, wx = ys[2][:, :, None, None], xs[2][:, None, :, None]
    slope_y = (1 - wx) * (bl - tl) + wx * (br - tr)
    slope_x = (1 - wy) * (tr - tl) + wy * (br - bl)
    inside = _inside(ys, xs)[..., 0]
    ygrad = jnp.where(inside, (grads * slope_y).sum(axis=3), 0)
    xgrad = jnp.where(inside, (grads * slope_x).sum(axis=3), 0)
    y_start, y_end = _position_weights(height, crop_h)
    x_start, x_end = _position_weights(width, crop_w)
    return jnp.stack([(ygrad * y_start[None, :, None]).sum(axis=(1, 2)),
                      (xgrad * x_start[None, None, :]).sum(axis=(1, 2)),
                      (ygrad * y_end[None, :, None]).sum(axis=(1, 2)),
                      (xgrad * x_end[None, None, :]).sum(axis=(1, 2))], axis=1)


# -- draw_bounding_boxes ---------------------------------------------------------------------

def _box_colors(colors, depth: int):
    """The colour table: ``colors`` (read at run time), or TensorFlow's default one when it
    is empty (its size is known at compile time)."""
    if colors.shape[-1] < depth and colors.size:
        raise InvalidArgumentError(message="Channel depth is larger than the colors given")
    if colors.size:
        return jnp.asarray(colors, jnp.float32)[:, :depth]
    table = _DEFAULT_BOX_COLORS.copy()
    if depth == 1:
        table[:, 0] = 1
    return table[:, :depth]


@lowering("DrawBoundingBoxesV2")
def _draw_boxes(ctx, node, images, boxes, colors):
    """One-pixel outlines of each box, later boxes drawn over earlier ones: each pixel takes
    the colour of the last box whose outline covers it (the numpy kernel's pixel rounding,
    truncation, and clipping; inverted or outside boxes are skipped)."""
    _, height, width, depth = images.shape
    if depth not in (1, 2, 3, 4):
        raise InvalidArgumentError(message="Channel depth should be either 1 (GRY), 3 (RGB), "
                                           "or 4 (RGBA)")
    table = _box_colors(colors, depth)
    boxes = jnp.asarray(boxes, jnp.float32)

    def pixel(coord, size):  # [batch, boxes, 1, 1]
        return jnp.trunc(coord * np.float32(size - 1)).astype(jnp.int32)[..., None, None]
    top, left = pixel(boxes[..., 0], height), pixel(boxes[..., 1], width)
    bottom, right = pixel(boxes[..., 2], height), pixel(boxes[..., 3], width)
    rows, cols = np.arange(height)[:, None], np.arange(width)[None, :]
    valid = ~((top > bottom) | (left > right) | (top >= height) | (bottom < 0)
              | (left >= width) | (right < 0))
    in_cols = (cols >= left) & (cols <= right)
    in_rows = (rows >= top) & (rows <= bottom)
    outline = (((rows == top) | (rows == bottom)) & in_cols) | \
              (((cols == left) | (cols == right)) & in_rows)
    k = np.arange(boxes.shape[1]).reshape(1, -1, 1, 1)
    last = jnp.max(jnp.where(valid & outline, k, -1), axis=1)  # [batch, height, width]
    color = jnp.asarray(table)[jnp.maximum(last, 0) % table.shape[0]].astype(images.dtype)
    return jnp.where((last >= 0)[..., None], color, images)


def _pairwise_iou(boxes):
    """``[n, n]`` intersection over union (corners in any order; 0 with an empty box), as the
    numpy kernel computes it."""
    y1, x1 = jnp.minimum(boxes[:, 0], boxes[:, 2]), jnp.minimum(boxes[:, 1], boxes[:, 3])
    y2, x2 = jnp.maximum(boxes[:, 0], boxes[:, 2]), jnp.maximum(boxes[:, 1], boxes[:, 3])
    area = (y2 - y1) * (x2 - x1)
    zero = jnp.zeros((), boxes.dtype)
    inter = (jnp.maximum(jnp.minimum(y2[:, None], y2) - jnp.maximum(y1[:, None], y1), zero)
             * jnp.maximum(jnp.minimum(x2[:, None], x2) - jnp.maximum(x1[:, None], x1), zero))
    iou = inter / (area[:, None] + area - inter)
    return jnp.where((area[:, None] <= zero) | (area <= zero), zero, iou)


@lowering("NonMaxSuppressionV5")
def _non_max_suppression(ctx, node, boxes, scores, max_output_size, iou_threshold,
                         score_threshold, soft_nms_sigma):
    """Padded hard NMS (``tf.image.non_max_suppression_padded``, which TensorFlow's XLA
    compiles): boxes in score order (ties: lower index), each kept unless its IoU with a
    box kept before it exceeds the threshold, until ``max_output_size`` are kept; indices
    and scores zero-padded to that size."""
    if not node.attrs.get("pad_to_max_output_size"):
        raise Unsupported(node, "the number of boxes it keeps depends on the input's values "
                                "(XLA needs static shapes): use tf.image."
                                "non_max_suppression_padded(..., pad_to_max_output_size=True)")
    if float(static_value(soft_nms_sigma, node, "soft_nms_sigma")) != 0:
        raise Unsupported(node, "soft-NMS rescores boxes one after another on the host")
    limit = int(static_value(max_output_size, node, "max_output_size"))
    n = boxes.shape[0]
    if n == 0:
        return (jnp.zeros(limit, jnp.int32), jnp.zeros(limit, scores.dtype), jnp.int32(0))
    order = jnp.argsort(-scores, stable=True)
    iou = _pairwise_iou(boxes[order])
    candidate = scores[order] > score_threshold

    def visit(i, carry):
        kept, count = carry
        overlaps = jnp.any(kept & (iou[i] > iou_threshold))
        keep = candidate[i] & (count < limit) & ~overlaps
        return kept.at[i].set(keep), count + keep.astype(jnp.int32)
    kept, count = lax.fori_loop(0, n, visit, (jnp.zeros(n, bool), jnp.int32(0)))
    slots = jnp.nonzero(kept, size=limit, fill_value=n)[0]
    indices = jnp.where(slots < n, order[jnp.minimum(slots, n - 1)], 0)
    picked = jnp.where(slots < n, scores[order][jnp.minimum(slots, n - 1)], 0)
    return indices.astype(jnp.int32), picked.astype(scores.dtype), count
