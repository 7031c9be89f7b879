"""The differential programs under ``jit_compile=True``: results equal the numpy backend's.

One Function per program (all inputs share one trace, so one XLA compile).
Every program tf.function stages is compilable (ints, control flow nested to
any depth), so each must compile.
"""
import numpy as np
import pytest

import autograph as tf
from tests.autograph.programs import PROGRAMS

pytest.importorskip("jax")

STAGED = [pytest.param(fn, inputs, id=fn.__name__) for fn, inputs, staged in PROGRAMS
          if staged is True]


def _tensor(v):
    return tf.constant(np.float32(v) if isinstance(v, float) else np.int32(v))


def _values(result):
    return [np.asarray(t) for t in tf.nest.flatten(result)]


@pytest.mark.parametrize("fn,inputs", STAGED)
def test_program_compiled_equals_numpy(fn, inputs):
    compiled = tf.function(fn, jit_compile=True)
    reference = tf.function(fn)
    for args in inputs:
        tensors = [_tensor(a) for a in args]
        try:
            expected = _values(reference(*tensors))
        except Exception as e:  # tf.function refuses it (loop else...): nothing to compile
            pytest.skip(f"not a tf.function program: {type(e).__name__}")
        got = _values(compiled(*tensors))
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            assert g.dtype == e.dtype
            np.testing.assert_allclose(g, e, rtol=1e-6)
