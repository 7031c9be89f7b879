"""Differences from TensorFlow found by probing real programs (session 9): each test
holds TensorFlow 2.21's values as literals, checked eagerly and inside tf.function."""
import numpy as np
import pytest

import autograph as tf


def both(fn, *args):
    """``fn(*args)`` eagerly and traced, as lists of numpy values."""
    out = [fn(*args), tf.function(fn)(*args)]
    return [[np.asarray(t) for t in (o if isinstance(o, (list, tuple)) else [o])] for o in out]


def check(fn, expected, dtype=None):
    for got in both(fn):
        assert len(got) == len(expected)
        for g, e in zip(got, expected):
            np.testing.assert_array_equal(g, np.asarray(e, dtype=dtype or g.dtype))
            if dtype is not None:
                assert g.dtype == dtype


# -- reduce_mean of narrow integers ------------------------------------------------------

def test_int_mean_sums_narrow_ints_in_64_bits():
    def f():
        return [tf.reduce_mean(tf.constant([100, 100, 90], tf.int8)),
                tf.reduce_mean(tf.constant([[255, 255], [255, 1]], tf.uint8), axis=[0, 1]),
                tf.reduce_mean(tf.constant([2**31 - 1, 2**31 - 1])),
                tf.reduce_mean(tf.constant([-100, -100, -90], tf.int8)),
                tf.reduce_mean(tf.constant([[100, 100], [90, 80]], tf.int8), axis=0),
                tf.reduce_mean(tf.constant([2**62, 2**62, 2**62], tf.int64))]  # int64 wraps
    check(f, [[96], [191], [2**31 - 1], [-96], [95, 90], [-1537228672809129301]])
    for got in both(f):
        assert [g.dtype for g in got] == [np.int8, np.uint8, np.int32, np.int8, np.int8,
                                          np.int64]


# -- bincount: axis=-1, binary_output ----------------------------------------------------

def test_bincount_rows_and_binary_output():
    def f():
        v = tf.constant([1, 1, 2, 5, 0])
        m = tf.constant([[1, 2], [2, 2]])
        return [tf.math.bincount(m, axis=-1),
                tf.math.bincount(v, binary_output=True),
                tf.math.bincount(tf.cast(m, tf.int64), axis=-1, binary_output=True, minlength=4),
                tf.math.bincount(m, weights=tf.constant([[1., 2.], [3., 4.]]), axis=-1),
                tf.math.bincount(tf.constant([1, 7], tf.int64), maxlength=3),
                tf.math.bincount(tf.constant([], tf.int32))]
    check(f, [[[0, 1, 1], [0, 0, 2]], [1, 1, 1, 0, 0, 1], [[0, 1, 1, 0], [0, 0, 1, 0]],
              [[0, 1, 2], [0, 0, 7]], [0, 1, 0], np.zeros([0])])


def test_bincount_argument_errors():
    with pytest.raises(ValueError, match="mutually exclusive"):
        tf.math.bincount([1], weights=[1.0], binary_output=True)
    with pytest.raises(ValueError, match="Only 0 and -1"):
        tf.math.bincount([1], axis=1)


def test_bincount_compiles():
    f = tf.function(lambda v: tf.math.bincount(v, axis=-1, minlength=4, maxlength=4),
                    jit_compile=True)
    np.testing.assert_array_equal(f(tf.constant([[1, 2], [2, 2]])), [[0, 1, 1, 0], [0, 0, 2, 0]])


# -- matmul's hints and output_type -------------------------------------------------------

def test_matmul_accepts_tensorflow_keywords():
    def f():
        a = tf.constant([[100, 100]], tf.int8)
        return [tf.matmul(a, tf.transpose(a), output_type=tf.int32),
                tf.matmul(tf.ones([2, 2]), tf.ones([2, 2]), a_is_sparse=True, b_is_sparse=True)]
    check(f, [[[20000]], [[2.0, 2.0], [2.0, 2.0]]])


# -- embedding_lookup over shards -------------------------------------------------------

def test_embedding_lookup_over_shards_divides_ids():
    def f():
        p = tf.constant(np.arange(10, dtype=np.float32).reshape(5, 2))
        return [tf.nn.embedding_lookup([p[:3], p[3:]], tf.constant([[0, 4], [2, 2]])),
                tf.nn.embedding_lookup([p[:2], p[2:4], p[4:]], [4, 3, 1, 0, 2]),
                tf.nn.embedding_lookup([tf.ones([2]), tf.zeros([2])], [3, 0, 2])]
    check(f, [[[[0, 1], [8, 9]], [[4, 5], [4, 5]]],
              [[8, 9], [6, 7], [2, 3], [0, 1], [4, 5]], [0, 1, 0]])


def test_embedding_lookup_over_shards_gradient():
    p = [tf.Variable(tf.ones([3, 2])), tf.Variable(tf.ones([2, 2]))]
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup(p, [0, 4, 4, 1])
                          * tf.constant([[1.], [2.], [3.], [4.]]))
    g = [tf.convert_to_tensor(x) for x in tape.gradient(y, p)]
    np.testing.assert_array_equal(g[0], [[1, 1], [4, 4], [0, 0]])
    np.testing.assert_array_equal(g[1], [[0, 0], [5, 5]])


# -- a variable whose initial value the function computes ---------------------------------

class _Accumulator(tf.Module):
    def __init__(self, make):
        self.v = None
        self.make = make

    @tf.function
    def __call__(self, x):
        if self.v is None:
            self.v = tf.Variable(self.make(x))
        self.v.assign_add(x)
        return self.v.read_value()


@pytest.mark.parametrize("make", [lambda x: x * 2, lambda x: (lambda: x * 2)],
                         ids=["tensor", "callable"])
def test_variable_initial_value_from_function_inputs(make):
    m = _Accumulator(make)
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0])), [3.0, 6.0])
    np.testing.assert_array_equal(m(tf.constant([1.0, 2.0])), [4.0, 8.0])
    assert m.__call__.experimental_get_tracing_count() == 2  # as TensorFlow counts
    np.testing.assert_array_equal(m.v.numpy(), [4.0, 8.0])
    assert m.v.shape.as_list() == [2]


def test_variable_initialized_in_graph_keeps_a_restored_value(tmp_path):
    first = _Accumulator(lambda x: x)
    first(tf.constant(5.0))
    path = tf.train.Checkpoint(m=first).save(str(tmp_path / "c"))
    second = _Accumulator(lambda x: x * 100)
    tf.train.Checkpoint(m=second).restore(path)
    assert float(second(tf.constant(1.0))) == 11.0  # restored 10, not initialized to 100


def test_variable_initialized_in_graph_from_an_outer_function():
    m = _Accumulator(lambda x: x + 1.0)
    outer = tf.function(lambda x: m(x) * 10)
    assert float(outer(tf.constant(1.0))) == 30.0
    assert float(outer(tf.constant(1.0))) == 40.0



# -- argument names in a trace ---------------------------------------------------------------

def test_nested_arguments_name_placeholders_and_specs_by_argument():
    seen = []

    @tf.function
    def f(d, lst):
        seen.extend([d["a"].name, d["b"][0].name, d["b"][1].name, lst[0].name, lst[1].name])
        return 0

    args = ({"a": tf.constant(1), "b": (tf.constant(2.0), tf.constant("s"))},
            [tf.constant(1), tf.constant(2)])
    cf = f.get_concrete_function(*args)
    assert seen == ["d:0", "d_1:0", "d_2:0", "lst:0", "lst_1:0"]
    d, lst = cf.structured_input_signature[0]
    assert [d["a"].name, d["b"][0].name, d["b"][1].name, lst[0].name, lst[1].name] == \
        ["d_a", "d_b_0", "d_b_1", "lst_0", "lst_1"]
    assert [t.name for t in cf.inputs] == ["d:0", "d_1:0", "d_2:0", "lst:0", "lst_1:0"]


# -- tf.signal windows ------------------------------------------------------------------------

def test_kaiser_and_vorbis_windows():
    def f():
        return [tf.signal.kaiser_window(4), tf.signal.kaiser_window(5, beta=3.0),
                tf.signal.vorbis_window(4), tf.signal.kaiser_bessel_derived_window(6)]
    expected = [[5.2773448e-05, 0.5188446, 0.5188446, 5.2773448e-05],
                [0.2048847, 0.7269254, 1.0, 0.7269254, 0.2048847],
                [0.2280144, 0.9736578, 0.9736578, 0.2280142],
                [0.0071310, 0.7071068, 0.9999745, 0.9999745, 0.7071068, 0.0071310]]
    for got in both(f):
        for g, e in zip(got, expected):
            np.testing.assert_allclose(g, e, rtol=1e-5)
            assert g.dtype == np.float32


# -- strings: whitespace split with maxsplit, RE2 replacement ---------------------------------

def test_whitespace_split_with_maxsplit_keeps_the_empty_rest():
    def f():
        s = tf.constant(["a ", " a b  ", "a b", "x  y ", "  a "])
        return [tf.strings.split(s, maxsplit=1).to_tensor("?"),
                tf.strings.split(s, maxsplit=2).to_tensor("?"),
                tf.strings.split(s, maxsplit=0).to_tensor("?")]
    check(f, [[[b"a", b""], [b"a", b"b  "], [b"a", b"b"], [b"x", b"y "], [b"a", b""]],
              [[b"a", b"?", b"?"], [b"a", b"b", b""], [b"a", b"b", b""], [b"x", b"y", b""],
               [b"a", b"?", b"?"]],
              [[b"a "], [b" a b  "], [b"a b"], [b"x  y "], [b"  a "]]], dtype=object)


def test_regex_replace_follows_re2():
    def f():
        r = tf.strings.regex_replace
        return [r(["aaa", "abc", "añb"], "a*|", "X"), r("abc", "", "-"), r("añb", "", "-"),
                r("hello", "l+", r"<\0>"), r("a.b", r"\.", r"\\"), r("ab", "(a)", r"\2"),
                r("ab", "a", r"\n"), r("ab", "a", r"\n", replace_global=False)]
    check(f, [[b"X", b"XbXcX", "XñXbX".encode()], b"-a-b-c-", "-a-ñ-b-".encode(), b"he<ll>o",
              b"a\\b", b"ab", b"b", b"ab"], dtype=object)


# -- Keras's rate-at-rate metrics and confusion variable names --------------------------------

def test_rate_at_rate_metrics():
    y_true, y_pred = [0, 1, 1, 0], [0.1, 0.8, 0.4, 0.5]
    for metric, expected in [(tf.keras.metrics.SpecificityAtSensitivity(0.5), 1.0),
                             (tf.keras.metrics.SensitivityAtSpecificity(0.9), 0.5),
                             (tf.keras.metrics.PrecisionAtRecall(1.0), 2 / 3),
                             (tf.keras.metrics.RecallAtPrecision(0.6), 1.0)]:
        metric.update_state(y_true, y_pred)
        np.testing.assert_allclose(float(metric.result()), expected, rtol=1e-6)
        assert [v.name for v in metric.variables] == [
            "true_positives", "false_positives", "true_negatives", "false_negatives"]
    with pytest.raises(ValueError, match="`recall` must be in the range"):
        tf.keras.metrics.PrecisionAtRecall(1.5)
    assert [v.name for v in tf.keras.metrics.TruePositives().variables] == ["accumulator"]
    assert [v.name for v in tf.keras.metrics.Precision().variables] == [
        "true_positives", "false_positives"]


# -- smaller kernels -------------------------------------------------------------------------

def test_unique_keeps_each_nan():
    def f():
        y, idx = tf.unique(tf.constant([np.nan, np.nan, 1.0]))
        return [y, idx]
    for y, idx in both(f):
        assert np.isnan(y[:2]).all() and y[2] == 1.0 and y.shape == (3,)
        np.testing.assert_array_equal(idx, [0, 1, 2])


def test_float16_mean_rounds_the_sum_to_float16():
    def f():
        return [tf.reduce_mean(tf.constant([60000.0, 60000.0], tf.float16)),
                tf.reduce_mean(tf.constant([1.0, 2.0, 2.0], tf.float16))]
    check(f, [np.inf, 1.667], dtype=np.float16)


def test_string_cast_is_unimplemented():
    with pytest.raises(tf.errors.UnimplementedError, match="Cast string to int32"):
        tf.cast(tf.constant("1"), tf.int32)


def test_ones_and_zeros_of_a_run_time_shape_in_any_dtype():
    def f(x):
        return [tf.ones(tf.shape(x), tf.bool), tf.zeros(tf.shape(x), tf.bool),
                tf.ones(tf.shape(x), tf.complex64), tf.zeros(tf.shape(x), tf.string)]
    for got in [f(tf.constant([1, 2])), tf.function(f)(tf.constant([1, 2]))]:
        assert [g.dtype for g in got] == [tf.bool, tf.bool, tf.complex64, tf.string]
        np.testing.assert_array_equal(got[0], [True, True])
        np.testing.assert_array_equal(got[1], [False, False])
        np.testing.assert_array_equal(got[3], [b"", b""])



def test_channels_first_convolution_is_unimplemented_on_cpu():
    with pytest.raises(tf.errors.UnimplementedError, match="NHWC"):
        tf.nn.conv2d(tf.ones([1, 3, 4, 4]), tf.ones([2, 2, 3, 1]), 1, "SAME", data_format="NCHW")


# -- tf.io.decode_image / is_jpeg ----------------------------------------------------------

def test_decode_image_of_png_and_is_jpeg():
    image = np.arange(2 * 3 * 3, dtype=np.uint8).reshape(2, 3, 3) * 14

    def f():
        png = tf.io.encode_png(image)
        return [tf.io.decode_image(png), tf.io.decode_image(png, dtype=tf.float32)[0, 1],
                tf.io.decode_image(png, channels=1, expand_animations=False)[..., 0],
                tf.io.is_jpeg(png), tf.io.is_jpeg(b"\xff\xd8\xff\xe0")]
    for got in both(f):
        np.testing.assert_array_equal(got[0], image)
        np.testing.assert_allclose(got[1], image[0, 1] / 255.0, rtol=1e-6)
        np.testing.assert_array_equal(got[2], [[11, 53, 95], [137, 179, 221]])
        assert not got[3] and got[4]
    static = tf.function(lambda s: tf.io.decode_image(s, channels=3, expand_animations=False))
    assert static.get_concrete_function(tf.TensorSpec([], tf.string)).outputs[0].shape.as_list() \
        == [None, None, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unknown image file format"):
        tf.io.decode_image(b"hello")


# -- tf.Module.with_name_scope, top-level dtypes, static resize shapes -------------------------

def test_module_with_name_scope_names_ops_in_the_module_scope():
    class Scaled(tf.Module):
        def __init__(self):
            super().__init__(name="scaled")
            self.w = tf.Variable(2.0)

        @tf.Module.with_name_scope
        def __call__(self, x):
            return tf.multiply(x, self.w, name="mul")

    m = Scaled()
    assert float(m(tf.constant(3.0))) == 6.0
    f = tf.function(lambda x: m(x))
    names = [op.name for op in f.get_concrete_function(tf.TensorSpec([])).graph.get_operations()]
    assert "scaled/mul" in names
    assert Scaled.__call__.__name__ == "__call__"


def test_resource_and_variant_dtypes_at_top_level():
    assert tf.resource.name == "resource" and tf.variant.name == "variant"


def test_resize_preserving_aspect_ratio_has_a_static_shape_in_a_function():
    f = tf.function(lambda im: tf.image.resize(im, [4, 4], preserve_aspect_ratio=True))
    out = f.get_concrete_function(tf.TensorSpec([1, 5, 6, 3])).outputs[0]
    assert out.shape.as_list() == [1, 3, 4, 3]
    assert f(tf.ones([1, 5, 6, 3])).shape.as_list() == [1, 3, 4, 3]


def test_eager_empty_tensor_array_of_unknown_element_shape_stacks_to_zero_elements():
    out = tf.TensorArray(tf.float32, size=0, dynamic_size=True).stack()
    assert out.shape.as_list() == [0] and out.dtype == tf.float32
    with pytest.raises(tf.errors.InvalidArgumentError):  # (a graph's TensorList needs a shape)
        tf.function(lambda: tf.TensorArray(tf.float32, size=0).stack())()


def test_dtype_equals_what_as_dtype_makes_it_from():
    assert tf.float32 == "float32" and tf.float32 == np.float32 and np.float32 == tf.float32
    assert tf.int64 == np.dtype("int64") and tf.string == "string" and tf.float32 == "float"
    assert tf.float32 != "float64" and tf.float32 != "no such dtype" and tf.float32 != None  # noqa: E711
    assert tf.constant([1.0]).dtype == "float32" and len({tf.float32, tf.float32}) == 1
