"""The "Random number generation" guide: ``tf.random.Generator`` and stateless ops.

Seeded values are TensorFlow's own (Philox4x32-10 and TF's conversions to floats and
integers), recorded from TensorFlow 2.21 as literals, as is what the guide prints.
"""
import textwrap

import numpy as np
import pytest

import autograph as tf


def expect(text: str) -> str:
    return textwrap.dedent(text).lstrip("\n")


def test_generator_guide_prints(capsys):
    g1 = tf.random.Generator.from_seed(1)
    print(g1.normal(shape=[2, 3]))
    g = tf.random.Generator.from_seed(1)
    print(g.normal([]))
    print(g.normal([]))
    g.reset_from_seed(1)
    print(g.normal([]))
    g = tf.random.Generator.from_seed(1)
    print(g.normal([]))
    new_gs = g.split(3)
    for new_g in new_gs:
        print(new_g.normal([]))
    print(g.normal([]))
    assert capsys.readouterr().out == expect("""
        tf.Tensor(
        [[ 0.43842274 -0.53439844 -0.07710262]
         [ 1.5658046  -0.1012345  -0.2744976 ]], shape=(2, 3), dtype=float32)
        tf.Tensor(0.43842274, shape=(), dtype=float32)
        tf.Tensor(1.6272374, shape=(), dtype=float32)
        tf.Tensor(0.43842274, shape=(), dtype=float32)
        tf.Tensor(0.43842274, shape=(), dtype=float32)
        tf.Tensor(2.536413, shape=(), dtype=float32)
        tf.Tensor(0.33186463, shape=(), dtype=float32)
        tf.Tensor(-0.07144657, shape=(), dtype=float32)
        tf.Tensor(-0.79253083, shape=(), dtype=float32)
        """)


def test_generators_and_tf_function(capsys):
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def foo():
        return g.normal([])
    print(foo())
    g = None

    @tf.function
    def bar():
        nonlocal g
        if g is None:
            g = tf.random.Generator.from_seed(1)  # created on the first trace
        return g.normal([])
    print(bar())
    print(bar())
    assert capsys.readouterr().out == expect("""
        tf.Tensor(0.43842274, shape=(), dtype=float32)
        tf.Tensor(0.43842274, shape=(), dtype=float32)
        tf.Tensor(1.6272374, shape=(), dtype=float32)
        """)


def test_state_and_distributions():
    g = tf.random.Generator.from_seed(1)
    assert repr(g.state) == (
        "<tf.Variable 'StateVar:0' shape=(3,) dtype=int64, numpy=array([1, 0, 0])>")
    assert str(g.uniform([2, 3])) == expect("""
        tf.Tensor(
        [[0.78749514 0.3906511  0.29263055]
         [0.99216926 0.95810425 0.55623317]], shape=(2, 3), dtype=float32)""")
    assert g.uniform([2], minval=0, maxval=10, dtype=tf.int32).numpy().tolist() == [0, 0]
    assert g.uniform([2], minval=0, maxval=10, dtype=tf.int64).numpy().tolist() == [3, 7]
    assert str(g.truncated_normal([3])) == (
        "tf.Tensor([-0.72790533 -1.6161479  -1.4908872 ], shape=(3,), dtype=float32)")
    assert g.uniform_full_int([2], dtype=tf.int64).numpy().tolist() == [
        368375583331789817, -5845026356432836628]
    assert g.state.numpy().tolist() == [3841, 0, 0]  # 256 per value drawn, as TensorFlow
    g = tf.random.Generator.from_seed(1)
    assert g.normal([3], dtype=tf.float64).numpy().tolist() == [
        1.3047755394201908, -0.8400973242485322, 0.8239721517327651]
    g = tf.random.Generator.from_seed(1)
    assert g.truncated_normal([9]).numpy().tolist()[3:6] == [
        1.5658046007156372, 1.6272374391555786, 0.041380707174539566]
    g = tf.random.Generator.from_seed(1)
    assert g.uniform([2], dtype=tf.float16).numpy().tolist() == [0.16015625, 0.2138671875]
    assert g.normal([3], dtype=tf.float16).numpy().tolist() == [
        1.630859375, 0.00785064697265625, 0.0277557373046875]
    assert g.truncated_normal([3], dtype=tf.float64).numpy().tolist() == [
        -0.16657024040781215, 0.21477112866427892, 0.34840860196736534]
    assert g.uniform([3], minval=-2**31, maxval=2**31 - 1, dtype=tf.int32).numpy().tolist() == [
        2060050843, -1164483866, 175443031]
    assert g.uniform([3], minval=-5, maxval=2**62, dtype=tf.int64).numpy().tolist() == [
        1935276270783312558, 160281101306929987, 3517208880016009605]


def test_split_make_seeds_from_state_share():
    g = tf.random.Generator.from_seed(1)
    assert [x.state.numpy().tolist() for x in g.split(2)] == [
        [0, 0, 6679402142117448868], [0, 0, 684265014234019051]]
    assert g.state.numpy().tolist() == [513, 0, 0]
    assert g.make_seeds(2).numpy().tolist() == [
        [-1648345058620875413, 1494989255412213957], [0, 0]]
    g = tf.random.Generator.from_seed(1)
    g2 = tf.random.Generator.from_state(g.state, alg="philox")
    assert g2.state is g.state  # TensorFlow shares a Variable given as the state
    g2.normal([2])
    assert g.state.numpy().tolist() == [513, 0, 0]
    assert tf.random.Generator.from_seed(-1).state.numpy().tolist() == [-1, -1, -1]
    assert tf.random.Generator.from_key_counter(5, [7, 9], "philox").state.numpy().tolist() == [
        7, 9, 5]


def test_stateless_ops_are_tensorflows():
    assert tf.random.stateless_uniform([4], seed=[1, 2], minval=None, maxval=None,
                                       dtype=tf.int32).numpy().tolist() == [
        1105988140, 1738052849, -335576002, 370444179]
    assert str(tf.random.stateless_normal(shape=[2, 3], seed=[1, 2])) == expect("""
        tf.Tensor(
        [[ 0.5441101   0.20738031  0.07356432]
         [ 0.04643455 -1.3015898  -0.9538565 ]], shape=(2, 3), dtype=float32)""")
    assert tf.random.stateless_uniform([3], seed=[1, 2], minval=0, maxval=100,
                                       dtype=tf.int32).numpy().tolist() == [40, 49, 94]
    assert str(tf.random.stateless_truncated_normal(shape=[3], seed=[3, 4])) == (
        "tf.Tensor([-0.17393383  1.6723547   0.34817016], shape=(3,), dtype=float32)")
    assert tf.random.stateless_truncated_normal([6], seed=[3, 4],
                                                dtype=tf.float64).numpy().tolist() == [
        -0.33108455971554474, 0.027812399664981575, -0.3426617871510759, 0.7552056484940203,
        -0.5822817890198345, -0.43863140118077787]
    assert tf.random.stateless_uniform([3], seed=[-3, 2**40],
                                       dtype=tf.float64).numpy().tolist() == [
        0.609805040316808, 0.7476304657934467, 0.32043400199397887]
    assert tf.random.split([1, 2]).numpy().tolist() == [[1105988140, 1738052849],
                                                       [-335576002, 370444179]]
    assert tf.random.fold_in([1, 2], 3).numpy().tolist() == [1105988140, 3]


@pytest.fixture
def global_seed():
    yield
    tf.random.set_seed(None)


def test_global_seed_ops_are_tensorflows(global_seed):
    tf.random.set_seed(5)
    assert tf.random.uniform([2]).numpy().tolist() == [0.6263930797576904, 0.5298432111740112]
    assert tf.random.uniform([2], seed=1).numpy().tolist() == [0.38751840591430664,
                                                               0.7485455274581909]
    assert tf.random.normal([2], seed=1).numpy().tolist() == [-1.376889705657959,
                                                              -0.012583157978951931]
    tf.random.set_seed(5)
    assert tf.random.uniform([2]).numpy().tolist() == [0.6263930797576904, 0.5298432111740112]

    @tf.function
    def f(x):
        a = tf.random.uniform([3])
        y = x * 2 + 1  # noqa: F841  (other ops do not change the op seeds: 0, 1, 2...)
        b = tf.random.uniform([3])
        c = tf.random.uniform([3], 0, 10)
        return a, b, c, tf.random.truncated_normal([2], seed=4)
    first = [v.numpy().tolist() for v in f(tf.constant(1.))]
    assert [v[0] for v in first[:3]] == [0.18286478519439697, 0.38751840591430664,
                                         0.14760375022888184]
    assert first[3] == [-0.13512393832206726, 0.5751126408576965]
    assert f(tf.constant(1.))[3].numpy().tolist() == [-0.7034366130828857, 1.2803314924240112]


def test_staged_generator_draws_match_eager():
    g = tf.random.Generator.from_seed(1)

    @tf.function
    def draw():
        return g.uniform([3], 0, 10, dtype=tf.int32), g.normal([2], dtype=tf.float64)
    ints, normals = draw()
    assert ints.numpy().tolist() == [4, 9, 3]
    assert g.state.numpy().tolist() == [1 + 5 * 256, 0, 0]
    h = tf.random.Generator.from_state([1 + 3 * 256, 0, 0], "philox")
    assert normals.numpy().tolist() == h.normal([2], dtype=tf.float64).numpy().tolist()


def test_random_shuffle_is_tensorflows(global_seed):
    tf.random.set_seed(None)  # fresh kernels (their streams continue from call to call)
    # one kernel (op, seeds, dtype) continues its stream from call to call, as in TensorFlow
    got = [tf.random.shuffle(tf.range(n), seed=11).numpy().tolist() for n in (5, 9, 3, 12, 1, 6)]
    assert got == [[1, 0, 3, 4, 2], [6, 4, 3, 8, 1, 7, 2, 0, 5], [0, 1, 2],
                   [5, 0, 7, 6, 10, 1, 4, 8, 11, 2, 9, 3], [0], [1, 4, 3, 5, 0, 2]]
    assert tf.random.shuffle(tf.reshape(tf.range(8), [4, 2]), seed=12).numpy().tolist() == [
        [4, 5], [2, 3], [6, 7], [0, 1]]


def test_categorical_is_tensorflows(global_seed):
    tf.random.set_seed(None)
    logits = tf.math.log([[0.5, 0.5], [0.1, 0.9]])
    got = [tf.random.categorical(logits, n, seed=3).numpy().tolist() for n in (6, 3)]
    assert got == [[[0, 1, 0, 1, 0, 1], [0, 1, 0, 1, 1, 1]], [[1, 1, 1], [1, 1, 1]]]
    assert tf.random.stateless_categorical(logits, 6, seed=[7, 17]).numpy().tolist() == [
        [1, 0, 1, 0, 0, 0], [1, 1, 1, 0, 1, 1]]
    assert tf.random.stateless_categorical([[1., 2., float("-inf"), 0.5]], 8, seed=[1, 1],
                                           dtype=tf.int32).numpy().tolist() == [
        [1, 1, 1, 3, 0, 0, 1, 1]]

    @tf.function
    def f():
        return tf.random.categorical(logits, 4, seed=5)
    assert [f().numpy().tolist(), f().numpy().tolist()] == [
        [[0, 1, 1, 1], [0, 1, 1, 1]], [[1, 0, 0, 1], [1, 1, 1, 1]]]


def test_float32_normals_use_the_c_librarys_rounding():
    """TF's Box-Muller calls logf/sinf/cosf, which are not correctly rounded: values where
    they differ from the correctly rounded ones (recorded from TensorFlow)."""
    z = tf.random.stateless_truncated_normal([20000], seed=[9, 9]).numpy()
    assert [float(z[i]) for i in (62, 95, 228, 229, 253)] == [
        0.19698025286197662, 0.6382319331169128, 0.8263810873031616, -0.4487186372280121,
        -0.2037048637866974]
    assert float(z.astype(np.float64).sum()) == 143.5279105391037
