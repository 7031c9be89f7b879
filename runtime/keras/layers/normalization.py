"""``BatchNormalization`` (the batch's statistics when training, moving averages kept as
non-trainable weights otherwise) and ``LayerNormalization`` (each sample's own statistics).
Both pass a Keras mask on; BatchNormalization's batch statistics skip the masked steps."""
from __future__ import annotations

from graph import dtypes
from runtime.keras import initializers
from runtime.keras.backend import epsilon
from runtime.keras.layers.base import Layer
from runtime.ops import array_ops as A, math_ops as M, nn_ops
from runtime.ops.array_ops import reshape


class BatchNormalization(Layer):
    """Keras 3's rules: moving stats follow ``stat * momentum + batch_stat * (1 - momentum)``
    (the biased batch variance), and a frozen layer (``trainable = False``) always runs in
    inference mode."""

    supports_masking = True

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis, self.momentum, self.epsilon = int(axis), float(momentum), float(epsilon)
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.gamma = self.beta = self.moving_mean = self.moving_variance = None

    def build(self, input_shape):
        rank = len(input_shape)
        axis = self.axis % rank if -rank <= self.axis < rank else None
        if axis is None or input_shape[axis] is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             f"dimension, but the layer received an input with shape "
                             f"{input_shape}.")
        self._axis, self._rank = axis, rank
        shape = (input_shape[axis],)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, initializer=self.gamma_initializer,
                                         name="gamma")
        if self.center:
            self.beta = self.add_weight(shape=shape, initializer=self.beta_initializer,
                                        name="beta")
        self.moving_mean = self.add_weight(shape=shape, initializer=self.moving_mean_initializer,
                                           trainable=False, name="moving_mean")
        self.moving_variance = self.add_weight(
            shape=shape, initializer=self.moving_variance_initializer, trainable=False,
            name="moving_variance")
        self.built = True

    def _broadcast(self, v):
        """A per-channel vector shaped to broadcast along the layer's axis."""
        if v is None or self._axis == self._rank - 1:
            return v
        shape = [1] * self._rank
        shape[self._axis] = -1
        return reshape(v, shape)

    def _masked_moments(self, inputs, axes, mask):
        """Keras 3's moments over the kept steps (``mask`` has one axis less than
        ``inputs``): sums weighted by the mask, divided by the kept count + epsilon."""
        kept = A.broadcast_to(A.expand_dims(M.cast(mask, dtypes.bool_), -1), A.shape(inputs))
        zeros = A.zeros_like(inputs)
        weights = M.reduce_sum(M.cast(kept, inputs.dtype), axes, keepdims=True)
        count = M.add(weights, epsilon())
        mean = M.divide(M.reduce_sum(M.where(kept, inputs, zeros), axes, keepdims=True), count)
        deviation = M.where(kept, M.subtract(inputs, mean), zeros)
        variance = M.divide(M.reduce_sum(M.square(deviation), axes, keepdims=True), count)
        return A.squeeze(mean, axes), A.squeeze(variance, axes)

    def call(self, inputs, training=None, mask=None):
        if mask is not None and mask.shape.rank is not None and \
                inputs.shape.rank is not None and mask.shape.rank != inputs.shape.rank - 1:
            raise ValueError(f"The mask provided should be one dimension less than the "
                             f"inputs. Received: mask.shape={tuple(mask.shape.as_list())}, "
                             f"inputs.shape={tuple(inputs.shape.as_list())}")
        if training and self.trainable:
            axes = [i for i in range(self._rank) if i != self._axis]
            mean, variance = nn_ops.moments(inputs, axes) if mask is None else \
                self._masked_moments(inputs, axes, mask)
            keep = 1.0 - self.momentum
            self.moving_mean.assign(M.add(M.multiply(self.moving_mean, self.momentum),
                                          M.multiply(mean, keep)))
            self.moving_variance.assign(M.add(M.multiply(self.moving_variance, self.momentum),
                                              M.multiply(variance, keep)))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        b = self._broadcast
        return nn_ops.batch_normalization(inputs, b(mean), b(variance), b(self.beta),
                                          b(self.gamma), self.epsilon)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "momentum": self.momentum,
                "epsilon": self.epsilon, "center": self.center, "scale": self.scale}


class LayerNormalization(Layer):
    """Normalizes each sample over ``axis`` (one axis or several), then scales and shifts."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else [int(axis)]
        self.epsilon, self.center, self.scale = float(epsilon), center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape)
        axes = sorted(a % rank for a in self.axis)
        if any(input_shape[a] is None for a in axes):
            raise ValueError(f"LayerNormalization needs known sizes on axis {self.axis}, got "
                             f"input shape {input_shape}")
        self._axes = axes
        shape = tuple(input_shape[a] for a in axes)
        # Weights shaped to broadcast against the inputs (1 on the other axes).
        self._broadcast_shape = [input_shape[i] if i in axes else 1 for i in range(rank)]
        if self.scale:
            self.gamma = self.add_weight(shape=shape, initializer=self.gamma_initializer,
                                         name="gamma")
        if self.center:
            self.beta = self.add_weight(shape=shape, initializer=self.beta_initializer,
                                        name="beta")
        self.built = True

    def call(self, inputs):
        mean, variance = nn_ops.moments(inputs, self._axes, keepdims=True)
        b = lambda v: None if v is None else reshape(v, self._broadcast_shape)  # noqa: E731
        return nn_ops.batch_normalization(inputs, mean, variance, b(self.beta), b(self.gamma),
                                          self.epsilon)

    def get_config(self):
        return {**super().get_config(), "axis": self.axis, "epsilon": self.epsilon,
                "center": self.center, "scale": self.scale}
