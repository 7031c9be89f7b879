"""Neural-network ops (tf.nn): activations, softmax, losses, convolution, pooling, top_k."""
from __future__ import annotations
