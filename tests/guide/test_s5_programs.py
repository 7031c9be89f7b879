"""Behaviours realistic TensorFlow programs (tutorial / Stack Overflow style, /tmp/programs_s5)
showed to differ from TensorFlow; expected values were recorded from TensorFlow 2.21 as literals."""
import numpy as np
import pytest

import autograph as tf


def test_tensor_array_concat_fills_unwritten_with_zeros():
    def f():
        return tf.TensorArray(tf.float32, size=3).write(0, [1., 2.]).concat()
    np.testing.assert_array_equal(f().numpy(), [1, 2, 0, 0, 0, 0])
    np.testing.assert_array_equal(tf.function(f)().numpy(), [1, 2, 0, 0, 0, 0])


def test_gather_gradient_is_indexed_slices():
    # TensorFlow: the gradient of gathered rows (gather, embedding_lookup, gather_nd of whole
    # rows) is an IndexedSlices, eagerly and staged; other paths make it dense.
    v = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.nn.embedding_lookup(v, [[0], [2]]) * 2.)
    g = tape.gradient(y, v)
    assert type(g).__name__ == "IndexedSlices"
    assert g.indices.numpy().tolist() == [0, 2]
    assert g.values.numpy().tolist() == [[2., 2.], [2., 2.]]
    assert g.dense_shape.numpy().tolist() == [3, 2]
    np.testing.assert_array_equal(tf.convert_to_tensor(g).numpy(), [[2, 2], [0, 0], [2, 2]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(tf.gather(v, [0, 1])) + tf.reduce_sum(tf.gather_nd(v, [[1]]))
    g = tape.gradient(y, v)
    assert type(g).__name__ == "IndexedSlices" and g.indices.numpy().tolist() == [0, 1, 1]
    for f in (lambda: tf.gather(v, [0]) + tf.reduce_sum(v),   # a dense path too
              lambda: tf.gather(v * 2., [0]),                   # through a Mul
              lambda: tf.gather(v, [[0, 1]], axis=1)):          # not axis 0
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(f())
        assert isinstance(tape.gradient(y, v), tf.Tensor)

    @tf.function
    def staged(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.reduce_sum(tf.gather(x, [2, 2]) ** 2)
        g = tape.gradient(y, x)
        assert type(g).__name__ == "IndexedSlices"
        return g.values, g.indices
    values, indices = staged(tf.constant([1., 2., 3.]))
    assert values.numpy().tolist() == [6., 6.] and indices.numpy().tolist() == [2, 2]


def test_sparse_gradients_concatenate_in_program_order():
    emb = tf.Variable(tf.ones([6, 2]))

    def f():
        c = tf.reduce_sum(tf.gather(emb, [5]))
        a = tf.reduce_sum(tf.gather(emb, [0, 1])) + tf.reduce_sum(tf.gather(emb, [3]))
        return a * 3. + c

    @tf.function
    def staged():
        with tf.GradientTape() as t:
            y = f()
        g = t.gradient(y, emb)
        return g.indices, g.values
    with tf.GradientTape() as t:
        y = f()
    g = t.gradient(y, emb)
    for indices, values in ((g.indices, g.values), staged()):
        assert indices.numpy().tolist() == [5, 0, 1, 3]
        assert values.numpy()[:, 0].tolist() == [1., 3., 3., 3.]


def test_sort_gradient_is_dense():
    x = tf.constant([3.0, 1.0, 2.0])
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.reduce_sum(tf.sort(x) * [1., 2., 3.])
    g = t.gradient(y, x)
    assert isinstance(g, tf.Tensor) and g.numpy().tolist() == [3., 1., 2.]


def test_jacobian_of_gather_is_dense():
    x = tf.constant([1., 2., 3.])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.gather(x, [2, 0])
    np.testing.assert_array_equal(tape.jacobian(y, x).numpy(), [[0, 0, 1], [1, 0, 0]])


def test_ragged_boolean_mask_gradient_is_dense():
    v = tf.constant([1., 2., 3., 4., 5., 6.])
    with tf.GradientTape() as tape:
        tape.watch(v)
        x = tf.RaggedTensor.from_row_splits(v, [0, 3, 4, 4, 6])
        y = tf.reduce_sum(tf.ragged.boolean_mask(x, x > 2).flat_values)
    g = tape.gradient(y, v)
    assert isinstance(g, tf.Tensor) and g.numpy().tolist() == [0, 0, 1, 1, 1, 1]


def _slices():
    return tf.IndexedSlices(tf.constant([[1., 1.], [2., 2.]]), tf.constant([0, 0]),
                            tf.constant([3, 2]))


def test_clips_keep_indexed_slices_and_measure_their_rows():
    clipped, norm = tf.clip_by_global_norm([_slices(), tf.constant([3., 4.])], 1.0)
    assert type(clipped[0]).__name__ == "IndexedSlices"
    assert round(float(norm), 4) == 5.9161  # rows not summed first (TensorFlow's value)
    np.testing.assert_allclose(clipped[0].values.numpy(), np.array([[1, 1], [2, 2]]) / 5.9161,
                               rtol=1e-4)
    c = tf.clip_by_norm(_slices(), 1.0)
    assert type(c).__name__ == "IndexedSlices"
    np.testing.assert_allclose(c.values.numpy(), np.array([[1, 1], [2, 2]]) / np.sqrt(10.),
                               rtol=1e-6)


def test_optimizers_apply_indexed_slices_as_keras():
    # Keras 3 squares each row of a sparse gradient before duplicate rows add up.
    expected = {"SGD": [[0.7, 1.7], [3., 4.], [5., 6.]],
                "Adam": [[0.8658, 1.8658], [3., 4.], [5., 6.]]}
    for name, want in expected.items():
        w = tf.Variable([[1., 2.], [3., 4.], [5., 6.]])
        getattr(tf.keras.optimizers, name)(0.1).apply_gradients([(_slices(), w)])
        np.testing.assert_allclose(w.numpy(), want, atol=1e-4)


def test_optimizer_step_counter_made_with_the_optimizer():
    # Keras 3 makes `iterations` in the constructor, so an SGD step traces once.
    opt = tf.keras.optimizers.SGD(0.5)
    assert [v.dtype for v in opt.variables] == [tf.int64, tf.float32]  # (and the rate)
    v = tf.Variable([1., 2.])
    traces = []

    @tf.function
    def step():
        traces.append(1)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * 2.)
        opt.apply_gradients([(tape.gradient(y, v), v)])
    step()
    step()
    assert len(traces) == 1 and int(opt.iterations) == 2
    np.testing.assert_allclose(v.numpy(), [-1., 0.])


def test_candidate_samplers_return_named_tuples():
    c = tf.random.log_uniform_candidate_sampler(
        true_classes=tf.constant([[1], [2]], tf.int64), num_true=1, num_sampled=4, unique=True,
        range_max=10, seed=5)
    assert type(c).__name__ == "LogUniformCandidateSampler"
    assert c.sampled_candidates.numpy().tolist() == [0, 2, 4, 1]
    np.testing.assert_allclose(c.true_expected_count.numpy(), [[0.727], [0.591]], atol=1e-3)
    np.testing.assert_allclose(c.sampled_expected_count.numpy(), [0.908, 0.591, 0.425, 0.727],
                               atol=1e-3)
    u = tf.random.uniform_candidate_sampler(
        true_classes=tf.constant([[1], [2]], tf.int64), num_true=1, num_sampled=4, unique=False,
        range_max=10, seed=5)
    assert type(u).__name__ == "UniformCandidateSampler"
    assert u.sampled_candidates.numpy().tolist() == [5, 8, 6, 1]


def test_module_variables_in_tensorflows_order():
    # TensorFlow's Module._flatten: own attributes first, then each sub-module's share whole.
    class L(tf.Module):
        def __init__(self, n, sub=None):
            super().__init__(name=n)
            self.v = tf.Variable(1.0, name=n + "_v")
            if sub:
                self.sub = sub

    class M(tf.Module):
        def __init__(self):
            super().__init__()
            self.a = L("a", L("a2", L("a3")))
            self.layers = [L("x"), L("y", L("y2"))]
            self.z = tf.Variable(0.0, name="z")
            self.d = {"k": tf.Variable(2.0, name="dk"), "j": L("j")}
    m = M()
    assert [v.name for v in m.variables] == \
        ['dk:0', 'z:0', 'a_v:0', 'a2_v:0', 'a3_v:0', 'j_v:0', 'x_v:0', 'y_v:0', 'y2_v:0']
    assert [s.name for s in m.submodules] == ['a', 'j', 'x', 'y', 'a2', 'a3', 'y2']


def test_train_load_variable(tmp_path):
    step = tf.Variable(7, dtype=tf.int64)
    path = tf.train.Checkpoint(step=step).save(str(tmp_path / "ckpt"))
    assert tf.train.load_variable(path, "step/.ATTRIBUTES/VARIABLE_VALUE") == 7
    assert tf.train.load_variable(str(tmp_path), "step/.ATTRIBUTES/VARIABLE_VALUE") == 7


def test_grad_pass_through():
    x = tf.Variable(1.4)
    with tf.GradientTape() as t:
        y = tf.grad_pass_through(tf.round)(x * 3.0)
    assert float(y) == 4.0 and float(t.gradient(y, x)) == 3.0

    @tf.function
    def f(z):
        with tf.GradientTape() as t:
            t.watch(z)
            y = tf.reduce_sum(tf.grad_pass_through(lambda a: tf.round(a) * 1.0)(z) ** 2)
        return t.gradient(y, z)
    assert f(tf.constant([0.4, 1.6])).numpy().tolist() == [0.0, 4.0]


def test_dataset_unique():
    ds = tf.data.Dataset.from_tensor_slices([1, 1, 2, 3, 3, 1]).unique()
    assert list(ds.as_numpy_iterator()) == [1, 2, 3]
    assert list(tf.data.Dataset.from_tensor_slices(["b", "a", "b"]).unique()
                .as_numpy_iterator()) == [b"b", b"a"]
    assert ds.cardinality().numpy() == -2

    @tf.function
    def f():
        s = tf.constant(0, tf.int64)
        for x in tf.data.Dataset.range(5).map(lambda x: x % 3).unique():
            s += x * 10
        return s
    assert f().numpy() == 30
    with pytest.raises(TypeError, match=r"does not support type <dtype: 'float32'>"):
        tf.data.Dataset.from_tensor_slices([1., 2.]).unique()
    with pytest.raises(tf.errors.InvalidArgumentError, match="single component"):
        tf.data.Dataset.from_tensor_slices(([1], [2])).unique()


def test_tape_in_a_loop_body_watches_an_enclosing_tensor():
    x = tf.reshape(tf.range(12, dtype=tf.float32), [4, 3])

    @tf.function
    def per_example(w, xs):
        def one(xx):
            with tf.GradientTape() as t:
                t.watch(w)  # w belongs to the function's graph, the tape to map_fn's body
                loss = tf.reduce_sum(w * xx) ** 2
            return t.gradient(loss, w)
        return tf.map_fn(one, xs), tf.vectorized_map(one, xs)
    a, b = per_example(tf.constant([1., 1., 1.]), x)
    want = [[0, 6, 12], [72, 96, 120], [252, 294, 336], [540, 600, 660]]
    np.testing.assert_array_equal(a.numpy(), want)
    np.testing.assert_array_equal(b.numpy(), want)

    @tf.function
    def loop(w):
        g = tf.zeros_like(w)
        for _ in tf.range(2):
            with tf.GradientTape() as t:
                t.watch(w)
                loss = tf.reduce_sum(w * w)
            g = t.gradient(loss, w)
        return g
    np.testing.assert_array_equal(loop(tf.constant([1., 2.])).numpy(), [2., 4.])


def test_hessian_through_indexing():
    def f(x):
        return x[0] ** 2 * x[1] + tf.sin(x[1])
    x = tf.Variable([1.0, 2.0])
    with tf.GradientTape() as t2:
        with tf.GradientTape() as t1:
            y = f(x)
        g = t1.gradient(y, x)
    np.testing.assert_allclose(t2.jacobian(g, x).numpy(), [[4., 2.], [2., -0.9093]], atol=1e-4)

    @tf.function
    def hess(x):
        with tf.GradientTape() as t2:
            t2.watch(x)
            with tf.GradientTape() as t1:
                t1.watch(x)
                y = f(x)
            g = t1.gradient(y, x)
        return t2.jacobian(g, x)
    np.testing.assert_allclose(hess(tf.constant([1.0, 2.0])).numpy(), [[4., 2.], [2., -0.9093]],
                               atol=1e-4)


def test_shapes_computed_from_known_sizes_are_static():
    # TensorFlow's shape inference evaluates small integer sub-graphs (tf.get_static_value
    # does not): the values below were printed by TensorFlow.
    @tf.function
    def f(b):
        m, s = tf.size(b), tf.shape(b)
        assert tf.get_static_value(m + 1) is None
        shapes = [tf.range(m + 1).shape, tf.range(s[0] * 2).shape, tf.zeros([m + 1]).shape,
                  tf.zeros(s + 1).shape, tf.ones(tf.shape(b)[0]).shape,
                  tf.reshape(b, [-1, m]).shape, tf.fill([m * 2], 1).shape,
                  tf.random.uniform([m - 1]).shape]
        assert [sh.as_list() for sh in shapes] == [[4], [6], [4], [4], [3], [1, 3], [6], [2]]
        return tf.ones(s[0])
    assert f(tf.constant([1, 2, 3])).numpy().tolist() == [1., 1., 1.]

    @tf.function
    def grows(n):
        prev = tf.range(tf.size(n) + 1)
        for _ in tf.range(2):
            prev = tf.concat([prev, [0]], 0)
        return prev
    with pytest.raises(ValueError, match=r"'prev' has shape \(4,\) before the loop"):
        grows(tf.constant([1, 2, 3]))


def test_edit_distance():
    h = tf.sparse.SparseTensor([[0, 0, 0], [1, 0, 0]], ["a", "b"], [2, 1, 1])
    t = tf.sparse.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1]], ["a", "b", "c"], [2, 2, 2])
    assert tf.edit_distance(h, t).numpy().tolist() == [[np.inf, 1.0], [0.5, 0.0]]
    assert tf.edit_distance(h, t, normalize=False).numpy().tolist() == [[1., 1.], [1., 0.]]
    e = tf.sparse.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0], tf.int32), [1, 3])
    d = tf.sparse.from_dense(tf.constant([[1, 2, 3]]))
    assert [tf.edit_distance(a, b).numpy().tolist() for a, b in ((d, e), (e, e), (e, d))] == \
        [[np.inf], [0.], [1.]]

    @tf.function
    def f(a, b):
        return tf.edit_distance(tf.sparse.from_dense(a), tf.sparse.from_dense(b))
    r = f(tf.constant([[1, 2], [3, 0]]), tf.constant([[1, 2, 5], [3, 4, 4]]))
    np.testing.assert_allclose(r.numpy(), [1 / 3, 2 / 3], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #4"):
        tf.edit_distance(d, tf.sparse.from_dense(tf.constant([[1., 2.]])))
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor"):
        tf.edit_distance(tf.constant([1]), d)


def test_tf_test_compute_gradient_and_test_case():
    t, n = tf.test.compute_gradient(lambda v: v ** 2, [tf.constant([1., 2.])])
    assert t[0].tolist() == n[0].tolist() == [[2., 0.], [0., 4.]] and t[0].dtype == np.float32
    t, n = tf.test.compute_gradient(lambda a, b: tf.matmul(a, b),
                                    [np.array([[1., 2.]]), np.array([[3.], [4.]])])
    assert [x.tolist() for x in t] == [[[3., 4.]], [[1., 2.]]]
    np.testing.assert_allclose(n[1], [[1., 2.]])
    t, n = tf.test.compute_gradient(lambda e: tf.gather(e, [0, 0]), [tf.constant([[1., 2.]])])
    assert t[0].tolist() == [[1., 0.], [0., 1.], [1., 0.], [0., 1.]]
    with pytest.raises(ValueError, match="must be a list or tuple"):
        tf.test.compute_gradient(lambda v: v, tf.constant(1.))
    assert not tf.test.is_gpu_available() and tf.test.gpu_device_name() == ""

    class T(tf.test.TestCase):
        def runTest(self):
            self.assertAllClose(tf.constant([1., 2.]), [1., 2.0000001])
            self.assertAllEqual(tf.constant([[1]]), [[1]])
            with self.assertRaises(AssertionError):
                self.assertAllEqual(tf.constant([1]), [[1]])
    result = T().run()
    assert result.wasSuccessful()


def test_py_function_gradient():
    x = tf.constant(3.0)
    with tf.GradientTape() as t:
        t.watch(x)
        y = tf.py_function(lambda a: a * a, [x], tf.float32)
    assert float(t.gradient(y, x)) == 6.0

    @tf.function
    def f(x):
        with tf.GradientTape() as t:
            t.watch(x)
            y = tf.py_function(lambda a: tf.sin(a) * a, [x], tf.float32)
        return t.gradient(y, x)
    assert round(float(f(tf.constant(2.0))), 4) == 0.077
    v = tf.constant([1., 2.])
    with tf.GradientTape() as t:
        t.watch(v)
        y = tf.numpy_function(lambda u: u * 2, [v], tf.float32)
    assert t.gradient(y, v) is None  # numpy values carry no gradient


def test_indexed_slices_str():
    s = tf.IndexedSlices(tf.constant([[1., 1.]]), tf.constant([1]), tf.constant([4, 2]))
    assert str(s) == ("IndexedSlices(indices=tf.Tensor([1], shape=(1,), dtype=int32), "
                      "values=tf.Tensor([[1. 1.]], shape=(1, 2), dtype=float32), "
                      "dense_shape=tf.Tensor([4 2], shape=(2,), dtype=int32))")
    assert repr(s).startswith("<") and "IndexedSlices object at" in repr(s)


def test_dense_hash_table():
    d = tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, default_value=-1,
                                              empty_key=0, deleted_key=-1)
    d.insert(tf.constant([3, 7], tf.int64), tf.constant([30, 70], tf.int64))
    assert d.lookup(tf.constant([7, 8], tf.int64)).numpy().tolist() == [70, -1]
    for bad, role in ((0, "empty_key"), (-1, "deleted_key")):
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Using the {role} as a table"):
            d.insert(tf.constant([bad], tf.int64), tf.constant([1], tf.int64))
        with pytest.raises(tf.errors.InvalidArgumentError, match=f"Using the {role} as a table"):
            d.lookup(tf.constant([bad], tf.int64))
    d.erase(tf.constant([3], tf.int64))
    assert d.size().numpy() == 1
    d.insert_or_assign(tf.constant([7], tf.int64), tf.constant([77], tf.int64))
    assert d[tf.constant([7], tf.int64)].numpy().tolist() == [77]
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot be equal"):
        tf.lookup.experimental.DenseHashTable(tf.int64, tf.int64, -1, empty_key=0, deleted_key=0)

    @tf.function
    def f(k):
        d.insert(k, k * 10)
        return d.lookup(k + 1)
    assert f(tf.constant([1, 2], tf.int64)).numpy().tolist() == [20, -1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="empty_key"):
        f(tf.constant([5, 0], tf.int64))


def test_string_hash_buckets_are_tensorflows():
    words = ["the", "cat", "dog", "", "a much longer string with many bytes in it!!"]
    assert tf.strings.to_hash_bucket_strong(words, 1000, key=[1, 2]).numpy().tolist() == \
        [132, 378, 900, 435, 244]  # SipHash-2-4
    assert tf.strings.to_hash_bucket(words, 1000).numpy().tolist() == \
        [85, 335, 335, 899, 319]  # Hash64 (legacy), not Fingerprint64
    assert tf.strings.to_hash_bucket_fast(words, 1000).numpy().tolist() == \
        [354, 96, 112, 263, 825]

    @tf.function
    def f(s):
        return tf.strings.to_hash_bucket(s, 7), tf.strings.to_hash_bucket_strong(s, 7, [5, 6])
    assert [x.numpy().tolist() for x in f(tf.constant(["Hello World", "  ab c "]))] == \
        [[0, 4], [4, 6]]


def test_keras_clipping_and_weight_decay_on_every_optimizer():
    # Keras 3: clipnorm / clipvalue clip a sparse gradient's rows, global_clipnorm densifies.
    want = {("SGD", "clipnorm", 1.0): [0.9184, 1.0, 0.9592],
            ("Adam", "global_clipnorm", 1.0): [0.9, 1.0, 0.9],
            ("RMSprop", "clipvalue", 0.5): [0.5528, 1.0, 0.6838],
            ("Adagrad", "clipnorm", 1.0): [0.876, 1.0, 0.9209]}
    for (name, arg, value), rows in want.items():
        emb = tf.Variable(tf.ones([3, 2]))
        opt = getattr(tf.keras.optimizers, name)(0.1, **{arg: value})
        with tf.GradientTape() as t:
            y = tf.reduce_sum(tf.gather(emb, [0, 0, 2]) * 3.)
        opt.apply_gradients([(t.gradient(y, emb), emb)])
        np.testing.assert_allclose(emb.numpy()[:, 0], rows, atol=1e-4, err_msg=name)
    want = {"SGD": (dict(weight_decay=0.1, momentum=0.9), [0.4441, 0.8882, 0.7943, 1.2384]),
            "Adam": (dict(weight_decay=0.1, clipvalue=0.2), [0.7811, 1.7612, 2.7413, 3.7214])}
    for name, (kwargs, values) in want.items():
        w = tf.Variable([[1., 2.], [3., 4.]])
        opt = getattr(tf.keras.optimizers, name)(0.1, **kwargs)
        for _ in range(2):
            with tf.GradientTape() as t:
                y = tf.reduce_sum(w ** 2) + tf.reduce_sum(tf.gather(w, [1, 1]))
            opt.apply_gradients([(t.gradient(y, w), w)])
        np.testing.assert_allclose(w.numpy().ravel(), values, atol=1e-4, err_msg=name)
    with pytest.raises(ValueError, match="Only one of"):
        tf.keras.optimizers.SGD(clipnorm=1.0, clipvalue=1.0)


def test_stateless_poisson_draws_tensorflows_values():
    P = tf.random.stateless_poisson
    assert P([6], [3, 4], 2.5).numpy().tolist() == [4, 3, 0, 3, 1, 5]  # Knuth (rate < 10)
    assert P([4], [5, 6], 10.5).numpy().tolist() == [9, 11, 11, 13]  # transformed rejection
    assert P([5], [1, 1], 100.).numpy().tolist() == [104, 99, 97, 103, 91]
    assert P([3, 2], [7, 8], [1.5, 30.]).numpy().tolist() == [[1, 37], [1, 29], [4, 27]]
    assert P([3], [1, 2], 4.0, dtype=tf.float32).numpy().tolist() == [6., 5., 6.]
    assert int(tf.reduce_sum(P([2000], [9, 9], 3.0))) == 6041
    assert tf.reduce_sum(P([500, 2], [9, 10], [0.5, 50.]), 0).numpy().tolist() == [265, 25244]
    assert tf.function(lambda s: P([4], s, 7.0))(tf.constant([3, 3])).numpy().tolist() == \
        [3, 6, 8, 9]
    with pytest.raises(tf.errors.InvalidArgumentError):
        P([3], [1, 2], [1., 2.])
    # stateless gamma samples have the shape asked for, alpha broadcast to its last dims
    assert tf.random.stateless_gamma([3, 2], [7, 8], [1.5, 30.]).shape == (3, 2)


def test_eager_while_loop_makes_python_numbers_tensors():
    # TensorFlow 2.21: (<tf.Tensor: shape=(), dtype=int32, numpy=3>,
    #                   <tf.Tensor: shape=(), dtype=float32, numpy=8.0>); ours gave (3, 8.0)
    i, x = tf.while_loop(lambda i, x: i < 3, lambda i, x: (i + 1, x * 2.0), (0, 1.0))
    assert isinstance(i, tf.Tensor) and i.dtype == tf.int32 and int(i) == 3
    assert isinstance(x, tf.Tensor) and x.dtype == tf.float32 and float(x) == 8.0


def test_dropout_is_tensorflow_s_stateless_and_seeded():
    # TensorFlow 2.21's values. Dropped negatives are +0 (TensorFlow selects 0 where ours
    # multiplied by a 0/1 mask and printed -0.); tf.nn.experimental.stateless_dropout was missing.
    x = tf.constant([[-1.0, 2.0, -3.0, 4.0], [0.5, -0.25, 8.0, -9.0]])
    got = tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]).numpy()
    np.testing.assert_array_equal(got, [[-2.0, 0.0, -6.0, 0.0], [0.0, -0.5, 0.0, 0.0]])
    assert not np.signbit(got[got == 0]).any()
    np.testing.assert_allclose(
        tf.nn.experimental.stateless_dropout(x, 0.1, seed=[3, 4], noise_shape=[2, 1]).numpy(),
        [[-1.1111112, 2.2222223, -3.3333335, 4.4444447],
         [0.5555556, -0.2777778, 8.888889, -10.0]], rtol=1e-7)
    staged = tf.function(lambda x: tf.nn.experimental.stateless_dropout(x, 0.5, seed=[1, 2]))
    np.testing.assert_array_equal(staged(x).numpy(), got)
    tf.random.set_seed(1)
    np.testing.assert_array_equal(tf.nn.dropout(x, 0.5, seed=2).numpy(),
                                  [[0.0, 4.0, 0.0, 0.0], [0.0, 0.0, 16.0, 0.0]])


@pytest.mark.parametrize("make, message", [
    (lambda: tf.constant(object()), r"Attempt to convert a value \(<object object at .*\) "
                                    r"with an unsupported type \(<class 'object'>\) to a Tensor"),
    (lambda: tf.convert_to_tensor(None), r"Attempt to convert a value \(None\) with an "
                                         r"unsupported type \(<class 'NoneType'>\)"),
    (lambda: tf.constant(1) + object(), "with an unsupported type"),
    (lambda: tf.convert_to_tensor([1, "a"]), "Can't convert Python sequence with mixed types"),
    (lambda: tf.constant(2**70), "Can't convert Python sequence with out-of-range integer"),
    (lambda: tf.constant([1.0, 1e40]), "a value out of range for a double-precision float"),
    (lambda: tf.Variable(-1e39), "a value out of range for a double-precision float"),
])
def test_values_no_tensor_is_made_of_raise_tensorflow_s_value_error(make, message):
    # TensorFlow 2.21 raises these ValueErrors eagerly (TypeError while building a graph):
    # the error here is both. Ours were TypeErrors with other words, or numpy's own message.
    with pytest.raises(ValueError, match=message):
        make()
    with pytest.raises(TypeError, match=message):
        make()


def test_a_float_beyond_float32_given_that_dtype_is_inf():
    # TensorFlow 2.21: only an inferred float32 refuses it; a given dtype (or an operand's)
    # makes it inf.
    assert np.isinf(tf.constant(1e40, tf.float32).numpy())
    assert np.isinf((tf.constant(1.0) * 1e40).numpy())
    assert tf.convert_to_tensor(1e40, tf.float64).numpy() == 1e40


def test_dtype_sizes_and_datatype_numbers_are_tensorflow_s():
    # TensorFlow 2.21: (size, as_datatype_enum); tf.as_dtype takes the number back.
    expected = {tf.float32: (4, 1), tf.int64: (8, 9), tf.bool: (1, 10), tf.string: (0, 7),
                tf.complex64: (8, 8), tf.uint8: (1, 4), tf.float16: (2, 19)}
    for dtype, (size, number) in expected.items():
        assert (dtype.size, dtype.as_datatype_enum) == (size, number)
        assert tf.as_dtype(number) == dtype
