"""Activation layers: ReLU, LeakyReLU, PReLU, ELU, Softmax (Keras 3's defaults)."""
from __future__ import annotations

from graph import dtypes
from runtime.keras import activations, initializers
from runtime.keras.layers.base import Layer
from runtime.ops import math_ops as M, nn_ops
from runtime.ops.array_ops import zeros
from runtime.ops.core import convert_to_tensor
from runtime.ops.special_ops import reduce_logsumexp


class ReLU(Layer):
    """``relu(x)`` with Keras's ``max_value``, ``negative_slope`` and ``threshold``."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        for arg, value in (("max_value", max_value), ("negative_slope", negative_slope),
                           ("threshold", threshold)):
            if value is not None and value < 0:
                raise ValueError(f"{arg} of a ReLU layer cannot be a negative value. "
                                 f"Received: {arg}={value}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return activations.relu(inputs, self.negative_slope, self.max_value, self.threshold)

    def get_config(self):
        return {**super().get_config(), "max_value": self.max_value,
                "negative_slope": self.negative_slope, "threshold": self.threshold}


class LeakyReLU(Layer):
    """``x`` if positive, else ``negative_slope * x`` (0.3 by default, as Keras 3)."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, negative_slope=0.3, **kwargs):
        super().__init__(**kwargs)
        if negative_slope is None or negative_slope < 0:
            raise ValueError(f"The negative_slope value of a Leaky ReLU layer cannot be None "
                             f"or negative value. Expected a float. Received: "
                             f"negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return nn_ops.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        return {**super().get_config(), "negative_slope": self.negative_slope}


class ELU(Layer):
    """``x`` if positive, else ``alpha * (exp(x) - 1)``."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        return {**super().get_config(), "alpha": self.alpha}


class PReLU(Layer):
    """A leaky ReLU whose slopes are learned: one per input value, shared along
    ``shared_axes``."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        if alpha_regularizer is not None or alpha_constraint is not None:
            raise NotImplementedError("PReLU regularizers and constraints are not supported")
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.shared_axes = None if shared_axes is None else (
            [shared_axes] if isinstance(shared_axes, int) else list(shared_axes))
        self.alpha = None

    def build(self, input_shape):
        shape = list(input_shape[1:])
        for axis in self.shared_axes or []:
            shape[axis - 1] = 1
        self.alpha = self.add_weight(shape=tuple(shape), initializer=self.alpha_initializer,
                                     name="alpha")
        self.built = True

    def call(self, inputs):
        positive = M.relu(inputs)
        negative = M.multiply(M.negative(self.alpha), M.relu(M.negative(inputs)))
        return M.add(positive, negative)

    def get_config(self):
        return {**super().get_config(), "shared_axes": self.shared_axes,
                "alpha_initializer": initializers.serialize(self.alpha_initializer)}


class Softmax(Layer):
    """Softmax over ``axis`` (an int or a tuple). With a ``mask`` (broadcastable to the
    inputs; True or > 0.5 = kept) the masked logits become a large negative number and the
    masked outputs zero, so a fully masked row is all zeros (Keras 3)."""

    supports_masking = True  # (the mask passes through, as in Keras 3)

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:
            mask = self._kept(inputs, mask)
            large = -3e4 if inputs.dtype.name == "float16" else -1e9
            inputs = M.where(mask, inputs, M.cast(large, inputs.dtype))
        axis = self.axis[0] if isinstance(self.axis, (tuple, list)) and len(self.axis) == 1 \
            else self.axis
        if isinstance(axis, (tuple, list)):
            outputs = M.exp(M.subtract(inputs, reduce_logsumexp(inputs, axis=list(axis),
                                                                keepdims=True)))
        else:
            outputs = nn_ops.softmax(inputs, axis=axis)
        return outputs if mask is None else M.where(mask, outputs, zeros([], outputs.dtype))

    @staticmethod
    def _kept(inputs, mask):
        mask = convert_to_tensor(mask)
        dims, mask_dims = inputs.shape.as_list(), mask.shape.as_list()
        shapes = f"Received: inputs.shape={tuple(dims)}, mask.shape={tuple(mask_dims)}"
        if len(mask_dims) > len(dims):
            raise ValueError(f"The `mask` must be broadcastable to `inputs` and must not have "
                             f"more dimensions. {shapes}")
        if any(m is not None and i is not None and m not in (1, i)
               for m, i in zip(mask_dims[::-1], dims[::-1])):
            raise ValueError(f"The `mask` must be broadcastable to `inputs`. Each mask "
                             f"dimension must be 1 or match the corresponding input "
                             f"dimension. {shapes}")
        if mask.dtype != dtypes.bool_:
            mask = M.greater(mask, M.cast(0.5, mask.dtype))
        return mask

    def get_config(self):
        return {**super().get_config(), "axis": self.axis}
