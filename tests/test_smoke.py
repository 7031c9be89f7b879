import numpy as np

import runtime as rt
from tests.staging import assert_same


def test_add_tanh_eager_equals_staged():
    x = np.random.rand(5).astype(np.float32)
    assert_same(lambda x: rt.tanh(x + 1.0), x)


def test_while_inside_cond_inside_while():
    def f(x):
        def body(v, i):
            inner = rt.cond(i > 1, lambda: rt.while_loop(lambda u: u > 0.5, rt.tanh, [v])[0],
                            lambda: v * 2.0)
            return inner, i + 1
        return rt.while_loop(lambda v, i: i < 4, body, [x, 0])
    assert_same(f, np.float32(3.0))
