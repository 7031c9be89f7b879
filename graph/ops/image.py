"""Image ops (tf.image): AdjustContrastv2, the resize ops with their gradients,
non-max suppression, crop_and_resize, bounding-box drawing and PNG coding.

Images are ``[..., height, width, channels]``; TensorFlow's CPU kernel takes
float32 only (the Python wrapper converts other dtypes first).
"""
from __future__ import annotations

import heapq
import struct
import zlib

import numpy as np

from graph.dtypes import float16, float32, int32, string, uint8, uint16
from graph.errors import InvalidArgumentError, NotFoundError, UnimplementedError
from graph.ir import TensorType
from graph.shapes import TensorShape
from graph.ops.infer import expect_arity
from graph.registry import register_op


def _adjust_contrast_infer(inputs, attrs):
    expect_arity("AdjustContrastv2", inputs, 2)
    images, factor = inputs
    if images.dtype is float16:
        raise NotFoundError(message="Could not find device for node: {{node AdjustContrastv2}} "
                                    "= AdjustContrastv2[T=DT_HALF]: its CPU kernel takes float32")
    if images.dtype is not float32 or factor.dtype is not float32:
        raise InvalidArgumentError(
            message=f"AdjustContrastv2 takes float32 images and contrast_factor, got "
                    f"{images.dtype.name} and {factor.dtype.name}")
    rank = images.shape.rank
    if rank is not None and rank < 3:
        raise InvalidArgumentError(
            message=f"input must be at least 3-D, got shape{list(images.shape.as_tuple())}")
    if factor.shape.rank not in (None, 0):
        raise InvalidArgumentError(
            message=f"contrast_factor must be scalar: {list(factor.shape.as_tuple())}")
    return [TensorType(float32, images.shape)]


def _adjust_contrast(images, factor):
    """(x - mean) * factor + mean, the mean per channel over height and width."""
    images = np.asarray(images)
    if images.ndim < 3:
        raise InvalidArgumentError(
            message=f"input must be at least 3-D, got shape{list(images.shape)}")
    mean = np.mean(images, axis=(-3, -2), keepdims=True, dtype=np.float32)
    return ((images - mean) * np.float32(factor) + mean).astype(np.float32, copy=False)


register_op("AdjustContrastv2", _adjust_contrast_infer, _adjust_contrast)


# -- resizing -------------------------------------------------------------------------------
# Every resize is separable: out[b, y, x, c] = sum Wy[y, i] * Wx[x, j] * in[b, i, j, c] with
# one weight matrix per axis, built as TensorFlow's CPU kernels place their samples. The
# gradients are the transposed products.

_KEYS_TABLE_SIZE = 1024


def _keys_cubic_table(a: float) -> np.ndarray:
    """TensorFlow's table of Keys cubic weights at 1024 offsets in [0, 1]: [w(x), w(x + 1)]."""
    x = np.arange(_KEYS_TABLE_SIZE + 1, dtype=np.float32) / np.float32(_KEYS_TABLE_SIZE)
    near = ((a + 2) * x - (a + 3)) * x * x + 1
    far_x = x + 1
    far = ((a * far_x - 5 * a) * far_x + 8 * a) * far_x - 4 * a
    return np.stack([near, far], axis=1).astype(np.float32)


def _source(out_size: int, in_size: int, align_corners: bool, half_pixel_centers: bool,
            shift: bool):
    """Where each output sample reads from, in input coordinates (float32, TF's scalers)."""
    if align_corners and out_size > 1:
        scale = np.float32((in_size - 1) / (out_size - 1))
    else:
        scale = np.float32(in_size / out_size)
    pos = np.arange(out_size, dtype=np.float32)
    if half_pixel_centers:
        return (pos + np.float32(0.5)) * scale - (np.float32(0.5) if shift else np.float32(0))
    return pos * scale


def _axis_weights(method: str, in_size: int, out_size: int, align_corners: bool,
                  half_pixel_centers: bool) -> np.ndarray:
    """The [out_size, in_size] float32 matrix of one axis of ``method``."""
    w = np.zeros((out_size, in_size), np.float32)
    rows = np.arange(out_size)
    if method == "nearest":
        src = _source(out_size, in_size, align_corners, half_pixel_centers, shift=False)
        idx = np.round(src) if align_corners else np.floor(src)
        w[rows, np.clip(idx.astype(np.int64), 0, in_size - 1)] = 1
    elif method == "bilinear":
        src = _source(out_size, in_size, align_corners, half_pixel_centers, shift=True)
        low = np.floor(src)
        lerp = (src - low).astype(np.float32)
        lo = np.clip(low.astype(np.int64), 0, in_size - 1)
        hi = np.clip(np.ceil(src).astype(np.int64), 0, in_size - 1)
        np.add.at(w, (rows, lo), 1 - lerp)
        np.add.at(w, (rows, hi), lerp)
    elif method == "bicubic":
        keys = half_pixel_centers  # TF: Keys' a=-0.5 and zero weight outside, else a=-0.75
        table = _keys_cubic_table(-0.5 if keys else -0.75)
        src = _source(out_size, in_size, align_corners, half_pixel_centers, shift=True)
        loc = np.floor(src).astype(np.int64)
        offset = np.rint((src - loc) * _KEYS_TABLE_SIZE).astype(np.int64)
        taps = np.stack([table[offset, 1], table[offset, 0],
                         table[_KEYS_TABLE_SIZE - offset, 0],
                         table[_KEYS_TABLE_SIZE - offset, 1]], axis=1)
        index = loc[:, None] + np.arange(-1, 3)
        bounded = np.clip(index, 0, in_size - 1)
        if keys:
            taps = np.where(bounded == index, taps, np.float32(0))
            total = taps.sum(axis=1, keepdims=True)
            taps = np.where(np.abs(total) >= 1000 * np.finfo(np.float32).tiny,
                            taps / total, taps).astype(np.float32)
        for k in range(4):
            np.add.at(w, (rows, bounded[:, k]), taps[:, k])
    else:  # area: the overlap of each output cell with each input cell, over the cell size
        scale = np.float32(in_size / out_size)
        for y in range(out_size):
            start, end = np.float32(y) * scale, np.float32(y + 1) * scale
            for i in range(int(np.floor(start)), int(np.ceil(end))):
                overlap = min(np.float32(i + 1), end) - max(np.float32(i), start)
                w[y, min(i, in_size - 1)] += overlap / scale
    return w


def _resize_size(op: str, size):
    if size.dtype is not int32:
        raise InvalidArgumentError(message=f"{op}: size must be int32, got {size.dtype.name}")
    if size.shape.rank is not None and (size.shape.rank != 1 or size.shape[0] not in (None, 2)):
        raise InvalidArgumentError(message=f"{op}: shape_t must be 1-dimensional with 2 "
                                           f"elements, got {list(size.shape.as_tuple())}")
    if size.value is None:
        return None, None
    height, width = (int(v) for v in np.asarray(size.value))
    if height <= 0 or width <= 0:
        raise InvalidArgumentError(message=f"{op}: output dimensions must be positive")
    return height, width


def _resize_infer_for(op: str, keep_dtype: bool):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        images, size = inputs
        if attrs.get("align_corners") and attrs.get("half_pixel_centers"):
            raise InvalidArgumentError(message="If half_pixel_centers is True, align_corners "
                                               "must be False.")
        if not (images.dtype.is_integer or images.dtype.is_floating) or images.dtype.is_complex:
            raise InvalidArgumentError(message=f"{op} takes real images, got "
                                               f"{images.dtype.name}")
        if images.shape.rank not in (None, 4):
            raise InvalidArgumentError(message=f"{op}: input must be 4-dimensional, got "
                                               f"shape{list(images.shape.as_tuple())}")
        height, width = _resize_size(op, size)
        batch, channels = (None, None) if images.shape.rank is None else \
            (images.shape[0], images.shape[3])
        return [TensorType(images.dtype if keep_dtype else float32,
                           TensorShape([batch, height, width, channels]))]
    return infer


def _resize_kernel(method: str, keep_dtype: bool):
    def kernel(images, size, align_corners=False, half_pixel_centers=False):
        images = np.asarray(images)
        if images.ndim != 4:
            raise InvalidArgumentError(message=f"input must be 4-dimensional{list(images.shape)}")
        height, width = (int(v) for v in np.asarray(size))
        if height <= 0 or width <= 0:
            raise InvalidArgumentError(message="output dimensions must be positive")
        if method == "nearest":  # a selection: exact in every dtype
            wy = _axis_weights(method, images.shape[1], height, align_corners,
                               half_pixel_centers).argmax(axis=1)
            wx = _axis_weights(method, images.shape[2], width, align_corners,
                               half_pixel_centers).argmax(axis=1)
            out = images[:, wy][:, :, wx]
            return out if keep_dtype else out.astype(np.float32)
        wy = _axis_weights(method, images.shape[1], height, align_corners, half_pixel_centers)
        wx = _axis_weights(method, images.shape[2], width, align_corners, half_pixel_centers)
        out = np.einsum("yh,bhwc,xw->byxc", wy, images.astype(np.float32), wx, optimize=True)
        return out.astype(np.float32, copy=False)
    return kernel


def _resize_grad_infer_for(op: str, by_size: bool):
    def infer(inputs, attrs):
        expect_arity(op, inputs, 2)
        grads, original = inputs
        if by_size:  # ResizeNearestNeighborGrad(grads, size): the input image's size
            height, width = _resize_size(op, original)
            rank4 = grads.shape.rank == 4
            return [TensorType(grads.dtype, TensorShape(
                [grads.shape[0] if rank4 else None, height, width,
                 grads.shape[3] if rank4 else None]))]
        return [TensorType(original.dtype, original.shape)]
    return infer


def _resize_grad_kernel(method: str, by_size: bool):
    def kernel(grads, original, align_corners=False, half_pixel_centers=False):
        grads = np.asarray(grads)
        if by_size:
            (height, width), dtype = (int(v) for v in np.asarray(original)), grads.dtype
        else:
            original = np.asarray(original)
            (height, width), dtype = original.shape[1:3], original.dtype
        wy = _axis_weights(method, height, grads.shape[1], align_corners, half_pixel_centers)
        wx = _axis_weights(method, width, grads.shape[2], align_corners, half_pixel_centers)
        out = np.einsum("yh,byxc,xw->bhwc", wy, grads.astype(np.float32), wx, optimize=True)
        return out.astype(dtype)
    return kernel


_RESIZE_ATTRS = ("align_corners", "half_pixel_centers")
for _op, _method, _keep in (("ResizeBilinear", "bilinear", False),
                            ("ResizeNearestNeighbor", "nearest", True),
                            ("ResizeBicubic", "bicubic", False),
                            ("ResizeArea", "area", False)):
    register_op(_op, _resize_infer_for(_op, _keep), _resize_kernel(_method, _keep),
                kernel_attrs=_RESIZE_ATTRS)
for _op, _method, _by_size in (("ResizeBilinearGrad", "bilinear", False),
                               ("ResizeNearestNeighborGrad", "nearest", True),
                               ("ResizeBicubicGrad", "bicubic", False)):
    register_op(_op, _resize_grad_infer_for(_op, _by_size), _resize_grad_kernel(_method, _by_size),
                kernel_attrs=_RESIZE_ATTRS)


# -- boxes: non-max suppression, crop_and_resize, drawing -----------------------------------

def _iou(box: np.ndarray, others: np.ndarray) -> np.ndarray:
    """Intersection over union of ``box`` with each of ``others`` (corners in any order)."""
    def corners(b):
        return (np.minimum(b[..., 0], b[..., 2]), np.minimum(b[..., 1], b[..., 3]),
                np.maximum(b[..., 0], b[..., 2]), np.maximum(b[..., 1], b[..., 3]))
    y1, x1, y2, x2 = corners(box)
    oy1, ox1, oy2, ox2 = corners(others)
    area, other_area = (y2 - y1) * (x2 - x1), (oy2 - oy1) * (ox2 - ox1)
    inter = (np.maximum(np.minimum(y2, oy2) - np.maximum(y1, oy1), 0)
             * np.maximum(np.minimum(x2, ox2) - np.maximum(x1, ox1), 0))
    with np.errstate(divide="ignore", invalid="ignore"):
        iou = inter / (area + other_area - inter)
    return np.where((area <= 0) | (other_area <= 0), 0, iou).astype(box.dtype)


def _nms_infer_for(op: str, n_inputs: int):
    def infer(inputs, attrs):
        expect_arity(op, inputs, n_inputs)
        boxes, scores = inputs[:2]
        if boxes.shape.rank not in (None, 2) or (boxes.shape.rank == 2
                                                  and boxes.shape[1] not in (None, 4)):
            raise InvalidArgumentError(message=f"{op}: boxes must be 2-D with 4 columns, got "
                                               f"shape{list(boxes.shape.as_tuple())}")
        if scores.shape.rank not in (None, 1):
            raise InvalidArgumentError(message=f"{op}: scores must be 1-D, got "
                                               f"shape{list(scores.shape.as_tuple())}")
        if not boxes.dtype.is_floating or scores.dtype != boxes.dtype:
            raise InvalidArgumentError(message=f"{op}: boxes and scores must be float tensors "
                                               f"of one dtype")
        for extra in inputs[2:]:
            if extra.shape.rank not in (None, 0):
                raise InvalidArgumentError(message=f"{op}: max_output_size and the thresholds "
                                                   f"must be scalars")
        size = inputs[2].value
        count = int(size) if attrs.get("pad_to_max_output_size") and size is not None else None
        selected = TensorType(int32, TensorShape([count]))
        if op == "NonMaxSuppressionV3":
            return [selected]
        return [selected, TensorType(scores.dtype, TensorShape([count])),
                TensorType(int32, TensorShape([]))]
    return infer


def _nms(boxes, scores, max_output_size, iou_threshold, score_threshold, soft_nms_sigma=0.0,
         pad_to_max_output_size=False):
    """TensorFlow's greedy (soft-)NMS: highest score first (ties: lower index), a box is
    dropped when its IoU with a kept box exceeds the threshold, or, with soft-NMS (where
    the threshold plays no part), its score is decayed by exp(-iou^2 / (2 sigma)) and it
    competes again."""
    boxes, scores = np.asarray(boxes), np.asarray(scores)
    if not 0 <= float(iou_threshold) <= 1:
        raise InvalidArgumentError(message="iou_threshold must be in [0, 1]")
    if float(soft_nms_sigma) < 0:
        raise InvalidArgumentError(message="soft_nms_sigma must be non-negative")
    if boxes.shape[0] != scores.shape[0]:
        raise InvalidArgumentError(message=f"scores has incompatible shape: boxes has "
                                           f"{boxes.shape[0]} rows, scores {scores.shape[0]}")
    limit = min(int(max_output_size), boxes.shape[0])
    dtype = scores.dtype.type
    threshold, floor = dtype(iou_threshold), dtype(score_threshold)
    scale = dtype(-0.5 / soft_nms_sigma) if soft_nms_sigma > 0 else dtype(0)
    heap = [(-scores[i], i, 0) for i in range(scores.shape[0]) if scores[i] > floor]
    heapq.heapify(heap)
    selected: list[int] = []
    selected_scores: list = []
    while len(selected) < limit and heap:
        neg_score, index, begin = heapq.heappop(heap)
        score = original = -neg_score
        suppressed = False
        if selected[begin:]:
            ious = _iou(boxes[index], boxes[np.array(selected[begin:])])[::-1]
            for iou in ious:  # the latest kept boxes first, as TensorFlow
                if scale == 0 and iou > threshold:
                    suppressed = True
                    break
                score = score * np.exp(scale * iou * iou)  # soft-NMS ignores the threshold
                if score <= floor:
                    break
        if suppressed:
            continue
        if score == original:
            selected.append(index)
            selected_scores.append(score)
        elif score > floor:
            heapq.heappush(heap, (-score, index, len(selected)))
    valid = len(selected)
    if pad_to_max_output_size:
        selected += [0] * (int(max_output_size) - valid)
        selected_scores += [0] * (int(max_output_size) - valid)
    return (np.array(selected, np.int32), np.array(selected_scores, scores.dtype),
            np.int32(valid))


def _nms_v3(boxes, scores, max_output_size, iou_threshold, score_threshold):
    return _nms(boxes, scores, max_output_size, iou_threshold, score_threshold)[0]


register_op("NonMaxSuppressionV3", _nms_infer_for("NonMaxSuppressionV3", 5), _nms_v3)
register_op("NonMaxSuppressionV5", _nms_infer_for("NonMaxSuppressionV5", 6), _nms,
            kernel_attrs=("pad_to_max_output_size",))


def _crop_sampling(boxes, size: int, in_size: int, axis: int, method: str):
    """Per box and output position: (low index, high index, lerp, inside the image)."""
    start, end = boxes[:, axis].astype(np.float32), boxes[:, axis + 2].astype(np.float32)
    last = np.float32(in_size - 1)
    if size > 1:
        scale = (end - start) * last / np.float32(size - 1)
        pos = start[:, None] * last + np.arange(size, dtype=np.float32)[None, :] * scale[:, None]
    else:
        pos = np.broadcast_to((np.float32(0.5) * (start + end) * last)[:, None],
                              (boxes.shape[0], 1))
    inside = (pos >= 0) & (pos <= last)
    safe = np.where(inside, pos, 0).astype(np.float32)
    if method == "nearest":
        near = np.floor(safe + np.float32(0.5)).astype(np.int64)
        return near, near, np.zeros_like(safe), inside
    low = np.floor(safe)
    return (low.astype(np.int64), np.ceil(safe).astype(np.int64),
            (safe - low).astype(np.float32), inside)


def _crop_and_resize_infer(inputs, attrs):
    expect_arity("CropAndResize", inputs, 4)
    image, boxes, box_index, crop_size = inputs
    if image.shape.rank not in (None, 4):
        raise InvalidArgumentError(message=f"input image must be 4-D, got "
                                           f"shape{list(image.shape.as_tuple())}")
    if boxes.shape.rank not in (None, 2) or box_index.shape.rank not in (None, 1):
        raise InvalidArgumentError(message="boxes must be 2-D [num_boxes, 4] and box_index "
                                           "1-D [num_boxes]")
    if attrs.get("method", "bilinear") not in ("bilinear", "nearest"):
        raise InvalidArgumentError(message="method must be 'bilinear' or 'nearest'")
    height, width = _resize_size("CropAndResize", crop_size)
    return [TensorType(float32, TensorShape([boxes.shape[0] if boxes.shape.rank else None,
                                             height, width,
                                             image.shape[3] if image.shape.rank else None]))]


def _crop_plan(image_shape, boxes, box_index, crop_size, method):
    boxes, box_index = np.asarray(boxes, np.float32), np.asarray(box_index)
    if boxes.ndim != 2 or boxes.shape[1] != 4 or box_index.shape != (boxes.shape[0],):
        raise InvalidArgumentError(message="boxes must be [num_boxes, 4] and box_index "
                                           "[num_boxes]")
    if box_index.size and (box_index.min() < 0 or box_index.max() >= image_shape[0]):
        raise InvalidArgumentError(message=f"box_index has values outside [0, "
                                           f"{image_shape[0]})")
    height, width = (int(v) for v in np.asarray(crop_size))
    ys = _crop_sampling(boxes, height, image_shape[1], 0, method)
    xs = _crop_sampling(boxes, width, image_shape[2], 1, method)
    return box_index, ys, xs


def _crop_and_resize(image, boxes, box_index, crop_size, method="bilinear",
                     extrapolation_value=0.0):
    """Samples each box of its image on a crop_size grid (TensorFlow's corner-aligned grid),
    bilinearly or at the nearest pixel; samples outside the image are extrapolation_value."""
    image = np.asarray(image)
    box_index, (y0, y1, ly, iy), (x0, x1, lx, ix) = _crop_plan(image.shape, boxes, box_index,
                                                               crop_size, method)
    b = box_index[:, None, None]
    img = image.astype(np.float32)

    def at(yy, xx):
        return img[b, yy[:, :, None], xx[:, None, :]]
    top = at(y0, x0) + (at(y0, x1) - at(y0, x0)) * lx[:, None, :, None]
    bottom = at(y1, x0) + (at(y1, x1) - at(y1, x0)) * lx[:, None, :, None]
    out = top + (bottom - top) * ly[:, :, None, None]
    inside = (iy[:, :, None] & ix[:, None, :])[..., None]
    return np.where(inside, out, np.float32(extrapolation_value)).astype(np.float32)


def _crop_and_resize_grad_image(grads, boxes, box_index, image_size, method="bilinear",
                                T=float32):
    """The transposed sampling: each output's gradient added back to the pixels it read."""
    grads = np.asarray(grads, np.float32)
    shape = tuple(int(v) for v in np.asarray(image_size))
    box_index, (y0, y1, ly, iy), (x0, x1, lx, ix) = _crop_plan(
        shape, boxes, box_index, grads.shape[1:3], method)
    out = np.zeros(shape, np.float32)
    g = grads * (iy[:, :, None] & ix[:, None, :])[..., None]
    b = np.broadcast_to(box_index[:, None, None], g.shape[:3])
    wy, wx = ly[:, :, None, None], lx[:, None, :, None]
    for yy, xx, w in ((y0, x0, (1 - wy) * (1 - wx)), (y0, x1, (1 - wy) * wx),
                      (y1, x0, wy * (1 - wx)), (y1, x1, wy * wx)):
        yb = np.broadcast_to(yy[:, :, None], g.shape[:3])
        xb = np.broadcast_to(xx[:, None, :], g.shape[:3])
        np.add.at(out, (b, yb, xb), g * w)
    return out.astype(T.numpy_dtype)


def _crop_grad_image_infer(inputs, attrs):
    expect_arity("CropAndResizeGradImage", inputs, 4)
    size = inputs[3]
    rank = size.value.shape[0] if size.value is not None else 4
    dims = [int(v) for v in size.value] if size.value is not None else [None] * rank
    return [TensorType(attrs.get("T", float32), TensorShape(dims))]


def _position_weights(size: int, crop: int):
    """How much each of ``crop`` sample positions moves per unit of the box's start and
    end coordinate (TensorFlow's corner-aligned grid, or the center for one sample)."""
    if crop > 1:
        steps = np.arange(crop, dtype=np.float32) * np.float32((size - 1) / (crop - 1))
        return np.float32(size - 1) - steps, steps
    half = np.full(1, np.float32(0.5 * (size - 1)))
    return half, half


def _crop_and_resize_grad_boxes(grads, image, boxes, box_index):
    """How each box coordinate moves the bilinear samples (TensorFlow uses this for the
    nearest method too): the image's local slope at each sample times the gradient."""
    grads, image = np.asarray(grads, np.float32), np.asarray(image).astype(np.float32)
    _, crop_h, crop_w, _ = grads.shape
    height, width = image.shape[1:3]
    box_index, (y0, y1, ly, iy), (x0, x1, lx, ix) = _crop_plan(
        image.shape, boxes, box_index, (crop_h, crop_w), "bilinear")
    b = box_index[:, None, None]

    def at(yy, xx):
        return image[b, yy[:, :, None], xx[:, None, :]]
    tl, tr, bl, br = at(y0, x0), at(y0, x1), at(y1, x0), at(y1, x1)
    wy, wx = ly[:, :, None, None], lx[:, None, :, None]
    slope_y = (1 - wx) * (bl - tl) + wx * (br - tr)
    slope_x = (1 - wy) * (tr - tl) + wy * (br - bl)
    inside = (iy[:, :, None] & ix[:, None, :])
    ygrad = np.where(inside, (grads * slope_y).sum(axis=3), 0)  # [boxes, crop_h, crop_w]
    xgrad = np.where(inside, (grads * slope_x).sum(axis=3), 0)

    y_start, y_end = _position_weights(height, crop_h)
    x_start, x_end = _position_weights(width, crop_w)
    columns = [(ygrad * y_start[None, :, None]).sum(axis=(1, 2)),
               (xgrad * x_start[None, None, :]).sum(axis=(1, 2)),
               (ygrad * y_end[None, :, None]).sum(axis=(1, 2)),
               (xgrad * x_end[None, None, :]).sum(axis=(1, 2))]
    return np.stack(columns, axis=1).astype(np.float32)


def _crop_grad_boxes_infer(inputs, attrs):
    expect_arity("CropAndResizeGradBoxes", inputs, 4)
    return [TensorType(float32, inputs[2].shape)]


register_op("CropAndResize", _crop_and_resize_infer, _crop_and_resize,
            kernel_attrs=("method", "extrapolation_value"))
register_op("CropAndResizeGradImage", _crop_grad_image_infer, _crop_and_resize_grad_image,
            kernel_attrs=("method", "T"))
register_op("CropAndResizeGradBoxes", _crop_grad_boxes_infer, _crop_and_resize_grad_boxes)

_DEFAULT_BOX_COLORS = np.array([[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1],
                                [0.5, 0, 0.5, 1], [0.5, 0.5, 0, 1], [0.5, 0, 0, 1],
                                [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]], np.float32)


def _draw_boxes_infer(inputs, attrs):
    expect_arity("DrawBoundingBoxesV2", inputs, 3)
    images, boxes, colors = inputs
    if images.dtype not in (float16, float32):
        raise InvalidArgumentError(message=f"DrawBoundingBoxesV2 takes float16 or float32 "
                                           f"images, got {images.dtype.name}")
    if images.shape.rank not in (None, 4):
        raise InvalidArgumentError(message=f"The rank of the images should be 4, got "
                                           f"{images.shape.rank}")
    return [TensorType(images.dtype, images.shape)]


def _draw_boxes(images, boxes, colors):
    """One-pixel box outlines, TensorFlow's pixel rounding (truncation) and clipping."""
    images, boxes = np.asarray(images), np.asarray(boxes, np.float32)
    colors = np.asarray(colors, np.float32)
    batch, height, width, depth = images.shape
    if depth not in (1, 2, 3, 4):
        raise InvalidArgumentError(message="Channel depth should be either 1 (GRY), 3 (RGB), "
                                           "or 4 (RGBA)")
    table = _DEFAULT_BOX_COLORS.copy() if colors.size == 0 else colors
    if colors.size == 0 and depth == 1:
        table[:, 0] = 1
    if table.shape[1] < depth:
        raise InvalidArgumentError(message="Channel depth is larger than the colors given")
    canvas = images.copy()
    for b in range(batch):
        for k, (y1, x1, y2, x2) in enumerate(boxes[b]):
            color = table[k % table.shape[0], :depth].astype(images.dtype)
            top, bottom = int(y1 * (height - 1)), int(y2 * (height - 1))
            left, right = int(x1 * (width - 1)), int(x2 * (width - 1))
            if top > bottom or left > right or top >= height or bottom < 0 \
                    or left >= width or right < 0:
                continue  # inverted or outside: TensorFlow logs and skips it
            r0, r1 = max(top, 0), min(bottom, height - 1)
            c0, c1 = max(left, 0), min(right, width - 1)
            if top >= 0:
                canvas[b, top, c0:c1 + 1] = color
            if bottom < height:
                canvas[b, bottom, c0:c1 + 1] = color
            if left >= 0:
                canvas[b, r0:r1 + 1, left] = color
            if right < width:
                canvas[b, r0:r1 + 1, right] = color
    return canvas


register_op("DrawBoundingBoxesV2", _draw_boxes_infer, _draw_boxes)


# -- PNG ------------------------------------------------------------------------------------
# A small codec on the standard library's zlib: every colour type, bit depths 1-16, no
# interlacing. Encoding writes libpng's bytes, as TensorFlow's encoder does (below).

_PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
_PNG_CHANNELS = {0: 1, 2: 3, 3: 3, 4: 2, 6: 4}  # colour type -> samples per pixel (palette: RGB)


def _png_chunk(kind: bytes, data: bytes) -> bytes:
    return (struct.pack(">I", len(data)) + kind + data
            + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF))


# TensorFlow's PNG encoder (libpng, zlib memLevel 9) picks each row's filter by libpng's
# heuristic (the least sum of |byte| read as signed, None < Sub < Up < Average < Paeth on
# ties; palette and sub-byte images are unfiltered), compresses with Z_FILTERED, a window
# shrunk to fit small images (its header byte then shrunk to the image's size), and cuts the
# stream into 8192-byte IDAT chunks.

def _paeth(a, b, c):
    p = a + b - c
    pa, pb, pc = np.abs(p - a), np.abs(p - b), np.abs(p - c)
    return np.where((pa <= pb) & (pa <= pc), a, np.where(pb <= pc, b, c))


def _filtered_rows(raw: np.ndarray, bpp: int) -> bytes:
    """Each row (uint8, ``[height, rowbytes]``) behind its filter byte, chosen as libpng
    chooses it."""
    x = raw.astype(np.int32)
    up = np.vstack([np.zeros_like(x[:1]), x[:-1]])
    left = np.hstack([np.zeros_like(x[:, :bpp]), x[:, :-bpp]])
    upleft = np.hstack([np.zeros_like(up[:, :bpp]), up[:, :-bpp]])
    candidates = np.stack([x, x - left, x - up, x - ((left + up) >> 1),
                           x - _paeth(left, up, upleft)]) & 0xFF
    cost = np.where(candidates < 128, candidates, 256 - candidates).sum(axis=2)
    best = np.argmin(cost, axis=0)  # the first of equal sums
    rows = candidates[best, np.arange(len(raw))].astype(np.uint8)
    return np.hstack([best[:, None].astype(np.uint8), rows]).tobytes()


def encode_png(image: np.ndarray, compression: int = -1) -> bytes:
    """A ``[height, width, channels]`` uint8/uint16 image as the PNG bytes TensorFlow writes."""
    height, width, channels = image.shape
    depth = 16 if image.dtype == np.uint16 else 8
    header = struct.pack(">IIBBBBB", width, height, depth, {1: 0, 2: 4, 3: 2, 4: 6}[channels],
                         0, 0, 0)
    raw = image.astype(">u2" if depth == 16 else np.uint8).reshape(height, -1).view(np.uint8)
    data = _filtered_rows(raw, channels * depth // 8) if raw.size else b""
    size = (raw.shape[1] + 1) * height
    bits = 15
    if size <= 16384:
        while size + 262 <= 1 << (bits - 1):
            bits -= 1
    packer = zlib.compressobj(6 if compression == -1 else compression, zlib.DEFLATED,
                              max(bits, 9), 9, zlib.Z_FILTERED)
    stream = bytearray(packer.compress(data) + packer.flush())
    if size <= 16384 and stream[0] & 0x0F == 8 and stream[0] >> 4 <= 7:
        cinfo = stream[0] >> 4
        half = 1 << (cinfo + 7)
        if size <= half:
            while True:
                half >>= 1
                cinfo -= 1
                if not (cinfo > 0 and size <= half):
                    break
            stream[0] = (stream[0] & 0x0F) | cinfo << 4
            flags = stream[1] & 0xE0
            stream[1] = flags + 0x1F - ((stream[0] << 8) + flags) % 0x1F
    chunks = [_png_chunk(b"IDAT", bytes(stream[i:i + 8192]))
              for i in range(0, len(stream), 8192)]
    return (b"\x89PNG\r\n\x1a\n" + _png_chunk(b"IHDR", header) + b"".join(chunks)
            + _png_chunk(b"IEND", b""))


def _encode_png(image, compression=-1):
    """``EncodePng``: one PNG per ``[height, width, channels]`` image of a (batch of) images."""
    image = np.asarray(image)
    if image.ndim < 3:
        raise InvalidArgumentError(message=f"images must be at least rank 3{list(image.shape)}")
    if image.shape[-1] not in (1, 2, 3, 4):
        raise InvalidArgumentError(message=f"image must have 1, 2, 3, or 4 channels, got "
                                           f"{image.shape[-1]}")
    images = image.reshape((-1,) + image.shape[-3:])
    out = np.empty(len(images), dtype=object)
    out[:] = [encode_png(one, int(compression)) for one in images]
    return out.reshape(image.shape[:-3])


def _png_unfilter(data: bytes, height: int, stride: int, bpp: int) -> np.ndarray:
    """Undoes the per-row filters (None, Sub, Up, Average, Paeth)."""
    rows = np.frombuffer(data, np.uint8)[:height * (stride + 1)].reshape(height, stride + 1)
    out = np.zeros((height, stride), np.uint8)
    prior = np.zeros(stride, np.int32)
    for y in range(height):
        kind, line = rows[y, 0], rows[y, 1:].astype(np.int32)
        if kind in (0, 2):
            cur = (line + (prior if kind == 2 else 0)) & 0xFF
        else:  # Sub, Average and Paeth depend on the decoded bytes to the left
            cur = line.copy()
            for i in range(stride):
                left = cur[i - bpp] if i >= bpp else 0
                up, corner = prior[i], (prior[i - bpp] if i >= bpp else 0)
                if kind == 1:
                    pred = left
                elif kind == 3:
                    pred = (left + up) // 2
                elif kind == 4:
                    p = left + up - corner
                    pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                    pred = left if pa <= pb and pa <= pc else (up if pb <= pc else corner)
                else:
                    raise InvalidArgumentError(message=f"Invalid PNG data: filter type {kind}")
                cur[i] = (cur[i] + pred) & 0xFF
        out[y] = cur
        prior = cur
    return out


def _decode_png(contents, channels=0, dtype=None):
    data = np.asarray(contents, dtype=object)[()]
    if not data.startswith(_PNG_SIGNATURE):
        raise InvalidArgumentError(message="Invalid PNG data, size " + str(len(data)))
    pos, idat, palette, transparency = 8, [], None, None
    while pos < len(data):
        (length,), kind = struct.unpack(">I", data[pos:pos + 4]), data[pos + 4:pos + 8]
        body = data[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IHDR":
            width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", body)
        elif kind == b"PLTE":
            palette = np.frombuffer(body, np.uint8).reshape(-1, 3)
        elif kind == b"tRNS":
            transparency = np.frombuffer(body, np.uint8)
        elif kind == b"IDAT":
            idat.append(body)
        elif kind == b"IEND":
            break
    if interlace:
        raise InvalidArgumentError(message="Interlaced PNG images are not supported")
    samples = 1 if colour == 3 else _PNG_CHANNELS[colour]
    stride = (width * samples * depth + 7) // 8
    rows = _png_unfilter(zlib.decompress(b"".join(idat)), height, stride,
                         max(1, samples * depth // 8))
    if depth == 16:
        values = rows.view(">u2").astype(np.uint16).reshape(height, width, samples)
    elif depth == 8:
        values = rows.reshape(height, width, samples)
    else:  # 1, 2 or 4 bits: unpack, then scale gray levels to 8 bits
        bits = np.unpackbits(rows, axis=1).reshape(height, -1, depth)
        values = (bits * (1 << np.arange(depth - 1, -1, -1))).sum(axis=2)[:, :width, None]
        if colour == 0:
            values = values * (255 // ((1 << depth) - 1))
        values = values.astype(np.uint8)
    if colour == 3:
        alpha = None
        if transparency is not None:
            alpha = np.full(len(palette), 255, np.uint8)
            alpha[:len(transparency)] = transparency
        index = values[..., 0]
        values = palette[index] if alpha is None else np.concatenate(
            [palette[index], alpha[index][..., None]], axis=-1)
    want = np.dtype(dtype.numpy_dtype if dtype is not None else np.uint8)
    if want == np.uint16 and values.dtype == np.uint8:
        values = values.astype(np.uint16) * 257
    elif want == np.uint8 and values.dtype == np.uint16:
        values = (values >> 8).astype(np.uint8)
    return _png_channels(values, int(channels))


def _png_channels(values: np.ndarray, channels: int) -> np.ndarray:
    """Gray <-> RGB, with or without alpha (opaque alpha added at the dtype's maximum)."""
    have = values.shape[2]
    if channels in (0, have):
        return values
    color = values[..., :3] if have >= 3 else np.repeat(values[..., :1], 3, axis=2)
    alpha = values[..., -1:] if have in (2, 4) else np.full(
        values.shape[:2] + (1,), np.iinfo(values.dtype).max, values.dtype)
    if channels == 1:
        if have >= 3:  # libpng's rgb_to_gray: 0.299/0.587 in 1/32768ths, truncated
            weights = np.array([9797, 19234, 32768 - 9797 - 19234], np.int64)
            color = ((color.astype(np.int64) @ weights) >> 15).astype(values.dtype)[..., None]
        return color if have >= 3 else values[..., :1]
    return color if channels == 3 else np.concatenate([color, alpha], axis=2)


def _encode_png_infer(inputs, attrs):
    expect_arity("EncodePng", inputs, 1)
    image = inputs[0]
    if image.dtype not in (uint8, uint16):
        raise InvalidArgumentError(message=f"EncodePng takes uint8 or uint16 images, got "
                                           f"{image.dtype.name}")
    if image.shape.rank is None:
        return [TensorType(string, TensorShape(None))]
    if image.shape.rank < 3:
        raise InvalidArgumentError(message=f"images must be at least rank 3"
                                           f"{list(image.shape.as_tuple())}")
    return [TensorType(string, image.shape[:-3])]


def _decode_png_infer(inputs, attrs):
    expect_arity("DecodePng", inputs, 1)
    if inputs[0].dtype is not string or inputs[0].shape.rank not in (None, 0):
        raise InvalidArgumentError(message="contents must be a scalar string")
    channels = int(attrs.get("channels", 0))
    if channels not in (0, 1, 3, 4):
        raise InvalidArgumentError(message=f"channels must be 0, 1, 3, or 4, got {channels}")
    return [TensorType(attrs.get("dtype") or uint8,
                       TensorShape([None, None, channels or None]))]


def _decode_image_infer(inputs, attrs):
    """TensorFlow's DecodeImage: a GIF would add a frames axis, so the rank is known only
    without ``expand_animations``."""
    channels = int(attrs.get("channels", 0))
    png = _decode_png_infer(inputs, {"channels": channels})[0]
    dtype = attrs.get("dtype") or uint8
    if dtype not in (uint8, uint16, float32):
        raise InvalidArgumentError(message=f"DecodeImage: dtype must be uint8, uint16 or "
                                           f"float32, got {dtype.name}")
    return [TensorType(dtype, png.shape if not attrs.get("expand_animations", True)
                       else TensorShape(None))]


_JPEG_SIGNATURE, _GIF_SIGNATURE, _BMP_SIGNATURE = b"\xff\xd8\xff", b"GIF8", b"BM"


def _decode_image(contents, channels=0, dtype=None, expand_animations=True):
    """A PNG, decoded; float32 is scaled to [0, 1] as convert_image_dtype scales. JPEG, GIF
    and BMP are recognised but have no decoder here."""
    data = np.asarray(contents, dtype=object)[()]
    if not data.startswith(_PNG_SIGNATURE):
        for name, signature in (("JPEG", _JPEG_SIGNATURE), ("GIF", _GIF_SIGNATURE),
                                ("BMP", _BMP_SIGNATURE)):
            if data.startswith(signature):
                raise UnimplementedError(message=f"DecodeImage: {name} images cannot be "
                                                 "decoded here (only PNG has a codec)")
        raise InvalidArgumentError(message="Unknown image file format. One of JPEG, JPEG XL, "
                                           "PNG, GIF, BMP, WebP required.")
    if dtype is not float32:
        return _decode_png(contents, channels, dtype)
    return (_decode_png(contents, channels, uint16).astype(np.float32) / 65535.0)


register_op("EncodePng", _encode_png_infer, _encode_png, kernel_attrs=("compression",))
register_op("DecodeImage", _decode_image_infer, _decode_image,
            kernel_attrs=("channels", "dtype", "expand_animations"))
register_op("DecodePng", _decode_png_infer, _decode_png, kernel_attrs=("channels", "dtype"))
