"""Top-level TensorFlow names: control helpers, array helpers, initializers, types, errors,
tf.compat / tf.version. Expected values and errors are TensorFlow 2.21's, recorded as
literals."""
import logging

import numpy as np
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime import compat, errors, version
from runtime.ops import control_ops as C
from runtime.ops import extra_ops as E
from runtime.ops import init_ops as I
from runtime.ops import type_ops as T
from tests.staging import assert_same


# -- control ------------------------------------------------------------------------------------

def _case_fn(x):
    return C.case([(x < 3, lambda: tf.constant(1)), (x > 10, lambda: tf.constant(2))])


def test_case_eager_and_staged():
    x = tf.constant(5)
    with_default = C.case([(x > 3, lambda: tf.constant(1)), (x > 4, lambda: tf.constant(2))],
                          default=lambda: tf.constant(0))
    assert with_default.numpy() == 1
    staged = tf.function(_case_fn)
    assert staged(tf.constant(1)).numpy() == 1
    assert staged(tf.constant(11)).numpy() == 2
    with pytest.raises(InvalidArgumentError, match="None of conditions evaluated as True"):
        staged(tf.constant(5))
    with pytest.raises(InvalidArgumentError, match="None of conditions evaluated as True"):
        _case_fn(tf.constant(5))
    with pytest.raises(InvalidArgumentError, match="more than 1 conditions"):
        C.case([(x > 3, lambda: tf.constant(1)), (x > 4, lambda: tf.constant(2))],
               default=lambda: tf.constant(0), exclusive=True)


def _switch_fn(i):
    return C.switch_case(i, [lambda: tf.constant(10), lambda: tf.constant(11),
                             lambda: tf.constant(12)])


def test_switch_case():
    staged = tf.function(_switch_fn)
    for i, want in [(0, 10), (1, 11), (2, 12), (7, 12), (-1, 12)]:  # out of range: last
        assert staged(tf.constant(i)).numpy() == want
        assert _switch_fn(tf.constant(i)).numpy() == want
    assert C.switch_case(tf.constant(1), {0: lambda: tf.constant(1), 1: lambda: tf.constant(2)},
                         default=lambda: tf.constant(9)).numpy() == 2
    with pytest.raises(ValueError, match=r"contiguous range of \[0 to 2\) but found \{0,3\}"):
        C.switch_case(tf.constant(1), {0: lambda: 1, 3: lambda: 2})
    with pytest.raises(TypeError, match="'branch_index' must be an integer Tensor"):
        C.switch_case(tf.constant(1.), [lambda: tf.constant(1)])
    with pytest.raises(TypeError, match="'branch_index' must be a Tensor"):
        C.switch_case(1, [lambda: 1])
    with pytest.raises(ValueError, match="at least one item"):
        C.switch_case(tf.constant(1), [])


def test_control_dependencies_group_tuple_no_op():
    assert C.no_op() is None and C.group(tf.constant(1)) is None
    assert C.tuple([tf.constant(1), 2])[1] == 2  # eagerly the list as given
    called = []
    with C.control_dependencies([lambda: called.append(1)]):
        pass
    assert called == [1]
    seen = {}

    @tf.function
    def f(x):
        z = x + 1
        with C.control_dependencies([z]):
            y = x * 2
            with C.control_dependencies(None):
                w = x - 1
        g = C.group(y, w)
        t = C.tuple([y, w])
        seen.update(y=y, w=w, z=z, g=g, t=t)
        return t[0] + t[1]

    np.testing.assert_array_equal(f(tf.constant([1, 2])).numpy(), [2, 5])
    node_of = lambda t: t._output.node  # noqa: E731
    assert node_of(seen["z"]) in node_of(seen["y"]).control_inputs
    assert node_of(seen["w"]).control_inputs == []
    assert isinstance(seen["g"], C.Operation) and seen["g"].type == "NoOp"
    assert {c.name for c in seen["g"].control_inputs} == {node_of(seen["y"]).name,
                                                           node_of(seen["w"]).name}
    # tf.tuple gates each output on all of the inputs
    assert node_of(seen["w"]) in node_of(seen["t"][0]).control_inputs


def test_where_the_program_runs():
    seen = {}

    @tf.function
    def f(x):
        with tf.name_scope("a"):
            seen["scope"] = C.get_current_name_scope()
        seen["inside"] = C.inside_function()
        seen["symbolic"] = C.is_symbolic_tensor(x)
        seen["static"] = C.get_static_value(tf.shape(x))
        seen["unknown"] = C.get_static_value(x)
        return x

    f(tf.constant([1, 2]))
    assert seen == {"scope": "a", "inside": True, "symbolic": True, "static": seen["static"],
                    "unknown": None}
    np.testing.assert_array_equal(seen["static"], [2])
    assert C.get_current_name_scope() == "" and not C.inside_function()
    with tf.name_scope("q"):
        assert C.get_current_name_scope() == "q"
    assert (C.is_tensor(1), C.is_tensor(tf.constant(1)), C.is_tensor(tf.Variable(1)),
            C.is_symbolic_tensor(tf.constant(1))) == (False, True, True, False)
    assert C.is_tensor(tf.ragged.constant([[1], [2, 3]]))
    np.testing.assert_array_equal(C.get_static_value(tf.constant([1, 2])), [1, 2])
    assert C.get_static_value(3) == 3 and C.get_static_value([1, 2]) == [1, 2]
    assert C.get_logger().name == "tensorflow"
    assert C.get_logger().getEffectiveLevel() <= logging.WARNING


def test_timestamp():
    t = C.timestamp()
    assert t.dtype == tf.float64 and t.shape == () and t.numpy() > 1.7e9
    assert tf.function(C.timestamp)().numpy() >= t.numpy()


# -- array helpers ----------------------------------------------------------------------------

def test_dynamic_partition_and_stitch():
    parts = E.dynamic_partition(tf.constant([10., 20, 30, 40, 50]), [0, 0, 1, 1, 0], 2)
    np.testing.assert_array_equal(parts[0].numpy(), [10., 20, 50])
    np.testing.assert_array_equal(parts[1].numpy(), [30., 40])
    parts = E.dynamic_partition(tf.constant([[1, 2], [3, 4], [5, 6]]), [2, 0, 2], 3)
    assert parts[1].shape == (0, 2)
    np.testing.assert_array_equal(parts[2].numpy(), [[1, 2], [5, 6]])
    with pytest.raises(InvalidArgumentError):
        E.dynamic_partition(tf.constant([1, 2]), [0, 5], 2)
    merged = E.dynamic_stitch([6, [4, 1], [[5, 2], [0, 3]]],
                              [[61., 62], [[41, 42], [11, 12]], [[[51, 52], [21, 22]],
                                                                 [[1, 2], [31, 32]]]])
    np.testing.assert_array_equal(merged.numpy(), [[1., 2], [11, 12], [21, 22], [31, 32],
                                                   [41, 42], [51, 52], [61, 62]])
    np.testing.assert_array_equal(E.dynamic_stitch([[0, 0]], [[1, 2]]).numpy(), [2])
    assert_same(lambda d, p: E.dynamic_partition(d, p, 3),
                np.array([[1., 2], [3, 4], [5, 6]], np.float32), np.array([2, 0, 2], np.int32))
    assert_same(lambda i, d: E.dynamic_stitch([i, [3]], [d, [9.]]),
                np.array([2, 0, 1], np.int32), np.array([1., 2, 3], np.float32))


def test_dynamic_partition_stitch_gradients():
    x = tf.constant([1., 2, 3, 4])
    with tf.GradientTape() as tape:
        tape.watch(x)
        a, b = E.dynamic_partition(x, [1, 0, 1, 0], 2)
        y = tf.reduce_sum(a * 2.) + tf.reduce_sum(b * 3.)
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [3., 2, 3, 2])
    with tf.GradientTape() as tape:
        tape.watch(x)
        m = E.dynamic_stitch([[1, 0], [3, 2]], [x[:2], x[2:]])
        y = tf.reduce_sum(m * tf.constant([1., 2, 3, 4]))
    np.testing.assert_array_equal(tape.gradient(y, x).numpy(), [2., 1, 4, 3])


def test_saturate_cast_scalar_mul_shape_n():
    np.testing.assert_array_equal(
        E.saturate_cast(tf.constant([-1e10, 3.7, 1e10, 300.]), tf.uint8).numpy(), [0, 3, 255, 255])
    np.testing.assert_array_equal(E.saturate_cast(tf.constant([-1e10, 3.7, 1e10]), tf.int32)
                                  .numpy(), [-2147483648, 3, 2147483520])
    np.testing.assert_array_equal(E.saturate_cast(tf.constant([-5, 300]), tf.int8).numpy(),
                                  [-5, 127])
    assert E.saturate_cast(tf.constant([1 + 2j]), tf.float32).numpy()[0] == 1.0
    np.testing.assert_array_equal(E.scalar_mul(2, tf.constant([1., 2])).numpy(), [2., 4])
    with pytest.raises(TypeError):
        E.scalar_mul(2.5, tf.constant([1, 2]))
    with pytest.raises(ValueError, match=r"must be a 0-D value. Received shape \(2,\)"):
        E.scalar_mul([2., 3.], tf.constant([1., 2]))
    shapes = E.shape_n([tf.zeros([2, 3]), tf.zeros([4])], out_type=tf.int64)
    assert shapes[0].dtype == tf.int64
    np.testing.assert_array_equal(shapes[0].numpy(), [2, 3])
    assert_same(lambda x: E.saturate_cast(x * 100., tf.int8), np.array([-3., 0.5, 2], np.float32))


def test_unravel_index_and_histograms():
    np.testing.assert_array_equal(E.unravel_index([2, 5, 7], [3, 3]).numpy(),
                                  [[0, 1, 2], [2, 2, 1]])
    np.testing.assert_array_equal(E.unravel_index(5, [3, 3]).numpy(), [1, 2])
    out = E.unravel_index(tf.constant([5], tf.int64), tf.constant([3, 3], tf.int64))
    assert out.dtype == tf.int64 and out.shape == (2, 1)
    with pytest.raises(InvalidArgumentError, match="index is out of bound as with dims"):
        E.unravel_index([9], [3, 3])
    with pytest.raises(ValueError, match="can only be scalar or vector"):
        E.unravel_index([[1, 2], [3, 4]], [3, 3])
    values = [-1.0, 0.0, 1.5, 2.0, 5.0, 15]
    np.testing.assert_array_equal(E.histogram_fixed_width(values, [0.0, 5.0], nbins=5).numpy(),
                                  [2, 1, 1, 0, 2])
    np.testing.assert_array_equal(
        E.histogram_fixed_width_bins(values, [0.0, 5.0], nbins=5).numpy(), [0, 0, 1, 2, 4, 4])
    np.testing.assert_array_equal(
        E.histogram_fixed_width(tf.constant([1, 2, 3, 9]), [0, 10], nbins=3).numpy(), [3, 0, 1])
    h = E.histogram_fixed_width(tf.constant([1., 2]), [0., 10], nbins=3, dtype=tf.int64)
    assert h.dtype == tf.int64
    np.testing.assert_array_equal(h.numpy(), [2, 0, 0])
    assert_same(lambda v: E.histogram_fixed_width_bins(v, [0., 10], nbins=3),
                np.array([[1., 2], [7, 9]], np.float32))
    assert_same(lambda i: E.unravel_index(i, [4, 5]), np.array([0, 7, 19], np.int32))


def test_hessians():
    @tf.function
    def f(x, y):
        z = tf.reduce_sum(x ** 3 * y) + tf.reduce_sum(x) ** 2
        return E.hessians(z, x)[0]

    np.testing.assert_allclose(f(tf.constant([1., 2.]), tf.constant([3., 4.])).numpy(),
                               [[20., 2.], [2., 50.]])

    @tf.function
    def g(x):
        return E.hessians(tf.reduce_sum(x * x), x)[0]

    assert g(tf.constant([[1., 2.]])).shape == (1, 2, 1, 2)
    with pytest.raises(RuntimeError, match="not supported when eager execution is enabled"):
        E.hessians(tf.constant(1.), tf.constant(2.))


# -- initializers, types --------------------------------------------------------------------------

def test_initializers():
    np.testing.assert_array_equal(I.constant_initializer([1, 2])(shape=[2], dtype=tf.float32)
                                  .numpy(), [1., 2.])
    c = I.constant_initializer(3)(shape=[2, 2])
    assert c.dtype == tf.int32 and c.numpy().tolist() == [[3, 3], [3, 3]]
    with pytest.raises(TypeError, match="has 3 elements, but got `shape` \\(2,\\)"):
        I.constant_initializer([1, 2, 3])(shape=[2])
    ones = I.ones_initializer()(shape=[2], dtype=tf.int64)
    assert ones.dtype == tf.int64 and ones.numpy().tolist() == [1, 1]
    assert I.zeros_initializer()(shape=[2]).numpy().tolist() == [0., 0.]
    with pytest.raises(ValueError, match="expected to be numeric or boolean"):
        I.zeros_initializer()(shape=[2], dtype=tf.string)
    assert I.random_normal_initializer()(shape=[2]).dtype == tf.float32
    with pytest.raises(ValueError, match="expected to be floating point"):
        I.random_normal_initializer()(shape=[2], dtype=tf.int32)
    u = I.random_uniform_initializer(0, 10)(shape=[50], dtype=tf.int32).numpy()
    assert u.dtype == np.int32 and u.min() >= 0 and u.max() < 10
    assert I.random_normal_initializer(1., 2., seed=3).get_config() == \
        {"mean": 1.0, "stddev": 2.0, "seed": 3}
    assert I.random_uniform_initializer(1., 2., seed=3).get_config() == \
        {"minval": 1.0, "maxval": 2.0, "seed": 3}
    assert I.constant_initializer(3).get_config() == {"value": 3}
    assert I.ones_initializer().get_config() == {}
    staged = tf.function(lambda: I.random_uniform_initializer(1., 2., seed=3)([3]))()
    assert staged.shape == (3,) and np.all((staged.numpy() >= 1) & (staged.numpy() < 2))


def test_types():
    assert [a.value for a in T.VariableAggregation] == [0, 1, 2, 3]
    assert repr(T.VariableAggregation.MEAN) == "<VariableAggregationV2.MEAN: 2>"
    assert [s.name for s in T.VariableSynchronization] == ["AUTO", "NONE", "ON_WRITE", "ON_READ"]
    assert repr(T.type_spec_from_value(np.array([1., 2]))) == \
        "TensorSpec(shape=(2,), dtype=tf.float64, name=None)"
    assert repr(T.type_spec_from_value(3)) == "TensorSpec(shape=(), dtype=tf.int32, name=None)"
    assert repr(T.type_spec_from_value(tf.ragged.constant([[1], [2, 3]]))) == \
        "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    with pytest.raises(TypeError, match="Could not build a TypeSpec for"):
        T.type_spec_from_value(object())
    assert repr(T.TensorArraySpec([2], tf.float32)) == \
        "TensorArraySpec(TensorShape([2]), tf.float32, False, True)"
    assert T.type_spec_from_value(tf.TensorArray(tf.float32, size=2)) == T.TensorArraySpec()


def test_indexed_slices():
    s = T.IndexedSlices(tf.constant([[1., 2], [3, 4]]), tf.constant([0, 0]), tf.constant([3, 2]))
    assert s.shape == tf.TensorShape([3, 2]) and s.dtype == tf.float32
    np.testing.assert_array_equal(tf.convert_to_tensor(s).numpy(), [[4., 6], [0, 0], [0, 0]])
    assert C.is_tensor(s)
    bare = T.IndexedSlices(tf.constant([[1., 2]]), tf.constant([1]))
    assert bare.shape.rank is None and bare.dense_shape is None
    with pytest.raises(ValueError, match="without dense_shape"):
        tf.convert_to_tensor(bare)
    np.testing.assert_array_equal((-s).values.numpy(), [[-1., -2], [-3, -4]])


# -- errors, compat, version ------------------------------------------------------------------------

def test_errors():
    codes = [errors.OK, errors.CANCELLED, errors.UNKNOWN, errors.INVALID_ARGUMENT,
             errors.DEADLINE_EXCEEDED, errors.NOT_FOUND, errors.ALREADY_EXISTS,
             errors.PERMISSION_DENIED, errors.RESOURCE_EXHAUSTED, errors.FAILED_PRECONDITION,
             errors.ABORTED, errors.OUT_OF_RANGE, errors.UNIMPLEMENTED, errors.INTERNAL,
             errors.UNAVAILABLE, errors.DATA_LOSS, errors.UNAUTHENTICATED]
    assert codes == list(range(17))
    for cls in (errors.AbortedError, errors.AlreadyExistsError, errors.CancelledError,
                errors.DeadlineExceededError, errors.InternalError, errors.PermissionDeniedError,
                errors.ResourceExhaustedError, errors.UnauthenticatedError,
                errors.UnavailableError, errors.UnknownError):
        assert issubclass(cls, errors.OpError)
    e = errors.AbortedError(None, None, "m")
    assert (e.error_code, e.message, str(e)) == (10, "m", "m")
    assert errors.InvalidArgumentError(None, None, "x").error_code == 3
    assert errors.OutOfRangeError.error_code == 11


def test_compat_and_version():
    assert compat.as_bytes("é") == b"\xc3\xa9" and compat.as_text(b"\xc3\xa9") == "é"
    assert compat.as_str(b"a") == "a" and compat.as_str_any(3) == "3"
    with pytest.raises(TypeError, match="Expected binary or unicode string, got 3"):
        compat.as_bytes(3)
    with pytest.raises(UnicodeEncodeError):
        compat.as_bytes("é", "ascii")
    assert compat.dimension_value(tf.TensorShape([3, None])[1]) is None
    assert compat.dimension_value(4) == 4
    assert compat.dimension_at_index(tf.TensorShape([2, 3]), 1) == 3
    assert compat.forward_compatible(2021, 1, 1) and not compat.forward_compatible(2030, 1, 1)
    with compat.forward_compatibility_horizon(2031, 1, 1):
        assert compat.forward_compatible(2030, 1, 1)
    assert not compat.forward_compatible(2030, 1, 1)
    assert compat.path_to_str(__import__("pathlib").Path("/a/b")) == "/a/b"
    assert compat.integral_types[0] is __import__("numbers").Integral
    assert version.VERSION == tf.__version__
    assert isinstance(version.GRAPH_DEF_VERSION, int)


def test_fingerprint_gives_tensorflows_bytes():
    # TensorFlow 2.21's tf.fingerprint (FarmHash Fingerprint64 per row).
    assert tf.fingerprint(tf.constant(["hello", "world"])).numpy().tolist() == [
        [232, 12, 56, 49, 169, 229, 139, 180], [110, 180, 184, 94, 67, 84, 26, 228]]
    assert tf.fingerprint(tf.constant([["a", "b"], ["c", ""]])).numpy().tolist() == [
        [122, 64, 59, 169, 136, 60, 55, 83], [101, 91, 225, 7, 52, 192, 29, 135]]
    assert tf.fingerprint(tf.constant([[1, 2], [3, 4]])).numpy().tolist() == [
        [76, 18, 253, 133, 168, 204, 240, 10], [254, 162, 60, 240, 103, 244, 53, 255]]
    staged = tf.function(tf.fingerprint)(tf.constant([1.5, 2.5]))
    assert staged.dtype == tf.uint8 and staged.numpy().tolist() == [
        [64, 181, 56, 72, 223, 224, 189, 72], [215, 206, 200, 229, 128, 42, 67, 207]]
    assert tf.fingerprint(tf.constant([], tf.string)).shape == [0, 8]
    with pytest.raises(tf.errors.InvalidArgumentError, match="at least one dimension"):
        tf.fingerprint(tf.constant(1))
