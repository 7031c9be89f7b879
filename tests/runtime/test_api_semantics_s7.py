"""API rules found by diffing small programs against TensorFlow 2.21."""
import pytest

import autograph as tf


def test_tf_cond_refuses_a_python_bool_while_tracing_and_takes_it_eagerly():
    assert int(tf.cond(True, lambda: 1, lambda: 2)) == 1

    @tf.function
    def f(x):
        return tf.cond(x > 0, lambda: x, lambda: -x) + tf.cond(x > 1, lambda: 1, lambda: 0)
    assert int(f(tf.constant(-3))) == 3

    with pytest.raises(TypeError, match="pred must not be a Python bool"):
        tf.function(lambda: tf.cond(True, lambda: 1, lambda: 2))()


def test_nest_structures_of_other_sequence_types_are_a_type_error():
    with pytest.raises(TypeError, match="same nested structure"):
        tf.nest.assert_same_structure([1, 2], (1, 2))
    with pytest.raises(ValueError, match="same nested structure"):
        tf.nest.assert_same_structure([1, 2], [1, [2]])
    tf.nest.assert_same_structure([1, 2], (1, 2), check_types=False)


def test_writing_past_a_fixed_tensor_array_is_out_of_range_eagerly():
    ta = tf.TensorArray(tf.float32, size=2)
    with pytest.raises(tf.errors.OutOfRangeError, match="not resizeable"):
        ta.write(5, 1.0)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not resizeable"):
        tf.function(lambda: tf.TensorArray(tf.float32, size=2).write(5, 1.0).stack())()


def test_register_keras_serializable_records_the_class_and_returns_it():
    @tf.keras.utils.register_keras_serializable(package="S7", name="Lay")
    class Lay(tf.keras.layers.Layer):
        pass

    @tf.keras.utils.register_keras_serializable()
    def act_s7(x):
        return x

    assert tf.keras.utils.get_registered_name(Lay) == "S7>Lay"
    assert tf.keras.utils.get_registered_name(act_s7) == "Custom>act_s7"
    assert tf.keras.utils.get_registered_name(tf.keras.layers.Dense) == "Dense"
    assert tf.keras.utils.get_registered_object("S7>Lay") is Lay
    assert "S7>Lay" in tf.keras.utils.get_custom_objects()
    assert tf.keras.utils.get_registered_object("nope") is None
    with tf.keras.utils.custom_object_scope({"Foo": Lay}):
        assert tf.keras.utils.get_registered_object("Foo") is Lay
    assert tf.keras.utils.get_registered_object("Foo") is None

    class NoConfig:
        pass
    with pytest.raises(ValueError, match="does not have a get_config"):
        tf.keras.utils.register_keras_serializable()(NoConfig)


def test_base64_is_web_safe_and_padding_is_optional():
    assert tf.io.encode_base64(["hello?>", ""], pad=True).numpy().tolist() == [b"aGVsbG8_Pg==", b""]
    assert tf.io.encode_base64("a~~").numpy() == b"YX5-"
    assert tf.io.decode_base64(["aGVsbG8_Pg", "aGVsbG8_Pg=="]).numpy().tolist() == [b"hello?>"] * 2
    round_trip = tf.function(lambda: tf.io.decode_base64(tf.io.encode_base64(["x\x00y"])))
    assert round_trip().numpy().tolist() == [b"x\x00y"]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid character found in base64"):
        tf.io.decode_base64("!!")


def test_rank_and_float_dtype_assertions():
    x = tf.zeros([2, 3])
    assert tf.debugging.assert_rank_at_least(x, 1) is None
    assert tf.debugging.assert_rank_in(x, [2, 3]) is None
    with pytest.raises(ValueError, match="must have rank at least 3"):
        tf.debugging.assert_rank_at_least(x, 3)
    with pytest.raises(ValueError, match=r"must have rank in \(1, 3\)"):
        tf.debugging.assert_rank_in(x, [1, 3])
    assert tf.debugging.assert_same_float_dtype([x]) == tf.float32
    with pytest.raises(ValueError, match="must be of the same type"):
        tf.debugging.assert_same_float_dtype([x, tf.zeros([1], tf.float64)])
    with pytest.raises(ValueError, match="Expected floating point type"):
        tf.debugging.assert_same_float_dtype([tf.zeros([1], tf.int32)])
    with pytest.raises(TypeError, match='"proper" iterable'):
        tf.debugging.assert_proper_iterable("abc")
    tf.debugging.assert_proper_iterable([1])


def test_scalar_reprs_show_the_python_value_as_tensorflow_2_21_does():
    assert repr(tf.constant(0.1)) == "<tf.Tensor: shape=(), dtype=float32, numpy=0.10000000149011612>"
    assert repr(tf.constant(0.1, tf.float16)).endswith("numpy=0.0999755859375>")
    assert repr(tf.Variable(1.1)).endswith("numpy=1.100000023841858>")
    assert repr(tf.constant(True)).endswith("numpy=True>")
    assert repr(tf.constant(b"x")).endswith("numpy=b'x'>")
    assert str(tf.constant(0.1)) == "tf.Tensor(0.1, shape=(), dtype=float32)"  # (str: numpy's)
    assert repr(tf.constant([0.1])).endswith("numpy=array([0.1], dtype=float32)>")
