"""Realistic programs under ``jit_compile=True`` against TensorFlow 2.21's XLA, round 2.

Each program runs compiled; its outputs are compared with TensorFlow's own
``jit_compile=True`` run of the same code, recorded as literals (per-output
checksums: dtype, shape, sum of |x|, a weighted sum that sees order). They cover
Keras training steps with metrics updated in the step, custom gradients, autograph
loops that break or return early, gradients of gathers, scatters and segment ops,
Variables assigned in loops and branches, sorting with ties, and float16: its
random draws (TensorFlow's XLA mantissa bits), sums accumulated in float32, and
int64 seeds (XLA reads their low 32 bits).
"""
import numpy as np
import pytest

import autograph as tf
from tests.xla.test_s5_programs import checksums

pytest.importorskip("jax")

JIT = True  # the recorder runs these programs in TensorFlow with the same flag




# -- the programs -------------------------------------------------------------------------------

def keras_mlp_metrics():
    tf.keras.utils.set_random_seed(1)
    model = tf.keras.Sequential([tf.keras.layers.Dense(8, activation="relu"),
                                 tf.keras.layers.Dropout(0.3), tf.keras.layers.Dense(3)])
    model.build((None, 4))
    opt = tf.keras.optimizers.Adam(0.01)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)
    acc, mean = tf.keras.metrics.SparseCategoricalAccuracy(), tf.keras.metrics.Mean()
    rng = np.random.RandomState(0)
    x, y = rng.randn(16, 4).astype(np.float32), rng.randint(0, 3, 16).astype(np.int32)

    @tf.function(jit_compile=JIT)
    def step(x, y):
        with tf.GradientTape() as tape:
            logits = model(x, training=False)
            loss = loss_fn(y, logits)
        grads = tape.gradient(loss, model.trainable_variables)
        opt.apply_gradients(zip(grads, model.trainable_variables))
        acc.update_state(y, logits)
        mean.update_state(loss)
        return loss, acc.result(), mean.result()
    return [step(x, y) for _ in range(3)], model.trainable_variables, opt.iterations


def custom_gradients():
    @tf.custom_gradient
    def clip_grad(x):
        return tf.identity(x), lambda dy: tf.clip_by_value(dy, -0.5, 0.5)

    @tf.custom_gradient
    def log1pexp(x):
        e = tf.exp(x)
        return tf.math.log(1 + e), lambda dy: dy * (1 - 1 / (1 + e))
    v = tf.Variable([1.0, -2.0])

    @tf.custom_gradient
    def scale_var(x):
        def grad(dy, variables=None):
            return dy * v, [tf.reduce_sum(dy * x) * tf.ones_like(v)]
        return x * v, grad

    @tf.function(jit_compile=JIT)
    def f(x):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(x)
            a = tf.reduce_sum(clip_grad(x) * 3.)
            b = tf.reduce_sum(log1pexp(x))
            c = tf.reduce_sum(scale_var(x) ** 2)
        return a, b, c, tape.gradient(a, x), tape.gradient(b, x), tape.gradient(c, [x, v])

    @tf.function(jit_compile=JIT)
    def hessian(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = tf.reduce_sum(tf.sin(x) * x ** 2)
            g = t1.gradient(y, x)
        return g, t2.jacobian(g, x)
    return f(np.float32([0.5, 100.])), hessian(np.float32([0.1, 0.7, 1.5]))


def early_exits():
    @tf.function(jit_compile=JIT)
    def early_return(x):
        if tf.reduce_sum(x) > 0:
            return x * 2
        y = x - 1
        if tf.reduce_min(x) < -5:
            return y * 0
        return y

    @tf.function(jit_compile=JIT)
    def collatz(n):
        steps = 0
        while n != 1:
            n = n // 2 if n % 2 == 0 else 3 * n + 1
            steps += 1
            if steps >= 50:
                break
        return steps, n

    @tf.function(jit_compile=JIT)
    def newton(a):
        x = a
        for _ in tf.range(100):
            nx = 0.5 * (x + a / x)
            if tf.abs(nx - x) < 1e-6:
                break
            x = nx
        return x
    return (early_return(np.float32([1., 2.])), early_return(np.float32([-1., -7.])),
            early_return(np.float32([-1., -2.])), collatz(np.int32(27)),
            collatz(np.int32(7)), newton(np.float32(10.)))


def gather_scatter_segment_grads():
    rng = np.random.RandomState(7)
    params = rng.randn(6, 3).astype(np.float32)

    @tf.function(jit_compile=JIT)
    def f(params, idx, seg):
        with tf.GradientTape(persistent=True) as tape:
            tape.watch(params)
            g = tf.gather(params, idx)
            sc = tf.tensor_scatter_nd_add(params, tf.reshape(idx, [-1, 1]), g * 2.)
            ss = tf.math.unsorted_segment_sum(params, seg, 4)
            sm = tf.math.unsorted_segment_mean(params, seg, 4)
            smax = tf.math.unsorted_segment_prod(params, seg, 4)
            um = tf.math.unsorted_segment_max(params, seg, 5)
            usq = tf.math.unsorted_segment_sqrt_n(params, seg, 4)
            loss = (tf.reduce_sum(g ** 2) + tf.reduce_sum(sc * sc) + tf.reduce_sum(ss * sm)
                    + tf.reduce_sum(smax) + tf.reduce_sum(um * 2) + tf.reduce_sum(usq))
        return g, sc, ss, sm, smax, um, usq, tape.gradient(loss, params)
    return f(params, np.int32([0, 2, 2, 5, 1]), np.int32([0, 0, 1, 1, 1, 3]))


def variables_in_loops_and_branches():
    v, c = tf.Variable(tf.zeros([4])), tf.Variable(0, dtype=tf.int64)
    m = tf.Variable(tf.zeros([3, 2]))

    @tf.function(jit_compile=JIT)
    def f(x):
        for i in tf.range(4):
            v.assign_add(x * tf.cast(i, tf.float32))
            c.assign_add(1)
        v.scatter_nd_update([[0], [2]], [10., 20.])
        m.scatter_nd_add([[1, 1], [0, 0]], [1., 2.])
        m.assign(m * 2.)
        return v.read_value(), c + 0, m.value()
    cnt = tf.Variable(0)

    @tf.function(jit_compile=JIT)
    def branch(x):
        if tf.reduce_sum(x) > 0:
            cnt.assign_add(1)
        else:
            cnt.assign_sub(1)
        return cnt.read_value()
    out = [f(np.float32([1., 2., 3., 4.])), f(np.float32([0.5] * 4))]
    out += [branch(np.float32([s])) for s in (1., -1., -1.)]
    return out, v, c, m, cnt


def sort_top_k_ties():
    x = np.array([[3., 1., 3., 2., 1., 3.], [0., -0., np.nan, 5., -np.inf, 5.]], np.float32)
    xi = np.array([[4, 4, 1, 4, 2, 1], [7, 7, 7, -1, 0, -1]], np.int32)

    @tf.function(jit_compile=JIT)
    def f(x, xi):
        return (tf.sort(x, direction="DESCENDING"), tf.argsort(x), tf.argsort(xi, stable=True),
                tf.argsort(xi, direction="DESCENDING", stable=True), tf.math.top_k(xi, 3),
                tf.math.top_k(x[:1], 4))

    @tf.function(jit_compile=JIT)
    def grads(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            v, i = tf.math.top_k(x, 2)
            loss = tf.reduce_sum(v * 2.) + tf.reduce_sum(tf.sort(x) * tf.range(6, dtype=tf.float32))
        return v, i, tape.gradient(loss, x)
    return f(x, xi), grads(np.float32([[1., 3., 3., 2., 3., 0.]]))


def half_precision_sums():
    rng = np.random.RandomState(22)
    x, w = rng.randn(4, 5).astype(np.float16), rng.randn(5, 3).astype(np.float16)

    @tf.function(jit_compile=JIT)
    def f(x, w):
        h = tf.matmul(x, w)
        with tf.GradientTape() as tape:
            tape.watch(w)
            loss = tf.reduce_sum(tf.nn.relu(tf.matmul(x, w)) ** 2)
        return (tf.reduce_sum(h, axis=0), tf.reduce_mean(h), tf.nn.log_softmax(h),
                tf.reduce_sum(x * 1000.), tf.cumsum(x * 100., axis=1), tf.nn.l2_loss(x * 30.),
                tf.math.reduce_prod(x[:, :3] * 4., axis=1), tf.math.lgamma(x + 3.), loss,
                tape.gradient(loss, w))
    return f(x, w)


def half_precision_random():
    @tf.function(jit_compile=JIT)
    def stateless(seed):
        return (tf.random.stateless_uniform([5], seed, dtype=tf.float16),
                tf.random.stateless_normal([5], seed, dtype=tf.float16),
                tf.random.stateless_normal([3, 3], seed, dtype=tf.float16),
                tf.random.stateless_uniform([3], seed, minval=-2., maxval=3., dtype=tf.float16),
                tf.random.stateless_uniform([4], seed, minval=0, maxval=100, dtype=tf.int64),
                tf.random.stateless_normal([2, 3], seed, mean=1., stddev=2.),
                tf.nn.experimental.stateless_dropout(tf.ones([8], tf.float16), 0.25, seed))
    g = tf.random.Generator.from_seed(11)

    @tf.function(jit_compile=JIT)
    def draw():
        return g.normal([4]), g.uniform([3], dtype=tf.float16), g.normal([2], dtype=tf.float16)
    return (stateless(np.int32([1, 2])), stateless(np.int64([123456789, -5])), draw(), draw(),
            g.state)


PROGRAMS = [keras_mlp_metrics, custom_gradients, early_exits, gather_scatter_segment_grads,
            variables_in_loops_and_branches, sort_top_k_ties, half_precision_sums,
            half_precision_random]


# Recorded from TensorFlow 2.21 with jit_compile=True: checksums(program()).
EXPECTED = {
    'keras_mlp_metrics': [
        ('float32', (), 1.3683727979660034, 1.3683727979660034),
        ('float32', (), 0.3125, 0.3125),
        ('float32', (), 1.3683727979660034, 1.3683727979660034),
        ('float32', (), 1.3189139366149902, 1.3189139366149902),
        ('float32', (), 0.28125, 0.28125),
        ('float32', (), 1.3436434268951416, 1.3436434268951416),
        ('float32', (), 1.2720459699630737, 1.2720459699630737),
        ('float32', (), 0.2708333432674408, 0.2708333432674408),
        ('float32', (), 1.3197776079177856, 1.3197776079177856),
        ('float32', (4, 8), 12.14469799771905, -4.363383198217037),
        ('float32', (8,), 0.2280724085867405, -0.09699143283069132),
        ('float32', (8, 3), 8.061605531722307, -0.4723352551784199),
        ('float32', (3,), 0.08966316282749176, -0.014998402446508408),
        ('int64', (), 3.0, 3.0),
    ],
    'custom_gradients': [
        ('float32', (), 301.5, 301.5),
        ('float32', (), np.inf, np.inf),
        ('float32', (), 40000.25, 40000.25),
        ('float32', (2,), 1.0, 1.5),
        ('float32', (2,), 1.6224592924118042, 2.622459292411804),
        ('float32', (2,), 801.0, 1601.0),
        ('float32', (2,), 79999.0, -119998.5),
        ('float32', (3,), 4.45823784917593, 8.248220287263393),
        ('float32', (3, 3), 3.886046603322029, 5.618259519338608),
    ],
    'early_exits': [
        ('float32', (2,), 6.0, 10.0),
        ('float32', (2,), 0.0, 0.0),
        ('float32', (2,), 5.0, -8.0),
        ('int32', (), 50.0, 50.0),
        ('int32', (), 566.0, 566.0),
        ('int32', (), 16.0, 16.0),
        ('int32', (), 1.0, 1.0),
        ('float32', (), 3.1622776985168457, 3.1622776985168457),
    ],
    'gather_scatter_segment_grads': [
        ('float32', (5, 3), 11.066036057774909, -2.6575040977456537),
        ('float32', (6, 3), 32.831715921871364, -7.318295428912869),
        ('float32', (4, 3), 9.86926855519414, -1.8836161721159117),
        ('float32', (4, 3), 5.275522666051984, -1.389984165233645),
        ('float32', (4, 3), 6.517751598395989, 4.333512369682218),
        ('float32', (5, 3), 2.0416940798311732e+39, -3.500046993996297e+39),
        ('float32', (4, 3), 7.038576046004891, -1.5521056826480417),
        ('float32', (6, 3), 298.46466368436813, -15.325083069941545),
    ],
    'variables_in_loops_and_branches': [
        ('float32', (4,), 66.0, 107.33333333333333),
        ('int64', (), 4.0, 4.0),
        ('float32', (3, 2), 6.0, 7.2),
        ('float32', (4,), 72.0, 117.33333333333333),
        ('int64', (), 8.0, 8.0),
        ('float32', (3, 2), 18.0, 21.6),
        ('int32', (), 1.0, 1.0),
        ('int32', (), 0.0, 0.0),
        ('int32', (), 1.0, -1.0),
        ('float32', (4,), 72.0, 117.33333333333333),
        ('int64', (), 8.0, 8.0),
        ('float32', (3, 2), 18.0, 21.6),
        ('int32', (), 1.0, -1.0),
    ],
    'sort_top_k_ties': [
        ('float32', (2, 6), np.nan, np.nan),
        ('int32', (2, 6), 30.0, 45.727272727272734),
        ('int32', (2, 6), 30.0, 43.54545454545454),
        ('int32', (2, 6), 30.0, 47.81818181818182),
        ('int32', (2, 3), 33.0, 52.2),
        ('int32', (2, 3), 7.0, 11.2),
        ('float32', (1, 4), 11.0, 16.0),
        ('int32', (1, 4), 10.0, 17.0),
        ('float32', (1, 2), 6.0, 9.0),
        ('int32', (1, 2), 3.0, 5.0),
        ('float32', (1, 6), 19.0, 27.599999999999998),
    ],
    'half_precision_sums': [
        ('float16', (3,), 14.587890625, 2.87890625),
        ('float16', (), 0.345703125, 0.345703125),
        ('float16', (4, 3), 26.92083740234375, -43.05579168146307),
        ('float16', (), 654.5, 654.5),
        ('float16', (4, 5), 2283.603515625, 1741.6431949013158),
        ('float16', (), 7564.0, 7564.0),
        ('float16', (4,), 128.32080078125, 203.06949869791666),
        ('float16', (4, 5), 18.55474853515625, 28.585155286287005),
        ('float16', (), 41.03125, 41.03125),
        ('float16', (5, 3), 100.21142578125, 27.84713309151786),
    ],
    'half_precision_random': [
        ('float16', (5,), 1.8759765625, 2.77880859375),
        ('float16', (5,), 5.22930908203125, 3.6666412353515625),
        ('float16', (3, 3), 9.77880859375, 6.26934814453125),
        ('float16', (3,), 3.2353515625, -3.91455078125),
        ('int64', (4,), 192.0, 265.66666666666663),
        ('float32', (2, 3), 13.72424566745758, 21.21927938461304),
        ('float16', (8,), 5.33203125, 8.1884765625),
        ('float16', (5,), 1.3359375, 2.068359375),
        ('float16', (5,), 4.79248046875, 7.39605712890625),
        ('float16', (3, 3), 10.1181640625, 7.80694580078125),
        ('float16', (3,), 5.27734375, 0.15234375),
        ('int64', (4,), 132.0, 207.66666666666666),
        ('float32', (2, 3), 15.926237225532532, 15.70164179801941),
        ('float16', (8,), 3.9990234375, 6.6650390625),
        ('float32', (4,), 1.6898408830165863, 1.2297760744889576),
        ('float16', (3,), 2.0732421875, 2.81396484375),
        ('float16', (2,), 1.005859375, 0.1337890625),
        ('float32', (4,), 3.7710201740264893, 2.546204924583435),
        ('float16', (3,), 2.3203125, 3.72802734375),
        ('float16', (2,), 1.98486328125, -2.662109375),
        ('int64', (3,), 4619.0, 4619.0),
    ],
}


def _close(got, expected):
    """Equal dtypes and shapes; sums within float32 rounding (float16 values exactly)."""
    for (dg, sg, ag, wg), (de, se, ae, we) in zip(got, expected):
        assert (dg, sg) == (de, se)
        np.testing.assert_allclose([ag, wg], [ae, we], rtol=1e-4, atol=1e-4)


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_program_equals_tensorflow_xla(program):
    got = checksums(program())
    expected = EXPECTED[program.__name__]
    assert len(got) == len(expected)
    _close(got, expected)


def test_slice_bounds_from_arguments_are_compile_time_constants():
    """TensorFlow's XLA compiles StridedSlice's bounds as constants when they come from the
    function's arguments, so an index out of range is its error, not a clamped read; an index
    computed in a loop is read by a clamped dynamic slice."""
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    column = tf.function(lambda x, i: x[:, i], jit_compile=True)
    np.testing.assert_array_equal(column(x, np.int32(1)), x[:, 1])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^slice index 5 of dimension 1 out of bounds\.$"):
        column(x, np.int32(5))
    with pytest.raises(tf.errors.InvalidArgumentError,  # XLA shows the index plus the size
                       match=r"^slice index -1 of dimension 2 out of bounds\.$"):
        tf.function(lambda x, i: x[..., -i], jit_compile=True)(x, np.int32(5))
    with pytest.raises(tf.errors.InvalidArgumentError, match="slice index 2 of dimension 0"):
        tf.function(lambda x, i: x[i + 1], jit_compile=True)(x, np.int32(1))
    assert tf.function(lambda x, i: x[i:i + 1], jit_compile=True)(x, np.int32(5)).shape == (0, 3, 4)

    @tf.function(jit_compile=True)
    def rows(x, n):
        total = tf.zeros([3, 4])
        for i in tf.range(n):
            total += x[i]
        return total
    np.testing.assert_array_equal(rows(x, np.int32(3)).numpy().ravel()[:5],
                                  [24., 27., 30., 33., 36.])


def test_float16_steps_are_rounded_as_tensorflows_xla():
    """Float16 steps rounded one by one (softmax's division, sigmoid's 1 / (1 + exp(-x))),
    sums accumulated in float32: TensorFlow's values, recorded."""
    h = np.float16([[-0.1622, -1.334, -1.007], [-1.808, 3.572, 1.364]])
    f = tf.function(lambda h: (tf.nn.softmax(h), tf.sigmoid(h), tf.reduce_sum(h * 1000.)),
                    jit_compile=True)
    softmax, sigmoid, total = (v.numpy() for v in f(h))
    np.testing.assert_array_equal(softmax.ravel(), np.float16(
        [0.5751953125, 0.1781005859375, 0.2470703125, 0.004138946533203125, 0.8974609375,
         0.0987548828125]))
    np.testing.assert_array_equal(sigmoid.ravel(), np.float16(
        [0.459716796875, 0.20849609375, 0.267578125, 0.140869140625, 0.97265625, 0.79638671875]))
    assert total == np.float16(625.0)


def test_compiler_ir_stages_are_tensorflows():
    f = tf.function(lambda x: tf.reduce_sum(x ** 2), jit_compile=True)
    ir = f.experimental_get_compiler_ir(np.ones([3], np.float32))
    assert "HloModule" in ir(stage="hlo") and "HloModule" in ir(stage="optimized_hlo")
    for stage in ("hlo_serialized", "optimized_hlo_serialized"):  # HloModuleProto bytes
        assert isinstance(ir(stage=stage), bytes) and ir(stage=stage)
    with pytest.raises(ValueError, match=r"^Invalid stage selected: 'nope'\. Valid values are: "
                                         r"'hlo', 'hlo_serialized', 'optimized_hlo', "
                                         r"'optimized_hlo_serialized', 'optimized_hlo_dot'$"):
        ir(stage="nope")
