"""SavedModel signatures with composite inputs and outputs, as TensorFlow 2.21 exports them.

TensorFlow flattens a composite argument of a signature into its component
tensors, named like the graph's placeholders (``x``, ``x_1``, ``x_2``...),
and returns composite results whole. Expected values, names and error types
were recorded from TensorFlow 2.21 (side venv) as literals.
"""
from __future__ import annotations

import numpy as np
import pytest

import autograph as tf
from runtime.ragged.row_partition import RowPartitionSpec  # (not public in TensorFlow)

RowPartition = tf.experimental.RowPartition


class SigPair(tf.experimental.ExtensionType):
    __name__ = "tests.saved_model_composite.SigPair"
    values: tf.Tensor
    mask: tf.Tensor


_PAIR_SPEC = SigPair.Spec(tf.TensorSpec([None], tf.float32), tf.TensorSpec([None], tf.bool))


class Model(tf.Module):
    @tf.function
    def add(self, x, y):
        return x * 2 + tf.reduce_sum(y)

    @tf.function
    def masked(self, m):
        return tf.boolean_mask(m.values, m.mask)

    @tf.function
    def doubled(self, m):
        return SigPair(m.values * 2, m.mask)

    @tf.function
    def scaled(self, x):
        return tf.sparse.map_values(tf.multiply, x, 2.0)

    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None, None], tf.float32,
                                                      ragged_rank=2)])
    def inner_sums(self, x):
        return tf.reduce_sum(x, axis=-1)


def _signatures(m):
    return {"a": m.add.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.float32),
                                             tf.TensorSpec([3], tf.float32)),
            "e": m.masked.get_concrete_function(_PAIR_SPEC),
            "e2": m.doubled.get_concrete_function(_PAIR_SPEC),
            "s2": m.scaled.get_concrete_function(tf.SparseTensorSpec([None, 3], tf.float32)),
            "r2": m.inner_sums}


@pytest.fixture(scope="module")
def loaded(tmp_path_factory):
    m = Model()
    path = str(tmp_path_factory.mktemp("sm") / "composite")
    tf.saved_model.save(m, path, signatures=_signatures(m))
    return tf.saved_model.load(path)


def _specs(sig):
    args, kwargs = sig.structured_input_signature
    return args, sorted((k, v.shape.as_list(), v.dtype.name) for k, v in kwargs.items())


def test_composite_inputs_are_flattened_into_named_components(loaded):
    assert sorted(loaded.signatures) == ["a", "e", "e2", "r2", "s2"]
    # TensorFlow: {'x': (None,) float32, 'x_1': (None,) int64, 'y': (3,) float32}
    assert _specs(loaded.signatures["a"]) == ((), [("x", [None], "float32"),
                                                   ("x_1", [None], "int64"),
                                                   ("y", [3], "float32")])
    assert _specs(loaded.signatures["s2"]) == ((), [("x", [None, 2], "int64"),
                                                    ("x_1", [None], "float32"),
                                                    ("x_2", [2], "int64")])
    assert _specs(loaded.signatures["r2"]) == ((), [("x", [None], "float32"),
                                                    ("x_1", [None], "int64"),
                                                    ("x_2", [None], "int64")])
    assert _specs(loaded.signatures["e"]) == ((), [("m", [None], "float32"),
                                                   ("m_1", [None], "bool")])


def test_composite_outputs_keep_their_type(loaded):
    outs = {k: loaded.signatures[k].structured_outputs["output_0"] for k in loaded.signatures}
    assert repr(outs["a"]) == "RaggedTensorSpec(TensorShape([None, None]), tf.float32, 1, tf.int64)"
    assert repr(outs["s2"]) == "SparseTensorSpec(TensorShape([None, None]), tf.float32)"
    assert repr(outs["e2"]) == ("SigPair.Spec(values=TensorSpec(shape=(None,), dtype=tf.float32, "
                                "name=None), mask=TensorSpec(shape=(None,), dtype=tf.bool, "
                                "name=None))")
    assert outs["e"] == tf.TensorSpec([None], tf.float32, "output_0")


def test_calling_signatures_with_components(loaded):
    rt = tf.ragged.constant([[1., 2.], [3.]])
    out = loaded.signatures["a"](x=rt.flat_values, x_1=rt.row_splits, y=tf.constant([1., 1., 1.]))
    assert out["output_0"].to_list() == [[5.0, 7.0], [9.0]]
    m = dict(m=tf.constant([1., 2., 3.]), m_1=tf.constant([True, False, True]))
    np.testing.assert_array_equal(loaded.signatures["e"](**m)["output_0"].numpy(), [1., 3.])
    pair = loaded.signatures["e2"](**m)["output_0"]
    assert isinstance(pair, SigPair) and pair.values.numpy().tolist() == [2., 4., 6.]
    sp = tf.sparse.from_dense([[1., 0, 2.], [0, 0, 3.]])
    out = loaded.signatures["s2"](x=sp.indices, x_1=sp.values, x_2=sp.dense_shape)["output_0"]
    assert out.indices.numpy().tolist() == [[0, 0], [0, 2], [1, 2]]
    assert out.values.numpy().tolist() == [2., 4., 6.]
    assert out.dense_shape.numpy().tolist() == [2, 3]
    rt2 = tf.ragged.constant([[[1., 2.], [3.]], [[4.]]])
    out = loaded.signatures["r2"](x=rt2.flat_values, x_1=rt2.nested_row_splits[0],
                                  x_2=rt2.nested_row_splits[1])["output_0"]
    assert out.to_list() == [[3.0, 3.0], [4.0]]


def test_signature_misuse_raises_tensorflows_errors(loaded):
    rt2 = tf.ragged.constant([[[1., 2.], [3.]], [[4.]]])
    sig = loaded.signatures["r2"]
    with pytest.raises(TypeError, match="x_2"):   # TensorFlow: missing a required argument
        sig(x=rt2.flat_values, x_1=rt2.nested_row_splits[0])
    with pytest.raises(TypeError):                # TensorFlow: a composite is not fed whole
        sig(x=rt2)
    # TensorFlow: InvalidArgumentError "... as input #2(zero-based) was expected to be a int64
    # tensor but is a int32 tensor"
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #2\(zero-based\) was expected to be a int64 tensor"):
        sig(x=rt2.flat_values, x_1=rt2.nested_row_splits[0], x_2=tf.constant([0, 2, 3]))


def test_default_signature_from_a_composite_input_signature(tmp_path):
    class One(tf.Module):
        @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
        def f(self, x):
            return {"out": x * 2}
    tf.saved_model.save(One(), str(tmp_path / "one"))
    m = tf.saved_model.load(str(tmp_path / "one"))
    assert list(m.signatures) == ["serving_default"]   # as TensorFlow exports it
    rt = tf.ragged.constant([[1, 2], [3]])
    out = m.signatures["serving_default"](x=rt.flat_values, x_1=rt.row_splits)
    assert out["out"].to_list() == [[2, 4], [6]]
    assert m.f(rt).get("out").to_list() == [[2, 4], [6]]


def test_loaded_composite_signatures_save_again(loaded, tmp_path):
    tf.saved_model.save(loaded, str(tmp_path / "again"))
    again = tf.saved_model.load(str(tmp_path / "again"))
    rt = tf.ragged.constant([[1., 2.], [3.]])
    out = again.signatures["a"](x=rt.flat_values, x_1=rt.row_splits, y=tf.constant([1., 1., 1.]))
    assert out["output_0"].to_list() == [[5.0, 7.0], [9.0]]


def test_row_partition_arguments_save_and_load(tmp_path):
    class Lengths(tf.Module):
        @tf.function(input_signature=[RowPartitionSpec(None, None, None, tf.int64)])
        def lengths(self, p):
            return p.row_lengths()
    tf.saved_model.save(Lengths(), str(tmp_path / "rp"))
    m = tf.saved_model.load(str(tmp_path / "rp"))
    out = m.lengths(RowPartition.from_row_splits([0, 2, 3, 3]))
    assert out.numpy().tolist() == [2, 1, 0]
    # a signature takes the partition as its row splits
    out = m.signatures["serving_default"](p=tf.constant([0, 1, 3], tf.int64))
    assert out["output_0"].numpy().tolist() == [1, 2]
