"""tf.image boxes: non-max suppression (hard and soft), crop_and_resize (+ its image
gradient) and draw_bounding_boxes, equal to TensorFlow 2.21 (recorded from TensorFlow as
literals), eager and staged."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_image_s4 import _check, fingerprint

# -- box cases --
def box_cases(tf, np):
    rng = np.random.default_rng(4)
    corners = rng.uniform(size=(12, 2, 2)).astype(np.float32)
    boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    boxes[5] = boxes[2] + 0.01  # a near duplicate
    scores = rng.uniform(size=12).astype(np.float32)
    scores[7] = scores[3]  # a tie
    img = rng.uniform(size=(2, 6, 7, 3)).astype(np.float32)
    crop_boxes = np.array([[0.1, 0.2, 0.8, 0.9], [0.5, -0.2, 1.3, 0.6], [0.9, 0.8, 0.1, 0.3],
                           [0.3, 0.3, 0.3, 0.7]], np.float32)
    draw = np.array([[[0.1, 0.2, 0.8, 0.9], [-0.2, 0.5, 0.5, 1.4], [0.6, 0.6, 0.2, 0.9]],
                     [[0.0, 0.0, 1.0, 1.0], [0.3, 0.2, 0.31, 0.5], [1.2, 0.1, 1.5, 0.5]]],
                    np.float32)
    I = tf.image
    c = tf.constant
    return {
        "nms": lambda: I.non_max_suppression(c(boxes), c(scores), 6, 0.3),
        "nms_threshold": lambda: I.non_max_suppression(c(boxes), c(scores), 20, 0.5, 0.4),
        "nms_scores": lambda: tf.concat([tf.cast(t, tf.float32) for t in
                                         I.non_max_suppression_with_scores(
                                             c(boxes), c(scores), 10, 0.4, 0.1)], 0),
        "soft_nms": lambda: tf.concat([tf.cast(t, tf.float32) for t in
                                       I.non_max_suppression_with_scores(
                                           c(boxes), c(scores), 10, 0.5, 0.05,
                                           soft_nms_sigma=0.5)], 0),
        "crop_bilinear": lambda: I.crop_and_resize(c(img), c(crop_boxes), c([0, 1, 1, 0]),
                                                   [4, 5]),
        "crop_nearest": lambda: I.crop_and_resize(c(img), c(crop_boxes), c([1, 0, 0, 1]),
                                                  [3, 1], method="nearest",
                                                  extrapolation_value=-1.0),
        "crop_u8": lambda: I.crop_and_resize(c((img * 255).astype(np.uint8)), c(crop_boxes),
                                             c([0, 0, 1, 1]), [1, 3]),
        "draw": lambda: I.draw_bounding_boxes(c(img), c(draw), c([[1.0, 0.0, 0.0],
                                                                  [0.0, 0.5, 1.0]])),
        "draw_gray": lambda: I.draw_bounding_boxes(c(img[..., :1]), c(draw), c([[0.7], [0.2]])),
    }, (img, crop_boxes)
# -- end box cases --


# Recorded from TensorFlow 2.21 with the cases above.
BOXES = {
    'nms': ('int32', (6,), 33.0, -7.8491680243195905),
    'nms_threshold': ('int32', (7,), 38.0, -5.1691928565289444),
    'nms_scores': ('float32', (16,), 48.491256296634674, -1.7891034757339415),
    'soft_nms': ('float32', (20,), 62.056199580430984, 6.742277034491455),
    'crop_bilinear': ('float32', (4, 4, 5, 3), 101.33049733936787, 0.3794251254029146),
    'crop_nearest': ('float32', (4, 3, 1, 3), 15.21407744474709, 2.4349854294173774),
    'crop_u8': ('float32', (4, 1, 3, 3), 4440.8749923706055, 603.8692800346608),
    'draw': ('float32', (2, 6, 7, 3), 111.68990243622102, 2.614775325186089),
    'draw_gray': ('float32', (2, 6, 7, 1), 47.73614142090082, 2.7433895896748552),
    'grad_bilinear': ('float32', (2, 6, 7, 3), 1.9751925603486598, 2.191293193584544),
    'grad_nearest': ('float32', (2, 6, 7, 3), 1.9751922581344843, 8.005329006266248),
}

_CASES, (_IMG, _CROP_BOXES) = box_cases(tf, np)


@pytest.mark.parametrize("name", sorted(_CASES))
def test_values_match_tensorflow(name):
    eager = _CASES[name]()
    _check(eager.numpy(), BOXES[name])
    np.testing.assert_allclose(tf.function(_CASES[name])().numpy(), eager.numpy(), rtol=1e-6)


@pytest.mark.parametrize("method", ["bilinear", "nearest"])
def test_crop_and_resize_image_gradient(method):
    x = tf.constant(_IMG)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.image.crop_and_resize(x, _CROP_BOXES, [0, 1, 1, 0], [4, 5], method=method)
        weights = np.sin(np.arange(np.prod(y.shape))).reshape(y.shape).astype(np.float32)
        loss = tf.reduce_sum(y * weights)
    _check(tape.gradient(loss, x).numpy(), BOXES[f"grad_{method}"])


def test_nms_edges():
    assert tf.image.non_max_suppression(np.zeros((0, 4), np.float32), np.zeros([0], np.float32),
                                        3).numpy().tolist() == []

    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32),
                                  tf.TensorSpec([None], tf.float32)])
    def f(boxes, scores):
        out = tf.image.non_max_suppression(boxes, scores, 2)
        assert out.shape.as_list() == [None]
        return out
    boxes = np.array([[0, 0, 1, 1], [0, 0, 1, 0.5], [2, 2, 3, 3]], np.float32)
    # IoU exactly 0.5 is kept (only IoU > threshold suppresses), as in TensorFlow.
    assert f(boxes, np.array([0.9, 0.8, 0.1], np.float32)).numpy().tolist() == [0, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="iou_threshold"):
        tf.image.non_max_suppression(boxes, [0.9, 0.8, 0.1], 2, iou_threshold=1.5)


# d loss / d boxes from TensorFlow 2.21 (the nearest method uses the bilinear slopes too).
BOX_GRADIENTS = {
    ("bilinear", 4, 5): ('float32', (4, 4), -14.611614406108856, 16.656382051358474),
    ("nearest", 3, 1): ('float32', (4, 4), 0.41254472732543945, 11.857209764699384),
    ("bilinear", 1, 3): ('float32', (4, 4), -2.152822509407997, -0.27451139330965546),
}


@pytest.mark.parametrize("method,height,width", sorted(BOX_GRADIENTS))
def test_crop_and_resize_boxes_gradient(method, height, width):
    boxes = tf.constant(_CROP_BOXES)
    with tf.GradientTape() as tape:
        tape.watch(boxes)
        y = tf.image.crop_and_resize(_IMG, boxes, [0, 1, 1, 0], [height, width], method=method)
        weights = np.sin(np.arange(np.prod(y.shape))).reshape(y.shape).astype(np.float32)
        loss = tf.reduce_sum(y * weights)
    _check(tape.gradient(loss, boxes).numpy(), BOX_GRADIENTS[(method, height, width)])


def test_nms_padded_matches_tensorflow():
    rng = np.random.default_rng(4)
    corners = rng.uniform(size=(12, 2, 2)).astype(np.float32)
    boxes = np.concatenate([corners.min(axis=1), corners.max(axis=1)], axis=1)
    boxes[5] = boxes[2] + 0.01
    scores = rng.uniform(size=12).astype(np.float32)
    scores[7] = scores[3]
    # From TensorFlow 2.21.
    for pad, expected in ((False, [10, 4, 0, 6, 2, 5, 11]),
                          (True, [10, 4, 0, 6, 2, 5, 11, 0, 0, 0])):
        indices, valid = tf.function(tf.image.non_max_suppression_padded)(
            boxes, scores, 10, 0.5, 0.4, pad_to_max_output_size=pad)
        assert indices.numpy().tolist() == expected and int(valid) == 7
    with pytest.raises(ValueError, match="must be True for batched input"):
        tf.image.non_max_suppression_padded(boxes[None], scores[None], 3)
