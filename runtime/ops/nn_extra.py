"""The rest of ``tf.nn``: sparse embedding lookups, LRN, pooling with argmax, CTC decoding,
isotonic regression, and ``tf.math.approx_max_k/min_k``.

Most are compositions of existing ops, as TensorFlow writes them in Python, so their
gradients come from the ops they are made of; MaxPoolWithArgmax, CTCGreedyDecoder and
IsotonicRegression are graph ops (graph/ops/nn.py) as in TensorFlow.
"""
from __future__ import annotations

import collections

from graph import dtypes
from graph.dtypes import as_dtype
from runtime.name_scope import name_scope
from runtime.ops import array_ops as A
from runtime.ops import math_ops as M
from runtime.ops import special_ops as S
from runtime.ops.core import apply_op, convert_to_tensor
from runtime.ops.nn_ops import (_window_list, batch_normalization, embedding_lookup,
                                sigmoid_cross_entropy_with_logits,
                                softmax_cross_entropy_with_logits, top_k)

ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])
MaxPoolWithArgmax = collections.namedtuple("MaxPoolWithArgmax", ["output", "argmax"])
IsotonicRegression = collections.namedtuple("IsotonicRegression", ["output", "segments"])


def _approx_k(operand, k, reduction_dimension, largest: bool, name):
    """Exact top-k along ``reduction_dimension`` (a valid "approximate" answer)."""
    x = convert_to_tensor(operand)
    rank = x.shape.rank
    axis = reduction_dimension % rank if rank else reduction_dimension
    perm = None
    if axis != rank - 1:
        perm = [d for d in range(rank) if d != axis] + [axis]
        x = A.transpose(x, perm)
    values, indices = top_k(x if largest else M.negative(x), k, name=name)
    if not largest:
        values = M.negative(values)
    if perm is not None:
        inverse = [perm.index(d) for d in range(rank)]
        values, indices = A.transpose(values, inverse), A.transpose(indices, inverse)
    return ApproxTopK(values, indices)


def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """``tf.math.approx_max_k``: ``(values, int32 indices)`` of the k largest, largest first."""
    return _approx_k(operand, k, reduction_dimension, True, name or "ApproxTopK")


def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """``tf.math.approx_min_k``: the k smallest, smallest first."""
    return _approx_k(operand, k, reduction_dimension, False, name or "ApproxTopK")


# -- normalization ------------------------------------------------------------------------------

def local_response_normalization(input, depth_radius=5, bias=1.0, alpha=1.0, beta=0.5,  # noqa: A002
                                 name=None):
    """``tf.nn.lrn``: ``x / (bias + alpha * sum of x² over depth ± depth_radius) ** beta``
    along the last axis of a 4-D float tensor (a sum of shifted squares: differentiable)."""
    x = convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError(f"input must be 4-dimensional, got shape {x.shape}")
    if not x.dtype.is_floating:
        raise TypeError(f"Value passed to parameter 'input' has DataType {x.dtype.name} not in "
                        "list of allowed values: float16, bfloat16, float32")
    r = int(depth_radius)
    with name_scope(name or "LRN"):
        padded = A.pad(M.square(x), [[0, 0], [0, 0], [0, 0], [r, r]])
        depth = A.shape(x)[3]
        window = M.add_n([padded[..., i:i + depth] for i in range(2 * r + 1)]) if r else \
            M.square(x)
        scale = M.add(M.multiply(window, M.cast(alpha, x.dtype)), M.cast(bias, x.dtype))
        return M.multiply(x, M.pow(scale, M.cast(-beta, x.dtype)))


lrn = local_response_normalization


def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,  # noqa: A002
                                         variance_epsilon, scale_after_normalization,
                                         name=None):
    """``(input - mean) / sqrt(variance + eps)``, times ``gamma`` when
    ``scale_after_normalization``, plus ``beta``."""
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon,
                               name=name or "BatchNormWithGlobalNormalization")


# -- pooling ------------------------------------------------------------------------------------

def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",  # noqa: A002
                         output_dtype=dtypes.int64, include_batch_in_index=False, name=None):
    """``(output, argmax)``: each window's max and its flat index ``(y * W + x) * C + c``
    (``+ b * H * W * C`` with ``include_batch_in_index``)."""
    if data_format != "NHWC":
        raise ValueError(f"Data formats other than 'NHWC' are not yet supported, got "
                         f"{data_format!r}")
    x = convert_to_tensor(input)
    if x.shape.rank is not None and x.shape.rank != 4:
        raise ValueError(f"tf.nn.max_pool_with_argmax: input must have rank 4, got shape "
                         f"{x.shape}")
    if not isinstance(padding, str) or padding.upper() not in ("SAME", "VALID"):
        raise ValueError(f"Value for attr 'padding' of {padding!r} is not in the list of "
                         f"allowed values: \"SAME\", \"VALID\"")
    ksize, strides = (_window_list(v, 2, what, "max_pool_with_argmax")
                      for v, what in ((ksize, "ksize"), (strides, "strides")))
    output, argmax = apply_op("MaxPoolWithArgmax", [x],
                              {"ksize": ksize, "strides": strides, "padding": padding.upper(),
                               "Targmax": as_dtype(output_dtype),
                               "include_batch_in_index": bool(include_batch_in_index)},
                              name=name or "MaxPoolWithArgmax")
    return MaxPoolWithArgmax(output, argmax)


def _dilation_attrs(strides, padding, data_format, dilations, fn):
    if data_format != "NHWC":
        raise ValueError(f"`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    return {"strides": _window_list(strides, 2, "strides", fn),
            "rates": _window_list(dilations if dilations is not None else 1, 2, "dilations", fn),
            "padding": padding.upper() if isinstance(padding, str) else padding}


def dilation2d(input, filters, strides, padding, data_format="NHWC", dilations=None,  # noqa: A002
               name=None):
    """``tf.nn.dilation2d``: grayscale morphological dilation with a [h, w, C] filter."""
    x = convert_to_tensor(input)
    f = convert_to_tensor(filters, dtype=x.dtype)
    return apply_op("Dilation2D", [x, f],
                    _dilation_attrs(strides, padding, data_format, dilations, "dilation2d"),
                    name=name or "Dilation2D")


def erosion2d(value, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """``tf.nn.erosion2d``: ``-dilation2d(-value, filters reversed in h and w)``, as TF."""
    x = convert_to_tensor(value)
    f = convert_to_tensor(filters, dtype=x.dtype)
    attrs = _dilation_attrs(strides, padding, data_format, dilations, "erosion2d")
    with name_scope(name or "erosion2d"):
        return M.negative(apply_op("Dilation2D", [M.negative(x), A.reverse(f, [0, 1])], attrs,
                                   name="Dilation2D"))


# -- sparse embedding lookups -------------------------------------------------------------------

def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """Combines the embeddings of each row of ``sp_ids`` ('sum', 'mean' by default,
    'sqrtn'), weighted by ``sp_weights``; rows past the last non-empty one are absent."""
    combiner = combiner or "mean"
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    with name_scope(name or "embedding_lookup_sparse"):
        segment_ids = M.cast(sp_ids.indices[:, 0], dtypes.int32)
        ids, idx = A.unique(sp_ids.values)
        rows = A.gather(embedding_lookup(params, ids, max_norm=max_norm), idx)
        if sp_weights is None:
            weights = A.ones(A.shape(sp_ids.values), dtype=rows.dtype)
        else:
            weights = M.cast(sp_weights.values, rows.dtype)
        extra = A.ones([M.subtract(A.rank(rows), 1)], dtype=dtypes.int32)
        column = A.reshape(weights, A.concat([A.shape(weights), extra], axis=0))
        total = S.segment_sum(M.multiply(rows, column), segment_ids)
        if combiner == "sum":
            return total
        norm = S.segment_sum(weights if combiner == "mean" else M.square(weights), segment_ids)
        if combiner == "sqrtn":
            norm = M.sqrt(norm)
        norm = A.reshape(norm, A.concat([A.shape(norm), extra], 0))
        if sp_weights is None:  # TF's sparse_segment_mean/sqrt_n: times the reciprocal
            return M.multiply(total, S.divide_no_nan(A.ones_like(norm), norm))
        return S.divide_no_nan(total, norm)


def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """``embedding_lookup_sparse`` that drops negative ids (and non-positive weights unless
    summing) and gives every row of ``sparse_ids`` a result: the ``default_id`` embedding,
    or zeros, for an empty row; higher-rank ids are flattened to rows and back."""
    from runtime.sparse import sparse_math as SM
    from runtime.sparse.sparse_tensor import SparseTensor
    with name_scope(name or "embedding_lookup"):
        shape = sparse_ids.dense_shape
        ids = SM.reshape(sparse_ids, A.stack([M.reduce_prod(shape[:-1]), shape[-1]]))
        weights = None if sparse_weights is None else \
            SparseTensor(ids.indices, sparse_weights.values, ids.dense_shape)
        keep = M.greater_equal(ids.values, 0)
        if combiner != "sum" and weights is not None:
            keep = M.logical_and(keep, M.greater(weights.values, 0))
        ids = SM.retain(ids, keep)
        if weights is not None:
            weights = SM.retain(weights, keep)
        ids, empty = SM.fill_empty_rows(ids, default_id or 0)
        if weights is not None:
            weights, _ = SM.fill_empty_rows(weights, 1.0)
        result = embedding_lookup_sparse(embedding_weights, ids, weights, combiner=combiner,
                                         max_norm=max_norm)
        if default_id is None:
            empty = A.reshape(empty, A.concat([A.shape(empty), A.ones(
                [M.subtract(A.rank(result), 1)], dtype=dtypes.int32)], 0))
            result = M.where(empty, A.zeros_like(result), result)
        return A.reshape(result, A.concat([M.cast(shape[:-1], dtypes.int32),
                                           A.shape(result)[1:]], 0))


# -- CTC ----------------------------------------------------------------------------------------

def _move_blank_last(logits, blank_index):
    """Logits with class ``blank_index`` moved last (TF's CTC kernels take the last class as
    the blank); the labels' ids above it then drop by one."""
    return A.concat([logits[:, :, :blank_index], logits[:, :, blank_index + 1:],
                     logits[:, :, blank_index:blank_index + 1]], axis=2)


def collapse_repeated(labels, seq_length, name=None):
    """``(labels with each run of repeats kept once, left-aligned and zero-padded, new
    lengths)``, as TensorFlow composes it."""
    with name_scope(name or "collapse_repeated_labels"):
        labels = convert_to_tensor(labels)
        seq_length = convert_to_tensor(seq_length)
        keep = A.concat([A.ones_like(labels[:, :1], dtype=dtypes.bool_),
                         M.not_equal(labels[:, 1:], labels[:, :-1])], axis=1)
        keep = M.logical_and(keep, A.sequence_mask(seq_length, maxlen=A.shape(labels)[1]))
        new_len = M.reduce_sum(M.cast(keep, dtypes.int32), axis=1)
        new_max = M.reduce_max(new_len)
        slots = A.reshape(A.sequence_mask(new_len, maxlen=new_max), [-1])
        flat = A.scatter_nd(A.expand_dims(A.boolean_mask(A.range(A.size(slots)), slots), 1),
                            A.boolean_mask(A.reshape(labels, [-1]), A.reshape(keep, [-1])),
                            A.shape(slots))
        return (A.reshape(flat, A.stack([A.shape(labels)[0], new_max])),
                M.cast(new_len, seq_length.dtype))


def ctc_greedy_decoder(inputs, sequence_length, merge_repeated=True, blank_index=None):
    """``([SparseTensor of int64 labels], -sum of the best logits [batch, 1])``: the best
    class per step, repeats merged, blanks dropped; ``blank_index`` defaults to the last
    class (another index is moved last, and labels above it shifted back, as TF does)."""
    from runtime.sparse.sparse_tensor import SparseTensor
    x = convert_to_tensor(inputs)
    lengths = convert_to_tensor(sequence_length, dtype=dtypes.int32)
    classes = x.shape[-1] if x.shape.rank is not None else None
    if blank_index is not None and blank_index < 0:
        blank_index += classes
    moved = blank_index is not None and blank_index != classes - 1
    if moved:
        x = _move_blank_last(x, blank_index)
    indices, values, shape, log_prob = apply_op(
        "CTCGreedyDecoder", [x, lengths], {"merge_repeated": bool(merge_repeated)},
        name="CTCGreedyDecoder")
    if moved:
        values = M.where(M.greater_equal(values, blank_index), M.add(values, 1), values)
    return [SparseTensor(indices, values, shape)], log_prob


def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """``tf.nn.ctc_loss``: the negative log-likelihood of each label sequence under the
    per-step ``logits`` (all alignments, blanks between and around labels), with its
    gradient. Dense ``labels`` [batch, max_len] take ``label_length`` and blank 0 by default;
    a SparseTensor needs ``blank_index``. A sequence too short for its labels has loss inf."""
    from runtime.sparse.sparse_tensor import SparseTensor
    with name_scope(name or "ctc_loss"):
        x = convert_to_tensor(logits)
        if not logits_time_major:
            x = A.transpose(x, [1, 0, 2])
        classes = x.shape[-1] if x.shape.rank is not None else None
        if isinstance(labels, SparseTensor):
            if blank_index is None:
                raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                                 "`SparseTensor`.")
            indices, values = labels.indices, M.cast(labels.values, dtypes.int32)
        else:
            dense = M.cast(convert_to_tensor(labels), dtypes.int32)
            blank_index = 0 if blank_index is None else blank_index
            mask = A.sequence_mask(convert_to_tensor(label_length), maxlen=A.shape(dense)[1])
            indices = M.where(mask)
            values = A.gather_nd(dense, indices)
        if classes is None:
            raise ValueError("ctc_loss needs logits whose number of classes is known")
        if blank_index < 0:
            blank_index += classes
        if blank_index != classes - 1:
            x = _move_blank_last(x, blank_index)
            values = M.where(M.less(values, blank_index), values, M.subtract(values, 1))
        lengths = M.cast(convert_to_tensor(logit_length), dtypes.int32)
        loss, _ = apply_op("CTCLoss", [x, indices, values, lengths], name="CTCLoss")
        return loss


def ctc_beam_search_decoder(inputs, sequence_length, beam_width=100, top_paths=1):
    """``([top_paths SparseTensors of int64 labels], log probabilities [batch, top_paths])``
    by TensorFlow's prefix beam search over time-major ``inputs`` (blank: the last class)."""
    from runtime.sparse.sparse_tensor import SparseTensor
    x = convert_to_tensor(inputs)
    lengths = convert_to_tensor(sequence_length, dtype=dtypes.int32)
    top_paths = int(top_paths)
    out = apply_op("CTCBeamSearchDecoder", [x, lengths],
                   {"beam_width": int(beam_width), "top_paths": top_paths},
                   name="CTCBeamSearchDecoder")
    decoded = [SparseTensor(out[p], out[top_paths + p], out[2 * top_paths + p])
               for p in range(top_paths)]
    return decoded, out[-1]


# -- isotonic regression ------------------------------------------------------------------------

_ISOTONIC_FLOAT = {"int8": dtypes.float32, "int16": dtypes.float32, "uint8": dtypes.float32,
                   "uint16": dtypes.float32}


def isotonic_regression(inputs, decreasing=True, axis=-1):
    """``(output, int32 segments)``: the least-squares non-increasing (or non-decreasing) fit
    along ``axis`` and the id of the block each entry was pooled into; integers give
    float64 (8/16-bit ones float32), as TensorFlow's promotions."""
    x = convert_to_tensor(inputs)
    if not x.dtype.is_floating:
        x = M.cast(x, _ISOTONIC_FLOAT.get(x.dtype.name, dtypes.float64))
    rank = x.shape.rank
    axis = axis % rank
    perm = None
    if axis != rank - 1:
        perm = list(range(rank))
        perm[axis], perm[-1] = perm[-1], perm[axis]
        x = A.transpose(x, perm)
    with name_scope("isotonic_regression"):
        if decreasing:
            output, segments = apply_op("IsotonicRegression", [x], name="IsotonicRegression")
        else:
            output, segments = apply_op("IsotonicRegression", [M.negative(x)],
                                        name="IsotonicRegression")
            output = M.negative(output)
    if perm is not None:
        output, segments = A.transpose(output, perm), A.transpose(segments, perm)
    return IsotonicRegression(output, segments)


# -- candidate sampling -------------------------------------------------------------------------

_SAMPLER_FIELDS = ("sampled_candidates", "true_expected_count", "sampled_expected_count")
_SAMPLER_RESULTS = {op: collections.namedtuple(op, _SAMPLER_FIELDS)  # TensorFlow's op outputs
                    for op in ("LogUniformCandidateSampler", "UniformCandidateSampler",
                               "FixedUnigramCandidateSampler")}


def _candidate_sampler(op, true_classes, num_true, num_sampled, unique, range_max, seed, name,
                       **extra):
    from runtime.ops.random_ops import get_seed
    seed1, seed2 = get_seed(seed)
    true = convert_to_tensor(true_classes, dtype=dtypes.int64)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled), "unique": bool(unique),
             "range_max": int(range_max), "seed": seed1, "seed2": seed2, **extra}
    return _SAMPLER_RESULTS[op](*apply_op(op, [true], attrs, name=name or op))


def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """``(sampled_candidates, true_expected_count, sampled_expected_count)``: classes drawn
    with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1) (Zipf-like), TensorFlow's values."""
    return _candidate_sampler("LogUniformCandidateSampler", true_classes, num_true, num_sampled,
                              unique, range_max, seed, name)


def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """Classes drawn uniformly from [0, range_max), TensorFlow's values."""
    return _candidate_sampler("UniformCandidateSampler", true_classes, num_true, num_sampled,
                              unique, range_max, seed, name)


def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Classes drawn with probability proportional to ``unigrams`` (or the last column of
    ``vocab_file``'s lines) to the power ``distortion``, TensorFlow's values."""
    if bool(vocab_file) == bool(len(unigrams)):
        raise ValueError("fixed_unigram_candidate_sampler needs exactly one of vocab_file and "
                         "unigrams")
    return _candidate_sampler(
        "FixedUnigramCandidateSampler", true_classes, num_true, num_sampled, unique, range_max,
        seed, name, vocab_file=str(vocab_file), distortion=float(distortion),
        num_reserved_ids=int(num_reserved_ids), num_shards=int(num_shards), shard=int(shard),
        unigrams=tuple(float(u) for u in unigrams))


def _sum_rows(x):
    """Row sums as a matmul with ones, as TensorFlow sums them (its gradient is faster)."""
    ones = A.ones(A.stack([A.shape(x)[1], 1]), dtype=x.dtype)
    return A.reshape(M.matmul(x, ones), [-1])


def _sampled_logits(weights, biases, labels, inputs, num_sampled, num_classes, num_true,
                    sampled_values, remove_accidental_hits, seed=None):
    """(logits [batch, num_true + num_sampled], labels) of the true and sampled classes, less
    log of their expected counts; a sampled class that is a true one gets -FLT_MAX added."""
    from runtime.gradients.tape import stop_gradient
    if isinstance(weights, (list, tuple)):
        weights = weights[0] if len(weights) == 1 else A.concat(list(weights), 0)
    if isinstance(biases, (list, tuple)):
        biases = biases[0] if len(biases) == 1 else A.concat(list(biases), 0)
    inputs = convert_to_tensor(inputs)
    labels = M.cast(convert_to_tensor(labels), dtypes.int64)
    flat = A.reshape(labels, [-1])
    if sampled_values is None:
        sampled_values = log_uniform_candidate_sampler(labels, num_true, num_sampled, True,
                                                       num_classes, seed=seed)
    sampled, true_count, sampled_count = (stop_gradient(s) for s in sampled_values)
    sampled = M.cast(sampled, dtypes.int64)
    n_true = A.shape(flat)[0]
    all_ids = A.concat([flat, sampled], 0)
    all_w = M.cast(embedding_lookup(weights, all_ids), inputs.dtype)
    all_b = M.cast(embedding_lookup(biases, all_ids), inputs.dtype)
    true_w, sampled_w = all_w[:n_true], all_w[n_true:]
    sampled_logits = M.add(M.matmul(inputs, sampled_w, transpose_b=True), all_b[n_true:])
    dim = A.shape(true_w)[1:2]
    dots = M.multiply(A.expand_dims(inputs, 1),
                      A.reshape(true_w, A.concat([[-1, num_true], dim], 0)))
    true_logits = A.reshape(_sum_rows(A.reshape(dots, A.concat([[-1], dim], 0))),
                            [-1, num_true])
    true_logits = M.add(true_logits, A.reshape(all_b[:n_true], [-1, num_true]))
    if remove_accidental_hits:
        hit = M.reduce_any(M.equal(A.expand_dims(labels, 2), sampled), axis=1)
        lowest = convert_to_tensor(-3.4028234663852886e38, dtype=sampled_logits.dtype)
        sampled_logits = M.where(hit, M.add(sampled_logits, lowest), sampled_logits)
    true_logits = M.subtract(true_logits, M.log(true_count))
    sampled_logits = M.subtract(sampled_logits, M.log(sampled_count))
    logits = A.concat([true_logits, sampled_logits], 1)
    targets = A.concat([M.divide(A.ones_like(true_logits), num_true),
                        A.zeros_like(sampled_logits)], 1)
    return logits, stop_gradient(targets)


def sampled_softmax_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
                         sampled_values=None, remove_accidental_hits=True, seed=None,
                         name="sampled_softmax_loss"):
    """``tf.nn.sampled_softmax_loss``: softmax cross entropy over the true classes and
    ``num_sampled`` log-uniformly sampled ones, per example [batch]."""
    with name_scope(name):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                          num_classes, num_true, sampled_values,
                                          remove_accidental_hits, seed)
        return softmax_cross_entropy_with_logits(labels=targets, logits=logits)


def nce_loss(weights, biases, labels, inputs, num_sampled, num_classes, num_true=1,
             sampled_values=None, remove_accidental_hits=False, name="nce_loss"):
    """``tf.nn.nce_loss``: noise-contrastive estimation, the logistic loss of telling the
    true classes from sampled ones, summed per example [batch]."""
    with name_scope(name):
        logits, targets = _sampled_logits(weights, biases, labels, inputs, num_sampled,
                                          num_classes, num_true, sampled_values,
                                          remove_accidental_hits)
        return _sum_rows(sigmoid_cross_entropy_with_logits(labels=targets, logits=logits))
