"""Composites everywhere: SavedModels with ragged/sparse/ExtensionType signatures, datasets.

Expected values were recorded from TensorFlow 2.21 (side venv) as literals.
"""
from __future__ import annotations

import subprocess
import sys
import textwrap

import numpy as np
import pytest

import autograph as tf


class SavedPair(tf.experimental.ExtensionType):
    __name__ = "tests.SavedPair"
    values: tf.Tensor
    mask: tf.Tensor


class Unnamed(tf.experimental.ExtensionType):
    x: tf.Tensor


class CompositeModule(tf.Module):
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32),
                                  tf.SparseTensorSpec([None, 3], tf.float32)])
    def f(self, rt, sp):
        return {"r": rt * 2, "s": tf.sparse.reduce_sum(sp, axis=1), "sp": sp}

    @tf.function(input_signature=[SavedPair.Spec(values=tf.TensorSpec([None], tf.float32),
                                                 mask=tf.TensorSpec([None], tf.bool))])
    def g(self, p):
        return SavedPair(p.values * 2.0, p.mask)


def _check_f(m):
    rt = tf.ragged.constant([[1, 2], [3]])
    sp = tf.sparse.SparseTensor([[0, 1], [1, 2]], [1., 2.], [2, 3])
    out = m.f(rt, sp)
    assert out["r"].to_list() == [[2, 4], [6]]           # TensorFlow: <tf.RaggedTensor [[2, 4], [6]]>
    np.testing.assert_array_equal(out["s"].numpy(), [1., 2.])
    np.testing.assert_array_equal(tf.sparse.to_dense(out["sp"]).numpy(),
                                  [[0, 1, 0], [0, 0, 2]])


def test_saved_composites_load_in_a_fresh_process(tmp_path):
    m = CompositeModule()
    _check_f(m)
    tf.saved_model.save(m, str(tmp_path / "sm"))
    _check_f(tf.saved_model.load(str(tmp_path / "sm")))
    script = textwrap.dedent(f"""
        import numpy as np, warnings
        import autograph as tf
        m = tf.saved_model.load({str(tmp_path / 'sm')!r})
        out = m.f(tf.ragged.constant([[1, 2], [3]]),
                  tf.sparse.SparseTensor([[0, 1], [1, 2]], [1., 2.], [2, 3]))
        print(out["r"].to_list(), out["s"].numpy().tolist())
        try:
            m.g(None)
        except ValueError as e:
            print("ERR", e)
        class SavedPair(tf.experimental.ExtensionType):
            __name__ = "tests.SavedPair"
            values: tf.Tensor
            mask: tf.Tensor
        m = tf.saved_model.load({str(tmp_path / 'sm')!r})
        p = m.g(SavedPair([1., 2.], [True, False]))
        print(type(p).__name__, p.values.numpy().tolist(), p.mask.numpy().tolist())
    """)
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60)
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    assert lines[0] == "[[2, 4], [6]] [1.0, 2.0]"
    assert lines[1].startswith("ERR The loaded function 'g' takes or returns the "
                               "ExtensionType 'tests.SavedPair'")
    assert lines[2] == "SavedPair [2.0, 4.0] [True, False]"


def test_saving_an_unnamed_extension_type_names_the_fix(tmp_path):
    class M(tf.Module):
        @tf.function(input_signature=[Unnamed.Spec(x=tf.TensorSpec([], tf.int32))])
        def h(self, u):
            return u.x + 1
    with pytest.raises(ValueError, match="__name__ = '<package>"):
        tf.saved_model.save(M(), str(tmp_path / "sm"))


# -- ExtensionTypes as dataset elements ----------------------------------------------------------

class Masked(tf.experimental.ExtensionType):
    values: tf.Tensor
    mask: tf.Tensor


class Batchable(tf.experimental.BatchableExtensionType):
    values: tf.Tensor
    name: str
    rt: tf.RaggedTensor


def _batchable():
    return Batchable([1., 2., 3.], "n", tf.ragged.constant([[1], [2, 3], []]))


def test_extension_type_from_tensors_and_map():
    ds = tf.data.Dataset.from_tensors(Masked([1, 2, 3], [True, False, True]))
    assert repr(ds.element_spec) == (   # TensorFlow's
        "Masked.Spec(values=TensorSpec(shape=(3,), dtype=tf.int32, name=None), "
        "mask=TensorSpec(shape=(3,), dtype=tf.bool, name=None))")
    (m,), = [list(ds)]
    assert isinstance(m, Masked) and m.values.numpy().tolist() == [1, 2, 3]
    assert list(ds.map(lambda m: m.values))[0].numpy().tolist() == [1, 2, 3]
    doubled = ds.map(lambda m: Masked(m.values * 2, m.mask))
    assert list(doubled)[0].values.numpy().tolist() == [2, 4, 6]


def test_plain_extension_type_is_not_batchable():
    ds = tf.data.Dataset.from_tensors(Masked([1, 2, 3], [True, False, True]))
    with pytest.raises(AttributeError, match="BatchableExtensionType"):
        ds.batch(2)
    with pytest.raises(AttributeError, match="BatchableExtensionType"):
        tf.data.Dataset.from_tensor_slices(Masked([1, 2], [True, False]))


def test_batchable_extension_type_slices_batches_and_unbatches():
    ds = tf.data.Dataset.from_tensor_slices(_batchable())
    assert repr(ds.element_spec) == (   # TensorFlow's
        "Batchable.Spec(values=TensorSpec(shape=(), dtype=tf.float32, name=None), name='n', "
        "rt=RaggedTensorSpec(TensorShape([None]), tf.int32, 0, tf.int64))")
    rows = list(ds)
    assert [r.values.numpy().item() for r in rows] == [1., 2., 3.]
    assert [r.rt.numpy().tolist() for r in rows] == [[1], [2, 3], []]
    assert all(r.name == "n" for r in rows)
    batched = ds.batch(2)
    assert repr(batched.element_spec) == (
        "Batchable.Spec(values=TensorSpec(shape=(None,), dtype=tf.float32, name=None), "
        "name='n', rt=RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64))")
    b = list(batched)
    assert b[0].values.numpy().tolist() == [1., 2.] and b[0].rt.to_list() == [[1], [2, 3]]
    assert b[1].values.numpy().tolist() == [3.] and b[1].rt.to_list() == [[]]
    un = batched.unbatch()
    assert un.element_spec == ds.element_spec
    assert [r.rt.numpy().tolist() for r in un] == [[1], [2, 3], []]


def test_batchable_extension_type_in_a_staged_dataset_loop():
    @tf.function
    def total(d):
        s = tf.constant(0.)
        for e in d:
            s += tf.reduce_sum(e.values) + tf.cast(tf.reduce_sum(e.rt.flat_values), tf.float32)
        return s
    ds = tf.data.Dataset.from_tensor_slices(_batchable()).batch(2)
    assert total(ds).numpy() == 12.0   # 6 (values) + 6 (ragged values)


def test_tensor_spec_value_type():
    assert tf.TensorSpec([1]).value_type is tf.Tensor
    assert tf.RaggedTensorSpec([1, None]).value_type is tf.RaggedTensor
    assert tf.SparseTensorSpec([2]).value_type is tf.SparseTensor


# -- tf.experimental.Optional ---------------------------------------------------------------------

def test_optional_from_value_and_empty():
    o = tf.experimental.Optional.from_value((tf.constant(1), {"a": tf.constant([1., 2.])}))
    assert o.has_value().numpy()
    assert repr(o._type_spec) == (   # TensorFlow's
        "OptionalSpec((TensorSpec(shape=(), dtype=tf.int32, name=None), {'a': TensorSpec("
        "shape=(2,), dtype=tf.float32, name=None)}),)")
    assert o.get_value()[1]["a"].numpy().tolist() == [1., 2.]
    e = tf.experimental.Optional.empty(tf.TensorSpec([None], tf.int32))
    assert not e.has_value().numpy()
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="The given optional does not have a value"):
        e.get_value()


def test_get_next_as_optional_eager_and_staged():
    it = iter(tf.data.Dataset.range(2))
    got = []
    for _ in range(3):
        o = it.get_next_as_optional()
        got.append(o.get_value().numpy().item() if o.has_value() else None)
    assert got == [0, 1, None]                 # TensorFlow's

    @tf.function
    def f(ds):
        it = iter(ds)
        a = it.get_next_as_optional()
        b = it.get_next_as_optional()
        c = it.get_next_as_optional()
        return a.has_value(), c.has_value(), tf.cond(
            b.has_value(), lambda: b.get_value(), lambda: tf.constant(-1, tf.int64))
    a, c, b = f(tf.data.Dataset.range(2))
    assert (a.numpy(), c.numpy(), b.numpy()) == (True, False, 1)   # TensorFlow's


def test_optional_as_a_function_argument():
    traces = []

    @tf.function
    def g(o):
        traces.append(1)
        return o.get_value()["x"] * 2
    assert g(tf.experimental.Optional.from_value({"x": tf.constant(3)})).numpy() == 6
    assert g(tf.experimental.Optional.from_value({"x": tf.constant(4)})).numpy() == 8
    assert len(traces) == 1
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not have a value"):
        g(tf.experimental.Optional.empty({"x": tf.TensorSpec([], tf.int32)}))


# -- tf.sparse.softmax ----------------------------------------------------------------------------

def _softmax_values(sp):
    return tf.sparse.softmax(sp).values


def test_sparse_softmax_values_eager_and_staged():
    from tests.staging import assert_same
    sp = tf.sparse.SparseTensor([[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]],
                                [1., 2., 3., -1., 0.5, 4.], [3, 4])
    expected = [0.2689414322376251, 0.7310585975646973, 1.0, 0.0064979433082044125,
                0.02912176214158535, 0.9643803238868713]             # TensorFlow's
    np.testing.assert_allclose(_softmax_values(sp).numpy(), expected, rtol=1e-6)
    sp3 = tf.sparse.SparseTensor([[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 2]],
                                 [1., 2., 3., 4.], [2, 2, 3])
    np.testing.assert_allclose(_softmax_values(sp3).numpy(),
                               [0.2689414322376251, 0.7310585975646973, 1.0, 1.0], rtol=1e-6)
    staged = tf.function(_softmax_values)(sp)
    np.testing.assert_allclose(staged.numpy(), expected, rtol=1e-6)
    empty = tf.sparse.SparseTensor(np.zeros((0, 2), np.int64), np.zeros([0], np.float32), [2, 2])
    assert _softmax_values(empty).shape == (0,)


def test_sparse_softmax_gradient_and_errors():
    indices = [[0, 0], [0, 2], [1, 1], [2, 0], [2, 1], [2, 3]]
    v = tf.Variable([1., 2., 3., -1., 0.5, 4.])
    with tf.GradientTape() as t:
        out = tf.sparse.softmax(tf.sparse.SparseTensor(indices, v, [3, 4]))
        loss = tf.reduce_sum(out.values * tf.constant([1., 2., 3., 4., 5., 6.]))
    np.testing.assert_allclose(t.gradient(loss, v).numpy(), [   # TensorFlow's
        -0.1966119408607483, 0.1966119259595871, 0.0, -0.012722211889922619,
        -0.027895238250494003, 0.040616922080516815], rtol=1e-5, atol=1e-7)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        tf.sparse.softmax(tf.sparse.SparseTensor([[0]], [1.], [3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.sparse.softmax(tf.sparse.SparseTensor([[0, 1]], [1], [3, 3]))


# -- tf.sparse.bincount ---------------------------------------------------------------------------

def _bins(sp):
    return (sp.indices.numpy().tolist(), sp.values.numpy().tolist(), sp.values.dtype.name,
            sp.dense_shape.numpy().tolist())


@pytest.mark.parametrize("args, kwargs, expected", [   # TensorFlow's results
    (([1, 1, 3, 7],), {}, ([[1], [3], [7]], [2, 1, 1], "int32", [8])),
    (([[1, 1, 3], [2, 2, 0]],), {"axis": -1},
     ([[0, 1], [0, 3], [1, 0], [1, 2]], [2, 1, 1, 2], "int32", [2, 4])),
    (([1, 1, 3, 7],), {"weights": [1., -1., 2., 0.5]},
     ([[1], [3], [7]], [0.0, 2.0, 0.5], "float32", [8])),
    (([1, 1, 3, 7],), {"minlength": 10}, ([[1], [3], [7]], [2, 1, 1], "int32", [10])),
    (([1, 1, 3, 7],), {"maxlength": 4}, ([[1], [3]], [2, 1], "int32", [4])),
    (([1, 1, 3, 7],), {"binary_output": True}, ([[1], [3], [7]], [1, 1, 1], "int32", [8])),
    (([[1, 1, 3], [2, 2, 0]],), {"axis": 0},
     ([[0], [1], [2], [3]], [1, 2, 2, 1], "int32", [4])),
    ((np.array([1, 1, 3], np.int64),), {}, ([[1], [3]], [2, 1], "int64", [4])),
    ((np.array([], np.int32),), {}, ([], [], "int32", [1])),
    (([[1, 5], [2, 2]],), {"axis": -1, "maxlength": 3},
     ([[0, 1], [1, 2]], [1, 2], "int32", [2, 3])),
])
def test_sparse_bincount(args, kwargs, expected):
    assert _bins(tf.sparse.bincount(*args, **kwargs)) == expected
    staged = tf.function(lambda x: tf.sparse.bincount(x, **kwargs))(tf.constant(args[0]))
    assert _bins(staged) == expected


def test_sparse_bincount_errors():
    with pytest.raises(ValueError, match="mutually exclusive"):
        tf.sparse.bincount([1], weights=[1.], binary_output=True)
    with pytest.raises(tf.errors.InvalidArgumentError, match="1 or 2-dimensional"):
        tf.sparse.bincount([[[1]]], axis=-1)
