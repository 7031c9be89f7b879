"""Attention layers: EinsumDense, Attention (dot-product / concat scores) and
MultiHeadAttention, as Keras 3 computes them (masks: True/1 = attend)."""
from __future__ import annotations

import math
import string

from graph import dtypes
from runtime.keras import activations, initializers, random as keras_random
from runtime.keras.layers.activation import Softmax
from runtime.keras.layers.base import Layer, _set_keras_mask, get_keras_mask
from runtime.keras.layers.core import Dropout, stored_as
from runtime.ops import array_ops as A, math_ops as M, nn_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.linalg_ops import einsum
from runtime.ops.special_ops import cumsum


class EinsumDense(Layer):
    """``einsum(equation, inputs, kernel) + bias``: the kernel's axes not in the inputs take
    their sizes from ``output_shape`` (the output's shape without the batch axis)."""

    kernel = stored_as("_kernel")

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros", **kwargs):
        super().__init__(**kwargs)
        self.equation = equation
        self.partial_output_shape = [output_shape] if isinstance(output_shape, int) \
            else list(output_shape)
        self.activation = activations.get(activation)
        self.bias_axes = bias_axes
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel = self.bias = None

    def build(self, input_shape):
        inputs_spec, rest = self.equation.split(",")
        kernel_spec, output_spec = rest.split("->")
        output_shape = [input_shape[0]] + self.partial_output_shape
        if len(output_shape) != len(output_spec):
            raise ValueError(f"Output shape {self.partial_output_shape} does not match the "
                             f"equation {self.equation!r}")
        sizes = {c: output_shape[i] for i, c in enumerate(output_spec)}
        sizes.update({c: input_shape[i] for i, c in enumerate(inputs_spec)})
        self.kernel = self.add_weight(shape=tuple(sizes[c] for c in kernel_spec),
                                      initializer=self._kernel_initializer_for(
                                          kernel_spec, output_spec),
                                      name="kernel")
        if self.bias_axes:
            first = min(output_spec.find(c) for c in self.bias_axes)
            shape = tuple(sizes[c] if c in self.bias_axes else 1 for c in output_spec[first:])
            self.bias = self.add_weight(shape=shape, initializer=self.bias_initializer,
                                        name="bias")
        self.built = True

    def _kernel_initializer_for(self, kernel_spec: str, output_spec: str):
        """As Keras 3: a VarianceScaling initializer without fan axes is cloned (with the seed
        it drew) to measure its fans over the kernel's output axes (those in the output) and
        input axes (the others), not over the last two axes."""
        init = self.kernel_initializer
        if not isinstance(init, initializers.VarianceScaling) or \
                (init.input_axes is not None and init.output_axes is not None):
            return init
        output_axes = [i for i, c in enumerate(kernel_spec) if c in output_spec]
        input_axes = [i for i, c in enumerate(kernel_spec) if c not in output_spec]
        return type(init).from_config({**init.get_config(), "seed": init.seed,
                                       "input_axes": input_axes, "output_axes": output_axes})

    def call(self, inputs):
        y = einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            y = M.add(y, self.bias)
        return self.activation(y)


def _causal_mask(query_length, value_length):
    """``[1, T, S]``: position t attends to positions s <= t."""
    ones = A.ones(A.stack([query_length, value_length]), dtype=dtypes.int32)
    rows, cols = cumsum(ones, axis=0), cumsum(ones, axis=1)
    return A.expand_dims(M.greater_equal(rows, cols), 0)


def _both(a, b):
    return b if a is None else M.logical_and(a, b)


class Attention(Layer):
    """Dot-product (Luong) attention, or additive-style ``"concat"`` scores:
    ``softmax(scores(query, key)) @ value``, called on ``[query, value]`` or
    ``[query, value, key]``."""

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError(f"Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale, self.score_mode, self.dropout, self.seed = use_scale, score_mode, \
            dropout, seed
        if dropout > 0:
            self.seed_generator = keras_random.SeedGenerator(seed)
        self.scale = self.concat_score_weight = None

    def build(self, input_shape):
        if self.use_scale:
            self.scale = self.add_weight(shape=(), initializer="ones", name="scale")
        if self.score_mode == "concat":
            self.concat_score_weight = self.add_weight(shape=(), initializer="ones",
                                                       name="concat_score_weight")
        self.built = True

    def _scores(self, query, key):
        if self.score_mode == "dot":
            scores = M.matmul(query, key, transpose_b=True)
            return scores if self.scale is None else M.multiply(scores, self.scale)
        summed = M.add(A.expand_dims(query, -2), A.expand_dims(key, -3))
        if self.scale is not None:
            summed = M.multiply(self.scale, summed)
        return M.multiply(self.concat_score_weight, M.reduce_sum(M.tanh(summed), axis=-1))

    def compute_mask(self, inputs, mask=None):
        """The query's mask (Keras 3)."""
        if mask is None or mask[0] is None:
            return None
        return convert_to_tensor(mask[0])

    def call(self, inputs, mask=None, training=False, return_attention_scores=False,
             use_causal_mask=False):
        if not isinstance(inputs, (list, tuple)) or len(inputs) not in (2, 3):
            raise ValueError(f"Attention layer must be called on a list of inputs, namely "
                             f"[query, value] or [query, value, key]. Received: {inputs}.")
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) == 3 else value
        query_mask, value_mask = (mask[0], mask[1]) if mask is not None else (None, None)
        scores = self._scores(query, key)
        scores_mask = None if value_mask is None else \
            A.expand_dims(M.cast(value_mask, dtypes.bool_), -2)
        if use_causal_mask:
            shape = A.shape(scores)
            scores_mask = _both(scores_mask, _causal_mask(shape[-2], shape[-1]))
        if scores_mask is not None:
            big = 65504.0 if scores.dtype.name == "float16" else 1.0e9
            scores = M.subtract(scores, M.multiply(
                big, M.cast(M.logical_not(scores_mask), scores.dtype)))
        weights = nn_ops.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = keras_random.dropout(weights, self.dropout, seed=self.seed_generator)
        result = M.matmul(weights, value)
        if query_mask is not None:  # (Keras selects 0 there: +0, not x * 0)
            result = M.where(A.expand_dims(M.cast(query_mask, dtypes.bool_), -1), result,
                             A.zeros([], result.dtype))
        return (result, weights) if return_attention_scores else result

    def get_config(self):
        return {**super().get_config(), "use_scale": self.use_scale,
                "score_mode": self.score_mode, "dropout": self.dropout}


class MultiHeadAttention(Layer):
    """Multi-head scaled dot-product attention over ``[batch, time, features]`` inputs, with
    projections to ``num_heads`` heads of ``key_dim`` (and ``value_dim``) and back.

    Keras masks as Keras 3 takes them: the query's own mask (an explicit ``query_mask`` is
    not used), ``value_mask``/``key_mask`` from the value's and key's masks unless given,
    all and-ed with ``attention_mask`` and the causal mask; the inputs' masks are removed
    and the output carries the query's."""

    supports_masking = True

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, **kwargs):
        super().__init__(**kwargs)
        if attention_axes is not None:
            raise NotImplementedError("MultiHeadAttention(attention_axes=...) is not supported")
        if any(x is not None for x in (kernel_regularizer, bias_regularizer,
                                       activity_regularizer, kernel_constraint,
                                       bias_constraint)):
            raise NotImplementedError("MultiHeadAttention regularizers and constraints are "
                                      "not supported")
        self.num_heads, self.key_dim = num_heads, key_dim
        self.value_dim = value_dim or key_dim
        self.dropout, self.use_bias, self.seed = dropout, use_bias, seed
        self.output_shape_arg = output_shape
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self._softmax = Softmax(axis=-1)

    def _dense(self, equation, shape, bias_axes, name):
        # A fresh clone of each initializer per projection, as Keras 3 makes them (an
        # unseeded clone draws its own seed): the projections do not start equal.
        kernel, bias = self.kernel_initializer, self.bias_initializer
        return EinsumDense(equation, output_shape=shape,
                           bias_axes=bias_axes if self.use_bias else None,
                           kernel_initializer=type(kernel).from_config(kernel.get_config()),
                           bias_initializer=type(bias).from_config(bias.get_config()), name=name)

    def build(self, query_shape, value_shape=None, key_shape=None):
        value_shape = value_shape or query_shape
        key_shape = key_shape or value_shape
        heads = self.num_heads
        self.query_dense = self._dense("abc,cde->abde", [None, heads, self.key_dim], "de",
                                       "query")
        self.query_dense.build(query_shape)
        self.key_dense = self._dense("abc,cde->abde", [None, heads, self.key_dim], "de", "key")
        self.key_dense.build(key_shape)
        self.value_dense = self._dense("abc,cde->abde", [None, heads, self.value_dim], "de",
                                       "value")
        self.value_dense.build(value_shape)
        self._dropout_layer = Dropout(self.dropout, seed=self.seed)  # (Keras 3's order)
        out = self.output_shape_arg or query_shape[-1]
        out = [out] if isinstance(out, int) else list(out)
        letters = string.ascii_lowercase[5:5 + len(out)]
        self.output_dense = self._dense(f"abcd,cd{letters}->ab{letters}", [None] + out,
                                        letters, "attention_output")
        self.output_dense.build(tuple(query_shape[:2]) + (heads, self.value_dim))
        self.built = True

    def __call__(self, query, value, key=None, **kwargs):
        value = self._convert_input(value)
        key = None if key is None else self._convert_input(key)
        if not self.built:  # built from all three shapes, not only the query's
            query = self._convert_input(query)
            self.build(*[None if t is None else tuple(t.shape.as_list())
                         for t in (query, value, key)])
        return super().__call__(query, value, key, **kwargs)

    def _mask(self, query, value, query_mask, value_mask, key_mask, attention_mask,
              use_causal_mask):
        auto = None
        if query_mask is not None:
            auto = A.expand_dims(M.cast(query_mask, dtypes.bool_), -1)
        for mask in (value_mask, key_mask):
            if mask is not None:
                auto = _both(auto, A.expand_dims(M.cast(mask, dtypes.bool_), -2))
        if use_causal_mask:
            auto = _both(auto, _causal_mask(A.shape(query)[1], A.shape(value)[1]))
        if auto is None:
            return attention_mask
        return auto if attention_mask is None else \
            M.logical_and(M.cast(attention_mask, dtypes.bool_), auto)

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        key = value if key is None else key
        query_mask = get_keras_mask(query)
        for tensor in (query, value, key):
            _set_keras_mask(tensor, None)
        mask = self._mask(query, value, query_mask, value_mask, key_mask, attention_mask,
                          use_causal_mask)
        scale = 1.0 / math.sqrt(float(self.key_dim))
        q, k, v = self.query_dense(query), self.key_dense(key), self.value_dense(value)
        if mask is not None:
            mask = A.expand_dims(mask, -3)
        if self.dropout > 0 or return_attention_scores:
            scores = einsum("aecd,abcd->acbe", k, M.multiply(q, scale))  # [b, h, T, S]
            scores = self._softmax(scores, mask=mask)
            dropped = self._dropout_layer(scores, training=training)
        else:  # Keras's fused dot_product_attention: a fully masked row is uniform
            logits = M.multiply(einsum("aecd,abcd->acbe", k, q), scale)
            if mask is not None:
                lowest = -0.7 * (65500.0 if logits.dtype == dtypes.float16 else 3.38953e38)
                logits = M.where(mask, logits, M.cast(lowest, logits.dtype))
            scores = dropped = nn_ops.softmax(logits, axis=-1)
        output = self.output_dense(einsum("acbe,aecd->abcd", dropped, v))
        return (output, scores) if return_attention_scores else output

    def get_config(self):
        return {**super().get_config(), "num_heads": self.num_heads, "key_dim": self.key_dim,
                "value_dim": self.value_dim, "dropout": self.dropout,
                "use_bias": self.use_bias, "output_shape": self.output_shape_arg,
                "kernel_initializer": initializers.serialize(self.kernel_initializer),
                "bias_initializer": initializers.serialize(self.bias_initializer)}
