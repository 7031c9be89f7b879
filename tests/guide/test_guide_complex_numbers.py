"""Complex numbers as the guides meet them (issue #15): complex64/complex128 tensors and
variables, ``tf.complex`` and the parts, printing, dtype rules, gradients (TensorFlow's
``g * conj(f'(z))`` convention) and ``tf.linalg.eig``/``eigvals``.

Expected values and messages were recorded from TensorFlow 2.21 as literals.
"""
import numpy as np
import pytest

import autograph as tf
from tests.staging import assert_same

Z = [1 + 2j, -0.5 + 0.3j]
W = [0.7 - 1j, 2 + 0.5j]


def test_printing_and_dtypes(out):
    print(tf.Variable([5 + 4j, 6 + 1j]))
    x = tf.constant([1 + 2j, 3 - 4j], tf.complex64)
    print(repr(x), repr(tf.constant(1 + 1j)))
    print(x * 2.0, x + 1, x / 2)
    print(tf.constant([[1 + 1j, 2.5 - 0.5j], [3, 4j]], tf.complex64))
    print(tf.constant([1.5, 2], dtype=tf.complex64), tf.zeros([2], tf.complex64))
    print(tf.complex64.real_dtype, tf.complex128.is_complex, tf.complex64.is_floating,
          tf.complex64.is_numeric, tf.dtypes.as_dtype("complex128"))
    tf.print(x)
    assert out() == """\
<tf.Variable 'Variable:0' shape=(2,) dtype=complex128, numpy=array([5.+4.j, 6.+1.j])>
<tf.Tensor: shape=(2,), dtype=complex64, numpy=array([1.+2.j, 3.-4.j], dtype=complex64)> \
<tf.Tensor: shape=(), dtype=complex128, numpy=(1+1j)>
tf.Tensor([2.+4.j 6.-8.j], shape=(2,), dtype=complex64) \
tf.Tensor([2.+2.j 4.-4.j], shape=(2,), dtype=complex64) \
tf.Tensor([0.5+1.j 1.5-2.j], shape=(2,), dtype=complex64)
tf.Tensor(
[[1. +1.j  2.5-0.5j]
 [3. +0.j  0. +4.j ]], shape=(2, 2), dtype=complex64)
tf.Tensor([1.5+0.j 2. +0.j], shape=(2,), dtype=complex64) \
tf.Tensor([0.+0.j 0.+0.j], shape=(2,), dtype=complex64)
<dtype: 'float32'> True False True <dtype: 'complex128'>
[? ?]
"""


def test_conversion_rules():
    assert tf.constant([1j, 2j]).dtype == tf.complex128
    assert tf.constant([1e10 + 1j, 1]).dtype == tf.complex128
    for mixed in ([1, 3j], [1.0, 2j]):  # TensorFlow never widens a real list to complex
        with pytest.raises(ValueError, match="Can't convert Python sequence with mixed types"):
            tf.constant(mixed)
    with pytest.raises(TypeError, match="Cannot convert the argument `type_value`"):
        tf.as_dtype(complex)
    with pytest.raises(TypeError):
        tf.complex64.min
    x = tf.constant([1 + 1j, 2], tf.complex64)
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64"):
        x + tf.constant([1 + 1j, 2])  # complex128: no implicit promotion
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64"):
        x < x
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64"):
        tf.reduce_max(x)
    with pytest.raises(tf.errors.InvalidArgumentError, match="complex64"):
        tf.argmax(x)


def test_parts_and_conjugates(out):
    x = tf.constant([1 + 2j, 3 - 4j], tf.complex64)
    print(tf.abs(x), tf.math.real(x), tf.math.imag(x), tf.math.conj(x))
    print(tf.complex(tf.constant([1., 2.]), tf.constant([3., 4.])))
    print(tf.complex(tf.constant([1., 2.], tf.float64), tf.constant([3., 4.], tf.float64)))
    r = tf.constant([-1., 2.])
    print(tf.math.real(r), tf.math.imag(r), tf.math.conj(r), tf.math.angle(r))
    print(tf.complex(1., 2.), tf.dtypes.complex(1., 2.))
    print(tf.cast(x, tf.float32), tf.cast(tf.constant([1.5]), tf.complex64))
    print(tf.linalg.adjoint(tf.reshape(x, [1, 2])))
    print(tf.transpose(tf.reshape(x, [1, 2]), conjugate=True))
    print(tf.linalg.matmul(tf.constant([[1 + 1j]]), tf.constant([[2j]]), adjoint_a=True))
    print(tf.norm(x), tf.reduce_sum(x), tf.reduce_mean(x), tf.reduce_prod(x), x == x)
    assert out() == """\
tf.Tensor([2.236068 5.      ], shape=(2,), dtype=float32) \
tf.Tensor([1. 3.], shape=(2,), dtype=float32) \
tf.Tensor([ 2. -4.], shape=(2,), dtype=float32) \
tf.Tensor([1.-2.j 3.+4.j], shape=(2,), dtype=complex64)
tf.Tensor([1.+3.j 2.+4.j], shape=(2,), dtype=complex64)
tf.Tensor([1.+3.j 2.+4.j], shape=(2,), dtype=complex128)
tf.Tensor([-1.  2.], shape=(2,), dtype=float32) tf.Tensor([0. 0.], shape=(2,), dtype=float32) \
tf.Tensor([-1.  2.], shape=(2,), dtype=float32) \
tf.Tensor([3.1415927 0.       ], shape=(2,), dtype=float32)
tf.Tensor((1+2j), shape=(), dtype=complex64) tf.Tensor((1+2j), shape=(), dtype=complex64)
tf.Tensor([1. 3.], shape=(2,), dtype=float32) tf.Tensor([1.5+0.j], shape=(1,), dtype=complex64)
tf.Tensor(
[[1.-2.j]
 [3.+4.j]], shape=(2, 1), dtype=complex64)
tf.Tensor(
[[1.-2.j]
 [3.+4.j]], shape=(2, 1), dtype=complex64)
tf.Tensor([[2.+2.j]], shape=(1, 1), dtype=complex128)
tf.Tensor((5.477226+0j), shape=(), dtype=complex64) tf.Tensor((4-2j), shape=(), dtype=complex64) \
tf.Tensor((2-1j), shape=(), dtype=complex64) tf.Tensor((11+2j), shape=(), dtype=complex64) \
tf.Tensor([ True  True], shape=(2,), dtype=bool)
"""
    np.testing.assert_allclose(tf.math.angle(x).numpy(), [1.1071488, -0.9272952], rtol=1e-6)
    with pytest.raises(TypeError, match=r"The `real` and `imag` components have incorrect "
                                        r"types: float32 int32"):
        tf.complex(tf.constant([1., 2.]), tf.constant([3, 4]))


def test_elementwise_functions():
    x = tf.constant([1 + 2j, 3 - 4j], tf.complex64)
    expected = {  # recorded from TensorFlow
        tf.exp: [-1.1312044 + 2.4717267j, -13.128783 + 15.200785j],
        tf.sqrt: [1.2720196 + 0.7861514j, 2 - 1j],
        tf.square: [-3 + 4j, -7 - 24j],
        tf.math.log: [0.804719 + 1.1071488j, 1.609438 - 0.9272952j],
        tf.sin: [3.1657786 + 1.9596009j, 3.8537376 + 27.016815j],
        tf.tanh: [1.1667362 - 0.24345821j, 1.0007097 - 0.00490826j],
        tf.sigmoid: [1.0214154 + 0.4034387j, 1.0320722 + 0.04019551j],
        tf.math.sign: [0.4472136 + 0.8944272j, 0.6 - 0.8j],
        tf.math.reciprocal: [0.2 - 0.4j, 0.12 + 0.16j],
        (lambda z: z ** 2): [-3.0000005 + 3.9999998j, -7 - 24.000002j],
    }
    for fn, want in expected.items():
        got = fn(x)
        assert got.dtype == tf.complex64
        np.testing.assert_allclose(got.numpy(), want, rtol=2e-6)
    assert_same(lambda a, b: tf.math.real(tf.exp(tf.complex(a, b)) * tf.complex(b, a)),
                np.float32([1, 2]), np.float32([0.5, -1]))


def test_eig_and_eigvals():
    e = tf.linalg.eigvals(tf.constant([[0., 1.], [-1., 0.]]))
    assert e.dtype == tf.complex64
    np.testing.assert_allclose(e.numpy(), [1j, -1j], atol=1e-6)
    e, v = tf.eig(tf.constant([[1., 2.], [3., 4.]], tf.float64))  # top level too, as in TF
    assert e.dtype == v.dtype == tf.complex128
    np.testing.assert_allclose(e.numpy(), [-0.37228132, 5.37228132], rtol=1e-7)
    np.testing.assert_allclose(np.abs(v.numpy()), [[0.82456484, 0.41597356],
                                                   [0.56576746, 0.90937671]], rtol=1e-7)
    np.testing.assert_allclose(tf.linalg.eigvals(tf.constant([[1 + 1j, 2], [0, 3j]],
                                                             tf.complex64)).numpy(), [1 + 1j, 3j])
    with pytest.raises(tf.errors.InvalidArgumentError, match="must have rank >= 2|rank"):
        tf.linalg.eigvals(tf.constant([1., 2.]))
    assert_same(lambda a: tf.math.real(tf.reduce_sum(tf.linalg.eigvals(a))),
                np.float32([[2, 1], [1, 2]]))


# (function of z, TensorFlow's gradient at Z) — the conj convention: g * conj(f'(z))
GRADIENTS = [
    (lambda z: z * tf.constant(W, tf.complex64), [0.7 + 1j, 2 - 0.5j]),
    (tf.square, [2 - 4j, -1 - 0.6j]),
    (tf.exp, [-1.1312044 - 2.4717267j, 0.5794409 - 0.17924207j]),
    (tf.math.log, [0.2 + 0.4j, -1.4705882 + 0.88235295j]),
    (tf.sqrt, [0.28443223 + 0.17578879j, 0.17478473 + 0.63102835j]),
    (lambda z: z / tf.constant(W, tf.complex64), [0.46979865 - 0.6711409j,
                                                   0.47058824 + 0.11764706j]),
    (lambda z: tf.constant(W, tf.complex64) / z, [0.244 + 0.008j, -1.4705882 + 5.882353j]),
    (tf.sin, [2.032723 + 3.0518978j, 0.91737086 - 0.14599481j]),
    (tf.cos, [-3.1657786 + 1.9596009j, 0.501162 + 0.26724172j]),
    (tf.tanh, [-0.30200148 - 0.568103j, 0.81062555 - 0.23659176j]),
    (tf.sigmoid, [0.14088881 + 0.42071825j, 0.23938586 - 0.01774644j]),
    (lambda z: z ** tf.constant(W, tf.complex64), [-1.4569695 + 2.5088136j,
                                                    -0.27650446 - 0.1753419j]),
    (tf.math.reciprocal, [0.12 - 0.16j, -1.3840828 + 2.5951557j]),
    (tf.math.conj, [1, 1]),
    (tf.reduce_prod, [-0.5 - 0.3j, 1 - 2j]),
    (tf.reduce_mean, [0.5, 0.5]),
    (lambda z: tf.math.real(z) * tf.constant([1., 2.]), [1, 2]),
    (lambda z: tf.math.imag(z) * tf.constant([1., 2.]), [1j, 2j]),
    (lambda z: tf.abs(z) * tf.constant([1., 2.]), [0.4472136 + 0.8944272j,
                                                   -1.7149858 + 1.0289916j]),
    (lambda z: tf.math.angle(z) * tf.constant([1., 2.]), [-0.4 + 0.2j,
                                                          -1.7647059 - 2.9411764j]),
    (lambda z: tf.cast(z, tf.float32) * tf.constant([1., 2.]), [1, 2]),
    (lambda z: tf.matmul(tf.reshape(z, [1, 2]), tf.constant([[0.7 - 1j], [2 + 0.5j]],
                                                            tf.complex64)), [0.7 + 1j, 2 - 0.5j]),
]


@pytest.mark.parametrize("fn,want", GRADIENTS)
def test_gradients_follow_the_conj_convention(fn, want):
    def grad(z):
        with tf.GradientTape() as tape:
            tape.watch(z)
            y = fn(z)
        return tape.gradient(y, z)

    z = tf.constant(Z, tf.complex64)
    np.testing.assert_allclose(grad(z).numpy(), want, rtol=2e-6, atol=1e-7)
    np.testing.assert_allclose(tf.function(grad)(z).numpy(), want, rtol=2e-6, atol=1e-7)


def test_gradients_into_real_parts_and_variables():
    a, b = tf.constant([1., 2.]), tf.constant([3., -1.])
    w = tf.constant(W, tf.complex64)
    with tf.GradientTape(persistent=True) as tape:
        tape.watch([a, b])
        y = tf.complex(a, b) * w
        y2 = tf.cast(a, tf.complex64) * w
    da, db = tape.gradient(y, [a, b])
    assert da.dtype == tf.float32
    np.testing.assert_allclose(da.numpy(), [0.7, 2.0])
    np.testing.assert_allclose(db.numpy(), [1.0, -0.5])
    np.testing.assert_allclose(tape.gradient(y2, a).numpy(), [0.7, 2.0])
    v = tf.Variable([1 + 1j, 2 - 1j], dtype=tf.complex64)
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(tf.abs(v * w) ** 2)
    g = tape.gradient(loss, v)  # 2 |w|^2 v: the steepest ascent direction
    np.testing.assert_allclose(g.numpy(), 2 * np.abs(W) ** 2 * np.array([1 + 1j, 2 - 1j]),
                               rtol=1e-6)


def test_a_real_loss_descends_by_its_complex_gradient():
    """Numerically: L(z - eps * g) < L(z), the gradient as dL/dx + i dL/dy."""
    z0 = np.array(Z, np.complex128)

    def loss(z):
        return tf.reduce_sum(tf.abs(tf.exp(z) - 1) ** 2)

    z = tf.constant(z0)
    with tf.GradientTape() as tape:
        tape.watch(z)
        y = loss(z)
    g = tape.gradient(y, z).numpy()
    eps = 1e-6
    for k in range(2):
        for step, part in ((1, lambda c: c.real), (1j, lambda c: c.imag)):
            dz = np.zeros(2, complex)
            dz[k] = step * eps
            numeric = (loss(tf.constant(z0 + dz)) - loss(tf.constant(z0 - dz))).numpy() / (2 * eps)
            np.testing.assert_allclose(numeric, part(g[k]), rtol=1e-5)


def test_saved_and_restored():
    import os
    import tempfile

    class M(tf.Module):
        def __init__(self):
            self.v = tf.Variable([1 + 1j, 2], dtype=tf.complex64)

        @tf.function(input_signature=[tf.TensorSpec([2], tf.complex64)])
        def __call__(self, z):
            return self.v * z + tf.constant(1j, tf.complex64)

    m, d = M(), tempfile.mkdtemp()
    tf.saved_model.save(m, d)
    restored = tf.saved_model.load(d)
    np.testing.assert_array_equal(restored(tf.constant([1j, 2], tf.complex64)).numpy(),
                                  [-1 + 2j, 4 + 1j])
    path = tf.train.Checkpoint(m=m).write(os.path.join(d, "ckpt"))
    m.v.assign([0, 0])
    tf.train.Checkpoint(m=m).read(path)
    np.testing.assert_array_equal(m.v.numpy(), [1 + 1j, 2])


def test_graph_def_lists_complex_parts():
    @tf.function
    def f(x):
        return x * tf.constant([1 + 2j, 3j], tf.complex64)

    text = str(f.get_concrete_function(tf.TensorSpec([2], tf.complex64)).graph.as_graph_def())
    assert ("dtype: DT_COMPLEX64\n        tensor_shape {\n          dim {\n            size: 2\n"
            "          }\n        }\n        scomplex_val: 1\n        scomplex_val: 2\n"
            "        scomplex_val: 0\n        scomplex_val: 3\n") in text  # as TensorFlow prints


def test_complex_linear_algebra_and_its_gradients():
    a = tf.constant([[1 + 2j, 3 - 1j], [0.5j, 2]], tf.complex64)
    b = tf.constant([[1j, 2], [1, -1j]], tf.complex64)
    np.testing.assert_allclose(tf.linalg.det(a).numpy(), 1.5 + 2.5j, rtol=1e-6)
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(),
                               [[0.3529412 - 0.5882353j, -0.23529416 + 1.0588236j],
                                [-0.14705883 - 0.0882353j, 0.7647059 + 0.05882354j]], rtol=1e-6)
    np.testing.assert_allclose(tf.linalg.eigh(tf.matmul(a, a, adjoint_b=True))[0].numpy(),
                               [0.45218033, 18.797821], rtol=1e-5)
    expected = {  # d/da of sum(|f(a)|^2), recorded from TensorFlow (4 decimals)
        "inv": ([[-1.3633 - 2.1938j, 1.372 - 0.6349j], [1.0657 + 4.9135j, -2.9931 + 0.2664j]],
                lambda a: tf.linalg.inv(a)),
        "det": ([[-11.6471 + 0.5882j, -0.1471 - 2.9118j], [17.7647 + 4.9412j, -5.2353 + 11.9412j]],
                tf.linalg.det),
        "solve": ([[-4.6782 - 8.2284j, 3.7042 - 3.2578j], [2.2561 + 17.7993j, -8.8616 + 3.0346j]],
                  lambda a: tf.linalg.solve(a, b)),
        "solve_adjoint": ([[-9.4948 - 14.7266j, 9.3875 - 4.5502j],
                           [7.1142 + 33.6609j, -20.4152 + 1.7785j]],
                          lambda a: tf.linalg.solve(a, b, adjoint=True)),
        "einsum": ([[4 + 2j, 2j], [-7j, 5]], lambda a: tf.einsum("ij,jk->ik", a, b)),
        "eigh": ([[65 + 134j, 236 - 80j], [8 + 74.5j, 128 + 2j]],
                 lambda a: tf.math.real(tf.linalg.eigh(tf.matmul(a, a, adjoint_b=True))[0])),
    }
    for name, (want, fn) in expected.items():
        with tf.GradientTape() as tape:
            tape.watch(a)
            y = tf.reduce_sum(tf.abs(fn(a)) ** 2)
        np.testing.assert_allclose(tape.gradient(y, a).numpy(), want, atol=2e-4, err_msg=name)
    np.testing.assert_allclose(tf.math.reduce_euclidean_norm(a).numpy(), 4.387482, rtol=1e-6)
