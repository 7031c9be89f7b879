"""Keras 3's ``StringLookup`` and ``IntegerLookup``: tokens to indices (or back, ``invert``)
through a ``tf.lookup.StaticHashTable``, so they run eagerly, inside a tf.function and in a
``tf.data`` ``map``.

Indices are Keras's: ``[mask_token]`` (in ``"int"`` mode) then ``num_oov_indices`` OOV
indices, then the vocabulary. With several OOV indices an unknown string goes to
``to_hash_bucket_fast`` (FarmHash, TensorFlow's buckets) and an unknown integer to
``value mod num_oov_indices``. ``adapt`` keeps the most frequent tokens, ties broken by the
larger token first (Keras's ``lexsort``). Ragged inputs are looked up value by value.
``"tf_idf"`` weighs the counts by ``log(1 + documents / (1 + documents with the token))``
(a row of a batch is a document; the special tokens get the mean weight).
"""
from __future__ import annotations

import collections

import numpy as np

from graph import dtypes
from runtime.data.dataset import Dataset
from runtime.keras.layers.base import Layer
from runtime.keras.layers.preprocessing import encode_categorical
from runtime.lookup import KeyValueTensorInitializer, StaticHashTable
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import string_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.logging_ops import Assert
from runtime.ragged.ragged_tensor import RaggedTensor
from runtime.tensor import Tensor

_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def _tokens_of(batch) -> np.ndarray:
    """The flat values of an array, tensor or ragged tensor, as NumPy."""
    if isinstance(batch, RaggedTensor):
        batch = batch.flat_values
    if isinstance(batch, Tensor):
        batch = batch.numpy()
    return np.asarray(batch).reshape(-1)


class IndexLookup(Layer):
    """The lookup shared by ``StringLookup`` and ``IntegerLookup``."""

    def __init__(self, max_tokens, num_oov_indices, mask_token, oov_token, vocabulary_dtype,
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 sparse=False, pad_to_max_tokens=False, oov_method="floormod", name=None,
                 salt=None, **kwargs):
        if max_tokens is not None and max_tokens <= 1:
            raise ValueError(f"If set, `max_tokens` must be greater than 1. Received: "
                             f"max_tokens={max_tokens}")
        if pad_to_max_tokens and max_tokens is None:
            raise ValueError(f"If pad_to_max_tokens is True, must set `max_tokens`. "
                             f"Received: max_tokens={max_tokens}")
        if num_oov_indices < 0:
            raise ValueError(f"`num_oov_indices` must be greater than or equal to 0. "
                             f"Received: num_oov_indices={num_oov_indices}")
        if output_mode == "binary":
            output_mode = "multi_hot"
        if output_mode not in _MODES:
            raise ValueError(f"Unknown value for `output_mode` argument of "
                             f"{type(self).__name__}. Allowed values are: {_MODES}. "
                             f"Received: output_mode={output_mode}")
        if invert and output_mode != "int":
            raise ValueError(f"`output_mode` must be `'int'` when `invert` is true. "
                             f"Received: output_mode={output_mode}")
        if sparse:
            raise NotImplementedError("sparse=True outputs are not supported here")
        if idf_weights is not None and output_mode != "tf_idf":
            raise ValueError(f"`idf_weights` should only be set if `output_mode` is "
                             f"`'tf_idf'`. Received: idf_weights={idf_weights} and "
                             f"output_mode={output_mode}")
        frozen = kwargs.pop("vocabulary_size", None)
        has_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        kwargs.pop("trainable", None)
        kwargs.pop("dtype", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword argument(s): {kwargs}")
        super().__init__(name=name)
        self.invert, self.max_tokens = invert, max_tokens
        self.num_oov_indices, self.mask_token, self.oov_token = \
            num_oov_indices, mask_token, oov_token
        self.output_mode, self.sparse, self.pad_to_max_tokens = \
            output_mode, sparse, pad_to_max_tokens
        self.vocabulary_dtype = dtypes.as_dtype(vocabulary_dtype).name
        self.oov_method, self.salt = oov_method, salt
        self._frozen_vocab_size = frozen
        self.input_vocabulary = vocabulary if not isinstance(vocabulary, str) else None
        self._has_input_vocabulary = has_vocabulary
        vocab_dtype = dtypes.as_dtype(vocabulary_dtype)
        if invert:
            self._key_dtype, self._value_dtype = dtypes.int64, vocab_dtype
            self._default_value = oov_token
        else:
            self._key_dtype, self._value_dtype = vocab_dtype, dtypes.int64
            self._default_value = self._oov_start_index() if num_oov_indices == 1 else -1
        self._tokens = np.array([], vocab_dtype.numpy_dtype)
        self.lookup_table = self._table(self._tokens)
        self.input_idf_weights, self.idf_weights = idf_weights, None
        if output_mode == "tf_idf" and has_vocabulary and idf_weights is None:
            raise ValueError("When specifying the `vocabulary` argument, in TF-IDF output mode, "
                             "the `idf_weights` argument must also be provided.")
        if vocabulary is not None:
            self.set_vocabulary(vocabulary, idf_weights)

    # -- indices --------------------------------------------------------------------------
    def _oov_start_index(self) -> int:
        return 1 if self.mask_token is not None and self.output_mode == "int" else 0

    def _token_start_index(self) -> int:
        return self._oov_start_index() + self.num_oov_indices

    def _table(self, tokens: np.ndarray) -> StaticHashTable:
        start = self._token_start_index()
        indices = np.arange(start, start + len(tokens), dtype=np.int64)
        keys, values = (indices, tokens) if self.invert else (tokens, indices)
        return StaticHashTable(KeyValueTensorInitializer(keys, values, self._key_dtype,
                                                         self._value_dtype),
                               self._default_value)

    def vocabulary_size(self) -> int:
        """The number of indices, the mask and OOV ones included."""
        return len(self._tokens) + self._token_start_index()

    def get_vocabulary(self, include_special_tokens=True) -> list:
        tokens = [self._python_token(t) for t in self._tokens]
        if not include_special_tokens:
            return tokens
        special = [self.oov_token] * self._token_start_index()
        if self.mask_token is not None and self.output_mode == "int":
            special[0] = self.mask_token
        return special + tokens

    def _python_token(self, token):
        """A token as Keras lists it: a NumPy string or integer."""
        if isinstance(token, bytes):
            return np.str_(token.decode("utf-8"))
        return np.dtype(self.vocabulary_dtype).type(token)

    def set_vocabulary(self, vocabulary, idf_weights=None) -> None:
        """Sets the tokens; a vocabulary that starts with the special tokens keeps them."""
        if self.output_mode == "tf_idf" and idf_weights is None:
            raise ValueError("`idf_weights` must be set if output_mode is 'tf_idf'.")
        if self.output_mode != "tf_idf" and idf_weights is not None:
            raise ValueError(f"`idf_weights` should only be set if output_mode is `'tf_idf'`. "
                             f"Received: output_mode={self.output_mode} and "
                             f"idf_weights={idf_weights}")
        if isinstance(vocabulary, str):
            raise NotImplementedError("a vocabulary file is not supported here: read it into "
                                      "a list first")
        if isinstance(vocabulary, Tensor):
            vocabulary = vocabulary.numpy()
        vocabulary = np.array(vocabulary)
        if vocabulary.size == 0:
            raise ValueError(f"Cannot set an empty vocabulary. Received: vocabulary={vocabulary}")
        if vocabulary.dtype.kind == "S":
            vocabulary = np.array([t.decode("utf-8") for t in vocabulary])
        token_start = self._token_start_index()
        special = [self.mask_token] * self._oov_start_index() + \
            [self.oov_token] * self.num_oov_indices
        found_special = np.array_equal(special, vocabulary[:token_start])
        tokens = vocabulary[token_start:] if found_special else vocabulary
        repeated = [t for t, n in collections.Counter(tokens).items() if n > 1]
        if repeated:
            raise ValueError("The passed vocabulary has at least one repeated term. Please "
                             f"uniquify your dataset. The repeated terms are: {repeated}")
        for what, token in (("mask", self.mask_token),
                            ("OOV", self.oov_token if self.invert else None)):
            if token is not None and token in tokens:
                index = np.argwhere(vocabulary == token)[-1]
                raise ValueError(
                    f"Found reserved {what} token at unexpected location in `vocabulary`. Note "
                    "that passed `vocabulary` does not need to include the OOV and mask tokens."
                    " Either remove all mask and OOV tokens, or include them only at the start "
                    f"of the vocabulary in precisely this order: {special}. Received: "
                    f"{'mask' if what == 'mask' else 'oov'}_token={token} at vocabulary index "
                    f"{index}")
        if self.max_tokens is not None and token_start + len(tokens) > self.max_tokens:
            raise ValueError(f"Attempted to set a vocabulary larger than the maximum vocab "
                             f"size. Received vocabulary size is {token_start + len(tokens)}; "
                             f"`max_tokens` is {self.max_tokens}.")
        self._set_tokens(tokens)
        if idf_weights is not None:
            idf_weights = np.asarray(idf_weights.numpy() if isinstance(idf_weights, Tensor)
                                     else idf_weights)
            if len(vocabulary) != len(idf_weights):
                raise ValueError(f"`idf_weights` must be the same length as vocabulary. "
                                 f"len(idf_weights) is {len(idf_weights)}; len(vocabulary) is "
                                 f"{len(vocabulary)}")
            if idf_weights.ndim != 1:
                raise ValueError(f"TF-IDF data must be a 1-index array. Received: "
                                 f"type(idf_weights)={type(idf_weights)}")
            front = 0 if found_special else token_start
            self._set_idf(idf_weights, front, np.average(idf_weights))

    def _set_tokens(self, tokens) -> None:
        self._tokens = np.asarray(tokens, dtypes.as_dtype(self.vocabulary_dtype).numpy_dtype)
        if self.vocabulary_dtype == "string":
            self._tokens = np.array([t.encode("utf-8") if isinstance(t, str) else t
                                     for t in tokens], object)
        self.lookup_table = self._table(self._tokens)
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size not in (None, self.vocabulary_size()):
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "the vocabulary size cannot be changed after the layer is called. Old vocab "
                f"size is {self._frozen_vocab_size}, new vocab size is "
                f"{self.vocabulary_size()}")
        self._frozen_vocab_size = self.vocabulary_size()

    def _set_idf(self, weights, front: int, front_value) -> None:
        """The per-index weights: ``front`` special indices get ``front_value``, and with
        ``pad_to_max_tokens`` the unused indices up to ``max_tokens`` get 0."""
        back = self.max_tokens - front - len(weights) \
            if self.pad_to_max_tokens and self.max_tokens is not None else 0
        self.idf_weights = np.pad(weights, (front, back), "constant",
                                  constant_values=(front_value, 0)).astype(np.float32)

    # -- adapt ----------------------------------------------------------------------------
    def adapt(self, data, steps=None) -> None:
        """The vocabulary from the token frequencies in ``data`` (an array, a tensor, a
        dataset or an iterable of batches)."""
        if self._has_input_vocabulary:
            raise ValueError(f"Cannot adapt layer '{self.name}' after setting a static "
                             "vocabulary via `vocabulary` argument or `set_vocabulary()` "
                             "method.")
        if isinstance(data, RaggedTensor):
            batches = [data]
        elif isinstance(data, (list, tuple, np.ndarray, Tensor)):
            data = np.asarray(data.numpy() if isinstance(data, Tensor) else data)
            batches = [data.reshape(-1, 1) if data.ndim == 1 else data]  # (one per document)
        else:
            batches = data.take(steps) if isinstance(data, Dataset) and steps is not None \
                else data
        counts: collections.Counter = collections.Counter()
        documents: collections.Counter = collections.Counter()
        num_documents = 0
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            counts.update(self._token_list(_tokens_of(batch)))
            if self.output_mode == "tf_idf":
                rows = _rows(batch)
                num_documents += len(rows)
                for row in rows:
                    documents.update(set(self._token_list(row)))
        for special in (self.mask_token, self.oov_token):
            if special is not None:
                counts.pop(special.encode("utf-8") if isinstance(special, str) else special,
                           None)
        if not counts:
            return
        tokens = list(counts)
        if self.vocabulary_dtype == "string":
            token_array = np.array(tokens, dtype=object).astype(bytes)
        else:
            token_array = np.array(tokens)
        order = np.lexsort((token_array, np.array([counts[t] for t in tokens])))[::-1]
        if self.max_tokens:
            order = order[:self.max_tokens - self._token_start_index()]
        kept = [tokens[i] for i in order]
        self._set_tokens(kept)
        if self.output_mode == "tf_idf":
            idf = np.log(1 + num_documents / (1 + np.array([documents[t] for t in kept],
                                                           np.float64))).astype(np.float32)
            self._set_idf(idf, self._token_start_index(), np.mean(idf))

    def _token_list(self, values) -> list:
        values = values.tolist() if isinstance(values, np.ndarray) else list(values)
        if self.vocabulary_dtype == "string":
            return [v.encode("utf-8") if isinstance(v, str) else v for v in values]
        return values

    # -- call -----------------------------------------------------------------------------
    def _convert_input(self, x):
        # (no cast to the layer's float dtype: the keys are converted in call)
        return convert_to_tensor(x) if isinstance(x, (np.ndarray, np.generic, str, bytes, int)) \
            else x

    def call(self, inputs):
        if self.output_mode != "int" and not self.pad_to_max_tokens and \
                self._frozen_vocab_size is None:
            raise RuntimeError(
                f"When using `output_mode={self.output_mode}` and `pad_to_max_tokens=False`, "
                "you must set the layer's vocabulary before calling it. Either pass a "
                "`vocabulary` argument to the layer, or call `adapt` with some sample data.")
        if isinstance(inputs, RaggedTensor):
            lookups = inputs.with_flat_values(self._lookup_dense(self._keys(inputs.flat_values)))
            if self.output_mode == "int":
                return lookups
            lookups = lookups.to_tensor(default_value=np.int64(-1))  # (-1 encodes to nothing)
            return self._encode(lookups)
        inputs = self._keys(inputs)
        scalar = inputs.shape.rank == 0
        if scalar:
            inputs = A.expand_dims(inputs, -1)
        lookups = self._lookup_dense(inputs)
        if self.output_mode == "int":
            return A.squeeze(lookups, [-1]) if scalar else lookups
        return self._encode(lookups)

    def _encode(self, lookups):
        if self.output_mode != "tf_idf":
            return encode_categorical(lookups, self.output_mode, self._depth(), dtypes.int64)
        if self.idf_weights is None:
            raise ValueError("When `output_mode` is `'tf_idf'`, `idf_weights` must be "
                             "provided.")
        counts = encode_categorical(lookups, "count", self._depth(), dtypes.int64)
        return M.multiply(M.cast(counts, dtypes.float32), self.idf_weights)

    def _depth(self) -> int:
        return self.max_tokens if self.pad_to_max_tokens else self._frozen_vocab_size

    def _keys(self, inputs):
        inputs = convert_to_tensor(inputs)
        if inputs.dtype != self._key_dtype:
            if inputs.dtype == dtypes.string or self._key_dtype == dtypes.string:
                raise TypeError(f"Layer {self.name} expects {self._key_dtype.name} inputs; "
                                f"received {inputs.dtype.name}")
            inputs = M.cast(inputs, self._key_dtype)
        return inputs

    def _lookup_dense(self, inputs):
        lookups = self.lookup_table.lookup(inputs)
        if self.mask_token is not None:
            mask_key = 0 if self.invert else self.mask_token
            mask_value = self.mask_token if self.invert else (
                0 if self.output_mode == "int" else np.iinfo(np.int64).max)
            lookups = M.where(M.equal(inputs, convert_to_tensor(mask_key, self._key_dtype)),
                              convert_to_tensor(mask_value, self._value_dtype), lookups)
        if self.invert:
            return lookups
        if self.num_oov_indices == 0:
            missing = A.boolean_mask(inputs, M.equal(lookups, -1))
            Assert(M.equal(A.size(missing), 0),
                   [string_ops.format("When `num_oov_indices=0` all inputs should be in "
                                      "vocabulary, found OOV values {}, consider setting "
                                      "`num_oov_indices=1`.", (missing,))])
        elif self.num_oov_indices > 1:
            if self._key_dtype.is_integer and self.oov_method != "farmhash":
                oov = M.floormod(inputs, convert_to_tensor(self.num_oov_indices, inputs.dtype))
                oov = M.cast(oov, dtypes.int64)
            else:
                text = string_ops.as_string(inputs) if self._key_dtype.is_integer else inputs
                oov = string_ops.to_hash_bucket_fast(text, self.num_oov_indices) \
                    if self.salt is None else string_ops.to_hash_bucket_strong(
                        text, self.num_oov_indices, self.salt)
            oov = M.add(oov, np.int64(self._oov_start_index()))
            lookups = M.where(M.equal(lookups, np.int64(self._default_value)), oov, lookups)
        return lookups

    def get_config(self):
        config = super().get_config()
        config.update(invert=self.invert, max_tokens=self.max_tokens,
                      num_oov_indices=self.num_oov_indices, oov_token=self.oov_token,
                      mask_token=self.mask_token, output_mode=self.output_mode,
                      sparse=self.sparse, pad_to_max_tokens=self.pad_to_max_tokens,
                      vocabulary_dtype=self.vocabulary_dtype,
                      idf_weights=_listed(self.input_idf_weights),
                      vocabulary=_listed(self.input_vocabulary),
                      vocabulary_size=self._frozen_vocab_size, oov_method=self.oov_method,
                      salt=self.salt)
        return config


def _listed(value):
    if value is None:
        return None
    if isinstance(value, Tensor):
        value = value.numpy()
    return [v.decode("utf-8") if isinstance(v, bytes) else v for v in np.asarray(value).tolist()]


def _rows(batch) -> list:
    """The documents of a batch for document frequencies: its rows (a vector is one)."""
    if isinstance(batch, RaggedTensor):
        return [np.asarray(row, dtype=object).reshape(-1) for row in batch.to_list()]
    values = np.asarray(batch.numpy() if isinstance(batch, Tensor) else batch)
    if values.ndim <= 1:
        return [values.reshape(-1)]
    return [row.reshape(-1) for row in values]


class StringLookup(IndexLookup):
    """Strings to integer indices (``invert=True``: indices back to strings)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token="[UNK]",
                 vocabulary=None, idf_weights=None, invert=False, output_mode="int",
                 pad_to_max_tokens=False, sparse=False, encoding="utf-8", name=None, **kwargs):
        if encoding != "utf-8":
            raise NotImplementedError("only utf-8 encoded strings are supported here")
        self.encoding = encoding
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         idf_weights=idf_weights, invert=invert, output_mode=output_mode,
                         pad_to_max_tokens=pad_to_max_tokens, sparse=sparse, name=name,
                         vocabulary_dtype="string", **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update(encoding=self.encoding)
        config.pop("vocabulary_dtype")
        return config


class IntegerLookup(IndexLookup):
    """Integers to contiguous indices (``invert=True``: indices back to the integers)."""

    def __init__(self, max_tokens=None, num_oov_indices=1, mask_token=None, oov_token=-1,
                 vocabulary=None, vocabulary_dtype="int64", idf_weights=None, invert=False,
                 output_mode="int", sparse=False, pad_to_max_tokens=False, name=None, **kwargs):
        if not dtypes.as_dtype(vocabulary_dtype).is_integer:
            raise ValueError(f"`vocabulary_dtype` must be an integer dtype. Received: "
                             f"{vocabulary_dtype}")
        super().__init__(max_tokens=max_tokens, num_oov_indices=num_oov_indices,
                         mask_token=mask_token, oov_token=oov_token, vocabulary=vocabulary,
                         vocabulary_dtype=vocabulary_dtype, idf_weights=idf_weights,
                         invert=invert, output_mode=output_mode, sparse=sparse,
                         pad_to_max_tokens=pad_to_max_tokens, name=name, **kwargs)
