"""tf.device / tf.DeviceSpec / tf.config device queries, as TensorFlow 2.21 answers on a CPU."""
import pytest

import autograph as tf
from graph.errors import InvalidArgumentError
from runtime.device import current_device


def test_device_strings_parse_like_tensorflow():
    s = tf.DeviceSpec.from_string("/job:localhost/device:gpu:1")
    assert (s.job, s.replica, s.device_type, s.device_index) == ("localhost", None, "GPU", 1)
    assert s.to_string() == "/job:localhost/device:GPU:1"
    assert tf.DeviceSpec(device_type="CPU", device_index=0).to_string() == "/device:CPU:0"
    for good in ["/CPU:0", "cpu:0", "/job:localhost/replica:0/task:0/device:CPU:0", "/GPU:0",
                 "/cpu:5", "", None, "GPU", "/device:CPU:*", "CPU:0 ", "/TPU:0"]:
        with tf.device(good):
            assert (tf.constant(1.0) + 1).device == "/job:localhost/replica:0/task:0/device:CPU:0"
    with pytest.raises(ValueError, match="Unknown attribute 'foo' is encountered while parsing "
                                         "the device spec: 'foo'."):
        tf.device("foo")
    with pytest.raises(ValueError, match="Multiple device types are not allowed"):
        tf.device("/cpu:0/gpu:0")
    with pytest.raises(RuntimeError, match="tf.device does not support functions."):
        tf.device(lambda op: "/CPU:0")
    with pytest.raises(InvalidArgumentError, match="unknown device"):
        with tf.device("/job:worker"):
            pass


def test_scopes_nest_by_merging_and_soft_placement():
    with tf.device("/job:localhost"):
        with tf.device("/GPU:0"):
            assert current_device() == "/job:localhost/device:GPU:0"
        with tf.device(None):
            assert current_device() == ""
    assert current_device() == ""
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(InvalidArgumentError, match="Could not satisfy device specification"):
            with tf.device("/GPU:0"):
                pass
        with tf.device("/CPU:0"):
            pass
    finally:
        tf.config.set_soft_device_placement(True)


def test_device_in_a_function():
    @tf.function
    def f(x):
        with tf.device("/GPU:0"):
            return x + 1
    assert f(tf.constant(1.0)).numpy() == 2.0


def test_config_queries():
    assert repr(tf.config.list_physical_devices()) == \
        "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert repr(tf.config.list_logical_devices()) == \
        "[LogicalDevice(name='/device:CPU:0', device_type='CPU')]"
    assert tf.config.list_physical_devices("GPU") == []
    assert tf.config.list_physical_devices("cpu") == []  # TF matches the type exactly
    assert tf.config.get_visible_devices() == tf.config.list_physical_devices("CPU")
    tf.config.set_visible_devices([], "GPU")
