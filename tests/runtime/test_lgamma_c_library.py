"""tf.math.lgamma is the C library's lgammaf/lgamma, as TensorFlow's kernel: exact zeros
at 1 and 2 (a float64 series printed 3.5527137e-15 there). Values are TensorFlow 2.21's."""
import numpy as np

import runtime as rt
from tests.staging import eager, staged


def test_lgamma_matches_tensorflow_float32_and_float64():
    x = np.float32([1.0, 2.0, 0.5, 3.7, -2.5, 0.0, 19.770864])
    want = np.float32([0.0, 0.0, 0.5723649263381958, 1.428072452545166, -0.056243713945150375,
                       np.inf, 38.660579681396484])
    for run in (eager, staged):
        got = run(rt.math.lgamma, x)
        assert got.dtype == np.float32
        np.testing.assert_array_equal(got, want)
        np.testing.assert_array_equal(run(rt.math.lgamma, np.float64([1.0, 2.0])), [0.0, 0.0])
    assert eager(rt.math.lgamma, np.float32(1.0)) == 0.0
