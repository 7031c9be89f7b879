"""``tf.nn``: TensorFlow's neural-network ops."""
# from runtime.ops.nn_ops import (relu, softmax, ...)  -- listed explicitly
