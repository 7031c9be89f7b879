"""float32 exp/log/tanh/sigmoid and what is built on them print TensorFlow's digits.

The expected values are TensorFlow 2.21's (CPU). The input has 11 elements: the
first 8 are one Eigen packet (polynomial approximations), the last 3 go through
the C library's scalar functions, so ``sigmoid(1.0)`` differs between the two
halves in the last place, as in TensorFlow.
"""
import numpy as np
import pytest

import runtime as rt
from tests.staging import eager, staged

X = np.array([-9.2, -2.3, -1.6, -0.4, 0.19, 0.6, 1.0, 5.48, -1.0, 1.0, 2.0], np.float32)
POSITIVE = np.abs(X) + np.float32(0.5)

EXPECTED = {
    "exp": (rt.exp, X, [0.00010103942622663453, 0.10025884956121445, 0.2018965184688568, 0.6703200340270996, 1.2092496156692505, 1.822118878364563, 2.7182817459106445, 239.84671020507812, 0.3678794503211975, 2.7182817459106445, 7.389056205749512]),
    "tanh": (rt.tanh, X, [-1.0, -0.9800963997840881, -0.921668529510498, -0.3799489736557007, 0.18774619698524475, 0.5370495915412903, 0.7615941762924194, 0.9999651908874512, -0.7615941762924194, 0.7615941762924194, 0.9640275835990906]),
    "sigmoid": (rt.sigmoid, X, [0.00010102921805810183, 0.09112296253442764, 0.1679816097021103, 0.40131229162216187, 0.5473576784133911, 0.6456563472747803, 0.7310585379600525, 0.9958480000495911, 0.2689414322376251, 0.7310585975646973, 0.8807970881462097]),
    "softplus": (rt.nn.softplus, X, [0.00010103431122843176, 0.09554547071456909, 0.18390072882175446, 0.5130152702331543, 0.79265296459198, 1.0374878644943237, 1.31326162815094, 5.484160900115967, 0.3132616877555847, 1.31326162815094, 2.1269280910491943]),
    "elu": (rt.nn.elu, X, [-0.9998989701271057, -0.8997411727905273, -0.7981034517288208, -0.3296799659729004, 0.1899999976158142, 0.6000000238418579, 1.0, 5.480000019073486, -0.6321205496788025, 1.0, 2.0]),
    "expm1": (rt.math.expm1, X, [-0.9998989701271057, -0.8997411727905273, -0.7981034517288208, -0.3296799659729004, 0.2092496156692505, 0.822118878364563, 1.7182817459106445, 238.84671020507812, -0.6321205496788025, 1.7182817459106445, 6.389056205749512]),
    "log": (rt.math.log, POSITIVE, [2.2721259593963623, 1.0296194553375244, 0.7419372797012329, -0.10536053776741028, -0.3710637092590332, 0.09531020373106003, 0.40546509623527527, 1.788420557975769, 0.40546509623527527, 0.40546509623527527, 0.9162907600402832]),
    "log1p": (rt.math.log1p, POSITIVE, [2.370243787765503, 1.3350011110305786, 1.1314021348953247, 0.6418538689613342, 0.524728536605835, 0.7419373393058777, 0.9162907600402832, 1.9430488348007202, 0.9162907600402832, 0.9162907600402832, 1.252763032913208]),
}


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_float32_functions_round_as_tensorflow(name):
    fn, x, want = EXPECTED[name]
    want = np.array(want, np.float32)
    np.testing.assert_array_equal(eager(fn, x), want)
    np.testing.assert_array_equal(staged(fn, x), want)
    # a 2-D array is split into packets as the same 11 flattened elements
    np.testing.assert_array_equal(eager(fn, np.concatenate([x, x[:1]]).reshape(3, 4)).reshape(-1)[:8],
                                  want[:8])


def test_scalars_use_the_c_library_and_softmax_prints_the_guides_digits():
    assert eager(rt.exp, np.float32(1.0)) == np.float32(2.7182817459106445)   # numpy: 2.718282
    assert eager(rt.math.log1p, np.float32(6.0)) == np.float32(1.9459102153778076)
    softmax = eager(rt.nn.softmax, np.array([[4.0, 5.0], [10.0, 1.0]], np.float32))
    np.testing.assert_array_equal(softmax, np.array([[0.2689414322376251, 0.7310585975646973],
                                                     [0.9998766183853149, 0.00012339458044152707]],
                                                    np.float32))


def test_other_dtypes_keep_numpy_and_denormals_flush_to_zero():
    np.testing.assert_array_equal(eager(rt.exp, X.astype(np.float64)), np.exp(X.astype(np.float64)))
    assert eager(rt.exp, np.full(8, -100.0, np.float32)).tolist() == [0.0] * 8  # 3.7e-44 unflushed
