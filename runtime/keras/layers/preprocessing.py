"""Keras 3's numeric preprocessing layers: ``Normalization``, ``Discretization``,
``CategoryEncoding`` and ``Hashing``.

They are compositions of ops, so they run eagerly, inside a tf.function and in a
``tf.data`` ``map``. ``Normalization.adapt`` computes Keras's statistics (NumPy's mean and
population variance for an array; Keras's running combination of batch statistics for a
dataset or an iterable of batches) into its non-trainable ``mean`` / ``variance`` weights,
which ``call`` reads, so re-adapting changes what an already traced function computes.
"""
from __future__ import annotations

import itertools
import math

import numpy as np

from graph import dtypes
from runtime.data.dataset import Dataset
from runtime.keras.backend import epsilon
from runtime.keras.layers.base import Layer
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import string_ops
from runtime.ops.core import convert_to_tensor
from runtime.tensor import Tensor


def _first(batch):
    """The input of a batch that may be ``(x, y)`` or ``(x, y, sample_weight)``."""
    return batch[0] if isinstance(batch, tuple) else batch


class Normalization(Layer):
    """``(x - mean) / max(sqrt(variance), epsilon)`` per position of the kept ``axis``
    (``invert=True``: the inverse); ``mean`` and ``variance`` are given or ``adapt``-ed."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = () if axis is None else (axis,) if isinstance(axis, int) else tuple(axis)
        self.input_mean, self.input_variance, self.invert = mean, variance, invert
        self.supports_masking = True
        self._build_input_shape = None
        if (mean is not None) != (variance is not None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError("When setting values directly, `mean` and `variance` must "
                                 f"have the same shape. Received: mean shape {np.shape(mean)} "
                                 f"and variance shape {np.shape(variance)}")
            if len(np.shape(mean)) > len(self.axis):
                raise ValueError("The rank of `mean` must be less than or equal to the number "
                                 f"of axes ({len(self.axis)}). Received: mean shape "
                                 f"{np.shape(mean)} for axis {self.axis}")

    def build(self, input_shape):
        if input_shape is None:
            return
        ndim = len(input_shape)
        self._build_input_shape = tuple(input_shape)
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError("All `axis` values must be in the range [-ndim, ndim). Received "
                             f"inputs with ndim={ndim}, while axis={self.axis}")
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError("All `axis` values to be kept must have a known shape. "
                                 f"Received axis={self.axis}, inputs.shape={tuple(input_shape)}"
                                 f", with unknown axis at index {d}")
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1
                                 for d in range(ndim)]
        self._mean_and_var_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=self._mean_and_var_shape,
                                              initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(
                name="variance", shape=self._mean_and_var_shape, initializer="ones",
                trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64",
                                         initializer="zeros", trainable=False)
        else:
            self._fixed = tuple(self._broadcast(np.asarray(v, np.float64))
                                for v in (self.input_mean, self.input_variance))
        self.built = True

    def _broadcast(self, value: np.ndarray) -> np.ndarray:
        """A given mean / variance placed on the kept axes (trailing ones first)."""
        if value.ndim:
            expanded = [1] * len(self._broadcast_shape)
            for i in range(1, value.ndim + 1):
                expanded[self._keep_axis[-i]] = value.shape[-i]
            value = value.reshape(expanded)
        return np.broadcast_to(value, self._broadcast_shape).astype(self.dtype.numpy_dtype)

    @property
    def mean(self):
        return self._statistic(0)

    @property
    def variance(self):
        return self._statistic(1)

    def _statistic(self, i):
        if not self.built:
            return None
        if self.input_mean is not None:
            return convert_to_tensor(self._fixed[i])
        weight = self.adapt_mean if i == 0 else self.adapt_variance
        return A.reshape(weight, self._broadcast_shape)

    def adapt(self, data):
        """Computes the mean and variance of ``data`` (an array, a tensor, a batched
        dataset or an iterable of batches; an unbatched dataset of vectors is batched by 128)."""
        batches = None
        if isinstance(data, (np.ndarray, Tensor)):
            input_shape = tuple(data.shape)
        elif isinstance(data, Dataset):
            if len(_first(data.element_spec).shape) == 1:
                data = data.batch(128)
            input_shape = tuple(_first(data.element_spec).shape)
            batches = data
        elif hasattr(data, "__iter__"):
            it = iter(data)
            first = next(it, None)
            if first is None:
                raise ValueError("adapt() received an empty iterable (no batches). Expected at "
                                 "least one batch. Pass a non-empty iterable of arrays or "
                                 "tensors, e.g. layer.adapt([x]) or "
                                 "layer.adapt(list_of_batches).")
            first = _first(first)
            input_shape = tuple(first.shape)
            batches = itertools.chain([first], it)
        else:
            raise TypeError(f"Unsupported data type: {type(data)}. `adapt` supports "
                            "`np.ndarray`, backend tensors, `tf.data.Dataset`, "
                            "`keras.utils.PyDataset`, and iterables of batches (e.g. list, "
                            "generator).")
        input_shape = tuple(None if d is None else int(d) for d in input_shape)
        if not self.built:
            self.build(input_shape)
        elif any(input_shape[d] != self._build_input_shape[d] for d in self._keep_axis):
            raise ValueError(f"The layer was built with input_shape={self._build_input_shape}, "
                             "but adapt() is being called with data with an incompatible "
                             f"shape, data.shape={input_shape}")
        if batches is None:
            values = np.asarray(data)
            mean = np.mean(values, axis=self._reduce_axis)
            var = np.var(values, axis=self._reduce_axis)
        else:
            mean, var = self._running_moments(batches)
        self.adapt_mean.assign(np.asarray(mean, self.dtype.numpy_dtype))
        self.adapt_variance.assign(np.asarray(var, self.dtype.numpy_dtype))

    def _running_moments(self, batches):
        """Keras's combination of per-batch mean and variance, weighted by element counts."""
        mean = np.zeros(self._mean_and_var_shape, np.float32)
        var = np.zeros(self._mean_and_var_shape, np.float32)
        total = 0
        for batch in batches:
            batch = np.asarray(_first(batch), self.dtype.numpy_dtype)
            for d in self._keep_axis:
                if batch.shape[d] != self._build_input_shape[d]:
                    raise ValueError(f"adapt() yielded a batch with incompatible shape. "
                                     f"Expected {self._build_input_shape}, got {batch.shape}.")
            batch_mean = np.mean(batch, axis=self._reduce_axis)
            batch_var = np.var(batch, axis=self._reduce_axis)
            count = math.prod(batch.shape[d] for d in self._reduce_axis)
            total += count
            w = np.float32(count / total)
            new_mean = mean * (1 - w) + batch_mean * w
            var = (var + (mean - new_mean) ** 2) * (1 - w) + \
                (batch_var + (batch_mean - new_mean) ** 2) * w
            mean = new_mean
        return mean, var

    def call(self, inputs):
        if not self.built:
            raise ValueError("You must call `.build(input_shape)` on the layer before using it.")
        inputs = convert_to_tensor(inputs)
        if inputs.dtype != self.dtype:
            inputs = M.cast(inputs, self.dtype)
        mean, variance = self.mean, self.variance
        scale = M.maximum(M.sqrt(variance), M.cast(epsilon(), self.dtype))
        if self.invert:
            return M.add(mean, M.multiply(inputs, scale))
        return M.divide(M.subtract(inputs, mean), scale)

    def get_config(self):
        config = super().get_config()
        config.update(axis=self.axis, invert=self.invert,
                      mean=_listed(self.input_mean), variance=_listed(self.input_variance))
        return config


def _listed(value):
    return np.asarray(value).tolist() if value is not None else None


def encode_categorical(inputs, output_mode, depth, dtype):
    """Keras's encoding of integer indices: ``int`` (a cast), ``one_hot`` (a trailing axis
    of 1 replaced), or ``multi_hot`` / ``count`` over the last axis of a batch (over all of
    a vector); indices outside ``[0, depth)`` count for nothing."""
    if output_mode == "int":
        return M.cast(inputs, dtype)
    if not inputs.dtype.is_integer:  # (float indices are truncated, as Keras casts them)
        inputs = M.cast(inputs, dtypes.int64)
    if inputs.shape.rank == 0:
        inputs = A.expand_dims(inputs, -1)
    if output_mode == "one_hot":
        shape = inputs.shape.as_list()
        if len(shape) > 1 and shape[-1] == 1:
            inputs = A.squeeze(inputs, [-1])
        return A.one_hot(inputs, depth, dtype=dtype)
    encoded = A.one_hot(inputs, depth, dtype=dtype)
    axis = 1 if inputs.shape.rank > 1 else 0
    if output_mode == "multi_hot":
        return M.reduce_max(encoded, axis=axis)
    return M.reduce_sum(encoded, axis=axis)


class CategoryEncoding(Layer):
    """Integer category indices below ``num_tokens`` as ``one_hot``, ``multi_hot`` or
    ``count`` vectors (``count_weights`` weight each index in ``"count"`` mode)."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode not in ("count", "one_hot", "multi_hot"):
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of "
                             "tokens is not known beforehand, use the IntegerLookup layer "
                             "instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        if sparse:
            raise NotImplementedError("sparse=True outputs are not supported here")
        self.num_tokens, self.output_mode, self.sparse = num_tokens, output_mode, sparse

    def call(self, inputs, count_weights=None):
        inputs = convert_to_tensor(inputs)
        if count_weights is None:
            return encode_categorical(inputs, self.output_mode, self.num_tokens, self.dtype)
        if self.output_mode != "count":
            raise ValueError("`count_weights` is not used when `output_mode` is not "
                             f"`'count'`. Received `count_weights={count_weights}`.")
        weights = M.cast(convert_to_tensor(count_weights), self.dtype)
        if inputs.shape.rank == 0:
            inputs, weights = A.expand_dims(inputs, -1), A.expand_dims(weights, -1)
        encoded = M.multiply(A.one_hot(inputs, self.num_tokens, dtype=self.dtype),
                             A.expand_dims(weights, -1))
        return M.reduce_sum(encoded, axis=1 if inputs.shape.rank > 1 else 0)

    def get_config(self):
        config = super().get_config()
        config.update(num_tokens=self.num_tokens, output_mode=self.output_mode)
        return config


def _check_output_mode(output_mode, sparse):
    if output_mode not in ("int", "one_hot", "multi_hot", "count"):
        return False
    if sparse and output_mode == "int":
        raise ValueError("`sparse=True` may only be used if `output_mode` is `'one_hot'`, "
                         f"`'multi_hot'`, or `'count'`. Received: sparse={sparse} and "
                         f"output_mode={output_mode}")
    if sparse:
        raise NotImplementedError("sparse=True outputs are not supported here")
    return True


def _summary(values, epsilon):
    """A quantile summary of values (Keras's): every ``step``-th sorted value with weight
    ``step``, ``step`` chosen so that about ``1 / epsilon`` values remain."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(np.size(values) / (1.0 / epsilon), 1)
    kept = values[int(step - 1)::int(step)]
    return np.stack([kept, np.ones_like(kept) * step])


def _compress(summary, epsilon):
    """The summary resampled at the cumulative-weight fractions ``epsilon, 2 epsilon, ...``."""
    if summary.shape[1] * epsilon < 1:
        return summary
    fractions = epsilon + np.arange(0.0, 1.0, epsilon)
    cumulative = summary[1].cumsum()
    at = cumulative / cumulative[-1]
    bins = np.interp(fractions, at, summary[0])
    cumulative = np.interp(fractions, at, cumulative)
    weights = cumulative - np.concatenate((np.array([0]), cumulative[:-1]))
    return np.stack((bins, weights)).astype("float32")


class Discretization(Layer):
    """Bucket indices of ``bin_boundaries`` (``b[i-1] <= x < b[i]`` is bucket ``i``), or of
    ``num_bins`` quantile boundaries learned by ``adapt`` (Keras's approximate quantiles,
    accurate to ``epsilon``)."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if not _check_output_mode(output_mode, sparse):
            raise ValueError(f"Unknown value for `output_mode` argument of Discretization. "
                             "Allowed values are: ('int', 'one_hot', 'multi_hot', 'count'). "
                             f"Received: output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError(f"`num_bins` must be greater than or equal to 0. Received: "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError(f"Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries, self.num_bins, self.epsilon = bin_boundaries, num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self.summary = None if bin_boundaries else np.array([[], []], dtype="float32")

    def adapt(self, data, steps=None):
        """Learns ``num_bins`` quantile boundaries from an array, a tensor, a dataset or an
        iterable of batches."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        self.summary = np.array([[], []], dtype="float32")
        if isinstance(data, Dataset) and steps is not None:
            data = data.take(steps)
        batches = [data] if isinstance(data, (np.ndarray, Tensor)) else data
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            merged = np.concatenate((_summary(np.array(batch).astype("float32"),
                                              self.epsilon), self.summary), axis=1)
            merged = np.take(merged, np.argsort(merged[0]), axis=1)
            self.summary = _compress(merged, self.epsilon)
        self.bin_boundaries = _compress(self.summary, 1.0 / self.num_bins)[0, :-1].tolist()

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can "
                             "start using the `Discretization` layer.")
        inputs = convert_to_tensor(inputs)
        if not inputs.dtype.is_floating:  # (Bucketize compares integers as floats)
            inputs = M.cast(inputs, dtypes.float32)
        boundaries = np.asarray(self.bin_boundaries, inputs.dtype.numpy_dtype)
        flat = A.reshape(inputs, [1, -1])
        indices = A.reshape(A.searchsorted(boundaries[None], flat, side="right"),
                            A.shape(inputs))
        return encode_categorical(indices, self.output_mode, len(self.bin_boundaries) + 1,
                                  dtypes.int32 if self.output_mode == "int" else self.dtype)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name,
                "dtype": self.dtype.name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        boundaries = config.pop("bin_boundaries", None)
        if boundaries is not None and config.get("num_bins") is not None:
            layer = cls(**config)
            layer.bin_boundaries = boundaries
            return layer
        return cls(bin_boundaries=boundaries, **config)


class Hashing(Layer):
    """Values hashed into ``num_bins`` bins: FarmHash of their text (``to_hash_bucket_fast``;
    with ``salt``, the keyed ``to_hash_bucket_strong``), TensorFlow's bin numbers;
    ``mask_value`` goes to bin 0 and the others to ``1..num_bins-1``."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        if output_mode == "int" and self.dtype.name not in ("int32", "int64"):
            raise ValueError("When `output_mode=\"int\"`, `dtype` should be an integer type, "
                             f"'int32' or 'in64'. Received: dtype={kwargs['dtype']}")
        if not _check_output_mode(output_mode, sparse):
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             "('int', 'one_hot', 'multi_hot', 'count'). Received: "
                             f"output_mode={output_mode}")
        self.num_bins, self.mask_value, self.output_mode, self.sparse = \
            num_bins, mask_value, output_mode, sparse
        self.strong_hash = salt is not None
        if salt is None or (isinstance(salt, (tuple, list)) and len(salt) == 2):
            self.salt = None if salt is None else list(salt)
        elif isinstance(salt, int):
            self.salt = [salt, salt]
        else:
            raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size 2 "
                             f"integers, or a single integer. Received: salt={salt}.")

    def _convert_input(self, x):
        return convert_to_tensor(x) if isinstance(x, (np.ndarray, np.generic, str, bytes, int,
                                                      float)) else x

    def call(self, inputs):
        inputs = convert_to_tensor(inputs)
        if self.output_mode == "one_hot" and inputs.shape.rank and \
                inputs.shape.as_list()[-1] == 1:
            inputs = A.squeeze(inputs, [-1])
        return encode_categorical(self._bins(inputs), self.output_mode, self.num_bins,
                                  self.dtype)

    def _bins(self, values):
        bins, mask = self.num_bins, None
        if self.mask_value is not None and bins > 1:
            bins -= 1
            mask = M.equal(values, convert_to_tensor(self.mask_value, values.dtype))
        if values.dtype.is_floating:
            values = M.cast(values, dtypes.int64)
        if values.dtype != dtypes.string:
            values = string_ops.as_string(values)
        if self.strong_hash:
            hashed = string_ops.to_hash_bucket_strong(values, bins, self.salt)
        else:
            hashed = string_ops.to_hash_bucket_fast(values, bins)
        if mask is not None:
            hashed = M.where(mask, np.int64(0), M.add(hashed, np.int64(1)))
        return hashed

    def get_config(self):
        config = super().get_config()
        config.update(num_bins=self.num_bins, salt=self.salt, mask_value=self.mask_value,
                      output_mode=self.output_mode, sparse=self.sparse)
        return config
