"""Small Keras 3 layers: ``Dot``, ``UnitNormalization``, ``GroupNormalization``,
``ActivityRegularization`` and ``AdditiveAttention`` — compositions of ops, so gradients
come from the ops."""
from __future__ import annotations

from runtime.keras import initializers, regularizers
from runtime.keras.array_utils import normalize_tensor
from runtime.keras.layers.attention import Attention
from runtime.keras.layers.base import Layer
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import nn_ops


def batch_dot(x, y, axes):
    """Keras's ``batch_dot``: per sample, ``x`` contracted with ``y`` along ``axes`` (neither
    the batch axis); the result holds ``x``'s other axes, then ``y``'s (two vectors per
    sample give shape ``(batch, 1)``)."""
    x_rank, y_rank = x.shape.rank, y.shape.rank
    if x_rank < 2 or y_rank < 2:
        raise ValueError(f"Cannot do batch_dot on inputs with rank < 2. Received inputs with "
                         f"shapes {tuple(x.shape.as_list())} and {tuple(y.shape.as_list())}.")
    a0, a1 = axes[0] % x_rank, axes[1] % y_rank
    if 0 in (a0, a1):
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "keras.ops.expand_dims(x, 0)")
    d1, d2 = x.shape.as_list()[a0], y.shape.as_list()[a1]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with shapes "
                         f"{tuple(x.shape.as_list())} and {tuple(y.shape.as_list())} with "
                         f"axes={[a0, a1]}. x.shape[{a0}] != y.shape[{a1}] ({d1} != {d2}).")
    x_rest = [d for d in range(1, x_rank) if d != a0]
    y_rest = [d for d in range(1, y_rank) if d != a1]
    x_shape, y_shape = A.shape(x), A.shape(y)
    x = A.transpose(x, [0] + x_rest + [a0])
    y = A.transpose(y, [0, a1] + y_rest)
    x = A.reshape(x, A.stack([x_shape[0], -1, x_shape[a0]]))
    y = A.reshape(y, A.stack([y_shape[0], y_shape[a1], -1]))
    out = M.matmul(x, y)
    if not x_rest and not y_rest:
        return A.reshape(out, [-1, 1])
    shape = [x_shape[0]] + [x_shape[d] for d in x_rest] + [y_shape[d] for d in y_rest]
    return A.reshape(out, A.stack(shape))


class Dot(Layer):
    """The dot product of two inputs along ``axes`` (cosine similarity if ``normalize``)."""

    supports_masking = True

    def __init__(self, axes, normalize=False, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(axes, int):
            if not isinstance(axes, (list, tuple)):
                raise TypeError(f"Invalid type for argument `axes`: it should be a list or an "
                                f"int. Received: axes={axes}")
            if len(axes) != 2:
                raise ValueError(f"Invalid format for argument `axes`: it should contain two "
                                 f"elements. Received: axes={axes}")
            if not isinstance(axes[0], int) or not isinstance(axes[1], int):
                raise ValueError(f"Invalid format for argument `axes`: list elements should be "
                                 f"integers. Received: axes={axes}")
        self.axes, self.normalize = axes, normalize

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) != 2 or \
                not isinstance(input_shape[0], (tuple, list)):
            raise ValueError(f"A `Dot` layer should be called on a list of 2 inputs. "
                             f"Received: input_shape={input_shape}")
        shape1, shape2 = input_shape
        axes = self._axes(len(shape1), len(shape2))
        if shape1[axes[0]] != shape2[axes[1]]:
            raise ValueError(f"Incompatible input shapes: axis values {shape1[axes[0]]} (at "
                             f"axis {axes[0]}) != {shape2[axes[1]]} (at axis {axes[1]}). Full "
                             f"input shapes: {tuple(shape1)}, {tuple(shape2)}")

    def _axes(self, rank1, rank2):
        if isinstance(self.axes, int):
            return [self.axes % rank1, self.axes % rank2] if self.axes < 0 else [self.axes] * 2
        return [a % r if a < 0 else a for a, r in zip(self.axes, (rank1, rank2))]

    def call(self, inputs):
        if len(inputs) != 2:
            raise ValueError(f"A `Dot` layer should be called on exactly 2 inputs. Received: "
                             f"inputs={inputs}")
        x1, x2 = inputs
        axes = self._axes(x1.shape.rank, x2.shape.rank)
        if self.normalize:
            x1, x2 = normalize_tensor(x1, axes[0]), normalize_tensor(x2, axes[1])
        return batch_dot(x1, x2, axes)

    def compute_mask(self, inputs, mask=None):
        return None

    def get_config(self):
        config = super().get_config()
        config.update(axes=self.axes, normalize=self.normalize)
        return config


class UnitNormalization(Layer):
    """Each sample scaled to unit L2 norm along ``axis``."""

    supports_masking = True

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError(f"Invalid value for `axis` argument: expected an int or a list/tuple"
                            f" of ints. Received: axis={axis}")

    def call(self, inputs):
        return normalize_tensor(inputs, self.axis, 2, 1e-12)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis)
        return config


class ActivityRegularization(Layer):
    """The identity, adding ``l1 * sum|x| + l2 * sum x²`` (per sample) to the losses."""

    supports_masking = True

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.l1, self.l2 = l1, l2

    def call(self, inputs):
        return inputs

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update(l1=self.l1, l2=self.l2)
        return config


class GroupNormalization(Layer):
    """Normalization over groups of channels of each sample (``groups=-1``: one channel per
    group, instance normalization), then a per-channel ``gamma`` and ``beta``."""

    supports_masking = True

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        if beta_constraint is not None or gamma_constraint is not None:
            raise NotImplementedError("weight constraints are not supported here")
        self.groups, self.axis, self.epsilon = groups, axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.gamma = self.beta = None

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined dimension "
                             f"but the layer received an input with shape {input_shape}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number "
                             f"of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({dim}).")
        if self.scale:
            self.gamma = self.add_weight(shape=(dim,), name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer)
        if self.center:
            self.beta = self.add_weight(shape=(dim,), name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer)
        self.built = True

    def call(self, inputs):
        rank = inputs.shape.rank
        axis = self.axis % rank
        static, dynamic = inputs.shape.as_list(), A.shape(inputs)
        grouped = [-1] + [dynamic[i] if static[i] is None else static[i]
                          for i in range(1, rank)]
        grouped[axis] = static[axis] // self.groups
        grouped.insert(axis, self.groups)
        x = A.reshape(inputs, A.stack(grouped) if any(
            not isinstance(d, int) for d in grouped) else grouped)
        reduce_axes = [d for d in range(1, rank + 1) if d != axis]
        broadcast = [1] * rank
        broadcast[axis] = static[axis] // self.groups
        broadcast.insert(axis, self.groups)
        mean, variance = nn_ops.moments(x, reduce_axes, keepdims=True)
        inv = M.rsqrt(M.add(variance, M.cast(self.epsilon, x.dtype)))
        if self.scale:
            inv = M.multiply(inv, M.cast(A.reshape(self.gamma, broadcast), x.dtype))
        shift = M.multiply(M.negative(mean), inv)
        if self.center:
            shift = M.add(shift, M.cast(A.reshape(self.beta, broadcast), x.dtype))
        return A.reshape(M.add(M.multiply(x, inv), shift), dynamic)

    def get_config(self):
        config = super().get_config()
        config.update(groups=self.groups, axis=self.axis, epsilon=self.epsilon,
                      center=self.center, scale=self.scale,
                      beta_initializer=initializers.serialize(self.beta_initializer),
                      gamma_initializer=initializers.serialize(self.gamma_initializer),
                      beta_regularizer=regularizers.serialize(self.beta_regularizer),
                      gamma_regularizer=regularizers.serialize(self.gamma_regularizer),
                      beta_constraint=None, gamma_constraint=None)
        return config


class AdditiveAttention(Attention):
    """Bahdanau attention: scores ``sum(scale * tanh(query + key), -1)``, ``scale`` a
    trainable per-feature vector (glorot-uniform) when ``use_scale``."""

    def __init__(self, use_scale=True, dropout=0.0, **kwargs):
        super().__init__(use_scale=use_scale, dropout=dropout, **kwargs)

    def build(self, input_shape):
        if not isinstance(input_shape, (list, tuple)) or len(input_shape) not in (2, 3):
            raise ValueError("AdditiveAttention layer must be called on a list of inputs, "
                             "namely [query, value] or [query, value, key]. Received: "
                             f"input_shape={input_shape}.")
        self.scale = self.add_weight(name="scale", shape=[input_shape[0][-1]],
                                     initializer="glorot_uniform") if self.use_scale else None
        self.built = True

    def _scores(self, query, key):
        tanh = M.tanh(M.add(A.expand_dims(query, -2), A.expand_dims(key, -3)))
        return M.reduce_sum(tanh if self.scale is None else M.multiply(self.scale, tanh),
                            axis=-1)

    def get_config(self):
        config = super().get_config()
        del config["score_mode"]
        config.setdefault("seed", self.seed)
        return config
