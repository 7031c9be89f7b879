"""More array ops (issue #15): values recorded from TensorFlow 2.21 as literals, eager ==
staged (both back ends), TensorFlow's error types, gradients checked numerically."""
import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from tests.runtime.test_gradients import check_gradients
from tests.staging import assert_same

RNG = np.random.default_rng(3)


def same(fn, expected, *args):
    """fn eagerly and staged agree, and equal TensorFlow's ``expected`` (value and dtype)."""
    got = assert_same(fn, *args)
    for g, e in zip(got if isinstance(got, (list, tuple)) else [got],
                    expected if isinstance(got, (list, tuple)) else [expected]):
        e = np.asarray(e)
        assert np.asarray(g).dtype == e.dtype, (np.asarray(g).dtype, e.dtype)
        np.testing.assert_allclose(g, e, rtol=1e-6)


# -- values (TensorFlow's, recorded) -------------------------------------------------------

def test_linspace():
    same(lambda: tf.linspace(0., 1., 7),
         np.array([0., 0.16666667, 0.33333334, 0.5, 0.6666667, 0.8333334, 1.], np.float32))
    same(lambda: tf.linspace([0., 1.], [1., 3.], 3, axis=1),
         np.array([[0., 0.5, 1.], [1., 2., 3.]], np.float32))
    same(lambda: tf.linspace(0, 4, 5), np.arange(5.0))  # ints give float64, as in TF
    same(lambda: tf.linspace(2., 5., 1), np.array([2.], np.float32))


def test_one_hot():
    same(lambda: tf.one_hot([0, 2, -1, 5], 3),
         np.array([[1, 0, 0], [0, 0, 1], [0, 0, 0], [0, 0, 0]], np.float32))
    same(lambda: tf.one_hot([[0, 2]], 3, axis=0, on_value=5, off_value=-1),
         np.array([[[5, -1]], [[-1, -1]], [[-1, 5]]], np.int32))
    same(lambda x: tf.one_hot(x, 2, dtype=tf.int64), np.array([[0, 1], [1, 0]], np.int64),
         np.array([1, 0], np.int32))
    with pytest.raises(TypeError, match="of on_value does not match dtype parameter"):
        tf.one_hot([0], 2, on_value=tf.constant(1.0), dtype=tf.int32)
    with pytest.raises(TypeError, match="of off_value"):
        tf.one_hot([0], 2, on_value=tf.constant(1.0), off_value=tf.constant(0, tf.int32))


def test_split():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    same(lambda x: tf.split(x, [1, -1, 2], axis=1), [x[:, :1], x[:, 1:2], x[:, 2:]], x)
    same(lambda: tf.split(tf.range(6), 3), np.int32([[0, 1], [2, 3], [4, 5]]))
    with pytest.raises(InvalidArgumentError, match="evenly divide"):
        tf.split(tf.range(5), 2)
    with pytest.raises(InvalidArgumentError, match="Determined shape must either match"):
        tf.split(tf.range(5), [2, 2])


def test_slice_reverse_roll():
    x = np.arange(12, dtype=np.int32).reshape(3, 4)
    same(lambda x: tf.slice(x, [1, 1], [-1, 2]), np.array([[5, 6], [9, 10]], np.int32), x)
    same(lambda: tf.reverse([[1, 2], [3, 4]], [1]), np.array([[2, 1], [4, 3]], np.int32))
    same(lambda: tf.roll([1, 2, 3, 4, 5], 2, 0), np.array([4, 5, 1, 2, 3], np.int32))
    same(lambda x: tf.roll(x, [1, -1], [0, 1]), np.roll(x, [1, -1], [0, 1]), x)
    with pytest.raises(InvalidArgumentError, match=r"Expected size\[0\] in \[0, 1\], but got 2"):
        tf.slice([1, 2, 3], [2], [2])
    with pytest.raises(InvalidArgumentError, match="axis 1 specified more than once"):
        tf.reverse([[1, 2]], [1, -1])
    with pytest.raises(InvalidArgumentError, match="shift and axis must have the same size"):
        tf.roll([1, 2], [1, 2], [0])


def test_gather_nd_and_scatter():
    same(lambda: tf.gather_nd([[1, 2], [3, 4]], [[1, 0], [0, 1]]), np.array([3, 2], np.int32))
    same(lambda: tf.gather_nd([[1, 2], [3, 4]], [[1], [0]], batch_dims=1),
         np.array([2, 3], np.int32))
    same(lambda: tf.scatter_nd([[1], [3], [1]], [9, 10, 11], [5]),
         np.array([0, 20, 0, 10, 0], np.int32))
    same(lambda: tf.tensor_scatter_nd_max([1, 2, 3], [[0], [2]], [5, 1]),
         np.array([5, 2, 3], np.int32))
    t = np.arange(6, dtype=np.float32).reshape(3, 2)
    for fn, expected in [(tf.tensor_scatter_nd_update, [[0, 1], [7, 8], [4, 5]]),
                         (tf.tensor_scatter_nd_add, [[0, 1], [9, 11], [4, 5]]),
                         (tf.tensor_scatter_nd_sub, [[0, 1], [-5, -5], [4, 5]]),
                         (tf.tensor_scatter_nd_min, [[0, 1], [2, 3], [4, 5]])]:
        same(lambda t, fn=fn: fn(t, [[1]], [[7., 8.]]), np.array(expected, np.float32), t)
    with pytest.raises(InvalidArgumentError, match=r"indices\[0\] = \[2, 0\] does not index "
                                                   r"into param shape \[2,2\]"):
        tf.gather_nd([[1, 2], [3, 4]], [[2, 0]])
    with pytest.raises(InvalidArgumentError, match=r"indices\[0\] = \[5\] does not index into "
                                                   r"shape \[3\]"):
        tf.scatter_nd([[5]], [1], [3])
    with pytest.raises(InvalidArgumentError, match="Outer dimensions of indices and update"):
        tf.tensor_scatter_nd_update([1, 2, 3], [[0]], [1, 2])


def test_boolean_mask_and_where():
    x = np.array([[1, 2], [3, 4], [5, 6]], np.int32)
    same(lambda x: tf.boolean_mask(x, [True, False, True]), np.array([[1, 2], [5, 6]], np.int32),
         x)
    same(lambda x: tf.boolean_mask(x, [True, False], axis=1), np.array([[1], [3], [5]], np.int32),
         x)
    same(lambda x: tf.boolean_mask(x, x > 2), np.array([3, 4, 5, 6], np.int32), x)
    same(lambda x: tf.where(x > 3), np.array([[1, 1], [2, 0], [2, 1]], np.int64), x)
    with pytest.raises(ValueError, match="mask cannot be scalar"):
        tf.boolean_mask([1, 2], True)
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(3,\) are incompatible"):
        tf.boolean_mask([1, 2], [True, False, True])


def test_clipping():
    same(lambda: tf.clip_by_value([1., 5., -3.], -1., 2.), np.array([1., 2., -1.], np.float32))
    same(lambda: tf.clip_by_norm([3., 4.], 1.0), np.array([0.6, 0.8], np.float32))
    same(lambda: tf.clip_by_norm([[3., 4.], [0., 0.]], 1.0, axes=[1]),
         np.array([[0.6, 0.8], [0., 0.]], np.float32))
    clipped, norm = tf.clip_by_global_norm([tf.constant([3., 4.]), None, tf.constant([12.])], 5.0)
    np.testing.assert_allclose(clipped[0].numpy(), [1.1538461, 1.5384616], rtol=1e-6)
    assert clipped[1] is None
    np.testing.assert_allclose(clipped[2].numpy(), [4.6153846], rtol=1e-6)
    assert norm.numpy() == np.float32(13.0)
    with pytest.raises(ValueError, match=r"Shapes \(2,\) and \(2, 2\) are incompatible"):
        tf.clip_by_value([1., 2.], [[0.], [1.]], 3.)


def test_broadcasting():
    same(lambda: tf.broadcast_to([1, 2], [3, 2]), np.array([[1, 2]] * 3, np.int32))
    assert tf.broadcast_static_shape(tf.TensorShape([2, 1]), tf.TensorShape([3])).as_list() == \
        [2, 3]
    same(lambda: tf.broadcast_dynamic_shape([2, 1], [3]), np.array([2, 3], np.int32))
    with pytest.raises(ValueError, match="Incompatible shapes for broadcasting"):
        tf.broadcast_static_shape(tf.TensorShape([2, 3]), tf.TensorShape([4]))
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[2,3\] vs. \[4\]"):
        tf.broadcast_dynamic_shape([2, 3], [4])
    with pytest.raises(InvalidArgumentError, match=r"Incompatible shapes: \[3\] vs. \[2,2\]"):
        tf.broadcast_to([1, 2, 3], [2, 2])


def test_meshgrid():
    same(lambda: tf.meshgrid([1, 2, 3], [4, 5]),
         [np.array([[1, 2, 3], [1, 2, 3]], np.int32), np.array([[4, 4, 4], [5, 5, 5]], np.int32)])
    same(lambda: tf.meshgrid([1, 2, 3], [4, 5], indexing="ij"),
         list(np.meshgrid(np.int32([1, 2, 3]), np.int32([4, 5]), indexing="ij")))
    with pytest.raises(ValueError, match="must be either 'xy' or 'ij'"):
        tf.meshgrid([1], indexing="zz")


def test_sort_argsort():
    same(lambda: tf.sort([3, 1, 2, 1], direction="DESCENDING"), np.array([3, 2, 1, 1], np.int32))
    same(lambda: tf.argsort([3, 1, 2, 1]), np.array([1, 3, 2, 0], np.int32))
    same(lambda: tf.sort([[3., 1.], [0., 2.]], axis=0), np.array([[0., 1.], [3., 2.]], np.float32))
    same(lambda: tf.argsort([2, 1, 2, 1], direction="DESCENDING"), np.array([0, 2, 1, 3], np.int32))
    with pytest.raises(ValueError, match="should be one of ASCENDING, DESCENDING"):
        tf.sort([1, 2], direction="UP")


def test_unique_and_searchsorted():
    y, idx = tf.unique([1, 1, 2, 4, 4, 4, 7, 8, 8])
    assert y.numpy().tolist() == [1, 2, 4, 7, 8] and idx.numpy().tolist() == [0, 0, 1, 2, 2, 2,
                                                                              3, 4, 4]
    same(lambda: tuple(tf.unique_with_counts([5, 3, 5, 1], out_idx=tf.int64)),
         (np.int32([5, 3, 1]), np.int64([0, 1, 0, 2]), np.int64([2, 1, 1])))
    same(lambda: tf.searchsorted([[0, 3, 9, 9, 10], [1, 2, 3, 4, 5]], [[2, 4, 9], [0, 2, 6]],
                                 side="right"), np.array([[1, 2, 4], [0, 2, 5]], np.int32))
    same(lambda: tf.searchsorted([0., 1., 1., 2.], [1., 1.5]), np.array([1, 3], np.int32))
    with pytest.raises(InvalidArgumentError, match="unique expects a 1D vector"):
        tf.unique([[1]])
    with pytest.raises(ValueError, match="must be either 'right' or 'left'"):
        tf.searchsorted([1, 2], [1], side="middle")


def test_repeat_sequence_mask_tile():
    same(lambda: tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0),
         np.array([[1, 2], [3, 4], [3, 4]], np.int32))
    same(lambda: tf.repeat([1, 2], 3), np.array([1, 1, 1, 2, 2, 2], np.int32))
    same(lambda: tf.repeat(3, 2), np.array([3, 3], np.int32))
    same(lambda: tf.sequence_mask([1, 3, 2], 5),
         np.array([[1, 0, 0, 0, 0], [1, 1, 1, 0, 0], [1, 1, 0, 0, 0]], bool))
    same(lambda: tf.sequence_mask([1.5], 3), np.array([[True, False, False]]))
    same(lambda: tf.sequence_mask([[1], [2]], dtype=tf.float32),
         np.array([[[1., 0.]], [[1., 1.]]], np.float32))
    same(lambda: tf.tile([[1, 2]], [2, 1]), np.array([[1, 2], [1, 2]], np.int32))


def test_misc_shape_ops():
    same(lambda x: tf.ensure_shape(x, [None, 2]), np.ones((3, 2), np.float32),
         np.ones((3, 2), np.float32))
    with pytest.raises(InvalidArgumentError, match=r"Shape of tensor input \[2\] is not "
                                                   r"compatible with expected shape \[3\]"):
        tf.ensure_shape(tf.constant([1, 2]), [3])
    a, b = tf.identity_n([1, 2.0])
    assert a.dtype == tf.int32 and b.dtype == tf.float32
    same(lambda: tf.reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8]], [2, 3], seq_axis=1),
         np.array([[2, 1, 3, 4], [7, 6, 5, 8]], np.int32))
    assert tf.size([[1, 2]], out_type=tf.int64).dtype == tf.int64
    assert tf.shape([[1, 2]], out_type=tf.int64).numpy().tolist() == [1, 2]
    same(lambda x: tf.zeros_like(x, dtype=tf.int64), np.zeros(3, np.int64), np.ones(3, np.float32))


def test_staged_with_unknown_dims():
    """Inside tf.function with an input signature of unknown dims, shapes stay as known."""
    @tf.function(input_signature=[tf.TensorSpec([None, 4], tf.float32)])
    def f(x):
        parts = tf.split(x, [1, 3], axis=1)
        assert parts[1].shape.as_list() == [None, 3]
        oh = tf.one_hot(tf.argmax(x, axis=1), 4)
        assert oh.shape.as_list() == [None, 4]
        return tf.reverse(parts[1], [0]), tf.boolean_mask(x, x[:, 0] > 0), oh
    x = RNG.standard_normal((5, 4)).astype(np.float32)
    r, m, oh = f(x)
    np.testing.assert_array_equal(r.numpy(), x[::-1, 1:])
    np.testing.assert_array_equal(m.numpy(), x[x[:, 0] > 0])
    np.testing.assert_array_equal(oh.numpy(), np.eye(4, dtype=np.float32)[x.argmax(1)])


# -- gradients (numerical) ----------------------------------------------------------------------

GRAD_CASES = {
    "reverse": (lambda x: tf.reverse(x, [0, 1]), [(3, 4)]),
    "roll": (lambda x: tf.roll(x, [1, -2], [0, 1]), [(3, 4)]),
    "split": (lambda x: tf.split(x, [1, 3], axis=1)[1] * 2.0, [(3, 4)]),
    "split_n": (lambda x: tf.split(x, 2)[0], [(4, 3)]),
    "slice": (lambda x: tf.slice(x, [1, 0], [2, -1]), [(3, 4)]),
    "broadcast_to": (lambda x: tf.broadcast_to(x, [2, 3, 4]), [(3, 1)]),
    "gather_nd": (lambda x: tf.gather_nd(x, [[1, 0], [1, 0], [2, 3]]), [(3, 4)]),
    "scatter_nd": (lambda u: tf.scatter_nd([[1], [3], [1]], u, [5, 2]), [(3, 2)]),
    "tensor_scatter_update": (lambda t, u: tf.tensor_scatter_nd_update(t, [[0], [2]], u),
                              [(3, 2), (2, 2)]),
    "tensor_scatter_add": (lambda t, u: tf.tensor_scatter_nd_add(t, [[0], [0]], u),
                           [(3, 2), (2, 2)]),
    "tensor_scatter_sub": (lambda t, u: tf.tensor_scatter_nd_sub(t, [[1]], u), [(3, 2), (1, 2)]),
    "tensor_scatter_max": (lambda t, u: tf.tensor_scatter_nd_max(t, [[1], [2]], u),
                           [(3, 2), (2, 2)]),
    "boolean_mask": (lambda x: tf.boolean_mask(x, [[True, False], [False, True], [True, True]]),
                     [(3, 2)]),
    "pad_reflect": (lambda x: tf.pad(x, [[1, 2], [2, 1]], mode="REFLECT"), [(4, 4)]),
    "pad_symmetric": (lambda x: tf.pad(x, [[1, 2], [0, 1]], mode="SYMMETRIC"), [(3, 3)]),
    "pad_constant": (lambda x: tf.pad(x, [[1, 0], [0, 2]], constant_values=3.0), [(2, 3)]),
    "tile": (lambda x: tf.tile(x, [2, 3]), [(2, 2)]),
    "repeat": (lambda x: tf.repeat(x, [2, 0, 1], axis=0), [(3, 2)]),
    "clip_by_value": (lambda x: tf.clip_by_value(x, -0.5, 0.7), [(3, 4)]),
    "clip_by_norm": (lambda x: tf.clip_by_norm(x, 1.0, axes=[1]), [(3, 4)]),
    "sort": (lambda x: tf.sort(x, direction="DESCENDING"), [(3, 4)]),
    "sort_axis0": (lambda x: tf.sort(x, axis=0), [(3, 4)]),
    "gather_batch": (lambda x: tf.gather(x, [[2, 0], [1, 1]], axis=1, batch_dims=1), [(2, 3)]),
    "reverse_sequence": (lambda x: tf.reverse_sequence(x, [2, 3], seq_axis=1), [(2, 4)]),
    "linspace": (lambda a, b: tf.linspace(a, b, 4), [(2,), (2,)]),
    "meshgrid": (lambda a, b: tf.meshgrid(a, b)[0] * tf.meshgrid(a, b)[1], [(3,), (2,)]),
}


@pytest.mark.parametrize("mode", ["eager", "staged"])
@pytest.mark.parametrize("name", sorted(GRAD_CASES))
def test_gradients(name, mode):
    fn, shapes = GRAD_CASES[name]
    arrays = [RNG.uniform(-1, 1, s) for s in shapes]
    check_gradients(fn, *arrays, mode=mode)


def test_clip_by_global_norm_gradient_and_identity_n():
    a, b = tf.Variable([3., 4.]), tf.Variable([[12.]])
    with tf.GradientTape() as tape:
        (ca, cb), _ = tf.clip_by_global_norm([a, b], 5.0)
        x, y = tf.identity_n([ca, cb])
        loss = tf.reduce_sum(x) + tf.reduce_sum(y)
    ga, gb = tape.gradient(loss, [a, b])
    # d/dv of 5 * sum(v) / ||v||, recorded from TensorFlow
    np.testing.assert_allclose(ga.numpy(), [0.25489303, 0.21165225], rtol=1e-5)
    np.testing.assert_allclose(gb.numpy(), [[-0.13427404]], rtol=1e-5)


UNKNOWN_DIM_GRADS = {
    "boolean_mask": lambda x: tf.boolean_mask(x, x[:, 0] > 0),
    "split": lambda x: tf.split(x, [1, -1], axis=1)[1],
    "slice": lambda x: tf.slice(x, [0, 1], [-1, 1]),
    "gather_nd": lambda x: tf.gather_nd(x, [[0, 1], [1, 2]]),
    "repeat": lambda x: tf.repeat(x, [1, 2, 0], axis=0),
    "sort": lambda x: tf.sort(x),
    "broadcast_to": lambda x: tf.broadcast_to(x[:1], tf.shape(x)),
}


@pytest.mark.parametrize("name", sorted(UNKNOWN_DIM_GRADS))
def test_gradients_with_unknown_dims_match_eager(name):
    fn = UNKNOWN_DIM_GRADS[name]

    def grad(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.reduce_sum(fn(x) * 1.5)
        return t.gradient(y, x)
    x = np.float32([[1, 5, 3], [-4, 2, 6], [2, 2, 1]])
    staged = tf.function(grad, input_signature=[tf.TensorSpec([None, None], tf.float32)])(x)
    np.testing.assert_allclose(staged.numpy(), grad(tf.constant(x)).numpy())
