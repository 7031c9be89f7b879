"""float32 exp and log of fewer than 8 elements round as TensorFlow's scalar path does
(graph/ops/scalar_path.py); larger arrays keep numpy's ufunc and its in-place fast paths."""
from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

import autograph as tf
from graph.ir import Graph
from graph.ops import scalar_path
from graph.registry import get_op

# TensorFlow 2.21's values (CPU): numpy's float32 exp gives 2.7182820 for 1.0, 12.182493 for 2.5
_X = [0.1, 1.0, 2.5, -3.7, 7.25]
_TF_EXP = [1.1051709651947021, 2.7182817459106445, 12.182494163513184, 0.02472352609038353,
           1408.1048583984375]


def test_small_exp_is_tensorflows_eagerly_and_staged():
    x = tf.constant(_X)
    assert tf.exp(x).numpy().tolist() == _TF_EXP
    assert tf.function(tf.exp)(x).numpy().tolist() == _TF_EXP

    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def unknown_size(v):
        return tf.exp(v)
    assert unknown_size(x).numpy().tolist() == _TF_EXP
    assert str(tf.exp(1.0)) == "tf.Tensor(2.7182817, shape=(), dtype=float32)"


def test_softmax_prints_what_the_tensors_guide_shows():
    out = tf.nn.softmax(tf.constant([[1.0, 2.0], [10.0, 1.0]]))
    assert str(out) == ("tf.Tensor(\n[[2.6894143e-01 7.3105860e-01]\n"
                        " [9.9987662e-01 1.2339458e-04]], shape=(2, 2), dtype=float32)")


def _node(op: str, shape, dtype=tf.float32):
    g = Graph("g")
    x = g.add_node("Placeholder", attrs={"dtype": dtype, "shape": tf.TensorShape(shape)})
    return g.add_node(op, [x.output(0)])


def test_graph_kernels_are_the_bare_ufunc_where_no_rounding_is_needed():
    for op, ufunc in (("Exp", np.exp), ("Log", np.log)):
        build = get_op(op).make_kernel
        assert build(_node(op, [8]), None) is ufunc          # a whole packet: numpy's
        assert build(_node(op, [2, 3], tf.float64), None) is ufunc
        assert build(_node(op, [7]), None) is not ufunc      # the scalar path
        assert build(_node(op, [None]), None) is not ufunc   # decided when it runs


@settings(max_examples=200, deadline=None)
@given(st.lists(st.floats(-80, 80, width=32), min_size=0, max_size=7))
def test_small_float32_results_are_the_float64_values_rounded_once(values):
    x = np.array(values, np.float32)
    want = np.exp(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_array_equal(scalar_path.checked(np.exp)(x), want)
    np.testing.assert_array_equal(tf.exp(tf.constant(x)).numpy(), want)
    big = np.resize(x, 64) if values else np.zeros(64, np.float32)
    np.testing.assert_array_equal(scalar_path.checked(np.exp)(big), np.exp(big))
