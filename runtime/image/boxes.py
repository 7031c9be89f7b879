"""Boxes: non-max suppression, crop_and_resize and draw_bounding_boxes.

Boxes are ``[y1, x1, y2, x2]`` in normalized coordinates (NMS takes any coordinates,
corners in either order), as TensorFlow's ops take them.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.gradients.registry import RegisterGradient
from runtime.ops import array_ops as A
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.tensor import Tensor


def _nms_inputs(boxes, scores, max_output_size, iou_threshold, score_threshold):
    boxes = convert_to_tensor(boxes, name="boxes")
    scores = convert_to_tensor(scores, dtype=boxes.dtype, name="scores")
    return [boxes, scores,
            convert_to_tensor(max_output_size, dtype=dtypes.int32, name="max_output_size"),
            convert_to_tensor(iou_threshold, dtype=boxes.dtype, name="iou_threshold"),
            convert_to_tensor(score_threshold, dtype=boxes.dtype, name="score_threshold")]


def non_max_suppression(boxes, scores, max_output_size, iou_threshold=0.5,
                        score_threshold=float("-inf"), name=None) -> Tensor:
    """Indices of at most ``max_output_size`` boxes, greedily by score, dropping boxes whose
    IoU with a kept one exceeds ``iou_threshold`` and scores not above ``score_threshold``."""
    return apply_op("NonMaxSuppressionV3", _nms_inputs(boxes, scores, max_output_size,
                                                       iou_threshold, score_threshold),
                    name=name or "NonMaxSuppressionV3")


def non_max_suppression_with_scores(boxes, scores, max_output_size, iou_threshold=0.5,
                                    score_threshold=float("-inf"), soft_nms_sigma=0.0,
                                    name=None):
    """``(selected_indices, selected_scores)``; with ``soft_nms_sigma > 0``, overlapping boxes
    are down-weighted (Soft-NMS) rather than dropped."""
    inputs = _nms_inputs(boxes, scores, max_output_size, iou_threshold, score_threshold)
    sigma = convert_to_tensor(soft_nms_sigma, dtype=inputs[0].dtype, name="soft_nms_sigma")
    indices, selected_scores, _ = apply_op("NonMaxSuppressionV5", inputs + [sigma],
                                           attrs={"pad_to_max_output_size": False},
                                           name=name or "NonMaxSuppressionV5")
    return indices, selected_scores


def non_max_suppression_padded(boxes, scores, max_output_size, iou_threshold=0.5,
                               score_threshold=float("-inf"), pad_to_max_output_size=False,
                               name=None, sorted_input=False, canonicalized_coordinates=False,
                               tile_size=512):
    """``(selected_indices, valid_outputs)`` of greedy NMS on one image's boxes; with
    ``pad_to_max_output_size`` the indices are zero-padded to ``max_output_size``."""
    boxes = convert_to_tensor(boxes, name="boxes")
    if boxes.shape.rank is not None and boxes.shape.rank > 2:
        if not pad_to_max_output_size:
            raise ValueError(f"'pad_to_max_output_size' (value {pad_to_max_output_size}) must "
                             f"be True for batched input")
        raise NotImplementedError("non_max_suppression_padded of batched boxes is not "
                                  "supported: call it per image")
    inputs = _nms_inputs(boxes, scores, max_output_size, iou_threshold, score_threshold)
    sigma = convert_to_tensor(0.0, dtype=inputs[0].dtype)
    indices, _, valid = apply_op("NonMaxSuppressionV5", inputs + [sigma],
                                 attrs={"pad_to_max_output_size": bool(pad_to_max_output_size)},
                                 name=name or "NonMaxSuppressionV5")
    return indices, valid


def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None) -> Tensor:
    """``[num_boxes, crop_height, crop_width, depth]`` float32 crops, each box of image
    ``box_indices[i]`` sampled on a grid whose corners are the box's corners."""
    image = convert_to_tensor(image, name="image")
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    box_indices = convert_to_tensor(box_indices, dtype=dtypes.int32, name="box_indices")
    crop_size = convert_to_tensor(crop_size, dtype=dtypes.int32, name="crop_size")
    return apply_op("CropAndResize", [image, boxes, box_indices, crop_size],
                    attrs={"method": method, "extrapolation_value": float(extrapolation_value)},
                    name=name or "CropAndResize")


@RegisterGradient("CropAndResize")
def _crop_and_resize_grad(op, g):
    """The image's gradient (float images only) and the boxes' (from bilinear sampling,
    whatever the method, as TensorFlow approximates it)."""
    image, boxes, box_indices, _ = op.inputs
    grad_image = None
    if image.dtype in (dtypes.float16, dtypes.float32, dtypes.float64):
        grad_image = apply_op("CropAndResizeGradImage",
                              [g, boxes, box_indices, A.shape(image)],
                              attrs={"method": op.attrs["method"], "T": image.dtype})
    grad_boxes = apply_op("CropAndResizeGradBoxes", [g, image, boxes, box_indices])
    return [grad_image, grad_boxes, None, None]


def draw_bounding_boxes(images, boxes, colors, name=None) -> Tensor:
    """Draws the one-pixel outline of each box (``[batch, num_boxes, 4]``) onto float
    images, box ``k`` in ``colors[k % num_colors]``."""
    images = convert_to_tensor(images, name="images")
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    if colors is None:
        colors = np.zeros((0, 0), np.float32)
    colors = convert_to_tensor(colors, dtype=dtypes.float32, name="colors")
    return apply_op("DrawBoundingBoxesV2", [images, boxes, colors],
                    name=name or "DrawBoundingBoxesV2")


