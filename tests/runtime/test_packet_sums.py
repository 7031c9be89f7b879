"""float sums, means and products add in TensorFlow's order (graph/ops/packet_sums.py).

Expected values are TensorFlow 2.21's (CPU); numpy's pairwise sum differs in the
last place for each of the marked ones.
"""
import numpy as np

import runtime as rt
from tests.staging import eager, staged

X = ((np.arange(40, dtype=np.float32) * np.float32(0.37) - 5) ** 3 / 7).astype(np.float32)


def check(fn, x, want):
    want = np.array(want, np.float32)
    np.testing.assert_array_equal(eager(fn, x), want)
    np.testing.assert_array_equal(staged(fn, x), want)


def test_full_reduction_and_mean():
    check(rt.reduce_sum, X, 754.7708129882812)          # numpy: 754.770751953125
    check(rt.reduce_mean, X, 18.86927032470703)         # numpy: 18.8692684173584
    check(lambda x: rt.reduce_prod(x[:20] / 10 + 1), X, -0.0006158011383377016)


def test_rows_columns_and_middle_axes():
    check(lambda x: rt.reduce_sum(rt.reshape(x, [4, 10]), 1), X,
          [-69.13217163085938, 1.8362109661102295, 115.63475036621094, 706.4320068359375])
    x16 = np.tile(X, 4).reshape(16, 10)  # 16 rows: four interleaved packet accumulators
    check(lambda x: rt.reduce_sum(x, 0), x16,
          [64.91888427734375, 109.73530578613281, 156.2790069580078, 205.2446746826172,
           257.32696533203125, 313.2205505371094, 373.6200866699219, 439.22039794921875,
           510.71588134765625, 588.8013916015625])
    t = np.tile(X, 3).reshape(3, 4, 10)
    check(lambda x: rt.reduce_sum(x, 1)[2], t,
          [16.229721069335938, 27.433826446533203, 39.06975173950195, 51.3111686706543,
           64.33174133300781, 78.30513763427734, 93.40502166748047, 109.80509948730469,
           127.67897033691406, 147.20034790039062])
    check(lambda x: rt.reduce_sum(x, [0, 2]), t,
          [-207.3965301513672, 5.508633613586426, 346.9042053222656, 2119.2958984375])


def test_keepdims_shapes_and_small_inputs_unchanged():
    assert eager(lambda x: rt.reduce_sum(x, [0, 2], keepdims=True), np.ones((3, 4, 10), np.float32)).shape == (1, 4, 1)
    assert not np.signbit(eager(rt.reduce_sum, np.float32([-0.0] * 9)))  # TensorFlow's 0.0
    np.testing.assert_array_equal(eager(lambda x: rt.reduce_sum(x, 0), np.ones((0, 3), np.float32)), [0, 0, 0])
