"""Variations on TensorFlow's core guides (tensors, variables, slicing, autodiff) that once
differed from TensorFlow; expected values were recorded from TensorFlow 2.21 as literals."""
import numpy as np
import pytest

import autograph as tf
from runtime.ops.core import apply_op


def test_variable_slice_assign_eager():
    v = tf.Variable([[1, 2, 3], [4, 5, 6]])
    r = v[0:1, 1:].assign([[9, 9]])
    assert r.name == "UnreadVariable"
    np.testing.assert_array_equal(r.numpy(), [[1, 9, 9], [4, 5, 6]])
    v[:, 0].assign(7)  # a scalar broadcasts into the slice
    np.testing.assert_array_equal(v.numpy(), [[7, 9, 9], [7, 5, 6]])
    assert type(v[0]).__name__ == "EagerTensor"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Cannot broadcast input shape \[2\] into final shape \[3\]"):
        v[0].assign([1, 2])
    with pytest.raises(TypeError):
        v[0].assign([1., 2., 3.])


def test_variable_slice_assign_staged():
    w = tf.Variable([1., 2., 3.])

    @tf.function
    def f(i):
        w[1].assign(10.)
        w[::2].assign([5., 6.])
        w[i:].assign(w[i:] + 1.)
        return w.read_value()

    np.testing.assert_array_equal(f(tf.constant(2)).numpy(), [5., 10., 7.])
    np.testing.assert_array_equal(w.numpy(), [5., 10., 7.])


def test_variable_slice_keeps_gradient():
    b = tf.Variable([1., 2.])
    with tf.GradientTape() as t:
        y = tf.reduce_max(tf.constant([1., 3., 3.]) * b[0]) + tf.reduce_sum(b[1:] * 3.)
    np.testing.assert_allclose(t.gradient(y, b).numpy(), [3., 3.])


def test_variable_scatter_methods():
    v = tf.Variable([[7, 9, 9], [7, 5, 6]])
    np.testing.assert_array_equal(v.scatter_nd_add([[0, 0]], [100]).numpy(),
                                  [[107, 9, 9], [7, 5, 6]])
    np.testing.assert_array_equal(v.scatter_nd_sub([[0, 0]], [1]).numpy(),
                                  [[106, 9, 9], [7, 5, 6]])
    np.testing.assert_array_equal(v.scatter_update(tf.IndexedSlices([[0, 0, 0]], [1])).numpy(),
                                  [[106, 9, 9], [0, 0, 0]])
    np.testing.assert_array_equal(v.scatter_sub(tf.IndexedSlices([[1, 1, 1]], [1])).numpy(),
                                  [[106, 9, 9], [-1, -1, -1]])
    np.testing.assert_array_equal(v.sparse_read([1, 0]).numpy(), [[-1, -1, -1], [106, 9, 9]])
    np.testing.assert_array_equal(v.gather_nd([[1, 0]]).numpy(), [-1])
    w = tf.Variable([1., 2., 3.])
    np.testing.assert_array_equal(w.scatter_max(tf.IndexedSlices([100.], [0])).numpy(),
                                  [100., 2., 3.])
    with pytest.raises(TypeError, match="sparse_delta is not IndexedSlices"):
        w.scatter_update([1.])
    with tf.GradientTape() as t:
        y = tf.reduce_sum(w.sparse_read([0, 0]) * 2.)
    np.testing.assert_array_equal(tf.convert_to_tensor(t.gradient(y, w)).numpy(), [4., 0., 0.])


def test_strided_slice_update_gradient():
    x, val, k = tf.constant([1., 2., 3.]), tf.constant([4., 4.]), tf.constant([1., 2., 3.])
    spec = {"spec": (("slice", 0, 2, None),)}
    with tf.GradientTape(persistent=True) as t:
        t.watch([x, val])
        y = apply_op("TensorStridedSliceUpdate", [x, val], attrs=spec) * k
        s = tf.constant(5.)
        t.watch(s)
        z = apply_op("TensorStridedSliceUpdate", [x, s], attrs=spec) * k
    np.testing.assert_array_equal(y.numpy(), [4., 8., 9.])
    np.testing.assert_array_equal(t.gradient(y, x).numpy(), [0., 0., 3.])
    np.testing.assert_array_equal(t.gradient(y, val).numpy(), [1., 2.])
    assert float(t.gradient(z, s)) == 3.0


_UNKNOWN = [tf.TensorSpec(None, tf.float32)]
_X = np.array([[1., 2., 0.], [3., 0.5, 4.]], np.float32)


def _unknown_rank(fn):
    return tf.function(fn, input_signature=_UNKNOWN)(_X).numpy()


def test_sort_unknown_rank():
    np.testing.assert_array_equal(_unknown_rank(lambda x: tf.sort(x, direction="DESCENDING")),
                                  [[2., 1., 0.], [4., 3., 0.5]])
    np.testing.assert_array_equal(_unknown_rank(lambda x: tf.argsort(x)), [[2, 0, 1], [1, 0, 2]])

    @tf.function(input_signature=_UNKNOWN)
    def grad(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(tf.sort(x) * tf.constant([1., 2., 3.]))
        return t.gradient(y, x)
    np.testing.assert_array_equal(grad(_X).numpy(), [[2., 3., 1.], [2., 1., 3.]])


def test_repeat_unknown_rank():
    np.testing.assert_array_equal(_unknown_rank(lambda x: tf.repeat(x, 2, axis=1)),
                                  [[1., 1., 2., 2., 0., 0.], [3., 3., .5, .5, 4., 4.]])


def test_linspace_unknown_rank():
    np.testing.assert_allclose(_unknown_rank(lambda x: tf.linspace(x[0], x[1], 4, axis=-1)),
                               [[1., 1.6667, 2.3333, 3.], [2., 1.5, 1., .5],
                                [0., 1.3333, 2.6667, 4.]], atol=1e-4)
    np.testing.assert_array_equal(_unknown_rank(lambda x: tf.linspace(x[0], x[1], 1)),
                                  [[1., 2., 0.]])
    np.testing.assert_array_equal(_unknown_rank(lambda x: tf.linspace(x[0], 5., 3)),
                                  [[1., 2., 0.], [3., 3.5, 2.5], [5., 5., 5.]])


def _grad(f, x):
    x = tf.constant(x)
    with tf.GradientTape() as t:
        t.watch(x)
        y = f(x)
    return t.gradient(y, x).numpy()


def test_zero_upstream_gradient_masks_singular_derivatives():
    """TensorFlow's SqrtGrad/RsqrtGrad/ReciprocalGrad give 0 where the upstream gradient is 0."""
    x = [-2., 0., 4.]
    mask = tf.constant([0., 0., 1.])
    np.testing.assert_array_equal(_grad(lambda x: tf.sqrt(x) * mask, x), [0., 0., .25])
    np.testing.assert_array_equal(_grad(lambda x: tf.math.rsqrt(x) * mask, x), [0., 0., -.0625])
    np.testing.assert_array_equal(_grad(lambda x: tf.math.reciprocal(x) * mask, x),
                                  [0., 0., -.0625])
    np.testing.assert_array_equal(
        _grad(lambda x: tf.where(x > 0, tf.sqrt(x), 0.), [[1., -2.], [4., 0.]]),
        [[.5, 0.], [.25, 0.]])
    assert np.isnan(_grad(lambda x: tf.math.log(x) * mask, x)[1])  # Log has no such rule


def test_sqrt_family_second_derivatives_and_complex():
    x = tf.constant([0.25, 4.], tf.float64)
    with tf.GradientTape() as t2:
        t2.watch(x)
        with tf.GradientTape() as t1:
            t1.watch(x)
            y = tf.sqrt(x) + tf.math.rsqrt(x) + tf.math.reciprocal(x)
        g = t1.gradient(y, x)
    np.testing.assert_allclose(g.numpy(), [-19., .125])
    np.testing.assert_allclose(t2.gradient(g, x).numpy(), [150., .0234375])
    z = tf.constant([1 + 2j, -3 + 0j], tf.complex64)
    gz = _grad(lambda z: tf.math.real(tf.sqrt(z) + tf.math.rsqrt(z) + tf.math.reciprocal(z)),
               z)
    np.testing.assert_allclose(gz, [0.4179 - 0.1331j, -0.1111 + 0.3849j], atol=1e-4)


def test_cumprod_gradient_at_zero():
    np.testing.assert_array_equal(_grad(tf.math.cumprod, [1., 0., 3.]), [1., 0., 0.])
    np.testing.assert_array_equal(
        _grad(lambda c: tf.math.cumprod(c, exclusive=True, reverse=True), [1., 0., 3.]),
        [0., 0., 1.])


def test_unsigned_and_narrow_int_types_refused_as_tensorflow_does():
    u = tf.constant([1], tf.uint8)
    for fn in (tf.negative, tf.abs, tf.sign, lambda x: x ** x):
        with pytest.raises(tf.errors.InvalidArgumentError, match="uint8"):
            fn(u)
    with pytest.raises(tf.errors.InvalidArgumentError, match="int16"):
        tf.math.squared_difference(tf.constant([1], tf.int16), tf.constant([1], tf.int16))
    np.testing.assert_array_equal((-tf.constant([1], tf.int8)).numpy(), [-1])
    np.testing.assert_array_equal(tf.square(u).numpy(), [1])


def test_saturate_cast():
    from runtime.ops.math_ops import saturate_cast
    out = saturate_cast(tf.constant([3e9, -3e9, 1.7]), tf.int32)
    assert out.dtype == tf.int32
    np.testing.assert_array_equal(out.numpy(), [2147483520, -2147483648, 1])
    np.testing.assert_array_equal(saturate_cast(tf.constant([3e9, -3e9]), tf.int64).numpy(),
                                  [3000000000, -3000000000])
    np.testing.assert_array_equal(saturate_cast(tf.constant([300, -5]), tf.uint8).numpy(),
                                  [255, 0])
    np.testing.assert_array_equal(
        saturate_cast(tf.constant([1e300], tf.float64), tf.float32).numpy(),
        np.float32([3.4028235e+38]))
    np.testing.assert_array_equal(saturate_cast(tf.constant([-1], tf.int64), tf.uint64).numpy(),
                                  [0])
    np.testing.assert_array_equal(saturate_cast(tf.constant([1 + 2j]), tf.float32).numpy(), [1.])
    staged = tf.function(lambda x: saturate_cast(x, tf.int8))(tf.constant([1.5, -200.]))
    np.testing.assert_array_equal(staged.numpy(), [1, -128])


def test_bitcast():
    from runtime.ops.array_ops import bitcast
    one = bitcast(tf.constant(1., tf.float32), tf.int32)
    assert one.shape == () and int(one) == 1065353216
    np.testing.assert_array_equal(bitcast(tf.constant([1, 2], tf.int32), tf.uint8).numpy(),
                                  [[1, 0, 0, 0], [2, 0, 0, 0]])
    np.testing.assert_array_equal(
        bitcast(tf.constant([[1, 0, 0, 0], [0, 0, 128, 63]], tf.uint8), tf.float32).numpy(),
        np.float32([1e-45, 1.]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 4 to 3"):
        bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int32)
    with pytest.raises(tf.errors.InvalidArgumentError):
        bitcast(tf.constant([1], tf.int32), tf.bool)
    staged = tf.function(lambda x: bitcast(x, tf.int16))(tf.constant([1.5, -200.]))
    np.testing.assert_array_equal(staged.numpy(), [[0, 16320], [0, -15544]])


def test_sigmoid_cross_entropy_gradient_at_zero_logits_is_tensorflows():
    # TensorFlow 2.21: -0.5 at logits 0 with label 1 (before: -1.0).
    x = tf.constant([0.0, 2.0, -3.0])
    z = tf.constant([1.0, 0.0, 1.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.nn.sigmoid_cross_entropy_with_logits(labels=z, logits=x)
    assert np.allclose(tape.gradient(loss, x).numpy(), [-0.5, 0.8807970881, -0.9525741339])


def test_set_shape_narrows_a_traced_tensor_and_checks_an_eager_one():
    # TensorFlow 2.21: the map function's result gets the shape set_shape gives it.
    def parse(x):
        y = tf.py_function(lambda v: v * 2, [x], tf.int32)
        y.set_shape([2])
        return y
    ds = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4]]).map(parse)
    assert ds.element_spec.shape == [2]
    assert [v.tolist() for v in ds.as_numpy_iterator()] == [[2, 4], [6, 8]]
    with pytest.raises(ValueError, match="is not compatible with supplied shape"):
        tf.constant([1, 2]).set_shape([3])
