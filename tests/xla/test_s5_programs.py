"""Realistic programs under ``jit_compile=True`` against TensorFlow 2.21's XLA.

Each program runs compiled; its outputs are compared with TensorFlow's own
``jit_compile=True`` run of the same code, recorded as literals: exact values
where they are short, else per-output checksums (dtype, shape, sum of |x|, a
weighted sum that sees order). Together they cover training steps (GradientTape,
keras losses and optimizers), loops over TensorArrays sized by an argument
(TensorFlow compiles them once per argument value), slices with run-time bounds,
linear algebra, convolutions, sorting and scans, XLA's integer division, and
seeded random values (TensorFlow's XLA kernels draw other floats than its CPU
kernels, from the same Philox bits).
"""
import numpy as np
import pytest

import autograph as tf

pytest.importorskip("jax")

JIT = True  # the recorder runs these programs in TensorFlow with the same flag


def checksums(values):
    """Per output: dtype, shape, sum of |x| and sum of x weighted by position."""
    out = []
    for v in tf.nest.flatten(values):
        a = np.asarray(v.numpy() if hasattr(v, "numpy") else v)
        flat = a.astype(np.float64).reshape(-1)
        w = np.linspace(1.0, 2.0, flat.size) if flat.size else flat
        out.append((str(a.dtype), a.shape, float(np.abs(flat).sum()), float((flat * w).sum())))
    return out


# -- the programs -------------------------------------------------------------------------------

def mlp_adam():
    rng = np.random.RandomState(0)
    x = rng.randn(8, 4).astype(np.float32)
    y = rng.randint(0, 3, size=8).astype(np.int32)
    w = tf.Variable(rng.randn(4, 3).astype(np.float32) * 0.5)
    b = tf.Variable(np.zeros(3, np.float32))
    opt = tf.keras.optimizers.Adam(0.05)
    loss_fn = tf.keras.losses.SparseCategoricalCrossentropy(from_logits=True)

    @tf.function(jit_compile=JIT)
    def step(x, y):
        with tf.GradientTape() as tape:
            logits = tf.matmul(x, w) + b
            loss = loss_fn(y, logits) + 1e-3 * tf.reduce_sum(tf.square(w))
        grads = tape.gradient(loss, [w, b])
        opt.apply_gradients(zip(grads, [w, b]))
        hits = tf.equal(tf.argmax(logits, axis=1, output_type=tf.int32), y)
        return loss, tf.reduce_mean(tf.cast(hits, tf.float32))
    losses = [step(x, y) for _ in range(3)]
    return losses, w, b


def lstm_rmsprop():
    rng = np.random.RandomState(6)
    xs = rng.randn(5, 2, 3).astype(np.float32)
    kernel = tf.Variable(rng.randn(7, 16).astype(np.float32) * 0.3)
    bias = tf.Variable(np.zeros(16, np.float32))
    opt = tf.keras.optimizers.RMSprop(0.01)

    @tf.function(jit_compile=JIT)
    def step(xs):
        with tf.GradientTape() as tape:
            h, c = tf.zeros([2, 4]), tf.zeros([2, 4])
            outs = tf.TensorArray(tf.float32, size=5)
            for i in tf.range(5):
                z = tf.matmul(tf.concat([xs[i], h], 1), kernel) + bias
                ig, fg, gg, og = tf.split(z, 4, axis=1)
                c = tf.sigmoid(fg) * c + tf.sigmoid(ig) * tf.tanh(gg)
                h = tf.sigmoid(og) * tf.tanh(c)
                outs = outs.write(i, h)
            loss = tf.reduce_mean(tf.square(outs.stack() - 0.1))
        grads = tape.gradient(loss, [kernel, bias])
        opt.apply_gradients(zip(grads, [kernel, bias]))
        return loss, h
    return [step(xs) for _ in range(2)], kernel, bias


def conv_pool_grads():
    rng = np.random.RandomState(3)
    x = rng.randn(2, 7, 6, 3).astype(np.float32)
    k = rng.randn(3, 3, 3, 4).astype(np.float32)

    @tf.function(jit_compile=JIT)
    def f(x, k):
        with tf.GradientTape() as t:
            t.watch([x, k])
            a = tf.nn.conv2d(x, k, strides=[1, 2, 2, 1], padding="SAME")
            y = tf.nn.max_pool2d(tf.nn.relu(tf.nn.conv2d(x, k, 1, "SAME")), 2, 2, "VALID")
            loss = tf.reduce_mean(y ** 2) + tf.reduce_mean(tf.nn.avg_pool2d(x, 3, 1, "SAME")) \
                + tf.reduce_sum(tf.nn.conv2d_transpose(a, k, [2, 7, 6, 3], [1, 2, 2, 1], "SAME"))
        return (a, y, tf.nn.conv2d(x, k, 1, "VALID", dilations=2), *t.gradient(loss, [x, k]))
    return f(x, k)


def softmax_cross_entropy():
    rng = np.random.RandomState(4)
    logits = rng.randn(4, 5).astype(np.float32) * 3
    labels = np.array([1, 0, 4, 2], np.int32)
    onehot = np.eye(5, dtype=np.float32)[labels] * 0.9 + 0.02

    @tf.function(jit_compile=JIT)
    def f(logits, labels, onehot):
        with tf.GradientTape() as t:
            t.watch(logits)
            a = tf.nn.sparse_softmax_cross_entropy_with_logits(labels, logits)
            b = tf.nn.softmax_cross_entropy_with_logits(onehot, logits)
            c = tf.nn.sigmoid_cross_entropy_with_logits(onehot, logits)
            loss = tf.reduce_sum(a) + tf.reduce_sum(b) + tf.reduce_mean(c)
        smooth = tf.keras.losses.CategoricalCrossentropy(from_logits=True, label_smoothing=0.1)
        return a, b, c, t.gradient(loss, logits), smooth(onehot, logits)
    return f(logits, labels, onehot)


def linalg_decompositions():
    rng = np.random.RandomState(5)
    a = rng.randn(4, 4).astype(np.float32)
    spd = a @ a.T + 4 * np.eye(4, dtype=np.float32)
    b = rng.randn(4, 2).astype(np.float32)
    tall = rng.randn(6, 3).astype(np.float32)
    rhs = rng.randn(6, 2).astype(np.float32)

    @tf.function(jit_compile=JIT)
    def f(spd, a, b, tall, rhs):
        ch = tf.linalg.cholesky(spd)
        e, v = tf.linalg.eigh(spd)
        s, u, vv = tf.linalg.svd(tall)
        q, r = tf.linalg.qr(tall)
        with tf.GradientTape() as t:
            t.watch([spd, a])
            loss = tf.reduce_sum(tf.linalg.cholesky(spd)) + tf.reduce_sum(tf.linalg.solve(a, b)) \
                + tf.linalg.logdet(spd) + tf.reduce_sum(tf.linalg.eigh(spd)[0] ** 2)
        return (ch, tf.linalg.cholesky_solve(ch, b), tf.linalg.solve(a, b),
                tf.linalg.lstsq(tall, rhs), tf.linalg.inv(spd), e, tf.abs(v), s, tf.abs(u),
                tf.abs(vv), tf.abs(q), tf.abs(r), tf.linalg.pinv(tall),
                *t.gradient(loss, [spd, a]))
    return f(spd, a, b, tall, rhs)


def sort_scan_top_k():
    x = np.array([[3., 1., 2., 5.], [0.5, -1., 4., 4.]], np.float32)
    xi = np.array([5, -2, 7, 7, 0], np.int32)

    @tf.function(jit_compile=JIT)
    def f(x, xi):
        with tf.GradientTape() as t:
            t.watch(x)
            values, indices = tf.math.top_k(x, 2)
            loss = tf.reduce_sum(values * [1., 2.]) + tf.reduce_sum(tf.math.cumprod(x, axis=1)) \
                + tf.reduce_sum(tf.sort(x) * [1., 2., 3., 4.])
        return (values, indices, tf.math.top_k(xi, k=3), tf.argsort(x, axis=1),
                tf.argsort(xi, direction="DESCENDING"), tf.sort(x, axis=0, direction="DESCENDING"),
                tf.cumsum(x, axis=1, exclusive=True), tf.cumsum(x, axis=1, reverse=True),
                tf.math.cumprod(x, axis=0, exclusive=True, reverse=True),
                tf.math.cumulative_logsumexp(x, axis=1), tf.cumsum(xi), t.gradient(loss, x))
    return f(x, xi)


def reductions_keepdims():
    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4) / 7. - 1.
    xi = np.arange(24, dtype=np.int32).reshape(2, 3, 4) - 11

    @tf.function(jit_compile=JIT)
    def f(x, xi):
        return (tf.reduce_sum(x, axis=1, keepdims=True), tf.reduce_max(x, axis=-1),
                tf.reduce_min(xi, keepdims=True), tf.reduce_prod(x, 0),
                tf.reduce_any(xi > 3, axis=2, keepdims=True), tf.reduce_logsumexp(x, 1, True),
                tf.math.reduce_std(x, axis=2), tf.math.reduce_variance(x, keepdims=True),
                tf.argmax(x, axis=1), tf.reduce_mean(xi, axis=2), tf.math.count_nonzero(xi, 1),
                tf.norm(x, ord=1, axis=[1, 2]), tf.reduce_prod(xi, axis=(1, 2)))
    return f(x, xi)


def variables_in_control_flow():
    v = tf.Variable(np.arange(6, dtype=np.float32).reshape(2, 3))
    count = tf.Variable(0, dtype=tf.int64)
    acc = tf.Variable(tf.zeros([3]))

    @tf.function(jit_compile=JIT)
    def f(x):
        count.assign_add(1)
        if tf.reduce_sum(x) > 0:
            v.assign(v * 2.)
        else:
            v.assign_sub(tf.ones_like(v))
        for i in tf.range(3):
            acc.assign_add(tf.one_hot(i, 3) * x[i])
        v[0, 1].assign(100.)
        v.scatter_nd_add([[1, 2]], [7.])
        return tf.reduce_sum(v), count.read_value(), acc.read_value()
    return f(np.float32([1., 2., 3.])), f(np.float32([-1., -2., -3.])), v


PROGRAMS = [mlp_adam, lstm_rmsprop, conv_pool_grads, softmax_cross_entropy,
            linalg_decompositions, sort_scan_top_k, reductions_keepdims, variables_in_control_flow]

# Recorded from TensorFlow 2.21 with jit_compile=True: checksums(program()).
EXPECTED = {
    'mlp_adam': [
        ('float32', (), 2.273496150970459, 2.273496150970459),
        ('float32', (), 0.25, 0.25),
        ('float32', (), 2.0814735889434814, 2.0814735889434814),
        ('float32', (), 0.25, 0.25),
        ('float32', (), 1.8997042179107666, 1.8997042179107666),
        ('float32', (), 0.25, 0.25),
        ('float32', (4, 3), 5.151676166802645, 1.935070257295262),
        ('float32', (3,), 0.4486744999885559, 0.37400510907173157),
    ],
    'lstm_rmsprop': [
        ('float32', (), 0.014286460354924202, 0.014286460354924202),
        ('float32', (2, 4), 0.6218323118519038, 0.49503237098854563),
        ('float32', (), 0.010276761837303638, 0.010276761837303638),
        ('float32', (2, 4), 0.5711839850991964, 0.6124569922685623),
        ('float32', (7, 16), 23.14595299575012, -2.9258520708761284),
        ('float32', (16,), 0.5576316080987453, -0.14411376304924486),
    ],
    'conv_pool_grads': [
        ('float32', (2, 4, 3, 4), 363.393924575299, 1.5809224085980382),
        ('float32', (2, 3, 3, 4), 416.55605176091194, 617.7189193107713),
        ('float32', (2, 3, 2, 4), 216.6773621365428, 39.02939313887916),
        ('float32', (2, 7, 6, 3), 3219.4097388982773, 2654.1727138327888),
        ('float32', (3, 3, 3, 4), 2136.6487592458725, 535.1690240307388),
    ],
    'softmax_cross_entropy': [
        ('float32', (4,), 14.270011484622955, 20.74960402647654),
        ('float32', (4,), 14.087308675050735, 20.561270852883656),
        ('float32', (4, 5), 24.936389118433, 37.86508883065299),
        ('float32', (4, 5), 11.083408880978823, 0.5681168466904443),
        ('float32', (), 3.4807190895080566, 3.4807190895080566),
    ],
    'linalg_decompositions': [
        ('float32', (4, 4), 14.390558818355203, 12.41946604748567),
        ('float32', (4, 2), 0.8101119373459369, -0.04242092341051562),
        ('float32', (4, 2), 4.894039981998503, -0.33788993249514254),
        ('float32', (3, 2), 2.163848964497447, 3.18439465649426),
        ('float32', (4, 4), 1.083726721815765, 1.1462461190298199),
        ('float32', (4,), 31.332730770111084, 53.38485813140869),
        ('float32', (4, 4), 7.185090865939856, 10.852485510955255),
        ('float32', (3,), 4.195135623216629, 5.467374861240387),
        ('float32', (6, 3), 6.116994622629136, 9.318403857677955),
        ('float32', (3, 3), 3.3735954468138516, 5.0666091809398495),
        ('float32', (6, 3), 6.12056840211153, 9.326322761747766),
        ('float32', (3, 3), 4.547874460200546, 5.93414274742463),
        ('float32', (3, 6), 7.725050950422883, 2.282871665104347),
        ('float32', (4, 4), 124.46304509043694, 77.94680216511091),
        ('float32', (4, 4), 20.281000811606646, -1.6482384045918779),
    ],
    'sort_scan_top_k': [
        ('float32', (2, 2), 16.0, 23.666666666666664),
        ('int32', (2, 2), 8.0, 12.333333333333332),
        ('int32', (3,), 19.0, 27.5),
        ('int32', (3,), 5.0, 6.5),
        ('int32', (2, 4), 12.0, 18.857142857142858),
        ('int32', (5,), 10.0, 14.75),
        ('float32', (2, 4), 20.5, 27.214285714285715),
        ('float32', (2, 4), 17.5, 24.07142857142857),
        ('float32', (2, 4), 57.5, 82.92857142857142),
        ('float32', (2, 4), 13.5, 17.357142857142858),
        ('float32', (2, 4), 24.668846011161804, 37.2692026410784),
        ('int32', (5,), 52.0, 87.5),
        ('float32', (2, 4), 125.0, 108.35714285714285),
    ],
    'reductions_keepdims': [
        ('float32', (2, 1, 4), 20.57142847776413, 29.632653159754618),
        ('float32', (2, 3), 6.285714149475098, 9.714285612106323),
        ('int32', (1, 1, 1), 11.0, -11.0),
        ('float32', (3, 4), 7.061224490404129, 0.9795921038497581),
        ('bool', (2, 3, 1), 3.0, 5.4),
        ('float32', (2, 1, 4), 14.77986991405487, 24.333070235592977),
        ('float32', (2, 3), 0.9583147317171097, 1.4374720722436904),
        ('float32', (1, 1, 1), 0.9778911471366882, 0.9778911471366882),
        ('int64', (2, 4), 16.0, 24.0),
        ('int32', (2, 3), 33.0, 17.6),
        ('int64', (2, 4), 23.0, 34.57142857142857),
        ('float32', (2,), 6.714285731315613, 11.857142806053162),
        ('int32', (2,), 479001600.0, 958003200.0),
    ],
    'variables_in_control_flow': [
        ('float32', (), 135.0, 135.0),
        ('int64', (), 1.0, 1.0),
        ('float32', (3,), 6.0, 10.0),
        ('float32', (), 137.0, 137.0),
        ('int64', (), 2.0, 2.0),
        ('float32', (3,), 0.0, 0.0),
        ('float32', (2, 3), 139.0, 189.79999999999998),
    ],
}


@pytest.mark.parametrize("program", PROGRAMS, ids=lambda p: p.__name__)
def test_program_equals_tensorflow_xla(program):
    got, want = checksums(program()), EXPECTED[program.__name__]
    assert len(got) == len(want)
    for k, ((dtype, shape, s1, s2), (wdtype, wshape, w1, w2)) in enumerate(zip(got, want)):
        assert (dtype, shape) == (wdtype, tuple(wshape)), k
        np.testing.assert_allclose([s1, s2], [w1, w2], rtol=2e-4, atol=1e-5, err_msg=f"output {k}")


# -- sizes from arguments: compiled once per value, as TensorFlow's XLA does ---------------------

@tf.function(jit_compile=True)
def sized_by_arguments(x, n, i):
    ta = tf.TensorArray(tf.float32, size=n)
    s = tf.zeros_like(x)
    for k in tf.range(n):
        s = s * 0.5 + x * tf.cast(k, tf.float32)
        ta = ta.write(k, s)
    m = tf.reshape(tf.range(12.), [3, 4])
    return ta.stack(), tf.range(n), m[:, i:i + 2], tf.slice(m, [0, i], [2, 1])


def test_sizes_and_bounds_from_arguments_compile_per_value():
    x = np.array([1., 2.], np.float32)
    stack, steps, window, column = sized_by_arguments(x, np.int32(4), np.int32(1))
    np.testing.assert_array_equal(stack, [[0., 0.], [1., 2.], [2.5, 5.], [4.25, 8.5]])
    np.testing.assert_array_equal(steps, [0, 1, 2, 3])
    np.testing.assert_array_equal(window, [[1., 2.], [5., 6.], [9., 10.]])
    np.testing.assert_array_equal(column, [[1.], [5.]])
    stack, steps, window, column = sized_by_arguments(x, np.int32(2), np.int32(2))
    np.testing.assert_array_equal(stack, [[0., 0.], [1., 2.]])
    np.testing.assert_array_equal(steps, [0, 1])
    np.testing.assert_array_equal(window, [[2., 3.], [6., 7.], [10., 11.]])
    np.testing.assert_array_equal(column, [[2.], [6.]])
    hlo = sized_by_arguments.experimental_get_compiler_ir(x, np.int32(3), np.int32(0))(stage="hlo")
    assert "f32[3,2]" in hlo  # this program is compiled for n = 3


def test_sizes_from_arguments_inside_loops_and_branches():
    @tf.function(jit_compile=True)
    def f(x, n):
        acc = tf.zeros([3])
        for _ in tf.range(3):
            acc += tf.reduce_sum(tf.ones([n])) * x
        if x > 0:
            y = tf.range(n)
        else:
            y = tf.range(n) * 2
        return acc, y

    acc, y = f(np.float32(1.), np.int32(4))
    np.testing.assert_array_equal(acc, [12., 12., 12.])
    np.testing.assert_array_equal(y, [0, 1, 2, 3])
    acc, y = f(np.float32(-1.), np.int32(2))
    np.testing.assert_array_equal(acc, [-6., -6., -6.])
    np.testing.assert_array_equal(y, [0, 2])


def test_a_size_computed_in_a_loop_is_still_refused():
    @tf.function(jit_compile=True)
    def f(x, n):
        total = tf.zeros([])
        for k in tf.range(n):
            total += tf.reduce_sum(tf.range(tf.cast(x, tf.int32) + k, dtype=tf.float32))
        return total

    with pytest.raises(tf.errors.InvalidArgumentError, match="Range"):
        f(np.float32(2), np.int32(3))
    # TensorFlow's error when the compiler IR of a refused program is asked for
    with pytest.raises(ValueError, match="Failed getting HLO text: .*Range"):
        f.experimental_get_compiler_ir(np.float32(2), np.int32(3))(stage="hlo")


# -- XLA's integer division -----------------------------------------------------------------------

def test_integer_powers_are_xlas():
    x = np.array([2, -3, 0, 5, -2147483648, 1, -1, -1, 0, 3, 7], np.int32)
    e = np.array([3, 2, 0, -1, 1, -5, -3, -2, -1, 40, 31], np.int32)
    got = tf.function(lambda a, b: a ** b, jit_compile=True)(x, e).numpy()
    np.testing.assert_array_equal(got, [8, 9, 1, 0, -2147483648, 1, -1, 1, 0, 689956897,
                                        265001655])


def test_floor_division_and_modulo_are_xlas():
    x = np.array([7, -7, 7, -7, 0, -2147483648, -2147483648, 5, -5, 0], np.int32)
    y = np.array([2, 2, -2, -2, 3, -1, 0, 0, 0, 0], np.int32)
    xf = np.array([7.5, -7.5, 1e-30, 5., 0., np.inf, 3., -0.0], np.float32)
    yf = np.array([-2., 2., -1e30, 0., 0., 2., np.inf, 5.], np.float32)
    f = tf.function(lambda a, b, c, d: (a // b, a % b, c // d, c % d), jit_compile=True)
    div, mod, fdiv, fmod = (v.numpy() for v in f(x, y, xf, yf))
    np.testing.assert_array_equal(div, [3, -4, -4, 3, 0, -2147483648, -2, -1, -2, -1])
    np.testing.assert_array_equal(mod, [1, 1, -1, -1, 0, 0, -2147483648, 5, -5, 0])
    np.testing.assert_array_equal(fdiv, [-4., -4., -0., np.inf, np.nan, np.inf, 0., -0.])
    np.testing.assert_array_equal(np.signbit(fdiv[[0, 1, 2, 3, 5, 6, 7]]), [1, 1, 1, 0, 0, 0, 1])
    np.testing.assert_array_equal(
        fmod, np.float32([-0.5, 0.5, -1e30, np.nan, np.nan, np.nan, 3., -0.]))


def test_sorting_follows_xlas_total_order():
    """-nan < -1 < -0.0 < 0.0 < inf < nan, equal values in their order (TensorFlow sorts
    with TopKV2, which XLA compares so)."""
    x = np.float32([0.0, -0.0, np.nan, -1.0, 0.0, -np.nan, np.inf, -0.0])
    f = tf.function(lambda x: (tf.sort(x), tf.argsort(x), tf.argsort(x, direction="DESCENDING")),
                    jit_compile=True)
    values, up, down = (v.numpy() for v in f(x))
    np.testing.assert_array_equal(up, [5, 3, 1, 7, 0, 4, 6, 2])
    np.testing.assert_array_equal(down, [2, 6, 0, 4, 1, 7, 3, 5])
    np.testing.assert_array_equal(np.signbit(values), [1, 1, 1, 1, 0, 0, 0, 0])


def test_out_of_range_indices_and_casts_are_xlas():
    """A compiled program cannot raise: XLA clamps gathers (a negative index to 0), drops
    scatters and segments out of range, and saturates float-to-int casts (nan to 0)."""
    @tf.function(jit_compile=True)
    def f(p, i, u, x):
        return (tf.tensor_scatter_nd_update(p, i, u), tf.tensor_scatter_nd_add(p, i, u),
                tf.gather_nd(p, i), tf.gather(p, [-1, 1]), tf.scatter_nd(i, u, [4]),
                tf.math.unsorted_segment_sum(p, [0, 5, -1, 1], 3), tf.cast(x, tf.int32),
                tf.cast(x, tf.uint8))
    got = f(np.float32([0., 1., 2., 3.]), np.int32([[1], [7], [-2]]), np.float32([10., 20., 30.]),
            np.float32([np.nan, 1e10, -1e10, -0.5, 2.5, 255.9]))
    for g, want in zip(got, [[0., 10., 2., 3.], [0., 11., 2., 3.], [1., 3., 0.], [0., 1.],
                             [0., 10., 0., 0.], [0., 3., 0.],
                             [0, 2147483647, -2147483648, 0, 2, 255], [0, 255, 0, 0, 2, 255]]):
        np.testing.assert_array_equal(g.numpy(), want)


# -- seeded random values: TensorFlow's XLA values -------------------------------------------------

@tf.function(jit_compile=True)
def stateless_draws(seed):
    return (tf.random.stateless_uniform([3, 2], seed),
            tf.random.stateless_normal([3], seed, dtype=tf.float64),
            tf.random.stateless_normal([3, 1], seed),
            tf.random.stateless_uniform([4], seed, minval=0, maxval=10, dtype=tf.int32),
            tf.random.stateless_truncated_normal([3], seed),
            tf.random.stateless_categorical(tf.math.log([[0.2, 0.3, 0.5]]), 6, seed))


@pytest.mark.parametrize("seed,expected", [
    ([1, 2], ([[0.25750792, 0.4046719], [0.9218676, 0.08625066], [0.00248432, 0.9426744]],
              [0.69380117, 1.1523875, 0.26036461], [[0.92869425], [-1.3604913], [0.20805396]],
              [0, 9, 4, 9], [-0.61723053, -0.23009402, 1.296931], [[2, 2, 2, 1, 1, 2]])),
    # an int32 seed's words are zero-extended by TensorFlow's XLA kernel (sign-extended on CPU)
    ([-1, 7], ([[0.43630242, 0.37408614], [0.9352983, 0.4223082], [0.79745483, 0.96536195]],
               [0.65768635, -1.23854223, -0.26359184], [[0.915939], [-0.90548056], [0.17153883]],
               [7, 6, 7, 3], [-0.15299611, -0.30596605, 1.3753734], [[2, 2, 2, 0, 2, 1]])),
])
def test_stateless_random_values_are_tensorflows_xla_values(seed, expected):
    got = stateless_draws(np.array(seed, np.int32))
    dtypes = ["float32", "float64", "float32", "int32", "float32", "int64"]
    for g, want, dtype in zip(got, expected, dtypes):
        assert g.dtype.name == dtype
        np.testing.assert_allclose(g.numpy(), want, rtol=2e-6, atol=1e-7)


def test_generator_draws_are_tensorflows_xla_values():
    g = tf.random.Generator.from_seed(42)
    draw = tf.function(lambda: (g.normal([3]), g.uniform([2], maxval=5, dtype=tf.int32),
                                g.truncated_normal([2])), jit_compile=True)
    for normal, ints, truncated in [([-1.6278955, 1.1686193, 0.9773497], [1, 0],
                                     [-1.1156894, 0.666437]),
                                    ([0.6957332, -0.00739961, 2.5961633], [1, 4],
                                     [0.35966286, -0.45790035])]:
        got = draw()
        np.testing.assert_allclose(got[0].numpy(), normal, rtol=2e-6)
        np.testing.assert_array_equal(got[1].numpy(), ints)
        np.testing.assert_allclose(got[2].numpy(), truncated, rtol=2e-6)
    np.testing.assert_array_equal(g.state.numpy(), [3626, 0, 0])


def test_keras_dropout_and_noise_draw_tensorflows_xla_values():
    drop = tf.keras.layers.Dropout(0.5, seed=3)
    noise = tf.keras.layers.GaussianNoise(0.1, seed=4)
    f = tf.function(lambda x: (drop(x, training=True), noise(x, training=True)), jit_compile=True)
    for mask, noisy in [
            ([[2., 0., 2., 2.], [0., 2., 0., 2.]],
             [[0.95748156, 1.06526864, 1.14826334, 0.96277136],
              [1.08331668, 1.05437887, 1.08655572, 1.0818398]]),
            ([[0., 2., 2., 2.], [0., 2., 2., 0.]],
             [[1.0848521, 0.9275015, 1.00936115, 0.97066396],
              [0.91050363, 0.86866927, 0.83414382, 1.04667711]])]:
        dropped, jittered = f(np.ones([2, 4], np.float32))
        np.testing.assert_array_equal(dropped.numpy(), mask)
        np.testing.assert_allclose(jittered.numpy(), noisy, rtol=1e-6)


def test_padded_non_max_suppression_compiles():
    """tf.image.non_max_suppression_padded, which TensorFlow's XLA compiles (40 boxes, tied
    scores)."""
    rng = np.random.RandomState(13)
    yx = rng.rand(40, 2).astype(np.float32) * 5
    hw = rng.rand(40, 2).astype(np.float32) * 3 + 0.2
    boxes = np.concatenate([yx, yx + hw], 1)
    scores = np.round(rng.rand(40).astype(np.float32), 1)

    @tf.function(jit_compile=True)
    def f(b, s):
        return (tf.image.non_max_suppression_padded(b, s, 10, iou_threshold=0.3,
                                                    pad_to_max_output_size=True),
                tf.image.non_max_suppression_padded(b, s, 50, iou_threshold=0.6,
                                                    score_threshold=0.35,
                                                    pad_to_max_output_size=True))
    (first, n_first), (second, n_second) = f(boxes, scores)
    np.testing.assert_array_equal(first, [13, 4, 8, 10, 22, 27, 35, 33, 36, 6])
    assert int(n_first) == 10 and int(n_second) == 23
    np.testing.assert_array_equal(second, [13, 4, 8, 10, 22, 27, 35, 0, 3, 5, 33, 36, 6, 15, 19,
                                           26, 37, 9, 11, 21, 29, 1, 25] + [0] * 27)
