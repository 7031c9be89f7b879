"""``tf.linalg``: TensorFlow's linear-algebra ops."""
# from runtime.ops.linalg_ops import (matmul, inv, ...)  -- listed explicitly
