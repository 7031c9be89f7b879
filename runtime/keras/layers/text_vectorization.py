"""``tf.keras.layers.TextVectorization``: strings to token indices or token counts.

Keras 3's pipeline: standardize (``tf.strings.lower``; punctuation stripped by Keras's
regular expression), split (on whitespace into a RaggedTensor, or into characters), add
n-grams joined by a space, then look the tokens up in a ``StringLookup`` whose mask token
``""`` is index 0 and ``"[UNK]"`` index 1. In ``"int"`` mode the rows are padded with 0
(and cut or padded to ``output_sequence_length``); the other modes count tokens per row.
"""
from __future__ import annotations

import numpy as np

from graph import dtypes
from runtime.data.dataset import Dataset
from runtime.keras.layers.base import Layer
from runtime.keras.layers.lookup import StringLookup
from runtime.ops import array_ops as A
from runtime.ops import string_ops
from runtime.ops.core import convert_to_tensor
from runtime.ops.unicode_ops import unicode_split
from runtime.ragged.ragged_tensor import RaggedTensor
from runtime.tensor import Tensor

STRIP_PUNCTUATION = r'[!"#$%&()\*\+,-\./:;<=>?@\[\\\]^_`{|}~\']'
_STANDARDIZE = ("lower_and_strip_punctuation", "lower", "strip_punctuation")
_SPLIT = ("whitespace", "character")
_MODES = ("int", "one_hot", "multi_hot", "count", "tf_idf")


def _check(value, allowed, arg, allow_none=True):
    if (value is None and allow_none) or callable(value) or value in allowed:
        return
    raise ValueError(f"Unknown value for `{arg}` argument of TextVectorization. Allowed values "
                     f"are: {allowed}. Received: {arg}={value}")


class TextVectorization(Layer):
    """Text to a vocabulary's token indices (``"int"``) or per-text token encodings."""

    def __init__(self, max_tokens=None, standardize="lower_and_strip_punctuation",
                 split="whitespace", ngrams=None, output_mode="int",
                 output_sequence_length=None, pad_to_max_tokens=False, vocabulary=None,
                 idf_weights=None, sparse=False, ragged=False, encoding="utf-8", name=None,
                 **kwargs):
        _check(standardize, _STANDARDIZE, "standardize")
        _check(split, _SPLIT, "split")
        output_mode = {"binary": "multi_hot", "tf-idf": "tf_idf"}.get(output_mode, output_mode)
        _check(output_mode, _MODES, "output_mode", allow_none=False)
        if not (ngrams is None or isinstance(ngrams, int) or
                isinstance(ngrams, tuple) and all(isinstance(n, int) for n in ngrams)):
            raise ValueError(f"`ngrams` must be None, an integer, or a tuple of integers. "
                             f"Received: ngrams={ngrams}")
        if output_mode == "int" and not (output_sequence_length is None or
                                         isinstance(output_sequence_length, int)):
            raise ValueError("`output_sequence_length` must be either None or an integer when "
                             "`output_mode` is 'int'. Received: "
                             f"output_sequence_length={output_sequence_length}")
        if output_mode != "int" and output_sequence_length is not None:
            raise ValueError("`output_sequence_length` must not be set if `output_mode` is not "
                             f"'int'. Received output_sequence_length={output_sequence_length}.")
        if ragged and output_mode != "int":
            raise ValueError(f"`ragged` must not be true if `output_mode` is `'int'`. "
                             f"Received: ragged={ragged} and output_mode={output_mode}")
        self._standardize, self._split, self._ngrams_arg = standardize, split, ngrams
        self._ngrams = tuple(range(1, ngrams + 1)) if isinstance(ngrams, int) else ngrams
        self._ragged, self._output_mode = ragged, output_mode
        self._output_sequence_length, self._encoding = output_sequence_length, encoding
        has_vocabulary = kwargs.pop("has_input_vocabulary", vocabulary is not None)
        vocabulary_size = kwargs.pop("vocabulary_size", None)
        kwargs.pop("dtype", None)
        super().__init__(name=name, **kwargs)
        self._lookup_layer = StringLookup(
            max_tokens=max_tokens, vocabulary=vocabulary, idf_weights=idf_weights,
            pad_to_max_tokens=pad_to_max_tokens, mask_token="", output_mode=output_mode,
            sparse=sparse, has_input_vocabulary=has_vocabulary, encoding=encoding,
            vocabulary_size=vocabulary_size)
        self.built = True

    def _convert_input(self, x):
        return x  # (strings: converted in _preprocess)

    def _preprocess(self, inputs):
        if not isinstance(inputs, (Tensor, RaggedTensor)):
            inputs = convert_to_tensor(np.asarray(inputs) if isinstance(inputs, (list, tuple))
                                       else inputs, dtype=dtypes.string)
        if self._standardize in ("lower", "lower_and_strip_punctuation"):
            inputs = string_ops.lower(inputs)
        if self._standardize in ("strip_punctuation", "lower_and_strip_punctuation"):
            inputs = string_ops.regex_replace(inputs, STRIP_PUNCTUATION, "")
        if callable(self._standardize):
            inputs = self._standardize(inputs)
        if self._split is not None:
            if inputs.shape.rank > 1:
                if inputs.shape.as_list()[-1] != 1:
                    raise ValueError(
                        "When using `TextVectorization` to tokenize strings, the input rank "
                        "must be 1 or the last shape dimension must be 1. Received: "
                        f"inputs.shape={inputs.shape} with rank={inputs.shape.rank}")
                inputs = A.squeeze(inputs, [-1])
            if self._split == "whitespace":
                inputs = string_ops.split(inputs)
            elif self._split == "character":
                inputs = unicode_split(inputs, "UTF-8")
            else:
                inputs = self._split(inputs)
        if self._ngrams is not None:
            inputs = string_ops.ngrams(inputs, ngram_width=self._ngrams, separator=" ")
        return inputs

    def adapt(self, data, batch_size=None, steps=None):
        """The vocabulary from the standardized, split tokens of ``data`` (strings, an array,
        a tensor, a dataset or an iterable of batches)."""
        if isinstance(data, Dataset):
            batches = data.take(steps) if steps is not None else data
        elif isinstance(data, (list, tuple, np.ndarray, Tensor)):
            data = convert_to_tensor(np.asarray(data) if isinstance(data, (list, tuple))
                                     else data, dtype=dtypes.string)
            batches = [A.expand_dims(data, -1) if data.shape.rank == 1 else data]
        else:
            batches = data
        self._lookup_layer.adapt(self._preprocess(batch) for i, batch in enumerate(batches)
                                 if steps is None or i < steps)

    def call(self, inputs):
        lookups = self._lookup_layer(self._preprocess(inputs))
        if self._output_mode != "int":
            return lookups
        if isinstance(lookups, RaggedTensor):
            if self._ragged:
                return lookups
            return lookups.to_tensor(default_value=np.int64(0),
                                     shape=[None] * (lookups.shape.rank - 1) +
                                     [self._output_sequence_length])
        if self._output_sequence_length is None:
            return lookups
        length = self._output_sequence_length
        lookups = lookups[..., :length]
        padding = [[0, 0]] * (lookups.shape.rank - 1) + \
            [[0, length - A.shape(lookups)[-1]]]
        return A.pad(lookups, padding)

    def get_vocabulary(self, include_special_tokens=True):
        return self._lookup_layer.get_vocabulary(include_special_tokens)

    def vocabulary_size(self):
        return self._lookup_layer.vocabulary_size()

    def set_vocabulary(self, vocabulary, idf_weights=None):
        self._lookup_layer.set_vocabulary(vocabulary, idf_weights=idf_weights)

    def get_config(self):
        config = super().get_config()
        config.update(max_tokens=self._lookup_layer.max_tokens, standardize=self._standardize,
                      split=self._split, ngrams=self._ngrams_arg,
                      output_mode=self._output_mode,
                      output_sequence_length=self._output_sequence_length,
                      pad_to_max_tokens=self._lookup_layer.pad_to_max_tokens,
                      sparse=self._lookup_layer.sparse, ragged=self._ragged,
                      vocabulary=self._lookup_layer.get_config()["vocabulary"],
                      idf_weights=self._lookup_layer.get_config()["idf_weights"],
                      encoding=self._encoding,
                      vocabulary_size=self.vocabulary_size())
        return config
