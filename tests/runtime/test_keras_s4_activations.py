"""Keras 3 activations beyond the basic ones (celu, glu, hard_*, shrinks, log_*, mish,
squareplus, sparse_*, sparsemax, threshold): values equal to TensorFlow 2.21's (recorded
from TensorFlow as literals), eager == staged, gradients checked numerically."""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from tests.runtime.test_image_s4 import _check
from tests.runtime.test_nn_ops import numeric_check
from tests.staging import assert_same

A = tf.keras.activations
X = np.linspace(-3, 3, 24).astype(np.float32).reshape(4, 6)
CALLS = {"threshold": lambda x: A.threshold(x, 0.5, -1.0), "celu2": lambda x: A.celu(x, 2.0)}
# fn(X) from TensorFlow 2.21 (Keras 3): dtype, shape, sum, sin-weighted sum.
EXPECTED = {
    'celu': ('float32', (4, 6), 10.438055917620659, -0.8738021034351593),
    'glu': ('float32', (4, 3), 4.023301482200623, -1.7122872271163343),
    'hard_sigmoid': ('float32', (4, 6), 12.000000156462193, 0.024544180094713375),
    'hard_silu': ('float32', (4, 6), 13.043478224426508, -0.20108877893716293),
    'hard_swish': ('float32', (4, 6), 13.043478224426508, -0.20108877893716293),
    'hard_tanh': ('float32', (4, 6), 0.0, -1.0041883433701635),
    'hard_shrink': ('float32', (4, 6), 0.0, -3.2298894040924084),
    'soft_shrink': ('float32', (4, 6), 0.0, -2.594791426037094),
    'tanh_shrink': ('float32', (4, 6), 0.0, -1.9715265557266568),
    'log_sigmoid': ('float32', (4, 6), -24.74679445847869, -2.799705634670753),
    'log_softmax': ('float32', (4, 6), -45.33596122264862, -4.949727540613636),
    'mish': ('float32', (4, 6), 15.170919075608253, -0.17813204327704737),
    'squareplus': ('float32', (4, 6), 31.712636291980743, 0.2661006957740612),
    'sparse_plus': ('float32', (4, 6), 19.41020782548003, -0.08484048181953052),
    'sparse_sigmoid': ('float32', (4, 6), 12.000000029802322, -0.012191229955483274),
    'sparsemax': ('float32', (4, 6), 12.028984248638153, -2.0102393802597858),
    'threshold': ('float32', (4, 6), 4.2608694434165955, -0.21764632104789805),
    'celu2': ('float32', (4, 6), 6.9020295441150665, -1.4558529116277918),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_values_match_tensorflow(name):
    fn = CALLS.get(name, getattr(A, name, None))
    _check(assert_same(fn, X), EXPECTED[name])


@pytest.mark.parametrize("name", ["celu", "glu", "mish", "squareplus", "log_sigmoid",
                                  "sparse_plus", "tanh_shrink", "hard_silu"])
def test_gradients_numerically(name):
    numeric_check(getattr(A, name), X.astype(np.float64) + 0.013)


def test_lookup():
    assert A.get("mish") is A.mish and A.get("hard_swish") is A.hard_silu
    assert A.deserialize("sparsemax") is A.sparsemax
    assert A.deserialize({"class_name": "function", "config": "celu"}) is A.celu
